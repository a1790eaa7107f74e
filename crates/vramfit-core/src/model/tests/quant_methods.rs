//! Quantization configs under the other names vLLM and compressed-tensors
//! give them, and the methods refused by name.

use super::super::*;

const FP8_DYNAMIC: &str =
    include_str!("../../../data/configs/RedHatAI__Qwen2.5-7B-Instruct-FP8-dynamic.json");

fn with(edit: impl Fn(&mut serde_json::Map<String, serde_json::Value>)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(FP8_DYNAMIC).unwrap();
    edit(c.as_object_mut().unwrap());
    c.to_string()
}

#[test]
fn compression_config_and_sparseml_read_as_compressed_tensors() {
    let reference = parse_config(FP8_DYNAMIC).unwrap();
    assert!(reference.quantization.is_some());
    // llm-compressor's first exports: the same object under
    // `compression_config`, which vLLM reads when there is no
    // `quantization_config`.
    let moved = with(|o| {
        let q = o.remove("quantization_config").unwrap();
        o.insert("compression_config".into(), q);
    });
    // compressed-tensors' own earlier name for its method.
    let renamed = with(|o| {
        o["quantization_config"]["quant_method"] = "sparseml".into();
    });
    for text in [moved, renamed] {
        let s = parse_config(&text).unwrap();
        assert_eq!(s.published_bytes, reference.published_bytes);
        assert_eq!(s.quantized_params, reference.quantized_params);
        assert_eq!(
            s.quantization.as_ref().map(|q| q.method.as_str()),
            Some("compressed-tensors")
        );
    }
}

#[test]
fn a_static_per_tensor_fp8_group_stores_one_weight_and_one_input_scale() {
    // The same checkpoint exported FP8 static per tensor (llm-compressor's
    // FP8 scheme): per layer one weight scale and one input scale, each a
    // bf16 scalar, instead of a scale per output row.
    let per_tensor = with(|o| {
        let g = &mut o["quantization_config"]["config_groups"]["group_0"];
        g["weights"]["strategy"] = "tensor".into();
        g["input_activations"]["strategy"] = "tensor".into();
        g["input_activations"]["dynamic"] = false.into();
    });
    let s = parse_config(&per_tensor).unwrap();
    let q = s.quantization.as_ref().unwrap();
    assert!(q.static_activation_scales);
    // 28 layers × 7 linear layers, a 2-byte weight scale and a 2-byte
    // input scale each; the values (one byte each) unchanged.
    let r = parse_config(FP8_DYNAMIC).unwrap();
    let linears = 28 * 7;
    assert_eq!(
        s.checkpoint.quantized_bytes.values,
        r.checkpoint.quantized_bytes.values
    );
    assert_eq!(s.checkpoint.quantized_bytes.scales, linears * 2);
    assert_eq!(
        s.checkpoint.quantized_bytes.other,
        r.checkpoint.quantized_bytes.other + linears * 2
    );
}

#[test]
fn methods_quantized_at_load_or_in_unmodelled_layouts_are_refused_by_name() {
    for method in [
        "ptpc_fp8",
        "experts_int8",
        "bitblas",
        "marlin",
        "hqq",
        "torchao",
        "quark",
    ] {
        let text = with(|o| {
            o.insert(
                "quantization_config".into(),
                serde_json::json!({"quant_method": method, "bits": 4}),
            );
        });
        let e = parse_config(&text).unwrap_err();
        assert!(matches!(e.kind, ConfigErrorKind::Unsupported { .. }), "{e}");
        assert!(e.to_string().contains(&format!("`{method}`")), "{e}");
    }
}

#[test]
fn an_mlx_or_trt_llm_quantization_block_is_refused_not_read_as_16_bits() {
    // mlx-lm writes `quantization` (and, since 2025, the same object as
    // `quantization_config`, without quant_method); a TensorRT-LLM
    // checkpoint's config names its `quant_algo` there.
    let base = include_str!("../../../data/configs/Qwen__Qwen3-4B.json");
    let edit = |key: &str, value: serde_json::Value| {
        let mut c: serde_json::Value = serde_json::from_str(base).unwrap();
        c.as_object_mut().unwrap().insert(key.into(), value);
        c.to_string()
    };
    let mlx = serde_json::json!({"group_size": 64, "bits": 4});
    for (text, says) in [
        (edit("quantization", mlx.clone()), "4-bit in groups of 64"),
        (edit("quantization_config", mlx), "4-bit in groups of 64"),
        (
            edit(
                "quantization",
                serde_json::json!({"quant_algo": "W4A16_AWQ"}),
            ),
            "quant_algo W4A16_AWQ",
        ),
    ] {
        let e = parse_config(&text).unwrap_err();
        assert!(matches!(e.kind, ConfigErrorKind::Unsupported { .. }), "{e}");
        assert!(e.to_string().contains(says), "{e}");
    }
    // An MLX VLM keeps it in its text_config.
    let mut c: serde_json::Value = serde_json::from_str(include_str!(
        "../../../data/configs/google__gemma-3-4b-it.json"
    ))
    .unwrap();
    c["text_config"]["quantization"] = serde_json::json!({"group_size": 64, "bits": 4});
    assert!(parse_config(&c.to_string()).is_err());
}
