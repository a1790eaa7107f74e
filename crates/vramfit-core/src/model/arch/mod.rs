//! One reader per model type. Each follows its Hugging Face
//! `transformers` code (or, for checkpoints that ship their own code, that
//! code): `configuration_<model_type>.py` for the names and the defaults
//! of absent keys (the tie default included), `modeling_<model_type>.py`
//! for the tensors (biases, norms, fused projections, parallel blocks,
//! position tables, the MLP's shape). A model type no reader knows is
//! refused ([`ConfigErrorKind::UnknownModelType`]), as is a per-layer key
//! the reader does not know ([`ConfigErrorKind::UnknownLayerPattern`]).
//!
//! [`ConfigErrorKind::UnknownModelType`]: super::ConfigErrorKind::UnknownModelType
//! [`ConfigErrorKind::UnknownLayerPattern`]: super::ConfigErrorKind::UnknownLayerPattern

mod approx;
mod coverage;
mod deepseek4;
mod gemma;
mod gemma4;
mod gpt;
mod hybrid;
mod kimi;
mod laguna;
mod llama;
mod mimo;
mod minimax_m3;
mod moe;
mod more;
mod nas;
mod others;
mod ported;
mod qwen;
mod step;
mod wrappers;

pub(crate) use approx::approximate;
pub(crate) use coverage::coverage_markdown;
pub(crate) use wrappers::{is_wrapper, resolve, Resolved};

use super::error::ConfigError;
use super::family::Family;
use super::json::Reader;
use super::layers::{self, Block, FfnKind, Plan, Sizes};
use super::mixer::LinearMixer;
use super::moe::MoeSpec;
use super::shape::Shape;
use serde_json::Value;

/// What a reader produces: the model-wide shape, the experts and the
/// per-layer plan.
pub(crate) struct Blueprint {
    pub shape: Shape,
    pub moe: Option<MoeSpec>,
    pub plan: Plan,
}

/// A reader: the model types it accepts and how it reads them.
pub(crate) struct Architecture {
    pub family: Family,
    /// `model_type` values, as `transformers` registers them.
    pub model_types: &'static [&'static str],
    /// Class names in `architectures` that identify it in a config without
    /// `model_type`.
    pub classes: &'static [&'static str],
    /// Where its rules come from.
    pub source: &'static str,
    /// What it counts, in one line (for the coverage list).
    pub counts: &'static str,
    /// Defaults of the config class for absent keys.
    pub defaults: &'static [(&'static str, u64)],
    /// Defaults applied only to a nested text model (sizes a multimodal
    /// checkpoint leaves to the class).
    pub nested_defaults: &'static [(&'static str, u64)],
    /// Per-layer keys the reader reads (or knows to change no tensor and
    /// no cache).
    pub layer_keys: &'static [&'static str],
    pub read: fn(&Reader) -> Result<Blueprint, ConfigError>,
}

/// Every reader.
pub(crate) fn all() -> impl Iterator<Item = &'static Architecture> {
    llama::ALL
        .iter()
        .chain(qwen::ALL)
        .chain(ported::ALL)
        .chain(others::ALL)
        .chain(gpt::ALL)
        .chain(gemma::ALL)
        .chain(moe::ALL)
        .chain(hybrid::ALL)
        .chain(nas::ALL)
        .chain(more::ALL)
        .chain(deepseek4::ALL)
        .chain(gemma4::ALL)
        .chain(mimo::ALL)
        .chain(kimi::ALL)
        .chain(minimax_m3::ALL)
        .chain(step::ALL)
        .chain(laguna::ALL)
        .copied()
}

/// The reader of a `model_type` or an architecture class name.
pub(crate) fn find(name: &str) -> Option<&'static Architecture> {
    all().find(|a| a.model_types.contains(&name) || a.classes.contains(&name))
}

/// Keys that are lists or patterns but never describe layers.
const NOT_LAYER_KEYS: [&str; 12] = [
    "architectures",
    "bad_words_ids",
    "begin_suppress_tokens",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "suppress_tokens",
    "forced_decoder_ids",
    "image_token_index",
    "time_step_limit",
    "mlp_multipliers",
    "ssm_multipliers",
];

/// Refuses a per-layer key the reader does not know: a list with one entry
/// per layer, a list of objects, a list under a key naming layers or
/// blocks, or a string with one character per layer under such a key.
pub(crate) fn check_layer_keys(
    r: &Reader,
    arch: &Architecture,
    model_type: &str,
    layers: u64,
) -> Result<(), ConfigError> {
    let names_layers = |key: &str| {
        let k = key.to_ascii_lowercase();
        ["layer", "block", "pattern", "idx"]
            .iter()
            .any(|w| k.contains(w))
    };
    for (key, value) in r.scope() {
        let key = key.as_str();
        if arch.layer_keys.contains(&key) || NOT_LAYER_KEYS.contains(&key) {
            continue;
        }
        let per_layer = match value {
            Value::Array(items) => {
                (items.len() as u64 == layers && layers > 2)
                    || items.iter().any(Value::is_object)
                    || (names_layers(key) && !items.is_empty())
            }
            Value::String(s) => {
                s.chars().count() as u64 == layers && layers > 2 && names_layers(key)
            }
            _ => false,
        };
        if per_layer {
            return Err(ConfigError::new(
                super::error::ConfigErrorKind::UnknownLayerPattern {
                    key: key.to_string(),
                    model_type: model_type.to_string(),
                },
            ));
        }
    }
    Ok(())
}

/// The per-layer plan with experts: reads `moe` routes into the plan and
/// fills the MoE layer counts.
pub(crate) fn finish(
    shape: Shape,
    mut moe: Option<MoeSpec>,
    blocks: Vec<Block>,
    list_key: &'static str,
    sizes: Sizes,
    mixer: Option<LinearMixer>,
) -> Result<Blueprint, ConfigError> {
    let routes = moe.as_ref().map(|m| m.selection.clone());
    let routes_fn = routes.as_ref().map(|s| move |i| s.routes(i));
    let plan = layers::plan(
        &shape,
        blocks,
        list_key,
        sizes,
        mixer,
        routes_fn.as_ref().map(|f| f as &dyn Fn(u64) -> bool),
    )?;
    if let Some(m) = moe.as_mut() {
        m.moe_layers = count(&plan.ffn, FfnKind::Moe);
        m.dense_layers = count(&plan.ffn, FfnKind::Dense);
    }
    Ok(Blueprint { shape, moe, plan })
}

fn count(kinds: &[FfnKind], wanted: FfnKind) -> u64 {
    kinds.iter().filter(|k| **k == wanted).count() as u64
}

/// Every layer full attention with a feed-forward part; no experts.
pub(crate) fn dense_full(shape: Shape) -> Result<Blueprint, ConfigError> {
    let blocks = layers::uniform(shape.layers, layers::Mixer::Full);
    finish(
        shape,
        None,
        blocks,
        "num_hidden_layers",
        Sizes::default(),
        None,
    )
}
