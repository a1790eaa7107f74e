//! Calibration from a pasted engine log: which engine printed it, and each
//! engine's reader.

pub mod llamacpp;

/// The engine that printed a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogEngine {
    /// llama.cpp (`llama-server`, `llama-cli`, the runners built on it).
    Llamacpp,
}

/// The engine a log's lines name, `None` when none is recognised.
///
/// ```
/// use vramfit_core::calibrate::{detect, LogEngine};
/// assert_eq!(detect("load_tensors: offloaded 33/33 layers to GPU"), Some(LogEngine::Llamacpp));
/// assert_eq!(detect("hello"), None);
/// ```
pub fn detect(text: &str) -> Option<LogEngine> {
    const LLAMACPP: [&str; 5] = [
        "llama_model_loader:",
        "load_tensors:",
        "llama_context:",
        "llama_kv_cache",
        "llama_new_context_with_model:",
    ];
    LLAMACPP
        .iter()
        .any(|m| text.contains(m))
        .then_some(LogEngine::Llamacpp)
}
