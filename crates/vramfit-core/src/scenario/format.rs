//! Named weight formats and their storage cost in bits per weight.
//!
//! Bits per weight follow seed 001's table: BF16/FP16 16; FP8/INT8 8;
//! 4-bit AWQ/GPTQ 4.16 (4-bit weights plus an FP16 scale and a 4-bit zero
//! point per 128 weights: 4 + (16 + 4) / 128 = 4.156, published as 4.16);
//! GGUF Q8_0 8.5, Q5_K_M 5.7 and Q4_K_M 4.89 as measured by llama.cpp;
//! MXFP4 4.25 (4 bits + one 8-bit scale per 32 values); NF4 with double
//! quantization 4.127 (QLoRA: 0.127 bits of constants per parameter).

use serde::{Deserialize, Serialize};

/// How the weights are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightFormat {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Awq,
    Gptq,
    #[serde(rename = "q8_0")]
    Q8_0,
    #[serde(rename = "q5_k_m")]
    Q5KM,
    #[serde(rename = "q4_k_m")]
    Q4KM,
    Mxfp4,
    Nf4,
    /// The dtypes of the model's own checkpoint (needs a model).
    AsPublished,
}

impl WeightFormat {
    /// Every format, in the order the UI offers them.
    pub const ALL: [WeightFormat; 13] = [
        WeightFormat::Bf16,
        WeightFormat::Fp16,
        WeightFormat::Fp32,
        WeightFormat::Fp8,
        WeightFormat::Int8,
        WeightFormat::Awq,
        WeightFormat::Gptq,
        WeightFormat::Q8_0,
        WeightFormat::Q5KM,
        WeightFormat::Q4KM,
        WeightFormat::Mxfp4,
        WeightFormat::Nf4,
        WeightFormat::AsPublished,
    ];

    /// Stable name, as in JSON and on the CLI (`--quant q4_k_m`).
    pub const fn id(self) -> &'static str {
        match self {
            WeightFormat::Fp32 => "fp32",
            WeightFormat::Bf16 => "bf16",
            WeightFormat::Fp16 => "fp16",
            WeightFormat::Fp8 => "fp8",
            WeightFormat::Int8 => "int8",
            WeightFormat::Awq => "awq",
            WeightFormat::Gptq => "gptq",
            WeightFormat::Q8_0 => "q8_0",
            WeightFormat::Q5KM => "q5_k_m",
            WeightFormat::Q4KM => "q4_k_m",
            WeightFormat::Mxfp4 => "mxfp4",
            WeightFormat::Nf4 => "nf4",
            WeightFormat::AsPublished => "as_published",
        }
    }

    /// Label for people (`"GGUF Q4_K_M"`).
    pub const fn label(self) -> &'static str {
        match self {
            WeightFormat::Fp32 => "FP32",
            WeightFormat::Bf16 => "BF16",
            WeightFormat::Fp16 => "FP16",
            WeightFormat::Fp8 => "FP8",
            WeightFormat::Int8 => "INT8",
            WeightFormat::Awq => "AWQ 4-bit",
            WeightFormat::Gptq => "GPTQ 4-bit",
            WeightFormat::Q8_0 => "GGUF Q8_0",
            WeightFormat::Q5KM => "GGUF Q5_K_M",
            WeightFormat::Q4KM => "GGUF Q4_K_M",
            WeightFormat::Mxfp4 => "MXFP4",
            WeightFormat::Nf4 => "NF4",
            WeightFormat::AsPublished => "as published",
        }
    }

    /// Parses a name, case-insensitively, ignoring `-` vs `_`.
    ///
    /// ```
    /// use vramfit_core::scenario::WeightFormat;
    /// assert_eq!(WeightFormat::from_name("Q4_K_M"), Some(WeightFormat::Q4KM));
    /// assert_eq!(WeightFormat::from_name("as-published"), Some(WeightFormat::AsPublished));
    /// assert_eq!(WeightFormat::from_name("int3"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<WeightFormat> {
        let key = name.trim().to_ascii_lowercase().replace('-', "_");
        WeightFormat::ALL.into_iter().find(|f| f.id() == key)
    }

    /// Bits per weight in thousandths, or `None` for
    /// [`WeightFormat::AsPublished`], whose cost depends on the checkpoint.
    pub const fn milli_bits(self) -> Option<u64> {
        match self {
            WeightFormat::Fp32 => Some(32_000),
            WeightFormat::Bf16 | WeightFormat::Fp16 => Some(16_000),
            WeightFormat::Fp8 | WeightFormat::Int8 => Some(8_000),
            WeightFormat::Awq | WeightFormat::Gptq => Some(4_160),
            WeightFormat::Q8_0 => Some(8_500),
            WeightFormat::Q5KM => Some(5_700),
            WeightFormat::Q4KM => Some(4_890),
            WeightFormat::Mxfp4 => Some(4_250),
            WeightFormat::Nf4 => Some(4_127),
            WeightFormat::AsPublished => None,
        }
    }

    /// Whether the format keeps the embeddings and the output head at 16
    /// bits (seed 001: "8-bit en 4-bit formaten houden de embeddings en de
    /// output-head op 16 bits").
    pub const fn keeps_embeddings_at_16_bits(self) -> bool {
        matches!(self.milli_bits(), Some(bits) if bits < 16_000)
    }
}
