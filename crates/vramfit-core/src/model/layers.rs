//! What each layer is: its token mixer (which decides its cache) and its
//! feed-forward part, read from whichever encoding the config uses.

use super::error::ConfigError;
use super::family::Family;
use super::json::Reader;
use super::mixer::{self, LinearMixer};
use super::shape::{Shape, LAYER_LISTS, LAYER_PATTERNS, MAX_DIM, MAX_LAYERS};
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
    /// Linear attention / state-space layer; keeps `state` elements per
    /// sequence, whatever the context.
    Linear { state: u64 },
    /// No token mixer (a Nemotron-H MLP or MoE block); caches nothing.
    None,
}

/// The feed-forward part of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FfnKind {
    /// A dense MLP.
    Dense,
    /// Routed experts (plus shared experts, if any).
    Moe,
    /// No feed-forward part (a Nemotron-H mixer block, Mamba).
    None,
}

/// The per-layer plan of a model.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub attention: Vec<AttentionKind>,
    pub ffn: Vec<FfnKind>,
    pub mixer: Option<LinearMixer>,
}

/// A layer's mixer before sizes are attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mixer {
    Full,
    Sliding,
    Chunked,
    Linear,
    None,
}

/// A layer's feed-forward part as the encoding states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Every layer has one; MoE or dense by the MoE keys.
    Auto,
    Dense,
    Moe,
    None,
}

/// A layer's mixer and feed-forward part.
type Block = (Mixer, Slot);

/// Builds the per-layer plan. `routes(i)` says whether layer `i` holds
/// routed experts (`None` for a dense model).
pub(crate) fn plan(
    r: &Reader,
    shape: &Shape,
    routes: Option<&dyn Fn(u64) -> bool>,
) -> Result<Plan, ConfigError> {
    let blocks = blocks(r, shape)?;
    let mixer = match blocks.iter().any(|(m, _)| *m == Mixer::Linear) {
        true => Some(mixer::read(r, shape.family, shape.hidden)?),
        false => None,
    };
    let sizes = Sizes::read(r, &blocks)?;
    let attention = blocks
        .iter()
        .map(|(m, _)| sizes.kind(*m, shape, mixer))
        .collect::<Result<Vec<_>, _>>()?;
    let ffn = blocks
        .iter()
        .enumerate()
        .map(|(i, (_, slot))| ffn_kind(*slot, i as u64, routes))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Plan {
        attention,
        ffn,
        mixer,
    })
}

fn ffn_kind(
    slot: Slot,
    i: u64,
    routes: Option<&dyn Fn(u64) -> bool>,
) -> Result<FfnKind, ConfigError> {
    match (slot, routes) {
        (Slot::None, _) => Ok(FfnKind::None),
        (Slot::Dense, _) => Ok(FfnKind::Dense),
        (Slot::Moe, Some(_)) => Ok(FfnKind::Moe),
        (Slot::Moe, None) => Err(ConfigError::missing(vec!["n_routed_experts".to_string()])),
        (Slot::Auto, Some(routes)) if routes(i) => Ok(FfnKind::Moe),
        (Slot::Auto, _) => Ok(FfnKind::Dense),
    }
}

/// Window, chunk and latent sizes that turn a [`Mixer`] into an
/// [`AttentionKind`].
struct Sizes {
    window: Option<u64>,
    chunk: Option<u64>,
}

impl Sizes {
    fn read(r: &Reader, blocks: &[Block]) -> Result<Sizes, ConfigError> {
        let chunk = r.dim(&["attention_chunk_size"], 1 << 40)?;
        if chunk.is_none() && blocks.iter().any(|(m, _)| *m == Mixer::Chunked) {
            return Err(ConfigError::missing(vec![
                "attention_chunk_size".to_string()
            ]));
        }
        Ok(Sizes {
            window: effective_window(r)?,
            chunk,
        })
    }

    /// A window or chunk of `null`, or at least the model's context, is
    /// full attention.
    fn kind(
        &self,
        mixer: Mixer,
        shape: &Shape,
        linear: Option<LinearMixer>,
    ) -> Result<AttentionKind, ConfigError> {
        let limited = |size: Option<u64>| size.filter(|s| shape.max_context.is_none_or(|c| *s < c));
        let full = match shape.mla {
            Some(mla) => AttentionKind::Mla {
                latent: mla.latent(),
            },
            None => AttentionKind::Full,
        };
        Ok(match mixer {
            Mixer::Full => full,
            Mixer::Sliding => limited(self.window)
                .map(|window| AttentionKind::SlidingWindow { window })
                .unwrap_or(full),
            Mixer::Chunked => limited(self.chunk)
                .map(|chunk| AttentionKind::Chunked { chunk })
                .unwrap_or(full),
            Mixer::Linear => AttentionKind::Linear {
                state: linear.map(|m| m.state_elements()).unwrap_or(0),
            },
            Mixer::None => AttentionKind::None,
        })
    }
}

/// `sliding_window` (or `sliding_window_size`), unless `use_sliding_window`
/// is false (Qwen2/Qwen3 keep a window value they do not use).
fn effective_window(r: &Reader) -> Result<Option<u64>, ConfigError> {
    if r.flag("use_sliding_window")? == Some(false) {
        return Ok(None);
    }
    r.dim(&["sliding_window", "sliding_window_size"], 1 << 40)
}

/// One `(mixer, feed-forward)` entry per layer.
fn blocks(r: &Reader, shape: &Shape) -> Result<Vec<Block>, ConfigError> {
    let n = shape.layers;
    let blocks = match explicit_blocks(r, shape)? {
        Some((key, blocks)) => {
            check_length(key, blocks.len() as u64, n)?;
            blocks
        }
        None => derived_blocks(r, shape)?,
    };
    Ok(blocks)
}

fn check_length(key: &'static str, listed: u64, layers: u64) -> Result<(), ConfigError> {
    if listed == layers {
        return Ok(());
    }
    Err(ConfigError::contradictory(
        &[key, "num_hidden_layers"],
        format!("{key} describes {listed} layers but num_hidden_layers is {layers}"),
    ))
}

/// Layers listed one by one: `layer_types` / `layers_block_type`,
/// `hybrid_override_pattern`, Jamba's attention period, or Qwen3-Next's
/// `full_attention_interval`.
fn explicit_blocks(
    r: &Reader,
    shape: &Shape,
) -> Result<Option<(&'static str, Vec<Block>)>, ConfigError> {
    for key in LAYER_LISTS {
        if let Some(list) = r.text_list(key)? {
            return listed_blocks(key, &list).map(|b| Some((key, b)));
        }
    }
    for key in LAYER_PATTERNS {
        if let Some(pattern) = r.text(key)? {
            return pattern_blocks(key, pattern).map(|b| Some((key, b)));
        }
    }
    let n = shape.layers;
    if shape.family == Family::Jamba || r.has(&["attn_layer_period"]) {
        let period = r.dim(&["attn_layer_period"], MAX_LAYERS)?.unwrap_or(8);
        let offset = r.count(&["attn_layer_offset"], MAX_LAYERS)?.unwrap_or(4);
        let blocks = (0..n).map(|i| match i % period == offset {
            true => (Mixer::Full, Slot::Auto),
            false => (Mixer::Linear, Slot::Auto),
        });
        return Ok(Some(("attn_layer_period", blocks.collect())));
    }
    if let Some(every) = r.dim(&["full_attention_interval"], MAX_LAYERS)? {
        let blocks = (0..n).map(|i| match (i + 1).is_multiple_of(every) {
            true => (Mixer::Full, Slot::Auto),
            false => (Mixer::Linear, Slot::Auto),
        });
        return Ok(Some(("full_attention_interval", blocks.collect())));
    }
    if matches!(shape.family, Family::Mamba | Family::Mamba2) {
        let blocks = (0..n).map(|_| (Mixer::Linear, Slot::None)).collect();
        return Ok(Some(("num_hidden_layers", blocks)));
    }
    Ok(None)
}

/// Entries of `layer_types`. When the list also names `mlp`/`moe` blocks
/// (Nemotron-H), each entry is a block holding only that part.
fn listed_blocks(key: &str, list: &[&str]) -> Result<Vec<Block>, ConfigError> {
    let block_style = list.iter().any(|t| matches!(*t, "mlp" | "moe" | "dense"));
    list.iter()
        .map(|t| {
            let (mixer, slot) = layer_type(t).ok_or_else(|| {
                ConfigError::unsupported(format!("{key} entry \"{t}\" is not a known layer type"))
            })?;
            let slot = match (block_style, slot) {
                (true, Slot::Auto) => Slot::None,
                _ => slot,
            };
            Ok((mixer, slot))
        })
        .collect()
}

fn layer_type(name: &str) -> Option<(Mixer, Slot)> {
    let mixer = match name {
        "full_attention" | "attention" | "global_attention" | "global" | "full" => Mixer::Full,
        "sliding_attention" | "sliding_window" | "local_attention" | "local" | "sliding" => {
            Mixer::Sliding
        }
        "chunked_attention" | "chunked" => Mixer::Chunked,
        "linear_attention" | "mamba" | "mamba2" | "ssm" | "linear" => Mixer::Linear,
        "mlp" | "dense" => return Some((Mixer::None, Slot::Dense)),
        "moe" => return Some((Mixer::None, Slot::Moe)),
        _ => return None,
    };
    Some((mixer, Slot::Auto))
}

/// Nemotron-H / Jamba-style pattern, one block per character: `M` Mamba,
/// `*` attention, `-` MLP, `E` MoE.
fn pattern_blocks(key: &str, pattern: &str) -> Result<Vec<Block>, ConfigError> {
    pattern
        .chars()
        .map(|c| match c {
            'M' => Ok((Mixer::Linear, Slot::None)),
            '*' => Ok((Mixer::Full, Slot::None)),
            '-' => Ok((Mixer::None, Slot::Dense)),
            'E' => Ok((Mixer::None, Slot::Moe)),
            _ => Err(ConfigError::unsupported(format!(
                "{key} character '{c}' is not one of M, *, -, E"
            ))),
        })
        .collect()
}

/// Layers derived from window and chunk keys, every layer with a
/// feed-forward part:
/// - `sliding_window_pattern` N (Gemma-3): layer `i` is global when
///   `(i + 1) mod N = 0`, local otherwise (5 local : 1 global for N = 6);
/// - Gemma-2: even layers local, odd layers global;
/// - `use_sliding_window` with `max_window_layers` (Qwen2): layers with
///   index ≥ `max_window_layers` are local;
/// - any other model with a window (Mistral-7B-v0.1, Phi-3): all local;
/// - `attention_chunk_size` (Llama-4): layers that use RoPE
///   (`no_rope_layers[i] = 1`, by default all but every 4th) are chunked;
/// - otherwise all full.
fn derived_blocks(r: &Reader, shape: &Shape) -> Result<Vec<Block>, ConfigError> {
    let n = shape.layers;
    let local: Box<dyn Fn(u64) -> bool> = if effective_window(r)?.is_some() {
        sliding_rule(r, shape)?
    } else if r.has(&["attention_chunk_size"]) {
        return chunked_blocks(r, n);
    } else {
        Box::new(|_| false)
    };
    Ok((0..n)
        .map(|i| match local(i) {
            true => (Mixer::Sliding, Slot::Auto),
            false => (Mixer::Full, Slot::Auto),
        })
        .collect())
}

fn sliding_rule(r: &Reader, shape: &Shape) -> Result<Box<dyn Fn(u64) -> bool>, ConfigError> {
    if let Some(every) = r.dim(&["sliding_window_pattern"], MAX_LAYERS)? {
        return Ok(Box::new(move |i| !(i + 1).is_multiple_of(every)));
    }
    if shape.family == Family::Gemma2 {
        return Ok(Box::new(|i: u64| i.is_multiple_of(2)));
    }
    if r.flag("use_sliding_window")? == Some(true) {
        if let Some(first) = r.count(&["max_window_layers"], MAX_DIM)? {
            return Ok(Box::new(move |i| i >= first));
        }
    }
    Ok(Box::new(|_| true))
}

fn chunked_blocks(r: &Reader, n: u64) -> Result<Vec<Block>, ConfigError> {
    let uses_rope: Vec<bool> = match r.uint_list("no_rope_layers")? {
        Some(list) => {
            check_length("no_rope_layers", list.len() as u64, n)?;
            list.iter().map(|v| *v != 0).collect()
        }
        None => {
            let every = r.dim(&["no_rope_layer_interval"], MAX_LAYERS)?.unwrap_or(4);
            (0..n).map(|i| !(i + 1).is_multiple_of(every)).collect()
        }
    };
    Ok(uses_rope
        .into_iter()
        .map(|rope| match rope {
            true => (Mixer::Chunked, Slot::Auto),
            false => (Mixer::Full, Slot::Auto),
        })
        .collect())
}
