//! Isolate the assumption: one change at a time beside the baseline.

use super::{delta, effective_bits, masked, Blind};
use crate::i18n::{format, Lang};
use leptos::prelude::*;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::request::Request;
use vramfit_core::scenario::Field;
use vramfit_core::term::Term;
use vramfit_core::units::DisplayUnit;

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
            label: (lang.lesson().double_context)(&format::integer(&lang.t().number, context)),
            input: longer,
        });
    }
    let bits = effective_bits(&base.scenario) / 2.0;
    if Field::WeightBits.check(bits).is_ok() {
        let mut halved = base.clone();
        halved.scenario.set(Field::WeightBits, bits);
        out.push(Variant {
            id: "bits-half".into(),
            label: (lang.lesson().halve_bits)(&format::plain(&lang.t().number, bits)),
            input: halved,
        });
    }
    for method in MethodId::ALL {
        if method != base.method {
            out.push(Variant {
                id: format!("method-{}", method.id()),
                label: (lang.lesson().switch_method)(method),
                input: Request::new(method, base.scenario.clone()),
            });
        }
    }
    out
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
        .map(|t| (lang.t().term)(t))
        .collect()
}

/// "Hint: isolate the assumption": one change at a time, side by side.
#[component]
pub(super) fn Isolate(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    unit: RwSignal<DisplayUnit>,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let rows = move || {
        let l = lang.get();
        let u = unit.get();
        let shown = blind.shown();
        let base_input = input.get();
        let base = base_input.run().ok();
        let base_total = base.as_ref().map(|b| b.total_bytes);
        let other_unit = match u {
            DisplayUnit::Gb => DisplayUnit::Gib,
            DisplayUnit::Gib => DisplayUnit::Gb,
        };
        let baseline = view! {
            <tr data-testid="lesson-change-baseline" class="vf-lesson__baseline">
                <th scope="row">{l.lesson().baseline}</th>
                <td class="vf-num">{masked(shown, || base_total.map(|b| format::bytes(&l.t().number, u, b)).unwrap_or_else(|| "—".into()))}</td>
                <td></td>
                <td></td>
                <td></td>
            </tr>
        };
        let unit_row = view! {
            <tr data-testid="lesson-change-unit">
                <th scope="row">{(l.lesson().unit_view)(other_unit)}</th>
                <td class="vf-num">{masked(shown, || base_total.map(|b| format::bytes(&l.t().number, other_unit, b)).unwrap_or_else(|| "—".into()))}</td>
                <td class="vf-num">{format::signed_bytes(&l.t().number, u, 0)}</td>
                <td>{l.lesson().same_bytes}</td>
                <td>
                    <button type="button" class="vf-link" data-testid="lesson-apply-unit" on:click=move |_| unit.set(other_unit)>
                        {l.lesson().apply}
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
                            .map(|p| format!(" ({})", format::signed_percent(&l.t().number, p)))
                            .unwrap_or_default();
                        let terms = changed_terms(l, b, r);
                        (
                            format::bytes(&l.t().number, u, r.total_bytes),
                            format!("{}{pct}", format::signed_bytes(&l.t().number, u, diff)),
                            if terms.is_empty() {
                                l.lesson().nothing_changes.to_string()
                            } else {
                                terms.join(", ")
                            },
                        )
                    }
                    (_, Some(r)) => (
                        format::bytes(&l.t().number, u, r.total_bytes),
                        "—".into(),
                        String::new(),
                    ),
                    _ => ("—".into(), "—".into(), l.lesson().not_estimated.to_string()),
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
                                on:click=move |_| {
                                    input.set(changed.clone());
                                    blind.start();
                                }
                            >
                                {l.lesson().apply}
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
            <Show when=move || !blind.shown()>
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
