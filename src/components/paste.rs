//! "Paste your command": a `vllm serve` or `llama-server` line read by the
//! core's command reader into the inputs and the method. A line the reader
//! refuses is named in the page's language and changes nothing.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::command::{self, CommandError, Engine};
use vramfit_core::request::Request;
use vramfit_core::scenario::ScenarioInput;

/// The request a pasted command describes, on the GPU and host memory
/// already chosen (a command names neither), with the engine it starts.
pub fn read_command(
    current: &ScenarioInput,
    text: &str,
) -> Result<(Request, Engine), CommandError> {
    let command = command::parse_text(text)?;
    let mut next = ScenarioInput {
        gpu: current.gpu.clone(),
        gpu_memory_gb: current.gpu_memory_gb,
        host_ram_gb: current.host_ram_gb,
        model: None,
        ..ScenarioInput::default()
    };
    let method = command.apply(&mut next)?;
    Ok((Request::new(method, next), command.engine()))
}

/// The field, its button and what came of the last command.
#[component]
pub fn PasteCommand(
    /// The request the command replaces when it reads.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let draft = RwSignal::new(String::new());
    let outcome: RwSignal<Option<Result<Engine, CommandError>>> = RwSignal::new(None);
    let apply = move || {
        let text = draft.get_untracked();
        let read = input.with_untracked(|i| read_command(&i.scenario, &text));
        outcome.set(Some(read.map(|(request, engine)| {
            input.set(request);
            engine
        })));
    };
    let message = move || {
        outcome.get().map(|o| match o {
            Ok(engine) => view! {
                <p class="vf-note" role="status" data-testid="paste-applied">{(e().paste_applied)(engine.name())}</p>
            }
            .into_any(),
            Err(err) => view! {
                <p class="vf-error" role="alert" data-testid="paste-error">{(e().command_error)(&err)}</p>
            }
            .into_any(),
        })
    };
    view! {
        <form class="vf-paste" data-testid="paste" on:submit=move |ev| { ev.prevent_default(); apply(); }>
            <label class="vf-field__label" for="vf-paste-command">{move || e().paste_label}</label>
            <textarea
                id="vf-paste-command"
                class="vf-config vf-paste__field"
                data-testid="paste-command"
                rows="2"
                spellcheck="false"
                placeholder=move || e().paste_hint
                prop:value=move || draft.get()
                on:input=move |ev| draft.set(event_target_value(&ev))
            ></textarea>
            <button type="submit" class="vf-button" data-testid="paste-apply">{move || e().paste_apply}</button>
            {message}
        </form>
    }
}
