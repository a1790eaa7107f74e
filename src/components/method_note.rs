//! The selected method's one-line description, under the method picker.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;

/// What the selected method estimates, in one line.
#[component]
pub fn MethodDescription(
    /// The selected method.
    #[prop(into)]
    method: Signal<MethodId>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <p class="vf-note vf-method-note" data-testid="method-description" data-method=move || method.get().id()>
            {move || (lang.get().t().method_summary)(method.get())}
        </p>
    }
}
