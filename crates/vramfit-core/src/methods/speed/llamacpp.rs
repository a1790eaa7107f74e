//! llama.cpp's speed for a GGUF plan: `llama-bench`'s `tgN` (decode) and
//! `ppN` (prefill), and the time to a first token.
//!
//! # Formula
//!
//! ```text
//! decode:  t_tok = (W_gpu + K·c_gpu) / b_gpu + (W_host + K·c_host) / (η_h · H)
//!                  + L · o + (G − 1) · h
//!          b_gpu = min(e · BW, S)                 (GroupRate::rate)
//! prefill: t_pp(P) = (2 · N · P + A(P)) / F_eff + ⌈P / u⌉ · (d · D / b_gpu + W_host,all / PCIe)
//!                    + (G − 1) · 4 · n_embd · P / B_link
//!          F_eff = min(e_c · F16, S_f)
//!          A(P)  = Σ_attention layers 4 · n_h · d_h · Σ_{i=1..P} min(i, w)
//!          D     = Σ_quantized GPU tensors (bytes + 2 · elements)
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
//! experts at `k / n`), `F16` the GPU's dense FP16 tensor peak with FP16
//! accumulate (what llama.cpp's GEMMs compute in; twice the FP32-accumulate
//! figure on GeForce). `A(P)`: the attention products (`QKᵀ` and `PV`, 2
//! FLOP each per head dimension and cell) of a causal prompt, `w` the
//! layer's window (the prompt itself for full attention). `D`: one
//! dequantization pass per micro-batch, reading each quantized weight and
//! writing it as F16 (CUDA's path for a batch: `ggml_cuda_op_mul_mat_cublas`
//! converts `src0` to F16 with `to_fp16_cuda`), taken `d` times (`d` per
//! backend × family, [`super::rates::GroupRate::dequant`]). `B_link`: the
//! rate a layer split hands each prompt token's hidden state (`n_embd`
//! F32 values) to the next GPU at (`ggml_backend_sched` copies a split's
//! inputs between devices; per backend, fitted,
//! [`super::rates::BackendCosts::prefill_link_gb_s`]).
//! `e`, `e_c`, `S`, `S_f`, `d` per backend × weight family, `o`, `h` per
//! backend: [`super::rates`]; `η_h` = 0.7 and PCIe 25 GB/s (a 16-lane PCIe
//! 4.0 link in practice) are assumptions with no calibration row behind
//! them. Sources: llama.cpp `src/llama-model.cpp` (which layers sit where),
//! `ggml/src/ggml-cuda/mmvq.cu` (decode: one pass over each weight
//! matrix per token), `ggml-backend.cpp` (`op_offload`: host weights copied
//! to the GPU for large batches).
//!
//! Worked example (the golden test `llama3_8b_q4_k_m_on_a_4090`): Llama-3-8B
//! Q4_K_M reads 4.64 GB per token on an RTX 4090 (1,008 GB/s); with CUDA's
//! fitted rates that is ≈ 125 tokens/s against 130.58 measured.

use super::rates::{Rates, Ratios};
use super::{Band, Device, Family, Limit, SpeedAssumption, SpeedEstimate};
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
    /// A prompt micro-batch's dequantization traffic on the GPU: each
    /// quantized tensor's bytes read plus its elements written as F16.
    pub dequant_bytes: f64,
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
        // Fewer than 16 bits a weight: a quantized type (F16, BF16 and the
        // F32 norms are read as they are).
        let quantized = bytes < 2.0 * elements;
        match on_gpu {
            true => {
                t.gpu_bytes += bytes * read;
                if quantized {
                    t.dequant_bytes += bytes + 2.0 * elements;
                }
            }
            false => {
                t.host_bytes += bytes * read;
                // The input embedding is a row look-up on the host
                // (`GET_ROWS` is not offloaded): never copied to the GPU.
                if tensor.role != Role::TokenEmbd || tied {
                    t.host_all_bytes += bytes;
                }
            }
        }
    }
    t
}

/// The attention products of a causal prompt, per cell of context:
/// `4 · n_h · d_h` for each layer, summed over full-attention layers and
/// over windowed ones (with their smallest window).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Attention {
    pub full: f64,
    pub windowed: f64,
    pub window: u64,
}

impl Attention {
    /// Of a model's layers; linear and cache-less layers attend to nothing.
    pub fn of(model: &ModelSpec) -> Attention {
        use crate::model::AttentionKind as K;
        let per = 4.0 * model.num_attention_heads as f64 * model.head_dim as f64;
        let mut a = Attention::default();
        for kind in &model.attention {
            match *kind {
                K::SlidingWindow { window } | K::Chunked { chunk: window } => {
                    a.windowed += per;
                    a.window = match a.window {
                        0 => window,
                        w => w.min(window),
                    };
                }
                K::Compressed { window, .. } => {
                    a.windowed += per;
                    a.window = a.window.max(window);
                }
                K::Full | K::Mla { .. } | K::SparseMla { .. } | K::Indexed { .. } => a.full += per,
                K::Linear { .. } | K::None => {}
            }
        }
        a
    }

    /// FLOPs of a prompt of `p` tokens from an empty cache:
    /// `full · p(p+1)/2 + windowed · Σ min(i, w)`.
    ///
    /// ```
    /// use vramfit_core::methods::speed::llamacpp::Attention;
    /// let a = Attention { full: 1.0, windowed: 1.0, window: 4 };
    /// // 1+2+3+4+5+6 = 21 for the full layer; 1+2+3+4+4+4 = 18 windowed.
    /// assert_eq!(a.flops(6), 39.0);
    /// ```
    pub fn flops(&self, p: u64) -> f64 {
        let tri = |n: u64| n as f64 * (n as f64 + 1.0) / 2.0;
        let w = self.window.max(1);
        let windowed = match p <= w {
            true => tri(p),
            false => tri(w) + (p - w) as f64 * w as f64,
        };
        self.full * tri(p) + self.windowed * windowed
    }
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
    pub attention: Attention,
    /// `n_embd`: the values of a token's hidden state, what a layer split
    /// copies to the next GPU.
    pub hidden: u64,
}

/// The plan's traffic: the tensors the estimate sized (a GGUF file's own
/// where the model was read from one, else the recipe's), read once.
pub fn plan(run: &LlamacppRun, model: &ModelSpec) -> Option<Planned> {
    let sized = &run.estimate.tensors;
    let (tensors, counts, tied) = (sized.tensors.as_slice(), sized.counts, sized.tied);
    if tensors.is_empty() {
        return None;
    }
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
        traffic: traffic(tensors, counts, tied, split),
        kv_per_cell: e.kv_cache_bytes as f64 / e.kv_cells.max(1) as f64,
        gpu_kv_share: match e.kv_cache_bytes {
            0 => 1.0,
            all => (gpu_kv as f64 / all as f64).min(1.0),
        },
        family: Family::of(run.inputs.file_type),
        ubatch: run.inputs.n_ubatch,
        attention: Attention::of(model),
        hidden: model.hidden_size,
    })
}

/// The speed of a llama.cpp plan, or `None` where the rates have no row
/// for it at all.
pub fn estimate(
    run: &LlamacppRun,
    model: &ModelSpec,
    setting: Setting,
    rates: &Rates,
    assumptions: Vec<SpeedAssumption>,
) -> Option<SpeedEstimate> {
    figures(&plan(run, model)?, setting, rates, assumptions)
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
    let prefill = prefill(p, setting, rates, prompt, gpu_rate);
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
/// and what limits it; `None` without the GPU's tensor peak. `gpu_rate`:
/// the decode bandwidth a dequantization pass runs at.
fn prefill(
    p: &Planned,
    setting: Setting,
    rates: &Rates,
    prompt: u64,
    gpu_rate: f64,
) -> Option<(Band, Limit)> {
    let tr = &p.traffic;
    let flops = setting.device.fp16_flops?;
    let g = Rates::group(&rates.llamacpp.prefill, setting.backend, p.family)?;
    let eff = g.rate.rate(flops, 1e12);
    let n = prompt as f64;
    let compute = (2.0 * tr.active_params * n + p.attention.flops(prompt)) / eff;
    let batches = prompt.div_ceil(p.ubatch.max(1)) as f64;
    let dequant = batches * g.rate.dequant.unwrap_or(0.0) * tr.dequant_bytes / gpu_rate;
    let copies = batches * tr.host_all_bytes / PCIE_BYTES_PER_S;
    // A layer split: each token's hidden state (F32) crosses G − 1 links.
    let hops = match rates.prefill_link(setting.backend) {
        Some(link) => setting.gpus.saturating_sub(1) as f64 * 4.0 * p.hidden as f64 * n / link,
        None => 0.0,
    };
    let limit = largest(
        &[compute, dequant, copies, hops],
        [
            Limit::Compute,
            Limit::Bandwidth,
            Limit::HostMemory,
            Limit::Overhead,
        ],
    );
    Band::around(
        n / (compute + dequant + copies + hops),
        rates.llamacpp.prefill_band,
    )
    .map(|b| (b, limit))
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
