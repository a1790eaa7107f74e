//! MiniMax-M3-VL's vision tower and its two projectors.

use super::encoders::vit;
use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;

/// MiniMax-M3-VL (`model_type: "minimax_m3_vl"`): `MiniMaxVLVisionModel`,
/// a CLIP-style ViT with 3-D rotary positions (no position table, no class
/// token), then `multi_modal_projector` and `patch_merge_mlp`.
///
/// # Formula
///
/// ```text
/// encoder   = H·C·T·p²                       patch_embedding (Conv3d, no bias)
///           + 2H                             pre_layrnorm
///           + L·(4H + 4(H² + H) + 2·I·H + I + H)
///                                            layer_norm1/2, q/k/v/out_proj, fc1, fc2 (biased)
/// projector = (M·h + M) + (M·h_text + h_text)            multi_modal_projector.linear_1, _2
///           + (M·s²·h_text + M) + (M·h_text + h_text)     patch_merge_mlp.linear_1, _2
/// ```
///
/// Symbols: `H` `vision_config.hidden_size`, `I` its `intermediate_size`,
/// `L` its `num_hidden_layers`, `C` `num_channels` (3), `p` `patch_size`,
/// `T` and `s` the `temporal_patch_size` and `spatial_merge_size` of
/// `vision_config.img_token_compression_config` (2 and 2 when absent),
/// `h_text` the text width, `M` the outer `projector_hidden_size` (the
/// text width when absent). The projector biases follow
/// `multimodal_projector_bias` and `patch_merge_bias` (true when absent).
/// No `post_layernorm`: the model builds the transformer with
/// `require_post_norm=False` (the released checkpoint ships none).
///
/// Source: vLLM `vllm/models/minimax_m3/common/vision_tower.py`
/// (`MiniMaxVLPatchEmbed`, `MiniMaxVLEncoderLayer`,
/// `MiniMaxVLVisionTransformer`, `MiniMaxVLMultiModalProjector`,
/// `MiniMaxVLPatchMerger`, `MiniMaxVLVisionModel`) at 00b7847c; SGLang's
/// `MiniMaxM3SparseForConditionalGeneration` builds the same modules and
/// reads the two bias flags from the outer config.
///
/// Worked example (MiniMaxAI/MiniMax-M3: H 1280, I 5120, L 32, p 14,
/// h_text = M = 6144): encoder 1,505,280 + 2,560 + 32 · 19,677,440 =
/// 631,185,920; projectors 45,625,344 + 188,755,968 = 234,381,312; tower
/// 865,567,232, and with the text model's 426,174,572,928 the checkpoint's
/// 427,040,140,160 parameters.
pub(super) fn minimax_m3_vl(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let patch = cfg.need(&["patch_size"])?;
    let temporal = cfg.nested_or("img_token_compression_config", "temporal_patch_size", 2)?;
    let merge = cfg.nested_or("img_token_compression_config", "spatial_merge_size", 2)?;
    let mid = cfg.outer_or("projector_hidden_size", text)?;
    let bias = |key: &str| -> Result<bool, ConfigError> {
        match cfg.outer(key) {
            Some(_) => cfg.outer_flag(key, true),
            None => cfg.flag(key, true),
        }
    };
    let projector_bias = bias("multimodal_projector_bias")?;
    let merge_bias = bias("patch_merge_bias")?;
    let p = "vision_tower.vision_model.";
    b.conv(
        &format!("{p}embeddings.patch_embedding"),
        h,
        v.channels,
        mul(&[temporal, patch, patch]),
        false,
    );
    b.norm(&format!("{p}pre_layrnorm"), h, true);
    for l in 0..v.layers {
        let q = format!("{p}encoder.layers.{l}");
        b.norm(&format!("{q}.layer_norm1"), h, true);
        for proj in ["q_proj", "k_proj", "v_proj", "out_proj"] {
            b.linear(&format!("{q}.self_attn.{proj}"), h, h, true);
        }
        b.norm(&format!("{q}.layer_norm2"), h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
    }
    b.projector = true;
    b.linear("multi_modal_projector.linear_1", mid, h, projector_bias);
    b.linear("multi_modal_projector.linear_2", text, mid, projector_bias);
    b.linear(
        "patch_merge_mlp.linear_1",
        mid,
        mul(&[text, merge, merge]),
        merge_bias,
    );
    b.linear("patch_merge_mlp.linear_2", text, mid, merge_bias);
    Ok(tower(VisionKind::MiniMaxVit, &v, b, None))
}
