//! Kimi-VL (MoonViT), Idefics3 / SmolVLM, Llama 4,
//! InternVL (both layouts).

use super::encoders::{siglip, vit};
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;
use serde_json::Value;

/// Kimi-VL: MoonViT (biased patch convolution, a learned `height × width
/// × hidden` position grid, blocks of LayerNorms, biased `wqkv`/`wo` and
/// `mlp.fc0`/`fc1`, `final_layernorm`) and `KimiVLMultiModalProjector`
/// (`pre_norm` LayerNorm, `linear_1` square and `linear_2` to the text
/// width over the `merge_kernel_size` patches). Sources: vLLM
/// `models/moonvit.py`, `models/kimi_vl.py`.
pub(super) fn kimi_vl(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let h = v.hidden;
    let patch = cfg.need(&["patch_size"])?;
    let pos_h = cfg.need(&["init_pos_emb_height"])?;
    let pos_w = cfg.need(&["init_pos_emb_width"])?;
    let kernel = match super::kimi::merge_kernel(cfg)? {
        Some(k) => k,
        None => cfg.need(&["merge_kernel_size"])?,
    };
    let every = super::kimi::MoonVitBiases {
        patch: true,
        norm: true,
        attn: true,
        linear: true,
    };
    super::kimi::moonvit_encoder(&mut b, &v, h, (patch, pos_h, pos_w), every);
    b.projector = true;
    let wide = mul(&[h, kernel]);
    b.norm("multi_modal_projector.pre_norm", h, true);
    b.linear("multi_modal_projector.linear_1", wide, wide, true);
    b.linear("multi_modal_projector.linear_2", text, wide, true);
    Ok(tower(VisionKind::MoonVit, &v, b, None))
}

/// Idefics3 / SmolVLM: SigLIP-style encoder without pooling head
/// (`model.vision_model`) and the connector's unbiased `modality_projection.
/// proj` from `vision · scale_factor²` (default 2) to the text width.
/// Source: transformers `modeling_idefics3.py`, `modeling_smolvlm.py`.
pub(super) fn idefics3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = siglip(&mut b, cfg, "model.vision_model.", false)?;
    b.projector = true;
    let scale = cfg.outer_or("scale_factor", 2)?;
    b.linear(
        "model.connector.modality_projection.proj",
        text,
        mul(&[v.hidden, scale, scale]),
        false,
    );
    Ok(tower(VisionKind::Idefics3, &v, b, None))
}

/// Llama 4: `Llama4VisionModel` (an unbiased linear patch embedding,
/// class embedding, positions for patches and class token, pre/post
/// LayerNorms, layers of biased attention and MLP, the pixel-shuffle
/// adapter's two unbiased linears) and the unbiased
/// `multi_modal_projector.linear_1`. Source: transformers
/// `modeling_llama4.py`.
pub(super) fn llama4(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let proj_in = cfg.need(&["projector_input_dim"])?;
    let proj_out = cfg.need(&["projector_output_dim"])?;
    let vision_out = cfg.need(&["vision_output_dim"])?;
    let p = "vision_model.";
    b.linear(
        &format!("{p}patch_embedding.linear"),
        h,
        mul(&[v.channels, patch, patch]),
        false,
    );
    b.param(&format!("{p}class_embedding"), 1, h);
    b.param(
        &format!("{p}positional_embedding_vlm"),
        (image / patch.max(1)).pow(2) + 1,
        h,
    );
    b.norm(&format!("{p}layernorm_pre"), h, true);
    b.norm(&format!("{p}layernorm_post"), h, true);
    for l in 0..v.layers {
        let q = format!("{p}model.layers.{l}");
        for proj in ["q_proj", "k_proj", "v_proj", "o_proj"] {
            b.linear(&format!("{q}.self_attn.{proj}"), h, h, true);
        }
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.input_layernorm"), h, true);
        b.norm(&format!("{q}.post_attention_layernorm"), h, true);
    }
    b.linear(&format!("{p}vision_adapter.mlp.fc1"), proj_in, i, false);
    b.linear(
        &format!("{p}vision_adapter.mlp.fc2"),
        proj_out,
        proj_out,
        false,
    );
    b.projector = true;
    b.linear("multi_modal_projector.linear_1", text, vision_out, false);
    Ok(tower(VisionKind::Llama4, &v, b, None))
}

/// The InternVL projector input: vision width × (1 / `downsample_ratio`)².
fn internvl_shuffle(cfg: &Keys) -> u64 {
    match cfg.outer("downsample_ratio").and_then(Value::as_f64) {
        Some(r) if r > 0.0 && r <= 1.0 => (1.0 / r).round() as u64,
        _ => 2,
    }
}

/// InternVL in transformers' layout (`model_type: "internvl"`):
/// `InternVLVisionModel` (class token, optional mask token, biased patch
/// convolution, absolute positions, layers of q/k/v (biased when
/// `attention_bias`), optional q/k RMSNorms, `projection_layer`, CLIP MLP,
/// `layernorm_before`/`after` (LayerNorm or RMSNorm), layer scales
/// `lambda_1`/`lambda_2`; a final LayerNorm unless `use_mean_pooling`) and
/// `InternVLMultiModalProjector`. Defaults as in `InternVLVisionConfig`.
/// Source: transformers `modular_internvl.py`.
pub(super) fn internvl(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let (ih, iw) = cfg.need_pair("image_size")?;
    let (ph, pw) = cfg.need_pair("patch_size")?;
    let bias = cfg.flag("attention_bias", false)?;
    let qk_norm = cfg.flag("use_qk_norm", false)?;
    let layer_norm = cfg.text("norm_type")?.unwrap_or("layer_norm") == "layer_norm";
    let p = "vision_tower.";
    b.param(&format!("{p}embeddings.cls_token"), 1, h);
    if cfg.flag("use_mask_token", false)? {
        b.param(&format!("{p}embeddings.mask_token"), 1, h);
    }
    b.conv(
        &format!("{p}embeddings.patch_embeddings.projection"),
        h,
        v.channels,
        mul(&[ph, pw]),
        true,
    );
    if cfg.flag("use_absolute_position_embeddings", true)? {
        let patches = (ih / ph.max(1)) * (iw / pw.max(1));
        b.param(
            &format!("{p}embeddings.position_embeddings"),
            patches + 1,
            h,
        );
    }
    for l in 0..v.layers {
        let q = format!("{p}encoder.layer.{l}");
        for proj in ["q_proj", "k_proj", "v_proj"] {
            b.linear(&format!("{q}.attention.{proj}"), h, h, bias);
        }
        if qk_norm {
            b.norm(&format!("{q}.attention.q_norm"), h, false);
            b.norm(&format!("{q}.attention.k_norm"), h, false);
        }
        b.linear(&format!("{q}.attention.projection_layer"), h, h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.layernorm_before"), h, layer_norm);
        b.norm(&format!("{q}.layernorm_after"), h, layer_norm);
        b.param(&format!("{q}.lambda_1"), 1, h);
        b.param(&format!("{q}.lambda_2"), 1, h);
    }
    if !cfg.flag("use_mean_pooling", true)? {
        b.norm(&format!("{p}layernorm"), h, true);
    }
    b.projector = true;
    let s = internvl_shuffle(cfg);
    let wide = mul(&[h, s, s]);
    b.norm("multi_modal_projector.layer_norm", wide, true);
    b.linear("multi_modal_projector.linear_1", text, wide, true);
    b.linear("multi_modal_projector.linear_2", text, text, true);
    Ok(tower(VisionKind::InternVit, &v, b, None))
}

/// InternVL in its original layout (`model_type: "internvl_chat"`,
/// `InternVisionModel`): class embedding, biased patch convolution,
/// positions, layers of a fused `qkv` (biased when `qkv_bias`), optional
/// q/k RMSNorms (`qk_normalization`), biased `proj`, MLP, `norm1`/`norm2`
/// (`norm_type`, RMSNorm by default), layer scales `ls1`/`ls2`; projector
/// `mlp1` (LayerNorm, linear, GELU, linear). Source: OpenGVLab
/// `modeling_intern_vit.py`, `modeling_internvl_chat.py`.
pub(super) fn internvl_chat(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let qkv_bias = cfg.flag("qkv_bias", false)?;
    let qk_norm = cfg.flag("qk_normalization", false)?;
    let layer_norm = cfg.text("norm_type")?.unwrap_or("rms_norm") == "layer_norm";
    let p = "vision_model.";
    b.param(&format!("{p}embeddings.class_embedding"), 1, h);
    b.conv(
        &format!("{p}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        true,
    );
    b.param(
        &format!("{p}embeddings.position_embedding"),
        (image / patch.max(1)).pow(2) + 1,
        h,
    );
    for l in 0..v.layers {
        let q = format!("{p}encoder.layers.{l}");
        b.linear(&format!("{q}.attn.qkv"), 3 * h, h, qkv_bias);
        if qk_norm {
            b.norm(&format!("{q}.attn.q_norm"), h, false);
            b.norm(&format!("{q}.attn.k_norm"), h, false);
        }
        b.linear(&format!("{q}.attn.proj"), h, h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.norm1"), h, layer_norm);
        b.norm(&format!("{q}.norm2"), h, layer_norm);
        b.param(&format!("{q}.ls1"), 1, h);
        b.param(&format!("{q}.ls2"), 1, h);
    }
    b.projector = true;
    let s = internvl_shuffle(cfg);
    let wide = mul(&[h, s, s]);
    b.norm("mlp1.0", wide, true);
    b.linear("mlp1.1", text, wide, true);
    b.linear("mlp1.3", text, text, true);
    Ok(tower(VisionKind::InternVit, &v, b, None))
}
