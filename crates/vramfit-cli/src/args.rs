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

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command as ClapCommand, FromArgMatches, Parser};
use std::path::Path;
use vramfit_cli::line::Opt;
use vramfit_core::gguf::{FileType, GgmlType};
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;
use vramfit_core::scenario::{
    AttnImpl, EngineField, Field, KvDtype, Mode, ModelRef, Optimizer, Precision, ScenarioInput,
    WeightFormat,
};

/// What the command line asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    Version,
    Estimate { input: Box<Request>, json: bool },
    Inspect { model: ModelRef, json: bool },
    Gpus { json: bool },
    Models { json: bool },
    Kit,
    Check { path: String },
}

pub const USAGE: &str = "\
usage:
  vramfit estimate [MODEL] [--method quick|lesson|range|planner|allocator|vllm|llamacpp]
                   [--mode inference|full|lora|qlora]
                   [--train] [--lora R] [--precision amp|pure] [--grad-checkpoint]
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
                   [--cache-type-k T] [--cache-type-v T] [--n-gpu-layers N|auto]
                   [--n-cpu-moe N] [--ubatch N] [--flash-attn|--no-flash-attn] (llamacpp)
                   [--backend cuda|metal|vulkan|rocm|cpu] [--host-bandwidth-gbs X]
                   [--prompt-tokens N]                         (speed: vllm, llamacpp)
                   [--json]
  vramfit estimate --params B --layers N --kv-heads N --head-dim N ...   (no MODEL)
  vramfit inspect MODEL [--json]     the parsed architecture
  vramfit gpus [--json]              the GPU catalog, with sources
  vramfit models [--json]            the model catalog: id, totals, status, source
  vramfit kit                        the reference kit: every worked example (JSON)
  vramfit check KIT.json             rerun a kit's examples; non-zero exit if any differs
  vramfit --help | --version

MODEL is a path to a config.json, a folder holding one, or a catalog id such
as meta-llama/Llama-3.1-8B; an hf_quant_config.json beside the config.json
(NVIDIA ModelOpt exports) is read with it. FORMAT: bf16 fp16 fp32 fp8 int8 awq gptq q8_0
q5_k_m q4_k_m mxfp4 nf4 as_published, or a GGUF type for llamacpp (q6_k,
q4_k_s, iq4_xs, q3_k_m, q2_k, mxfp4_moe, ...). DTYPE: fp32 bf16 fp16 fp8 int8
int4. A MODEL is weighed as published (its checkpoint's own format: FP8,
MXFP4, GPTQ, AWQ, ...) unless --quant, --dtype or --weight-bits say otherwise.
vllm: --seq is --max-model-len, --batch the requests served at once,
--dtype / --quant fp8 / --kv-dtype fp8 its --dtype, --quantization and
--kv-cache-dtype; --capacity-gib X is the total CUDA reports. llamacpp: --seq
is -c, --batch the -np slots. T: f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1.
Without --method, the most complete method that applies is used: serving,
planner (real model), else allocator, range, quick; training, allocator
(dense, unquantized), else planner, range, lesson.
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
struct Options(Vec<(&'static str, Option<String>)>);

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
            match takes_value {
                // A value may start with `-` (`--batch -4` is a bad batch,
                // not an unknown option).
                true => arg.allow_hyphen_values(true),
                false => arg.action(ArgAction::SetTrue),
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
            .filter_map(|(flag, takes_value)| {
                let value = takes_value
                    .then(|| matches.get_one::<String>(flag).cloned())
                    .flatten();
                Some((matches.index_of(flag)?, flag, value))
            })
            .collect();
        given.sort_by_key(|g| g.0);
        Ok(Options(given.into_iter().map(|(_, f, v)| (f, v)).collect()))
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
    let words = std::iter::once("vramfit").chain(args.iter().map(String::as_str));
    let cli = Cli::try_parse_from(words).map_err(|e| message(&e, first))?;
    match cli {
        Cli::Estimate(e) if e.help => Ok(Command::Help),
        Cli::Estimate(e) => estimate(e),
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

/// `vramfit estimate`: the request, every option applied in order.
fn estimate(args: EstimateArgs) -> Result<Command, String> {
    let mut input = ScenarioInput::default();
    if let Some(model) = &args.model {
        // Weighed as published unless --quant, --dtype or --weight-bits
        // (applied after, in order) say otherwise.
        input.set_model_following_checkpoint(Some(model_ref(model)?));
    }
    let mut chosen = None;
    let mut json = false;
    for (flag, value) in &args.options.0 {
        let text = value.as_deref().unwrap_or_default();
        match *flag {
            f if f == Opt::Json.flag() => json = true,
            f if f == Opt::Method.flag() => chosen = Some(method(text)?),
            f => apply(&mut input, f, text)?,
        }
    }
    if input.model.is_some() {
        // A real model gives its own shape: a typed one would be ignored.
        if let Some(f) = Field::SHAPE
            .iter()
            .find(|f| args.options.0.iter().any(|(flag, _)| *flag == f.flag()))
        {
            return Err(format!(
                "{} comes from MODEL's config; drop it, or drop MODEL to type the shape",
                f.flag()
            ));
        }
    }
    let mut request = Request::new(chosen.unwrap_or_default(), input);
    if chosen.is_none() {
        // No method asked for: the most complete one that applies.
        if let Some(m) = request.preferred_method() {
            request.method = m;
        }
    }
    Ok(Command::Estimate {
        input: Box::new(request),
        json,
    })
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
        Some(Opt::Dtype) => {
            let format = [WeightFormat::Fp32, WeightFormat::Bf16, WeightFormat::Fp16]
                .into_iter()
                .find(|f| f.id().eq_ignore_ascii_case(text.trim()))
                .ok_or_else(|| unknown("dtype", &["fp32", "bf16", "fp16"]))?;
            input.set_weight_format(format);
        }
        Some(Opt::Gpu) => input.set_gpu(text),
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
        Some(Opt::Method | Opt::Json) => {}
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

/// MODEL: a config.json, a folder holding one, or a catalog id. An
/// `hf_quant_config.json` in the config's folder (where NVIDIA ModelOpt
/// exports state their quantization) is read with it, as vLLM does.
fn model_ref(arg: &str) -> Result<ModelRef, String> {
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
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn estimate(s: &str) -> ScenarioInput {
        match parse(&args(s)) {
            Ok(Command::Estimate { input, .. }) => input.scenario,
            other => panic!("expected an estimate, got {other:?}"),
        }
    }

    #[test]
    fn flags_set_fields() {
        let input = estimate("estimate --params 70 --weight-bits=4 --capacity-gb 48 --json");
        assert_eq!(input.params_b, 70.0);
        assert_eq!(input.weight_bits, 4.0);
        assert_eq!(input.gpu_memory_gb, 48.0);
        assert_eq!(input.layers, 32);
    }

    #[test]
    fn named_formats_and_dtypes() {
        let input = estimate("estimate --quant Q4_K_M --kv-dtype fp8");
        assert_eq!(input.weight_format, Some(WeightFormat::Q4KM));
        assert_eq!(input.weight_bits, 4.89);
        assert_eq!(input.kv_bytes, 1.0);
    }

    #[test]
    fn a_word_is_a_catalog_id() {
        let input = estimate("estimate meta-llama/Llama-3.1-8B --seq 4096");
        assert_eq!(
            input.model,
            Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into()))
        );
    }

    /// Options apply in the order given, and a repeated one is its last.
    #[test]
    fn options_apply_in_the_order_given() {
        let check = |line: &str, mode: Mode, format: Option<WeightFormat>| {
            let input = estimate(line);
            assert_eq!((input.mode, input.weight_format), (mode, format), "{line}");
        };
        check("estimate --lora 8 --mode full", Mode::Full, None);
        check("estimate --mode full --lora 8", Mode::Lora, None);
        check("estimate --lora 8 --train", Mode::Lora, None);
        check("estimate --train --qlora", Mode::Qlora, None);
        check(
            "estimate --weight-bits 5 --quant q4_k_m",
            Mode::Inference,
            Some(WeightFormat::Q4KM),
        );
        check(
            "estimate --quant q4_k_m --weight-bits 5",
            Mode::Inference,
            None,
        );
        check(
            "estimate --quant q8_0 --quant awq",
            Mode::Inference,
            Some(WeightFormat::Awq),
        );
        assert_eq!(estimate("estimate --seq 1 --seq 2").context, 2);
    }

    #[test]
    fn mistakes_are_one_clear_sentence() {
        for (line, want) in [
            (
                "estimate --layers 0",
                "--layers 0: must be between 1 and 1024",
            ),
            (
                "estimate --batch -4",
                "--batch -4: must be between 1 and 1000000",
            ),
            ("estimate --seq", "--seq needs a value"),
            (
                "estimate --bogus 1",
                "unknown option `--bogus` (try `vramfit --help`)",
            ),
            (
                "estimate --json --bogus",
                "unknown option `--bogus` (try `vramfit --help`)",
            ),
            ("estimate a b", "unexpected argument `b`: one MODEL only"),
            ("estimate --json=false", "--json takes no value"),
            (
                "estimate meta-llama/Llama-3.1-8B --kv-heads 4",
                "--kv-heads comes from MODEL's config; drop it, or drop MODEL to type the shape",
            ),
            (
                "estimate --hidden-size x",
                "--hidden-size x: must be a whole number",
            ),
            (
                "estimate --capacity-gib x",
                "--capacity-gib x: is not a number",
            ),
            (
                "estimate --attn fast",
                "unknown attention `fast` (known: eager, sdpa, flash)",
            ),
            (
                "frobnicate",
                "unknown command `frobnicate` (try `vramfit --help`)",
            ),
            (
                "--bogus",
                "unknown command `--bogus` (try `vramfit --help`)",
            ),
            ("inspect", "usage: vramfit inspect MODEL [--json]"),
            ("inspect a b", "usage: vramfit inspect MODEL [--json]"),
            ("gpus --bogus", "usage: vramfit gpus [--json]"),
            ("kit extra", "usage: vramfit kit"),
            ("check", "usage: vramfit check KIT.json"),
            ("check --x", "usage: vramfit check KIT.json"),
        ] {
            assert_eq!(parse(&args(line)).unwrap_err(), want, "{line}");
        }
        let err = parse(&args("estimate --quant int3")).unwrap_err();
        assert!(
            err.starts_with("unknown format `int3` (known: bf16"),
            "{err}"
        );
        assert!(parse(&[])
            .unwrap_err()
            .starts_with("missing command\nusage:"));
    }

    #[test]
    fn help_and_version_are_words_of_their_own() {
        for line in [
            "--help",
            "-h",
            "help",
            "estimate --seq 5 -h",
            "estimate --help",
        ] {
            assert_eq!(parse(&args(line)), Ok(Command::Help), "{line}");
        }
        assert_eq!(parse(&args("-V")), Ok(Command::Version));
        assert_eq!(
            parse(&args("check -")),
            Ok(Command::Check { path: "-".into() })
        );
        assert_eq!(
            parse(&args("gpus --json")),
            Ok(Command::Gpus { json: true })
        );
    }
}
