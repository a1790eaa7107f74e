//! MiniMax-M3's text model (`minimax_m3`) against a count written out by
//! hand from vLLM's modelling code (`vllm/models/minimax_m3/nvidia/
//! model.py`, `nvidia/mtp.py`, `common/indexer.py`), on the config listed
//! in `tests/fixtures/SOURCES.md`. No published count of the text model
//! alone exists: the Hub's total (427.04B, as vLLM's recipe quotes it) is
//! the `minimax_m3_vl` checkpoint's, matched with its vision tower.

mod support;

use support::{fixture, read};
use vramfit_core::model::{
    parse_config, AttentionKind, ConfigErrorKind, Family, Includes, Reading,
};

const FILE: &str = "MiniMaxAI__MiniMax-M3.json";

// The config's sizes.
const H: u64 = 6144;
const LAYERS: u64 = 60;
const HEADS: u64 = 64;
const KV: u64 = 4;
const D: u64 = 128;
const VOCAB: u64 = 200_064;
const EXPERTS: u64 = 128;
const TOP_K: u64 = 4;
const WIDTH: u64 = 3072;
const DENSE: u64 = 12_288;
const INDEX_HEADS: u64 = 4;
const INDEX_DIM: u64 = 128;
const DENSE_LAYERS: u64 = 3;
const MOE_LAYERS: u64 = 57;
const SPARSE_LAYERS: u64 = 57;
const MTP: u64 = 7;

/// q, k, v, o and the per-head q/k norms of one layer.
const ATTENTION: u64 = HEADS * D * H + 2 * KV * D * H + H * HEADS * D + 2 * D;
/// index_q, the one shared index_k head and their norms.
const INDEXER: u64 = INDEX_HEADS * INDEX_DIM * H + INDEX_DIM * H + 2 * INDEX_DIM;
/// Experts (w1, w2, w3), the shared expert, the router and its score bias.
const MOE: u64 = EXPERTS * 3 * WIDTH * H + 3 * WIDTH * H + EXPERTS * H + EXPERTS;
const DENSE_MLP: u64 = 3 * DENSE * H;
/// input_layernorm and post_attention_layernorm.
const LAYER_NORMS: u64 = 2 * H;

#[test]
fn minimax_m3_text_model_is_counted_tensor_by_tensor() {
    let s = read(FILE);
    assert_eq!(s.reading, Reading::Exact);
    assert_eq!(s.family, Family::MiniMaxM3);
    let total = 2 * VOCAB * H
        + H
        + LAYERS * (ATTENTION + LAYER_NORMS)
        + SPARSE_LAYERS * INDEXER
        + DENSE_LAYERS * DENSE_MLP
        + MOE_LAYERS * MOE;
    assert_eq!(s.params_total, total);
    assert_eq!(s.params_total, 426_174_572_928);
    // The VL checkpoint's safetensors total, "427.04B" (vllm-project/
    // recipes MiniMax-M3.yaml): the text model leaves 0.87B for the vision
    // tower and projectors (counted in the VL test below), and no room
    // for the MTP modules (52B), which the BF16 files do not store.
    let hub = 427_040_000_000;
    assert!(s.params_total < hub && hub - s.params_total < 1_000_000_000);
    assert_eq!(s.params.total(), s.params_total);
    // The decoder layers a token runs through: 4 of 128 experts, no
    // embedding and no head (MiniMax's convention; with both, 25.96B: the
    // recipe's "≈ 25.9B per token").
    let active = total - 2 * VOCAB * H - MOE_LAYERS * (EXPERTS - TOP_K) * 3 * WIDTH * H;
    assert_eq!(s.params_active, active);
    assert_eq!(s.params_active, 23_504_087_424);
    // Seven MTP modules, each enorm, hnorm, eh_proj (2H → H), a sparse MoE
    // decoder layer and a final norm.
    let module = 3 * H + 2 * H * H + ATTENTION + INDEXER + LAYER_NORMS + MOE;
    assert_eq!(s.mtp_params, MTP * module);
    let moe = s.moe.as_ref().expect("experts");
    assert_eq!(
        (moe.moe_layers, moe.dense_layers),
        (MOE_LAYERS, DENSE_LAYERS)
    );
    assert!(moe.score_bias);
    assert_eq!(moe.shared_intermediate, WIDTH);
}

#[test]
fn minimax_m3_sparse_layers_cache_the_indexer_key_beside_k_and_v() {
    let s = read(FILE);
    let indexed = AttentionKind::Indexed { index: INDEX_DIM };
    assert_eq!(&s.attention[..3], &[AttentionKind::Full; 3]);
    assert!(s.attention[3..].iter().all(|k| *k == indexed));
    // Per token: K and V of 4 heads of 128 in every layer, and one index
    // key of 128 in the 57 sparse layers, at 2 bytes (bf16).
    let per_token = (LAYERS * KV * 2 * D + SPARSE_LAYERS * INDEX_DIM) * 2;
    assert_eq!(per_token, 137_472);
    assert_eq!(s.kv_bytes_per_token(16_000), per_token);
    assert_eq!(
        s.kv_cache_bytes(100_000, 3, 16_000),
        per_token * 100_000 * 3
    );
}

fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(&fixture(FILE)).unwrap();
    edit(&mut c);
    c.to_string()
}

#[test]
fn minimax_m3_branches_vllm_does_not_build_are_refused_by_name() {
    let cases: Vec<(String, &str)> = vec![
        (
            edited(|c| c["qk_norm_type"] = "per_layer".into()),
            "qk_norm_type",
        ),
        (
            edited(|c| c["attention_output_gate"] = true.into()),
            "attention_output_gate",
        ),
        (edited(|c| c["hidden_act"] = "silu".into()), "hidden_act"),
        (
            edited(|c| c["sparse_attention_config"]["sparse_disable_index_value"][10] = 0.into()),
            "sparse_disable_index_value",
        ),
        (
            edited(|c| c["sparse_attention_config"]["sparse_num_index_heads"] = 8.into()),
            "sparse_num_index_heads",
        ),
        (
            edited(|c| c["shared_intermediate_size"] = 6144.into()),
            "shared_intermediate_size",
        ),
        (
            edited(|c| {
                c["moe_layer_freq"].as_array_mut().unwrap().pop();
            }),
            "moe_layer_freq",
        ),
    ];
    for (text, key) in cases {
        let e = parse_config(&text).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
}

#[test]
fn minimax_m3_without_sparse_layers_is_plain_gqa() {
    let text = edited(|c| {
        c.as_object_mut().unwrap().remove("sparse_attention_config");
        c["num_mtp_modules"] = 0.into();
    });
    let s = parse_config(&text).unwrap();
    assert!(s.attention.iter().all(|k| *k == AttentionKind::Full));
    assert_eq!(s.kv_bytes_per_token(16_000), LAYERS * KV * 2 * D * 2);
    assert_eq!(
        s.params_total,
        read(FILE).params_total - SPARSE_LAYERS * INDEXER
    );
    assert_eq!(s.mtp_params, 0);
    // MTP modules need the sparse layers' indexer sizes.
    let text = edited(|c| {
        c.as_object_mut().unwrap().remove("sparse_attention_config");
    });
    let e = parse_config(&text).unwrap_err();
    assert!(matches!(e.kind, ConfigErrorKind::MissingKeys { .. }), "{e}");
}

/// The Hub checkpoint's own config (`minimax_m3_vl`): the same text
/// model under `text_config`, and the vision tower vLLM builds
/// (`vllm/models/minimax_m3/common/vision_tower.py`), counted tensor by
/// tensor.
const VL_FILE: &str = "MiniMaxAI__MiniMax-M3-VL.json";

fn vl_fixture() -> String {
    let path = format!(
        "{}/tests/fixtures/vision/{VL_FILE}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_vl() -> vramfit_core::model::ModelSpec {
    parse_config(&vl_fixture()).unwrap_or_else(|e| panic!("{VL_FILE}: {e}"))
}

// The VL config's vision sizes.
const VH: u64 = 1280;
const VI: u64 = 5120;
const VL: u64 = 32;
const PATCH: u64 = 14;
const TEMPORAL: u64 = 2;
const MERGE: u64 = 2;

#[test]
fn minimax_m3_vl_counts_the_tower_and_matches_the_checkpoint() {
    let s = read_vl();
    assert_eq!(s.reading, Reading::Exact);
    let text = read(FILE);
    // Conv3d patch embedding (no bias), pre_layrnorm, CLIP-style layers
    // (LayerNorms, biased q/k/v/out, fc1, fc2); no position table and no
    // post_layernorm.
    let layer = 4 * VH + 4 * (VH * VH + VH) + (VI * VH + VI) + (VH * VI + VH);
    let encoder = VH * 3 * TEMPORAL * PATCH * PATCH + 2 * VH + VL * layer;
    // multi_modal_projector (1280 → 6144 → 6144) and patch_merge_mlp
    // (2 × 2 merged 6144-wide tokens → 6144 → 6144), all biased.
    let projector = (H * VH + H) + (H * H + H) + (H * MERGE * MERGE * H + H) + (H * H + H);
    let v = s.vision.as_ref().expect("vision tower counted");
    assert_eq!((v.encoder_params, v.projector_params), (encoder, projector));
    assert_eq!(v.params, 865_567_232);
    assert_eq!(s.params_total, text.params_total);
    assert_eq!(s.checkpoint.includes, Includes::TextModelAndVisionTower);
    assert_eq!(s.checkpoint.params, text.params_total + v.params);
    // The checkpoint's safetensors total as a public weight report of
    // MiniMaxAI/MiniMax-M3 lists it (23,416 tensors, "427,040,140,160"),
    // the Hub's 427.04B: to the parameter.
    assert_eq!(s.checkpoint.params, 427_040_140_160);
    // The tower adds no cache; the text model's KV per token is unchanged.
    assert_eq!(
        s.kv_bytes_per_token(16_000),
        text.kv_bytes_per_token(16_000)
    );
    assert_eq!(s.mtp_params, text.mtp_params);
}

#[test]
fn minimax_m3_vl_projector_keys_are_read() {
    let edited_vl = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut c: serde_json::Value = serde_json::from_str(&vl_fixture()).unwrap();
        edit(&mut c);
        parse_config(&c.to_string()).unwrap().vision.unwrap()
    };
    let base = read_vl().vision.unwrap();
    // Without biases: six bias vectors of the text width fewer.
    let no_bias = edited_vl(&|c| {
        c["multimodal_projector_bias"] = false.into();
        c["patch_merge_bias"] = false.into();
    });
    assert_eq!(base.params - no_bias.params, 4 * H);
    // A narrower projector hidden size narrows both MLPs.
    let narrow = edited_vl(&|c| c["projector_hidden_size"] = 4096.into());
    let mid = 4096;
    let expected =
        (mid * VH + mid) + (H * mid + H) + (mid * MERGE * MERGE * H + mid) + (H * mid + H);
    assert_eq!(narrow.projector_params, expected);
    // A temporal patch of 4 doubles the patch embedding.
    let t4 = edited_vl(&|c| {
        c["vision_config"]["img_token_compression_config"]["temporal_patch_size"] = 4.into()
    });
    assert_eq!(
        t4.encoder_params - base.encoder_params,
        VH * 3 * 2 * PATCH * PATCH
    );
}

#[test]
fn minimax_m3_vl_without_vision_config_is_flagged() {
    let text = serde_json::json!({
        "model_type": "minimax_m3_vl",
        "architectures": ["MiniMaxM3SparseForConditionalGeneration"],
        "text_config": serde_json::from_str::<serde_json::Value>(&fixture(FILE)).unwrap(),
    })
    .to_string();
    let s = parse_config(&text).unwrap();
    assert_eq!(
        s.checkpoint.includes,
        Includes::TextModelOnlyVisionNotCounted
    );
    assert!(s.vision_not_counted.unwrap().contains("minimax_m3_vl"));
}
