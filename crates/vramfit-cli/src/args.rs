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
//!
//! This file holds the subcommands and what they return; the option table
//! clap reads is [`options`], `estimate`'s options and engine command put
//! together in order are [`estimate`], each option's value read into the
//! scenario is [`apply`].
//!
//! [`Field::flag`]: vramfit_core::scenario::Field::flag
//! [`Opt`]: vramfit_cli::line::Opt

mod apply;
mod estimate;
mod options;

use crate::engine_words;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser};
use options::Options;
use std::path::Path;
use vramfit_core::request::Request;
use vramfit_core::scenario::ModelRef;

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
        Cli::Estimate(e) => estimate::estimate(e, engine, tail),
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

#[cfg(test)]
mod tests;
