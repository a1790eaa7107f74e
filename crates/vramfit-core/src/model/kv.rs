//! The KV cache of a parsed model: one place for the formula.
//!
//! Per layer, for one sequence of `S` tokens:
//!
//! ```text
//! full:            2 · H_kv · d · S
//! sliding window:  2 · H_kv · d · min(S, W)
//! chunked:         2 · H_kv · d · min(S, C)
//! MLA:             (r_kv + d_rope) · S
//! linear / Mamba:  state (fixed, whatever S)
//! none:            0
//! (+ side state:   the state of a mixer beside attention, Falcon-H1)
//!
//! kv_cache = B · (Σ cached elements · b_kv + Σ state elements · b_model) / 8
//! ```
//!
//! Symbols: `H_kv` key/value heads of the layer (they differ per layer in
//! Nemotron-NAS), `d` head dimension, `W` window, `C`
//! chunk, `r_kv + d_rope` MLA latent width, `B` sequences, `b_kv` bits per
//! cached element (the caller's KV format), `b_model` bits of the model
//! dtype (recurrent state is kept at the model dtype). The factor 2 is one
//! key and one value vector per KV head; MLA caches one latent instead.
//! A sliding layer keeps the last `W` tokens (Mistral-7B paper,
//! arXiv:2310.06825 §2 "rolling buffer cache"); MLA caches the compressed
//! latent and the shared rotary key (DeepSeek-V2, arXiv:2405.04434 §2.1).

use super::layers::AttentionKind;
use super::ModelSpec;
use crate::units::{bytes_for_bits, saturate};
use serde::Serialize;

/// Layers of one attention kind, for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayerCount {
    pub kind: AttentionKind,
    pub layers: u64,
}

impl AttentionKind {
    /// Elements this layer adds per cached token: `2·H_kv·d` for full,
    /// sliding and chunked attention, the latent for MLA, 0 otherwise.
    fn token_width(self, kv_width: u128) -> u128 {
        match self {
            AttentionKind::Full
            | AttentionKind::SlidingWindow { .. }
            | AttentionKind::Chunked { .. } => kv_width,
            AttentionKind::Mla { latent } => latent as u128,
            AttentionKind::Linear { .. } | AttentionKind::None => 0,
        }
    }

    /// Tokens this layer keeps for a context of `context` tokens.
    fn cached_tokens(self, context: u64) -> u128 {
        match self {
            AttentionKind::Full | AttentionKind::Mla { .. } => context as u128,
            AttentionKind::SlidingWindow { window } => context.min(window) as u128,
            AttentionKind::Chunked { chunk } => context.min(chunk) as u128,
            AttentionKind::Linear { .. } | AttentionKind::None => 0,
        }
    }

    /// Fixed state elements per sequence.
    fn state(self) -> u128 {
        match self {
            AttentionKind::Linear { state } => state as u128,
            _ => 0,
        }
    }
}

impl ModelSpec {
    /// `2 · H_kv · d`: K and V elements of one token in attention layer `i`
    /// (`H_kv` of that layer where layers differ).
    fn kv_width(&self, i: usize) -> u128 {
        let heads = match &self.kv_heads_by_layer {
            Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
            None => self.num_kv_heads,
        };
        2 * heads as u128 * self.head_dim as u128
    }

    /// State elements one sequence keeps in layer `i` beside its cache of
    /// tokens: its recurrent state, and that of a mixer running beside its
    /// attention (Falcon-H1).
    fn layer_state(&self, kind: AttentionKind) -> u128 {
        let side = match kind {
            AttentionKind::Linear { .. } | AttentionKind::None => 0,
            _ => self.side_state as u128,
        };
        kind.state().saturating_add(side)
    }

    /// Bytes one more token of context adds to one sequence's cache, across
    /// all layers whose cache grows with the context, at `kv_milli_bits`
    /// per element:
    ///
    /// `Σ_full,sliding,chunked 2·H_kv·d + Σ_MLA (r_kv + d_rope)`, × bits / 8.
    ///
    /// "Per token" is the growth rate while the context is shorter than
    /// every window and chunk: a sliding (or chunked) layer stops growing
    /// once the context reaches its window, and linear / Mamba layers never
    /// grow. Use [`ModelSpec::kv_cache_bytes`] for a given context.
    pub fn kv_bytes_per_token(&self, kv_milli_bits: u64) -> u64 {
        let elements = self
            .attention
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, k)| {
                acc.saturating_add(k.token_width(self.kv_width(i)))
            });
        bytes_for_bits(saturate(elements), kv_milli_bits)
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
                    .token_width(self.kv_width(i))
                    .saturating_mul(k.cached_tokens(context))
                    .saturating_mul(kv_milli_bits as u128);
                let state = self.layer_state(*k).saturating_mul(model_bits);
                acc.saturating_add(cached).saturating_add(state)
            });
        let milli_bits = per_sequence.saturating_mul(batch as u128);
        saturate(milli_bits.saturating_add(4_000) / 8_000)
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
