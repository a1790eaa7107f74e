//! Truthful refusals through the real binary: vLLM on Apple silicon, and
//! a format vLLM loads but does not make.

mod common;

use std::process::Command;

use common::error as refused;

#[test]
fn vllm_does_not_run_on_apple_silicon() {
    let err = refused(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "vllm",
        "--gpu",
        "M4 Max",
    ]);
    assert!(err.contains("vLLM has no Metal backend"), "{err}");
    assert!(err.contains("llama.cpp runs there"), "{err}");
    // llama.cpp does.
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args([
            "estimate",
            "Qwen/Qwen3-8B",
            "--method",
            "llamacpp",
            "--gpu",
            "M4 Max",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let pasted = refused(&[
        "estimate",
        "--gpu",
        "M4 Max",
        "--",
        "vllm",
        "serve",
        "Qwen/Qwen3-8B",
    ]);
    assert!(pasted.contains("no Metal backend"), "{pasted}");
}

#[test]
fn vllm_loads_gptq_and_awq_checkpoints_but_does_not_make_them() {
    let err = refused(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "RTX 4090",
        "--quant",
        "gptq",
    ]);
    assert!(
        err.contains(
            "vLLM loads GPTQ 4-bit checkpoints but does not quantize a checkpoint to GPTQ 4-bit"
        ),
        "{err}"
    );
    assert!(
        err.contains("in the catalog: RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"),
        "{err}"
    );
    let awq = refused(&[
        "estimate",
        "meta-llama/Llama-3.3-70B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "RTX 4090",
        "-tp",
        "2",
        "--quantization",
        "awq",
    ]);
    assert!(awq.contains("vLLM loads AWQ 4-bit checkpoints"), "{awq}");
    // The published checkpoint itself loads, and FP8 online stays.
    for args in [
        &[
            "estimate",
            "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16",
            "--method",
            "vllm",
            "--gpu",
            "RTX 4090",
            "--quant",
            "gptq",
        ][..],
        &[
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            "RTX 4090",
            "--quantization",
            "fp8",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// "GPTQ 4-bit" on Qwen3-30B-A3B, typed as a person types it and as a pasted
/// `vllm serve`: vLLM does not make GPTQ, so the refusal names the published
/// GPTQ checkpoint of the catalog with its weights, and that checkpoint,
/// loaded as the refusal says, weighs the same and fits the card.
#[test]
fn a_gptq_request_reaches_the_published_gptq_checkpoint_and_its_weights() {
    let offer = "in the catalog: Qwen/Qwen3-30B-A3B-GPTQ-Int4 (16.97 GB of weights)";
    for args in [
        &[
            "estimate",
            "Qwen/Qwen3-30B-A3B",
            "--method",
            "vllm",
            "--gpu",
            "RTX 4090",
            "--quant",
            "gptq",
        ][..],
        &[
            "estimate",
            "--gpu",
            "RTX 4090",
            "--",
            "vllm",
            "serve",
            "Qwen/Qwen3-30B-A3B",
            "--quantization",
            "gptq",
        ][..],
    ] {
        let err = refused(args);
        assert!(
            err.contains("does not quantize a checkpoint to GPTQ 4-bit"),
            "{err}"
        );
        assert!(err.contains(offer), "{args:?}: {err}");
    }
    let doc = common::json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "vllm",
        "serve",
        "Qwen/Qwen3-30B-A3B-GPTQ-Int4",
        "--max-model-len",
        "16384",
    ]);
    let published = &doc["model"]["published"];
    assert_eq!(published["label"], "GPTQ 4-bit", "{published}");
    // The figure the offer printed, to the 10 MB it was rounded to.
    let bytes = published["bytes"].as_u64().unwrap();
    assert_eq!((bytes + 5_000_000) / 10_000_000, 1697, "{bytes}");
    let verdict = &doc["estimate"]["verdict"];
    assert_eq!(verdict["status"], "con_margen", "{verdict}");
}
