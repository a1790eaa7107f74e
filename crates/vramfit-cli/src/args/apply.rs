//! One option's value read into the scenario, with the scenario's own
//! checks and messages.

use vramfit_cli::line::Opt;
use vramfit_core::gguf::{FileType, GgmlType};
use vramfit_core::methods::MethodId;
use vramfit_core::scenario::{
    AttnImpl, ComputeDtype, EngineField, Field, KvDtype, Mode, Optimizer, Precision, ScenarioInput,
    WeightFormat,
};

/// `--dtype`: a compute dtype, or `auto` (the checkpoint's).
pub(super) fn compute_dtype(text: &str) -> Result<Option<ComputeDtype>, String> {
    match text.trim() {
        "auto" => Ok(None),
        t => ComputeDtype::from_name(t).map(Some).ok_or_else(|| {
            format!(
                "unknown dtype `{text}` (known: auto, fp32, bf16, fp16, bfloat16, float16, half)"
            )
        }),
    }
}

/// Applies one option (a switch, or `--flag value`) to the scenario.
pub(super) fn apply(input: &mut ScenarioInput, flag: &str, text: &str) -> Result<(), String> {
    let unknown = |what: &str, known: &[&str]| {
        format!("unknown {what} `{text}` (known: {})", known.join(", "))
    };
    match Opt::ALL.into_iter().find(|o| o.flag() == flag) {
        Some(Opt::Train) if input.mode != Mode::Lora => input.mode = Mode::Full,
        Some(Opt::Train) => {}
        Some(Opt::GradCheckpoint) => input.grad_checkpoint = true,
        Some(Opt::NoGradCheckpoint) => input.grad_checkpoint = false,
        Some(Opt::Qlora) => input.mode = Mode::Qlora,
        Some(Opt::NoLoraDropout) => input.lora_dropout = false,
        Some(Opt::NoCache) => input.use_cache = false,
        Some(Opt::Mode) => {
            input.mode =
                Mode::from_name(text).ok_or_else(|| unknown("mode", &Mode::ALL.map(Mode::id)))?;
        }
        Some(Opt::Quant) => match (WeightFormat::from_name(text), FileType::parse(text)) {
            (Some(format), _) => input.set_weight_format(format),
            (None, Some(file_type)) => input.set_gguf_type(file_type),
            (None, None) => {
                let mut known: Vec<String> = WeightFormat::ALL
                    .iter()
                    .map(|f| f.id().to_string())
                    .collect();
                known.extend(FileType::ALL.iter().map(|f| f.name().to_ascii_lowercase()));
                known.dedup();
                let known: Vec<&str> = known.iter().map(String::as_str).collect();
                return Err(unknown("format", &known));
            }
        },
        Some(opt @ (Opt::CacheTypeK | Opt::CacheTypeV)) => {
            let t = GgmlType::parse_cache(text).ok_or_else(|| {
                unknown(
                    "cache type",
                    &vramfit_core::gguf::CACHE_TYPES.map(GgmlType::name),
                )
            })?;
            match opt {
                Opt::CacheTypeK => input.engine.cache_type_k = Some(t),
                _ => input.engine.cache_type_v = Some(t),
            }
        }
        Some(Opt::FlashAttn) => input.engine.flash_attn = true,
        Some(Opt::NoFlashAttn) => input.engine.flash_attn = false,
        Some(Opt::EnforceEager) => input.engine.enforce_eager = true,
        Some(Opt::Interconnect) => {
            let link = vramfit_core::scenario::Interconnect::from_name(text)
                .ok_or_else(|| unknown("interconnect", &["nvlink", "nvswitch", "pcie"]))?;
            input.engine.interconnect = Some(link);
        }
        Some(Opt::VllmVersion) => {
            let release = vramfit_core::scenario::VllmRelease::parse(text)
                .ok_or_else(|| format!("`{text}` is not a vLLM version (0.19, 0.10.1)"))?;
            input.engine.vllm_version = Some(release);
        }
        Some(Opt::KvDtype) => {
            let dtype = KvDtype::from_name(text)
                .ok_or_else(|| unknown("KV dtype", &KvDtype::ALL.map(KvDtype::id)))?;
            input.set_kv_dtype(dtype);
        }
        Some(Opt::Precision) => {
            input.precision =
                Precision::from_name(text).ok_or_else(|| unknown("precision", &["amp", "pure"]))?;
        }
        Some(Opt::Optimizer) => {
            input.optimizer = Optimizer::from_name(text)
                .ok_or_else(|| unknown("optimizer", &["adamw", "sgd"]))?;
        }
        Some(Opt::Attn) => {
            input.attn = AttnImpl::from_name(text)
                .ok_or_else(|| unknown("attention", &["eager", "sdpa", "flash"]))?;
        }
        // A list of GPUs (`RTX 3090 + RTX 3060`; catalog names may hold
        // commas): the first is the scenario's GPU, the others follow it
        // in llama.cpp's order. A catalog name that holds a `+` itself
        // (`AMD Ryzen AI Max+ 395`) is one GPU.
        Some(Opt::Gpu)
            if text.contains('+') && vramfit_core::catalog::find_gpu(text.trim()).is_err() =>
        {
            let mut names = text.split('+').map(str::trim).filter(|n| !n.is_empty());
            input.set_gpu(names.next().unwrap_or(""));
            input.engine.placement.more_gpus = names.map(str::to_string).collect();
        }
        Some(Opt::Gpu) => input.set_gpu(text),
        Some(
            opt @ (Opt::Runner
            | Opt::LlamacppBuild
            | Opt::LmstudioGuardrail
            | Opt::SwaFull
            | Opt::KvUnified
            | Opt::NoKvUnified
            | Opt::TensorSplit
            | Opt::SplitMode
            | Opt::MainGpu
            | Opt::OverrideTensor
            | Opt::CpuMoe
            | Opt::NoMmap
            | Opt::Mlock),
        ) => crate::llamacpp_args::apply(input, opt, text)?,
        // The planner's custom-model shape, machine count and batch limit.
        Some(opt @ (Opt::HiddenSize | Opt::VocabSize | Opt::Machines | Opt::BatchLimit)) => {
            let n: u64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: must be a whole number"))?;
            match opt {
                Opt::HiddenSize => input.planner.hidden_size = Some(n),
                Opt::VocabSize => input.planner.vocab_size = Some(n),
                Opt::BatchLimit => input.planner.batch_limit = Some(n),
                _ => input.planner.machines = n,
            }
        }
        Some(Opt::CapacityGib) => {
            let gib: f64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: is not a number"))?;
            input.set_capacity_gib(gib);
            Field::GpuMemoryGb
                .check(input.gpu_memory_gb)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
        }
        Some(Opt::Batch | Opt::Users) => {
            let number = Field::Sequences
                .parse(text)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
            input.set(Field::Sequences, number);
        }
        Some(Opt::HostBandwidthGbs) => {
            let gbs: f64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: is not a number"))?;
            input.speed.host_bandwidth_gbs = Some(gbs);
        }
        Some(Opt::Backend) => {
            let names = vramfit_core::scenario::Backend::ALL.map(|b| b.id());
            input.speed.backend = Some(
                vramfit_core::scenario::Backend::from_name(text)
                    .ok_or_else(|| unknown("backend", &names))?,
            );
        }
        Some(Opt::PromptTokens) => {
            let n: u64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: must be a whole number"))?;
            input.speed.prompt_tokens = Some(n);
        }
        Some(Opt::Method | Opt::Json | Opt::Dtype | Opt::Calibrate | Opt::Mmproj) => {}
        None if EngineField::ALL.iter().any(|f| f.flag() == flag) => {
            let Some(field) = EngineField::ALL.into_iter().find(|f| f.flag() == flag) else {
                return Ok(());
            };
            let text = match text.trim().eq_ignore_ascii_case("auto") {
                true if field.optional() => "",
                _ => text,
            };
            let value = field
                .parse(text)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
            field.set(&mut input.engine, value);
        }
        None => {
            let field = Field::ALL
                .into_iter()
                .find(|f| f.flag() == flag)
                .ok_or_else(|| format!("unknown option `{flag}` (try `vramfit --help`)"))?;
            let number = field
                .parse(text)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
            input.set(field, number);
            // `--lora R` also selects LoRA mode.
            if field == Field::LoraRank {
                input.mode = Mode::Lora;
            }
        }
    }
    Ok(())
}

/// `--method NAME`.
pub(super) fn method(text: &str) -> Result<MethodId, String> {
    MethodId::from_name(text).ok_or_else(|| {
        format!(
            "unknown method `{text}` (known: {})",
            MethodId::ALL.map(|m| m.id()).join(", ")
        )
    })
}

/// The error text without the field key (the flag already names it).
fn without_key(message: &str) -> &str {
    message.split_once(' ').map_or(message, |(_, rest)| rest)
}
