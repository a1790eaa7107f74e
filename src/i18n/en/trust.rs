//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format, and the core's ids in words.

use vramfit_core::model::Family;
use vramfit_core::scenario::{Knob, Layout, Optimizer, WeightFormat};

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("The method changed from {from} to {to}.")
}

pub(super) const SWITCH_PREFERRED: &str = "It is the most complete method for this model and mode.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str =
    "The method you had chosen does not estimate this.";
pub(super) const SWITCH_UNDO: &str = "Undo";
pub(super) const SUMMARY_PUBLISHED: &str = "Published";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| format!(", vision tower {v} included"));
    format!("{format}: {bytes} of weights{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("includes the vision tower ({bytes})")
}

pub(super) fn chart_model_max(n: &str) -> String {
    format!("The axis ends at the model's maximum context: {n} tokens (max_position_embeddings).")
}

pub(super) const ANSWER_MODEL_MAX: &str = "(the model's maximum, max_position_embeddings)";
pub(super) const ANSWER_INPUT_MAX: &str = "(the largest value accepted; more may fit)";

pub(super) fn context_over_model_max(n: &str) -> String {
    format!("Above the model's maximum context ({n} tokens, max_position_embeddings): it was not trained for this length.")
}

pub(super) const STALE_FIGURES: &str = "The figures below are those of the last input that worked; they do not answer the current one.";
pub(super) const WAY_OUT_METHODS: &str = "Methods that estimate this:";
pub(super) const WAY_OUT_NONE: &str =
    "No method estimates this input: change the mode, the model or the GPUs.";
pub(super) const WAY_OUT_LAYOUT: &str = "Let vramfit derive TP and PP from the GPU count";
pub(super) const WAY_OUT_ONE_GPU: &str = "Use one GPU";
pub(super) const WAY_OUT_FIELD: &str =
    "Correct the field marked in red: its hint says what it accepts.";
pub(super) const WAY_OUT_MODEL: &str =
    "Choose a model (catalog, config.json or Hub), or another weight format.";

pub(super) fn total_per_gpu(n: u64) -> String {
    match n {
        0 | 1 => "Estimated total (one GPU)".to_string(),
        n => format!("Per GPU (each of {n})"),
    }
}

pub(super) fn total_all_gpus(n: u64, bytes: &str) -> String {
    format!("All {n} GPUs: {bytes}")
}

pub(super) const COL_GPUS: &str = "GPUs";
pub(super) const COL_ALL_GPUS: &str = "All GPUs";

pub(super) const USE_CACHE: &str = "KV cache in the forward (use_cache, transformers' default)";

/// A planner knob in words (its JSON key is `planner.<key>`).
pub(super) fn knob_name(knob: Knob) -> &'static str {
    match knob {
        Knob::ActivationK => "The planner's activation factor K",
        Knob::EngineContextGb => "The engine context per GPU",
        Knob::MarginPct => "The planner's margin",
        Knob::ReservePct => "The planner's reserve",
        Knob::QuantMetadataPct => "The quantization metadata",
        Knob::KvBlockTokens => "Tokens per KV block",
        Knob::PrefillBudgetTokens => "The prefill budget",
        Knob::SharedPrefixTokens => "The shared prompt prefix",
        Knob::GradientBytes => "Bytes per gradient",
        Knob::Machines => "The number of machines",
        Knob::BatchLimit => "The engine's largest batch",
        Knob::OffloadGb => "Offloaded weights",
        Knob::HiddenSize => "The hidden size",
        Knob::VocabSize => "The vocabulary size",
        Knob::AttentionHeads => "The number of attention heads",
        Knob::UnquantizedParamsB => "Unquantized parameters (U)",
        Knob::Fp32ParamsB => "FP32 parameters (U32)",
        Knob::PromptTokens => "The prompt tokens of the speed estimate",
        Knob::TargetTokensPerS => "The target tokens per second per user",
    }
}

/// A model family by its published name; an unknown one in words.
pub(super) fn family_name(family: Family) -> &'static str {
    match family {
        Family::Generic => "an unknown model type (read as a Llama-style decoder)",
        named => named.name(),
    }
}

/// An optimizer by its name.
pub(super) fn optimizer_name(optimizer: Optimizer) -> &'static str {
    match optimizer {
        Optimizer::AdamW => "AdamW",
        Optimizer::Sgd => "SGD",
    }
}

/// A weight format's label, "as published" in this language.
pub(super) fn weight_format_label(
    format: WeightFormat,
    as_published: &'static str,
) -> &'static str {
    match format {
        WeightFormat::AsPublished => as_published,
        named => named.label(),
    }
}

pub(super) const FIELD_AUTO: &str = "auto";

pub(super) fn layout_summary(l: &Layout) -> String {
    let copies = match l.replicas {
        1 => "one copy of the model".to_string(),
        n => format!("{n} copies of the model"),
    };
    let how = if l.derived {
        ", derived from the GPU count"
    } else {
        ""
    };
    format!("{} GPUs: TP {} × PP {}, {copies}{how}.", l.gpus, l.tp, l.pp)
}

pub(super) fn published_beside_name(format: &str, bytes: &str) -> String {
    format!("published in {format}, {bytes} of weights")
}

pub(super) fn quant_not_in_config(word: &str) -> String {
    format!(
        "The model's name says {word}, but config.json has no quantization_config, so its weights are counted unquantized. An NVIDIA ModelOpt export states its quantization in hf_quant_config.json: paste it in the field below the config."
    )
}
