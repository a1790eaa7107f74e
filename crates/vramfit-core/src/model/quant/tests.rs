//! Stored bytes per method, checked against the published checkpoints'
//! own sizes and against each library's layout written out by hand.

use super::*;
use crate::model::{parse_config, ConfigErrorKind, Dtype, ModelSpec};
use serde_json::{json, Value};

const LLAMA_3_1_8B: &str = include_str!("../../../data/configs/meta-llama__Llama-3.1-8B.json");
const QWEN3_30B_FP8: &str = include_str!("../../../data/configs/Qwen__Qwen3-30B-A3B-FP8.json");
const MIXTRAL: &str = include_str!("../../../data/configs/mistralai__Mixtral-8x7B-v0.1.json");
const MISTRAL_SMALL: &str = include_str!(
    "../../../tests/fixtures/vision/mistralai__Mistral-Small-3.2-24B-Instruct-2506.json"
);

fn with_quant(base: &str, quant: Value) -> String {
    let mut config: Value = serde_json::from_str(base).unwrap();
    config["quantization_config"] = quant;
    config.to_string()
}

fn spec_with(base: &str, quant: Value) -> ModelSpec {
    parse_config(&with_quant(base, quant)).unwrap_or_else(|e| panic!("{e}"))
}

/// Llama-3.1-8B's linear layers, `(rows, cols)` per layer, and the rest.
const LLAMA_LINEARS: [(u64, u64); 7] = [
    (4096, 4096),
    (1024, 4096),
    (1024, 4096),
    (4096, 4096),
    (14336, 4096),
    (14336, 4096),
    (4096, 14336),
];
const LLAMA_LAYERS: u64 = 32;
/// Embedding and output head (128,256 × 4,096 each), 65 norms of 4,096.
const LLAMA_PLAIN: u64 = 2 * 128_256 * 4096 + 65 * 4096;

fn llama_sum(per_matrix: impl Fn(u64, u64) -> u64) -> u64 {
    LLAMA_LAYERS
        * LLAMA_LINEARS
            .iter()
            .map(|(r, c)| per_matrix(*r, *c))
            .sum::<u64>()
}

// ---------------------------------------------------------------------------
// Published checkpoints

/// TheBloke/Genz-70B-GPTQ (AutoGPTQ, Llama-2-70B shapes), one branch per
/// variant; each branch's single `model.safetensors` (LFS pointer size)
/// holds the tensors plus the safetensors JSON header (8 bytes of length,
/// then ~2,960 entries of name, dtype, shape and offsets, about 340 kB).
#[test]
fn gptq_variants_match_the_published_files_up_to_the_header() {
    let cases = [
        (
            include_str!("../../../tests/fixtures/quant/TheBloke__Genz-70b-GPTQ.main.json"),
            36_652_345_792u64,
        ),
        (
            include_str!(
                "../../../tests/fixtures/quant/TheBloke__Genz-70b-GPTQ.gptq-3bit--1g-actorder_True.json"
            ),
            26_774_982_616,
        ),
        (
            include_str!(
                "../../../tests/fixtures/quant/TheBloke__Genz-70b-GPTQ.gptq-3bit-128g-actorder_True.json"
            ),
            28_029_117_672,
        ),
        (
            include_str!(
                "../../../tests/fixtures/quant/TheBloke__Genz-70b-GPTQ.gptq-4bit-32g-actorder_True.json"
            ),
            40_663_149_992,
        ),
    ];
    for (text, file) in cases {
        let s = parse_config(text).unwrap();
        let header = file - s.checkpoint.bytes;
        assert!((300_000..400_000).contains(&header), "header {header}");
        // Every decoder linear is stored quantized, with AutoGPTQ's zero bias.
        let q = s.quantization.as_ref().unwrap();
        assert!(matches!(
            q.scheme,
            QuantScheme::Gptq {
                zero_bias: true,
                ..
            }
        ));
        assert_eq!(
            s.quantized_params.total(),
            s.params.attention + s.params.dense_mlp
        );
        assert_eq!(s.checkpoint.quantized_bytes.other, 80 * 2 * 83_968);
    }
}

/// unsloth-style bitsandbytes NF4 with double quantization (an Orpheus-3B
/// upload, Llama-3.2-3B shapes, `model.layers.0.self_attn` kept in bf16):
/// its single file is the tensors plus a header of about 140 kB.
#[test]
fn bitsandbytes_nf4_matches_the_published_file_up_to_the_header() {
    let s = parse_config(include_str!(
        "../../../tests/fixtures/quant/DocWobble__Orpheus_3B_Quantized.json"
    ))
    .unwrap();
    let header = 2_456_339_440 - s.checkpoint.bytes;
    assert!((100_000..200_000).contains(&header), "header {header}");
    // Layer 0's attention stays bf16; 27 layers × 4 + 28 × 3 linears are NF4.
    let q = s.quantized_params;
    assert_eq!(q.attention, 27 * (2 * 3072 * 3072 + 2 * 1024 * 3072));
    assert_eq!(q.dense_mlp, s.params.dense_mlp);
    assert_eq!(q.embedding + q.lm_head + q.norms, 0);
}

/// openai/gpt-oss-20b: `model.safetensors.index.json` total_size
/// 13,761,264,768 (kept in the golden tests of the text model too).
#[test]
fn mxfp4_gpt_oss_matches_its_index() {
    let text = include_str!("../../../data/configs/openai__gpt-oss-20b.json");
    let s = parse_config(text).unwrap();
    assert_eq!(s.checkpoint.bytes, 13_761_264_768);
    assert_eq!(
        s.checkpoint.quantized_params,
        s.params.routed_experts - 24 * 32 * (2 * 2880 + 2880)
    );
}

// ---------------------------------------------------------------------------
// Layouts written out

#[test]
fn fp8_block_scales_round_up() {
    // DeepSeek-V3 kv_a_proj_with_mqa: 576 × 7168 → 5 × 56 tiles of fp32.
    let s = QuantScheme::Fp8Block {
        rows: 128,
        cols: 128,
    };
    let b = s.matrix(576, 7168, Dtype::Bf16);
    assert_eq!((b.values, b.scales), (576 * 7168, 4 * 5 * 56));
}

#[test]
fn mxfp4_is_4_25_bits() {
    let b = QuantScheme::Mxfp4.matrix(5760, 2880, Dtype::Bf16);
    assert_eq!(b.total() * 8 * 100, 5760 * 2880 * 425);
}

#[test]
fn gptq_awq_and_marlinless_layouts() {
    let gptq = QuantScheme::Gptq {
        bits: 4,
        group_size: 128,
        zero_bias: false,
    };
    let b = gptq.matrix(4096, 4096, Dtype::F16);
    assert_eq!(b.values, 4096 * 4096 / 2);
    assert_eq!(b.scales, 2 * 4096 * 32);
    assert_eq!(b.zero_points, 32 * 4096 / 2);
    assert_eq!(b.group_index, 4 * 4096);
    // 3 bits, one group per row: qweight (C/32·3) × R int32.
    let b = QuantScheme::Gptq {
        bits: 3,
        group_size: 0,
        zero_bias: true,
    }
    .matrix(1024, 8192, Dtype::F16);
    assert_eq!(b.values, 4 * 1024 * (8192 / 32 * 3));
    assert_eq!(
        (b.scales, b.zero_points, b.other),
        (2 * 1024, 4 * (1024 / 32 * 3), 2 * 1024)
    );
    // AWQ GEMM packs along the output dimension.
    let awq = QuantScheme::AwqGemm {
        bits: 4,
        group_size: 128,
        zero_points: true,
    };
    let b = awq.matrix(14336, 4096, Dtype::F16);
    assert_eq!(b.values, 4096 * 14336 / 2);
    assert_eq!(
        (b.scales, b.zero_points),
        (2 * 32 * 14336, 4 * 32 * (14336 / 8))
    );
    // AWQ GEMV pads the per-row zeros to the kernel width: 4096/64 = 64
    // groups → 8 words, a multiple of 2 for groups of 64.
    let b = QuantScheme::AwqGemv {
        bits: 4,
        group_size: 64,
    }
    .matrix(4096, 4096, Dtype::F16);
    assert_eq!((b.zero_points, b.scales), (4 * 4096 * 8, 2 * 4096 * 8 * 8));
    let b = QuantScheme::AwqGemv {
        bits: 4,
        group_size: 32,
    }
    .matrix(4096, 4096, Dtype::F16);
    assert_eq!(b.zero_points, 4 * 4096 * 16);
}

#[test]
fn compressed_tensors_layouts() {
    let w = |num_bits, float, strategy, symmetric, format, scale_bytes| CtWeights {
        num_bits,
        float,
        strategy,
        symmetric,
        group_index: false,
        format,
        scale_bytes,
    };
    // W4A16: int4 packed in int32 along rows, bf16 scale per 128, weight_shape.
    let b = w(
        4,
        false,
        CtStrategy::Group { size: 128 },
        true,
        CtFormat::PackQuantized,
        2,
    )
    .bytes(4096, 14336);
    assert_eq!(
        (b.values, b.scales, b.zero_points, b.other),
        (4096 * 14336 / 2, 2 * 4096 * 112, 0, 16)
    );
    // Asymmetric: zero points packed along the output dimension.
    let b = w(
        4,
        false,
        CtStrategy::Group { size: 128 },
        false,
        CtFormat::PackQuantized,
        2,
    )
    .bytes(4096, 14336);
    assert_eq!(b.zero_points, 4 * (4096 / 8) * 112);
    // 3-bit packs 10 per int32: 4096 columns need 410 words.
    let b = w(
        3,
        false,
        CtStrategy::Channel,
        true,
        CtFormat::PackQuantized,
        2,
    )
    .bytes(10, 4096);
    assert_eq!((b.values, b.scales), (4 * 10 * 410, 2 * 10));
    // W8A8 int8 per channel and FP8 per tensor, one byte per value.
    let b = w(8, false, CtStrategy::Channel, true, CtFormat::Unpacked, 2).bytes(1024, 4096);
    assert_eq!((b.values, b.scales), (1024 * 4096, 2 * 1024));
    let b = w(8, true, CtStrategy::Tensor, true, CtFormat::Unpacked, 2).bytes(1024, 4096);
    assert_eq!((b.values, b.scales), (1024 * 4096, 2));
    // FP8 blocks with bf16 scales, and asymmetric int8 with int8 zeros.
    let b = w(
        8,
        true,
        CtStrategy::Block {
            rows: 128,
            cols: 128,
        },
        true,
        CtFormat::Unpacked,
        2,
    )
    .bytes(576, 7168);
    assert_eq!(b.scales, 2 * 5 * 56);
    let b = w(8, false, CtStrategy::Channel, false, CtFormat::Unpacked, 2).bytes(1024, 4096);
    assert_eq!(b.zero_points, 1024);
    // NVFP4: two values per byte, FP8 scale per 16, fp32 global scale.
    let b = w(
        4,
        true,
        CtStrategy::TensorGroup { size: 16 },
        true,
        CtFormat::Fp4Packed,
        1,
    )
    .bytes(7168, 2048);
    assert_eq!((b.values, b.scales), (7168 * 1024, 7168 * 128 + 4));
}

#[test]
fn modelopt_bitsandbytes_and_eetq_layouts() {
    // The NVFP4 tensors of a ModelOpt checkpoint: weight U8 [7168, 1024],
    // weight_scale F8 [7168, 128], weight_scale_2 and input_scale F32 [].
    let b = QuantScheme::Nvfp4 { group_size: 16 }.matrix(7168, 2048, Dtype::Bf16);
    assert_eq!(
        (b.values, b.scales, b.other),
        (7168 * 1024, 7168 * 128 + 4, 4)
    );
    let b = QuantScheme::Bnb8.matrix(4096, 4096, Dtype::F16);
    assert_eq!(b.total(), 4096 * 4096 + 4 * 4096 + 1);
    // bnb 4-bit without double quantization: fp32 absmax per 64 values.
    let nf4 = QuantScheme::Bnb4 {
        double_quant: false,
        blocksize: 64,
        storage_bytes: 1,
    };
    let b = nf4.matrix(4096, 4096, Dtype::Bf16);
    let json =
        r#"{"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [4096, 4096]}"#;
    assert_eq!(b.values, 4096 * 4096 / 2);
    assert_eq!(b.scales, 4 * 4096 * 4096 / 64);
    assert_eq!(b.other, 64 + json.len() as u64);
    let b = QuantScheme::Int8Channel.matrix(4096, 4096, Dtype::F16);
    assert_eq!(b.total(), 4096 * 4096 + 2 * 4096);
}

// ---------------------------------------------------------------------------
// Reading each method and its module lists

/// An llm-compressor W4A16 checkpoint of Llama-3.1-8B (the layout of
/// RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16: group 128,
/// symmetric, `ignore: ["lm_head"]`).
#[test]
fn compressed_tensors_w4a16_llama() {
    let s = spec_with(
        LLAMA_3_1_8B,
        json!({
            "quant_method": "compressed-tensors", "format": "pack-quantized",
            "quantization_status": "compressed", "ignore": ["lm_head"], "kv_cache_scheme": null,
            "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": null,
                "output_activations": null,
                "weights": {"num_bits": 4, "type": "int", "symmetric": true, "group_size": 128,
                    "strategy": "group", "dynamic": false, "actorder": null, "block_structure": null}}}
        }),
    );
    let linear = llama_sum(|r, c| r * c / 2 + 2 * r * (c / 128) + 16);
    assert_eq!(s.checkpoint.bytes, linear + 2 * LLAMA_PLAIN);
    assert_eq!(s.quantized_params.lm_head, 0);
    assert_eq!(
        s.quantization.as_ref().unwrap().scheme.value_milli_bits(),
        4_000
    );
}

/// W8A8 int8 of Mistral-Small 3.x as llm-compressor writes it: per-channel
/// weights, dynamic per-token activations, the head and the whole vision
/// tower ignored. Only the text model's linears are int8.
#[test]
fn compressed_tensors_w8a8_keeps_the_vision_tower() {
    let plain = parse_config(MISTRAL_SMALL).unwrap();
    let s = spec_with(
        MISTRAL_SMALL,
        json!({
            "quant_method": "compressed-tensors", "format": "int-quantized",
            "ignore": ["language_model.lm_head", "re:vision_tower.*", "re:multi_modal_projector.*"],
            "config_groups": {"group_0": {"targets": ["Linear"],
                "input_activations": {"num_bits": 8, "type": "int", "symmetric": true,
                    "strategy": "token", "dynamic": true},
                "weights": {"num_bits": 8, "type": "int", "symmetric": true,
                    "strategy": "channel", "dynamic": false}}}
        }),
    );
    let v = s.vision.as_ref().unwrap();
    assert_eq!(v.quantized_params, 0);
    assert_eq!(v.bytes, plain.vision.as_ref().unwrap().bytes);
    let per_layer: [(u64, u64); 7] = [
        (4096, 5120),
        (1024, 5120),
        (1024, 5120),
        (5120, 4096),
        (32768, 5120),
        (32768, 5120),
        (5120, 32768),
    ];
    let linear: u64 = 40 * per_layer.iter().map(|(r, c)| r * c + 2 * r).sum::<u64>();
    let text_plain = 2 * 131_072 * 5120 + (2 * 40 + 1) * 5120;
    assert_eq!(s.published_weight_bytes(), linear + 2 * text_plain);
    assert!(!s.quantization.as_ref().unwrap().static_activation_scales);
}

/// The same recipe without the vision entries quantizes the tower's linear
/// layers too (compressed-tensors targets every `Linear`).
#[test]
fn compressed_tensors_without_vision_ignores_converts_the_tower() {
    let s = spec_with(
        MISTRAL_SMALL,
        json!({
            "quant_method": "compressed-tensors", "format": "float-quantized",
            "ignore": ["re:.*lm_head"],
            "config_groups": {"group_0": {"targets": ["Linear"],
                "weights": {"num_bits": 8, "type": "float", "strategy": "channel"},
                "input_activations": {"num_bits": 8, "type": "float", "strategy": "token", "dynamic": true}}}
        }),
    );
    let v = s.vision.as_ref().unwrap();
    // Pixtral: 24 layers × (4 × 1024² + 3 × 1024·4096); projector linears.
    let tower = 24 * (4 * 1024 * 1024 + 3 * 1024 * 4096);
    let projector = 1024 * 4096 + 5120 * 1024 + 5120 * 5120;
    assert_eq!(v.quantized_params, tower + projector);
    assert_eq!(s.quantized_params.lm_head, 0);
}

/// Routers are `nn.Linear` in Qwen3-MoE and Mixtral: compressed-tensors
/// converts them unless ignored, whether the list spells the router the
/// Llama way (`mlp.gate`) or Mixtral's (`block_sparse_moe.gate`).
#[test]
fn routers_follow_the_ignore_list_under_each_spelling() {
    let fp8 = |ignore: Value| {
        json!({
            "quant_method": "compressed-tensors", "format": "float-quantized", "ignore": ignore,
            "config_groups": {"group_0": {"targets": ["Linear"],
                "weights": {"num_bits": 8, "type": "float", "strategy": "channel"}}}
        })
    };
    let qwen = spec_with(QWEN3_30B_FP8, fp8(json!(["lm_head", "re:.*mlp.gate$"])));
    assert_eq!(qwen.quantized_params.router, 0);
    assert_eq!(
        qwen.quantized_params.routed_experts,
        qwen.params.routed_experts
    );
    let qwen = spec_with(QWEN3_30B_FP8, fp8(json!(["lm_head"])));
    assert_eq!(qwen.quantized_params.router, qwen.params.router);
    let mixtral = spec_with(
        MIXTRAL,
        fp8(json!(["lm_head", "re:.*block_sparse_moe.gate"])),
    );
    assert_eq!(mixtral.quantized_params.router, 0);
    assert_eq!(
        mixtral.quantized_params.routed_experts,
        mixtral.params.routed_experts
    );
    // Mixtral's experts are `w1`/`w2`/`w3`: one named expert kept aside.
    let one = spec_with(
        MIXTRAL,
        fp8(json!([
            "lm_head",
            "re:.*block_sparse_moe.gate",
            "model.layers.0.block_sparse_moe.experts.3.w2"
        ])),
    );
    assert_eq!(
        mixtral.quantized_params.routed_experts - one.quantized_params.routed_experts,
        4096 * 14336
    );
}

/// AutoAWQ converts every linear of a decoder layer except substrings of
/// `modules_to_not_convert` (Mixtral lists `"gate"`); GPTQ never converts
/// routers, nor the head unless `lm_head: true`.
#[test]
fn awq_and_gptq_module_selection() {
    let awq = |skip: Value| {
        spec_with(
            MIXTRAL,
            json!({"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm",
                "zero_point": true, "modules_to_not_convert": skip}),
        )
    };
    let kept = awq(json!(["gate"]));
    assert_eq!(kept.quantized_params.router, 0);
    assert_eq!(kept.quantized_params.attention, kept.params.attention);
    let converted = awq(Value::Null);
    assert_eq!(converted.quantized_params.router, converted.params.router);
    let gptq = |extra: Value| {
        let mut q = json!({"quant_method": "gptq", "bits": 4, "group_size": 128,
            "desc_act": false, "sym": true, "checkpoint_format": "gptq"});
        for (k, v) in extra.as_object().unwrap() {
            q[k] = v.clone();
        }
        spec_with(MIXTRAL, q)
    };
    let g = gptq(json!({}));
    assert_eq!(
        (g.quantized_params.router, g.quantized_params.lm_head),
        (0, 0)
    );
    assert!(matches!(
        g.quantization.unwrap().scheme,
        QuantScheme::Gptq {
            zero_bias: false,
            ..
        }
    ));
    let g = gptq(json!({"lm_head": true}));
    assert_eq!(g.quantized_params.lm_head, g.params.lm_head);
    // GPTQModel `dynamic` negative rules keep matching modules aside.
    let g = gptq(json!({"dynamic": {"-:model\\.layers\\.0\\..*": {}}}));
    let full = gptq(json!({}));
    assert!(g.quantized_params.attention < full.quantized_params.attention);
    let err = parse_config(&with_quant(
        MIXTRAL,
        json!({"quant_method": "gptq", "bits": 4, "dynamic": {"+:.*down_proj": {"bits": 8}}}),
    ))
    .unwrap_err();
    assert!(matches!(err.kind, ConfigErrorKind::Unsupported { .. }));
}

/// AutoFP8 per-tensor FP8 with static activations: an fp32 weight scale and
/// an fp32 input scale per linear; the head stays at the checkpoint dtype.
#[test]
fn per_tensor_fp8_with_static_input_scales() {
    let s = spec_with(
        LLAMA_3_1_8B,
        json!({"quant_method": "fp8", "activation_scheme": "static", "ignored_layers": ["lm_head"]}),
    );
    assert_eq!(
        s.checkpoint.bytes,
        llama_sum(|r, c| r * c + 8) + 2 * LLAMA_PLAIN
    );
}

/// NVIDIA ModelOpt NVFP4 in hf_quant_config.json's shape, with FP8 KV
/// scales (two fp32 scalars per attention layer).
#[test]
fn modelopt_nvfp4_with_kv_scales() {
    let s = spec_with(
        LLAMA_3_1_8B,
        json!({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4",
            "kv_cache_quant_algo": "FP8", "group_size": 16, "exclude_modules": ["lm_head"]}}),
    );
    let linear = llama_sum(|r, c| r * c / 2 + r * c / 16 + 8);
    assert_eq!(s.checkpoint.bytes, linear + 2 * LLAMA_PLAIN + 32 * 8);
}

#[test]
fn bitsandbytes_8bit_and_skip_modules() {
    let s = spec_with(
        LLAMA_3_1_8B,
        json!({"quant_method": "bitsandbytes", "load_in_8bit": true,
            "llm_int8_skip_modules": ["model.layers.0.mlp"]}),
    );
    let mlp0 = 3 * 14336 * 4096;
    assert_eq!(s.quantized_params.dense_mlp, s.params.dense_mlp - mlp0);
    assert_eq!(s.quantized_params.lm_head, 0);
}

#[test]
fn unknown_and_unsized_methods_are_refused_by_name() {
    for method in [
        "hqq",
        "torchao",
        "aqlm",
        "quanto",
        "bitnet",
        "something_new",
    ] {
        let err =
            parse_config(&with_quant(LLAMA_3_1_8B, json!({"quant_method": method}))).unwrap_err();
        match err.kind {
            ConfigErrorKind::Unsupported { reason } => assert!(reason.contains(method), "{reason}"),
            other => panic!("{method}: {other:?}"),
        }
    }
    let marlin = json!({"quant_method": "gptq", "bits": 4, "checkpoint_format": "marlin"});
    assert!(parse_config(&with_quant(LLAMA_3_1_8B, marlin)).is_err());
    let sparse = json!({"quant_method": "compressed-tensors", "format": "marlin-24",
        "config_groups": {"g": {"targets": ["Linear"], "weights": {"num_bits": 4}}}});
    assert!(parse_config(&with_quant(LLAMA_3_1_8B, sparse)).is_err());
    let lookahead = json!({"quant_method": "compressed-tensors", "ignore": ["re:(?!x).*"],
        "config_groups": {"g": {"targets": ["Linear"], "weights": {"num_bits": 8}}}});
    assert!(parse_config(&with_quant(LLAMA_3_1_8B, lookahead)).is_err());
}

/// A per-expert exclusion in a transformers list applies to that expert
/// only (Qwen3's FP8 list names modules one by one).
#[test]
fn module_lists_can_single_out_one_expert() {
    let mut config: Value = serde_json::from_str(QWEN3_30B_FP8).unwrap();
    let list = config["quantization_config"]["modules_to_not_convert"]
        .as_array_mut()
        .unwrap();
    list.push(json!("model.layers.5.mlp.experts.17.down_proj"));
    let one = parse_config(&config.to_string()).unwrap();
    let all = parse_config(QWEN3_30B_FP8).unwrap();
    assert_eq!(
        all.quantized_params.routed_experts - one.quantized_params.routed_experts,
        2048 * 768
    );
}
