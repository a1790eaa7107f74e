//! llama.cpp's speed for a GGUF plan: `llama-bench`'s `tgN` (decode) and
//! `ppN` (prefill), and the time to a first token.
//!
//! # Formula
//!
//! ```text
//! decode:  t_tok = (W_gpu + K·c_gpu) / b_gpu + (W_host + K·c_host) / (η_h · H)
//!                  + L · o + (G − 1) · h
//!          b_gpu = min(e · BW, S)                 (GroupRate::rate)
//! prefill: t_pp(P) = 2 · N · P / F_eff + ⌈P / u⌉ · W_host,all / PCIe
//!          F_eff = min(e_c · F, S_f)
//! first token: t_pp(P) + t_tok
//! ```
//!
//! `W_gpu`, `W_host`: bytes a token reads from each side: every tensor of
//! the layers there, the routed experts at `k / n` of their bytes, one row
//! of `token_embd` (a look-up; the whole of it where a tied head reads it);
//! `K` the KV bytes per cell and `c` the cells read (the prompt); `BW` the
//! GPU's peak bandwidth and `H` the host's; `L` repeating layers, `G` GPUs
//! of a layer split (they run one after another, so their bytes add), `u`
//! the micro-batch (`-ub`), `N` the parameters a token multiplies (routed
//! experts at `k / n`), `F` the GPU's dense FP16/BF16 tensor peak.
//! `e`, `e_c`, `S`, `S_f` per backend × weight family, `o`, `h` per backend:
//! [`super::rates`]; `η_h` = 0.7 and PCIe 25 GB/s (a 16-lane PCIe 4.0 link
//! in practice) are assumptions with no calibration row behind them.
//! Sources: llama.cpp `src/llama-model.cpp` (which layers sit where),
//! `ggml/src/ggml-cuda/mmvq.cu` (decode: one pass over each weight
//! matrix per token), `ggml-backend.cpp` (`op_offload`: host weights copied
//! to the GPU for large batches).
//!
//! Worked example (the golden test `llama3_8b_q4_k_m_on_a_4090`): Llama-3-8B
//! Q4_K_M reads 4.64 GB per token on an RTX 4090 (1,008 GB/s); with CUDA's
//! fitted rates that is ≈ 125 tokens/s against 130.58 measured.

use super::rates::{Rates, Ratios};
use super::{Band, Device, Family, Limit, SpeedAssumption, SpeedEstimate};
use crate::gguf::model::FileTensor;
use crate::methods::llamacpp::{layer_split, GgufTensor, LlamacppRun, Role};
use crate::model::ModelSpec;
use crate::scenario::Backend;

/// Host bytes per second a PCIe link moves when llama.cpp copies host
/// weights to the GPU for a large batch (an assumption: 16 lanes of PCIe
/// 4.0 in practice).
pub const PCIE_BYTES_PER_S: f64 = 25e9;

/// What a llama.cpp speed figure is for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    pub device: Device,
    /// GPUs of a layer split (`-sm layer`), identical.
    pub gpus: u64,
    pub backend: Backend,
    pub host_bytes_per_s: f64,
    pub prompt_tokens: u64,
    pub context: u64,
}

/// The bytes and multiplies of one token, by side.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Traffic {
    pub gpu_bytes: f64,
    pub host_bytes: f64,
    /// Host weights a large batch copies to the GPU (every byte there).
    pub host_all_bytes: f64,
    /// Parameters one token multiplies.
    pub active_params: f64,
    pub layers: u64,
    pub host_layers: u64,
}

/// The traffic of one decode token for a split: `ngl` layers offloaded
/// (the output layer counted as llama.cpp counts it), the experts of the
/// first `n_cpu_moe` layers on the host.
pub fn traffic(
    tensors: &[(GgufTensor, u64)],
    [n_layer, n_expert, n_used]: [u64; 3],
    tied: bool,
    (ngl, n_cpu_moe, output_first): (u64, u64, bool),
) -> Traffic {
    let (gpu_layer, output_on_gpu) = layer_split(n_layer, ngl, output_first);
    let share = match n_expert {
        0 => 1.0,
        n => n_used.min(n) as f64 / n as f64,
    };
    let mut t = Traffic {
        layers: n_layer,
        host_layers: gpu_layer.iter().filter(|g| !**g).count() as u64,
        ..Traffic::default()
    };
    for (tensor, bytes) in tensors {
        let bytes = *bytes as f64;
        let elements = tensor.elements() as f64;
        let (on_gpu, read, active) = match (tensor.layer, tensor.role) {
            (Some(i), _) => {
                let layer_gpu = gpu_layer.get(i as usize).copied().unwrap_or(false);
                let gpu = layer_gpu && !(tensor.expert && i < n_cpu_moe);
                let k = if tensor.expert { share } else { 1.0 };
                (gpu, k, k)
            }
            // One row looked up; a tied head then reads all of it.
            (None, Role::TokenEmbd) if tied => (output_on_gpu, 1.0, 1.0),
            (None, Role::TokenEmbd) => (false, 1.0 / tensor.ne[1].max(1) as f64, 0.0),
            (None, _) => (output_on_gpu, 1.0, 1.0),
        };
        t.active_params += elements * active;
        match on_gpu {
            true => t.gpu_bytes += bytes * read,
            false => {
                t.host_bytes += bytes * read;
                t.host_all_bytes += bytes;
            }
        }
    }
    t
}

/// What a plan reads, prepared once for any rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planned {
    pub traffic: Traffic,
    /// KV bytes per cell, and the share of the cache on the GPU.
    pub kv_per_cell: f64,
    pub gpu_kv_share: f64,
    pub family: Family,
    pub ubatch: u64,
}

/// The plan's traffic, or `None` where the file cannot be rebuilt: a GGUF
/// file's own tensors (`file`) where the model was read from one, else
/// the recipe's.
pub fn plan(run: &LlamacppRun, model: &ModelSpec, file: Option<&[FileTensor]>) -> Option<Planned> {
    let (tensors, counts, tied) =
        crate::methods::llamacpp::file_tensors(model, &run.inputs, file).ok()?;
    let e = &run.estimate;
    // With several GPUs the layers the GPUs hold, and the cache they keep,
    // are the devices' plan's; they run one after another (`-sm layer`).
    let (gpu_layers, gpu_kv) = match &run.devices {
        Some(d) => (
            d.gpu_layers,
            d.plan
                .devices
                .iter()
                .map(|g| g.k_cache.saturating_add(g.v_cache))
                .sum::<u64>(),
        ),
        None => (e.gpu_layers, e.gpu.kv_cache),
    };
    let split = (
        gpu_layers,
        run.inputs.n_cpu_moe,
        run.inputs.output_layer_first,
    );
    Some(Planned {
        traffic: traffic(&tensors, counts, tied, split),
        kv_per_cell: e.kv_cache_bytes as f64 / e.kv_cells.max(1) as f64,
        gpu_kv_share: match e.kv_cache_bytes {
            0 => 1.0,
            all => (gpu_kv as f64 / all as f64).min(1.0),
        },
        family: Family::of(run.inputs.file_type),
        ubatch: run.inputs.n_ubatch,
    })
}

/// The speed of a llama.cpp plan, or `None` where the rates have no row
/// for it at all.
pub fn estimate(
    run: &LlamacppRun,
    model: &ModelSpec,
    file: Option<&[FileTensor]>,
    setting: Setting,
    rates: &Rates,
    assumptions: Vec<SpeedAssumption>,
) -> Option<SpeedEstimate> {
    figures(&plan(run, model, file)?, setting, rates, assumptions)
}

/// The figures of a prepared plan.
pub fn figures(
    p: &Planned,
    setting: Setting,
    rates: &Rates,
    mut assumptions: Vec<SpeedAssumption>,
) -> Option<SpeedEstimate> {
    let tr = p.traffic;
    let family = p.family;
    let backend = setting.backend;
    let costs = rates.costs(backend)?;
    let dec = Rates::group(&rates.llamacpp.decode, backend, family)?;
    if let Some((b, f)) = dec.borrowed {
        assumptions.push(SpeedAssumption::RatesBorrowed {
            from_backend: b,
            from_family: f,
        });
    }
    let (per_cell, gpu_kv_share) = (p.kv_per_cell, p.gpu_kv_share);
    let prompt = setting.prompt_tokens.min(setting.context).max(1);
    let gpu_rate = dec.rate.rate(setting.device.bytes_per_s, 1e9);
    let host_rate = rates.llamacpp.host_efficiency * setting.host_bytes_per_s;
    let step = |cells: f64| {
        let kv = per_cell * cells;
        [
            (tr.gpu_bytes + kv * gpu_kv_share) / gpu_rate,
            (tr.host_bytes + kv * (1.0 - gpu_kv_share)) / host_rate,
            tr.layers as f64 * costs.layer_overhead_us * 1e-6
                + setting.gpus.saturating_sub(1) as f64 * costs.gpu_hop_us * 1e-6,
        ]
    };
    let at_prompt = step(prompt as f64);
    let at_context = step(setting.context as f64);
    let t_tok: f64 = at_prompt.iter().sum();
    let decode_limit = largest(
        &at_prompt,
        [Limit::Bandwidth, Limit::HostMemory, Limit::Overhead],
    );
    let band = rates.llamacpp.decode_band;
    let decode = Band::around(1.0 / t_tok, band)?;
    let decode_at_context = Band::around(1.0 / at_context.iter().sum::<f64>(), band)?;
    let prefill = prefill(&tr, setting, rates, family, prompt, p.ubatch);
    let ttft = prefill.map(|(rate, _)| {
        let t = prompt as f64 / rate.point + t_tok;
        ttft_band(t, rates.llamacpp.prefill_band)
    });
    Some(SpeedEstimate {
        backend,
        family,
        prompt_tokens: prompt,
        decode_tokens_per_s: decode,
        decode_limited_by: decode_limit,
        decode_at_context_tokens_per_s: decode_at_context,
        prefill_tokens_per_s: prefill.map(|p| p.0),
        prefill_limited_by: prefill.map(|p| p.1),
        time_to_first_token_s: ttft.flatten(),
        concurrency: None,
        decode_at_concurrency_tokens_per_s: None,
        output_tokens_per_s: None,
        host_layers: tr.host_layers,
        gpu_bytes_per_token: tr.gpu_bytes.round() as u64,
        host_bytes_per_token: tr.host_bytes.round() as u64,
        assumptions,
    })
}

/// Prompt tokens per second for `prompt` tokens in micro-batches of `ub`,
/// and what limits it; `None` without the GPU's tensor peak.
fn prefill(
    tr: &Traffic,
    setting: Setting,
    rates: &Rates,
    family: Family,
    prompt: u64,
    ub: u64,
) -> Option<(Band, Limit)> {
    let flops = setting.device.flops?;
    let g = Rates::group(&rates.llamacpp.prefill, setting.backend, family)?;
    let eff = g.rate.rate(flops, 1e12);
    let p = prompt as f64;
    let compute = 2.0 * tr.active_params * p / eff;
    let copies = prompt.div_ceil(ub.max(1)) as f64 * tr.host_all_bytes / PCIE_BYTES_PER_S;
    let limit = match copies > compute {
        true => Limit::HostMemory,
        false => Limit::Compute,
    };
    Band::around(p / (compute + copies), rates.llamacpp.prefill_band).map(|b| (b, limit))
}

/// The band of a time whose rate has the band `ratios`.
pub(crate) fn ttft_band(t: f64, ratios: Ratios) -> Option<Band> {
    Band::around(1.0 / t, ratios).map(Band::inverse)
}

/// The limit whose part of the time is largest.
pub(crate) fn largest<const N: usize>(parts: &[f64; N], limits: [Limit; N]) -> Limit {
    let mut best = 0;
    for i in 1..N {
        if parts[i] > parts[best] {
            best = i;
        }
    }
    limits[best]
}
