//! The planner's knobs by name, and why one is rejected: typed errors that
//! every front end can word in its own language; `Display` is English.

use crate::units::{Bytes, DisplayUnit};
use serde::Serialize;
use std::fmt;

/// One planner knob, by its JSON key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Knob {
    ActivationK,
    EngineContextGb,
    MarginPct,
    ReservePct,
    QuantMetadataPct,
    KvBlockTokens,
    PrefillBudgetTokens,
    SharedPrefixTokens,
    GradientBytes,
    Machines,
    BatchLimit,
    OffloadGb,
    HiddenSize,
    VocabSize,
    AttentionHeads,
    UnquantizedParamsB,
    Fp32ParamsB,
    PromptTokens,
    TargetTokensPerS,
}

impl Knob {
    /// The knob's key under `planner` in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Knob::ActivationK => "activation_k",
            Knob::EngineContextGb => "engine_context_gb",
            Knob::MarginPct => "margin_pct",
            Knob::ReservePct => "reserve_pct",
            Knob::QuantMetadataPct => "quant_metadata_pct",
            Knob::KvBlockTokens => "kv_block_tokens",
            Knob::PrefillBudgetTokens => "prefill_budget_tokens",
            Knob::SharedPrefixTokens => "shared_prefix_tokens",
            Knob::GradientBytes => "gradient_bytes",
            Knob::Machines => "machines",
            Knob::BatchLimit => "batch_limit",
            Knob::OffloadGb => "offload_gb",
            Knob::HiddenSize => "hidden_size",
            Knob::VocabSize => "vocab_size",
            Knob::AttentionHeads => "attention_heads",
            Knob::UnquantizedParamsB => "unquantized_params_b",
            Knob::Fp32ParamsB => "fp32_params_b",
            Knob::PromptTokens => "prompt_tokens",
            Knob::TargetTokensPerS => "target_tokens_per_s",
        }
    }

    /// Accepted range `(min, max)`, inclusive.
    pub const fn range(self) -> (f64, f64) {
        match self {
            Knob::ActivationK => (0.0, 1_000.0),
            Knob::EngineContextGb | Knob::OffloadGb => (0.0, 1_000_000.0),
            Knob::MarginPct => (0.0, 1_000.0),
            Knob::ReservePct => (0.0, 99.0),
            Knob::QuantMetadataPct => (0.0, 100.0),
            Knob::KvBlockTokens => (1.0, 1_048_576.0),
            Knob::PrefillBudgetTokens | Knob::PromptTokens => (1.0, 100_000_000.0),
            Knob::SharedPrefixTokens => (0.0, 100_000_000.0),
            Knob::GradientBytes => (2.0, 4.0),
            Knob::Machines => (1.0, 100_000.0),
            Knob::BatchLimit => (1.0, 1_000_000.0),
            Knob::HiddenSize | Knob::VocabSize => (1.0, 16_777_216.0),
            Knob::AttentionHeads => (1.0, 65_536.0),
            Knob::UnquantizedParamsB | Knob::Fp32ParamsB => (0.0, 100_000.0),
            Knob::TargetTokensPerS => (0.001, 1_000_000_000.0),
        }
    }
}

/// What is wrong with one knob.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum KnobProblem {
    /// Not a finite number.
    NotANumber,
    /// Outside the knob's range.
    OutOfRange { min: f64, max: f64 },
    /// Gradients are 2 (BF16) or 4 (FP32) bytes.
    NotTwoOrFour,
    /// A shared prefix longer than the context.
    AboveContext { context: u64 },
    /// More unquantized parameters than the model has.
    AboveParams { params: u64 },
    /// More FP32 parameters than unquantized ones (`U32 ⊆ U`).
    AboveUnquantized { unquantized: u64 },
    /// More offload than the quantized body weights on one GPU.
    AboveBodyWeights { max_bytes: Bytes },
    /// Offload over all GPUs of a machine above 80 % of its host RAM.
    AboveHostRam { max_bytes: Bytes },
}

/// One rejected planner knob.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PlannerError {
    pub knob: Knob,
    pub problem: KnobProblem,
}

impl fmt::Display for PlannerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "planner.{} ", self.knob.key())?;
        let gb = |bytes: Bytes| bytes.in_unit(DisplayUnit::Gb);
        match self.problem {
            KnobProblem::NotANumber => write!(f, "is not a number"),
            KnobProblem::OutOfRange { min, max } => {
                write!(f, "must be between {min} and {max}")
            }
            KnobProblem::NotTwoOrFour => write!(f, "must be 2 (BF16) or 4 (FP32)"),
            KnobProblem::AboveContext { context } => {
                write!(f, "must be at most the context ({context} tokens)")
            }
            KnobProblem::AboveParams { params } => {
                write!(f, "must be at most the model's {params} parameters")
            }
            KnobProblem::AboveUnquantized { unquantized } => write!(
                f,
                "must be at most the {unquantized} unquantized parameters"
            ),
            KnobProblem::AboveBodyWeights { max_bytes } => write!(
                f,
                "must be at most the quantized body weights on one GPU ({:.3} GB)",
                gb(max_bytes)
            ),
            KnobProblem::AboveHostRam { max_bytes } => write!(
                f,
                "over all GPUs of a machine must be at most 80 % of its host RAM ({:.3} GB per GPU)",
                gb(max_bytes)
            ),
        }
    }
}
