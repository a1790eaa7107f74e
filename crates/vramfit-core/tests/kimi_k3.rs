//! Kimi-K3 (`kimi_k3`: a `kimi_linear` text model with attention
//! residuals, a gated MLA output, a full-rank KDA gate and latent experts,
//! and the MoonViT3d vision tower), counted tensor by tensor from SGLang's
//! `models/kimi_k3.py` and `models/kimi_k3_vl.py`. The published figure is
//! the model card's "2.8T" (vllm-project/recipes `Kimi-K3.yaml`); no exact
//! count has been published.

mod support;

use support::{fixture, read, Published, B};
use vramfit_core::model::{
    parse_config, AttentionKind, ConfigErrorKind, Family, Includes, ModelSpec, Reading,
};

const FILE: &str = "moonshotai__Kimi-K3.json";

// The config's sizes (text_config, linear_attn_config).
const H: u64 = 7168;
const V: u64 = 163_840;
const LAYERS: u64 = 93;
const KDA: u64 = 69;
const MLA: u64 = 24;
const MOE: u64 = 92;
const HEADS: u64 = 96;
const E: u64 = 896;
const TOP_K: u64 = 16;
const I_E: u64 = 3072;
const R: u64 = 3584;
const SHARED: u64 = 2 * I_E;
const DENSE: u64 = 33_792;
// KDA: 96 heads of 128, 4-tap convolutions.
const KH: u64 = 96;
const KD: u64 = 128;
const CONV: u64 = 4;
// MLA: q_lora_rank, kv_lora_rank, nope, rope, v.
const RQ: u64 = 1536;
const RKV: u64 = 512;
const NOPE: u64 = 128;
const ROPE: u64 = 64;
const DV: u64 = 128;

fn kda_layer() -> u64 {
    let w = KH * KD;
    // q, k, v; their convolutions; f_a, f_b; b; full-rank g; A_log [d];
    // dt_bias; o_norm; o.
    3 * w * H + 3 * w * CONV + KD * H + w * KD + KH * H + w * H + KD + w + KD + H * w
}

fn mla_layer() -> u64 {
    // q_a, q_a_layernorm, q_b, kv_a (latent + rope key), kv_a_layernorm,
    // kv_b, o, the output gate g.
    RQ * H
        + RQ
        + HEADS * (NOPE + ROPE) * RQ
        + (RKV + ROPE) * H
        + RKV
        + HEADS * (NOPE + DV) * RKV
        + H * HEADS * DV
        + HEADS * DV * H
}

fn expert() -> u64 {
    // w1, w3 (I_e × r) and w2 (r × I_e): experts work in the latent width.
    3 * I_E * R
}

fn moe_block() -> u64 {
    // Router E×H and its correction bias; experts; shared experts (2 × I_e
    // wide, in H); the latent down projection, norm and up projection.
    E * H + E + E * expert() + 3 * SHARED * H + R * H + R + H * R
}

fn text_total() -> u64 {
    // Per layer: two layer norms and the attention residuals (two norms,
    // two 1×H score projections).
    let per_layer = 2 * H + 4 * H;
    // Embedding, untied head, final norm, output-side residual norm and
    // projection.
    2 * V * H
        + 3 * H
        + LAYERS * per_layer
        + KDA * kda_layer()
        + MLA * mla_layer()
        + 3 * DENSE * H
        + MOE * moe_block()
}

fn edited(
    edit: impl FnOnce(&mut serde_json::Value),
) -> Result<ModelSpec, vramfit_core::model::ConfigError> {
    let mut c: serde_json::Value = serde_json::from_str(&fixture(FILE)).unwrap();
    edit(&mut c);
    parse_config(&c.to_string())
}

#[test]
fn kimi_k3_text_model_is_counted_tensor_by_tensor() {
    let s = read(FILE);
    assert_eq!((s.reading, s.family), (Reading::Exact, Family::KimiLinear));
    assert_eq!(s.model_type.as_deref(), Some("kimi_linear"));
    assert_eq!(kda_layer(), 443_740_416);
    assert_eq!(mla_layer(), 232_196_096);
    assert_eq!(moe_block(), 29_784_936_832);
    assert_eq!(s.params_total, text_total());
    assert_eq!(s.params_total, 2_779_484_478_208);
    // Active per token: the total less the 880 experts a token skips in
    // each of the 92 MoE layers (the input embedding counted, as for
    // Kimi-Linear).
    assert_eq!(s.params_active, text_total() - MOE * (E - TOP_K) * expert());
    assert_eq!(s.params_active, 105_364_019_968);
    let moe = s.moe.as_ref().unwrap();
    assert_eq!(
        (
            moe.latent,
            moe.moe_layers,
            moe.dense_layers,
            moe.shared_intermediate
        ),
        (Some(R), MOE, 1, SHARED)
    );
    assert_eq!(s.params.routed_experts, MOE * E * expert());
    // The model card's "2.8T", text model and with the tower.
    let card = Published::Rounded {
        value: 28,
        unit: 100 * B,
    };
    assert!(card.matches(s.params_total) && card.matches(s.checkpoint.params));
}

#[test]
fn kimi_k3_caches_mla_latents_and_a_kda_state_per_sequence() {
    let s = read(FILE);
    let mla = s
        .attention
        .iter()
        .filter(|k| matches!(k, AttentionKind::Mla { latent: 576 }))
        .count() as u64;
    // A KDA layer's state: 96 heads of 128 × 128, and the last 3 inputs of
    // the q, k and v convolutions.
    let state = KH * KD * KD + 3 * KH * KD * (CONV - 1);
    assert_eq!(state, 1_683_456);
    let kda = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::Linear { state })
        .count() as u64;
    assert_eq!((mla, kda), (MLA, KDA));
    // Per token only the 24 MLA layers grow: 512 + 64 elements at bf16.
    assert_eq!(s.kv_bytes_per_token(16_000), 2 * MLA * (RKV + ROPE));
    assert_eq!(s.kv_bytes_per_token(16_000), 27_648);
    for ctx in [1u64, 4096, 1_048_576] {
        assert_eq!(
            s.kv_cache_bytes(ctx, 1, 16_000),
            2 * (MLA * (RKV + ROPE) * ctx + KDA * state),
            "context {ctx}"
        );
    }
}

#[test]
fn kimi_k3_stores_only_the_routed_experts_in_mxfp4() {
    let s = read(FILE);
    // The ignore list keeps attention, shared experts, the dense MLP, the
    // head and the tower in bf16; the latent and residual projections are
    // built unquantized. Experts: two E2M1 values per byte and a uint8
    // scale per 32.
    let experts = s.params.routed_experts;
    assert_eq!(s.quantized_params.total(), experts);
    assert_eq!(s.published_bytes.routed_experts, experts / 2 + experts / 32);
    assert_eq!(
        s.published_weight_bytes(),
        experts / 2 + experts / 32 + 2 * (s.params_total - experts)
    );
}

#[test]
fn kimi_k3_counts_its_moonvit3d_tower_and_projector() {
    let s = read(FILE);
    let v = s.vision.as_ref().expect("tower counted");
    // Patch convolution 3·14²·1024 (no bias), 64 × 64 positions, 27 blocks
    // (two RMSNorms, wqkv 3·1536 × 1024, wo 1024 × 1536, fc0/fc1 4096 ↔
    // 1024, no biases), the final norm.
    let block = 2 * 1024 + 3 * 1536 * 1024 + 1024 * 1536 + 2 * 4096 * 1024;
    let encoder = 3 * 14 * 14 * 1024 + 64 * 64 * 1024 + 27 * block + 1024;
    // proj.0 4096 × 4096, proj.2 7168 × 4096, post_norm 7168.
    let projector = 4096 * 4096 + H * 4096 + H;
    assert_eq!((v.encoder_params, v.projector_params), (encoder, projector));
    assert_eq!(v.params, 447_358_976);
    assert_eq!(v.quantized_params, 0);
    assert_eq!(s.checkpoint.includes, Includes::TextModelAndVisionTower);
    assert_eq!(s.checkpoint.params, s.params_total + v.params);
    assert_eq!(s.checkpoint.params, 2_779_931_837_184);
}

#[test]
fn kimi_k3_parts_follow_their_keys() {
    let base = read(FILE);
    let delta = |spec: &ModelSpec| base.params_total - spec.params_total;
    let text = |key: &'static str, value: serde_json::Value| {
        edited(move |c| c["text_config"][key] = value).unwrap()
    };
    // No output gate: 24 × H_q·d_v × H fewer.
    let s = text("mla_use_output_gate", false.into());
    assert_eq!(delta(&s), MLA * HEADS * DV * H);
    // No attention residuals: 4H per layer and 2H at the output.
    let s = text("attn_res_block_size", serde_json::Value::Null);
    assert_eq!(delta(&s), LAYERS * 4 * H + 2 * H);
    // No latent norm: r per MoE layer.
    let s = text("latent_moe_use_norm", false.into());
    assert_eq!(delta(&s), MOE * R);
    // Low-rank KDA gates: g_a d×H and g_b h·d×d for g h·d×H.
    let s = edited(|c| c["text_config"]["linear_attn_config"]["use_full_rank_gate"] = false.into())
        .unwrap();
    assert_eq!(delta(&s), KDA * (KH * KD * H - KD * H - KH * KD * KD));
    // Without the latent width the experts read H and no projection
    // brackets them.
    let s = text("routed_expert_hidden_size", serde_json::Value::Null);
    assert_eq!(s.moe.as_ref().unwrap().latent, None);
    assert_eq!(
        s.params_total + MOE * (R * H + R + H * R),
        base.params_total + MOE * E * 3 * I_E * (H - R)
    );
}

#[test]
fn kimi_k3_layouts_sglang_does_not_build_are_refused_by_name() {
    // Value widths the two SGLang paths size differently.
    let e = edited(|c| c["text_config"]["v_head_dim"] = 64.into()).unwrap_err();
    assert!(
        matches!(e.kind, ConfigErrorKind::Contradictory { .. }),
        "{e}"
    );
    // Tower layouts the modelling code does not implement.
    for (key, value) in [
        ("merge_type", "sd2"),
        ("pos_emb_type", "learned"),
        ("mm_projector_type", "patchmerger"),
        ("norm_type", "batchnorm"),
    ] {
        let e = edited(|c| c["vision_config"][key] = value.into()).unwrap_err();
        assert!(
            matches!(e.kind, ConfigErrorKind::Unsupported { .. }),
            "{key}: {e}"
        );
        assert!(e.to_string().contains(key), "{e}");
    }
    // A projector ending at another width than the text model's.
    let e = edited(|c| c["vision_config"]["text_hidden_size"] = 4096.into()).unwrap_err();
    assert!(
        matches!(e.kind, ConfigErrorKind::Contradictory { .. }),
        "{e}"
    );
}

#[test]
fn kimi_k3_vision_with_layernorms_and_biases_counts_them() {
    let base = read(FILE).vision.unwrap();
    let v = edited(|c| {
        let vc = &mut c["vision_config"];
        vc["norm_type"] = "layernorm".into();
        vc["attn_bias"] = true.into();
        vc["linear_bias"] = true.into();
        vc["patch_embed_proj_bias"] = true.into();
    })
    .unwrap()
    .vision
    .unwrap();
    // Norm biases (2 per block + final), wqkv 3·1536 + wo 1024, fc0 4096 +
    // fc1 1024 per block, the convolution's 1024.
    let per_block = 2 * 1024 + 3 * 1536 + 1024 + 4096 + 1024;
    assert_eq!(v.params - base.params, 27 * per_block + 1024 + 1024);
}
