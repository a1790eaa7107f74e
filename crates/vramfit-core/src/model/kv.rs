//! The KV cache of a parsed model: one place for the formula.
//!
//! Per layer, for one sequence of `S` tokens:
//!
//! ```text
//! full:            H_kv · (d_k + d_v) · S
//! sliding window:  H_kv · (d_k + d_v) · min(S, W)
//! chunked:         H_kv · (d_k + d_v) · min(S, C)
//! MLA:             (r_kv + d_rope) · S
//! MLA + indexer:   (r_kv + d_rope + d_I) · S
//! GQA + indexer:   (H_kv · (d_k + d_v) + d_I) · S
//! compressed:      w · min(S, W) + (w + d_I) · ⌊S / m⌋ + buffers
//! linear / Mamba:  state (fixed, whatever S)
//! none:            0
//! (+ side state:   the state of a mixer beside attention, Falcon-H1)
//!
//! kv_cache = B · (Σ cached elements · b_kv + Σ state elements · b_model) / 8
//! ```
//!
//! Symbols: `H_kv` key/value heads of the layer (they differ per layer in
//! Nemotron-NAS, Gemma-4, MiMo-V2), `d_k + d_v` the key and value head
//! widths of the layer (`2·d` in most models; `d` where one tensor is
//! both, DeepSeek-V4), `W` window, `C` chunk, `r_kv + d_rope` MLA latent
//! width, `d_I` the sparse-attention indexer's key width (DeepSeek-V3.2,
//! GLM-5; one shared head in MiniMax-M3's sparse layers; per compressed
//! entry in DeepSeek-V4's overlapping layers), `w`
//! one compressed-attention entry and `m` its ratio (DeepSeek-V4), `B`
//! sequences, `b_kv` bits per cached element (the caller's KV format),
//! `b_model` bits of the model dtype (recurrent state and compressor
//! buffers are kept at the model dtype). A sliding layer keeps the last
//! `W` tokens (Mistral-7B paper, arXiv:2310.06825 §2 "rolling buffer
//! cache"); MLA caches the compressed latent and the shared rotary key
//! (DeepSeek-V2, arXiv:2405.04434 §2.1); the indexer caches its own key per
//! token (`transformers` `DeepseekV32Indexer`; vLLM keeps it in FP8 with a
//! scale per 128 elements; MiniMax-M3's, vLLM
//! `models/minimax_m3/common/indexer.py` `MiniMaxM3IndexerCache`, one
//! vector of `sparse_index_dim` per token); a compressed layer caches its window and one
//! pooled entry per `m` tokens (`transformers` `DeepseekV4HCACache`,
//! `DeepseekV4CSACache`).

use super::layers::AttentionKind;
use super::ModelSpec;
use crate::units::saturate;
use serde::Serialize;

/// Layers of one attention kind, for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayerCount {
    pub kind: AttentionKind,
    pub layers: u64,
}

/// Millionths, to add fractional per-token rates exactly enough.
const MICRO: u128 = 1_000_000;

impl AttentionKind {
    /// Millionths of an element this layer adds per cached token while the
    /// context is shorter than its window: `kv_width` for full, sliding and
    /// chunked attention, `kv_width + d_I` with an indexer's key, the latent
    /// (and indexer key) for MLA, `w + (w + d_I) / m` for compressed
    /// attention, 0 otherwise.
    fn token_micro(self, kv_width: u128) -> u128 {
        match self {
            AttentionKind::Full
            | AttentionKind::SlidingWindow { .. }
            | AttentionKind::Chunked { .. } => kv_width.saturating_mul(MICRO),
            AttentionKind::Mla { latent } => latent as u128 * MICRO,
            AttentionKind::SparseMla { latent, index } => (latent as u128 + index as u128) * MICRO,
            AttentionKind::Indexed { index } => {
                kv_width.saturating_add(index as u128).saturating_mul(MICRO)
            }
            AttentionKind::Compressed {
                ratio,
                width,
                index,
                ..
            } => {
                let pooled = (width as u128 + index as u128) * MICRO / (ratio.max(1) as u128);
                width as u128 * MICRO + pooled
            }
            AttentionKind::Linear { .. } | AttentionKind::None => 0,
        }
    }

    /// Elements this layer caches for a context of `context` tokens.
    fn cached(self, kv_width: u128, context: u64) -> u128 {
        let s = context as u128;
        match self {
            AttentionKind::Full => kv_width.saturating_mul(s),
            AttentionKind::SlidingWindow { window } => {
                kv_width.saturating_mul(context.min(window) as u128)
            }
            AttentionKind::Chunked { chunk } => kv_width.saturating_mul(context.min(chunk) as u128),
            AttentionKind::Mla { latent } => (latent as u128).saturating_mul(s),
            AttentionKind::SparseMla { latent, index } => {
                (latent as u128 + index as u128).saturating_mul(s)
            }
            AttentionKind::Indexed { index } => {
                kv_width.saturating_add(index as u128).saturating_mul(s)
            }
            AttentionKind::Compressed {
                window,
                ratio,
                width,
                index,
                ..
            } => {
                let windowed = (width as u128).saturating_mul(context.min(window) as u128);
                let entries = s / ratio.max(1) as u128;
                windowed.saturating_add((width as u128 + index as u128).saturating_mul(entries))
            }
            AttentionKind::Linear { .. } | AttentionKind::None => 0,
        }
    }

    /// Fixed state elements per sequence.
    fn state(self) -> u128 {
        match self {
            AttentionKind::Linear { state } | AttentionKind::Compressed { state, .. } => {
                state as u128
            }
            _ => 0,
        }
    }
}

impl ModelSpec {
    /// `H_kv · (d_k + d_v)`: key and value elements of one token in
    /// attention layer `i` (`H_kv` and the widths of that layer where
    /// layers differ).
    fn kv_width(&self, i: usize) -> u128 {
        let heads = match &self.kv_heads_by_layer {
            Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
            None => self.num_kv_heads,
        };
        let dims = match &self.kv_dims_by_layer {
            Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
            None => self.head_dim.saturating_mul(2),
        };
        heads as u128 * dims as u128
    }

    /// State elements one sequence keeps in layer `i` beside its cache of
    /// tokens: its recurrent state, and that of a mixer running beside its
    /// attention (Falcon-H1).
    fn layer_state(&self, kind: AttentionKind) -> u128 {
        let side = match kind {
            AttentionKind::Linear { .. }
            | AttentionKind::None
            | AttentionKind::Compressed { .. } => 0,
            _ => self.side_state as u128,
        };
        kind.state().saturating_add(side)
    }

    /// Bytes one more token of context adds to one sequence's cache, across
    /// all layers whose cache grows with the context, at `kv_milli_bits`
    /// per element:
    ///
    /// `Σ_full,sliding,chunked H_kv·(d_k + d_v) + Σ_GQA+indexer (H_kv·(d_k +
    /// d_v) + d_I) + Σ_MLA (r_kv + d_rope (+ d_I)) + Σ_compressed (w + (w +
    /// d_I) / m)`, × bits / 8.
    ///
    /// "Per token" is the growth rate while the context is shorter than
    /// every window and chunk: a sliding (or chunked) layer stops growing
    /// once the context reaches its window, a compressed layer then grows
    /// by `(w + d_I) / m`, and linear / Mamba layers never grow. Use
    /// [`ModelSpec::kv_cache_bytes`] for a given context.
    pub fn kv_bytes_per_token(&self, kv_milli_bits: u64) -> u64 {
        let micro = self
            .attention
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, k)| {
                acc.saturating_add(k.token_micro(self.kv_width(i)))
            });
        let milli_bits = micro.saturating_mul(kv_milli_bits as u128) / MICRO;
        saturate(milli_bits.saturating_add(4_000) / 8_000)
    }

    /// Bytes of the whole cache for `batch` sequences of `context` tokens
    /// each, at `kv_milli_bits` per cached element (the formula in the
    /// module documentation), rounded to the nearest byte. Monotone in
    /// `context` and `batch`; saturates at `u64::MAX` instead of
    /// overflowing.
    pub fn kv_cache_bytes(&self, context: u64, batch: u64, kv_milli_bits: u64) -> u64 {
        let model_bits = self.dtype.milli_bits() as u128;
        let per_sequence = self
            .attention
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, k)| {
                let cached = k
                    .cached(self.kv_width(i), context)
                    .saturating_mul(kv_milli_bits as u128);
                let state = self.layer_state(*k).saturating_mul(model_bits);
                acc.saturating_add(cached).saturating_add(state)
            });
        let milli_bits = per_sequence.saturating_mul(batch as u128);
        saturate(milli_bits.saturating_add(4_000) / 8_000)
    }

    /// Elements the layers whose cache grows with the context hold for one
    /// sequence of `context` tokens (states left out).
    pub(crate) fn kv_cached_elements(&self, context: u64) -> u128 {
        self.attention
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, k)| {
                acc.saturating_add(k.cached(self.kv_width(i), context))
            })
    }

    /// Layers per attention kind, in order of first appearance.
    pub fn layers_by_kind(&self) -> Vec<LayerCount> {
        let mut counts: Vec<LayerCount> = Vec::new();
        for kind in &self.attention {
            match counts.iter_mut().find(|c| c.kind == *kind) {
                Some(c) => c.layers += 1,
                None => counts.push(LayerCount {
                    kind: *kind,
                    layers: 1,
                }),
            }
        }
        counts
    }
}
