//! GGUF file types: the names `llama-quantize` takes and the tensor type
//! each starts from.

use super::ggml_type::GgmlType;
use serde::{Deserialize, Serialize};

/// A GGUF file type (`llama_ftype`), by the name `llama-quantize` takes.
///
/// A file type is a recipe, not one tensor type: `Q4_K_M` stores most
/// matrices in `q4_K`, some in `q6_K`, norms in `f32`
/// (the `llamacpp` method's `quant` module). F16 and BF16 are what `convert_hf_to_gguf.py`
/// writes; the others are what `llama-quantize` makes from them.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FileType {
    F16,
    BF16,
    Q8_0,
    Q6_K,
    Q5_K_M,
    Q5_K_S,
    Q5_0,
    Q5_1,
    Q4_K_M,
    Q4_K_S,
    Q4_0,
    Q4_1,
    IQ4_XS,
    Q3_K_L,
    Q3_K_M,
    Q3_K_S,
    Q2_K,
    /// `MXFP4_MOE`: expert tensors in mxfp4, everything else q8_0.
    MXFP4_MOE,
}

impl FileType {
    /// Every file type, largest first.
    pub const ALL: [FileType; 18] = [
        FileType::F16,
        FileType::BF16,
        FileType::Q8_0,
        FileType::Q6_K,
        FileType::Q5_K_M,
        FileType::Q5_K_S,
        FileType::Q5_1,
        FileType::Q5_0,
        FileType::Q4_K_M,
        FileType::Q4_K_S,
        FileType::Q4_1,
        FileType::Q4_0,
        FileType::IQ4_XS,
        FileType::Q3_K_L,
        FileType::Q3_K_M,
        FileType::Q3_K_S,
        FileType::Q2_K,
        FileType::MXFP4_MOE,
    ];

    /// The name `llama-quantize` takes (`"Q4_K_M"`).
    pub const fn name(self) -> &'static str {
        match self {
            FileType::F16 => "F16",
            FileType::BF16 => "BF16",
            FileType::Q8_0 => "Q8_0",
            FileType::Q6_K => "Q6_K",
            FileType::Q5_K_M => "Q5_K_M",
            FileType::Q5_K_S => "Q5_K_S",
            FileType::Q5_0 => "Q5_0",
            FileType::Q5_1 => "Q5_1",
            FileType::Q4_K_M => "Q4_K_M",
            FileType::Q4_K_S => "Q4_K_S",
            FileType::Q4_0 => "Q4_0",
            FileType::Q4_1 => "Q4_1",
            FileType::IQ4_XS => "IQ4_XS",
            FileType::Q3_K_L => "Q3_K_L",
            FileType::Q3_K_M => "Q3_K_M",
            FileType::Q3_K_S => "Q3_K_S",
            FileType::Q2_K => "Q2_K",
            FileType::MXFP4_MOE => "MXFP4_MOE",
        }
    }

    /// The description llama.cpp prints for the file type
    /// (`llama_model_ftype_name`, e.g. in `llama-bench` tables:
    /// `qwen2 7B Q4_K - Medium`).
    pub const fn printed_name(self) -> &'static str {
        match self {
            FileType::F16 => "F16",
            FileType::BF16 => "BF16",
            FileType::Q8_0 => "Q8_0",
            FileType::Q6_K => "Q6_K",
            FileType::Q5_K_M => "Q5_K - Medium",
            FileType::Q5_K_S => "Q5_K - Small",
            FileType::Q5_0 => "Q5_0",
            FileType::Q5_1 => "Q5_1",
            FileType::Q4_K_M => "Q4_K - Medium",
            FileType::Q4_K_S => "Q4_K - Small",
            FileType::Q4_0 => "Q4_0",
            FileType::Q4_1 => "Q4_1",
            FileType::IQ4_XS => "IQ4_XS - 4.25 bpw",
            FileType::Q3_K_L => "Q3_K - Large",
            FileType::Q3_K_M => "Q3_K - Medium",
            FileType::Q3_K_S => "Q3_K - Small",
            FileType::Q2_K => "Q2_K - Medium",
            FileType::MXFP4_MOE => "MXFP4 MoE",
        }
    }

    /// A file type by name, without regard to case; `MXFP4` is read as
    /// `MXFP4_MOE`.
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::FileType;
    /// assert_eq!(FileType::parse("q4_k_m"), Some(FileType::Q4_K_M));
    /// assert_eq!(FileType::parse("MXFP4"), Some(FileType::MXFP4_MOE));
    /// assert_eq!(FileType::parse("Q4_K"), None);
    /// ```
    pub fn parse(name: &str) -> Option<FileType> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("mxfp4") {
            return Some(FileType::MXFP4_MOE);
        }
        FileType::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The file type a GGUF file's `general.file_type` numbers
    /// (`enum llama_ftype`, `include/llama.h`), `None` for a number
    /// without a recipe here (the i-quants, all-f32, ternary types).
    ///
    /// ```
    /// use vramfit_core::gguf::FileType;
    /// assert_eq!(FileType::from_llama_ftype(15), Some(FileType::Q4_K_M));
    /// assert_eq!(FileType::from_llama_ftype(19), None); // IQ2_XXS
    /// ```
    pub const fn from_llama_ftype(n: u64) -> Option<FileType> {
        Some(match n {
            1 => FileType::F16,
            2 => FileType::Q4_0,
            3 => FileType::Q4_1,
            7 => FileType::Q8_0,
            8 => FileType::Q5_0,
            9 => FileType::Q5_1,
            10 => FileType::Q2_K,
            11 => FileType::Q3_K_S,
            12 => FileType::Q3_K_M,
            13 => FileType::Q3_K_L,
            14 => FileType::Q4_K_S,
            15 => FileType::Q4_K_M,
            16 => FileType::Q5_K_S,
            17 => FileType::Q5_K_M,
            18 => FileType::Q6_K,
            30 => FileType::IQ4_XS,
            32 => FileType::BF16,
            38 => FileType::MXFP4_MOE,
            _ => return None,
        })
    }

    /// The type a tensor gets before the per-tensor rules
    /// (`llama_ftype_get_default_type`, `src/llama-quant.cpp`).
    pub const fn default_type(self) -> GgmlType {
        match self {
            FileType::F16 => GgmlType::F16,
            FileType::BF16 => GgmlType::BF16,
            FileType::Q8_0 => GgmlType::Q8_0,
            FileType::Q6_K => GgmlType::Q6_K,
            FileType::Q5_K_M | FileType::Q5_K_S => GgmlType::Q5_K,
            FileType::Q5_0 => GgmlType::Q5_0,
            FileType::Q5_1 => GgmlType::Q5_1,
            FileType::Q4_K_M | FileType::Q4_K_S => GgmlType::Q4_K,
            FileType::Q4_0 => GgmlType::Q4_0,
            FileType::Q4_1 => GgmlType::Q4_1,
            FileType::IQ4_XS => GgmlType::IQ4_XS,
            FileType::Q3_K_L | FileType::Q3_K_M | FileType::Q3_K_S => GgmlType::Q3_K,
            FileType::Q2_K => GgmlType::Q2_K,
            FileType::MXFP4_MOE => GgmlType::MXFP4,
        }
    }
}

impl std::fmt::Display for FileType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for f in FileType::ALL {
            assert_eq!(FileType::parse(f.name()), Some(f));
            assert_eq!(FileType::parse(&f.name().to_lowercase()), Some(f));
        }
    }

    #[test]
    fn unquantized_file_types_start_from_floats() {
        assert!(!FileType::F16.default_type().is_quantized());
        assert!(!FileType::BF16.default_type().is_quantized());
        assert!(FileType::ALL
            .iter()
            .filter(|f| !matches!(f, FileType::F16 | FileType::BF16))
            .all(|f| f.default_type().is_quantized()));
    }
}
