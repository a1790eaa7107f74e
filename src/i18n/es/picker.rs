//! Spanish: the first screen's question, the model search and the
//! engine picker's words.

use vramfit_core::methods::MethodId;

pub(super) const FIRST_QUESTION: &str = "¿Qué quieres ejecutar, y en qué GPU?";
pub(super) const MODEL_SEARCH_LABEL: &str = "Modelo";
pub(super) const MODEL_SEARCH_PLACEHOLDER: &str = "Busca: qwen3 30b, llama 70b, gemma…";
pub(super) const MODEL_SEARCH_NONE: &str = "Ningún modelo del catálogo coincide.";
pub(super) const ENGINE_LABEL: &str = "Con qué se ejecuta";
pub(super) const OTHER_ESTIMATES: &str = "Otras estimaciones";

/// The engines by their own names; the seeds' methods by what they do.
pub(super) fn method_plain(method: MethodId) -> &'static str {
    match method {
        MethodId::Vllm => "vLLM",
        MethodId::Llamacpp => "llama.cpp",
        MethodId::Allocator => "PyTorch / transformers",
        MethodId::Quick => "Regla rápida",
        MethodId::Lesson => "Paso a paso (el curso)",
        MethodId::Range => "Rango bajo–alto",
        MethodId::Planner => "Plan de despliegue",
    }
}

pub(super) fn gpu_picked(name: &str, memory: &str, others: &str) -> String {
    match others.is_empty() {
        true => format!("Se cuenta: {name}, {memory}."),
        false => format!("Se cuenta: {name}, {memory}. También en el catálogo: {others}."),
    }
}

pub(super) fn host_layers(n: u64, of: u64) -> String {
    format!("Descarga parcial: {n} de {of} capas se ejecutan desde la memoria del host.")
}
