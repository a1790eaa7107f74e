//! Export, import and share: the report as a JSON file, an exported file
//! read back (chosen, dropped or pasted), and a link that reopens the same
//! calculation.

use crate::download::download_text;
use crate::i18n::use_lang;
use crate::import::{parse_import, ImportError};
use crate::share;
use leptos::prelude::*;
use leptos::task::spawn_local;
use vramfit_core::report::Report;
use vramfit_core::request::Request;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The outcome of the last export, import or share, shown under the buttons.
#[derive(Debug, Clone, PartialEq)]
pub enum TransferStatus {
    Imported,
    ImportFailed(ImportError),
    LinkCopied,
    LinkCopyFailed,
    /// The address carried a scenario that could not be used.
    LinkBroken,
    ExportFailed,
}

impl TransferStatus {
    /// Whether this reports a failure.
    pub fn is_problem(&self) -> bool {
        !matches!(self, TransferStatus::Imported | TransferStatus::LinkCopied)
    }
}

/// Replaces the scenario with the one `text` holds, or says why not and
/// changes nothing.
pub fn import_text(text: &str, input: RwSignal<Request>, status: RwSignal<Option<TransferStatus>>) {
    match parse_import(text) {
        Ok(scenario) => {
            input.set(scenario);
            status.set(Some(TransferStatus::Imported));
        }
        Err(e) => status.set(Some(TransferStatus::ImportFailed(e))),
    }
}

/// Reads a chosen or dropped file and imports it.
pub fn import_file(
    file: web_sys::File,
    input: RwSignal<Request>,
    status: RwSignal<Option<TransferStatus>>,
) {
    spawn_local(async move {
        match JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string())
        {
            Some(text) => import_text(&text, input, status),
            None => status.set(Some(TransferStatus::ImportFailed(ImportError::Unreadable))),
        }
    });
}

/// The first file a drag carries, if it carries files.
pub fn dragged_file(ev: &web_sys::DragEvent) -> Option<web_sys::File> {
    ev.data_transfer()?.files()?.get(0)
}

/// Whether a drag carries files (so the page accepts the drop).
pub fn drags_files(ev: &web_sys::DragEvent) -> bool {
    ev.data_transfer().is_some_and(|d| {
        d.types()
            .iter()
            .any(|t| t.as_string().as_deref() == Some("Files"))
    })
}

/// Export, import and copy-link buttons with their status line.
#[component]
pub fn TransferBar(
    /// The report to export.
    #[prop(into)]
    report: Signal<Option<Report>>,
    /// The scenario an import replaces.
    input: RwSignal<Request>,
    /// Where the outcome is shown (shared with drops and pastes).
    status: RwSignal<Option<TransferStatus>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let export = move |_| {
        let Some(json) = report.with_untracked(|r| r.as_ref().map(Report::to_json)) else {
            return;
        };
        if download_text("vramfit.json", "application/json", &json).is_err() {
            status.set(Some(TransferStatus::ExportFailed));
        }
    };
    let choose = move |ev: leptos::ev::Event| {
        let Some(field) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = field.files().and_then(|f| f.get(0)) {
            import_file(file, input, status);
        }
        // Choosing the same file again is a new import.
        field.set_value("");
    };
    let copy = move |_| {
        spawn_local(async move {
            let copied = share::copy_text(&share::current_address()).await;
            status.set(Some(if copied {
                TransferStatus::LinkCopied
            } else {
                TransferStatus::LinkCopyFailed
            }));
        })
    };
    let message = move || {
        let t = t();
        status.get().map(|s| match s {
            TransferStatus::Imported => t.import_done.to_string(),
            TransferStatus::ImportFailed(e) => (t.import_error)(&e),
            TransferStatus::LinkCopied => t.link_copied.to_string(),
            TransferStatus::LinkCopyFailed => t.link_copy_failed.to_string(),
            TransferStatus::LinkBroken => t.link_broken.to_string(),
            TransferStatus::ExportFailed => t.export_failed.to_string(),
        })
    };
    view! {
        <div class="vf-transfer">
            <button class="vf-button" type="button" data-testid="export-json" on:click=export>
                {move || t().export_button}
            </button>
            <input
                id="vf-import"
                class="vf-file"
                type="file"
                accept=".json,application/json"
                data-testid="import-json"
                on:change=choose
            />
            <label class="vf-button vf-button--secondary" for="vf-import">{move || t().import_button}</label>
            <button class="vf-button vf-button--secondary" type="button" data-testid="copy-link" on:click=copy>
                {move || t().copy_link}
            </button>
        </div>
        <p class="vf-note">{move || t().drop_hint}</p>
        <p
            class="vf-status"
            class:vf-error=move || status.with(|s| s.as_ref().is_some_and(TransferStatus::is_problem))
            data-testid="transfer-status"
            role="status"
        >
            {message}
        </p>
    }
}
