//! The `vramfit` binary as a user runs it.

use std::process::Command;

fn vramfit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

#[test]
fn json_document_for_seed_004_example() {
    let out = vramfit(&["estimate", "--method", "quick", "--params", "8", "--json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "vramfit/1");
    assert_eq!(doc["estimate"]["total_bytes"], 18_781_116_006u64);
    assert_eq!(doc["model"]["kv_bytes_per_token"], 131_072);
}

#[test]
fn seventy_b_four_bit_fits_48_gb() {
    let out = vramfit(&[
        "estimate",
        "--params",
        "70",
        "--weight-bits",
        "4",
        "--capacity-gb",
        "48",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("total              39.68 GB"), "{text}");
    assert!(text.contains("fits 48.00 GB usable"), "{text}");
}

#[test]
fn errors_exit_non_zero_with_one_line() {
    let out = vramfit(&["estimate", "--batch", "-4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err, "vramfit: --batch -4: must be between 1 and 1000000\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn lesson_method_reproduces_seed_000_example() {
    let out = vramfit(&[
        "estimate",
        "--method",
        "lesson",
        "--params",
        "7",
        "--layers",
        "32",
        "--kv-heads",
        "8",
        "--head-dim",
        "128",
        "--seq",
        "4096",
        "--batch",
        "1",
        "--kv-bytes",
        "2",
        "--runtime-gib",
        "2",
        "--activation-gib",
        "4",
        "--margin",
        "15",
        "--capacity-gib",
        "24",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["estimate"]["method"], "lesson");
    assert_eq!(doc["estimate"]["components"]["kv_cache"], 536_870_912u64); // 0.5 GiB
    assert_eq!(doc["estimate"]["total_bytes"], 24_126_220_134u64);
    assert_eq!(
        doc["estimate"]["verdict"]["usable_bytes"],
        25_769_803_776u64
    );
    // Both methods apply to inference and are listed side by side.
    assert_eq!(doc["methods"].as_array().unwrap().len(), 2);
}

#[test]
fn training_with_an_inference_only_method_is_a_clear_error() {
    let out = vramfit(&["estimate", "--method", "quick", "--train"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "vramfit: method quick does not estimate full (it applies to: inference)\n"
    );
    let ok = vramfit(&["estimate", "--method", "lesson", "--train", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(doc["methods"].as_array().unwrap().len(), 1);
}

#[test]
fn gpu_names_resolve_from_the_catalog() {
    let out = vramfit(&["estimate", "--gpu", "rtx 4090", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The card's memory as nvidia-smi reports it (24,564 MiB), not its
    // marketed "24 GB" read as decimal or as binary units.
    assert_eq!(doc["estimate"]["verdict"]["usable_bytes"], 24_564u64 << 20);
    let miss = vramfit(&["estimate", "--gpu", "RTX 4909"]);
    assert_eq!(miss.status.code(), Some(2));
    let err = String::from_utf8(miss.stderr).unwrap();
    assert!(
        err.contains("did you mean") && err.contains("RTX 4090"),
        "{err}"
    );
}

#[test]
fn gpus_lists_the_catalog() {
    let out = vramfit(&["gpus", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(rows.len() > 10);
    assert!(rows.iter().all(|g| g["memory_gb"].as_f64().unwrap() > 0.0));
    let text = String::from_utf8(vramfit(&["gpus"]).stdout).unwrap();
    assert!(text.contains("NVIDIA H100"), "{text}");
}

#[test]
fn seed_003_cli_example_reads_like_vramcalc() {
    // Seed 003's example trains without gradient checkpointing; vramfit's
    // default for training is on (TRL's SFTConfig), so the line says off.
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B",
        "--train",
        "--lora",
        "16",
        "--precision",
        "pure",
        "--seq",
        "4096",
        "--gpu",
        "RTX 3090",
        "--no-grad-checkpoint",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "method: allocator",
        "weights            16.12 GB",
        "gradients           0.05 GB",
        "optimizer           0.11 GB",
        "step_workspace      0.05 GB",
        "overhead            0.75 GB",
        "1 single adjustment fits",
        "  -> seq_len=512: 21.59 GB (changes training objective)",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn inspect_prints_the_model_object() {
    let out = vramfit(&["inspect", "google/gemma-3-1b-it", "--json"]);
    assert!(out.status.success());
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(model["params_total"], 999_885_952u64);
    assert_eq!(model["source"], "catalog");
    // 22 sliding-window layers (512) and 4 global ones.
    let kinds = model["layers_by_kind"].as_array().unwrap();
    assert_eq!(kinds.len(), 2);
}

#[test]
fn inspect_gives_the_growth_of_compressed_layers_not_the_next_tokens_zero() {
    // DeepSeek-V4-Flash adds a pooled entry every 4 or 128 tokens: the
    // mean over 128 tokens, 21·32·640 + 20·512 elements at 2 bytes.
    let out = vramfit(&["inspect", "deepseek-ai/DeepSeek-V4-Flash", "--json"]);
    assert!(out.status.success());
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(model["kv_bytes_per_token"], 6_880);
    assert_eq!(model["kv_growth"]["bytes_per_1000_tokens"], 6_880_000);
}

#[test]
fn offload_needs_host_ram_and_moves_weights_off_the_gpu() {
    let base = [
        "estimate",
        "meta-llama/Llama-3.1-70B",
        "--method",
        "planner",
        "--gpu",
        "RTX 4090",
        "--gpus",
        "4",
        "--tp",
        "4",
        "--json",
    ];
    let weights = |extra: &[&str]| {
        let out = vramfit(&[&base[..], extra].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["estimate"]["components"]["weights"].as_u64().unwrap()
    };
    let kept = weights(&[]);
    let moved = weights(&["--host-ram-gb", "256", "--offload-gb", "10"]);
    assert_eq!(kept - moved, 10_000_000_000);
    let refused = vramfit(&[&base[..], &["--offload-gb", "10"]].concat());
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8(refused.stderr)
        .unwrap()
        .contains("80 % of its host RAM"));
}

/// The JSON document of a command line that must succeed.
fn doc(args: &[&str]) -> serde_json::Value {
    let out = vramfit(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_real_model_is_weighed_as_published() {
    // gpt-oss-20b ships MXFP4 experts: about 13 GB of weights, not 42 GB at 16 bits.
    let d = doc(&[
        "estimate",
        "openai/gpt-oss-20b",
        "--gpu",
        "RTX 4090",
        "--json",
    ]);
    assert_eq!(d["inputs"]["weight_format"], "as_published");
    assert_eq!(d["estimate"]["components"]["weights"], 13_761_264_768u64);
    assert_eq!(d["estimate"]["verdict"]["short_by_bytes"], 0);
    assert_eq!(d["model"]["published"]["label"], "MXFP4");
    let text =
        String::from_utf8(vramfit(&["estimate", "openai/gpt-oss-20b", "--gpu", "RTX 4090"]).stdout)
            .unwrap();
    assert!(
        text.starts_with("published in MXFP4, 13.76 GB of weights; weighed as published"),
        "{text}"
    );
    // A format chosen on purpose stays.
    let bf16 = doc(&[
        "estimate",
        "openai/gpt-oss-20b",
        "--quant",
        "bf16",
        "--json",
    ]);
    assert_eq!(bf16["inputs"]["weight_format"], "bf16");
    // An FP8 checkpoint: its own bytes, about one per parameter.
    let fp8 = doc(&["estimate", "Qwen/Qwen3-30B-A3B-FP8", "--json"]);
    let weights = fp8["estimate"]["components"]["weights"].as_u64().unwrap();
    assert!(
        (30_000_000_000..33_000_000_000).contains(&weights),
        "{weights}"
    );
}

#[test]
fn four_gpus_spread_the_model_with_the_default_method() {
    let d = doc(&[
        "estimate",
        "meta-llama/Llama-3.1-70B",
        "--gpu",
        "H100 SXM",
        "--gpus",
        "4",
        "--json",
    ]);
    assert_eq!(d["estimate"]["method"], "planner");
    assert_eq!(d["estimate"]["gpus"], 4);
    assert_eq!(d["estimate"]["verdict"]["short_by_bytes"], 0);
    // 141 GB of BF16 weights over TP 4.
    let weights = d["estimate"]["components"]["weights"].as_u64().unwrap();
    assert!(
        (35_000_000_000..36_000_000_000).contains(&weights),
        "{weights}"
    );
    // --batch and --users are other names of --sequences.
    let batch = doc(&["estimate", "--batch", "4", "--json"]);
    assert_eq!(batch["inputs"]["sequences"], 4);
    let users = doc(&["estimate", "--users", "3", "--json"]);
    assert_eq!(users["inputs"]["sequences"], 3);
}

#[test]
fn a_quantized_name_without_a_quantization_config_is_said() {
    let config =
        include_str!("../../vramfit-core/data/configs/meta-llama__Llama-3.2-1B-Instruct.json");
    let mut doc: serde_json::Value = serde_json::from_str(config).unwrap();
    doc["_name_or_path"] = "nvidia/Llama-3.2-1B-Instruct-NVFP4".into();
    let path = std::env::temp_dir().join(format!("vramfit-nvfp4-{}.json", std::process::id()));
    std::fs::write(&path, doc.to_string()).unwrap();
    let out = vramfit(&["inspect", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("note: the model's name says NVFP4") && text.contains("hf_quant_config.json"),
        "{text}"
    );
    // The published config says nothing of the kind.
    let plain = vramfit(&["inspect", "meta-llama/Llama-3.2-1B-Instruct"]);
    assert!(!String::from_utf8(plain.stdout).unwrap().contains("note:"));
}

#[test]
fn a_checkpoint_folder_is_read_with_its_hf_quant_config() {
    // NVIDIA's FP8 export of Llama-3.1-70B-Instruct, as downloaded: the
    // quantization is stated only in hf_quant_config.json.
    let dir = std::env::temp_dir().join(format!("vramfit-modelopt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.json"),
        include_str!("../../vramfit-core/data/configs/nvidia__Llama-3.1-70B-Instruct-FP8.json"),
    )
    .unwrap();
    let weights = |model: &str| {
        let out = vramfit(&["estimate", model, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["estimate"]["components"]["weights"].as_u64().unwrap()
    };
    let alone = weights(dir.to_str().unwrap());
    std::fs::write(
        dir.join("hf_quant_config.json"),
        include_str!(
            "../../vramfit-core/data/configs/hf_quant/nvidia__Llama-3.1-70B-Instruct-FP8.json"
        ),
    )
    .unwrap();
    let folder = weights(dir.to_str().unwrap());
    let file = weights(dir.join("config.json").to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    // The folder, the config.json path and the catalog row agree: FP8.
    assert_eq!(folder, file);
    assert_eq!(folder, weights("nvidia/Llama-3.1-70B-Instruct-FP8"));
    assert!(folder * 10 < alone * 6, "{folder} vs {alone} unquantized");
}

#[test]
fn inspect_names_a_catalog_model_by_its_catalog_id() {
    // NVIDIA's export names itself by the path it was written from; the
    // catalog id (typed in any case) is what the person knows it by.
    let out = vramfit(&["inspect", "nvidia/llama-3.1-70b-instruct-fp8"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("model             nvidia/Llama-3.1-70B-Instruct-FP8\n"),
        "{text}"
    );
}
