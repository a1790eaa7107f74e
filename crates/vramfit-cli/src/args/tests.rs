//! The parser's unit tests.
use super::*;
use vramfit_core::scenario::{Mode, ScenarioInput, WeightFormat};

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
