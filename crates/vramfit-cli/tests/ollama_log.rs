//! `--calibrate LOG` on the Ollama engine's own load log (`ml/device.go`
//! `BackendMemory.Log`, `runner/ollamarunner/runner.go`'s "load" request,
//! Ollama v0.20.0): no llama.cpp line in it, its figures to one decimal of
//! a GiB or MiB. The load is engine log [A7] (Llama 3.1 8B Instruct Q4_0,
//! 16,384 cells, micro-batch 1,024, on a 16 GB GPU) as Ollama prints it.

use std::process::Command;
use vramfit_core::methods::llamacpp::{file::converted, FileType};

const LOG: &str = r#"time=2026-01-10T10:00:00.000Z level=INFO source=types.go:42 msg="inference compute" id=0 filter_id="" library=Vulkan compute=0.0 name=Vulkan0 description="NVIDIA GeForce RTX 4080" libdirs=ollama,vulkan driver=0.0 pci_id=0000:01:00.0 type=discrete total="16.0 GiB" available="16.0 GiB"
time=2026-01-10T10:00:01.000Z level=INFO source=ggml.go:136 msg="" architecture=llama file_type=Q4_0 name="Meta Llama 3.1 8B Instruct" description="" num_tensors=292 num_key_values=29
time=2026-01-10T10:00:01.300Z level=INFO source=runner.go:1290 msg=load request="{Operation:commit LoraPath:[] Parallel:1 BatchSize:1024 FlashAttention:Enabled KvSize:16384 KvCacheType: NumThreads:8 GPULayers:33[ID:0 Layers:33(0..32)] MultiUserCache:false ProjectorPath: MainGPU:0 UseMmap:false}"
time=2026-01-10T10:00:01.400Z level=INFO source=ggml.go:494 msg="offloaded 33/33 layers to GPU"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:240 msg="model weights" device=Vulkan0 size="4.1 GiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:245 msg="model weights" device=CPU size="281.8 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:251 msg="kv cache" device=Vulkan0 size="2.0 GiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:262 msg="compute graph" device=Vulkan0 size="613.0 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:267 msg="compute graph" device=CPU size="80.0 MiB"
time=2026-01-10T10:00:01.500Z level=INFO source=device.go:272 msg="total memory" size="7.1 GiB"
"#;

fn vramfit(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn an_ollama_engine_log_calibrates_like_a_llamacpp_one() {
    let dir = std::env::temp_dir().join(format!("vramfit-ollama-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("server.log");
    std::fs::write(&log, LOG).unwrap();
    let spec = vramfit_core::catalog::find_model("meta-llama/Llama-3.1-8B-Instruct")
        .unwrap()
        .spec()
        .unwrap();
    let w = converted(&spec, FileType::Q4_0, |_, t| t).unwrap();
    let gguf = dir.join("Meta-Llama-3.1-8B-Instruct-Q4_0.gguf");
    std::fs::write(&gguf, w.header()).unwrap();
    let (g, l) = (gguf.to_str().unwrap(), log.to_str().unwrap());
    let (out, err, ok) = vramfit(&["estimate", g, "--method", "llamacpp", "--calibrate", l]);
    print!("{out}{err}");
    assert!(ok, "{err}");
    assert!(out.contains("the Ollama engine's figures"), "{out}");
    // Its compute graph (613.0 MiB) over the replay calibrates the estimate.
    assert!(
        out.contains(
            "  fitted: GPU compute buffers +15.01% of the replay (613.00 MiB printed / 533.00 MiB \
             replayed), 16384 MiB free on the GPU; every estimate below"
        ),
        "{out}"
    );
    assert!(out.contains("(calibrated from your log)"), "{out}");
    assert!(
        out.contains("\n  Vulkan0 NVIDIA GeForce RTX 4080 (16384 MiB free)\n"),
        "{out}"
    );
    // Its load request's settings: KvSize over Parallel, f16 for an empty
    // KvCacheType.
    assert!(
        out.contains("  GGUF Q4_0, n_ctx 16384, 1 sequence(s), K f16 V f16\n"),
        "{out}"
    );
    // 2.0 GiB of KV on the GPU, exactly the 2048 MiB predicted.
    assert!(
        out.contains("  KV buffer, GPU           2048.00 MiB   2048.00 MiB     0.00%\n"),
        "{out}"
    );
    // "4.1 GiB" is 4198.40 MiB; llama.cpp printed 4155.99: within the
    // print's ±0.05 GiB.
    assert!(
        out.contains("  model buffer, GPU        4198.40 MiB   4155.99 MiB    -1.01%\n"),
        "{out}"
    );
    assert!(
        out.contains("  model buffer, host        281.80 MiB    281.81 MiB     0.00%\n"),
        "{out}"
    );
    // No K/V line in Ollama's log: no K or V row.
    assert!(
        !out.lines()
            .any(|l| l.starts_with("  K cache") && l.ends_with('%')),
        "{out}"
    );
    // The next scenario starts from the log's settings: its micro-batch.
    assert!(out.contains("-ub 1024"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
