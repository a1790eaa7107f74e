//! Formulas shared by the methods that treat every layer as dense,
//! full-context attention (seeds 000 and 004 state the same ones).
//!
//! ```text
//! weights  = P × b_w / 8
//! kv_cache = 2 × L × H_kv × d_head × S × B × b_kv
//! ```
//!
//! `P` parameters, `b_w` bits per weight, `L` layers, `H_kv` key/value
//! heads, `d_head` head dimension, `S` context tokens, `B` sequences,
//! `b_kv` bytes per cached element. The 2 is one key and one value vector
//! per KV head and layer. Products are exact in `u128`, rounded to the
//! byte once, and saturate at `u64::MAX`.

use crate::scenario::{Scenario, WeightFormat};
use crate::units::{bytes_for_bits, saturate, Bytes};

/// Weight storage: `P × b_w / 8`, rounded to the byte; "as published",
/// the checkpoint's own bytes (quantized tensors with their scales, the
/// rest at its dtype, the vision tower included:
/// [`ModelSpec::published_format`](crate::model::ModelSpec::published_format)).
///
/// ```
/// use vramfit_core::{methods::dense, scenario::{ModelRef, ScenarioInput, WeightFormat}};
/// let s = ScenarioInput::default().validate().unwrap();
/// assert_eq!(dense::weights_bytes(&s).get(), 16_000_000_000); // 8B at 16 bits
/// let mut oss = ScenarioInput {
///     model: Some(ModelRef::Catalog("openai/gpt-oss-20b".into())),
///     ..ScenarioInput::default()
/// };
/// oss.set_weight_format(WeightFormat::AsPublished);
/// let s = oss.validate().unwrap();
/// assert_eq!(dense::weights_bytes(&s).get(), 13_761_264_768); // MXFP4 experts
/// ```
pub fn weights_bytes(s: &Scenario) -> Bytes {
    match (s.weight_format, s.model.as_deref()) {
        (Some(WeightFormat::AsPublished), Some(m)) => Bytes(m.checkpoint.bytes),
        _ => Bytes(bytes_for_bits(s.params, s.weight_milli_bits)),
    }
}

/// Dense KV cache for `tokens` tokens and `sequences` sequences:
/// `2 × L × H_kv × d_head × tokens × sequences × b_kv`.
pub fn kv_bytes(s: &Scenario, tokens: u64, sequences: u64) -> Bytes {
    let elements = [s.layers, s.kv_heads, s.head_dim, tokens, sequences]
        .iter()
        .fold(2u128, |acc, &x| acc.saturating_mul(x as u128));
    let milli_bits = elements.saturating_mul(s.kv_milli_bits as u128);
    Bytes(saturate(milli_bits.saturating_add(4_000) / 8_000))
}

/// Bytes one more token of context adds, for one sequence.
///
/// ```
/// use vramfit_core::{methods::dense, scenario::ScenarioInput};
/// let s = ScenarioInput::default().validate().unwrap();
/// assert_eq!(dense::kv_bytes_per_token(&s).get(), 131_072); // "131 KB por token"
/// ```
pub fn kv_bytes_per_token(s: &Scenario) -> Bytes {
    kv_bytes(s, 1, 1)
}

/// One copy of the model's cache: `S` tokens for each of its `B`
/// sequences ([`Scenario::replica_sequences`]).
pub fn kv_cache_bytes(s: &Scenario) -> Bytes {
    kv_bytes(s, s.context, s.replica_sequences())
}
