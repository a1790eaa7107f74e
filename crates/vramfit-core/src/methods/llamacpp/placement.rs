//! The scenario's placement (several GPUs, `-ot`, `--cpu-moe`, host
//! memory options) read as llama.cpp's devices, and the ring over them.
//!
//! # What the ring means with several GPUs
//!
//! ```text
//! ring = the GPU with the largest needed / usable,   usable = M_g − 1 GiB
//! ```
//!
//! llama.cpp fails to load when any one device runs out, so the ring is
//! the tightest GPU's; every GPU's part is in the report. With `-ngl` on
//! auto the ring holds every layer (as with one GPU) and the layers that
//! fit are the report's.

use super::devices::{estimate_devices, Devices, DevicesEstimate};
use super::overrides;
use super::{LlamaCppInputs, FIT_MARGIN};
use crate::catalog::find_gpu;
use crate::methods::engine::EngineRefusal;
use crate::methods::Refusal;
use crate::scenario::Scenario;

/// A GPU's memory as llama.cpp sees it: what CUDA reports, else the
/// driver's total, else the nominal capacity (as for the first GPU).
fn memory_of(name: &str) -> Result<u64, Refusal> {
    let g = find_gpu(name).map_err(|_| Refusal::Engine(EngineRefusal::Input))?;
    Ok(g.cuda_total_bytes
        .or(g.driver_total_bytes)
        .unwrap_or(g.capacity_bytes))
}

/// The devices of a scenario, `None` for one GPU with llama.cpp's
/// defaults (the single-GPU estimate).
pub(crate) fn devices_of(s: &Scenario, first_gpu: u64) -> Result<Option<Devices>, Refusal> {
    let p = &s.placement;
    if s.layout.gpus <= 1 && p.is_default() {
        return Ok(None);
    }
    let mut gpus = vec![first_gpu];
    match p.more_gpus.is_empty() {
        true => gpus.resize(s.layout.gpus.max(1) as usize, first_gpu),
        false => {
            for name in &p.more_gpus {
                gpus.push(memory_of(name)?);
            }
        }
    }
    let values: Vec<&str> = p.override_tensor.iter().map(String::as_str).collect();
    let mut list = overrides::parse(&values).map_err(|_| Refusal::Engine(EngineRefusal::Input))?;
    if p.cpu_moe {
        list.push(overrides::cpu_moe());
    }
    Ok(Some(Devices {
        gpus,
        tensor_split: p.tensor_split.clone(),
        split_mode: p.split_mode,
        main_gpu: p.main_gpu as usize,
        overrides: list,
    }))
}

/// The plan over the devices.
/// The host buffer is named as llama.cpp names it (`CPU_Mapped`, or `CPU`
/// with `--no-mmap`).
pub(crate) fn plan_of(
    spec: &crate::model::ModelSpec,
    inputs: &LlamaCppInputs,
    devices: &Devices,
    placement: &crate::scenario::Placement,
) -> Result<DevicesEstimate, Refusal> {
    let mut e = estimate_devices(spec, inputs, devices)
        .map_err(|_| Refusal::Engine(EngineRefusal::Input))?;
    e.plan.host.weights_buffer = match placement.no_mmap {
        true => "CPU",
        false => "CPU_Mapped",
    };
    e.plan.host.locked = placement.mlock && !placement.no_mmap;
    e.all_layers.host.weights_buffer = e.plan.host.weights_buffer;
    e.all_layers.host.locked = e.plan.host.locked;
    Ok(e)
}

/// A note when the host's part is above the host memory given.
pub(crate) fn host_note(
    s: &Scenario,
    host_bytes: u64,
    mapped: bool,
) -> Option<crate::methods::engine::EngineNote> {
    let ram = s.host_ram_bytes.get();
    (ram > 0 && host_bytes > ram).then_some(crate::methods::engine::EngineNote::HostMemoryAbove {
        host_bytes,
        host_ram_bytes: ram,
        mapped,
    })
}

/// The plan the ring reads: `-ngl` as given, else every layer on the GPUs
/// (as with one GPU, the split llama.cpp would choose is beside it).
pub(crate) fn ring_plan(e: &DevicesEstimate, ngl_given: bool) -> &super::devices::Plan {
    match ngl_given {
        true => &e.plan,
        false => &e.all_layers,
    }
}

/// The index of the tightest GPU (largest needed / usable) of a plan.
pub(crate) fn tightest(plan: &super::devices::Plan) -> usize {
    let ratio = |d: &super::devices::DevicePlan| {
        d.total as f64 / d.memory.saturating_sub(FIT_MARGIN).max(1) as f64
    };
    plan.devices
        .iter()
        .max_by(|a, b| ratio(a).total_cmp(&ratio(b)))
        .map_or(0, |d| d.index)
}

/// The `llama-server` flags of the placement (`-ts`, `-sm`, `-mg`, `-ot`,
/// `--cpu-moe`, `--no-mmap`, `--mlock`), appended to its line; a pattern
/// is quoted for the shell.
pub(crate) fn command_flags(p: &crate::scenario::Placement) -> String {
    let mut out = String::new();
    if !p.tensor_split.is_empty() {
        let shares: Vec<String> = p.tensor_split.iter().map(|s| format!("{s}")).collect();
        out.push_str(&format!(" -ts {}", shares.join(",")));
    }
    if p.split_mode != crate::scenario::SplitMode::Layer {
        out.push_str(&format!(" -sm {}", p.split_mode.id()));
    }
    if p.main_gpu != 0 {
        out.push_str(&format!(" -mg {}", p.main_gpu));
    }
    for o in &p.override_tensor {
        out.push_str(&format!(" -ot '{}'", o.replace('\'', "'\\''")));
    }
    for (on, flag) in [
        (p.cpu_moe, " --cpu-moe"),
        (p.no_mmap, " --no-mmap"),
        (p.mlock, " --mlock"),
    ] {
        if on {
            out.push_str(flag);
        }
    }
    out
}

/// What macOS leaves to itself when the wired limit is raised (assumed:
/// 4 GiB; Apple documents no figure).
pub const MACOS_RESERVE: u64 = 4 << 30;

/// On Apple silicon, when the whole model does not fit Metal's default
/// wired limit but fits the unified memory less [`MACOS_RESERVE`]: the
/// limit to set, in MiB.
///
/// # Formula
///
/// ```text
/// N = ceil((needed + 1 GiB) / 1 MiB)      when  needed + 1 GiB > wired limit  and  N MiB ≤ memory − 4 GiB
/// ```
///
/// `needed` the GPU side with every layer offloaded; `sudo sysctl
/// iogpu.wired_limit_mb=N` raises the limit until the next restart.
pub(crate) fn wired_note(
    gpu: &crate::methods::engine::EngineGpu,
    needed: u64,
) -> Option<crate::methods::engine::EngineNote> {
    let g = gpu.catalog?;
    let wired = g.wired_limit_bytes?;
    let want = needed.saturating_add(FIT_MARGIN);
    let mb = want.div_ceil(1 << 20);
    (want > wired && (mb << 20) <= g.capacity_bytes.saturating_sub(MACOS_RESERVE))
        .then_some(crate::methods::engine::EngineNote::RaiseWiredLimit { mb })
}

/// On an AMD APU, when the whole model does not fit the default GTT but
/// fits the memory less [`crate::catalog::gpus::apu::APU_HOST_RESERVE`]:
/// the kernel options that raise it.
///
/// # Formula
///
/// ```text
/// gtt = needed + 1 GiB − vram        when  needed + 1 GiB > limit  and  needed + 1 GiB ≤ memory − 8 GiB
/// ttm.pages_limit = ceil(gtt / 4 KiB),  amdgpu.gttsize = ceil(gtt / 1 MiB)
/// ```
pub(crate) fn gtt_note(
    gpu: &crate::methods::engine::EngineGpu,
    needed: u64,
    bios_vram_bytes: Option<u64>,
) -> Option<crate::methods::engine::EngineNote> {
    use crate::catalog::gpus::apu;
    let g = gpu.catalog?;
    (apu::shared_row(&g.name)?.limit == apu::SharedLimit::AmdGtt).then_some(())?;
    let want = needed.saturating_add(FIT_MARGIN);
    let fits =
        want > gpu.total_bytes && want <= g.capacity_bytes.saturating_sub(apu::APU_HOST_RESERVE);
    let (pages_limit, gttsize_mb) =
        apu::amd_gtt_options(want.saturating_sub(apu::bios_vram(bios_vram_bytes)));
    fits.then_some(crate::methods::engine::EngineNote::RaiseGttLimit {
        pages_limit,
        gttsize_mb,
    })
}
