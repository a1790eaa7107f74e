//! Golden tests of the whole method on real models of the catalog.

use super::*;
use crate::catalog::find_model;
use crate::units::{Bytes, DisplayUnit, GIB};

fn model(id: &str) -> VllmModel {
    let entry = find_model(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    VllmModel::from_config(&entry.config).unwrap()
}

const H100: u64 = 7919 * GIB / 100;

fn run(tp: u32, pp: u32, len: u64) -> VllmInputs {
    VllmInputs {
        tp,
        pp,
        max_model_len: Some(len),
        gpu_memory_utilization: Utilization(9500),
        release: crate::methods::vllm::VllmRelease::new(0, 19, 0),
        ..VllmInputs::default()
    }
}

#[test]
fn pipeline_stages_give_the_remainder_to_the_stages_before_the_last() {
    assert_eq!(
        pipeline_stages(32, 4),
        [(0, 8), (8, 16), (16, 24), (24, 32)]
    );
    assert_eq!(pipeline_stages(10, 4), [(0, 2), (2, 5), (5, 8), (8, 10)]);
    assert_eq!(pipeline_stages(5, 1), [(0, 5)]);
}

#[test]
fn gib_prints_like_python() {
    let gib = |b: u64| Bytes(b).hundredths_text(DisplayUnit::Gib);
    assert_eq!(gib(3 * GIB), "3.0");
    assert_eq!(gib(GIB * 311 / 100 + 1), "3.11");
    assert_eq!(gib(GIB * 310 / 100), "3.1");
}

#[test]
fn llama_8b_matches_its_log() {
    // vLLM 0.19, H100 80GB, --max-model-len 8192 --gpu-memory-utilization
    // 0.95: weights 14.99 GiB, peak 1.89, non-torch 0.25, KV 58.11 GiB,
    // 476,016 tokens, 58.11× concurrency.
    let e = estimate(
        &model("meta-llama/Llama-3.1-8B-Instruct"),
        H100,
        &run(1, 1, 8192),
    )
    .unwrap();
    let g = |b: u64| (b as f64 / GIB as f64 * 100.0).round() / 100.0;
    assert_eq!(g(e.weights_bytes), 14.99);
    assert_eq!(g(e.activation_peak_bytes), 1.89);
    assert_eq!(g(e.non_torch_bytes), 0.25);
    assert!((g(e.kv_cache_bytes) - 58.11).abs() <= 0.02);
    assert!((e.kv_cache_tokens as f64 - 476_016.0).abs() / 476_016.0 < 0.001);
    assert!((e.max_concurrency - 58.11).abs() < 0.1);
    assert_eq!(e.kv_cache_groups, 1);
    assert!(e.start_error.is_none());
    assert!(e.max_model_len_fits >= 131_072);
}

#[test]
fn a_context_that_does_not_fit_gives_vllms_error() {
    // Llama-3.1-8B at 0.2 utilization on an H100: 15.84 GiB requested, less
    // than the 17 GiB of weights, peak and non-torch memory.
    let inputs = VllmInputs {
        gpu_memory_utilization: Utilization(2000),
        ..run(1, 1, 131_072)
    };
    let e = estimate(&model("meta-llama/Llama-3.1-8B-Instruct"), H100, &inputs).unwrap();
    let err = e.start_error.unwrap();
    assert_eq!(err.kind, StartErrorKind::NoKvMemory);
    assert!(err
        .message
        .starts_with("No available memory for the cache blocks."));
    assert_eq!(e.kv_cache_tokens, 0);
    assert!(e.ranks[0].kv_shortfall_bytes > 0);

    // At 0.25 a little is left, not enough for 131,072 tokens.
    let inputs = VllmInputs {
        gpu_memory_utilization: Utilization(2500),
        ..run(1, 1, 131_072)
    };
    let e = estimate(&model("meta-llama/Llama-3.1-8B-Instruct"), H100, &inputs).unwrap();
    let err = e.start_error.unwrap();
    assert_eq!(err.kind, StartErrorKind::ContextDoesNotFit);
    assert!(
        err.message.contains("max seq len (131072)"),
        "{}",
        err.message
    );
    assert!(err
        .message
        .contains("the estimated maximum model length is"));
    assert!(e.max_model_len_fits > 0 && e.max_model_len_fits < 131_072);
}

#[test]
fn a_context_beyond_the_config_is_refused_like_vllm() {
    let e = estimate(
        &model("meta-llama/Llama-3.1-8B-Instruct"),
        H100,
        &run(1, 1, 200_000),
    )
    .unwrap();
    assert_eq!(
        e.start_error.unwrap().kind,
        StartErrorKind::ContextBeyondModel
    );
}

#[test]
fn heads_must_divide_over_the_gpus() {
    let err = estimate(
        &model("meta-llama/Llama-3.1-8B-Instruct"),
        H100,
        &run(3, 1, 8192),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Total number of attention heads (32) must be divisible by tensor parallel size (3)."
    );
}

#[test]
fn online_fp8_on_a_quantized_checkpoint_is_refused() {
    let inputs = VllmInputs {
        quantization: OnlineQuant::Fp8,
        ..run(1, 1, 8192)
    };
    let err = estimate(
        &model("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"),
        H100,
        &inputs,
    )
    .unwrap_err();
    assert!(matches!(err, VllmRefusal::Quantization { .. }));
}

#[test]
fn fp8_kv_cache_doubles_the_tokens() {
    let m = model("meta-llama/Llama-3.1-8B-Instruct");
    let auto = estimate(&m, H100, &run(1, 1, 8192)).unwrap();
    let fp8 = estimate(
        &m,
        H100,
        &VllmInputs {
            kv_cache_dtype: KvCacheDtype::Fp8,
            ..run(1, 1, 8192)
        },
    )
    .unwrap();
    assert_eq!(
        fp8.num_gpu_blocks,
        2 * auto.num_gpu_blocks + fp8.num_gpu_blocks % 2
    );
}

#[test]
fn defaults_follow_the_gpu_and_the_model() {
    let m = model("meta-llama/Llama-3.1-8B-Instruct");
    let e = estimate(&m, H100, &VllmInputs::default()).unwrap();
    assert_eq!(e.max_model_len, 131_072);
    assert_eq!(e.resolved.max_num_batched_tokens, 8192);
    assert_eq!(e.resolved.max_num_seqs, 1024);
    let small = estimate(&m, 24 * GIB, &VllmInputs::default()).unwrap();
    assert_eq!(small.resolved.max_num_batched_tokens, 2048);
    assert_eq!(small.resolved.max_num_seqs, 256);
    assert_eq!(
        small.start_error.map(|e| e.kind),
        Some(StartErrorKind::ContextDoesNotFit)
    );
}

#[test]
fn every_catalog_model_estimates_or_refuses_without_panic() {
    let gpus = [8 * GIB, 24 * GIB, H100, 192 * GIB];
    for entry in crate::catalog::models::all() {
        let Ok(m) = VllmModel::from_config(&entry.config) else {
            continue;
        };
        for &gpu in &gpus {
            for (tp, pp) in [(1, 1), (2, 1), (8, 1), (1, 3), (4, 2)] {
                for util in [1000, 9000, 10_000] {
                    let inputs = VllmInputs {
                        tp,
                        pp,
                        gpu_memory_utilization: Utilization(util),
                        ..VllmInputs::default()
                    };
                    let Ok(e) = estimate(&m, gpu, &inputs) else {
                        continue;
                    };
                    assert!(e.max_concurrency.is_finite() && e.max_concurrency >= 0.0);
                    assert_eq!(e.ranks.len(), pp as usize, "{}", entry.id);
                    for r in &e.ranks {
                        let sum = r.weights_bytes
                            + r.activation_peak_bytes
                            + r.non_torch_bytes
                            + r.graph_reserve_bytes;
                        assert_eq!(r.non_kv_bytes, sum, "{}", entry.id);
                        assert_eq!(
                            r.kv_cache_bytes as i128 - r.kv_shortfall_bytes as i128,
                            e.requested_bytes as i128 - sum as i128
                        );
                    }
                    assert!(e.max_model_len_fits <= e.max_model_len.max(e.max_model_len_fits));
                    if e.kv_cache_tokens > 0 {
                        assert!(e.num_gpu_blocks > 0);
                    }
                }
            }
        }
    }
}

#[test]
fn more_memory_never_means_fewer_tokens() {
    let m = model("Qwen/Qwen2.5-7B-Instruct");
    let mut last = 0;
    for util in (5000..=10_000).step_by(500) {
        let inputs = VllmInputs {
            gpu_memory_utilization: Utilization(util),
            ..run(1, 1, 8192)
        };
        let e = estimate(&m, H100, &inputs).unwrap();
        assert!(e.kv_cache_tokens >= last);
        last = e.kv_cache_tokens;
    }
}

#[test]
fn pipeline_stages_share_the_fewest_blocks() {
    let e = estimate(
        &model("meta-llama/Llama-3.1-8B-Instruct"),
        H100,
        &run(1, 4, 8192),
    )
    .unwrap();
    let least = e.ranks.iter().map(|r| r.num_blocks).min().unwrap();
    assert_eq!(e.num_gpu_blocks, least);
    // The last stage samples: its peak and non-torch memory are the largest.
    let last = e.ranks.last().unwrap();
    assert!(e
        .ranks
        .iter()
        .all(|r| r.activation_peak_bytes <= last.activation_peak_bytes));
    assert_eq!(e.weights_bytes, last.weights_bytes);
}

#[test]
fn multimodal_profiles_hold_their_dummy_images() {
    let e = estimate(&model("google/gemma-3-4b-it"), H100, &run(1, 1, 8192)).unwrap();
    assert_eq!(e.profiled_images, 32);
    assert_eq!(e.kv_cache_groups, 7);
    let p = e.ranks[0].profile;
    assert_eq!(p.multimodal, 32 * (3 * 896 * 896 + 256 * 2560) * 2);
    let e = estimate(
        &model("mistralai/Mistral-Small-3.1-24B-Instruct-2503"),
        H100,
        &run(1, 1, 8192),
    )
    .unwrap();
    assert_eq!(e.profiled_images, 2);
}

#[test]
fn the_serve_command_reproduces_the_inputs() {
    let inputs = VllmInputs {
        kv_cache_dtype: KvCacheDtype::Fp8,
        ..run(2, 1, 8192)
    };
    assert_eq!(
        serve_command("Qwen/Qwen2.5-7B-Instruct", &inputs),
        "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --max-model-len 8192 \
         --gpu-memory-utilization 0.95 --kv-cache-dtype fp8"
    );
}

#[test]
fn caches_it_does_not_lay_out_are_refused_by_kind() {
    // DeepSeek-V3.2 / GLM-5 keep the sparse-attention indexer's keys in a
    // cache of their own; DeepSeek-V4 compresses. The method refuses them,
    // typed, rather than laying them out as plain attention.
    for id in ["zai-org/GLM-5", "deepseek-ai/DeepSeek-V4-Flash"] {
        let err = estimate(&model(id), H100, &run(8, 1, 8192)).unwrap_err();
        assert!(
            matches!(err, VllmRefusal::UnsupportedLayers { .. }),
            "{id}: {err}"
        );
    }
}

#[test]
fn a_modelopt_export_loads_as_its_hf_quant_config_says() {
    // NVIDIA's FP8 export of Llama-3.1-70B-Instruct: config.json has no
    // quantization_config; vLLM reads hf_quant_config.json beside it.
    let entry = find_model("nvidia/Llama-3.1-70B-Instruct-FP8").unwrap();
    let side = entry.hf_quant_config.as_deref().unwrap();
    let spec = crate::model::parse_config_with(&entry.config, Some(side)).unwrap();
    let beside = VllmModel::shared(std::sync::Arc::new(spec), Some(&entry.config));
    // The same checkpoint with the side file written into config.json.
    let mut merged: serde_json::Value = serde_json::from_str(&entry.config).unwrap();
    let file: serde_json::Value = serde_json::from_str(side).unwrap();
    merged["quantization_config"] = serde_json::json!({
        "quant_method": "modelopt",
        "producer": file["producer"],
        "quantization": file["quantization"],
    });
    let inside = VllmModel::from_config(&merged.to_string()).unwrap();
    let alone = VllmModel::from_config(&entry.config).unwrap();
    let tp2 = |m: &VllmModel| estimate(m, H100, &run(2, 1, 8192)).unwrap();
    let (b, i, a) = (tp2(&beside), tp2(&inside), tp2(&alone));
    assert_eq!(b.weights_bytes, i.weights_bytes);
    assert!(b.notes.is_empty() && i.notes.is_empty(), "{:?}", b.notes);
    // FP8 linear layers, the 16-bit embedding and head split over 2 GPUs:
    // 33.87 GiB each, against 65.74 GiB read as 16-bit.
    let g = |b: u64| (b as f64 / GIB as f64 * 100.0).round() / 100.0;
    assert_eq!(g(b.weights_bytes), 33.87);
    assert_eq!(g(a.weights_bytes), 65.74);
}

#[test]
fn a_modelopt_checkpoint_asking_for_an_fp8_kv_cache_gets_it_by_default() {
    let resolved = |id: &str| {
        let entry = find_model(id).unwrap();
        let spec = entry.spec().unwrap();
        let m = VllmModel::shared(std::sync::Arc::new(spec.clone()), Some(&entry.config));
        (checkpoint_kv_fp8(&m.spec), m)
    };
    // ModelOpt: kv_cache_quant_algo in hf_quant_config.json, or a float
    // 8-bit kv_cache_scheme in config.json: FP8 without --kv-cache-dtype.
    for id in [
        "nvidia/Llama-3.1-70B-Instruct-FP8",
        "nvidia/MiniMax-M2.5-NVFP4",
    ] {
        let (fp8, m) = resolved(id);
        assert!(fp8, "{id}");
        let auto = estimate(&m, H100, &run(4, 1, 8192)).unwrap();
        assert_eq!(auto.resolved.kv_bytes, 1, "{id}");
    }
    // Another method (compressed-tensors, whose kv_cache_scheme vLLM's
    // resolution does not read) and an unquantized model keep the dtype.
    for id in [
        "RedHatAI/Qwen2.5-7B-Instruct-FP8-dynamic",
        "meta-llama/Llama-3.1-8B-Instruct",
    ] {
        let (fp8, m) = resolved(id);
        assert!(!fp8, "{id}");
        let auto = estimate(&m, H100, &run(4, 1, 8192)).unwrap();
        assert_eq!(auto.resolved.kv_bytes, 2, "{id}");
    }
}

#[test]
fn other_processes_leave_too_little_free_memory() {
    // Row 6 of the shared logs: an RTX 4080 with 14.66 of 15.99 GiB free;
    // vLLM asks 0.85 of the total, 13.59 GiB, and starts.
    let total = 1599 * GIB / 100;
    let inputs = |util: u32| VllmInputs {
        max_model_len: Some(4096),
        gpu_memory_utilization: Utilization(util),
        other_memory_bytes: total - 1466 * GIB / 100,
        ..VllmInputs::default()
    };
    let m = model("Qwen/Qwen2.5-0.5B");
    let e = estimate(&m, total, &inputs(8500)).unwrap();
    assert_eq!(
        Bytes(e.requested_bytes).hundredths_text(DisplayUnit::Gib),
        "13.59"
    );
    assert!(e
        .start_error
        .as_ref()
        .is_none_or(|s| s.kind != StartErrorKind::NotEnoughFreeMemory));
    let e = estimate(&m, total, &inputs(9500)).unwrap();
    let err = e.start_error.unwrap();
    assert_eq!(err.kind, StartErrorKind::NotEnoughFreeMemory);
    assert!(
        err.message
            .starts_with("Free memory on device (14.66/15.99 GiB)"),
        "{}",
        err.message
    );
}

#[test]
fn gemma4_global_layers_cache_their_own_width() {
    // vLLM 0.25.1 on a GB10 (shared logs, row 5): 84.68 GiB of KV cache,
    // 14.92 requests of 262,144 tokens: 5.676 GiB per request. Sliding
    // layers (window 1024) and global layers of other head counts and
    // widths each get their own page, unified by the hybrid allocator.
    let inputs = VllmInputs {
        max_model_len: Some(262_144),
        max_num_seqs: Some(32),
        max_num_batched_tokens: Some(2496),
        ..VllmInputs::default()
    };
    let e = estimate(&model("google/gemma-4-26B-A4B"), H100, &inputs).unwrap();
    let per_request = e.ranks[0].kv_per_request_bytes as f64 / GIB as f64;
    assert!(
        (per_request / (84.68 / 14.92) - 1.0).abs() < 0.005,
        "{per_request}"
    );
    assert!(e.kv_cache_groups > 1);
}
