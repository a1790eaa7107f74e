//! How to read the result, the method's sources, the review scope, and
//! the reference kit.

use crate::download::download_text;
use crate::i18n::Lang;
use leptos::prelude::*;
use vramfit_core::kit;
use vramfit_core::methods::MethodId;

/// How to read the result, the method's sources, and the review scope.
#[component]
pub(super) fn References(lang: Memo<Lang>, method: Memo<MethodId>) -> impl IntoView {
    let t = move || lang.get().lesson();
    let lesson = move || (lang.get().lesson().method)(method.get());
    let list = |items: &'static [&'static str]| {
        items.iter().map(|i| view! { <li>{*i}</li> }).collect_view()
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-references">
            <h3 class="vf-lesson__heading">{move || t().interpretation_title}</h3>
            <p data-testid="lesson-interpretation">{move || lesson().interpretation}</p>
            <details class="vf-lesson__details" open>
                <summary>{move || t().references_title}</summary>
                <ul class="vf-lesson__list" data-testid="lesson-reference-list">
                    {move || lesson().references.iter().map(|(source, what)| view! {
                        <li><strong>{*source}</strong> " — " {*what}</li>
                    }).collect_view()}
                </ul>
            </details>
            <details class="vf-lesson__details" data-testid="lesson-scope">
                <summary>{move || t().scope_title}</summary>
                <h4 class="vf-lesson__subheading">{move || t().checked}</h4>
                <ul class="vf-lesson__list">{move || list(lesson().checked)}</ul>
                <h4 class="vf-lesson__subheading">{move || t().not_checked}</h4>
                <ul class="vf-lesson__list">{move || list(lesson().not_checked)}</ul>
                <p class="vf-field__hint">{move || t().scope_note}</p>
            </details>
        </div>
    }
}

/// The reference kit: every worked example, for every method.
#[component]
pub(super) fn KitDownload(lang: Memo<Lang>) -> impl IntoView {
    let t = move || lang.get().lesson();
    let failed = RwSignal::new(false);
    let download = move |_| {
        let json = kit::reference().to_json();
        failed.set(download_text("vramfit-kit.json", "application/json", &json).is_err());
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-kit">
            <h3 class="vf-lesson__heading">{move || t().kit_title}</h3>
            <p>{move || t().kit_intro} " " <code>"vramfit check vramfit-kit.json"</code></p>
            <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="kit-download" on:click=download>
                {move || t().kit_download}
            </button>
            <Show when=move || failed.get()>
                <p class="vf-error" role="alert">{move || t().kit_failed}</p>
            </Show>
        </div>
    }
}
