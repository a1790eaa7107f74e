//! The scenario: what the user asks about, as typed input and as a
//! validated, exact value.
//!
//! Validation happens once, here, at the edge. [`ScenarioInput`] is what the
//! UI, the CLI and an imported JSON document hold; [`ScenarioInput::validate`]
//! turns it into a [`Scenario`] or a list of [`InputError`]s naming each bad
//! field. Every method takes a [`Scenario`] and cannot fail.

use crate::methods::MethodId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scenario as entered: model shape, formats, workload and GPU.
///
/// The default is seed 004's worked example: an 8B model with 32 layers,
/// 8 KV heads and head dimension 128, FP16 weights and cache, 8,192 tokens,
/// one sequence, 10 % overhead, on a 24 GB GPU.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioInput {
    /// The method that produces the headline estimate.
    pub method: MethodId,
    /// Parameters, in billions (10⁹).
    pub params_b: f64,
    /// Transformer layers (`num_hidden_layers`).
    pub layers: u64,
    /// Key/value heads (`num_key_value_heads`).
    pub kv_heads: u64,
    /// Dimension of one attention head.
    pub head_dim: u64,
    /// Bits per weight (16 for FP16/BF16, 8 for FP8/INT8, 4 for 4-bit).
    pub weight_bits: f64,
    /// Bytes per cached key or value element (2 for FP16, 1 for FP8).
    pub kv_bytes: f64,
    /// Context length in tokens per sequence.
    pub context: u64,
    /// Sequences served at once.
    pub batch: u64,
    /// Overhead on weights + KV cache, in percent.
    pub overhead_pct: f64,
    /// Memory of the GPU, in decimal GB (as marketed).
    pub gpu_memory_gb: f64,
}

impl Default for ScenarioInput {
    fn default() -> Self {
        ScenarioInput {
            method: MethodId::Quick,
            params_b: 8.0,
            layers: 32,
            kv_heads: 8,
            head_dim: 128,
            weight_bits: 16.0,
            kv_bytes: 2.0,
            context: 8192,
            batch: 1,
            overhead_pct: 10.0,
            gpu_memory_gb: 24.0,
        }
    }
}

/// Every numeric field of [`ScenarioInput`], with its accepted range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    ParamsB,
    Layers,
    KvHeads,
    HeadDim,
    WeightBits,
    KvBytes,
    Context,
    Batch,
    OverheadPct,
    GpuMemoryGb,
}

/// What is wrong with one field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputProblem {
    /// The text is empty.
    Empty,
    /// The text is not a number.
    NotANumber,
    /// A whole number was expected.
    NotAnInteger,
    /// Below the field's minimum.
    TooSmall,
    /// Above the field's maximum.
    TooLarge,
}

/// One rejected field, with the range it accepts, so that every front end
/// can say what is wrong in its own language.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InputError {
    pub field: Field,
    pub problem: InputProblem,
    pub min: f64,
    pub max: f64,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            InputProblem::Empty => "is empty".to_string(),
            InputProblem::NotANumber => "is not a number".to_string(),
            InputProblem::NotAnInteger => "must be a whole number".to_string(),
            InputProblem::TooSmall | InputProblem::TooLarge => {
                format!("must be between {} and {}", self.min, self.max)
            }
        };
        write!(f, "{} {what}", self.field.key())
    }
}

impl Field {
    /// All fields, in the order the UI shows them.
    pub const ALL: [Field; 10] = [
        Field::ParamsB,
        Field::Layers,
        Field::KvHeads,
        Field::HeadDim,
        Field::WeightBits,
        Field::KvBytes,
        Field::Context,
        Field::Batch,
        Field::OverheadPct,
        Field::GpuMemoryGb,
    ];

    /// The field's key in JSON, in `data-testid`s (`field-<key>`) and, with
    /// `-` for `_`, as a CLI flag.
    pub const fn key(self) -> &'static str {
        match self {
            Field::ParamsB => "params_b",
            Field::Layers => "layers",
            Field::KvHeads => "kv_heads",
            Field::HeadDim => "head_dim",
            Field::WeightBits => "weight_bits",
            Field::KvBytes => "kv_bytes",
            Field::Context => "context",
            Field::Batch => "batch",
            Field::OverheadPct => "overhead_pct",
            Field::GpuMemoryGb => "gpu_memory_gb",
        }
    }

    /// Accepted range `(min, max)`, inclusive.
    ///
    /// The limits are generous (a 100-trillion-parameter model, 100 M tokens)
    /// but finite, so every product downstream stays finite.
    pub const fn range(self) -> (f64, f64) {
        match self {
            Field::ParamsB => (0.001, 100_000.0),
            Field::Layers => (1.0, 1024.0),
            Field::KvHeads => (1.0, 1024.0),
            Field::HeadDim => (1.0, 16_384.0),
            Field::WeightBits => (1.0, 32.0),
            Field::KvBytes => (0.25, 4.0),
            Field::Context => (1.0, 100_000_000.0),
            Field::Batch => (1.0, 1_000_000.0),
            Field::OverheadPct => (0.0, 1_000.0),
            Field::GpuMemoryGb => (0.001, 1_000_000.0),
        }
    }

    /// Whether the field only takes whole numbers.
    pub const fn integer(self) -> bool {
        matches!(
            self,
            Field::Layers | Field::KvHeads | Field::HeadDim | Field::Context | Field::Batch
        )
    }

    /// Parses and range-checks the text a person typed.
    ///
    /// Accepts a decimal comma (`"0,5"`) and surrounding spaces.
    ///
    /// ```
    /// use vramfit_core::scenario::{Field, InputProblem};
    /// assert_eq!(Field::Context.parse(" 8192 "), Ok(8192.0));
    /// assert_eq!(Field::KvBytes.parse("0,5"), Ok(0.5));
    /// assert_eq!(Field::Layers.parse("3.5").unwrap_err().problem, InputProblem::NotAnInteger);
    /// assert_eq!(Field::Batch.parse("-1").unwrap_err().problem, InputProblem::TooSmall);
    /// assert_eq!(Field::ParamsB.parse("abc").unwrap_err().problem, InputProblem::NotANumber);
    /// ```
    pub fn parse(self, text: &str) -> Result<f64, InputError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(self.error(InputProblem::Empty));
        }
        let value: f64 = text
            .replace(',', ".")
            .parse()
            .map_err(|_| self.error(InputProblem::NotANumber))?;
        self.check(value)
    }

    /// Range-checks a number that is already parsed.
    pub fn check(self, value: f64) -> Result<f64, InputError> {
        let (min, max) = self.range();
        if !value.is_finite() {
            return Err(self.error(InputProblem::NotANumber));
        }
        if value < min {
            return Err(self.error(InputProblem::TooSmall));
        }
        if value > max {
            return Err(self.error(InputProblem::TooLarge));
        }
        if self.integer() && value.fract() != 0.0 {
            return Err(self.error(InputProblem::NotAnInteger));
        }
        Ok(value)
    }

    fn error(self, problem: InputProblem) -> InputError {
        let (min, max) = self.range();
        InputError {
            field: self,
            problem,
            min,
            max,
        }
    }
}

impl ScenarioInput {
    /// The value of one field, as a number.
    pub fn get(&self, field: Field) -> f64 {
        match field {
            Field::ParamsB => self.params_b,
            Field::Layers => self.layers as f64,
            Field::KvHeads => self.kv_heads as f64,
            Field::HeadDim => self.head_dim as f64,
            Field::WeightBits => self.weight_bits,
            Field::KvBytes => self.kv_bytes,
            Field::Context => self.context as f64,
            Field::Batch => self.batch as f64,
            Field::OverheadPct => self.overhead_pct,
            Field::GpuMemoryGb => self.gpu_memory_gb,
        }
    }

    /// Sets one field from a number that [`Field::check`] accepted.
    pub fn set(&mut self, field: Field, value: f64) {
        // `as u64` saturates and drops no fraction here: `check` passed.
        match field {
            Field::ParamsB => self.params_b = value,
            Field::Layers => self.layers = value as u64,
            Field::KvHeads => self.kv_heads = value as u64,
            Field::HeadDim => self.head_dim = value as u64,
            Field::WeightBits => self.weight_bits = value,
            Field::KvBytes => self.kv_bytes = value,
            Field::Context => self.context = value as u64,
            Field::Batch => self.batch = value as u64,
            Field::OverheadPct => self.overhead_pct = value,
            Field::GpuMemoryGb => self.gpu_memory_gb = value,
        }
    }

    /// Checks every field; on success the exact, typed [`Scenario`].
    pub fn validate(&self) -> Result<Scenario, Vec<InputError>> {
        let errors: Vec<InputError> = Field::ALL
            .iter()
            .filter_map(|f| f.check(self.get(*f)).err())
            .collect();
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Scenario {
            method: self.method,
            params: (self.params_b * 1e9).round() as u64,
            layers: self.layers,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            weight_milli_bits: (self.weight_bits * 1_000.0).round() as u64,
            kv_milli_bits: (self.kv_bytes * 8_000.0).round() as u64,
            context: self.context,
            batch: self.batch,
            overhead_centi_pct: (self.overhead_pct * 100.0).round() as u64,
            gpu_bytes: (self.gpu_memory_gb * 1e9).round() as u64,
        })
    }
}

/// A validated scenario in exact integer units. Only
/// [`ScenarioInput::validate`] builds one, so every value is in range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub method: MethodId,
    /// Parameter count.
    pub params: u64,
    pub layers: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// Bits per weight, in thousandths of a bit.
    pub weight_milli_bits: u64,
    /// Bits per cached element, in thousandths of a bit.
    pub kv_milli_bits: u64,
    pub context: u64,
    pub batch: u64,
    /// Overhead in hundredths of a percent (10 % = 1,000).
    pub overhead_centi_pct: u64,
    /// GPU memory in bytes (decimal GB × 10⁹).
    pub gpu_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_exact() {
        let s = ScenarioInput::default().validate().unwrap();
        assert_eq!(s.params, 8_000_000_000);
        assert_eq!(s.weight_milli_bits, 16_000);
        assert_eq!(s.kv_milli_bits, 16_000);
        assert_eq!(s.gpu_bytes, 24_000_000_000);
    }

    #[test]
    fn every_bad_field_is_named() {
        let input = ScenarioInput {
            layers: 0,
            kv_bytes: f64::NAN,
            gpu_memory_gb: -3.0,
            ..ScenarioInput::default()
        };
        let errors = input.validate().unwrap_err();
        let fields: Vec<Field> = errors.iter().map(|e| e.field).collect();
        assert_eq!(fields, [Field::Layers, Field::KvBytes, Field::GpuMemoryGb]);
        assert_eq!(errors[0].to_string(), "layers must be between 1 and 1024");
    }

    #[test]
    fn unknown_keys_in_json_are_rejected() {
        let err = serde_json::from_str::<ScenarioInput>(r#"{"layerz": 3}"#).unwrap_err();
        assert!(err.to_string().contains("layerz"));
    }

    #[test]
    fn missing_keys_take_defaults() {
        let input: ScenarioInput = serde_json::from_str(r#"{"context": 4096}"#).unwrap();
        assert_eq!(input.context, 4096);
        assert_eq!(input.layers, 32);
    }
}
