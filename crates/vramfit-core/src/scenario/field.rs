//! The numeric fields of a scenario: their keys, ranges and parsing.

use serde::{Deserialize, Serialize};
use std::fmt;

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
    Sequences,
    Gpus,
    Tp,
    Pp,
    HostRamGb,
    OffloadGb,
    SharedPrefixTokens,
    GpuMemoryGb,
    LoraRank,
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
    /// The fields of the model's shape: typed by hand, or replaced by a
    /// real model's (catalog id or `config.json`).
    pub const SHAPE: [Field; 4] = [
        Field::ParamsB,
        Field::Layers,
        Field::KvHeads,
        Field::HeadDim,
    ];

    /// How weights and the KV cache are stored.
    pub const FORMATS: [Field; 2] = [Field::WeightBits, Field::KvBytes];

    /// The workload every method reads: context and concurrent sequences.
    pub const WORKLOAD: [Field; 2] = [Field::Context, Field::Sequences];

    /// How the GPUs are used: `GPUs = TP × PP × replicas`
    /// ([`Layout`](super::Layout)); every method reads them.
    pub const LAYOUT: [Field; 3] = [Field::Gpus, Field::Tp, Field::Pp];

    /// The knobs the app folds under "Advanced": how the model is spread
    /// over GPUs and host RAM.
    pub const ADVANCED: [Field; 6] = [
        Field::Gpus,
        Field::Tp,
        Field::Pp,
        Field::HostRamGb,
        Field::OffloadGb,
        Field::SharedPrefixTokens,
    ];

    /// The GPU's memory.
    pub const GPU: [Field; 1] = [Field::GpuMemoryGb];

    /// Knobs of one method or mode each: LoRA's rank, quick's overhead,
    /// the lesson's reserves and margin.
    pub const METHOD_KNOBS: [Field; 5] = [
        Field::LoraRank,
        Field::OverheadPct,
        Field::RuntimeGib,
        Field::ActivationGib,
        Field::MarginPct,
    ];

    /// All fields, in the order the UI shows them (and the CLI line writes
    /// them): every group above, each once.
    pub const ALL: [Field; 20] = concat(&[
        &Field::SHAPE,
        &Field::FORMATS,
        &Field::WORKLOAD,
        &Field::ADVANCED,
        &Field::GPU,
        &Field::METHOD_KNOBS,
    ]);

    /// The fields every method reads: the model's shape, the formats, the
    /// workload, the layout and the GPU.
    pub const SHARED: [Field; 12] = concat(&[
        &Field::SHAPE,
        &Field::FORMATS,
        &Field::WORKLOAD,
        &Field::LAYOUT,
        &Field::GPU,
    ]);

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
            Field::Sequences => "sequences",
            Field::Gpus => "gpus",
            Field::Tp => "tp",
            Field::Pp => "pp",
            Field::HostRamGb => "host_ram_gb",
            Field::OffloadGb => "offload_gb",
            Field::SharedPrefixTokens => "shared_prefix_tokens",
            Field::GpuMemoryGb => "gpu_memory_gb",
            Field::LoraRank => "lora_rank",
            Field::OverheadPct => "overhead_pct",
            Field::RuntimeGib => "runtime_gib",
            Field::ActivationGib => "activation_gib",
            Field::MarginPct => "margin_pct",
        }
    }

    /// The `vramfit` command-line flag that sets the field (`--lora` also
    /// selects LoRA mode).
    pub const fn flag(self) -> &'static str {
        match self {
            Field::ParamsB => "--params",
            Field::Layers => "--layers",
            Field::KvHeads => "--kv-heads",
            Field::HeadDim => "--head-dim",
            Field::WeightBits => "--weight-bits",
            Field::KvBytes => "--kv-bytes",
            Field::Context => "--seq",
            Field::Sequences => "--sequences",
            Field::Gpus => "--gpus",
            Field::Tp => "--tp",
            Field::Pp => "--pp",
            Field::HostRamGb => "--host-ram-gb",
            Field::OffloadGb => "--offload-gb",
            Field::SharedPrefixTokens => "--prefix-tokens",
            Field::GpuMemoryGb => "--capacity-gb",
            Field::LoraRank => "--lora",
            Field::OverheadPct => "--overhead-pct",
            Field::RuntimeGib => "--runtime-gib",
            Field::ActivationGib => "--activation-gib",
            Field::MarginPct => "--margin",
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
            Field::Sequences => (1.0, 1_000_000.0),
            Field::Gpus => (1.0, 64.0),
            Field::Tp | Field::Pp => (0.0, 64.0),
            Field::HostRamGb => (0.0, 1_000_000.0),
            Field::OffloadGb => (0.0, 1_000_000.0),
            Field::SharedPrefixTokens => (0.0, 100_000_000.0),
            Field::GpuMemoryGb => (0.001, 1_000_000.0),
            Field::LoraRank => (1.0, 4096.0),
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
            Field::Layers
                | Field::KvHeads
                | Field::HeadDim
                | Field::Context
                | Field::Sequences
                | Field::Gpus
                | Field::Tp
                | Field::Pp
                | Field::SharedPrefixTokens
                | Field::LoraRank
        )
    }

    /// Whether 0 (typed as `auto` or left empty) means "derived": TP and
    /// PP, derived from the GPU count and the model's heads
    /// ([`Layout::spread`](super::Layout::spread)) unless set.
    pub const fn auto(self) -> bool {
        matches!(self, Field::Tp | Field::Pp)
    }

    /// Parses and range-checks the text a person typed.
    ///
    /// Accepts a decimal comma (`"0,5"`) and surrounding spaces; for a
    /// field with an automatic value ([`Field::auto`]), `auto` or nothing
    /// is 0.
    ///
    /// ```
    /// use vramfit_core::scenario::{Field, InputProblem};
    /// assert_eq!(Field::Context.parse(" 8192 "), Ok(8192.0));
    /// assert_eq!(Field::Context.parse("32k"), Ok(32768.0));
    /// assert_eq!(Field::Context.parse("128K"), Ok(131072.0));
    /// assert_eq!(Field::KvBytes.parse("0,5"), Ok(0.5));
    /// assert_eq!(Field::Layers.parse("3.5").unwrap_err().problem, InputProblem::NotAnInteger);
    /// assert_eq!(Field::Sequences.parse("-1").unwrap_err().problem, InputProblem::TooSmall);
    /// assert_eq!(Field::Tp.parse("Auto"), Ok(0.0));
    /// assert_eq!(Field::Pp.parse(""), Ok(0.0));
    /// assert_eq!(Field::ParamsB.parse("abc").unwrap_err().problem, InputProblem::NotANumber);
    /// ```
    pub fn parse(self, text: &str) -> Result<f64, InputError> {
        let text = text.trim();
        if self.auto() && (text.is_empty() || text.eq_ignore_ascii_case("auto")) {
            return Ok(0.0);
        }
        if text.is_empty() {
            return Err(self.error(InputProblem::Empty));
        }
        // A token count may be typed in thousands of 1,024: "32k" is
        // 32,768, the way context lengths are named (Llama's 128k is
        // 131,072).
        let (number, scale) = match (self.tokens(), text.strip_suffix(['k', 'K'])) {
            (true, Some(n)) => (n.trim(), 1_024.0),
            _ => (text, 1.0),
        };
        let value: f64 = number
            .replace(',', ".")
            .parse()
            .map_err(|_| self.error(InputProblem::NotANumber))?;
        self.check(value * scale)
    }

    /// Whether the field counts tokens (so `32k` reads as 32,768).
    pub const fn tokens(self) -> bool {
        matches!(self, Field::Context | Field::SharedPrefixTokens)
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

/// The groups of fields one after the other, as one array of exactly `N`
/// fields (a wrong count does not compile).
const fn concat<const N: usize>(groups: &[&[Field]]) -> [Field; N] {
    let mut out = [Field::ParamsB; N];
    let (mut g, mut n) = (0, 0);
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].len() {
            out[n] = groups[g][i];
            n += 1;
            i += 1;
        }
        g += 1;
    }
    assert!(n == N, "the groups do not hold N fields");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_listed_once() {
        let mut keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Field::ALL.len());
        for f in Field::SHARED {
            assert!(Field::ALL.contains(&f));
        }
    }
}
