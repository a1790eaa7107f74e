//! ggml's tensor types: how many values one block holds and how many bytes
//! it takes.
//!
//! Every size of the `llamacpp` method is built from [`GgmlType::row_bytes`]: a
//! quantized row is a whole number of blocks, each block a fixed number of
//! bytes. The table is ggml's own (`ggml/src/ggml-common.h`, the `block_*`
//! structs and their `static_assert`s on `sizeof`; `ggml/src/ggml.c`,
//! `type_traits[]`: `blck_size` and `type_size`).

use serde::{Deserialize, Serialize};

/// A ggml tensor type (the subset the `llamacpp` method produces or caches in).
///
/// Names follow ggml's spelling (`q4_K`, `iq4_nl`), which is what llama.cpp
/// prints and what `--cache-type-k` accepts.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GgmlType {
    F32,
    F16,
    BF16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    #[serde(rename = "q2_K")]
    Q2_K,
    #[serde(rename = "q3_K")]
    Q3_K,
    #[serde(rename = "q4_K")]
    Q4_K,
    #[serde(rename = "q5_K")]
    Q5_K,
    #[serde(rename = "q6_K")]
    Q6_K,
    IQ4_NL,
    IQ4_XS,
    MXFP4,
    #[serde(rename = "iq2_xxs")]
    IQ2_XXS,
    #[serde(rename = "iq2_xs")]
    IQ2_XS,
    #[serde(rename = "iq2_s")]
    IQ2_S,
    #[serde(rename = "iq3_xxs")]
    IQ3_XXS,
    #[serde(rename = "iq3_s")]
    IQ3_S,
    #[serde(rename = "iq1_s")]
    IQ1_S,
    #[serde(rename = "iq1_m")]
    IQ1_M,
    #[serde(rename = "tq1_0")]
    TQ1_0,
    #[serde(rename = "tq2_0")]
    TQ2_0,
    #[serde(rename = "i8")]
    I8,
    #[serde(rename = "i16")]
    I16,
    #[serde(rename = "i32")]
    I32,
    #[serde(rename = "i64")]
    I64,
    #[serde(rename = "f64")]
    F64,
}

/// The types `--cache-type-k` / `--cache-type-v` accept (llama.cpp
/// `common/arg.cpp`, `kv_cache_types`).
pub const CACHE_TYPES: [GgmlType; 9] = [
    GgmlType::F32,
    GgmlType::F16,
    GgmlType::BF16,
    GgmlType::Q8_0,
    GgmlType::Q4_0,
    GgmlType::Q4_1,
    GgmlType::IQ4_NL,
    GgmlType::Q5_0,
    GgmlType::Q5_1,
];

impl GgmlType {
    /// Every type of the table.
    pub const ALL: [GgmlType; 30] = [
        GgmlType::F32,
        GgmlType::F16,
        GgmlType::BF16,
        GgmlType::Q4_0,
        GgmlType::Q4_1,
        GgmlType::Q5_0,
        GgmlType::Q5_1,
        GgmlType::Q8_0,
        GgmlType::Q2_K,
        GgmlType::Q3_K,
        GgmlType::Q4_K,
        GgmlType::Q5_K,
        GgmlType::Q6_K,
        GgmlType::IQ4_NL,
        GgmlType::IQ4_XS,
        GgmlType::MXFP4,
        GgmlType::IQ2_XXS,
        GgmlType::IQ2_XS,
        GgmlType::IQ2_S,
        GgmlType::IQ3_XXS,
        GgmlType::IQ3_S,
        GgmlType::IQ1_S,
        GgmlType::IQ1_M,
        GgmlType::TQ1_0,
        GgmlType::TQ2_0,
        GgmlType::I8,
        GgmlType::I16,
        GgmlType::I32,
        GgmlType::I64,
        GgmlType::F64,
    ];

    /// Values per block (`blck_size`): 1 for plain floats, 32 for the
    /// legacy and 4-bit non-linear blocks, 256 (`QK_K`) for k-quant
    /// super-blocks and `iq4_xs`.
    pub const fn block_size(self) -> u64 {
        match self {
            GgmlType::F32
            | GgmlType::F16
            | GgmlType::BF16
            | GgmlType::I8
            | GgmlType::I16
            | GgmlType::I32
            | GgmlType::I64
            | GgmlType::F64 => 1,
            GgmlType::Q4_0
            | GgmlType::Q4_1
            | GgmlType::Q5_0
            | GgmlType::Q5_1
            | GgmlType::Q8_0
            | GgmlType::IQ4_NL
            | GgmlType::MXFP4 => 32,
            GgmlType::Q2_K
            | GgmlType::Q3_K
            | GgmlType::Q4_K
            | GgmlType::Q5_K
            | GgmlType::Q6_K
            | GgmlType::IQ4_XS
            | GgmlType::IQ2_XXS
            | GgmlType::IQ2_XS
            | GgmlType::IQ2_S
            | GgmlType::IQ3_XXS
            | GgmlType::IQ3_S
            | GgmlType::IQ1_S
            | GgmlType::IQ1_M
            | GgmlType::TQ1_0
            | GgmlType::TQ2_0 => 256,
        }
    }

    /// Bytes per block (`type_size`, `sizeof(block_*)`):
    ///
    /// | type | layout of one block | bytes / values |
    /// |---|---|---|
    /// | f32, f16, bf16 | one value | 4/1, 2/1, 2/1 |
    /// | q4_0 | fp16 scale + 32 nibbles | 18/32 |
    /// | q4_1 | fp16 scale + fp16 min + 32 nibbles | 20/32 |
    /// | q5_0 | fp16 scale + 32 high bits + 32 nibbles | 22/32 |
    /// | q5_1 | fp16 scale + fp16 min + 32 high bits + 32 nibbles | 24/32 |
    /// | q8_0 | fp16 scale + 32 bytes | 34/32 |
    /// | q2_K | 16 scale bytes + 64 quant bytes + 2 fp16 | 84/256 |
    /// | q3_K | 32 high-bit bytes + 64 quant bytes + 12 scales + fp16 | 110/256 |
    /// | q4_K | 2 fp16 + 12 scales + 128 nibbles | 144/256 |
    /// | q5_K | 2 fp16 + 12 scales + 32 high-bit bytes + 128 nibbles | 176/256 |
    /// | q6_K | 128 low nibbles + 64 high bits + 16 scales + fp16 | 210/256 |
    /// | iq4_nl | fp16 scale + 16 bytes | 18/32 |
    /// | iq4_xs | fp16 + u16 high scales + 4 low scales + 128 nibbles | 136/256 |
    /// | mxfp4 | E8M0 scale + 16 bytes | 17/32 |
    /// | iq2_xxs | fp16 + 32 u16 grid indices | 66/256 |
    /// | iq2_xs | fp16 + 32 u16 indices + 8 scales | 74/256 |
    /// | iq2_s | fp16 + 64 indices + 8 high bits + 8 scales | 82/256 |
    /// | iq3_xxs | fp16 + 96 bytes | 98/256 |
    /// | iq3_s | fp16 + 64 indices + 8 high bits + 32 signs + 4 scales | 110/256 |
    /// | iq1_s | fp16 + 32 indices + 16 u16 high bits | 50/256 |
    /// | iq1_m | 32 indices + 16 high bits + 8 scales (no fp16) | 56/256 |
    /// | tq1_0 | 48 base-3 bytes + 4 bytes + fp16 | 54/256 |
    /// | tq2_0 | 64 bytes + fp16 | 66/256 |
    /// | i8, i16, i32, i64, f64 | one value | 1, 2, 4, 8, 8 |
    pub const fn type_size(self) -> u64 {
        match self {
            GgmlType::F32 => 4,
            GgmlType::F16 | GgmlType::BF16 => 2,
            GgmlType::Q4_0 | GgmlType::IQ4_NL => 18,
            GgmlType::Q4_1 => 20,
            GgmlType::Q5_0 => 22,
            GgmlType::Q5_1 => 24,
            GgmlType::Q8_0 => 34,
            GgmlType::MXFP4 => 17,
            GgmlType::Q2_K => 84,
            GgmlType::Q3_K => 110,
            GgmlType::Q4_K => 144,
            GgmlType::Q5_K => 176,
            GgmlType::Q6_K => 210,
            GgmlType::IQ4_XS => 136,
            GgmlType::IQ2_XXS => 66,
            GgmlType::IQ2_XS => 74,
            GgmlType::IQ2_S => 82,
            GgmlType::IQ3_XXS => 98,
            GgmlType::IQ3_S => 110,
            GgmlType::IQ1_S => 50,
            GgmlType::IQ1_M => 56,
            GgmlType::TQ1_0 => 54,
            GgmlType::TQ2_0 => 66,
            GgmlType::I8 => 1,
            GgmlType::I16 => 2,
            GgmlType::I32 => 4,
            GgmlType::I64 => 8,
            GgmlType::F64 => 8,
        }
    }

    /// ggml's name (`ggml_type_name`), as llama.cpp prints it and as the
    /// cache-type flags take it.
    pub const fn name(self) -> &'static str {
        match self {
            GgmlType::F32 => "f32",
            GgmlType::F16 => "f16",
            GgmlType::BF16 => "bf16",
            GgmlType::Q4_0 => "q4_0",
            GgmlType::Q4_1 => "q4_1",
            GgmlType::Q5_0 => "q5_0",
            GgmlType::Q5_1 => "q5_1",
            GgmlType::Q8_0 => "q8_0",
            GgmlType::Q2_K => "q2_K",
            GgmlType::Q3_K => "q3_K",
            GgmlType::Q4_K => "q4_K",
            GgmlType::Q5_K => "q5_K",
            GgmlType::Q6_K => "q6_K",
            GgmlType::IQ4_NL => "iq4_nl",
            GgmlType::IQ4_XS => "iq4_xs",
            GgmlType::MXFP4 => "mxfp4",
            GgmlType::IQ2_XXS => "iq2_xxs",
            GgmlType::IQ2_XS => "iq2_xs",
            GgmlType::IQ2_S => "iq2_s",
            GgmlType::IQ3_XXS => "iq3_xxs",
            GgmlType::IQ3_S => "iq3_s",
            GgmlType::IQ1_S => "iq1_s",
            GgmlType::IQ1_M => "iq1_m",
            GgmlType::TQ1_0 => "tq1_0",
            GgmlType::TQ2_0 => "tq2_0",
            GgmlType::I8 => "i8",
            GgmlType::I16 => "i16",
            GgmlType::I32 => "i32",
            GgmlType::I64 => "i64",
            GgmlType::F64 => "f64",
        }
    }

    /// A type by ggml's name, without regard to case.
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::GgmlType;
    /// assert_eq!(GgmlType::parse("Q8_0"), Some(GgmlType::Q8_0));
    /// assert_eq!(GgmlType::parse("q4_k"), Some(GgmlType::Q4_K));
    /// assert_eq!(GgmlType::parse("q9_0"), None);
    /// ```
    pub fn parse(name: &str) -> Option<GgmlType> {
        GgmlType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// A KV cache type, by name: one of [`CACHE_TYPES`].
    pub fn parse_cache(name: &str) -> Option<GgmlType> {
        GgmlType::parse(name).filter(|t| CACHE_TYPES.contains(t))
    }

    /// Whether the type is block-quantized (`ggml_is_quantized`): every
    /// type of more than one value per block (not the floats, not the
    /// integers).
    pub const fn is_quantized(self) -> bool {
        self.block_size() > 1
    }

    /// The type's number in a GGUF file (`enum ggml_type`, `ggml/include/ggml.h`;
    /// numbers 4, 5, 31–33 and 36–38 belong to removed types).
    pub const fn id(self) -> u32 {
        match self {
            GgmlType::F32 => 0,
            GgmlType::F16 => 1,
            GgmlType::Q4_0 => 2,
            GgmlType::Q4_1 => 3,
            GgmlType::Q5_0 => 6,
            GgmlType::Q5_1 => 7,
            GgmlType::Q8_0 => 8,
            GgmlType::Q2_K => 10,
            GgmlType::Q3_K => 11,
            GgmlType::Q4_K => 12,
            GgmlType::Q5_K => 13,
            GgmlType::Q6_K => 14,
            GgmlType::IQ2_XXS => 16,
            GgmlType::IQ2_XS => 17,
            GgmlType::IQ3_XXS => 18,
            GgmlType::IQ1_S => 19,
            GgmlType::IQ4_NL => 20,
            GgmlType::IQ3_S => 21,
            GgmlType::IQ2_S => 22,
            GgmlType::IQ4_XS => 23,
            GgmlType::I8 => 24,
            GgmlType::I16 => 25,
            GgmlType::I32 => 26,
            GgmlType::I64 => 27,
            GgmlType::F64 => 28,
            GgmlType::IQ1_M => 29,
            GgmlType::BF16 => 30,
            GgmlType::TQ1_0 => 34,
            GgmlType::TQ2_0 => 35,
            GgmlType::MXFP4 => 39,
        }
    }

    /// The type a GGUF file numbers `id`, `None` for a number outside the
    /// table (a removed type, or one newer than it).
    pub fn from_id(id: u32) -> Option<GgmlType> {
        GgmlType::ALL.into_iter().find(|t| t.id() == id)
    }

    /// Bytes of one row of `n` values, or `None` when `n` is not a whole
    /// number of blocks (ggml refuses such a row).
    ///
    /// # Formula
    ///
    /// ```text
    /// row_bytes(t, n) = n / blck(t) × size(t)      (n mod blck(t) = 0)
    /// ```
    ///
    /// `blck(t)` values per block ([`GgmlType::block_size`]), `size(t)`
    /// bytes per block ([`GgmlType::type_size`]). Source: ggml
    /// `ggml/src/ggml.c`, `ggml_row_size`.
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::GgmlType;
    /// assert_eq!(GgmlType::Q8_0.row_bytes(4096), Some(4352)); // 128 blocks × 34 B
    /// assert_eq!(GgmlType::Q4_K.row_bytes(4096), Some(2304)); // 16 × 144 B
    /// assert_eq!(GgmlType::Q4_K.row_bytes(896), None); // 3.5 super-blocks
    /// ```
    pub const fn row_bytes(self, n: u64) -> Option<u64> {
        let block = self.block_size();
        if !n.is_multiple_of(block) {
            return None;
        }
        (n / block).checked_mul(self.type_size())
    }

    /// Bytes of a tensor of shape `ne` (`ne[0]` the row length): whole
    /// rows times the number of rows (`ggml_nbytes` of a contiguous
    /// tensor). `None` when the row is not a whole number of blocks or the
    /// product overflows.
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::GgmlType;
    /// // Llama-3.1-8B token_embd in q4_K: 128256 rows of 4096 values.
    /// assert_eq!(GgmlType::Q4_K.tensor_bytes([4096, 128_256, 1]), Some(295_501_824));
    /// ```
    pub fn tensor_bytes(self, ne: [u64; 3]) -> Option<u64> {
        self.nbytes(&ne)
    }

    /// Bytes of a contiguous tensor of any number of dimensions, as a GGUF
    /// header lists them (`ne[0]` the row length).
    ///
    /// # Formula
    ///
    /// ```text
    /// nbytes(t, ne) = row_bytes(t, ne[0]) × ne[1] × … × ne[n−1]
    /// ```
    ///
    /// Source: ggml `ggml/src/ggml.c`, `ggml_nbytes` (blocked rows).
    /// `None` for no dimension, a row of no whole blocks, or an overflow.
    ///
    /// ```
    /// use vramfit_core::gguf::GgmlType;
    /// // A patch embedding [14, 14, 3, 1152] in f16: 677,376 values.
    /// assert_eq!(GgmlType::F16.nbytes(&[14, 14, 3, 1152]), Some(1_354_752));
    /// assert_eq!(GgmlType::Q4_K.nbytes(&[100, 2]), None);
    /// ```
    pub fn nbytes(self, ne: &[u64]) -> Option<u64> {
        let (&row, rest) = ne.split_first()?;
        rest.iter()
            .try_fold(self.row_bytes(row)?, |acc, &n| acc.checked_mul(n))
    }
}

impl std::fmt::Display for GgmlType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_per_value_match_ggml_comments() {
        // ggml-common.h states the effective bits per weight of each
        // k-quant next to its struct; 1000 × 8 × size / block.
        let milli_bits = |t: GgmlType| 8_000 * t.type_size() / t.block_size();
        assert_eq!(milli_bits(GgmlType::Q2_K), 2_625);
        assert_eq!(milli_bits(GgmlType::Q3_K), 3_437); // 3.4375
        assert_eq!(milli_bits(GgmlType::Q4_K), 4_500);
        assert_eq!(milli_bits(GgmlType::Q5_K), 5_500);
        assert_eq!(milli_bits(GgmlType::Q6_K), 6_562); // 6.5625
        assert_eq!(milli_bits(GgmlType::Q8_0), 8_500);
        assert_eq!(milli_bits(GgmlType::IQ4_XS), 4_250);
        assert_eq!(milli_bits(GgmlType::MXFP4), 4_250);
    }

    #[test]
    fn names_round_trip_and_cache_types_are_the_flag_list() {
        for t in GgmlType::ALL {
            assert_eq!(GgmlType::parse(t.name()), Some(t));
        }
        assert_eq!(GgmlType::parse_cache("iq4_nl"), Some(GgmlType::IQ4_NL));
        assert_eq!(GgmlType::parse_cache("q4_K"), None, "not a cache type");
        assert_eq!(CACHE_TYPES.len(), 9);
    }

    #[test]
    fn file_numbers_round_trip_and_match_ggml() {
        for t in GgmlType::ALL {
            assert_eq!(GgmlType::from_id(t.id()), Some(t));
        }
        // Numbers of removed types (q4_2, q4_0_4_4) and past the table.
        for id in [4, 5, 9, 15, 31, 36, 40, 1000] {
            assert_eq!(GgmlType::from_id(id), None, "{id}");
        }
        assert_eq!(GgmlType::from_id(12), Some(GgmlType::Q4_K));
        assert_eq!(GgmlType::IQ2_XXS.row_bytes(4096), Some(16 * 66));
        assert!(!GgmlType::I32.is_quantized() && GgmlType::IQ1_M.is_quantized());
    }

    #[test]
    fn rows_must_be_whole_blocks() {
        assert_eq!(GgmlType::F16.row_bytes(3), Some(6));
        assert_eq!(GgmlType::Q4_0.row_bytes(48), None);
        assert_eq!(GgmlType::Q4_0.row_bytes(64), Some(36));
        assert_eq!(GgmlType::IQ4_XS.row_bytes(512), Some(272));
        assert_eq!(GgmlType::Q8_0.tensor_bytes([32, u64::MAX, 2]), None);
    }
}
