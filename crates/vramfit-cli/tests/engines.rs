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

/// The issue's line: an H100 from the catalog, 0.95, 8,192 tokens, on the
/// release of the log it is checked against (0.19).
#[test]
fn vllm_reports_kv_tokens_and_the_serve_line() {
    let doc = json(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--vllm-version",
        "0.19",
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
        "--vllm-version",
        "0.19",
        "--gpu",
        "H100",
        "--gpu-memory-utilization",
        "0.95",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "vLLM 0.19.0 at start-up (per GPU, --gpu-memory-utilization 0.95):",
        "runtime terms: measured",
        &format!("KV cache tokens               {tokens}"),
        "command: vllm serve meta-llama/Llama-3.1-8B-Instruct",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn vllm_version_sets_the_graph_estimate_aside_from_0_20() {
    let run = |version: &str, utilization: Option<&str>| {
        let mut args = vec![
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            "H100",
            "--vllm-version",
            version,
            "--json",
        ];
        if let Some(u) = utilization {
            args.extend(["--gpu-memory-utilization", u]);
        }
        let out = vramfit(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc
    };
    let json = |version: &str| run(version, Some("0.9"))["estimate"]["engine"].clone();
    let old = json("0.19");
    let new = json("0.22.1");
    // Named without a utilization, a release runs at its own default: 0.9
    // at 0.19, 0.92 from 0.20.
    let utilization =
        |version: &str| run(version, None)["estimate"]["engine"]["gpu_memory_utilization"].clone();
    assert_eq!(utilization("0.19"), 0.9);
    assert_eq!(utilization("0.20"), 0.92);
    // Typed, it stays whatever the release.
    assert_eq!(old["gpu_memory_utilization"], 0.9);
    assert_eq!(new["gpu_memory_utilization"], 0.9);
    // No release named: the newest, at its own default.
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "H100",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let newest = &doc["estimate"]["engine"];
    assert_eq!(newest["vllm_version"], "0.33.0");
    assert_eq!(newest["gpu_memory_utilization"], 0.92);
    assert!(doc["inputs"].get("engine").is_none(), "{}", doc["inputs"]);
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

/// A row's verbatim log lines from the shipped excerpts.
fn shipped_log(row: usize) -> String {
    let md = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vramfit-core/data/engines/vllm-logs.md"
    ))
    .unwrap();
    let section = md.split("\n## Row ").nth(row).unwrap();
    let start = section.find("```text\n").unwrap() + 8;
    let end = start + section[start..].find("```").unwrap();
    section[start..end].to_string()
}

#[test]
fn calibrate_prints_the_log_beside_the_prediction_and_uses_the_fit() {
    let dir = std::env::temp_dir().join(format!("vramfit-calibrate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("row10.log");
    std::fs::write(&path, shipped_log(10)).unwrap();
    let path = path.to_string_lossy().to_string();
    let args = [
        "estimate",
        "Qwen/Qwen3-30B-A3B",
        "--gpu",
        "A100 80GB SXM4",
        "--seq",
        "32768",
        "--calibrate",
        &path,
    ];
    let out = vramfit(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "calibration on",
        "vLLM 0.26.1",
        "KV cache memory",
        "13.84 GiB",
        "runtime terms: calibrated",
        "vLLM 0.26.1 at start-up (per GPU, --gpu-memory-utilization ",
        // The log's own CUDA total, not the catalog's driver figure.
        "GPU total                     79.25 GiB",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let out = vramfit(&with_json);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let engine = &doc["estimate"]["engine"];
    assert_eq!(engine["runtime"]["terms"]["provenance"], "calibrated");
    assert_eq!(engine["vllm_version"], "0.26.1");
    let fit = &doc["inputs"]["engine"]["vllm_calibration"];
    assert_eq!(fit["graph_estimate_bytes"].as_u64(), Some(161_061_274));
    assert!(String::from_utf8_lossy(&out.stderr).contains("calibration on"));
    // The V0 log and a log without its weights line are refused by name.
    for (name, body, says) in [
        ("v0.log", shipped_log(11), "V0 engine"),
        (
            "short.log",
            "Available KV cache memory: 3 GiB\n".to_string(),
            "Model loading took",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        let out = vramfit(&[
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--gpu",
            "RTX 3090",
            "--calibrate",
            &p.to_string_lossy(),
        ]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{name}: {err}");
    }
}

#[test]
fn interconnect_picks_the_runtime_row() {
    let engine = |gpu: &str, link: Option<&str>| {
        let mut args = vec![
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            gpu,
            "--tp",
            "2",
            "--gpus",
            "2",
            "--json",
        ];
        if let Some(link) = link {
            args.extend(["--interconnect", link]);
        }
        let out = vramfit(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["estimate"]["engine"].clone()
    };
    // The catalog's own link: an H100 SXM5 sits on an NVSwitch board, an
    // H100 NVL pair on a bridge.
    let sxm = engine("H100 SXM5", None);
    assert_eq!(sxm["runtime"]["link"], "nvswitch");
    assert_eq!(sxm["runtime"]["terms"]["provenance"], "measured");
    let nvl = engine("H100 NVL", None);
    assert_eq!(nvl["runtime"]["link"], "nvlink");
    assert_eq!(nvl["runtime"]["terms"]["provenance"], "assumed");
    let nvswitch = engine("H100", Some("nvswitch"));
    let nvlink = engine("H100", Some("nvlink"));
    let pcie = engine("H100", Some("pcie"));
    assert_eq!(nvswitch["runtime"]["terms"]["provenance"], "measured");
    assert_eq!(pcie["runtime"]["terms"]["provenance"], "assumed");
    assert_eq!(pcie["runtime"]["link"], "pcie");
    let nt = |e: &serde_json::Value| e["non_torch_bytes"].as_u64().unwrap();
    // NVLink SHARP's buffers only behind a switch.
    assert!(nt(&pcie) < nt(&nvswitch));
    assert!(nt(&nvlink) < nt(&nvswitch));
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--interconnect",
        "x",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown interconnect"));
}

/// One speed per plan: with an engine's own figures the text gives the
/// engine's speed, and seed 002's roofline only under its own name.
#[test]
fn an_engine_plan_reads_its_own_speed_first() {
    let out = vramfit(&[
        "estimate",
        "meta-llama/Meta-Llama-3-8B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 3090",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("engine speed (cuda, quant"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("speed:")), "{text}");
    assert!(
        text.contains("planner's roofline (other estimate):"),
        "{text}"
    );
}

#[test]
fn unified_memory_starts_against_what_the_system_leaves() {
    let run = |other: &str| {
        let out = vramfit(&[
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--method",
            "vllm",
            "--gpu",
            "DGX Spark",
            "--gpu-memory-utilization",
            "0.85",
            "--other-memory-gib",
            other,
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
    let idle = run("0");
    let notes = idle["notes"].to_string();
    assert!(notes.contains("vllm_unified_memory"), "{notes}");
    assert!(idle["start_error"].is_null());
    // 0.85 of 128 GiB is 108.8 GiB: with 24 GiB held elsewhere the system
    // leaves 104 GiB, and vLLM stops before loading anything.
    let busy = run("24");
    let err = busy["start_error"].to_string();
    assert!(err.contains("Free memory on device"), "{err}");
    // A discrete GPU carries no such note.
    let out = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "vllm",
        "--gpu",
        "H100",
        "--json",
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("vllm_unified_memory"));
}
