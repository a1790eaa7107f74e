//! English: the engine methods.

use super::NUMBER;
use crate::i18n::engine::EngineTexts;
use crate::i18n::format;
use crate::i18n::{FieldText, Interpretation};
use vramfit_core::calibrate::vllm::LogFigure;
use vramfit_core::command::{CommandError, Expected, Unmodelled};
use vramfit_core::methods::engine::{EngineNote, EngineRefusal};
use vramfit_core::methods::speed::Limit;
use vramfit_core::scenario::{EngineError, EngineField, EngineProblem};

/// The vllm method in one line (also the page table's, which reads it
/// without the rest of this table).
pub(super) const VLLM_SUMMARY: &str = "What vLLM reports when it starts: weights, profiling peak, KV cache tokens and concurrency, and whether it starts at all (GiB).";
/// The llamacpp method in one line.
pub(super) const LLAMACPP_SUMMARY: &str = "Where llama.cpp puts a GGUF file: model buffer, K and V caches, compute buffer, split between the GPU and host memory by -ngl (GiB).";
/// How to read the vllm method's figures.
pub(super) const VLLM_INTERPRETATION: Interpretation = Interpretation {
    summary: "What vLLM (V1 engine, the release picked: the newest by default) prints at start-up for `vllm serve` with these options, and the error it would stop with.",
    assumptions: &[
        "vLLM asks for total × gpu_memory_utilization of each GPU; the KV cache gets what the weights, the profiling peak and the memory outside PyTorch leave of it.",
        "The ring compares that requested memory with what the scenario needs of it: weights + peak + non-torch memory + the KV cache of the sequences at once, each of the full context (--max-model-len). It fits exactly when vLLM starts and holds them all.",
        "The KV cache, its tokens and the concurrency are the ones vLLM allocates in full; CUDA graphs are captured after it, outside the requested memory.",
        "The GPU's total is the one CUDA reports where the catalog has it (79.19 GiB for an H100 80GB), else the driver's or the nominal figure, said so below.",
        "Checked against 47 real vLLM 0.19 start-up logs on an H100: weights within 1 %, KV memory within 0.21 GiB, KV tokens within 0.34 %.",
    ],
    units: "GiB (2³⁰ bytes), as vLLM prints them; the figures are per GPU, on the most loaded one.",
    leaves_out: &[
        "Non-torch memory and CUDA graphs are measured constants from an H100; other GPUs, NCCL without NVLink and ROCm differ.",
        "Mamba and linear-attention hybrids, speculative decoding, LoRA, expert and data parallelism.",
        "Speed: decode, prefill and first token stand beside the ring, with vLLM's decode per request and output throughput at the sequences at once; the chart under the results is one sequence's decode against context.",
    ],
};
/// How to read the llamacpp method's figures.
pub(super) const LLAMACPP_INTERPRETATION: Interpretation = Interpretation {
    summary: "The GGUF file llama.cpp's tools would write for the model and the type chosen, and where llama.cpp puts each byte of it.",
    assumptions: &[
        "Model size: llama-quantize's type for every tensor (Q4_K_M keeps some in Q6_K, norms in F32), exact to the byte.",
        "K and V caches: n_ctx cells (the context, padded to 256) for every layer, each with its own type (-ctk, -ctv); sliding-window layers keep their window.",
        "The ring is the GPU: model buffer + K + V + compute buffer against the GPU's memory less the 1 GiB llama.cpp keeps free. With -ngl on auto the ring is the whole model on the GPU, and the panel shows the split llama.cpp would choose.",
        "One slot per sequence at once (-np), sharing one cache.",
    ],
    units: "GiB (2³⁰ bytes), as llama.cpp prints them.",
    leaves_out: &[
        "Compute buffers are an approximation of ggml's graph allocator, not measured.",
        "Several GPUs (--tensor-split), multimodal projectors, LoRA adapters, speculative decoding.",
        "The CUDA context and cuBLAS workspaces outside llama.cpp's buffers (the 1 GiB margin covers them).",
    ],
};

pub static ENGINE: EngineTexts = EngineTexts {
    vllm_summary: VLLM_SUMMARY,
    llamacpp_summary: LLAMACPP_SUMMARY,
    vllm_interpretation: VLLM_INTERPRETATION,
    llamacpp_interpretation: LLAMACPP_INTERPRETATION,

    vllm_title: "What vLLM reports at start-up",
    llamacpp_title: "Where llama.cpp puts the model",
    kv_pool: "KV cache vLLM allocates",
    kv_tokens: "KV cache tokens",
    concurrency: |x, n| format!("{x}× requests of {n} tokens"),
    concurrency_label: "Maximum concurrency",
    longest_start: "Longest context that starts",
    cuda_graphs: "CUDA graphs (after the KV cache, outside the requested memory)",
    gpu_total: "GPU memory as CUDA reports it",
    starts: "vLLM starts with these settings.",
    would_not_start: "vLLM would not start:",
    model_size: "Model size (GGUF)",
    k_cache: "K cache",
    v_cache: "V cache",
    compute_buffers: "Compute buffers",
    output_buffer: "Output buffer (host)",
    on_gpu: "On the GPU",
    in_host: "In host memory",
    layers_label: "Layers on the GPU",
    layers: |n, of| format!("{n} of {of}"),
    offloaded: |n, of, bytes| {
        format!("Partly offloaded: {n} of {of} layers run from host memory ({bytes}), slower than on the GPU.")
    },
    all_on_gpu: "Every layer on the GPU.",
    most_layers: "Most layers that fit",
    longest_fit: "Longest context that fits at these layers",
    none: "none",
    command_label: "Command",
    copy: "Copy",
    copied: "Copied.",
    copy_failed: "Could not copy; select the line and copy it.",
    note,
    refusal,
    knob_error,

    knob,
    auto: "auto",
    gguf_label: "GGUF type",
    cache_type_k: "K cache type (-ctk)",
    cache_type_v: "V cache type (-ctv)",
    cache_follows: "from KV bytes",
    flash_attn: "Flash attention (-fa)",
    enforce_eager: "No CUDA graphs (--enforce-eager)",
    speed_label: "Speed",
    decode: "Decode",
    prefill: "Prefill",
    first_token: "Time to first token",
    limited_by: |l| {
        let what = match l {
            Limit::Bandwidth => "GPU memory bandwidth",
            Limit::Compute => "GPU compute",
            Limit::HostMemory => "host memory",
            Limit::Overhead => "fixed costs per step",
        };
        format!("Limited by {what}")
    },
    slower_host: |n| {
        if n == 1 {
            "Slower because 1 layer runs from host memory".to_string()
        } else {
            format!("Slower because {n} layers run from host memory")
        }
    },
    decode_at_context: "Decode at the end of the context",
    decode_alone: "Decode, one request alone",
    decode_each: |n| format!("Decode per request, {n} at once"),
    output_all: |n| format!("Output, all {n} requests together"),
    speed_chart_title: "Decode speed against context",
    speed_chart_sentence: |a, lo, b, hi| format!("One sequence decodes {a} tokens/s with {lo} tokens in its cache and {b} tokens/s at {hi}, the context set: every token reads the whole cache."),
    speed_chart_band: "Range (tokens/s)",
    checkpoint_default: "Gradient checkpointing is on when you switch to training, as TRL's SFTTrainer (SFTConfig) sets it for full, LoRA and QLoRA fine-tuning: it trades about a third more compute for far fewer activations. transformers' plain Trainer leaves it off; untick it to estimate that.",
    paste_label: "Paste your command",
    paste_hint: "vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2",
    paste_apply: "Read the command",
    paste_applied: |e| format!("Read as a {e} command: the inputs and the method follow it."),
    command_error,
    vllm_version_label: "vLLM release",
    vllm_version_default: |d| format!("{} (default)", d),
    interconnect_label: "Link between the GPUs",
    interconnect_usual: |l| format!("as the catalog has it: {}", l),
    calibrate_label: "Paste your vLLM start-up log",
    calibrate_figure,
    calibrate_figure_col: "Figure",
    calibrate_logged: "vLLM printed",
    calibrate_predicted: "vramfit predicts",
    calibrate_applied: |o| {
        format!(
            "Calibrated on your log (memory outside PyTorch {} per GPU).",
            o
        )
    },
    calibrate_clear: "Remove the calibration",
    calibrate_missing: |line, figure| {
        format!(
            "The log has no \"{}\" line ({}).",
            line,
            calibrate_figure(figure)
        )
    },
    calibrate_refused: |why| format!("Not calibrated: {}", why),
};

fn note(n: &EngineNote) -> String {
    match n {
        EngineNote::DriverTotalUsed => "The total CUDA reports for this GPU is not known: the driver's total is used (CUDA reports a few hundred MiB less).".into(),
        EngineNote::NominalCapacityUsed => "Neither CUDA's nor the driver's total is known for this GPU: its nominal capacity is used.".into(),
        EngineNote::SmCountAssumed => "The GPU's SM count is not known: an H100's 132 is assumed.".into(),
        EngineNote::ArchitectureAssumed => "The GPU's architecture is not known: Hopper's 33 MiB of cuBLAS workspaces are assumed.".into(),
        EngineNote::NotCuda => "Not an NVIDIA GPU: the accounting is CUDA's.".into(),
        EngineNote::KvFollowsModelDtype { bytes } => format!("vLLM caches keys and values in the model dtype ({bytes} bytes) unless FP8 is chosen."),
        EngineNote::KvFp8FromCheckpoint => "The checkpoint asks for an FP8 KV cache (kv_cache_quant_algo): vLLM caches keys and values in FP8 (1 byte) unless --kv-cache-dtype says otherwise.".into(),
        EngineNote::QuantizationNotModelled { method } => format!("Quantization “{method}” is not modelled: its layers are counted at the model dtype."),
        EngineNote::VisionTowerNotCounted => "The vision tower of this multimodal model is not counted.".into(),
        EngineNote::VisionProfileNotCounted => "The vision tower’s weights are counted, whole on every GPU; the dummy images vLLM encodes while profiling it are not.".into(),
        EngineNote::VllmUnifiedMemory => "Unified memory: vLLM starts only if the system’s available memory covers what it requests; give what the system and other programs hold (--other-memory-gib).".into(),
        EngineNote::CudaGraphsBeyondMemory => "The CUDA graphs do not fit in what the utilization leaves: vLLM may run out of memory while capturing them.".into(),
        EngineNote::GgufDefault => "No GGUF type chosen: Q4_K_M, the most common download.".into(),
        EngineNote::RaiseWiredLimit { mb } => format!("It fits the unified memory once the wired limit is raised: sudo sysctl iogpu.wired_limit_mb={mb} (until the next restart)."),
        EngineNote::HostMemoryAbove { host_bytes, host_ram_bytes, mapped } => format!(
            "llama.cpp's host part ({} GiB) is above the host memory ({} GiB): {}",
            vramfit_core::units::Bytes(*host_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*host_ram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            if *mapped { "the mapped file's pages would be read from disk again and again" } else { "with --no-mmap the load fails" }
        ),
        EngineNote::LlamacppRunner { runner, line } => format!("Runner preset: {}; the llama.cpp options it sets: {line}", runner.name()),
        EngineNote::LlamacppBuild { build: None, .. } => "llama.cpp build: the newest cache layouts.".into(),
        EngineNote::LlamacppBuild { build: Some(b), unsure } => format!(
            "llama.cpp build b{b}: its cache layouts{}.",
            match unsure.is_empty() {
                true => String::new(),
                false => format!(" (not known either way for: {})", unsure.join(", ")),
            }
        ),
        EngineNote::CacheTypeDefault => "The KV bytes name no llama.cpp cache type: f16, its default, is used.".into(),
        EngineNote::GttLimitUsed { vram_bytes, gtt_bytes } => format!(
            "AMD APU: the GPU may use the BIOS's VRAM ({} GiB assumed) plus Linux's default GTT ({} GiB, half of the rest).",
            vramfit_core::units::Bytes(*vram_bytes).display(vramfit_core::units::DisplayUnit::Gib),
            vramfit_core::units::Bytes(*gtt_bytes).display(vramfit_core::units::DisplayUnit::Gib)
        ),
        EngineNote::RaiseGttLimit { pages_limit, gttsize_mb } => format!("It fits the memory once GTT is raised: boot with the kernel options ttm.pages_limit={pages_limit} amdgpu.gttsize={gttsize_mb}."),
        EngineNote::UnifiedTotalUsed => "Unified memory: CUDA reports the whole system memory as the GPU's, and all of it is used.".into(),
        EngineNote::VllmConsumedMemoryNotModelled => "vLLM 0.27 and later count everything consumed since start-up against the KV cache, PyTorch’s cached blocks included; vramfit counts as 0.26 does, without the model runner’s buffers and the blocks the profile run leaves cached, so vLLM’s KV cache may be somewhat smaller (the one log of this accounting checked is within 0.02 GiB).".into(),
        EngineNote::WiredLimitUsed => "Apple silicon: the GPU's default share of the unified memory is used.".into(),
    }
}

fn refusal(r: &EngineRefusal) -> String {
    let n = |v: u64| format::integer(&NUMBER, v);
    match r {
        EngineRefusal::LmStudioGuardrail { level, load_bytes, limit_bytes, machine_bytes } => {
            let gb = |b: u64| vramfit_core::units::Bytes(b).display(vramfit_core::units::DisplayUnit::Gb);
            format!("LM Studio's model-loading guardrail ({}) stops the load: it takes {} of the {} its level allows (GPU memory + RAM: {})", level.arg(), gb(*load_bytes), gb(*limit_bytes), gb(*machine_bytes))
        }
        EngineRefusal::Format { format } => {
            format!("the engine does not load weights in {}", format.label())
        }
        EngineRefusal::ContextAboveModel { context, max } => format!(
            "a context of {} tokens is above the model's maximum ({} tokens)",
            n(*context),
            n(*max)
        ),
        EngineRefusal::HeadsNotDivisible { heads, tp } => {
            format!("its {heads} attention heads do not divide over {tp} GPUs (tensor parallelism)")
        }
        EngineRefusal::VocabNotDivisible { vocab, tp } => format!(
            "its vocabulary ({}) does not divide over {tp} GPUs",
            n(*vocab)
        ),
        EngineRefusal::StagesOverLayers { pp, layers } => {
            format!("{pp} pipeline stages for {layers} layers leave a stage without layers")
        }
        EngineRefusal::QuantizationConflict => {
            "the checkpoint is already quantized with another method than FP8".into()
        }
        EngineRefusal::Architecture { .. } => {
            "llama.cpp's tensor layout of this architecture is not derived here".into()
        }
        EngineRefusal::Layout { problem } => {
            format!("the model has {problem}, which its llama.cpp layout does not hold")
        }
        EngineRefusal::QuantizedVNeedsFlashAttention { cache_type_v } => {
            format!("a {cache_type_v} V cache needs flash attention")
        }
        EngineRefusal::CacheRowNotBlocks {
            cache_type,
            row,
            block,
        } => format!(
            "a cache row of {row} values is not a whole number of {cache_type} blocks of {block}"
        ),
        EngineRefusal::NoTypeFallback { row, ggml_type } => {
            format!("rows of {row} values fit no {ggml_type} block: llama-quantize stops")
        }
        EngineRefusal::TooManySequences { max } => {
            format!("llama.cpp serves at most {max} sequences at once")
        }
        EngineRefusal::VllmRelease { release, newest } => format!(
            "vLLM {} is not modelled: only the releases 0.8 to {} (the V1 engine)",
            release.text(),
            newest.family()
        ),
        EngineRefusal::Input => "an input the engine does not accept".into(),
        EngineRefusal::NoMetalBackend => "vLLM has no Metal backend: it does not run on Apple silicon's GPU. llama.cpp runs there (and Ollama and LM Studio, which run llama.cpp).".into(),
        EngineRefusal::LoadsButDoesNotQuantize { format } => format!(
            "vLLM loads {0} checkpoints but does not quantize a checkpoint to {0}: load a published {0} checkpoint of the model",
            format.label()
        ),
    }
}

fn knob_error(e: &EngineError) -> String {
    let what = match e.problem {
        EngineProblem::Empty => "type a number".to_string(),
        EngineProblem::NotANumber => "not a number".to_string(),
        EngineProblem::NotAnInteger => "must be a whole number".to_string(),
        EngineProblem::OutOfRange { min, max } => format!(
            "must be between {} and {}",
            format::plain(&NUMBER, min),
            format::plain(&NUMBER, max)
        ),
        EngineProblem::NotABlockSize => "must be 1, 8, 16, 32, 64, 128 or 256".to_string(),
        EngineProblem::NotACacheType => "not a llama.cpp cache type".to_string(),
    };
    format!("{}: {what}.", e.knob.key())
}

fn knob(field: EngineField) -> FieldText {
    let (label, unit, hint) = match field {
        EngineField::GpuMemoryUtilization => (
            "GPU memory utilization",
            "",
            "Share of the GPU's total vLLM may use; empty: the release's default (0.92 from 0.20, 0.9 before).",
        ),
        EngineField::MaxNumBatchedTokens => (
            "Batched tokens",
            "tokens",
            "--max-num-batched-tokens; empty: vLLM's default for the GPU.",
        ),
        EngineField::MaxNumSeqs => (
            "Sequences per step",
            "",
            "--max-num-seqs; empty: vLLM's default for the GPU.",
        ),
        EngineField::BlockSize => ("KV block size", "tokens", "--block-size: 16 by default."),
        EngineField::NGpuLayers => ("Layers on the GPU", "-ngl", "Empty: auto, as many as fit."),
        EngineField::NCpuMoe => (
            "Experts on the CPU",
            "layers",
            "--n-cpu-moe: experts of the first N layers in host memory.",
        ),
        EngineField::OtherMemoryGib => (
            "Memory used by others",
            "GiB",
            "Held by other processes (the OS and apps, on unified memory) when vLLM starts.",
        ),
        EngineField::BiosVramGib => (
            "BIOS VRAM",
            "GiB",
            "AMD APU: the memory the BIOS dedicates to the GPU (0.5 assumed); the GTT adds half of the rest.",
        ),
        EngineField::Ubatch => (
            "Micro-batch",
            "tokens",
            "-ub: tokens per graph evaluation (512).",
        ),
    };
    FieldText { label, unit, hint }
}

/// Why a pasted command was not read, naming the word.
fn command_error(e: &CommandError) -> String {
    let t = crate::i18n::Lang::En.t();
    let why = match e {
        CommandError::Empty => "the command is empty".to_string(),
        CommandError::UnclosedQuote => "a quote is not closed".to_string(),
        CommandError::NotAnEngine { program } => format!(
            "`{program}` is not an engine command (known: vllm serve, llama-server, llama-cli)"
        ),
        CommandError::VllmWithoutServe => "`vllm` needs `serve MODEL`".to_string(),
        CommandError::UnknownOption { engine, option } => {
            format!("unknown {} option `{option}`", engine.name())
        }
        CommandError::NotModelled {
            engine,
            option,
            why,
        } => format!(
            "{} option `{option}` is not modelled: {}",
            engine.name(),
            unmodelled(*why)
        ),
        CommandError::MissingValue { option } => format!("{option} needs a value"),
        CommandError::BadValue {
            option,
            value,
            expected: want,
        } => format!("{option} {value}: expected {}", expected(*want)),
        CommandError::UnexpectedWord { word } => {
            format!("unexpected word `{word}`: one model only")
        }
        CommandError::NoModel { engine } => format!("the {} command names no model", engine.name()),
        CommandError::UnknownModel { word } => format!("no catalog model matches `{word}`"),
        CommandError::Field { option, error } => format!("{option}: {}", (t.input_error)(error)),
        CommandError::Knob { option, error } => format!("{option}: {}", knob_error(error)),
    };
    format!("The command was not read: {why}.")
}

/// A figure the core compares a vLLM log on (or names in a missing-line
/// message).
fn calibrate_figure(figure: LogFigure) -> &'static str {
    match figure {
        LogFigure::Weights => "weights",
        LogFigure::ActivationPeak => "activation peak",
        LogFigure::NonTorch => "memory outside PyTorch",
        LogFigure::GraphsSetAside => "CUDA graphs set aside",
        LogFigure::KvCacheMemory => "KV cache memory",
        LogFigure::KvCacheTokens => "KV cache tokens",
        LogFigure::MaxConcurrency => "maximum concurrency",
        LogFigure::GraphsCaptured => "CUDA graphs captured",
    }
}

/// Why the command reader does not model an option, in this language.
fn unmodelled(why: Unmodelled) -> &'static str {
    match why {
        Unmodelled::HostOffload => "weights offloaded to the host are not modelled",
        Unmodelled::SwapSpace => "the host swap space is not modelled",
        Unmodelled::DataParallel => {
            "data-parallel copies are not modelled; give the number of GPUs"
        }
        Unmodelled::DraftModel => "a draft model is not modelled",
        Unmodelled::ServingLora => "LoRA adapters at serving time are not modelled",
        Unmodelled::GpuSplit => "a split over several GPUs is not modelled",
        Unmodelled::TensorOverrides => "tensor overrides are not modelled; use --n-cpu-moe",
        Unmodelled::HostKvCache => "a KV cache kept on the host is not modelled",
    }
}

/// The value an option expects, in this language: a list keeps the
/// engine's spellings and joins its last two with this language's "or".
fn expected(e: Expected) -> String {
    match e {
        Expected::TokenCount => "a token count".into(),
        Expected::GpuCount => "a whole number of GPUs, at least 1".into(),
        Expected::BatchTokens => "a whole number of tokens, at least 1".into(),
        Expected::CacheType
        | Expected::KvCacheDtype
        | Expected::Quantization
        | Expected::Dtype
        | Expected::FlashAttn => e.one_of(" or "),
    }
}
