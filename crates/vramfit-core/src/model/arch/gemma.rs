//! Gemma 1, 2 and 3: tied embeddings by default, head_dim 256 by default,
//! norms around attention and MLP, local and global layers.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Mixer, Sizes};
use super::super::shape::{Keys, MAX_CONTEXT, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{dense_full, finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[&GEMMA, &GEMMA2, &GEMMA3];

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
