//! Understand: the method's formulas and assumptions, the terms of the
//! current scenario with their formulas, and a counterexample.

use super::formulas;
use super::masked;
use crate::i18n::{format, Lang};
use crate::notebook::Draft;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::units::DisplayUnit;

/// Assumptions, the terms with their formulas and units, a counterexample.
#[component]
pub(super) fn Understand(
    lang: Memo<Lang>,
    method: Memo<MethodId>,
    current: Memo<Option<Report>>,
    unit: RwSignal<DisplayUnit>,
    draft: RwSignal<Draft>,
    revealed: RwSignal<bool>,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let lesson = move || (lang.get().lesson().method)(method.get());
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
                            <th scope="row">{(l.t().term)(c.term)}</th>
                            <td><code>{formula}</code></td>
                            <td class="vf-num">{masked(shown, || format::bytes(&l.t().number, u, c.bytes))}</td>
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
