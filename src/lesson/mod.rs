//! The lesson: the learning contract (understand → implement → investigate)
//! around the calculator's current scenario. The student predicts before
//! seeing a result, isolates one assumption at a time, compares an
//! alternative under the same budget, reruns the calculation from the
//! command line, and records evidence in the notebook.
//!
//! The lesson computes nothing of its own: every figure is the core's
//! (`kit::run` on the scenario or on a copy with one change).

mod example;
pub mod formulas;
mod investigate;
mod isolate;
mod predict;
mod references;
pub mod texts;
mod transfer;
mod understand;

use crate::i18n::{use_lang, Lang};
use crate::notebook::{Draft, Notebook};
use example::Example;
use investigate::Investigate;
use isolate::Isolate;
use leptos::prelude::*;
use predict::Predict;
use references::{KitDownload, References};
use texts::LessonTexts;
use transfer::Transfer;
use understand::Understand;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ScenarioInput, WeightFormat};
use vramfit_core::units::{Bytes, DisplayUnit};
/// What the student has done (not read) since the page opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Progress {
    pub(super) understood: bool,
    pub(super) implemented: bool,
    pub(super) investigated: bool,
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
    /// The language; by default the page's (Spanish where no page
    /// provides one).
    #[prop(into, optional)]
    lang: Option<Signal<Lang>>,
    /// The page's notebook, to record evidence in; without one the lesson
    /// works on its own and offers no recording.
    #[prop(optional)]
    notebook: Option<Notebook>,
) -> impl IntoView {
    let lang = lang.unwrap_or_else(use_lang);
    let lang = Memo::new(move |_| lang.get());
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
    let t = move || lang.get().lesson();
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
    let t = move || lang.get().lesson();
    let item = move |key: &'static str,
                     name: fn(&LessonTexts) -> &'static str,
                     what: fn(&LessonTexts) -> &'static str,
                     how: fn(&LessonTexts) -> &'static str,
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

/// A figure of the current scenario, or a mask until its result is revealed.
pub(super) fn masked(shown: bool, figure: impl FnOnce() -> String) -> String {
    if shown {
        figure()
    } else {
        "?".to_string()
    }
}

/// Bits per weight the scenario uses (a named format's, or the typed ones).
pub(super) fn effective_bits(input: &ScenarioInput) -> f64 {
    input
        .weight_format
        .and_then(WeightFormat::milli_bits)
        .map_or(input.weight_bits, |m| m as f64 / 1_000.0)
}

/// `to − from` in bytes, and as a percentage of `from` (none from 0).
pub(super) fn delta(from: Bytes, to: Bytes) -> (i64, Option<f64>) {
    let diff = to.minus(from);
    let pct = (from > Bytes::ZERO).then(|| diff as f64 / from.get() as f64 * 100.0);
    (diff, pct)
}
