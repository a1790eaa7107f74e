//! The checkpoint's storage type (`torch_dtype`, or `dtype` in newer files).

use super::error::ConfigError;
use serde::Serialize;

/// Storage type of a tensor in the published checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dtype {
    F64,
    F32,
    F16,
    Bf16,
    F8E4m3,
    F8E5m2,
}

impl Dtype {
    /// Bits per value, in thousandths of a bit (as in
    /// [`crate::units::bytes_for_bits`]).
    pub const fn milli_bits(self) -> u64 {
        match self {
            Dtype::F64 => 64_000,
            Dtype::F32 => 32_000,
            Dtype::F16 | Dtype::Bf16 => 16_000,
            Dtype::F8E4m3 | Dtype::F8E5m2 => 8_000,
        }
    }

    /// The name PyTorch gives the type (`"bfloat16"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Dtype::F64 => "float64",
            Dtype::F32 => "float32",
            Dtype::F16 => "float16",
            Dtype::Bf16 => "bfloat16",
            Dtype::F8E4m3 => "float8_e4m3fn",
            Dtype::F8E5m2 => "float8_e5m2",
        }
    }

    /// Parses a dtype as written in a config (`"bfloat16"`, `"torch.float16"`,
    /// `"fp16"`, `"float"`, ...); `key` names the key for the error.
    pub(crate) fn parse(key: &str, text: &str) -> Result<Dtype, ConfigError> {
        let name = text
            .trim()
            .trim_start_matches("torch.")
            .to_ascii_lowercase();
        let dtype = match name.as_str() {
            "float64" | "double" | "fp64" => Dtype::F64,
            "float32" | "float" | "fp32" => Dtype::F32,
            "float16" | "half" | "fp16" => Dtype::F16,
            "bfloat16" | "bf16" => Dtype::Bf16,
            "float8_e4m3fn" | "float8_e4m3" | "fp8" | "e4m3" => Dtype::F8E4m3,
            "float8_e5m2" | "e5m2" => Dtype::F8E5m2,
            _ => return Err(ConfigError::out_of_range(key, text)),
        };
        Ok(dtype)
    }
}
