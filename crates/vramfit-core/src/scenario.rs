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
/// one sequence, 10 % overhead, on a 24 GB GPU. The `lesson` knobs default
/// to seed 000's example (2 GiB runtime, 4 GiB activation, 15 % margin).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioInput {
    /// The method that produces the headline estimate.
    pub method: MethodId,
    /// Serving or training.
    pub mode: Mode,
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
    /// Memory of the GPU, in decimal GB (as marketed).
    pub gpu_memory_gb: f64,
    /// `quick`: overhead on weights + KV cache, in percent.
    pub overhead_pct: f64,
    /// `lesson`: runtime reserve (CUDA context, kernels), in GiB (2³⁰).
    pub runtime_gib: f64,
    /// `lesson`: activation reserve, in GiB (2³⁰).
    pub activation_gib: f64,
    /// `lesson`: safety margin on the subtotal with reserves, in percent.
    pub margin_pct: f64,
}

impl Default for ScenarioInput {
    fn default() -> Self {
        ScenarioInput {
            method: MethodId::Quick,
            mode: Mode::Inference,
            params_b: 8.0,
            layers: 32,
            kv_heads: 8,
            head_dim: 128,
            weight_bits: 16.0,
            kv_bytes: 2.0,
            context: 8192,
            batch: 1,
            gpu_memory_gb: 24.0,
            overhead_pct: 10.0,
            runtime_gib: 2.0,
            activation_gib: 4.0,
            margin_pct: 15.0,
        }
    }
}

/// What the memory is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Serving: weights and KV cache.
    #[default]
    Inference,
    /// Full fine-tuning: every parameter trained. Also read from
    /// `"training"` and `"train"`.
    #[serde(alias = "training", alias = "train")]
    Full,
}

impl Mode {
    /// Every mode, in the order the UI offers them.
    pub const ALL: [Mode; 2] = [Mode::Inference, Mode::Full];

    /// The stable name (`"inference"`, `"full"`).
    pub const fn id(self) -> &'static str {
        match self {
            Mode::Inference => "inference",
            Mode::Full => "full",
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
    GpuMemoryGb,
    OverheadPct,
    RuntimeGib,
    ActivationGib,
    MarginPct,
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
    pub const ALL: [Field; 13] = [
        Field::ParamsB,
        Field::Layers,
        Field::KvHeads,
        Field::HeadDim,
        Field::WeightBits,
        Field::KvBytes,
        Field::Context,
        Field::Batch,
        Field::GpuMemoryGb,
        Field::OverheadPct,
        Field::RuntimeGib,
        Field::ActivationGib,
        Field::MarginPct,
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
            Field::GpuMemoryGb => "gpu_memory_gb",
            Field::OverheadPct => "overhead_pct",
            Field::RuntimeGib => "runtime_gib",
            Field::ActivationGib => "activation_gib",
            Field::MarginPct => "margin_pct",
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
            Field::GpuMemoryGb => (0.001, 1_000_000.0),
            Field::OverheadPct => (0.0, 1_000.0),
            Field::RuntimeGib => (0.0, 1_000_000.0),
            Field::ActivationGib => (0.0, 1_000_000.0),
            Field::MarginPct => (0.0, 1_000.0),
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
            Field::GpuMemoryGb => self.gpu_memory_gb,
            Field::OverheadPct => self.overhead_pct,
            Field::RuntimeGib => self.runtime_gib,
            Field::ActivationGib => self.activation_gib,
            Field::MarginPct => self.margin_pct,
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
            Field::GpuMemoryGb => self.gpu_memory_gb = value,
            Field::OverheadPct => self.overhead_pct = value,
            Field::RuntimeGib => self.runtime_gib = value,
            Field::ActivationGib => self.activation_gib = value,
            Field::MarginPct => self.margin_pct = value,
        }
    }

    /// Switches to `mode`; when the selected method does not estimate it,
    /// also switches to the first method (in [`MethodId::ALL`] order) that
    /// does, so the scenario stays valid.
    ///
    /// ```
    /// use vramfit_core::{methods::MethodId, scenario::{Mode, ScenarioInput}};
    /// let mut input = ScenarioInput::default(); // quick, inference
    /// input.set_mode(Mode::Full);
    /// assert_eq!(input.method, MethodId::Lesson);
    /// ```
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        if !self.method.applies_to(mode) {
            if let Some(m) = MethodId::ALL.into_iter().find(|m| m.applies_to(mode)) {
                self.method = m;
            }
        }
    }

    /// Checks every field and that the method estimates the mode; on
    /// success the exact, typed [`Scenario`].
    pub fn validate(&self) -> Result<Scenario, Vec<ScenarioError>> {
        let mut errors: Vec<ScenarioError> = Field::ALL
            .iter()
            .filter_map(|f| f.check(self.get(*f)).err())
            .map(ScenarioError::Field)
            .collect();
        if !self.method.applies_to(self.mode) {
            errors.push(ScenarioError::MethodMode {
                method: self.method,
                mode: self.mode,
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Scenario {
            method: self.method,
            mode: self.mode,
            params: (self.params_b * 1e9).round() as u64,
            layers: self.layers,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            weight_milli_bits: (self.weight_bits * 1_000.0).round() as u64,
            kv_milli_bits: (self.kv_bytes * 8_000.0).round() as u64,
            context: self.context,
            batch: self.batch,
            gpu_bytes: (self.gpu_memory_gb * 1e9).round() as u64,
            overhead_centi_pct: (self.overhead_pct * 100.0).round() as u64,
            runtime_bytes: gib_to_bytes(self.runtime_gib),
            activation_bytes: gib_to_bytes(self.activation_gib),
            margin_centi_pct: (self.margin_pct * 100.0).round() as u64,
        })
    }
}

/// `gib × 2³⁰`, rounded to the byte; for checked values (finite, ≥ 0,
/// ≤ 10⁶ GiB, where the product is exact in `f64`).
fn gib_to_bytes(gib: f64) -> u64 {
    (gib * crate::units::GIB as f64).round() as u64
}

/// Why a scenario was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ScenarioError {
    /// One field's value is not accepted.
    Field(InputError),
    /// The selected method does not estimate this mode.
    MethodMode { method: MethodId, mode: Mode },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Field(e) => e.fmt(f),
            ScenarioError::MethodMode { method, mode } => write!(
                f,
                "method {} does not estimate {} (it applies to: {})",
                method.id(),
                mode.id(),
                Mode::ALL
                    .iter()
                    .filter(|m| method.applies_to(**m))
                    .map(|m| m.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A validated scenario in exact integer units. Only
/// [`ScenarioInput::validate`] builds one, so every value is in range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub method: MethodId,
    pub mode: Mode,
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
    /// GPU memory in bytes (decimal GB × 10⁹).
    pub gpu_bytes: u64,
    /// `quick` overhead, in hundredths of a percent (10 % = 1,000).
    pub overhead_centi_pct: u64,
    /// `lesson` runtime reserve, in bytes (GiB × 2³⁰).
    pub runtime_bytes: u64,
    /// `lesson` activation reserve, in bytes (GiB × 2³⁰).
    pub activation_bytes: u64,
    /// `lesson` margin, in hundredths of a percent (15 % = 1,500).
    pub margin_centi_pct: u64,
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
        let fields: Vec<Field> = errors
            .iter()
            .filter_map(|e| match e {
                ScenarioError::Field(f) => Some(f.field),
                ScenarioError::MethodMode { .. } => None,
            })
            .collect();
        assert_eq!(fields, [Field::Layers, Field::KvBytes, Field::GpuMemoryGb]);
        assert_eq!(errors[0].to_string(), "layers must be between 1 and 1024");
    }

    #[test]
    fn a_method_that_does_not_estimate_the_mode_is_rejected() {
        let input = ScenarioInput {
            mode: Mode::Full,
            ..ScenarioInput::default()
        };
        let errors = input.validate().unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "method quick does not estimate full (it applies to: inference)"
        );
        let lesson = ScenarioInput {
            method: MethodId::Lesson,
            ..input
        };
        assert!(lesson.validate().is_ok());
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
