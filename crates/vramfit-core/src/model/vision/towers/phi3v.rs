//! Phi-3-vision's image embedding: a CLIP ViT-L/14 at 336 pixels and the
//! HD transform's separators and projector.

use super::encoders::clip;
use super::{tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;
use serde_json::{json, Map, Value};

/// The CLIP the image embedding builds whatever `img_processor` names:
/// vLLM's `CLIP_VIT_LARGE_PATCH14_336_CONFIG` (the checkpoint code's own
/// constant of the same name).
fn clip_vit_large_336() -> Map<String, Value> {
    match json!({"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
                 "num_channels": 3, "image_size": 336, "patch_size": 14})
    {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A string setting of `embd_layer` or `img_processor`, with its default.
fn text<'a>(obj: &'a Map<String, Value>, key: &str, default: &'a str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or(default)
}

fn flag(obj: &Map<String, Value>, key: &str) -> bool {
    obj.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Phi-3-vision / Phi-3.5-vision (`model_type: "phi3_v"`):
/// `Phi3HDImageEmbedding` under `model.vision_embed_tokens`.
///
/// # Formula
///
/// ```text
/// encoder   = CLIP ViT-L/14-336 (class embedding, patch convolution, 577
///             positions, pre/post LayerNorms, 24 layers)       = 303,507,456
/// projector = 2 · 4C                          glb_GN, sub_GN
///           + (4C·H + H) + (H·H + H)          img_projection.0 and .2 (biased)
/// ```
///
/// Symbols: `C` `img_processor.image_dim_out` (1024, the CLIP width; the
/// HD transform merges 2 × 2 patches into `4C`), `H` the text width. The
/// checkpoint stores the whole CLIP (24 layers and `post_layernorm`); vLLM
/// builds it only up to `layer_idx` (-2: 23 layers) and skips the rest
/// when loading. Only the layout vLLM builds is read: `embedding_cls`
/// "image", `use_hd_transform` and `with_learnable_separator` true,
/// `hd_transform_order` "sub_glb", `projection_cls` "mlp" (depth 2), a
/// 1024-wide CLIP; anything else is refused by name. Sources: vLLM
/// `vllm/model_executor/models/phi3v.py` (`Phi3HDImageEmbedding`,
/// `CLIP_VIT_LARGE_PATCH14_336_CONFIG`), Microsoft's
/// `image_embedding_phi3_v.py`. Worked example (Phi-3.5-vision-instruct, H
/// 3072): 303,507,456 + 8,192 + 12,585,984 + 9,440,256 = 325,541,888; with
/// the text model's 3,821,079,552, 4,146,621,440.
pub(crate) fn phi3_v(
    cfg: &Keys,
    outer: &crate::model::json::Reader,
    text_hidden: u64,
) -> Result<Tower, ConfigError> {
    let refuse = |what: String| {
        Err(ConfigError::unsupported(format!(
            "model type \"phi3_v\" with {what}: vLLM's Phi-3-vision code builds only the HD \
             image embedding with a 1024-wide CLIP ViT-L/14-336"
        )))
    };
    let proc = outer
        .get_outer("img_processor")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let embd = outer
        .get_outer("embd_layer")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let name = text(&proc, "name", "clip_vision_model");
    if name != "clip_vision_model" {
        return refuse(format!("img_processor.name \"{name}\""));
    }
    let dim = cfg.need(&["image_dim_out"])?;
    if dim != 1024 {
        return refuse(format!("img_processor.image_dim_out {dim}"));
    }
    for (key, want) in [
        ("embedding_cls", "image"),
        ("hd_transform_order", "sub_glb"),
        ("projection_cls", "mlp"),
    ] {
        let default = match key {
            "hd_transform_order" => "glb_sub",
            "projection_cls" => "linear",
            _ => "",
        };
        let got = text(&embd, key, default);
        if got != want {
            return refuse(format!("embd_layer.{key} \"{got}\""));
        }
    }
    for key in ["use_hd_transform", "with_learnable_separator"] {
        if !flag(&embd, key) {
            return refuse(format!("embd_layer.{key} not true"));
        }
    }
    let fixed = clip_vit_large_336();
    let clip_cfg = Keys::new(&fixed, outer);
    let mut b = Builder::new();
    let v = clip(
        &mut b,
        &clip_cfg,
        "model.vision_embed_tokens.img_processor.vision_model.",
    )?;
    b.projector = true;
    let wide = 4 * dim;
    let p = "model.vision_embed_tokens";
    b.param(&format!("{p}.glb_GN"), 1, wide);
    b.param(&format!("{p}.sub_GN"), 1, wide);
    b.linear(&format!("{p}.img_projection.0"), text_hidden, wide, true);
    b.linear(
        &format!("{p}.img_projection.2"),
        text_hidden,
        text_hidden,
        true,
    );
    Ok(tower(VisionKind::Clip, &v, b, None))
}
