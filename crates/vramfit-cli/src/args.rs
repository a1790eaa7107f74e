//! Command-line parsing: every mistake becomes one readable sentence.

use std::path::Path;
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;
use vramfit_core::scenario::{
    AttnImpl, Field, KvDtype, Mode, ModelRef, Optimizer, Precision, ScenarioInput, WeightFormat,
};

/// What the command line asked for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    Version,
    Estimate { input: Request, json: bool },
    Inspect { model: ModelRef, json: bool },
    Gpus { json: bool },
    Kit,
    Check { path: String },
}

pub const USAGE: &str = "\
usage:
  vramfit estimate [MODEL] [--method quick|lesson|range|planner|allocator]
                   [--mode inference|full|lora|qlora]
                   [--train] [--lora R] [--precision amp|pure] [--grad-checkpoint]
                   [--optimizer adamw|sgd] [--attn eager|sdpa|flash] [--no-lora-dropout]
                   [--dtype fp32|bf16|fp16] [--quant FORMAT] [--weight-bits N]
                   [--kv-dtype DTYPE] [--kv-bytes N] [--seq N] [--batch N] [--users N]
                   [--tp N] [--pp N] [--host-ram-gb X] [--offload-gb X] [--prefix-tokens N]
                   [--machines N] [--hidden-size N --vocab-size N] (planner, typed model)
                   [--qlora]
                   [--gpu NAME | --capacity-gb X | --capacity-gib X] [--gpus N]
                   [--overhead-pct X]                                    (quick)
                   [--runtime-gib X] [--activation-gib X] [--margin PCT]  (lesson)
                   [--json]
  vramfit estimate --params B --layers N --kv-heads N --head-dim N ...   (no MODEL)
  vramfit inspect MODEL [--json]     the parsed architecture
  vramfit gpus [--json]              the GPU catalog, with sources
  vramfit kit                        the reference kit: every worked example (JSON)
  vramfit check KIT.json             rerun a kit's examples; non-zero exit if any differs
  vramfit --help | --version

MODEL is a path to a config.json, a folder holding one, or a catalog id such
as meta-llama/Llama-3.1-8B. FORMAT: bf16 fp16 fp32 fp8 int8 awq gptq q8_0
q5_k_m q4_k_m mxfp4 nf4 as_published. DTYPE: fp32 bf16 fp16 fp8 int8 int4.
Without --method, the most complete method that applies is used: serving,
planner (real model), else allocator, range, quick; training, allocator
(dense, unquantized), else planner, range, lesson.
Omitted options take seed 004's worked example (8B, 32 layers, 8 KV heads,
head dim 128, FP16, 8,192 tokens, 10 % overhead, 24 GB) and seed 000's
reserves (2 GiB runtime, 4 GiB activation, 15 % margin).";

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(format!("missing command\n{USAGE}"));
    };
    match command.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "-V" | "--version" => Ok(Command::Version),
        "estimate" => parse_estimate(rest),
        "inspect" => parse_inspect(rest),
        "gpus" => match rest {
            [] => Ok(Command::Gpus { json: false }),
            [flag] if flag == "--json" => Ok(Command::Gpus { json: true }),
            _ => Err("usage: vramfit gpus [--json]".to_string()),
        },
        "kit" if rest.is_empty() => Ok(Command::Kit),
        "kit" => Err("usage: vramfit kit".to_string()),
        "check" => match rest {
            [path] if path == "-" || !path.starts_with('-') => {
                Ok(Command::Check { path: path.clone() })
            }
            _ => Err("usage: vramfit check KIT.json".to_string()),
        },
        other => Err(format!("unknown command `{other}` (try `vramfit --help`)")),
    }
}

fn parse_inspect(rest: &[String]) -> Result<Command, String> {
    let json = rest.iter().any(|a| a == "--json");
    let models: Vec<&String> = rest.iter().filter(|a| *a != "--json").collect();
    match models.as_slice() {
        [model] if !model.starts_with("--") => Ok(Command::Inspect {
            model: model_ref(model)?,
            json,
        }),
        _ => Err("usage: vramfit inspect MODEL [--json]".to_string()),
    }
}

fn parse_estimate(rest: &[String]) -> Result<Command, String> {
    let mut input = ScenarioInput::default();
    let mut chosen = None;
    let mut json = false;
    let mut iter = rest.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        match flag {
            "--json" => json = true,
            "-h" | "--help" => return Ok(Command::Help),
            "--train" if input.mode != Mode::Lora => input.mode = Mode::Full,
            "--train" => {}
            "--grad-checkpoint" => input.grad_checkpoint = true,
            "--qlora" => input.mode = Mode::Qlora,
            "--no-lora-dropout" => input.lora_dropout = false,
            _ if !flag.starts_with('-') => {
                if input.model.is_some() {
                    return Err(format!("unexpected argument `{flag}`: one MODEL only"));
                }
                input.model = Some(model_ref(flag)?);
            }
            _ => {
                if !takes_value(flag) {
                    return Err(format!("unknown option `{flag}` (try `vramfit --help`)"));
                }
                let text = value(flag, inline, &mut iter)?;
                if flag == "--method" {
                    chosen = Some(method(&text)?);
                } else {
                    apply(&mut input, flag, &text)?;
                }
            }
        }
    }
    if input.model.is_some() {
        // A real model gives its own shape: a typed one would be ignored.
        if let Some(f) = Field::SHAPE.iter().find(|f| {
            rest.iter()
                .any(|a| a == f.flag() || a.starts_with(&format!("{}=", f.flag())))
        }) {
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
        input: request,
        json,
    })
}

/// Options that take a value besides the numeric fields' own flags.
const VALUE_OPTIONS: [&str; 13] = [
    "--hidden-size",
    "--vocab-size",
    "--machines",
    "--mode",
    "--method",
    "--quant",
    "--kv-dtype",
    "--precision",
    "--optimizer",
    "--attn",
    "--dtype",
    "--gpu",
    "--capacity-gib",
];

/// Whether `flag` is an option that takes a value.
fn takes_value(flag: &str) -> bool {
    VALUE_OPTIONS.contains(&flag) || Field::ALL.iter().any(|f| f.flag() == flag)
}

/// Applies one `--flag value` to the scenario.
fn apply(input: &mut ScenarioInput, flag: &str, text: &str) -> Result<(), String> {
    match flag {
        "--mode" => {
            let mode = Mode::from_name(text).ok_or_else(|| {
                format!(
                    "unknown mode `{text}` (known: {})",
                    list(&Mode::ALL.map(|m| m.id()))
                )
            })?;
            input.mode = mode;
        }
        "--quant" => {
            let format = WeightFormat::from_name(text).ok_or_else(|| {
                format!(
                    "unknown format `{text}` (known: {})",
                    list(&WeightFormat::ALL.map(|f| f.id()))
                )
            })?;
            input.set_weight_format(format);
        }
        "--kv-dtype" => {
            let dtype = KvDtype::from_name(text).ok_or_else(|| {
                format!(
                    "unknown KV dtype `{text}` (known: {})",
                    list(&KvDtype::ALL.map(|d| d.id()))
                )
            })?;
            input.set_kv_dtype(dtype);
        }
        "--precision" => {
            input.precision = Precision::from_name(text)
                .ok_or_else(|| format!("unknown precision `{text}` (known: amp, pure)"))?;
        }
        "--optimizer" => {
            input.optimizer = Optimizer::from_name(text)
                .ok_or_else(|| format!("unknown optimizer `{text}` (known: adamw, sgd)"))?;
        }
        "--attn" => {
            input.attn = match text.trim().to_ascii_lowercase().as_str() {
                "eager" => AttnImpl::Eager,
                "sdpa" => AttnImpl::Sdpa,
                "flash" => AttnImpl::Flash,
                _ => {
                    return Err(format!(
                        "unknown attention `{text}` (known: eager, sdpa, flash)"
                    ))
                }
            }
        }
        "--dtype" => {
            let format = match text.trim().to_ascii_lowercase().as_str() {
                "fp32" => WeightFormat::Fp32,
                "bf16" => WeightFormat::Bf16,
                "fp16" => WeightFormat::Fp16,
                _ => return Err(format!("unknown dtype `{text}` (known: fp32, bf16, fp16)")),
            };
            input.set_weight_format(format);
        }
        "--lora" => {
            let rank = Field::LoraRank
                .parse(text)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
            input.set(Field::LoraRank, rank);
            input.mode = Mode::Lora;
        }
        "--gpu" => input.set_gpu(text),
        // The planner's custom-model shape and machine count.
        "--hidden-size" | "--vocab-size" | "--machines" => {
            let n: u64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: must be a whole number"))?;
            match flag {
                "--hidden-size" => input.planner.hidden_size = Some(n),
                "--vocab-size" => input.planner.vocab_size = Some(n),
                _ => input.planner.machines = n,
            }
        }
        "--capacity-gib" => {
            let gib: f64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{flag} {text}: is not a number"))?;
            input.set_capacity_gib(gib);
            Field::GpuMemoryGb
                .check(input.gpu_memory_gb)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
        }
        _ => {
            let field = Field::ALL
                .into_iter()
                .find(|f| f.flag() == flag)
                .ok_or_else(|| format!("unknown option `{flag}` (try `vramfit --help`)"))?;
            let number = field
                .parse(text)
                .map_err(|e| format!("{flag} {text}: {}", without_key(&e.to_string())))?;
            input.set(field, number);
        }
    }
    Ok(())
}

/// `--method NAME`.
fn method(text: &str) -> Result<MethodId, String> {
    MethodId::from_name(text).ok_or_else(|| {
        format!(
            "unknown method `{text}` (known: {})",
            list(&MethodId::ALL.map(|m| m.id()))
        )
    })
}

/// MODEL: a config.json, a folder holding one, or a catalog id.
fn model_ref(arg: &str) -> Result<ModelRef, String> {
    let path = Path::new(arg);
    let file = if path.is_dir() {
        path.join("config.json")
    } else {
        path.to_path_buf()
    };
    if file.is_file() {
        return std::fs::read_to_string(&file)
            .map(ModelRef::Config)
            .map_err(|e| format!("cannot read {}: {e}", file.display()));
    }
    if path.is_dir() {
        return Err(format!("{arg} holds no config.json"));
    }
    Ok(ModelRef::Catalog(arg.to_string()))
}

/// `a, b, c`.
fn list(names: &[&str]) -> String {
    names.join(", ")
}

/// The error text without the field key (the flag already names it).
fn without_key(message: &str) -> &str {
    message.split_once(' ').map_or(message, |(_, rest)| rest)
}

/// The value of `flag`, inline (`--seq=8192`) or as the next argument.
fn value<'a>(
    flag: &str,
    inline: Option<String>,
    iter: &mut impl Iterator<Item = &'a String>,
) -> Result<String, String> {
    inline
        .or_else(|| iter.next().cloned())
        .ok_or_else(|| format!("{flag} needs a value"))
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

    #[test]
    fn bad_values_are_one_clear_sentence() {
        let err = |s: &str| parse(&args(s)).unwrap_err();
        assert_eq!(
            err("estimate --layers 0"),
            "--layers 0: must be between 1 and 1024"
        );
        assert_eq!(err("estimate --seq"), "--seq needs a value");
        assert!(err("estimate --bogus 1").contains("unknown option `--bogus`"));
        assert!(err("estimate --json --bogus").contains("unknown option `--bogus`"));
        assert_eq!(
            err("estimate meta-llama/Llama-3.1-8B --kv-heads 4"),
            "--kv-heads comes from MODEL's config; drop it, or drop MODEL to type the shape"
        );
        assert!(err("estimate --quant int3").starts_with("unknown format `int3` (known: bf16"));
        assert!(err("estimate a b").contains("one MODEL only"));
        assert!(err("frobnicate").contains("unknown command"));
        assert_eq!(err("inspect"), "usage: vramfit inspect MODEL [--json]");
    }
}
