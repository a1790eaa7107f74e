//! The GPU: a searchable catalog picker (a text field with the catalog as
//! suggestions, resolved by the core's lookup, so `4090` or `h100 sxm`
//! work), or memory typed by hand in the field beside it.

use crate::components::NumberField;
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::catalog::{self, gpus, NotFound};
use vramfit_core::request::Request;
use vramfit_core::scenario::Field;

/// Catalog picker plus the memory field.
#[component]
pub fn GpuPicker(
    /// The scenario whose GPU this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    // The GPU table comes with the engine (crate::parts).
    let parts = crate::parts::use_parts();
    let text = RwSignal::new(input.get_untracked().scenario.gpu.unwrap_or_default());
    let problem = RwSignal::new(None::<NotFound>);
    // A GPU set elsewhere (an import, a link) or cleared by typing memory
    // by hand shows up here, unless the typed text already names it.
    let chosen = Memo::new(move |_| input.with(|i| i.scenario.gpu.clone()));
    Effect::new(move |_| {
        let chosen = chosen.get();
        let typed = text.get_untracked();
        let same = match (&chosen, catalog::find_gpu(&typed)) {
            (Some(name), Ok(gpu)) => catalog::find_gpu(name).is_ok_and(|g| g.name == gpu.name),
            (None, _) => typed.trim().is_empty(),
            _ => false,
        };
        if !same {
            text.set(chosen.unwrap_or_default());
            problem.set(None);
        }
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        if raw.trim().is_empty() {
            problem.set(None);
            input.update(|i| i.scenario.gpu = None);
            return;
        }
        match catalog::find_gpu(&raw) {
            Ok(gpu) => {
                problem.set(None);
                if input.with_untracked(|i| i.scenario.gpu.as_deref() != Some(gpu.name.as_str())) {
                    input.update(|i| i.scenario.set_gpu(&gpu.name));
                }
            }
            Err(miss) => problem.set(Some(miss)),
        }
    };
    // Leaving the field writes the catalog's full name.
    let on_change = move |_| {
        if let Ok(gpu) = catalog::find_gpu(&text.get_untracked()) {
            text.set(gpu.name.clone());
        }
    };
    view! {
        <div class="vf-fields vf-fields--gpu">
            <div class="vf-field" class:vf-field--invalid=move || problem.with(Option::is_some)>
                <label class="vf-field__label" for="vf-gpu">{move || t().gpu_label}</label>
                <div class="vf-field__control">
                    <input
                        id="vf-gpu"
                        class="vf-field__input vf-field__input--text"
                        type="search"
                        list="vf-gpu-list"
                        autocomplete="off"
                        spellcheck="false"
                        data-testid="gpu-select"
                        placeholder=move || t().gpu_placeholder
                        aria-describedby="vf-gpu-hint"
                        aria-invalid=move || problem.with(Option::is_some).to_string()
                        prop:value=move || text.get()
                        on:input=on_input
                        on:change=on_change
                    />
                </div>
                <p id="vf-gpu-hint" class="vf-field__hint" data-testid="gpu-hint" aria-live="polite">
                    {move || match problem.get() {
                        Some(miss) => (t().gpu_not_found)(&miss),
                        None => t().gpu_hint.to_string(),
                    }}
                </p>
                <datalist id="vf-gpu-list">
                    {move || {
                        parts.engine.track();
                        let style = t().number;
                        gpus::all().iter().map(|g| view! {
                            <option value=g.name.clone()>{format!("{} GB", format::plain(&style, g.memory_gb))}</option>
                        }).collect_view()
                    }}
                </datalist>
            </div>
            <NumberField field=Field::GpuMemoryGb input />
        </div>
    }
}
