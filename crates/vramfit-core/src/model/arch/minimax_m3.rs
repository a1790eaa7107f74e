//! MiniMax-M3's text model: grouped-query attention with per-head q/k
//! norms on every layer, MiniMax Sparse Attention (an indexer whose key
//! is cached per token) on the layers `sparse_attention_freq` marks, dense
//! SwiGLU-OAI layers then routed experts with a shared expert, and
//! multi-token-prediction modules stored beside the model.
//!
//! `transformers` has no `minimax_m3`; the reader follows vLLM's
//! implementation, `vllm/models/minimax_m3/nvidia/model.py`
//! (`MiniMaxM3Attention`, `MiniMaxM3SparseAttention`, `MiniMaxM3MLP`,
//! `MiniMaxM3MoE`, `MiniMaxM3DecoderLayer`, `MiniMaxM3Model`,
//! `MiniMaxM3SparseForCausalLM`), `models/minimax_m3/nvidia/mtp.py`
//! (`MiniMaxM3MultiTokenPredictorLayer`) and
//! `models/minimax_m3/common/indexer.py` (`MiniMaxM3IndexerCache`). A
//! config outside the branches that code builds (another `qk_norm_type`,
//! an output gate, index value projections, another activation) is
//! refused by name.

use super::super::error::ConfigError;
use super::super::family::{ActiveCount, Family, Norm, QkNorm, Rules};
use super::super::json::{as_uint, Reader};
use super::super::layers::{Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Selection, Shared};
use super::super::shape::{Indexer, Keys, MtpLayout, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::shape;
use super::{finish, Architecture, Blueprint};
use serde_json::{Map, Value};

pub(super) const ALL: &[&Architecture] = &[&MINIMAX_M3];

const SPARSE: &str = "sparse_attention_config";

/// A per-layer list of 0/1 flags, `n` long: the layers whose entry is not
/// 0 (vLLM `_sparse_attention_layer_ids`, `_is_moe_layer`).
fn flagged(key: &str, value: &Value, n: u64) -> Result<Vec<bool>, ConfigError> {
    let Value::Array(items) = value else {
        return Err(ConfigError::wrong_type(
            key,
            "list with one entry per layer",
        ));
    };
    let flags = items
        .iter()
        .map(|v| as_uint(key, v).map(|f| f != 0))
        .collect::<Result<Vec<_>, _>>()?;
    if flags.len() as u64 != n {
        return Err(ConfigError::contradictory(
            &[key, "num_hidden_layers"],
            format!(
                "{key} lists {} layers but num_hidden_layers is {n}",
                flags.len()
            ),
        ));
    }
    Ok(flags)
}

/// A size inside `sparse_attention_config`.
fn sparse_size(c: &Map<String, Value>, name: &str, max: u64) -> Result<u64, ConfigError> {
    let key = format!("{SPARSE}.{name}");
    let v = c
        .get(name)
        .filter(|v| !v.is_null())
        .ok_or_else(|| ConfigError::missing(vec![key.clone()]))?;
    match as_uint(&key, v)? {
        v if v == 0 || v > max => Err(ConfigError::out_of_range(&key, v)),
        v => Ok(v),
    }
}

/// The sparse layers and the indexer's sizes: `sparse_attention_freq`
/// (no list, or no `sparse_attention_config`: no sparse layer), with
/// `sparse_num_index_heads` index query heads (vLLM requires as many as
/// key/value heads) of `sparse_index_dim`, and index value projections
/// disabled on every sparse layer (`sparse_disable_index_value`: vLLM
/// never builds `index_v_proj` / `index_o_proj`).
fn sparse_layers(
    r: &Reader,
    n: u64,
    kv_heads: u64,
) -> Result<(Vec<bool>, Option<Indexer>), ConfigError> {
    let none = (vec![false; n as usize], None);
    let Some(c) = r.object(SPARSE)? else {
        return Ok(none);
    };
    let freq_key = format!("{SPARSE}.sparse_attention_freq");
    let sparse = match c.get("sparse_attention_freq") {
        None | Some(Value::Null) => return Ok(none),
        Some(v) => flagged(&freq_key, v, n)?,
    };
    if !sparse.iter().any(|s| *s) {
        return Ok((sparse, None));
    }
    let index = Indexer {
        heads: sparse_size(c, "sparse_num_index_heads", MAX_HEADS)?,
        head_dim: sparse_size(c, "sparse_index_dim", MAX_DIM)?,
    };
    if index.heads != kv_heads {
        return Err(ConfigError::contradictory(
            &[
                "sparse_attention_config.sparse_num_index_heads",
                "num_key_value_heads",
            ],
            format!(
                "{} index heads but {kv_heads} key/value heads: MiniMax-M3's index queries \
                 shard like the key/value heads and must be as many",
                index.heads
            ),
        ));
    }
    let disabled_key = format!("{SPARSE}.sparse_disable_index_value");
    let disabled = match c.get("sparse_disable_index_value") {
        None | Some(Value::Null) => vec![false; n as usize],
        Some(v) => flagged(&disabled_key, v, n)?,
    };
    if let Some(i) = (0..sparse.len()).find(|i| sparse[*i] && !disabled[*i]) {
        return Err(ConfigError::unsupported(format!(
            "MiniMax-M3 layer {i} is sparse with index value projections \
             (sparse_disable_index_value 0), which vLLM's MiniMax-M3 code never builds"
        )));
    }
    Ok((sparse, Some(index)))
}

/// Refuses the config branches vLLM's MiniMax-M3 code does not build.
fn check_branches(r: &Reader) -> Result<(), ConfigError> {
    if let Some(t) = r.text("qk_norm_type")? {
        if t != "per_head" {
            return Err(ConfigError::unsupported(format!(
                "qk_norm_type \"{t}\" in a minimax_m3 config: vLLM's MiniMax-M3 code builds \
                 per-head q/k norms only"
            )));
        }
    }
    if r.flag("use_qk_norm")? == Some(false) {
        return Err(ConfigError::unsupported(
            "use_qk_norm false in a minimax_m3 config: vLLM's MiniMax-M3 code always builds \
             q/k norms"
                .to_string(),
        ));
    }
    if r.flag("attention_output_gate")? == Some(true) {
        return Err(ConfigError::unsupported(
            "attention_output_gate true in a minimax_m3 config: vLLM's MiniMax-M3 code has no \
             output gate"
                .to_string(),
        ));
    }
    if let Some(act) = r.text("hidden_act")? {
        if act != "swigluoai" {
            return Err(ConfigError::unsupported(format!(
                "hidden_act \"{act}\" in a minimax_m3 config: vLLM's MiniMax-M3 code supports \
                 swigluoai only"
            )));
        }
    }
    if r.flag("tie_word_embeddings")? == Some(true) {
        return Err(ConfigError::unsupported(
            "tie_word_embeddings true in a minimax_m3 config: vLLM's MiniMax-M3 code keeps a \
             head of its own"
                .to_string(),
        ));
    }
    Ok(())
}

fn minimax_m3(r: &Reader) -> Result<Blueprint, ConfigError> {
    check_branches(r)?;
    // MiniMax counts the decoder layers' parameters as active (MiniMax-01
    // report; see the `minimax` reader).
    let rules = Rules {
        qk_norm: QkNorm::Shared(Norm::Weight),
        active: ActiveCount::WithoutEmbeddings,
        ..Rules::LLAMA
    };
    let mut s = shape(r, Family::MiniMaxM3, &Keys::STANDARD, rules)?;
    let n = s.layers;
    // Routed experts are `intermediate_size` wide and the shared expert
    // `intermediate_size · n_shared_experts` (`MiniMaxM3MoE`); a config
    // stating other widths under the keys vLLM does not read is refused.
    let keys = MoeKeys {
        experts: &["num_local_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["intermediate_size"],
        shared: Shared::Count("n_shared_experts"),
        select: Select::All,
        score_bias_default: false,
        latent: false,
    };
    let mut moe = moe::read(r, &keys, n)?;
    let Some(m) = moe.as_mut() else {
        return Err(ConfigError::missing(vec!["num_local_experts".to_string()]));
    };
    for (key, want) in [
        ("moe_intermediate_size", m.expert_intermediate),
        ("shared_intermediate_size", m.shared_intermediate),
    ] {
        if let Some(v) = r.dim(&[key], MAX_DIM)? {
            if v != want {
                return Err(ConfigError::contradictory(
                    &[key, "intermediate_size"],
                    format!(
                        "{key} is {v} but vLLM's MiniMax-M3 code sizes it from \
                         intermediate_size ({want})"
                    ),
                ));
            }
        }
    }
    m.score_bias = r.flag("use_routing_bias")?.unwrap_or(false);
    let routed = match r.get("moe_layer_freq") {
        None | Some(Value::Null) => vec![true; n as usize],
        Some(v) => flagged("moe_layer_freq", v, n)?,
    };
    m.selection = Selection::Listed(
        (0..n)
            .filter(|i| routed.get(*i as usize) == Some(&true))
            .collect(),
    );
    let dense = match routed.iter().any(|r| !r) {
        true => Some(
            r.dim(&["dense_intermediate_size"], MAX_DIM)?
                .ok_or_else(|| ConfigError::missing(vec!["dense_intermediate_size".into()]))?,
        ),
        false => None,
    };
    let (sparse, indexer) = sparse_layers(r, n, s.kv_heads)?;
    s.indexer = indexer;
    let blocks = (0..n as usize)
        .map(|i| {
            let mut b = match routed[i] {
                true => Block::new(Mixer::Full, Slot::Moe),
                false => Block::new(Mixer::Full, Slot::Dense),
            };
            if !routed[i] {
                b.width = dense;
            }
            b.indexer = Some(sparse[i]);
            b
        })
        .collect();
    // Each MTP module: enorm, hnorm, eh_proj 2H → H, a sparse MoE decoder
    // layer and a final norm; the embedding and head are the model's.
    s.mtp_layers = r.count(&["num_mtp_modules"], MAX_LAYERS)?.unwrap_or(0);
    if s.mtp_layers > 0 {
        if s.indexer.is_none() {
            return Err(ConfigError::missing(vec![format!(
                "{SPARSE}.sparse_attention_freq"
            )]));
        }
        let mut block = Block::new(Mixer::Full, Slot::Moe);
        block.indexer = Some(true);
        s.mtp = Some(MtpLayout {
            vocab_matrices: 0,
            per_step: false,
            blocks: vec![block],
            extra: 0,
        });
    }
    finish(s, moe, blocks, "moe_layer_freq", Sizes::default(), None)
}

pub(super) const MINIMAX_M3: Architecture = Architecture {
    family: Family::MiniMaxM3,
    model_types: &["minimax_m3"],
    classes: &["MiniMaxM3ForCausalLM", "MiniMaxM3SparseForCausalLM"],
    source: "vLLM vllm/models/minimax_m3/nvidia/model.py (MiniMaxM3Attention, \
             MiniMaxM3SparseAttention, MiniMaxM3MoE, MiniMaxM3DecoderLayer), nvidia/mtp.py \
             (MiniMaxM3MultiTokenPredictorLayer), common/indexer.py (MiniMaxM3IndexerCache)",
    counts: "bias-free q/k/v/o with per-head q/k norms; on sparse_attention_freq layers an \
             indexer (index_q n_I·d_I×H, one shared index_k head, their norms) whose key is \
             cached per token; dense MLPs of dense_intermediate_size where moe_layer_freq is 0, \
             else routed experts of intermediate_size, a shared expert and a score bias \
             (use_routing_bias); active count of the decoder layers only (MiniMax-01 report); \
             num_mtp_modules MTP modules apart (enorm, hnorm, eh_proj, a sparse MoE layer, a \
             final norm; the model's embedding and head)",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &["moe_layer_freq"],
    read: minimax_m3,
};
