//! KV cache per GPU (seed 002).
//!
//! ```text
//! MHA/GQA/MQA: 2 × stage_layers × local_KV_heads × head_dim × resident_tokens × b_kv
//! MLA:         stage_layers × (latent + RoPE (+ indexer key)) × resident_tokens × b_kv
//! local_KV_heads = max(1, ⌈KV heads / TP⌉)     (replicated when TP > KV heads)
//! ```
//!
//! MLA's compressed latent is replicated on every TP rank. Resident tokens,
//! per layer, with paged blocks of `blk` tokens, `n` sequences and a prefix
//! of `p` tokens shared by them:
//!
//! ```text
//! C        = S, or min(S, window) on the layers that declare a window
//! shared   = ⌊min(p, C) / blk⌋ × blk                 (stored once)
//! private  = ⌈(C − shared) / blk⌉ × blk              (per sequence)
//! resident = shared + n × private
//! ```
//!
//! With pipeline parallelism the stage budget is the combination of
//! `⌈L/PP⌉` layers with the most KV (the largest per-layer caches).

use super::shape::Dims;
use crate::model::AttentionKind;
use crate::units::saturate;

/// Key/value heads one GPU holds: `max(1, ⌈KV heads / TP⌉)`.
pub fn local_kv_heads(kv_heads: u64, tp: u64) -> u64 {
    kv_heads.div_ceil(tp.max(1)).max(1)
}

/// Tokens cached for `sequences` sequences over a context of `context`
/// tokens: the shared prefix rounded down to whole blocks, stored once,
/// plus each sequence's private part rounded up to whole blocks.
pub fn resident_tokens(context: u64, prefix: u64, block: u64, sequences: u64) -> u64 {
    let block = block.max(1);
    let shared = prefix.min(context) / block * block;
    let private = (context - shared).div_ceil(block) * block;
    saturate(shared as u128 + sequences as u128 * private as u128)
}

/// How the cache is laid out on one GPU.
#[derive(Debug, Clone, Copy)]
pub struct KvLayout {
    /// Context per sequence, `S`.
    pub context: u64,
    pub shared_prefix: u64,
    pub block_tokens: u64,
    /// Sequences with a reservation.
    pub sequences: u64,
    pub tp: u64,
    /// Layers of the largest pipeline stage.
    pub stage_layers: u64,
    /// Bits per cached element, thousandths.
    pub kv_milli_bits: u64,
}

/// Elements one layer caches per token on one GPU: `local_kv · kv_dim`
/// (`kv_dim = 2 × head_dim` unless the layer's key and value widths
/// differ), the latent (with the sparse-attention indexer's key) for MLA.
fn width(kind: AttentionKind, local_kv: u64, kv_dim: u64) -> u128 {
    match kind {
        AttentionKind::Full
        | AttentionKind::SlidingWindow { .. }
        | AttentionKind::Chunked { .. } => local_kv as u128 * kv_dim as u128,
        AttentionKind::Mla { latent } => latent as u128,
        AttentionKind::SparseMla { latent, index } => latent as u128 + index as u128,
        // The indexer's key is one head, kept whole on every GPU (vLLM
        // `MinimaxM3QKVParallelLinearWithIndexer` replicates `index_k`).
        AttentionKind::Indexed { index } => local_kv as u128 * kv_dim as u128 + index as u128,
        // Refused by `Dims::of`.
        AttentionKind::Compressed { .. } | AttentionKind::Linear { .. } | AttentionKind::None => 0,
    }
}

/// The tokens a layer attends to: the window only where it is declared.
fn layer_context(kind: AttentionKind, context: u64) -> u64 {
    match kind {
        AttentionKind::SlidingWindow { window } => context.min(window),
        AttentionKind::Chunked { chunk } => context.min(chunk),
        _ => context,
    }
}

/// The KV cache on the most loaded GPU, in bytes (rounded to the nearest
/// byte): the `stage_layers` layers with the largest caches.
pub fn kv_per_gpu(d: &Dims, l: &KvLayout) -> u64 {
    let layer_heads = |i: usize| match &d.kv_heads_by_layer {
        Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
        None => d.kv_heads,
    };
    let layer_dims = |i: usize| match &d.kv_dims_by_layer {
        Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
        None => d.head_dim.saturating_mul(2),
    };
    let mut per_layer: Vec<u128> = d
        .attention
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let local = local_kv_heads(layer_heads(i), l.tp);
            let tokens = resident_tokens(
                layer_context(*kind, l.context),
                l.shared_prefix,
                l.block_tokens,
                l.sequences,
            );
            width(*kind, local, layer_dims(i))
                .saturating_mul(tokens as u128)
                .saturating_mul(l.kv_milli_bits as u128)
        })
        .collect();
    per_layer.sort_unstable_by(|a, b| b.cmp(a));
    let milli_bits = per_layer
        .iter()
        .take(l.stage_layers as usize)
        .fold(0u128, |acc, v| acc.saturating_add(*v));
    saturate(milli_bits.saturating_add(4_000) / 8_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn dims(attention: Vec<AttentionKind>, kv_heads: u64) -> Dims<'static> {
        Dims {
            params: 1,
            vocab: 1,
            layers: attention.len() as u64,
            kv_heads,
            attention: Cow::Owned(attention),
            ..Dims::test_8b()
        }
    }

    fn layout(context: u64, sequences: u64, tp: u64, stage_layers: u64) -> KvLayout {
        KvLayout {
            context,
            shared_prefix: 0,
            block_tokens: 16,
            sequences,
            tp,
            stage_layers,
            kv_milli_bits: 16_000,
        }
    }

    #[test]
    fn blocks_round_each_private_part_up() {
        // 1,000 tokens → 63 blocks of 16 = 1,008 tokens per sequence.
        assert_eq!(resident_tokens(1_000, 0, 16, 3), 3 * 1_008);
        assert_eq!(resident_tokens(1_024, 0, 16, 1), 1_024);
    }

    #[test]
    fn prefix_rounds_down_and_is_stored_once() {
        // Prefix 1,000 → 992 shared (62 blocks); private 4,096 − 992 =
        // 3,104 = 194 blocks exactly; 4 sequences.
        assert_eq!(resident_tokens(4_096, 1_000, 16, 4), 992 + 4 * 3_104);
        // A prefix longer than a window counts up to the window.
        assert_eq!(resident_tokens(128, 1_000, 16, 4), 128);
    }

    #[test]
    fn kv_heads_are_replicated_when_tp_exceeds_them() {
        assert_eq!(local_kv_heads(8, 1), 8);
        assert_eq!(local_kv_heads(8, 3), 3);
        assert_eq!(local_kv_heads(8, 16), 1);
        assert_eq!(local_kv_heads(1, 4), 1);
    }

    #[test]
    fn windows_apply_only_to_declared_layers_and_pp_takes_the_largest() {
        let sliding = AttentionKind::SlidingWindow { window: 1_024 };
        let full = AttentionKind::Full;
        // Layers: sliding, full, sliding, full; 1 KV head, head dim 128.
        let d = dims(vec![sliding, full, sliding, full], 1);
        // Per token per layer: 2 × 1 × 128 × 2 bytes = 512 bytes.
        // S = 8,192: full layers 512 × 8,192 = 4 MiB, sliding 512 × 1,024.
        let all = kv_per_gpu(&d, &layout(8_192, 1, 1, 4));
        assert_eq!(all, 2 * 512 * 8_192 + 2 * 512 * 1_024);
        // PP 2: two layers per stage; the budget is the two full layers.
        let stage = kv_per_gpu(&d, &layout(8_192, 1, 1, 2));
        assert_eq!(stage, 2 * 512 * 8_192);
    }

    #[test]
    fn mla_caches_one_latent_replicated_per_tp_rank() {
        let d = dims(vec![AttentionKind::Mla { latent: 576 }; 2], 16);
        // 2 layers × 576 × 4,096 tokens × 2 bytes, whatever TP.
        let want = 2 * 576 * 4_096 * 2;
        assert_eq!(kv_per_gpu(&d, &layout(4_096, 1, 1, 2)), want);
        assert_eq!(kv_per_gpu(&d, &layout(4_096, 1, 8, 2)), want);
    }

    #[test]
    fn sparse_mla_adds_the_indexer_key_and_layer_widths_apply() {
        let sparse = AttentionKind::SparseMla {
            latent: 576,
            index: 128,
        };
        let d = dims(vec![sparse; 2], 16);
        assert_eq!(
            kv_per_gpu(&d, &layout(4_096, 1, 8, 2)),
            2 * (576 + 128) * 4_096 * 2
        );
        // Per-layer key + value widths (keys 192 and values 128 wide).
        let mut d = dims(vec![AttentionKind::Full; 2], 1);
        d.kv_dims_by_layer = Some(std::borrow::Cow::Owned(vec![320, 320]));
        assert_eq!(kv_per_gpu(&d, &layout(1_024, 1, 1, 2)), 2 * 320 * 1_024 * 2);
    }

    #[test]
    fn an_indexed_layer_splits_its_heads_but_keeps_the_whole_index_key() {
        // MiniMax-M3's sparse layers: 4 KV heads of 128 and one index key
        // of 128 per token; TP 4 leaves one head per GPU and the whole key.
        let d = dims(vec![AttentionKind::Indexed { index: 128 }; 2], 4);
        assert_eq!(d.head_dim, 128);
        let tokens = 1_024;
        assert_eq!(
            kv_per_gpu(&d, &layout(tokens, 1, 1, 2)),
            2 * (4 * 256 + 128) * tokens * 2
        );
        assert_eq!(
            kv_per_gpu(&d, &layout(tokens, 1, 4, 2)),
            2 * (256 + 128) * tokens * 2
        );
    }
}
