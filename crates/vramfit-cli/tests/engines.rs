//! `vramfit estimate --method vllm|llamacpp` and `vramfit models`, as a
//! user runs them.

use std::process::Command;

fn vramfit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = vramfit(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The line: an H100 from the catalog, 0.95, 8,192 tokens.
#[test]
fn vllm_reports_kv_tokens_and_the_serve_line() {
    let doc = json(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "H100",
        "--seq",
        "8192",
        "--gpu-memory-utilization",
        "0.95",
        "--json",
    ]);
    let engine = &doc["estimate"]["engine"];
    assert_eq!(doc["estimate"]["method"], "vllm");
    let tokens = engine["kv_cache_tokens"].as_u64().unwrap();
    assert!((tokens as f64 / 476_016.0 - 1.0).abs() < 0.03, "{tokens}");
    assert_eq!(
        engine["command"],
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --gpu-memory-utilization 0.95"
    );
    assert!(engine["max_concurrency"].as_f64().unwrap() > 50.0);
    // The text output shows the same.
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "H100",
        "--gpu-memory-utilization",
        "0.95",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "vLLM 0.19.0 at start-up (per GPU):",
        "runtime terms: measured",
        &format!("KV cache tokens               {tokens}"),
        "command: vllm serve meta-llama/Llama-3.1-8B-Instruct",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn vllm_version_sets_the_graph_estimate_aside_from_0_21() {
    let json = |version: &str| {
        let out = vramfit(&[
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            "H100",
            "--vllm-version",
            version,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["estimate"]["engine"].clone()
    };
    let old = json("0.19");
    let new = json("0.22.1");
    assert_eq!(old["vllm_version"], "0.19.0");
    assert_eq!(new["vllm_version"], "0.22.1");
    assert_eq!(old["graph_reserve_bytes"], 0);
    let reserve = new["graph_reserve_bytes"].as_u64().unwrap();
    assert_eq!(reserve, 14 * (1u64 << 30) / 100);
    let kv = |e: &serde_json::Value| e["kv_cache_bytes"].as_u64().unwrap();
    assert_eq!(kv(&old) - kv(&new), reserve);
    assert_eq!(new["runtime"]["terms"]["provenance"], "measured");
    // A release before V1's default, and text that is no version.
    for bad in ["0.7.3", "latest"] {
        let out = vramfit(&[
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            "H100",
            "--vllm-version",
            bad,
        ]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            all.contains("V1 engine") || all.contains("not a vLLM version"),
            "{bad}: {all}"
        );
    }
}

#[test]
fn vllm_prints_the_error_it_would_stop_with() {
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--capacity-gib",
        "22",
        "--seq",
        "131072",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("vLLM would not start: To serve at least one request with the models's max seq len (131072)"),
        "{text}"
    );
}

#[test]
fn llamacpp_takes_gguf_types_layers_and_cache_types() {
    let doc = json(&[
        "estimate",
        "meta-llama/Llama-3.1-70B",
        "--method",
        "llamacpp",
        "--quant",
        "IQ4_XS",
        "--seq",
        "8192",
        "--n-gpu-layers",
        "40",
        "--cache-type-k",
        "q8_0",
        "--cache-type-v",
        "q8_0",
        "--ubatch",
        "256",
        "--gpu",
        "RTX 4090",
        "--json",
    ]);
    let engine = &doc["estimate"]["engine"];
    assert_eq!(engine["gpu_layers"], 40);
    assert_eq!(engine["file_type"], "IQ4_XS");
    // q8_0: 34 bytes per 32 values, 80 layers × 8 KV heads × 128.
    assert_eq!(engine["k_bytes"], 8192u64 * 80 * 8 * 128 / 32 * 34);
    assert_eq!(
        engine["command"],
        "llama-server -m Llama-3.1-70B-IQ4_XS.gguf -c 8192 -ngl 40 -ctk q8_0 -ctv q8_0 -fa on -ub 256 -np 1"
    );
    assert_eq!(doc["inputs"]["engine"]["gguf_type"], "IQ4_XS");
    // `auto` is the default again; flash attention can be turned off.
    let doc = json(&[
        "estimate",
        "meta-llama/Llama-3.1-8B",
        "--method",
        "llamacpp",
        "--n-gpu-layers",
        "auto",
        "--no-flash-attn",
        "--json",
    ]);
    assert!(doc["estimate"]["engine"]["command"]
        .as_str()
        .unwrap()
        .contains("-fa off"));
    assert!(doc["inputs"]["engine"].get("n_gpu_layers").is_none());
}

#[test]
fn engine_knobs_are_range_checked() {
    for (args, want) in [
        (
            vec!["--block-size", "24"],
            "vramfit: --block-size 24: must be 1, 8, 16, 32, 64, 128 or 256\n",
        ),
        (
            vec!["--gpu-memory-utilization", "1.5"],
            "vramfit: --gpu-memory-utilization 1.5: must be between 0.0001 and 1\n",
        ),
        (
            vec!["--cache-type-k", "q4_k"],
            "vramfit: unknown cache type `q4_k` (known: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)\n",
        ),
    ] {
        let out = vramfit(&[&["estimate"][..], &args].concat());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8(out.stderr).unwrap(), want);
    }
}

#[test]
fn models_lists_the_catalog() {
    let doc = json(&["models", "--json"]);
    let all = doc.as_array().unwrap();
    assert!(all.len() >= 100, "{} models", all.len());
    let llama = all
        .iter()
        .find(|m| m["id"] == "meta-llama/Llama-3.1-8B")
        .unwrap();
    assert_eq!(llama["status"], "calculable");
    assert_eq!(llama["params_total"], 8_030_261_248u64);
    let out = vramfit(&["models"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("id "), "{text}");
    assert!(text.contains("meta-llama/Llama-3.1-8B "), "{text}");
    assert_eq!(
        String::from_utf8(vramfit(&["models", "--x"]).stderr).unwrap(),
        "vramfit: usage: vramfit models [--json]\n"
    );
}
