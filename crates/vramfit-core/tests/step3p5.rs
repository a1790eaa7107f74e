//! Step-3.5's text model (`step3p5`, Step-3.7-Flash's `text_config`)
//! against a count written out by hand from vLLM's modelling code
//! (`vllm/model_executor/models/step3p5.py`, `step3p5_mtp.py`), on a
//! config reconstructed from published facts of the checkpoint (its
//! sources in `tests/fixtures/SOURCES.md`: no byte copy of the file is
//! public in the index). No published count of the text model alone
//! exists to compare with; the rounded "196B" others list for
//! Step-3.7-Flash is checked only as a bound.

mod support;

use support::{fixture, read};
use vramfit_core::model::{
    parse_config, AttentionKind, ConfigErrorKind, Family, Reading, VisionKind,
};

const FILE: &str = "stepfun-ai__Step-3.7-Flash.text.reconstructed.json";

// The config's sizes.
const H: u64 = 4096;
const LAYERS: u64 = 45;
const FULL_HEADS: u64 = 64;
const SLIDING_HEADS: u64 = 96;
const KV: u64 = 8;
const D: u64 = 128;
const VOCAB: u64 = 128_896;
const DENSE: u64 = 11_264;
const EXPERTS: u64 = 288;
const TOP_K: u64 = 8;
const WIDTH: u64 = 1280;
const SHARED: u64 = 1280;
const WINDOW: u64 = 512;
/// Layers 0, 4, …, 44 are full attention; the other 33 slide.
const FULL_LAYERS: u64 = 12;
const SLIDING_LAYERS: u64 = 33;
/// `moe_layers_enum` lists 3..=44.
const DENSE_LAYERS: u64 = 3;
const MOE_LAYERS: u64 = 42;

/// One layer's attention with `n` query heads (`Step3p5Attention`):
/// q `n·d×H`, k and v `H_kv·d×H` each, o `H×n·d`, the head-wise gate
/// g_proj `n×H`, and q_norm, k_norm of `d` each (GemmaRMSNorm).
const fn attention(n: u64) -> u64 {
    n * D * H + 2 * KV * D * H + H * n * D + n * H + 2 * D
}
/// `FusedMoEBlock`: experts (gate, up, down) of `WIDTH`, the shared expert
/// (`share_expert`, `SHARED` wide), the fp32 router gate `E×H` and
/// `router_bias` `E`.
const MOE: u64 = EXPERTS * 3 * WIDTH * H + 3 * SHARED * H + EXPERTS * H + EXPERTS;
/// `Step3p5MLP` gate_up and down, no biases.
const DENSE_MLP: u64 = 3 * DENSE * H;
/// input_layernorm and post_attention_layernorm.
const LAYER_NORMS: u64 = 2 * H;

#[test]
fn step3p5_text_model_is_counted_tensor_by_tensor() {
    let s = read(FILE);
    assert_eq!(s.reading, Reading::Exact);
    assert_eq!(s.family, Family::Step3p7);
    // Embedding and the untied head, the final norm, the layers.
    let total = 2 * VOCAB * H
        + H
        + FULL_LAYERS * attention(FULL_HEADS)
        + SLIDING_LAYERS * attention(SLIDING_HEADS)
        + LAYERS * LAYER_NORMS
        + DENSE_LAYERS * DENSE_MLP
        + MOE_LAYERS * MOE;
    assert_eq!(s.params_total, total);
    assert_eq!(s.params_total, 196_956_130_368);
    // The rounded figure listed for Step-3.7-Flash ("196B total", as
    // StepFun states it for the model): within 1 %.
    assert!(s.params_total.abs_diff(196_000_000_000) < 1_960_000_000);
    assert_eq!(s.params.total(), s.params_total);
    // A token runs through 8 of the 288 experts of each MoE layer.
    let active = total - MOE_LAYERS * (EXPERTS - TOP_K) * 3 * WIDTH * H;
    assert_eq!(s.params_active, active);
    assert_eq!(s.params_active, 11_987_323_968);
    assert_eq!(s.mtp_params, 0);
    let moe = s.moe.as_ref().expect("experts");
    assert_eq!(
        (moe.moe_layers, moe.dense_layers),
        (MOE_LAYERS, DENSE_LAYERS)
    );
    assert!(moe.score_bias);
    assert_eq!(moe.shared_intermediate, SHARED);
}

#[test]
fn step3p5_sliding_layers_cache_a_window_full_layers_the_context() {
    let s = read(FILE);
    let sliding = AttentionKind::SlidingWindow { window: WINDOW };
    for (i, k) in s.attention.iter().enumerate() {
        let want = if i % 4 == 0 {
            AttentionKind::Full
        } else {
            sliding
        };
        assert_eq!(*k, want, "layer {i}");
    }
    // Every layer caches K and V of 8 heads of 128 (bf16) per token, the
    // sliding ones for their last 512 tokens only.
    let entry = KV * 2 * D * 2;
    assert_eq!(s.kv_bytes_per_token(16_000), LAYERS * entry);
    assert_eq!(
        s.kv_cache_bytes(32_768, 1, 16_000),
        (FULL_LAYERS * 32_768 + SLIDING_LAYERS * WINDOW) * entry
    );
}

fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(&fixture(FILE)).unwrap();
    edit(&mut c);
    c.to_string()
}

#[test]
fn step3p5_mtp_layers_are_the_layers_after_the_model() {
    // Three MTP steps, layers 45 (full), 46 and 47 (sliding) of a
    // 48-entry layer_types: each enorm, hnorm, eh_proj (2H → H), a shared
    // head (norm and a V×H head of its own) and a decoder layer with a
    // dense MLP (moe_layers_enum does not list 45..47).
    let text = edited(|c| {
        c["num_nextn_predict_layers"] = 3.into();
        let t = c["layer_types"].as_array_mut().unwrap();
        t.extend(["full_attention", "sliding_attention", "sliding_attention"].map(Into::into));
    });
    let s = parse_config(&text).unwrap();
    let step = 3 * H + 2 * H * H + VOCAB * H + LAYER_NORMS + DENSE_MLP;
    assert_eq!(
        s.mtp_params,
        3 * step + attention(FULL_HEADS) + 2 * attention(SLIDING_HEADS)
    );
    assert_eq!(s.params_total, read(FILE).params_total);
    // Without the entries vLLM reads for the MTP layers: refused by name.
    let text = edited(|c| c["num_nextn_predict_layers"] = 3.into());
    let e = parse_config(&text).unwrap_err();
    assert!(e.to_string().contains("layer_types[45]"), "{e}");
}

#[test]
fn step3p5_branches_vllm_does_not_build_are_refused_by_name() {
    let cases: Vec<(String, &str)> = vec![
        (
            edited(|c| c["att_impl_type"] = "MLA".into()),
            "att_impl_type",
        ),
        (
            edited(|c| c["use_moe_router_bias"] = false.into()),
            "use_moe_router_bias",
        ),
        (
            edited(|c| c["tie_word_embeddings"] = true.into()),
            "tie_word_embeddings",
        ),
        (
            edited(|c| c["num_attention_groups"] = 1.into()),
            "num_attention_groups",
        ),
        (
            edited(|c| c["layer_types"][1] = "linear_attention".into()),
            "linear_attention",
        ),
        (
            edited(|c| c["moe_layers_enum"] = "3,4,45".into()),
            "moe_layers_enum",
        ),
        (
            edited(|c| {
                c["attention_other_setting"]
                    .as_object_mut()
                    .unwrap()
                    .remove("head_dim");
            }),
            "attention_other_setting.head_dim",
        ),
        (
            edited(|c| {
                c.as_object_mut().unwrap().remove("share_expert_dim");
            }),
            "share_expert_dim",
        ),
    ];
    for (text, key) in cases {
        let e = parse_config(&text).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
}

#[test]
fn step3p5_without_the_gate_or_the_other_setting() {
    // No head-wise gate: g_proj gone from every layer.
    let text = edited(|c| c["use_head_wise_attn_gate"] = false.into());
    let s = parse_config(&text).unwrap();
    let gates = FULL_LAYERS * FULL_HEADS * H + SLIDING_LAYERS * SLIDING_HEADS * H;
    assert_eq!(s.params_total, read(FILE).params_total - gates);
    // No attention_other_setting: every layer has the model's 64 heads.
    let text = edited(|c| {
        c.as_object_mut().unwrap().remove("attention_other_setting");
    });
    let s = parse_config(&text).unwrap();
    let fewer = SLIDING_LAYERS * (attention(SLIDING_HEADS) - attention(FULL_HEADS));
    assert_eq!(s.params_total, read(FILE).params_total - fewer);
    // Without layer_types the even layers slide (vLLM's default).
    let text = edited(|c| {
        c.as_object_mut().unwrap().remove("layer_types");
    });
    let s = parse_config(&text).unwrap();
    assert!(matches!(
        s.attention[0],
        AttentionKind::SlidingWindow { .. }
    ));
    assert_eq!(s.attention[1], AttentionKind::Full);
    let e = parse_config(&edited(|c| {
        c.as_object_mut().unwrap().remove("moe_num_experts");
    }))
    .unwrap_err();
    assert!(matches!(e.kind, ConfigErrorKind::MissingKeys { .. }), "{e}");
}

#[test]
fn step3p5_fp8_export_is_read_as_block_wise_fp8() {
    // StepFun's FP8 export is block-wise FP8 (E4M3 weights, one fp32
    // `weight_scale_inv` per 128 × 128 block), stated the way vLLM's `fp8`
    // method reads it. The exact export's `quantization_config` is not in
    // the index; this is the scheme, not a copy of that file.
    let text = edited(|c| {
        c["quantization_config"] = serde_json::json!({
            "quant_method": "fp8",
            "fmt": "e4m3",
            "activation_scheme": "dynamic",
            "weight_block_size": [128, 128],
        });
    });
    let s = parse_config(&text).unwrap();
    assert!(s.quantization.is_some());
    assert_eq!(s.params_total, read(FILE).params_total);
    let experts = s.params.routed_experts;
    assert_eq!(experts, MOE_LAYERS * EXPERTS * 3 * WIDTH * H);
    assert_eq!(s.quantized_params.routed_experts, experts);
    // gate and up 1280 × 4096, down 4096 × 1280: 10 × 32 blocks each.
    let blocks = MOE_LAYERS * EXPERTS * 3 * (WIDTH / 128) * (H / 128);
    assert_eq!(s.published_bytes.routed_experts, experts + 4 * blocks);
    // A method vramfit does not know is refused by its name.
    let text = edited(|c| c["quantization_config"] = serde_json::json!({"quant_method": "step_q"}));
    let e = parse_config(&text).unwrap_err();
    assert!(e.to_string().contains("step_q"), "{e}");
}

/// Step-3.7-Flash as its checkpoint nests it: the text model above in
/// `text_config` and a `vision_config` under the legacy keys the
/// checkpoint uses (`width`, `layers`, `heads`, as transformers'
/// `Step3p7VisionConfig.attribute_map` and mlx-vlm's loader read them),
/// with the values transformers documents for stepfun-ai/Step-3.7-Flash
/// (its class defaults: 1536, 47, 16, image 728, patch 14). Reconstructed,
/// like the text model: no byte copy of the file is in the index.
fn step3p7(vision: serde_json::Value) -> String {
    serde_json::json!({
        "architectures": ["Step3p7ForConditionalGeneration"],
        "model_type": "step3p7",
        "text_config": serde_json::from_str::<serde_json::Value>(&fixture(FILE)).unwrap(),
        "vision_config": vision,
    })
    .to_string()
}

#[test]
fn step3p7_counts_its_perception_encoder_and_projector() {
    let text = step3p7(serde_json::json!({
        "width": 1536, "layers": 47, "heads": 16, "image_size": 728, "patch_size": 14,
        "hidden_act": "quick_gelu", "use_cls_token": false, "use_ln_post": false,
        "ls_init_value": 0.1,
    }));
    let s = parse_config(&text).unwrap();
    assert_eq!(s.params_total, read(FILE).params_total);
    let v = s.vision.as_ref().expect("vision tower");
    assert_eq!(v.kind, VisionKind::StepPerception);
    let (d, layers, i, p, grid) = (1536u64, 47u64, 8960u64, 14u64, 728u64 / 14);
    let block = 4 * d // ln_1, ln_2
        + 3 * d * d + 3 * d // attn.in_proj
        + d * d + d // attn.out_proj
        + i * d + i + d * i + d // mlp.c_fc, mlp.c_proj
        + 2 * d; // ls_1, ls_2
    let encoder = d * 3 * p * p // conv1, no bias
        + grid * grid * d // positional_embedding
        + 2 * d // ln_pre
        + layers * block
        + (2 * d * d * 9 + 2 * d) // vit_downsampler1
        + (4 * d * 2 * d * 9 + 4 * d); // vit_downsampler2
    assert_eq!(v.encoder_params, encoder);
    assert_eq!(v.encoder_params, 1_955_848_960);
    // vit_large_projector: 4d → 4096, no bias (projector_bias false).
    assert_eq!(v.projector_params, 4 * d * H);
    assert_eq!(s.checkpoint.params, 198_937_145_152);
    assert_eq!(s.checkpoint.params, s.params_total + encoder + 4 * d * H);
    // transformers' own spelling reads the same.
    let text = step3p7(serde_json::json!({
        "hidden_size": 1536, "num_hidden_layers": 47, "num_attention_heads": 16,
        "image_size": 728, "patch_size": 14, "mlp_ratio": 8960.0 / 1536.0,
    }));
    assert_eq!(
        parse_config(&text).unwrap().checkpoint.params,
        198_937_145_152
    );
    // A class token or a final norm, which transformers does not build:
    // refused by name.
    for key in ["use_cls_token", "use_ln_post"] {
        let e = parse_config(&step3p7(serde_json::json!({ key: true }))).unwrap_err();
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
}

/// vLLM on Step-3.7-Flash: its Perception Encoder weighs in whole on each
/// of 4 H200s (vramfit does not know how vLLM shards that tower), and the
/// note says its dummy-image profile is left out, rather than that the
/// tower is not counted.
#[test]
fn step3p7_on_vllm_counts_the_tower_and_says_the_profile_is_not() {
    use vramfit_core::methods::engine::{EngineNote, EngineReport};
    use vramfit_core::methods::{self, MethodId};
    use vramfit_core::scenario::{ModelRef, ScenarioInput};
    let config = step3p7(serde_json::json!({"width": 1536, "layers": 47, "heads": 16}));
    let run = |config: String| {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Config(config)),
            gpus: 4,
            context: 32_768,
            ..ScenarioInput::default()
        };
        input.set_gpu("H200");
        let r = methods::run(MethodId::Vllm, &input.validate().unwrap()).unwrap();
        match r.engine {
            Some(EngineReport::Vllm(v)) => v,
            other => panic!("{other:?}"),
        }
    };
    let with = run(config);
    let without = run(fixture(FILE));
    assert!(with.notes.contains(&EngineNote::VisionProfileNotCounted));
    assert!(!with.notes.contains(&EngineNote::VisionTowerNotCounted));
    // The tower and projector at 2 bytes, whole on the rank.
    let tower = 1_981_014_784u64 * 2;
    assert!(with.weights_bytes >= without.weights_bytes + tower);
    assert!(with.weights_bytes - without.weights_bytes < tower + (1 << 22));
}
