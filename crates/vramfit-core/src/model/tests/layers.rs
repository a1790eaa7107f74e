//! Per-layer attention kinds of real configs.

use super::super::*;
use super::{edit, kinds, spec, GOLDEN};

#[test]
fn gemma_2_alternates_local_and_global_layers() {
    for file in [
        "google__gemma-2-2b-it.json",
        "google__gemma-2-9b-it.json",
        "google__gemma-2-27b-it.json",
    ] {
        let s = spec(file);
        for (i, kind) in s.attention.iter().enumerate() {
            let expected = match i % 2 {
                0 => AttentionKind::SlidingWindow { window: 4096 },
                _ => AttentionKind::Full,
            };
            assert_eq!(*kind, expected, "{file} layer {i}");
        }
        assert!(
            s.tied_embeddings,
            "{file}: Gemma ties embeddings implicitly"
        );
    }
}

#[test]
fn gemma_3_has_five_local_layers_per_global_one() {
    let s = spec("google__gemma-3-1b-it.json");
    for (i, kind) in s.attention.iter().enumerate() {
        let expected = match (i + 1) % 6 {
            0 => AttentionKind::Full,
            _ => AttentionKind::SlidingWindow { window: 512 },
        };
        assert_eq!(*kind, expected, "layer {i}");
    }
    let local = AttentionKind::SlidingWindow { window: 512 };
    assert_eq!(kinds(&s), [(local, 22), (AttentionKind::Full, 4)]);
}

#[test]
fn qwen2_with_use_sliding_window_false_is_all_full() {
    for g in GOLDEN.iter().filter(|g| g.file.starts_with("Qwen__")) {
        let s = parse_config(g.text).unwrap();
        assert_eq!(
            kinds(&s),
            [(AttentionKind::Full, s.num_layers)],
            "{}",
            g.file
        );
    }
}

#[test]
fn qwen2_sliding_window_applies_from_max_window_layers() {
    let text = edit("Qwen__Qwen2.5-7B.json", |c| {
        c["use_sliding_window"] = true.into();
        c["sliding_window"] = 4096.into();
        c["max_window_layers"] = 20.into();
    });
    let s = parse_config(&text).unwrap();
    let local = AttentionKind::SlidingWindow { window: 4096 };
    assert_eq!(kinds(&s), [(AttentionKind::Full, 20), (local, 8)]);
    assert_eq!(s.attention[19], AttentionKind::Full);
    assert_eq!(s.attention[20], local);
}

#[test]
fn mixtral_null_sliding_window_is_full_attention() {
    let s = spec("mistralai__Mixtral-8x7B-v0.1.json");
    assert_eq!(kinds(&s), [(AttentionKind::Full, 32)]);
    let moe = s.moe.unwrap();
    assert_eq!((moe.routed_experts, moe.experts_per_token), (8, 2));
    assert_eq!((moe.moe_layers, moe.dense_layers), (32, 0));
}

#[test]
fn a_window_on_every_layer_without_other_rules_is_all_sliding() {
    // Mistral-7B-v0.1 style: one window for all layers.
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c["sliding_window"] = 4096.into();
    });
    let local = AttentionKind::SlidingWindow { window: 4096 };
    assert_eq!(kinds(&parse_config(&text).unwrap()), [(local, 32)]);
}

#[test]
fn a_window_at_least_the_context_is_full_attention() {
    // Phi-3.5: sliding_window 262144 ≥ max_position_embeddings 131072.
    let s = spec("microsoft__Phi-3.5-mini-instruct.json");
    assert_eq!(kinds(&s), [(AttentionKind::Full, 32)]);
}

#[test]
fn deepseek_caches_the_mla_latent() {
    let s = spec("deepseek-ai__DeepSeek-V3.json");
    assert_eq!(kinds(&s), [(AttentionKind::Mla { latent: 576 }, 61)]);
    let mla = s.mla.unwrap();
    assert_eq!((mla.q_lora_rank, mla.latent()), (Some(1536), 512 + 64));
    // 61 layers × 576 elements × 2 bytes.
    assert_eq!(s.kv_bytes_per_token(16_000), 61 * 576 * 2);
    let moe = s.moe.unwrap();
    assert_eq!((moe.dense_layers, moe.moe_layers), (3, 58));
    assert_eq!((moe.shared_experts, moe.shared_intermediate), (1, 2048));
    assert!(moe.score_bias);
}

#[test]
fn deepseek_v2_lite_projects_queries_without_compression() {
    let s = spec("deepseek-ai__DeepSeek-V2-Lite.json");
    assert_eq!(s.mla.unwrap().q_lora_rank, None);
    assert_eq!(kinds(&s), [(AttentionKind::Mla { latent: 576 }, 27)]);
    let moe = s.moe.unwrap();
    assert_eq!((moe.dense_layers, moe.moe_layers), (1, 26));
    assert_eq!((moe.shared_experts, moe.shared_intermediate), (2, 2 * 1408));
    // The published file writes "q_lora_rank": null; same model.
    let text = edit("deepseek-ai__DeepSeek-V2-Lite.json", |c| {
        c["q_lora_rank"] = serde_json::Value::Null;
    });
    assert_eq!(parse_config(&text).unwrap().params_total, 15_706_484_224);
}

#[test]
fn deepseek_mtp_layer_is_reported_apart() {
    let s = spec("deepseek-ai__DeepSeek-V3.json");
    // 671B without the multi-token-prediction module, 685B on the hub.
    let with_mtp = s.params_total + s.mtp_params;
    assert!(
        (684_000_000_000..686_000_000_000).contains(&with_mtp),
        "{with_mtp}"
    );
    assert_eq!(spec("meta-llama__Llama-3.1-8B.json").mtp_params, 0);
}

#[test]
fn gpt_oss_alternates_128_token_window_and_full_attention() {
    for file in ["openai__gpt-oss-20b.json", "openai__gpt-oss-120b.json"] {
        let s = spec(file);
        for (i, kind) in s.attention.iter().enumerate() {
            let expected = match i % 2 {
                0 => AttentionKind::SlidingWindow { window: 128 },
                _ => AttentionKind::Full,
            };
            assert_eq!(*kind, expected, "{file} layer {i}");
        }
    }
}

#[test]
fn explicit_head_dim_wins_over_hidden_over_heads() {
    // Qwen3-32B: 5120 / 64 = 80, but head_dim is 128.
    assert_eq!(spec("Qwen__Qwen3-32B.json").head_dim, 128);
    assert_eq!(spec("meta-llama__Llama-3.1-8B.json").head_dim, 4096 / 32);
}

#[test]
fn dtype_is_read_from_either_key() {
    let text = edit("Qwen__Qwen2.5-7B.json", |c| {
        c.as_object_mut().unwrap().remove("torch_dtype");
        c["dtype"] = "float16".into();
    });
    let s = parse_config(&text).unwrap();
    assert_eq!((s.dtype, s.dtype_assumed), (Dtype::F16, false));
    let text = edit("Qwen__Qwen2.5-7B.json", |c| {
        c["torch_dtype"] = "auto".into()
    });
    let s = parse_config(&text).unwrap();
    assert_eq!((s.dtype, s.dtype_assumed), (Dtype::Bf16, true));
}

#[test]
fn gpt2_keys_are_understood() {
    let s = spec("openai-community__gpt2.json");
    assert_eq!(s.family, Family::Gpt2);
    assert_eq!(
        (
            s.hidden_size,
            s.num_layers,
            s.num_attention_heads,
            s.num_kv_heads
        ),
        (768, 12, 12, 12)
    );
    assert_eq!(s.intermediate_size, Some(4 * 768)); // n_inner absent
    assert_eq!(s.max_context, Some(1024));
    assert!(s.tied_embeddings);
    // wte 50257 × 768 + wpe 1024 × 768.
    assert_eq!(s.params.embedding, 50_257 * 768 + 1024 * 768);
    assert_eq!(s.params.lm_head, 0);
    assert_eq!((s.dtype, s.dtype_assumed), (Dtype::F32, true));
}
