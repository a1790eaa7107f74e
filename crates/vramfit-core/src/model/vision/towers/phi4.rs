//! Phi-4-reasoning-vision (`phi4-siglip`): a SigLIP-2 NaFlex encoder and
//! a LLaVA-style MLP projector.

use super::encoders::{encoder_layers, vit};
use super::{tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;
use serde_json::Value;

/// Phi-4-reasoning-vision (`model_type: "phi4-siglip"`): `Phi4VisionRModel`
/// (a Phi-3 model) holds `vision_tower` (`Siglip2VisionTower`, a
/// transformers `Siglip2VisionModel` built from the embedded
/// `vision_config`) and `mm_projector`.
///
/// # Formula
///
/// ```text
/// encoder   = (h·C·p² + h)                   embeddings.patch_embedding (nn.Linear)
///           + n·h                            embeddings.position_embedding
///           + L·(4(h² + h) + (i·h + i) + (h·i + h) + 4h)   SigLIP layers
///           + 2h                             post_layernorm
///           + h + 3h² + 3h + h² + h + 2h + (i·h + i) + (h·i + h)
///                                            attention-pooling head (vision_use_head)
/// projector = (m·H + H) + (depth − 1)·(H² + H)   mm_projector "mlp{depth}x_gelu"
///             (m·H + H) for "linear", 0 for "identity"
/// ```
///
/// Symbols: `h`, `i`, `L` the `vision_config` width, MLP width and layers,
/// `C` `num_channels` (3), `p` `patch_size` (when absent, 14 if the
/// `mm_vision_tower` name says `patch14`, else 16, as the checkpoint code
/// infers it), `n` `num_patches` (`Siglip2VisionConfig`'s 256), `m`
/// `mm_hidden_size` (1152), `H` the text width. Only the NaFlex tower
/// (`mm_vision_tower` naming SigLIP and `naflex`) without the S2 wrapper is
/// read; a fixed-resolution SigLIP tower, `use_s2`, or another projector
/// type is refused by name. Sources: microsoft/Phi-4-reasoning-vision-15B
/// `huggingface-transformers/modeling_phi4_visionr.py` @ e71388f2
/// (`build_vision_tower`, `Siglip2VisionTower`, `build_vision_projector`,
/// `Phi4VisionR`); transformers `modeling_siglip2.py`
/// (`Siglip2VisionEmbeddings`, `Siglip2VisionTransformer`,
/// `Siglip2MultiheadAttentionPoolingHead`). Worked example
/// (Phi-4-reasoning-vision-15B: h 1152, i 4304, L 27, H 5120): encoder
/// 885,888 + 294,912 + 411,466,608 + 2,304 + 15,238,352 = 427,888,064;
/// projector 5,903,360 + 26,219,520 = 32,122,880.
pub(crate) fn phi4_siglip(cfg: &Keys, text_hidden: u64) -> Result<Tower, ConfigError> {
    let refuse = |what: String| {
        Err(ConfigError::unsupported(format!(
            "model type \"phi4-siglip\" with {what}: vramfit reads the checkpoint code's \
             SigLIP-2 NaFlex tower and its MLP projector only"
        )))
    };
    let name = match cfg.outer("mm_vision_tower") {
        Some(Value::String(s)) => s.to_ascii_lowercase(),
        _ => return refuse("no mm_vision_tower".to_string()),
    };
    if !(name.contains("siglip") && name.contains("naflex")) {
        return refuse(format!("mm_vision_tower \"{name}\""));
    }
    if cfg.outer_flag("use_s2", false)? {
        return refuse("use_s2 true".to_string());
    }
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let patch_default = if name.contains("patch14") { 14 } else { 16 };
    let patch = cfg.or(&["patch_size"], patch_default)?;
    let positions = cfg.or(&["num_patches"], 256)?;
    let p = "model.vision_tower.vision_tower.vision_model.";
    b.linear(
        &format!("{p}embeddings.patch_embedding"),
        h,
        v.channels * patch * patch,
        true,
    );
    b.param(&format!("{p}embeddings.position_embedding"), positions, h);
    encoder_layers(&mut b, p, &v);
    b.norm(&format!("{p}post_layernorm"), h, true);
    if cfg.flag("vision_use_head", true)? {
        let q = format!("{p}head");
        b.param(&format!("{q}.probe"), 1, h);
        b.param(&format!("{q}.attention.in_proj_weight"), 3 * h, h);
        b.param(&format!("{q}.attention.in_proj_bias"), 1, 3 * h);
        b.linear(&format!("{q}.attention.out_proj"), h, h, true);
        b.norm(&format!("{q}.layernorm"), h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
    }
    b.projector = true;
    let mm_hidden = cfg.outer_or("mm_hidden_size", 1152)?;
    let kind = match cfg.outer("mm_projector_type") {
        None => "mlp2x_gelu".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(ConfigError::wrong_type("mm_projector_type", "string"));
        }
    };
    let depth = match kind.as_str() {
        "identity" => 0,
        "linear" => 1,
        other => match other
            .strip_prefix("mlp")
            .and_then(|s| s.strip_suffix("x_gelu"))
            .and_then(|d| d.parse::<u64>().ok())
        {
            Some(d) if (1..=16).contains(&d) => d,
            _ => return refuse(format!("mm_projector_type \"{other}\"")),
        },
    };
    if depth >= 1 {
        b.linear("model.mm_projector.0", text_hidden, mm_hidden, true);
    }
    for k in 1..depth {
        let name = format!("model.mm_projector.{}", 2 * k);
        b.linear(&name, text_hidden, text_hidden, true);
    }
    Ok(tower(VisionKind::Siglip, &v, b, None))
}
