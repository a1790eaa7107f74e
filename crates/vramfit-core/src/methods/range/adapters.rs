//! LoRA and QLoRA adapters (seed 001): rank-`r` adapters on the attention
//! and dense-MLP projections as each family stores them, at 16 bytes per
//! adapter parameter.

use super::ADAPTER_BYTES_PER_PARAM;
use crate::methods::{Feature, Refusal};
use crate::model::{AttentionKind, FfnKind, ModelSpec};
use crate::units::{saturate, Bytes};

/// Parameters of one rank-`r` adapter on an `input → output` projection:
/// `A` is `r × input`, `B` is `output × r`, so `r × (input + output)`.
fn adapter(rank: u64, input: u64, output: u64) -> u128 {
    rank as u128 * (input as u128 + output as u128)
}

/// Adapters are counted on projections of one width per model: a model
/// whose attention widths differ per layer, or whose compressed attention
/// has other projections, is outside the method.
pub(super) fn adapter_scope(spec: &ModelSpec) -> Result<(), Refusal> {
    if spec
        .attention
        .iter()
        .any(|k| matches!(k, AttentionKind::Compressed { .. }))
    {
        return Err(Refusal::Feature(Feature::CompressedAttention));
    }
    if spec.kv_dims_by_layer.is_some() {
        return Err(Refusal::Feature(Feature::MixedAttentionWidths));
    }
    Ok(())
}

/// Adapter parameters on one layer's attention projections:
///
/// ```text
/// attention (full, sliding, chunked):  q: H → H_q·d, k, v: H → H_kv·d, o: H_q·d → H
/// MLA:   q_a: H → r_q, q_b: r_q → H_q·d_qk (or q: H → H_q·d_qk),
///        kv_a: H → r_kv + d_rope, kv_b: r_kv → H_q·(d_nope + d_v), o: H_q·d_v → H
/// linear / state-space, none:  0
/// ```
fn attention_adapter_params(spec: &ModelSpec, i: usize, kind: AttentionKind, rank: u64) -> u128 {
    let h = spec.hidden_size;
    let kv_heads = match &spec.kv_heads_by_layer {
        Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
        None => spec.num_kv_heads,
    };
    let heads = spec.num_attention_heads;
    let layout = spec.projections;
    match kind {
        AttentionKind::Full
        | AttentionKind::Indexed { .. }
        | AttentionKind::SlidingWindow { .. }
        | AttentionKind::Chunked { .. } => {
            let heads_width = heads.saturating_mul(spec.head_dim);
            let gate = if layout.gated_query { 2 } else { 1 };
            let q = heads_width.saturating_mul(gate);
            let kv = kv_heads.saturating_mul(spec.head_dim);
            let qkv = if layout.fused_qkv {
                adapter(rank, h, q.saturating_add(kv.saturating_mul(2)))
            } else {
                adapter(rank, h, q) + 2 * adapter(rank, h, kv)
            };
            qkv + adapter(rank, heads_width, h)
        }
        AttentionKind::Mla { .. } | AttentionKind::SparseMla { .. } => {
            let Some(mla) = spec.mla else { return 0 };
            let q_width = heads.saturating_mul(mla.qk_head_dim());
            let q = match mla.q_lora_rank {
                Some(r_q) => adapter(rank, h, r_q) + adapter(rank, r_q, q_width),
                None => adapter(rank, h, q_width),
            };
            let kv_a = adapter(rank, h, mla.latent());
            let kv_b_width =
                heads.saturating_mul(mla.qk_nope_head_dim.saturating_add(mla.v_head_dim));
            let kv_b = adapter(rank, mla.kv_lora_rank, kv_b_width);
            let o = adapter(rank, heads.saturating_mul(mla.v_head_dim), h);
            q + kv_a + kv_b + o
        }
        // Outside the method (`adapter_scope`).
        AttentionKind::Compressed { .. } | AttentionKind::Linear { .. } | AttentionKind::None => 0,
    }
}

/// Adapter parameters on one dense MLP of width `I`:
/// `gate, up: H → I, down: I → H`, so `3 × r × (H + I)`; `2 × r × (H + I)`
/// without a gate; `r × (H + 2I) + r × (I + H)` with gate and up fused.
fn mlp_adapter_params(spec: &ModelSpec, width: u64, rank: u64) -> u128 {
    let h = spec.hidden_size;
    let layout = spec.projections;
    if !layout.gated_mlp {
        2 * adapter(rank, h, width)
    } else if layout.fused_gate_up {
        adapter(rank, h, width.saturating_mul(2)) + adapter(rank, width, h)
    } else {
        3 * adapter(rank, h, width)
    }
}

/// Trained adapter parameters `A` at rank `r`: every layer's attention
/// projections, plus its dense-MLP projections unless the model is a
/// mixture of experts. Source, seed 001: "Beide trainen adapters met rank
/// 16 op de attention- en dense-MLP-projecties (alleen attention bij
/// mixture-of-experts-modellen)" (both train rank-16 adapters on the
/// attention and dense-MLP projections; attention only for
/// mixture-of-experts models). The rank is the scenario's (default 16).
pub fn adapter_params(spec: &ModelSpec, rank: u64) -> u64 {
    let with_mlp = spec.moe.is_none();
    let width = |i: usize| match &spec.ffn_width_by_layer {
        Some(widths) => widths.get(i).copied().unwrap_or(0),
        None => spec.intermediate_size.unwrap_or(0),
    };
    let total = spec.attention.iter().zip(&spec.ffn).enumerate().fold(
        0u128,
        |acc, (i, (attention, ffn))| {
            let mlp = match (with_mlp, ffn) {
                (true, FfnKind::Dense) => mlp_adapter_params(spec, width(i), rank),
                _ => 0,
            };
            acc.saturating_add(attention_adapter_params(spec, i, *attention, rank))
                .saturating_add(mlp)
        },
    );
    saturate(total)
}

/// Adapter states: `16 × A` bytes (weight, gradient, master copy and two
/// Adam moments of every adapter parameter). Source, seed 001: "op 16
/// bytes per adapterparameter" (at 16 bytes per adapter parameter).
pub fn adapters_bytes(spec: &ModelSpec, rank: u64) -> Bytes {
    Bytes(adapter_params(spec, rank)).times(ADAPTER_BYTES_PER_PARAM)
}
