//! The vision tower and projector vLLM loads for a multimodal model, and
//! the dummy images it encodes while profiling.
//!
//! Read from the config's `vision_config` here because the model reader
//! counts the text model only. Four towers are known: SigLIP (Gemma-3,
//! LLaVA-NeXT / Granite-Vision), Pixtral (Mistral-3) and MoonViT
//! (Kimi-VL). Another tower reads as `None`: its weights and dummy images
//! are then missing from the estimate.

use crate::model::ModelSpec;
use serde::Serialize;
use serde_json::{Map, Value};

/// Which tower, for the dummy-input rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VisionKind {
    /// Gemma-3: SigLIP, one fixed-size crop per image.
    Gemma3Siglip,
    /// Mistral-3: Pixtral at native resolution, 2 × 2 patch merge.
    Pixtral,
    /// LLaVA-NeXT (Granite-Vision): SigLIP/CLIP tiles over an any-resolution
    /// grid.
    LlavaNext,
    /// Kimi-VL: MoonViT at native resolution, 2 × 2 merge.
    MoonVit,
}

/// A vision tower as vLLM holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VisionTower {
    pub kind: VisionKind,
    /// Parameters split by tensor parallelism (the tower's attention and
    /// MLP projections, column/row-parallel projector layers).
    pub sharded_params: u64,
    /// Parameters every rank holds whole (patch embedding, positions,
    /// norms, replicated projector layers).
    pub replicated_params: u64,
    /// Width of the tower.
    pub hidden: u64,
    /// Width of the tower's MLP.
    pub intermediate: u64,
    /// Prompt embeddings one image of the largest profiled size produces.
    pub tokens_per_item: u64,
    /// Pixel values of one such image (elements, at the model dtype).
    pub pixels_per_item: u64,
    /// Patches the tower runs over for one such image.
    pub patches_per_item: u64,
    /// Bytes of a table the tower builds at its first forward and keeps
    /// (MoonViT's 2-D rotary table), else 0.
    pub lazy_table_bytes: u64,
}

/// `(items, bytes)` of the multimodal profile: how many dummy images
/// vLLM encodes, and the bytes they leave allocated while the decoder and
/// the sampler run (pixel values and encoder outputs) plus the tower's
/// lazy table.
///
/// # Formula
///
/// ```text
/// budget = max(T_batch, t)                       (encoder compute budget)
/// per_prompt = max(1, min(999, ⌊L_max / t⌋))
/// items = max(1, min(⌊budget / t⌋, S · per_prompt))
/// held = items · (p · b + t · H · b) + lazy
/// ```
///
/// Symbols: `t` embeddings per image, `T_batch` `max_num_batched_tokens`,
/// `L_max` `max_model_len`, `S` `max_num_seqs`, `p` pixel values per image,
/// `H` the text hidden size, `b` bytes of the model dtype. The dummy batch
/// (`batched_dummy_mm_inputs`) and the encoder outputs
/// (`encoder_cache`) stay referenced until `profile_run` returns. Sources:
/// vLLM `vllm/multimodal/encoder_budget.py` (`MultiModalBudget`,
/// `_get_max_items`), `vllm/v1/core/encoder_cache_manager.py`
/// (`compute_mm_encoder_budget`), `vllm/v1/worker/gpu_model_runner.py`
/// (`profile_run`); the 999 items per prompt of
/// `vllm/config/multimodal.py` (`get_limit_per_prompt`).
pub fn profile_held(
    tower: &VisionTower,
    text_hidden: u64,
    dtype_bytes: u64,
    batch_tokens: u64,
    max_model_len: u64,
    max_num_seqs: u64,
) -> (u64, u64) {
    let t = tower.tokens_per_item.max(1);
    let budget = batch_tokens.max(t);
    let per_prompt = (max_model_len / t).clamp(1, 999);
    let items = (budget / t)
        .min(max_num_seqs.saturating_mul(per_prompt))
        .max(1);
    let per_item =
        (tower.pixels_per_item as u128 + t as u128 * text_hidden as u128) * dtype_bytes as u128;
    let held = per_item * items as u128 + tower.lazy_table_bytes as u128;
    (items, crate::units::saturate(held))
}

/// Transient peak of encoding the dummy images, beyond what they hold:
/// the tower's hidden, residual and normalized activations and its MLP
/// intermediate over every patch.
///
/// # Formula
///
/// `encoder = items · P · (3·h + g·i) · b`, with `P` patches per image,
/// `h`/`i` the tower's widths, `g` 2 for a gated MLP (Pixtral) else 1.
/// An approximation: vLLM's attention kernels keep no score matrix, and
/// the exact lifetime of each activation inside the tower is not derived.
pub fn encoder_transient(tower: &VisionTower, items: u64, dtype_bytes: u64) -> u64 {
    let gated = match tower.kind {
        VisionKind::Pixtral => 2,
        _ => 1,
    };
    let width = 3 * tower.hidden as u128 + gated * tower.intermediate as u128;
    let bytes = items as u128 * tower.patches_per_item as u128 * width * dtype_bytes as u128;
    crate::units::saturate(bytes)
}

/// The tower of `outer` (a whole `config.json`), if it is one vLLM loads
/// and vramfit knows.
pub(super) fn read(outer: &Map<String, Value>, spec: &ModelSpec) -> Option<VisionTower> {
    let vision = outer.get("vision_config")?.as_object()?;
    let outer_type = outer
        .get("model_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let vision_type = vision
        .get("model_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let text_hidden = spec.hidden_size;
    match (outer_type, vision_type) {
        ("gemma3", _) => gemma3(outer, vision, text_hidden),
        ("mistral3", _) | (_, "pixtral") => pixtral(outer, vision, text_hidden),
        ("llava_next", _) => llava_next(outer, vision, text_hidden),
        ("kimi_vl", _) | (_, "moonvit") => moonvit(vision, text_hidden),
        _ => None,
    }
}

fn uint(obj: &Map<String, Value>, key: &str, default: u64) -> u64 {
    obj.get(key).and_then(Value::as_u64).unwrap_or(default)
}

/// SigLIP encoder layers: `4(h² + h)` attention, `2hi + i + h` MLP,
/// `4h` for two LayerNorms.
fn siglip_layer(h: u64, i: u64) -> (u64, u64) {
    let sharded = 4 * h * h + 2 * h * i;
    let replicated = 4 * h + i + h + 4 * h; // biases and norms
    (sharded, replicated)
}

/// SigLIP embeddings: patch convolution `h·3·p²` (+ bias), one learned
/// position per patch, a final LayerNorm.
fn siglip_embeddings(h: u64, image: u64, patch: u64) -> u64 {
    let patches = (image / patch.max(1)).pow(2);
    h * 3 * patch * patch + h + patches * h + 2 * h
}

/// Gemma-3: SigLIP (`vision_use_head` false) and a projector
/// `mm_input_projection_weight` `h × H` with an RMSNorm of `h`. One image
/// is `mm_tokens_per_image` embeddings (256) from one `image_size²` crop
/// (pan-and-scan off by default). Sources: vLLM `models/gemma3_mm.py`
/// (`Gemma3MultiModalProjector`, `get_num_image_tokens`), `models/siglip.py`.
fn gemma3(outer: &Map<String, Value>, v: &Map<String, Value>, text: u64) -> Option<VisionTower> {
    let (h, i) = (
        uint(v, "hidden_size", 1152),
        uint(v, "intermediate_size", 4304),
    );
    let layers = uint(v, "num_hidden_layers", 27);
    let (image, patch) = (uint(v, "image_size", 896), uint(v, "patch_size", 14));
    let (ls, lr) = siglip_layer(h, i);
    Some(VisionTower {
        kind: VisionKind::Gemma3Siglip,
        sharded_params: layers * ls,
        replicated_params: layers * lr + siglip_embeddings(h, image, patch) + h * text + h,
        hidden: h,
        intermediate: i,
        tokens_per_item: uint(outer, "mm_tokens_per_image", 256),
        pixels_per_item: 3 * image * image,
        patches_per_item: (image / patch.max(1)).pow(2),
        lazy_table_bytes: 0,
    })
}

/// Mistral-3 / Pixtral: patch convolution `h·3·p²`, RMSNorms, per layer
/// `4h²` attention and a gated MLP `3hi` (no biases); the projector's RMSNorm
/// `h`, patch merger `h·s²·h`, `linear_1` `h·H` and `linear_2` `H·H` (+
/// biases with `multimodal_projector_bias`). The largest image is
/// `image_size²`: `(n/s)²` embeddings for `n = image_size / patch_size`.
/// Source: vLLM `models/pixtral.py` (`PixtralHFTransformerBlock`),
/// `models/mistral3.py` (`Mistral3MultiModalProjector`).
fn pixtral(outer: &Map<String, Value>, v: &Map<String, Value>, text: u64) -> Option<VisionTower> {
    let (h, i) = (
        uint(v, "hidden_size", 1024),
        uint(v, "intermediate_size", 4096),
    );
    let layers = uint(v, "num_hidden_layers", 24);
    let (image, patch) = (uint(v, "image_size", 1024), uint(v, "patch_size", 16));
    let merge = uint(outer, "spatial_merge_size", 2).max(1);
    let bias = outer
        .get("multimodal_projector_bias")
        .and_then(Value::as_bool)
        .unwrap_or(false) as u64;
    let side = image / patch.max(1);
    let merged = side / merge;
    Some(VisionTower {
        kind: VisionKind::Pixtral,
        sharded_params: layers * (4 * h * h + 3 * h * i) + h * text + text * text,
        replicated_params: h * 3 * patch * patch
            + h
            + layers * 2 * h
            + h
            + h * merge * merge * h
            + bias * 2 * text,
        hidden: h,
        intermediate: i,
        tokens_per_item: merged * merged,
        pixels_per_item: 3 * image * image,
        patches_per_item: side * side,
        lazy_table_bytes: 0,
    })
}

/// LLaVA-NeXT with a SigLIP tower (Granite-Vision): the tower truncated to
/// the deepest `vision_feature_layer`, a two-layer projector from the
/// concatenated feature layers (`h·n → H`, `H → H`, with biases) and an
/// `image_newline` of `H`. The largest image is the grid pinpoint with the
/// most features (see [`anyres_tokens`]). Source: vLLM
/// `models/llava_next.py` (`get_num_image_tokens`,
/// `_get_num_unpadded_features`, `get_image_size_with_most_features`),
/// `models/llava.py` (`_get_num_hidden_layers`).
fn llava_next(
    outer: &Map<String, Value>,
    v: &Map<String, Value>,
    text: u64,
) -> Option<VisionTower> {
    let (h, i) = (
        uint(v, "hidden_size", 1024),
        uint(v, "intermediate_size", 4096),
    );
    let total_layers = uint(v, "num_hidden_layers", 24);
    let (image, patch) = (uint(v, "image_size", 336), uint(v, "patch_size", 14));
    let feature_layers: Vec<i64> = match outer.get("vision_feature_layer") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_i64).collect(),
        Some(other) => other.as_i64().into_iter().collect(),
        None => vec![-2],
    };
    let depth = |l: i64| -> u64 {
        match l < 0 {
            true => (total_layers as i64 + 1 + l).max(0) as u64,
            false => l as u64,
        }
    };
    let layers = feature_layers
        .iter()
        .map(|l| depth(*l))
        .max()
        .unwrap_or(total_layers)
        .min(total_layers);
    let n_features = feature_layers.len().max(1) as u64;
    let full = outer
        .get("vision_feature_select_strategy")
        .and_then(Value::as_str)
        == Some("full");
    let grid = (image / patch.max(1)).max(1);
    let base = match full {
        true => grid * grid,
        false => (grid * grid).saturating_sub(1),
    };
    let pinpoints: Vec<(u64, u64)> = match outer.get("image_grid_pinpoints") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|p| {
                let pair = p.as_array()?;
                Some((pair.first()?.as_u64()?, pair.get(1)?.as_u64()?))
            })
            .collect(),
        _ => vec![(image, image)],
    };
    let (tokens, tiles) = pinpoints
        .iter()
        .map(|&(hgt, wid)| {
            let rows = (hgt / image.max(1)).max(1);
            let cols = (wid / image.max(1)).max(1);
            (
                anyres_tokens(hgt, wid, grid, rows, cols) + base,
                rows * cols,
            )
        })
        .fold((0, 1), |best, cur| if cur.0 > best.0 { cur } else { best });
    let (ls, lr) = siglip_layer(h, i);
    Some(VisionTower {
        kind: VisionKind::LlavaNext,
        sharded_params: layers * ls + h * n_features * text + text * text,
        replicated_params: layers * lr + siglip_embeddings(h, image, patch) + 3 * text,
        hidden: h,
        intermediate: i,
        tokens_per_item: tokens,
        pixels_per_item: (tiles + 1) * 3 * image * image,
        patches_per_item: (tiles + 1) * grid * grid,
        lazy_table_bytes: 0,
    })
}

/// Features of one any-resolution image of `height × width` tiled
/// `rows × cols`, `n` patches per tile side, without the base tile:
/// the unpadded feature map plus one newline per row.
///
/// ```text
/// H = n·rows, W = n·cols
/// if w/h > W/H: H ← H − 2·⌊(H − round(h·W/w)) / 2⌋
/// else:         W ← W − 2·⌊(W − round(w·H/h)) / 2⌋
/// features = H·W + H
/// ```
///
/// Source: vLLM `models/llava_next.py`, `_get_num_unpadded_features`.
pub fn anyres_tokens(height: u64, width: u64, n: u64, rows: u64, cols: u64) -> u64 {
    let (mut cur_h, mut cur_w) = (n * rows, n * cols);
    if height == 0 || width == 0 {
        return cur_h * cur_w + cur_h;
    }
    // Compare width/height > cur_w/cur_h exactly in integers.
    if (width as u128) * (cur_h as u128) > (cur_w as u128) * (height as u128) {
        let new_h = (height as f64 * (cur_w as f64 / width as f64)).round() as u64;
        let padding = cur_h.saturating_sub(new_h) / 2;
        cur_h -= 2 * padding;
    } else {
        let new_w = (width as f64 * (cur_h as f64 / height as f64)).round() as u64;
        let padding = cur_w.saturating_sub(new_w) / 2;
        cur_w -= 2 * padding;
    }
    cur_h * cur_w + cur_h
}

/// Kimi-VL / MoonViT: patch convolution `h·3·p²` (+ bias), a learned 2-D
/// position table `64 × 64 × h`, per layer `wqkv` `3h²`, `wo` `h²`, MLP
/// `2hi` (with biases) and two LayerNorms; a replicated projector
/// (LayerNorm `h`, `4h → 4h`, `4h → H`, biases). The profiled image is
/// 1024 × 1024 scaled down to at most 4096 patches (the processor's
/// `in_token_limit`) and padded to the 28-pixel merge grid. The tower
/// builds a `512 × 512 × (d/2)` complex64 rotary table (8 bytes each) at
/// its first forward and keeps it. Sources: vLLM `models/kimi_vl.py`
/// (`MaxImageTokenMeta`, `get_num_image_tokens`,
/// `KimiVLMultiModalProjector`), `models/moonvit.py` (`Rope2DPosEmb`,
/// `MoonVitEncoderLayer`).
fn moonvit(v: &Map<String, Value>, text: u64) -> Option<VisionTower> {
    let (h, i) = (
        uint(v, "hidden_size", 1152),
        uint(v, "intermediate_size", 4304),
    );
    let layers = uint(v, "num_hidden_layers", 27);
    let heads = uint(v, "num_attention_heads", 16).max(1);
    let patch = uint(v, "patch_size", 14).max(1);
    let pos_h = uint(v, "init_pos_emb_height", 64);
    let pos_w = uint(v, "init_pos_emb_width", 64);
    let (kh, kw) = match v.get("merge_kernel_size").and_then(Value::as_array) {
        Some(k) if k.len() == 2 => (
            k[0].as_u64().unwrap_or(2).max(1),
            k[1].as_u64().unwrap_or(2).max(1),
        ),
        _ => (2, 2),
    };
    let (side_h, side_w) = moonvit_grid(1024, 1024, patch, 4096, kh, kw);
    let merged = h * kh * kw;
    Some(VisionTower {
        kind: VisionKind::MoonVit,
        sharded_params: layers * (4 * h * h + 2 * h * i),
        replicated_params: h * 3 * patch * patch
            + h
            + pos_h * pos_w * h
            + layers * (3 * h + h + i + h + 4 * h)
            + 2 * h
            + 2 * h
            + merged * merged
            + merged
            + merged * text
            + text,
        hidden: h,
        intermediate: i,
        tokens_per_item: (side_h / kh) * (side_w / kw),
        pixels_per_item: side_h * side_w * 3 * patch * patch,
        patches_per_item: side_h * side_w,
        lazy_table_bytes: 512 * 512 * (h / heads / 2) * 8,
    })
}

/// Patch grid of a MoonViT image: scaled so that at most `limit` patches
/// remain, then padded to whole merge kernels. Returns patches per side
/// (height, width). Source: vLLM `models/kimi_vl.py`,
/// `get_num_image_tokens`.
fn moonvit_grid(width: u64, height: u64, patch: u64, limit: u64, kh: u64, kw: u64) -> (u64, u64) {
    let (mut w, mut h) = (width, height);
    let patches = (w / patch) * (h / patch);
    if patches > limit {
        let scale = (limit as f64 / patches as f64).sqrt();
        w = (w as f64 * scale) as u64;
        h = (h as f64 * scale) as u64;
    }
    let (ch, cw) = (kh * patch, kw * patch);
    let pad_h = (ch - h % ch) % ch;
    let pad_w = (cw - w % cw) % cw;
    ((h + pad_h) / patch, (w + pad_w) / patch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kimi_vl_dummy_image_is_1089_tokens() {
        // 1024² at patch 14 is 5329 patches > 4096: scaled to 897², padded
        // to 924² → 66 × 66 patches → 33 × 33 = 1089 embeddings.
        assert_eq!(moonvit_grid(1024, 1024, 14, 4096, 2, 2), (66, 66));
    }

    #[test]
    fn anyres_square_pinpoint_keeps_the_whole_grid() {
        // A 384 × 768 (h × w) image on 1 × 2 tiles of 27 patches: no padding,
        // 27 rows × 54 columns + 27 newlines.
        assert_eq!(anyres_tokens(384, 768, 27, 1, 2), 27 * 54 + 27);
    }

    #[test]
    fn gemma3_profile_holds_32_crops() {
        let tower = VisionTower {
            kind: VisionKind::Gemma3Siglip,
            sharded_params: 0,
            replicated_params: 0,
            hidden: 1152,
            intermediate: 4304,
            tokens_per_item: 256,
            pixels_per_item: 3 * 896 * 896,
            patches_per_item: 4096,
            lazy_table_bytes: 0,
        };
        let (items, held) = profile_held(&tower, 2560, 2, 8192, 8192, 1024);
        assert_eq!(items, 32);
        assert_eq!(held, 32 * (3 * 896 * 896 + 256 * 2560) * 2);
        // A context of 100 tokens still profiles one image.
        assert_eq!(profile_held(&tower, 2560, 2, 8192, 100, 1024).0, 32);
        assert_eq!(profile_held(&tower, 2560, 2, 8192, 100, 0).0, 1);
    }
}
