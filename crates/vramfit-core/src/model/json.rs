//! Reading `config.json`: the text as written by Python's `json` module,
//! and typed lookups of keys in the text model's scope.

use super::error::{ConfigError, ConfigErrorKind};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// Largest integer accepted anywhere: 2⁵³, the last integer a JSON number
/// written as a float holds exactly.
const MAX_JSON_INTEGER: u64 = 1 << 53;

/// Python's `json.dumps` writes the non-standard tokens `NaN`, `Infinity`
/// and `-Infinity` (seen in real configs, e.g. `"time_step_limit": [0.0,
/// Infinity]`). Outside string literals they become `null`, padded with
/// spaces to the token's length so that columns after a replaced token stay
/// put (except after `NaN`, one column shorter than `null`). Text inside
/// strings, escapes included, is copied unchanged. A leading byte-order mark
/// is dropped.
pub(crate) fn replace_non_standard_tokens(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1, // skip the escaped byte, whatever it is
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        match token_at(bytes, i) {
            Some(len) => {
                out.push_str(&text[copied..i]);
                out.push_str("null");
                out.extend(std::iter::repeat_n(' ', len.saturating_sub(4)));
                i += len;
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Length of the non-standard token starting at `i`, if one does and it
/// stands alone (not part of a longer word).
fn token_at(bytes: &[u8], i: usize) -> Option<usize> {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    if i > 0 && is_word(bytes[i - 1]) {
        return None;
    }
    ["-Infinity", "Infinity", "NaN"]
        .iter()
        .map(|t| t.as_bytes())
        .find(|t| bytes[i..].starts_with(t))
        .filter(|t| bytes.get(i + t.len()).is_none_or(|b| !is_word(*b)))
        .map(|t| t.len())
}

/// Parses the (cleaned) text into a JSON object.
pub(crate) fn parse_object(text: &str) -> Result<Map<String, Value>, ConfigError> {
    let cleaned = replace_non_standard_tokens(text);
    let value: Value = serde_json::from_str(&cleaned).map_err(|e| {
        let position = format!(" at line {} column {}", e.line(), e.column());
        let message = e.to_string();
        let message = message.strip_suffix(&position).unwrap_or(&message);
        ConfigError::new(ConfigErrorKind::InvalidJson {
            line: e.line() as u64,
            column: e.column() as u64,
            message: message.to_string(),
        })
    })?;
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ConfigError::new(ConfigErrorKind::NotAnObject)),
    }
}

/// Typed, read-only lookups in a config: a key is looked up first in the
/// nested text model (a multimodal wrapper's `text_config`), then in the
/// outer object. A `null` value counts as absent.
pub(crate) struct Reader<'a> {
    inner: Option<&'a Map<String, Value>>,
    outer: &'a Map<String, Value>,
    /// Values the config class uses for absent keys.
    defaults: &'static [(&'static str, u64)],
    /// Values the config class uses for absent sizes, applied only to a
    /// nested text model (multimodal checkpoints write few of them).
    nested_defaults: &'static [(&'static str, u64)],
    /// Keys whose value came from `defaults`.
    used_defaults: RefCell<Vec<String>>,
}

impl<'a> Reader<'a> {
    /// Uses `defaults` for keys that are absent (not merely `null`), and
    /// `nested` too when the text model is nested.
    pub(crate) fn with_defaults(
        &self,
        defaults: &'static [(&'static str, u64)],
        nested: &'static [(&'static str, u64)],
    ) -> Reader<'a> {
        Reader {
            inner: self.inner,
            outer: self.outer,
            defaults,
            nested_defaults: nested,
            used_defaults: RefCell::new(Vec::new()),
        }
    }

    /// A reader of `inner` as the text model, `outer` as the wrapper.
    pub(crate) fn nested_in(
        outer: &'a Map<String, Value>,
        inner: Option<&'a Map<String, Value>>,
    ) -> Reader<'a> {
        Reader {
            inner,
            outer,
            defaults: &[],
            nested_defaults: &[],
            used_defaults: RefCell::new(Vec::new()),
        }
    }

    /// The key/value pairs in the text model's scope: the nested object's,
    /// else the outer one's.
    pub(crate) fn scope(&self) -> &'a Map<String, Value> {
        self.inner.unwrap_or(self.outer)
    }

    /// Keys whose value came from the family defaults, in reading order.
    pub(crate) fn used_defaults(&self) -> Vec<String> {
        self.used_defaults.borrow().clone()
    }

    /// The family default for the first of `keys`, when none of them is
    /// written at all.
    fn default_for(&self, keys: &[&str]) -> Option<u64> {
        let written = |k: &&str| {
            self.inner.is_some_and(|m| m.contains_key(*k)) || self.outer.contains_key(*k)
        };
        if keys.iter().any(written) {
            return None;
        }
        let nested: &[(&str, u64)] = match self.inner {
            Some(_) => self.nested_defaults,
            None => &[],
        };
        let (key, value) = self
            .defaults
            .iter()
            .chain(nested)
            .find(|(d, _)| keys.contains(d))?;
        let mut used = self.used_defaults.borrow_mut();
        if !used.iter().any(|u| u == key) {
            used.push(key.to_string());
        }
        Some(*value)
    }

    /// Whether the text model is nested in a multimodal wrapper.
    pub(crate) fn is_nested(&self) -> bool {
        self.inner.is_some()
    }

    /// The value of `key`, text scope first; `null` is absent.
    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        let inner = self.inner.and_then(|m| m.get(key)).filter(|v| !v.is_null());
        inner.or_else(|| self.outer.get(key).filter(|v| !v.is_null()))
    }

    /// The value of `key` in the outer object only.
    pub(crate) fn get_outer(&self, key: &str) -> Option<&'a Value> {
        self.outer.get(key).filter(|v| !v.is_null())
    }

    /// Whether any of `keys` is present (and not `null`).
    pub(crate) fn has(&self, keys: &[&str]) -> bool {
        keys.iter().any(|k| self.get(k).is_some())
    }

    /// A non-negative integer, or `None` when absent.
    pub(crate) fn uint(&self, key: &str) -> Result<Option<u64>, ConfigError> {
        self.get(key).map(|v| as_uint(key, v)).transpose()
    }

    /// The first of several spellings that is present, as an integer in
    /// `0..=max`.
    pub(crate) fn count(&self, keys: &[&str], max: u64) -> Result<Option<u64>, ConfigError> {
        for key in keys {
            if let Some(v) = self.uint(key)? {
                return in_range(key, v, 0, max).map(Some);
            }
        }
        Ok(self.default_for(keys))
    }

    /// Like [`Reader::count`], but zero is out of range too.
    pub(crate) fn dim(&self, keys: &[&str], max: u64) -> Result<Option<u64>, ConfigError> {
        for key in keys {
            if let Some(v) = self.uint(key)? {
                return in_range(key, v, 1, max).map(Some);
            }
        }
        Ok(self.default_for(keys))
    }

    /// A JSON number (integer or not), or `None` when absent.
    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) if f.is_finite() && f >= 0.0 => Ok(Some(f)),
                _ => Err(ConfigError::out_of_range(key, n)),
            },
            Some(_) => Err(ConfigError::wrong_type(key, "number")),
        }
    }

    /// Whether `key` is written (even as `null`) in the text scope or the
    /// outer object.
    pub(crate) fn written(&self, key: &str) -> bool {
        self.inner.is_some_and(|m| m.contains_key(key)) || self.outer.contains_key(key)
    }

    /// A boolean, or `None` when absent.
    pub(crate) fn flag(&self, key: &str) -> Result<Option<bool>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(ConfigError::wrong_type(key, "boolean")),
        }
    }

    /// A string, or `None` when absent.
    pub(crate) fn text(&self, key: &str) -> Result<Option<&'a str>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(ConfigError::wrong_type(key, "string")),
        }
    }

    /// A list of strings, or `None` when absent.
    pub(crate) fn text_list(&self, key: &str) -> Result<Option<Vec<&'a str>>, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let items = value
            .as_array()
            .ok_or_else(|| ConfigError::wrong_type(key, "list of strings"))?;
        items
            .iter()
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| ConfigError::wrong_type(key, "list of strings"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A list of non-negative integers, or `None` when absent.
    pub(crate) fn uint_list(&self, key: &str) -> Result<Option<Vec<u64>>, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let items = value
            .as_array()
            .ok_or_else(|| ConfigError::wrong_type(key, "list of integers"))?;
        items
            .iter()
            .map(|v| match v {
                Value::Number(_) => as_uint(key, v),
                _ => Err(ConfigError::wrong_type(key, "list of integers")),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// An object, or `None` when absent.
    pub(crate) fn object(&self, key: &str) -> Result<Option<&'a Map<String, Value>>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(_) => Err(ConfigError::wrong_type(key, "object")),
        }
    }
}

/// A JSON number that is a whole, non-negative integer no larger than 2⁵³
/// (`4096` and `4096.0` both qualify).
pub(crate) fn as_uint(key: &str, value: &Value) -> Result<u64, ConfigError> {
    let Value::Number(n) = value else {
        return Err(ConfigError::wrong_type(key, "integer"));
    };
    if let Some(v) = n.as_u64() {
        return in_range(key, v, 0, MAX_JSON_INTEGER);
    }
    match n.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 && f <= MAX_JSON_INTEGER as f64 => Ok(f as u64),
        _ => Err(ConfigError::out_of_range(key, n)),
    }
}

fn in_range(key: &str, value: u64, min: u64, max: u64) -> Result<u64, ConfigError> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ConfigError::out_of_range(key, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_outside_strings_become_null() {
        let text = r#"{"a": NaN, "b": [0.0, Infinity], "c": -Infinity}"#;
        let cleaned = replace_non_standard_tokens(text);
        let v: Value = serde_json::from_str(&cleaned).unwrap();
        assert!(v["a"].is_null());
        assert!(v["b"][1].is_null());
        assert!(v["c"].is_null());
    }

    #[test]
    fn tokens_inside_strings_are_kept() {
        let text = r#"{"a": "NaN \" Infinity \\", "b\"NaN": "-Infinity", "c": "x\\"}"#;
        assert_eq!(replace_non_standard_tokens(text), text);
    }

    #[test]
    fn words_containing_tokens_are_not_replaced() {
        // Not valid JSON either way; the point is that only whole tokens change.
        assert_eq!(replace_non_standard_tokens("NaNa xNaN"), "NaNa xNaN");
        assert_eq!(replace_non_standard_tokens("[NaN]"), "[null]");
    }

    #[test]
    fn byte_order_mark_is_dropped() {
        assert!(parse_object("\u{feff}{}").is_ok());
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(as_uint("k", &serde_json::json!(4096.0)), Ok(4096));
        assert!(as_uint("k", &serde_json::json!(1.5)).is_err());
        assert!(as_uint("k", &serde_json::json!(-1)).is_err());
        assert!(as_uint("k", &serde_json::json!(1e300)).is_err());
        assert!(as_uint("k", &serde_json::json!("8")).is_err());
    }
}
