//! The GGUF file types, in place of the weight formats when the method is
//! `llamacpp`: llama-quantize's names, largest first.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::gguf::FileType;
use vramfit_core::methods::llamacpp::DEFAULT_FILE_TYPE;
use vramfit_core::request::Request;

/// One button per GGUF file type; the one llama.cpp would load is pressed
/// (Q4_K_M while none is chosen).
#[component]
pub fn GgufPicker(
    /// The scenario whose GGUF type this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let current =
        Memo::new(move |_| input.with(|i| i.scenario.gguf_type().unwrap_or(DEFAULT_FILE_TYPE)));
    view! {
        <fieldset class="vf-fieldset">
            <legend class="vf-field__label">{move || lang.get().engine().gguf_label}</legend>
            <div class="vf-seg vf-seg--wrap" role="group" data-testid="gguf-type">
                {FileType::ALL.into_iter().map(|file_type| view! {
                    <button
                        type="button"
                        class="vf-seg__option"
                        data-testid=format!("gguf-{}", file_type.name().to_ascii_lowercase())
                        aria-pressed=move || (current.get() == file_type).to_string()
                        title=file_type.printed_name()
                        on:click=move |_| input.update(|i| i.scenario.set_gguf_type(file_type))
                    >
                        {file_type.name()}
                    </button>
                }).collect_view()}
            </div>
        </fieldset>
    }
}
