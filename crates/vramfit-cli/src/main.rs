//! `vramfit`: the command-line face of the estimator core. It prints the
//! same `vramfit/1` JSON document as the web app's export (`--json`), or a
//! readable breakdown.

use std::process::ExitCode;
use vramfit_core::catalog::{self, gpus};
use vramfit_core::methods::MethodId;
use vramfit_core::report::{self, Report};
use vramfit_core::scenario::{Field, Mode, ScenarioInput};
use vramfit_core::units::DisplayUnit;
use vramfit_core::units::{GB, GIB};

const USAGE: &str = "\
usage:
  vramfit estimate [--method quick|lesson] [--mode inference|full] [--train]
                   --params B --layers N --kv-heads N --head-dim N
                   [--weight-bits N] [--kv-bytes N] [--seq N] [--batch N]
                   [--gpu NAME | --capacity-gb X | --capacity-gib X]
                   [--overhead-pct X]                                 (quick)
                   [--runtime-gib X] [--activation-gib X] [--margin PCT]  (lesson)
                   [--json]
  vramfit gpus [--json]          the GPU catalog, with sources
  vramfit --help | --version

Omitted options take seed 004's worked example (8B, 32 layers, 8 KV heads,
head dim 128, FP16, 8,192 tokens, 10 % overhead, 24 GB) and seed 000's
reserves (2 GiB runtime, 4 GiB activation, 15 % margin).";

/// The CLI flag of each scenario field.
const FLAGS: [(&str, Field); 13] = [
    ("--params", Field::ParamsB),
    ("--layers", Field::Layers),
    ("--kv-heads", Field::KvHeads),
    ("--head-dim", Field::HeadDim),
    ("--weight-bits", Field::WeightBits),
    ("--kv-bytes", Field::KvBytes),
    ("--seq", Field::Context),
    ("--batch", Field::Batch),
    ("--capacity-gb", Field::GpuMemoryGb),
    ("--overhead-pct", Field::OverheadPct),
    ("--runtime-gib", Field::RuntimeGib),
    ("--activation-gib", Field::ActivationGib),
    ("--margin", Field::MarginPct),
];

/// What the command line asked for.
#[derive(Debug, PartialEq)]
enum Command {
    Help,
    Version,
    Estimate { input: ScenarioInput, json: bool },
    Gpus { json: bool },
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok(Command::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            println!("vramfit {}", report::APP_VERSION);
            ExitCode::SUCCESS
        }
        Ok(Command::Gpus { json }) => {
            print!("{}", render_gpus(json));
            ExitCode::SUCCESS
        }
        Ok(Command::Estimate { input, json }) => match report::build(&input) {
            Ok(doc) if json => {
                print!("{}", doc.to_json());
                ExitCode::SUCCESS
            }
            Ok(doc) => {
                print!("{}", render(&doc));
                ExitCode::SUCCESS
            }
            Err(errors) => fail(&errors[0].to_string()),
        },
        Err(message) => fail(&message),
    }
}

/// One clear line on stderr and a non-zero exit.
fn fail(message: &str) -> ExitCode {
    eprintln!("vramfit: {message}");
    ExitCode::from(2)
}

/// Parses the arguments; every error is one readable sentence.
fn parse(args: &[String]) -> Result<Command, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(format!("missing command\n{USAGE}"));
    };
    match command.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "-V" | "--version" => return Ok(Command::Version),
        "estimate" => {}
        "gpus" => {
            return match rest {
                [] => Ok(Command::Gpus { json: false }),
                [flag] if flag == "--json" => Ok(Command::Gpus { json: true }),
                _ => Err("usage: vramfit gpus [--json]".to_string()),
            }
        }
        other => return Err(format!("unknown command `{other}` (try `vramfit --help`)")),
    }
    let mut input = ScenarioInput::default();
    let mut json = false;
    let mut iter = rest.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        match flag {
            "--json" => json = true,
            "-h" | "--help" => return Ok(Command::Help),
            "--train" => input.mode = Mode::Full,
            "--mode" => {
                let name = value(flag, inline, &mut iter)?;
                input.mode = Mode::ALL
                    .into_iter()
                    .find(|m| m.id() == name.trim().to_ascii_lowercase())
                    .ok_or_else(|| {
                        format!(
                            "unknown mode `{name}` (known: {})",
                            names(&Mode::ALL.map(|m| m.id()))
                        )
                    })?;
            }
            "--method" => {
                let name = value(flag, inline, &mut iter)?;
                input.method = MethodId::from_name(&name).ok_or_else(|| {
                    format!(
                        "unknown method `{name}` (known: {})",
                        names(&MethodId::ALL.map(|m| m.id()))
                    )
                })?;
            }
            "--gpu" => {
                let name = value(flag, inline, &mut iter)?;
                let gpu = catalog::find_gpu(&name).map_err(|e| format!("--gpu: {e}"))?;
                input.gpu_memory_gb = gpu.memory_gb;
            }
            "--capacity-gib" => {
                // Same field as --capacity-gb, entered in binary units.
                let text = value(flag, inline, &mut iter)?;
                let gib: f64 = text
                    .trim()
                    .parse()
                    .map_err(|_| format!("{flag} {text}: is not a number"))?;
                let gb = Field::GpuMemoryGb
                    .check(gib * GIB as f64 / GB as f64)
                    .map_err(|e| format!("{flag} {text}: {}", problem(&e.to_string())))?;
                input.gpu_memory_gb = gb;
            }
            _ => {
                let field = FLAGS
                    .iter()
                    .find(|(f, _)| *f == flag)
                    .map(|(_, field)| *field)
                    .ok_or_else(|| format!("unknown option `{flag}` (try `vramfit --help`)"))?;
                let text = value(flag, inline, &mut iter)?;
                let number = field
                    .parse(&text)
                    .map_err(|e| format!("{flag} {text}: {}", problem(&e.to_string())))?;
                input.set(field, number);
            }
        }
    }
    Ok(Command::Estimate { input, json })
}

/// `a, b, c`.
fn names(list: &[&str]) -> String {
    list.join(", ")
}

/// The error text without the field key (the flag already names it).
fn problem(message: &str) -> &str {
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

/// The readable breakdown: one line per component, the total, the verdict.
fn render(doc: &Report) -> String {
    let unit = DisplayUnit::Gb;
    let est = &doc.estimate;
    let mut out = format!("method: {}\n", est.method.id());
    for c in &est.components.0 {
        out += &format!("{:<18}{:>9}\n", c.name, unit.format(c.bytes));
    }
    out += &format!("{:<18}{:>9}\n\n", "total", unit.format(est.total_bytes));
    let v = &est.verdict;
    let usable = unit.format(v.usable_bytes);
    out += &if v.short_by_bytes > 0 {
        format!(
            "does not fit {usable}: {:.1} % (no_cabe), short by {}\n",
            v.percent(),
            unit.format(v.short_by_bytes)
        )
    } else {
        format!(
            "fits {usable}: {:.1} % ({}), {} to spare\n",
            v.percent(),
            v.status.id(),
            unit.format(v.headroom_bytes)
        )
    };
    out
}

/// The GPU catalog: a table, or the rows as JSON.
fn render_gpus(json: bool) -> String {
    let all = gpus::all();
    if json {
        let mut text = serde_json::to_string_pretty(all).unwrap_or_default();
        text.push('\n');
        return text;
    }
    let mut out = format!("{:<48}{:>8}{:>12}{:>12}\n", "name", "GB", "GB/s", "BF16 TF");
    for g in all {
        let opt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v}"));
        out += &format!(
            "{:<48}{:>8}{:>12}{:>12}\n",
            g.name,
            g.memory_gb,
            g.bandwidth_gb_s,
            opt(g.bf16_dense_tflops)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_set_fields() {
        let Ok(Command::Estimate { input, json }) = parse(&args(
            "estimate --params 70 --weight-bits=4 --capacity-gb 48 --json",
        )) else {
            panic!("expected an estimate");
        };
        assert!(json);
        assert_eq!(input.params_b, 70.0);
        assert_eq!(input.weight_bits, 4.0);
        assert_eq!(input.gpu_memory_gb, 48.0);
        assert_eq!(input.layers, 32);
    }

    #[test]
    fn bad_values_are_one_clear_sentence() {
        assert_eq!(
            parse(&args("estimate --layers 0")).unwrap_err(),
            "--layers 0: must be between 1 and 1024"
        );
        assert_eq!(
            parse(&args("estimate --seq")).unwrap_err(),
            "--seq needs a value"
        );
        assert!(parse(&args("estimate --bogus 1"))
            .unwrap_err()
            .contains("unknown option `--bogus`"));
        assert!(parse(&args("frobnicate"))
            .unwrap_err()
            .contains("unknown command"));
    }

    #[test]
    fn render_says_fit_and_spare() {
        let doc = report::build(&ScenarioInput::default()).unwrap();
        let text = render(&doc);
        assert!(text.contains("weights            16.00 GB"), "{text}");
        assert!(text.contains("total              18.78 GB"), "{text}");
        assert!(text.contains("fits 24.00 GB: 78.3 % (con_margen), 5.22 GB to spare"));
    }
}
