//! Real configs of many architectures against published parameter counts,
//! table-driven: `check(config, expect)`. Configs and figures are listed
//! with their sources in `tests/fixtures/SOURCES.md`.

mod support;

use vramfit_core::model::{
    parse_config, ActiveCount, AttentionKind, ConfigErrorKind, Family, FfnKind, ModelSpec, Reading,
};

/// A published count: exact to the parameter, or rounded as a model card
/// writes it (`value` in units of `unit`).
#[derive(Clone, Copy, Debug)]
enum Published {
    Exact(u64),
    Rounded { value: u64, unit: u64 },
}

impl Published {
    fn matches(self, n: u64) -> bool {
        match self {
            Published::Exact(v) => n == v,
            Published::Rounded { value, unit } => (n + unit / 2) / unit == value,
        }
    }
}

struct Expect {
    family: Family,
    total: Published,
    active: Option<Published>,
}

fn fixture(file: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/configs/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(file: &str) -> ModelSpec {
    parse_config(&fixture(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Reads `file` and compares with `expect`; returns a line per mismatch.
fn check(file: &str, expect: &Expect) -> Vec<String> {
    let s = read(file);
    let mut wrong = Vec::new();
    if s.reading != Reading::Exact || s.family != expect.family {
        wrong.push(format!("{file}: read as {:?} {:?}", s.reading, s.family));
    }
    if !expect.total.matches(s.params_total) {
        wrong.push(format!(
            "{file}: total {} (published {:?})",
            s.params_total, expect.total
        ));
    }
    let active = expect.active.unwrap_or(expect.total);
    if !active.matches(s.params_active) {
        wrong.push(format!(
            "{file}: active {} (published {active:?})",
            s.params_active
        ));
    }
    if s.params.total() != s.params_total || s.attention.len() as u64 != s.num_layers {
        wrong.push(format!("{file}: groups or layers inconsistent"));
    }
    wrong
}

const B: u64 = 1_000_000_000;

fn cases() -> Vec<(&'static str, Expect)> {
    use Published::{Exact, Rounded};
    let dense = |family, n| Expect {
        family,
        total: Exact(n),
        active: None,
    };
    vec![
        (
            "ibm-granite__granite-3.1-1b-a400m-instruct.json",
            Expect {
                family: Family::GraniteMoe,
                total: Exact(1_334_628_352),
                // 8 of 32 experts per token: the "a400m" of the name
                // counts no embedding; with it 0.43B.
                active: Some(Rounded {
                    value: 43,
                    unit: 10_000_000,
                }),
            },
        ),
        ("Qwen__Qwen-72B.json", dense(Family::Qwen, 72_287_920_128)),
        (
            "microsoft__WizardLM-2-8x22B.json",
            Expect {
                family: Family::Mixtral,
                total: Exact(140_620_634_112),
                active: Some(Rounded { value: 39, unit: B }),
            },
        ),
        (
            "Qwen__Qwen1.5-MoE-A2.7B.json",
            Expect {
                family: Family::Qwen2Moe,
                total: Exact(14_315_784_192),
                active: Some(Rounded {
                    value: 27,
                    unit: B / 10,
                }),
            },
        ),
        ("google__gemma-2b.json", dense(Family::Gemma, 2_506_172_416)),
        (
            "HuggingFaceTB__SmolLM3-3B.json",
            dense(Family::SmolLm3, 3_075_098_624),
        ),
        (
            "LiquidAI__LFM2-1.2B.json",
            dense(Family::Lfm2, 1_170_340_608),
        ),
        (
            "codellama__CodeLlama-7b-hf.json",
            dense(Family::Llama, 6_738_546_688),
        ),
        ("microsoft__phi-1_5.json", dense(Family::Phi, 1_418_270_720)),
        (
            "bigcode__gpt_bigcode-santacoder.json",
            dense(Family::GptBigCode, 1_124_886_528),
        ),
        (
            "bigcode__starcoder2-7b.json",
            dense(Family::Starcoder2, 7_173_923_840),
        ),
        (
            "deepseek-ai__deepseek-moe-16b-base.json",
            Expect {
                family: Family::DeepseekMoe,
                total: Exact(16_375_728_128),
                // "2.8B activated" (model card).
                active: Some(Rounded {
                    value: 28,
                    unit: B / 10,
                }),
            },
        ),
        (
            "nvidia__Llama-3_3-Nemotron-Super-49B-v1.json",
            dense(Family::DeciLm, 49_867_145_216),
        ),
        ("microsoft__phi-2.json", dense(Family::Phi, 2_779_683_840)),
        (
            "THUDM__chatglm3-6b.json",
            dense(Family::ChatGlm, 6_243_584_000),
        ),
        (
            "internlm__internlm2_5-7b-chat.json",
            dense(Family::InternLm2, 7_737_708_544),
        ),
        (
            "llava-hf__llava-1.5-7b-hf.json",
            dense(Family::Llama, 6_738_415_616 + 64 * 4096 * 2),
        ),
        (
            "MiniMaxAI__MiniMax-M2.5.json",
            Expect {
                family: Family::MiniMaxM2,
                total: Rounded {
                    value: 23,
                    unit: 10 * B,
                },
                active: Some(Rounded {
                    value: 1,
                    unit: 10 * B,
                }),
            },
        ),
        (
            // "685B" on the model card counts the MTP layer; "37B
            // activated" (DeepSeek-V3's figure, which the vLLM recipe
            // gives for V3.2) leaves out the input embedding.
            "deepseek-ai__DeepSeek-V3.2.json",
            Expect {
                family: Family::DeepseekV32,
                total: Rounded {
                    value: 672,
                    unit: B,
                },
                active: Some(Rounded { value: 37, unit: B }),
            },
        ),
        (
            // "1T total, 32B activated" (model card), read as DeepSeek-V3
            // counts it (31.7 B without the input embedding).
            "moonshotai__Kimi-K2-Instruct.json",
            Expect {
                family: Family::DeepseekV3,
                total: Rounded {
                    value: 1,
                    unit: 1000 * B,
                },
                active: Some(Rounded { value: 32, unit: B }),
            },
        ),
    ]
}

#[test]
fn totals_match_published_figures() {
    let wrong: Vec<String> = cases().iter().flat_map(|(f, e)| check(f, e)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_fixture_is_read_by_a_test() {
    let dir = format!("{}/tests/fixtures/configs", env!("CARGO_MANIFEST_DIR"));
    let structural = [
        "nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json",
        "Qwen__Qwen3.5-27B.json",
    ];
    let listed: Vec<&str> = cases()
        .iter()
        .map(|(f, _)| *f)
        .chain(structural)
        .chain(support::CURRENT.iter().copied())
        .collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(listed.contains(&name.as_str()), "{name} is not checked");
    }
}

#[test]
fn nemotron_nas_layers_differ_one_by_one() {
    let s = read("nvidia__Llama-3_3-Nemotron-Super-49B-v1.json");
    assert_eq!(s.family, Family::DeciLm);
    // Layers whose attention is skipped (no_op) cache nothing and have no
    // key/value heads; the others have 64 / 8 = 8.
    let skipped = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::None)
        .count();
    assert!(skipped > 0 && skipped < 80, "{skipped}");
    // Every attention layer groups 8 query heads per key/value head.
    assert_eq!((s.num_kv_heads, s.kv_heads_by_layer.as_ref()), (8, None));
    let attention_layers = 80 - skipped;
    // KV per token: only the attention layers, 8 heads × 128 × 2 × 2 bytes.
    assert_eq!(
        s.kv_bytes_per_token(16_000),
        attention_layers as u64 * 8 * 128 * 2 * 2
    );
    // MLP widths come from each block's ffn_mult (several differ).
    let widths = s.ffn_width_by_layer.as_ref().unwrap();
    assert!(widths.contains(&14_336) && widths.contains(&28_672));
    assert!(s
        .ffn
        .iter()
        .all(|f| matches!(f, FfnKind::Dense | FfnKind::None)));
}

#[test]
fn nemotron_3_nano_mixes_mamba_attention_and_experts() {
    let s = read("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    let linear = s
        .attention
        .iter()
        .filter(|k| matches!(k, AttentionKind::Linear { .. }))
        .count();
    let full = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::Full)
        .count();
    assert!(linear > full && full > 0, "{linear} {full}");
    assert!(s.moe.is_some());
    // "30B-A3B": 31.6B total, 3.6B active.
    assert_eq!((s.params_total + B / 20) / (B / 10), 316);
    assert_eq!((s.params_active + B / 20) / (B / 10), 36);
}

#[test]
fn qwen3_5_text_model_has_delta_net_and_gated_attention_layers() {
    let s = read("Qwen__Qwen3.5-27B.json");
    assert!(s.nested_text_config);
    assert_eq!(s.family, Family::Qwen35);
    let full = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::Full)
        .count();
    assert_eq!(full * 4, s.attention.len());
    assert_eq!(s.params_total / B, 26); // "27B" with its vision tower
}

#[test]
fn deepseek_v3_2_adds_an_indexer_to_every_latent_attention_layer() {
    let v32 = read("deepseek-ai__DeepSeek-V3.2.json");
    // Per layer: wq_b 64·128×1536, wk 128×7168, k_norm 2·128, weights_proj
    // 64×7168, on top of DeepSeek-V3's 671,026,419,200.
    let indexer = 64 * 128 * 1536 + 128 * 7168 + 2 * 128 + 64 * 7168;
    assert_eq!(v32.params_total, 671_026_419_200 + 61 * indexer);
    // With the MTP layer: the model card's "685B".
    assert_eq!((v32.params_total + v32.mtp_params) / B, 685);
}

#[test]
fn old_and_new_key_names_read_alike() {
    // GPT-2-era names in a Falcon config (RefinedWebModel) and the
    // transformers names give the same model.
    let old = r#"{"model_type": "RefinedWebModel", "architectures": ["RWForCausalLM"],
        "hidden_size": 4544, "n_head": 71, "n_layer": 32, "multi_query": true,
        "parallel_attn": true, "bias": false, "vocab_size": 65024}"#;
    let new = r#"{"model_type": "falcon", "architectures": ["FalconForCausalLM"],
        "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32,
        "multi_query": true, "parallel_attn": true, "bias": false, "vocab_size": 65024,
        "new_decoder_architecture": false}"#;
    let (old, new) = (parse_config(old).unwrap(), parse_config(new).unwrap());
    assert_eq!(old.params_total, new.params_total);
    // Falcon-7B: one key/value head, fused query_key_value 4544 + 2·64.
    assert_eq!((old.num_kv_heads, old.family), (1, Family::Falcon));
    assert_eq!(old.params_total, 6_921_720_704);
    // Falcon-40B's original config: RefinedWeb means the new decoder.
    let forty = r#"{"model_type": "RefinedWeb", "hidden_size": 8192, "n_head": 128,
        "n_head_kv": 8, "n_layer": 60, "parallel_attn": true, "bias": false,
        "vocab_size": 65024}"#;
    let forty = parse_config(forty).unwrap();
    assert_eq!(forty.num_kv_heads, 8);
    // tiiuae's files also hold lm_head.weight, a copy of the tied
    // embedding: with it, the Hub's total of Falcon-40B, 41,835,970,560
    // (AlexsJones/llmfit@a3e0eb27c57fe05298292f4c61699b9aed2824ea
    // llmfit-core/data/hf_models.json), to the parameter.
    assert_eq!(forty.checkpoint.tied_head_copy, 65_024 * 8_192);
    assert_eq!(
        forty.params_total + forty.checkpoint.tied_head_copy,
        41_835_970_560
    );
    // Falcon-7B likewise: 7,217,189,760 on the Hub.
    assert_eq!(
        old.params_total + old.checkpoint.tied_head_copy,
        7_217_189_760
    );
}

#[test]
fn falcon_multi_query_ignores_num_kv_heads_and_parallel_attn_sets_the_norms() {
    // tiiuae/falcon-7b's config.json as transformers rewrote it: its
    // num_kv_heads 71 is ignored, multi_query without the new decoder
    // means one key/value head (FalconAttention).
    let seven = r#"{"architectures": ["FalconForCausalLM"], "bias": false,
        "hidden_size": 4544, "layer_norm_epsilon": 1e-05, "model_type": "falcon",
        "multi_query": true, "new_decoder_architecture": false,
        "num_attention_heads": 71, "num_hidden_layers": 32, "num_kv_heads": 71,
        "parallel_attn": true, "torch_dtype": "bfloat16", "vocab_size": 65024}"#;
    let s = parse_config(seven).unwrap();
    assert_eq!((s.num_kv_heads, s.params_total), (1, 6_921_720_704));
    // FalconDecoderLayer: ln_attn and ln_mlp only for the new decoder with
    // num_ln_in_parallel_attn 2; with 1, input_layernorm alone when
    // parallel_attn, plus post_attention_layernorm when not.
    let new = |ln: u64, parallel: bool| {
        let text = format!(
            r#"{{"model_type": "falcon", "hidden_size": 4096, "num_attention_heads": 32,
            "num_kv_heads": 8, "num_hidden_layers": 60, "new_decoder_architecture": true,
            "num_ln_in_parallel_attn": {ln}, "parallel_attn": {parallel},
            "ffn_hidden_size": 16384, "vocab_size": 65024}}"#
        );
        parse_config(&text).unwrap().params_total
    };
    let layer_norm = 2 * 4096;
    assert_eq!(new(2, true), new(1, true) + 60 * layer_norm);
    assert_eq!(new(1, false), new(1, true) + 60 * layer_norm);
    assert_eq!(new(2, false), new(2, true));
}

#[test]
fn configs_that_look_llama_like_but_are_not_are_not_read_as_llama() {
    // OPT names its MLP ffn_dim and has a plain MLP with biases and learned
    // positions; GPT-J's n_inner null means 4·n_embd; Qwen v1 counts both
    // MLP halves in intermediate_size. Each is read by its own reader.
    let opt = r#"{"model_type": "opt", "hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 32, "ffn_dim": 8192, "vocab_size": 50272,
        "max_position_embeddings": 2048, "word_embed_proj_dim": 2048,
        "do_layer_norm_before": true, "torch_dtype": "float16"}"#;
    // OPT-1.3B: keras-hub opt_presets.py opt_1.3b_en counts 1,315,753,984
    // (without the 2 position rows OPT reserves: 2 × 2048).
    assert_eq!(
        parse_config(opt).unwrap().params_total,
        1_315_753_984 + 2 * 2048
    );
    let gptj = r#"{"model_type": "gptj", "n_embd": 4096, "n_layer": 28, "n_head": 16,
        "n_inner": null, "vocab_size": 50400, "n_positions": 2048, "rotary_dim": 64}"#;
    let s = parse_config(gptj).unwrap();
    assert_eq!(s.intermediate_size, Some(4 * 4096));
    assert_eq!(s.params_total, 6_050_882_784);
    let unknown = r#"{"model_type": "opt_like_newcomer", "hidden_size": 2048,
        "num_hidden_layers": 24, "num_attention_heads": 32, "ffn_dim": 8192,
        "vocab_size": 50272}"#;
    assert!(matches!(
        parse_config(unknown).unwrap_err().kind,
        ConfigErrorKind::UnknownModelType { .. }
    ));
}

#[test]
fn mangled_fixtures_are_refused_or_read_never_panic() {
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
        serde_json::json!([{"a": 1}]),
        serde_json::json!({}),
        serde_json::json!(true),
    ];
    let dir = format!("{}/tests/fixtures/configs", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let config: serde_json::Value = serde_json::from_str(&fixture(&name)).unwrap();
        let mut keys: Vec<(Option<String>, String)> = config
            .as_object()
            .unwrap()
            .keys()
            .map(|k| (None, k.clone()))
            .collect();
        if let Some(inner) = config.get("text_config").and_then(|t| t.as_object()) {
            keys.extend(
                inner
                    .keys()
                    .map(|k| (Some("text_config".to_string()), k.clone())),
            );
        }
        for (scope, key) in &keys {
            for v in &variants {
                let mut edited = config.clone();
                match scope {
                    Some(s) => edited[s][key] = v.clone(),
                    None => edited[key] = v.clone(),
                }
                let _ = parse_config(&edited.to_string());
            }
        }
    }
}

#[test]
fn minimax_counts_active_parameters_without_embeddings_head_or_buffers() {
    // MiniMax-Text-01 as the MiniMax-01 report describes it: hidden 6144,
    // 80 layers (a softmax-attention layer after every seven lightning
    // ones), 64 heads of 128 (8 key/value heads), 32 experts of 9216 with
    // 2 per token, vocabulary 200,064. The report: "456 billion total
    // parameters, of which 45.9 billion are activated for each token".
    let attn_types: Vec<u64> = (0..80).map(|i| u64::from((i + 1) % 8 == 0)).collect();
    let config = serde_json::json!({
        "model_type": "minimax", "architectures": ["MiniMaxText01ForCausalLM"],
        "hidden_size": 6144, "num_hidden_layers": 80, "num_attention_heads": 64,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 9216,
        "num_local_experts": 32, "num_experts_per_tok": 2, "vocab_size": 200_064,
        "tie_word_embeddings": false, "attn_type_list": attn_types,
        "torch_dtype": "bfloat16"
    })
    .to_string();
    let s = parse_config(&config).unwrap();
    assert_eq!(s.active_count, ActiveCount::WithoutEmbeddings);
    assert_eq!((s.params_total + B / 2) / B, 456);
    // 45.9B: the decoder layers' parameters, without the embedding, the
    // head and the 70 lightning layers' decay buffers (64 + 2·64·256 +
    // 64·256² each).
    assert_eq!((s.params_active + B / 20) / (B / 10), 459);
    let buffers = 70 * (64 + 2 * 64 * 256 + 64 * 256 * 256);
    let without = s.params_active + buffers + s.params.embedding + s.params.lm_head;
    let idle = 80 * 30 * 3 * 6144 * 9216;
    assert_eq!(without, s.params_total - idle);
}

#[test]
fn deepseek_counts_active_parameters_without_the_input_embedding() {
    // DeepSeek-V2-Lite: "15.7B parameters in total, of which 2.4B are
    // activated": 2.45 B without the input embedding (2.66 B with it).
    let s = parse_config(include_str!(
        "../data/configs/deepseek-ai__DeepSeek-V2-Lite.json"
    ))
    .unwrap();
    assert_eq!(s.active_count, ActiveCount::WithoutInputEmbedding);
    assert_eq!(s.params_active, 2_451_435_008);
    assert_eq!(s.params.embedding, 102_400 * 2048);
    assert_eq!((s.params_total + B / 20) / (B / 10), 157);
}
