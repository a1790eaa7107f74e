//! Reading back an exported `vramfit/1` document: its `inputs` become the
//! scenario again, or the reason they cannot, with nothing changed.

use vramfit_core::report::{self, SCHEMA};
use vramfit_core::request::{Request, RequestError};

/// Why a text is not an importable document.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportError {
    /// Nothing (or only spaces) to read.
    Empty,
    /// The file could not be read at all.
    Unreadable,
    /// Not JSON; 1-based position of the first problem.
    NotJson { line: usize, column: usize },
    /// JSON, but not an object with an `inputs` object.
    NotADocument,
    /// A document of another schema version.
    Schema(String),
    /// `inputs` holds keys or values a scenario does not have (the core's
    /// message, which names the key).
    Inputs(String),
    /// The scenario is well-formed but not valid, or its method does not
    /// estimate it.
    Invalid(RequestError),
}

/// The scenario an exported document (or a bare `{"inputs": …}`) holds,
/// checked as the app would compute it.
pub fn parse_import(text: &str) -> Result<Request, ImportError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ImportError::NotJson {
            line: e.line(),
            column: e.column(),
        })?;
    let object = value.as_object().ok_or(ImportError::NotADocument)?;
    if let Some(schema) = object.get("schema") {
        let schema = schema.as_str().unwrap_or_default();
        if schema != SCHEMA {
            return Err(ImportError::Schema(schema.to_string()));
        }
    }
    let inputs = object
        .get("inputs")
        .filter(|v| v.is_object())
        .ok_or(ImportError::NotADocument)?;
    let input: Request =
        serde_json::from_value(inputs.clone()).map_err(|e| ImportError::Inputs(e.to_string()))?;
    report::build(&input).map_err(ImportError::Invalid)?;
    Ok(input)
}

/// Whether pasted text is an exported document rather than a model's
/// `config.json` (an object naming a `vramfit/…` schema).
pub fn looks_like_export(text: &str) -> bool {
    let head: String = text.chars().take(200).collect();
    head.trim_start().starts_with('{') && head.contains("\"schema\"") && head.contains("vramfit/")
}
