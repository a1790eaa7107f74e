//! What to change: the longest context, most concurrent sequences and smallest GPU that
//! fit, and one-click single adjustments when the scenario does not fit (an
//! engine plan's with the decode speed it would run at).

use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::advice::{Answers, Change, Limit, Suggestion};
use vramfit_core::request::Request;
use vramfit_core::units::DisplayUnit;

/// The answers of the selected method.
#[component]
pub fn AnswersView(
    /// Longest context, largest batch, smallest catalog GPU.
    #[prop(into)]
    answers: Signal<Option<Answers>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let or_none = move |v: Option<String>| v.unwrap_or_else(|| t().none_fits.to_string());
    let get = move |f: fn(&Answers) -> Option<String>| answers.with(|a| a.as_ref().and_then(f));
    let number = move |n: u64| format::integer(&t().number, n);
    // What stops an answer, where it is not the memory.
    let limit_note = move |limit: Option<Limit>| match limit {
        Some(Limit::ModelMaximum) => {
            view! { <span class="vf-methods__summary">{t().answer_model_max}</span> }.into_any()
        }
        Some(Limit::InputMaximum) => {
            view! { <span class="vf-methods__summary">{t().answer_input_max}</span> }.into_any()
        }
        _ => ().into_any(),
    };
    view! {
        <dl class="vf-summary" data-testid="answers">
            <dt>{move || t().answers_max_context}</dt>
            <dd data-testid="answer-max-context" data-limit=move || limit_id(answers.with(|a| a.as_ref().map_or(Limit::Memory, |a| a.max_context_limit)))>
                {move || or_none(answers.with(|a| a.as_ref().and_then(|a| a.max_context)).map(|n| (t().tokens)(&number(n))))}
                {move || limit_note(answers.with(|a| a.as_ref().filter(|a| a.max_context.is_some()).map(|a| a.max_context_limit)))}
            </dd>
            // A method whose figure does not grow with the sequences has no
            // answer to give there.
            {move || answers.with(|a| a.as_ref().and_then(|a| a.max_sequences.map(|n| (n, a.max_sequences_limit)))).map(|(n, limit)| view! {
                <dt>{move || t().answers_max_sequences}</dt>
                <dd data-testid="answer-max-sequences" data-limit=limit_id(limit)>{number(n)} {move || limit_note(Some(limit))}</dd>
            })}
            <dt>{move || t().answers_smallest_gpu}</dt>
            <dd data-testid="answer-smallest-gpu">{move || or_none(get(|a| a.smallest_gpu.clone()))}</dd>
            // Only methods that spread a model over several GPUs answer this.
            {move || answers.with(|a| a.as_ref().and_then(|a| a.min_gpus)).map(|n| view! {
                <dt>{move || t().answers_min_gpus}</dt>
                <dd data-testid="answer-min-gpus">{n}</dd>
            })}
        </dl>
    }
}

/// Single adjustments that make it fit, each applicable in one click.
#[component]
pub fn SuggestionsView(
    /// The suggestions (empty when the scenario fits).
    #[prop(into)]
    suggestions: Signal<Vec<Suggestion>>,
    /// The scenario a suggestion is applied to.
    input: RwSignal<Request>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    move || {
        let list = suggestions.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="vf-suggestions">
                    <h3 class="vf-subhead">{move || t().suggestions_title}</h3>
                    <ul>
                        {list.into_iter().map(|s| {
                            let change = s.change;
                            view! {
                                <li data-testid="suggestion" data-change=change_id(&change)>
                                    <button type="button" class="vf-link" on:click=move |_| input.update(|i| change.apply(i))>
                                        {move || (t().change)(&change)}
                                    </button>
                                    " — " {move || format::bytes(&t().number, unit.get(), s.total_bytes)}
                                    ", " {move || (t().spare)(&format::bytes(&t().number, unit.get(), s.margin_bytes))}
                                    // A move that trades memory for speed says both: the
                                    // engine's decode over the suggested plan.
                                    {s.decode_tokens_per_s.map(|d| view! {
                                        ", " <span data-testid="suggestion-decode">{move || format!("{} {}", format::decimal(&t().number, d, 1), t().tokens_per_second)}</span>
                                    })}
                                    <span class="vf-methods__summary">{move || (t().cost)(s.cost)}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

/// A stable name for a change (`data-change`): its knob, and the format
/// or GPU count where it names one.
fn change_id(change: &Change) -> String {
    match change {
        Change::Context(_) => "context".into(),
        Change::Sequences(_) => "sequences".into(),
        Change::WeightFormat(f) => format!("weight_format:{}", f.id()),
        Change::KvBytes(_) => "kv_bytes".into(),
        Change::Lora => "lora".into(),
        Change::GradCheckpoint => "grad_checkpoint".into(),
        Change::PurePrecision => "pure_precision".into(),
        Change::Gpus(n) => format!("gpus:{n}"),
        Change::GpuLayers(n) => format!("gpu_layers:{n}"),
        Change::CpuMoe(n) => format!("cpu_moe:{n}"),
    }
}

/// A stable name for what stops an answer (`data-limit`).
fn limit_id(limit: Limit) -> &'static str {
    match limit {
        Limit::Memory => "memory",
        Limit::ModelMaximum => "model_maximum",
        Limit::InputMaximum => "input_maximum",
    }
}
