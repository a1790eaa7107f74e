//! Golden tests of the whole method on real models of the catalog.

use super::*;
use crate::catalog::find_model;

fn model(id: &str) -> VllmModel {
    let entry = find_model(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    VllmModel::from_config(entry.config).unwrap()
}

const H100: u64 = 7919 * GIB / 100;

fn run(tp: u32, pp: u32, len: u64) -> VllmInputs {
    VllmInputs {
        tp,
        pp,
        max_model_len: Some(len),
        gpu_memory_utilization: Utilization(9500),
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
fn format_gib_prints_like_python() {
    assert_eq!(format_gib(3 * GIB as u128), "3.0");
    assert_eq!(format_gib(GIB as u128 * 311 / 100), "3.11");
    assert_eq!(format_gib(GIB as u128 * 310 / 100), "3.1");
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
