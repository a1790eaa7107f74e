//! Model types whose modelling code is the checkpoint's own
//! (`modeling_<type>.py` on the Hub) and which vLLM ports: read from that
//! port. Orion (OrionStarAI's Orion-14B): a Llama layout whose norms are
//! LayerNorms with a bias. Phi-3-vision (`phi3_v`): a Phi-3 text model;
//! its CLIP tower and HD projector are counted in `vision/towers/phi3v.rs`.
//! Phi-4-reasoning-vision (`phi4-siglip`): a Phi-3-layout text model and a
//! SigLIP-2 tower (`vision/towers/phi4.rs`), from Microsoft's own code.
//! RWKV-5 (`rwkv5`): recurrent blocks whose state is fixed per sequence,
//! from mlc-llm's implementation.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, Rules};
use super::super::mixer::LinearMixer;
use super::super::shape::Keys;
use super::llama::shape;
use super::{dense_full, Architecture};

pub(super) const ALL: &[&Architecture] = &[&ORION, &PHI3_V, &PHI4_SIGLIP, &RWKV5];

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

/// RWKV-5 "Eagle" (`rwkv5`, `model_version` "5_2"): every block a
/// time-mixing and a channel-mixing part ([`LinearMixer::Rwkv5`]) with
/// two LayerNorms; `pre_ln` after the embedding, `ln_out`, and a head.
///
/// # Formula
///
/// ```text
/// params = V·H (embeddings) + 2H (blocks.0.pre_ln)
///        + L·(2·h·d + 4H + 5H² + 2H         time mixing, ln_x
///             + 2H + 2·I·H + H²             channel mixing
///             + 2·2H)                       ln1, ln2
///        + 2H (ln_out) + V·H (head)
/// state per sequence = L·(2H + h·d²·w),  KV per token 0
/// ```
///
/// Symbols: `H` `hidden_size`, `h = H / head_size` heads of `d =
/// head_size` (64), `I` `intermediate_size` or, when null, `⌊3.5H⌋` rounded
/// down to a multiple of 32, `L` layers, `V` vocabulary, `w = 32 / b` with
/// `b` the weights' bits (the wkv state is float32). The head is always
/// its own matrix: mlc-llm builds `head` and loads the checkpoint's
/// `head.weight` whatever `tie_word_embeddings` says (RWKV checkpoints
/// store `emb` and `head` apart). `attention_hidden_size` must equal
/// `hidden_size` (mlc-llm sizes every projection by the hidden size).
/// Sources: mlc-llm `python/mlc_llm/model/rwkv5/rwkv5_model.py`
/// (`RWKV5Config`, `RWKV5_Attention`, `RWKV5_FNN`, `RWKV5_Layer`,
/// `RWKV5_Model`, `RWKV5_ForCasualLM`, `create_rnn_state`) and
/// `rwkv5_loader.py` @ 01ced331. Worked example (RWKV/rwkv-5-world-3b: H
/// 2560, L 32, V 65536, I 8960): 2 · 167,772,160 + 32 · 85,232,640 +
/// 10,240 = 3,062,999,040; state 32 · (5,120 + 40 · 4,096 · 2) =
/// 10,649,600 elements, 21,299,200 bytes per sequence.
pub(super) const RWKV5: Architecture = Architecture {
    family: Family::Rwkv5,
    model_types: &["rwkv5"],
    classes: &[],
    source: "mlc-llm python/mlc_llm/model/rwkv5/rwkv5_model.py (RWKV5_Attention, RWKV5_FNN, \
             RWKV5_Layer, create_rnn_state) and rwkv5_loader.py, the serving engine's port of \
             the checkpoint's modeling_rwkv5.py",
    counts: "time mixing (decay and bonus per head, four token-shift mixes, key, value, \
             receptance, gate, output, GroupNorm) and squared-ReLU channel mixing in every \
             block, LayerNorms with bias (2 per block, pre_ln, ln_out), untied head; a fixed \
             state per sequence (two token shifts and a float32 head_size² state per head)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: rwkv5,
};

fn rwkv5(r: &super::super::json::Reader) -> Result<super::Blueprint, ConfigError> {
    use super::super::layers::{Block, Mixer, Sizes, Slot};
    use super::super::shape::MAX_DIM;
    let refuse = |what: String| {
        Err(ConfigError::unsupported(format!(
            "{what} in an rwkv5 config: mlc-llm's RWKV-5 code builds model_version 5_2 with \
             every projection as wide as hidden_size"
        )))
    };
    match r.get("model_version").and_then(serde_json::Value::as_str) {
        Some("5_2") => {}
        Some(v) => return refuse(format!("model_version \"{v}\"")),
        None => return Err(ConfigError::missing(vec!["model_version".to_string()])),
    }
    let keys = Keys {
        heads: &[],
        kv_heads: &[],
        intermediate: &[],
        context: &[],
        head_dim: &[],
        ..Keys::STANDARD
    };
    let rules = Rules {
        norm: Norm::WeightBias,
        embedding_norm: true,
        ..Rules::LLAMA
    };
    let mut s = shape(r, Family::Rwkv5, &keys, rules)?;
    s.tied = false;
    let head_size = r.dim(&["head_size"], MAX_DIM)?.unwrap_or(64);
    if let Some(a) = r.dim(&["attention_hidden_size"], MAX_DIM)? {
        if a != s.hidden {
            return refuse(format!(
                "attention_hidden_size {a} (hidden_size {})",
                s.hidden
            ));
        }
    }
    if !s.hidden.is_multiple_of(head_size) {
        return Err(ConfigError::contradictory(
            &["hidden_size", "head_size"],
            format!("{} is not a multiple of head_size {head_size}", s.hidden),
        ));
    }
    let intermediate = match r.dim(&["intermediate_size"], MAX_DIM)? {
        Some(i) => i,
        None => s.hidden.saturating_mul(7) / 2 / 32 * 32,
    };
    let wkv_scale = (32_000 / s.dtype.milli_bits().max(1)).max(1);
    let mixer = LinearMixer::Rwkv5 {
        heads: s.hidden / head_size,
        head_size,
        intermediate,
        wkv_scale,
    };
    let blocks = (0..s.layers)
        .map(|_| Block::new(Mixer::Linear, Slot::None))
        .collect();
    super::finish(
        s,
        None,
        blocks,
        "num_hidden_layers",
        Sizes::default(),
        Some(mixer),
    )
}
