//! Model types whose modelling code is the checkpoint's own
//! (`modeling_<type>.py` on the Hub) and which vLLM ports: read from that
//! port. Orion (OrionStarAI's Orion-14B): a Llama layout whose norms are
//! LayerNorms with a bias. Phi-3-vision (`phi3_v`): a Phi-3 text model;
//! its CLIP tower and HD projector are counted in `vision/towers/phi3v.rs`.
//! Phi-4-reasoning-vision (`phi4-siglip`): a Phi-3-layout text model and a
//! SigLIP-2 tower (`vision/towers/phi4.rs`), from Microsoft's own code.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, Rules};
use super::super::shape::Keys;
use super::llama::shape;
use super::{dense_full, Architecture};

pub(super) const ALL: &[&Architecture] = &[&ORION, &PHI3_V, &PHI4_SIGLIP];

/// Orion's `hidden_act`: vLLM's `OrionMLP` raises on anything but `silu`,
/// and the checkpoint code's MLP is the same gated SiLU.
fn check_act(r: &super::super::json::Reader) -> Result<(), ConfigError> {
    match r.get("hidden_act").and_then(serde_json::Value::as_str) {
        None | Some("silu") => Ok(()),
        Some(act) => Err(ConfigError::unsupported(format!(
            "hidden_act \"{act}\" in an orion config: vLLM's Orion code supports only silu"
        ))),
    }
}

/// # Formula
///
/// ```text
/// params = V·H (embed_tokens) + V·H (lm_head, unless tied)
///        + L·(H·n_q·d + 2·H·n_kv·d + n_q·d·H      q/k/v/o, no bias
///             + 3·H·I                             gate, up, down, no bias
///             + 2·2H)                             input/post_attention LayerNorm, weight and bias
///        + 2H                                     final LayerNorm
/// kv per token = L · 2 · n_kv · d · bytes,  d = H / n_q
/// ```
///
/// Source: vLLM `vllm/model_executor/models/orion.py` (`OrionMLP`,
/// `OrionAttention`, `OrionDecoderLayer`: `nn.LayerNorm`, `OrionModel`,
/// `OrionForCausalLM`: head tied only with `tie_word_embeddings`), adapted
/// from the checkpoint's `modeling_orion.py`. Worked example
/// (Orion-14B-Base: H 5120, I 15360, L 40, 40 heads, V 84608): 2 · 433,192,960
/// + 40 · 340,807,680 + 10,240 = 14,498,703,360.
pub(super) const ORION: Architecture = Architecture {
    family: Family::Orion,
    model_types: &["orion"],
    classes: &["OrionForCausalLM"],
    source: "vLLM vllm/model_executor/models/orion.py (OrionAttention, OrionMLP, \
             OrionDecoderLayer, OrionForCausalLM), adapted from OrionStarAI's modeling_orion.py",
    counts: "bias-free q/k/v/o and gated MLP (silu only), LayerNorms with bias (2 per layer \
             and final), head unless tied (default untied)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        check_act(r)?;
        let rules = Rules {
            norm: Norm::WeightBias,
            ..Rules::LLAMA
        };
        dense_full(shape(r, Family::Orion, &Keys::STANDARD, rules)?)
    },
};

/// Phi-3-vision and Phi-3.5-vision (`phi3_v`): the text model is Phi-3's
/// (`Phi3VModel` holds Phi-3's layers beside `vision_embed_tokens`), read
/// by the `phi3` reader; the image embedding under `img_processor` and
/// `embd_layer` is the checkpoint's vision tower. Sources: vLLM
/// `vllm/model_executor/models/phi3v.py` (`Phi3VForCausalLM`: a Llama-
/// layout model with fused qkv and gate/up, `Phi3HDImageEmbedding`);
/// Microsoft's `modeling_phi3_v.py` and `image_embedding_phi3_v.py`.
pub(super) const PHI3_V: Architecture = Architecture {
    family: Family::Phi3,
    model_types: &["phi3_v"],
    classes: &["Phi3VForCausalLM"],
    source: "vLLM vllm/model_executor/models/phi3v.py (Phi3VForCausalLM, \
             Phi3HDImageEmbedding), from Microsoft's modeling_phi3_v.py and \
             image_embedding_phi3_v.py; the text model as transformers models/phi3",
    counts: "the phi3 text model (fused qkv_proj and gate_up_proj, 2 RMSNorms per layer, head \
             unless tied, sliding_window on every layer when set); the CLIP tower and HD \
             projector counted as the vision tower",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| (super::others::PHI3.read)(r),
};

/// Phi-4-reasoning-vision (`phi4-siglip`): `Phi4VisionR` is a
/// `Phi3Config` and `Phi4ForCausalLMV` a `Phi3ForCausalLM` whose model
/// (`Phi4VisionRModel`, a `Phi3Model`) also holds the vision tower and
/// projector; the text model is read by the `phi3` reader. Source:
/// microsoft/Phi-4-reasoning-vision-15B
/// `huggingface-transformers/modeling_phi4_visionr.py` @ e71388f2.
pub(super) const PHI4_SIGLIP: Architecture = Architecture {
    family: Family::Phi3,
    model_types: &["phi4-siglip"],
    classes: &["Phi4ForCausalLMV"],
    source: "microsoft/Phi-4-reasoning-vision-15B modeling_phi4_visionr.py (Phi4VisionR, \
             Phi4VisionRModel, Phi4ForCausalLMV: Phi3Config, Phi3Model, Phi3ForCausalLM); the \
             text model as transformers models/phi3",
    counts: "the phi3 text model (fused qkv_proj and gate_up_proj, 2 RMSNorms per layer, untied \
             head); the SigLIP-2 NaFlex tower and mm_projector counted as the vision tower",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| (super::others::PHI3.read)(r),
};
