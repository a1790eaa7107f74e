//! The GPT lineage and other pre-Llama layouts: LayerNorms with biases,
//! plain (ungated) MLPs, fused q/k/v, learned positions or ALiBi, parallel
//! attention and MLP; plus DBRX and ChatGLM, which keep their sizes under
//! names of their own.

use super::super::dtype::Dtype;
use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, Shape, MAX_CONTEXT, MAX_DIM, MAX_HEADS};
use super::llama::{flag, shape};
use super::{dense_full, finish, Architecture, Blueprint};
use serde_json::Value;

pub(super) const ALL: &[&Architecture] = &[
    &GPT2,
    &GPT_BIGCODE,
    &GPTJ,
    &GPT_NEO,
    &GPT_NEOX,
    &CODEGEN,
    &OPT,
    &BLOOM,
    &FALCON,
    &PHI,
    &PHI_MSFT,
    &CHATGLM,
    &DBRX,
];

/// Float32 when the config gives no dtype: these checkpoints predate
/// `torch_dtype` and were published in float32.
fn float32_era(s: &mut Shape) {
    if s.dtype_assumed {
        s.dtype = Dtype::F32;
    }
}

/// `n_inner` (or the class's key) when written, else `4 × hidden`.
fn four_times(s: &mut Shape) {
    if s.intermediate.is_none() {
        s.intermediate = Some(s.hidden.saturating_mul(4));
    }
}

/// Refuses cross-attention decoders (GPT-2 and StarCoder as encoder-decoder
/// halves), whose extra attention the count would miss.
fn no_cross_attention(r: &Reader) -> Result<(), ConfigError> {
    if r.flag("add_cross_attention")? == Some(true) {
        return Err(ConfigError::unsupported(
            "add_cross_attention: a decoder with cross-attention layers".to_string(),
        ));
    }
    Ok(())
}

pub(super) const GPT2: Architecture = Architecture {
    family: Family::Gpt2,
    model_types: &["gpt2"],
    classes: &["GPT2LMHeadModel"],
    source: "transformers models/gpt2 (GPT2Config, GPT2LMHeadModel)",
    counts: "fused c_attn and c_proj with biases, plain c_fc/c_proj MLP with biases \
             (n_inner, else 4·n_embd), LayerNorms with bias, learned positions (n_positions), \
             tied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        no_cross_attention(r)?;
        let mut s = shape(r, Family::Gpt2, &Keys::GPT2, Rules::GPT2)?;
        four_times(&mut s);
        float32_era(&mut s);
        s.positions = learned_rows(r, &Keys::GPT2, 1024)?;
        dense_full(s)
    },
};

/// Rows of a learned position table: the context key, else the class
/// default.
fn learned_rows(r: &Reader, keys: &Keys, default: u64) -> Result<u64, ConfigError> {
    Ok(r.dim(keys.context, MAX_DIM)?.unwrap_or(default))
}

pub(super) const GPT_BIGCODE: Architecture = Architecture {
    family: Family::GptBigCode,
    model_types: &["gpt_bigcode"],
    classes: &["GPTBigCodeForCausalLM"],
    source: "transformers models/gpt_bigcode (GPTBigCodeConfig, GPTBigCodeForCausalLM)",
    counts: "GPT-2 layout with multi-query attention (one key/value head when multi_query, \
             the default), learned positions, tied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        no_cross_attention(r)?;
        let mut s = shape(r, Family::GptBigCode, &Keys::GPT2, Rules::GPT2)?;
        if flag(r, "multi_query", true)? {
            s.kv_heads = 1;
        }
        four_times(&mut s);
        float32_era(&mut s);
        s.positions = learned_rows(r, &Keys::GPT2, 1024)?;
        dense_full(s)
    },
};

pub(super) const GPTJ: Architecture = Architecture {
    family: Family::GptJ,
    model_types: &["gptj"],
    classes: &["GPTJForCausalLM"],
    source: "transformers models/gptj (GPTJConfig, GPTJForCausalLM)",
    counts: "bias-free q/k/v/out, plain fc_in/fc_out MLP with biases (n_inner, else 4·n_embd), \
             one LayerNorm per layer (parallel attention and MLP), head with bias, untied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qkv_bias: false,
            o_bias: false,
            fused_qkv: false,
            layer_norms: 1,
            lm_head_bias: true,
            tied_default: false,
            ..Rules::GPT2
        };
        let mut s = shape(r, Family::GptJ, &Keys::GPT2, rules)?;
        four_times(&mut s);
        float32_era(&mut s);
        dense_full(s)
    },
};

pub(super) const CODEGEN: Architecture = Architecture {
    family: Family::CodeGen,
    model_types: &["codegen"],
    classes: &["CodeGenForCausalLM"],
    source: "transformers models/codegen (CodeGenConfig, CodeGenForCausalLM)",
    counts: "bias-free fused qkv_proj and out_proj, plain fc_in/fc_out MLP with biases, \
             one LayerNorm per layer, head with bias, untied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            qkv_bias: false,
            o_bias: false,
            layer_norms: 1,
            lm_head_bias: true,
            tied_default: false,
            ..Rules::GPT2
        };
        let mut s = shape(r, Family::CodeGen, &Keys::GPT2, rules)?;
        four_times(&mut s);
        float32_era(&mut s);
        dense_full(s)
    },
};

/// GPT-Neo's layers: `attention_layers` as saved (one entry per layer),
/// else `attention_types`, where `[[["global", "local"], 12]]` repeats the
/// inner list 12 times.
fn gpt_neo_layers(r: &Reader, n: u64) -> Result<(Vec<Block>, &'static str), ConfigError> {
    if let Some(list) = r.text_list("attention_layers")? {
        let names = |t: &str| match t {
            "global" => Some(Mixer::Full),
            "local" => Some(Mixer::Sliding),
            _ => None,
        };
        return Ok((
            layers::listed("attention_layers", &list, &names)?,
            "attention_layers",
        ));
    }
    let default = [("global", 12), ("local", 12)];
    let mut kinds: Vec<&str> = Vec::new();
    match r.get("attention_types") {
        None => {
            for _ in 0..12 {
                kinds.extend(default.iter().take(2).map(|(k, _)| *k));
            }
        }
        Some(Value::Array(groups)) => {
            for group in groups {
                let bad = || ConfigError::wrong_type("attention_types", "list of [types, repeat]");
                let pair = group.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
                let names = pair[0].as_array().ok_or_else(bad)?;
                let repeat = pair[1].as_u64().ok_or_else(bad)?.min(n.saturating_add(1));
                for _ in 0..repeat {
                    for name in names {
                        kinds.push(name.as_str().ok_or_else(bad)?);
                    }
                }
            }
        }
        Some(_) => return Err(ConfigError::wrong_type("attention_types", "list")),
    }
    let blocks = kinds
        .iter()
        .map(|k| match *k {
            "global" => Ok(Block::new(Mixer::Full, Slot::Auto)),
            "local" => Ok(Block::new(Mixer::Sliding, Slot::Auto)),
            other => Err(ConfigError::unsupported(format!(
                "attention_types entry \"{other}\" is not global or local"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((blocks, "attention_types"))
}

pub(super) const GPT_NEO: Architecture = Architecture {
    family: Family::GptNeo,
    model_types: &["gpt_neo"],
    classes: &["GPTNeoForCausalLM"],
    source: "transformers models/gpt_neo (GPTNeoConfig, GPTNeoForCausalLM)",
    counts: "bias-free q/k/v, out_proj with bias, plain c_fc/c_proj MLP with biases, \
             LayerNorms with bias, learned positions, tied head; attention_types gives local \
             (window_size) and global layers",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &["attention_types", "attention_layers"],
    read: |r| {
        let keys = Keys {
            hidden: &["hidden_size"],
            layers: &["num_layers", "num_hidden_layers"],
            heads: &["num_heads", "num_attention_heads"],
            kv_heads: &[],
            intermediate: &["intermediate_size"],
            context: &["max_position_embeddings"],
            head_dim: &[],
            vocab: &["vocab_size"],
        };
        let rules = Rules {
            qkv_bias: false,
            fused_qkv: false,
            ..Rules::GPT2
        };
        let mut s = shape(r, Family::GptNeo, &keys, rules)?;
        four_times(&mut s);
        float32_era(&mut s);
        s.positions = learned_rows(r, &keys, 2048)?;
        let (blocks, key) = gpt_neo_layers(r, s.layers)?;
        let sizes = Sizes {
            window: Some(r.dim(&["window_size"], MAX_CONTEXT)?.unwrap_or(256)),
            chunk: None,
        };
        finish(s, None, blocks, key, sizes, None)
    },
};

pub(super) const GPT_NEOX: Architecture = Architecture {
    family: Family::GptNeox,
    model_types: &["gpt_neox"],
    classes: &["GPTNeoXForCausalLM"],
    source: "transformers models/gpt_neox (GPTNeoXConfig, GPTNeoXForCausalLM)",
    counts: "fused query_key_value and dense (biases with attention_bias, default on), plain \
             MLP with biases, 2 LayerNorms with bias per layer, untied embed_out",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            kv_heads: &[],
            head_dim: &[],
            ..Keys::STANDARD
        };
        let rules = Rules {
            tied_default: false,
            ..Rules::GPT2.with_attention_bias(flag(r, "attention_bias", true)?)
        };
        let s = shape(r, Family::GptNeox, &keys, rules)?;
        s.need_intermediate("intermediate_size")?;
        dense_full(s)
    },
};

pub(super) const OPT: Architecture = Architecture {
    family: Family::Opt,
    model_types: &["opt"],
    classes: &["OPTForCausalLM"],
    source: "transformers models/opt (OPTConfig, OPTForCausalLM)",
    counts: "q/k/v/out and plain fc1/fc2 MLP (ffn_dim) with biases (enable_bias), LayerNorms \
             with bias, learned positions with 2 extra rows, final norm when \
             do_layer_norm_before, word_embed_proj_dim projections, tied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            kv_heads: &[],
            head_dim: &[],
            intermediate: &["ffn_dim"],
            ..Keys::STANDARD
        };
        let bias = flag(r, "enable_bias", true)?;
        let affine = flag(r, "layer_norm_elementwise_affine", true)?;
        let final_norm =
            flag(r, "do_layer_norm_before", true)? && !flag(r, "_remove_final_layer_norm", false)?;
        let rules = Rules {
            fused_qkv: false,
            mlp_bias: bias,
            norm: if affine { Norm::WeightBias } else { Norm::None },
            final_norm,
            ..Rules::GPT2.with_attention_bias(bias)
        };
        let mut s = shape(r, Family::Opt, &keys, rules)?;
        s.need_intermediate("ffn_dim")?;
        // OPTLearnedPositionalEmbedding keeps 2 rows beyond the context.
        s.positions = learned_rows(r, &keys, 2048)?.saturating_add(2);
        s.embed_width = r
            .dim(&["word_embed_proj_dim"], MAX_DIM)?
            .unwrap_or(s.hidden);
        dense_full(s)
    },
};

pub(super) const BLOOM: Architecture = Architecture {
    family: Family::Bloom,
    model_types: &["bloom"],
    classes: &["BloomForCausalLM"],
    source: "transformers models/bloom (BloomConfig, BloomForCausalLM)",
    counts: "fused query_key_value and dense with biases, plain 4·H MLP with biases, \
             LayerNorms with bias (2 per layer, one after the embedding, final), ALiBi (no \
             position table), tied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            hidden: &["hidden_size", "n_embed"],
            layers: &["n_layer", "num_hidden_layers"],
            heads: &["n_head", "num_attention_heads"],
            kv_heads: &[],
            intermediate: &[],
            context: &[],
            head_dim: &[],
            vocab: &["vocab_size"],
        };
        let rules = Rules {
            embedding_norm: true,
            ..Rules::GPT2
        };
        let mut s = shape(r, Family::Bloom, &keys, rules)?;
        four_times(&mut s);
        dense_full(s)
    },
};

/// Falcon under both its names: the `transformers` keys
/// (`num_hidden_layers`, `num_attention_heads`, `num_kv_heads`) and the
/// original `RefinedWeb` / `RefinedWebModel` keys (`n_layer`, `n_head`,
/// `n_head_kv`, `n_embed`). `new_decoder_architecture` (Falcon-40B/180B,
/// and every `RefinedWeb` config without the key) has grouped key/value
/// heads; otherwise `multi_query` (the default) means one.
fn falcon(r: &Reader) -> Result<Blueprint, ConfigError> {
    let keys = Keys {
        hidden: &["hidden_size", "n_embed"],
        layers: &["num_hidden_layers", "n_layer"],
        heads: &["num_attention_heads", "n_head"],
        kv_heads: &[],
        intermediate: &["ffn_hidden_size"],
        context: &["max_position_embeddings"],
        head_dim: &[],
        vocab: &["vocab_size"],
    };
    let original = r.text("model_type")?;
    let refined_web = original.is_some_and(|t| t.starts_with("RefinedWeb"));
    let new_arch = match r.flag("new_decoder_architecture")? {
        Some(b) => b,
        None => original == Some("RefinedWeb"),
    };
    let multi_query = flag(r, "multi_query", true)?;
    // FalconConfig defaults to parallel attention; the original RWConfig
    // did not. FalconDecoderLayer builds ln_attn and ln_mlp only for the
    // new architecture with num_ln_in_parallel_attn 2 (its default there);
    // otherwise input_layernorm, plus post_attention_layernorm when
    // parallel_attn is off, whatever the architecture.
    let parallel = flag(r, "parallel_attn", !refined_web)?;
    let two_parallel_norms = new_arch && r.dim(&["num_ln_in_parallel_attn"], 2)?.unwrap_or(2) == 2;
    let layer_norms = match (two_parallel_norms, parallel) {
        (true, _) | (false, false) => 2,
        (false, true) => 1,
    };
    let bias = flag(r, "bias", false)?;
    let rules = Rules {
        layer_norms,
        mlp_bias: bias,
        ..Rules::GPT2.with_attention_bias(bias)
    };
    let mut s = shape(r, Family::Falcon, &keys, rules)?;
    let kv = r.dim(&["num_kv_heads", "n_head_kv"], MAX_HEADS)?;
    s.kv_heads = match (new_arch, multi_query) {
        (true, _) => kv.unwrap_or(s.heads),
        (false, true) => 1,
        (false, false) => s.heads,
    };
    s.check_groups("num_kv_heads")?;
    four_times(&mut s);
    dense_full(s)
}

pub(super) const FALCON: Architecture = Architecture {
    family: Family::Falcon,
    model_types: &["falcon", "RefinedWeb", "RefinedWebModel"],
    classes: &["FalconForCausalLM", "RWForCausalLM"],
    source: "transformers models/falcon (FalconConfig, FalconForCausalLM); tiiuae \
             configuration_RW.py for the original keys",
    counts: "fused query_key_value (grouped with new_decoder_architecture, else one \
             key/value head when multi_query), dense and plain MLP (ffn_hidden_size, else \
             4·H) with biases when bias, LayerNorms with bias (1 or 2 per layer), tied head \
             (tiiuae's Falcon-7B/40B/180B files also store a copy of it, V·H more than the \
             loaded model; the catalog records it per checkpoint)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: falcon,
};

/// Phi-1, Phi-1.5 and Phi-2: q/k/v (or the original `Wqkv`) and dense
/// with biases, a plain MLP with biases, one LayerNorm per layer,
/// optional q/k LayerNorms, a head with bias.
fn phi(r: &Reader, keys: &Keys) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        fused_qkv: false,
        layer_norms: 1,
        lm_head_bias: true,
        tied_default: false,
        qk_norm: match flag(r, "qk_layernorm", false)? {
            true => QkNorm::Shared(Norm::WeightBias),
            false => QkNorm::None,
        },
        ..Rules::GPT2
    };
    let mut s = shape(r, Family::Phi, keys, rules)?;
    four_times(&mut s);
    dense_full(s)
}

pub(super) const PHI: Architecture = Architecture {
    family: Family::Phi,
    model_types: &["phi"],
    classes: &["PhiForCausalLM"],
    source: "transformers models/phi (PhiConfig, PhiForCausalLM)",
    counts: "q/k/v and dense with biases, plain fc1/fc2 MLP with biases, one LayerNorm with \
             bias per layer (parallel attention and MLP), q/k LayerNorms when qk_layernorm, \
             head with bias, untied",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            intermediate: &["intermediate_size"],
            ..Keys::STANDARD
        };
        if r.get("intermediate_size").is_none() {
            return Err(ConfigError::missing(vec!["intermediate_size".to_string()]));
        }
        phi(r, &keys)
    },
};

/// The original Phi-1.5 / Phi-2 checkpoint code (`phi-msft`): the same
/// tensors under GPT-2's names (`n_embd`, `n_layer`, `n_head`, `n_head_kv`,
/// `n_inner` = 4·`n_embd` when null), q/k/v fused as `Wqkv`.
pub(super) const PHI_MSFT: Architecture = Architecture {
    family: Family::Phi,
    model_types: &["phi-msft"],
    classes: &[],
    source: "microsoft/phi-2 modeling_phi.py before its transformers port (checkpoint code)",
    counts: "Phi-2 layout under GPT-2 names: fused Wqkv and out_proj with biases, plain fc1/fc2 \
             MLP with biases (n_inner, else 4·n_embd), one LayerNorm per layer, head with its \
             LayerNorm and bias",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            kv_heads: &["n_head_kv"],
            ..Keys::GPT2
        };
        phi(r, &keys)
    },
};

/// ChatGLM2/3 and GLM-4 (`ChatGLMForConditionalGeneration`): fused
/// `query_key_value` (biases with `add_bias_linear` or `add_qkv_bias`),
/// `dense`, a gated `dense_h_to_4h` of twice `ffn_hidden_size`, RMSNorm or
/// LayerNorm, an untied `output_layer`.
fn chatglm(r: &Reader) -> Result<Blueprint, ConfigError> {
    if r.has(&["inner_hidden_size", "position_encoding_2d"]) {
        return Err(ConfigError::unsupported(
            "first-generation ChatGLM-6B layout (inner_hidden_size, position_encoding_2d)"
                .to_string(),
        ));
    }
    let keys = Keys {
        hidden: &["hidden_size"],
        layers: &["num_layers"],
        heads: &["num_attention_heads"],
        kv_heads: &[],
        vocab: &["padded_vocab_size"],
        intermediate: &["ffn_hidden_size"],
        context: &["seq_length"],
        head_dim: &["kv_channels"],
    };
    let linear_bias = flag(r, "add_bias_linear", false)?;
    let rules = Rules {
        qkv_bias: linear_bias || flag(r, "add_qkv_bias", false)?,
        o_bias: linear_bias,
        mlp_bias: linear_bias,
        fused_qkv: true,
        fused_gate_up: true,
        norm: match flag(r, "rmsnorm", true)? {
            true => Norm::Weight,
            false => Norm::WeightBias,
        },
        final_norm: flag(r, "post_layer_norm", true)?,
        ..Rules::LLAMA
    };
    let mut s = shape(r, Family::ChatGlm, &keys, rules)?;
    if flag(r, "multi_query_attention", false)? {
        s.kv_heads = r.dim(&["multi_query_group_num"], MAX_HEADS)?.unwrap_or(1);
    }
    s.check_groups("multi_query_group_num")?;
    s.need_intermediate("ffn_hidden_size")?;
    dense_full(s)
}

pub(super) const CHATGLM: Architecture = Architecture {
    family: Family::ChatGlm,
    model_types: &["chatglm"],
    classes: &["ChatGLMModel", "ChatGLMForConditionalGeneration"],
    source: "THUDM/chatglm3-6b modeling_chatglm.py (checkpoint code; vLLM chatglm.py)",
    counts: "fused query_key_value (grouped by multi_query_group_num), dense, gated \
             dense_h_to_4h of 2·ffn_hidden_size, RMSNorm or LayerNorm, padded_vocab_size \
             embedding and separate output_layer",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: chatglm,
};

/// DBRX keeps its sizes in `attn_config` and `ffn_config` objects.
fn dbrx(r: &Reader) -> Result<Blueprint, ConfigError> {
    let keys = Keys {
        hidden: &["d_model", "hidden_size"],
        layers: &["n_layers", "num_hidden_layers"],
        heads: &["n_heads", "num_attention_heads"],
        kv_heads: &[],
        vocab: &["vocab_size"],
        intermediate: &[],
        context: &["max_seq_len", "max_position_embeddings"],
        head_dim: &[],
    };
    let rules = Rules {
        fused_qkv: true,
        norm: Norm::Weight,
        ..Rules::LLAMA
    };
    let mut s = shape(r, Family::Dbrx, &keys, rules)?;
    if s.tied {
        return Err(ConfigError::unsupported(
            "tie_word_embeddings: DBRX has no tied head".to_string(),
        ));
    }
    let attn = r.object("attn_config")?;
    s.kv_heads = match attn {
        Some(m) => Reader::nested_in(m, None)
            .dim(&["kv_n_heads"], MAX_HEADS)?
            .unwrap_or(1),
        None => 1,
    };
    s.check_groups("kv_n_heads")?;
    const FFN: MoeKeys = MoeKeys {
        experts: &["moe_num_experts"],
        top_k: &["moe_top_k"],
        width: &["ffn_hidden_size"],
        shared: Shared::None,
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
    static DEFAULTS: [(&str, u64); 3] = [
        ("moe_num_experts", 4),
        ("moe_top_k", 1),
        ("ffn_hidden_size", 3584),
    ];
    let empty = serde_json::Map::new();
    let ffn = r.object("ffn_config")?.unwrap_or(&empty);
    let sub = Reader::nested_in(ffn, None).with_defaults(&DEFAULTS, &[]);
    let moe = moe::read(&sub, &FFN, s.layers)?;
    let blocks = layers::uniform(s.layers, Mixer::Full);
    finish(s, moe, blocks, "n_layers", Sizes::default(), None)
}

pub(super) const DBRX: Architecture = Architecture {
    family: Family::Dbrx,
    model_types: &["dbrx"],
    classes: &["DbrxForCausalLM"],
    source: "transformers models/dbrx (DbrxConfig, DbrxForCausalLM)",
    counts: "fused Wqkv (kv_n_heads from attn_config) and out_proj without biases, experts \
             w1/v1/w2 and a bias-free router from ffn_config, 2 LayerNorms without bias per \
             layer, untied head",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: dbrx,
};
