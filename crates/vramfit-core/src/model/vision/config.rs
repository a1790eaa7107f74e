//! Typed lookups in `vision_config` (and the outer object for projector
//! keys), recording required keys that are absent and defaults taken.

use crate::model::dtype::Dtype;
use crate::model::error::ConfigError;
use crate::model::json::{as_uint, Reader};
use serde_json::{Map, Value};
use std::cell::RefCell;

/// Largest size accepted for a vision dimension (width, image side).
const MAX_DIM: u64 = 1 << 24;
/// Most encoder layers (or mergers) accepted: far above any published tower
/// (Llama 4: 34, InternViT-6B: 45), low enough to list every tensor.
const MAX_LAYERS: u64 = 1024;

pub(crate) struct Keys<'a> {
    vision: &'a Map<String, Value>,
    outer: &'a Reader<'a>,
    missing: RefCell<Vec<String>>,
    defaults: RefCell<Vec<String>>,
}

impl<'a> Keys<'a> {
    pub(crate) fn new(vision: &'a Map<String, Value>, outer: &'a Reader<'a>) -> Self {
        Keys {
            vision,
            outer,
            missing: RefCell::new(Vec::new()),
            defaults: RefCell::new(Vec::new()),
        }
    }

    pub(crate) fn missing(&self) -> Vec<String> {
        self.missing.borrow().clone()
    }

    pub(crate) fn defaults_used(&self) -> Vec<String> {
        self.defaults.borrow().clone()
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.vision.get(key).filter(|v| !v.is_null())
    }

    /// A positive integer under the first present key; recorded as missing
    /// (and 0 returned) when none is.
    pub(crate) fn need(&self, keys: &[&str]) -> Result<u64, ConfigError> {
        for k in keys {
            if let Some(v) = self.get(k) {
                return dim(&format!("vision_config.{k}"), v);
            }
        }
        self.missing
            .borrow_mut()
            .push(format!("vision_config.{}", keys[0]));
        Ok(0)
    }

    /// A layer count under the first present key (recorded as missing and 0
    /// when none is), at most [`MAX_LAYERS`].
    pub(crate) fn layers(&self, keys: &[&str]) -> Result<u64, ConfigError> {
        let n = self.need(keys)?;
        match n <= MAX_LAYERS {
            true => Ok(n),
            false => Err(ConfigError::out_of_range(
                &format!("vision_config.{}", keys[0]),
                n,
            )),
        }
    }

    /// A positive integer, or the config class's `default`.
    pub(crate) fn or(&self, keys: &[&str], default: u64) -> Result<u64, ConfigError> {
        for k in keys {
            if let Some(v) = self.get(k) {
                return dim(&format!("vision_config.{k}"), v);
            }
        }
        self.defaults
            .borrow_mut()
            .push(format!("vision_config.{}", keys[0]));
        Ok(default)
    }

    /// A positive integer under `inner` of the object `vision_config.key`,
    /// or the config class's `default` (recorded) when either is absent.
    pub(crate) fn nested_or(
        &self,
        key: &str,
        inner: &str,
        default: u64,
    ) -> Result<u64, ConfigError> {
        let name = format!("vision_config.{key}.{inner}");
        match self.get(key) {
            None => {}
            Some(Value::Object(m)) => {
                if let Some(v) = m.get(inner).filter(|v| !v.is_null()) {
                    return dim(&name, v);
                }
            }
            Some(_) => {
                return Err(ConfigError::wrong_type(
                    &format!("vision_config.{key}"),
                    "object",
                ))
            }
        }
        self.defaults.borrow_mut().push(name);
        Ok(default)
    }

    /// A side given as an integer or a `[height, width]` pair.
    pub(crate) fn need_pair(&self, key: &str) -> Result<(u64, u64), ConfigError> {
        match self.get(key) {
            Some(Value::Array(items)) => {
                let name = format!("vision_config.{key}");
                match items.as_slice() {
                    [h, w] => Ok((dim(&name, h)?, dim(&name, w)?)),
                    _ => Err(ConfigError::out_of_range(&name, items.len())),
                }
            }
            _ => {
                let side = self.need(&[key])?;
                Ok((side, side))
            }
        }
    }

    /// A positive finite number (integer or not), or the config class's
    /// `default` (recorded).
    pub(crate) fn number_or(&self, key: &str, default: f64) -> Result<f64, ConfigError> {
        let name = format!("vision_config.{key}");
        match self.get(key) {
            None => {
                self.defaults.borrow_mut().push(name);
                Ok(default)
            }
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) if f.is_finite() && f > 0.0 && f <= MAX_DIM as f64 => Ok(f),
                _ => Err(ConfigError::out_of_range(&name, n)),
            },
            Some(_) => Err(ConfigError::wrong_type(&name, "number")),
        }
    }

    /// A boolean, or the config class's `default`.
    pub(crate) fn flag(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        match self.get(key) {
            None => {
                self.defaults
                    .borrow_mut()
                    .push(format!("vision_config.{key}"));
                Ok(default)
            }
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(ConfigError::wrong_type(
                &format!("vision_config.{key}"),
                "boolean",
            )),
        }
    }

    /// A string, if present.
    pub(crate) fn text(&self, key: &str) -> Result<Option<&'a str>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ConfigError::wrong_type(
                &format!("vision_config.{key}"),
                "string",
            )),
        }
    }

    /// A list of non-negative integers, if present.
    pub(crate) fn list(&self, key: &str) -> Result<Option<Vec<u64>>, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let name = format!("vision_config.{key}");
        let items = value
            .as_array()
            .ok_or_else(|| ConfigError::wrong_type(&name, "list of integers"))?;
        if items.len() as u64 > MAX_LAYERS {
            return Err(ConfigError::out_of_range(&name, items.len()));
        }
        items
            .iter()
            .map(|v| as_uint(&name, v))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// The tower's own dtype, if its config gives one.
    pub(crate) fn dtype(&self) -> Result<Option<Dtype>, ConfigError> {
        for key in ["torch_dtype", "dtype"] {
            if let Some(Value::String(s)) = self.get(key) {
                let name = format!("vision_config.{key}");
                return match Dtype::parse(&name, s) {
                    Ok(d) => Ok(Some(d)),
                    Err(_) if s == "auto" => Ok(None),
                    Err(e) => Err(e),
                };
            }
        }
        Ok(None)
    }

    /// An outer key (projector settings): its JSON value.
    pub(crate) fn outer(&self, key: &str) -> Option<&'a Value> {
        self.outer.get_outer(key)
    }

    /// An outer positive integer, or `default` (recorded).
    pub(crate) fn outer_or(&self, key: &str, default: u64) -> Result<u64, ConfigError> {
        match self.outer(key) {
            Some(v) => dim(key, v),
            None => {
                self.defaults.borrow_mut().push(key.to_string());
                Ok(default)
            }
        }
    }

    /// An outer boolean, or `default` (recorded).
    pub(crate) fn outer_flag(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        match self.outer(key) {
            None => {
                self.defaults.borrow_mut().push(key.to_string());
                Ok(default)
            }
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(ConfigError::wrong_type(key, "boolean")),
        }
    }
}

fn dim(key: &str, v: &Value) -> Result<u64, ConfigError> {
    let n = as_uint(key, v)?;
    match (1..=MAX_DIM).contains(&n) {
        true => Ok(n),
        false => Err(ConfigError::out_of_range(key, n)),
    }
}
