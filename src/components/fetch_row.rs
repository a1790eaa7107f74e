//! A label, a field and its button in one row, in a form that submits on
//! Enter or on the button: the Hub's model id ([`crate::model_panel`]) and
//! a GGUF file's URL ([`crate::components::gguf_file`]). What follows the
//! row (a hint, a status line) is the caller's. In the `model` chunk.

use crate::i18n::{use_lang, Lang};
use leptos::prelude::*;

/// The row's words in one language.
pub struct RowTexts {
    pub label: &'static str,
    pub placeholder: &'static str,
    pub button: &'static str,
}

/// The form: the label above, the field and its button on one line, then
/// `children`.
#[component]
pub fn FetchRow(
    /// The field's element id (its label's `for`).
    id: &'static str,
    /// The field's `type`: `text` or `url`.
    kind: &'static str,
    /// The field's and the button's `data-testid`.
    field_test: &'static str,
    button_test: &'static str,
    /// The ids of what describes the field (its hint, its status).
    described_by: &'static str,
    /// The row's words in a language.
    texts: fn(Lang) -> RowTexts,
    /// What is typed.
    value: RwSignal<String>,
    /// The button is off while a read runs.
    busy: RwSignal<bool>,
    /// What the form does when sent (the value is `value`'s).
    on_send: Callback<()>,
    children: Children,
) -> impl IntoView {
    let lang = use_lang();
    let text = move || texts(lang.get());
    view! {
        <form class="vf-hub" on:submit=move |ev| { ev.prevent_default(); on_send.run(()); }>
            <label class="vf-field__label" for=id>{move || text().label}</label>
            <div class="vf-hub__row">
                <input
                    id=id
                    class="vf-select vf-hub__id"
                    type=kind
                    autocomplete="off"
                    spellcheck="false"
                    data-testid=field_test
                    placeholder=move || text().placeholder
                    aria-describedby=described_by
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
                <button
                    class="vf-button vf-button--secondary vf-hub__go"
                    type="submit"
                    data-testid=button_test
                    disabled=move || busy.get()
                >
                    {move || text().button}
                </button>
            </div>
            {children()}
        </form>
    }
}
