//! The approximate reading of a model type no reader knows: a Llama-style
//! decoder, with the keys given Llama's meaning listed. Only configs whose
//! keys all fit that reading are read; anything that says experts, latent
//! attention, recurrent layers, windows or nesting keeps its refusal.

use super::super::error::ConfigError;
use super::super::family::Family;
use super::super::json::Reader;
use super::super::shape::Keys;
use super::llama::{llama_rules, shape};
use super::{dense_full, Architecture, Resolved};
use serde_json::{Map, Value};

/// The generic reader: Llama's tensors under Llama's names.
pub(crate) const GENERIC: Architecture = Architecture {
    family: Family::Generic,
    model_types: &[],
    classes: &[],
    source: "approximate: transformers models/llama layout assumed",
    counts: "Llama layout assumed",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        dense_full(shape(
            r,
            Family::Generic,
            &Keys::STANDARD,
            llama_rules(r, false)?,
        )?)
    },
};

/// Keys whose Llama meaning the approximate reading assumes, when present.
const ASSUMED: [&str; 10] = [
    "hidden_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "intermediate_size",
    "vocab_size",
    "tie_word_embeddings",
    "attention_bias",
    "mlp_bias",
];

/// Parts of key names that describe structure the Llama reading cannot
/// hold.
const BEYOND_LLAMA: [&str; 12] = [
    "expert",
    "moe",
    "lora_rank",
    "mamba",
    "ssm",
    "linear_",
    "conv",
    "sliding",
    "window",
    "chunk",
    "ffn",
    "parallel",
];

/// Whole keys of other layouts (GPT-2's names).
const OTHER_NAMES: [&str; 4] = ["n_embd", "n_layer", "n_head", "n_inner"];

/// Parts of an architecture class name that say the checkpoint holds more
/// than a decoder (a vision or audio tower, an encoder): a Llama reading
/// would leave it out of the total.
const BEYOND_DECODER_CLASS: [&str; 7] = [
    "ForConditionalGeneration",
    "Vision",
    "VL",
    "Multimodal",
    "MultiModal",
    "Omni",
    "Audio",
];

/// Whether the first architecture class names a multimodal or
/// encoder-decoder model.
fn multimodal_class(outer: &Map<String, Value>) -> bool {
    outer
        .get("architectures")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str)
        .is_some_and(|c| BEYOND_DECODER_CLASS.iter().any(|w| c.contains(w)))
}

/// An approximate reading of `outer`, or the original refusal `refusal`
/// when its keys do not fit a Llama-style decoder.
pub(crate) fn approximate(
    outer: &Map<String, Value>,
    refusal: ConfigError,
) -> Result<(Resolved<'_>, Vec<String>), ConfigError> {
    let nested = ["text_config", "llm_config", "language_config"]
        .iter()
        .any(|k| outer.contains_key(*k));
    let beyond = outer.iter().any(|(k, v)| {
        let k = k.to_ascii_lowercase();
        let set = !matches!(v, Value::Null | Value::Bool(false))
            && v.as_u64() != Some(0)
            && !matches!(v, Value::Array(a) if a.is_empty());
        set && (BEYOND_LLAMA.iter().any(|w| k.contains(w)) || OTHER_NAMES.contains(&k.as_str()))
    });
    if nested || beyond || multimodal_class(outer) || !outer.contains_key("intermediate_size") {
        return Err(refusal);
    }
    let assumed = ASSUMED
        .iter()
        .filter(|k| outer.get(**k).is_some_and(|v| !v.is_null()))
        .map(|k| k.to_string())
        .collect();
    let model_type = outer
        .get("model_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();
    Ok((
        Resolved {
            arch: &GENERIC,
            model_type,
            reader: Reader::nested_in(outer, None),
        },
        assumed,
    ))
}
