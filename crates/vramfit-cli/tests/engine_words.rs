//! The engines' own words through the real binary: vLLM's and llama.cpp's
//! option names on `vramfit estimate`, in any order, and a pasted engine
//! command after `--` that reads back to the same estimate.

mod common;

use common::{error, json};

/// The figures an estimate is judged by: method, per-GPU total, GPUs,
/// verdict and the engine's command.
fn figures(doc: &serde_json::Value) -> (String, u64, u64, String, String) {
    let e = &doc["estimate"];
    (
        e["method"].as_str().unwrap().to_string(),
        e["total_bytes"].as_u64().unwrap(),
        e["gpus"].as_u64().unwrap(),
        e["verdict"]["status"].as_str().unwrap().to_string(),
        e["engine"]["command"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

const LLAMA70: &str = "meta-llama/Llama-3.3-70B-Instruct";

#[test]
fn vllm_option_names_are_read_in_any_order() {
    let a = json(&[
        "estimate",
        LLAMA70,
        "--method",
        "vllm",
        "--gpu",
        "H100",
        "--max-model-len",
        "16384",
        "--tensor-parallel-size",
        "2",
        "--gpu-memory-utilization",
        "0.85",
        "--kv-cache-dtype",
        "fp8",
        "--max-num-seqs",
        "64",
        "--block-size",
        "32",
        "--enforce-eager",
    ]);
    let b = json(&[
        "estimate",
        LLAMA70,
        "--enforce-eager",
        "--block-size",
        "32",
        "--kv-cache-dtype",
        "fp8",
        "-tp",
        "2",
        "--max-num-seqs",
        "64",
        "--gpu-memory-utilization=0.85",
        "--max-model-len",
        "16384",
        "--gpu",
        "H100",
        "--method",
        "vllm",
    ]);
    assert_eq!(a["inputs"], b["inputs"]);
    assert_eq!(figures(&a), figures(&b));
    assert_eq!(a["inputs"]["context"], 16384);
    assert_eq!(
        a["estimate"]["engine"]["command"],
        "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 2 \
         --max-model-len 16384 --gpu-memory-utilization 0.85 --max-num-seqs 64 \
         --block-size 32 --kv-cache-dtype fp8 --enforce-eager"
    );
}

#[test]
fn tp_alone_means_that_many_gpus() {
    for tp in [["-tp", "2"], ["--tensor-parallel-size", "2"], ["--tp", "2"]] {
        let doc = json(&[
            "estimate", LLAMA70, "--method", "vllm", "--gpu", "H100", tp[0], tp[1],
        ]);
        assert_eq!(
            (doc["inputs"]["gpus"].as_u64(), doc["inputs"]["tp"].as_u64()),
            (Some(2), Some(2)),
            "{tp:?}"
        );
        assert_eq!(doc["layout"]["tp"], 2, "{tp:?}");
    }
    let pp = json(&[
        "estimate", LLAMA70, "--method", "vllm", "--gpu", "H100", "-tp", "2", "-pp", "2",
    ]);
    assert_eq!(pp["inputs"]["gpus"], 4);
    // `--gpus` given keeps its copies.
    let copies = json(&[
        "estimate", LLAMA70, "--method", "vllm", "--gpu", "H100", "--gpus", "4", "-tp", "2",
    ]);
    assert_eq!(copies["layout"]["replicas"], 2);
}

#[test]
fn dtype_and_quantization_are_two_knobs() {
    let base = [
        "estimate", LLAMA70, "--method", "vllm", "--gpu", "H100", "-tp", "2",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        figures(&json(&args))
    };
    let fp8 = with(&["--dtype", "bf16", "--quant", "fp8"]);
    assert_eq!(fp8, with(&["--quant", "fp8", "--dtype", "bf16"]));
    assert_eq!(fp8, with(&["--quantization", "fp8", "--dtype", "bfloat16"]));
    assert_eq!(fp8, with(&["--dtype", "bfloat16", "--quantization", "fp8"]));
    assert!(
        fp8.4.ends_with("--dtype bfloat16 --quantization fp8"),
        "{}",
        fp8.4
    );
    let bf16 = with(&["--dtype", "bf16"]);
    // FP8 weights are about half of BF16's.
    assert!(fp8.1 * 10 < bf16.1 * 7, "{} vs {}", fp8.1, bf16.1);
}

#[test]
fn llamacpp_option_names_are_read() {
    let a = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 4090",
        "--quant",
        "q4_k_m",
        "-c",
        "16384",
        "-ngl",
        "20",
        "-ctk",
        "q8_0",
        "-ctv",
        "q8_0",
        "-fa",
        "on",
        "-np",
        "2",
        "-ub",
        "256",
        "-b",
        "1024",
    ]);
    let b = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 4090",
        "--quant",
        "q4_k_m",
        "--ctx-size",
        "16384",
        "--n-gpu-layers",
        "20",
        "--cache-type-k",
        "q8_0",
        "--cache-type-v",
        "q8_0",
        "--flash-attn",
        "on",
        "--parallel",
        "2",
        "--ubatch-size",
        "256",
        "--batch-size",
        "1024",
    ]);
    assert_eq!(a["inputs"], b["inputs"]);
    let cmd = figures(&a).4;
    assert!(
        cmd.contains("-c 16384 -ngl 20 -ctk q8_0 -ctv q8_0 -fa on -b 1024 -ub 256 -np 2"),
        "{cmd}"
    );
    let off = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 4090",
        "-fa",
        "off",
        "-ctv",
        "f16",
    ]);
    assert_eq!(off["inputs"]["engine"]["flash_attn"], false);
}

#[test]
fn a_pasted_vllm_command_is_a_scenario() {
    let pasted = json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "vllm",
        "serve",
        "Qwen/Qwen3-8B",
        "--max-model-len",
        "16384",
    ]);
    let typed = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "vllm",
        "--gpu",
        "RTX 4090",
        "--seq",
        "16384",
    ]);
    assert_eq!(figures(&pasted), figures(&typed));
    assert_eq!(pasted["inputs"], typed["inputs"]);
    let module = json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        "Qwen/Qwen3-8B",
        "--max-model-len",
        "16384",
        "--port",
        "8000",
    ]);
    assert_eq!(figures(&module), figures(&typed));
}

#[test]
fn a_pasted_llama_server_command_is_a_scenario() {
    let hf = json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "llama-server",
        "-hf",
        "unsloth/Qwen3-8B-GGUF:Q4_K_M",
        "-c",
        "8192",
        "-np",
        "1",
    ]);
    let file = json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "llama-server",
        "-m",
        "models/Qwen3-8B-Q4_K_M.gguf",
        "-c",
        "8192",
        "-np",
        "1",
    ]);
    let typed = json(&[
        "estimate",
        "Qwen/Qwen3-8B",
        "--method",
        "llamacpp",
        "--gpu",
        "RTX 4090",
        "--quant",
        "q4_k_m",
        "--seq",
        "8192",
    ]);
    assert_eq!(figures(&hf), figures(&typed));
    assert_eq!(figures(&file), figures(&typed));
    // llama-server without -np serves its automatic 4 slots.
    let slots = json(&[
        "estimate",
        "--gpu",
        "RTX 4090",
        "--",
        "llama-server",
        "-hf",
        "unsloth/Qwen3-8B-GGUF:Q4_K_M",
        "-c",
        "8192",
    ]);
    assert_eq!(slots["inputs"]["sequences"], 4);
}

#[test]
fn printed_commands_read_back_to_the_same_estimate() {
    let cases: [&[&str]; 4] = [
        &[
            "estimate",
            LLAMA70,
            "--method",
            "vllm",
            "--gpu",
            "H100",
            "-tp",
            "2",
            "--seq",
            "32768",
            "--kv-dtype",
            "fp8",
            "--quant",
            "fp8",
            "--dtype",
            "bf16",
        ],
        &[
            "estimate",
            "Qwen/Qwen3-8B",
            "--method",
            "vllm",
            "--gpu",
            "RTX 4090",
            "--seq",
            "4096",
            "--gpu-memory-utilization",
            "0.8",
            "--max-num-seqs",
            "32",
            "--enforce-eager",
        ],
        &[
            "estimate",
            "Qwen/Qwen3-8B",
            "--method",
            "llamacpp",
            "--gpu",
            "RTX 4090",
            "--quant",
            "q5_k_m",
            "--seq",
            "16384",
            "--sequences",
            "3",
            "--cache-type-v",
            "q8_0",
            "--ubatch",
            "1024",
        ],
        &[
            "estimate",
            "meta-llama/Llama-3.1-8B",
            "--method",
            "llamacpp",
            "--gpu",
            "RTX 4060",
            "--quant",
            "q8_0",
            "--seq",
            "32768",
            "--n-gpu-layers",
            "20",
        ],
    ];
    for args in cases {
        let first = json(args);
        let command = first["estimate"]["engine"]["command"]
            .as_str()
            .unwrap()
            .to_string();
        let mut again = vec!["estimate", "--gpu", args[5], "--"];
        let words: Vec<&str> = command.split(' ').collect();
        again.extend(words);
        let second = json(&again);
        assert_eq!(figures(&first), figures(&second), "{command}");
    }
}

#[test]
fn engine_words_that_cannot_be_read_are_named() {
    for (args, want) in [
        (
            &[
                "estimate",
                "--gpu",
                "H100",
                "--",
                "vllm",
                "serve",
                "Qwen/Qwen3-8B",
                "--frobnicate",
                "1",
            ][..],
            "unknown vLLM option `--frobnicate`",
        ),
        (
            &[
                "estimate",
                "--",
                "vllm",
                "serve",
                "Qwen/Qwen3-8B",
                "--cpu-offload-gb",
                "8",
            ],
            "vLLM option `--cpu-offload-gb` is not modelled",
        ),
        (
            &[
                "estimate",
                "--",
                "llama-server",
                "-m",
                "x.gguf",
                "--tensor-split",
                "1,1",
            ],
            "llama.cpp option `--tensor-split` is not modelled",
        ),
        (
            &["estimate", "--", "ollama", "run", "llama3"],
            "`ollama run llama3` is not an engine command",
        ),
        (
            &["estimate", "--", "llama-server", "-m", "my-own-model.gguf"],
            "no catalog model matches `my-own-model.gguf`",
        ),
        (
            &["estimate", "Qwen/Qwen3-8B", "-tp", "0"],
            "-tp 0: expected a whole number of GPUs",
        ),
        (
            &["estimate", "Qwen/Qwen3-8B", "--kv-cache-dtype", "int3"],
            "--kv-cache-dtype int3: expected auto",
        ),
        (
            &[
                "estimate",
                "Qwen/Qwen3-8B",
                "--method",
                "quick",
                "--",
                "vllm",
                "serve",
                "Qwen/Qwen3-8B",
            ],
            "the command after `--` runs vllm; drop --method quick",
        ),
        (&["estimate", "--bogus"], "unknown option `--bogus`"),
    ] {
        let err = error(args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn one_engines_own_knobs_choose_its_method() {
    let method = |extra: &[&str]| {
        let mut args = vec![
            "estimate",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--gpu",
            "H100",
        ];
        args.extend(extra);
        json(&args)["estimate"]["method"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // vLLM's knobs without --method: the vllm estimate, not one that
    // would leave them unread.
    assert_eq!(method(&["--gpu-memory-utilization", "0.8"]), "vllm");
    assert_eq!(method(&["--max-num-seqs", "64", "--enforce-eager"]), "vllm");
    // llama.cpp's.
    assert_eq!(method(&["-ngl", "20"]), "llamacpp");
    assert_eq!(method(&["-ctk", "q8_0", "-fa", "on"]), "llamacpp");
    assert_eq!(method(&["--n-cpu-moe", "4"]), "llamacpp");
    // Knobs every method reads, or both engines' at once: the preferred
    // method, as with no knob.
    let plain = method(&[]);
    assert_eq!(method(&["--max-model-len", "16384", "-tp", "2"]), plain);
    assert_eq!(
        method(&["--gpu-memory-utilization", "0.8", "-ngl", "20"]),
        plain
    );
    // --method still wins.
    assert_eq!(method(&["-ngl", "20", "--method", "planner"]), "planner");
}
