//! llama.cpp's plan is the verdict, through the real binary: with `-ngl
//! auto` the ring, the verdict and the answers read the split llama.cpp
//! would choose, and its host side is checked against the host RAM.

mod common;

use std::process::Command;

use common::{json, text};

const QWEN_MOE: [&str; 10] = [
    "estimate",
    "Qwen/Qwen3-30B-A3B",
    "--method",
    "llamacpp",
    "--gpu",
    "RTX 4080",
    "--quant",
    "q4_k_m",
    "--seq",
    "16384",
];

#[test]
fn a_partial_offload_is_one_verdict_that_fits() {
    let doc = json(&QWEN_MOE);
    let e = &doc["estimate"];
    let l = &e["engine"];
    let plan = &l["plan"];
    // 39 of 49 layers on the 16 GiB card, 10 from host memory.
    assert_eq!(
        (l["gpu_layers"].as_u64(), l["layers_total"].as_u64()),
        (Some(39), Some(49))
    );
    assert_eq!(plan["host_layers"], 10);
    assert_eq!(plan["host_ram_assumed"], true);
    // The ring is the plan's GPU side, and it fits.
    assert_eq!(e["total_bytes"], l["gpu_bytes"]);
    assert_ne!(e["verdict"]["status"], "no_cabe");
    // The longest context is the plan's.
    assert_eq!(doc["answers"]["max_context"], l["max_context"]);
    assert!(l["command"].as_str().unwrap().contains("-ngl 39"));
    let out = text(&QWEN_MOE);
    assert!(
        out.contains("from host memory              10 layers"),
        "{out}"
    );
    assert!(out.contains("host RAM (assumed)"), "{out}");
}

#[test]
fn experts_on_the_host_are_checked_against_the_host_ram() {
    let mut args = QWEN_MOE.to_vec();
    args.extend(["--n-cpu-moe", "48", "--host-ram-gb", "8"]);
    let doc = json(&args);
    let e = &doc["estimate"];
    let plan = &e["engine"]["plan"];
    assert_eq!(plan["experts_on_host_layers"], 48);
    let host = plan["host_needed_bytes"].as_u64().unwrap();
    assert!(host > 17_000_000_000, "{host}");
    assert_eq!(plan["host_ram_bytes"], 8_000_000_000u64);
    assert_eq!(e["verdict"]["status"], "no_cabe");
    assert_eq!(
        e["verdict"]["short_by_bytes"].as_u64(),
        Some(host - 8_000_000_000)
    );
    assert!(doc["answers"]["max_context"].is_null());
    let out = text(&args);
    // The text says the same host figure the JSON carries.
    let kept = format!(
        "of host memory: the plan keeps {:.2} GB there, 8.00 GB host RAM",
        host as f64 / 1e9
    );
    assert!(out.contains(&kept), "{kept}\n{out}");
    assert!(
        out.contains("command: none: this plan would not start"),
        "{out}"
    );
    // The engine's lines say no context fits, as the answers do.
    assert!(
        out.contains("longest context that fits     none: the host side does not fit"),
        "{out}"
    );
    // With 32 GB of RAM the same plan runs.
    let mut roomy = QWEN_MOE.to_vec();
    roomy.extend(["--n-cpu-moe", "48", "--host-ram-gb", "32"]);
    assert_ne!(json(&roomy)["estimate"]["verdict"]["status"], "no_cabe");
}

#[test]
fn on_unified_memory_the_host_side_shares_the_machines_memory() {
    // An 8 GB M1: the GPU side and the host side come out of the same 8 GiB.
    let args = [
        "estimate",
        "Qwen/Qwen3-30B-A3B",
        "--method",
        "llamacpp",
        "--gpu",
        "Apple M1 (8GB)",
        "--quant",
        "q4_k_m",
    ];
    let doc = json(&args);
    let e = &doc["estimate"];
    let plan = &e["engine"]["plan"];
    let gpu = e["total_bytes"].as_u64().unwrap();
    let host = e["engine"]["host_bytes"].as_u64().unwrap();
    assert_eq!(plan["host_ram_bytes"].as_u64(), Some(8u64 << 30));
    assert_eq!(plan["host_needed_bytes"].as_u64(), Some(gpu + host));
    assert_eq!(e["verdict"]["status"], "no_cabe");
    assert!(doc["answers"]["max_context"].is_null());
    let out = text(&args);
    assert!(out.contains("8.59 GB host RAM"), "{out}");
    assert!(!out.contains("(assumed)"), "{out}");
}

#[test]
fn the_partial_plans_command_reads_back_to_it() {
    let first = json(&QWEN_MOE);
    let command = first["estimate"]["engine"]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let mut again = vec!["estimate", "--gpu", "RTX 4080", "--json", "--"];
    again.extend(command.split(' '));
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(&again)
        .output()
        .unwrap();
    let second: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["total_bytes", "verdict"] {
        assert_eq!(first["estimate"][key], second["estimate"][key], "{key}");
    }
    assert_eq!(
        first["estimate"]["engine"]["command"],
        second["estimate"]["engine"]["command"]
    );
}

#[test]
fn offload_moves_are_suggestions_with_their_figure() {
    let mut all = QWEN_MOE.to_vec();
    all.extend(["-ngl", "49"]);
    let doc = json(&all);
    assert_eq!(doc["estimate"]["verdict"]["status"], "no_cabe");
    let moves: Vec<(String, serde_json::Value)> = doc["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["change"]["knob"].as_str().unwrap().to_string(),
                s["change"]["value"].clone(),
            )
        })
        .collect();
    assert!(
        moves.contains(&("gpu_layers".into(), 39.into())),
        "{moves:?}"
    );
    assert!(moves.contains(&("cpu_moe".into(), 12.into())), "{moves:?}");
    // Each suggestion's figure is what the method says once it is made.
    let again = json(&[&all[..], &["--n-cpu-moe", "12"]].concat());
    let s = doc["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["change"]["knob"] == "cpu_moe")
        .unwrap();
    assert_eq!(s["total_bytes"], again["estimate"]["total_bytes"]);
    assert_ne!(again["estimate"]["verdict"]["status"], "no_cabe");
    // ... and its decode speed is the speed model's over that plan: the
    // experts of 12 blocks read from host memory are slower than all on
    // the GPU.
    let decode = s["decode_tokens_per_s"].as_f64().unwrap();
    let after = again["estimate"]["engine"]["speed"]["decode_tokens_per_s"]["point"]
        .as_f64()
        .unwrap();
    assert!((decode - after).abs() < 1e-9, "{decode} vs {after}");
    let all_on_gpu = doc["estimate"]["engine"]["speed"]["decode_tokens_per_s"]["point"]
        .as_f64()
        .unwrap();
    assert!(decode < all_on_gpu, "{decode} vs {all_on_gpu}");
    let out = text(&all);
    assert!(out.contains("-> -ngl 39: 16.09 GB, decode "), "{out}");
    assert!(
        out.contains(&format!(
            "-> --n-cpu-moe 12: 15.81 GB, decode {decode:.1} tokens/s"
        )),
        "{out}"
    );
    // Short of host RAM with 48 blocks of experts there: fewer of them.
    let mut host = QWEN_MOE.to_vec();
    host.extend(["--n-cpu-moe", "48", "--host-ram-gb", "8"]);
    let doc = json(&host);
    let s = &doc["suggestions"][0];
    assert_eq!(s["change"]["knob"], "cpu_moe");
    let n = s["change"]["value"].as_u64().unwrap();
    assert!(n > 0 && n < 48, "{n}");
    let fixed = json(
        &[
            &QWEN_MOE[..],
            &["--host-ram-gb", "8", "--n-cpu-moe", &n.to_string()],
        ]
        .concat(),
    );
    assert_ne!(fixed["estimate"]["verdict"]["status"], "no_cabe");
}

/// The case: Qwen3-30B-A3B Q4_K_M on a 16 GB card at the default
/// 8,192 tokens: the engine places 40 of 49 layers and fits 11,776 tokens,
/// and the ring, the verdict and the answers now say the same.
#[test]
fn the_ring_and_the_answers_read_the_engines_split() {
    let doc = json(&[
        "estimate",
        "Qwen/Qwen3-30B-A3B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 4060 Ti 16GB",
        "--quant",
        "q4_k_m",
    ]);
    let e = &doc["estimate"];
    assert_eq!(e["engine"]["gpu_layers"], 40);
    assert_eq!(e["engine"]["max_context"], 11_776);
    assert_eq!(doc["answers"]["max_context"], 11_776);
    assert_eq!(e["verdict"]["status"], "ajustada");
    assert!(e["verdict"]["utilization"].as_f64().unwrap() < 1.0);
}
