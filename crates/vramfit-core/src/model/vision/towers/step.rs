//! Step-3.7: a Perception Encoder ViT, two convolution downsamplers and
//! `vit_large_projector`.

use super::encoders::Vit;
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;

/// Most encoder layers read (as `Keys::layers` bounds them).
const MAX_LAYERS: u64 = 1024;

/// Step-3.7's tower, `d` wide with `L` layers, patches `p`, images `s`,
/// MLP `I = ⌊d · mlp_ratio⌋` (Python's `int(hidden_size * mlp_ratio)`,
/// `mlp_ratio` 8960/1536 by default: 8960 at `d` = 1536), text width `H`:
///
/// ```text
/// conv1 (patch embedding, no bias)   d × 3·p²
/// positional_embedding               (s/p)² × d
/// ln_pre                             2·d
/// per layer: ln_1, ln_2              4·d
///            attn.in_proj (q, k, v)  3·d × d + 3·d
///            attn.out_proj           d × d + d
///            mlp.c_fc, mlp.c_proj    I × d + I,  d × I + d
///            ls_1, ls_2 (layer scale) 2·d
/// vit_downsampler1 (3×3, stride 2)   2d × d·9 + 2d
/// vit_downsampler2 (3×3, stride 2)   4d × 2d·9 + 4d
/// projector: vit_large_projector     H × 4d  (+ H with projector_bias)
/// ```
///
/// Source: transformers `models/step3p7` (`Step3p7VisionConfig`: the
/// legacy keys `width`, `layers`, `heads`, defaults 1536, 47, 16, image
/// 728, patch 14; `Step3p7VisionEmbeddings`, `Step3p7VisionEncoderLayer`
/// with `lambda_1`/`lambda_2`, CLIP's biased attention and MLP,
/// `Step3p7VisionModel` with `downsampler1`/`downsampler2`,
/// `Step3p7Config.projector_bias` false). Tensor names are the
/// checkpoint's as llama.cpp's converter reads them (`conv1`,
/// `positional_embedding`, `attn.in_proj`, `ls_*`, `vit_downsampler1/2`,
/// `vit_large_projector`); the block prefix `transformer.resblocks.N` is
/// OpenCLIP's. A class token or a final norm (`use_cls_token`,
/// `use_ln_post`), which that code does not build, is refused by name.
pub(super) fn step3p7(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    for key in ["use_cls_token", "ues_cls_token", "use_ln_post"] {
        if cfg.flag(key, false)? {
            return Err(ConfigError::unsupported(format!(
                "vision_config.{key} true in a step3p7 config: transformers' Step3p7VisionModel \
                 builds no class token and no final norm"
            )));
        }
    }
    let d = cfg.or(&["width", "hidden_size"], 1536)?;
    let layers = cfg.or(&["layers", "num_hidden_layers"], 47)?;
    if layers > MAX_LAYERS {
        return Err(ConfigError::out_of_range("vision_config.layers", layers));
    }
    let image = cfg.or(&["image_size"], 728)?;
    let patch = cfg.or(&["patch_size"], 14)?;
    let channels = cfg.or(&["num_channels"], 3)?;
    let ratio = cfg.number_or("mlp_ratio", 8960.0 / 1536.0)?;
    // The same double-precision product and truncation Python computes.
    let intermediate = (d as f64 * ratio).floor() as u64;
    if intermediate == 0 {
        return Err(ConfigError::out_of_range("vision_config.mlp_ratio", 0));
    }
    let grid = image / patch.max(1);
    let mut b = Builder::new();
    let p = "vision_model.";
    b.conv(
        &format!("{p}conv1"),
        d,
        channels,
        mul(&[patch, patch]),
        false,
    );
    b.param(&format!("{p}positional_embedding"), mul(&[grid, grid]), d);
    b.norm(&format!("{p}ln_pre"), d, true);
    for i in 0..layers {
        let l = format!("{p}transformer.resblocks.{i}.");
        b.norm(&format!("{l}ln_1"), d, true);
        b.linear(&format!("{l}attn.in_proj"), mul(&[3, d]), d, true);
        b.linear(&format!("{l}attn.out_proj"), d, d, true);
        b.param(&format!("{l}ls_1.gamma"), 1, d);
        b.norm(&format!("{l}ln_2"), d, true);
        b.linear(&format!("{l}mlp.c_fc"), intermediate, d, true);
        b.linear(&format!("{l}mlp.c_proj"), d, intermediate, true);
        b.param(&format!("{l}ls_2.gamma"), 1, d);
    }
    b.conv(&format!("{p}vit_downsampler1"), mul(&[2, d]), d, 9, true);
    b.conv(
        &format!("{p}vit_downsampler2"),
        mul(&[4, d]),
        mul(&[2, d]),
        9,
        true,
    );
    b.projector = true;
    let bias = cfg.outer_flag("projector_bias", false)?;
    b.linear("vit_large_projector", text, mul(&[4, d]), bias);
    let v = Vit {
        hidden: d,
        intermediate,
        layers,
        channels,
    };
    // Tokens per image depend on the processor's local crops: not derived.
    Ok(tower(VisionKind::StepPerception, &v, b, None))
}
