//! The language switch in the header.

use crate::i18n::{use_lang, Lang, LangContext};
use leptos::prelude::*;

/// One button per language, each named in its own language.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = use_lang();
    let set = use_context::<LangContext>().map(|LangContext(l)| l);
    view! {
        <div class="vf-seg vf-lang" role="group" aria-label=move || lang.get().t().lang_label>
            {Lang::ALL.into_iter().map(|l| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("lang-{}", l.code())
                    lang=l.code()
                    title=l.t().name
                    aria-pressed=move || (lang.get() == l).to_string()
                    on:click=move |_| {
                        if let Some(set) = set {
                            set.set(l);
                        }
                    }
                >
                    <span aria-hidden="true">{l.code().to_uppercase()}</span>
                    <span class="vf-visually-hidden">{l.t().name}</span>
                </button>
            }).collect_view()}
        </div>
    }
}
