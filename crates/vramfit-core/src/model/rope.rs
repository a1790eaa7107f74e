//! The rotary position embedding's scaling, as a config states it.
//!
//! transformers reads `rope_scaling` (and, since its v5 configs,
//! `rope_parameters`) into `config.rope_scaling` and normalizes the legacy
//! key `type` to `rope_type` (`transformers/modeling_rope_utils.py`,
//! `rope_config_validation`, `_check_received_keys`). Configs that give
//! one set of parameters per layer type (`{"full_attention": {...},
//! "sliding_attention": {...}}`: Gemma-4, Laguna) are read for their full
//! attention layers, the ones a scaled context concerns. The engines read
//! these facts: vLLM sizes its rotary tables and derives the longest
//! context from them, llama.cpp's converter writes `rope_freqs` for
//! `llama3` and the LongRoPE factor tensors for `longrope`.

use super::error::ConfigError;
use super::json::{as_uint, Reader};
use serde::Serialize;
use serde_json::{Map, Value};

/// `rope_scaling` of a config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RopeScaling {
    /// `rope_type` (or the legacy `type`), lower case: `default`,
    /// `linear`, `dynamic`, `yarn`, `deepseek_yarn`, `longrope`, `su`,
    /// `llama3`, `mrope`, ... (`default` when neither key is written).
    pub rope_type: String,
    /// `factor`, in thousandths (8.0 → 8,000), where given.
    pub factor_milli: Option<u64>,
    /// `original_max_position_embeddings`, where given.
    pub original_max_position_embeddings: Option<u64>,
    /// Entries of `long_factor` (LongRoPE's per-frequency factors): the
    /// rotary dimension's half, as the config lists it.
    pub long_factor_len: Option<u64>,
}

impl RopeScaling {
    /// Whether the type is one of `names`.
    pub fn is(&self, names: &[&str]) -> bool {
        names.contains(&self.rope_type.as_str())
    }
}

/// The scaling and the rotary fraction (`partial_rotary_factor`, in
/// thousandths), from the text model's scope (else the outer object).
pub(crate) fn read(r: &Reader) -> Result<(Option<RopeScaling>, Option<u64>), ConfigError> {
    let (key, object) = match (r.get("rope_scaling"), r.get("rope_parameters")) {
        (Some(v), _) => ("rope_scaling", v),
        (None, Some(v)) => ("rope_parameters", v),
        (None, None) => return Ok((None, partial(r, None)?)),
    };
    let object = object
        .as_object()
        .ok_or_else(|| ConfigError::wrong_type(key, "object"))?;
    let object = match (typed(object), object.get("full_attention")) {
        (false, Some(Value::Object(full))) => full,
        _ => object,
    };
    let rope_type = match object.get("rope_type").or_else(|| object.get("type")) {
        None | Some(Value::Null) => "default".to_string(),
        Some(Value::String(s)) => s.to_ascii_lowercase(),
        Some(_) => {
            return Err(ConfigError::wrong_type(
                key,
                "object with a string rope_type",
            ))
        }
    };
    let factor_milli = match object.get("factor") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() && (0.0..=1e9).contains(&f) => {
                Some((f * 1000.0).round() as u64)
            }
            _ => return Err(ConfigError::out_of_range(key, n)),
        },
        Some(_) => return Err(ConfigError::wrong_type(key, "object with a numeric factor")),
    };
    let original = match object.get("original_max_position_embeddings") {
        None | Some(Value::Null) => None,
        Some(v) => Some(as_uint("original_max_position_embeddings", v)?),
    };
    let long_factor_len = match object.get("long_factor") {
        Some(Value::Array(items)) => Some(items.len() as u64),
        _ => None,
    };
    let scaling = RopeScaling {
        rope_type,
        factor_milli,
        original_max_position_embeddings: original,
        long_factor_len,
    };
    Ok((Some(scaling), partial(r, Some(object))?))
}

/// Whether a rope object names its type itself (rather than holding one
/// object per layer type).
fn typed(object: &Map<String, Value>) -> bool {
    object.contains_key("rope_type") || object.contains_key("type")
}

/// `partial_rotary_factor` in thousandths: the config's own key, else the
/// one inside its rope parameters (transformers v5 moves it there).
fn partial(r: &Reader, rope: Option<&Map<String, Value>>) -> Result<Option<u64>, ConfigError> {
    let value = match r.number("partial_rotary_factor")? {
        Some(f) => Some(f),
        None => rope
            .and_then(|o| o.get("partial_rotary_factor"))
            .and_then(Value::as_f64),
    };
    match value {
        None => Ok(None),
        Some(f) if f > 0.0 && f <= 1.0 => Ok(Some((f * 1000.0).round() as u64)),
        Some(f) => Err(ConfigError::out_of_range("partial_rotary_factor", f)),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::parse_config;

    fn llama(extra: &str) -> String {
        format!(
            r#"{{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
            "vocab_size": 128256, "max_position_embeddings": 131072 {extra}}}"#
        )
    }

    #[test]
    fn llama3_scaling_is_read_with_its_factor() {
        let spec = parse_config(&llama(
            r#", "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192, "rope_type": "llama3"}"#,
        ))
        .unwrap();
        let rope = spec.rope_scaling.unwrap();
        assert!(rope.is(&["llama3"]));
        assert_eq!(rope.factor_milli, Some(8_000));
        assert_eq!(rope.original_max_position_embeddings, Some(8192));
        assert_eq!(spec.partial_rotary_milli, None);
    }

    #[test]
    fn legacy_type_key_and_per_layer_parameters() {
        let spec = parse_config(&llama(
            r#", "rope_scaling": {"type": "Linear", "factor": 2}"#,
        ))
        .unwrap();
        assert_eq!(spec.rope_scaling.unwrap().rope_type, "linear");
        let spec = parse_config(&llama(
            r#", "rope_parameters": {"full_attention": {"rope_type": "yarn", "factor": 64.0,
                "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.5},
                "sliding_attention": {"rope_type": "default"}}"#,
        ))
        .unwrap();
        let rope = spec.rope_scaling.clone().unwrap();
        assert_eq!(
            (rope.rope_type.as_str(), rope.factor_milli),
            ("yarn", Some(64_000))
        );
        assert_eq!(spec.partial_rotary_milli, Some(500));
        assert!(parse_config(&llama(r#", "rope_scaling": 3"#)).is_err());
        assert!(parse_config(&llama(r#", "rope_scaling": null"#))
            .unwrap()
            .rope_scaling
            .is_none());
    }
}
