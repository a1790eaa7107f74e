//! Several GPUs and tensor overrides: which device holds each tensor, each
//! layer's cache and a compute buffer, and which GPU limits the context.
//!
//! Source: llama.cpp `src/llama-model.cpp`, `load_tensors`: the split of
//! the layers (`splits`: `--tensor-split`, else each device's free
//! memory, summed and normalized; layer `il` of the offloaded ones goes to
//! the first device whose cumulative share exceeds `(il − i_gpu_start) /
//! n_offloaded`), the output layer counted as layer `n_layer`, the input
//! layer on the host, `--split-mode none` (everything on `--main-gpu`),
//! `row` (matrices split by rows over the GPUs in the `--tensor-split`
//! shares, the rest and the cache on `--main-gpu`); the overrides
//! ([`super::overrides`]) before all of it. The cache of a layer lives
//! where its layer does (`src/llama-kv-cache.cpp`, `offload_kqv`); each
//! GPU with work gets a compute buffer of its own layers' graph, and the
//! host matrices products run on the first GPU (`ggml-backend.cpp`, the
//! scheduler's `offload_op`).

use super::overrides::{target_of, Override, Target};
use super::tensors::Role;
use super::{buffers, kv, offload, LlamaCppInputs, LlamaCppRefusal, Prepared};
use crate::units::sum;
use serde::Serialize;

pub use crate::scenario::SplitMode;

/// The machine and the placement options.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Devices {
    /// Each GPU's memory, bytes, in llama.cpp's order (`CUDA0`, `CUDA1`, ...).
    pub gpus: Vec<u64>,
    /// `--tensor-split`: each GPU's share; empty: their memory.
    pub tensor_split: Vec<f64>,
    pub split_mode: SplitMode,
    /// `--main-gpu`.
    pub main_gpu: usize,
    /// `-ot` (and `--cpu-moe`), in order.
    pub overrides: Vec<Override>,
}

/// One GPU's part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct DevicePlan {
    /// Its place in the list.
    pub index: usize,
    pub memory: u64,
    pub weights: u64,
    pub k_cache: u64,
    pub v_cache: u64,
    pub compute: u64,
    pub total: u64,
    /// The repeating layers whose cache it holds.
    pub layers: Vec<u64>,
    /// It holds the output layer.
    pub output_layer: bool,
}

/// The host's part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct HostPlan {
    /// The buffer the host weights are in, as llama.cpp names it:
    /// `CPU_Mapped` (the file mapped, the default), `CPU` (`--no-mmap`).
    pub weights_buffer: &'static str,
    /// `--mlock`: the mapped pages are locked in memory.
    pub locked: bool,
    pub weights: u64,
    pub kv_cache: u64,
    /// The CPU backend's compute buffer (`CUDA_Host`, or `CPU` where the
    /// GPU has no host buffer type: Metal).
    pub compute: u64,
    /// The BLAS backend's compute buffer (`CPU`, beside the first), 0
    /// without one.
    pub blas_compute: u64,
    pub output: u64,
    pub total: u64,
}

/// Where everything goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    pub devices: Vec<DevicePlan>,
    pub host: HostPlan,
}

/// Cumulative, normalized shares (`splits` in `load_tensors`).
///
/// ```
/// use vramfit_core::methods::llamacpp::devices::cumulative_splits;
/// assert_eq!(cumulative_splits(&[3.0, 1.0]), vec![0.75, 1.0]);
/// ```
pub fn cumulative_splits(shares: &[f64]) -> Vec<f64> {
    let mut acc = 0.0;
    let mut out: Vec<f64> = shares
        .iter()
        .map(|s| {
            acc += s.max(0.0);
            acc
        })
        .collect();
    let total = out.last().copied().unwrap_or(0.0);
    if total > 0.0 {
        out.iter_mut().for_each(|s| *s /= total);
    }
    out
}

/// The device of each layer `0..=n_layer` (`n_layer`: the output layer),
/// `None` for the host.
///
/// # Formula
///
/// ```text
/// n = min(ngl, L + 1)      start = L + 1 − n   (output layer first; before PR #18148: L − min(ngl, L))
/// device(il) = host if il < start or il − start ≥ n,  else  first d with splits[d] > (il − start) / n
/// ```
///
/// ```
/// use vramfit_core::methods::llamacpp::devices::layer_devices;
/// // DeepSeek-V3 (61 layers) on the free memory of log A9's four GPUs.
/// let d = layer_devices(61, 99, true, &[29249.0, 23633.0, 23698.0, 48280.0]);
/// let count = |g| d[..61].iter().filter(|x| **x == Some(g)).count();
/// assert_eq!((count(0), count(1), count(2), count(3)), (15, 12, 12, 22));
/// assert_eq!(d[61], Some(3));
/// ```
pub fn layer_devices(
    n_layer: u64,
    ngl: u64,
    output_first: bool,
    shares: &[f64],
) -> Vec<Option<usize>> {
    let n = ngl.min(n_layer + 1);
    let start = match output_first {
        true => n_layer + 1 - n,
        false => n_layer - ngl.min(n_layer),
    };
    let splits = cumulative_splits(shares);
    (0..=n_layer)
        .map(|il| {
            if il < start || il - start >= n || splits.is_empty() {
                return None;
            }
            let x = (il - start) as f64 / n as f64;
            let d = splits
                .iter()
                .position(|s| *s > x)
                .unwrap_or(splits.len() - 1);
            Some(d)
        })
        .collect()
}

/// Where each tensor's bytes go: `None` for the host.
fn tensor_device(
    t: &super::GgufTensor,
    layer_dev: &[Option<usize>],
    d: &Devices,
    n_cpu_moe: u64,
) -> Option<usize> {
    match target_of(&d.overrides, &t.name) {
        Some(Target::Cpu) => return None,
        Some(Target::Gpu(g)) => return Some(g),
        None => {}
    }
    let n_layer = layer_dev.len().saturating_sub(1);
    match (t.layer, t.role) {
        (Some(i), _) if t.expert && i < n_cpu_moe => None,
        (Some(i), _) => layer_dev.get(i as usize).copied().flatten(),
        (None, Role::TokenEmbd | Role::PosEmbd) => None,
        (None, _) => layer_dev.get(n_layer).copied().flatten(),
    }
}

/// Refuses what llama.cpp refuses: no GPU, an override or `--main-gpu`
/// naming a GPU that is not there, shares that do not match the GPUs.
fn check(d: &Devices) -> Result<(), LlamaCppRefusal> {
    let bad = |reason: String| LlamaCppRefusal::InvalidInput {
        field: "devices",
        reason,
    };
    let n = d.gpus.len();
    if n == 0 {
        return Err(bad("no GPU given".to_string()));
    }
    if d.main_gpu >= n {
        return Err(bad(format!("--main-gpu {} with {n} GPUs", d.main_gpu)));
    }
    if !d.tensor_split.is_empty() && d.tensor_split.len() > n {
        return Err(bad(format!(
            "--tensor-split has {} shares for {n} GPUs",
            d.tensor_split.len()
        )));
    }
    if d.tensor_split.iter().any(|s| !s.is_finite() || *s < 0.0) {
        return Err(bad("--tensor-split shares must be 0 or more".to_string()));
    }
    for o in &d.overrides {
        if let Target::Gpu(g) = o.target {
            if g >= n {
                return Err(bad(format!("-ot {}: GPU {g} of {n}", o.pattern)));
            }
        }
    }
    Ok(())
}

/// Each GPU's share for the split: `--tensor-split`, else its memory.
fn shares(d: &Devices) -> Vec<f64> {
    let mut s: Vec<f64> = match d.tensor_split.iter().sum::<f64>() > 0.0 {
        true => d.tensor_split.clone(),
        false => d.gpus.iter().map(|m| *m as f64).collect(),
    };
    s.resize(d.gpus.len(), 0.0);
    s
}

/// The plan of a prepared file at `n_ctx` cells and `ngl` layers.
pub(crate) fn plan(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    d: &Devices,
    n_ctx: u64,
    ngl: u64,
) -> Result<Plan, LlamaCppRefusal> {
    check(d)?;
    let l = &p.layout;
    let n = d.gpus.len();
    let layer_dev: Vec<Option<usize>> = match d.split_mode {
        SplitMode::Layer => layer_devices(l.n_layer, ngl, inputs.output_layer_first, &shares(d)),
        SplitMode::None | SplitMode::Row => {
            let (on, out) = offload::layer_split(l.n_layer, ngl, inputs.output_layer_first);
            on.iter()
                .chain(std::iter::once(&out))
                .map(|g| g.then_some(d.main_gpu))
                .collect()
        }
    };
    let context = kv::context_size(
        n_ctx,
        inputs.n_batch,
        inputs.n_ubatch,
        inputs.n_parallel,
        inputs.kv_unified,
    );
    let cache = super::cache_types(inputs, p);
    let kv = kv::kv_cache(l, &context, cache)?;
    let mut devices: Vec<DevicePlan> = (0..n)
        .map(|i| DevicePlan {
            index: i,
            memory: d.gpus[i],
            ..DevicePlan::default()
        })
        .collect();
    let mut host = HostPlan::default();
    let row_shares = cumulative_shares(&shares(d));
    for (t, bytes) in p.tensors.iter() {
        match tensor_device(t, &layer_dev, d, inputs.n_cpu_moe) {
            Some(g)
                if d.split_mode == SplitMode::Row && t.role.quantizable() && t.layer.is_some() =>
            {
                for (dev, share) in devices.iter_mut().zip(&row_shares) {
                    dev.weights += (*bytes as f64 * share).round() as u64;
                }
                let _ = g;
            }
            Some(g) => devices[g].weights = devices[g].weights.saturating_add(*bytes),
            None => {
                host.weights = host.weights.saturating_add(*bytes);
            }
        }
        let out_dev = layer_dev.last().copied().flatten();
        if l.tied && t.role == Role::TokenEmbd {
            if let Some(g) = out_dev {
                devices[g].weights = devices[g].weights.saturating_add(*bytes);
            }
        }
    }
    for (i, layer) in kv.layers.iter().enumerate() {
        match layer_dev[i] {
            Some(g) => {
                let dev = &mut devices[g];
                dev.k_cache = dev.k_cache.saturating_add(layer.k_bytes);
                dev.v_cache = dev.v_cache.saturating_add(layer.v_bytes);
                dev.layers.push(i as u64);
            }
            None => host.kv_cache = host.kv_cache.saturating_add(layer.k_bytes + layer.v_bytes),
        }
    }
    let out_dev = layer_dev.last().copied().flatten();
    let device = |t: &super::GgufTensor| tensor_device(t, &layer_dev, d, inputs.n_cpu_moe);
    let names = buffers::weight_map(&p.tensors, &device, l.tied, out_dev);
    let (gpus, host_compute, blas_compute) = buffers::reserve(
        l,
        &context,
        kv.swa_cells,
        &super::graph::Placement {
            n_gpu: n,
            layer_dev: &layer_dev[..l.n_layer as usize],
            weights: &names,
            op_offload: inputs.op_offload,
            flash_attn: inputs.flash_attn,
            mla_per_head: p.layouts.mla == super::build::MlaCache::PerHead,
            n_copies: pipeline_copies(d, &layer_dev, inputs.n_cpu_moe),
            blas: inputs.blas,
            set_rows: p.layouts.set_rows,
            v_less: p.layouts.mla == super::build::MlaCache::Latent,
        },
        inputs.calibration.as_ref(),
    );
    host.output = buffers::output_buffer_bytes(l.n_vocab, context.n_seq_max);
    for (dev, b) in devices.iter_mut().zip(&gpus) {
        dev.compute = b.gpu_compute_bytes;
        dev.output_layer = out_dev == Some(dev.index);
        dev.total = sum([dev.weights, dev.k_cache, dev.v_cache, dev.compute]);
    }
    host.compute = host_compute;
    host.blas_compute = blas_compute;
    host.total = sum([
        host.weights,
        host.kv_cache,
        host.compute,
        host.blas_compute,
        host.output,
    ]);
    Ok(Plan { devices, host })
}

/// The scheduler's copies of each input: `GGML_SCHED_MAX_COPIES` (4, ggml's
/// default build) with pipeline parallelism, else 1.
///
/// # Formula
///
/// ```text
/// pipeline parallel ⇔ GPUs > 1 ∧ every layer and the output on a GPU ∧ split mode layer ∧ no -ot, no --n-cpu-moe
/// ```
///
/// Source: `src/llama-context.cpp` (`pipeline_parallel`: `n_devices() > 1`,
/// `n_gpu_layers > n_layer`, `LLAMA_SPLIT_MODE_LAYER`, `offload_kqv`, no
/// tensor overrides), `ggml/CMakeLists.txt` (`GGML_SCHED_MAX_COPIES` 4).
fn pipeline_copies(d: &Devices, layer_dev: &[Option<usize>], n_cpu_moe: u64) -> u64 {
    let parallel = d.gpus.len() > 1
        && d.split_mode == SplitMode::Layer
        && d.overrides.is_empty()
        && n_cpu_moe == 0
        && layer_dev.iter().all(|g| g.is_some());
    match parallel {
        true => 4,
        false => 1,
    }
}

/// Each GPU's fraction of a row-split matrix.
fn cumulative_shares(shares: &[f64]) -> Vec<f64> {
    let total: f64 = shares.iter().sum();
    shares
        .iter()
        .map(|s| if total > 0.0 { s / total } else { 0.0 })
        .collect()
}

/// The GPU that first runs out as the context grows, and the longest
/// context (a multiple of 256, at most `limit`) at which every GPU fits
/// its memory less llama.cpp's 1 GiB margin.
pub(crate) fn max_context(
    p: &Prepared,
    inputs: &LlamaCppInputs,
    d: &Devices,
    ngl: u64,
    limit: u64,
) -> Result<(Option<u64>, Option<usize>), LlamaCppRefusal> {
    let over = |cells: u64| -> Result<Option<usize>, LlamaCppRefusal> {
        let plan = plan(p, inputs, d, cells, ngl)?;
        Ok(plan
            .devices
            .iter()
            .find(|g| g.total > g.memory.saturating_sub(super::FIT_MARGIN))
            .map(|g| g.index))
    };
    let step = kv::CTX_PAD;
    let (mut lo, mut hi) = (1u64, limit / step);
    if hi == 0 {
        return Ok((None, None));
    }
    if let Some(g) = over(step)? {
        return Ok((None, Some(g)));
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        match over(mid * step)? {
            None => lo = mid,
            Some(_) => hi = mid - 1,
        }
    }
    let limiting = match lo * step >= limit {
        true => None,
        false => over((lo + 1) * step)?,
    };
    Ok((Some(lo * step), limiting))
}

/// The plan over several GPUs (or one, with overrides), what fits, and
/// which GPU limits the context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DevicesEstimate {
    pub plan: Plan,
    /// Every layer on the GPUs: what the whole model needs of each (the
    /// ring with `-ngl` on auto, as for one GPU).
    pub all_layers: Plan,
    /// `-ngl` as given, else the most that fit every GPU.
    pub gpu_layers: u64,
    pub layers_total: u64,
    /// The longest context every GPU fits (at most the trained context
    /// per slot).
    pub max_context: Option<u64>,
    /// The GPU that runs out first as the context grows past it.
    pub limiting_gpu: Option<usize>,
}

/// Every GPU within its memory less llama.cpp's 1 GiB margin.
fn fits(plan: &Plan) -> bool {
    plan.devices
        .iter()
        .all(|g| g.total <= g.memory.saturating_sub(super::FIT_MARGIN))
}

/// [`plan`] for a model: `-ngl` as given, else the most layers that fit
/// every GPU.
pub fn estimate_devices(
    model: &crate::model::ModelSpec,
    inputs: &LlamaCppInputs,
    devices: &Devices,
) -> Result<DevicesEstimate, LlamaCppRefusal> {
    let p = Prepared::new(model, inputs)?;
    let total = p.layout.n_layer.saturating_add(1);
    let n_ctx = inputs
        .n_ctx
        .filter(|c| *c > 0)
        .or(model.max_context)
        .ok_or(LlamaCppRefusal::InvalidInput {
            field: "n_ctx",
            reason: "the model states no trained context; give one".to_string(),
        })?;
    let slots = match inputs.kv_unified {
        true => 1,
        false => inputs.n_parallel.max(1),
    };
    let limit = model.max_context.map_or(n_ctx, |t| t.saturating_mul(slots));
    // `-ngl auto`: the most layers at which every GPU fits.
    let ngl = match inputs.n_gpu_layers {
        Some(n) => n.min(total),
        None => {
            let mut n = total;
            while n > 0 && !fits(&plan(&p, inputs, devices, n_ctx, n)?) {
                n -= 1;
            }
            n
        }
    };
    let (max_context, limiting_gpu) = max_context(&p, inputs, devices, ngl, limit)?;
    Ok(DevicesEstimate {
        all_layers: plan(&p, inputs, devices, n_ctx, total)?,
        plan: plan(&p, inputs, devices, n_ctx, ngl)?,
        gpu_layers: ngl,
        layers_total: total,
        max_context,
        limiting_gpu,
    })
}
