//! GGUF's vocabulary: the file types `llama-quantize` writes
//! ([`FileType`]) and ggml's tensor types with their block sizes
//! ([`GgmlType`]).
//!
//! These are names and byte counts, not a method: the scenario names a
//! GGUF file type or a KV cache type with them, and the `llamacpp` method
//! sizes tensors with them.

pub mod ftype;
pub mod ggml_type;

pub use ftype::FileType;
pub use ggml_type::{GgmlType, CACHE_TYPES};
