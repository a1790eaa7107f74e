//! The GGUF file types, in place of the weight formats when the method is
//! `llamacpp`: llama-quantize's names, largest first.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::gguf::FileType;
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::llamacpp::DEFAULT_FILE_TYPE;
use vramfit_core::report::Report;
use vramfit_core::request::Request;

/// One button per GGUF file type; the one llama.cpp would load is pressed:
/// the type chosen, else the one the report's figures are for (gpt-oss's
/// own MXFP4_MOE), else Q4_K_M.
#[component]
pub fn GgufPicker(
    /// The scenario whose GGUF type this sets.
    input: RwSignal<Request>,
    /// The report on screen, whose llama.cpp figures name the type loaded.
    #[prop(optional)]
    report: Option<Memo<Option<Report>>>,
) -> impl IntoView {
    let lang = use_lang();
    let loaded = move || {
        report?.with(|r| match r.as_ref()?.estimate.engine.as_ref()? {
            EngineReport::Llamacpp(l) => Some(l.file_type),
            EngineReport::Vllm(_) => None,
        })
    };
    let current = Memo::new(move |_| {
        input
            .with(|i| i.scenario.gguf_type())
            .or_else(loaded)
            .unwrap_or(DEFAULT_FILE_TYPE)
    });
    view! {
        <fieldset class="vf-fieldset">
            <legend class="vf-field__label">{move || lang.get().engine().gguf_label}</legend>
            <div class="vf-seg vf-seg--wrap" role="group" data-testid="gguf-type" on:keydown=crate::components::seg_keys>
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
