//! `hf_quant_config.json`: the file NVIDIA ModelOpt writes beside a
//! checkpoint's `config.json`, and where a ModelOpt export states its
//! quantization when its `config.json` carries no `quantization_config`
//! (NVIDIA's NVFP4 and FP8 exports of DeepSeek-V3.1/V3.2, GLM-5,
//! Nemotron-3, Llama-3.1, Qwen3).
//!
//! Such a `config.json` is indistinguishable from its unquantized model's
//! (NVIDIA's DeepSeek-V3.1-NVFP4 config is DeepSeek-V3.1's less its FP8
//! `quantization_config`), so nothing in it can be trusted to say that the
//! checkpoint is quantized. The reader therefore takes the side file when
//! it is given ([`super::super::parse_config_with`]) and, when it is not,
//! says where the quantization would be ([`QuantSource::NotInConfig`]).
//!
//! # Formula
//!
//! ```text
//! quantization_config := { "quant_method": "modelopt", "producer": …,
//!                          "quantization": hf_quant_config.quantization }
//! ```
//!
//! when `config.json` has none (read by the ModelOpt reader in the shape
//! vLLM's `ModelOptFp8Config` / `ModelOptNvFp4Config.from_config` accept:
//! `quantization.quant_algo`, `group_size`, `exclude_modules`,
//! `kv_cache_quant_algo`, `quantized_layers`). Source: vLLM
//! `vllm/model_executor/model_loader/weight_utils.py`
//! (`get_quant_config`, which reads `hf_quant_config.json` for ModelOpt
//! checkpoints) and `quantization/modelopt.py`.

use crate::model::error::ConfigError;
use crate::model::json::parse_object;
use serde::Serialize;
use serde_json::{Map, Value};

/// Where the checkpoint's quantization was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum QuantSource {
    /// `config.json`'s `quantization_config`.
    ConfigJson,
    /// `hf_quant_config.json`, given beside a `config.json` that has no
    /// `quantization_config`.
    HfQuantConfig,
    /// `config.json` has a `quantization_config` and an
    /// `hf_quant_config.json` was given too: the config's is read.
    ConfigJsonOverSideFile,
    /// Neither: the weights are read as unquantized. A ModelOpt export
    /// (NVFP4, FP8) states its quantization only in `hf_quant_config.json`,
    /// so the checkpoint may still be quantized; `name_suggests` is the
    /// quantization word `_name_or_path` contains, if any (`"NVFP4"`).
    NotInConfig { name_suggests: Option<String> },
}

impl QuantSource {
    /// A sentence for the user when the reading may be unquantized by
    /// mistake (`NotInConfig`), `None` otherwise.
    pub fn note(&self) -> Option<String> {
        match self {
            QuantSource::NotInConfig {
                name_suggests: Some(word),
            } => Some(format!(
                "config.json has no quantization_config, but the model's name says {word}: the \
                 checkpoint's quantization is described in hf_quant_config.json; paste it too, \
                 or the weights are counted unquantized"
            )),
            QuantSource::NotInConfig {
                name_suggests: None,
            } => Some(
                "config.json has no quantization_config, so the weights are counted unquantized; \
                 an NVIDIA ModelOpt export (NVFP4, FP8) describes its quantization in \
                 hf_quant_config.json: paste it too if the repository has one"
                    .to_string(),
            ),
            _ => None,
        }
    }
}

/// Words in a model name that say its weights are quantized, as they are
/// written in repository names (case ignored).
const QUANT_WORDS: [&str; 10] = [
    "NVFP4", "MXFP4", "FP4", "FP8", "AWQ", "GPTQ", "W4A16", "W8A8", "INT4", "INT8",
];

/// The first quantization word `name` contains (`"Llama-3.1-70B-FP8"` →
/// `"FP8"`), if any.
///
/// ```
/// use vramfit_core::model::name_suggests_quantization;
/// assert_eq!(name_suggests_quantization("nvidia/DeepSeek-V3.1-NVFP4"), Some("NVFP4"));
/// assert_eq!(name_suggests_quantization("meta-llama/Llama-3.1-8B"), None);
/// ```
pub fn name_suggests_quantization(name: &str) -> Option<&'static str> {
    let upper = name.to_ascii_uppercase();
    QUANT_WORDS.into_iter().find(|w| upper.contains(w))
}

/// What [`attach`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attached {
    /// The side file became the `quantization_config`.
    AsQuantizationConfig,
    /// The config has its own `quantization_config`, which is kept.
    ConfigHasOwn,
}

/// Makes the `quantization` object of `hf_quant_config.json` the config's
/// `quantization_config` (ModelOpt), unless the config (or its text
/// model) has one already. The side file must be a JSON object with a
/// `quantization` object.
pub(crate) fn attach(outer: &mut Map<String, Value>, side: &str) -> Result<Attached, ConfigError> {
    let file = parse_object(side).map_err(|e| {
        ConfigError::unsupported(format!("hf_quant_config.json cannot be read: {e}"))
    })?;
    let Some(quantization) = file.get("quantization") else {
        return Err(ConfigError::missing(vec![
            "hf_quant_config.json: quantization".to_string(),
        ]));
    };
    if !quantization.is_object() {
        return Err(ConfigError::wrong_type(
            "hf_quant_config.json: quantization",
            "object",
        ));
    }
    if has_quantization_config(outer) {
        return Ok(Attached::ConfigHasOwn);
    }
    let mut config = Map::new();
    config.insert("quant_method".to_string(), Value::from("modelopt"));
    if let Some(producer) = file.get("producer") {
        config.insert("producer".to_string(), producer.clone());
    }
    config.insert("quantization".to_string(), quantization.clone());
    outer.insert("quantization_config".to_string(), Value::Object(config));
    Ok(Attached::AsQuantizationConfig)
}

/// Whether the config or a nested model config holds a
/// `quantization_config` (not `null`).
fn has_quantization_config(outer: &Map<String, Value>) -> bool {
    let here = |m: &Map<String, Value>| m.get("quantization_config").is_some_and(|v| !v.is_null());
    here(outer) || outer.values().filter_map(Value::as_object).any(here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_say_quantized() {
        for (name, word) in [
            ("nvidia/Llama-3.1-70B-Instruct-FP8", "FP8"),
            ("nvidia/GLM-5-NVFP4", "NVFP4"),
            ("Qwen/Qwen3-30B-A3B-GPTQ-Int4", "GPTQ"),
            (
                "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16",
                "W4A16",
            ),
        ] {
            assert_eq!(name_suggests_quantization(name), Some(word), "{name}");
        }
        assert_eq!(name_suggests_quantization("Qwen/Qwen3-8B"), None);
    }

    #[test]
    fn the_side_file_needs_a_quantization_object() {
        let mut config = Map::new();
        for bad in ["[]", "{}", r#"{"quantization": 3}"#, "{"] {
            assert!(attach(&mut config, bad).is_err(), "{bad}");
        }
        assert!(config.is_empty());
        let ok = r#"{"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "FP8"}}"#;
        assert_eq!(attach(&mut config, ok), Ok(Attached::AsQuantizationConfig));
        assert_eq!(
            config["quantization_config"]["quant_method"],
            Value::from("modelopt")
        );
        // A second time the config has its own.
        assert_eq!(attach(&mut config, ok), Ok(Attached::ConfigHasOwn));
    }
}
