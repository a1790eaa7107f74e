//! Gemma-4's text model: Gemma-3 layers whose global (full-attention)
//! layers have their own head width and key/value heads (keys doubling as
//! values with `attention_k_eq_v`), a stored scalar per layer, optional
//! experts run beside the dense MLP, per-layer input embeddings and
//! key/value sharing in the small models.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, attention_types, Block, Mixer, Sizes, Slot};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, MAX_CONTEXT, MAX_DIM, MAX_HEADS, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[&GEMMA4];

fn gemma4(r: &Reader) -> Result<Blueprint, ConfigError> {
    let moe_block = flag(r, "enable_moe_block", false)?;
    let rules = Rules {
        tied_default: true,
        layer_norms: 4,
        qk_norm: QkNorm::Shared(Norm::Weight),
        layer_scalar: true,
        dense_beside_moe: moe_block,
        router_scales: moe_block,
        moe_norms: if moe_block { 3 } else { 0 },
        fused_gate_up: false,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    };
    let mut s = shape(r, Family::Gemma4, &Keys::STANDARD, rules)?;
    let n = s.layers;
    let mut types = match layers::layer_types(r, &attention_types)? {
        Some(b) => b,
        None => layers::by_index(
            n,
            |i| !(i + 1).is_multiple_of(6),
            Mixer::Sliding,
            Mixer::Full,
        ),
    };
    layers::check_length("layer_types", types.len() as u64, n)?;
    // `Gemma4TextConfig.__post_init__` forces the last layer to full
    // attention.
    if let Some(last) = types.last_mut() {
        last.mixer = Mixer::Full;
    }
    let global_dim = r.dim(&["global_head_dim"], MAX_DIM)?.unwrap_or(512);
    let k_eq_v = flag(r, "attention_k_eq_v", false)?;
    let global_kv = match k_eq_v {
        true => Some(
            r.dim(&["num_global_key_value_heads"], MAX_HEADS)?
                .ok_or_else(|| ConfigError::missing(vec!["num_global_key_value_heads".into()]))?,
        ),
        false => None,
    };
    if let Some(kv) = global_kv {
        if kv == 0 || !s.heads.is_multiple_of(kv) {
            return Err(ConfigError::contradictory(
                &["num_attention_heads", "num_global_key_value_heads"],
                format!(
                    "{kv} key/value heads cannot be shared evenly by {} query heads",
                    s.heads
                ),
            ));
        }
    }
    let shared = r
        .count(&["num_kv_shared_layers"], MAX_LAYERS)?
        .unwrap_or(0)
        .min(n);
    let first_shared = n - shared;
    let double_wide = flag(r, "use_double_wide_mlp", false)?;
    let width = s.need_intermediate("intermediate_size")?;
    let blocks = types
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let i = i as u64;
            let mut b = Block::new(t.mixer, Slot::Auto);
            if t.mixer == Mixer::Full {
                b.head_dim = Some(global_dim);
                b.kv_heads = global_kv;
                b.keys_as_values = k_eq_v;
            }
            let kv_shared = shared > 0 && i >= first_shared;
            if kv_shared {
                b.mixer = Mixer::SharedKv;
            }
            // `Gemma4TextMLP`: twice as wide on KV-sharing layers with
            // `use_double_wide_mlp`.
            if kv_shared && double_wide && first_shared > 0 {
                b.width = Some(width.saturating_mul(2));
            }
            b
        })
        .collect();
    let per_layer = r
        .count(&["hidden_size_per_layer_input"], MAX_DIM)?
        .unwrap_or(256);
    if per_layer > 0 {
        let vocab = r
            .dim(&["vocab_size_per_layer_input"], MAX_DIM)?
            .unwrap_or(262_144);
        s.per_layer_input = Some((per_layer, vocab));
    }
    let moe = match moe_block {
        true => {
            let keys = MoeKeys {
                experts: &["num_experts"],
                top_k: &["top_k_experts"],
                width: &["moe_intermediate_size"],
                shared: Shared::None,
                select: Select::All,
                score_bias_default: false,
                latent: false,
            };
            let m = moe::read(r, &keys, n)?;
            if m.is_none() {
                return Err(ConfigError::missing(vec!["num_experts".to_string()]));
            }
            m
        }
        false => None,
    };
    let mut window = r.dim(&["sliding_window"], MAX_CONTEXT)?;
    if r.text("use_bidirectional_attention")? == Some("all") {
        window = window.map(|w| w / 2 + 1);
    }
    let sizes = Sizes {
        window,
        chunk: None,
    };
    finish(s, moe, blocks, "layer_types", sizes, None)
}

pub(super) const GEMMA4: Architecture = Architecture {
    family: Family::Gemma4,
    model_types: &["gemma4_text"],
    classes: &["Gemma4ForCausalLM"],
    source: "transformers models/gemma4 (Gemma4TextConfig, Gemma4TextModel)",
    counts: "Gemma-3 layers (4 RMSNorms, q/k RMSNorms) and a stored layer scalar; global \
             layers with global_head_dim and, with attention_k_eq_v, \
             num_global_key_value_heads and no v projection; with enable_moe_block, experts \
             (fused gate/up) beside the dense MLP, a router with its scales and 3 more norms; \
             per-layer input embeddings and key/value-sharing layers (twice-wide MLP with \
             use_double_wide_mlp); tied head by default",
    defaults: &[
        ("num_key_value_heads", 4),
        ("head_dim", 256),
        ("sliding_window", 512),
        ("max_position_embeddings", 131_072),
        ("global_head_dim", 512),
        ("hidden_size_per_layer_input", 256),
        ("vocab_size_per_layer_input", 262_144),
    ],
    nested_defaults: &[
        ("vocab_size", 262_144),
        ("hidden_size", 2304),
        ("intermediate_size", 9216),
        ("num_hidden_layers", 30),
        ("num_attention_heads", 8),
    ],
    layer_keys: &["layer_types"],
    read: gemma4,
};
