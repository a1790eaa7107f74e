//! Calibration from a user's own engine log: which engine printed it
//! ([`detect`]), then that engine's reader (`vllm.rs`: `vllm serve`
//! start-up logs).

pub mod vllm;

use serde::Serialize;

/// The engine a log comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogEngine {
    Vllm,
}

/// The engine whose lines `text` holds, if any: vLLM's start-up lines
/// ("Model loading took", "Available KV cache memory", its V0 "Loading
/// model weights took").
///
/// ```
/// use vramfit_core::calibrate::{detect, LogEngine};
/// assert_eq!(detect("INFO [gpu_worker.py:276] Available KV cache memory: 5.01 GiB"), Some(LogEngine::Vllm));
/// assert_eq!(detect("hello"), None);
/// ```
pub fn detect(text: &str) -> Option<LogEngine> {
    let vllm = [
        "Model loading took",
        "Loading model weights took",
        "Available KV cache memory",
        "GPU KV cache size",
        "vLLM API server version",
        "Initializing a V1 LLM engine",
    ];
    vllm.iter()
        .any(|line| text.contains(line))
        .then_some(LogEngine::Vllm)
}
