//! Where each method's lesson starts: a catalog model on which every
//! assumption of the method holds, loaded in one click (with the reason),
//! and a blind prediction started on it.

use super::{cases, Blind};
use crate::i18n::Lang;
use leptos::prelude::*;
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::request::Request;

/// The method's starting scenario and why.
#[component]
pub(super) fn Start(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    method: Memo<MethodId>,
    current: Memo<Option<Report>>,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let lesson = move || (t().method)(method.get());
    // Whether the current scenario already suits the method, or why not.
    let refusal = move || {
        input.with(|i| match i.run() {
            Ok(_) => None,
            Err(e) => Some((lang.get().t().request_error)(&e)),
        })
    };
    let load = move |_| {
        input.set(cases::start(method.get_untracked()));
        blind.start();
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-start">
            <h3 class="vf-lesson__heading">{move || t().start_title}</h3>
            <p>{move || t().start_intro}</p>
            <p data-testid="lesson-start-why">{move || lesson().start}</p>
            <button
                type="button"
                class="vf-nb-button vf-nb-button--primary"
                data-testid="lesson-start-load"
                on:click=load
            >
                {move || t().start_load}
            </button>
            <p class="vf-field__hint" data-testid="lesson-start-current">
                {move || match refusal() {
                    None if current.with(Option::is_some) => t().start_current_ok.to_string(),
                    None => String::new(),
                    Some(why) => format!("{} {why}", t().start_current_refused),
                }}
            </p>
        </div>
    }
}
