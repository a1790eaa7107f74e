//! "How to read the results": the selected method's assumptions, units and
//! what it leaves out, in the user's language.

use crate::i18n::{method_name, use_lang};
use leptos::prelude::*;
use vramfit_core::methods::MethodId;

/// The interpretation of the selected method.
#[component]
pub fn InterpretationPanel(
    /// The method behind the headline figure.
    #[prop(into)]
    method: Signal<MethodId>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let text = move || (t().interpretation)(method.get());
    let list = |items: &'static [&'static str]| {
        items
            .iter()
            .map(|item| view! { <li>{*item}</li> })
            .collect_view()
    };
    view! {
        <section
            class="vf-step-card vf-interpretation"
            data-testid="interpretation"
            data-method=move || method.get().id()
            aria-labelledby="vf-interpretation-title"
        >
            <h2 id="vf-interpretation-title" class="vf-step">{move || t().interpretation_title}</h2>
            <p class="vf-interpretation__summary">
                <strong>{move || method_name(method.get())}</strong> ": " {move || text().summary}
            </p>
            <h3 class="vf-subhead">{move || t().interp_assumptions}</h3>
            <ul>{move || list(text().assumptions)}</ul>
            <h3 class="vf-subhead">{move || t().interp_units}</h3>
            <p>{move || text().units}</p>
            <h3 class="vf-subhead">{move || t().interp_leaves_out}</h3>
            <ul>{move || list(text().leaves_out)}</ul>
        </section>
    }
}
