//! Calibration from a user's own engine log: which engine printed it
//! ([`detect`]), then that engine's reader (`vllm.rs`: `vllm serve`
//! start-up logs; `llamacpp.rs`: llama.cpp load logs, from `llama-server`,
//! `llama-cli` and the runners built on it).

pub mod llamacpp;
pub mod llamacpp_fit;
pub mod ollama;
pub mod vllm;

use serde::Serialize;

/// The engine a log comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LogEngine {
    Vllm,
    /// llama.cpp (`llama-server`, `llama-cli`, the runners built on it).
    Llamacpp,
}

/// The engine whose lines `text` holds, if any: vLLM's start-up lines
/// ("Model loading took", "Available KV cache memory", its V0 "Loading
/// model weights took"), else llama.cpp's load lines (`load_tensors:`,
/// `llama_context:`, …). vLLM is asked first: its logs never carry
/// llama.cpp's function prefixes, while a llama.cpp log can quote any text.
///
/// ```
/// use vramfit_core::calibrate::{detect, LogEngine};
/// assert_eq!(detect("INFO [gpu_worker.py:276] Available KV cache memory: 5.01 GiB"), Some(LogEngine::Vllm));
/// assert_eq!(detect("load_tensors: offloaded 33/33 layers to GPU"), Some(LogEngine::Llamacpp));
/// assert_eq!(detect(r#"msg="kv cache" device=CUDA0 size="1.0 GiB""#), Some(LogEngine::Llamacpp));
/// assert_eq!(detect("hello"), None);
/// ```
pub fn detect(text: &str) -> Option<LogEngine> {
    const VLLM: [&str; 6] = [
        "Model loading took",
        "Loading model weights took",
        "Available KV cache memory",
        "GPU KV cache size",
        "vLLM API server version",
        "Initializing a V1 LLM engine",
    ];
    const LLAMACPP: [&str; 5] = [
        "llama_model_loader:",
        "load_tensors:",
        "llama_context:",
        "llama_kv_cache",
        "llama_new_context_with_model:",
    ];
    let holds = |lines: &[&str]| lines.iter().any(|line| text.contains(line));
    if holds(&VLLM) {
        Some(LogEngine::Vllm)
    } else if holds(&LLAMACPP) || ollama::is_ollama(text) {
        Some(LogEngine::Llamacpp)
    } else {
        None
    }
}
