//! A request as the `vramfit` command line that reproduces it, and the
//! names of the options that are not a scenario field ([`Opt`]; the fields'
//! own are [`Field::flag`]). The binary's parser reads the same two lists,
//! so an option is named in one place for both directions.
//!
//! No argument parser is compiled here: the web app shows this line in
//! its lesson without clap in its wasm (the parser is the binary's, behind
//! the crate's `cli` feature).

use vramfit_core::request::Request;
use vramfit_core::scenario::{
    EngineField, EngineKnobs, Field, ModelRef, PlannerKnobs, ScenarioInput,
};

/// The options of `vramfit estimate` besides the scenario's numeric fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    Method,
    Mode,
    Quant,
    Dtype,
    KvDtype,
    Precision,
    Optimizer,
    Attn,
    Gpu,
    CapacityGib,
    HiddenSize,
    VocabSize,
    Machines,
    BatchLimit,
    Train,
    GradCheckpoint,
    /// `--no-grad-checkpoint`: training without it (the trainers' default
    /// is on, [`vramfit_core::request::TRAINER_GRAD_CHECKPOINT`]).
    NoGradCheckpoint,
    Qlora,
    NoLoraDropout,
    NoCache,
    Json,
    CacheTypeK,
    CacheTypeV,
    FlashAttn,
    NoFlashAttn,
    EnforceEager,
    /// `--vllm-version X.Y[.Z]`: the vLLM release the `vllm` method models.
    VllmVersion,
    /// `--interconnect nvlink|nvswitch|pcie`: how tensor-parallel GPUs are linked.
    Interconnect,
    /// `--calibrate LOG`: an engine's start-up log to fit the machine's
    /// runtime terms on (the fit itself is in the scenario).
    Calibrate,
    /// `--runner llama-server|ollama|lmstudio`.
    Runner,
    /// `--llamacpp-build bNNNN`.
    LlamacppBuild,
    /// `--lmstudio-guardrail off|relaxed|balanced|strict|custom:GIB`.
    LmstudioGuardrail,
    SwaFull,
    KvUnified,
    NoKvUnified,
    TensorSplit,
    SplitMode,
    MainGpu,
    /// `--override-tensor PATTERN=BUFFER`, given as often as needed.
    OverrideTensor,
    CpuMoe,
    NoMmap,
    Mlock,
    /// `--batch N`: the earlier name of `--sequences`, still read.
    Batch,
    /// `--users N`: the earlier name of `--sequences`, still read.
    Users,
    /// `--mmproj FILE`: a GGUF model's vision projector.
    Mmproj,
    /// `--host-bandwidth-gbs X`: host memory bandwidth (speed).
    HostBandwidthGbs,
    /// `--backend cuda|metal|vulkan|rocm|cpu` (speed).
    Backend,
    /// `--prompt-tokens N`: the prompt the speed figures are for.
    PromptTokens,
}

impl Opt {
    /// Every option, in the order the usage lists them.
    pub const ALL: [Opt; 48] = [
        Opt::Method,
        Opt::Mode,
        Opt::Quant,
        Opt::Dtype,
        Opt::KvDtype,
        Opt::Precision,
        Opt::Optimizer,
        Opt::Attn,
        Opt::Gpu,
        Opt::CapacityGib,
        Opt::HiddenSize,
        Opt::VocabSize,
        Opt::Machines,
        Opt::BatchLimit,
        Opt::Train,
        Opt::GradCheckpoint,
        Opt::NoGradCheckpoint,
        Opt::Qlora,
        Opt::NoLoraDropout,
        Opt::NoCache,
        Opt::Json,
        Opt::CacheTypeK,
        Opt::CacheTypeV,
        Opt::FlashAttn,
        Opt::NoFlashAttn,
        Opt::EnforceEager,
        Opt::VllmVersion,
        Opt::Interconnect,
        Opt::Calibrate,
        Opt::Runner,
        Opt::LlamacppBuild,
        Opt::LmstudioGuardrail,
        Opt::SwaFull,
        Opt::KvUnified,
        Opt::NoKvUnified,
        Opt::TensorSplit,
        Opt::SplitMode,
        Opt::MainGpu,
        Opt::OverrideTensor,
        Opt::CpuMoe,
        Opt::NoMmap,
        Opt::Mlock,
        Opt::Batch,
        Opt::Users,
        Opt::Mmproj,
        Opt::HostBandwidthGbs,
        Opt::Backend,
        Opt::PromptTokens,
    ];

    /// The flag, with its dashes (`--kv-dtype`).
    pub const fn flag(self) -> &'static str {
        match self {
            Opt::Method => "--method",
            Opt::Mode => "--mode",
            Opt::Quant => "--quant",
            Opt::Dtype => "--dtype",
            Opt::KvDtype => "--kv-dtype",
            Opt::Precision => "--precision",
            Opt::Optimizer => "--optimizer",
            Opt::Attn => "--attn",
            Opt::Gpu => "--gpu",
            Opt::CapacityGib => "--capacity-gib",
            Opt::HiddenSize => "--hidden-size",
            Opt::VocabSize => "--vocab-size",
            Opt::Machines => "--machines",
            Opt::BatchLimit => "--batch-limit",
            Opt::Train => "--train",
            Opt::GradCheckpoint => "--grad-checkpoint",
            Opt::NoGradCheckpoint => "--no-grad-checkpoint",
            Opt::Qlora => "--qlora",
            Opt::NoLoraDropout => "--no-lora-dropout",
            Opt::NoCache => "--no-cache",
            Opt::Json => "--json",
            Opt::CacheTypeK => "--cache-type-k",
            Opt::CacheTypeV => "--cache-type-v",
            Opt::FlashAttn => "--flash-attn",
            Opt::NoFlashAttn => "--no-flash-attn",
            Opt::EnforceEager => "--enforce-eager",
            Opt::VllmVersion => "--vllm-version",
            Opt::Interconnect => "--interconnect",
            Opt::Calibrate => "--calibrate",
            Opt::Runner => "--runner",
            Opt::LlamacppBuild => "--llamacpp-build",
            Opt::LmstudioGuardrail => "--lmstudio-guardrail",
            Opt::SwaFull => "--swa-full",
            Opt::KvUnified => "--kv-unified",
            Opt::NoKvUnified => "--no-kv-unified",
            Opt::TensorSplit => "--tensor-split",
            Opt::SplitMode => "--split-mode",
            Opt::MainGpu => "--main-gpu",
            Opt::OverrideTensor => "--override-tensor",
            Opt::CpuMoe => "--cpu-moe",
            Opt::NoMmap => "--no-mmap",
            Opt::Mlock => "--mlock",
            Opt::Batch => "--batch",
            Opt::Users => "--users",
            Opt::Mmproj => "--mmproj",
            Opt::HostBandwidthGbs => "--host-bandwidth-gbs",
            Opt::Backend => "--backend",
            Opt::PromptTokens => "--prompt-tokens",
        }
    }

    /// Whether the option takes a value (else it is a switch).
    pub const fn takes_value(self) -> bool {
        !matches!(
            self,
            Opt::Train
                | Opt::GradCheckpoint
                | Opt::NoGradCheckpoint
                | Opt::Qlora
                | Opt::NoLoraDropout
                | Opt::NoCache
                | Opt::Json
                | Opt::FlashAttn
                | Opt::NoFlashAttn
                | Opt::EnforceEager
                | Opt::SwaFull
                | Opt::KvUnified
                | Opt::NoKvUnified
                | Opt::CpuMoe
                | Opt::NoMmap
                | Opt::Mlock
        )
    }

    /// Whether the option may be given more than once (each value kept,
    /// in order).
    pub fn repeats(flag: &str) -> bool {
        flag == Opt::OverrideTensor.flag()
    }
}

/// The arguments of `vramfit` that reproduce `request`'s estimate: the
/// subcommand, the model, every value that differs from the defaults, then
/// the method and the mode (always named, so that nothing depends on the
/// command line's own choice of method). A pasted `config.json` is named
/// `config.json`: save it under that name next to where the command runs
/// (and its `hf_quant_config.json`, if one was given, beside it).
pub fn args(request: &Request) -> Vec<String> {
    let input = &request.scenario;
    let default = ScenarioInput::default();
    let mut out = vec!["estimate".to_string()];
    match &input.model {
        Some(ModelRef::Catalog(id)) => out.push(id.clone()),
        Some(ModelRef::Config(_) | ModelRef::ConfigWithQuant { .. }) => {
            out.push("config.json".into())
        }
        Some(ModelRef::Gguf(file)) => {
            out.push(file.file.clone());
            if let Some(p) = &file.mmproj {
                out.extend([Opt::Mmproj.flag().into(), p.file.clone()]);
            }
        }
        None => {}
    }
    let mut set = |flag: &str, value: String| {
        out.push(flag.to_string());
        out.push(value);
    };
    // `--lora` comes last: it also selects LoRA mode.
    for field in Field::ALL.into_iter().filter(|f| *f != Field::LoraRank) {
        let replaced = (input.model.is_some() && Field::SHAPE.contains(&field))
            || (field == Field::WeightBits
                && (input.weight_format.is_some() || input.engine.gguf_type.is_some()))
            || (field == Field::GpuMemoryGb && input.gpu.is_some());
        let value = input.get(field);
        // With a model, no format means as published: typed bits are named
        // even when they are the default 16.
        let typed_bits =
            field == Field::WeightBits && input.model.is_some() && input.weight_format.is_none();
        if !replaced && (value != default.get(field) || typed_bits) {
            set(field.flag(), format!("{value}"));
        }
    }
    if let Some(format) = input.weight_format {
        set(Opt::Quant.flag(), format.id().into());
    }
    // A GGUF type of its own after the weight format (which clears it).
    if let Some(file_type) = input.engine.gguf_type {
        set(Opt::Quant.flag(), file_type.name().to_ascii_lowercase());
    }
    if let Some(gpu) = &input.gpu {
        let more = &input.engine.placement.more_gpus;
        let list = std::iter::once(gpu)
            .chain(more)
            .cloned()
            .collect::<Vec<_>>();
        set(Opt::Gpu.flag(), list.join(" + "));
    }
    if input.precision != default.precision {
        set(Opt::Precision.flag(), input.precision.id().into());
    }
    // Training takes the trainers' default unless the line says otherwise.
    match (input.grad_checkpoint, input.mode.trains()) {
        (true, _) => out.push(Opt::GradCheckpoint.flag().into()),
        (false, true) => out.push(Opt::NoGradCheckpoint.flag().into()),
        (false, false) => {}
    }
    if input.optimizer != default.optimizer {
        out.extend([Opt::Optimizer.flag().into(), input.optimizer.id().into()]);
    }
    if input.attn != default.attn {
        out.extend([Opt::Attn.flag().into(), input.attn.id().into()]);
    }
    if !input.lora_dropout {
        out.push(Opt::NoLoraDropout.flag().into());
    }
    if !input.use_cache {
        out.push(Opt::NoCache.flag().into());
    }
    out.extend(planner_args(&input.planner, &default.planner));
    out.extend(engine_args(&input.engine, &default.engine));
    out.extend(speed_args(&input.speed));
    // `--lora R` also selects LoRA mode, so the mode comes after it.
    if input.lora_rank != default.lora_rank {
        out.extend([Field::LoraRank.flag().into(), input.lora_rank.to_string()]);
    }
    out.extend([Opt::Method.flag().into(), request.method.id().into()]);
    out.extend([Opt::Mode.flag().into(), input.mode.id().into()]);
    out
}

/// The planner knobs that have CLI flags, where they differ from the
/// defaults: a custom model's hidden size and vocabulary, machines and
/// the batch limit.
fn planner_args(knobs: &PlannerKnobs, default: &PlannerKnobs) -> Vec<String> {
    let mut out = Vec::new();
    for (opt, value) in [
        (Opt::HiddenSize, knobs.hidden_size),
        (Opt::VocabSize, knobs.vocab_size),
        (Opt::BatchLimit, knobs.batch_limit),
    ] {
        if let Some(v) = value {
            out.push(opt.flag().to_string());
            out.push(v.to_string());
        }
    }
    if knobs.machines != default.machines {
        out.push(Opt::Machines.flag().into());
        out.push(knobs.machines.to_string());
    }
    out
}

/// The engines' knobs that differ from their defaults (`vllm serve` and
/// `llama-server` option names).
fn engine_args(knobs: &EngineKnobs, default: &EngineKnobs) -> Vec<String> {
    let mut out = Vec::new();
    for field in EngineField::ALL {
        if let (Some(value), true) = (field.get(knobs), field.get(knobs) != field.get(default)) {
            out.push(field.flag().to_string());
            out.push(format!("{value}"));
        }
    }
    for (opt, cache) in [
        (Opt::CacheTypeK, knobs.cache_type_k),
        (Opt::CacheTypeV, knobs.cache_type_v),
    ] {
        if let Some(t) = cache {
            out.push(opt.flag().to_string());
            out.push(t.name().to_string());
        }
    }
    if knobs.flash_attn != default.flash_attn {
        let opt = match knobs.flash_attn {
            true => Opt::FlashAttn,
            false => Opt::NoFlashAttn,
        };
        out.push(opt.flag().to_string());
    }
    if knobs.enforce_eager {
        out.push(Opt::EnforceEager.flag().to_string());
    }
    if let Some(link) = knobs.interconnect {
        out.push(Opt::Interconnect.flag().to_string());
        out.push(link.id().to_string());
    }
    if let Some(release) = knobs.vllm_version {
        out.push(Opt::VllmVersion.flag().to_string());
        out.push(release.text());
    }
    if knobs.runner != default.runner {
        out.extend([
            Opt::Runner.flag().to_string(),
            knobs.runner.id().to_string(),
        ]);
    }
    if let Some(b) = knobs.llamacpp_build {
        out.extend([Opt::LlamacppBuild.flag().to_string(), format!("b{b}")]);
    }
    if let Some(g) = knobs.lmstudio_guardrail {
        out.extend([Opt::LmstudioGuardrail.flag().to_string(), g.arg()]);
    }
    if knobs.swa_full {
        out.push(Opt::SwaFull.flag().to_string());
    }
    match knobs.kv_unified {
        Some(true) => out.push(Opt::KvUnified.flag().to_string()),
        Some(false) => out.push(Opt::NoKvUnified.flag().to_string()),
        None => {}
    }
    out.extend(placement_args(&knobs.placement));
    out
}

/// The placement options that differ from one GPU with llama.cpp's
/// defaults (the GPU list is written with `--gpu`).
fn placement_args(p: &vramfit_core::scenario::Placement) -> Vec<String> {
    let mut out = Vec::new();
    if !p.tensor_split.is_empty() {
        let shares: Vec<String> = p.tensor_split.iter().map(|s| format!("{s}")).collect();
        out.extend([Opt::TensorSplit.flag().to_string(), shares.join(",")]);
    }
    if p.split_mode != vramfit_core::scenario::SplitMode::default() {
        out.extend([
            Opt::SplitMode.flag().to_string(),
            p.split_mode.id().to_string(),
        ]);
    }
    if p.main_gpu != 0 {
        out.extend([Opt::MainGpu.flag().to_string(), p.main_gpu.to_string()]);
    }
    for o in &p.override_tensor {
        out.extend([Opt::OverrideTensor.flag().to_string(), o.clone()]);
    }
    for (on, opt) in [
        (p.cpu_moe, Opt::CpuMoe),
        (p.no_mmap, Opt::NoMmap),
        (p.mlock, Opt::Mlock),
    ] {
        if on {
            out.push(opt.flag().to_string());
        }
    }
    out
}

/// The speed knobs that are set.
fn speed_args(knobs: &vramfit_core::scenario::SpeedKnobs) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(gbs) = knobs.host_bandwidth_gbs {
        out.extend([Opt::HostBandwidthGbs.flag().to_string(), format!("{gbs}")]);
    }
    if let Some(b) = knobs.backend {
        out.extend([Opt::Backend.flag().to_string(), b.id().to_string()]);
    }
    if let Some(p) = knobs.prompt_tokens {
        out.extend([Opt::PromptTokens.flag().to_string(), p.to_string()]);
    }
    out
}

/// [`args`] as one shell command line, quoted where needed.
///
/// ```
/// use vramfit_cli::line;
/// use vramfit_core::{request::Request, scenario::ScenarioInput};
/// let scenario = ScenarioInput { params_b: 70.0, weight_bits: 4.0, gpu_memory_gb: 48.0, ..ScenarioInput::default() };
/// let request = Request { scenario, ..Request::default() };
/// assert_eq!(
///     line::command(&request),
///     "vramfit estimate --params 70 --weight-bits 4 --capacity-gb 48 --method quick --mode inference"
/// );
/// ```
pub fn command(request: &Request) -> String {
    let mut line = String::from("vramfit");
    for arg in args(request) {
        line.push(' ');
        line.push_str(&shell_quote(&arg));
    }
    line
}

/// `arg` as a POSIX shell word.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@,+%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vramfit_core::kit;
    use vramfit_core::methods::MethodId;
    use vramfit_core::scenario::WeightFormat;

    fn example(name: &str) -> Request {
        kit::reference()
            .examples
            .into_iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no example {name}"))
            .inputs
    }

    #[test]
    fn a_command_names_only_what_differs() {
        let mut q4 = ScenarioInput {
            lora_rank: 8,
            grad_checkpoint: true,
            ..ScenarioInput::default()
        };
        q4.set_weight_format(WeightFormat::Q4KM);
        for (request, want) in [
            (
                example("seed003-llama-3.1-8b-lora16-pure-4k-rtx3090"),
                "vramfit estimate meta-llama/Llama-3.1-8B --weight-bits 16 --seq 4096 --gpu 'NVIDIA GeForce RTX 3090' --no-grad-checkpoint --method allocator --mode lora",
            ),
            (
                example("seed000-7b-inference-4k-24gib"),
                "vramfit estimate --params 7 --seq 4096 --capacity-gb 25.769803776 --method lesson --mode inference",
            ),
            (
                Request::new(MethodId::Quick, q4),
                "vramfit estimate --quant q4_k_m --grad-checkpoint --lora 8 --method quick --mode inference",
            ),
        ] {
            assert_eq!(command(&request), want);
        }
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn engine_knobs_are_written_with_the_engines_names() {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            ..ScenarioInput::default()
        };
        input.set_gguf_type(vramfit_core::gguf::FileType::IQ4_XS);
        input.engine.n_gpu_layers = Some(20);
        input.engine.cache_type_v = Some(vramfit_core::gguf::GgmlType::Q8_0);
        input.engine.flash_attn = false;
        input.engine.gpu_memory_utilization = Some(0.95);
        assert_eq!(
            command(&Request::new(MethodId::Llamacpp, input)),
            "vramfit estimate meta-llama/Llama-3.1-8B --quant iq4_xs \
             --gpu-memory-utilization 0.95 --n-gpu-layers 20 --cache-type-v q8_0 \
             --no-flash-attn --method llamacpp --mode inference"
        );
    }

    #[test]
    fn every_option_has_its_own_flag() {
        let mut flags: Vec<&str> = Opt::ALL.iter().map(|o| o.flag()).collect();
        flags.extend(Field::ALL.iter().map(|f| f.flag()));
        flags.extend(EngineField::ALL.iter().map(|f| f.flag()));
        let count = flags.len();
        flags.sort_unstable();
        flags.dedup();
        assert_eq!(flags.len(), count);
    }
}
