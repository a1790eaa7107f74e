//! The profiling peak: "torch peak memory increase".
//!
//! vLLM runs one dummy forward of `max_num_batched_tokens` tokens, then the
//! sampler over `min(max_num_seqs, max_num_batched_tokens)` dummy requests
//! (`profile_run` in `vllm/v1/worker/gpu_model_runner.py`), and reports the
//! increase of `torch.cuda.memory_stats()["allocated_bytes.all.peak"]`
//! over the weights (`determine_available_memory` in
//! `vllm/v1/worker/gpu_worker.py`). Attention itself is skipped (no KV
//! cache exists yet), so the peak is set by what the run keeps alive:
//! GEMM workspaces, the MoE workspace, the multimodal dummy batch, and
//! either the largest MLP activation or the sampler's vocabulary-wide
//! arrays.

use super::allocator::MIB;
use super::extras::ConfigExtras;
use super::vision::{encoder_transient, profile_held};
use super::weights::padded_vocab;
use crate::model::{AttentionKind, FfnKind, ModelSpec};
use serde::Serialize;

/// cuBLAS and cuBLASLt workspaces PyTorch allocates from its caching
/// allocator at the first GEMM: 32 MiB on Hopper
/// (`CUBLAS_WORKSPACE_CONFIG` default `:4096:8`) and 1 MiB for cuBLASLt.
/// Source: PyTorch `aten/src/ATen/cuda/CublasHandlePool.cpp`
/// (`getChosenWorkspaceSize`, `getCUDABlasLtWorkspaceSize`).
pub const GEMM_WORKSPACES: u64 = 33 * MIB;

/// The cuBLAS and cuBLASLt workspaces PyTorch allocates on a GPU.
///
/// # Formula
///
/// ```text
/// W_gemm = 32 MiB + 1 MiB                 compute capability 9.0 (Hopper)
/// W_gemm = (2 · 4096 + 8 · 16) KiB + 1 MiB   any other CUDA GPU
/// ```
///
/// cuBLAS's workspace follows `CUBLAS_WORKSPACE_CONFIG`'s default
/// (`:4096:8` on sm_90, else `:4096:2:16:8`), cuBLASLt's is 1 MiB
/// (`CUBLASLT_WORKSPACE_SIZE` 1024 KiB), kept apart unless
/// `TORCH_CUBLASLT_UNIFIED_WORKSPACE=1`. Both are taken from the caching
/// allocator (below 10 MiB a block counts as asked). Source: PyTorch
/// `aten/src/ATen/cuda/CublasHandlePool.cpp` (`parseChosenWorkspaceSize`,
/// `parseCUDABlasLtWorkspaceSize`, `getCUDABlasLtWorkspace`).
///
/// ```
/// use vramfit_core::methods::vllm::gemm_workspaces;
/// assert_eq!(gemm_workspaces(true), 33 << 20);
/// assert_eq!(gemm_workspaces(false), (8 << 20) + (128 << 10) + (1 << 20));
/// ```
pub const fn gemm_workspaces(hopper: bool) -> u64 {
    match hopper {
        true => GEMM_WORKSPACES,
        false => (2 * 4096 + 8 * 16) * 1024 + MIB,
    }
}

/// One rank's profiling peak, by part (bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct ProfileParts {
    /// GEMM workspaces ([`GEMM_WORKSPACES`]).
    pub gemm_workspaces: u64,
    /// The fused-MoE workspace, kept by vLLM's workspace manager.
    pub moe_workspace: u64,
    /// Dummy images and their encoder outputs, held through the run.
    pub multimodal: u64,
    /// The pipeline receive buffers of a non-first stage.
    pub pipeline_buffers: u64,
    /// Largest transient of the vision encoder.
    pub encoder: u64,
    /// Largest transient of the decoder forward.
    pub forward: u64,
    /// Transient of the sampler (last stage only).
    pub sampler: u64,
    /// Dummy images profiled.
    pub images: u64,
    /// The peak: held parts plus the largest transient.
    pub peak: u64,
}

/// What the profile run depends on beyond the model.
#[derive(Debug, Clone, Copy)]
pub struct ProfileRun {
    pub tp: u64,
    pub layers: (u64, u64),
    pub first: bool,
    pub last: bool,
    pub dtype_bytes: u64,
    /// `max_num_batched_tokens`.
    pub tokens: u64,
    /// `max_num_seqs`.
    pub seqs: u64,
    pub max_model_len: u64,
    pub block_size: u64,
    pub sm_count: u64,
    /// [`gemm_workspaces`] of the GPU.
    pub gemm_workspaces: u64,
}

/// The profiling peak of one rank.
///
/// # Formula
///
/// ```text
/// held    = W_gemm + W_moe + M_mm + B_pp
/// forward = max over the rank's layers of N·(q + 3·H + f)·b
///           (f = 3·I gated MLP, 2·I plain, 3·S shared experts),
///           and for MLA also C·h·(d_nope + d_v)·b + N·(q + 3H)·b
/// sampler = N·H·b + 2·R·H·b + R·V_pad·b + 3·R·V·4 + s·V·4
/// peak    = held + max(encoder, forward, sampler)
/// ```
///
/// Symbols: `N` = `max_num_batched_tokens`, `R` = `min(max_num_seqs, N)`,
/// `H` hidden size, `q` query width per rank, `I`/`S` MLP / shared-expert
/// width per rank, `V` vocabulary (`V_pad` padded to 64), `b` bytes of the
/// model dtype, `h` query heads per rank, `C` the MLA chunked-prefill
/// workspace (`min(max(8·L, 4·S_seq·B), 65536)`, at least `S_seq·B`),
/// `s = min(2^⌈log₂ min(SM, R)⌉, SM)` rows of the Triton top-k/top-p
/// buffer (none below 8 requests).
///
/// - The sampler keeps the hidden states of the dummy run, the last
///   token's row of each request and a random copy of it
///   (`torch.rand_like`), the logits at the model dtype, three float32
///   copies (the cast, the softmax probabilities, the exponential noise of
///   `random_sample`) and the top-k/top-p buffer. Source:
///   `_dummy_sampler_run`, `vllm/v1/sample/sampler.py`,
///   `vllm/v1/sample/ops/topk_topp_sampler.py` (`forward_native`,
///   `random_sample`), `topk_topp_triton.py` (`apply_top_k_top_p_triton`).
/// - The forward term is the MLP moment of a compiled decoder layer: the
///   attention output and the residual the caller holds, the new residual
///   and normalized input, the `gate_up` output and the activation. It is
///   an approximation of what `torch.compile` keeps alive, not derived
///   tensor by tensor; it sets the peak only where the vocabulary is small
///   (CodeLlama, Granite-8B) and is 0.02 GiB high there.
/// - `W_moe` = `⌈256⌉(max(N·k·max(I_e, H), N·H)·b) + ⌈256⌉(N·k·max(g·I_e,
///   H)·b)` (`TritonExperts.workspace_shapes`, `FusedMoEModularKernel.
///   _allocate_buffers`, `vllm/v1/worker/workspace.py`), kept after the
///   forward; `k` experts per token, `g` 2 when gated.
/// - `B_pp` = `2·N·H·b`, the `IntermediateTensors` a later stage receives
///   into (`_dummy_run`, `make_empty_intermediate_tensors`).
pub fn rank_profile(spec: &ModelSpec, extras: &ConfigExtras, run: &ProfileRun) -> ProfileParts {
    let b = run.dtype_bytes as u128;
    let n = run.tokens as u128;
    let h = spec.hidden_size as u128;
    let tp = run.tp.max(1);
    let mut parts = ProfileParts {
        gemm_workspaces: run.gemm_workspaces,
        ..ProfileParts::default()
    };
    let (start, end) = run.layers;
    let end = end.min(spec.num_layers);
    let rank_layers = start..end;

    // The MoE workspace, sized by the first MoE layer the rank runs.
    let has_moe = rank_layers
        .clone()
        .any(|i| spec.ffn.get(i as usize) == Some(&FfnKind::Moe));
    if let (true, Some(moe)) = (has_moe, spec.moe.as_ref()) {
        let k = moe.experts_per_token as u128;
        let d = moe.latent.unwrap_or(spec.hidden_size) as u128;
        let ie = (moe.expert_intermediate / tp) as u128;
        let gated = super::weights::expert_matrices(spec) == 3;
        let w1_out = if gated { 2 * ie } else { ie };
        let ws1 = (n * k * ie.max(d)).max(n * d) * b;
        let ws2 = n * k * w1_out.max(d) * b;
        let align = |x: u128| x.div_ceil(256) * 256;
        parts.moe_workspace = crate::units::saturate(align(ws1) + align(ws2));
    }

    if !run.first {
        parts.pipeline_buffers = crate::units::saturate(2 * n * h * b);
    }

    if run.first {
        if let Some(tower) = extras.vision.as_ref() {
            let (items, held) = profile_held(
                tower,
                spec.hidden_size,
                run.dtype_bytes,
                run.tokens,
                run.max_model_len,
                run.seqs,
            );
            parts.images = items;
            parts.multimodal = held;
            parts.encoder = encoder_transient(tower, items, run.dtype_bytes);
        }
    }

    parts.forward = forward_transient(spec, run, rank_layers);
    if run.last {
        parts.sampler = sampler_transient(spec, run);
    }
    let held = [
        parts.gemm_workspaces,
        parts.moe_workspace,
        parts.multimodal,
        parts.pipeline_buffers,
    ];
    let transient = parts.encoder.max(parts.forward).max(parts.sampler);
    parts.peak = crate::units::sum(held).saturating_add(transient);
    parts
}

/// The decoder forward's largest transient over the rank's layers (see
/// [`rank_profile`]).
fn forward_transient(spec: &ModelSpec, run: &ProfileRun, layers: std::ops::Range<u64>) -> u64 {
    let b = run.dtype_bytes as u128;
    let n = run.tokens as u128;
    let h = spec.hidden_size as u128;
    let tp = run.tp.max(1);
    let heads = (spec.num_attention_heads / tp) as u128;
    let mut worst: u128 = 0;
    for i in layers {
        let attention = spec.attention.get(i as usize).copied();
        let q = match attention {
            Some(AttentionKind::Mla { .. }) => {
                spec.mla
                    .map_or(0, |m| (m.qk_nope_head_dim + m.qk_rope_head_dim) as u128)
                    * heads
            }
            Some(AttentionKind::Linear { .. }) | Some(AttentionKind::None) | None => h,
            _ => heads * spec.head_dim as u128,
        };
        let ffn = match spec.ffn.get(i as usize) {
            Some(FfnKind::Dense) => {
                let width = (spec.intermediate_size.unwrap_or(0) / tp) as u128;
                let gated = super::weights::dense_mlp_matrices(spec) == 3;
                if gated {
                    3 * width
                } else {
                    2 * width
                }
            }
            Some(FfnKind::Moe) => spec
                .moe
                .as_ref()
                .map_or(0, |m| 3 * (m.shared_intermediate / tp) as u128),
            _ => 0,
        };
        let layer = n * (q + 3 * h + ffn) * b;
        worst = worst.max(layer);
        if let (Some(AttentionKind::Mla { .. }), Some(m)) = (attention, spec.mla) {
            let c = mla_chunk_workspace(run) as u128;
            let simulated = c * heads * (m.qk_nope_head_dim + m.v_head_dim) as u128 * b;
            worst = worst.max(simulated + n * (q + 3 * h) * b);
        }
    }
    crate::units::saturate(worst)
}

/// Tokens of MLA's chunked-prefill workspace, which the profile run
/// allocates once per MLA layer to simulate `kv_b_proj` over a full chunk.
///
/// # Formula
///
/// `C = max(min(max(8·L, 4·S·B), 65536), S·B)` with `L` = `max_model_len`,
/// `S` = `max_num_seqs`, `B` = block size. Source: vLLM
/// `vllm/model_executor/layers/attention/mla_attention.py`,
/// `determine_chunked_prefill_workspace_size` and `forward` (the
/// `attn_metadata is None` branch).
pub fn mla_chunk_workspace(run: &ProfileRun) -> u64 {
    let wanted = run
        .max_model_len
        .saturating_mul(8)
        .max(run.seqs.saturating_mul(4).saturating_mul(run.block_size));
    wanted
        .min(64 * 1024)
        .max(run.seqs.saturating_mul(run.block_size))
}

/// The sampler's transient (see [`rank_profile`]).
pub fn sampler_transient(spec: &ModelSpec, run: &ProfileRun) -> u64 {
    let b = run.dtype_bytes as u128;
    let n = run.tokens as u128;
    let r = run.seqs.min(run.tokens) as u128;
    let h = spec.hidden_size as u128;
    let v = spec.vocab_size as u128;
    let v_pad = padded_vocab(spec.vocab_size) as u128;
    let sm = run.sm_count.max(1) as u128;
    let buffer_rows = match r >= 8 {
        true => sm.min(r).next_power_of_two().min(sm),
        false => 0,
    };
    let bytes = n * h * b + 2 * r * h * b + r * v_pad * b + 3 * r * v * 4 + buffer_rows * v * 4;
    crate::units::saturate(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_config;

    fn run(tokens: u64, seqs: u64) -> ProfileRun {
        ProfileRun {
            tp: 1,
            layers: (0, 32),
            first: true,
            last: true,
            dtype_bytes: 2,
            tokens,
            seqs,
            max_model_len: 8192,
            block_size: 16,
            sm_count: 132,
            gemm_workspaces: GEMM_WORKSPACES,
        }
    }

    const LLAMA31_8B: &str = r#"{
        "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16"
    }"#;

    #[test]
    fn llama_8b_peak_is_the_sampler() {
        // vLLM 0.19 on an H100: "torch peak memory increase: 1.89GiB".
        let spec = parse_config(LLAMA31_8B).unwrap();
        let extras = ConfigExtras::from_spec(&spec);
        let p = rank_profile(&spec, &extras, &run(8192, 1024));
        assert!(p.sampler > p.forward);
        let gib = p.peak as f64 / (1u64 << 30) as f64;
        assert_eq!((gib * 100.0).round(), 189.0, "{gib}");
    }

    #[test]
    fn the_triton_buffer_needs_eight_requests() {
        let spec = parse_config(LLAMA31_8B).unwrap();
        let small = sampler_transient(&spec, &run(8192, 7));
        let eight = sampler_transient(&spec, &run(8192, 8));
        let per_request = 2 * 4096 * 2 + 128_256 * 2 + 3 * 128_256 * 4;
        assert_eq!(eight - small, per_request + 8 * 128_256 * 4);
    }

    #[test]
    fn mla_workspace_is_capped_at_64k_tokens() {
        assert_eq!(mla_chunk_workspace(&run(8192, 1024)), 65_536);
        let mut short = run(8192, 16);
        short.max_model_len = 1024;
        assert_eq!(mla_chunk_workspace(&short), 8192);
    }
}
