//! `vramfit estimate --method llamacpp` over several GPUs and with tensor
//! overrides, as people run llama.cpp: a 3090 and a 3060 in one machine,
//! `--tensor-split`, `--split-mode`, `-ot` patterns, `--cpu-moe`.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(["estimate", "--method", "llamacpp"])
        .args(args)
        .output()
        .expect("the vramfit binary runs")
}

fn engine(args: &[&str]) -> serde_json::Value {
    let out = run(&[args, &["--json"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["estimate"]["engine"].clone()
}

fn layers(d: &serde_json::Value) -> usize {
    d["layers"].as_array().unwrap().len()
}

/// A 3090 and a 3060: the layers split by their memory (2 : 1), the
/// output layer on the last GPU, each GPU's part in the plan.
#[test]
fn a_3090_and_a_3060_share_the_layers_by_their_memory() {
    let e = engine(&[
        "meta-llama/Llama-3.1-8B-Instruct",
        "--gpu",
        "RTX 3090 + RTX 3060",
        "--seq",
        "32768",
    ]);
    let d = e["devices"].as_array().unwrap();
    assert_eq!(d.len(), 2);
    assert_eq!(layers(&d[0]) + layers(&d[1]), 32);
    assert_eq!(layers(&d[0]), 22, "layer il on GPU 0 while il / 33 < 2/3");
    assert_eq!(d[1]["output_layer"], true);
    for g in d {
        let sum = ["weights", "k_cache", "v_cache", "compute"]
            .iter()
            .map(|k| g[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(g["total"].as_u64().unwrap(), sum);
    }
    // --tensor-split 1,1 moves layers to the 3060.
    let even = engine(&[
        "meta-llama/Llama-3.1-8B-Instruct",
        "--gpu",
        "RTX 3090 + RTX 3060",
        "--seq",
        "32768",
        "--tensor-split",
        "1,1",
    ]);
    assert_eq!(layers(&even["devices"][0]), 17);
    assert!(even["command"].as_str().unwrap().ends_with("-ts 1,1"));
    // A context the 3060 cannot hold at an even split: it limits.
    let long = engine(&[
        "meta-llama/Llama-3.1-8B-Instruct",
        "--gpu",
        "RTX 3090 + RTX 3060",
        "--seq",
        "8192",
        "--tensor-split",
        "1,1",
        "--quant",
        "q8_0",
    ]);
    assert_eq!(long["limiting_gpu"], 1);
    assert!(long["max_context"].as_u64().unwrap() < 131_072);
}

/// `--split-mode none` keeps everything on `--main-gpu`; two GPUs of the
/// scenario's kind are also a machine (`--gpus 2`).
#[test]
fn split_mode_none_and_main_gpu() {
    let e = engine(&[
        "Qwen/Qwen3-8B",
        "--gpu",
        "RTX 4090",
        "--gpus",
        "2",
        "--seq",
        "8192",
        "--split-mode",
        "none",
        "--main-gpu",
        "1",
    ]);
    let d = e["devices"].as_array().unwrap();
    assert_eq!(d[0]["weights"], 0);
    assert_eq!(layers(&d[1]), 36);
    assert!(e["command"].as_str().unwrap().contains("-sm none -mg 1"));
    let bad = run(&[
        "Qwen/Qwen3-8B",
        "--gpu",
        "RTX 4090",
        "--split-mode",
        "tensor",
    ]);
    assert!(!bad.status.success());
}

/// The pattern people paste for a big MoE model: the experts on the CPU.
/// Every expert tensor leaves the GPU; the rest stays; the host part is
/// checked against the host memory given.
#[test]
fn experts_on_the_cpu_with_ot_or_cpu_moe() {
    let base = ["Qwen/Qwen3-30B-A3B", "--gpu", "RTX 4090", "--seq", "16384"];
    let all = engine(&base);
    let ot = engine(&[&base[..], &["--override-tensor", "exps=CPU"]].concat());
    let moe = engine(&[&base[..], &["--cpu-moe"]].concat());
    let gpu = |e: &serde_json::Value| e["devices"][0]["weights"].as_u64().unwrap();
    assert_eq!(gpu(&ot), gpu(&moe));
    assert!(
        gpu(&ot) * 4 < all["gpu_bytes"].as_u64().unwrap(),
        "experts are most of the file"
    );
    assert_eq!(ot["host"]["weights_buffer"], "CPU_Mapped");
    assert!(ot["command"].as_str().unwrap().contains("-ot 'exps=CPU'"));
    // Layers 10-19's feed-forward tensors only.
    let some = engine(
        &[
            &base[..],
            &["--override-tensor", r"blk\.(1[0-9])\.ffn_.*=CPU"],
        ]
        .concat(),
    );
    let host = some["host"]["weights"].as_u64().unwrap();
    let ot_host = ot["host"]["weights"].as_u64().unwrap();
    assert!(host < ot_host && host > ot_host / 6, "{host} vs {ot_host}");
    // Host memory too small for the experts: said.
    let out = run(&[&base[..], &["--cpu-moe", "--host-ram-gb", "8", "--no-mmap"]].concat());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("above the host memory"), "{text}");
    assert!(
        text.contains("host: model") && text.contains("(CPU)"),
        "{text}"
    );
    // A GPU the machine does not have, or a pattern outside the subset.
    let bad = run(&[&base[..], &["--override-tensor", "exps=CUDA3"]].concat());
    assert!(!bad.status.success());
    let bad = run(&[&base[..], &["--override-tensor", "(?<=x)=CPU"]].concat());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--override-tensor"));
}

/// Speed over two GPUs reads the devices' plan: every layer of
/// Llama-3-70B Q4_K_M sits on the two 3090s, so decode is bound by their
/// memory, not by host memory. The calibration file's llama-bench row
/// (tg512 on 2 × RTX 3090, `-sm layer`) measured 16.57 tok/s.
#[test]
fn two_gpus_decode_at_their_own_bandwidth() {
    let e = engine(&[
        "meta-llama/Meta-Llama-3-70B",
        "--quant",
        "q4_k_m",
        "--gpu",
        "RTX 3090",
        "--gpus",
        "2",
    ]);
    let speed = &e["speed"];
    assert_eq!(speed["host_layers"], 0, "{speed}");
    let decode = speed["decode_tokens_per_s"]["point"].as_f64().unwrap();
    let measured = 16.57;
    assert!(
        (decode / measured - 1.0).abs() < 0.2,
        "decode {decode:.2} tok/s against {measured} measured"
    );
}
