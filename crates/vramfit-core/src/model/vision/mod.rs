//! The vision tower and projector of a vision-language model, counted from
//! its `vision_config` as transformers builds them (every engine loads
//! them with the text model).
//!
//! Each supported architecture lists its tensors ([`towers`]) with the
//! shapes and biases of its transformers (or vLLM, for Kimi-VL) modeling
//! code; their sum is the tower's exact parameter count, and the
//! checkpoint's quantization decides which of them are stored quantized. A
//! multimodal config vramfit cannot count is flagged, never counted as
//! zero.

mod config;
mod elsewhere;
mod towers;

#[cfg(test)]
mod tests;

use super::dtype::Dtype;
use super::error::ConfigError;
use super::json::Reader;
use super::quant::{self, Quantization, StoredBytes, VisionTensor};
use serde::Serialize;
use serde_json::Value;

/// The vision encoders vramfit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VisionKind {
    /// SigLIP (Gemma 3, PaliGemma, LLaVA-NeXT / OneVision with SigLIP, Granite Vision).
    Siglip,
    /// CLIP ViT (LLaVA 1.5, LLaVA-NeXT).
    Clip,
    /// Pixtral ViT (Mistral 3, Pixtral in LLaVA).
    Pixtral,
    /// Qwen2-VL ViT with its patch merger.
    Qwen2Vl,
    /// Qwen2.5-VL windowed ViT (RMSNorm, gated MLP).
    Qwen25Vl,
    /// Qwen3-VL ViT with DeepStack mergers.
    Qwen3Vl,
    /// MoonViT (Kimi-VL).
    MoonVit,
    /// MoonViT3d (Kimi-K3): RMSNorm blocks with a wider attention
    /// (`qkv_hidden_size`) and the bias-free patch-merger projector.
    MoonVit3d,
    /// Idefics3 / SmolVLM SigLIP-style encoder and connector.
    Idefics3,
    /// Llama 4 vision encoder and pixel-shuffle adapter.
    Llama4,
    /// InternViT (InternVL, both the transformers and the original layout).
    InternVit,
    /// Gemma-4's encoder (2-D position table, gated MLP, q/k norms).
    Gemma4,
    /// MiniMax-M3-VL's CLIP-style ViT (3-D rotary positions) with its
    /// projector and patch-merge MLP.
    MiniMaxVit,
    /// Step-3.7's Perception Encoder ViT (layer scales, 2-D RoPE) with two
    /// convolution downsamplers.
    StepPerception,
}

/// The vision tower of a vision-language model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VisionSpec {
    pub kind: VisionKind,
    /// The outer `model_type` (`"gemma3"`, `"mistral3"`, ...).
    pub model_type: String,
    /// Encoder layers.
    pub layers: u64,
    /// Encoder width.
    pub hidden_size: u64,
    /// Parameters of the encoder (patch embedding, positions, layers,
    /// norms, pooling head).
    pub encoder_params: u64,
    /// Parameters of the projector into the text model (merger, MLP,
    /// norms, `image_newline`).
    pub projector_params: u64,
    /// `encoder_params + projector_params`.
    pub params: u64,
    /// Storage type of its unquantized tensors.
    pub dtype: Dtype,
    /// Parameters stored quantized (where the checkpoint's quantization
    /// covers the tower).
    pub quantized_params: u64,
    /// Bytes as published.
    pub bytes: u64,
    /// Quantized bytes by kind.
    pub stored: StoredBytes,
    /// Tokens one image becomes in the text model, where that is fixed
    /// (Gemma 3's 256, LLaVA 1.5's 576); `None` where it depends on the
    /// image's resolution.
    pub image_tokens: Option<u64>,
    /// `vision_config` keys absent whose values were taken from the config
    /// class's defaults.
    pub defaults_used: Vec<String>,
    /// Parameters of an audio tower and its embedder counted with this
    /// tower (Gemma-4 E2B/E4B `audio_config`), included in
    /// `encoder_params` (tower) and `projector_params` (embedder).
    pub audio_params: u64,
    /// 0-dim tensors included in `params` (Gemma-4's clipping bounds, 4
    /// per clipped linear). A safetensors parameter count such as the
    /// Hub's leaves them out.
    pub scalars: u64,
}

/// What the totals of a [`super::ModelSpec`] cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Includes {
    /// A text model.
    TextModel,
    /// The text model plus the vision tower and projector.
    TextModelAndVisionTower,
    /// The text model only: the config has a vision tower vramfit does
    /// not count (see `vision_not_counted`).
    TextModelOnlyVisionNotCounted,
    /// The text model plus the vision and audio towers and their
    /// embedders (Gemma-4 E2B/E4B).
    TextModelVisionAndAudioTowers,
}

/// Totals of everything counted in the checkpoint (MTP layers excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckpointTotals {
    pub includes: Includes,
    /// Parameters: text model plus, where counted, vision tower.
    pub params: u64,
    /// Bytes as published of the same.
    pub bytes: u64,
    /// Parameters stored quantized.
    pub quantized_params: u64,
    /// Quantized bytes by kind (payload, scales, zero points, g_idx, other).
    pub quantized_bytes: StoredBytes,
    /// 0-dim tensors included in `params` (Gemma-4's clipping bounds); a
    /// safetensors parameter count such as the Hub's leaves them out.
    pub scalars: u64,
    /// Parameters the family's checkpoints store that the loaded model
    /// drops, not in `params` (Gemma-4's KV-sharing layers keep their own
    /// `k_proj`, `v_proj` and `k_norm` in the files; transformers lists
    /// them in `_keys_to_ignore_on_load_unexpected`).
    pub stored_unloaded: u64,
    /// A second copy of a tied head that the family's original files hold
    /// (`lm_head.weight` beside the embedding it is tied to: tiiuae's
    /// Falcon-7B, 40B and 180B), `V × H` parameters on disk that the loaded
    /// model does not have; 0 otherwise. Whether a given checkpoint holds
    /// it the config cannot say (one re-saved by transformers does not), so
    /// it is reported, not added.
    pub tied_head_copy: u64,
}

/// The reading of a config's vision part.
pub(crate) enum Reading {
    /// A text model.
    None,
    Counted(VisionSpec),
    /// A vision tower that is not counted, and why.
    NotCounted(String),
}

/// Reads the vision tower of a multimodal config. `text_hidden` is the
/// text model's width (the projector's output); `dtype` the checkpoint's.
///
/// # Formula
///
/// ```text
/// params = Σ encoder tensors + Σ projector tensors      (rows × cols each)
/// bytes  = Σ quantized linears [QuantScheme::matrix] + other params × dtype bits / 8
/// ```
///
/// The tensor lists follow transformers' modeling code per architecture
/// (see [`towers`]); golden tests: Gemma 3 (KerasHub), MedGemma 27B and
/// olmOCR (safetensors index `total_size`), Mistral-Small 3.x, Qwen2.5-VL,
/// Qwen3-VL, Llama-4-Scout.
pub(crate) fn read(
    r: &Reader,
    text_hidden: u64,
    dtype: Dtype,
    quant: Option<&Quantization>,
) -> Result<Reading, ConfigError> {
    match r.get_outer("model_type").and_then(Value::as_str) {
        Some("phi3_v") => return phi3_v(r, text_hidden, dtype, quant),
        Some("phi4-siglip") => return phi4_siglip(r, text_hidden, dtype, quant),
        _ => {}
    }
    elsewhere::refuse_towers_elsewhere(r)?;
    let Some(vision) = r.get_outer("vision_config") else {
        // A wrapper's config without its vision_config (a copy trimmed to
        // the text model) still has a tower: flagged, not assumed.
        let outer = r.get_outer("model_type").and_then(Value::as_str);
        return Ok(match outer.filter(|t| super::arch::is_wrapper(t)) {
            Some(t) => Reading::NotCounted(format!(
                "model_type `{t}` has a vision tower but the config has no vision_config"
            )),
            None => Reading::None,
        });
    };
    let vision = vision
        .as_object()
        .ok_or_else(|| ConfigError::wrong_type("vision_config", "object"))?;
    let model_type = r
        .get_outer("model_type")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    let cfg = config::Keys::new(vision, r);
    // An audio tower is counted with the vision tower where vramfit knows
    // it (Gemma-4 E2B/E4B's `gemma4_audio`); otherwise the multimodal part
    // is left out as a whole.
    let audio = match r.get_outer("audio_config") {
        Some(Value::Object(a)) => {
            let kind = a.get("model_type").and_then(Value::as_str);
            match (model_type.as_str(), kind) {
                ("gemma4", None | Some("gemma4_audio")) => Some(a),
                _ => {
                    return Ok(Reading::NotCounted(format!(
                        "model_type `{model_type}`: the audio tower (audio_config) is not \
                         counted, so neither is the vision tower"
                    )))
                }
            }
        }
        _ => None,
    };
    let Some(tower) = towers::build(&model_type, &cfg, text_hidden, audio)? else {
        return Ok(Reading::NotCounted(format!(
            "model_type `{model_type}`: vramfit does not count this vision tower"
        )));
    };
    counted(tower, &cfg, model_type, dtype, quant)
}

/// Phi-3-vision: the image embedding is configured under `img_processor`
/// and `embd_layer` rather than `vision_config` (see
/// [`towers::phi3_v`]).
fn phi3_v(
    r: &Reader,
    text_hidden: u64,
    dtype: Dtype,
    quant: Option<&Quantization>,
) -> Result<Reading, ConfigError> {
    let Some(processor) = r.get_outer("img_processor") else {
        return Ok(Reading::NotCounted(
            "model_type `phi3_v` has a vision tower but the config has no img_processor".into(),
        ));
    };
    let processor = processor
        .as_object()
        .ok_or_else(|| ConfigError::wrong_type("img_processor", "object"))?;
    let cfg = config::Keys::new(processor, r);
    let tower = towers::phi3_v(&cfg, r, text_hidden)?;
    counted(tower, &cfg, "phi3_v".to_string(), dtype, quant)
}

/// Phi-4-reasoning-vision: a `vision_config` beside the LLaVA-style
/// `mm_vision_tower` and `mm_projector_type` the tower's loader reads (see
/// [`towers::phi4_siglip`]).
fn phi4_siglip(
    r: &Reader,
    text_hidden: u64,
    dtype: Dtype,
    quant: Option<&Quantization>,
) -> Result<Reading, ConfigError> {
    let Some(vision) = r.get_outer("vision_config") else {
        return Ok(Reading::NotCounted(
            "model_type `phi4-siglip` has a vision tower but the config has no vision_config"
                .into(),
        ));
    };
    let vision = vision
        .as_object()
        .ok_or_else(|| ConfigError::wrong_type("vision_config", "object"))?;
    let cfg = config::Keys::new(vision, r);
    let tower = towers::phi4_siglip(&cfg, text_hidden)?;
    counted(tower, &cfg, "phi4-siglip".to_string(), dtype, quant)
}

/// The spec of a tower built from `cfg`, or why it is not counted.
fn counted(
    tower: towers::Tower,
    cfg: &config::Keys,
    model_type: String,
    dtype: Dtype,
    quant: Option<&Quantization>,
) -> Result<Reading, ConfigError> {
    let missing = cfg.missing();
    if !missing.is_empty() {
        return Ok(Reading::NotCounted(format!(
            "model_type `{model_type}`: vision_config lacks {}",
            missing.join(", ")
        )));
    }
    let dtype = cfg.dtype()?.unwrap_or(dtype);
    let (encoder, projector) = tower.params();
    let tensors: Vec<VisionTensor> = tower.tensors.iter().map(|t| t.tensor.clone()).collect();
    let (quantized_params, bytes, stored) = quant::weigh_vision(&tensors, quant, dtype);
    Ok(Reading::Counted(VisionSpec {
        kind: tower.kind,
        model_type,
        layers: tower.layers,
        hidden_size: tower.hidden,
        encoder_params: encoder,
        projector_params: projector,
        params: encoder.saturating_add(projector),
        dtype,
        quantized_params,
        bytes,
        stored,
        image_tokens: tower.image_tokens,
        defaults_used: cfg.defaults_used(),
        audio_params: tower.audio_params,
        scalars: tower.scalars,
    }))
}
