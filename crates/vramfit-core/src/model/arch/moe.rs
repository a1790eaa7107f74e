//! Mixture-of-experts decoders with layouts of their own: DeepSeek's latent
//! attention, GLM-4.5, Llama-4, gpt-oss, MiniMax, Phi-3.5-MoE, OLMoE.

use super::super::error::ConfigError;
use super::super::family::{ActiveCount, Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::mixer::LinearMixer;
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Indexer, Keys, MtpLayout, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[
    &DEEPSEEK_V2,
    &DEEPSEEK_V3,
    &DEEPSEEK_V32,
    &GLM_MOE_DSA,
    &DEEPSEEK_MOE,
    &GLM4_MOE,
    &LLAMA4_TEXT,
    &GPT_OSS,
    &MINIMAX,
    &MINIMAX_M2,
    &PHIMOE,
    &OLMOE,
];

/// DeepSeek's names: `n_routed_experts`, `moe_intermediate_size`,
/// `n_shared_experts` fused into one MLP, dense layers before
/// `first_k_dense_replace`.
const DEEPSEEK_KEYS: MoeKeys = MoeKeys {
    experts: &["n_routed_experts", "num_local_experts"],
    top_k: &["num_experts_per_tok"],
    width: &["moe_intermediate_size"],
    shared: Shared::Count("n_shared_experts"),
    select: Select::FirstDense,
    score_bias_default: false,
    latent: false,
};

fn deepseek(r: &Reader, family: Family, v3: bool) -> Result<Blueprint, ConfigError> {
    deepseek_with(r, family, v3, false)
}

fn deepseek_with(
    r: &Reader,
    family: Family,
    v3: bool,
    indexed: bool,
) -> Result<Blueprint, ConfigError> {
    let keys = Keys {
        kv_heads: &[],
        head_dim: &[],
        ..Keys::STANDARD
    };
    // DeepSeek's reports count activated parameters without the input
    // embedding (DeepSeek-V2-Lite: "2.4B activated" is 2.45 B so counted,
    // 2.66 B with it); GLM-5's layout keeps the default.
    let active = match family {
        Family::DeepseekV2 | Family::DeepseekV3 | Family::DeepseekV32 => {
            ActiveCount::WithoutInputEmbedding
        }
        _ => ActiveCount::AllParameters,
    };
    let rules = Rules {
        qkv_bias: flag(r, "attention_bias", false)?,
        mlp_bias: flag(r, "mlp_bias", false)?,
        active,
        ..Rules::LLAMA
    };
    let mut s = shape(r, family, &keys, rules)?;
    if s.mla.is_none() {
        return Err(ConfigError::missing(vec!["kv_lora_rank".to_string()]));
    }
    s.mtp_layers = r
        .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
        .unwrap_or(0);
    if family == Family::GlmMoeDsa {
        // GLM-5's MTP layer uses the model's embedding and head: the
        // Hub's count of zai-org/GLM-5 (753,864,139,008) is the model and
        // one layer with its norms and eh_proj, no vocabulary matrix.
        s.mtp = Some(MtpLayout {
            vocab_matrices: 0,
            per_step: false,
            blocks: Vec::new(),
            extra: 0,
        });
    }
    if indexed {
        let heads = r.dim(&["index_n_heads"], MAX_HEADS)?.unwrap_or(64);
        let dim = r.dim(&["index_head_dim"], MAX_DIM)?.unwrap_or(128);
        if s.mla.and_then(|m| m.q_lora_rank).is_none() {
            return Err(ConfigError::missing(vec!["q_lora_rank".to_string()]));
        }
        s.indexer = Some(Indexer {
            heads,
            head_dim: dim,
        });
    }
    let moe_keys = MoeKeys {
        score_bias_default: v3,
        ..DEEPSEEK_KEYS
    };
    let moe = moe::read(r, &moe_keys, s.layers)?;
    let mut blocks = layers::uniform(s.layers, Mixer::Full);
    let mut key = "num_hidden_layers";
    if indexed {
        // DeepSeek-V3.2 may list its layers: every attention layer indexed,
        // each MLP dense or sparse.
        if let Some(list) = r.text_list("layer_types")? {
            let names = |t: &str| match t {
                "indexed_attention" | "deepseek_sparse_attention" => Some(Mixer::Full),
                _ => None,
            };
            blocks = layers::listed("layer_types", &list, &names)?;
            key = "layer_types";
        }
        for (b, runs) in blocks.iter_mut().zip(indexer_types(r, s.layers)?) {
            b.indexer = Some(runs);
        }
        if let Some(list) = r.text_list("mlp_layer_types")? {
            layers::check_length("mlp_layer_types", list.len() as u64, s.layers)?;
            for (b, t) in blocks.iter_mut().zip(&list) {
                b.slot = match *t {
                    "dense" => layers::Slot::Dense,
                    "sparse" => layers::Slot::Moe,
                    other => {
                        return Err(ConfigError::unsupported(format!(
                            "mlp_layer_types entry \"{other}\" is not dense or sparse"
                        )))
                    }
                };
            }
        }
    }
    finish(s, moe, blocks, key, Sizes::default(), None)
}

/// Which layers run their own indexer (GLM-5.2's IndexShare): the
/// `indexer_types` list (`full` runs one, `shared` reuses the last full
/// layer's selection and holds no indexer), else `index_topk_pattern`
/// (`F`/`S` per layer), else one in `index_topk_freq` (default 1: every
/// layer) counted from `index_skip_topk_offset` (default 2). Source:
/// transformers `GlmMoeDsaConfig.__post_init__`; the checkpoints store
/// indexer tensors for full layers only.
fn indexer_types(r: &Reader, n: u64) -> Result<Vec<bool>, ConfigError> {
    let named = |key: &'static str, list: &[&str]| -> Result<Vec<bool>, ConfigError> {
        layers::check_length(key, list.len() as u64, n)?;
        list.iter()
            .map(|t| match *t {
                "full" | "F" => Ok(true),
                "shared" | "S" => Ok(false),
                other => Err(ConfigError::unsupported(format!(
                    "{key} entry \"{other}\" is not full or shared"
                ))),
            })
            .collect()
    };
    if let Some(list) = r.text_list("indexer_types")? {
        return named("indexer_types", &list);
    }
    if let Some(pattern) = r.text("index_topk_pattern")? {
        let list: Vec<String> = pattern.chars().map(String::from).collect();
        let list: Vec<&str> = list.iter().map(String::as_str).collect();
        return named("index_topk_pattern", &list);
    }
    let freq = r.dim(&["index_topk_freq"], MAX_LAYERS)?.unwrap_or(1);
    let offset = r
        .count(&["index_skip_topk_offset"], MAX_LAYERS)?
        .unwrap_or(2);
    Ok((0..n)
        .map(|i| (i + 1).saturating_sub(offset).is_multiple_of(freq))
        .collect())
}

pub(super) const DEEPSEEK_V2: Architecture = Architecture {
    family: Family::DeepseekV2,
    model_types: &["deepseek_v2"],
    classes: &["DeepseekV2ForCausalLM"],
    source: "transformers models/deepseek_v2 (DeepseekV2Config, DeepseekV2ForCausalLM)",
    counts: "multi-head latent attention (q_a/q_b or q, kv_a, kv_b, o), routed and shared \
             experts after first_k_dense_replace, router score bias only with noaux_tc; active \
             count without the input embedding (DeepSeek-V2 report)",
    defaults: &[
        ("kv_lora_rank", 512),
        ("qk_nope_head_dim", 128),
        ("qk_rope_head_dim", 64),
        ("v_head_dim", 128),
        ("n_shared_experts", 2),
        ("n_routed_experts", 64),
        ("moe_intermediate_size", 1407),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| deepseek(r, Family::DeepseekV2, false),
};

pub(super) const DEEPSEEK_V3: Architecture = Architecture {
    family: Family::DeepseekV3,
    model_types: &["deepseek_v3", "kimi_k2"],
    classes: &["DeepseekV3ForCausalLM"],
    source: "transformers models/deepseek_v3 (DeepseekV3Config, DeepseekV3ForCausalLM)",
    counts: "multi-head latent attention, 1 shared and n_routed_experts routed experts after \
             first_k_dense_replace, router e_score_correction_bias; MTP layers apart; active count \
             without the input embedding (DeepSeek-V2 report)",
    defaults: &[
        ("kv_lora_rank", 512),
        ("qk_nope_head_dim", 128),
        ("qk_rope_head_dim", 64),
        ("v_head_dim", 128),
        ("n_shared_experts", 1),
        ("n_routed_experts", 256),
        ("moe_intermediate_size", 2048),
        ("num_experts_per_tok", 8),
        ("first_k_dense_replace", 3),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| deepseek(r, Family::DeepseekV3, true),
};

pub(super) const DEEPSEEK_V32: Architecture = Architecture {
    family: Family::DeepseekV32,
    model_types: &["deepseek_v32"],
    classes: &["DeepseekV32ForCausalLM"],
    source: "transformers models/deepseek_v32 (DeepseekV32Config, DeepseekV32ForCausalLM)",
    counts: "DeepSeek-V3's layers plus a sparse-attention indexer in each (wq_b, wk, k_norm, \
             weights_proj); the KV figure adds the indexer's key cache (index_head_dim per \
             token; vLLM keeps it in FP8); MTP layers apart; active count without the input \
             embedding (DeepSeek-V2 report)",
    defaults: &[
        ("kv_lora_rank", 512),
        ("qk_nope_head_dim", 128),
        ("qk_rope_head_dim", 64),
        ("v_head_dim", 128),
        ("n_shared_experts", 1),
        ("n_routed_experts", 256),
        ("moe_intermediate_size", 2048),
        ("num_experts_per_tok", 8),
        ("first_k_dense_replace", 3),
        ("index_n_heads", 64),
        ("index_head_dim", 128),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_layer_types", "indexer_types"],
    read: |r| deepseek_with(r, Family::DeepseekV32, true, true),
};

pub(super) const GLM_MOE_DSA: Architecture = Architecture {
    family: Family::GlmMoeDsa,
    model_types: &["glm_moe_dsa"],
    classes: &["GlmMoeDsaForCausalLM"],
    source: "transformers models/glm_moe_dsa (GlmMoeDsaConfig, GlmMoeDsaForCausalLM)",
    counts: "DeepSeek-V3.2's layout (latent attention with a sparse-attention indexer, shared \
             and routed experts after first_k_dense_replace, router score bias); IndexShare \
             layers (indexer_types shared) hold no indexer and cache no indexer keys; the \
             indexer's keys are in the KV figure; MTP layers apart",
    defaults: &[("index_n_heads", 32), ("index_head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_layer_types", "indexer_types"],
    read: |r| deepseek_with(r, Family::GlmMoeDsa, true, true),
};

/// DeepSeek-MoE (first generation, `DeepseekForCausalLM`): Llama
/// attention, shared and routed experts after `first_k_dense_replace`.
pub(super) const DEEPSEEK_MOE: Architecture = Architecture {
    family: Family::DeepseekMoe,
    model_types: &["deepseek"],
    classes: &["DeepseekForCausalLM"],
    source: "deepseek-ai/deepseek-moe-16b-base modeling_deepseek.py (checkpoint code; vLLM \
             deepseek.py)",
    counts: "Llama attention (biases with attention_bias), n_shared_experts fused shared \
             experts and n_routed_experts routed ones after first_k_dense_replace, bias-free \
             router, 2 RMSNorms per layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?);
        let s = shape(r, Family::DeepseekMoe, &Keys::STANDARD, rules)?;
        let moe = moe::read(r, &DEEPSEEK_KEYS, s.layers)?;
        let blocks = layers::uniform(s.layers, Mixer::Full);
        finish(s, moe, blocks, "num_hidden_layers", Sizes::default(), None)
    },
};

pub(super) const GLM4_MOE: Architecture = Architecture {
    family: Family::Glm4Moe,
    model_types: &["glm4_moe"],
    classes: &["Glm4MoeForCausalLM"],
    source: "transformers models/glm4_moe (Glm4MoeConfig, Glm4MoeForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), per-head q/k RMSNorms when use_qk_norm, \
             shared and routed experts after first_k_dense_replace, router score bias; MTP \
             layers apart",
    defaults: &[
        ("num_key_value_heads", 8),
        ("moe_intermediate_size", 1408),
        ("num_experts_per_tok", 8),
        ("n_shared_experts", 1),
        ("n_routed_experts", 128),
        ("first_k_dense_replace", 1),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qkv_bias: flag(r, "attention_bias", false)?,
            qk_norm: match flag(r, "use_qk_norm", false)? {
                true => QkNorm::Shared(Norm::Weight),
                false => QkNorm::None,
            },
            ..Rules::LLAMA
        };
        let mut s = shape(r, Family::Glm4Moe, &Keys::STANDARD, rules)?;
        s.mtp_layers = r
            .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
            .unwrap_or(0);
        let keys = MoeKeys {
            score_bias_default: true,
            ..DEEPSEEK_KEYS
        };
        let moe = moe::read(r, &keys, s.layers)?;
        let blocks = layers::uniform(s.layers, Mixer::Full);
        finish(s, moe, blocks, "num_hidden_layers", Sizes::default(), None)
    },
};

pub(super) const LLAMA4_TEXT: Architecture = Architecture {
    family: Family::Llama4,
    model_types: &["llama4_text"],
    classes: &["Llama4ForCausalLM"],
    source: "transformers models/llama4 (Llama4TextConfig, Llama4TextModel)",
    counts: "bias-free attention (q/k L2 norm holds no weight), experts with a shared expert \
             on moe_layers, dense MLP of intermediate_size_mlp elsewhere, chunked attention \
             on RoPE layers",
    defaults: &[
        ("num_key_value_heads", 8),
        ("head_dim", 128),
        ("num_local_experts", 16),
        ("num_experts_per_tok", 1),
        ("attention_chunk_size", 8192),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "no_rope_layers", "moe_layers"],
    read: |r| {
        let keys = Keys {
            intermediate: &["intermediate_size_mlp"],
            ..Keys::STANDARD
        };
        let rules = Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?);
        let s = shape(r, Family::Llama4, &keys, rules)?;
        let moe_keys = MoeKeys {
            experts: &["num_local_experts"],
            top_k: &["num_experts_per_tok"],
            width: &["intermediate_size"],
            shared: Shared::One,
            select: Select::Interleaved,
            score_bias_default: false,
            latent: false,
        };
        let moe = moe::read(r, &moe_keys, s.layers)?;
        let chunk = r.dim(&["attention_chunk_size"], MAX_CONTEXT)?;
        let names = |t: &str| match t {
            "full_attention" => Some(Mixer::Full),
            "chunked_attention" => Some(Mixer::Chunked),
            _ => None,
        };
        let blocks = match layers::layer_types(r, &names)? {
            Some(b) => b,
            None => {
                let n = s.layers;
                let uses_rope: Vec<bool> = match r.uint_list("no_rope_layers")? {
                    Some(list) if !list.is_empty() => {
                        layers::check_length("no_rope_layers", list.len() as u64, n)?;
                        list.iter().map(|v| *v != 0).collect()
                    }
                    _ => {
                        let every = r.dim(&["no_rope_layer_interval"], MAX_LAYERS)?.unwrap_or(4);
                        (0..n).map(|i| !(i + 1).is_multiple_of(every)).collect()
                    }
                };
                let chunked = |i: u64| chunk.is_some() && uses_rope[i as usize];
                layers::by_index(n, chunked, Mixer::Chunked, Mixer::Full)
            }
        };
        let sizes = Sizes {
            window: None,
            chunk,
        };
        finish(s, moe, blocks, "layer_types", sizes, None)
    },
};

pub(super) const GPT_OSS: Architecture = Architecture {
    family: Family::GptOss,
    model_types: &["gpt_oss"],
    classes: &["GptOssForCausalLM"],
    source: "transformers models/gpt_oss (GptOssConfig, GptOssForCausalLM)",
    counts: "q/k/v/o with biases, one sink logit per head, experts with fused gate_up and \
             biases, router with bias; sliding and full layers from layer_types; active \
             count leaves out the input embedding (model card)",
    defaults: &[
        ("num_local_experts", 128),
        ("intermediate_size", 2880),
        ("head_dim", 64),
        ("num_key_value_heads", 8),
        ("sliding_window", 128),
        ("num_experts_per_tok", 4),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let rules = Rules {
            attention_sinks: true,
            router_bias: true,
            expert_bias: true,
            fused_gate_up: true,
            active: ActiveCount::WithoutInputEmbedding,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", true)?)
        };
        let s = shape(r, Family::GptOss, &Keys::STANDARD, rules)?;
        let keys = MoeKeys {
            experts: &["num_local_experts", "num_experts"],
            top_k: &["num_experts_per_tok", "experts_per_token"],
            ..MoeKeys::MIXTRAL
        };
        let moe = moe::read(r, &keys, s.layers)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => layers::by_index(
                s.layers,
                |i| !(i + 1).is_multiple_of(2),
                Mixer::Sliding,
                Mixer::Full,
            ),
        };
        let sizes = Sizes {
            window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
            chunk: None,
        };
        finish(s, moe, blocks, "layer_types", sizes, None)
    },
};

/// MiniMax-Text-01: `layer_types` of lightning (linear) and full attention
/// (the checkpoint code's `attn_type_list`: 0 linear, 1 full), experts in
/// every layer.
fn minimax(r: &Reader) -> Result<Blueprint, ConfigError> {
    // The MiniMax-01 report's "45.9B activated" counts the decoder layers
    // only: no embedding, no head, no decay buffers.
    let rules = Rules {
        active: ActiveCount::WithoutEmbeddings,
        ..Rules::LLAMA
    };
    let s = shape(r, Family::MiniMax, &Keys::STANDARD, rules)?;
    let keys = MoeKeys {
        experts: &["num_local_experts", "num_experts"],
        ..MoeKeys::MIXTRAL
    };
    let moe = moe::read(r, &keys, s.layers)?;
    let names = |t: &str| match t {
        "full_attention" => Some(Mixer::Full),
        "linear_attention" => Some(Mixer::Linear),
        _ => None,
    };
    let (blocks, key) = match layers::layer_types(r, &names)? {
        Some(b) => (b, "layer_types"),
        None => match r.uint_list("attn_type_list")? {
            Some(list) => {
                let blocks = list
                    .iter()
                    .map(|v| match v {
                        0 => Ok(layers::Block::new(Mixer::Linear, layers::Slot::Auto)),
                        1 => Ok(layers::Block::new(Mixer::Full, layers::Slot::Auto)),
                        _ => Err(ConfigError::unsupported(format!(
                            "attn_type_list entry {v} is not 0 (linear) or 1 (full)"
                        ))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (blocks, "attn_type_list")
            }
            None => (
                layers::by_index(
                    s.layers,
                    |i| !(i + 1).is_multiple_of(2),
                    Mixer::Full,
                    Mixer::Linear,
                ),
                "num_hidden_layers",
            ),
        },
    };
    let mixer = LinearMixer::Lightning {
        heads: s.heads,
        head_dim: s.head_dim,
        block: r.dim(&["block_size"], MAX_CONTEXT)?.unwrap_or(256),
    };
    let sizes = Sizes {
        window: None,
        chunk: None,
    };
    finish(s, moe, blocks, key, sizes, Some(mixer))
}

pub(super) const MINIMAX: Architecture = Architecture {
    family: Family::MiniMax,
    model_types: &["minimax", "minimax_text_01", "minimax_m1"],
    classes: &[
        "MiniMaxForCausalLM",
        "MiniMaxText01ForCausalLM",
        "MiniMaxM1ForCausalLM",
    ],
    source: "transformers models/minimax (MiniMaxConfig, MiniMaxForCausalLM); \
             MiniMaxAI/MiniMax-Text-01 checkpoint code for attn_type_list; MiniMax-M1 is the \
             same model (its modeling_minimax_m1.py; vLLM minimax_text_01.py registers \
             MiniMaxM1ForCausalLM with MiniMaxText01ForCausalLM)",
    counts: "lightning layers (qkv, output gate, out, norm, the stored decay buffers of \
             block_size; a head_dim² state per head) and full attention layers from \
             layer_types or attn_type_list, experts in every layer; active count of the decoder \
             layers' parameters only (MiniMax-01 report)",
    defaults: &[("num_key_value_heads", 8)],
    nested_defaults: &[],
    layer_keys: &["layer_types", "attn_type_list"],
    read: minimax,
};

pub(super) const MINIMAX_M2: Architecture = Architecture {
    family: Family::MiniMaxM2,
    model_types: &["minimax_m2"],
    classes: &["MiniMaxM2ForCausalLM"],
    source: "transformers models/minimax_m2 (MiniMaxM2Config, MiniMaxM2ForCausalLM)",
    counts: "bias-free attention with full-width q/k RMSNorms, experts in every layer with \
             a router score bias; an attn_type_list must say full attention everywhere; active \
             count of the decoder layers only (MiniMax-01 report)",
    defaults: &[
        ("num_key_value_heads", 8),
        ("head_dim", 128),
        ("num_local_experts", 256),
        ("num_experts_per_tok", 8),
    ],
    nested_defaults: &[],
    layer_keys: &["attn_type_list"],
    read: |r| {
        // Active counts as MiniMax counts them (see `minimax`).
        let rules = Rules {
            qk_norm: QkNorm::PerHead,
            active: ActiveCount::WithoutEmbeddings,
            ..Rules::LLAMA
        };
        let s = shape(r, Family::MiniMaxM2, &Keys::STANDARD, rules)?;
        // The checkpoint code's `attn_type_list` (1: full attention) may be
        // written; MiniMax-M2 has full attention only.
        if let Some(list) = r.uint_list("attn_type_list")? {
            layers::check_length("attn_type_list", list.len() as u64, s.layers)?;
            if list.iter().any(|t| *t != 1) {
                return Err(ConfigError::unsupported(
                    "attn_type_list with linear (0) layers in a minimax_m2 config".to_string(),
                ));
            }
        }
        let keys = MoeKeys {
            experts: &["num_local_experts", "num_experts"],
            score_bias_default: true,
            ..MoeKeys::MIXTRAL
        };
        let mut moe = moe::read(r, &keys, s.layers)?;
        if let Some(m) = moe.as_mut() {
            m.score_bias = true;
        }
        let blocks = layers::uniform(s.layers, Mixer::Full);
        finish(s, moe, blocks, "num_hidden_layers", Sizes::default(), None)
    },
};

pub(super) const PHIMOE: Architecture = Architecture {
    family: Family::PhiMoe,
    model_types: &["phimoe"],
    classes: &["PhimoeForCausalLM"],
    source: "transformers models/phimoe (PhimoeConfig, PhimoeForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), experts in every layer, LayerNorms with \
             bias, head bias with lm_head_bias; sliding_window on every layer when set",
    defaults: &[
        ("num_key_value_heads", 8),
        ("num_experts_per_tok", 2),
        ("num_local_experts", 16),
    ],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            norm: Norm::WeightBias,
            lm_head_bias: flag(r, "lm_head_bias", false)?,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        let s = shape(r, Family::PhiMoe, &Keys::STANDARD, rules)?;
        let moe = moe::read(r, &MoeKeys::MIXTRAL, s.layers)?;
        let blocks = layers::uniform(s.layers, Mixer::Sliding);
        let sizes = Sizes {
            window: layers::window(r, "sliding_window", false)?,
            chunk: None,
        };
        finish(s, moe, blocks, "num_hidden_layers", sizes, None)
    },
};

pub(super) const OLMOE: Architecture = Architecture {
    family: Family::Olmoe,
    model_types: &["olmoe"],
    classes: &["OlmoeForCausalLM"],
    source: "transformers models/olmoe (OlmoeConfig, OlmoeForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), full-width q/k RMSNorms, experts in every \
             layer, 2 RMSNorms per layer",
    defaults: &[("num_experts_per_tok", 8), ("num_experts", 64)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qk_norm: QkNorm::PerHead,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        let s = shape(r, Family::Olmoe, &Keys::STANDARD, rules)?;
        let keys = MoeKeys {
            experts: &["num_experts", "num_local_experts"],
            ..MoeKeys::MIXTRAL
        };
        let moe = moe::read(r, &keys, s.layers)?;
        let blocks = layers::uniform(s.layers, Mixer::Full);
        finish(s, moe, blocks, "num_hidden_layers", Sizes::default(), None)
    },
};
