//! The app's components, each named for what it shows. They read the
//! report (through small signals) and the language; none computes a memory
//! figure of its own. Larger pieces live in `components/`.

pub mod chart;
pub mod compact;
pub mod engine;
pub mod fetch_row;
pub mod formats;
pub mod gguf_file;
pub mod gpu;
pub mod interpretation;
pub mod lang;
pub mod method_note;
pub mod model_search;
pub mod paste;
pub mod speed;
pub mod speed_chart;
pub mod stale;
pub mod switch;
pub mod transfer;
pub mod veil;

use crate::figures::BreakdownRow;
use crate::i18n::{format, use_lang, Lang};
use leptos::prelude::*;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::request::{Request, TRAINER_GRAD_CHECKPOINT};
use vramfit_core::scenario::{Field, InputError, Mode};
use vramfit_core::units::{Bytes, DisplayUnit};
use vramfit_core::verdict::{FitStatus, Verdict};

/// Radius of the ring's arc in SVG units (view box 0 0 120 120).
const RING_RADIUS: f64 = 52.0;
/// [`RING_RADIUS`] as the `r` attribute writes it (a text: no float
/// printing on the first load, see `i18n::format`).
const RING_R: &str = "52";

/// One numeric input of the scenario, with label, unit, hint and inline
/// validation. Only values the core accepts reach `input`; while the text
/// is invalid, the reason replaces the hint and the last good result stays.
#[component]
pub fn NumberField(
    /// Which scenario field this edits.
    field: Field,
    /// The scenario the field writes into.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let key = field.key();
    let id = format!("vf-field-{key}");
    let hint_id = format!("{id}-hint");
    // A field with an automatic value shows nothing (and says "auto") at 0;
    // a long value from a catalog or a config reads rounded, the exact one
    // in the tooltip (`exact`) and in the scenario.
    // (`exact` is empty when the field shows its value whole.)
    let shown = move |value: f64| match field.auto() && value == 0.0 {
        true => (String::new(), String::new()),
        false => {
            let (text, exact) = format::input_value_brief(&lang.get_untracked().t().number, value);
            (text, exact.unwrap_or_default())
        }
    };
    let (first_text, first_exact) = shown(input.get_untracked().scenario.get(field));
    let text_value = RwSignal::new(first_text);
    let exact = RwSignal::new(first_exact);
    let error = RwSignal::new(None::<InputError>);
    // The page greys its figures while a field holds text it does not take.
    let invalid = use_context::<stale::InvalidFields>();
    Effect::new(move |_| {
        let bad = error.with(Option::is_some);
        if let Some(list) = invalid {
            list.mark(key, bad);
        }
    });
    on_cleanup(move || {
        if let Some(list) = invalid {
            list.mark(key, false);
        }
    });
    let parse = move |text: &str| {
        let style = lang.get_untracked().t().number;
        field.parse(&format::normalize_input(&style, text))
    };
    // A value changed elsewhere (a suggestion, an import, a format) shows
    // up here, and so does a new language's decimal separator; text that
    // already reads as the value (`8.` on the way to `8.5`) is left alone.
    Effect::new(move |previous: Option<Lang>| {
        let value = input.with(|i| i.scenario.get(field));
        let now = lang.get();
        let text = text_value.get_untracked();
        let relabel = previous.is_some_and(|p| p != now) && error.get_untracked().is_none();
        if parse(&text).ok() != Some(value) || relabel {
            let (text, exact_text) = shown(value);
            text_value.set(text);
            exact.set(exact_text);
            error.set(None);
        }
        now
    });
    let on_input = move |ev| {
        let raw = event_target_value(&ev);
        text_value.set(raw.clone());
        exact.set(String::new());
        match parse(&raw) {
            Ok(value) => {
                error.set(None);
                input.update(|i| i.scenario.set(field, value));
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <div class="vf-field" class:vf-field--invalid=move || error.get().is_some()>
            <label class="vf-field__label" for=id.clone()>{move || (t().field)(field).label}</label>
            <div class="vf-field__control">
                <input
                    id=id.clone()
                    class="vf-field__input"
                    type="text"
                    inputmode=if field.integer() { "numeric" } else { "decimal" }
                    autocomplete="off"
                    spellcheck="false"
                    data-testid=format!("field-{key}")
                    placeholder=move || field.auto().then(|| t().field_auto)
                    aria-describedby=hint_id.clone()
                    aria-invalid=move || error.get().is_some().to_string()
                    prop:title=move || exact.get()
                    prop:value=move || text_value.get()
                    on:input=on_input
                />
                <span class="vf-field__unit" aria-hidden="true">{move || (t().field)(field).unit}</span>
            </div>
            <p id=hint_id class="vf-field__hint" data-testid=format!("hint-{key}") aria-live="polite">
                {move || match error.get() {
                    Some(e) => (t().input_error)(&e),
                    None => (t().field)(field).hint.to_string(),
                }}
            </p>
        </div>
    }
}

/// The utilization ring: one arc for the share of usable memory, a second,
/// darker lap for anything over 100 %, the unclamped percentage, the state
/// word with its shape, and the memory to spare or missing.
#[component]
pub fn UtilizationRing(
    /// The verdict to show.
    #[prop(into)]
    verdict: Signal<Verdict>,
    /// Unit for the spare/missing figure.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let circumference = 2.0 * std::f64::consts::PI * RING_RADIUS;
    let percent = move || verdict.with(Verdict::percent);
    let status = move || verdict.with(|v| v.status);
    let first_lap = move || verdict.with(|v| v.utilization.clamp(0.0, 1.0)) * circumference;
    let second_lap =
        move || verdict.with(|v| (v.utilization - 1.0).clamp(0.0, 1.0)) * circumference;
    let dash = move |len: f64| {
        format!(
            "{} {}",
            format::fixed(len, 2),
            format::fixed(circumference, 2)
        )
    };
    let percent_text = move || format::percent(&t().number, percent());
    // Inside the ring three digits at most; the exact figure beside it.
    let ring_text = move || format::ring_percent(&t().number, percent());
    let detail = move || verdict.with(|v| spare_or_missing(lang.get(), unit.get(), v));
    view! {
        <div
            class="vf-ring"
            data-testid="utilization-ring"
            role="progressbar"
            aria-label=move || t().ring_label
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || format::shortest(percent())
            aria-valuetext=move || format!("{}, {}, {}", percent_text(), (t().status_word)(status()), detail())
            data-status=move || status().id()
        >
            <svg class="vf-ring__svg" viewBox="0 0 120 120" aria-hidden="true">
                <circle class="vf-ring__track" cx="60" cy="60" r=RING_R />
                <circle
                    class="vf-ring__arc"
                    cx="60" cy="60" r=RING_R
                    stroke-dasharray=move || dash(first_lap())
                />
                <circle
                    class="vf-ring__overflow"
                    cx="60" cy="60" r=RING_R
                    stroke-dasharray=move || dash(second_lap())
                />
            </svg>
            <div class="vf-ring__label">
                <span class="vf-ring__percent" data-testid="ring-percent">{move || ring_text().0}</span>
                <span class="vf-ring__status" data-testid="ring-status">
                    <span class="vf-ring__icon" aria-hidden="true">{move || status_icon(status())}</span>
                    {move || (t().status_word)(status())}
                </span>
                <span class="vf-ring__detail" data-testid="ring-detail">{detail}</span>
            </div>
        </div>
        {move || ring_text().1.map(|exact| view! {
            <p class="vf-ring__exact" data-testid="ring-percent-exact">{exact}</p>
        })}
    }
}

/// Most small rings drawn; more GPUs are summed up in the caption.
const MAX_GPU_RINGS: u64 = 16;

/// One small ring per GPU when the estimate spans several, most loaded
/// first. The methods that split a model (range, planner) budget every GPU
/// alike, so each ring shows the same figure and the caption says so.
#[component]
pub fn GpuRings(
    /// The most loaded GPU's verdict.
    #[prop(into)]
    verdict: Signal<Verdict>,
    /// How many GPUs carry that budget.
    #[prop(into)]
    gpus: Signal<u64>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let circumference = 2.0 * std::f64::consts::PI * RING_RADIUS;
    let dash = move || {
        let lap = verdict.with(|v| v.utilization.clamp(0.0, 1.0)) * circumference;
        format!(
            "{} {}",
            format::fixed(lap, 2),
            format::fixed(circumference, 2)
        )
    };
    let percent = move || format::percent(&t().number, verdict.with(Verdict::percent));
    move || {
        let n = gpus.get();
        (n > 1).then(|| {
            view! {
                <div class="vf-gpu-rings" data-testid="gpu-rings">
                    <ul class="vf-gpu-rings__list">
                        {(1..=n.min(MAX_GPU_RINGS)).map(|k| view! {
                            <li class="vf-gpu-ring" data-testid="gpu-ring" data-status=move || verdict.with(|v| v.status.id())>
                                <svg viewBox="0 0 120 120" aria-hidden="true">
                                    <circle class="vf-ring__track" cx="60" cy="60" r=RING_R />
                                    <circle class="vf-ring__arc" cx="60" cy="60" r=RING_R stroke-dasharray=dash />
                                </svg>
                                <span>{move || (t().gpu_ring_label)(k)}</span>
                                <span class="vf-num">{percent}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                    <p class="vf-note">{move || (t().gpu_rings_note)(n)}</p>
                </div>
            }
        })
    }
}

/// "5.22 GB to spare" or "3.05 GB missing", in the language.
pub fn spare_or_missing(lang: crate::i18n::Lang, unit: DisplayUnit, v: &Verdict) -> String {
    let t = lang.t();
    if v.short_by_bytes > Bytes::ZERO {
        (t.missing)(&format::bytes(&t.number, unit, v.short_by_bytes))
    } else {
        (t.spare)(&format::bytes(&t.number, unit, v.headroom_bytes))
    }
}

/// A shape per state, so that colour is never the only signal.
pub fn status_icon(status: FitStatus) -> &'static str {
    match status {
        FitStatus::Roomy => "●",
        FitStatus::WithMargin => "◐",
        FitStatus::Tight => "▲",
        FitStatus::DoesNotFit => "✕",
    }
}

/// The total memory the selected method estimates, with its low–high
/// range where the method gives one.
#[component]
pub fn TotalMemory(
    /// The selected method's total, in bytes.
    #[prop(into)]
    total: Signal<Bytes>,
    /// Low and high ends, where the method gives a range.
    #[prop(into)]
    range: Signal<Option<(Bytes, Bytes)>>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
    /// GPUs that carry the total (each the most loaded one's budget).
    #[prop(optional, into)]
    gpus: Option<Signal<u64>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let fmt = move |bytes: Bytes| format::bytes(&t().number, unit.get(), bytes);
    let n = move || gpus.map_or(1, |g| g.get()).max(1);
    view! {
        <p class="vf-total">
            <span class="vf-total__label" data-testid="total-label">{move || (t().total_per_gpu)(n())}</span>
            <span class="vf-total__value" data-testid="total-memory">{move || fmt(total.get())}</span>
        </p>
        {move || (n() > 1).then(|| view! {
            <p class="vf-total__range" data-testid="total-all-gpus">
                {move || (t().total_all_gpus)(n(), &fmt(total.get().times(n())))}
            </p>
        })}
        {move || range.get().map(|(low, high)| view! {
            <p class="vf-total__range" data-testid="total-range">{format!("{} – {}", fmt(low), fmt(high))}</p>
        })}
    }
}

/// The components of the estimate: a stacked bar and a table of exact
/// values, in the method's order, each in its colour everywhere.
#[component]
pub fn Breakdown(
    /// The rows ([`figures::breakdown_rows`] of the selected result).
    #[prop(into)]
    rows: Signal<Vec<BreakdownRow>>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    view! {
        <div class="vf-breakdown" data-testid="breakdown">
            <div class="vf-breakdown__bar" aria-hidden="true">
                {move || rows.get().into_iter().map(|row| view! {
                    <span
                        class=format!("vf-breakdown__seg vf-c{}", row.colour)
                        class:vf-breakdown__seg--outside=row.outside_total
                        style:width=format!("{}%", format::fixed(row.share_pct, 3))
                    ></span>
                }).collect_view()}
            </div>
            <table class="vf-breakdown__table">
                <caption class="vf-visually-hidden">{move || t().breakdown_caption}</caption>
                <tbody>
                    {move || rows.get().into_iter().map(|row| view! {
                        <tr data-testid=format!("component-{}", row.term.id()) data-bytes=row.bytes.get()>
                            <th scope="row">
                                <span class=format!("vf-swatch vf-c{}", row.colour) aria-hidden="true"></span>
                                {(t().term)(row.term)}
                                {row.outside_total.then(|| view! {
                                    <span class="vf-methods__summary">{t().outside_total}</span>
                                })}
                            </th>
                            <td class="vf-num">{format::bytes(&t().number, unit.get(), row.bytes)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// GB (10⁹) / GiB (2³⁰) switch for every figure.
#[component]
pub fn UnitSwitch(
    /// The unit every figure is shown in.
    unit: RwSignal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <div class="vf-seg" role="group" aria-label=move || lang.get().t().unit_label on:keydown=crate::components::seg_keys>
            <UnitButtons unit testid="unit-" />
        </div>
    }
}

/// The two units as segmented buttons (`data-testid` the prefix and
/// `gb` or `gib`), for a segmented group of the caller's.
#[component]
pub fn UnitButtons(
    /// The chosen unit.
    unit: RwSignal<DisplayUnit>,
    /// The `data-testid` prefix (`"unit-"`).
    testid: &'static str,
    /// Also run on a choice (the lesson hides its result again).
    #[prop(optional)]
    on_choice: Option<Callback<DisplayUnit>>,
) -> impl IntoView {
    [DisplayUnit::Gb, DisplayUnit::Gib]
        .into_iter()
        .map(|u| {
            view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("{testid}{}", u.label().to_lowercase())
                    aria-pressed=move || (unit.get() == u).to_string()
                    on:click=move |_| {
                        unit.set(u);
                        if let Some(also) = on_choice {
                            also.run(u);
                        }
                    }
                >
                    {u.label()}
                </button>
            }
        })
        .collect_view()
}

/// Inference or training, as segmented buttons.
#[component]
pub fn ModePicker(
    /// The scenario whose mode this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let notice = switch::notice();
    let lang = use_lang();
    let t = move || lang.get().t();
    // Switching mode re-picks the method, which runs every method: the
    // engine's work (crate::parts).
    let parts = crate::parts::use_parts();
    view! {
        <div class="vf-seg" role="group" aria-label=move || t().mode_label on:keydown=crate::components::seg_keys>
            {Mode::ALL.into_iter().map(|m| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("mode-{}", m.id())
                    aria-pressed=move || (input.with(|i| i.scenario.mode) == m).to_string()
                    on:click=move |_| parts.with_engine(move |e| {
                        switch::edit_announcing(notice, input, |i| {
                            // Into training: checkpointing as the common
                            // trainer sets it (the CLI's rule).
                            if m.trains() && !i.scenario.mode.trains() {
                                i.scenario.grad_checkpoint = TRAINER_GRAD_CHECKPOINT;
                            }
                            (e.set_mode)(i, m)
                        })
                    })
                >
                    {move || (t().mode_name)(m)}
                </button>
            }).collect_view()}
        </div>
    }
}

/// What runs the model — the engines (vLLM, llama.cpp, PyTorch) — then
/// the seeds' methods as other estimates, each named in plain words; a
/// method that does not estimate the current mode is disabled.
#[component]
pub fn MethodPicker(
    /// The scenario whose method this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let group = move |methods: &'static [MethodId]| {
        methods
            .iter()
            .map(|&m| {
                view! {
                    <button
                        type="button"
                        class="vf-seg__option"
                        data-testid=format!("method-{}", m.id())
                        title=move || (t().method_summary)(m)
                        aria-pressed=move || (input.with(|i| i.method) == m).to_string()
                        disabled=move || !m.applies_to(input.with(|i| i.scenario.mode))
                        on:click=move |_| input.update(|i| i.method = m)
                    >
                        {move || (t().method_plain)(m)}
                    </button>
                }
            })
            .collect_view()
    };
    view! {
        <div class="vf-seg vf-seg--wrap" role="group" aria-label=move || t().engine_label data-testid="engines" on:keydown=seg_keys>
            {group(&ENGINES)}
        </div>
        <p class="vf-field__label vf-other-label" id="vf-other-estimates">{move || t().other_estimates}</p>
        <div class="vf-seg vf-seg--wrap vf-seg--quiet" role="group" aria-labelledby="vf-other-estimates" data-testid="other-estimates" on:keydown=seg_keys>
            {group(&OTHER_ESTIMATES)}
        </div>
    }
}

/// The engines, in the order the page offers them.
pub const ENGINES: [MethodId; 3] = [MethodId::Vllm, MethodId::Llamacpp, MethodId::Allocator];

/// The seeds' methods that are not an engine.
pub const OTHER_ESTIMATES: [MethodId; 4] = [
    MethodId::Quick,
    MethodId::Lesson,
    MethodId::Range,
    MethodId::Planner,
];

/// The arrow keys within a group of buttons: left/up to the previous
/// enabled button, right/down to the next; Home and End to the first and
/// the last enabled one.
pub fn seg_keys(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let Some(at) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let group = || at.parent_element();
    let (mut next, forward) = match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => (at.next_element_sibling(), true),
        "ArrowLeft" | "ArrowUp" => (at.previous_element_sibling(), false),
        "Home" => (group().and_then(|g| g.first_element_child()), true),
        "End" => (group().and_then(|g| g.last_element_child()), false),
        _ => return,
    };
    while let Some(e) = next {
        if !e.has_attribute("disabled") {
            if let Ok(button) = e.dyn_into::<web_sys::HtmlElement>() {
                ev.prevent_default();
                let _ = button.focus();
            }
            return;
        }
        next = match forward {
            true => e.next_element_sibling(),
            false => e.previous_element_sibling(),
        };
    }
}

/// Every method that applies, side by side: total, verdict, what it counts.
#[component]
pub fn MethodsTable(
    /// Each applicable method's result.
    #[prop(into)]
    methods: Signal<Vec<MethodResult>>,
    /// The method behind the headline figure.
    #[prop(into)]
    selected: Signal<MethodId>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
    /// The scenario, to switch method from a row.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    // The GPU columns when some method's figure is carried by several.
    let several = move || methods.with(|m| m.iter().any(|r| r.gpus > 1));
    view! {
        <div class="vf-table-scroll">
        <table class="vf-methods" data-testid="methods-table">
            <caption>{move || t().methods_caption}</caption>
            <thead>
                <tr>
                    <th scope="col">{move || t().col_method}</th>
                    <th scope="col" class="vf-num">{move || t().col_total}</th>
                    {move || several().then(|| view! {
                        <th scope="col" class="vf-num">{move || t().col_gpus}</th>
                        <th scope="col" class="vf-num">{move || t().col_all_gpus}</th>
                    })}
                    <th scope="col">{move || t().col_verdict}</th>
                </tr>
            </thead>
            <tbody>
                {move || methods.get().into_iter().map(|r| {
                    let m = r.method;
                    let (per_gpu, gpus, all) = (r.total_bytes, r.gpus, r.all_gpus_bytes());
                    let status = r.verdict.status;
                    view! {
                        <tr
                            data-testid=format!("method-row-{}", m.id())
                            data-per-gpu-bytes=per_gpu.get()
                            data-gpus=gpus
                            class:vf-methods__selected=move || m == selected.get()
                        >
                            <th scope="row">
                                <button type="button" class="vf-link" on:click=move |_| input.update(|i| i.method = m)>
                                    {move || (t().method_plain)(m)}
                                </button>
                                <span class="vf-methods__summary">{move || (t().method_summary)(m)}</span>
                            </th>
                            <td class="vf-num">{move || format::bytes(&t().number, unit.get(), per_gpu)}</td>
                            {move || several().then(|| view! {
                                <td class="vf-num">{gpus}</td>
                                <td class="vf-num">{move || format::bytes(&t().number, unit.get(), all)}</td>
                            })}
                            <td data-status=status.id()>
                                <span aria-hidden="true">{status_icon(status)}</span> " " {move || (t().status_word)(status)}
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        </div>
    }
}
