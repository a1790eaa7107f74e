//! The ViT encoders several wrappers share: SigLIP, CLIP, Pixtral.

use super::Builder;
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;

/// Common sizes of a ViT config.
pub(crate) struct Vit {
    pub hidden: u64,
    pub intermediate: u64,
    pub layers: u64,
    pub channels: u64,
}

pub(crate) fn vit(cfg: &Keys) -> Result<Vit, ConfigError> {
    Ok(Vit {
        hidden: cfg.need(&["hidden_size"])?,
        intermediate: cfg.need(&["intermediate_size"])?,
        layers: cfg.layers(&["num_hidden_layers"])?,
        channels: cfg.or(&["num_channels"], 3)?,
    })
}

/// SigLIP / CLIP / Idefics3 encoder layers: `layer_norm1`, `self_attn.
/// {q,k,v,out}_proj` (biased), `layer_norm2`, `mlp.fc1`, `mlp.fc2`.
/// Source: transformers `modeling_siglip.py::SiglipEncoderLayer`,
/// `modeling_clip.py::CLIPEncoderLayer`.
pub(super) fn encoder_layers(b: &mut Builder, prefix: &str, v: &Vit) {
    let (h, i) = (v.hidden, v.intermediate);
    for l in 0..v.layers {
        let p = format!("{prefix}encoder.layers.{l}");
        b.norm(&format!("{p}.layer_norm1"), h, true);
        for proj in ["q_proj", "k_proj", "v_proj", "out_proj"] {
            b.linear(&format!("{p}.self_attn.{proj}"), h, h, true);
        }
        b.norm(&format!("{p}.layer_norm2"), h, true);
        b.linear(&format!("{p}.mlp.fc1"), i, h, true);
        b.linear(&format!("{p}.mlp.fc2"), h, i, true);
    }
}

/// SigLIP vision transformer: patch convolution (biased), one position
/// per patch, encoder, `post_layernorm`, and the attention-pooling head
/// unless `vision_use_head` is false (`SiglipVisionTransformer`: the head
/// is built when the config has no such key). Source: transformers
/// `modeling_siglip.py`.
pub(crate) fn siglip(
    b: &mut Builder,
    cfg: &Keys,
    prefix: &str,
    head_default: bool,
) -> Result<Vit, ConfigError> {
    let image = cfg.need(&["image_size"])?;
    siglip_at(b, cfg, prefix, head_default, image)
}

/// [`siglip`] for images of `image` pixels a side (a wrapper whose config
/// class supplies the side when `vision_config` omits it).
pub(crate) fn siglip_at(
    b: &mut Builder,
    cfg: &Keys,
    prefix: &str,
    head_default: bool,
    image: u64,
) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let patch = cfg.need(&["patch_size"])?;
    let h = v.hidden;
    b.conv(
        &format!("{prefix}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        true,
    );
    let patches = (image / patch.max(1)).pow(2);
    b.param(
        &format!("{prefix}embeddings.position_embedding"),
        patches,
        h,
    );
    encoder_layers(b, prefix, &v);
    b.norm(&format!("{prefix}post_layernorm"), h, true);
    if cfg.flag("vision_use_head", head_default)? {
        let p = format!("{prefix}head");
        b.param(&format!("{p}.probe"), 1, h);
        b.param(&format!("{p}.attention.in_proj_weight"), 3 * h, h);
        b.param(&format!("{p}.attention.in_proj_bias"), 1, 3 * h);
        b.linear(&format!("{p}.attention.out_proj"), h, h, true);
        b.norm(&format!("{p}.layernorm"), h, true);
        b.linear(&format!("{p}.mlp.fc1"), v.intermediate, h, true);
        b.linear(&format!("{p}.mlp.fc2"), h, v.intermediate, true);
    }
    Ok(v)
}

/// CLIP vision transformer: class embedding, patch convolution (no bias),
/// positions for patches and class token, `pre_layrnorm`, encoder,
/// `post_layernorm`. Source: transformers `modeling_clip.py`.
pub(crate) fn clip(b: &mut Builder, cfg: &Keys, prefix: &str) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let h = v.hidden;
    b.param(&format!("{prefix}embeddings.class_embedding"), 1, h);
    b.conv(
        &format!("{prefix}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        false,
    );
    let positions = (image / patch.max(1)).pow(2) + 1;
    b.param(
        &format!("{prefix}embeddings.position_embedding"),
        positions,
        h,
    );
    b.norm(&format!("{prefix}pre_layrnorm"), h, true);
    encoder_layers(b, prefix, &v);
    b.norm(&format!("{prefix}post_layernorm"), h, true);
    Ok(v)
}

/// Pixtral vision transformer: patch convolution (no bias), `ln_pre`
/// RMSNorm, layers of RMSNorms, unbiased attention and gated MLP. Source:
/// transformers `modeling_pixtral.py`.
pub(crate) fn pixtral(b: &mut Builder, cfg: &Keys, prefix: &str) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let patch = cfg.need(&["patch_size"])?;
    let (h, i) = (v.hidden, v.intermediate);
    b.conv(
        &format!("{prefix}patch_conv"),
        h,
        v.channels,
        patch * patch,
        false,
    );
    b.norm(&format!("{prefix}ln_pre"), h, false);
    for l in 0..v.layers {
        let p = format!("{prefix}transformer.layers.{l}");
        b.norm(&format!("{p}.attention_norm"), h, false);
        for proj in ["q_proj", "k_proj", "v_proj", "o_proj"] {
            b.linear(&format!("{p}.attention.{proj}"), h, h, false);
        }
        b.norm(&format!("{p}.ffn_norm"), h, false);
        b.linear(&format!("{p}.feed_forward.gate_proj"), i, h, false);
        b.linear(&format!("{p}.feed_forward.up_proj"), i, h, false);
        b.linear(&format!("{p}.feed_forward.down_proj"), h, i, false);
    }
    Ok(v)
}
