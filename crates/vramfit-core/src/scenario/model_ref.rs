//! Where a real model's shape comes from ([`ModelRef`]: a catalog id, a
//! pasted `config.json`, with or without its `hf_quant_config.json`), and
//! the config's text kept for the methods that read keys the reader leaves
//! to them ([`ConfigText`]).

use super::ScenarioError;
use crate::catalog;
use crate::gguf::model::GgufModel;
use crate::model::{parse_config, parse_config_with, ModelSpec};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where a real model's shape comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelRef {
    /// A catalog id such as `meta-llama/Llama-3.1-8B` (case-insensitive).
    Catalog(String),
    /// The text of a Hugging Face `config.json`, kept verbatim so that an
    /// exported document reproduces the calculation on its own.
    Config(String),
    /// A `config.json` and the `hf_quant_config.json` beside it: an NVIDIA
    /// ModelOpt export (NVFP4, FP8) states its quantization only there
    /// (read by [`crate::model::parse_config_with`]). Both kept verbatim.
    ConfigWithQuant {
        config: String,
        hf_quant_config: String,
    },
    /// A GGUF file read from its header ([`crate::gguf::model`]): its
    /// tensors as the file types them, its shape as a config.
    Gguf(Box<GgufModel>),
}

impl ModelRef {
    /// The pasted or read `config.json` text, `None` for a catalog id.
    pub fn config_text(&self) -> Option<&str> {
        match self {
            ModelRef::Catalog(_) => None,
            ModelRef::Config(text) | ModelRef::ConfigWithQuant { config: text, .. } => Some(text),
            ModelRef::Gguf(file) => Some(&file.config),
        }
    }

    /// The `hf_quant_config.json` text given with a config, if any.
    pub fn hf_quant_config(&self) -> Option<&str> {
        match self {
            ModelRef::ConfigWithQuant {
                hf_quant_config, ..
            } => Some(hf_quant_config),
            ModelRef::Catalog(_) | ModelRef::Config(_) | ModelRef::Gguf(_) => None,
        }
    }

    /// A config with its side file when `side` holds text, else the config
    /// alone (an empty side file is no side file).
    pub fn config_with(config: String, side: Option<String>) -> ModelRef {
        match side.filter(|s| !s.trim().is_empty()) {
            Some(hf_quant_config) => ModelRef::ConfigWithQuant {
                config,
                hf_quant_config,
            },
            None => ModelRef::Config(config),
        }
    }
}

/// The model a [`ModelRef`] names, parsed, with its config's text.
pub(super) fn resolve_model(model: &ModelRef) -> Result<(ModelSpec, ConfigText), ScenarioError> {
    match model {
        ModelRef::Catalog(id) => {
            let entry = catalog::find_model(id).map_err(ScenarioError::UnknownModel)?;
            let spec = entry.spec().map_err(ScenarioError::Config)?;
            Ok((
                spec,
                ConfigText::Catalog {
                    id: entry.id.as_str(),
                    text: entry.config.as_ref(),
                },
            ))
        }
        ModelRef::Config(text) => {
            let spec = parse_config(text).map_err(ScenarioError::Config)?;
            Ok((spec, ConfigText::Pasted(Arc::from(text.as_str()))))
        }
        ModelRef::ConfigWithQuant {
            config,
            hf_quant_config,
        } => {
            let spec =
                parse_config_with(config, Some(hf_quant_config)).map_err(ScenarioError::Config)?;
            Ok((spec, ConfigText::Pasted(Arc::from(config.as_str()))))
        }
        ModelRef::Gguf(file) => {
            let spec = parse_config(&file.config).map_err(ScenarioError::Config)?;
            Ok((spec, ConfigText::Gguf(Arc::new((**file).clone()))))
        }
    }
}

/// The text of the model's `config.json`, for the methods that read keys
/// the model reader leaves to them (how an engine loads a quantized
/// checkpoint or a vision tower).
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigText {
    /// A catalog model's config, with its id.
    Catalog {
        id: &'static str,
        text: &'static str,
    },
    /// A pasted or read config.
    Pasted(Arc<str>),
    /// A GGUF file's shape, with the file's own tensors.
    Gguf(Arc<GgufModel>),
}

impl ConfigText {
    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            ConfigText::Catalog { text, .. } => text,
            ConfigText::Pasted(text) => text,
            ConfigText::Gguf(file) => &file.config,
        }
    }

    /// The GGUF file the model was read from, if it was.
    pub fn gguf(&self) -> Option<&GgufModel> {
        match self {
            ConfigText::Gguf(file) => Some(file),
            ConfigText::Catalog { .. } | ConfigText::Pasted(_) => None,
        }
    }
}
