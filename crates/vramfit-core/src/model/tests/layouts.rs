//! Layers that differ one by one (Nemotron-NAS), a recurrent state beside
//! attention (Falcon-H1), short convolutions (LFM2) and lightning attention
//! (MiniMax): their parameters, caches and states.

use super::super::*;

fn block(heads_in_group: Option<u64>, no_op: bool, linear: bool) -> serde_json::Value {
    serde_json::json!({
        "attention": {"n_heads_in_group": heads_in_group, "no_op": no_op,
                      "replace_with_linear": linear},
        "ffn": {"ffn_mult": 1.3, "no_op": false, "replace_with_linear": false}
    })
}

/// A four-layer Nemotron-NAS model: 8 and 4 query heads per key/value head,
/// one skipped attention, one linear attention.
fn nas() -> String {
    serde_json::json!({
        "model_type": "nemotron-nas", "architectures": ["DeciLMForCausalLM"],
        "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 16,
        "vocab_size": 1000, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
        "block_configs": [block(Some(8), false, false), block(Some(4), false, false),
                          block(None, true, false), block(None, false, true)]
    })
    .to_string()
}

#[test]
fn nemotron_nas_counts_each_layer_as_configured() {
    let s = parse_config(&nas()).unwrap();
    assert_eq!(s.family, Family::DeciLm);
    assert_eq!(s.kv_heads_by_layer, Some(vec![2, 4, 0, 0]));
    assert_eq!(s.num_kv_heads, 4);
    // ffn_mult 1.3: ⌊2·1.3·1024/3⌋ = 887 → 1024 (multiple of 256); the
    // widths come from the blocks, not from intermediate_size.
    assert_eq!(s.ffn_width_by_layer, Some(vec![1024; 4]));
    assert_eq!(s.intermediate_size, None);
    let (h, d) = (1024u64, 64u64);
    let mlp = 3 * h * 1024;
    let attention = |kv: u64| h * 16 * d * 2 + 2 * h * kv * d;
    // Norms: two per layer except the skipped attention's.
    let layers = (attention(2) + mlp + 2 * h)
        + (attention(4) + mlp + 2 * h)
        + (mlp + h)
        + (h * h + mlp + 2 * h);
    assert_eq!(s.params_total, layers + 2 * 1000 * h + h);
    // Only the two attention layers cache: (2 + 4) heads × 2 × 64 × 2 bytes.
    assert_eq!(s.kv_bytes_per_token(16_000), (2 + 4) * 2 * 64 * 2);
    assert_eq!(
        s.attention,
        [
            AttentionKind::Full,
            AttentionKind::Full,
            AttentionKind::None,
            AttentionKind::None
        ]
    );
}

#[test]
fn nemotron_nas_refuses_unknown_block_settings() {
    let text = nas().replace(
        "\"replace_with_linear\":true",
        "\"replace_with_linear\":true,\"moe\":{\"num_experts\":8}",
    );
    let err = parse_config(&text).unwrap_err();
    assert!(
        matches!(&err.kind, ConfigErrorKind::UnknownLayerPattern { key, .. } if key == "block_configs.attention.moe"),
        "{err:?}"
    );
}

#[test]
fn falcon_h1_keeps_a_mamba_state_beside_every_attention_layer() {
    let text = serde_json::json!({
        "model_type": "falcon_h1", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 128,
        "intermediate_size": 2048, "vocab_size": 1000, "mamba_d_ssm": 2048,
        "mamba_n_heads": 16, "mamba_d_head": 128, "mamba_n_groups": 1,
        "mamba_d_state": 64, "mamba_d_conv": 4, "torch_dtype": "bfloat16"
    })
    .to_string();
    let s = parse_config(&text).unwrap();
    // State per layer: 16·128·64 + (2048 + 2·64)·3.
    let state = 16 * 128 * 64 + (2048 + 2 * 64) * 3;
    assert_eq!(s.side_state, state);
    assert!(s.attention.iter().all(|k| *k == AttentionKind::Full));
    let kv_token = 4 * 2 * 2 * 128 * 2;
    assert_eq!(s.kv_bytes_per_token(16_000), kv_token);
    assert_eq!(
        s.kv_cache_bytes(10, 1, 16_000),
        10 * kv_token + 4 * state * 2
    );
}

#[test]
fn lfm2_short_convolutions_keep_a_small_state() {
    let text = serde_json::json!({
        "model_type": "lfm2", "hidden_size": 2048, "num_hidden_layers": 4,
        "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 12288,
        "vocab_size": 65536, "conv_L_cache": 3, "conv_bias": false,
        "block_multiple_of": 256, "block_ffn_dim_multiplier": 1.0,
        "block_auto_adjust_ff_dim": true,
        "layer_types": ["conv", "full_attention", "conv", "full_attention"]
    })
    .to_string();
    let s = parse_config(&text).unwrap();
    // 12288 → ⌊2·12288/3⌋ = 8192 → ×1.0, already a multiple of 256.
    assert_eq!(s.intermediate_size, Some(8192));
    assert_eq!(s.attention[0], AttentionKind::Linear { state: 2048 * 2 });
    assert_eq!(s.attention[1], AttentionKind::Full);
    assert!(s.tied_embeddings);
}

#[test]
fn minimax_lightning_layers_come_from_attn_type_list() {
    let text = serde_json::json!({
        "model_type": "minimax", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 128,
        "intermediate_size": 512, "vocab_size": 1000, "num_local_experts": 4,
        "num_experts_per_tok": 2, "attn_type_list": [0, 1, 0, 1]
    })
    .to_string();
    let s = parse_config(&text).unwrap();
    let lightning = AttentionKind::Linear {
        state: 8 * 128 * 128,
    };
    assert_eq!(
        s.attention,
        [
            lightning,
            AttentionKind::Full,
            lightning,
            AttentionKind::Full
        ]
    );
    assert_eq!(s.moe.as_ref().map(|m| m.moe_layers), Some(4));
    // Only the full layers grow with the context.
    assert_eq!(s.kv_bytes_per_token(16_000), 2 * 2 * 2 * 128 * 2);
}

#[test]
fn minimax_lightning_layers_store_their_decay_buffers() {
    let config = |block: Option<u64>| {
        let mut c = serde_json::json!({
            "model_type": "minimax", "hidden_size": 1024, "num_hidden_layers": 4,
            "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 128,
            "intermediate_size": 512, "vocab_size": 1000, "num_local_experts": 4,
            "num_experts_per_tok": 2, "attn_type_list": [0, 1, 0, 1]
        });
        if let Some(b) = block {
            c["block_size"] = b.into();
        }
        c.to_string()
    };
    let (small, large) = (
        parse_config(&config(Some(16))).unwrap(),
        parse_config(&config(Some(256))).unwrap(),
    );
    // Per lightning layer: slope_rate 8, query_decay and key_decay 8×B,
    // diagonal_decay 8×B×B; two lightning layers.
    let buffers = |b: u64| 2 * (8 + 2 * 8 * b + 8 * b * b);
    assert_eq!(
        large.params_total - small.params_total,
        buffers(256) - buffers(16)
    );
    // `block_size` absent: MiniMaxConfig's 256.
    let default = parse_config(&config(None)).unwrap();
    assert_eq!(default.params_total, large.params_total);
}

#[test]
fn gemma_3n_shares_caches_and_adds_altup_laurel_and_per_layer_inputs() {
    let text = serde_json::json!({
        "model_type": "gemma3n",
        "text_config": {
            "model_type": "gemma3n_text", "hidden_size": 64, "num_hidden_layers": 4,
            "intermediate_size": [128, 128, 256, 256], "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 100,
            "vocab_size_per_layer_input": 50, "hidden_size_per_layer_input": 8,
            "num_kv_shared_layers": 2, "sliding_window": 32,
            "layer_types": ["sliding_attention", "full_attention",
                            "sliding_attention", "full_attention"],
            "activation_sparsity_pattern": [0.95, 0.95, 0.0, 0.0],
            "altup_num_inputs": 4, "laurel_rank": 8
        },
        "vision_config": {"model_type": "gemma3n_vision", "hidden_size": 2048}
    })
    .to_string();
    let s = parse_config(&text).unwrap();
    assert_eq!(s.family, Family::Gemma3n);
    // The two last layers read the first two layers' caches.
    assert_eq!(
        s.attention,
        [
            AttentionKind::SlidingWindow { window: 32 },
            AttentionKind::Full,
            AttentionKind::None,
            AttentionKind::None
        ]
    );
    let (h, q, kv, d) = (64u64, 4 * 16u64, 2 * 16u64, 16u64);
    let norms = 4 * h;
    let own_kv = 2 * kv * h + d; // k, v and the k norm
    let attention = q * h + d + h * q; // q, q norm, o
    let mlp = |w: u64| 3 * w * h;
    let extras = h + 4 * 4 + 16 * 4 + 4 * h + h // AltUp
        + 2 * 8 * h + h // LAuReL
        + 2 * 8 * h + h; // per-layer input gate, projection, norm
    let layers = 4 * (norms + attention + extras) + 2 * own_kv + mlp(128) * 2 + mlp(256) * 2;
    let model = 100 * h + 50 * (4 * 8) + (4 * 8) * h + 8 + 2 * 3 * h * h + h;
    assert_eq!(s.params_total, layers + model);
    assert_eq!(s.ffn_width_by_layer, Some(vec![128, 128, 256, 256]));
}
