//! What to change: the longest context, largest batch and smallest GPU that
//! fit, and one-click single adjustments when the scenario does not fit.

use crate::text;
use leptos::prelude::*;
use vramfit_core::advice::{Answers, Suggestion};
use vramfit_core::scenario::ScenarioInput;
use vramfit_core::units::DisplayUnit;

/// The answers of the selected method.
#[component]
pub fn AnswersView(
    /// Longest context, largest batch, smallest catalog GPU.
    answers: Answers,
) -> impl IntoView {
    let or_none = |v: Option<String>| v.unwrap_or_else(|| "ninguno cabe".into());
    view! {
        <dl class="vf-summary" data-testid="answers">
            <dt>"Contexto más largo que cabe"</dt>
            <dd data-testid="answer-max-context">{or_none(answers.max_context.map(|n| format!("{n} tokens")))}</dd>
            <dt>"Más secuencias a la vez"</dt>
            <dd data-testid="answer-max-batch">{or_none(answers.max_batch.map(|n| n.to_string()))}</dd>
            <dt>"GPU más pequeña del catálogo que cabe"</dt>
            <dd data-testid="answer-smallest-gpu">{or_none(answers.smallest_gpu)}</dd>
        </dl>
    }
}

/// Single adjustments that make it fit, each applicable in one click.
#[component]
pub fn SuggestionsView(
    /// The suggestions (empty when the scenario fits).
    suggestions: Vec<Suggestion>,
    /// The scenario a suggestion is applied to.
    input: RwSignal<ScenarioInput>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    if suggestions.is_empty() {
        return None;
    }
    Some(view! {
        <div class="vf-suggestions">
            <h3 class="vf-subhead">"Un solo cambio que hace que quepa"</h3>
            <ul>
                {suggestions.into_iter().map(|s| {
                    let change = s.change;
                    view! {
                        <li data-testid="suggestion">
                            <button type="button" class="vf-link" on:click=move |_| input.update(|i| change.apply(i))>
                                {text::change(&change)}
                            </button>
                            " — " {move || unit.get().format(s.total_bytes)}
                            ", " {move || format!("sobran {}", unit.get().format(s.margin_bytes))}
                            <span class="vf-methods__summary">{text::cost(s.cost)}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    })
}
