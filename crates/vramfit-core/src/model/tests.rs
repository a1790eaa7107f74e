//! Golden tests over every real config in `data/configs`, and the parser's
//! behaviour on bad input.

use super::*;

/// One real config with its exact counts from `data/param_counts.md`
/// (KerasHub exact where it exists, otherwise the computed column, which
/// agrees with KerasHub wherever both exist).
struct Golden {
    file: &'static str,
    text: &'static str,
    total: u64,
    /// Active parameters (equal to `total` for dense models).
    active: u64,
}

macro_rules! golden {
    ($file:literal, $total:expr) => {
        golden!($file, $total, $total)
    };
    ($file:literal, $total:expr, $active:expr) => {
        Golden {
            file: $file,
            text: include_str!(concat!("../../data/configs/", $file)),
            total: $total,
            active: $active,
        }
    };
}

const GOLDEN: [Golden; 57] = [
    golden!("meta-llama__Llama-2-7b-hf.json", 6_738_415_616),
    golden!("meta-llama__Llama-3.1-8B.json", 8_030_261_248),
    golden!("meta-llama__Llama-3.1-70B.json", 70_553_706_496),
    golden!("meta-llama__Llama-3.1-405B.json", 405_853_388_800),
    golden!("meta-llama__Llama-3.2-1B-Instruct.json", 1_235_814_400),
    golden!("meta-llama__Llama-3.2-3B.json", 3_212_749_824),
    golden!("meta-llama__Llama-3.3-70B-Instruct.json", 70_553_706_496),
    golden!("mistralai__Mistral-7B-v0.3.json", 7_248_023_552),
    golden!(
        "mistralai__Mixtral-8x7B-v0.1.json",
        46_702_792_704,
        12_879_925_248
    ),
    golden!("Qwen__Qwen2.5-0.5B.json", 494_032_768),
    golden!("Qwen__Qwen2.5-3B.json", 3_085_938_688),
    golden!("Qwen__Qwen2.5-7B.json", 7_615_616_512),
    golden!("Qwen__Qwen2.5-14B.json", 14_770_033_664),
    golden!("Qwen__Qwen2.5-32B.json", 32_763_876_352),
    golden!("Qwen__Qwen3-4B.json", 4_022_468_096),
    golden!("Qwen__Qwen3-8B.json", 8_190_735_360),
    golden!("Qwen__Qwen3-14B.json", 14_768_307_200),
    golden!("Qwen__Qwen3-32B.json", 32_762_123_264),
    golden!("Qwen__Qwen3-30B-A3B.json", 30_532_122_624, 3_353_032_704),
    golden!(
        "Qwen__Qwen3-30B-A3B-FP8.json",
        30_532_122_624,
        3_353_032_704
    ),
    golden!(
        "Qwen__Qwen3-235B-A22B.json",
        235_093_634_560,
        22_190_763_520
    ),
    golden!("google__gemma-2-2b-it.json", 2_614_341_888),
    golden!("google__gemma-2-9b-it.json", 9_241_705_984),
    golden!("google__gemma-2-27b-it.json", 27_227_128_320),
    golden!("google__gemma-3-1b-it.json", 999_885_952),
    golden!(
        "deepseek-ai__DeepSeek-V2-Lite.json",
        15_706_484_224,
        2_661_150_208
    ),
    golden!(
        "deepseek-ai__DeepSeek-V3.json",
        671_026_419_200,
        37_552_297_472
    ),
    golden!(
        "deepseek-ai__DeepSeek-R1.json",
        671_026_419_200,
        37_552_297_472
    ),
    golden!("openai__gpt-oss-20b.json", 20_914_757_184, 3_608_307_264),
    golden!("openai__gpt-oss-120b.json", 116_829_156_672, 5_132_849_472),
    golden!("microsoft__Phi-3.5-mini-instruct.json", 3_821_079_552),
    golden!("microsoft__Phi-4-mini-instruct.json", 3_836_021_760),
    golden!("openai-community__gpt2.json", 124_439_808),
    golden!("allenai__OLMo-2-1124-7B.json", 7_298_617_344),
    // The models of the vLLM 0.19 start-up logs (data/engines/).
    golden!("codellama__CodeLlama-7b-hf.json", 6_738_546_688),
    golden!(
        "deepseek-ai__DeepSeek-V2-Lite-Chat.json",
        15_706_484_224,
        2_661_150_208
    ),
    golden!(
        "RedHatAI__Qwen2.5-7B-Instruct-FP8-dynamic.json",
        7_615_616_512
    ),
    golden!("google__gemma-3-4b-it.json", 3_880_263_168),
    golden!("google__gemma-3-12b-it.json", 11_766_034_176),
    golden!("google__gemma-3-27b-it.json", 27_009_346_304),
    golden!("google__gemma-7b.json", 8_537_680_896),
    golden!("ibm-granite__granite-3.1-2b-instruct.json", 2_533_531_648),
    golden!("ibm-granite__granite-3.1-8b-instruct.json", 8_170_848_256),
    golden!("ibm-granite__granite-3.3-8b-instruct.json", 8_170_864_640),
    golden!("ibm-granite__granite-vision-3.3-2b.json", 2_533_533_696),
    golden!("meta-llama__Llama-3.1-8B-Instruct.json", 8_030_261_248),
    golden!("microsoft__phi-2.json", 2_779_683_840),
    golden!("microsoft__phi-4.json", 14_659_507_200),
    golden!(
        "mistralai__Mistral-Small-3.1-24B-Instruct-2503.json",
        23_572_403_200
    ),
    golden!(
        "mistralai__Mixtral-8x7B-Instruct-v0.1.json",
        46_702_792_704,
        12_879_925_248
    ),
    golden!("moonshotai__Kimi-Dev-72B.json", 72_706_203_648),
    golden!(
        "moonshotai__Kimi-VL-A3B-Instruct.json",
        15_960_110_208,
        2_914_776_192
    ),
    golden!(
        "Qwen__Qwen1.5-MoE-A2.7B.json",
        14_315_784_192,
        2_689_173_504
    ),
    golden!("Qwen__Qwen2.5-7B-Instruct.json", 7_615_616_512),
    golden!("Qwen__Qwen2.5-72B-Instruct.json", 72_706_203_648),
    golden!(
        "RedHatAI__Meta-Llama-3.1-8B-Instruct-quantized.w4a16.json",
        8_030_261_248
    ),
    golden!(
        "RedHatAI__Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8.json",
        23_572_403_200
    ),
];

fn spec(file: &str) -> ModelSpec {
    let g = GOLDEN
        .iter()
        .find(|g| g.file == file)
        .expect("file in table");
    parse_config(g.text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn kinds(spec: &ModelSpec) -> Vec<(AttentionKind, u64)> {
    spec.layers_by_kind()
        .into_iter()
        .map(|c| (c.kind, c.layers))
        .collect()
}

#[test]
fn every_config_file_is_in_the_table() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/configs");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = GOLDEN.iter().map(|g| g.file.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
}

/// Published files whose text model relies on its config class's
/// defaults (Gemma-3's multimodal configs give only the sizes that differ
/// from `Gemma3TextConfig`).
const CLASS_DEFAULTS: [&str; 3] = [
    "google__gemma-3-4b-it.json",
    "google__gemma-3-12b-it.json",
    "google__gemma-3-27b-it.json",
];

/// Files today's reader counts wrong, with the reason; each must still be
/// wrong (so that the entry is removed when the reader is fixed).
const READ_WRONG: [(&str, &str); 1] = [(
    "microsoft__phi-2.json",
    "model_type phi reads as a gated Llama layer; Phi-2 has fc1/fc2, biases and one LayerNorm",
)];

#[test]
fn exact_parameter_counts() {
    let mut wrong = Vec::new();
    for g in &GOLDEN {
        let s = parse_config(g.text).unwrap_or_else(|e| panic!("{}: {e}", g.file));
        assert_eq!(s.params.total(), s.params_total, "{}", g.file);
        assert!(
            s.defaults_used.is_empty() || CLASS_DEFAULTS.contains(&g.file),
            "{}: {:?}",
            g.file,
            s.defaults_used
        );
        if let Some((_, why)) = READ_WRONG.iter().find(|(f, _)| *f == g.file) {
            assert_ne!(
                s.params_total, g.total,
                "{} is read right now: {why}",
                g.file
            );
            continue;
        }
        if (s.params_total, s.params_active) != (g.total, g.active) {
            wrong.push(format!(
                "{}: total {} (want {}), active {} (want {})",
                g.file, s.params_total, g.total, s.params_active, g.active
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn one_attention_and_ffn_entry_per_layer() {
    for g in &GOLDEN {
        let s = parse_config(g.text).unwrap();
        assert_eq!(s.attention.len() as u64, s.num_layers, "{}", g.file);
        assert_eq!(s.ffn.len() as u64, s.num_layers, "{}", g.file);
    }
}

// ---------------------------------------------------------------------------
// Per-layer attention kinds

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

// ---------------------------------------------------------------------------
// Nesting, hybrids and other encodings (trimmed configs written inline)

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
const GEMMA3_4B: &str = r#"{
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
const LLAMA4_SCOUT: &str = r#"{
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
const QWEN3_NEXT: &str = r#"{
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
const NEMOTRON_H_8B: &str = r#"{
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
const JAMBA: &str = r#"{
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
    // Model card: 52B total, 12B active.
    assert_eq!(s.params_total / 1_000_000_000, 51); // 51.57B
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
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        let mut types = vec!["sliding_attention"; 31];
        types.push("full_attention");
        c["layer_types"] = types.into();
        c["sliding_window"] = 1024.into();
    });
    let local = AttentionKind::SlidingWindow { window: 1024 };
    assert_eq!(
        kinds(&parse_config(&text).unwrap()),
        [(local, 31), (AttentionKind::Full, 1)]
    );
}

// ---------------------------------------------------------------------------
// Quantization and published bytes

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

// ---------------------------------------------------------------------------
// Errors

fn error(text: &str) -> ConfigErrorKind {
    parse_config(text).unwrap_err().kind
}

fn keys(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn not_json_is_reported_with_its_position() {
    assert!(matches!(
        error(""),
        ConfigErrorKind::InvalidJson { line: 1, .. }
    ));
    let kind = error("{\n  \"hidden_size\": 4096,\n  oops\n}");
    match kind {
        ConfigErrorKind::InvalidJson {
            line,
            column,
            message,
        } => {
            assert_eq!((line, column), (3, 3));
            assert!(!message.contains("line"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error("[1, 2]"), ConfigErrorKind::NotAnObject);
    assert_eq!(error("\"config\""), ConfigErrorKind::NotAnObject);
    assert_eq!(error("null"), ConfigErrorKind::NotAnObject);
}

#[test]
fn missing_keys_are_all_named() {
    assert_eq!(
        error("{}"),
        ConfigErrorKind::MissingKeys {
            keys: keys(&[
                "hidden_size",
                "vocab_size",
                "num_hidden_layers",
                "num_attention_heads"
            ])
        }
    );
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c.as_object_mut().unwrap().remove("vocab_size");
        c["num_hidden_layers"] = serde_json::Value::Null;
    });
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["vocab_size", "num_hidden_layers"])
        }
    );
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c.as_object_mut().unwrap().remove("intermediate_size");
    });
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["intermediate_size"])
        }
    );
    let text = edit("mistralai__Mixtral-8x7B-v0.1.json", |c| {
        c.as_object_mut().unwrap().remove("num_experts_per_tok");
    });
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["num_experts_per_tok"])
        }
    );
    let text = edit("deepseek-ai__DeepSeek-V3.json", |c| {
        c.as_object_mut().unwrap().remove("qk_rope_head_dim");
    });
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["qk_rope_head_dim"])
        }
    );
}

#[test]
fn wrong_types_and_ranges_name_the_key() {
    let with = |key: &str, value: serde_json::Value| {
        error(&edit("meta-llama__Llama-3.1-8B.json", |c| {
            c[key] = value.clone()
        }))
    };
    assert_eq!(
        with("hidden_size", "4096".into()),
        ConfigErrorKind::WrongType {
            key: "hidden_size".into(),
            expected: "integer"
        }
    );
    assert_eq!(
        with("tie_word_embeddings", 1.into()),
        ConfigErrorKind::WrongType {
            key: "tie_word_embeddings".into(),
            expected: "boolean"
        }
    );
    for (value, shown) in [
        (serde_json::json!(0), "0"),
        (serde_json::json!(-32), "-32"),
        (serde_json::json!(32.5), "32.5"),
        (serde_json::json!(1e30), "1e+30"),
        (serde_json::json!(100_000_000u64), "100000000"),
    ] {
        assert_eq!(
            with("num_hidden_layers", value),
            ConfigErrorKind::OutOfRange {
                key: "num_hidden_layers".into(),
                value: shown.into()
            }
        );
    }
    assert_eq!(
        with("torch_dtype", "int7".into()),
        ConfigErrorKind::OutOfRange {
            key: "torch_dtype".into(),
            value: "int7".into()
        }
    );
}

#[test]
fn contradictions_name_both_keys() {
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c["num_attention_heads"] = 30.into()
    });
    let err = parse_config(&text).unwrap_err();
    assert_eq!(err.keys(), ["hidden_size", "num_attention_heads"]);
    assert!(matches!(err.kind, ConfigErrorKind::Contradictory { .. }));
    // With an explicit head_dim the same numbers are fine.
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c["num_attention_heads"] = 30.into();
        c["num_key_value_heads"] = 10.into();
        c["head_dim"] = 128.into();
    });
    assert!(parse_config(&text).is_ok());
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c["num_key_value_heads"] = 5.into()
    });
    assert_eq!(
        parse_config(&text).unwrap_err().keys(),
        ["num_attention_heads", "num_key_value_heads"]
    );
    let text = edit("openai__gpt-oss-20b.json", |c| {
        c["num_hidden_layers"] = 23.into()
    });
    assert_eq!(
        parse_config(&text).unwrap_err().keys(),
        ["layer_types", "num_hidden_layers"]
    );
    let text = edit("mistralai__Mixtral-8x7B-v0.1.json", |c| {
        c["num_experts_per_tok"] = 9.into()
    });
    assert!(matches!(
        error(&text),
        ConfigErrorKind::Contradictory { .. }
    ));
}

#[test]
fn unknown_layer_types_are_unsupported() {
    let text = edit("openai__gpt-oss-20b.json", |c| {
        c["layer_types"][3] = "quantum_attention".into()
    });
    assert!(matches!(error(&text), ConfigErrorKind::Unsupported { .. }));
}

#[test]
fn messages_are_one_english_line() {
    let texts = [
        "",
        "[]",
        "{}",
        r#"{"hidden_size": "x"}"#,
        r#"{"hidden_size": -1}"#,
    ];
    for text in texts {
        let message = parse_config(text).unwrap_err().to_string();
        assert!(
            !message.contains('\n') && !message.is_empty(),
            "{message:?}"
        );
    }
    assert_eq!(
        parse_config("{}").unwrap_err().to_string(),
        "config.json is missing required keys: hidden_size, vocab_size, num_hidden_layers, \
         num_attention_heads"
    );
}

#[test]
fn non_standard_tokens_are_accepted() {
    let text = golden_text("openai-community__gpt2.json").replacen(
        '{',
        r#"{"a": NaN, "b": [0.0, Infinity, -Infinity], "c": "NaN, \"Infinity\"", "#,
        1,
    );
    let s = parse_config(&text).unwrap();
    assert_eq!(s.params_total, 124_439_808);
    // A needed key written as NaN is missing, not a panic.
    let text =
        golden_text("openai-community__gpt2.json").replace("\"n_embd\": 768", "\"n_embd\": NaN");
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["hidden_size"])
        }
    );
}

#[test]
fn malformed_configs_never_panic() {
    let variants = [
        serde_json::json!(null),
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(1e300),
        serde_json::json!(u64::MAX),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!([1, "a"]),
        serde_json::json!({}),
        serde_json::json!(true),
    ];
    for g in &GOLDEN {
        let config: serde_json::Value = serde_json::from_str(g.text).unwrap();
        for key in config.as_object().unwrap().keys() {
            for v in &variants {
                let mut edited = config.clone();
                edited[key] = v.clone();
                let _ = parse_config(&edited.to_string());
            }
        }
        let step = (g.text.len() / 40).max(1);
        for end in (0..g.text.len()).step_by(step) {
            if g.text.is_char_boundary(end) {
                let _ = parse_config(&g.text[..end]);
            }
        }
    }
}

#[test]
fn spec_and_errors_serialize_for_the_ui() {
    let s = spec("google__gemma-2-2b-it.json");
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(
        json["attention"][0],
        serde_json::json!({"kind": "sliding_window", "window": 4096})
    );
    assert_eq!(json["attention"][1], serde_json::json!({"kind": "full"}));
    assert_eq!(json["dtype"], "bf16");
    let err = serde_json::to_value(parse_config("{}").unwrap_err()).unwrap();
    assert_eq!(err["kind"], "missing_keys");
    assert_eq!(err["keys"][0], "hidden_size");
}

// ---------------------------------------------------------------------------
// Helpers

fn golden_text(file: &str) -> &'static str {
    GOLDEN
        .iter()
        .find(|g| g.file == file)
        .expect("file in table")
        .text
}

/// A golden config with `change` applied, as JSON text.
fn edit(file: &str, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut config: serde_json::Value = serde_json::from_str(golden_text(file)).unwrap();
    change(&mut config);
    config.to_string()
}
