//! The engines' option names, as their own command lines spell them, and
//! what each sets in a scenario.
//!
//! One table ([`OPTIONS`]) says which names each engine takes and which
//! scenario knob a name sets; [`Setting`] is one such option with its
//! value read and range-checked, and [`Setting::apply`] writes it into a
//! [`ScenarioInput`]. Options that change nothing the estimate models
//! (ports, sampling, logging) are known too ([`NO_MEMORY_EFFECT`]); the
//! ones that change memory in a way the estimate does not model are named
//! in an error ([`NOT_MODELLED`]), never ignored.
//!
//! Sources: vLLM 0.19 `vllm/engine/arg_utils.py` (`EngineArgs.add_cli_args`,
//! with `-tp`/`-pp`/`-q` its short names), llama.cpp `common/arg.cpp`
//! (`common_params_parser_init`).

use super::{CommandError, Engine, Expected, Unmodelled};
use crate::gguf::{GgmlType, CACHE_TYPES};
use crate::scenario::{ComputeDtype, EngineField, Field, KvDtype, ScenarioInput, WeightFormat};

/// What an engine option sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// vLLM `--model`, llama.cpp `-m`: the model (a word of its own).
    Model,
    /// llama.cpp `-hf REPO[:QUANT]`.
    HfRepo,
    /// vLLM `--max-model-len`, llama.cpp `-c`.
    Context,
    Tp,
    Pp,
    GpuMemoryUtilization,
    KvCacheDtype,
    Quantization,
    Dtype,
    MaxNumSeqs,
    MaxNumBatchedTokens,
    BlockSize,
    EnforceEager,
    NGpuLayers,
    CacheTypeK,
    CacheTypeV,
    FlashAttn,
    Parallel,
    Ubatch,
    Batch,
    NCpuMoe,
    /// llama.cpp `--cpu-moe`: every expert on the host.
    CpuMoe,
    /// llama.cpp `-kvu`: one cache for every slot, which the estimate
    /// already assumes for more than one slot.
    KvUnified,
}

impl Knob {
    /// Whether the option takes a value (else it is a switch).
    pub const fn takes_value(self) -> bool {
        !matches!(
            self,
            Knob::EnforceEager | Knob::CpuMoe | Knob::KvUnified | Knob::FlashAttn
        )
    }
}

/// One row of [`OPTIONS`]: an engine, the names it takes, the knob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOption {
    pub engine: Engine,
    pub names: &'static [&'static str],
    pub knob: Knob,
}

const fn opt(engine: Engine, names: &'static [&'static str], knob: Knob) -> EngineOption {
    EngineOption {
        engine,
        names,
        knob,
    }
}

/// Every option the estimate reads, by engine.
pub const OPTIONS: [EngineOption; 25] = [
    opt(Engine::Vllm, &["--model"], Knob::Model),
    opt(Engine::Vllm, &["--max-model-len"], Knob::Context),
    opt(Engine::Vllm, &["--tensor-parallel-size", "-tp"], Knob::Tp),
    opt(Engine::Vllm, &["--pipeline-parallel-size", "-pp"], Knob::Pp),
    opt(
        Engine::Vllm,
        &["--gpu-memory-utilization"],
        Knob::GpuMemoryUtilization,
    ),
    opt(Engine::Vllm, &["--kv-cache-dtype"], Knob::KvCacheDtype),
    opt(Engine::Vllm, &["--quantization", "-q"], Knob::Quantization),
    opt(Engine::Vllm, &["--dtype"], Knob::Dtype),
    opt(Engine::Vllm, &["--max-num-seqs"], Knob::MaxNumSeqs),
    opt(
        Engine::Vllm,
        &["--max-num-batched-tokens"],
        Knob::MaxNumBatchedTokens,
    ),
    opt(Engine::Vllm, &["--block-size"], Knob::BlockSize),
    opt(Engine::Vllm, &["--enforce-eager"], Knob::EnforceEager),
    opt(Engine::Llamacpp, &["-m", "--model"], Knob::Model),
    opt(
        Engine::Llamacpp,
        &["-hf", "-hfr", "--hf-repo"],
        Knob::HfRepo,
    ),
    opt(Engine::Llamacpp, &["-c", "--ctx-size"], Knob::Context),
    opt(
        Engine::Llamacpp,
        &["-ngl", "--n-gpu-layers", "--gpu-layers"],
        Knob::NGpuLayers,
    ),
    opt(
        Engine::Llamacpp,
        &["-ctk", "--cache-type-k"],
        Knob::CacheTypeK,
    ),
    opt(
        Engine::Llamacpp,
        &["-ctv", "--cache-type-v"],
        Knob::CacheTypeV,
    ),
    opt(Engine::Llamacpp, &["-fa", "--flash-attn"], Knob::FlashAttn),
    opt(Engine::Llamacpp, &["-np", "--parallel"], Knob::Parallel),
    opt(Engine::Llamacpp, &["-ub", "--ubatch-size"], Knob::Ubatch),
    opt(Engine::Llamacpp, &["-b", "--batch-size"], Knob::Batch),
    opt(Engine::Llamacpp, &["-ncmoe", "--n-cpu-moe"], Knob::NCpuMoe),
    opt(Engine::Llamacpp, &["-cmoe", "--cpu-moe"], Knob::CpuMoe),
    opt(Engine::Llamacpp, &["-kvu", "--kv-unified"], Knob::KvUnified),
];

/// Options that change nothing the estimate models (serving address,
/// naming, sampling, logging, threads), with whether they take a value.
pub const NO_MEMORY_EFFECT: [(Engine, &str, bool); 36] = [
    (Engine::Vllm, "--host", true),
    (Engine::Vllm, "--port", true),
    (Engine::Vllm, "--served-model-name", true),
    (Engine::Vllm, "--api-key", true),
    (Engine::Vllm, "--trust-remote-code", false),
    (Engine::Vllm, "--disable-log-requests", false),
    (Engine::Vllm, "--disable-log-stats", false),
    (Engine::Vllm, "--uvicorn-log-level", true),
    (Engine::Vllm, "--seed", true),
    (Engine::Vllm, "--tokenizer", true),
    (Engine::Vllm, "--download-dir", true),
    (Engine::Vllm, "--revision", true),
    (Engine::Vllm, "--chat-template", true),
    (Engine::Vllm, "--enable-auto-tool-choice", false),
    (Engine::Vllm, "--tool-call-parser", true),
    (Engine::Vllm, "--reasoning-parser", true),
    (Engine::Vllm, "--generation-config", true),
    (Engine::Llamacpp, "--host", true),
    (Engine::Llamacpp, "--port", true),
    (Engine::Llamacpp, "-t", true),
    (Engine::Llamacpp, "--threads", true),
    (Engine::Llamacpp, "--jinja", false),
    (Engine::Llamacpp, "-a", true),
    (Engine::Llamacpp, "--alias", true),
    (Engine::Llamacpp, "--api-key", true),
    (Engine::Llamacpp, "--metrics", false),
    (Engine::Llamacpp, "-v", false),
    (Engine::Llamacpp, "--verbose", false),
    (Engine::Llamacpp, "--temp", true),
    (Engine::Llamacpp, "--top-k", true),
    (Engine::Llamacpp, "--top-p", true),
    (Engine::Llamacpp, "--min-p", true),
    (Engine::Llamacpp, "-n", true),
    (Engine::Llamacpp, "--n-predict", true),
    (Engine::Llamacpp, "-p", true),
    (Engine::Llamacpp, "--prompt", true),
];

/// Options that change memory in ways the estimate does not model, each
/// with the reason.
pub const NOT_MODELLED: [(Engine, &str, Unmodelled); 14] = [
    (Engine::Vllm, "--cpu-offload-gb", Unmodelled::HostOffload),
    (Engine::Vllm, "--swap-space", Unmodelled::SwapSpace),
    (
        Engine::Vllm,
        "--data-parallel-size",
        Unmodelled::DataParallel,
    ),
    (Engine::Vllm, "-dp", Unmodelled::DataParallel),
    (Engine::Vllm, "--speculative-config", Unmodelled::DraftModel),
    (Engine::Vllm, "--max-lora-rank", Unmodelled::ServingLora),
    (Engine::Vllm, "--enable-lora", Unmodelled::ServingLora),
    (Engine::Llamacpp, "-ts", Unmodelled::GpuSplit),
    (Engine::Llamacpp, "--tensor-split", Unmodelled::GpuSplit),
    (Engine::Llamacpp, "-sm", Unmodelled::GpuSplit),
    (Engine::Llamacpp, "--split-mode", Unmodelled::GpuSplit),
    (Engine::Llamacpp, "-ot", Unmodelled::TensorOverrides),
    (
        Engine::Llamacpp,
        "--override-tensor",
        Unmodelled::TensorOverrides,
    ),
    (Engine::Llamacpp, "-nkvo", Unmodelled::HostKvCache),
];

/// The row of [`OPTIONS`] an engine reads `name` with.
pub fn lookup(engine: Engine, name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.engine == engine && o.names.contains(&name))
}

/// One engine option with its value read.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// The model word (vLLM's id or path, llama.cpp's GGUF file).
    Model(String),
    /// llama.cpp `-hf REPO[:QUANT]`.
    HfRepo(String),
    /// Tokens per sequence; `None`: the model's trained context
    /// (llama.cpp's `-c 0`).
    Context(Option<u64>),
    Tp(u64),
    Pp(u64),
    GpuMemoryUtilization(f64),
    /// `None`: `auto`, the model's dtype.
    KvCacheDtype(Option<KvDtype>),
    /// `AsPublished`: a method that names the checkpoint's own format.
    Quantization(WeightFormat),
    /// `None`: `auto`.
    Dtype(Option<ComputeDtype>),
    MaxNumSeqs(u64),
    MaxNumBatchedTokens(u64),
    BlockSize(u64),
    EnforceEager,
    /// `None`: `auto`.
    NGpuLayers(Option<u64>),
    CacheTypeK(GgmlType),
    CacheTypeV(GgmlType),
    FlashAttn(bool),
    Parallel(u64),
    Ubatch(u64),
    Batch(u64),
    NCpuMoe(u64),
    KvUnified,
}

/// A token count as an engine reads it: a plain number, or vLLM's
/// suffixes (`k` 10³, `K` 2¹⁰, `m` 10⁶, `M` 2²⁰; vLLM
/// `vllm/utils/argparse_utils.py`, `human_readable_int`).
///
/// ```
/// use vramfit_core::command::vllm_tokens;
/// assert_eq!(vllm_tokens("32k"), Some(32_000));
/// assert_eq!(vllm_tokens("32K"), Some(32_768));
/// assert_eq!(vllm_tokens("8192"), Some(8_192));
/// ```
pub fn vllm_tokens(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, mult) = match text.char_indices().last()? {
        (i, 'k') => (&text[..i], 1_000.0),
        (i, 'K') => (&text[..i], 1_024.0),
        (i, 'm') => (&text[..i], 1_000_000.0),
        (i, 'M') => (&text[..i], 1_048_576.0),
        _ => (text, 1.0),
    };
    let value: f64 = number.parse().ok()?;
    let tokens = value * mult;
    (tokens.is_finite() && tokens >= 0.0 && tokens.fract() == 0.0).then_some(tokens as u64)
}

/// Reads the value of one option of `engine` into a [`Setting`].
pub fn read(
    engine: Engine,
    option: &str,
    knob: Knob,
    value: Option<&str>,
) -> Result<Setting, CommandError> {
    let text = value.unwrap_or_default().trim();
    let bad = |expected: Expected| CommandError::BadValue {
        option: option.to_string(),
        value: text.to_string(),
        expected,
    };
    let field = |field: Field, tokens: Option<u64>| -> Result<u64, CommandError> {
        let value = match tokens {
            Some(t) => field.check(t as f64),
            None => field.parse(text),
        };
        value
            .map(|v| v as u64)
            .map_err(|error| CommandError::Field {
                option: option.to_string(),
                error,
            })
    };
    let knob_value = |k: EngineField, text: &str| -> Result<Option<f64>, CommandError> {
        k.parse(text).map_err(|error| CommandError::Knob {
            option: option.to_string(),
            error,
        })
    };
    let whole = |k: EngineField| -> Result<u64, CommandError> {
        Ok(knob_value(k, text)?.map_or(0, |v| v as u64))
    };
    let cache = || {
        GgmlType::parse_cache(text)
            .filter(|t| CACHE_TYPES.contains(t))
            .ok_or_else(|| bad(Expected::CacheType))
    };
    Ok(match knob {
        Knob::Model => Setting::Model(text.to_string()),
        Knob::HfRepo => Setting::HfRepo(text.to_string()),
        Knob::Context => match engine {
            Engine::Vllm => {
                let tokens = vllm_tokens(text).ok_or_else(|| bad(Expected::TokenCount))?;
                Setting::Context(Some(field(Field::Context, Some(tokens))?))
            }
            Engine::Llamacpp if text == "0" => Setting::Context(None),
            Engine::Llamacpp => {
                let tokens = text.parse::<u64>().map_err(|_| bad(Expected::TokenCount))?;
                Setting::Context(Some(field(Field::Context, Some(tokens))?))
            }
        },
        Knob::Tp | Knob::Pp => {
            let n = text
                .parse::<u64>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| bad(Expected::GpuCount))?;
            match knob {
                Knob::Tp => Setting::Tp(field(Field::Tp, Some(n))?),
                _ => Setting::Pp(field(Field::Pp, Some(n))?),
            }
        }
        Knob::GpuMemoryUtilization => Setting::GpuMemoryUtilization(
            knob_value(EngineField::GpuMemoryUtilization, text)?.unwrap_or(0.9),
        ),
        Knob::KvCacheDtype => Setting::KvCacheDtype(match text {
            "auto" => None,
            "fp8" | "fp8_e4m3" | "fp8_e5m2" => Some(KvDtype::Fp8),
            "bfloat16" | "bf16" => Some(KvDtype::Bf16),
            "float16" | "fp16" | "half" => Some(KvDtype::Fp16),
            _ => return Err(bad(Expected::KvCacheDtype)),
        }),
        Knob::Quantization => Setting::Quantization(match text.to_ascii_lowercase().as_str() {
            "fp8" => WeightFormat::Fp8,
            "awq" | "awq_marlin" => WeightFormat::Awq,
            "gptq" | "gptq_marlin" => WeightFormat::Gptq,
            "mxfp4" => WeightFormat::Mxfp4,
            "bitsandbytes" => WeightFormat::Nf4,
            "compressed-tensors" | "modelopt" | "modelopt_fp4" => WeightFormat::AsPublished,
            _ => return Err(bad(Expected::Quantization)),
        }),
        Knob::Dtype => match text {
            "auto" => Setting::Dtype(None),
            _ => Setting::Dtype(Some(
                ComputeDtype::from_name(text).ok_or_else(|| bad(Expected::Dtype))?,
            )),
        },
        Knob::MaxNumSeqs => Setting::MaxNumSeqs(whole(EngineField::MaxNumSeqs)?),
        Knob::MaxNumBatchedTokens => {
            let tokens = vllm_tokens(text).ok_or_else(|| bad(Expected::TokenCount))?;
            let checked = knob_value(EngineField::MaxNumBatchedTokens, &tokens.to_string())?;
            Setting::MaxNumBatchedTokens(checked.map_or(tokens, |v| v as u64))
        }
        Knob::BlockSize => Setting::BlockSize(whole(EngineField::BlockSize)?),
        Knob::EnforceEager => Setting::EnforceEager,
        Knob::NGpuLayers => Setting::NGpuLayers(match text {
            "auto" | "-1" => None,
            // llama.cpp's "all": every layer (more than any model has).
            "all" => Some(EngineField::NGpuLayers.range().1 as u64),
            _ => Some(whole(EngineField::NGpuLayers)?),
        }),
        Knob::CacheTypeK => Setting::CacheTypeK(cache()?),
        Knob::CacheTypeV => Setting::CacheTypeV(cache()?),
        Knob::FlashAttn => Setting::FlashAttn(match text {
            // `auto` is on where the backend has flash attention (CUDA,
            // Metal, Vulkan, CPU); a bare `-fa` (earlier releases) is on.
            "" | "on" | "auto" | "1" | "true" | "enabled" => true,
            "off" | "0" | "false" | "disabled" => false,
            _ => return Err(bad(Expected::FlashAttn)),
        }),
        Knob::Parallel => Setting::Parallel(field(Field::Sequences, None)?),
        Knob::Ubatch => Setting::Ubatch(whole(EngineField::Ubatch)?),
        Knob::Batch => Setting::Batch(
            text.parse::<u64>()
                .ok()
                .filter(|b| *b >= 1)
                .ok_or_else(|| bad(Expected::BatchTokens))?,
        ),
        Knob::NCpuMoe => Setting::NCpuMoe(whole(EngineField::NCpuMoe)?),
        Knob::CpuMoe => Setting::NCpuMoe(EngineField::NCpuMoe.range().1 as u64),
        Knob::KvUnified => Setting::KvUnified,
    })
}

impl Setting {
    /// Writes the setting into `input`. `Model`, `HfRepo` and `Dtype`
    /// are the command's to resolve ([`super::EngineCommand::apply`]):
    /// here they change nothing.
    pub fn apply(&self, input: &mut ScenarioInput) {
        let e = &mut input.engine;
        match *self {
            Setting::Model(_) | Setting::HfRepo(_) | Setting::KvUnified | Setting::Dtype(_) => {}
            Setting::Context(Some(n)) => input.context = n,
            Setting::Context(None) => {}
            Setting::Tp(n) => input.tp = Some(n),
            Setting::Pp(n) => input.pp = Some(n),
            Setting::GpuMemoryUtilization(u) => e.gpu_memory_utilization = Some(u),
            Setting::KvCacheDtype(d) => input.set_kv_dtype(d.unwrap_or(KvDtype::Fp16)),
            Setting::Quantization(f) => input.set_weight_format(f),
            Setting::MaxNumSeqs(n) => e.max_num_seqs = Some(n),
            Setting::MaxNumBatchedTokens(n) => e.max_num_batched_tokens = Some(n),
            Setting::BlockSize(n) => e.block_size = n,
            Setting::EnforceEager => e.enforce_eager = true,
            Setting::NGpuLayers(n) => e.n_gpu_layers = n,
            Setting::CacheTypeK(t) => e.cache_type_k = Some(t),
            Setting::CacheTypeV(t) => e.cache_type_v = Some(t),
            Setting::FlashAttn(on) => e.flash_attn = on,
            Setting::Parallel(n) => input.sequences = n,
            Setting::Ubatch(n) => e.ubatch = n,
            // The default stays out of the document.
            Setting::Batch(n) => e.n_batch = Some(n).filter(|b| *b != DEFAULT_N_BATCH),
            Setting::NCpuMoe(n) => e.n_cpu_moe = n,
        }
    }
}

/// llama.cpp's default `-b` (`common/common.h`, `n_batch = 2048`).
pub const DEFAULT_N_BATCH: u64 = 2048;

/// Reads the dtype and the weight format as two knobs: `--dtype` sets
/// the compute dtype, and the weight format only where no quantization
/// names one, whatever the order they were typed in.
pub fn apply_dtype(input: &mut ScenarioInput, dtype: Option<ComputeDtype>, quantized: bool) {
    input.engine.dtype = dtype;
    if let (Some(d), false) = (dtype, quantized) {
        input.set_weight_format(d.weight_format());
        // The weight format says it: no separate knob to keep.
        input.engine.dtype = None;
    }
}
