//! The published checkpoints of a model in a given format: what vLLM can
//! load where a person asks for a format it does not quantize to.
//!
//! A catalog entry is an export of the model when it is of the same family
//! and has the same layers, hidden size, vocabulary and parameter count
//! (a quantized export keeps the model's shape; its config only adds a
//! `quantization_config`), and its checkpoint is published in the format.

use super::scenario::published_in;
use crate::catalog::models;
use crate::model::ModelSpec;
use crate::scenario::{ConfigText, Scenario, WeightFormat};

/// Catalog ids of the checkpoints of `s`'s model published in `format`
/// (the model itself excluded), in catalog order.
pub fn published_checkpoints(s: &Scenario, format: WeightFormat) -> Vec<String> {
    let Some(spec) = s.model.as_deref() else {
        return Vec::new();
    };
    let own = match &s.model_config {
        Some(ConfigText::Catalog { id, .. }) => models::find_model(id).ok(),
        _ => None,
    };
    let family = own.map(|e| e.meta.family.as_str());
    models::all()
        .iter()
        .filter(|e| Some(e.id.as_str()) != own.map(|o| o.id.as_str()))
        .filter(|e| family.is_none_or(|f| e.meta.family == f))
        .filter(|e| {
            e.spec()
                .is_ok_and(|other| same_shape(spec, &other) && published_in(&other) == Some(format))
        })
        .map(|e| e.id.to_string())
        .collect()
}

/// Same layers, widths, vocabulary and parameter count.
fn same_shape(a: &ModelSpec, b: &ModelSpec) -> bool {
    a.num_layers == b.num_layers
        && a.hidden_size == b.hidden_size
        && a.vocab_size == b.vocab_size
        && a.params_total == b.params_total
}
