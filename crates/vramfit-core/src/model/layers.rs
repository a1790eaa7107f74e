//! What each layer is: its token mixer (which decides its cache) and its
//! feed-forward part. Each reader builds the list of [`Block`]s from the
//! encoding its config class uses (a list of layer types, a pattern
//! string, a period, per-layer objects); [`plan`] turns it into the
//! per-layer plan.

use super::error::ConfigError;
use super::json::Reader;
use super::mixer::LinearMixer;
use super::shape::{Shape, MAX_CONTEXT};
use serde::Serialize;

/// The attention (token mixer) of one layer, which decides what it caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttentionKind {
    /// Attends to the whole context; caches K and V for every token.
    Full,
    /// Attends to the last `window` tokens; caches at most that many.
    SlidingWindow { window: u64 },
    /// Local attention within chunks of `chunk` tokens (Llama-4); caches at
    /// most one chunk.
    Chunked { chunk: u64 },
    /// Multi-head latent attention; caches `latent` elements per token
    /// (`kv_lora_rank + qk_rope_head_dim`), once, not as K and V.
    Mla { latent: u64 },
    /// Multi-head latent attention with a sparse-attention indexer
    /// (DeepSeek-V3.2, GLM-5): caches the latent and the indexer's key of
    /// `index` elements per token.
    SparseMla { latent: u64, index: u64 },
    /// Grouped-query attention over the whole context with a
    /// sparse-attention indexer of its own (MiniMax-M3's MSA layers):
    /// caches K and V for every token, as [`AttentionKind::Full`] does, and
    /// the indexer's single shared key of `index` elements per token.
    Indexed { index: u64 },
    /// Compressed attention (DeepSeek-V4): one key/value entry of `width`
    /// elements for each of the last `window` tokens, plus one compressed
    /// entry of `width` (and an indexer key of `index`, 0 without an
    /// indexer) per `ratio` tokens of the whole context, and `state`
    /// elements of compressor buffers per sequence.
    Compressed {
        window: u64,
        ratio: u64,
        width: u64,
        index: u64,
        state: u64,
    },
    /// Linear attention, state-space or short-convolution layer; keeps
    /// `state` elements per sequence, whatever the context.
    Linear { state: u64 },
    /// No token mixer, or one that keeps nothing across tokens (a
    /// Nemotron-H MLP block; a Nemotron-NAS layer whose attention is
    /// skipped or replaced by a linear map; a Gemma-3n layer reading an
    /// earlier layer's cache); caches nothing.
    None,
}

/// The feed-forward part of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FfnKind {
    /// A dense MLP (or a single linear map replacing it).
    Dense,
    /// Routed experts (plus shared experts, if any).
    Moe,
    /// No feed-forward part (a Nemotron-H mixer block, Mamba).
    None,
}

/// A layer's token mixer as its config states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mixer {
    Full,
    Sliding,
    Chunked,
    /// Compressed attention (DeepSeek-V4): a sliding window plus
    /// compressed entries, one per [`Block::ratio`] tokens.
    Compressed,
    /// The model's recurrent mixer ([`LinearMixer`]).
    Linear,
    /// A single `H × H` linear map in place of attention (Nemotron-NAS
    /// `replace_with_linear`).
    Replaced,
    /// Attention that reads an earlier layer's keys and values (Gemma-3n's
    /// KV-sharing layers): queries and output only, no cache of its own.
    SharedKv,
    None,
}

/// A layer's feed-forward part as the encoding states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Every layer has one; MoE or dense by the MoE keys.
    Auto,
    Dense,
    Moe,
    /// A single `H × H` linear map in place of the MLP.
    Replaced,
    None,
}

/// One layer as a reader states it; `None` sizes are the model's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Block {
    pub mixer: Mixer,
    pub slot: Slot,
    /// Key/value heads of this layer's attention.
    pub kv_heads: Option<u64>,
    /// Query heads of this layer's attention (Step-3.5's sliding layers,
    /// `attention_other_setting`).
    pub heads: Option<u64>,
    /// Width of this layer's dense MLP.
    pub width: Option<u64>,
    /// Window of this layer's sliding attention.
    pub window: Option<u64>,
    /// Head dimension of this layer's attention (Gemma-4's global layers).
    pub head_dim: Option<u64>,
    /// Keys double as values: no value projection (Gemma-4
    /// `attention_k_eq_v` on global layers).
    pub keys_as_values: bool,
    /// Learned sink logits per head; `None`: the model's rule.
    pub sinks: Option<bool>,
    /// The layer runs its own sparse-attention indexer; `None`: every
    /// latent-attention layer of an indexed model does (GLM-5.2
    /// `indexer_types` says `shared` where a layer reuses another's).
    pub indexer: Option<bool>,
    /// Tokens per compressed entry of a [`Mixer::Compressed`] layer.
    pub ratio: Option<u64>,
}

impl Block {
    pub(crate) const fn new(mixer: Mixer, slot: Slot) -> Block {
        Block {
            mixer,
            slot,
            kv_heads: None,
            heads: None,
            width: None,
            window: None,
            head_dim: None,
            keys_as_values: false,
            sinks: None,
            indexer: None,
            ratio: None,
        }
    }
}

/// The sizes of one layer, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerShape {
    pub mixer: Mixer,
    pub kv_heads: u64,
    /// Query heads.
    pub heads: u64,
    /// Width of the dense MLP (0 without one).
    pub ffn_width: u64,
    /// The MLP is a single linear map.
    pub ffn_replaced: bool,
    /// Head dimension of queries and keys.
    pub head_dim: u64,
    /// Head dimension of values.
    pub v_head_dim: u64,
    /// No value projection: keys double as values.
    pub keys_as_values: bool,
    /// Learned sink logits per head.
    pub sinks: bool,
    /// A sparse-attention indexer of its own (latent attention layers).
    pub indexer: bool,
    /// Elements one key/value head caches per token: `d_k + d_v`, or `d`
    /// where one tensor serves as keys and values (DeepSeek-V4).
    pub cache_dim: u64,
}

/// The per-layer plan of a model.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub attention: Vec<AttentionKind>,
    pub ffn: Vec<FfnKind>,
    pub mixer: Option<LinearMixer>,
    pub layers: Vec<LayerShape>,
}

impl Plan {
    /// Each layer's dense MLP width (0 without one), when some dense layer
    /// is not `intermediate` wide.
    pub(crate) fn ffn_widths(&self, intermediate: Option<u64>) -> Option<Vec<u64>> {
        let differs = self
            .layers
            .iter()
            .zip(&self.ffn)
            .any(|(l, f)| *f == FfnKind::Dense && Some(l.ffn_width) != intermediate);
        differs.then(|| {
            self.layers
                .iter()
                .zip(&self.ffn)
                .map(|(l, f)| if *f == FfnKind::Dense { l.ffn_width } else { 0 })
                .collect()
        })
    }

    /// The key/value heads of the attention layers: `(shared, by_layer)`.
    /// `shared` is the count every attention layer has (`model` when none
    /// attends); when they differ it is the largest, and `by_layer` lists
    /// each layer's (0 for a layer without attention).
    pub(crate) fn kv_heads(&self, model: u64) -> (u64, Option<Vec<u64>>) {
        let attends =
            |l: &LayerShape| matches!(l.mixer, Mixer::Full | Mixer::Sliding | Mixer::Chunked);
        let mut heads = self
            .layers
            .iter()
            .filter(|l| attends(l))
            .map(|l| l.kv_heads);
        let Some(first) = heads.next() else {
            return (model, None);
        };
        let (min, max) = heads.fold((first, first), |(lo, hi), h| (lo.min(h), hi.max(h)));
        if min == max {
            return (first, None);
        }
        let by_layer = self
            .layers
            .iter()
            .map(|l| if attends(l) { l.kv_heads } else { 0 })
            .collect();
        (max, Some(by_layer))
    }

    /// Elements one key/value head caches per token in each layer (0 for a
    /// layer without attention), when some attention layer's differ from
    /// `2 · head_dim`.
    pub(crate) fn kv_dims(&self, head_dim: u64) -> Option<Vec<u64>> {
        let attends =
            |l: &LayerShape| matches!(l.mixer, Mixer::Full | Mixer::Sliding | Mixer::Chunked);
        let standard = head_dim.saturating_mul(2);
        let differs = self
            .layers
            .iter()
            .zip(&self.attention)
            .any(|(l, k)| attends(l) && !is_latent(*k) && l.cache_dim != standard);
        differs.then(|| {
            self.layers
                .iter()
                .zip(&self.attention)
                .map(|(l, k)| match attends(l) && !is_latent(*k) {
                    true => l.cache_dim,
                    false => 0,
                })
                .collect()
        })
    }
}

fn is_latent(kind: AttentionKind) -> bool {
    matches!(
        kind,
        AttentionKind::Mla { .. } | AttentionKind::SparseMla { .. }
    )
}

/// Window and chunk sizes that turn a [`Mixer`] into an [`AttentionKind`].
/// A window or chunk of `None`, or at least the model's context, is full
/// attention.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sizes {
    pub window: Option<u64>,
    pub chunk: Option<u64>,
}

/// Builds the per-layer plan from one block per layer. `routes(i)` says
/// whether layer `i` holds routed experts (`None` for a dense model);
/// `list_key` names the encoding for a length error.
pub(crate) fn plan(
    shape: &Shape,
    blocks: Vec<Block>,
    list_key: &'static str,
    sizes: Sizes,
    mixer: Option<LinearMixer>,
    routes: Option<&dyn Fn(u64) -> bool>,
) -> Result<Plan, ConfigError> {
    check_length(list_key, blocks.len() as u64, shape.layers)?;
    if blocks.iter().any(|b| b.mixer == Mixer::Linear) && mixer.is_none() {
        return Err(ConfigError::unsupported(format!(
            "{list_key} has recurrent layers but the config describes no recurrent mixer"
        )));
    }
    if sizes.chunk.is_none() && blocks.iter().any(|b| b.mixer == Mixer::Chunked) {
        return Err(ConfigError::missing(vec![
            "attention_chunk_size".to_string()
        ]));
    }
    let mut attention = Vec::with_capacity(blocks.len());
    let mut ffn = Vec::with_capacity(blocks.len());
    let mut layers = Vec::with_capacity(blocks.len());
    if blocks.iter().any(|b| b.mixer == Mixer::Compressed) && shape.compressed.is_none() {
        return Err(ConfigError::unsupported(format!(
            "{list_key} has compressed-attention layers but the config describes no compressor"
        )));
    }
    for (i, b) in blocks.iter().enumerate() {
        attention.push(kind(b, sizes, shape, mixer));
        let f = ffn_kind(b.slot, i as u64, routes)?;
        ffn.push(f);
        let width = match (b.slot, f) {
            (Slot::Replaced, _) => shape.hidden,
            (_, FfnKind::Dense) => match b.width.or(shape.intermediate) {
                Some(w) => w,
                None => return Err(ConfigError::missing(vec!["intermediate_size".to_string()])),
            },
            _ => 0,
        };
        let head_dim = b.head_dim.unwrap_or(shape.head_dim);
        let v_head_dim = match b.head_dim {
            Some(d) => d,
            None => shape.v_head_dim.unwrap_or(shape.head_dim),
        };
        let cache_dim = match shape.rules.keys_are_values {
            true => head_dim,
            false => head_dim.saturating_add(v_head_dim),
        };
        layers.push(LayerShape {
            mixer: b.mixer,
            kv_heads: b.kv_heads.unwrap_or(shape.kv_heads),
            heads: b.heads.unwrap_or(shape.heads),
            ffn_width: width,
            ffn_replaced: b.slot == Slot::Replaced,
            head_dim,
            v_head_dim,
            keys_as_values: b.keys_as_values,
            sinks: b.sinks.unwrap_or(shape.rules.attention_sinks),
            indexer: shape.indexer.is_some() && b.indexer.unwrap_or(true),
            cache_dim,
        });
    }
    Ok(Plan {
        attention,
        ffn,
        mixer,
        layers,
    })
}

fn ffn_kind(
    slot: Slot,
    i: u64,
    routes: Option<&dyn Fn(u64) -> bool>,
) -> Result<FfnKind, ConfigError> {
    match (slot, routes) {
        (Slot::None, _) => Ok(FfnKind::None),
        (Slot::Dense | Slot::Replaced, _) => Ok(FfnKind::Dense),
        (Slot::Moe, Some(_)) => Ok(FfnKind::Moe),
        (Slot::Moe, None) => Err(ConfigError::missing(vec!["num_experts".to_string()])),
        (Slot::Auto, Some(routes)) if routes(i) => Ok(FfnKind::Moe),
        (Slot::Auto, _) => Ok(FfnKind::Dense),
    }
}

fn kind(b: &Block, sizes: Sizes, shape: &Shape, linear: Option<LinearMixer>) -> AttentionKind {
    let limited = |size: Option<u64>| size.filter(|s| shape.max_context.is_none_or(|c| *s < c));
    let full = match (shape.mla, shape.indexer) {
        (Some(mla), Some(index)) if b.indexer.unwrap_or(true) => AttentionKind::SparseMla {
            latent: mla.latent(),
            index: index.head_dim,
        },
        (Some(mla), _) => AttentionKind::Mla {
            latent: mla.latent(),
        },
        // Without latent attention only a layer marked as indexing keeps
        // the indexer's key (MiniMax-M3 `sparse_attention_freq`).
        (None, Some(index)) if b.indexer == Some(true) => AttentionKind::Indexed {
            index: index.head_dim,
        },
        (None, _) => AttentionKind::Full,
    };
    match b.mixer {
        Mixer::Full => full,
        Mixer::Sliding => limited(b.window.or(sizes.window))
            .map(|window| AttentionKind::SlidingWindow { window })
            .unwrap_or(full),
        Mixer::Chunked => limited(sizes.chunk)
            .map(|chunk| AttentionKind::Chunked { chunk })
            .unwrap_or(full),
        Mixer::Compressed => compressed_kind(b, sizes, shape),
        Mixer::Linear => AttentionKind::Linear {
            state: linear.map(|m| m.state_elements()).unwrap_or(0),
        },
        Mixer::Replaced | Mixer::SharedKv | Mixer::None => AttentionKind::None,
    }
}

/// A compressed-attention layer's cache (DeepSeek-V4): the window's
/// entries and the compressed ones of `width = H_kv · d` elements, the
/// indexer's compressed keys where the layer's ratio is the indexed one,
/// and the compressor buffers (see [`super::shape::Compressor::state`]).
fn compressed_kind(b: &Block, sizes: Sizes, shape: &Shape) -> AttentionKind {
    let ratio = b.ratio.unwrap_or(0);
    let width = shape.kv_heads.saturating_mul(shape.head_dim);
    let (index, state) = match shape.compressed {
        Some(c) => (c.index_width(ratio), c.state(ratio, shape.head_dim)),
        None => (0, 0),
    };
    AttentionKind::Compressed {
        window: sizes.window.unwrap_or(0),
        ratio,
        width,
        index,
        state,
    }
}

pub(crate) fn check_length(key: &'static str, listed: u64, layers: u64) -> Result<(), ConfigError> {
    if listed == layers {
        return Ok(());
    }
    Err(ConfigError::contradictory(
        &[key, "num_hidden_layers"],
        format!("{key} describes {listed} layers but num_hidden_layers is {layers}"),
    ))
}

// ---------------------------------------------------------------------------
// Encodings

/// `n` layers of one kind, each with a feed-forward part.
pub(crate) fn uniform(n: u64, mixer: Mixer) -> Vec<Block> {
    (0..n).map(|_| Block::new(mixer, Slot::Auto)).collect()
}

/// Layer `i` is `when(i)` ? `yes` : `no`, each with a feed-forward part.
pub(crate) fn by_index(n: u64, when: impl Fn(u64) -> bool, yes: Mixer, no: Mixer) -> Vec<Block> {
    (0..n)
        .map(|i| Block::new(if when(i) { yes } else { no }, Slot::Auto))
        .collect()
}

/// The window of a config: `sliding_window` (or `key`), unless
/// `use_sliding_window` is false where the class has that switch.
pub(crate) fn window(r: &Reader, key: &str, switch: bool) -> Result<Option<u64>, ConfigError> {
    if switch && r.flag("use_sliding_window")? != Some(true) {
        return Ok(None);
    }
    r.dim(&[key], MAX_CONTEXT)
}

/// Entries of a list of layer types, each with a feed-forward part unless
/// the list also names `mlp`/`moe` blocks (Nemotron-H), when each entry
/// is a block holding only that part. `names` maps an entry to its mixer;
/// an entry it does not know is refused, naming it.
pub(crate) fn listed(
    key: &str,
    list: &[&str],
    names: &dyn Fn(&str) -> Option<Mixer>,
) -> Result<Vec<Block>, ConfigError> {
    list.iter()
        .map(|t| match names(t) {
            Some(mixer) => Ok(Block::new(mixer, Slot::Auto)),
            None => Err(ConfigError::unsupported(format!(
                "{key} entry \"{t}\" is not a layer type this model type has"
            ))),
        })
        .collect()
}

/// The usual names in `layer_types`: full and sliding attention.
pub(crate) fn attention_types(name: &str) -> Option<Mixer> {
    match name {
        "full_attention" => Some(Mixer::Full),
        "sliding_attention" => Some(Mixer::Sliding),
        _ => None,
    }
}

/// `layer_types` read with `names`, when the config has it.
pub(crate) fn layer_types(
    r: &Reader,
    names: &dyn Fn(&str) -> Option<Mixer>,
) -> Result<Option<Vec<Block>>, ConfigError> {
    match r.text_list("layer_types")? {
        Some(list) => listed("layer_types", &list, names).map(Some),
        None => Ok(None),
    }
}

/// Nemotron-H pattern, one block per character: `M` Mamba, `*` attention,
/// `-` MLP, `E` MoE.
pub(crate) fn nemotron_pattern(key: &str, pattern: &str) -> Result<Vec<Block>, ConfigError> {
    pattern
        .chars()
        .map(|c| match c {
            'M' => Ok(Block::new(Mixer::Linear, Slot::None)),
            '*' => Ok(Block::new(Mixer::Full, Slot::None)),
            '-' => Ok(Block::new(Mixer::None, Slot::Dense)),
            'E' => Ok(Block::new(Mixer::None, Slot::Moe)),
            _ => Err(ConfigError::unsupported(format!(
                "{key} character '{c}' is not one of M, *, -, E"
            ))),
        })
        .collect()
}
