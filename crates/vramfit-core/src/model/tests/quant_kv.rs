//! Quantization, published bytes and the KV cache.

use super::super::*;
use super::hybrids::{GEMMA3_4B, JAMBA, LLAMA4_SCOUT, NEMOTRON_H_8B, QWEN3_NEXT};
use super::{edit, spec, GOLDEN};

#[test]
fn unquantized_checkpoints_weigh_params_times_dtype() {
    let llama = spec("meta-llama__Llama-3.1-8B.json");
    assert_eq!(llama.published_weight_bytes(), 2 * 8_030_261_248);
    let olmo = spec("allenai__OLMo-2-1124-7B.json");
    assert_eq!(olmo.dtype, Dtype::F32);
    assert_eq!(olmo.published_weight_bytes(), 4 * 7_298_617_344);
    assert_eq!(llama.quantized_params.total(), 0);
}

#[test]
fn fp8_block_quantization_of_qwen3_moe() {
    let s = spec("Qwen__Qwen3-30B-A3B-FP8.json");
    let q = s.quantization.as_ref().unwrap();
    assert_eq!(
        q.scheme,
        QuantScheme::Fp8Block {
            rows: 128,
            cols: 128
        }
    );
    assert_eq!(q.not_converted.len(), 145);
    let qp = s.quantized_params;
    assert_eq!(qp.attention, s.params.attention);
    assert_eq!(qp.routed_experts, s.params.routed_experts);
    assert_eq!(
        (qp.embedding, qp.lm_head, qp.router, qp.norms),
        (0, 0, 0, 0)
    );
    // fp32 scales per layer: q 32·16 + k 4·16 + v 4·16 + o 16·32, and
    // 128 experts × (gate 6·16 + up 6·16 + down 16·6); 48 layers.
    let scales = 4 * 48 * (512 + 64 + 64 + 512 + 128 * 3 * 96);
    let unquantized = s.params_total - qp.total();
    assert_eq!(
        s.published_weight_bytes(),
        qp.total() + scales + 2 * unquantized
    );
}

#[test]
fn fp8_deepseek_keeps_embeddings_router_and_head_in_bf16() {
    let s = spec("deepseek-ai__DeepSeek-V3.json");
    let qp = s.quantized_params;
    assert_eq!(
        (qp.embedding, qp.lm_head, qp.router, qp.norms),
        (0, 0, 0, 0)
    );
    assert_eq!(qp.attention, s.params.attention);
    assert_eq!(qp.shared_experts, s.params.shared_experts);
    assert_eq!(qp.dense_mlp, s.params.dense_mlp);
    assert!(s.published_weight_bytes() > s.params_total);
    assert!(s.published_weight_bytes() < s.params_total + s.params_total / 50);
}

#[test]
fn mxfp4_quantizes_only_gpt_oss_experts() {
    let s = spec("openai__gpt-oss-20b.json");
    assert_eq!(s.quantization.as_ref().unwrap().scheme, QuantScheme::Mxfp4);
    let qp = s.quantized_params;
    assert_eq!(qp.total(), qp.routed_experts);
    // Expert weights (biases excluded): 24 layers × 32 × (5760·2880 + 2880·2880).
    assert_eq!(qp.routed_experts, 24 * 32 * (5760 * 2880 + 2880 * 2880));
    // 4.25 bits per expert weight, bf16 for the rest (dtype assumed).
    let expected = qp.total() * 425 / 800 + 2 * (s.params_total - qp.total());
    assert_eq!(s.published_weight_bytes(), expected);
    assert_eq!(s.published_weight_bytes(), 13_761_264_768);
}

#[test]
fn modules_to_not_convert_stay_at_the_checkpoint_dtype() {
    let text = edit("Qwen__Qwen3-30B-A3B-FP8.json", |c| {
        c["quantization_config"]["modules_to_not_convert"] =
            vec!["model.layers.*.self_attn"].into();
    });
    let s = parse_config(&text).unwrap();
    assert_eq!(s.quantized_params.attention, 0);
    assert_eq!(s.quantized_params.routed_experts, s.params.routed_experts);
}

// ---------------------------------------------------------------------------
// KV cache

#[test]
fn kv_cache_of_full_and_sliding_layers() {
    // Llama-3.1-8B at FP16 and 8,192 tokens: the quick method's 1 GiB.
    let llama = spec("meta-llama__Llama-3.1-8B.json");
    assert_eq!(llama.kv_bytes_per_token(16_000), 131_072);
    assert_eq!(llama.kv_cache_bytes(8192, 1, 16_000), 1 << 30);
    assert_eq!(llama.kv_cache_bytes(8192, 4, 8_000), 2 << 30);
    // gpt-oss-20b: 12 full layers grow with S, 12 stop at 128 tokens.
    let oss = spec("openai__gpt-oss-20b.json");
    let width = 2 * 8 * 64 * 2;
    assert_eq!(oss.kv_bytes_per_token(16_000), 24 * width);
    assert_eq!(oss.kv_cache_bytes(100, 1, 16_000), 24 * width * 100);
    assert_eq!(
        oss.kv_cache_bytes(8192, 1, 16_000),
        12 * width * 8192 + 12 * width * 128
    );
}

#[test]
fn kv_cache_is_monotone_and_never_overflows() {
    let contexts = [
        0,
        1,
        2,
        127,
        128,
        129,
        512,
        4096,
        8192,
        131_072,
        1_000_000,
        100_000_000,
    ];
    let batches = [0, 1, 2, 7, 1_000, 1_000_000];
    let mut specs: Vec<ModelSpec> = GOLDEN
        .iter()
        .map(|g| parse_config(g.text).unwrap())
        .collect();
    for text in [LLAMA4_SCOUT, QWEN3_NEXT, NEMOTRON_H_8B, GEMMA3_4B, JAMBA] {
        specs.push(parse_config(text).unwrap());
    }
    for s in &specs {
        for bits in [4_000, 8_000, 16_000, 32_000] {
            for b in batches {
                let row: Vec<u64> = contexts
                    .iter()
                    .map(|c| s.kv_cache_bytes(*c, b, bits))
                    .collect();
                assert!(
                    row.windows(2).all(|w| w[0] <= w[1]),
                    "{:?} batch {b}: {row:?}",
                    s.name
                );
            }
            for c in contexts {
                let column: Vec<u64> = batches
                    .iter()
                    .map(|b| s.kv_cache_bytes(c, *b, bits))
                    .collect();
                assert!(
                    column.windows(2).all(|w| w[0] <= w[1]),
                    "{:?} context {c}",
                    s.name
                );
            }
        }
        assert_eq!(s.kv_cache_bytes(0, 0, 16_000), 0);
        let _ = s.kv_cache_bytes(u64::MAX, u64::MAX, u64::MAX);
        let _ = s.kv_bytes_per_token(u64::MAX);
    }
    let big = spec("meta-llama__Llama-3.1-405B.json");
    assert_eq!(big.kv_cache_bytes(100_000_000, 1_000_000, 16_000), u64::MAX);
}
