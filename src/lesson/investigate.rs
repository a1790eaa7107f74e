//! Investigate: the current scenario beside one alternative (a method or
//! a weight format) at the same GPU and context.

use super::{delta, effective_bits, Blind, Ticks};
use crate::i18n::{format, Lang};
use crate::notebook::store::ContractStep;
use leptos::prelude::*;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::request::Request;
use vramfit_core::scenario::WeightFormat;
use vramfit_core::units::DisplayUnit;

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
pub(super) fn Investigate(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    unit: RwSignal<DisplayUnit>,
    ticks: Ticks,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
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
        ticks.mark(
            input.with_untracked(|i| i.method),
            ContractStep::Investigate,
        );
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
        if !shown.get() || !blind.shown() {
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
                .map_or_else(|| l.lesson().not_estimated.to_string(), f)
        };
        let total = |r: &MethodResult| format::bytes(&l.t().number, u, r.total_bytes);
        let usage = |r: &MethodResult| format::percent(&l.t().number, r.verdict.percent());
        let verdict = |r: &MethodResult| (l.t().status_word)(r.verdict.status).to_string();
        let gpu = base.scenario.gpu.clone().unwrap_or_else(|| {
            format!(
                "{} GB",
                format::plain(&l.t().number, base.scenario.gpu_memory_gb)
            )
        });
        let difference = match (&a, &b) {
            (Some(a), Some(b)) => {
                let (diff, pct) = delta(a.total_bytes, b.total_bytes);
                let pct =
                    pct.map_or_else(|| "—".into(), |p| format::signed_percent(&l.t().number, p));
                (l.lesson().comparison)(&format::signed_bytes(&l.t().number, u, diff), &pct)
            }
            _ => String::new(),
        };
        Some(view! {
            <p class="vf-field__hint" data-testid="lesson-compare-budget">
                {(l.lesson().matched_budget)(
                    &gpu,
                    &format::integer(&l.t().number, base.scenario.context),
                    base.scenario.sequences,
                )}
            </p>
            <table class="vf-lesson__table" data-testid="lesson-compare-table">
                <thead>
                    <tr>
                        <th scope="col"></th>
                        <th scope="col" class="vf-num">{l.lesson().current}</th>
                        <th scope="col" class="vf-num">{format!("{}: {label}", l.lesson().alternative)}</th>
                    </tr>
                </thead>
                <tbody>
                    <tr>
                        <th scope="row">{l.lesson().total}</th>
                        <td class="vf-num" data-testid="lesson-compare-a-total">{cell(&a, &total)}</td>
                        <td class="vf-num" data-testid="lesson-compare-b-total">{cell(&b, &total)}</td>
                    </tr>
                    <tr>
                        <th scope="row">{l.lesson().utilization}</th>
                        <td class="vf-num">{cell(&a, &usage)}</td>
                        <td class="vf-num">{cell(&b, &usage)}</td>
                    </tr>
                    <tr>
                        <th scope="row">{l.lesson().verdict}</th>
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
                    disabled=move || !blind.shown()
                    on:click=compare
                >
                    {move || t().investigate}
                </button>
            </div>
            <Show when=move || !blind.shown()>
                <p class="vf-field__hint">{move || t().masked_hint}</p>
            </Show>
            {table}
        </div>
    }
}
