//! `vramfit estimate --method llamacpp` with the runners, builds and cache
//! options people use: `--runner ollama|lmstudio`, `--llamacpp-build`,
//! `--swa-full`, `--kv-unified`.

mod common;

use std::process::Command;

/// `vramfit estimate --method llamacpp ARGS… --json`.
fn json(args: &[&str]) -> serde_json::Value {
    common::json(&[&["estimate", "--method", "llamacpp"], args].concat())
}

fn engine(args: &[&str]) -> serde_json::Value {
    json(args)["estimate"]["engine"].clone()
}

const MIB: u64 = 1 << 20;

fn notes(e: &serde_json::Value) -> Vec<String> {
    e["notes"]
        .as_array()
        .map(|n| {
            n.iter()
                .map(|n| n["note"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// LM Studio's log U1: gpt-oss-120b at 4,096 cells keeps 288 MiB of KV
/// (the full-size SWA cache); llama-server keeps 171 at one slot.
#[test]
fn lm_studio_keeps_a_full_size_sliding_window_cache() {
    let args = ["openai/gpt-oss-120b", "--seq", "4096", "--gpu", "H100 SXM"];
    let lms = engine(&[&args[..], &["--runner", "lmstudio"]].concat());
    assert_eq!(lms["kv_cache_bytes"].as_u64().unwrap(), 288 * MIB);
    let server = engine(&args);
    assert_eq!(server["kv_cache_bytes"].as_u64().unwrap(), 171 * MIB);
    assert_eq!(
        lms["command"],
        "lms load openai/gpt-oss-120b --context-length 4096 --gpu max"
    );
    assert!(notes(&lms).contains(&"llamacpp_runner".to_string()));
    // --swa-full on llama-server makes LM Studio's cache.
    let full = engine(&[&args[..], &["--swa-full"]].concat());
    assert_eq!(full["kv_cache_bytes"].as_u64().unwrap(), 288 * MIB);
}

/// Ollama's num_ctx is per slot: -c 262,144 over 2 slots is 131,072 each,
/// within gpt-oss-120b's trained context; llama-server refuses it with
/// one shared cache.
#[test]
fn ollama_takes_the_context_per_slot() {
    let args = [
        "openai/gpt-oss-120b",
        "--gpu",
        "H100 SXM",
        "--sequences",
        "2",
    ];
    let o = engine(&[&args[..], &["--runner", "ollama", "--seq", "131072"]].concat());
    let line = o["command"].as_str().unwrap();
    assert!(line.starts_with("ollama run openai/gpt-oss-120b"), "{line}");
    assert!(line.contains("/set parameter num_ctx 131072"), "{line}");
    // Two streams of 131,072 cells on 18 full layers, f16 K and V.
    let full = 2 * 131_072 * 18 * 8 * 64 * 2 * 2;
    assert!(o["kv_cache_bytes"].as_u64().unwrap() > full);
    let refused = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "--method", "llamacpp", "--seq", "262144"])
        .args(args)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("above the model's maximum (131072 tokens)"),
        "{said}"
    );
    // With one cache per slot, llama-server takes it too.
    let per_slot = engine(
        &[
            &args[..],
            &["--seq", "262144", "--no-kv-unified", "--ubatch", "2048"],
        ]
        .concat(),
    );
    assert_eq!(per_slot["kv_cache_bytes"], o["kv_cache_bytes"]);
}

/// The build's MLA cache: DeepSeek-V3 at 16,384 cells, f16 — b5331 (log
/// A9) K 1,098 / V 976 MiB; b4905 K and V per head; the newest no V.
#[test]
fn the_build_decides_the_mla_cache() {
    let args = [
        "deepseek-ai/DeepSeek-V3",
        "--quant",
        "q2_k",
        "--seq",
        "16384",
        "--sequences",
        "1",
    ];
    let b5331 = engine(&[&args[..], &["--llamacpp-build", "b5331"]].concat());
    assert_eq!(b5331["k_bytes"].as_u64().unwrap(), 1098 * MIB);
    assert_eq!(b5331["v_bytes"].as_u64().unwrap(), 976 * MIB);
    let old = engine(&[&args[..], &["--llamacpp-build", "4905"]].concat());
    assert_eq!(old["k_bytes"].as_u64().unwrap(), 61 * 16384 * 128 * 192 * 2);
    assert_eq!(old["v_bytes"].as_u64().unwrap(), 61 * 16384 * 128 * 128 * 2);
    let newest = engine(&args);
    assert_eq!(newest["k_bytes"].as_u64().unwrap(), 1098 * MIB);
    assert_eq!(newest["v_bytes"].as_u64().unwrap(), 0);
    assert!(notes(&newest).contains(&"llamacpp_build".to_string()));
    let bad = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "--method", "llamacpp", "--llamacpp-build", "v1"])
        .args(args)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a llama.cpp build"));
}

/// The text output names the preset and the build.
#[test]
fn the_text_names_the_preset_and_the_build() {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args([
            "estimate",
            "openai/gpt-oss-20b",
            "--method",
            "llamacpp",
            "--runner",
            "ollama",
        ])
        .args(["--gpu", "RTX 4090"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("runner preset: Ollama"), "{text}");
    assert!(
        text.contains("llama.cpp build: the newest cache layouts"),
        "{text}"
    );
    assert!(text.contains("-np 1"), "{text}");
}

/// A Mac whose default wired limit is too small for the model, though its
/// unified memory is not: the line that raises the limit.
#[test]
fn a_mac_is_told_how_to_raise_the_wired_limit() {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args([
            "estimate",
            "Qwen/Qwen3-235B-A22B",
            "--method",
            "llamacpp",
            "--quant",
            "q3_k_m",
        ])
        .args([
            "--gpu",
            "Apple M4 Max (128GB, 40-core GPU)",
            "--seq",
            "32768",
            "--n-gpu-layers",
            "95",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Metal's wired limit) is used"), "{text}");
    assert!(text.contains("sudo sysctl iogpu.wired_limit_mb="), "{text}");
    // A model that fits the default limit is not told to raise it.
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "openai/gpt-oss-20b", "--method", "llamacpp"])
        .args(["--gpu", "Apple M4 Max (128GB, 40-core GPU)"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout)
        .unwrap()
        .contains("iogpu.wired_limit_mb"));
}

/// `vramfit estimate MODEL --gpu GPU -- llama-server ARGS… --json`'s notes
/// and the text's lines.
fn typed(model: &str, gpu: &str, server: &[&str]) -> (Vec<String>, String, serde_json::Value) {
    let run = |json: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_vramfit"));
        c.args(["estimate", model, "--gpu", gpu]);
        if json {
            c.arg("--json");
        }
        c.arg("--").args(server);
        String::from_utf8(c.output().unwrap().stdout).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let e = v["estimate"]["engine"].clone();
    (notes(&e), run(false), e)
}

#[test]
fn a_mac_typed_as_people_type_it_says_it_used_the_wired_limit() {
    let (n, text, _) = typed(
        "Qwen/Qwen3-32B",
        "M4 Max",
        &["llama-server", "-m", "Qwen3-32B-Q8_0.gguf", "-c", "32768"],
    );
    assert!(n.contains(&"wired_limit_used".to_string()), "{n:?}");
    assert!(text.contains("Metal's wired limit) is used"), "{text}");
}

#[test]
fn a_strix_halo_uses_vram_plus_gtt_and_says_how_to_raise_it() {
    // 128 GiB, 512 MiB carve-out: 0.5 + 63.75 GiB; gpt-oss-120b at its
    // full context needs more, and fits once GTT is raised.
    let (n, text, e) = typed(
        "openai/gpt-oss-120b",
        "Ryzen AI Max+ 395",
        &[
            "llama-server",
            "-hf",
            "ggml-org/gpt-oss-120b-GGUF",
            "-c",
            "131072",
        ],
    );
    assert!(n.contains(&"gtt_limit_used".to_string()), "{n:?}");
    let gtt = e["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["note"] == "gtt_limit_used")
        .unwrap()
        .clone();
    assert_eq!(gtt["vram_bytes"], 512 * MIB);
    assert_eq!(gtt["gtt_bytes"], (127 * 1024 + 512) / 2 * MIB);
    assert!(text.contains("ttm.pages_limit="), "{text}");
    assert!(text.contains("amdgpu.gttsize="), "{text}");
    // A model that fits the default GTT is not told to raise it.
    let (n, _, _) = typed(
        "Qwen/Qwen3-32B",
        "Ryzen AI Max+ 395",
        &["llama-server", "-m", "Qwen3-32B-Q8_0.gguf", "-c", "32768"],
    );
    assert!(!n.contains(&"raise_gtt_limit".to_string()), "{n:?}");
}

#[test]
fn a_dgx_spark_uses_the_whole_unified_memory() {
    let (n, text, _) = typed(
        "openai/gpt-oss-120b",
        "DGX Spark",
        &[
            "llama-server",
            "-hf",
            "ggml-org/gpt-oss-120b-GGUF",
            "-c",
            "32768",
        ],
    );
    assert!(n.contains(&"unified_total_used".to_string()), "{n:?}");
    assert!(!n.contains(&"nominal_capacity_used".to_string()), "{n:?}");
    assert!(
        text.contains("CUDA reports the whole system memory"),
        "{text}"
    );
}

/// The code block of load log `id` in the engines' log file.
fn log_excerpt(id: &str) -> String {
    let logs = include_str!("../../vramfit-core/data/engines/llamacpp-logs.md");
    let start = logs.find(&format!("## [{id}]")).unwrap();
    logs[start..].split("```").nth(1).unwrap().to_string()
}

/// A calibration log's build sets the cache layout where the person names
/// none: log C1 (b4905, before the latent MLA cache) printed K 5,856 and V
/// 3,904 MiB for DeepSeek-R1 at 2,048 cells, K and V per head; the
/// prediction beside it and the next scenario take b4905's layout
/// (`--llamacpp-build` winning over the log's: the core's
/// `a_named_build_wins_over_the_calibration_logs`).
#[test]
fn a_calibration_logs_build_sets_the_cache_layout() {
    let dir = std::env::temp_dir().join(format!("vramfit-build-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("c1.log");
    std::fs::write(&log, log_excerpt("C1")).unwrap();
    let l = log.to_str().unwrap();
    let args = [
        "deepseek-ai/DeepSeek-V3",
        "--quant",
        "q8_0",
        "--calibrate",
        l,
    ];
    let from_log = engine(&args);
    assert_eq!(from_log["k_bytes"].as_u64().unwrap(), 5856 * MIB);
    assert_eq!(from_log["v_bytes"].as_u64().unwrap(), 3904 * MIB);
    assert_eq!(
        from_log["compute_calibrated_from_log"]["build"].as_u64(),
        Some(4905)
    );
    // The text names the build and where it came from.
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "--method", "llamacpp"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  K cache                  5856.00 MiB   5856.00 MiB     0.00%\n"),
        "{text}"
    );
    assert!(
        text.contains("llama.cpp build b4905 (the calibration log's): its cache layouts"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// LM Studio's guardrail: gpt-oss-120b at 8,192 tokens on an RTX 4090
/// with 56 GB of RAM takes 66.79 GB of the machine's 81.76 GB (with flash
/// attention off, the V cache's row indices: 4 MiB on the host and their
/// copy on the GPU). The default level (balanced, 90 %) lets it load and says so; strict (75 %) and a
/// custom level keeping 30 GiB free stop it, naming the level; off never
/// checks; llama-server has no guardrail.
#[test]
fn lm_studios_guardrail_stops_what_its_level_does_not_allow() {
    let args = [
        "openai/gpt-oss-120b",
        "--runner",
        "lmstudio",
        "--gpu",
        "RTX 4090",
        "--host-ram-gb",
        "56",
        "--seq",
        "8192",
    ];
    let balanced = engine(&args);
    let g = &balanced["lmstudio_guardrail"];
    assert_eq!(g["level"], "balanced");
    assert_eq!(g["refuses"], false);
    let (load, machine) = (
        g["load_bytes"].as_u64().unwrap(),
        g["machine_bytes"].as_u64().unwrap(),
    );
    assert_eq!(g["limit_bytes"].as_u64().unwrap(), machine * 9 / 10);
    assert!(load > machine * 3 / 4 && load < machine * 9 / 10, "{g}");
    let run = |level: &str| {
        Command::new(env!("CARGO_BIN_EXE_vramfit"))
            .args(["estimate", "--method", "llamacpp"])
            .args(args)
            .args(["--lmstudio-guardrail", level])
            .output()
            .unwrap()
    };
    for level in ["strict", "custom:30"] {
        let out = run(level);
        assert!(!out.status.success(), "{level}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "LM Studio's guardrail ({level}) stops the load: it takes 66.79 GB"
            )),
            "{err}"
        );
    }
    let off = run("off");
    assert!(off.status.success());
    let text = String::from_utf8(off.stdout).unwrap();
    assert!(
        text.contains(
            "LM Studio guard (off)         66.79 GB of 81.76 GB GPU memory + RAM, no limit: loads"
        ),
        "{text}"
    );
    let bad = run("high");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown guardrail level `high`"));
    let server = engine(&args[..1]);
    assert!(server.get("lmstudio_guardrail").is_none());
}
