//! Why an engine command cannot be read as a scenario: each case names
//! the word at fault.

use super::Engine;
use crate::scenario::{EngineError, InputError};
use serde::Serialize;
use std::fmt;

/// One reason an engine command is not a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CommandError {
    /// Nothing was pasted.
    Empty,
    /// A quote opened and never closed.
    UnclosedQuote,
    /// The program is not an engine this tool models.
    NotAnEngine { program: String },
    /// `vllm` without `serve`.
    VllmWithoutServe,
    /// An option the engine has and the tool does not know.
    UnknownOption { engine: Engine, option: String },
    /// An option the engine has that changes memory in a way the tool
    /// does not model: it is named rather than ignored.
    NotModelled {
        engine: Engine,
        option: String,
        why: &'static str,
    },
    /// An option given without its value.
    MissingValue { option: String },
    /// A value the option does not take.
    BadValue {
        option: String,
        value: String,
        expected: &'static str,
    },
    /// A value out of the scenario's range for the option.
    Field { option: String, error: InputError },
    /// A value out of the engine knob's range.
    Knob { option: String, error: EngineError },
    /// A word left over where the engine takes none (a second model).
    UnexpectedWord { word: String },
    /// The command names no model.
    NoModel { engine: Engine },
    /// The model the command names is not in the catalog (a GGUF file or
    /// repository whose name matches no catalog model).
    UnknownModel { word: String },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let without_key = |m: String| match m.split_once(' ') {
            Some((_, rest)) => rest.to_string(),
            None => m,
        };
        match self {
            CommandError::Empty => write!(f, "the engine command is empty"),
            CommandError::UnclosedQuote => write!(f, "a quote is not closed"),
            CommandError::NotAnEngine { program } => write!(
                f,
                "`{program}` is not an engine command (known: vllm serve, python -m \
                 vllm.entrypoints.openai.api_server, llama-server, llama-cli)"
            ),
            CommandError::VllmWithoutServe => write!(f, "`vllm` needs `serve MODEL`"),
            CommandError::UnknownOption { engine, option } => {
                write!(f, "unknown {} option `{option}`", engine.name())
            }
            CommandError::NotModelled {
                engine,
                option,
                why,
            } => write!(
                f,
                "{} option `{option}` is not modelled: {why}",
                engine.name()
            ),
            CommandError::MissingValue { option } => write!(f, "{option} needs a value"),
            CommandError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "{option} {value}: expected {expected}"),
            CommandError::Field { option, error } => {
                write!(f, "{option}: {}", without_key(error.to_string()))
            }
            CommandError::Knob { option, error } => {
                write!(f, "{option}: {}", without_key(error.to_string()))
            }
            CommandError::UnexpectedWord { word } => {
                write!(f, "unexpected word `{word}`: one model only")
            }
            CommandError::NoModel { engine } => {
                write!(f, "the {} command names no model", engine.name())
            }
            CommandError::UnknownModel { word } => write!(
                f,
                "no catalog model matches `{word}`: give MODEL (a catalog id or a \
                 config.json) before `--`"
            ),
        }
    }
}

impl std::error::Error for CommandError {}
