//! Predict before running: boundary cases in one click, a prediction
//! with its unit, and the result shown only beside it. While a prediction
//! is pending, every figure of the scenario is veiled on the whole page;
//! revealing it brings them back together.

use super::{Blind, Ticks};
use crate::components::UnitButtons;
use crate::i18n::{format, Lang};
use crate::notebook::store::ContractStep;
use crate::notebook::store::{self, Prediction};
use crate::notebook::Draft;
use leptos::prelude::*;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::units::DisplayUnit;

/// Predict first; the result is shown only beside a written prediction.
#[component]
pub(super) fn Predict(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    current: Memo<Option<Report>>,
    draft: RwSignal<Draft>,
    ticks: Ticks,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let typed = RwSignal::new(String::new());
    let predicted_unit = RwSignal::new(DisplayUnit::Gb);
    let revealed = blind.revealed;
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
    let parsed = move || format::parse_amount(&lang.get().t().number, &typed.get());
    let invalid = move || !typed.get().trim().is_empty() && parsed().is_none();
    let can_reveal = move || parsed().is_some() && current.with(Option::is_some);
    let reveal = move |_| {
        let Some(value) = parsed() else {
            return;
        };
        if let Some(prediction) = Prediction::new(value, predicted_unit.get_untracked()) {
            draft.update(|d| d.prediction = Some(prediction));
            revealed.set(true);
            blind.pending.set(false);
            ticks.mark(input.with_untracked(|i| i.method), ContractStep::Implement);
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
            Some(n) => format!("{} ({n})", l.lesson().boundary_at_limit),
            None => l.lesson().boundary_none_fits.to_string(),
        };
        view! {
            <div class="vf-lesson__chips" role="group" aria-label=l.lesson().boundary_label>
                <button
                    type="button"
                    class="vf-chip"
                    data-testid="lesson-boundary-min-context"
                    on:click=move |_| {
                        input.update(|i| i.scenario.context = 1);
                        blind.start();
                    }
                >
                    {l.lesson().boundary_min_context}
                </button>
                <button
                    type="button"
                    class="vf-chip"
                    data-testid="lesson-boundary-max-context"
                    disabled=at_limit.is_none()
                    on:click=move |_| {
                        if let Some(n) = at_limit {
                            input.update(|i| i.scenario.context = n);
                            blind.start();
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
        // What reads ±0,00 is exact at the precision shown, never "−0,00,
        // too low".
        let direction = match d.difference_bytes.signum() {
            _ if format::rounds_to_zero(shown, d.difference_bytes) => t().exact,
            1 => t().too_high,
            _ => t().too_low,
        };
        let pct = d
            .percent
            .map(|p| format::signed_percent(&l.t().number, p))
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
                        {format!("{} {}", format::decimal(&l.t().number, prediction.value, 2), shown.label())}
                    </dd>
                    <dt>{t().observed}</dt>
                    <dd class="vf-num" data-testid="lesson-observed" data-bytes=d.observed_bytes.get().to_string()>
                        {format::bytes(&l.t().number, shown, d.observed_bytes)}
                        <span class="vf-lesson__aside">
                            " = " {format::bytes(&l.t().number, other, d.observed_bytes)} " = "
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
                        {format!("{} ({pct}), {direction}", format::signed_bytes(&l.t().number, shown, d.difference_bytes))}
                    </dd>
                </dl>
                <p class="vf-field__hint">{t().after_reveal}</p>
            </div>
        }
        .into_any()
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-predict">
            <h3 class="vf-lesson__heading">{move || t().predict_title}</h3>
            <p>{move || t().predict_intro}</p>
            <div class="vf-lesson__predict-row">
                <Show
                    when=move || blind.pending.get()
                    fallback=move || view! {
                        <button type="button" class="vf-nb-button" data-testid="lesson-predict-start" on:click=move |_| blind.start()>
                            {move || t().predict_start}
                        </button>
                    }
                >
                    <p class="vf-lesson__pending" role="status" data-testid="lesson-predict-pending">{move || t().predict_pending}</p>
                    <button type="button" class="vf-link" data-testid="lesson-predict-cancel" on:click=move |_| blind.pending.set(false)>
                        {move || t().predict_cancel}
                    </button>
                </Show>
            </div>
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
                        // Writing a prediction starts one: the figures go.
                        blind.start();
                    }
                />
                <div class="vf-seg" role="group" aria-label=move || t().prediction_label>
                    <UnitButtons
                        unit=predicted_unit
                        testid="lesson-prediction-unit-"
                        on_choice=Callback::new(move |_| blind.start())
                    />
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
