//! English.

mod engine;
mod errors;
pub mod gguf;
mod interpretation;
mod lesson;
mod notebook;
mod picker;
mod trust;

pub use engine::ENGINE;
pub use lesson::{LESSON, LLAMACPP, VLLM};
pub use notebook::NOTEBOOK;

use super::format::{self, NumberStyle};
use super::{FieldText, Texts};
use crate::import::ImportError;
use crate::net::HubOutcome;
use errors::{
    config_error, gpu_not_found, input_error, layout_error, no_speed, out_of_scope, request_error,
    run_error, scenario_error,
};
use interpretation::interpretation;
use vramfit_core::advice::{Change, Cost};
use vramfit_core::methods::MethodId;
use vramfit_core::model::AttentionKind;
use vramfit_core::scenario::{Field, Mode};
use vramfit_core::term::Term;
use vramfit_core::verdict::FitStatus;

/// Decimal point, comma between thousands.
const NUMBER: NumberStyle = NumberStyle {
    decimal: '.',
    group: ',',
    min_group_digits: 4,
    percent_sep: "",
};

fn num(value: f64) -> String {
    format::plain(&NUMBER, value)
}

pub static TEXTS: Texts = Texts {
    name: "English",
    number: NUMBER,
    page_title: "vramfit — GPU memory for LLMs",
    tagline: "How much GPU memory a language model needs, before you download it.",
    learn_loading: "Loading the lesson and the notebook…",
    learn_unavailable:
        "The lesson and the notebook could not be loaded (offline?). The calculator keeps working.",
    learn_retry: "Try again",
    part_loading: "Loading…",
    part_unavailable: "This part could not be loaded (offline?). The calculator keeps working.",
    catalog_loading: "Loading the model catalog…",
    lang_label: "Language",

    step_configure: "Configure",
    step_input: "Add input",
    step_input_hint: "Set the parameters, load an example or paste your data.",
    step_results: "Review results",
    details_title: "Result in detail",

    first_question: picker::FIRST_QUESTION,
    model_search_label: picker::MODEL_SEARCH_LABEL,
    model_search_placeholder: picker::MODEL_SEARCH_PLACEHOLDER,
    model_search_none: picker::MODEL_SEARCH_NONE,
    engine_label: picker::ENGINE_LABEL,
    other_estimates: picker::OTHER_ESTIMATES,
    method_plain: picker::method_plain,
    host_layers: picker::host_layers,

    mode_label: "Mode",
    method_label: "Method",
    method_settings: "Method settings",
    weight_format_label: "Weight format",
    weight_manual: "bits by hand",
    as_published_label: "as published",
    as_published_needs_model: "Needs a real model (catalog, config.json or Hub).",
    kv_dtype_label: "KV cache type",
    kv_manual: "by hand",
    workload_label: "Workload",
    gpu_label: "Catalog GPU",
    gpu_placeholder: "Search: RTX 4090, H100, MI300X…",
    gpu_hint: "Empty: type the memory by hand.",
    gpu_not_found,
    gpu_picked: picker::gpu_picked,
    advanced_label: "Advanced",
    advanced_changed: |n| match n {
        0 => "(all default)".to_string(),
        n => format!("({n} changed)"),
    },
    attention_label: "Attention",
    precision_label: "Precision",
    optimizer_label: "Optimizer",
    grad_checkpoint: "Gradient checkpointing",

    model_manual_option: "Numbers by hand (no model)",
    config_label: "Or paste a config.json (or an exported JSON)",
    config_hint: "Read as you paste; nothing leaves your browser.",
    side_label: "Its hf_quant_config.json, if the repository has one (NVIDIA ModelOpt exports: NVFP4, FP8)",
    side_hint: "Where such an export states its quantization; read with the config, as vLLM does.",
    hub_label: "Or fetch it from the Hugging Face Hub",
    hub_placeholder: "owner/model, e.g. Qwen/Qwen3-8B",
    hub_button: "Fetch config.json",
    hub_loading: "Downloading config.json…",
    hub_outcome,
    shape_title: "Model shape by hand",
    summary_params: "Parameters",
    summary_active: |n| format!("{n} active"),
    summary_layers: "Layers",
    summary_kv_per_token: "KV per token",

    compact_label: "Result summary",
    ring_label: "Use of usable memory",
    gpu_ring_label: |k| format!("GPU {k}"),
    gpu_rings_note: |n| {
        format!("All {n} GPUs carry the same budget: the method splits evenly and counts the most loaded stage.")
    },
    missing: |x| format!("{x} missing"),
    spare: |x| format!("{x} to spare"),
    unit_label: "Unit",
    breakdown_caption: "Memory breakdown",
    outside_total: "outside the total",
    suggestions_title: "One change that makes it fit",
    answers_max_context: "Longest context that fits",
    answers_max_sequences: "Most concurrent sequences",
    answers_smallest_gpu: "Smallest catalog GPU that fits",
    answers_min_gpus: "Fewest GPUs it fits on",
    none_fits: "none fits",
    tokens: |n| format!("{n} tokens"),
    methods_caption: "Methods compared",
    col_method: "Method",
    col_total: "Per GPU",
    col_verdict: "Verdict",
    export_button: "Export JSON",
    export_failed: "The browser did not allow the download.",
    import_button: "Import JSON",
    drop_hint: "or drop an exported JSON here",
    import_done: "Scenario imported.",
    import_error,
    copy_link: "Copy link",
    link_copied: "Link copied: it reopens exactly this calculation.",
    link_copy_failed: "Could not copy; copy the link from the address bar.",
    link_broken: "The link did not hold a valid scenario; showing the example.",
    truncated_note: "The view may be shortened; the exported JSON holds every computed result.",

    chart_title: "Memory by context length",
    chart_usable: |x| format!("usable: {x}"),
    chart_crossing: |n| format!("Fits up to {n} tokens of context."),
    chart_fits_everywhere: "Fits over the whole range drawn.",
    chart_fits_nowhere: "Does not fit even with a single token of context.",
    chart_current: "current",
    chart_data: "Show the data",
    chart_col_context: "Context (tokens)",
    chart_col_memory: "Memory",

    speed_title: "Speed",
    speed_none: |m| format!("The {m} method gives no speed figure: it estimates memory only."),
    speed_unavailable: |r| format!("No speed figure: {}.", no_speed(r)),
    speed_decode: "Decode per user",
    speed_prefill: |n| format!("Prefill of {n} tokens"),
    speed_note: "Conservative to favourable: an indicative roofline, not a measurement.",
    tokens_per_second: "tokens/s",

    interpretation_title: "How to read the results",
    interp_assumptions: "Assumptions",
    interp_units: "Units",
    interp_leaves_out: "What it leaves out",
    interpretation,

    panic_title: "Something went wrong in the calculator.",
    panic_body: "Your calculation is kept in the page's link: reload to carry on where you were.",
    panic_reload: "Reload",
    panic_start_fresh: "Start from the default scenario",
    panic_details: "Technical details",

    field,
    input_error,
    scenario_error,
    run_error,
    request_error,
    config_error,
    mode_name: |m| match m {
        Mode::Inference => "Inference",
        Mode::Full => "Full fine-tuning",
        Mode::Lora => "LoRA",
        Mode::Qlora => "QLoRA",
    },
    method_summary,
    status_word: |s| match s {
        FitStatus::Roomy => "roomy",
        FitStatus::WithMargin => "with margin",
        FitStatus::Tight => "tight",
        FitStatus::DoesNotFit => "does not fit",
    },
    term: |term| match term {
        Term::Weights => "Weights",
        Term::KvCache => "KV cache",
        Term::Overhead => "Overhead",
        Term::TrainingStates => "Training states",
        Term::Runtime => "Runtime",
        Term::Activation => "Activation reserve",
        Term::Margin => "Margin",
        Term::Gradients => "Gradients",
        Term::Optimizer => "Optimizer",
        Term::Activations => "Saved activations",
        Term::AutocastCache => "Autocast copies",
        Term::StepWorkspace => "Step workspace",
        Term::ModelStates => "Model states",
        Term::Adapters => "Adapters",
        Term::Logits => "Logits",
        Term::AttentionScores => "Attention scores",
        Term::MasterWeights => "Master weights",
        Term::Communication => "Communication",
        Term::OffloadStaging => "Offload staging",
        Term::EngineContext => "Engine context",
        Term::ActivationPeak => "Profiling peak",
        Term::NonTorch => "Non-torch memory",
        Term::CudaGraphs => "CUDA graphs",
        Term::KCache => "K cache",
        Term::VCache => "V cache",
        Term::ComputeBuffer => "Compute buffer",
        Term::OutputBuffer => "Output buffer",
        Term::HostPart => "In host memory",
    },
    change,
    cost: |c| match c {
        Cost::ChangesTrainingObjective => "changes the training objective",
        Cost::ShorterContext => "shorter prompts and answers",
        Cost::LowerThroughput => "lower throughput",
        Cost::MayCostQuality => "may cost quality: test it on your task",
        Cost::TrainsAdaptersOnly => "trains adapters only",
        Cost::SlowerStep => "slower step (recomputes activations)",
        Cost::LessPreciseUpdates => "less precise updates",
        Cost::MoreHardware => "more GPUs to buy or rent",
        Cost::PublishedFormat => "the model as its authors publish it",
        Cost::RunsFromHostMemory => "slower tokens: read from host memory",
        Cost::MoreGpuMemory => "more of the GPU in use",
    },
    attention_kind,
    out_of_scope,
    veiled: "The figures are hidden while you predict this scenario in the lesson: write your prediction, then reveal it to see them all together.",
    veiled_go: "Go to your prediction",
    veiled_show: "Show the figures without predicting",
    layout_error,
    switch_done: trust::switch_done,
    switch_preferred: trust::SWITCH_PREFERRED,
    switch_no_longer_applies: trust::SWITCH_NO_LONGER_APPLIES,
    switch_undo: trust::SWITCH_UNDO,
    model_published: trust::model_published,
    quant_not_in_config: trust::quant_not_in_config,
    summary_published: trust::SUMMARY_PUBLISHED,
    weights_with_vision: trust::weights_with_vision,
    chart_model_max: trust::chart_model_max,
    answer_model_max: trust::ANSWER_MODEL_MAX,
    answer_input_max: trust::ANSWER_INPUT_MAX,
    context_over_model_max: trust::context_over_model_max,
    stale_figures: trust::STALE_FIGURES,
    way_out_methods: trust::WAY_OUT_METHODS,
    way_out_none: trust::WAY_OUT_NONE,
    way_out_layout: trust::WAY_OUT_LAYOUT,
    way_out_one_gpu: trust::WAY_OUT_ONE_GPU,
    way_out_field: trust::WAY_OUT_FIELD,
    way_out_model: trust::WAY_OUT_MODEL,
    total_per_gpu: trust::total_per_gpu,
    total_all_gpus: trust::total_all_gpus,
    col_gpus: trust::COL_GPUS,
    col_all_gpus: trust::COL_ALL_GPUS,
    use_cache: trust::USE_CACHE,
    field_auto: trust::FIELD_AUTO,
    layout_summary: trust::layout_summary,
    published_beside_name: trust::published_beside_name,
};

fn field(field: Field) -> FieldText {
    let (label, unit, hint) = match field {
        Field::ParamsB => ("Parameters", "× 10⁹", "Billions of model parameters."),
        Field::Layers => ("Layers", "", "num_hidden_layers in config.json."),
        Field::KvHeads => (
            "KV heads",
            "",
            "num_key_value_heads (GQA uses fewer than attention heads).",
        ),
        Field::HeadDim => (
            "Head dimension",
            "",
            "head_dim, or hidden_size / num_attention_heads.",
        ),
        Field::WeightBits => (
            "Bits per weight",
            "bits",
            "16 for FP16/BF16, 8 for FP8/INT8, 4 for 4-bit.",
        ),
        Field::KvBytes => ("Bytes per KV value", "bytes", "2 for FP16, 1 for FP8."),
        Field::Context => ("Context", "tokens", "Context length per sequence."),
        Field::Sequences => (
            "Concurrent sequences",
            "",
            "Served at once (or in one training step), over all GPUs.",
        ),
        Field::OverheadPct => (
            "Overhead",
            "%",
            "Activations, CUDA context and buffers: 10–20 % is reasonable.",
        ),
        Field::GpuMemoryGb => (
            "GPU memory",
            "GB",
            "Typed in decimal GB (10⁹ bytes); a catalog GPU shows the memory the driver reports.",
        ),
        Field::Gpus => ("GPU count", "×", "All GPUs: TP × PP × copies of the model."),
        Field::Tp => (
            "Tensor parallelism",
            "TP",
            "GPUs that split each layer; empty: derived from the GPU count.",
        ),
        Field::Pp => (
            "Pipeline parallelism",
            "PP",
            "Layer stages on separate GPUs; empty: derived from the GPU count.",
        ),
        Field::HostRamGb => (
            "Host RAM",
            "GB",
            "For offloading weights to the CPU (0: no offload).",
        ),
        Field::OffloadGb => (
            "Weights offloaded",
            "GB",
            "Per GPU, moved to host RAM (planner; at most 80 % of host RAM in all).",
        ),
        Field::SharedPrefixTokens => (
            "Shared prefix",
            "tokens",
            "Prompt prefix every sequence shares, cached once (planner).",
        ),
        Field::LoraRank => ("LoRA rank", "r", "Rank of the LoRA/QLoRA adapters."),
        Field::RuntimeGib => (
            "Runtime reserve",
            "GiB",
            "CUDA context, kernels and allocator, in GiB (2³⁰ bytes).",
        ),
        Field::ActivationGib => (
            "Activation reserve",
            "GiB",
            "Activations and temporary buffers, in GiB.",
        ),
        Field::MarginPct => ("Margin", "%", "Multiplies the subtotal with reserves."),
    };
    FieldText { label, unit, hint }
}

fn method_summary(method: MethodId) -> &'static str {
    match method {
        MethodId::Quick => "Weights + KV cache + overhead in % (decimal GB).",
        MethodId::Lesson => {
            "Weights + KV cache (or 18 bytes/parameter when training) + reserves + margin (GiB)."
        }
        MethodId::Allocator => {
            "PyTorch's peak (max_memory_allocated) for one step; needs a real dense model."
        }
        MethodId::Range => {
            "Low and high estimate per GPU: weights, the model's KV cache and 1 GB runtime; +20 % on the high end (decimal GB)."
        }
        MethodId::Planner => {
            "Per-GPU budget over TP/PP, replicas and concurrent sequences, margin and reserve, with an indicative speed (decimal GB)."
        }
        MethodId::Vllm => engine::VLLM_SUMMARY,
        MethodId::Llamacpp => engine::LLAMACPP_SUMMARY,
    }
}

fn change(c: &Change) -> String {
    match c {
        Change::Context(n) => format!("Context of {} tokens", format::integer(&NUMBER, *n)),
        Change::Sequences(n) => format!("{n} concurrent sequences"),
        Change::WeightFormat(f) => format!(
            "Weights in {}",
            trust::weight_format_label(*f, TEXTS.as_published_label)
        ),
        Change::KvBytes(b) => format!("KV cache at {} byte per value", num(*b)),
        Change::Lora => "LoRA instead of full fine-tuning".into(),
        Change::GradCheckpoint => "Turn on gradient checkpointing".into(),
        Change::PurePrecision => "Pure precision instead of amp".into(),
        Change::Gpus(n) => format!("{n} GPUs, the model spread over them"),
        Change::GpuLayers(n) => format!("{n} layers on the GPU (-ngl {n})"),
        Change::CpuMoe(n) => format!("Experts of {n} blocks in host memory (--n-cpu-moe {n})"),
    }
}

fn attention_kind(kind: &AttentionKind) -> String {
    match kind {
        AttentionKind::Full => "full attention".into(),
        AttentionKind::SlidingWindow { window } => format!("sliding window of {window}"),
        AttentionKind::Chunked { chunk } => format!("chunked attention of {chunk}"),
        AttentionKind::Mla { latent } => format!("MLA, latent {latent}"),
        AttentionKind::SparseMla { latent, index } => {
            format!("MLA, latent {latent}, indexer key {index}")
        }
        AttentionKind::Indexed { index } => format!("full attention, indexer key {index}"),
        AttentionKind::Compressed { window, ratio, .. } => {
            format!("compressed 1:{ratio}, window of {window}")
        }
        AttentionKind::Linear { .. } => "linear / fixed state".into(),
        AttentionKind::None => "no attention".into(),
    }
}

fn hub_outcome(outcome: &HubOutcome) -> String {
    match outcome {
        HubOutcome::Loaded { id, side: false } => format!("Loaded config.json of {id}."),
        HubOutcome::Loaded { id, side: true } => {
            format!("Loaded config.json and hf_quant_config.json of {id}.")
        }
        HubOutcome::InvalidId => {
            "Type the id as owner/model (letters, digits, . _ -).".into()
        }
        HubOutcome::Gated { status } => format!(
            "The Hub asks for access to this model (HTTP {status}): accept its licence on huggingface.co and paste config.json here."
        ),
        HubOutcome::NotFound => {
            "The Hub has no such model, or it has no config.json (HTTP 404). Check the id.".into()
        }
        HubOutcome::Http { status } => format!("The Hub answered HTTP {status}; try again later."),
        HubOutcome::Offline => {
            "Could not reach the Hub (offline or blocked). You can paste config.json by hand.".into()
        }
    }
}

fn import_error(e: &ImportError) -> String {
    match e {
        ImportError::Empty => "The file is empty.".into(),
        ImportError::Unreadable => "The file could not be read.".into(),
        ImportError::NotJson { line, column } => format!(
            "Not a JSON exported by vramfit: not valid JSON (line {line}, column {column}). Nothing was changed."
        ),
        ImportError::NotADocument => {
            "Not a JSON exported by vramfit: it has no “inputs” object. Nothing was changed.".into()
        }
        ImportError::Schema(schema) => format!(
            "This JSON is from another version (“{schema}”); this calculator reads vramfit/1. Nothing was changed."
        ),
        ImportError::Inputs(detail) => {
            format!("The JSON's inputs are not understood ({detail}). Nothing was changed.")
        }
        ImportError::Invalid(e) => format!(
            "The JSON's inputs are not valid: {} Nothing was changed.",
            request_error(e)
        ),
    }
}
