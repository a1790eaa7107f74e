//! Gemma-4's vision encoder and its embedder into the text model.

use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;

/// Gemma-4 (`Gemma4VisionModel`, `Gemma4MultimodalEmbedder`), `H` wide,
/// `I` MLP width, `n` heads and `n_kv` key/value heads of `d`, patches of
/// `p`, a position table of `P` per axis:
///
/// ```text
/// patch_embedder: input_proj H × 3p², position_embedding_table 2·P × H
/// per layer: q n·d×H, k, v n_kv·d×H, o H×n·d, q_norm d, k_norm d,
///            gate, up I×H, down H×I, 4 norms H
///            (+ 4 clipping scalars per linear with use_clipped_linears)
/// std_bias, std_scale H (with standardize)
/// embed_vision.embedding_projection  H_text × H
/// ```
///
/// No biases; `v_norm` and the embedder's norm hold no weights. Source:
/// transformers `modeling_gemma4.py` (`Gemma4VisionPatchEmbedder`,
/// `Gemma4VisionAttention`, `Gemma4ClippableLinear`, `Gemma4VisionMLP`,
/// `Gemma4VisionEncoderLayer`).
pub(super) fn gemma4(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let hidden = cfg.or(&["hidden_size"], 768)?;
    let intermediate = cfg.or(&["intermediate_size"], 3072)?;
    let layers = cfg.or(&["num_hidden_layers"], 16)?;
    let heads = cfg.or(&["num_attention_heads"], 12)?;
    let kv_heads = cfg.or(&["num_key_value_heads"], 12)?;
    let d = cfg.or(&["head_dim"], 64)?;
    let patch = cfg.or(&["patch_size"], 16)?;
    let positions = cfg.or(&["position_embedding_size"], 10_240)?;
    let clipped = cfg.flag("use_clipped_linears", false)?;
    let mut b = Builder::new();
    let prefix = "vision_tower.";
    b.linear(
        &format!("{prefix}patch_embedder.input_proj"),
        hidden,
        mul(&[3, patch, patch]),
        false,
    );
    b.param(
        &format!("{prefix}patch_embedder.position_embedding_table"),
        mul(&[2, positions]),
        hidden,
    );
    let q = mul(&[heads, d]);
    let kv = mul(&[kv_heads, d]);
    for i in 0..layers {
        let l = format!("{prefix}encoder.layers.{i}.");
        let linears = [
            ("self_attn.q_proj", q, hidden),
            ("self_attn.k_proj", kv, hidden),
            ("self_attn.v_proj", kv, hidden),
            ("self_attn.o_proj", hidden, q),
            ("mlp.gate_proj", intermediate, hidden),
            ("mlp.up_proj", intermediate, hidden),
            ("mlp.down_proj", hidden, intermediate),
        ];
        for (module, out, input) in linears {
            b.linear(&format!("{l}{module}.linear"), out, input, false);
            if clipped {
                b.param(&format!("{l}{module}.clip"), 1, 4);
            }
        }
        b.norm(&format!("{l}self_attn.q_norm"), d, false);
        b.norm(&format!("{l}self_attn.k_norm"), d, false);
        for norm in [
            "input_layernorm",
            "post_attention_layernorm",
            "pre_feedforward_layernorm",
            "post_feedforward_layernorm",
        ] {
            b.norm(&format!("{l}{norm}"), hidden, false);
        }
    }
    if cfg.flag("standardize", false)? {
        b.param(&format!("{prefix}std_bias"), 1, hidden);
        b.param(&format!("{prefix}std_scale"), 1, hidden);
    }
    b.projector = true;
    b.linear("embed_vision.embedding_projection", text, hidden, false);
    let tokens = cfg.outer_or("vision_soft_tokens_per_image", 280)?;
    let v = super::encoders::Vit {
        hidden,
        intermediate,
        layers,
        channels: 3,
    };
    Ok(tower(VisionKind::Gemma4, &v, b, Some(tokens)))
}
