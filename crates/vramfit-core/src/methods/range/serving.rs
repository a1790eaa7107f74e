//! Serving (seed 001): the weights at the format's bits, with the
//! embeddings and the output head kept at 16 bits below 16 bits, and the
//! KV cache of the model's own layers.

use super::EMBEDDING_MILLI_BITS;
use crate::model::ModelSpec;
use crate::scenario::{Scenario, WeightFormat};
use crate::units::{bytes_for_bits, Bytes};

/// Bytes of every parameter at `milli_bits` per weight, with the
/// embeddings and the output head kept at 16 bits when the format is
/// narrower than 16 bits:
///
/// ```text
/// b_w ≥ 16:  P × b_w / 8
/// b_w < 16:  (E + O) × 16 / 8 + (P − E − O) × b_w / 8
/// ```
///
/// `P` parameters (the text model and the vision tower an engine loads
/// with it), `E` input embedding, `O` output head (0 when tied),
/// `b_w` bits per weight. Source, seed 001: "Gewichten: parameters × bits
/// per gewicht ÷ 8" (weights: parameters × bits per weight ÷ 8) and
/// "8-bit en 4-bit formaten houden de embeddings en de output-head op 16
/// bits" (8- and 4-bit formats keep the embeddings and the output head at
/// 16 bits). Bits per weight follow the seed's table
/// ([`WeightFormat::milli_bits`]).
pub fn weights_at_bits(spec: &ModelSpec, milli_bits: u64) -> Bytes {
    let all = spec.checkpoint.params;
    if milli_bits >= EMBEDDING_MILLI_BITS {
        return Bytes(bytes_for_bits(all, milli_bits));
    }
    let kept = spec.params.embedding.saturating_add(spec.params.lm_head);
    let rest = all.saturating_sub(kept);
    Bytes(bytes_for_bits(kept, EMBEDDING_MILLI_BITS)) + Bytes(bytes_for_bits(rest, milli_bits))
}

/// Serving weights on all GPUs together: [`weights_at_bits`] at the
/// scenario's bits, or, for "as published", the checkpoint's own bytes
/// (quantized tensors with their scales, the rest at the checkpoint dtype;
/// MXFP4 at 4.25 bits; the vision tower included). Source, seed 001: "“Zoals gepubliceerd” gebruikt
/// de dtypes van de eigen checkpoint van het model, met MXFP4 op 4.25
/// bits" ("as published" uses the dtypes of the model's own checkpoint,
/// with MXFP4 at 4.25 bits).
pub fn serving_weights_bytes(spec: &ModelSpec, s: &Scenario) -> Bytes {
    match s.weight_format {
        Some(WeightFormat::AsPublished) => Bytes(spec.checkpoint.bytes),
        _ => weights_at_bits(spec, s.weight_milli_bits),
    }
}

/// KV cache on all GPUs together, for `B` sequences of `S` tokens, each
/// layer by its own kind ([`ModelSpec::kv_cache_bytes`]):
///
/// ```text
/// full attention:  2 × H_kv × d × S
/// sliding window:  2 × H_kv × d × min(S, W)
/// MLA:             (r_kv + d_rope) × S        (one latent, not K and V)
/// linear:          fixed state per sequence
/// kv_cache = B × Σ layers × b_kv / 8
/// ```
///
/// Source, seed 001: "2 × lagen × KV-heads × head-dimensie × context ×
/// batch × bytes per waarde" (2 × layers × KV heads × head dimension ×
/// context × batch × bytes per value) for full attention, and "lagen met
/// een sliding window groeien niet verder dan het window, lagen met
/// latente attention cachen één gecomprimeerde latent per token en lagen
/// met lineaire attention houden een vaste state per sequentie" (sliding
/// layers grow no further than the window, latent-attention layers cache
/// one compressed latent per token, linear-attention layers keep a fixed
/// state per sequence).
pub fn kv_cache_bytes(spec: &ModelSpec, s: &Scenario) -> Bytes {
    Bytes(spec.kv_cache_bytes(s.context, s.replica_sequences(), s.kv_milli_bits))
}
