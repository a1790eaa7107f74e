//! The lesson: the learning contract (understand → implement → investigate)
//! around the calculator's current scenario. The student predicts before
//! seeing a result, isolates one assumption at a time, compares an
//! alternative under the same budget, reruns the calculation from the
//! command line, and records evidence in the notebook.
//!
//! The lesson computes nothing of its own: every figure is the core's
//! (`kit::run` on the scenario or on a copy with one change).

pub mod formulas;
pub mod text;

use crate::download::download_text;
use crate::notebook::panel::observe;
use crate::notebook::store::{self, Prediction};
use crate::notebook::{web, Draft, Notebook};
use leptos::prelude::*;
use text::{texts, Lang};
use vramfit_core::kit;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Field, ScenarioInput, WeightFormat};
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};

/// What the student has done (not read) since the page opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Progress {
    understood: bool,
    implemented: bool,
    investigated: bool,
}

/// The lesson around the calculator's scenario.
#[component]
pub fn LessonPanel(
    /// The calculator's scenario; the lesson's one-click changes set it.
    input: RwSignal<Request>,
    /// The report of the scenario (the last good one while the input has a
    /// problem).
    #[prop(into)]
    report: Signal<Option<Report>>,
    /// Language code, `"es"` (default) or `"en"`.
    #[prop(into, default = Signal::stored("es"))]
    lang: Signal<&'static str>,
    /// The page's notebook, to record evidence in; without one the lesson
    /// works on its own and offers no recording.
    #[prop(optional)]
    notebook: Option<Notebook>,
) -> impl IntoView {
    let lang = Memo::new(move |_| Lang::from_code(lang.get()));
    let draft = notebook.map_or_else(|| RwSignal::new(Draft::default()), |n| n.draft);
    let progress = RwSignal::new(Progress::default());
    let unit = RwSignal::new(DisplayUnit::Gb);
    // Whether the student has revealed the current scenario's result after
    // predicting it; until then the lesson shows no figure of it.
    let revealed = RwSignal::new(false);
    // The report only when it is the current scenario's.
    let current = Memo::new(move |_| {
        report.with(|r| {
            r.as_ref()
                .filter(|r| input.with(|i| &r.inputs == i))
                .cloned()
        })
    });
    let method = Memo::new(move |_| input.with(|i| i.method));
    let t = move || texts(lang.get());
    Effect::new(move |_| {
        if draft.with(|d| !d.counterexample.trim().is_empty()) {
            progress.update(|p| p.understood = true);
        }
    });

    view! {
        <section
            class="vf-lesson"
            data-testid="lesson-panel"
            lang=move || lang.get().code()
            aria-labelledby="vf-lesson-title"
        >
            <h2 id="vf-lesson-title" class="vf-lesson__title">{move || t().title}</h2>
            <p class="vf-lesson__lead">
                {move || t().lead} " "
                <span class="vf-lesson__method" data-testid="lesson-method">
                    {move || t().method_label} ": " <code>{move || method.get().id()}</code>
                </span>
            </p>
            <Contract lang progress />
            <Understand lang method current unit draft revealed />
            <Predict input lang current draft progress revealed />
            <Isolate input lang unit revealed />
            <Investigate input lang unit progress revealed />
            <Example input lang />
            <Transfer input lang draft notebook />
            <References lang method />
            <KitDownload lang />
        </section>
    }
}

/// Understand → implement → investigate, each marked when done.
#[component]
fn Contract(lang: Memo<Lang>, progress: RwSignal<Progress>) -> impl IntoView {
    let t = move || texts(lang.get());
    let item = move |key: &'static str,
                     name: fn(&text::Texts) -> &'static str,
                     what: fn(&text::Texts) -> &'static str,
                     how: fn(&text::Texts) -> &'static str,
                     done: fn(Progress) -> bool| {
        let is_done = move || done(progress.get());
        view! {
            <li class="vf-contract__item" data-testid=format!("lesson-contract-{key}") data-done=move || is_done().to_string()>
                <span class="vf-contract__mark" aria-hidden="true">{move || if is_done() { "✓" } else { "○" }}</span>
                <strong>{move || name(t())}</strong>
                " — " {move || what(t())}
                <span class="vf-contract__state">
                    {move || if is_done() { t().done } else { t().pending }} ". " {move || how(t())}
                </span>
            </li>
        }
    };
    view! {
        <div class="vf-lesson__card vf-contract" data-testid="lesson-contract">
            <h3 class="vf-lesson__heading">{move || t().contract_title}</h3>
            <p>{move || t().contract_goal}</p>
            <ol class="vf-contract__list">
                {item("understand", |t| t.understand, |t| t.understand_what, |t| t.understand_how, |p| p.understood)}
                {item("implement", |t| t.implement, |t| t.implement_what, |t| t.implement_how, |p| p.implemented)}
                {item("investigate", |t| t.investigate, |t| t.investigate_what, |t| t.investigate_how, |p| p.investigated)}
            </ol>
        </div>
    }
}

/// Assumptions, the terms with their formulas and units, a counterexample.
#[component]
fn Understand(
    lang: Memo<Lang>,
    method: Memo<MethodId>,
    current: Memo<Option<Report>>,
    unit: RwSignal<DisplayUnit>,
    draft: RwSignal<Draft>,
    revealed: RwSignal<bool>,
) -> impl IntoView {
    let t = move || texts(lang.get());
    let lesson = move || text::method_lesson(lang.get(), method.get());
    let rows = move || {
        let l = lang.get();
        let u = unit.get();
        let shown = revealed.get();
        current.get().map(|doc| {
            doc.estimate
                .components
                .0
                .iter()
                .map(|c| {
                    let formula = formulas::formula(doc.estimate.method, c.term);
                    view! {
                        <tr data-testid=format!("lesson-term-{}", c.term.id())>
                            <th scope="row">{text::term_name(l, c.term)}</th>
                            <td><code>{formula}</code></td>
                            <td class="vf-num">{masked(shown, || text::bytes(l, u, c.bytes))}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-understand">
            <h3 class="vf-lesson__heading">{move || t().understand_title}</h3>
            <p class="vf-lesson__formula"><code>{move || lesson().formulas}</code></p>
            <h4 class="vf-lesson__subheading">{move || t().assumptions}</h4>
            <ul class="vf-lesson__list">
                {move || lesson().assumptions.iter().map(|a| view! { <li>{*a}</li> }).collect_view()}
            </ul>
            <table class="vf-lesson__table">
                <caption>{move || t().terms}</caption>
                <thead>
                    <tr>
                        <th scope="col">{move || t().term}</th>
                        <th scope="col">{move || t().formula}</th>
                        <th scope="col" class="vf-num">{move || t().value}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <Show when=move || !revealed.get()>
                <p class="vf-field__hint">{move || t().masked_hint}</p>
            </Show>
            <label class="vf-field__label" for="vf-lesson-counterexample">{move || t().counterexample_label}</label>
            <p class="vf-field__hint">
                {move || t().counterexample_hint} " " {move || t().counterexample_idea} " "
                <em>{move || lesson().counterexample}</em>
            </p>
            <textarea
                id="vf-lesson-counterexample"
                class="vf-config"
                rows="3"
                data-testid="lesson-counterexample"
                prop:value=move || draft.with(|d| d.counterexample.clone())
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    draft.update(|d| d.counterexample = text);
                }
            ></textarea>
        </div>
    }
}

/// Predict first; the result is shown only beside a written prediction.
#[component]
fn Predict(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    current: Memo<Option<Report>>,
    draft: RwSignal<Draft>,
    progress: RwSignal<Progress>,
    revealed: RwSignal<bool>,
) -> impl IntoView {
    let t = move || texts(lang.get());
    let typed = RwSignal::new(String::new());
    let predicted_unit = RwSignal::new(DisplayUnit::Gb);
    // A new scenario needs a new prediction: hide the result again.
    Effect::new(move |previous: Option<Request>| {
        let now = input.get();
        if previous.is_some_and(|p| p != now) {
            revealed.set(false);
            typed.set(String::new());
            draft.update(|d| d.prediction = None);
        }
        now
    });
    let parsed = move || text::parse_number(&typed.get());
    let invalid = move || !typed.get().trim().is_empty() && parsed().is_none();
    let can_reveal = move || parsed().is_some() && current.with(Option::is_some);
    let reveal = move |_| {
        let Some(value) = parsed() else {
            return;
        };
        if let Some(prediction) = Prediction::new(value, predicted_unit.get_untracked()) {
            draft.update(|d| d.prediction = Some(prediction));
            revealed.set(true);
            progress.update(|p| p.implemented = true);
        }
    };
    let boundary = move || {
        let l = lang.get();
        let max_context = current.with(|r| r.as_ref().map(|r| r.answers.max_context));
        let at_limit = match max_context {
            Some(Some(n)) => Some(n),
            _ => None,
        };
        let limit_label = match at_limit {
            Some(n) => format!("{} ({n})", texts(l).boundary_at_limit),
            None => texts(l).boundary_none_fits.to_string(),
        };
        view! {
            <div class="vf-lesson__chips" role="group" aria-label=texts(l).boundary_label>
                <button
                    type="button"
                    class="vf-chip"
                    data-testid="lesson-boundary-min-context"
                    on:click=move |_| input.update(|i| i.scenario.context = 1)
                >
                    {texts(l).boundary_min_context}
                </button>
                <button
                    type="button"
                    class="vf-chip"
                    data-testid="lesson-boundary-max-context"
                    disabled=at_limit.is_none()
                    on:click=move |_| {
                        if let Some(n) = at_limit {
                            input.update(|i| i.scenario.context = n);
                        }
                    }
                >
                    {limit_label}
                </button>
            </div>
        }
    };
    let result = move || {
        if !revealed.get() {
            return view! {
                <p class="vf-lesson__hidden" data-testid="lesson-result-hidden">{t().hidden}</p>
            }
            .into_any();
        }
        let (Some(doc), Some(prediction)) = (current.get(), draft.with(|d| d.prediction)) else {
            return view! {
                <p class="vf-error" data-testid="lesson-result-hidden">{t().scenario_invalid}</p>
            }
            .into_any();
        };
        let l = lang.get();
        let shown = prediction.unit;
        let observed = store::Observed {
            method: doc.estimate.method,
            total_bytes: doc.estimate.total_bytes,
        };
        let d = store::discrepancy(&prediction, &observed);
        let direction = match d.difference_bytes.signum() {
            1 => t().too_high,
            -1 => t().too_low,
            _ => t().exact,
        };
        let pct = d
            .percent
            .map(|p| text::percent(l, p, true))
            .unwrap_or_else(|| "—".into());
        let other = match shown {
            DisplayUnit::Gb => DisplayUnit::Gib,
            DisplayUnit::Gib => DisplayUnit::Gb,
        };
        view! {
            <div class="vf-lesson__reveal" data-testid="lesson-result" role="status">
                <dl class="vf-lesson__compare">
                    <dt>{t().predicted}</dt>
                    <dd class="vf-num" data-testid="lesson-predicted" data-bytes=d.predicted_bytes.get().to_string()>
                        {format!("{} {}", text::number(l, prediction.value, 2), shown.label())}
                    </dd>
                    <dt>{t().observed}</dt>
                    <dd class="vf-num" data-testid="lesson-observed" data-bytes=d.observed_bytes.get().to_string()>
                        {text::bytes(l, shown, d.observed_bytes)}
                        <span class="vf-lesson__aside">
                            " = " {text::bytes(l, other, d.observed_bytes)} " = "
                            {format!("{} B", d.observed_bytes.get())}
                        </span>
                    </dd>
                    <dt>{t().discrepancy}</dt>
                    <dd
                        class="vf-num"
                        data-testid="lesson-discrepancy"
                        data-bytes=d.difference_bytes.to_string()
                        data-percent=d.percent.map(|p| p.to_string()).unwrap_or_default()
                    >
                        {format!("{} ({pct}), {direction}", text::signed_bytes(l, shown, d.difference_bytes))}
                    </dd>
                </dl>
                <p class="vf-field__hint">{t().after_reveal}</p>
            </div>
        }
        .into_any()
    };
    let unit_button = move |u: DisplayUnit| {
        view! {
            <button
                type="button"
                class="vf-seg__option"
                data-testid=format!("lesson-prediction-unit-{}", u.label().to_lowercase())
                aria-pressed=move || (predicted_unit.get() == u).to_string()
                on:click=move |_| {
                    predicted_unit.set(u);
                    revealed.set(false);
                }
            >
                {u.label()}
            </button>
        }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-predict">
            <h3 class="vf-lesson__heading">{move || t().predict_title}</h3>
            <p>{move || t().predict_intro}</p>
            <p class="vf-field__label">{move || t().boundary_label}</p>
            {boundary}
            <label class="vf-field__label" for="vf-lesson-prediction">{move || t().prediction_label}</label>
            <div class="vf-lesson__predict-row">
                <input
                    id="vf-lesson-prediction"
                    class="vf-nb-input"
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    data-testid="lesson-prediction"
                    aria-describedby="vf-lesson-prediction-hint"
                    aria-invalid=move || invalid().to_string()
                    prop:value=move || typed.get()
                    on:input=move |ev| {
                        typed.set(event_target_value(&ev));
                        revealed.set(false);
                    }
                />
                <div class="vf-seg" role="group" aria-label=move || t().prediction_label>
                    {unit_button(DisplayUnit::Gb)}
                    {unit_button(DisplayUnit::Gib)}
                </div>
                <button
                    type="button"
                    class="vf-nb-button vf-nb-button--primary"
                    data-testid="lesson-reveal"
                    disabled=move || !can_reveal()
                    on:click=reveal
                >
                    {move || t().reveal}
                </button>
            </div>
            <p
                id="vf-lesson-prediction-hint"
                class="vf-field__hint"
                class:vf-error=move || invalid() || current.with(Option::is_none)
            >
                {move || {
                    if current.with(Option::is_none) {
                        t().scenario_invalid
                    } else if invalid() {
                        t().prediction_invalid
                    } else {
                        t().prediction_hint
                    }
                }}
            </p>
            {result}
        </div>
    }
}

/// A figure of the current scenario, or a mask until its result is revealed.
fn masked(shown: bool, figure: impl FnOnce() -> String) -> String {
    if shown {
        figure()
    } else {
        "?".to_string()
    }
}

/// The scenario with one change, and what the method gives for it.
struct Variant {
    id: String,
    label: String,
    input: Request,
}

/// The single changes offered from `base`.
fn variants(lang: Lang, base: &Request) -> Vec<Variant> {
    let mut out = Vec::new();
    let context = base.scenario.context.saturating_mul(2);
    if Field::Context.check(context as f64).is_ok() {
        let mut longer = base.clone();
        longer.scenario.context = context;
        out.push(Variant {
            id: "context-x2".into(),
            label: text::double_context(lang, context),
            input: longer,
        });
    }
    let bits = effective_bits(&base.scenario) / 2.0;
    if Field::WeightBits.check(bits).is_ok() {
        let mut halved = base.clone();
        halved.scenario.set(Field::WeightBits, bits);
        out.push(Variant {
            id: "bits-half".into(),
            label: text::halve_bits(lang, bits),
            input: halved,
        });
    }
    for method in MethodId::ALL {
        if method != base.method {
            out.push(Variant {
                id: format!("method-{}", method.id()),
                label: text::switch_method(lang, method),
                input: Request::new(method, base.scenario.clone()),
            });
        }
    }
    out
}

/// Bits per weight the scenario uses (a named format's, or the typed ones).
fn effective_bits(input: &ScenarioInput) -> f64 {
    input
        .weight_format
        .and_then(WeightFormat::milli_bits)
        .map_or(input.weight_bits, |m| m as f64 / 1_000.0)
}

/// `to − from` in bytes, and as a percentage of `from` (none from 0).
fn delta(from: Bytes, to: Bytes) -> (i64, Option<f64>) {
    let diff = to.minus(from);
    let pct = (from > Bytes::ZERO).then(|| diff as f64 / from.get() as f64 * 100.0);
    (diff, pct)
}

/// Components whose bytes differ between two results (a component one
/// method does not have counts as 0 bytes there).
fn changed_terms(lang: Lang, a: &MethodResult, b: &MethodResult) -> Vec<&'static str> {
    let mut terms: Vec<Term> = a.components.terms().collect();
    for term in b.components.terms() {
        if !terms.contains(&term) {
            terms.push(term);
        }
    }
    terms
        .into_iter()
        .filter(|t| {
            a.components.get(*t).unwrap_or_default() != b.components.get(*t).unwrap_or_default()
        })
        .map(|t| text::term_name(lang, t))
        .collect()
}

/// "Hint: isolate the assumption": one change at a time, side by side.
#[component]
fn Isolate(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    unit: RwSignal<DisplayUnit>,
    revealed: RwSignal<bool>,
) -> impl IntoView {
    let t = move || texts(lang.get());
    let rows = move || {
        let l = lang.get();
        let u = unit.get();
        let shown = revealed.get();
        let base_input = input.get();
        let base = base_input.run().ok();
        let base_total = base.as_ref().map(|b| b.total_bytes);
        let other_unit = match u {
            DisplayUnit::Gb => DisplayUnit::Gib,
            DisplayUnit::Gib => DisplayUnit::Gb,
        };
        let baseline = view! {
            <tr data-testid="lesson-change-baseline" class="vf-lesson__baseline">
                <th scope="row">{texts(l).baseline}</th>
                <td class="vf-num">{masked(shown, || base_total.map(|b| text::bytes(l, u, b)).unwrap_or_else(|| "—".into()))}</td>
                <td></td>
                <td></td>
                <td></td>
            </tr>
        };
        let unit_row = view! {
            <tr data-testid="lesson-change-unit">
                <th scope="row">{text::unit_view(l, other_unit)}</th>
                <td class="vf-num">{masked(shown, || base_total.map(|b| text::bytes(l, other_unit, b)).unwrap_or_else(|| "—".into()))}</td>
                <td class="vf-num">{text::signed_bytes(l, u, 0)}</td>
                <td>{texts(l).same_bytes}</td>
                <td>
                    <button type="button" class="vf-link" data-testid="lesson-apply-unit" on:click=move |_| unit.set(other_unit)>
                        {texts(l).apply}
                    </button>
                </td>
            </tr>
        };
        let changes = variants(l, &base_input)
            .into_iter()
            .map(|v| {
                let result = v.input.run().ok();
                let (total, delta, terms) = match (&base, &result) {
                    (Some(b), Some(r)) => {
                        let (diff, pct) = delta(b.total_bytes, r.total_bytes);
                        let pct = pct
                            .map(|p| format!(" ({})", text::percent(l, p, true)))
                            .unwrap_or_default();
                        let terms = changed_terms(l, b, r);
                        (
                            text::bytes(l, u, r.total_bytes),
                            format!("{}{pct}", text::signed_bytes(l, u, diff)),
                            if terms.is_empty() {
                                texts(l).nothing_changes.to_string()
                            } else {
                                terms.join(", ")
                            },
                        )
                    }
                    (_, Some(r)) => (text::bytes(l, u, r.total_bytes), "—".into(), String::new()),
                    _ => ("—".into(), "—".into(), texts(l).not_estimated.to_string()),
                };
                let estimated = result.is_some();
                let changed = v.input;
                view! {
                    <tr data-testid=format!("lesson-change-{}", v.id)>
                        <th scope="row">{v.label}</th>
                        <td class="vf-num">{masked(shown, || total)}</td>
                        <td class="vf-num">{masked(shown, || delta)}</td>
                        <td>{terms}</td>
                        <td>
                            <button
                                type="button"
                                class="vf-link"
                                data-testid=format!("lesson-apply-{}", v.id)
                                disabled=!estimated
                                on:click=move |_| input.set(changed.clone())
                            >
                                {texts(l).apply}
                            </button>
                        </td>
                    </tr>
                }
            })
            .collect_view();
        view! { {baseline} {unit_row} {changes} }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-isolate">
            <h3 class="vf-lesson__heading">{move || t().isolate_title}</h3>
            <p>{move || t().isolate_intro}</p>
            <Show when=move || !revealed.get()>
                <p class="vf-field__hint">{move || t().masked_hint}</p>
            </Show>
            <div class="vf-lesson__scroll">
                <table class="vf-lesson__table">
                    <thead>
                        <tr>
                            <th scope="col">{move || t().change}</th>
                            <th scope="col" class="vf-num">{move || t().total}</th>
                            <th scope="col" class="vf-num">{move || t().delta}</th>
                            <th scope="col">{move || t().changed_terms}</th>
                            <th scope="col"><span class="vf-visually-hidden">{move || t().apply}</span></th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }
}

/// Two methods or two weight formats, at the same GPU and context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CompareKind {
    Methods,
    Formats,
}

/// The alternatives of one kind for `base`: (id, label, input).
fn alternatives(kind: CompareKind, base: &Request) -> Vec<(String, String, Request)> {
    match kind {
        CompareKind::Methods => MethodId::ALL
            .into_iter()
            .filter(|m| *m != base.method)
            .map(|m| {
                (
                    m.id().to_string(),
                    m.id().to_string(),
                    Request::new(m, base.scenario.clone()),
                )
            })
            .collect(),
        CompareKind::Formats => WeightFormat::ALL
            .into_iter()
            .filter(|f| Some(*f) != base.scenario.weight_format)
            // A format with the same bits per weight compares nothing.
            .filter(|f| {
                f.milli_bits().map(|m| m as f64 / 1_000.0) != Some(effective_bits(&base.scenario))
            })
            .filter(|f| *f != WeightFormat::AsPublished || base.scenario.model.is_some())
            .map(|f| {
                let mut alt = base.clone();
                alt.scenario.set_weight_format(f);
                (f.id().to_string(), f.label().to_string(), alt)
            })
            .collect(),
    }
}

/// "Investigate": the current scenario beside one alternative.
#[component]
fn Investigate(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    unit: RwSignal<DisplayUnit>,
    progress: RwSignal<Progress>,
    revealed: RwSignal<bool>,
) -> impl IntoView {
    let t = move || texts(lang.get());
    let kind = RwSignal::new(CompareKind::Formats);
    let choice = RwSignal::new(String::new());
    let shown = RwSignal::new(false);
    let options = move || input.with(|i| alternatives(kind.get(), i));
    let chosen = move || {
        let all = options();
        let id = choice.get();
        all.iter()
            .find(|(i, _, _)| *i == id)
            .or_else(|| all.first())
            .cloned()
    };
    let compare = move |_| {
        shown.set(true);
        progress.update(|p| p.investigated = true);
    };
    let kind_button = move |k: CompareKind, key: &'static str| {
        view! {
            <button
                type="button"
                class="vf-seg__option"
                data-testid=format!("lesson-compare-{key}")
                aria-pressed=move || (kind.get() == k).to_string()
                on:click=move |_| {
                    kind.set(k);
                    choice.set(String::new());
                }
            >
                {move || match k {
                    CompareKind::Methods => t().kind_methods,
                    CompareKind::Formats => t().kind_formats,
                }}
            </button>
        }
    };
    let table = move || {
        if !shown.get() || !revealed.get() {
            return None;
        }
        let l = lang.get();
        let u = unit.get();
        let base = input.get();
        let (_, label, alt) = chosen()?;
        let a = base.run().ok();
        let b = alt.run().ok();
        let cell = |r: &Option<MethodResult>, f: &dyn Fn(&MethodResult) -> String| {
            r.as_ref()
                .map_or_else(|| texts(l).not_estimated.to_string(), f)
        };
        let total = |r: &MethodResult| text::bytes(l, u, r.total_bytes);
        let usage = |r: &MethodResult| text::percent(l, r.verdict.percent(), false);
        let verdict = |r: &MethodResult| text::status_word(l, r.verdict.status).to_string();
        let gpu = base
            .scenario
            .gpu
            .clone()
            .unwrap_or_else(|| format!("{} GB", text::short(l, base.scenario.gpu_memory_gb)));
        let difference = match (&a, &b) {
            (Some(a), Some(b)) => {
                let (diff, pct) = delta(a.total_bytes, b.total_bytes);
                let pct = pct.map_or_else(|| "—".into(), |p| text::percent(l, p, true));
                text::comparison(l, &text::signed_bytes(l, u, diff), &pct)
            }
            _ => String::new(),
        };
        Some(view! {
            <p class="vf-field__hint" data-testid="lesson-compare-budget">
                {text::matched_budget(l, &gpu, base.scenario.context, base.scenario.batch)}
            </p>
            <table class="vf-lesson__table" data-testid="lesson-compare-table">
                <thead>
                    <tr>
                        <th scope="col"></th>
                        <th scope="col" class="vf-num">{texts(l).current}</th>
                        <th scope="col" class="vf-num">{format!("{}: {label}", texts(l).alternative)}</th>
                    </tr>
                </thead>
                <tbody>
                    <tr>
                        <th scope="row">{texts(l).total}</th>
                        <td class="vf-num" data-testid="lesson-compare-a-total">{cell(&a, &total)}</td>
                        <td class="vf-num" data-testid="lesson-compare-b-total">{cell(&b, &total)}</td>
                    </tr>
                    <tr>
                        <th scope="row">{texts(l).utilization}</th>
                        <td class="vf-num">{cell(&a, &usage)}</td>
                        <td class="vf-num">{cell(&b, &usage)}</td>
                    </tr>
                    <tr>
                        <th scope="row">{texts(l).verdict}</th>
                        <td class="vf-num">{cell(&a, &verdict)}</td>
                        <td class="vf-num">{cell(&b, &verdict)}</td>
                    </tr>
                </tbody>
            </table>
            <p data-testid="lesson-compare-difference">{difference}</p>
        })
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-investigate">
            <h3 class="vf-lesson__heading">{move || t().investigate_title}</h3>
            <p>{move || t().investigate_intro}</p>
            <div class="vf-lesson__predict-row">
                <div class="vf-seg" role="group">
                    {kind_button(CompareKind::Formats, "formats")}
                    {kind_button(CompareKind::Methods, "methods")}
                </div>
                <label class="vf-visually-hidden" for="vf-lesson-alternative">{move || t().alternative}</label>
                <select
                    id="vf-lesson-alternative"
                    class="vf-select vf-lesson__select"
                    data-testid="lesson-compare-choice"
                    prop:value=move || chosen().map(|c| c.0).unwrap_or_default()
                    on:change=move |ev| choice.set(event_target_value(&ev))
                >
                    {move || options().into_iter().map(|(id, label, _)| view! { <option value=id>{label}</option> }).collect_view()}
                </select>
                <button
                    type="button"
                    class="vf-nb-button"
                    data-testid="lesson-compare"
                    disabled=move || !revealed.get()
                    on:click=compare
                >
                    {move || t().investigate}
                </button>
            </div>
            <Show when=move || !revealed.get()>
                <p class="vf-field__hint">{move || t().masked_hint}</p>
            </Show>
            {table}
        </div>
    }
}

/// The same calculation as a command line and as JSON inputs.
#[component]
fn Example(input: RwSignal<Request>, lang: Memo<Lang>) -> impl IntoView {
    let t = move || texts(lang.get());
    let cli = Memo::new(move |_| input.with(vramfit_cli::line::command));
    let json =
        Memo::new(move |_| input.with(|i| serde_json::to_string_pretty(i).unwrap_or_default()));
    let has_config = move || {
        input.with(|i| {
            matches!(
                i.scenario.model,
                Some(vramfit_core::scenario::ModelRef::Config(_))
            )
        })
    };
    let copy_block = move |key: &'static str,
                           label: fn(&text::Texts) -> &'static str,
                           content: Memo<String>| {
        let status = RwSignal::new(None::<bool>);
        view! {
            <div class="vf-lesson__code">
                <div class="vf-lesson__code-head">
                    <span class="vf-field__label">{move || label(t())}</span>
                    <button
                        type="button"
                        class="vf-nb-button"
                        data-testid=format!("lesson-copy-{key}")
                        on:click=move |_| {
                            web::copy_text(&content.get_untracked(), move |ok| {
                                status.try_set(Some(ok));
                            });
                        }
                    >
                        {move || t().copy}
                    </button>
                    <span class="vf-lesson__copied" role="status" data-testid=format!("lesson-copy-{key}-status")>
                        {move || match status.get() {
                            Some(true) => t().copied,
                            Some(false) => t().copy_failed,
                            None => "",
                        }}
                    </span>
                </div>
                <pre class="vf-lesson__pre"><code data-testid=format!("lesson-{key}")>{move || content.get()}</code></pre>
            </div>
        }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-example">
            <h3 class="vf-lesson__heading">{move || t().example_title}</h3>
            <p>{move || t().example_intro}</p>
            {copy_block("cli", |t| t.cli_label, cli)}
            <p class="vf-field__hint">{move || t().json_note}</p>
            <Show when=has_config>
                <p class="vf-field__hint">{move || t().config_note}</p>
            </Show>
            {copy_block("json", |t| t.json_label, json)}
        </div>
    }
}

/// Notes, a transfer test, and the record button.
#[component]
fn Transfer(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    draft: RwSignal<Draft>,
    notebook: Option<Notebook>,
) -> impl IntoView {
    let t = move || texts(lang.get());
    let recorded = RwSignal::new(false);
    let area = move |key: &'static str,
                     label: fn(&text::Texts) -> &'static str,
                     get: fn(&Draft) -> String,
                     set: fn(&mut Draft, String)| {
        let id = format!("vf-lesson-{key}");
        view! {
            <label class="vf-field__label" for=id.clone()>{move || label(t())}</label>
            <textarea
                id=id
                class="vf-config"
                rows="2"
                data-testid=format!("lesson-{key}")
                prop:value=move || draft.with(get)
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    recorded.set(false);
                    draft.update(|d| set(d, text));
                }
            ></textarea>
        }
    };
    let record = move |_| {
        if let Some(notebook) = notebook {
            let scenario = input.get_untracked();
            let observed = observe(&scenario);
            notebook.add(scenario, observed);
            recorded.set(true);
        }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-transfer">
            <h3 class="vf-lesson__heading">{move || t().transfer_title}</h3>
            <p>{move || t().transfer_intro}</p>
            {area("notes", |t| t.notes_label, |d| d.notes.clone(), |d, v| d.notes = v)}
            <p class="vf-field__hint">{move || t().transfer_hint}</p>
            {area("transfer-test", |t| t.transfer_label, |d| d.transfer_test.clone(), |d, v| d.transfer_test = v)}
            <h4 class="vf-lesson__subheading">{move || t().evidence_title}</h4>
            <p class="vf-field__hint">{move || t().evidence_intro}</p>
            {notebook.map(|_| view! {
                <div class="vf-lesson__predict-row">
                    <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="lesson-record" on:click=record>
                        {move || t().record}
                    </button>
                    <span role="status" data-testid="lesson-recorded">
                        {move || if recorded.get() { t().recorded } else { "" }}
                    </span>
                </div>
            })}
            <a class="vf-link" href="#vf-notebook" data-testid="lesson-open-notebook">{move || t().open_notebook}</a>
        </div>
    }
}

/// How to read the result, the method's sources, and the review scope.
#[component]
fn References(lang: Memo<Lang>, method: Memo<MethodId>) -> impl IntoView {
    let t = move || texts(lang.get());
    let lesson = move || text::method_lesson(lang.get(), method.get());
    let list = |items: &'static [&'static str]| {
        items.iter().map(|i| view! { <li>{*i}</li> }).collect_view()
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-references">
            <h3 class="vf-lesson__heading">{move || t().interpretation_title}</h3>
            <p data-testid="lesson-interpretation">{move || lesson().interpretation}</p>
            <details class="vf-lesson__details" open>
                <summary>{move || t().references_title}</summary>
                <ul class="vf-lesson__list" data-testid="lesson-reference-list">
                    {move || lesson().references.iter().map(|(source, what)| view! {
                        <li><strong>{*source}</strong> " — " {*what}</li>
                    }).collect_view()}
                </ul>
            </details>
            <details class="vf-lesson__details" data-testid="lesson-scope">
                <summary>{move || t().scope_title}</summary>
                <h4 class="vf-lesson__subheading">{move || t().checked}</h4>
                <ul class="vf-lesson__list">{move || list(lesson().checked)}</ul>
                <h4 class="vf-lesson__subheading">{move || t().not_checked}</h4>
                <ul class="vf-lesson__list">{move || list(lesson().not_checked)}</ul>
                <p class="vf-field__hint">{move || t().scope_note}</p>
            </details>
        </div>
    }
}

/// The reference kit: every worked example, for every method.
#[component]
fn KitDownload(lang: Memo<Lang>) -> impl IntoView {
    let t = move || texts(lang.get());
    let failed = RwSignal::new(false);
    let download = move |_| {
        let json = kit::reference().to_json();
        failed.set(download_text("vramfit-kit.json", "application/json", &json).is_err());
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-kit">
            <h3 class="vf-lesson__heading">{move || t().kit_title}</h3>
            <p>{move || t().kit_intro} " " <code>"vramfit check vramfit-kit.json"</code></p>
            <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="kit-download" on:click=download>
                {move || t().kit_download}
            </button>
            <Show when=move || failed.get()>
                <p class="vf-error" role="alert">{move || t().kit_failed}</p>
            </Show>
        </div>
    }
}
