//! Named weight formats and their storage cost in bits per weight, and
//! named KV cache element types.
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

/// How the KV cache stores one element: a named preset of the scenario's
/// `kv_bytes` (which stays the number in JSON and on the CLI's
/// `--kv-bytes`). FP16 and BF16 store the same two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvDtype {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
}

impl KvDtype {
    /// Every name, in the order the CLI lists them.
    pub const ALL: [KvDtype; 6] = [
        KvDtype::Fp32,
        KvDtype::Bf16,
        KvDtype::Fp16,
        KvDtype::Fp8,
        KvDtype::Int8,
        KvDtype::Int4,
    ];

    /// The widths the app offers as buttons, one per width.
    pub const OFFERED: [KvDtype; 3] = [KvDtype::Fp16, KvDtype::Fp8, KvDtype::Int4];

    /// Stable name, as on the CLI (`--kv-dtype fp8`).
    pub const fn id(self) -> &'static str {
        match self {
            KvDtype::Fp32 => "fp32",
            KvDtype::Bf16 => "bf16",
            KvDtype::Fp16 => "fp16",
            KvDtype::Fp8 => "fp8",
            KvDtype::Int8 => "int8",
            KvDtype::Int4 => "int4",
        }
    }

    /// Label for people; the two 16-bit types share one.
    pub const fn label(self) -> &'static str {
        match self {
            KvDtype::Fp32 => "FP32",
            KvDtype::Bf16 | KvDtype::Fp16 => "FP16/BF16",
            KvDtype::Fp8 => "FP8",
            KvDtype::Int8 => "INT8",
            KvDtype::Int4 => "INT4",
        }
    }

    /// Bytes per cached element.
    pub const fn bytes(self) -> f64 {
        match self {
            KvDtype::Fp32 => 4.0,
            KvDtype::Bf16 | KvDtype::Fp16 => 2.0,
            KvDtype::Fp8 | KvDtype::Int8 => 1.0,
            KvDtype::Int4 => 0.5,
        }
    }

    /// Parses a name, case-insensitively.
    ///
    /// ```
    /// use vramfit_core::scenario::KvDtype;
    /// assert_eq!(KvDtype::from_name(" FP8 "), Some(KvDtype::Fp8));
    /// assert_eq!(KvDtype::from_name("int3"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<KvDtype> {
        KvDtype::ALL
            .into_iter()
            .find(|d| d.id().eq_ignore_ascii_case(name.trim()))
    }

    /// The offered button a byte width shows as, if any.
    ///
    /// ```
    /// use vramfit_core::scenario::KvDtype;
    /// assert_eq!(KvDtype::offered_for(2.0), Some(KvDtype::Fp16));
    /// assert_eq!(KvDtype::offered_for(1.5), None);
    /// ```
    pub fn offered_for(bytes: f64) -> Option<KvDtype> {
        KvDtype::OFFERED.into_iter().find(|d| d.bytes() == bytes)
    }
}
