//! Why the `llamacpp` method does not estimate a request: typed, with the
//! data a front end needs to say it.

use super::arch::LayoutProblem;
use super::ggml_type::GgmlType;
use crate::model::Family;
use serde::Serialize;

/// A request the `llamacpp` method refuses rather than guesses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LlamaCppRefusal {
    /// An architecture whose GGUF tensor layout this method has not
    /// derived from llama.cpp's loader and converter.
    UnsupportedArchitecture {
        model_type: Option<String>,
        family: Family,
    },
    /// A supported architecture with a part this method has not derived
    /// (named in `what`), e.g. dense layers in a Qwen3-MoE.
    UnsupportedLayout {
        model_type: Option<String>,
        what: LayoutProblem,
    },
    /// `--cache-type-v` is quantized but flash attention is off: llama.cpp
    /// refuses to create such a context (`llama_init_from_model`).
    QuantizedVNeedsFlashAttention { cache_type_v: GgmlType },
    /// A cache row is not a whole number of blocks of the cache type
    /// (ggml cannot create the tensor).
    CacheRowNotBlocks {
        cache_type: GgmlType,
        row: u64,
        block: u64,
    },
    /// A tensor whose row length fits neither the chosen type nor any
    /// fallback: `llama-quantize` stops (`tensor_type_fallback`).
    NoTypeFallback {
        tensor: String,
        row: u64,
        ggml_type: GgmlType,
    },
    /// An input outside what llama.cpp accepts.
    InvalidInput { field: &'static str, reason: String },
}

impl std::fmt::Display for LlamaCppRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LlamaCppRefusal::UnsupportedArchitecture { model_type, family } => write!(
                f,
                "the llama.cpp tensor layout of {} ({family:?}) is not derived; supported: \
                 llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, \
                 gemma3, phi3, deepseek_v2, deepseek_v3, gpt_oss, olmo2, gpt2",
                model_type.as_deref().unwrap_or("this model")
            ),
            LlamaCppRefusal::UnsupportedLayout { model_type, what } => write!(
                f,
                "{} has {what}, which the llama.cpp layout of its architecture does not hold",
                model_type.as_deref().unwrap_or("the model")
            ),
            LlamaCppRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => write!(
                f,
                "a {cache_type_v} V cache needs flash attention (-fa on); llama.cpp refuses it without"
            ),
            LlamaCppRefusal::CacheRowNotBlocks {
                cache_type,
                row,
                block,
            } => write!(
                f,
                "a cache row of {row} values is not a whole number of {cache_type} blocks of {block}"
            ),
            LlamaCppRefusal::NoTypeFallback {
                tensor,
                row,
                ggml_type,
            } => write!(
                f,
                "{tensor}: rows of {row} values fit no block of {ggml_type}; llama-quantize stops"
            ),
            LlamaCppRefusal::InvalidInput { field, reason } => write!(f, "{field}: {reason}"),
        }
    }
}

impl std::error::Error for LlamaCppRefusal {}
