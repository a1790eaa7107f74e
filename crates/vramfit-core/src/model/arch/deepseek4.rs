//! DeepSeek-V4: shared-KV multi-query attention over a sliding window,
//! compressed attention (overlapping windows with a lightning indexer, or
//! heavily compressed ones), grouped output projection, hyper-connections
//! around every block, and experts in every layer, the first routed by a
//! token → experts table.

use super::super::error::ConfigError;
use super::super::family::{ActiveCount, Family, Rules};
use super::super::json::Reader;
use super::super::layers::{self, Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{
    CompressedParts, Indexer, Keys, MtpLayout, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS,
};
use super::llama::shape;
use super::{finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[&DEEPSEEK_V4];

/// The compression ratios of the two compressed layer types:
/// `compress_rates`, else `compress_rate_csa` / `compress_rate_hca`, else
/// 4 and 128 (`DeepseekV4Config.default_compress_rates`).
fn ratios(r: &Reader) -> Result<(u64, u64), ConfigError> {
    let (mut csa, mut hca) = (4, 128);
    if let Some(rates) = r.object("compress_rates")? {
        for (key, value) in rates {
            let v = super::super::json::as_uint(key, value)?;
            match key.as_str() {
                "compressed_sparse_attention" => csa = v,
                "heavily_compressed_attention" => hca = v,
                other => {
                    return Err(ConfigError::unsupported(format!(
                        "compress_rates entry \"{other}\" is not a DeepSeek-V4 layer type"
                    )))
                }
            }
        }
    }
    if let Some(v) = r.dim(&["compress_rate_csa"], MAX_CONTEXT)? {
        csa = v;
    }
    if let Some(v) = r.dim(&["compress_rate_hca"], MAX_CONTEXT)? {
        hca = v;
    }
    if csa == 0 || hca == 0 || csa == hca {
        return Err(ConfigError::contradictory(
            &["compress_rates"],
            format!("compression ratios {csa} and {hca} must be distinct and non-zero"),
        ));
    }
    Ok((csa, hca))
}

/// The layer types: `layer_types`, else the legacy `compress_ratios` (0,
/// 4, 128 per layer, cut to the layer count), else two heavily compressed
/// layers then sparse (odd) and heavily compressed (even) ones.
fn attention_layers(r: &Reader, n: u64, csa: u64, hca: u64) -> Result<Vec<Block>, ConfigError> {
    let block = |ratio: u64| {
        let mut b = match ratio {
            0 => Block::new(Mixer::Sliding, Slot::Moe),
            _ => Block::new(Mixer::Compressed, Slot::Moe),
        };
        b.ratio = (ratio > 0).then_some(ratio);
        b
    };
    if let Some(list) = r.text_list("layer_types")? {
        layers::check_length("layer_types", list.len() as u64, n)?;
        return list
            .iter()
            .map(|t| match *t {
                "sliding_attention" => Ok(block(0)),
                "compressed_sparse_attention" => Ok(block(csa)),
                "heavily_compressed_attention" => Ok(block(hca)),
                other => Err(ConfigError::unsupported(format!(
                    "layer_types entry \"{other}\" is not a DeepSeek-V4 layer type"
                ))),
            })
            .collect();
    }
    if let Some(list) = r.uint_list("compress_ratios")? {
        if (list.len() as u64) < n {
            return Err(ConfigError::contradictory(
                &["compress_ratios", "num_hidden_layers"],
                format!(
                    "compress_ratios lists {} layers, fewer than {n}",
                    list.len()
                ),
            ));
        }
        // `transformers` maps 0, 4 and 128 to the three layer types (the
        // list may go on for the MTP layers) and ignores the rest.
        return list
            .iter()
            .take(n as usize)
            .map(|v| match v {
                0 => Ok(block(0)),
                4 => Ok(block(csa)),
                128 => Ok(block(hca)),
                other => Err(ConfigError::unsupported(format!(
                    "compress_ratios entry {other} is not 0, 4 or 128"
                ))),
            })
            .collect();
    }
    Ok((0..n)
        .map(|i| match i {
            0 | 1 => block(hca),
            _ if (i - 2) % 2 == 1 => block(csa),
            _ => block(hca),
        })
        .collect())
}

/// The block of each multi-token-prediction step: its entry of
/// `compress_ratios` after the model's layers, else a sliding-window
/// layer (the published configs' 0); experts routed by score, never by
/// the hash table. Source: vLLM `models/deepseek_v4/nvidia/mtp.py`
/// (`mtp_block` is a `DeepseekV4DecoderLayer`; `e_proj`, `h_proj`,
/// `enorm`, `hnorm`, `shared_head.norm` and `hc_head_{fn,base,scale}` of
/// its own; embedding and head the model's: a checkpoint stores them once,
/// as `embed.weight` and `head.weight`).
fn mtp_blocks(
    r: &Reader,
    n: u64,
    steps: u64,
    csa: u64,
    hca: u64,
) -> Result<Vec<Block>, ConfigError> {
    let listed = match r.text_list("layer_types")? {
        Some(_) => None,
        None => r.uint_list("compress_ratios")?,
    };
    let ratio_of = |step: u64| {
        listed
            .as_ref()
            .and_then(|l| l.get(usize::try_from(n + step).ok()?).copied())
            .unwrap_or(0)
    };
    (0..steps)
        .map(|step| {
            let ratio = match ratio_of(step) {
                0 => 0,
                4 => csa,
                128 => hca,
                other => {
                    return Err(ConfigError::unsupported(format!(
                        "compress_ratios entry {other} is not 0, 4 or 128"
                    )))
                }
            };
            let mut b = match ratio {
                0 => Block::new(Mixer::Sliding, Slot::Moe),
                _ => Block::new(Mixer::Compressed, Slot::Moe),
            };
            b.ratio = (ratio > 0).then_some(ratio);
            Ok(b)
        })
        .collect()
}

/// The hyper-connection head an MTP step keeps of its own: `hc_head_fn`
/// `N × N·H`, `hc_head_base` `N`, `hc_head_scale` 1.
fn hyper_head_params(hidden: u64, streams: u64) -> u64 {
    let n = streams;
    n.saturating_mul(n)
        .saturating_mul(hidden)
        .saturating_add(n)
        .saturating_add(1)
}

/// Hash-routed layers: `mlp_layer_types` (`hash_moe` first, then `moe`),
/// else the first `num_hash_layers` (default 3).
fn hash_layers(r: &Reader, n: u64) -> Result<u64, ConfigError> {
    match r.text_list("mlp_layer_types")? {
        Some(list) => {
            layers::check_length("mlp_layer_types", list.len() as u64, n)?;
            let hashed = list.iter().take_while(|t| **t == "hash_moe").count();
            if list[hashed..].iter().any(|t| *t != "moe") {
                return Err(ConfigError::unsupported(
                    "mlp_layer_types other than hash_moe layers followed by moe layers".to_string(),
                ));
            }
            Ok(hashed as u64)
        }
        None => Ok(r
            .count(&["num_hash_layers"], MAX_LAYERS)?
            .unwrap_or(3)
            .min(n)),
    }
}

fn deepseek_v4(r: &Reader) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        keys_are_values: true,
        active: ActiveCount::WithoutInputEmbedding,
        ..Rules::LLAMA
    };
    let keys = Keys {
        intermediate: &["moe_intermediate_size", "intermediate_size"],
        ..Keys::STANDARD
    };
    let mut s = shape(r, Family::DeepseekV4, &keys, rules)?;
    // One key/value head, read as keys and values alike (`kv_proj` is
    // `hidden → head_dim` whatever the config says).
    if s.kv_heads != 1 {
        return Err(ConfigError::contradictory(
            &["num_key_value_heads"],
            format!(
                "DeepSeek-V4 attention has one shared key/value head, not {}",
                s.kv_heads
            ),
        ));
    }
    let (csa, hca) = ratios(r)?;
    let need = |key: &str, max: u64| -> Result<u64, ConfigError> {
        r.dim(&[key], max)?
            .ok_or_else(|| ConfigError::missing(vec![key.to_string()]))
    };
    let o_groups = need("o_groups", MAX_HEADS)?;
    if !s.heads.saturating_mul(s.head_dim).is_multiple_of(o_groups) {
        return Err(ConfigError::contradictory(
            &["o_groups", "num_attention_heads"],
            format!("{o_groups} output groups do not divide the attention heads' width"),
        ));
    }
    let n = s.layers;
    s.compressed = Some(CompressedParts {
        q_rank: need("q_lora_rank", MAX_DIM)?,
        o_groups,
        o_rank: need("o_lora_rank", MAX_DIM)?,
        streams: need("hc_mult", MAX_HEADS)?,
        sparse_ratio: csa,
        index: Indexer {
            heads: need("index_n_heads", MAX_HEADS)?,
            head_dim: need("index_head_dim", MAX_DIM)?,
        },
        hash_layers: hash_layers(r, n)?,
    });
    let moe_keys = MoeKeys {
        experts: &["n_routed_experts", "num_local_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["moe_intermediate_size", "intermediate_size"],
        shared: Shared::One,
        select: Select::All,
        score_bias_default: true,
        latent: false,
    };
    let mut moe = moe::read(r, &moe_keys, n)?;
    // Every routed layer keeps `e_score_correction_bias` (a buffer of
    // `DeepseekV4TopKRouter`); hash-routed ones a `tid2eid` table instead.
    if let Some(m) = moe.as_mut() {
        m.score_bias = true;
    }
    if moe.is_none() {
        return Err(ConfigError::missing(vec!["n_routed_experts".to_string()]));
    }
    let blocks = attention_layers(r, n, csa, hca)?;
    s.mtp_layers = r
        .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
        .unwrap_or(0);
    if s.mtp_layers > 0 {
        s.mtp = Some(MtpLayout {
            vocab_matrices: 0,
            per_step: false,
            blocks: mtp_blocks(r, n, s.mtp_layers, csa, hca)?,
            extra: hyper_head_params(s.hidden, need("hc_mult", MAX_HEADS)?),
        });
    }
    let sizes = Sizes {
        window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
        chunk: None,
    };
    finish(s, moe, blocks, "layer_types", sizes, None)
}

pub(super) const DEEPSEEK_V4: Architecture = Architecture {
    family: Family::DeepseekV4,
    // `deepseek_ref`: the same config under the reference code's name
    // (sgl-project's FP8 conversions).
    model_types: &["deepseek_v4", "deepseek_ref"],
    classes: &["DeepseekV4ForCausalLM"],
    source: "transformers models/deepseek_v4 (DeepseekV4Config, DeepseekV4ForCausalLM)",
    counts: "shared-KV attention (q_a/q_b, one kv head, grouped o_a/o_b, sinks) over a \
             sliding window, compressors of compressed layers (overlapping ones with a \
             lightning indexer), two hyper-connections per layer and a final one, experts and \
             one shared expert in every layer, score bias or (hash layers) a token → experts \
             table; KV cache: window, compressed entries and indexer keys; active count \
             leaves out the input embedding (model card); MTP layers apart (a decoder block \
             per compress_ratios entry after the model's layers, e_proj and h_proj, three \
             norms, a hyper-connection head; the model's embedding and head)",
    defaults: &[
        ("num_key_value_heads", 1),
        ("head_dim", 512),
        ("q_lora_rank", 1024),
        ("o_groups", 8),
        ("o_lora_rank", 1024),
        ("hc_mult", 4),
        ("index_n_heads", 64),
        ("index_head_dim", 128),
        ("sliding_window", 128),
        ("n_routed_experts", 256),
        ("num_experts_per_tok", 6),
        ("moe_intermediate_size", 2048),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_layer_types", "compress_ratios"],
    read: deepseek_v4,
};
