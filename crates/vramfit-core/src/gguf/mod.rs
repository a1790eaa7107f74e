//! GGUF's vocabulary and files: the file types `llama-quantize` writes
//! ([`FileType`]), ggml's tensor types with their block sizes
//! ([`GgmlType`]), and a file's own header ([`header`]: read from the
//! file's first bytes, shard by shard for split files, [`split`]; a prefix
//! at a time for any front end that fetches bytes, [`prefix`]).
//!
//! The names and byte counts are not a method: the scenario names a GGUF
//! file type or a KV cache type with them, and the `llamacpp` method sizes
//! tensors with them.

pub mod ftype;
pub mod ggml_type;
pub mod header;
pub mod model;
pub mod prefix;
pub mod split;
pub mod value;
pub mod writer;

#[cfg(test)]
mod tests;

pub use ftype::FileType;
pub use ggml_type::{GgmlType, CACHE_TYPES};
pub use header::{GgufError, GgufHeader, TensorInfo};
pub use value::{Value, ValueType};
