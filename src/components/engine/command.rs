//! The engine's launch line (`vllm serve …`, `llama-server …`) with a copy
//! button.

use crate::i18n::use_lang;
use crate::share;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// A command line to copy, and whether the copy worked.
#[component]
pub fn CommandLine(
    /// The line, as the engine takes it.
    command: String,
) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let status = RwSignal::new(None::<bool>);
    let line = StoredValue::new(command.clone());
    let copy = move |_| {
        spawn_local(async move {
            let ok = share::copy_text(&line.get_value()).await;
            status.try_set(Some(ok));
        });
    };
    view! {
        <div class="vf-engine__command">
            <div class="vf-engine__command-head">
                <span class="vf-field__label">{move || e().command_label}</span>
                <button type="button" class="vf-engine__copy" data-testid="engine-copy" on:click=copy>
                    {move || e().copy}
                </button>
                <span class="vf-engine__copied" role="status" data-testid="engine-copy-status">
                    {move || match status.get() {
                        Some(true) => e().copied,
                        Some(false) => e().copy_failed,
                        None => "",
                    }}
                </span>
            </div>
            <pre class="vf-engine__pre"><code data-testid="engine-command">{command}</code></pre>
        </div>
    }
}
