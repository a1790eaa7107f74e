//! Gemma 1, 2 and 3: tied embeddings by default, head_dim 256 by default,
//! norms around attention and MLP, local and global layers.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::layers::{Block, Slot};
use super::super::shape::{Gemma3nParts, Keys, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{dense_full, finish, Architecture, Blueprint};
use serde_json::Value;

pub(super) const ALL: &[&Architecture] = &[&GEMMA, &GEMMA2, &GEMMA3, &GEMMA3N];

fn gemma_rules(r: &Reader, layer_norms: u64) -> Result<Rules, ConfigError> {
    Ok(Rules {
        tied_default: true,
        layer_norms,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    })
}

pub(super) const GEMMA: Architecture = Architecture {
    family: Family::Gemma,
    model_types: &["gemma"],
    classes: &["GemmaForCausalLM"],
    source: "transformers models/gemma (GemmaConfig, GemmaForCausalLM)",
    counts: "q/k/v/o (biases with attention_bias), gated MLP, 2 RMSNorms per layer, tied by \
             default; head_dim class default 256",
    defaults: &[("num_key_value_heads", 16), ("head_dim", 256)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        dense_full(shape(
            r,
            Family::Gemma,
            &Keys::STANDARD,
            gemma_rules(r, 2)?,
        )?)
    },
};

pub(super) const GEMMA2: Architecture = Architecture {
    family: Family::Gemma2,
    model_types: &["gemma2"],
    classes: &["Gemma2ForCausalLM"],
    source: "transformers models/gemma2 (Gemma2Config, Gemma2ForCausalLM)",
    counts: "Gemma layers with 4 RMSNorms each; layer_types, by default sliding \
             (sliding_window, default 4096) on even layers and full on odd ones",
    defaults: &[
        ("num_key_value_heads", 4),
        ("head_dim", 256),
        ("sliding_window", 4096),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| {
        let s = shape(r, Family::Gemma2, &Keys::STANDARD, gemma_rules(r, 4)?)?;
        let blocks = match layers::layer_types(r, &attention_types)? {
            Some(b) => b,
            None => layers::by_index(
                s.layers,
                |i| i.is_multiple_of(2),
                Mixer::Sliding,
                Mixer::Full,
            ),
        };
        let sizes = Sizes {
            window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
            chunk: None,
        };
        finish(s, None, blocks, "layer_types", sizes, None)
    },
};

/// Gemma-3's text model: per-head q/k RMSNorms, 4 norms per layer,
/// `layer_types` or one global layer every `sliding_window_pattern`.
fn gemma3(r: &Reader) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        qk_norm: QkNorm::Shared(Norm::Weight),
        ..gemma_rules(r, 4)?
    };
    let s = shape(r, Family::Gemma3, &Keys::STANDARD, rules)?;
    let blocks = match layers::layer_types(r, &attention_types)? {
        Some(b) => b,
        None => {
            let every = r.dim(&["sliding_window_pattern"], MAX_LAYERS)?.unwrap_or(6);
            layers::by_index(
                s.layers,
                |i| !(i + 1).is_multiple_of(every),
                Mixer::Sliding,
                Mixer::Full,
            )
        }
    };
    let mut window = r.dim(&["sliding_window"], MAX_CONTEXT)?;
    if flag(r, "use_bidirectional_attention", false)? {
        window = window.map(|w| w / 2 + 1);
    }
    let sizes = Sizes {
        window,
        chunk: None,
    };
    finish(s, None, blocks, "layer_types", sizes, None)
}

pub(super) const GEMMA3: Architecture = Architecture {
    family: Family::Gemma3,
    model_types: &["gemma3_text"],
    classes: &["Gemma3ForCausalLM"],
    source: "transformers models/gemma3 (Gemma3TextConfig, Gemma3TextModel)",
    counts: "Gemma-2 layers plus per-head q/k RMSNorms; layer_types or one global layer in \
             sliding_window_pattern (default 6); multimodal configs leave sizes to the class",
    defaults: &[
        ("num_key_value_heads", 4),
        ("head_dim", 256),
        ("sliding_window", 4096),
        ("sliding_window_pattern", 6),
        ("max_position_embeddings", 131_072),
    ],
    nested_defaults: &[
        ("vocab_size", 262_208),
        ("hidden_size", 2304),
        ("intermediate_size", 9216),
        ("num_hidden_layers", 26),
        ("num_attention_heads", 8),
    ],
    layer_keys: &["layer_types"],
    read: gemma3,
};

/// Gemma-3n's text model: Gemma-3 layers whose MLP width may differ per
/// layer (`intermediate_size` as a list), the last `num_kv_shared_layers`
/// reading an earlier layer's keys and values (no k/v projections and no
/// cache of their own), AltUp, LAuReL and per-layer input embeddings.
fn gemma3n(r: &Reader) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        qk_norm: QkNorm::Shared(Norm::Weight),
        ..gemma_rules(r, 4)?
    };
    let keys = Keys {
        intermediate: &[],
        ..Keys::STANDARD
    };
    let mut s = shape(r, Family::Gemma3n, &keys, rules)?;
    let n = s.layers;
    let widths: Vec<u64> = match r.get("intermediate_size") {
        Some(Value::Array(_)) => {
            let list = r.uint_list("intermediate_size")?.unwrap_or_default();
            layers::check_length("intermediate_size", list.len() as u64, n)?;
            list
        }
        _ => {
            let w = r
                .dim(&["intermediate_size"], MAX_DIM)?
                .ok_or_else(|| ConfigError::missing(vec!["intermediate_size".to_string()]))?;
            vec![w; n as usize]
        }
    };
    s.intermediate = widths
        .first()
        .copied()
        .filter(|w| widths.iter().all(|x| x == w));
    let types = match layers::layer_types(r, &attention_types)? {
        Some(b) => b,
        None => layers::by_index(
            n,
            |i| !(i + 1).is_multiple_of(5),
            Mixer::Sliding,
            Mixer::Full,
        ),
    };
    let shared = r
        .count(&["num_kv_shared_layers"], MAX_LAYERS)?
        .unwrap_or(15)
        .min(n);
    let first_shared = n - shared;
    let blocks = types
        .iter()
        .zip(&widths)
        .enumerate()
        .map(|(i, (b, w))| {
            let mut block = Block::new(b.mixer, Slot::Dense);
            block.width = Some(*w);
            if i as u64 >= first_shared {
                block.mixer = Mixer::SharedKv;
            }
            block
        })
        .collect();
    s.gemma3n = Some(Gemma3nParts {
        altup: r.dim(&["altup_num_inputs"], MAX_HEADS)?.unwrap_or(4),
        laurel_rank: r.dim(&["laurel_rank"], MAX_DIM)?.unwrap_or(64),
        per_layer_hidden: r
            .dim(&["hidden_size_per_layer_input"], MAX_DIM)?
            .unwrap_or(256),
        per_layer_vocab: r
            .dim(&["vocab_size_per_layer_input"], MAX_DIM)?
            .unwrap_or(262_144),
    });
    let sizes = Sizes {
        window: r.dim(&["sliding_window"], MAX_CONTEXT)?,
        chunk: None,
    };
    finish(s, None, blocks, "layer_types", sizes, None)
}

pub(super) const GEMMA3N: Architecture = Architecture {
    family: Family::Gemma3n,
    model_types: &["gemma3n_text"],
    classes: &[],
    source: "transformers models/gemma3n (Gemma3nTextConfig, Gemma3nTextModel)",
    counts: "Gemma-3 layers with per-layer MLP widths, KV-sharing last layers (queries and \
             output only, no cache of their own), AltUp (streams, router, coefficients, \
             projections), LAuReL, per-layer input embeddings and projections; tied head",
    defaults: &[
        ("num_key_value_heads", 2),
        ("head_dim", 256),
        ("sliding_window", 512),
        ("max_position_embeddings", 32_768),
    ],
    nested_defaults: &[
        ("vocab_size", 262_400),
        ("hidden_size", 2048),
        ("num_hidden_layers", 35),
        ("num_attention_heads", 8),
    ],
    layer_keys: &[
        "layer_types",
        "intermediate_size",
        "activation_sparsity_pattern",
    ],
    read: gemma3n,
};
