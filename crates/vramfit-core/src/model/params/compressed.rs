//! DeepSeek-V4's layer parts: shared-KV attention with a grouped output
//! projection, the compressors and indexer of its compressed layers, the
//! hyper-connections around every block, hash routing.
//!
//! Source: `transformers` `modeling_deepseek_v4.py` (`DeepseekV4Attention`,
//! `DeepseekV4CSACompressor`, `DeepseekV4HCACompressor`,
//! `DeepseekV4Indexer`, `DeepseekV4HyperConnection`,
//! `DeepseekV4HyperHead`, `DeepseekV4HashRouter`).

use super::super::layers::AttentionKind;
use super::super::mixer::mul;
use super::super::shape::CompressedParts;
use super::{Arch, Group, Sink};

/// The attention of one layer, `n` heads of width `d`, query rank `r_q`,
/// `g` output groups of rank `r_o`:
///
/// ```text
/// q_a r_q×H, q_a_norm r_q, q_b n·d×r_q, kv d×H, kv_norm d,
/// o_a g·r_o × n·d/g, o_b H × g·r_o, sinks n
/// ```
///
/// plus, in a compressed layer of ratio `m`, its compressor: `kv`, `gate`
/// `w×H` and `position_bias m×w` with `w = d` (heavily compressed) or `2d`
/// (overlapping windows), `kv_norm d`; and in an overlapping one the
/// indexer of `n_I` heads of width `c`: `kv`, `gate 2c×H`, `position_bias
/// m×2c`, `kv_norm c`, `q_b n_I·c×r_q`, `weights_proj n_I×H`.
pub(super) fn attention(arch: &Arch, p: CompressedParts, kind: AttentionKind, sink: &mut Sink) {
    let s = arch.shape;
    let (h, d, n) = (s.hidden, s.head_dim, s.heads);
    let a = Group::Attention;
    sink.linear(a, "self_attn.q_a_proj", p.q_rank, h);
    sink.vector(Group::Norms, "self_attn.q_a_norm", p.q_rank);
    sink.linear(a, "self_attn.q_b_proj", mul(&[n, d]), p.q_rank);
    sink.linear(a, "self_attn.kv_proj", d, h);
    sink.vector(Group::Norms, "self_attn.kv_norm", d);
    let groups = p.o_groups.max(1);
    let grouped = mul(&[groups, p.o_rank]);
    sink.linear(a, "self_attn.o_a_proj", grouped, mul(&[n, d]) / groups);
    sink.linear(a, "self_attn.o_b_proj", h, grouped);
    sink.vector(a, "self_attn.sinks", n);
    let AttentionKind::Compressed { ratio, index, .. } = kind else {
        return;
    };
    let overlapping = index > 0;
    let w = if overlapping { mul(&[2, d]) } else { d };
    sink.linear(a, "self_attn.compressor.kv_proj", w, h);
    sink.linear(a, "self_attn.compressor.gate_proj", w, h);
    sink.emit(a, "self_attn.compressor.position_bias", ratio, w, 1, false);
    sink.vector(Group::Norms, "self_attn.compressor.kv_norm", d);
    if overlapping {
        let (heads, c) = (p.index.heads, p.index.head_dim);
        let w = mul(&[2, c]);
        sink.linear(a, "self_attn.compressor.indexer.kv_proj", w, h);
        sink.linear(a, "self_attn.compressor.indexer.gate_proj", w, h);
        sink.emit(
            a,
            "self_attn.compressor.indexer.position_bias",
            ratio,
            w,
            1,
            false,
        );
        sink.vector(Group::Norms, "self_attn.compressor.indexer.kv_norm", c);
        sink.linear(
            a,
            "self_attn.compressor.indexer.q_b_proj",
            mul(&[heads, c]),
            p.q_rank,
        );
        sink.linear(
            a,
            "self_attn.compressor.indexer.scorer.weights_proj",
            heads,
            h,
        );
    }
}

/// The two hyper-connections of a layer (before attention, before the
/// MLP), each mixing `N` streams of `H`: `fn (2+N)·N × N·H`, `base
/// (2+N)·N`, `scale 3`.
pub(super) fn hyper_connections(arch: &Arch, p: CompressedParts, sink: &mut Sink) {
    let n = p.streams;
    let mixes = mul(&[2u64.saturating_add(n), n]);
    let wide = mul(&[n, arch.shape.hidden]);
    for module in ["attn_hc", "ffn_hc"] {
        sink.emit(Group::Norms, module, mixes, wide, 1, false);
        sink.vector(Group::Norms, module, mixes);
        sink.vector(Group::Norms, module, 3);
    }
}

/// The final collapse of the streams: `hc_fn N × N·H`, `hc_base N`,
/// `hc_scale 1`.
pub(super) fn hyper_head(arch: &Arch, sink: &mut Sink) {
    let Some(p) = arch.shape.compressed else {
        return;
    };
    let n = p.streams;
    let wide = mul(&[n, arch.shape.hidden]);
    sink.emit(Group::Norms, "model.hc_head.hc_fn", n, wide, 1, false);
    sink.vector(Group::Norms, "model.hc_head.hc_base", n);
    sink.vector(Group::Norms, "model.hc_head.hc_scale", 1);
}

/// Whether the layer `sink` is filling routes by its token → experts
/// table (the first `hash_layers` layers of DeepSeek-V4).
pub(super) fn hash_routed(arch: &Arch, sink: &Sink) -> bool {
    match (arch.shape.compressed, sink.layer) {
        (Some(p), Some(i)) => i < p.hash_layers && i < arch.shape.layers,
        _ => false,
    }
}
