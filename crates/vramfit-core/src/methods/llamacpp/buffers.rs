//! The compute and output buffers llama.cpp allocates next to the weights
//! and the KV cache.
//!
//! The **output buffer** is exact: `llama_context::output_reserve`
//! (`src/llama-context.cpp`) allocates `n_vocab × n_seq_max` f32 logits in
//! host memory when the context is created.
//!
//! The **compute buffers** are an approximation. llama.cpp sizes them by
//! building the worst-case graph (`n_ubatch` tokens, every KV cell
//! visible, one output per token: `llama_context::sched_reserve`) and
//! letting ggml's graph allocator (`ggml/src/ggml-alloc.c`) lay it out:
//! a tensor is allocated when computed, freed after its last use, and
//! element-wise ops (norm, rope, softmax, scale, add, mul) reuse their
//! input's memory. The buffer is the high-water mark. This module does not
//! replay the allocator: it adds up the tensors alive when the largest
//! tensor of each phase is placed, counting the blocks freed just before
//! it that are too small to hold it (they lie below it in the buffer).
//! Fragmentation beyond that, alignment, and backend scratch memory
//! outside the buffer (the CUDA pool, cuBLAS workspaces) are not counted.
//!
//! # Formula
//!
//! Phases, with `T` = `n_ubatch`, `H` = `n_embd`, `N` KV cells per
//! stream, all f32 (4 bytes) unless stated:
//!
//! ```text
//! attention, no flash attn:  T·max(2H + n_head·d_q + w_kv + n_head·N,  H + n_head·N + n_head·d_o)
//! attention, flash attn:     T·(2H + n_head·d_q + w_kv + n_head·d_o)
//! dense MLP:                 T·(2H + 2F)                                residual, normed input, gate, up
//! experts:                   T·max(2H + 2E + k·(2F_e + H), 2H + 2F_s)   router, k experts; shared expert
//! output:                    T·(H + V)                                  normed hidden state, logits
//! masks, positions:          T·N·m (+ T·N_swa·m) + T                    m = 2 with flash attn, else 4
//! ```
//!
//! `d_q`, `d_o` the per-head width of the query and of the attention
//! output (the head dimension; MLA: `r_kv + d_rope` and `r_kv`), `w_kv`
//! the new K and V rows of a token (`2·H_kv·d`; MLA: `r_kv + d_rope`), `F`
//! the MLP width, `E` experts, `k` experts per token, `F_e` / `F_s`
//! expert and shared-expert widths, `V` the vocabulary. The GPU copies of
//! the masks live through the layers and are freed before the output
//! head. Sources: `src/llama-graph.cpp` (`build_attn_mha`, `build_ffn`,
//! `build_moe_ffn`, `build_attn_inp_kq_mask`), `src/llama-context.cpp`
//! (`sched_reserve`, `graph_reserve`).
//!
//! Where the work runs (`ggml/src/ggml-backend.cpp`,
//! `ggml_backend_sched_backend_id_from_cur`): graph inputs (token ids,
//! positions, masks) are host tensors, copied to the GPU where used; the
//! embedding lookup runs where `token_embd` is, on the host; an op with a
//! weight runs where the weight is, except that with `op_offload` (the
//! default) a matrix product on a host weight moves to the GPU when its
//! batch is at least 32 tokens (the CUDA backend's `offload_op`), which
//! copies the weight into the GPU's compute buffer for that step:
//!
//! ```text
//! staging = w + 4T·(in + out)  (+ masks + 4T·H inside the GPU's layers)
//! ```
//!
//! for the largest host matrix `w` (of equal ones, the one with the most
//! activations: an MoE layer's down experts, [`super::offload::larger_product`]).
//! Qwen3-235B Q8_0 with the experts of layers 14–93 on the CPU (load log
//! A3): 816 + 24 + 64 + 32 + 8 = 944 MiB against 1,024 printed.

use super::arch::{LayerCache, LayerFfn, Layout};
use super::kv::ContextSize;
use serde::Serialize;

/// Bytes of an f32.
const F32: u64 = 4;

/// The phases whose largest is a GPU compute buffer, bytes (0 for a phase
/// that does not run on the GPU):
///
/// ```text
/// compute = max(I + max(A; F); O; S)
/// ```
///
/// `I` the masks and positions the GPU layers read, `A` and `F` the
/// largest attention and feed-forward peaks among them, `O` the output
/// head's, `S` a host weight staged for a product on the GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ComputePhases {
    pub layer_inputs: u64,
    pub attention: u64,
    pub ffn: u64,
    pub output: u64,
    pub staged: u64,
}

impl ComputePhases {
    /// `max(I + max(A; F); O; S)`: the compute buffer these phases need.
    pub fn peak(&self) -> u64 {
        self.layer_inputs
            .saturating_add(self.attention.max(self.ffn))
            .max(self.output)
            .max(self.staged)
    }
}

/// The compute and output buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Buffers {
    /// The GPU compute buffer's phases.
    #[serde(skip)]
    pub gpu_phases: ComputePhases,
    /// GPU compute buffer (printed `CUDA0 compute buffer size`).
    pub gpu_compute_bytes: u64,
    /// Host compute buffer (`CUDA_Host` / `CPU compute buffer size`).
    pub host_compute_bytes: u64,
    /// Host output buffer (`output buffer size`): logits of one token per
    /// sequence.
    pub output_bytes: u64,
}

/// Where the work of a graph runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Split<'a> {
    /// Repeating layers whose weights and cache are on the GPU.
    pub gpu_layer: &'a [bool],
    pub output_on_gpu: bool,
    /// The largest host-resident matrix product, as `(weight bytes,
    /// input values, output values)` per token: staged to the GPU with
    /// `op_offload`.
    pub staged: Option<(u64, u64, u64)>,
    pub op_offload: bool,
    pub flash_attn: bool,
}

/// The output buffer.
///
/// # Formula
///
/// ```text
/// output = V · s · 4
/// ```
///
/// `V` the vocabulary (rows of the logits), `s` sequences (`n_seq_max`).
/// Source: `src/llama-context.cpp`, `llama_context::output_reserve`
/// (called with `n_seq_max` when the context is created).
///
/// ```
/// use vramfit_core::methods::llamacpp::output_buffer_bytes;
/// assert_eq!(output_buffer_bytes(128_256, 1), 513_024); // "0.49 MiB"
/// ```
pub const fn output_buffer_bytes(n_vocab: u64, n_seq_max: u64) -> u64 {
    n_vocab.saturating_mul(n_seq_max).saturating_mul(F32)
}

/// The compute buffers (approximation; see the module documentation) and
/// the output buffer.
pub(crate) fn buffers(layout: &Layout, ctx: &ContextSize, swa_cells: u64, split: Split) -> Buffers {
    let t = ctx.n_ubatch as u128;
    let h = layout.n_embd as u128;
    let n_full = ctx.n_ctx_seq as u128;
    let n_swa = match ctx.n_stream {
        0 => 0,
        s => (swa_cells / s) as u128,
    };
    let mask_bytes = if split.flash_attn { 2 } else { 4 };
    // A build without the sliding-window cache (n_swa = 0) gives those
    // layers the full cache and no second mask.
    let has_swa = n_swa > 0
        && layout
            .layers
            .iter()
            .any(|l| matches!(l.cache, LayerCache::Sliding { .. }));
    let masks = t * n_full * mask_bytes + if has_swa { t * n_swa * mask_bytes } else { 0 };
    // token ids, positions, output ids (i32 each).
    let small_inputs = 3 * t * F32 as u128;

    // The GPU copies of the masks and positions live from the first GPU
    // layer to the last; they are freed before the output head runs.
    let layer_inputs = masks + t * F32 as u128;
    let mut gpu_peak = 0u128;
    let mut host_peak = 0u128;
    let mut phases = [0u128; 5];
    for (layer, on_gpu) in layout.layers.iter().zip(split.gpu_layer) {
        let cells = match layer.cache {
            LayerCache::Sliding { .. } if has_swa => n_swa,
            LayerCache::Sliding { .. } | LayerCache::Full | LayerCache::Latent => n_full,
        };
        let attention = attention_peak(layout, t, cells, split.flash_attn);
        let ffn = ffn_peak(layout, layer.ffn, t);
        let peak = attention.max(ffn);
        if *on_gpu {
            gpu_peak = gpu_peak.max(layer_inputs + peak);
            phases[0] = layer_inputs;
            phases[1] = phases[1].max(attention);
            phases[2] = phases[2].max(ffn);
        } else {
            host_peak = host_peak.max(peak);
        }
    }
    let out_peak = F32 as u128 * t * (h + layout.n_vocab as u128);
    if split.output_on_gpu {
        gpu_peak = gpu_peak.max(out_peak);
        phases[3] = out_peak;
    } else {
        host_peak = host_peak.max(out_peak);
    }
    let any_gpu_layer = split.gpu_layer.iter().any(|g| *g);
    let gpu_used = any_gpu_layer || split.output_on_gpu || split.op_offload;
    if split.op_offload && gpu_used {
        if let Some((w, input, output)) = split.staged {
            // Inside the GPU's layers the masks and the residual stream
            // are alive while the staged product runs.
            let live = match any_gpu_layer {
                true => layer_inputs + F32 as u128 * t * h,
                false => 0,
            };
            let staged = live + w as u128 + F32 as u128 * t * (input as u128 + output as u128);
            gpu_peak = gpu_peak.max(staged);
            phases[4] = staged;
            // With the products on the GPU, the host keeps the element-wise
            // work of its layers: the residual and one normed copy.
            host_peak = host_peak.min(F32 as u128 * t * 2 * h);
        }
    }
    let embd = F32 as u128 * t * h;
    let host = small_inputs + masks + embd + host_peak;
    let gpu = match gpu_used {
        true => gpu_peak,
        false => 0,
    };
    if !gpu_used {
        phases = [0; 5];
    }
    let [inputs, attention, ffn, output, staged] = phases.map(crate::units::saturate);
    Buffers {
        gpu_phases: ComputePhases {
            layer_inputs: inputs,
            attention,
            ffn,
            output,
            staged,
        },
        gpu_compute_bytes: crate::units::saturate(gpu),
        host_compute_bytes: crate::units::saturate(host),
        output_bytes: output_buffer_bytes(layout.n_vocab, ctx.n_seq_max),
    }
}

/// Peak of the attention part of a layer, bytes: what the first layer has
/// allocated when its largest tensor is placed. The normed input and the
/// new K and V rows are dead by then, but their blocks lie below the
/// scores, which do not fit in them, so the buffer's high-water mark
/// counts them.
fn attention_peak(l: &Layout, t: u128, cells: u128, flash_attn: bool) -> u128 {
    let h = l.n_embd as u128;
    let nh = l.n_head as u128;
    let (d_q, d_o, kv) = match l.mla {
        Some(m) => {
            let latent = (m.kv_lora_rank + m.qk_rope_head_dim) as u128;
            (latent, m.kv_lora_rank as u128, latent)
        }
        None => {
            let d = l.head_dim as u128;
            (d, d, 2 * l.n_head_kv as u128 * d)
        }
    };
    let before = 2 * h + nh * d_q + kv;
    let values = match flash_attn {
        true => before + nh * d_o,
        false => (before + nh * cells).max(h + nh * cells + nh * d_o),
    };
    F32 as u128 * t * values
}

/// Peak of the feed-forward part of a layer, bytes.
fn ffn_peak(l: &Layout, ffn: LayerFfn, t: u128) -> u128 {
    let h = l.n_embd as u128;
    let values = match ffn {
        LayerFfn::Dense { n_ff } => 2 * h + 2 * n_ff as u128,
        LayerFfn::Moe {
            n_ff_exp,
            n_ff_shexp,
        } => {
            let k = l.n_expert_used as u128;
            let e = l.n_expert as u128;
            let routed = 2 * h + 2 * e + k * (2 * n_ff_exp as u128 + h);
            let shared = 2 * h + 2 * n_ff_shexp as u128;
            routed.max(shared)
        }
    };
    F32 as u128 * t * values
}
