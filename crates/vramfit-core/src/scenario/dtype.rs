//! The type an engine computes in (vLLM's `--dtype`), apart from how the
//! weights are stored (`--quantization`, the weight format).
//!
//! vLLM reads the two as separate options: `--dtype bfloat16
//! --quantization fp8` stores FP8 weights and computes in bfloat16
//! (`vllm/config/model.py`, `dtype` and `quantization`), so the order in
//! which a person types them never changes the answer.

use super::format::WeightFormat;
use serde::{Deserialize, Serialize};

/// vLLM `--dtype`: the activations' type (`auto`, the checkpoint's, is
/// `None` where it is held).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputeDtype {
    Bf16,
    Fp16,
    Fp32,
}

impl ComputeDtype {
    /// Every dtype, in the order the usage lists them.
    pub const ALL: [ComputeDtype; 3] = [ComputeDtype::Bf16, ComputeDtype::Fp16, ComputeDtype::Fp32];

    /// Stable name, as in JSON and on the `vramfit` command line.
    pub const fn id(self) -> &'static str {
        match self {
            ComputeDtype::Bf16 => "bf16",
            ComputeDtype::Fp16 => "fp16",
            ComputeDtype::Fp32 => "fp32",
        }
    }

    /// Reads vLLM's names and ours (`bfloat16`, `bf16`, `half`, `float`,
    /// ...); `auto` is not a dtype here (the caller's `None`).
    ///
    /// ```
    /// use vramfit_core::scenario::ComputeDtype;
    /// assert_eq!(ComputeDtype::from_name("bfloat16"), Some(ComputeDtype::Bf16));
    /// assert_eq!(ComputeDtype::from_name("half"), Some(ComputeDtype::Fp16));
    /// assert_eq!(ComputeDtype::from_name("auto"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ComputeDtype> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "bfloat16" | "bf16" => ComputeDtype::Bf16,
            "float16" | "fp16" | "half" => ComputeDtype::Fp16,
            "float32" | "fp32" | "float" => ComputeDtype::Fp32,
            _ => return None,
        })
    }

    /// The weight format of an unquantized checkpoint loaded in this dtype.
    pub const fn weight_format(self) -> WeightFormat {
        match self {
            ComputeDtype::Bf16 => WeightFormat::Bf16,
            ComputeDtype::Fp16 => WeightFormat::Fp16,
            ComputeDtype::Fp32 => WeightFormat::Fp32,
        }
    }
}
