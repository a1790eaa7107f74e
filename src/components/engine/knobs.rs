//! The engines' knobs: `vllm serve`'s and `llama-server`'s options that
//! change memory, each checked by the core as typed ([`EngineField`]).

use crate::i18n::{format, use_lang, Lang};
use leptos::prelude::*;
use vramfit_core::gguf::{GgmlType, CACHE_TYPES};
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{EngineError, EngineField};

/// The selected engine's knobs (nothing for the other methods).
#[component]
pub fn EngineKnobsPanel(
    /// The scenario the knobs edit.
    input: RwSignal<Request>,
    /// The selected method.
    #[prop(into)]
    method: Signal<MethodId>,
    /// The report on screen: what an empty knob ran at.
    report: Memo<Option<Report>>,
) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let as_run = move |field: EngineField| {
        Signal::derive(move || report.with(|r| r.as_ref()?.estimate.engine.as_ref()?.as_run(field)))
    };
    move || {
        match method.get() {
        MethodId::Vllm => view! {
            <div class="vf-fields" data-testid="engine-knobs" data-engine="vllm">
                {EngineField::VLLM.into_iter().map(|field| view! { <EngineNumber field input as_run=as_run(field) /> }).collect_view()}
            </div>
            <label class="vf-check">
                <input
                    type="checkbox"
                    data-testid="engine-enforce-eager"
                    prop:checked=move || input.with(|i| i.scenario.engine.enforce_eager)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        input.update(|i| i.scenario.engine.enforce_eager = on);
                    }
                />
                {move || e().enforce_eager}
            </label>
            <super::vllm::VllmKnobs input />
        }
        .into_any(),
        MethodId::Llamacpp => view! {
            <div class="vf-fields" data-testid="engine-knobs" data-engine="llamacpp">
                {EngineField::LLAMACPP.into_iter().map(|field| view! { <EngineNumber field input as_run=as_run(field) /> }).collect_view()}
                <CacheType input v=false />
                <CacheType input v=true />
            </div>
            <label class="vf-check">
                <input
                    type="checkbox"
                    data-testid="engine-flash-attn"
                    prop:checked=move || input.with(|i| i.scenario.engine.flash_attn)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        input.update(|i| i.scenario.engine.flash_attn = on);
                    }
                />
                {move || e().flash_attn}
            </label>
        }
        .into_any(),
        _ => ().into_any(),
    }
    }
}

/// One numeric engine knob: empty is the engine's own value where it has
/// an "auto"; only values the core accepts reach `input`.
#[component]
pub fn EngineNumber(
    /// Which knob.
    field: EngineField,
    /// The scenario it writes into.
    input: RwSignal<Request>,
    /// What the engine ran at while the knob is empty (its placeholder
    /// says so: "auto (0,92)").
    #[prop(optional, into)]
    as_run: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let lang = use_lang();
    let key = field.key();
    let id = format!("vf-engine-{key}");
    let hint_id = format!("{id}-hint");
    let shown = move |lang: Lang, value: Option<f64>| {
        value.map_or(String::new(), |v| format::input_value(&lang.t().number, v))
    };
    let value = move || input.with(|i| field.get(&i.scenario.engine));
    let text = RwSignal::new(shown(lang.get_untracked(), value()));
    let error = RwSignal::new(None::<EngineError>);
    let parse = move |raw: &str| {
        let style = lang.get_untracked().t().number;
        field.parse(&format::normalize_input(&style, raw))
    };
    // A value changed elsewhere (an import, a link) shows up here.
    Effect::new(move |_| {
        let now = value();
        if error.get_untracked().is_none() && parse(&text.get_untracked()).ok() != Some(now) {
            text.set(shown(lang.get_untracked(), now));
        }
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text.set(raw.clone());
        match parse(&raw) {
            Ok(v) => {
                error.set(None);
                input.update(|i| field.set(&mut i.scenario.engine, v));
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let label = move || (lang.get().engine().knob)(field);
    view! {
        <div class="vf-field" class:vf-field--invalid=move || error.get().is_some()>
            <label class="vf-field__label" for=id.clone()>{move || label().label}</label>
            <div class="vf-field__control">
                <input
                    id=id.clone()
                    class="vf-field__input"
                    type="text"
                    inputmode=if field.integer() { "numeric" } else { "decimal" }
                    autocomplete="off"
                    spellcheck="false"
                    placeholder=move || field.optional().then(|| {
                        let lang = lang.get();
                        let auto = lang.engine().auto;
                        match as_run.and_then(|v| v.get()) {
                            Some(v) => format!("{auto} ({})", format::input_value(&lang.t().number, v)),
                            None => auto.to_string(),
                        }
                    })
                    data-testid=format!("engine-{key}")
                    aria-describedby=hint_id.clone()
                    aria-invalid=move || error.get().is_some().to_string()
                    prop:value=move || text.get()
                    on:input=on_input
                />
                <span class="vf-field__unit" aria-hidden="true">{move || label().unit}</span>
            </div>
            <p id=hint_id class="vf-field__hint" data-testid=format!("engine-hint-{key}") aria-live="polite">
                {move || match error.get() {
                    Some(e) => (lang.get().engine().knob_error)(&e),
                    None => label().hint.to_string(),
                }}
            </p>
        </div>
    }
}

/// `-ctk` or `-ctv`: a cache type, or the one the KV bytes name.
#[component]
fn CacheType(
    /// The scenario it writes into.
    input: RwSignal<Request>,
    /// The V cache (else K).
    v: bool,
) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let key = if v { "cache_type_v" } else { "cache_type_k" };
    let id = format!("vf-engine-{key}");
    let get = move || {
        input.with(|i| match v {
            true => i.scenario.engine.cache_type_v,
            false => i.scenario.engine.cache_type_k,
        })
    };
    let on_change = move |ev| {
        let chosen = GgmlType::parse_cache(&event_target_value(&ev));
        input.update(|i| match v {
            true => i.scenario.engine.cache_type_v = chosen,
            false => i.scenario.engine.cache_type_k = chosen,
        });
    };
    view! {
        <div class="vf-field">
            <label class="vf-field__label" for=id.clone()>
                {move || if v { e().cache_type_v } else { e().cache_type_k }}
            </label>
            <select id=id class="vf-field__input" data-testid=format!("engine-{key}") on:input=on_change on:change=on_change>
                <option value="" selected=move || get().is_none()>{move || e().cache_follows}</option>
                {CACHE_TYPES.into_iter().map(|t| view! {
                    <option value=t.name() selected=move || get() == Some(t)>{t.name()}</option>
                }).collect_view()}
            </select>
        </div>
    }
}
