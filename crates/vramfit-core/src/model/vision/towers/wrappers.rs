//! Wrappers around a shared encoder: Gemma 3, LLaVA (1.5, NeXT,
//! OneVision), Mistral 3.

use super::encoders::{clip, pixtral, siglip, siglip_at};
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;
use serde_json::Value;

/// Gemma 3: SigLIP (`vision_tower.vision_model`) and
/// `Gemma3MultiModalProjector`: `mm_input_projection_weight` (vision ×
/// text, a parameter) and `mm_soft_emb_norm` (RMSNorm of the vision
/// width); `mm_tokens_per_image` (256) tokens per image. Source:
/// transformers `modeling_gemma3.py`.
pub(super) fn gemma3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = siglip(&mut b, cfg, "vision_tower.vision_model.", true)?;
    b.projector = true;
    b.param(
        "multi_modal_projector.mm_input_projection_weight",
        v.hidden,
        text,
    );
    b.norm("multi_modal_projector.mm_soft_emb_norm", v.hidden, false);
    let tokens = cfg.outer_or("mm_tokens_per_image", 256)?;
    Ok(tower(VisionKind::Siglip, &v, b, Some(tokens)))
}

/// PaliGemma (1 and 2): SigLIP (`vision_tower.vision_model`; its pooling
/// head only where `vision_use_head` asks for it, false in Google's
/// configs), images of `image_size` (SiglipVisionConfig's 224 when
/// absent, as transformers builds it) and `PaliGemmaMultiModalProjector.
/// linear` (vision width → `projection_dim`, biased; the outer key,
/// PaliGemmaConfig's 2048 by default); `(image / patch)²` tokens per image.
/// Source: transformers `modeling_paligemma.py`, `configuration_paligemma.py`.
pub(super) fn paligemma(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let image = cfg.or(&["image_size"], 224)?;
    let v = siglip_at(&mut b, cfg, "vision_tower.vision_model.", true, image)?;
    b.projector = true;
    let out = cfg.outer_or("projection_dim", 2048)?;
    b.linear("multi_modal_projector.linear", out, v.hidden, true);
    let patch = cfg.need(&["patch_size"])?;
    let tokens = (image / patch.max(1)).pow(2);
    Ok(tower(VisionKind::Siglip, &v, b, Some(tokens)))
}

/// How many feature layers the projector concatenates
/// (`vision_feature_layer`: one index, or a list of them).
fn feature_layers(cfg: &Keys) -> u64 {
    match cfg.outer("vision_feature_layer") {
        Some(Value::Array(items)) => items.len().max(1) as u64,
        _ => 1,
    }
}

/// LLaVA, LLaVA-NeXT, LLaVA-OneVision: a CLIP, SigLIP or Pixtral tower
/// and `LlavaMultiModalProjector` (`linear_1` from the concatenated
/// feature layers, GELU, `linear_2`, biased unless
/// `multimodal_projector_bias` is false); NeXT and OneVision add
/// `image_newline` (text width). LLaVA 1.5 gives `(image/patch)²` tokens
/// per image (`vision_feature_select_strategy` "default" drops the class
/// token). Sources: transformers `modeling_llava.py`,
/// `modeling_llava_next.py`, `modeling_llava_onevision.py`.
pub(super) fn llava(cfg: &Keys, text: u64, model_type: &str) -> Result<Option<Tower>, ConfigError> {
    let mut b = Builder::new();
    let vision_type = cfg.text("model_type")?.unwrap_or("clip_vision_model");
    let (kind, v) = match vision_type {
        "clip_vision_model" => (
            VisionKind::Clip,
            clip(&mut b, cfg, "vision_tower.vision_model.")?,
        ),
        "siglip_vision_model" => (
            VisionKind::Siglip,
            siglip(&mut b, cfg, "vision_tower.vision_model.", true)?,
        ),
        "pixtral" => (VisionKind::Pixtral, pixtral(&mut b, cfg, "vision_tower.")?),
        _ => return Ok(None),
    };
    b.projector = true;
    let bias = cfg.outer_flag("multimodal_projector_bias", true)?;
    let input = mul(&[v.hidden, feature_layers(cfg)]);
    b.linear("multi_modal_projector.linear_1", text, input, bias);
    b.linear("multi_modal_projector.linear_2", text, text, bias);
    let tokens = match model_type {
        "llava" if kind == VisionKind::Clip => {
            let image = cfg.need(&["image_size"])?;
            let patch = cfg.need(&["patch_size"])?;
            let full = cfg
                .outer("vision_feature_select_strategy")
                .and_then(Value::as_str)
                == Some("full");
            Some((image / patch.max(1)).pow(2) + u64::from(full))
        }
        "llava" => None,
        _ => {
            b.param("image_newline", 1, text);
            None
        }
    };
    Ok(Some(tower(kind, &v, b, tokens)))
}

/// Mistral 3: Pixtral tower and `Mistral3MultiModalProjector`: RMSNorm of
/// the vision width, `patch_merger.merging_layer` (vision·m² → vision, no
/// bias), `linear_1`, `linear_2` (biased when `multimodal_projector_bias`,
/// false by default). Source: transformers `modeling_mistral3.py`.
pub(super) fn mistral3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = pixtral(&mut b, cfg, "vision_tower.")?;
    b.projector = true;
    let merge = cfg.outer_or("spatial_merge_size", 2)?;
    let bias = cfg.outer_flag("multimodal_projector_bias", false)?;
    b.norm("multi_modal_projector.norm", v.hidden, false);
    b.linear(
        "multi_modal_projector.patch_merger.merging_layer",
        v.hidden,
        mul(&[v.hidden, merge, merge]),
        false,
    );
    let input = mul(&[v.hidden, feature_layers(cfg)]);
    b.linear("multi_modal_projector.linear_1", text, input, bias);
    b.linear("multi_modal_projector.linear_2", text, text, bias);
    Ok(tower(VisionKind::Pixtral, &v, b, None))
}
