//! Understand: the method's assumptions in plain words, then every term of
//! the current scenario with its formula in symbols, the symbols defined
//! with their values, the formula with the numbers in place and the value
//! (those two only once the prediction is revealed).

use super::formulas::{self, Ctx, Derivation};
use super::symbols::term_sign;
use super::{masked, Blind};
use crate::i18n::{format, Lang};
use leptos::prelude::*;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use vramfit_core::scenario::Scenario;
use vramfit_core::units::{Bytes, DisplayUnit};

/// The current scenario's terms, derived (none without a result).
#[derive(Debug, Clone, PartialEq)]
struct Terms {
    rows: Vec<Derivation>,
    /// Terms the method lists at zero here.
    zero: Vec<vramfit_core::term::Term>,
    total_formula: String,
}

fn terms(lang: Lang, scenario: &Scenario, doc: &Report) -> Terms {
    let ctx = Ctx {
        s: scenario,
        r: &doc.estimate,
        n: &lang.t().number,
    };
    Terms {
        rows: formulas::derive_all(&ctx),
        zero: doc
            .estimate
            .components
            .0
            .iter()
            .filter(|c| c.bytes == Bytes::ZERO && !doc.estimate.outside_total.contains(&c.term))
            .map(|c| c.term)
            .collect(),
        total_formula: formulas::total_formula(&ctx),
    }
}

/// Assumptions, the terms with their formulas, symbols and numbers.
#[component]
pub(super) fn Understand(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    current: Memo<Option<Report>>,
    unit: RwSignal<DisplayUnit>,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let method = Memo::new(move |_| input.with(|i| i.method));
    let lesson = move || (t().method)(method.get());
    // The validated scenario of the current report (the symbols' values).
    let derived = Memo::new(move |_| {
        let l = lang.get();
        let doc = current.get()?;
        let scenario = doc.inputs.scenario.validate().ok()?;
        Some(terms(l, &scenario, &doc))
    });
    let rows = move || {
        let l = lang.get();
        let u = unit.get();
        let shown = blind.shown();
        let doc = current.get();
        derived.with(|d| {
            let (Some(d), Some(doc)) = (d, doc) else {
                return ().into_any();
            };
            d.rows
                .iter()
                .map(|row| {
                    let term = row.term;
                    let bytes = doc.estimate.components.get(term).unwrap_or_default();
                    let outside = doc.estimate.outside_total.contains(&term);
                    let symbols = row
                        .symbols
                        .iter()
                        .map(|(sym, value)| {
                            view! {
                                <li>
                                    <code>{format!("{} = {value}", sym.sign())}</code>
                                    " — " {(l.lesson().symbol)(*sym)}
                                </li>
                            }
                        })
                        .collect_view();
                    let substituted = row.substituted.clone();
                    view! {
                        <tr data-testid=format!("lesson-term-{}", term.id())>
                            <th scope="row">
                                {(l.t().term)(term)} " " <code class="vf-lesson__sign">{term_sign(term)}</code>
                                {outside.then(|| view! { <span class="vf-lesson__aside">" (" {l.lesson().outside_total} ")"</span> })}
                            </th>
                            <td data-testid="lesson-term-formula"><code>{row.formula.clone()}</code></td>
                            <td data-testid="lesson-term-symbols"><ul class="vf-lesson__symbols">{symbols}</ul></td>
                            <td data-testid="lesson-term-substituted">
                                {match substituted {
                                    Some(text) => view! { <code>{masked(shown, || format!("{text} B"))}</code> }.into_any(),
                                    None => view! { <span class="vf-lesson__aside">{l.lesson().no_substitution}</span> }.into_any(),
                                }}
                            </td>
                            <td class="vf-num" data-testid="lesson-term-value">
                                {masked(shown, || format::bytes(&l.t().number, u, bytes))}
                            </td>
                        </tr>
                    }
                })
                .collect_view()
                .into_any()
        })
    };
    let total = move || {
        let l = lang.get();
        let u = unit.get();
        let shown = blind.shown();
        let doc = current.get()?;
        let formula = derived.with(|d| d.as_ref().map(|d| d.total_formula.clone()))?;
        Some(view! {
            <p class="vf-lesson__formula" data-testid="lesson-total-formula">
                <strong>{l.lesson().total_label}</strong> " " <code>{format!("= {formula}")}</code> " = "
                <span class="vf-num">{masked(shown, || format::bytes(&l.t().number, u, doc.estimate.total_bytes))}</span>
            </p>
        })
    };
    let zero = move || {
        let l = lang.get();
        derived.with(|d| {
            d.as_ref().filter(|d| !d.zero.is_empty()).map(|d| {
                let names: Vec<&str> = d.zero.iter().map(|t| (l.t().term)(*t)).collect();
                view! {
                    <p class="vf-field__hint" data-testid="lesson-zero-terms">
                        {l.lesson().zero_terms} ": " {names.join(", ")}
                    </p>
                }
            })
        })
    };
    let refused = move || {
        let l = lang.get();
        current.with(Option::is_none).then(|| {
            let why = input.with(|i| i.run().err().map(|e| (l.t().request_error)(&e)));
            view! {
                <p class="vf-error" data-testid="lesson-terms-refused">
                    {l.lesson().method_refuses} " " {why.unwrap_or_default()}
                </p>
            }
        })
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-understand">
            <h3 class="vf-lesson__heading">{move || t().understand_title}</h3>
            <h4 class="vf-lesson__subheading">{move || t().assumptions}</h4>
            <ul class="vf-lesson__list" data-testid="lesson-assumptions">
                {move || lesson().assumptions.iter().map(|a| view! { <li>{*a}</li> }).collect_view()}
            </ul>
            {total}
            {refused}
            <div class="vf-lesson__scroll">
                <table class="vf-lesson__table vf-lesson__terms" data-testid="lesson-terms">
                    <caption>{move || t().terms}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{move || t().term}</th>
                            <th scope="col">{move || t().formula}</th>
                            <th scope="col">{move || t().symbols}</th>
                            <th scope="col">{move || t().substituted}</th>
                            <th scope="col" class="vf-num">{move || t().value}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {zero}
            <Show when=move || !blind.shown()>
                <p class="vf-field__hint">{move || t().masked_hint}</p>
            </Show>
        </div>
    }
}
