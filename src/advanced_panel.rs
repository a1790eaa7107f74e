//! Step 01's folded knobs (GPUs, TP, PP, sequences per copy, host RAM),
//! with how many differ from the defaults and how the GPUs are used. They
//! come with the `details` chunk ([`crate::details::advanced_knobs`]): the
//! first result does not need them.

use crate::components::NumberField;
use crate::figures;
use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::request::Request;
use vramfit_core::scenario::Field;

/// Users, GPU count, TP, PP and host RAM, folded, with how many differ
/// from the defaults.
#[component]
pub fn AdvancedKnobs(
    /// The scenario the knobs edit.
    input: RwSignal<Request>,
    /// Whether a link in the address is still to be read.
    #[prop(into)]
    link_pending: Signal<bool>,
    /// How the GPUs are used, as the current report reads them.
    #[prop(into)]
    layout: Signal<Option<vramfit_core::scenario::Layout>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let changed = Memo::new(move |_| input.with(figures::advanced_changed));
    // Opened when a link brings non-default knobs: once, when it is read.
    let open = RwSignal::new(false);
    Effect::new(move |opened: Option<bool>| {
        if opened == Some(true) || link_pending.get() {
            return opened.unwrap_or(false);
        }
        open.set(input.with_untracked(figures::advanced_changed) > 0);
        true
    });
    view! {
        <details class="vf-advanced" data-testid="advanced" prop:open=open>
            <summary>
                {move || t().advanced_label} " "
                <span class="vf-advanced__count" data-testid="advanced-count" data-count=move || changed.get()>
                    {move || (t().advanced_changed)(changed.get())}
                </span>
            </summary>
            <div class="vf-fields">
                {Field::ADVANCED.into_iter().map(|field| view! { <NumberField field input /> }).collect_view()}
            </div>
            <p class="vf-note" data-testid="layout-summary">{move || layout.get().map(|l| (t().layout_summary)(&l))}</p>
        </details>
    }
}
