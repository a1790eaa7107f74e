//! Command-line parsing on clap: every mistake becomes one readable
//! sentence.
//!
//! The subcommands and their arguments are clap's derive; the options of
//! `estimate` are the two name lists the line encoding writes with
//! ([`Field::flag`], [`Opt`]), so an option is named once for both
//! directions. Options apply in the order they are given, as a person
//! reads the line: `--quant q4_k_m --weight-bits 5` types bits by hand
//! after choosing a format, `--lora 8 --mode full` trains every weight.
//! clap reads the words; the values are read here, with the scenario's own
//! checks and messages.

use crate::engine_words;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command as ClapCommand, FromArgMatches, Parser};
use std::path::Path;
use vramfit_cli::line::Opt;
use vramfit_core::command::{self, Setting};
use vramfit_core::gguf::{FileType, GgmlType};
use vramfit_core::methods::MethodId;
use vramfit_core::request::{Request, TRAINER_GRAD_CHECKPOINT};
use vramfit_core::scenario::{
    AttnImpl, ComputeDtype, EngineField, Field, KvDtype, Mode, ModelRef, Optimizer, Precision,
    ScenarioInput, WeightFormat,
};

/// What the command line asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    Version,
    Estimate {
        input: Box<Request>,
        json: bool,
        /// The fit on a vLLM `--calibrate LOG`, shown before the estimate.
        calibration: Option<String>,
        /// A llama.cpp `--calibrate LOG`: the log the scenario started from.
        calibrate: Option<Box<vramfit_core::calibrate::llamacpp::LlamacppLog>>,
    },
    Inspect {
        model: ModelRef,
        json: bool,
    },
    Gpus {
        json: bool,
    },
    Models {
        json: bool,
    },
    Kit,
    Check {
        path: String,
    },
}

pub const USAGE: &str = "\
usage:
  vramfit estimate [MODEL] [--method quick|lesson|range|planner|allocator|vllm|llamacpp]
                   [--mode inference|full|lora|qlora]
                   [--train] [--lora R] [--precision amp|pure]
                   [--grad-checkpoint|--no-grad-checkpoint]   (training: on unless
                   --no-grad-checkpoint, as TRL's SFTConfig; transformers' Trainer: off)
                   [--optimizer adamw|sgd] [--attn eager|sdpa|flash] [--no-lora-dropout]
                   [--no-cache]   (training: use_cache=False, no KV cache object)
                   [--dtype fp32|bf16|fp16] [--quant FORMAT] [--weight-bits N]
                   [--kv-dtype DTYPE] [--kv-bytes N] [--seq N] [--sequences N]
                   [--gpus N] [--tp N|auto] [--pp N|auto]
                   [--host-ram-gb X] [--offload-gb X] [--prefix-tokens N]
                   [--machines N] [--batch-limit N]                      (planner)
                   [--hidden-size N --vocab-size N]          (planner, typed model)
                   [--qlora]
                   [--gpu NAME | --capacity-gb X | --capacity-gib X]
                   [--overhead-pct X]                                    (quick)
                   [--runtime-gib X] [--activation-gib X] [--margin PCT]  (lesson)
                   [--gpu-memory-utilization F] [--max-num-batched-tokens N]
                   [--max-num-seqs N] [--block-size N] [--enforce-eager]     (vllm)
                   [--vllm-version X.Y] [--calibrate LOG]                    (vllm)
                   [--interconnect nvlink|nvswitch|pcie] [--other-memory-gib X] (vllm)
                   [--cache-type-k T] [--cache-type-v T] [--n-gpu-layers N|auto]
                   [--n-cpu-moe N] [--ubatch N] [--flash-attn|--no-flash-attn] (llamacpp)
                   [--runner llama-server|ollama|lmstudio] [--llamacpp-build bNNNN]
                   [--swa-full] [--kv-unified|--no-kv-unified]               (llamacpp)
                   [--lmstudio-guardrail off|relaxed|balanced|strict|custom:GIB] (lmstudio)
                   [--gpu 'RTX 3090 + RTX 3060'] [--tensor-split 3,1] [--split-mode layer|row|none]
                   [--main-gpu N] [--override-tensor PATTERN=CPU|CUDA1 ...] [--cpu-moe]
                   [--no-mmap] [--mlock]                                     (llamacpp)
                   [--bios-vram-gib X]        (an AMD APU's BIOS VRAM; 0.5 assumed)
                   [--mmproj FILE]     (a GGUF MODEL's vision projector, on the GPU)
                   (--calibrate LOG also takes a llama.cpp load log: its settings and GPU)
                   [--backend cuda|metal|vulkan|rocm|cpu] [--host-bandwidth-gbs X]
                   [--prompt-tokens N]                         (speed: vllm, llamacpp)
                   [--json]
  vramfit estimate [--gpu NAME ...] -- ENGINE COMMAND   a pasted engine command:
                   vllm serve MODEL ..., python -m vllm.entrypoints.openai.api_server
                   --model MODEL ..., llama-server -m FILE.gguf|-hf REPO[:QUANT] ...,
                   llama-cli ...; an option it does not model is named, not ignored
  vramfit estimate --params B --layers N --kv-heads N --head-dim N ...   (no MODEL)
  vramfit inspect MODEL [--json]     the parsed architecture
  vramfit gpus [--json]              the GPU catalog, with sources
  vramfit models [--json]            the model catalog: id, totals, status, source
  vramfit kit                        the reference kit: every worked example (JSON)
  vramfit check KIT.json             rerun a kit's examples; non-zero exit if any differs
  vramfit --help | --version

MODEL is a GGUF file (a path, or a URL read by HTTP range requests: its header
only), a path to a config.json, a folder holding one, or a catalog id such
as meta-llama/Llama-3.1-8B; an hf_quant_config.json beside the config.json
(NVIDIA ModelOpt exports) is read with it. FORMAT: bf16 fp16 fp32 fp8 int8 awq gptq q8_0
q5_k_m q4_k_m mxfp4 nf4 as_published, or a GGUF type for llamacpp (q6_k,
q4_k_s, iq4_xs, q3_k_m, q2_k, mxfp4_moe, ...). DTYPE: fp32 bf16 fp16 fp8 int8
int4. A MODEL is weighed as published (its checkpoint's own format: FP8,
MXFP4, GPTQ, AWQ, ...) unless --quant, --dtype or --weight-bits say otherwise.
vllm: --seq is --max-model-len, --batch the requests served at once,
--dtype / --quant fp8 / --kv-dtype fp8 its --dtype, --quantization and
--kv-cache-dtype; --capacity-gib X is the total CUDA reports. llamacpp: --seq
is -c, --batch the -np slots. The engines' own option names are read as they
are: vLLM's --max-model-len, --tensor-parallel-size/-tp, --pipeline-parallel-size/-pp,
--kv-cache-dtype, --quantization; llama.cpp's -c/--ctx-size, -ngl, -ctk/-ctv,
-fa on|off|auto, -np/--parallel, -ub/--ubatch-size, -b/--batch-size. -tp N alone
is N GPUs. --dtype (the compute dtype) and --quant (the weight format) are two
knobs: their order never changes the answer. T: f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1.
Without --method, one engine's own knobs (vLLM's --gpu-memory-utilization,
--max-num-seqs, --enforce-eager, ...; llama.cpp's -ngl, --n-cpu-moe, -ctk,
-fa, ...) choose that engine's method; else the most complete method that
applies is used: serving, planner (real model), else allocator, range,
quick; training, allocator (dense, unquantized), else planner, range, lesson.
--sequences is the concurrent sequences of the whole deployment (--batch and
--users are its earlier names). --gpus N alone spreads one copy of the model
over N GPUs (TP within a node of 8, dividing the heads; PP for the rest);
set --tp or --pp to keep more copies (GPUs = TP x PP x copies).
Omitted options take seed 004's worked example (8B, 32 layers, 8 KV heads,
head dim 128, FP16, 8,192 tokens, 10 % overhead, 24 GB) and seed 000's
reserves (2 GiB runtime, 4 GiB activation, 15 % margin).";

/// The subcommands, as clap reads them. Help and version are words of
/// their own (`vramfit --help`), answered before clap is asked.
#[derive(Parser, Debug)]
#[command(
    name = "vramfit",
    disable_help_flag = true,
    disable_version_flag = true
)]
#[command(disable_help_subcommand = true, args_override_self = true)]
enum Cli {
    /// Estimate a scenario's memory.
    #[command(disable_help_flag = true, args_override_self = true)]
    Estimate(EstimateArgs),
    /// What was understood of a model.
    #[command(disable_help_flag = true)]
    Inspect {
        model: String,
        #[arg(long)]
        json: bool,
    },
    /// The GPU catalog.
    #[command(disable_help_flag = true)]
    Gpus {
        #[arg(long)]
        json: bool,
    },
    /// The model catalog.
    #[command(disable_help_flag = true)]
    Models {
        #[arg(long)]
        json: bool,
    },
    /// The reference kit.
    #[command(disable_help_flag = true)]
    Kit,
    /// Rerun a kit's examples.
    #[command(disable_help_flag = true)]
    Check {
        #[arg(allow_hyphen_values = true)]
        path: String,
    },
}

/// `vramfit estimate [MODEL] [options]`.
#[derive(Args, Debug)]
struct EstimateArgs {
    /// A config.json, a folder holding one, or a catalog id.
    #[arg(value_name = "MODEL")]
    model: Option<String>,
    /// `-h` / `--help` anywhere: the usage.
    #[arg(short = 'h', long = "help")]
    help: bool,
    #[command(flatten)]
    options: Options,
}

/// Every option of `estimate` that was given, in the order given: the
/// scenario's fields by [`Field::flag`], the others by [`Opt::flag`].
#[derive(Debug, Default)]
struct Options(Vec<(usize, &'static str, Option<String>)>);

/// The flags of `estimate`'s options, each with whether it takes a value.
fn option_flags() -> impl Iterator<Item = (&'static str, bool)> {
    let fields = Field::ALL.into_iter().map(|f| (f.flag(), true));
    let engine = EngineField::ALL.into_iter().map(|f| (f.flag(), true));
    fields
        .chain(engine)
        .chain(Opt::ALL.into_iter().map(|o| (o.flag(), o.takes_value())))
}

impl Args for Options {
    fn augment_args(cmd: ClapCommand) -> ClapCommand {
        cmd.args(option_flags().map(|(flag, takes_value)| {
            let arg = Arg::new(flag).long(&flag[2..]).value_name("VALUE");
            match (takes_value, Opt::repeats(flag)) {
                // `-ot` may be given several times, each value in order.
                (true, true) => arg.allow_hyphen_values(true).action(ArgAction::Append),
                // A value may start with `-` (`--batch -4` is a bad batch,
                // not an unknown option).
                (true, false) => arg.allow_hyphen_values(true),
                (false, _) => arg.action(ArgAction::SetTrue),
            }
        }))
    }

    fn augment_args_for_update(cmd: ClapCommand) -> ClapCommand {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for Options {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given: Vec<(usize, &'static str, Option<String>)> = option_flags()
            .filter(|(flag, _)| matches.value_source(flag) == Some(ValueSource::CommandLine))
            .filter(|(flag, _)| !Opt::repeats(flag))
            .filter_map(|(flag, takes_value)| {
                let value = takes_value
                    .then(|| matches.get_one::<String>(flag).cloned())
                    .flatten();
                Some((matches.index_of(flag)?, flag, value))
            })
            .collect();
        for flag in Opt::ALL
            .map(Opt::flag)
            .into_iter()
            .filter(|f| Opt::repeats(f))
        {
            let values = matches.get_many::<String>(flag).into_iter().flatten();
            let indices = matches.indices_of(flag).into_iter().flatten();
            given.extend(indices.zip(values).map(|(i, v)| (i, flag, Some(v.clone()))));
        }
        given.sort_by_key(|g| g.0);
        Ok(Options(given))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some(first) = args.first() else {
        return Err(format!("missing command\n{USAGE}"));
    };
    match first.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "-V" | "--version" => return Ok(Command::Version),
        _ => {}
    }
    // `estimate`: the engines' option names are taken out before clap,
    // and an engine command after `--` is read whole.
    let (args, engine, tail) = match first.as_str() {
        "estimate" => {
            let (head, tail) = engine_words::split(&args[1..]);
            let (native, engine) = engine_words::take_engine_options(&head)?;
            let args: Vec<String> = std::iter::once(first.clone()).chain(native).collect();
            (args, engine, tail)
        }
        _ => (args.to_vec(), Vec::new(), None),
    };
    let words = std::iter::once("vramfit").chain(args.iter().map(String::as_str));
    let cli = Cli::try_parse_from(words).map_err(|e| message(&e, first))?;
    match cli {
        Cli::Estimate(e) if e.help => Ok(Command::Help),
        Cli::Estimate(e) => estimate(e, engine, tail),
        Cli::Inspect { model, json } if !model.starts_with("--") => Ok(Command::Inspect {
            model: model_ref(&model)?,
            json,
        }),
        Cli::Inspect { .. } => Err(usage("inspect")),
        Cli::Gpus { json } => Ok(Command::Gpus { json }),
        Cli::Models { json } => Ok(Command::Models { json }),
        Cli::Kit => Ok(Command::Kit),
        Cli::Check { path } if path == "-" || !path.starts_with('-') => Ok(Command::Check { path }),
        Cli::Check { .. } => Err(usage("check")),
    }
}

/// One sentence for what clap could not read, in the words of the
/// subcommand the person typed.
fn message(error: &clap::Error, subcommand: &str) -> String {
    let arg = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.split(' ').next().unwrap_or_default(),
        _ => "",
    };
    match (subcommand, error.kind()) {
        ("estimate", ErrorKind::UnknownArgument) if !arg.starts_with('-') => {
            format!("unexpected argument `{arg}`: one MODEL only")
        }
        ("estimate", ErrorKind::UnknownArgument) => {
            format!("unknown option `{arg}` (try `vramfit --help`)")
        }
        ("estimate", ErrorKind::InvalidValue) => format!("{arg} needs a value"),
        ("estimate", ErrorKind::TooManyValues) => format!("{arg} takes no value"),
        ("estimate", kind) => format!("{arg}: {}", kind.as_str().unwrap_or("cannot be read")),
        ("inspect" | "gpus" | "models" | "kit" | "check", _) => usage(subcommand),
        (other, _) => format!("unknown command `{other}` (try `vramfit --help`)"),
    }
}

/// The usage line of a subcommand.
fn usage(subcommand: &str) -> String {
    let words = match subcommand {
        "inspect" => "inspect MODEL [--json]",
        "gpus" => "gpus [--json]",
        "models" => "models [--json]",
        "check" => "check KIT.json",
        _ => "kit",
    };
    format!("usage: vramfit {words}")
}

/// One option of `estimate`: vramfit's (its flag and value) or an
/// engine's, read by the core.
enum Given {
    Vramfit(&'static str, Option<String>),
    Engine(Setting),
}

/// `vramfit estimate`: the request, every option applied in order, then
/// the engine command after `--`, if any.
fn estimate(
    args: EstimateArgs,
    engine: Vec<(usize, Setting)>,
    tail: Option<Vec<String>>,
) -> Result<Command, String> {
    let mut input = ScenarioInput::default();
    if let Some(model) = &args.model {
        // Weighed as published unless --quant, --dtype or --weight-bits
        // (applied after, in order) say otherwise.
        input.set_model_following_checkpoint(Some(model_ref(model)?));
    }
    if let Some((_, _, path)) = args
        .options
        .0
        .iter()
        .find(|(_, f, _)| *f == Opt::Mmproj.flag())
    {
        let Some(ModelRef::Gguf(file)) = input.model.as_mut() else {
            return Err("--mmproj goes with a GGUF MODEL".into());
        };
        let path = path.as_deref().unwrap_or_default();
        file.mmproj = Some(crate::gguf_file::load_projector(path)?);
    }
    // A llama.cpp log's settings and machine come first; the options
    // change them. A vLLM log is fitted once the scenario is complete.
    let mut vllm_log = None;
    let mut llamacpp_log = None;
    if let Some((_, _, path)) = args
        .options
        .0
        .iter()
        .find(|(_, f, _)| *f == Opt::Calibrate.flag())
    {
        match crate::calibrate::read(path.as_deref().unwrap_or_default())? {
            crate::calibrate::Log::Vllm { path, text } => vllm_log = Some((path, text)),
            crate::calibrate::Log::Llamacpp(log) => {
                crate::calibrate::apply(&log, &mut input);
                llamacpp_log = Some(log);
            }
        }
    }
    let given = in_order(&args.options, engine);
    let named = |flags: &[&str]| {
        given.iter().any(|g| match g {
            Given::Vramfit(f, _) => flags.contains(f),
            Given::Engine(_) => false,
        })
    };
    // The weight format and the compute dtype are two knobs: `--dtype`
    // sets the weights only where no format is named, in any order.
    let mut quantized = named(&[Opt::Quant.flag(), Field::WeightBits.flag()]);
    let mut dtype: Option<Option<ComputeDtype>> = None;
    let gpus_given = named(&[Field::Gpus.flag()]);
    let mut chosen = None;
    let mut json = false;
    for g in &given {
        match g {
            Given::Vramfit(f, _) if *f == Opt::Json.flag() => json = true,
            // Read above, before the options that change its settings.
            Given::Vramfit(f, _) if *f == Opt::Calibrate.flag() => {}
            Given::Vramfit(f, v) if *f == Opt::Method.flag() => {
                chosen = Some(method(v.as_deref().unwrap_or_default())?)
            }
            Given::Vramfit(f, v) if *f == Opt::Dtype.flag() => {
                dtype = Some(compute_dtype(v.as_deref().unwrap_or_default())?)
            }
            Given::Vramfit(f, v) => apply(&mut input, f, v.as_deref().unwrap_or_default())?,
            Given::Engine(Setting::Model(word) | Setting::HfRepo(word)) => {
                if args.model.is_some() {
                    return Err(format!("`{word}`: one MODEL only"));
                }
                input.set_model_following_checkpoint(Some(model_ref(word)?));
            }
            Given::Engine(Setting::Dtype(d)) => dtype = Some(*d),
            Given::Engine(s) => {
                quantized |= matches!(s, Setting::Quantization(_));
                s.apply(&mut input);
            }
        }
    }
    if let Some(d) = dtype {
        command::apply_dtype(&mut input, d, quantized);
    }
    if input.mode.trains() && !named(&[Opt::GradCheckpoint.flag(), Opt::NoGradCheckpoint.flag()]) {
        // Training: the common trainer's default (TRL's SFTConfig).
        input.grad_checkpoint = TRAINER_GRAD_CHECKPOINT;
    }
    if !gpus_given && (input.tp.is_some() || input.pp.is_some()) {
        // `-tp 2` alone is two GPUs, one copy.
        input.gpus = input.tp.unwrap_or(1).saturating_mul(input.pp.unwrap_or(1));
    }
    if input.model.is_some() {
        // A real model gives its own shape: a typed one would be ignored.
        if let Some(f) = Field::SHAPE.iter().find(|f| named(&[f.flag()])) {
            return Err(format!(
                "{} comes from MODEL's config; drop it, or drop MODEL to type the shape",
                f.flag()
            ));
        }
    }
    if let Some(words) = tail {
        let method = engine_command(&mut input, &words, args.model.is_some(), gpus_given)?;
        match chosen {
            Some(m) if m != method => {
                return Err(format!(
                    "the command after `--` runs {}; drop --method {}",
                    method.id(),
                    m.id()
                ))
            }
            _ => chosen = Some(method),
        }
    }
    if chosen.is_none() {
        // A log calibrates its engine's method.
        if vllm_log.is_some() {
            chosen = Some(MethodId::Vllm);
        } else if llamacpp_log.is_some() {
            chosen = Some(MethodId::Llamacpp);
        } else {
            chosen = engine_of_knobs(&given);
        }
    }
    let mut request = Request::new(chosen.unwrap_or_default(), input);
    let calibration = match (&vllm_log, &llamacpp_log) {
        (Some((path, text)), _) => Some(crate::calibrate::apply_vllm(&mut request, path, text)?),
        (None, Some(log)) => Some(crate::calibrate::apply_llamacpp(log, &mut request)?),
        (None, None) => None,
    };
    if chosen.is_none() {
        // No method asked for: the most complete one that applies.
        if let Some(m) = request.preferred_method() {
            request.method = m;
        }
    }
    Ok(Command::Estimate {
        input: Box::new(request),
        json,
        calibration,
        calibrate: llamacpp_log,
    })
}

/// The engine whose own knobs the options set, where they are one
/// engine's only: `vramfit estimate MODEL -ngl 20` is llama.cpp's
/// estimate and `--gpu-memory-utilization 0.8` vLLM's, not a method that
/// would leave the knob unread. Knobs of both engines, or of neither
/// (the context, `-tp`, the formats: every method reads them), leave the
/// choice to the request's preferred method.
fn engine_of_knobs(given: &[Given]) -> Option<MethodId> {
    let vllm_flags = [
        Opt::EnforceEager.flag(),
        Opt::VllmVersion.flag(),
        Opt::Interconnect.flag(),
        EngineField::OtherMemoryGib.flag(),
    ];
    let llamacpp_flags = [
        Opt::CacheTypeK,
        Opt::CacheTypeV,
        Opt::FlashAttn,
        Opt::NoFlashAttn,
        Opt::Runner,
        Opt::LlamacppBuild,
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
        Opt::Mmproj,
    ]
    .map(Opt::flag);
    let (mut vllm, mut llamacpp) = (false, false);
    for g in given {
        match g {
            Given::Vramfit(f, _) => {
                vllm |= vllm_flags.contains(f) || EngineField::VLLM.iter().any(|e| e.flag() == *f);
                llamacpp |= llamacpp_flags.contains(f)
                    || EngineField::LLAMACPP.iter().any(|e| e.flag() == *f);
            }
            Given::Engine(s) => match s {
                Setting::GpuMemoryUtilization(_)
                | Setting::MaxNumSeqs(_)
                | Setting::MaxNumBatchedTokens(_)
                | Setting::BlockSize(_)
                | Setting::EnforceEager => vllm = true,
                Setting::NGpuLayers(_)
                | Setting::CacheTypeK(_)
                | Setting::CacheTypeV(_)
                | Setting::FlashAttn(_)
                | Setting::Parallel(_)
                | Setting::Ubatch(_)
                | Setting::Batch(_)
                | Setting::NCpuMoe(_)
                | Setting::KvUnified => llamacpp = true,
                Setting::Model(_)
                | Setting::HfRepo(_)
                | Setting::Context(_)
                | Setting::Tp(_)
                | Setting::Pp(_)
                | Setting::KvCacheDtype(_)
                | Setting::Quantization(_)
                | Setting::Dtype(_) => {}
            },
        }
    }
    match (vllm, llamacpp) {
        (true, false) => Some(MethodId::Vllm),
        (false, true) => Some(MethodId::Llamacpp),
        _ => None,
    }
}

/// vramfit's options and the engines', in the order given (an engine
/// option sits before the vramfit word that followed it; clap's indices
/// count `vramfit estimate` as two words).
fn in_order(options: &Options, engine: Vec<(usize, Setting)>) -> Vec<Given> {
    let mut keyed: Vec<(usize, Given)> = options
        .0
        .iter()
        .map(|(i, f, v)| (2 * i, Given::Vramfit(f, v.clone())))
        .collect();
    keyed.extend(
        engine
            .into_iter()
            .map(|(before, s)| (2 * (before + 2) - 1, Given::Engine(s))),
    );
    keyed.sort_by_key(|k| k.0);
    keyed.into_iter().map(|(_, g)| g).collect()
}

/// An engine command after `--`: its model (unless MODEL was given, or
/// the vLLM word is a local config), its options, its method.
fn engine_command(
    input: &mut ScenarioInput,
    words: &[String],
    model_given: bool,
    gpus_given: bool,
) -> Result<MethodId, String> {
    let command = command::parse(words).map_err(|e| e.to_string())?;
    if !model_given && command.engine() == command::Engine::Vllm {
        if let Some(word) = command.model_word() {
            input.model = None;
            input.set_model_following_checkpoint(Some(model_ref(word)?));
        }
    }
    if !model_given && command.engine() == command::Engine::Llamacpp {
        input.model = None;
    }
    let gpus = input.gpus;
    let method = command.apply(input).map_err(|e| e.to_string())?;
    if gpus_given {
        input.gpus = gpus;
    }
    Ok(method)
}

/// `--dtype`: a compute dtype, or `auto` (the checkpoint's).
fn compute_dtype(text: &str) -> Result<Option<ComputeDtype>, String> {
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
fn apply(input: &mut ScenarioInput, flag: &str, text: &str) -> Result<(), String> {
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
fn method(text: &str) -> Result<MethodId, String> {
    MethodId::from_name(text).ok_or_else(|| {
        format!(
            "unknown method `{text}` (known: {})",
            MethodId::ALL.map(|m| m.id()).join(", ")
        )
    })
}

/// MODEL: a GGUF file (a path or URL: its header), a config.json, a
/// folder holding one, or a catalog id. An
/// `hf_quant_config.json` in the config's folder (where NVIDIA ModelOpt
/// exports state their quantization) is read with it, as vLLM does.
fn model_ref(arg: &str) -> Result<ModelRef, String> {
    if crate::gguf_file::is_gguf(arg) {
        let (file, reads) = crate::gguf_file::load(arg)?;
        eprintln!("vramfit: {}", reads.line(arg.contains("://")));
        return Ok(ModelRef::Gguf(Box::new(file)));
    }
    let path = Path::new(arg);
    let file = if path.is_dir() {
        path.join("config.json")
    } else {
        path.to_path_buf()
    };
    if file.is_file() {
        let read = |f: &Path| {
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))
        };
        let config = read(&file)?;
        let side = file.with_file_name("hf_quant_config.json");
        let side = match side.is_file() {
            true => Some(read(&side)?),
            false => None,
        };
        return Ok(ModelRef::config_with(config, side));
    }
    if path.is_dir() {
        return Err(format!("{arg} holds no config.json"));
    }
    Ok(ModelRef::Catalog(arg.to_string()))
}

/// The error text without the field key (the flag already names it).
fn without_key(message: &str) -> &str {
    message.split_once(' ').map_or(message, |(_, rest)| rest)
}

#[cfg(test)]
mod tests;
