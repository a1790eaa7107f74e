//! Errors: every bad input names its keys and never panics.

use super::super::*;
use super::{edit, golden_text, spec, GOLDEN};

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
        error(r#"{"model_type": "llama"}"#),
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
    // GPT-2's own names are the ones reported.
    let text = edit("openai-community__gpt2.json", |c| {
        c.as_object_mut().unwrap().remove("n_head");
    });
    assert_eq!(
        error(&text),
        ConfigErrorKind::MissingKeys {
            keys: keys(&["n_head"])
        }
    );
}

#[test]
fn absent_keys_take_the_config_class_default_and_say_so() {
    // MixtralConfig: num_experts_per_tok = 2; DeepseekV3Config:
    // qk_rope_head_dim = 64; the counts are unchanged.
    for (file, key) in [
        ("mistralai__Mixtral-8x7B-v0.1.json", "num_experts_per_tok"),
        ("deepseek-ai__DeepSeek-V3.json", "qk_rope_head_dim"),
    ] {
        let text = edit(file, |c| {
            c.as_object_mut().unwrap().remove(key);
        });
        let s = parse_config(&text).unwrap();
        assert_eq!(s.params_total, spec(file).params_total, "{file}");
        assert_eq!(s.defaults_used, [key], "{file}");
    }
    // A key written as null is not absent: no default.
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c["sliding_window"] = serde_json::Value::Null;
    });
    assert!(parse_config(&text).unwrap().defaults_used.is_empty());
    // MistralConfig's window (4096) applies when the key is not written.
    let text = edit("mistralai__Mistral-7B-v0.3.json", |c| {
        c.as_object_mut().unwrap().remove("sliding_window");
    });
    let s = parse_config(&text).unwrap();
    assert_eq!(
        s.attention[0],
        AttentionKind::SlidingWindow { window: 4096 }
    );
    assert_eq!(s.defaults_used, ["sliding_window"]);
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
        r#"{"model_type": "xyz"}"#,
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
        parse_config(r#"{"model_type": "llama"}"#)
            .unwrap_err()
            .to_string(),
        "config.json is missing required keys: hidden_size, vocab_size, num_hidden_layers, \
         num_attention_heads"
    );
    assert_eq!(
        parse_config(r#"{"model_type": "xyz"}"#)
            .unwrap_err()
            .to_string(),
        "model type \"xyz\" is not one vramfit reads exactly, so it is not read"
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
            keys: keys(&["n_embd"])
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
    assert_eq!(json["reading"], "exact");
    let err =
        serde_json::to_value(parse_config(r#"{"model_type": "llama"}"#).unwrap_err()).unwrap();
    assert_eq!(err["kind"], "missing_keys");
    assert_eq!(err["keys"][0], "hidden_size");
    let err = serde_json::to_value(parse_config(r#"{"model_type": "xyz"}"#).unwrap_err()).unwrap();
    assert_eq!(err["kind"], "unknown_model_type");
    assert_eq!(err["model_type"], "xyz");
}
