//! Kimi-K3's vision tower (MoonViT3d) and its patch-merger projector.

use super::encoders::Vit;
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;

/// Kimi-K3 (`model_type: "kimi_k3"`): `KimiK3VisionTower` (MoonViT3d) and
/// `KimiK3MultiModalProjector` (PatchMergerMLPV2).
///
/// # Formula
///
/// ```text
/// encoder   = 3·p²·H (+H)                    patch_embed.proj (Conv2d, bias with patch_embed_proj_bias)
///           + P_h·P_w·H                      patch_embed.pos_emb.weight
///           + L·(2·n·H + 3·Q·H + H·Q + 2·I·H (+ biases))
///                                            norm0/1, wqkv, wo, mlp.fc0/fc1
///           + n·H                            encoder.final_layernorm
/// projector = (m·k)² + h_text·m·k + h_text   proj.0, proj.2 (no bias), post_norm
/// ```
///
/// Symbols: `H` `vt_hidden_size`, `I` `vt_intermediate_size`, `L`
/// `vt_num_hidden_layers`, `Q` `qkv_hidden_size` (the attention width,
/// `H` when absent in the modelling code, 1536 in the config class), `p`
/// `patch_size`, `P_h`/`P_w` `init_pos_emb_height`/`_width`, `n` 1 for an
/// RMSNorm and 2 for a LayerNorm (`norm_type`), `m` `mm_hidden_size` (`H`
/// when absent), `k` the product of `merge_kernel_size`, `h_text`
/// `text_hidden_size` (must be the text model's width). Biases: `wqkv`
/// `3Q` and `wo` `H` with `attn_bias`, `fc0` `I` and `fc1` `H` with
/// `linear_bias` (both false in the config class). The temporal position
/// table (`time_weight`) is a non-persistent buffer, not stored. Values
/// the modelling code does not implement (another `pos_emb_type`,
/// `merge_type`, `mlp_type`, `mm_projector_type` or `norm_type`) are
/// refused by name.
///
/// Source: SGLang `python/sglang/srt/models/kimi_k3_vl.py` @ 0c829834
/// (`MoonVision3dPatchEmbed`, `Learnable2DInterpPosEmbDividedFixed`,
/// `MoonViTEncoderLayer`, `MoonViT3dEncoder`, `KimiK3VisionTower`,
/// `KimiK3MultiModalProjector`), `python/sglang/srt/configs/kimi_k3.py` @
/// 0d7ff714 (`KimiK3VisionConfig`, the defaults).
///
/// Worked example (moonshotai/Kimi-K3: `H` 1024, `I` 4096, `L` 27, `Q`
/// 1536, `p` 14, 64 × 64 positions, RMSNorm, no biases, `m` 1024, `k` 4,
/// `h_text` 7168): encoder 602,112 + 4,194,304 + 27 · 14,682,112 + 1,024
/// = 401,214,464; projector 16,777,216 + 29,360,128 + 7,168 = 46,144,512;
/// tower 447,358,976.
pub(super) fn kimi_k3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    for (key, implemented) in [
        ("pos_emb_type", "divided_fixed"),
        ("merge_type", "sd2_tpool"),
        ("mlp_type", "mlp2"),
        ("mm_projector_type", "patchmergerv2"),
    ] {
        match cfg.text(key)? {
            None => {}
            Some(v) if v == implemented => {}
            Some(v) => {
                return Err(ConfigError::unsupported(format!(
                    "Kimi-K3's vision_config.{key} \"{v}\": SGLang's KimiK3VisionTower \
                     implements only \"{implemented}\""
                )))
            }
        }
    }
    let norm_bias = match cfg.text("norm_type")? {
        None | Some("rmsnorm") => false,
        Some("layernorm") => true,
        Some(other) => {
            return Err(ConfigError::unsupported(format!(
                "Kimi-K3's vision_config.norm_type \"{other}\": SGLang's MoonViTEncoderLayer \
                 implements \"layernorm\" and \"rmsnorm\""
            )))
        }
    };
    let v = Vit {
        hidden: cfg.or(&["vt_hidden_size", "hidden_size"], 1024)?,
        intermediate: cfg.or(&["vt_intermediate_size", "intermediate_size"], 4096)?,
        layers: cfg.or(&["vt_num_hidden_layers", "num_hidden_layers"], 27)?,
        channels: 3,
    };
    let h = v.hidden;
    let qkv = cfg.or(&["qkv_hidden_size"], 1536)?;
    let patch = cfg.or(&["patch_size"], 14)?;
    let pos_h = cfg.or(&["init_pos_emb_height"], 64)?;
    let pos_w = cfg.or(&["init_pos_emb_width"], 64)?;
    let attn_bias = cfg.flag("attn_bias", false)?;
    let linear_bias = cfg.flag("linear_bias", false)?;
    let patch_bias = cfg.flag("patch_embed_proj_bias", false)?;
    let kernel = merge_kernel(cfg)?.unwrap_or(4);
    let mm = cfg.or(&["mm_hidden_size"], h)?;
    let out = cfg.or(&["text_hidden_size"], 7168)?;
    if out != text {
        return Err(ConfigError::contradictory(
            &["vision_config.text_hidden_size", "text_config.hidden_size"],
            format!("the projector ends at {out} but the text model is {text} wide"),
        ));
    }
    let mut b = Builder::new();
    let biases = MoonVitBiases {
        patch: patch_bias,
        norm: norm_bias,
        attn: attn_bias,
        linear: linear_bias,
    };
    moonvit_encoder(&mut b, &v, qkv, (patch, pos_h, pos_w), biases);
    b.projector = true;
    let wide = mul(&[mm, kernel]);
    b.linear("mm_projector.proj.0", wide, wide, false);
    b.linear("mm_projector.proj.2", out, wide, false);
    b.norm("mm_projector.post_norm", out, false);
    Ok(tower(VisionKind::MoonVit3d, &v, b, None))
}

/// Which of MoonViT's tensors carry a bias: the patch convolution, the
/// norms (a LayerNorm's; an RMSNorm has none), `wqkv`/`wo`, `mlp.fc0`/`fc1`.
pub(super) struct MoonVitBiases {
    pub patch: bool,
    pub norm: bool,
    pub attn: bool,
    pub linear: bool,
}

/// MoonViT's encoder under `vision_tower.`, shared by Kimi-VL (MoonViT,
/// every bias) and Kimi-K3 (MoonViT3d): the patch convolution over
/// `p × p` patches, the learned `P_h × P_w` position grid, `L` blocks of
/// two norms, `wqkv` (`3Q × H`), `wo` (`H × Q`), `mlp.fc0`/`fc1`, and the
/// final norm. `(p, P_h, P_w)` is `grid`. Sources: vLLM
/// `models/moonvit.py`; SGLang `models/kimi_k3_vl.py` @ 0c829834.
pub(super) fn moonvit_encoder(
    b: &mut Builder,
    v: &Vit,
    qkv: u64,
    grid: (u64, u64, u64),
    bias: MoonVitBiases,
) {
    let (h, i) = (v.hidden, v.intermediate);
    let (patch, pos_h, pos_w) = grid;
    b.conv(
        "vision_tower.patch_embed.proj",
        h,
        v.channels,
        mul(&[patch, patch]),
        bias.patch,
    );
    b.param(
        "vision_tower.patch_embed.pos_emb.weight",
        mul(&[pos_h, pos_w]),
        h,
    );
    for l in 0..v.layers {
        let p = format!("vision_tower.encoder.blocks.{l}");
        b.norm(&format!("{p}.norm0"), h, bias.norm);
        b.norm(&format!("{p}.norm1"), h, bias.norm);
        b.linear(&format!("{p}.wqkv"), mul(&[3, qkv]), h, bias.attn);
        b.linear(&format!("{p}.wo"), h, qkv, bias.attn);
        b.linear(&format!("{p}.mlp.fc0"), i, h, bias.linear);
        b.linear(&format!("{p}.mlp.fc1"), h, i, bias.linear);
    }
    b.norm("vision_tower.encoder.final_layernorm", h, bias.norm);
}

/// MoonViT's `merge_kernel_size`, patches merged into one projector input:
/// the product of a `[h, w]` pair; `None` when the config gives no list.
pub(super) fn merge_kernel(cfg: &Keys) -> Result<Option<u64>, ConfigError> {
    match cfg.list("merge_kernel_size")? {
        Some(k) if k.len() == 2 && k.iter().all(|x| *x > 0) => Ok(Some(mul(&k))),
        Some(k) => Err(ConfigError::out_of_range(
            "vision_config.merge_kernel_size",
            format!("{k:?}"),
        )),
        None => Ok(None),
    }
}
