//! The messages of what the calculator cannot read or estimate: a
//! field, the scenario, a config.json, a method's refusal, the layout,
//! the planner's knobs, a missing speed figure.

use super::{field, num, trust, NUMBER, TEXTS};
use crate::i18n::{format, method_name};
use vramfit_core::catalog::NotFound;
use vramfit_core::methods::planner::NoSpeed;
use vramfit_core::methods::{Feature, Refusal, RunError};
use vramfit_core::model::{ConfigError, ConfigErrorKind};
use vramfit_core::request::RequestError;
use vramfit_core::scenario::{
    InputError, InputProblem, KnobProblem, LayoutError, PlannerError, ScenarioError,
};
use vramfit_core::units::{Bytes, DisplayUnit};

pub(super) fn input_error(e: &InputError) -> String {
    match e.problem {
        InputProblem::Empty => "Type a number.".into(),
        InputProblem::NotANumber => "Not a number.".into(),
        InputProblem::NotAnInteger => "Must be a whole number.".into(),
        InputProblem::TooSmall | InputProblem::TooLarge => {
            format!("Must be between {} and {}.", num(e.min), num(e.max))
        }
    }
}

pub(super) fn gpu_not_found(miss: &NotFound) -> String {
    if miss.suggestions.is_empty() {
        format!("No GPU “{}” in the catalog.", miss.query)
    } else {
        format!(
            "No GPU “{}” in the catalog. Did you mean {}?",
            miss.query,
            miss.suggestions.join(", ")
        )
    }
}

pub(super) fn scenario_error(e: &ScenarioError) -> String {
    match e {
        ScenarioError::Field(f) => format!("{}: {}", field(f.field).label, input_error(f)),
        ScenarioError::UnknownModel(miss) if miss.suggestions.is_empty() => {
            format!("No model “{}” in the catalog.", miss.query)
        }
        ScenarioError::UnknownModel(miss) => format!(
            "No model “{}” in the catalog. Did you mean {}?",
            miss.query,
            miss.suggestions.join(", ")
        ),
        ScenarioError::UnknownGpu(miss) => gpu_not_found(miss),
        ScenarioError::Config(e) => format!("config.json cannot be used: {}", config_error(e)),
        ScenarioError::Planner(e) => format!("{}.", planner_error(e)),
        ScenarioError::Speed(e) => format!(
            "A speed setting is out of its range: {} = {} ({}–{}).",
            e.field,
            num(e.value),
            num(e.min),
            num(e.max)
        ),
        ScenarioError::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::En) {
            Some(t) => (t.knob_error)(e),
            // Before the engine's tables have come (see engine_texts).
            None => "This engine setting is out of its range.".into(),
        },
        ScenarioError::Layout(e) => format!("{}.", layout_error(e)),
        ScenarioError::NeedsModel(_) => {
            "The “as published” format needs a real model (catalog or config.json).".into()
        }
    }
}

pub(super) fn run_error(e: &RunError) -> String {
    match e.reason {
        Refusal::Mode(mode) => format!(
            "The {} method does not estimate {}.",
            method_name(e.method),
            (TEXTS.mode_name)(mode)
        ),
        reason => format!(
            "The {} method cannot estimate this: {}.",
            method_name(e.method),
            out_of_scope(&reason)
        ),
    }
}

pub(super) fn request_error(e: &RequestError) -> String {
    match e {
        RequestError::Invalid(errors) => errors
            .iter()
            .map(scenario_error)
            .collect::<Vec<_>>()
            .join(" "),
        RequestError::Refused(e) => run_error(e),
    }
}

pub(super) fn config_error(e: &ConfigError) -> String {
    match &e.kind {
        ConfigErrorKind::InvalidJson { line, column, .. } => {
            format!("it is not valid JSON (line {line}, column {column}).")
        }
        ConfigErrorKind::NotAnObject => "it is not a JSON object ({ … }).".into(),
        ConfigErrorKind::MissingKeys { keys } => format!("missing keys: {}.", keys.join(", ")),
        ConfigErrorKind::WrongType { key, expected } => {
            format!("{key} should be of type {expected}.")
        }
        ConfigErrorKind::Contradictory { keys, reason } => {
            format!("keys {} contradict each other ({reason}).", keys.join(", "))
        }
        ConfigErrorKind::Unsupported { reason } => {
            format!("it describes something vramfit does not model ({reason}).")
        }
        ConfigErrorKind::OutOfRange { key, value } => format!("{key} = {value} is out of range."),
        ConfigErrorKind::UnknownModelType {
            model_type,
            architecture,
        } => match (model_type, architecture) {
            (Some(t), _) => format!(
                "model type “{t}” is not one vramfit reads exactly, so it is not estimated."
            ),
            (None, Some(a)) => format!(
                "it has no model_type and architecture “{a}” is not one vramfit reads exactly."
            ),
            (None, None) => "it names no model_type, so its layout is unknown.".into(),
        },
        ConfigErrorKind::UnknownLayerPattern { key, model_type } => format!(
            "key {key} describes layers in a way the reader of model type “{model_type}” does not know, so it is not estimated."
        ),
    }
}

pub(super) fn out_of_scope(reason: &Refusal) -> String {
    match reason {
        Refusal::Mode(mode) => format!("it does not estimate {}", (TEXTS.mode_name)(*mode)),
        Refusal::NeedsModel => {
            "it needs a real model (from the catalog or a config.json), not typed numbers".into()
        }
        Refusal::Family(family) => format!(
            "{} models are outside its scope (dense Llama, Mistral, Qwen2, Qwen3, Gemma, Gemma 2)",
            trust::family_name(*family)
        ),
        Refusal::Feature(feature) => {
            let what = match feature {
                Feature::Experts => "a mixture of experts",
                Feature::LatentAttention => "latent attention (MLA)",
                Feature::LinearLayers => "linear or state-space layers",
                Feature::QuantizedCheckpoint => "a quantized checkpoint",
                Feature::NoDenseMlp => "no dense MLP (intermediate_size)",
                Feature::CompressedAttention => "compressed attention (DeepSeek-V4)",
                Feature::SparseIndexer => "a sparse-attention indexer (MiniMax-M3)",
                Feature::MixedAttentionWidths => "attention head widths that differ per layer",
                Feature::VisionTower => "a vision tower (its activations are not derived)",
            };
            format!("the model has {what}, which this method does not model")
        }
        Refusal::QuantizedWeights => {
            "it covers fp32, bf16 and fp16 weights only; quantized formats are outside it".into()
        }
        Refusal::TooManyGpus { max } => format!("it spreads a model over at most {max} GPUs"),
        Refusal::SingleGpu { tp, pp } => format!(
            "it estimates one GPU holding the whole model, not one copy spread over TP {tp} × PP {pp}; set TP = PP = 1 for one copy per GPU, or pick range or planner"
        ),
        Refusal::Optimizer(optimizer) => format!(
            "it states AdamW's training states only, not {}'s",
            trust::optimizer_name(*optimizer)
        ),
        Refusal::Knob(e) => planner_error(e),
        Refusal::Engine(e) => match crate::i18n::engine_texts(crate::i18n::Lang::En) {
            Some(t) => (t.refusal)(e),
            None => "The engine does not take this scenario.".into(),
        },
    }
}

pub(super) fn layout_error(e: &LayoutError) -> String {
    match *e {
        LayoutError::NotDivisible { gpus, tp, pp } => format!(
            "TP {tp} × PP {pp} = {} per copy of the model does not divide {}",
            vramfit_core::scenario::gpu_count(tp.saturating_mul(pp)),
            vramfit_core::scenario::gpu_count(gpus)
        ),
        LayoutError::Heads {
            tp,
            attention: Some(h),
            kv,
        } => {
            format!("TP {tp} does not split the model's {h} attention heads and {kv} KV heads")
        }
        LayoutError::Heads { tp, kv, .. } => format!("TP {tp} does not split {kv} KV heads"),
        LayoutError::Stages { pp, layers } => {
            format!("PP {pp} is more pipeline stages than the model's {layers} layers")
        }
        LayoutError::NoSpread { gpus } => {
            format!("no TP × PP spreads this model over {gpus} GPUs; try another GPU count")
        }
        LayoutError::OneDevice { gpus } => format!(
            "a Mac has one GPU: {gpus} would be a cluster of Macs over the network, \
             which vramfit does not model"
        ),
    }
}

pub(super) fn no_speed(reason: &NoSpeed) -> String {
    match reason {
        NoSpeed::Training => "training has no speed figure".into(),
        NoSpeed::CustomModel => "models typed by hand have no speed figure".into(),
        NoSpeed::Moe => "mixture-of-experts models have no speed figure".into(),
        NoSpeed::Mla => "latent attention (MLA) has no speed figure".into(),
        NoSpeed::SlidingWindow => "sliding-window attention has no speed figure".into(),
        NoSpeed::SpecialDimensions => {
            "attention wider or narrower than the hidden size has no speed figure".into()
        }
        NoSpeed::Parallelism => "TP or PP above 1 has no calibrated speed figure".into(),
        NoSpeed::Offload => "weights offloaded to the CPU have no speed figure".into(),
        NoSpeed::NoEfficientAttention => {
            "speed assumes efficient attention (a fused kernel)".into()
        }
        NoSpeed::NoGpu => "speed needs a catalog GPU".into(),
        NoSpeed::NoGpuFigures => "the GPU has no dense BF16 figure in the catalog".into(),
        NoSpeed::RackScaleGpu => "the GB300 NVL72 has no speed figure".into(),
        NoSpeed::DoesNotFit => "speed is only given when the model fits without offload".into(),
        NoSpeed::OutOfScope(r) => format!("no estimate: {}", out_of_scope(r)),
    }
}

pub(super) fn planner_error(e: &PlannerError) -> String {
    let gb = |bytes: Bytes| format::decimal(&NUMBER, bytes.in_unit(DisplayUnit::Gb), 3);
    let problem = match e.problem {
        KnobProblem::NotANumber => "is not a number".to_string(),
        KnobProblem::OutOfRange { min, max } => {
            format!("must be between {} and {}", num(min), num(max))
        }
        KnobProblem::NotTwoOrFour => "must be 2 (BF16) or 4 (FP32)".to_string(),
        KnobProblem::AboveContext { context } => format!(
            "must be at most the context ({} tokens)",
            format::integer(&NUMBER, context)
        ),
        KnobProblem::AboveParams { params } => format!(
            "must be at most the model's {} parameters",
            format::integer(&NUMBER, params)
        ),
        KnobProblem::AboveUnquantized { unquantized } => format!(
            "must be at most the {} unquantized parameters",
            format::integer(&NUMBER, unquantized)
        ),
        KnobProblem::AboveBodyWeights { max_bytes } => format!(
            "must be at most the quantized weights on one GPU ({} GB)",
            gb(max_bytes)
        ),
        KnobProblem::AboveHostRam { max_bytes } => format!(
            "over all GPUs of a machine must be at most 80 % of its RAM ({} GB per GPU)",
            gb(max_bytes)
        ),
    };
    format!(
        "{} (planner.{}) {problem}",
        trust::knob_name(e.knob),
        e.knob.key()
    )
}
