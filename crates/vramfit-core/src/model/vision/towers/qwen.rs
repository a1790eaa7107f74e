//! The Qwen vision transformers: Qwen2-VL, Qwen2.5-VL, Qwen3-VL.

use super::encoders::Vit;
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;

/// Qwen-VL patch embedding (a 3-D convolution over `temporal × patch ×
/// patch`) and the merger MLP from `width·m²` to the text width.
fn qwen_patch(cfg: &Keys, b: &mut Builder, width: u64, bias: bool) -> Result<(), ConfigError> {
    let patch = cfg.need(&["patch_size"])?;
    let temporal = cfg.or(&["temporal_patch_size"], 2)?;
    let channels = cfg.or(&["in_channels", "in_chans"], 3)?;
    b.conv(
        "visual.patch_embed.proj",
        width,
        channels,
        mul(&[temporal, patch, patch]),
        bias,
    );
    Ok(())
}

/// Qwen2-VL: `depth` blocks of LayerNorms, biased `qkv`/`proj`, `fc1`/`fc2`
/// (`embed_dim · mlp_ratio`), and `PatchMerger` (`ln_q` LayerNorm, two
/// biased linears to `hidden_size`). Source: transformers
/// `modeling_qwen2_vl.py`.
pub(super) fn qwen2_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["embed_dim"])?;
    let depth = cfg.layers(&["depth"])?;
    let out = cfg.need(&["hidden_size"])?;
    let mlp = mul(&[e, cfg.or(&["mlp_ratio"], 4)?]);
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    qwen_patch(cfg, &mut b, e, false)?;
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, true);
        b.norm(&format!("{p}.norm2"), e, true);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.fc1"), mlp, e, true);
        b.linear(&format!("{p}.mlp.fc2"), e, mlp, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    b.norm("visual.merger.ln_q", e, true);
    b.linear("visual.merger.mlp.0", wide, wide, true);
    b.linear("visual.merger.mlp.2", out, wide, true);
    let v = Vit {
        hidden: e,
        intermediate: mlp,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen2Vl, &v, b, None))
}

/// Qwen2.5-VL: RMSNorms, biased `qkv`/`proj`, a biased gated MLP
/// (`intermediate_size`), merger with an RMSNorm `ln_q`. Source:
/// transformers `modeling_qwen2_5_vl.py`.
pub(super) fn qwen2_5_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["hidden_size"])?;
    let i = cfg.need(&["intermediate_size"])?;
    let depth = cfg.layers(&["depth"])?;
    let out = cfg.need(&["out_hidden_size"])?;
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    qwen_patch(cfg, &mut b, e, false)?;
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, false);
        b.norm(&format!("{p}.norm2"), e, false);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.gate_proj"), i, e, true);
        b.linear(&format!("{p}.mlp.up_proj"), i, e, true);
        b.linear(&format!("{p}.mlp.down_proj"), e, i, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    b.norm("visual.merger.ln_q", e, false);
    b.linear("visual.merger.mlp.0", wide, wide, true);
    b.linear("visual.merger.mlp.2", out, wide, true);
    let v = Vit {
        hidden: e,
        intermediate: i,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen25Vl, &v, b, None))
}

/// Qwen3-VL: biased patch convolution, learned positions
/// (`num_position_embeddings`), LayerNorm blocks with `linear_fc1`/`fc2`,
/// a merger (LayerNorm of the width) and one DeepStack merger per
/// `deepstack_visual_indexes` entry (LayerNorm after the shuffle, of
/// width·m²). Source: transformers `modeling_qwen3_vl.py`.
pub(super) fn qwen3_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    qwen3_vl_with(cfg, true)
}

/// Qwen3.5 (and Qwen3.6): Qwen3-VL's encoder and merger without DeepStack
/// mergers (`Qwen3_5VisionModel` builds none, whatever
/// `deepstack_visual_indexes` lists). Source: transformers
/// `modeling_qwen3_5.py`.
pub(super) fn qwen3_5(cfg: &Keys) -> Result<Tower, ConfigError> {
    qwen3_vl_with(cfg, false)
}

fn qwen3_vl_with(cfg: &Keys, deepstack_mergers: bool) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["hidden_size"])?;
    let i = cfg.need(&["intermediate_size"])?;
    let depth = cfg.layers(&["depth"])?;
    let out = cfg.need(&["out_hidden_size"])?;
    let positions = cfg.need(&["num_position_embeddings"])?;
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    let deepstack = match (deepstack_mergers, cfg.list("deepstack_visual_indexes")?) {
        (false, _) => 0,
        (true, Some(list)) => list.len() as u64,
        (true, None) => {
            cfg.need(&["deepstack_visual_indexes"])?;
            0
        }
    };
    qwen_patch(cfg, &mut b, e, true)?;
    b.param("visual.pos_embed", positions, e);
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, true);
        b.norm(&format!("{p}.norm2"), e, true);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.linear_fc1"), i, e, true);
        b.linear(&format!("{p}.mlp.linear_fc2"), e, i, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    let merger = |b: &mut Builder, p: &str, norm: u64| {
        b.norm(&format!("{p}.norm"), norm, true);
        b.linear(&format!("{p}.linear_fc1"), wide, wide, true);
        b.linear(&format!("{p}.linear_fc2"), out, wide, true);
    };
    merger(&mut b, "visual.merger", e);
    for k in 0..deepstack {
        merger(&mut b, &format!("visual.deepstack_merger_list.{k}"), wide);
    }
    let v = Vit {
        hidden: e,
        intermediate: i,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen3Vl, &v, b, None))
}
