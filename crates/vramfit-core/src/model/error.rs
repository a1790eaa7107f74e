//! Why a `config.json` could not be turned into a [`ModelSpec`](super::ModelSpec).
//!
//! Every error names the keys involved, so that a front end can point at
//! them and say what is wrong in its own language: the [`ConfigErrorKind`]
//! is the machine-readable part, [`fmt::Display`] a one-line English message.

use serde::Serialize;
use std::fmt;

/// A rejected `config.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    /// What is wrong, with the keys involved.
    #[serde(flatten)]
    pub kind: ConfigErrorKind,
}

/// What is wrong with a `config.json`. Serialized with a `kind` tag:
/// `{"kind": "missing_keys", "keys": ["hidden_size"]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConfigErrorKind {
    /// The text is not JSON (even allowing `NaN`/`Infinity`). `line` and
    /// `column` are 1-based as reported by the JSON parser.
    InvalidJson {
        line: u64,
        column: u64,
        message: String,
    },
    /// The JSON document is not an object (`{...}`).
    NotAnObject,
    /// Keys that the model's shape needs are absent (or `null`). Each entry
    /// is the usual key name; where several spellings exist, the first.
    MissingKeys { keys: Vec<String> },
    /// A key holds a value of the wrong JSON type (a string where a number
    /// is expected, ...). `expected` is one of `"integer"`, `"boolean"`,
    /// `"string"`, `"number"`, `"list of integers"`, `"list of strings"`,
    /// `"list of objects"`, `"object"`.
    WrongType { key: String, expected: &'static str },
    /// Keys that cannot all be true at once.
    Contradictory { keys: Vec<String>, reason: String },
    /// A well-formed configuration that describes something vramfit does
    /// not model.
    Unsupported { reason: String },
    /// A number outside the accepted range (zero, negative, fractional or
    /// absurdly large). `value` is the value as written.
    OutOfRange { key: String, value: String },
    /// No reader follows this model type's `transformers` code, so its
    /// tensors cannot be counted exactly. `model_type` and `architecture`
    /// are as written (either may be absent).
    UnknownModelType {
        model_type: Option<String>,
        architecture: Option<String>,
    },
    /// A per-layer key (a list with one entry per layer, or naming layers)
    /// that the reader of this model type does not know: it could make
    /// layers differ in ways the count would miss.
    UnknownLayerPattern { key: String, model_type: String },
}

impl ConfigError {
    pub(crate) fn new(kind: ConfigErrorKind) -> Self {
        ConfigError { kind }
    }

    pub(crate) fn missing(keys: Vec<String>) -> Self {
        Self::new(ConfigErrorKind::MissingKeys { keys })
    }

    pub(crate) fn wrong_type(key: &str, expected: &'static str) -> Self {
        Self::new(ConfigErrorKind::WrongType {
            key: key.to_string(),
            expected,
        })
    }

    pub(crate) fn contradictory(keys: &[&str], reason: String) -> Self {
        Self::new(ConfigErrorKind::Contradictory {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            reason,
        })
    }

    pub(crate) fn unsupported(reason: String) -> Self {
        Self::new(ConfigErrorKind::Unsupported { reason })
    }

    pub(crate) fn unknown_model_type(model_type: Option<&str>, architecture: Option<&str>) -> Self {
        Self::new(ConfigErrorKind::UnknownModelType {
            model_type: model_type.map(str::to_string),
            architecture: architecture.map(str::to_string),
        })
    }

    pub(crate) fn out_of_range(key: &str, value: impl fmt::Display) -> Self {
        Self::new(ConfigErrorKind::OutOfRange {
            key: key.to_string(),
            value: value.to_string(),
        })
    }

    /// The keys this error is about (empty for JSON syntax errors).
    pub fn keys(&self) -> Vec<&str> {
        match &self.kind {
            ConfigErrorKind::MissingKeys { keys } | ConfigErrorKind::Contradictory { keys, .. } => {
                keys.iter().map(String::as_str).collect()
            }
            ConfigErrorKind::WrongType { key, .. }
            | ConfigErrorKind::OutOfRange { key, .. }
            | ConfigErrorKind::UnknownLayerPattern { key, .. } => vec![key.as_str()],
            ConfigErrorKind::UnknownModelType { model_type, .. } => match model_type {
                Some(_) => vec!["model_type"],
                None => vec!["architectures"],
            },
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ConfigErrorKind::InvalidJson {
                line,
                column,
                message,
            } => write!(
                f,
                "config.json is not valid JSON at line {line}, column {column}: {message}"
            ),
            ConfigErrorKind::NotAnObject => write!(f, "config.json must be a JSON object"),
            ConfigErrorKind::MissingKeys { keys } => {
                write!(
                    f,
                    "config.json is missing required keys: {}",
                    keys.join(", ")
                )
            }
            ConfigErrorKind::WrongType { key, expected } => {
                write!(f, "key {key} must be {}", with_article(expected))
            }
            ConfigErrorKind::Contradictory { keys, reason } => {
                write!(
                    f,
                    "keys {} contradict each other: {reason}",
                    keys.join(", ")
                )
            }
            ConfigErrorKind::Unsupported { reason } => {
                write!(f, "unsupported model configuration: {reason}")
            }
            ConfigErrorKind::OutOfRange { key, value } => {
                write!(f, "key {key} has an out-of-range value: {value}")
            }
            ConfigErrorKind::UnknownModelType {
                model_type,
                architecture,
            } => match (model_type, architecture) {
                (Some(t), _) => write!(
                    f,
                    "model type \"{t}\" is not one vramfit reads exactly, so it is not read"
                ),
                (None, Some(a)) => write!(
                    f,
                    "config.json has no model_type and architecture \"{a}\" is not one \
                     vramfit reads exactly"
                ),
                (None, None) => write!(
                    f,
                    "config.json names no model_type (nor architectures), so its layout is unknown"
                ),
            },
            ConfigErrorKind::UnknownLayerPattern { key, model_type } => write!(
                f,
                "key {key} describes layers in a way the {model_type} reader does not know, \
                 so it is not read"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

fn with_article(noun: &str) -> String {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}
