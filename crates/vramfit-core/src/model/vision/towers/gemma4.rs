//! Gemma-4's vision encoder and its embedder into the text model.

use super::{mul, tower, Builder, Tower};
use crate::model::error::ConfigError;
use crate::model::json::as_uint;
use crate::model::vision::config::Keys;
use crate::model::vision::VisionKind;
use serde_json::{Map, Value};

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
pub(super) fn gemma4(
    cfg: &Keys,
    text: u64,
    audio: Option<&Map<String, Value>>,
) -> Result<Tower, ConfigError> {
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
                b.scalars(&format!("{l}{module}.clip"), 4);
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
    let before = b.params();
    if let Some(audio) = audio {
        b.projector = false;
        audio_tower(&mut b, audio, text)?;
    }
    let audio_params = b.params().saturating_sub(before);
    let mut t = tower(VisionKind::Gemma4, &v, b, Some(tokens));
    t.audio_params = audio_params;
    Ok(t)
}

/// A size of `audio_config`, or the `Gemma4AudioConfig` default.
fn audio_size(audio: &Map<String, Value>, key: &str, default: u64) -> Result<u64, ConfigError> {
    match audio.get(key).filter(|v| !v.is_null()) {
        Some(v) => as_uint(&format!("audio_config.{key}"), v),
        None => Ok(default),
    }
}

/// Gemma-4's audio tower (`Gemma4AudioModel`, a USM conformer) and its
/// embedder, `D` wide with `h` heads, `L` layers, sub-sampling channels
/// `c0, c1`, convolution kernel `K`, output width `O`:
///
/// ```text
/// subsample: conv0 c0·3·3, norm0 c0, conv1 c1·c0·3·3, norm1 c1,
///            input_proj_linear D × (c0/4)·c1
/// per layer: 2 feed-forwards (ffw_layer_1 4D×D, ffw_layer_2 D×4D, 2 norms D),
///            attention (q, k, v, post D×D; relative_k_proj D×D; per_dim_scale D/h),
///            light conv (linear_start 2D×D, linear_end D×D, depthwise D·K, 2 norms D),
///            norm_pre_attn, norm_post_attn, norm_out D
///            (+ 4 clipping scalars per clipped linear: ffw 1 and 2, q, k, v,
///             post, linear_start, linear_end)
/// output_proj O×D + O; embed_audio.embedding_projection H_text × O
/// ```
///
/// No other biases; the embedder's norm holds no weight; the relative
/// position table and soft cap are buffers not stored. Source:
/// transformers `modeling_gemma4.py` (`Gemma4AudioModel`,
/// `Gemma4AudioSubSampleConvProjection`, `Gemma4AudioLayer`,
/// `Gemma4AudioFeedForward`, `Gemma4AudioAttention`,
/// `Gemma4AudioLightConv1d`, `Gemma4ClippableLinear`,
/// `Gemma4MultimodalEmbedder`); defaults of `Gemma4AudioConfig`.
fn audio_tower(b: &mut Builder, audio: &Map<String, Value>, text: u64) -> Result<(), ConfigError> {
    let d = audio_size(audio, "hidden_size", 1024)?;
    let layers = audio_size(audio, "num_hidden_layers", 12)?;
    let heads = audio_size(audio, "num_attention_heads", 8)?.max(1);
    let kernel = audio_size(audio, "conv_kernel_size", 5)?;
    let out = audio_size(audio, "output_proj_dims", 1536)?;
    let channels = match audio.get("subsampling_conv_channels") {
        None | Some(Value::Null) => vec![128, 32],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| as_uint("audio_config.subsampling_conv_channels", v))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => {
            return Err(ConfigError::wrong_type(
                "audio_config.subsampling_conv_channels",
                "list of integers",
            ))
        }
    };
    let [c0, c1] = channels[..] else {
        return Err(ConfigError::out_of_range(
            "audio_config.subsampling_conv_channels",
            format!("{channels:?}"),
        ));
    };
    let clipped = match audio.get("use_clipped_linears") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(on)) => *on,
        Some(_) => {
            return Err(ConfigError::wrong_type(
                "audio_config.use_clipped_linears",
                "boolean",
            ))
        }
    };
    let p = "audio_tower.";
    b.conv(
        &format!("{p}subsample_conv_projection.layer0.conv"),
        c0,
        1,
        9,
        false,
    );
    b.norm(
        &format!("{p}subsample_conv_projection.layer0.norm"),
        c0,
        false,
    );
    b.conv(
        &format!("{p}subsample_conv_projection.layer1.conv"),
        c1,
        c0,
        9,
        false,
    );
    b.norm(
        &format!("{p}subsample_conv_projection.layer1.norm"),
        c1,
        false,
    );
    b.linear(
        &format!("{p}subsample_conv_projection.input_proj_linear"),
        d,
        mul(&[c0 / 4, c1]),
        false,
    );
    for i in 0..layers {
        let l = format!("{p}layers.{i}.");
        let clip = |b: &mut Builder, module: &str, out: u64, input: u64| {
            b.linear(&format!("{l}{module}.linear"), out, input, false);
            if clipped {
                b.scalars(&format!("{l}{module}.clip"), 4);
            }
        };
        for ff in ["feed_forward1", "feed_forward2"] {
            clip(b, &format!("{ff}.ffw_layer_1"), mul(&[4, d]), d);
            clip(b, &format!("{ff}.ffw_layer_2"), d, mul(&[4, d]));
        }
        for module in ["q_proj", "k_proj", "v_proj", "post"] {
            clip(b, &format!("self_attn.{module}"), d, d);
        }
        clip(b, "lconv1d.linear_start", mul(&[2, d]), d);
        clip(b, "lconv1d.linear_end", d, d);
        b.linear(&format!("{l}self_attn.relative_k_proj"), d, d, false);
        b.param(&format!("{l}self_attn.per_dim_scale"), 1, d / heads);
        b.conv(&format!("{l}lconv1d.depthwise_conv1d"), d, 1, kernel, false);
        for norm in [
            "feed_forward1.pre_layer_norm",
            "feed_forward1.post_layer_norm",
            "feed_forward2.pre_layer_norm",
            "feed_forward2.post_layer_norm",
            "lconv1d.pre_layer_norm",
            "lconv1d.conv_norm",
            "norm_pre_attn",
            "norm_post_attn",
            "norm_out",
        ] {
            b.norm(&format!("{l}{norm}"), d, false);
        }
    }
    b.linear(&format!("{p}output_proj"), out, d, true);
    b.projector = true;
    b.linear("embed_audio.embedding_projection", text, out, false);
    Ok(())
}
