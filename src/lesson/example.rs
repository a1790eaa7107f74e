//! The same calculation as a command line and as JSON inputs.

use super::texts::LessonTexts;
use crate::i18n::Lang;
use crate::notebook::web;
use leptos::prelude::*;
use vramfit_core::request::Request;

/// The same calculation as a command line and as JSON inputs.
#[component]
pub(super) fn Example(input: RwSignal<Request>, lang: Memo<Lang>) -> impl IntoView {
    let t = move || lang.get().lesson();
    let cli = Memo::new(move |_| input.with(vramfit_cli::line::command));
    let json =
        Memo::new(move |_| input.with(|i| serde_json::to_string_pretty(i).unwrap_or_default()));
    let has_config = move || {
        input.with(|i| {
            i.scenario
                .model
                .as_ref()
                .is_some_and(|m| m.config_text().is_some())
        })
    };
    let copy_block = move |key: &'static str,
                           label: fn(&LessonTexts) -> &'static str,
                           content: Memo<String>| {
        let status = RwSignal::new(None::<bool>);
        view! {
            <div class="vf-lesson__code">
                <div class="vf-lesson__code-head">
                    <span class="vf-field__label">{move || label(t())}</span>
                    <button
                        type="button"
                        class="vf-nb-button"
                        data-testid=format!("lesson-copy-{key}")
                        on:click=move |_| {
                            web::copy_text(&content.get_untracked(), move |ok| {
                                status.try_set(Some(ok));
                            });
                        }
                    >
                        {move || t().copy}
                    </button>
                    <span class="vf-lesson__copied" role="status" data-testid=format!("lesson-copy-{key}-status")>
                        {move || match status.get() {
                            Some(true) => t().copied,
                            Some(false) => t().copy_failed,
                            None => "",
                        }}
                    </span>
                </div>
                <pre class="vf-lesson__pre"><code data-testid=format!("lesson-{key}")>{move || content.get()}</code></pre>
            </div>
        }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-example">
            <h3 class="vf-lesson__heading">{move || t().example_title}</h3>
            <p>{move || t().example_intro}</p>
            {copy_block("cli", |t| t.cli_label, cli)}
            <p class="vf-field__hint">{move || t().json_note}</p>
            <Show when=has_config>
                <p class="vf-field__hint">{move || t().config_note}</p>
            </Show>
            {copy_block("json", |t| t.json_label, json)}
        </div>
    }
}
