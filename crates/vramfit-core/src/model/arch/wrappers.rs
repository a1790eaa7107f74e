//! Which reader reads a config: by its `model_type` (or, without one, by
//! its architecture class), looking through the multimodal wrappers whose
//! text model is read (their vision tower is counted elsewhere).

use super::super::error::ConfigError;
use super::super::json::Reader;
use super::{find, Architecture};
use serde_json::{Map, Value};

/// A multimodal model type whose text model sits under `key` (or, in
/// older flat configs, beside the vision keys), of type `text` unless the
/// nested object names its own.
pub(crate) struct Wrapper {
    pub outer: &'static str,
    pub key: &'static str,
    pub text: &'static str,
    /// Source of the wrapper's text-config default.
    pub source: &'static str,
}

/// Multimodal wrappers whose language model is one of the readers'.
pub(crate) const WRAPPERS: [Wrapper; 25] = [
    wrap("gemma3", "text_config", "gemma3_text", "Gemma3Config"),
    wrap("gemma3n", "text_config", "gemma3n_text", "Gemma3nConfig"),
    wrap("gemma4", "text_config", "gemma4_text", "Gemma4Config"),
    wrap("mistral3", "text_config", "mistral", "Mistral3Config"),
    wrap("llava", "text_config", "llama", "LlavaConfig"),
    wrap("llava_next", "text_config", "llama", "LlavaNextConfig"),
    wrap(
        "llava_onevision",
        "text_config",
        "qwen2",
        "LlavaOnevisionConfig",
    ),
    wrap("kimi_vl", "text_config", "deepseek_v3", "KimiVLConfig"),
    wrap(
        "kimi_k3",
        "text_config",
        "kimi_linear",
        "SGLang configs/kimi_k3.py KimiK3Config",
    ),
    wrap(
        "kimi_k25",
        "text_config",
        "kimi_k2",
        "moonshotai/Kimi-K2.5 configuration (checkpoint code)",
    ),
    wrap("llama4", "text_config", "llama4_text", "Llama4Config"),
    wrap("qwen2_vl", "text_config", "qwen2_vl_text", "Qwen2VLConfig"),
    wrap(
        "qwen2_5_vl",
        "text_config",
        "qwen2_5_vl_text",
        "Qwen2_5_VLConfig",
    ),
    wrap("qwen3_vl", "text_config", "qwen3_vl_text", "Qwen3VLConfig"),
    wrap(
        "qwen3_vl_moe",
        "text_config",
        "qwen3_vl_moe_text",
        "Qwen3VLMoeConfig",
    ),
    wrap("qwen3_5", "text_config", "qwen3_5_text", "Qwen3_5Config"),
    wrap(
        "qwen3_5_moe",
        "text_config",
        "qwen3_5_moe_text",
        "Qwen3_5MoeConfig",
    ),
    wrap("paligemma", "text_config", "gemma", "PaliGemmaConfig"),
    wrap("aya_vision", "text_config", "cohere2", "AyaVisionConfig"),
    wrap("idefics3", "text_config", "llama", "Idefics3Config"),
    wrap("smolvlm", "text_config", "llama", "SmolVLMConfig"),
    wrap("internvl", "text_config", "qwen2", "InternVLConfig"),
    wrap(
        "internvl_chat",
        "llm_config",
        "internlm2",
        "OpenGVLab InternVLChatConfig (checkpoint code)",
    ),
    wrap(
        "minimax_m3_vl",
        "text_config",
        "minimax_m3",
        "MiniMaxAI/MiniMax-M3 MiniMaxM3VLConfig (checkpoint code)",
    ),
    wrap("step3p7", "text_config", "step3p5", "Step3p7Config"),
];

/// Model types vramfit knows of but does not read, and why: a Llama-style
/// (or any other) reading of their keys would be wrong, so they are
/// refused with the reason rather than as unknown. None at present
/// (Kimi-K3, the last, is read since SGLang published its modelling code).
pub(crate) const REFUSED_TYPES: [(&str, &str); 0] = [];

/// Whether `name` is a multimodal wrapper's outer `model_type`.
pub(crate) fn is_wrapper(name: &str) -> bool {
    WRAPPERS.iter().any(|w| w.outer == name)
}

fn refused(name: &str) -> Option<ConfigError> {
    REFUSED_TYPES
        .iter()
        .find(|(t, _)| *t == name)
        .map(|(t, why)| ConfigError::unsupported(format!("model type \"{t}\" is not read: {why}")))
}

const fn wrap(
    outer: &'static str,
    key: &'static str,
    text: &'static str,
    source: &'static str,
) -> Wrapper {
    Wrapper {
        outer,
        key,
        text,
        source,
    }
}

/// The reader of a config and the text model it reads.
pub(crate) struct Resolved<'a> {
    pub arch: &'static Architecture,
    /// The text model's `model_type`.
    pub model_type: String,
    /// Lookups in the text model (the wrapper as fallback), with the
    /// reader's class defaults.
    pub reader: Reader<'a>,
}

/// Finds the reader of `outer`, or refuses naming the model type.
pub(crate) fn resolve(outer: &Map<String, Value>) -> Result<Resolved<'_>, ConfigError> {
    let model_type = match outer.get("model_type") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(ConfigError::wrong_type("model_type", "string")),
    };
    let architecture = outer
        .get("architectures")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    let name = match (model_type, architecture) {
        (Some(t), _) => t,
        (None, Some(a)) => a,
        (None, None) => return Err(ConfigError::unknown_model_type(None, None)),
    };
    if let Some(e) = refused(name) {
        return Err(e);
    }
    if let Some(w) = WRAPPERS.iter().find(|w| w.outer == name) {
        let inner = match outer.get(w.key) {
            Some(Value::Object(m)) => Some(m),
            None | Some(Value::Null) => None,
            Some(_) => return Err(ConfigError::wrong_type(w.key, "object")),
        };
        let text = match inner.and_then(|m| m.get("model_type")) {
            None | Some(Value::Null) => w.text,
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(ConfigError::wrong_type("model_type", "string")),
        };
        if let Some(e) = refused(text) {
            return Err(e);
        }
        let arch =
            find(text).ok_or_else(|| ConfigError::unknown_model_type(Some(text), architecture))?;
        let reader =
            Reader::nested_in(outer, inner).with_defaults(arch.defaults, arch.nested_defaults);
        return Ok(Resolved {
            arch,
            model_type: text.to_string(),
            reader,
        });
    }
    let arch =
        find(name).ok_or_else(|| ConfigError::unknown_model_type(model_type, architecture))?;
    let reader = Reader::nested_in(outer, None).with_defaults(arch.defaults, &[]);
    Ok(Resolved {
        arch,
        model_type: model_type
            .unwrap_or_else(|| arch.model_types.first().copied().unwrap_or(name))
            .to_string(),
        reader,
    })
}
