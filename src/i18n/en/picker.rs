//! English: the first screen's question, the model search and the
//! engine picker's words.

use vramfit_core::methods::MethodId;

pub(super) const FIRST_QUESTION: &str = "What do you want to run, and on which GPU?";
pub(super) const MODEL_SEARCH_LABEL: &str = "Model";
pub(super) const MODEL_SEARCH_PLACEHOLDER: &str = "Search: qwen3 30b, llama 70b, gemma…";
pub(super) const MODEL_SEARCH_NONE: &str = "No catalog model matches.";
pub(super) const ENGINE_LABEL: &str = "What runs it";
pub(super) const OTHER_ESTIMATES: &str = "Other estimates";

/// The engines by their own names; the seeds' methods by what they do.
pub(super) fn method_plain(method: MethodId) -> &'static str {
    match method {
        MethodId::Vllm => "vLLM",
        MethodId::Llamacpp => "llama.cpp",
        MethodId::Allocator => "PyTorch / transformers",
        MethodId::Quick => "Rule of thumb",
        MethodId::Lesson => "Step by step (the course)",
        MethodId::Range => "Low–high range",
        MethodId::Planner => "Deployment plan",
    }
}

pub(super) fn gpu_picked(name: &str, memory: &str, others: &str) -> String {
    match others.is_empty() {
        true => format!("Counted: {name}, {memory}."),
        false => format!("Counted: {name}, {memory}. Also in the catalog: {others}."),
    }
}

pub(super) fn host_layers(n: u64, of: u64) -> String {
    format!("Partly offloaded: {n} of {of} layers run from host memory.")
}
