//! When the input has a problem, the figures on screen are the last good
//! ones: stale. The page greys them (ring, breakdown, methods table, chart)
//! and says, beside the reason, the way out: the methods that do estimate
//! the scenario, a layout vramfit derives itself, a model to choose.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::methods::{self, MethodId};
use vramfit_core::report::Report;
use vramfit_core::request::{Request, RequestError};
use vramfit_core::scenario::{LayoutError, ScenarioError};

/// The fields whose typed text is not accepted (so the figures on screen
/// are for the value before it): provided by the app, filled by each
/// `NumberField`.
#[derive(Debug, Clone, Copy)]
pub struct InvalidFields(pub RwSignal<Vec<&'static str>>);

impl InvalidFields {
    /// Records whether the field `key` holds text that is not accepted.
    pub fn mark(self, key: &'static str, invalid: bool) {
        let listed = self.0.with_untracked(|l| l.contains(&key));
        if invalid && !listed {
            self.0.update(|l| l.push(key));
        } else if !invalid && listed {
            self.0.update(|l| l.retain(|k| *k != key));
        }
    }
}

/// A way out of a problem, as the page offers it.
#[derive(Debug, Clone, PartialEq)]
pub enum WayOut {
    /// Methods that estimate the scenario the chosen one refuses.
    Methods(Vec<MethodId>),
    /// No method estimates it: change the input.
    NoMethod,
    /// Let the layout be derived from the GPU count (TP and PP empty).
    DeriveLayout,
    /// Set the GPU count to one (a GPU that is one per machine).
    OneGpu,
    /// Correct the field shown in red (its hint says how).
    FixField,
    /// Choose a model (the format needs one) or another format.
    ChooseModel,
}

/// The ways out of an outcome's problem; empty when there is none.
pub fn ways_out(request: &Request, outcome: &Result<Report, RequestError>) -> Vec<WayOut> {
    ways_out_with(outcome, || Some(working_methods(request)))
}

/// The methods other than the chosen one that estimate the request's
/// scenario (none when it does not validate). It runs every method: the
/// page asks the engine for it ([`crate::parts::Engine`]).
pub fn working_methods(request: &Request) -> Vec<MethodId> {
    let Ok(s) = request.scenario.validate() else {
        return Vec::new();
    };
    MethodId::ALL
        .into_iter()
        .filter(|m| *m != request.method && methods::run(*m, &s).is_ok())
        .collect()
}

/// [`ways_out`] with the methods that estimate a refused scenario given by
/// `working` ([`working_methods`]); where it gives none yet (`None`: the
/// engine is on its way) a refusal has no way out to show.
pub fn ways_out_with(
    outcome: &Result<Report, RequestError>,
    working: impl FnOnce() -> Option<Vec<MethodId>>,
) -> Vec<WayOut> {
    match outcome {
        Ok(_) => Vec::new(),
        Err(RequestError::Refused(_)) => match working() {
            None => Vec::new(),
            Some(working) if working.is_empty() => vec![WayOut::NoMethod],
            Some(working) => vec![WayOut::Methods(working)],
        },
        Err(RequestError::Invalid(errors)) => {
            let mut out: Vec<WayOut> = errors
                .iter()
                .map(|e| match e {
                    ScenarioError::Layout(LayoutError::OneDevice { .. }) => WayOut::OneGpu,
                    ScenarioError::Layout(_) => WayOut::DeriveLayout,
                    ScenarioError::NeedsModel(_) => WayOut::ChooseModel,
                    _ => WayOut::FixField,
                })
                .collect();
            out.dedup();
            out
        }
    }
}

/// The way out, in words and buttons.
#[component]
pub fn StaleNotice(
    /// The request, to apply a way out to.
    input: RwSignal<Request>,
    /// The ways out of the current problem (empty: nothing stale).
    #[prop(into)]
    ways: Signal<Vec<WayOut>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    move || {
        let ways = ways.get();
        (!ways.is_empty()).then(|| {
            view! {
                <div class="vf-stale-notice" data-testid="stale-notice" role="status">
                    <p>{move || t().stale_figures}</p>
                    {ways.into_iter().map(|w| match w {
                        WayOut::Methods(list) => view! {
                            <p data-testid="way-out-methods">
                                {move || t().way_out_methods} " "
                                {list.into_iter().map(|m| view! {
                                    <button type="button" class="vf-link" data-testid=format!("way-out-method-{}", m.id())
                                        on:click=move |_| input.update(|i| i.method = m)>
                                        {move || (t().method_plain)(m)}
                                    </button>
                                    " "
                                }).collect_view()}
                            </p>
                        }.into_any(),
                        WayOut::NoMethod => view! { <p data-testid="way-out-none">{move || t().way_out_none}</p> }.into_any(),
                        WayOut::DeriveLayout => view! {
                            <p>
                                <button type="button" class="vf-link" data-testid="way-out-layout"
                                    on:click=move |_| input.update(|i| (i.scenario.tp, i.scenario.pp) = (None, None))>
                                    {move || t().way_out_layout}
                                </button>
                            </p>
                        }.into_any(),
                        WayOut::OneGpu => view! {
                            <p>
                                <button type="button" class="vf-link" data-testid="way-out-one-gpu"
                                    on:click=move |_| input.update(|i| (i.scenario.gpus, i.scenario.tp, i.scenario.pp) = (1, None, None))>
                                    {move || t().way_out_one_gpu}
                                </button>
                            </p>
                        }.into_any(),
                        WayOut::FixField => view! { <p data-testid="way-out-field">{move || t().way_out_field}</p> }.into_any(),
                        WayOut::ChooseModel => view! { <p data-testid="way-out-model">{move || t().way_out_model}</p> }.into_any(),
                    }).collect_view()}
                </div>
            }
        })
    }
}
