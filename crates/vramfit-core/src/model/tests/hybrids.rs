//! Nesting, hybrids and other encodings (trimmed configs written inline).

use super::super::*;
use super::{edit, golden_text, kinds};

#[test]
fn text_config_of_a_multimodal_wrapper_is_read() {
    let flat: serde_json::Value =
        serde_json::from_str(golden_text("meta-llama__Llama-3.1-8B.json")).unwrap();
    let mut inner = flat.clone();
    inner.as_object_mut().unwrap().remove("torch_dtype");
    let wrapper = serde_json::json!({
        "architectures": ["LlavaForConditionalGeneration"],
        "model_type": "llava",
        "torch_dtype": "bfloat16",
        "text_config": inner,
        "vision_config": {"hidden_size": 1024, "num_hidden_layers": 24, "model_type": "clip_vision_model"}
    });
    let nested = parse_config(&wrapper.to_string()).unwrap();
    let plain = parse_config(&flat.to_string()).unwrap();
    assert!(nested.nested_text_config && !plain.nested_text_config);
    assert_eq!(nested.model_type.as_deref(), Some("llama"));
    assert_eq!(nested.family, Family::Llama);
    assert_eq!(nested.params, plain.params);
    assert_eq!((nested.dtype, nested.dtype_assumed), (Dtype::Bf16, false));
}

/// Gemma-3-4B as published: the `text_config` gives sizes and window only;
/// heads, vocabulary and the 5:1 pattern are `Gemma3TextConfig` defaults.
pub(super) const GEMMA3_4B: &str = r#"{
  "architectures": ["Gemma3ForConditionalGeneration"],
  "model_type": "gemma3",
  "text_config": {
    "hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
    "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
    "sliding_window": 1024
  },
  "torch_dtype": "bfloat16",
  "vision_config": {"hidden_size": 1152, "model_type": "siglip_vision_model"}
}"#;

#[test]
fn gemma_3_multimodal_text_config_uses_class_defaults() {
    let s = parse_config(GEMMA3_4B).unwrap();
    assert_eq!(s.family, Family::Gemma3);
    assert_eq!(
        (s.num_attention_heads, s.num_kv_heads, s.head_dim),
        (8, 4, 256)
    );
    let local = AttentionKind::SlidingWindow { window: 1024 };
    assert_eq!(kinds(&s), [(local, 29), (AttentionKind::Full, 5)]);
    // KerasHub gemma3_4b_text counts 3,880,099,328 with 262,144 rows; the
    // Hugging Face checkpoint's embedding has 262,208 (64 × 2560 more).
    assert_eq!(s.params_total, 3_880_099_328 + 64 * 2560);
    assert_eq!(
        s.defaults_used,
        [
            "vocab_size",
            "num_attention_heads",
            "num_key_value_heads",
            "head_dim",
            "max_position_embeddings",
            "sliding_window_pattern"
        ]
    );
}

/// Llama-4-Scout (`Llama4ForConditionalGeneration`), text model only.
pub(super) const LLAMA4_SCOUT: &str = r#"{
  "architectures": ["Llama4ForConditionalGeneration"],
  "model_type": "llama4",
  "text_config": {
    "attention_bias": false, "attention_chunk_size": 8192, "head_dim": 128,
    "hidden_size": 5120, "interleave_moe_layer_step": 1, "intermediate_size": 8192,
    "intermediate_size_mlp": 16384, "max_position_embeddings": 10485760,
    "model_type": "llama4_text", "num_attention_heads": 40, "num_experts_per_tok": 1,
    "num_hidden_layers": 48, "num_key_value_heads": 8, "num_local_experts": 16,
    "torch_dtype": "bfloat16", "use_qk_norm": true, "vocab_size": 202048
  },
  "torch_dtype": "bfloat16",
  "vision_config": {"hidden_size": 1408, "num_hidden_layers": 34}
}"#;

#[test]
fn llama_4_uses_chunked_attention_on_rope_layers() {
    let s = parse_config(LLAMA4_SCOUT).unwrap();
    assert!(s.nested_text_config);
    for (i, kind) in s.attention.iter().enumerate() {
        let expected = match (i + 1) % 4 {
            0 => AttentionKind::Full,
            _ => AttentionKind::Chunked { chunk: 8192 },
        };
        assert_eq!(*kind, expected, "layer {i}");
    }
    // Text model: 17B active ("17B-16E"), shared expert in every layer.
    assert_eq!(s.params_total, 107_769_861_120);
    assert_eq!(s.params_active, 17_172_894_720);
    let moe = s.moe.unwrap();
    assert_eq!((moe.shared_experts, moe.moe_layers), (1, 48));
}

/// Qwen3-Next-80B-A3B: Gated DeltaNet layers, every 4th layer full.
pub(super) const QWEN3_NEXT: &str = r#"{
  "architectures": ["Qwen3NextForCausalLM"], "decoder_sparse_step": 1,
  "full_attention_interval": 4, "head_dim": 256, "hidden_size": 2048,
  "intermediate_size": 5120, "linear_conv_kernel_dim": 4, "linear_key_head_dim": 128,
  "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_value_head_dim": 128,
  "max_position_embeddings": 262144, "mlp_only_layers": [], "model_type": "qwen3_next",
  "moe_intermediate_size": 512, "num_attention_heads": 16, "num_experts": 512,
  "num_experts_per_tok": 10, "num_hidden_layers": 48, "num_key_value_heads": 2,
  "shared_expert_intermediate_size": 512, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "use_sliding_window": false, "vocab_size": 151936
}"#;

#[test]
fn qwen3_next_mixes_linear_and_full_attention() {
    let s = parse_config(QWEN3_NEXT).unwrap();
    // Recurrent state 32·128·128 + convolution (2·16·128 + 32·128)·3.
    let linear = AttentionKind::Linear { state: 548_864 };
    assert_eq!(kinds(&s), [(linear, 36), (AttentionKind::Full, 12)]);
    assert_eq!(s.attention[3], AttentionKind::Full);
    assert_eq!(s.params_total, 79_674_391_296); // "80B"
    assert_eq!(s.params_active, 3_874_929_408);
    // Only the 12 full layers grow: 12 × 2 × 2 × 256 elements × 2 bytes.
    assert_eq!(s.kv_bytes_per_token(16_000), 12 * 2 * 2 * 256 * 2);
    // State is per sequence, at the model dtype: 36 × 548,864 × 2 bytes each.
    let states = 36 * 548_864 * 2;
    assert_eq!(s.kv_cache_bytes(0, 3, 16_000), 3 * states);
}

/// Nemotron-H-8B: one mixer per block, `hybrid_override_pattern`, and a
/// non-standard `Infinity` as Python writes it.
pub(super) const NEMOTRON_H_8B: &str = r#"{
  "architectures": ["NemotronHForCausalLM"], "attention_bias": false,
  "attention_head_dim": 128, "chunk_size": 128, "conv_kernel": 4, "expand": 2,
  "hidden_size": 4096,
  "hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
  "intermediate_size": 21504, "mamba_head_dim": 64, "mamba_num_heads": 128,
  "mamba_proj_bias": false, "max_position_embeddings": 8192, "mlp_bias": false,
  "mlp_hidden_act": "relu2", "model_type": "nemotron_h", "n_groups": 8,
  "num_attention_heads": 32, "num_hidden_layers": 52, "num_key_value_heads": 8,
  "ssm_state_size": 128, "tie_word_embeddings": false,
  "time_step_limit": [0.0, Infinity], "torch_dtype": "bfloat16",
  "use_bias": false, "use_conv_bias": true, "vocab_size": 131072
}"#;

#[test]
fn nemotron_h_pattern_gives_one_mixer_per_block() {
    let s = parse_config(NEMOTRON_H_8B).unwrap();
    let linear = AttentionKind::Linear {
        state: 128 * 64 * 128 + (128 * 64 + 2 * 8 * 128) * 3,
    };
    assert_eq!(
        kinds(&s),
        [
            (linear, 24),
            (AttentionKind::None, 24),
            (AttentionKind::Full, 4)
        ]
    );
    assert_eq!(s.ffn.iter().filter(|f| **f == FfnKind::Dense).count(), 24);
    assert_eq!(s.ffn[1], FfnKind::Dense);
    assert_eq!(s.ffn[0], FfnKind::None);
    assert_eq!(s.head_dim, 128);
    assert_eq!(s.params_total, 8_100_852_736);
}

/// Jamba-v0.1: Mamba layers with attention every 8th layer (offset 4) and
/// 16 experts every other layer (offset 1).
pub(super) const JAMBA: &str = r#"{
  "architectures": ["JambaForCausalLM"], "model_type": "jamba", "hidden_size": 4096,
  "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
  "intermediate_size": 14336, "attn_layer_offset": 4, "attn_layer_period": 8,
  "expert_layer_offset": 1, "expert_layer_period": 2, "mamba_d_conv": 4,
  "mamba_d_state": 16, "mamba_expand": 2, "mamba_dt_rank": 256, "num_experts": 16,
  "num_experts_per_tok": 2, "vocab_size": 65536, "max_position_embeddings": 262144,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16"
}"#;

#[test]
fn jamba_periods_give_attention_and_expert_layers() {
    let s = parse_config(JAMBA).unwrap();
    // Mamba state: 8192 × 16 + 8192 × 3.
    let linear = AttentionKind::Linear { state: 8192 * 19 };
    assert_eq!(kinds(&s), [(linear, 28), (AttentionKind::Full, 4)]);
    assert_eq!(s.attention[4], AttentionKind::Full);
    assert_eq!((s.ffn[0], s.ffn[1]), (FfnKind::Dense, FfnKind::Moe));
    // Model card: 52B total, 12B active. AI21-Jamba-Mini-1.5 has the same
    // shapes; its Hugging Face safetensors total is 51,570,323,328
    // (AlexsJones/llmfit@a3e0eb27c57fe05298292f4c61699b9aed2824ea
    // llmfit-core/data/hf_models.json, `parameters_raw`).
    assert_eq!(s.params_total, 51_570_323_328);
    assert_eq!(s.params_active / 1_000_000_000, 12); // 12.11B
}

#[test]
fn mamba_is_attention_free() {
    let text = r#"{"model_type": "mamba", "hidden_size": 768, "num_hidden_layers": 24,
      "vocab_size": 50280, "state_size": 16, "conv_kernel": 4, "expand": 2,
      "intermediate_size": 1536, "time_step_rank": 48, "use_bias": false,
      "use_conv_bias": true}"#;
    let s = parse_config(text).unwrap();
    // Per layer: in 768·3072, conv 1536·4 + 1536, x 1536·80, dt 48·1536 + 1536,
    // A 1536·16, D 1536, out 1536·768, norm 768; tied 50280 × 768; final norm.
    let layer = 768 * 3072 + 1536 * 5 + 1536 * 80 + 48 * 1536 + 1536 + 1536 * 16 + 1536;
    let layer = layer + 1536 * 768 + 768;
    assert_eq!(s.params_total, 24 * layer + 50_280 * 768 + 768);
    let linear = AttentionKind::Linear {
        state: 1536 * 16 + 1536 * 3,
    };
    assert_eq!(kinds(&s), [(linear, 24)]);
    assert_eq!(s.kv_bytes_per_token(16_000), 0);
    // The state does not depend on the context.
    assert_eq!(
        s.kv_cache_bytes(1, 1, 16_000),
        s.kv_cache_bytes(1_000_000, 1, 16_000)
    );
}

#[test]
fn layer_types_list_decides_kinds() {
    let text = edit("Qwen__Qwen3-8B.json", |c| {
        let mut types = vec!["sliding_attention"; 35];
        types.push("full_attention");
        c["layer_types"] = types.into();
        c["use_sliding_window"] = true.into();
        c["sliding_window"] = 1024.into();
    });
    let local = AttentionKind::SlidingWindow { window: 1024 };
    assert_eq!(
        kinds(&parse_config(&text).unwrap()),
        [(local, 35), (AttentionKind::Full, 1)]
    );
}
