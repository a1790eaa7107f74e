//! Dutch: the first screen's question, the model search and the
//! engine picker's words.

use vramfit_core::methods::MethodId;

pub(super) const FIRST_QUESTION: &str = "Wat wil je draaien, en op welke GPU?";
pub(super) const MODEL_SEARCH_LABEL: &str = "Model";
pub(super) const MODEL_SEARCH_PLACEHOLDER: &str = "Zoek: qwen3 30b, llama 70b, gemma…";
pub(super) const MODEL_SEARCH_NONE: &str = "Geen model uit de catalogus past.";
pub(super) const ENGINE_LABEL: &str = "Waarmee het draait";
pub(super) const OTHER_ESTIMATES: &str = "Andere schattingen";

/// The engines by their own names; the seeds' methods by what they do.
pub(super) fn method_plain(method: MethodId) -> &'static str {
    match method {
        MethodId::Vllm => "vLLM",
        MethodId::Llamacpp => "llama.cpp",
        MethodId::Allocator => "PyTorch / transformers",
        MethodId::Quick => "Vuistregel",
        MethodId::Lesson => "Stap voor stap (de cursus)",
        MethodId::Range => "Bereik laag–hoog",
        MethodId::Planner => "Uitrolplan",
    }
}

pub(super) fn gpu_picked(name: &str, memory: &str, others: &str) -> String {
    match others.is_empty() {
        true => format!("Gerekend: {name}, {memory}."),
        false => format!("Gerekend: {name}, {memory}. Ook in de catalogus: {others}."),
    }
}

pub(super) fn host_layers(n: u64, of: u64) -> String {
    format!("Deels uitbesteed: {n} van {of} lagen draaien vanuit het hostgeheugen.")
}
