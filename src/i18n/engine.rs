//! The wording of the two engine methods (`vllm`, `llamacpp`): their
//! summaries and how to read them, the engine panel of the results, the
//! engine's knobs, notes and refusals. Every language fills every field
//! ([`EngineTexts`]), so a missing text, a new note or a new refusal is a
//! compile error.

use super::{FieldText, Interpretation};
use vramfit_core::calibrate::vllm::LogFigure;
use vramfit_core::command::CommandError;
use vramfit_core::methods::engine::{EngineNote, EngineRefusal};
use vramfit_core::methods::speed::Limit;
use vramfit_core::scenario::{EngineError, EngineField};

/// The engine methods' texts in one language.
pub struct EngineTexts {
    /// One line each for the method picker.
    pub vllm_summary: &'static str,
    pub llamacpp_summary: &'static str,
    /// How to read each.
    pub vllm_interpretation: Interpretation,
    pub llamacpp_interpretation: Interpretation,

    // The results panel.
    pub vllm_title: &'static str,
    pub llamacpp_title: &'static str,
    /// The KV cache vLLM allocates (all it has left of the requested memory).
    pub kv_pool: &'static str,
    pub kv_tokens: &'static str,
    /// "58.11 requests of 8,192 tokens at once": concurrency, context.
    pub concurrency: fn(&str, &str) -> String,
    pub concurrency_label: &'static str,
    pub longest_start: &'static str,
    pub cuda_graphs: &'static str,
    pub gpu_total: &'static str,
    /// vLLM starts with these settings.
    pub starts: &'static str,
    /// Before vLLM's own error message.
    pub would_not_start: &'static str,
    pub model_size: &'static str,
    pub k_cache: &'static str,
    pub v_cache: &'static str,
    pub compute_buffers: &'static str,
    pub output_buffer: &'static str,
    pub on_gpu: &'static str,
    pub in_host: &'static str,
    pub layers_label: &'static str,
    /// "33 of 81".
    pub layers: fn(u64, u64) -> String,
    /// llama.cpp runs part of the model from host memory: the layers there,
    /// of how many, and the host bytes ("9 of 49 layers run from host
    /// memory (17.7 GiB)").
    pub offloaded: fn(u64, u64, &str) -> String,
    /// Every layer on the GPU.
    pub all_on_gpu: &'static str,
    pub most_layers: &'static str,
    pub longest_fit: &'static str,
    pub none: &'static str,
    pub command_label: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub note: fn(&EngineNote) -> String,
    /// Why an engine method does not take the scenario.
    pub refusal: fn(&EngineRefusal) -> String,
    /// An engine knob that is not accepted.
    pub knob_error: fn(&EngineError) -> String,

    // The knobs.
    pub knob: fn(EngineField) -> FieldText,
    /// The placeholder of a knob left at the engine's own value.
    pub auto: &'static str,
    pub gguf_label: &'static str,
    pub cache_type_k: &'static str,
    pub cache_type_v: &'static str,
    /// A cache type that follows the KV bytes.
    pub cache_follows: &'static str,
    pub flash_attn: &'static str,
    pub enforce_eager: &'static str,

    // The engine plan's speed, beside the ring.
    pub speed_label: &'static str,
    pub decode: &'static str,
    pub prefill: &'static str,
    pub first_token: &'static str,
    /// What limits decode.
    pub limited_by: fn(Limit) -> String,
    /// The plan runs N repeating layers from host memory.
    pub slower_host: fn(u64) -> String,
    /// Decode once the whole context is in the cache.
    pub decode_at_context: &'static str,
    /// vLLM at the scenario's concurrency: one request alone, each of `n`
    /// requests at once, all `n` together.
    pub decode_alone: &'static str,
    pub decode_each: fn(u64) -> String,
    pub output_all: fn(u64) -> String,

    // Decode against context (the chart under the results).
    pub speed_chart_title: &'static str,
    /// From `a` tokens/s at `lo` tokens to `b` at `hi` (the context set).
    pub speed_chart_sentence: fn(&str, &str, &str, &str) -> String,
    /// The band's column in the chart's table.
    pub speed_chart_band: &'static str,

    /// Why gradient checkpointing is on when training is chosen.
    pub checkpoint_default: &'static str,

    // Paste your command.
    pub paste_label: &'static str,
    pub paste_hint: &'static str,
    pub paste_apply: &'static str,
    /// The command was read: the engine whose method is now selected.
    pub paste_applied: fn(&str) -> String,
    /// Why the command was not read (the inputs stay as they were).
    pub command_error: fn(&CommandError) -> String,

    // vLLM's release, link and start-up log (the engine knobs).
    pub vllm_version_label: &'static str,
    /// The picker's first row: the default release, named.
    pub vllm_version_default: fn(&str) -> String,
    pub interconnect_label: &'static str,
    /// The picker's first row: the link the catalog gives the GPU.
    pub interconnect_usual: fn(&str) -> String,
    pub calibrate_label: &'static str,
    /// One of the figures the core compares (`calibrate::vllm::Compared`).
    pub calibrate_figure: fn(LogFigure) -> &'static str,
    pub calibrate_figure_col: &'static str,
    pub calibrate_logged: &'static str,
    pub calibrate_predicted: &'static str,
    /// The estimate uses the fitted terms (the non-torch offset, signed).
    pub calibrate_applied: fn(&str) -> String,
    pub calibrate_clear: &'static str,
    /// The log lacks a line: vLLM's words, the figure they carry.
    pub calibrate_missing: fn(&str, LogFigure) -> String,
    /// Read, but not fitted (the core's reason).
    pub calibrate_refused: fn(&str) -> String,
}
