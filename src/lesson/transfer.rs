//! Test and transfer: notes, a transfer test, and a record in the
//! notebook.

use super::texts::LessonTexts;
use crate::i18n::Lang;
use crate::notebook::panel::observe;
use crate::notebook::{Draft, Notebook};
use leptos::prelude::*;
use vramfit_core::request::Request;

/// Notes, a transfer test, and the record button.
#[component]
pub(super) fn Transfer(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    draft: RwSignal<Draft>,
    notebook: Option<Notebook>,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let recorded = RwSignal::new(false);
    let area = move |key: &'static str,
                     label: fn(&LessonTexts) -> &'static str,
                     get: fn(&Draft) -> String,
                     set: fn(&mut Draft, String)| {
        let id = format!("vf-lesson-{key}");
        view! {
            <label class="vf-field__label" for=id.clone()>{move || label(t())}</label>
            <textarea
                id=id
                class="vf-config"
                rows="2"
                data-testid=format!("lesson-{key}")
                prop:value=move || draft.with(get)
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    recorded.set(false);
                    draft.update(|d| set(d, text));
                }
            ></textarea>
        }
    };
    let record = move |_| {
        if let Some(notebook) = notebook {
            let scenario = input.get_untracked();
            let observed = observe(&scenario);
            notebook.add(scenario, observed);
            recorded.set(true);
        }
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-transfer">
            <h3 class="vf-lesson__heading">{move || t().transfer_title}</h3>
            <p>{move || t().transfer_intro}</p>
            {area("notes", |t| t.notes_label, |d| d.notes.clone(), |d, v| d.notes = v)}
            <p class="vf-field__hint">{move || t().transfer_hint}</p>
            {area("transfer-test", |t| t.transfer_label, |d| d.transfer_test.clone(), |d, v| d.transfer_test = v)}
            <h4 class="vf-lesson__subheading">{move || t().evidence_title}</h4>
            <p class="vf-field__hint">{move || t().evidence_intro}</p>
            {notebook.map(|_| view! {
                <div class="vf-lesson__predict-row">
                    <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="lesson-record" on:click=record>
                        {move || t().record}
                    </button>
                    <span role="status" data-testid="lesson-recorded">
                        {move || if recorded.get() { t().recorded } else { "" }}
                    </span>
                </div>
            })}
            <a class="vf-link" href="#vf-notebook" data-testid="lesson-open-notebook">{move || t().open_notebook}</a>
        </div>
    }
}
