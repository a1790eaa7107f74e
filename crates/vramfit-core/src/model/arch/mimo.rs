//! Xiaomi MiMo: MiMo-7B (Qwen2 layers with multi-token-prediction layers
//! stored beside them) and MiMo-V2-Flash (sliding and full attention
//! layers with their own key/value heads, values narrower than keys, sink
//! logits on the sliding layers, experts on the layers `moe_layer_freq`
//! marks).

use super::super::error::ConfigError;
use super::super::family::{Family, Rules};
use super::super::json::Reader;
use super::super::layers::{self, Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, MtpLayout, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[&MIMO, &MIMO_V2_FLASH];

/// One MTP step of MiMo: `token_layernorm`, `hidden_layernorm`,
/// `input_proj` (2H → H), one decoder layer like the model's, and
/// `final_layernorm`; embedding and head are the model's.
fn mtp(r: &Reader) -> Result<(u64, MtpLayout), ConfigError> {
    let layers = r
        .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
        .unwrap_or(0);
    let layout = MtpLayout {
        vocab_matrices: 0,
        per_step: false,
        blocks: vec![Block::new(Mixer::Full, Slot::Auto)],
        extra: 0,
    };
    Ok((layers, layout))
}

pub(super) const MIMO: Architecture = Architecture {
    family: Family::MiMo,
    model_types: &["mimo"],
    classes: &["MiMoForCausalLM"],
    source: "XiaomiMiMo/MiMo-7B-Base modeling_mimo.py (checkpoint code: MiMoModel on \
             Qwen2Model); vLLM mimo.py, mimo_mtp.py",
    counts: "Qwen2's layers (q/k/v biases, sliding layers only with use_sliding_window); MTP \
             layers (norms, input_proj, one Qwen2 layer) apart",
    defaults: &[("num_key_value_heads", 32)],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let mut bp = super::qwen::qwen2(r, Family::MiMo)?;
        let (layers, layout) = mtp(r)?;
        bp.shape.mtp_layers = layers;
        bp.shape.mtp = Some(layout);
        Ok(bp)
    },
};

/// `hybrid_layer_pattern` (1: sliding window, 0: full attention) and
/// `moe_layer_freq` (1: experts, 0: dense MLP), one entry per layer.
fn mimo_v2_flash(r: &Reader) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    };
    // The output projection has no bias whatever `attention_bias` says.
    let rules = Rules {
        o_bias: false,
        ..rules
    };
    let mut s = shape(r, Family::MiMoV2, &Keys::STANDARD, rules)?;
    s.v_head_dim = r.dim(&["v_head_dim"], MAX_DIM)?;
    let n = s.layers;
    let pattern = r
        .uint_list("hybrid_layer_pattern")?
        .ok_or_else(|| ConfigError::missing(vec!["hybrid_layer_pattern".to_string()]))?;
    layers::check_length("hybrid_layer_pattern", pattern.len() as u64, n)?;
    let routed = match r.get("moe_layer_freq") {
        Some(v) if v.is_array() => {
            let list = r.uint_list("moe_layer_freq")?.unwrap_or_default();
            layers::check_length("moe_layer_freq", list.len() as u64, n)?;
            list.iter().map(|v| *v != 0).collect::<Vec<_>>()
        }
        // An integer `moe_layer_freq` routes no layer (`is_moe_layer`).
        _ => vec![false; n as usize],
    };
    let swa_heads = r
        .dim(&["swa_num_attention_heads"], MAX_HEADS)?
        .unwrap_or(s.heads);
    if swa_heads != s.heads {
        return Err(ConfigError::unsupported(
            "swa_num_attention_heads other than num_attention_heads".to_string(),
        ));
    }
    let swa_kv = r
        .dim(&["swa_num_key_value_heads"], MAX_HEADS)?
        .unwrap_or(s.kv_heads);
    let swa_dim = r.dim(&["swa_head_dim"], MAX_DIM)?.unwrap_or(s.head_dim);
    let swa_v = r.dim(&["swa_v_head_dim"], MAX_DIM)?;
    if swa_v.unwrap_or(swa_dim) != s.v_head_dim.unwrap_or(s.head_dim) || swa_dim != s.head_dim {
        return Err(ConfigError::unsupported(
            "sliding layers whose head widths differ from the full layers'".to_string(),
        ));
    }
    if swa_kv == 0 || !s.heads.is_multiple_of(swa_kv) {
        return Err(ConfigError::contradictory(
            &["num_attention_heads", "swa_num_key_value_heads"],
            format!(
                "{swa_kv} key/value heads cannot be shared evenly by {} query heads",
                s.heads
            ),
        ));
    }
    let swa_sinks = flag(r, "add_swa_attention_sink_bias", false)?;
    let full_sinks = flag(r, "add_full_attention_sink_bias", false)?;
    let mut blocks = Vec::with_capacity(n as usize);
    for (kind, moe_layer) in pattern.iter().zip(&routed) {
        let slot = if *moe_layer { Slot::Moe } else { Slot::Dense };
        let b = match kind {
            1 => Block {
                kv_heads: Some(swa_kv),
                sinks: Some(swa_sinks),
                ..Block::new(Mixer::Sliding, slot)
            },
            0 => Block {
                sinks: Some(full_sinks),
                ..Block::new(Mixer::Full, slot)
            },
            other => {
                return Err(ConfigError::unsupported(format!(
                    "hybrid_layer_pattern entry {other} is not 0 (full) or 1 (sliding)"
                )))
            }
        };
        blocks.push(b);
    }
    let keys = MoeKeys {
        experts: &["n_routed_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["moe_intermediate_size"],
        shared: Shared::Count("n_shared_experts"),
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
    let moe = moe::read(r, &keys, n)?;
    let sizes = Sizes {
        window: r.dim(&["sliding_window_size", "sliding_window"], MAX_CONTEXT)?,
        chunk: None,
    };
    finish(s, moe, blocks, "hybrid_layer_pattern", sizes, None)
}

pub(super) const MIMO_V2_FLASH: Architecture = Architecture {
    family: Family::MiMoV2,
    model_types: &["mimo_v2_flash"],
    classes: &["MiMoV2FlashForCausalLM"],
    source: "vLLM model_executor/models/mimo_v2_flash.py (MiMoV2Attention, MiMoV2MoE, \
             MiMoV2FlashDecoderLayer); XiaomiMiMo/MiMo-V2-Flash config",
    counts: "q/k/v/o with value heads of v_head_dim, sliding layers (hybrid_layer_pattern 1) \
             with swa_num_key_value_heads and sink logits, full layers with \
             num_key_value_heads, experts (router with score bias under noaux_tc) where \
             moe_layer_freq lists 1, dense MLP elsewhere, 2 RMSNorms per layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &["hybrid_layer_pattern", "moe_layer_freq"],
    read: mimo_v2_flash,
};
