//! Towers kept under a key of their own rather than `vision_config`: the
//! text model of such a checkpoint is one vramfit reads (Qwen-VL's
//! `qwen`, the original LLaVA code's `llava` / `llava_llama`), but its
//! vision (or audio) tower would be dropped from the total without a word.
//! They are refused, naming the key, until their towers are counted.

use crate::model::error::ConfigError;
use crate::model::json::Reader;
use serde_json::Value;

/// Keys under which a multimodal checkpoint keeps a tower vramfit does not
/// count, with the checkpoints that use them.
const TOWER_KEYS: [(&str, &str); 20] = [
    (
        "visual",
        "Qwen-VL's ViT and resampler (modeling_qwen.py, visual.py)",
    ),
    ("vision_tower", "a vision encoder named by the LLaVA code"),
    (
        "mm_vision_tower",
        "the original LLaVA code's CLIP or SigLIP encoder",
    ),
    ("vision_tower_config", "a vision encoder's own config"),
    ("vision_encoder", "a vision encoder's own config"),
    ("vision_encoder_config", "a vision encoder's own config"),
    ("vit_config", "a ViT's own config"),
    ("vision_model", "a vision encoder's own config"),
    ("vision_backbone", "a vision backbone's own config"),
    ("visual_encoder", "a vision encoder's own config"),
    ("image_encoder", "an image encoder's own config"),
    ("img_processor", "Phi-3-vision's CLIP encoder"),
    ("embd_layer", "Phi-3-vision's image embedding and projector"),
    ("visual_tokenizer_config", "Ovis's visual tokenizer"),
    ("vq_config", "Chameleon's image tokenizer"),
    ("speech_config", "a speech encoder's own config"),
    ("audio_encoder", "an audio encoder's own config"),
    ("audio_processor", "Phi-4-multimodal's audio encoder"),
    ("whisper_config", "a Whisper audio encoder"),
    (
        "mm_projector_type",
        "a LLaVA-style projector of a vision tower",
    ),
];

/// Refuses a config that keeps a tower under one of [`TOWER_KEYS`]: its
/// model type, the key and what the key holds.
///
/// ```
/// use vramfit_core::model::parse_config;
/// let qwen_vl = r#"{"model_type": "qwen", "hidden_size": 4096, "num_hidden_layers": 32,
///     "num_attention_heads": 32, "intermediate_size": 22016, "vocab_size": 151936,
///     "visual": {"heads": 16, "layers": 48, "width": 1664, "patch_size": 14}}"#;
/// let e = parse_config(qwen_vl).unwrap_err();
/// assert!(e.to_string().contains("`visual`"), "{e}");
/// ```
pub(crate) fn refuse_towers_elsewhere(r: &Reader) -> Result<(), ConfigError> {
    let model_type = r
        .get_outer("model_type")
        .and_then(Value::as_str)
        .unwrap_or("(none)");
    for (key, what) in TOWER_KEYS {
        let held = match r.get_outer(key) {
            None | Some(Value::Null) | Some(Value::Bool(false)) => false,
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Object(m)) => !m.is_empty(),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(_) => true,
        };
        if held {
            return Err(ConfigError::unsupported(format!(
                "model type \"{model_type}\" keeps a tower under `{key}` ({what}), which vramfit \
                 does not count; the text model alone would leave it out of the total"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::model::{parse_config, parse_config_approximate, ConfigErrorKind, Includes};

    /// Qwen/Qwen-VL-Chat's config.json (the remote-code `qwen` model
    /// type): a Qwen text model with its ViT under `visual`.
    const QWEN_VL_CHAT: &str = r#"{"architectures": ["QWenLMHeadModel"],
        "attn_dropout_prob": 0.0, "auto_map": {"AutoConfig": "configuration_qwen.QWenConfig",
        "AutoModelForCausalLM": "modeling_qwen.QWenLMHeadModel"}, "eos_token_id": 151643,
        "bf16": false, "emb_dropout_prob": 0.0, "fp16": false, "fp32": false,
        "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 22016,
        "kv_channels": 128, "layer_norm_epsilon": 1e-06, "max_position_embeddings": 8192,
        "model_type": "qwen", "no_bias": true, "num_attention_heads": 32,
        "num_hidden_layers": 32, "onnx_safe": null, "rotary_emb_base": 10000,
        "rotary_pct": 1.0, "scale_attn_weights": true, "seq_length": 2048,
        "tie_word_embeddings": false, "tokenizer_type": "QWenTokenizer",
        "torch_dtype": "bfloat16", "transformers_version": "4.31.0", "use_cache": true,
        "use_dynamic_ntk": true, "use_flash_attn": false, "use_logn_attn": true,
        "visual": {"heads": 16, "image_size": 448, "image_start_id": 151857, "layers": 48,
        "mlp_ratio": 4.9231, "output_dim": 4096, "patch_size": 14, "width": 1664},
        "vocab_size": 151936}"#;

    /// liuhaotian/llava-v1.5-7b's config.json (the original LLaVA code): a
    /// flat Llama config naming its CLIP encoder in `mm_vision_tower`.
    const LLAVA_V15_7B: &str = r#"{"architectures": ["LlavaLlamaForCausalLM"],
        "bos_token_id": 1, "eos_token_id": 2, "freeze_mm_mlp_adapter": false,
        "freeze_mm_vision_resampler": false, "hidden_act": "silu", "hidden_size": 4096,
        "image_aspect_ratio": "pad", "initializer_range": 0.02, "intermediate_size": 11008,
        "max_length": 4096, "max_position_embeddings": 4096, "mm_hidden_size": 1024,
        "mm_projector_type": "mlp2x_gelu", "mm_resampler_type": null,
        "mm_use_im_patch_token": false, "mm_use_im_start_end": false,
        "mm_vision_select_feature": "patch", "mm_vision_select_layer": -2,
        "mm_vision_tower": "openai/clip-vit-large-patch14-336", "model_type": "llava",
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
        "pad_token_id": 0, "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null,
        "tie_word_embeddings": false, "torch_dtype": "float16",
        "transformers_version": "4.31.0", "tune_mm_mlp_adapter": false,
        "tune_mm_vision_resampler": false, "unfreeze_mm_vision_tower": false,
        "use_cache": true, "use_mm_proj": true, "vocab_size": 32000}"#;

    #[test]
    fn a_tower_under_its_own_key_is_refused_by_name() {
        for (text, key) in [
            (QWEN_VL_CHAT, "`visual`"),
            (LLAVA_V15_7B, "`mm_vision_tower`"),
        ] {
            let e = parse_config(text).unwrap_err();
            assert!(matches!(e.kind, ConfigErrorKind::Unsupported { .. }), "{e}");
            assert!(e.to_string().contains(key), "{e}");
            assert!(parse_config_approximate(text).is_err());
        }
        // Without its tower Qwen-VL-Chat's text model reads (7.7 B of the
        // card's 9.6 B): the refusal is the tower's alone.
        let mut c: serde_json::Value = serde_json::from_str(QWEN_VL_CHAT).unwrap();
        c.as_object_mut().unwrap().remove("visual");
        let text = parse_config(&c.to_string()).unwrap();
        assert_eq!(text.params_total / 100_000_000, 77);
    }

    #[test]
    fn a_wrapper_without_vision_config_is_flagged_not_counted() {
        // A LLaVA config trimmed to its text model: the tower is there in
        // the checkpoint, so the totals say they leave it out.
        let mut c: serde_json::Value = serde_json::from_str(LLAVA_V15_7B).unwrap();
        let o = c.as_object_mut().unwrap();
        for k in ["mm_vision_tower", "mm_projector_type"] {
            o.remove(k);
        }
        let s = parse_config(&c.to_string()).unwrap();
        assert_eq!(
            s.checkpoint.includes,
            Includes::TextModelOnlyVisionNotCounted
        );
        assert!(s.vision_not_counted.unwrap().contains("no vision_config"));
    }
}
