//! The app's components, each named for what it shows. They read the
//! estimate; none computes a memory figure of its own.

use crate::text;
use leptos::prelude::*;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::scenario::{Field, Mode, ScenarioInput};
use vramfit_core::units::DisplayUnit;
use vramfit_core::verdict::{FitStatus, Verdict};

/// Radius of the ring's arc in SVG units (view box 0 0 120 120).
const RING_RADIUS: f64 = 52.0;

/// One numeric input of the scenario, with label, unit, hint and inline
/// validation. Only values the core accepts reach `input`; while the text
/// is invalid, the last good result stays on screen.
#[component]
pub fn NumberField(
    /// Which scenario field this edits.
    field: Field,
    /// The scenario the field writes into.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    let (label, unit, hint) = text::field_label(field);
    let key = field.key();
    let id = format!("vf-field-{key}");
    let hint_id = format!("{id}-hint");
    let text_value = RwSignal::new(format_number(input.get_untracked().get(field)));
    let error = RwSignal::new(None::<String>);
    // A value changed elsewhere (a suggestion, a format) shows up here too.
    Effect::new(move |_| {
        let value = input.with(|i| i.get(field));
        if field.parse(&text_value.get_untracked()).ok() != Some(value) {
            text_value.set(format_number(value));
            error.set(None);
        }
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text_value.set(raw.clone());
        match field.parse(&raw) {
            Ok(value) => {
                error.set(None);
                input.update(|i| i.set(field, value));
            }
            Err(e) => error.set(Some(text::input_error(&e))),
        }
    };
    view! {
        <div class="vf-field" class:vf-field--invalid=move || error.get().is_some()>
            <label class="vf-field__label" for=id.clone()>{label}</label>
            <div class="vf-field__control">
                <input
                    id=id.clone()
                    class="vf-field__input"
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    data-testid=format!("field-{key}")
                    aria-describedby=hint_id.clone()
                    aria-invalid=move || error.get().is_some().to_string()
                    prop:value=move || text_value.get()
                    on:input=on_input
                />
                <span class="vf-field__unit">{unit}</span>
            </div>
            <p id=hint_id class="vf-field__hint" data-testid=format!("hint-{key}")>
                {move || error.get().unwrap_or_else(|| hint.to_string())}
            </p>
        </div>
    }
}

/// A number as a person would type it: no trailing `.0`.
fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// The utilization ring: one arc for the share of usable memory, a second,
/// darker lap for anything over 100 %, the unclamped percentage, the state
/// word, and the memory to spare or missing.
#[component]
pub fn UtilizationRing(
    /// The verdict to show.
    #[prop(into)]
    verdict: Signal<Verdict>,
    /// Unit for the spare/missing figure.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let circumference = 2.0 * std::f64::consts::PI * RING_RADIUS;
    let percent = move || verdict.get().percent();
    let status = move || verdict.get().status;
    let first_lap = move || verdict.get().utilization.clamp(0.0, 1.0) * circumference;
    let second_lap = move || (verdict.get().utilization - 1.0).clamp(0.0, 1.0) * circumference;
    let dash = move |len: f64| format!("{len:.2} {circumference:.2}");
    let detail = move || {
        let v = verdict.get();
        let u = unit.get();
        if v.short_by_bytes > 0 {
            format!("faltan {}", u.format(v.short_by_bytes))
        } else {
            format!("sobran {}", u.format(v.headroom_bytes))
        }
    };
    view! {
        <div
            class="vf-ring"
            data-testid="utilization-ring"
            role="progressbar"
            aria-label="Uso de la memoria utilizable"
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || format!("{}", percent())
            aria-valuetext=move || format!("{} %, {}, {}", percent(), text::status_word(status()), detail())
            data-status=move || status().id()
        >
            <svg class="vf-ring__svg" viewBox="0 0 120 120" aria-hidden="true">
                <circle class="vf-ring__track" cx="60" cy="60" r=RING_RADIUS />
                <circle
                    class="vf-ring__arc"
                    cx="60" cy="60" r=RING_RADIUS
                    stroke-dasharray=move || dash(first_lap())
                />
                <circle
                    class="vf-ring__overflow"
                    cx="60" cy="60" r=RING_RADIUS
                    stroke-dasharray=move || dash(second_lap())
                />
            </svg>
            <div class="vf-ring__label">
                <span class="vf-ring__percent" data-testid="ring-percent">
                    {move || format!("{} %", percent())}
                </span>
                <span class="vf-ring__status">
                    <span class="vf-ring__icon" aria-hidden="true">{move || status_icon(status())}</span>
                    {move || text::status_word(status())}
                </span>
                <span class="vf-ring__detail" data-testid="ring-detail">{detail}</span>
            </div>
        </div>
    }
}

/// A shape per state, so that colour is never the only signal.
fn status_icon(status: FitStatus) -> &'static str {
    match status {
        FitStatus::Holgada => "●",
        FitStatus::ConMargen => "◐",
        FitStatus::Ajustada => "▲",
        FitStatus::NoCabe => "✕",
    }
}

/// The total memory the selected method estimates.
#[component]
pub fn TotalMemory(
    /// The selected method's result.
    #[prop(into)]
    result: Signal<MethodResult>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    view! {
        <p class="vf-total">
            <span class="vf-total__label">"Total estimado"</span>
            <span class="vf-total__value" data-testid="total-memory">
                {move || unit.get().format(result.get().total_bytes)}
            </span>
        </p>
    }
}

/// The components of the estimate: a stacked bar and a table of exact values.
#[component]
pub fn Breakdown(
    /// The selected method's result.
    #[prop(into)]
    result: Signal<MethodResult>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let rows = move || {
        let r = result.get();
        let total = r.total_bytes.max(1) as f64;
        r.components
            .0
            .iter()
            .filter(|c| c.bytes > 0)
            .map(|c| {
                (
                    colour_index(c.name),
                    c.name,
                    c.bytes,
                    c.bytes as f64 / total * 100.0,
                )
            })
            .collect::<Vec<_>>()
    };
    view! {
        <div class="vf-breakdown" data-testid="breakdown">
            <div class="vf-breakdown__bar" aria-hidden="true">
                {move || rows().into_iter().map(|(i, _, _, share)| view! {
                    <span
                        class=format!("vf-breakdown__seg vf-c{i}")
                        style=format!("width: {share:.3}%")
                    ></span>
                }).collect_view()}
            </div>
            <table class="vf-breakdown__table">
                <caption class="vf-visually-hidden">"Desglose de la memoria"</caption>
                <tbody>
                    {move || rows().into_iter().map(|(i, name, bytes, _)| view! {
                        <tr data-testid=format!("component-{name}")>
                            <th scope="row">
                                <span class=format!("vf-swatch vf-c{i}") aria-hidden="true"></span>
                                {text::component_name(name).to_string()}
                            </th>
                            <td class="vf-num">{unit.get().format(bytes)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// One colour per component name, the same in every method and view.
fn colour_index(name: &str) -> usize {
    const ORDER: [&str; 7] = [
        "weights",
        "kv_cache",
        "overhead",
        "training_states",
        "runtime",
        "activation",
        "margin",
    ];
    ORDER
        .iter()
        .position(|n| *n == name)
        .unwrap_or(ORDER.len() - 1)
}

/// GB (10⁹) / GiB (2³⁰) switch for every figure.
#[component]
pub fn UnitSwitch(
    /// The unit every figure is shown in.
    unit: RwSignal<DisplayUnit>,
) -> impl IntoView {
    let option = move |u: DisplayUnit| {
        view! {
            <button
                type="button"
                class="vf-seg__option"
                data-testid=format!("unit-{}", u.label().to_lowercase())
                aria-pressed=move || (unit.get() == u).to_string()
                on:click=move |_| unit.set(u)
            >
                {u.label()}
            </button>
        }
    };
    view! {
        <div class="vf-seg" role="group" aria-label="Unidad">
            {option(DisplayUnit::Gb)}
            {option(DisplayUnit::Gib)}
        </div>
    }
}

/// Inference or training, as segmented buttons.
#[component]
pub fn ModePicker(
    /// The scenario whose mode this sets.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    view! {
        <div class="vf-seg" role="group" aria-label="Modo">
            {Mode::ALL.into_iter().map(|m| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("mode-{}", m.id())
                    aria-pressed=move || (input.with(|i| i.mode) == m).to_string()
                    on:click=move |_| input.update(|i| i.set_mode(m))
                >
                    {text::mode_name(m)}
                </button>
            }).collect_view()}
        </div>
    }
}

/// The method behind the headline figure; methods that do not estimate the
/// current mode are disabled.
#[component]
pub fn MethodPicker(
    /// The scenario whose method this sets.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    view! {
        <div class="vf-seg" role="group" aria-label="Método">
            {MethodId::ALL.into_iter().map(|m| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("method-{}", m.id())
                    title=text::method_summary(m)
                    aria-pressed=move || (input.with(|i| i.method) == m).to_string()
                    disabled=move || !m.applies_to(input.with(|i| i.mode))
                    on:click=move |_| input.update(|i| i.method = m)
                >
                    {text::method_name(m)}
                </button>
            }).collect_view()}
        </div>
    }
}

/// Every method that applies, side by side: total, verdict, what it counts.
#[component]
pub fn MethodsTable(
    /// Each applicable method's result.
    methods: Vec<MethodResult>,
    /// The method behind the headline figure.
    selected: MethodId,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
    /// The scenario, to switch method from a row.
    input: RwSignal<ScenarioInput>,
) -> impl IntoView {
    view! {
        <table class="vf-methods" data-testid="methods-table">
            <caption>"Métodos comparados"</caption>
            <thead>
                <tr><th scope="col">"Método"</th><th scope="col" class="vf-num">"Total"</th><th scope="col">"Veredicto"</th></tr>
            </thead>
            <tbody>
                {methods.into_iter().map(|r| {
                    let m = r.method;
                    view! {
                        <tr data-testid=format!("method-row-{}", m.id()) class:vf-methods__selected=m == selected>
                            <th scope="row">
                                <button type="button" class="vf-link" on:click=move |_| input.update(|i| i.method = m)>
                                    {text::method_name(m)}
                                </button>
                                <span class="vf-methods__summary">{text::method_summary(m)}</span>
                            </th>
                            <td class="vf-num">{move || unit.get().format(r.total_bytes)}</td>
                            <td data-status=r.verdict.status.id()>
                                {status_icon(r.verdict.status)} " " {text::status_word(r.verdict.status)}
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}
