//! Vision towers counted from real configs, checked against published
//! parameter counts and checkpoint sizes.

use super::*;
use crate::model::{parse_config, ModelSpec};
use serde_json::{json, Value};

const MEDGEMMA_27B: &str =
    include_str!("../../../tests/fixtures/vision/google__medgemma-27b-it.json");
const OLMOCR_7B: &str =
    include_str!("../../../tests/fixtures/vision/allenai__olmOCR-7B-0225-preview.json");
const MISTRAL_SMALL: &str = include_str!(
    "../../../tests/fixtures/vision/mistralai__Mistral-Small-3.2-24B-Instruct-2506.json"
);
const QWEN2_5_7B: &str = include_str!("../../../data/configs/Qwen__Qwen2.5-7B.json");
const QWEN3_4B: &str = include_str!("../../../data/configs/Qwen__Qwen3-4B.json");

fn spec(text: &str) -> ModelSpec {
    parse_config(text).unwrap_or_else(|e| panic!("{e}"))
}

fn vision(text: &str) -> VisionSpec {
    spec(text).vision.expect("vision tower counted")
}

/// The SigLIP tower every Gemma 3 multimodal checkpoint ships (as in
/// MedGemma 27B's config).
fn gemma3_vision_config() -> Value {
    let config: Value = serde_json::from_str(MEDGEMMA_27B).unwrap();
    config["vision_config"].clone()
}

/// Gemma 3 4B / 12B multimodal: the text config as published and the
/// shared SigLIP `vision_config`.
fn gemma3(hidden: u64, intermediate: u64, layers: u64, heads: u64, kv: u64) -> String {
    json!({
        "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
        "mm_tokens_per_image": 256, "torch_dtype": "bfloat16",
        "text_config": {"model_type": "gemma3_text", "hidden_size": hidden,
            "intermediate_size": intermediate, "num_hidden_layers": layers,
            "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": 256,
            "sliding_window": 1024},
        "vision_config": gemma3_vision_config()
    })
    .to_string()
}

/// KerasHub `gemma3_presets.py` (keras-team/keras-hub@71453d08): the
/// with-vision presets less the text-only ones are the tower and projector.
#[test]
fn gemma3_vision_towers_match_kerashub() {
    assert_eq!(
        vision(&gemma3(2560, 10240, 34, 8, 4)).params,
        4_299_915_632 - 3_880_099_328
    );
    assert_eq!(
        vision(&gemma3(3840, 15360, 48, 16, 8)).params,
        12_187_079_280 - 11_765_788_416
    );
    let v = vision(MEDGEMMA_27B);
    assert_eq!(v.params, 27_432_062_576 - 27_009_002_240);
    assert_eq!(
        (v.kind, v.layers, v.hidden_size),
        (VisionKind::Siglip, 27, 1152)
    );
    assert_eq!(v.image_tokens, Some(256));
    // SigLIP so400m/14 at 896: 416,866,032; projector 1152 × 5376 + 1152.
    assert_eq!(v.projector_params, 1152 * 5376 + 1152);
}

/// google/medgemma-27b-it: `model.safetensors.index.json` gives
/// total_size 54,864,813,280 (bf16) and KerasHub `medgemma_instruct_27b`
/// 27,432,406,640 parameters, text model and vision tower together.
#[test]
fn medgemma_27b_checkpoint_to_the_byte() {
    let s = spec(MEDGEMMA_27B);
    assert_eq!(s.checkpoint.includes, Includes::TextModelAndVisionTower);
    assert_eq!(s.checkpoint.params, 27_432_406_640);
    assert_eq!(s.checkpoint.bytes, 54_864_813_280);
    assert_eq!(s.published_weight_bytes(), 2 * s.params_total);
}

/// allenai/olmOCR-7B-0225-preview (Qwen2-VL-7B): index total_size
/// 16,582,751,232 (bf16): Qwen2-7B text and the Qwen2-VL ViT with merger.
#[test]
fn qwen2_vl_checkpoint_to_the_byte() {
    let s = spec(OLMOCR_7B);
    let v = s.vision.as_ref().unwrap();
    assert_eq!(v.kind, VisionKind::Qwen2Vl);
    // Patch 3·2·14·14 × 1280; 32 blocks; merger 2560 + 5120² + 5120 + 3584 × 5120 + 3584.
    assert_eq!(
        v.projector_params,
        2560 + 5120 * 5120 + 5120 + 3584 * 5120 + 3584
    );
    assert_eq!(s.checkpoint.bytes, 16_582_751_232);
    assert_eq!(s.checkpoint.params, 8_291_375_616);
}

/// Mistral-Small 3.1 / 3.2 24B: KerasHub `mistral3_presets.py`
/// (keras-team/keras-hub@961f8f7c) counts 24,011,361,280 with the Pixtral
/// encoder; the config as loaded strictly against the checkpoint in
/// kohya-ss/musubi-tuner `flux_2/flux2_utils.py::load_mistral3`.
#[test]
fn mistral3_with_pixtral_matches_kerashub() {
    let s = spec(MISTRAL_SMALL);
    let v = s.vision.as_ref().unwrap();
    assert_eq!(v.kind, VisionKind::Pixtral);
    assert_eq!(s.checkpoint.params, 24_011_361_280);
    // Projector: RMSNorm 1024, merger 4096 → 1024, linears 1024 → 5120 → 5120.
    assert_eq!(
        v.projector_params,
        1024 + 4096 * 1024 + 1024 * 5120 + 5120 * 5120
    );
    assert_eq!(v.image_tokens, None);
}

/// Qwen2.5-VL-7B-Instruct: 8,292,166,656 parameters, of which the
/// `visual` module holds 676,550,144 (transformers' own counts, as public
/// fine-tuning logs print them; MTEB's model meta gives the same total).
#[test]
fn qwen2_5_vl_matches_transformers_counts() {
    let mut config: Value = serde_json::from_str(QWEN2_5_7B).unwrap();
    config["model_type"] = json!("qwen2_5_vl");
    config["architectures"] = json!(["Qwen2_5_VLForConditionalGeneration"]);
    config["vision_config"] = json!({
        "depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
        "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14,
        "spatial_merge_size": 2, "spatial_patch_size": 14, "window_size": 112,
        "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2,
        "temporal_patch_size": 2, "model_type": "qwen2_5_vl"
    });
    let s = spec(&config.to_string());
    let v = s.vision.as_ref().unwrap();
    assert_eq!(v.params, 676_550_144);
    assert_eq!(s.checkpoint.params, 8_292_166_656);
}

/// Qwen3-VL-4B-Instruct: 4,437,815,808 parameters as transformers counts
/// them (public training logs); its encoder without mergers is the
/// 306,242,560 those logs freeze; the text model is Qwen3-4B (KerasHub
/// 4,022,468,096).
#[test]
fn qwen3_vl_deepstack_mergers_are_counted() {
    let mut config: Value = serde_json::from_str(QWEN3_4B).unwrap();
    config["model_type"] = json!("qwen3_vl");
    config["vision_config"] = json!({
        "deepstack_visual_indexes": [5, 11, 17], "depth": 24,
        "hidden_act": "gelu_pytorch_tanh", "hidden_size": 1024, "in_channels": 3,
        "intermediate_size": 4096, "model_type": "qwen3_vl", "num_heads": 16,
        "num_position_embeddings": 2304, "out_hidden_size": 2560, "patch_size": 16,
        "spatial_merge_size": 2, "temporal_patch_size": 2
    });
    let s = spec(&config.to_string());
    let v = s.vision.as_ref().unwrap();
    assert_eq!(v.encoder_params, 306_242_560);
    assert_eq!(s.checkpoint.params, 4_437_815_808);
}

/// Llama-4-Scout-17B-16E: 108,641,793,536 parameters on the Hub; the text
/// model's 107,769,861,120 plus the vision model, adapter and projector
/// (`vision_config` as published).
#[test]
fn llama4_vision_model_completes_scout() {
    let config = json!({
        "architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4",
        "torch_dtype": "bfloat16",
        "text_config": {
            "attention_bias": false, "attention_chunk_size": 8192, "head_dim": 128,
            "hidden_size": 5120, "interleave_moe_layer_step": 1, "intermediate_size": 8192,
            "intermediate_size_mlp": 16384, "max_position_embeddings": 10485760,
            "model_type": "llama4_text", "num_attention_heads": 40, "num_experts_per_tok": 1,
            "num_hidden_layers": 48, "num_key_value_heads": 8, "num_local_experts": 16,
            "torch_dtype": "bfloat16", "use_qk_norm": true, "vocab_size": 202048
        },
        "vision_config": {
            "attention_dropout": 0.0, "hidden_act": "gelu", "hidden_size": 1408,
            "image_size": 336, "initializer_range": 0.02, "intermediate_size": 5632,
            "model_type": "llama4_vision_model", "multi_modal_projector_bias": false,
            "norm_eps": 1e-05, "num_attention_heads": 16, "num_channels": 3,
            "num_hidden_layers": 34, "patch_size": 14, "pixel_shuffle_ratio": 0.5,
            "projector_dropout": 0.0, "projector_input_dim": 4096, "projector_output_dim": 4096,
            "rope_theta": 10000, "vision_feature_layer": -1,
            "vision_feature_select_strategy": "default", "vision_output_dim": 4096
        }
    });
    let s = spec(&config.to_string());
    assert_eq!(s.checkpoint.params, 108_641_793_536);
    assert_eq!(s.vision.unwrap().projector_params, 5120 * 4096);
}

/// Llama-4-Maverick-17B-128E: 401,583,781,376 parameters on the Hub. The
/// catalog's copy of its config is trimmed to the text model
/// (400,711,848,960); with the Llama-4 vision encoder Scout publishes (the
/// same tower and a projector to the same 5120) the total is the Hub's to
/// the parameter.
#[test]
fn llama4_vision_model_completes_maverick() {
    let mut config: Value = serde_json::from_str(include_str!(
        "../../../data/configs/meta-llama__Llama-4-Maverick-17B-128E-Instruct.json"
    ))
    .unwrap();
    assert!(config.get("vision_config").is_none());
    assert_eq!(spec(&config.to_string()).params_total, 400_711_848_960);
    config["vision_config"] = json!({
        "hidden_act": "gelu", "hidden_size": 1408, "image_size": 336,
        "intermediate_size": 5632, "model_type": "llama4_vision_model",
        "multi_modal_projector_bias": false, "norm_eps": 1e-05, "num_attention_heads": 16,
        "num_channels": 3, "num_hidden_layers": 34, "patch_size": 14,
        "pixel_shuffle_ratio": 0.5, "projector_input_dim": 4096,
        "projector_output_dim": 4096, "vision_output_dim": 4096
    });
    let s = spec(&config.to_string());
    assert_eq!(s.checkpoint.params, 401_583_781_376);
    assert_eq!(
        s.checkpoint.params - s.params_total,
        108_641_793_536 - 107_769_861_120
    );
}

/// LLaVA 1.5 (CLIP ViT-L/14 at 336, 303,507,456 parameters with the unused
/// `post_layernorm` it stores) and its two-layer projector; 576 image
/// tokens. LLaVA-NeXT adds `image_newline`.
#[test]
fn llava_clip_tower_and_projector() {
    let mut config: Value = serde_json::from_str(include_str!(
        "../../../data/configs/meta-llama__Llama-2-7b-hf.json"
    ))
    .unwrap();
    let text = config.take();
    let llava = |model_type: &str| {
        json!({
            "architectures": ["LlavaForConditionalGeneration"], "model_type": model_type,
            "torch_dtype": "float16", "vision_feature_layer": -2,
            "vision_feature_select_strategy": "default", "text_config": text,
            "vision_config": {"model_type": "clip_vision_model", "hidden_size": 1024,
                "intermediate_size": 4096, "image_size": 336, "patch_size": 14,
                "num_hidden_layers": 24, "num_attention_heads": 16, "projection_dim": 768}
        })
        .to_string()
    };
    let v = vision(&llava("llava"));
    assert_eq!((v.kind, v.encoder_params), (VisionKind::Clip, 303_507_456));
    assert_eq!(v.projector_params, 4096 * 1024 + 4096 + 4096 * 4096 + 4096);
    assert_eq!(v.image_tokens, Some(576));
    let next = vision(&llava("llava_next"));
    assert_eq!(next.params, v.params + 4096);
    assert_eq!(next.image_tokens, None);
}

/// Kimi-VL: MoonViT (27 layers of 1152, a 64 × 64 position grid) and the
/// projector over 2 × 2 merged patches into DeepSeek-V3's 2048.
#[test]
fn kimi_vl_moonvit_and_projector() {
    let config = json!({
        "architectures": ["KimiVLForConditionalGeneration"], "model_type": "kimi_vl",
        "torch_dtype": "bfloat16",
        "text_config": {"model_type": "deepseek_v3", "hidden_size": 2048, "num_hidden_layers": 27,
            "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 11264,
            "moe_intermediate_size": 1408, "n_routed_experts": 64, "n_shared_experts": 2,
            "num_experts_per_tok": 6, "first_k_dense_replace": 1, "moe_layer_freq": 1,
            "kv_lora_rank": 512, "q_lora_rank": null, "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 163840,
            "tie_word_embeddings": false, "max_position_embeddings": 131072},
        "vision_config": {"model_type": "moonvit", "patch_size": 14, "init_pos_emb_height": 64,
            "init_pos_emb_width": 64, "num_attention_heads": 16, "num_hidden_layers": 27,
            "hidden_size": 1152, "intermediate_size": 4304, "merge_kernel_size": [2, 2]}
    });
    let v = vision(&config.to_string());
    assert_eq!(v.kind, VisionKind::MoonVit);
    // Same layer stack as SigLIP so400m (biased everywhere), learned grid.
    let layers = 27
        * (4 * 1152
            + 3 * 1152 * 1152
            + 3 * 1152
            + 1152 * 1152
            + 1152
            + 2 * 1152 * 4304
            + 4304
            + 1152);
    assert_eq!(
        v.encoder_params,
        3 * 14 * 14 * 1152 + 1152 + 64 * 64 * 1152 + layers + 2 * 1152
    );
    assert_eq!(
        v.projector_params,
        2 * 1152 + 4608 * 4608 + 4608 + 2048 * 4608 + 2048
    );
}

/// Idefics3 / SmolVLM and InternVL read their projector settings from the
/// outer config (`scale_factor`, `downsample_ratio`).
#[test]
fn idefics3_and_internvl_projectors() {
    let text: Value = serde_json::from_str(QWEN2_5_7B).unwrap();
    let smol = json!({"model_type": "smolvlm", "scale_factor": 4, "text_config": text,
        "vision_config": {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
            "image_size": 512, "patch_size": 16}});
    let v = vision(&smol.to_string());
    assert_eq!(v.projector_params, 3584 * 768 * 16);
    let internvl = json!({"model_type": "internvl", "downsample_ratio": 0.5, "text_config": text,
        "vision_config": {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
            "image_size": [448, 448], "patch_size": [14, 14], "attention_bias": true,
            "use_mean_pooling": true, "norm_type": "layer_norm"}});
    let v = vision(&internvl.to_string());
    assert_eq!(v.kind, VisionKind::InternVit);
    assert_eq!(
        v.projector_params,
        2 * 4096 + 4096 * 3584 + 3584 + 3584 * 3584 + 3584
    );
    let chat = json!({"model_type": "internvl_chat", "downsample_ratio": 0.5, "llm_config": text,
        "vision_config": {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
            "image_size": 448, "patch_size": 14, "qkv_bias": true, "norm_type": "layer_norm"}});
    // Both layouts hold the same tensors for InternViT-300M.
    assert_eq!(vision(&chat.to_string()).params, v.params);
}

/// A multimodal config vramfit cannot count is flagged, never counted as
/// a zero-parameter tower; so is a tower whose sizes are missing.
#[test]
fn uncounted_towers_are_flagged() {
    let text: Value = serde_json::from_str(QWEN2_5_7B).unwrap();
    let unknown = json!({"model_type": "paligemma", "text_config": text,
        "vision_config": {"hidden_size": 1152}});
    let s = spec(&unknown.to_string());
    assert!(s.vision.is_none());
    assert!(s
        .vision_not_counted
        .as_deref()
        .unwrap()
        .contains("paligemma"));
    assert_eq!(
        s.checkpoint.includes,
        Includes::TextModelOnlyVisionNotCounted
    );
    assert_eq!(s.checkpoint.params, s.params_total);
    let trimmed = json!({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text",
        "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 34},
        "vision_config": {"hidden_size": 1152}});
    let s = spec(&trimmed.to_string());
    assert!(s
        .vision_not_counted
        .unwrap()
        .contains("vision_config.intermediate_size"));
    let text_only = spec(QWEN2_5_7B);
    assert_eq!(text_only.checkpoint.includes, Includes::TextModel);
}

#[test]
fn wrong_types_in_vision_config_are_errors() {
    let mut config: Value = serde_json::from_str(MEDGEMMA_27B).unwrap();
    config["vision_config"]["num_hidden_layers"] = json!("27");
    assert!(parse_config(&config.to_string()).is_err());
    config["vision_config"] = json!([1, 2]);
    assert!(parse_config(&config.to_string()).is_err());
}

#[test]
fn absurd_layer_counts_are_refused() {
    let mut config: Value = serde_json::from_str(MEDGEMMA_27B).unwrap();
    config["vision_config"]["num_hidden_layers"] = json!(16_000_000);
    assert!(parse_config(&config.to_string()).is_err());
    let mut config: Value = serde_json::from_str(OLMOCR_7B).unwrap();
    config["vision_config"]["depth"] = json!(1_000_000);
    assert!(parse_config(&config.to_string()).is_err());
}

/// Gemma-4 E2B: the Hub counts 5,123,178,051 parameters: the text model,
/// the vision encoder, the audio encoder (a USM conformer) with both
/// embedders, and the KV-sharing layers' own k/v projections the files
/// keep, without the 0-dim clipping bounds.
#[test]
fn gemma4_e2b_counts_its_audio_tower_and_matches_the_hub() {
    let s = spec(include_str!(
        "../../../data/configs/google__gemma-4-E2B-it.json"
    ));
    let v = s.vision.as_ref().expect("towers counted");
    assert_eq!(
        s.checkpoint.includes,
        Includes::TextModelVisionAndAudioTowers
    );
    // Audio, D = 1024, 12 layers, kernel 5, channels 128 and 32, output
    // 1536, embedder into the text model's 1536.
    let d = 1024u64;
    let layer = 2 * 8 * d * d + 4 * d * d + d * d + 3 * d * d + d * 5 + d / 8 + 9 * d;
    let clips = 12 * 10 * 4;
    let subsample = 128 * 9 + 128 + 32 * 128 * 9 + 32 + d * 1024;
    let audio = 12 * layer + clips + subsample + (1536 * d + 1536) + 1536 * 1536;
    assert_eq!(v.audio_params, audio);
    // Vision: 16 layers with 7 clipped linears each.
    assert_eq!(v.scalars, 16 * 7 * 4 + clips);
    // 20 KV-sharing layers (16 sliding with one 256-wide head, 4 global
    // with one of 512) keep k_proj, v_proj and k_norm in the files.
    let unloaded = 16 * (2 * 256 * 1536 + 256) + 4 * (2 * 512 * 1536 + 512);
    assert_eq!(s.checkpoint.stored_unloaded, unloaded);
    let hub = s.checkpoint.params + s.checkpoint.stored_unloaded - s.checkpoint.scalars;
    assert_eq!(hub, 5_123_178_051);
}

/// A PaliGemma-3B-448 config: the `ORIGINAL_CONFIG` of transformers'
/// `models/colpali/convert_colpali_weights_to_hf.py`
/// (huggingface/transformers@3c40e02afad44711c848df34c4d07c156386f5b1,
/// "Copied from vidore/colpali-v1.2-merged config.json"), a PaliGemma
/// checkpoint's config.
fn paligemma_448() -> String {
    json!({
        "architectures": ["ColPali"], "bos_token_id": 2, "eos_token_id": 1,
        "hidden_size": 2048, "ignore_index": -100, "image_token_index": 257152,
        "model_type": "paligemma", "pad_token_id": 0, "projection_dim": 2048,
        "text_config": {"hidden_size": 2048, "intermediate_size": 16384,
            "model_type": "gemma", "num_attention_heads": 8, "num_hidden_layers": 18,
            "num_image_tokens": 1024, "num_key_value_heads": 1, "torch_dtype": "float32",
            "vocab_size": 257216},
        "torch_dtype": "bfloat16", "transformers_version": "4.44.0",
        "vision_config": {"hidden_size": 1152, "image_size": 448, "intermediate_size": 4304,
            "model_type": "siglip_vision_model", "num_attention_heads": 16,
            "num_hidden_layers": 27, "num_image_tokens": 1024, "patch_size": 14,
            "projection_dim": 2048, "projector_hidden_act": "gelu_fast",
            "vision_use_head": false}
    })
    .to_string()
}

#[test]
fn paligemma_counts_its_siglip_tower_and_linear_projector() {
    let s = spec(&paligemma_448());
    // The files are the outer torch_dtype's (bfloat16), not the stale
    // float32 its text_config keeps.
    assert_eq!((s.dtype, s.dtype_assumed), (Dtype::Bf16, false));
    let v = s.vision.as_ref().expect("PaliGemma's tower counted");
    assert_eq!((v.kind, v.image_tokens), (VisionKind::Siglip, Some(1024)));
    // KerasHub pali_gemma_3b_448: 2,924,220,144 (keras-team/keras-hub@
    // 1b9656b5ebb64dbd7862834c4d5378be390321bb
    // keras_hub/src/models/pali_gemma/pali_gemma_presets.py), with a
    // 257,152-row vocabulary where the checkpoint has 257,216 (tied).
    assert_eq!(s.checkpoint.params, 2_924_220_144 + 64 * 2048);
    // The projector: one biased linear layer 1152 → 2048.
    assert_eq!(v.projector_params, 1152 * 2048 + 2048);
    // At 224 pixels the position table shrinks to 256 rows: KerasHub's
    // pali_gemma_3b_224, 2,923,335,408.
    let mut c: Value = serde_json::from_str(&paligemma_448()).unwrap();
    c["vision_config"]["image_size"] = 224.into();
    assert_eq!(
        spec(&c.to_string()).checkpoint.params,
        2_923_335_408 + 64 * 2048
    );
    // Without image_size, SiglipVisionConfig's 224 (recorded as a default).
    c["vision_config"]
        .as_object_mut()
        .unwrap()
        .remove("image_size");
    let d = spec(&c.to_string());
    assert_eq!(d.checkpoint.params, 2_923_335_408 + 64 * 2048);
    let v = d.vision.unwrap();
    assert!(v
        .defaults_used
        .iter()
        .any(|k| k == "vision_config.image_size"));
}
