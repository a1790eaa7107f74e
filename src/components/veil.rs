//! The veil over the page's figures while the student predicts blind.
//!
//! The lesson (loaded later, in its own chunk) starts a prediction; until
//! it is revealed, every figure of the current scenario on the page — the
//! rings, the phone's bar, the total, the breakdown, the suggestions and
//! answers, the methods table, the chart and the speed — is taken off the
//! page (not merely hidden by style, so no text of it is left to read),
//! and a line in its place says why and offers to show them. Revealing the
//! prediction brings them back together.

use crate::i18n::use_lang;
use leptos::prelude::*;

/// Whether a blind prediction is pending (the page's figures are veiled).
#[derive(Debug, Clone, Copy)]
pub struct Veil(pub RwSignal<bool>);

/// The page's veil; a veil of its own (never raised by the page) where no
/// page provides one, as for a lesson mounted alone.
pub fn use_veil() -> Veil {
    use_context::<Veil>().unwrap_or_else(|| Veil(RwSignal::new(false)))
}

/// Its children while no prediction is pending; a short note in their
/// place while one is.
#[component]
pub fn Veiled(
    /// `data-testid` of the note (`"veiled-results"`).
    testid: &'static str,
    children: ChildrenFn,
) -> impl IntoView {
    let Veil(pending) = use_veil();
    let lang = use_lang();
    let t = move || lang.get().t();
    view! {
        <Show
            when=move || !pending.get()
            fallback=move || view! {
                <div class="vf-veil" data-testid=testid role="status">
                    <p>{move || t().veiled}</p>
                    <p class="vf-veil__actions">
                        <a class="vf-link" href="#vf-lesson-prediction">{move || t().veiled_go}</a>
                        " · "
                        <button type="button" class="vf-link" data-testid=format!("{testid}-show") on:click=move |_| pending.set(false)>
                            {move || t().veiled_show}
                        </button>
                    </p>
                </div>
            }
        >
            {children()}
        </Show>
    }
}
