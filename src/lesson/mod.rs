//! The lesson: the learning contract (understand → implement → investigate)
//! around the calculator's current scenario. The student predicts before
//! seeing a result, isolates one assumption at a time, compares an
//! alternative under the same budget, reruns the calculation from the
//! command line, and records evidence in the notebook.
//!
//! The lesson computes nothing of its own: every figure is the core's
//! (`kit::run` on the scenario or on a copy with one change).

pub mod cases;
mod counter;
mod example;
pub mod formulas;
mod investigate;
mod isolate;
pub mod markdown;
pub mod methodology;
mod predict;
mod references;
mod start;
pub mod symbols;
pub mod texts;
mod transfer;
mod understand;

use crate::components::veil::{use_veil, Veil};
use crate::i18n::{use_lang, Lang};
use crate::notebook::store::{ContractStep, MethodProgress};
use crate::notebook::{Draft, Notebook};
use counter::Counter;
use example::Example;
use investigate::Investigate;
use isolate::Isolate;
use leptos::prelude::*;
use methodology::Methodology;
use predict::Predict;
use references::{KitDownload, References};
use start::Start;
use std::collections::BTreeMap;
use texts::LessonTexts;
use transfer::Transfer;
use understand::Understand;
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ScenarioInput, WeightFormat};
use vramfit_core::units::{Bytes, DisplayUnit};

/// What the student has done, per method: kept with the notebook (and so
/// across reloads) when the lesson has one, in memory otherwise.
#[derive(Clone, Copy)]
pub(super) struct Ticks {
    notebook: Option<Notebook>,
    local: RwSignal<BTreeMap<&'static str, MethodProgress>>,
}

impl Ticks {
    fn new(notebook: Option<Notebook>) -> Ticks {
        Ticks {
            notebook,
            local: RwSignal::new(BTreeMap::new()),
        }
    }

    /// Whether `step` of `method`'s contract is done (reactive).
    pub(super) fn done(self, method: MethodId, step: ContractStep) -> bool {
        match self.notebook {
            Some(n) => n.progress(method.id()).done(step),
            None => self
                .local
                .with(|l| l.get(method.id()).is_some_and(|p| p.done(step))),
        }
    }

    /// Marks `step` of `method`'s contract done.
    pub(super) fn mark(self, method: MethodId, step: ContractStep) {
        match self.notebook {
            Some(n) => n.mark(method.id(), step),
            None => self.local.update(|l| {
                let p = l.entry(method.id()).or_default();
                match step {
                    ContractStep::Understand => p.understood_at.get_or_insert(1),
                    ContractStep::Implement => p.implemented_at.get_or_insert(1),
                    ContractStep::Investigate => p.investigated_at.get_or_insert(1),
                };
            }),
        }
    }
}

/// Where the lesson stands with the current scenario's figures.
#[derive(Clone, Copy)]
pub(super) struct Blind {
    /// A prediction is pending: every figure of the scenario is veiled, on
    /// the whole page.
    pub(super) pending: RwSignal<bool>,
    /// The current scenario's result has been revealed beside a
    /// prediction; until then the lesson shows none of its figures.
    pub(super) revealed: RwSignal<bool>,
}

impl Blind {
    /// Whether the lesson may show the scenario's figures (reactive).
    pub(super) fn shown(self) -> bool {
        self.revealed.get() && !self.pending.get()
    }

    /// Starts a blind prediction: the page's figures are veiled.
    pub(super) fn start(self) {
        self.revealed.set(false);
        self.pending.set(true);
    }
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
    if let Some(n) = notebook {
        n.keep_drafts();
    }
    let ticks = Ticks::new(notebook);
    let unit = RwSignal::new(DisplayUnit::Gb);
    let Veil(pending) = use_veil();
    let blind = Blind {
        pending,
        revealed: RwSignal::new(false),
    };
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
            <Contract lang method ticks />
            <Start input lang method current blind />
            <Understand input lang current unit blind />
            <Predict input lang current draft ticks blind />
            <Counter input lang method draft ticks notebook blind />
            <Isolate input lang unit blind />
            <Investigate input lang unit ticks blind />
            <Example input lang />
            <Transfer input lang draft notebook />
            <Methodology lang method />
            <References lang method />
            <KitDownload lang />
        </section>
    }
}

/// Understand → implement → investigate, each marked when done (for the
/// current method).
#[component]
fn Contract(lang: Memo<Lang>, method: Memo<MethodId>, ticks: Ticks) -> impl IntoView {
    let t = move || lang.get().lesson();
    let item = move |key: &'static str,
                     name: fn(&LessonTexts) -> &'static str,
                     what: fn(&LessonTexts) -> &'static str,
                     how: fn(&LessonTexts) -> &'static str,
                     step: ContractStep| {
        let is_done = move || ticks.done(method.get(), step);
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
                {item("understand", |t| t.understand, |t| t.understand_what, |t| t.understand_how, ContractStep::Understand)}
                {item("implement", |t| t.implement, |t| t.implement_what, |t| t.implement_how, ContractStep::Implement)}
                {item("investigate", |t| t.investigate, |t| t.investigate_what, |t| t.investigate_how, ContractStep::Investigate)}
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
