//! Step 02, "Añadir entrada": pick a catalog model or paste a
//! `config.json`, and see what was understood of it.

use crate::text;
use leptos::prelude::*;
use vramfit_core::catalog::models;
use vramfit_core::report::ModelSummary;
use vramfit_core::scenario::{ModelRef, ScenarioError, ScenarioInput};

/// The model source: typed numbers, a catalog entry or a pasted config.
#[component]
pub fn ModelInput(
    /// The scenario whose model this sets.
    input: RwSignal<ScenarioInput>,
    /// Problems with the current model (unknown id, unusable config).
    #[prop(into)]
    model_errors: Signal<Vec<ScenarioError>>,
) -> impl IntoView {
    let config_text = RwSignal::new(String::new());
    let selected = move || match input.with(|i| i.model.clone()) {
        Some(ModelRef::Catalog(id)) => id,
        _ => String::new(),
    };
    let on_select = move |ev| {
        let id = event_target_value(&ev);
        config_text.set(String::new());
        input.update(|i| i.model = (!id.is_empty()).then_some(ModelRef::Catalog(id)));
    };
    let on_paste = move |ev| {
        let text = event_target_value(&ev);
        config_text.set(text.clone());
        input.update(|i| {
            i.model = (!text.trim().is_empty()).then_some(ModelRef::Config(text));
        });
    };
    view! {
        <div class="vf-model">
            <label class="vf-field__label" for="vf-model-select">"Modelo del catálogo"</label>
            <select
                id="vf-model-select"
                class="vf-select"
                data-testid="model-select"
                prop:value=selected
                on:change=on_select
            >
                <option value="">"Números a mano (sin modelo)"</option>
                {models::all().iter().map(|m| view! { <option value=m.id>{m.id}</option> }).collect_view()}
            </select>
            <label class="vf-field__label" for="vf-config">"O pega un config.json"</label>
            <textarea
                id="vf-config"
                class="vf-config"
                rows="5"
                spellcheck="false"
                placeholder="{ \"model_type\": \"llama\", \"hidden_size\": 4096, ... }"
                data-testid="config-input"
                aria-describedby="vf-config-error"
                prop:value=move || config_text.get()
                on:input=on_paste
            ></textarea>
            <p id="vf-config-error" class="vf-error" data-testid="config-error" role="alert">
                {move || model_errors.get().iter().map(text::scenario_error).collect::<Vec<_>>().join(" ")}
            </p>
        </div>
    }
}

/// What was understood of the model: parameters, layers by kind, KV bytes
/// per token.
#[component]
pub fn ModelSummaryView(
    /// The report's model object.
    model: ModelSummary,
) -> impl IntoView {
    let billions = |n: u64| format!("{:.2} B", n as f64 / 1e9);
    let params = if model.params_active == model.params_total {
        billions(model.params_total)
    } else {
        format!(
            "{} (activos {})",
            billions(model.params_total),
            billions(model.params_active)
        )
    };
    let kinds = model
        .layers_by_kind
        .iter()
        .map(|k| format!("{} × {}", k.layers, text::attention_kind(&k.kind)))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <dl class="vf-summary" data-testid="model-summary">
            <dt>"Parámetros"</dt><dd>{params}</dd>
            <dt>"Capas"</dt><dd>{model.layers} {(!kinds.is_empty()).then(|| format!(" ({kinds})"))}</dd>
            <dt>"KV por token"</dt><dd>{format!("{} B", model.kv_bytes_per_token)}</dd>
        </dl>
    }
}
