//! Training that agrees with itself, through the real binary: gradient
//! checkpointing is on by default (TRL's SFTConfig), every method that
//! models activations reads it, and turning it on is a suggestion where it
//! is the one change that fits.

mod common;

use std::process::Command;

use common::json;

const LORA: [&str; 8] = [
    "estimate",
    "meta-llama/Llama-3.1-8B",
    "--lora",
    "16",
    "--seq",
    "2048",
    "--gpu",
    "RTX 4090",
];

fn with(method: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = LORA.to_vec();
    args.extend(["--method", method]);
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn training_checkpoints_by_default_and_says_off_when_asked() {
    let on = with("allocator", &[]);
    assert_eq!(on["inputs"]["grad_checkpoint"], true);
    let off = with("allocator", &["--no-grad-checkpoint"]);
    assert_eq!(off["inputs"]["grad_checkpoint"], false);
    assert!(on["estimate"]["total_bytes"].as_u64() < off["estimate"]["total_bytes"].as_u64());
    // Serving is untouched.
    let serve = json(&["estimate", "meta-llama/Llama-3.1-8B", "--gpu", "RTX 4090"]);
    assert_eq!(serve["inputs"]["grad_checkpoint"], false);
}

#[test]
fn the_planner_reads_gradient_checkpointing() {
    let on = with("planner", &["--grad-checkpoint"]);
    let off = with("planner", &["--no-grad-checkpoint"]);
    let act = |d: &serde_json::Value| d["estimate"]["components"]["activations"].as_u64().unwrap();
    // 32 layers' activations against one layer's and 31 checkpoints.
    assert!(act(&on) * 10 < act(&off), "{} vs {}", act(&on), act(&off));
}

#[test]
fn turning_checkpointing_on_is_a_suggestion_when_it_fits_alone() {
    for method in ["allocator", "planner"] {
        let off = with(method, &["--no-grad-checkpoint"]);
        assert_eq!(off["estimate"]["verdict"]["status"], "no_cabe", "{method}");
        let s = off["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["change"]["knob"] == "grad_checkpoint")
            .unwrap_or_else(|| panic!("{method}: {}", off["suggestions"]));
        let on = with(method, &["--grad-checkpoint"]);
        assert_eq!(s["total_bytes"], on["estimate"]["total_bytes"], "{method}");
        assert_ne!(on["estimate"]["verdict"]["status"], "no_cabe", "{method}");
    }
}

/// Smaller points: "32k" is 32,768 tokens, and one GPU is "1 GPU".
#[test]
fn token_counts_in_thousands_and_one_gpu_singular() {
    let doc = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--seq",
        "32k",
        "--gpu",
        "RTX 4090",
    ]);
    assert_eq!(doc["inputs"]["context"], 32_768);
    // A copy spread over more GPUs than there are: "1 GPU", not "1 GPUs".
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args([
            "estimate",
            "Qwen/Qwen3-8B",
            "--gpus",
            "1",
            "--tp",
            "2",
            "--gpu",
            "RTX 4090",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("does not divide 1 GPU"), "{err}");
    assert!(!err.contains("1 GPUs"), "{err}");
}

/// The export's verdict in language-neutral words beside seed 002's ids.
#[test]
fn the_verdict_has_a_language_neutral_id() {
    for (gpu, status, fit) in [
        ("RTX 4090", "ajustada", "tight"),
        ("RTX 4060", "no_cabe", "does_not_fit"),
        ("H100", "holgada", "roomy"),
    ] {
        let doc = json(&[
            "estimate",
            "Qwen/Qwen3-8B",
            "--method",
            "quick",
            "--seq",
            "32k",
            "--gpu",
            gpu,
        ]);
        let v = &doc["estimate"]["verdict"];
        assert_eq!(
            (v["status"].as_str(), v["fit"].as_str()),
            (Some(status), Some(fit)),
            "{gpu}"
        );
    }
}

/// The export carries no by-hand shape for a catalog model.
#[test]
fn the_export_of_a_catalog_model_has_no_typed_shape() {
    let doc = json(&["estimate", "Qwen/Qwen3-8B", "--gpu", "RTX 4090"]);
    let inputs = doc["inputs"].as_object().unwrap();
    for key in ["params_b", "layers", "kv_heads", "head_dim"] {
        assert!(!inputs.contains_key(key), "{key}");
    }
    // `method` still comes first (the text, not the parsed map, keeps it).
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "Qwen/Qwen3-8B", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("\"inputs\": {").unwrap();
    assert!(
        text[at..]
            .trim_start_matches("\"inputs\": {")
            .trim_start()
            .starts_with("\"method\""),
        "{text}"
    );
    let typed = json(&["estimate", "--params", "70", "--layers", "80"]);
    assert_eq!(typed["inputs"]["layers"], 80);
}
