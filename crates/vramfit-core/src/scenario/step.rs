//! How one step runs (seed 003's knobs): the optimizer, how training
//! holds the weights, and the attention implementation. Every method that
//! trains or attends reads them from the scenario.

use serde::{Deserialize, Serialize};

/// The optimizer, in torch's default `foreach` implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimizer {
    /// `torch.optim.AdamW`: two moments.
    AdamW,
    /// `torch.optim.SGD` with momentum: one buffer.
    Sgd,
}

impl Optimizer {
    /// Stable name (`adamw`, `sgd`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            Optimizer::AdamW => "adamw",
            Optimizer::Sgd => "sgd",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Optimizer> {
        [Optimizer::AdamW, Optimizer::Sgd]
            .into_iter()
            .find(|o| o.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// How training holds the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// fp32 weights, forward under `torch.autocast` in bf16 (fp16 when the
    /// dtype is fp16).
    Amp,
    /// Weights loaded and trained in the dtype.
    Pure,
}

impl Precision {
    /// Stable name (`amp`, `pure`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            Precision::Amp => "amp",
            Precision::Pure => "pure",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Precision> {
        [Precision::Amp, Precision::Pure]
            .into_iter()
            .find(|p| p.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// transformers' `attn_implementation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttnImpl {
    /// `eager_attention_forward`: materialized scores.
    Eager,
    /// `sdpa_attention_forward` on the flash or memory-efficient kernel.
    Sdpa,
    /// `flash_attention_2`: the same saved tensors as `sdpa`.
    Flash,
}

impl AttnImpl {
    /// Stable name (`eager`, `sdpa`, `flash`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            AttnImpl::Eager => "eager",
            AttnImpl::Sdpa => "sdpa",
            AttnImpl::Flash => "flash",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<AttnImpl> {
        [AttnImpl::Eager, AttnImpl::Sdpa, AttnImpl::Flash]
            .into_iter()
            .find(|a| a.id().eq_ignore_ascii_case(name.trim()))
    }
}
