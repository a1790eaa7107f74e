//! The weights one GPU holds after vLLM has loaded its share of the model:
//! "Model loading took N GiB".
//!
//! Tensors are listed as vLLM creates them (fused `qkv_proj` and
//! `gate_up_proj`, one `[E, ·, ·]` tensor per expert projection, the
//! vocabulary padded to 64), each split by tensor parallelism the way its
//! layer class splits it, stored in the loaded format, and counted as the
//! caching allocator counts it ([`allocated_block`]).

use super::allocator::allocated_block;
use super::extras::{ConfigExtras, LoadedFormat, LoadedQuant};
use crate::model::{AttentionKind, Dtype, FfnKind, ModelSpec, ParamGroups};
use serde::Serialize;

/// vLLM pads every vocabulary to a multiple of 64 before splitting it
/// (`DEFAULT_VOCAB_PADDING_SIZE`, `vocab_parallel_embedding.py`).
pub const VOCAB_PADDING: u64 = 64;

/// `⌈V / 64⌉ · 64`.
pub fn padded_vocab(vocab: u64) -> u64 {
    vocab.div_ceil(VOCAB_PADDING).saturating_mul(VOCAB_PADDING)
}

/// Bytes one rank holds, by part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct WeightParts {
    /// Input embedding and output head.
    pub embeddings: u64,
    /// Attention / MLA projections.
    pub attention: u64,
    /// Dense MLPs and shared experts.
    pub mlp: u64,
    /// Routed experts and routers.
    pub experts: u64,
    /// Norms, biases and other small tensors.
    pub small: u64,
    /// Rotary cos/sin tables.
    pub rope: u64,
    /// Vision tower and projector.
    pub vision: u64,
}

impl WeightParts {
    /// All parts.
    pub fn total(&self) -> u64 {
        crate::units::sum([
            self.embeddings,
            self.attention,
            self.mlp,
            self.experts,
            self.small,
            self.rope,
            self.vision,
        ])
    }
}

/// How one rank's share is decided.
#[derive(Debug, Clone, Copy)]
pub struct Shard<'a> {
    pub tp: u64,
    /// Decoder layers on this rank (pipeline stage), as a range.
    pub layers: (u64, u64),
    pub first: bool,
    pub last: bool,
    /// Bytes per element of the model dtype.
    pub dtype_bytes: u64,
    /// How quantized linear layers are stored, if they are.
    pub quant: Option<&'a LoadedQuant>,
    /// The MXFP4 kernel's padding of the expert matrices.
    pub mxfp4: super::padding::Mxfp4Padding,
}

/// A linear layer's weight, before splitting.
#[derive(Debug, Clone, Copy)]
struct Linear {
    rows: u64,
    cols: u64,
    copies: u64,
}

/// The weights of one rank.
///
/// # Formula
///
/// ```text
/// W_rank = Σ_tensors A(bytes(t / tp)) + Σ_tables A(R·d_rot·b) + small
/// ```
///
/// per tensor `t` of the rank's stages, split by its layer class
/// (column-parallel rows, row-parallel columns, replicated, vocabulary
/// rows `⌈V/64⌉·64 / tp`), stored as `rows·cols·b` or in the loaded
/// quantized layout ([`quantized_bytes`]), each counted by the caching
/// allocator `A` ([`allocated_block`]). Key/value heads are replicated
/// when fewer than `tp` (`max(1, H_kv/tp)` per rank). `small` is the rest
/// of the reader's parameter count (norms, biases) pro rata the rank's
/// layers, at `b`. Sources: vLLM `vllm/model_executor/layers/linear.py`
/// (`QKVParallelLinear`, `MergedColumnParallelLinear`,
/// `RowParallelLinear`, `ReplicatedLinear`),
/// `layers/vocab_parallel_embedding.py`, `layers/fused_moe/layer.py`
/// (`w13_weight [E, 2·I/tp, H]`, `w2_weight [E, H, I/tp]`),
/// `models/deepseek_v2.py` (MLA projections), `distributed/utils.py`
/// (`get_pp_indices`).
pub fn rank_weights(spec: &ModelSpec, extras: &ConfigExtras, shard: &Shard) -> WeightParts {
    let tp = shard.tp.max(1);
    let b = shard.dtype_bytes;
    let mut parts = WeightParts::default();
    let dense = |l: Linear| -> u64 { tensor_bytes(l, b, None) };
    let quant_any = shard.quant.filter(|q| !q.experts_only);
    let quant_experts = shard.quant;

    // Embedding and output head.
    let vocab_rows = padded_vocab(spec.vocab_size) / tp;
    let table = Linear {
        rows: vocab_rows,
        cols: spec.hidden_size,
        copies: 1,
    };
    if shard.first || (shard.last && spec.tied_embeddings) {
        parts.embeddings += dense(table);
    }
    if shard.last && !spec.tied_embeddings {
        parts.embeddings += dense(table);
    }

    let (start, end) = shard.layers;
    for i in start..end.min(spec.num_layers) {
        let attention = spec.attention.get(i as usize).copied();
        parts.attention += attention_bytes(spec, attention, tp, b, quant_any);
        match spec.ffn.get(i as usize) {
            Some(FfnKind::Dense) => {
                parts.mlp += mlp_bytes(spec, tp, b, quant_any);
            }
            Some(FfnKind::Moe) => {
                let (routed, shared) =
                    moe_bytes(spec, tp, b, quant_experts, quant_any, shard.mxfp4);
                parts.experts += routed;
                parts.mlp += shared;
            }
            _ => {}
        }
    }
    parts.small = small_bytes(spec, shard);
    parts.rope = extras
        .rope_caches
        .iter()
        .map(|c| allocated_block(c.rows.saturating_mul(c.dim).saturating_mul(b)))
        .sum();
    if shard.first {
        parts.vision = vision_bytes(spec, extras, tp, b);
    }
    parts
}

/// The vision tower and projector on the first stage.
///
/// # Formula
///
/// `W_vision = (P · s / tp + P · (1 − s)) · b`, with `P` the reader's
/// parameter count of the tower and projector ([`ModelSpec::vision`]; this
/// module's own count when the reader has none) and `s` the share of it in
/// vLLM's tensor-parallel layers (QKV/MLP of every encoder layer and, for
/// Mistral-3 and LLaVA-NeXT, the projector's linear layers), taken from
/// [`super::vision`]. A tower the checkpoint stores quantized counts its
/// published bytes, split the same way.
fn vision_bytes(spec: &ModelSpec, extras: &ConfigExtras, tp: u64, b: u64) -> u64 {
    let own = extras.vision;
    let (params, bytes) = match (&spec.vision, own) {
        (Some(v), _) if v.quantized_params > 0 => (v.params, Some(v.bytes)),
        (Some(v), _) => (v.params, None),
        (None, Some(t)) => (t.sharded_params.saturating_add(t.replicated_params), None),
        (None, None) => return 0,
    };
    let (share_num, share_den) = match own {
        Some(t) => (
            t.sharded_params as u128,
            (t.sharded_params as u128 + t.replicated_params as u128).max(1),
        ),
        None => (0, 1),
    };
    let total = match bytes {
        Some(published) => published as u128,
        None => params as u128 * b as u128,
    };
    let sharded = total * share_num / share_den;
    crate::units::saturate(sharded / tp as u128 + (total - sharded))
}

/// Bytes of one tensor split for a rank, in the loaded format.
fn tensor_bytes(l: Linear, b: u64, quant: Option<&LoadedQuant>) -> u64 {
    match quant {
        None => allocated_block(
            l.rows
                .saturating_mul(l.cols)
                .saturating_mul(l.copies)
                .saturating_mul(b),
        ),
        Some(q) => quantized_bytes(l.rows, l.cols, l.copies, b, q),
    }
}

/// Bytes of `copies` quantized `rows × cols` matrices as loaded.
///
/// # Formula
///
/// ```text
/// FP8 tensor:   A(E·R·C) + A(4·E)
/// FP8 channel:  A(E·R·C) + A(4·E·R)
/// FP8 block:    A(E·R·C) + A(4·E·⌈R/b_r⌉·⌈C/b_c⌉)
/// INT8 channel: A(E·R·C) + A(4·E·R)
/// Marlin:       A(E·R·C·q/8) + A(2·E·R·n) [+ A(E·R·n·q/8) zero points]
///               [+ 2·A(4·E·C) act-order indices],  n = ⌈C/g⌉ (1 for g = 0)
/// MXFP4:        A(E·R·C/2) + A(E·R·⌈C/32⌉)
/// ```
///
/// (`+ A(4·E)` input scales with static activation quantization.)
/// Sources: vLLM `layers/quantization/fp8.py` (`Fp8LinearMethod`),
/// `compressed_tensors/schemes/compressed_tensors_w8a8_fp8.py` and
/// `_w8a8_int8.py`, `kernels/linear/mixed_precision/marlin.py`
/// (`gptq_marlin_repack`, `marlin_permute_scales`, `marlin_sort_g_idx`: the
/// repacked weight keeps its size, scales become 16-bit, symmetric zero
/// points are dropped), `layers/quantization/mxfp4.py`.
pub fn quantized_bytes(rows: u64, cols: u64, copies: u64, b: u64, q: &LoadedQuant) -> u64 {
    let e = copies as u128;
    let (r, c) = (rows as u128, cols as u128);
    let values = e * r * c;
    let a = |x: u128| allocated_block(crate::units::saturate(x));
    let mut total = match q.format {
        LoadedFormat::Fp8Tensor => a(values) + a(4 * e),
        LoadedFormat::Fp8Channel | LoadedFormat::Int8Channel => a(values) + a(4 * e * r),
        LoadedFormat::Fp8Block { rows: br, cols: bc } => {
            let tiles = r.div_ceil(br.max(1) as u128) * c.div_ceil(bc.max(1) as u128);
            a(values) + a(4 * e * tiles)
        }
        LoadedFormat::Marlin {
            bits,
            group,
            zero_points,
            act_order,
        } => {
            let groups = match group {
                0 => 1,
                g => c.div_ceil(g as u128),
            };
            let packed = a((values * bits as u128).div_ceil(8));
            let scales = a(2 * e * r * groups);
            let zeros = match zero_points {
                true => a((e * r * groups * bits as u128).div_ceil(8)),
                false => 0,
            };
            let index = match act_order {
                true => 2 * a(4 * e * c),
                false => 0,
            };
            packed + scales + zeros + index
        }
        LoadedFormat::Mxfp4 => a(values.div_ceil(2)) + a(e * r * c.div_ceil(32)),
        LoadedFormat::Stored(scheme) => {
            let dtype = match b {
                4 => Dtype::F32,
                _ => Dtype::Bf16,
            };
            let one = scheme.matrix(rows, cols, dtype);
            let times = |x: u64| a(x as u128 * e);
            times(one.values)
                + times(one.scales)
                + times(one.zero_points)
                + times(one.group_index)
                + times(one.other)
        }
    };
    if q.static_input_scale {
        total += a(4 * e);
    }
    total
}

/// Attention projections of one layer on one rank.
fn attention_bytes(
    spec: &ModelSpec,
    kind: Option<AttentionKind>,
    tp: u64,
    b: u64,
    quant: Option<&LoadedQuant>,
) -> u64 {
    let q = quant.filter(|q| !q.kept.attention);
    let h = spec.hidden_size;
    let one = |rows: u64, cols: u64| {
        tensor_bytes(
            Linear {
                rows,
                cols,
                copies: 1,
            },
            b,
            q,
        )
    };
    match kind {
        Some(AttentionKind::Full)
        | Some(AttentionKind::SlidingWindow { .. })
        | Some(AttentionKind::Chunked { .. }) => {
            let heads = spec.num_attention_heads / tp;
            let kv_heads = (spec.num_kv_heads / tp).max(1);
            let d = spec.head_dim;
            let qkv = one((heads + 2 * kv_heads).saturating_mul(d), h);
            let o = one(h, heads.saturating_mul(d));
            qkv.saturating_add(o)
        }
        Some(AttentionKind::Mla { .. }) => {
            let Some(mla) = spec.mla else { return 0 };
            let heads = spec.num_attention_heads / tp;
            let qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
            let latent = mla.kv_lora_rank + mla.qk_rope_head_dim;
            let mut total = match mla.q_lora_rank {
                Some(rank) => one(rank + latent, h) + one(heads * qk, rank),
                None => one(heads * qk, h) + one(latent, h),
            };
            let kv_b_rows = heads * (mla.qk_nope_head_dim + mla.v_head_dim);
            total += one(kv_b_rows, mla.kv_lora_rank);
            // Quantized kv_b is dequantized into 16-bit W_UK / W_UV copies.
            if q.is_some() {
                total += allocated_block(kv_b_rows * mla.kv_lora_rank * b);
            }
            total + one(h, heads * mla.v_head_dim)
        }
        Some(AttentionKind::Linear { .. }) => {
            // Linear-attention / Mamba projections: the reader's count,
            // split evenly (no per-tensor layout).
            let layers = spec
                .attention
                .iter()
                .filter(|k| matches!(k, AttentionKind::Linear { .. }))
                .count()
                .max(1) as u64;
            spec.params.attention / layers / tp * b
        }
        // Refused before the weights are laid out (`kv::layer_specs`).
        Some(AttentionKind::SparseMla { .. })
        | Some(AttentionKind::Indexed { .. })
        | Some(AttentionKind::Compressed { .. })
        | Some(AttentionKind::None)
        | None => 0,
    }
}

/// Matrices per dense MLP: 3 when gated (gate, up, down), 2 otherwise
/// (the reader's `projections.gated_mlp`, from the modeling code of the
/// model type).
pub(super) fn dense_mlp_matrices(spec: &ModelSpec) -> u64 {
    match spec.projections.gated_mlp {
        true => 3,
        false => 2,
    }
}

/// Matrices per routed expert, read back the same way.
pub(super) fn expert_matrices(spec: &ModelSpec) -> u64 {
    let Some(moe) = spec.moe.as_ref() else {
        return 3;
    };
    let d = moe.latent.unwrap_or(spec.hidden_size) as u128;
    let one =
        d * moe.expert_intermediate as u128 * moe.routed_experts as u128 * moe.moe_layers as u128;
    if one == 0 {
        return 3;
    }
    ((spec.params.routed_experts as u128 + one / 2) / one).clamp(2, 3) as u64
}

/// A dense MLP on one rank: `gate_up` `(n−1)·I/tp × H` and `down`
/// `H × I/tp`.
fn mlp_bytes(spec: &ModelSpec, tp: u64, b: u64, quant: Option<&LoadedQuant>) -> u64 {
    let h = spec.hidden_size;
    let i = spec.intermediate_size.unwrap_or(0) / tp;
    let up_rows = (dense_mlp_matrices(spec) - 1) * i;
    let up = Linear {
        rows: up_rows,
        cols: h,
        copies: 1,
    };
    let down = Linear {
        rows: h,
        cols: i,
        copies: 1,
    };
    tensor_bytes(up, b, quant).saturating_add(tensor_bytes(down, b, quant))
}

/// An MoE layer on one rank: `(routed experts + router, shared experts)`.
fn moe_bytes(
    spec: &ModelSpec,
    tp: u64,
    b: u64,
    experts_quant: Option<&LoadedQuant>,
    quant: Option<&LoadedQuant>,
    mxfp4: super::padding::Mxfp4Padding,
) -> (u64, u64) {
    let Some(moe) = spec.moe.as_ref() else {
        return (0, 0);
    };
    let h = spec.hidden_size;
    let d = moe.latent.unwrap_or(h);
    let e = moe.routed_experts;
    let ie = moe.expert_intermediate / tp;
    // MXFP4 experts are created padded for the kernel (`padding.rs`).
    let (ie, d) = match experts_quant.map(|q| q.format) {
        Some(LoadedFormat::Mxfp4) => mxfp4.pad(ie, d),
        _ => (ie, d),
    };
    let w13 = Linear {
        rows: (expert_matrices(spec) - 1) * ie,
        cols: d,
        copies: e,
    };
    let w2 = Linear {
        rows: d,
        cols: ie,
        copies: e,
    };
    let router = allocated_block(e.saturating_mul(h).saturating_mul(b));
    let routed = tensor_bytes(w13, b, experts_quant)
        .saturating_add(tensor_bytes(w2, b, experts_quant))
        .saturating_add(router);
    let s = moe.shared_intermediate / tp;
    let shared = match s {
        0 => 0,
        _ => {
            let up = Linear {
                rows: 2 * s,
                cols: h,
                copies: 1,
            };
            let down = Linear {
                rows: h,
                cols: s,
                copies: 1,
            };
            tensor_bytes(up, b, quant).saturating_add(tensor_bytes(down, b, quant))
        }
    };
    (routed, shared)
}

/// Parameters of the big tensors listed above, for the whole model at
/// `tp = 1`, in the reader's groups (to find what the reader counts
/// beyond them: biases, norms).
fn listed_params(spec: &ModelSpec) -> ParamGroups {
    let h = spec.hidden_size as u128;
    let mut g = Listed {
        embedding: spec.vocab_size as u128 * h,
        lm_head: match spec.tied_embeddings {
            true => 0,
            false => spec.vocab_size as u128 * h,
        },
        ..Listed::default()
    };
    let mlp_n = dense_mlp_matrices(spec) as u128;
    let exp_n = expert_matrices(spec) as u128;
    for (i, kind) in spec.attention.iter().enumerate() {
        g.attention += match kind {
            AttentionKind::Full
            | AttentionKind::SlidingWindow { .. }
            | AttentionKind::Chunked { .. } => {
                let d = spec.head_dim as u128;
                let q = spec.num_attention_heads as u128 * d;
                let kv = spec.num_kv_heads as u128 * d;
                (q + 2 * kv) * h + h * q
            }
            AttentionKind::Mla { .. } => match spec.mla {
                Some(m) => {
                    let heads = spec.num_attention_heads as u128;
                    let qk = (m.qk_nope_head_dim + m.qk_rope_head_dim) as u128;
                    let latent = (m.kv_lora_rank + m.qk_rope_head_dim) as u128;
                    let q = match m.q_lora_rank {
                        Some(r) => r as u128 * h + heads * qk * r as u128,
                        None => heads * qk * h,
                    };
                    q + latent * h
                        + heads
                            * (m.qk_nope_head_dim + m.v_head_dim) as u128
                            * m.kv_lora_rank as u128
                        + h * heads * m.v_head_dim as u128
                }
                None => 0,
            },
            // The reader's count, split evenly (see `attention_bytes`).
            AttentionKind::Linear { .. } => {
                let layers = spec
                    .attention
                    .iter()
                    .filter(|k| matches!(k, AttentionKind::Linear { .. }))
                    .count()
                    .max(1) as u128;
                spec.params.attention as u128 / layers
            }
            // Refused before the weights are laid out (`kv::layer_specs`).
            AttentionKind::SparseMla { .. }
            | AttentionKind::Indexed { .. }
            | AttentionKind::Compressed { .. }
            | AttentionKind::None => 0,
        };
        match (spec.ffn.get(i), spec.moe.as_ref()) {
            (Some(FfnKind::Dense), _) => {
                g.dense_mlp += mlp_n * h * spec.intermediate_size.unwrap_or(0) as u128;
            }
            (Some(FfnKind::Moe), Some(m)) => {
                let d = m.latent.unwrap_or(spec.hidden_size) as u128;
                g.routed_experts +=
                    exp_n * d * m.expert_intermediate as u128 * m.routed_experts as u128;
                g.router += m.routed_experts as u128 * h;
                g.shared_experts += 3 * h * m.shared_intermediate as u128;
            }
            _ => {}
        }
    }
    ParamGroups {
        embedding: crate::units::saturate(g.embedding),
        lm_head: crate::units::saturate(g.lm_head),
        attention: crate::units::saturate(g.attention),
        dense_mlp: crate::units::saturate(g.dense_mlp),
        routed_experts: crate::units::saturate(g.routed_experts),
        shared_experts: crate::units::saturate(g.shared_experts),
        router: crate::units::saturate(g.router),
        norms: 0,
    }
}

#[derive(Default)]
struct Listed {
    embedding: u128,
    lm_head: u128,
    attention: u128,
    dense_mlp: u128,
    routed_experts: u128,
    shared_experts: u128,
    router: u128,
}

/// Norms, biases and other small tensors, pro rata the rank's layers, at
/// the model dtype.
///
/// # Formula
///
/// `small = (norms + Σ_g r_g) · layers_rank / layers · b`, where `r_g` is
/// what the reader counts in group `g` beyond the tensors listed here
/// (biases, sinks, gates), taken only when it is at most 1 % of the group:
/// a larger difference means the reader and vLLM lay the group out
/// differently (an ungated MLP the reader reads as gated), and the listed
/// tensors are the ones vLLM creates.
fn small_bytes(spec: &ModelSpec, shard: &Shard) -> u64 {
    let listed = listed_params(spec);
    let p = &spec.params;
    let rest = |counted: u64, listed: u64| -> u128 {
        match counted.checked_sub(listed) {
            Some(r) if r as u128 * 100 <= counted as u128 => r as u128,
            _ => 0,
        }
    };
    let extra = rest(p.embedding, listed.embedding)
        + rest(p.lm_head, listed.lm_head)
        + rest(p.attention, listed.attention)
        + rest(p.dense_mlp, listed.dense_mlp)
        + rest(p.routed_experts, listed.routed_experts)
        + rest(p.shared_experts, listed.shared_experts)
        + rest(p.router, listed.router);
    let total = p.norms as u128 + extra;
    let layers = spec.num_layers.max(1) as u128;
    let (start, end) = shard.layers;
    let mine = end.min(spec.num_layers).saturating_sub(start) as u128;
    crate::units::saturate(total * mine / layers * shard.dtype_bytes as u128)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_config;

    const LLAMA31_8B: &str = r#"{
        "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192,
            "rope_type": "llama3"}
    }"#;

    fn shard(tp: u64, layers: (u64, u64), first: bool, last: bool) -> Shard<'static> {
        Shard {
            tp,
            layers,
            first,
            last,
            dtype_bytes: 2,
            quant: None,
            mxfp4: crate::methods::vllm::Mxfp4Padding::HOPPER,
        }
    }

    #[test]
    fn llama_8b_is_its_parameters_plus_the_rotary_table() {
        // vLLM 0.19 logs "Model loading took 14.99 GiB" on an H100.
        let spec = parse_config(LLAMA31_8B).unwrap();
        let extras = ConfigExtras::read(LLAMA31_8B, &spec);
        let w = rank_weights(&spec, &extras, &shard(1, (0, 32), true, true));
        assert_eq!(w.total(), 8_030_261_248 * 2 + 131_072 * 128 * 2);
        assert_eq!(w.rope, 32 << 20);
    }

    #[test]
    fn tensor_parallel_halves_all_but_norms_and_tables() {
        let spec = parse_config(LLAMA31_8B).unwrap();
        let extras = ConfigExtras::read(LLAMA31_8B, &spec);
        let w = rank_weights(&spec, &extras, &shard(2, (0, 32), true, true));
        let norms = 65 * 4096 * 2;
        let halved = (8_030_261_248 * 2 - norms) / 2;
        // Half the vocabulary is 501 MiB per table: its 502 MiB segment
        // keeps 1 MiB over, counted (twice: embedding and head).
        assert_eq!(w.total(), halved + norms + (32 << 20) + (2 << 20));
    }

    #[test]
    fn pipeline_stages_hold_their_layers() {
        let spec = parse_config(LLAMA31_8B).unwrap();
        let extras = ConfigExtras::read(LLAMA31_8B, &spec);
        let middle = rank_weights(&spec, &extras, &shard(1, (8, 16), false, false));
        assert_eq!(middle.embeddings, 0);
        // 8 layers of 218,103,808 projection parameters, the norms pro rata
        // (65 of 4096 over 32 layers), the table.
        let norms = 65 * 4096 * 8 / 32;
        assert_eq!(middle.total(), (8 * 218_103_808 + norms) * 2 + (32 << 20));
    }

    #[test]
    fn marlin_int4_layout() {
        let q = LoadedQuant {
            format: LoadedFormat::Marlin {
                bits: 4,
                group: 128,
                zero_points: false,
                act_order: true,
            },
            experts_only: false,
            kept: Default::default(),
            static_input_scale: false,
            method: "gptq_marlin",
        };
        // 4096 × 4096: 8 MiB packed, 32 groups × 4096 fp16 scales, two
        // int32 indices per input feature.
        let bytes = quantized_bytes(4096, 4096, 1, 2, &q);
        assert_eq!(bytes, 8 * (1 << 20) + 2 * 4096 * 32 + 2 * 4096 * 4);
    }

    #[test]
    fn padded_vocabulary() {
        assert_eq!(padded_vocab(49155), 49216);
        assert_eq!(padded_vocab(128256), 128256);
        assert_eq!(padded_vocab(0), 0);
    }
}
