//! The GPU: a searchable catalog picker (a text field with the catalog as
//! suggestions, resolved by the core's lookup, so `4090` or `h100 sxm`
//! work), or memory typed by hand in the field beside it.

use crate::components::NumberField;
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::catalog::{gpus, Gpu, NotFound};
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
    // The GPU table and its lookup come with the engine (crate::parts), a
    // moment after the first result: until then a name finds nothing, and
    // a name typed meanwhile is looked up when it comes.
    let parts = crate::parts::use_parts();
    let find_gpu = move |name: &str| -> Result<&'static Gpu, NotFound> {
        match parts.engine.with_untracked(|e| e.ready()) {
            Some(engine) => (engine.find_gpu)(name),
            None => Err(NotFound {
                query: name.to_string(),
                suggestions: Vec::new(),
            }),
        }
    };
    let text = RwSignal::new(input.get_untracked().scenario.gpu.unwrap_or_default());
    let problem = RwSignal::new(None::<NotFound>);
    // A GPU set elsewhere (an import, a link) or cleared by typing memory
    // by hand shows up here, unless the typed text already names it. When
    // only the engine has come (the GPU set is the same, and already
    // shown), the text typed meanwhile stays, with its hint.
    let chosen = Memo::new(move |_| input.with(|i| i.scenario.gpu.clone()));
    Effect::new(move |previous: Option<Option<String>>| {
        let chosen = chosen.get();
        parts.engine.track();
        let changed = previous.as_ref() != Some(&chosen);
        let typed = text.get_untracked();
        let same = match (&chosen, find_gpu(&typed)) {
            (Some(name), Ok(gpu)) => find_gpu(name).is_ok_and(|g| g.name == gpu.name),
            (None, _) => typed.trim().is_empty(),
            _ => false,
        };
        if !same && changed {
            text.set(chosen.clone().unwrap_or_default());
            problem.set(None);
        }
        chosen
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        if raw.trim().is_empty() {
            problem.set(None);
            input.update(|i| i.scenario.gpu = None);
            return;
        }
        parts.with_engine(move |engine| {
            if text.get_untracked() != raw {
                return;
            }
            match (engine.find_gpu)(&raw) {
                Ok(gpu) => {
                    problem.set(None);
                    if input
                        .with_untracked(|i| i.scenario.gpu.as_deref() != Some(gpu.name.as_str()))
                    {
                        input.update(|i| (engine.set_gpu)(&mut i.scenario, &gpu.name));
                    }
                }
                Err(miss) => problem.set(Some(miss)),
            }
        });
    };
    // What the engine says of the catalog GPU chosen (its full name, the
    // memory counted, the other sizes of its chip).
    let picked = move || {
        let engine = parts.engine.get().ready()?;
        (engine.gpu_hint)(&text.get(), chosen.get().as_deref()?, lang.get())
    };
    // Leaving the field writes the catalog's full name.
    let on_change = move |_| {
        if let Ok(gpu) = find_gpu(&text.get_untracked()) {
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
                    {move || match (problem.get(), picked()) {
                        (Some(miss), _) => (t().gpu_not_found)(&miss),
                        (None, Some(hint)) => hint,
                        (None, None) => t().gpu_hint.to_string(),
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

/// The hint under the GPU field once a catalog GPU is chosen: its full
/// name and the memory counted, and the catalog's other GPUs that the typed
/// words also name (another memory size of the same chip, as for "M4
/// Max"); `None` if `chosen` is not in the catalog. Runs in the engine's
/// chunk, with the GPU table.
pub fn picked_hint(typed: &str, chosen: &str, lang: crate::i18n::Lang) -> Option<String> {
    let t = lang.t();
    let gpu = vramfit_core::catalog::find_gpu(chosen).ok()?;
    let typed = typed.to_ascii_lowercase();
    let words: Vec<&str> = typed.split_whitespace().collect();
    let others = gpus::all()
        .iter()
        .filter(|g| g.name != gpu.name && !words.is_empty())
        .filter(|g| {
            words
                .iter()
                .all(|w| g.name.to_ascii_lowercase().contains(w))
        })
        .map(|g| g.name.as_str())
        .collect::<Vec<_>>();
    let memory = format!("{} GB", format::plain(&t.number, gpu.memory_gb));
    Some((t.gpu_picked)(&gpu.name, &memory, &others.join(" · ")))
}
