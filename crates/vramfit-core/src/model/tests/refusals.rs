//! Refusals: unknown model types and unknown per-layer keys are named,
//! never read as something else; the approximate path says what it
//! assumed; the coverage list matches the readers.

use super::super::*;
use super::edit;

fn unknown_type(text: &str) -> ConfigErrorKind {
    parse_config(text).unwrap_err().kind
}

#[test]
fn unknown_model_types_are_refused_by_name() {
    let base = edit("meta-llama__Llama-3.1-8B.json", |_| {});
    for name in ["made_up_model", "LLaMA", "llama_v9", "qwen9_moe"] {
        let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
            c["model_type"] = name.into();
            c["architectures"] = serde_json::json!(["MadeUpForCausalLM"]);
        });
        let kind = unknown_type(&text);
        assert_eq!(
            kind,
            ConfigErrorKind::UnknownModelType {
                model_type: Some(name.to_string()),
                architecture: Some("MadeUpForCausalLM".to_string()),
            }
        );
        let message = parse_config(&text).unwrap_err().to_string();
        assert!(message.contains(name), "{message}");
    }
    // Without model_type the architecture class decides, when known.
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c.as_object_mut().unwrap().remove("model_type");
    });
    assert_eq!(
        parse_config(&text).unwrap().params_total,
        parse_config(&base).unwrap().params_total
    );
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c.as_object_mut().unwrap().remove("model_type");
        c["architectures"] = serde_json::json!(["NovelForCausalLM"]);
    });
    assert_eq!(
        unknown_type(&text),
        ConfigErrorKind::UnknownModelType {
            model_type: None,
            architecture: Some("NovelForCausalLM".to_string()),
        }
    );
}

#[test]
fn an_unknown_text_model_inside_a_known_wrapper_is_refused() {
    let text = serde_json::json!({
        "model_type": "llava",
        "text_config": {"model_type": "exotic_lm", "hidden_size": 4096},
        "vision_config": {"hidden_size": 1024}
    });
    assert!(matches!(
        unknown_type(&text.to_string()),
        ConfigErrorKind::UnknownModelType { model_type: Some(t), .. } if t == "exotic_lm"
    ));
}

#[test]
fn unknown_per_layer_keys_are_refused_by_name() {
    // A list with one entry per layer under a name Llama's reader does not
    // read, a list of per-layer objects, a list naming layers, a pattern.
    let cases: [(&str, serde_json::Value); 5] = [
        ("attn_type_list", serde_json::json!(vec![1; 32])),
        ("layer_types", serde_json::json!(vec!["full_attention"; 32])),
        (
            "block_configs",
            serde_json::json!([{"attention": {"no_op": true}}]),
        ),
        ("swa_layers", serde_json::json!([1, 3, 5])),
        ("hybrid_pattern", serde_json::json!("M".repeat(32))),
    ];
    for (key, value) in cases {
        let text = edit("meta-llama__Llama-3.1-8B.json", |c| c[key] = value.clone());
        assert_eq!(
            unknown_type(&text),
            ConfigErrorKind::UnknownLayerPattern {
                key: key.to_string(),
                model_type: "llama".to_string(),
            },
            "{key}"
        );
    }
    // A key the reader knows is read, not refused.
    let text = edit("Qwen__Qwen3-8B.json", |c| {
        c["layer_types"] = serde_json::json!(vec!["full_attention"; 36]);
    });
    assert!(parse_config(&text).is_ok());
    // Lists that are not per layer are fine.
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c["eos_token_id"] = serde_json::json!([128001, 128008, 128009]);
    });
    assert!(parse_config(&text).is_ok());
}

#[test]
fn approximate_reading_says_what_it_assumed() {
    let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
        c["model_type"] = "llama_like_newcomer".into();
        c["architectures"] = serde_json::json!(["NewcomerForCausalLM"]);
    });
    assert!(parse_config(&text).is_err());
    let s = parse_config_approximate(&text).unwrap();
    assert_eq!(s.reading, Reading::Approximate);
    assert_eq!(s.family, Family::Generic);
    assert_eq!(s.params_total, 8_030_261_248);
    assert!(s.assumed_keys.iter().any(|k| k == "intermediate_size"));
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["reading"], "approximate");
    assert!(json["assumed_keys"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
    // A known type reads exactly on either path, without assumed keys.
    let exact = parse_config_approximate(&edit("meta-llama__Llama-3.1-8B.json", |_| {})).unwrap();
    assert_eq!(exact.reading, Reading::Exact);
    assert!(serde_json::to_value(&exact)
        .unwrap()
        .get("assumed_keys")
        .is_none());
}

#[test]
fn approximate_reading_refuses_a_multimodal_or_encoder_decoder_class() {
    // A flat config of an unknown vision-language (or encoder-decoder)
    // class: the Llama reading would leave its tower out of the total.
    for class in [
        "NewcomerForConditionalGeneration",
        "NewcomerVLForCausalLM",
        "NewcomerVisionForCausalLM",
    ] {
        let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
            c["model_type"] = "newcomer".into();
            c["architectures"] = serde_json::json!([class]);
        });
        assert!(parse_config_approximate(&text).is_err(), "{class}");
    }
}

#[test]
fn approximate_reading_keeps_refusing_what_llama_cannot_hold() {
    for (key, value) in [
        ("num_experts", serde_json::json!(8)),
        ("kv_lora_rank", serde_json::json!(512)),
        ("sliding_window", serde_json::json!(4096)),
        ("mamba_d_state", serde_json::json!(16)),
        ("n_embd", serde_json::json!(4096)),
    ] {
        let text = edit("meta-llama__Llama-3.1-8B.json", |c| {
            c["model_type"] = "newcomer".into();
            c[key] = value.clone();
        });
        assert!(
            matches!(
                parse_config_approximate(&text).unwrap_err().kind,
                ConfigErrorKind::UnknownModelType { .. }
            ),
            "{key}"
        );
    }
}

#[test]
fn every_reader_is_found_by_its_model_types_and_classes() {
    for a in arch::all() {
        for t in a.model_types {
            assert_eq!(Family::of(t), a.family, "{t}");
        }
        for c in a.classes {
            assert_eq!(Family::of(c), a.family, "{c}");
        }
    }
    assert_eq!(Family::of("no_such_model"), Family::Generic);
}

#[test]
fn coverage_list_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/coverage.md");
    let expected = arch::coverage_markdown();
    if std::env::var_os("VRAMFIT_BLESS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let written = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        written == expected,
        "docs/coverage.md differs from the readers; regenerate it with \
         VRAMFIT_BLESS=1 cargo test -p vramfit-core coverage_list_is_current"
    );
}
