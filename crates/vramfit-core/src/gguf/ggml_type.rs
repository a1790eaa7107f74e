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
    pub const ALL: [GgmlType; 16] = [
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
    ];

    /// Values per block (`blck_size`): 1 for plain floats, 32 for the
    /// legacy and 4-bit non-linear blocks, 256 (`QK_K`) for k-quant
    /// super-blocks and `iq4_xs`.
    pub const fn block_size(self) -> u64 {
        match self {
            GgmlType::F32 | GgmlType::F16 | GgmlType::BF16 => 1,
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
            | GgmlType::IQ4_XS => 256,
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
    /// type but f32, f16 and bf16.
    pub const fn is_quantized(self) -> bool {
        !matches!(self, GgmlType::F32 | GgmlType::F16 | GgmlType::BF16)
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
        self.row_bytes(ne[0])?
            .checked_mul(ne[1])?
            .checked_mul(ne[2])
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
    fn rows_must_be_whole_blocks() {
        assert_eq!(GgmlType::F16.row_bytes(3), Some(6));
        assert_eq!(GgmlType::Q4_0.row_bytes(48), None);
        assert_eq!(GgmlType::Q4_0.row_bytes(64), Some(36));
        assert_eq!(GgmlType::IQ4_XS.row_bytes(512), Some(272));
        assert_eq!(GgmlType::Q8_0.tensor_bytes([32, u64::MAX, 2]), None);
    }
}
