//! The language switch in the header.

use crate::i18n::{tables, use_lang, Lang, LangContext};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// One button per language, each named in its own language. A language is
/// shown once its table is here ([`tables::load`]: one language per load);
/// if it cannot be fetched, a message says so and the page stays as it is.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = use_lang();
    let set = use_context::<LangContext>().map(|LangContext(l)| l);
    let failed = RwSignal::new(false);
    view! {
        <div class="vf-seg vf-lang" role="group" aria-label=move || lang.get().t().lang_label on:keydown=crate::components::seg_keys>
            {Lang::ALL.into_iter().map(|l| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("lang-{}", l.code())
                    lang=l.code()
                    title=l.own_name()
                    aria-pressed=move || (lang.get() == l).to_string()
                    on:click=move |_| {
                        if let Some(set) = set {
                            spawn_local(async move {
                                let loaded = tables::load(l).await.is_ok();
                                failed.set(!loaded);
                                if loaded {
                                    set.set(l);
                                }
                            });
                        }
                    }
                >
                    <span aria-hidden="true">{l.code().to_uppercase()}</span>
                    <span class="vf-visually-hidden">{l.own_name()}</span>
                </button>
            }).collect_view()}
        </div>
        <Show when=move || failed.get()>
            <p class="vf-error" role="alert" data-testid="lang-unavailable">{move || lang.get().t().part_unavailable}</p>
        </Show>
    }
}
