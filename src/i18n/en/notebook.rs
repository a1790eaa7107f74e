//! The notebook, in English.

use crate::notebook::persist::Notice;
use crate::notebook::texts::{NotebookTexts, Step};

pub static NOTEBOOK: NotebookTexts = NotebookTexts {
    title: "Notebook",
    intro: "Each entry keeps when, the lesson step, the whole scenario, the vramfit version, your prediction, the result and the discrepancy, with your notes, counterexample and transfer test. Saved in this browser, in every language.",
    add: "Add entry",
    export: "Export JSON",
    import: "Import JSON",
    import_paste: "Or paste an exported notebook here",
    import_paste_button: "Import the pasted text",
    clear: "Clear all",
    confirm_clear: "Yes, clear all",
    cancel: "Cancel",
    undo: "Undo",
    undo_delete: "Entry deleted.",
    empty: "No entries yet: predict, reveal and record the first one.",
    entries_label: "Notebook entries",
    step: "Step",
    scenario: "Scenario",
    version: "Version",
    prediction: "Prediction",
    observed: "Result",
    discrepancy: "Discrepancy",
    notes: "Notes",
    counterexample: "Counterexample",
    reason: "Why it breaks the conclusion",
    transfer_test: "Transfer test",
    none: "—",
    open: "Open in the calculator",
    edit: "Edit",
    delete: "Delete",
    save: "Save",
    dismiss: "Got it",
    export_now: "Export now",
    quota: "The browser's storage is full: the notebook stays in this tab's memory and will be lost when it closes. Export it to keep it; it is saved again as soon as there is room.",
    unavailable: "The browser's storage is not available (private mode or blocked): the notebook works in this tab's memory only. Export it to keep it.",
    frozen: "Stored notebook data can be neither read nor set aside: nothing is written so that it is not overwritten. The notebook works in memory; export it to keep it.",
    saved_again: "The notebook is saved in the browser again.",
    prediction_value: "Predicted value",
    invalid_prediction: "Write a number of 0 or more, or leave it empty.",
    step_name: |step| match step {
        Step::Predict => "Predict a boundary case",
        Step::Understand => "Understand",
        Step::Implement => "Implement",
        Step::Investigate => "Investigate",
        Step::Isolate => "Isolate the assumption",
        Step::Example => "Executable example",
        Step::Transfer => "Test and transfer",
        Step::Free => "Free note",
    },
    notice,
    write_failed: |why| {
        format!("The notebook could not be saved in the browser ({why}): it stays in this tab's memory. Export it to keep it; saving is retried on every change.")
    },
    undo_clear: |count| format!("Notebook cleared ({count} entries)."),
    clear_question: |count| format!("Clear all {count} entries? You can undo it."),
};

fn notice(notice: &Notice) -> String {
    match notice {
        Notice::KeptAside { key, why } => format!(
            "The stored notebook data could not be read ({why}). It was set aside untouched under the key “{key}” in this browser, and the notebook starts afresh."
        ),
        Notice::CouldNotKeepAside { why } => format!(
            "The stored notebook data could be neither read ({why}) nor set aside: it is left where it is."
        ),
        Notice::Migrated { from, entries } => format!(
            "The earlier notebook ({entries} entries, key “{from}”, which is kept) was brought to the current format, with sizes in exact bytes."
        ),
        Notice::LegacyUnreadable { key } => format!(
            "There is an earlier notebook under the key “{key}” that cannot be read; it is left untouched."
        ),
        Notice::UnreadableEntries { count } => format!(
            "{count} entry(ies) from another version cannot be shown here; they are kept as they are in the notebook and in every export."
        ),
        Notice::Merged { entries } => {
            format!("{entries} entry(ies) written in another tab were merged in.")
        },
        Notice::SavedAgain => NOTEBOOK.saved_again.to_string(),
        Notice::Imported(s) => format!(
            "Imported: {} new, {} updated, {} restored, {} unchanged.",
            s.added, s.updated, s.restored, s.unchanged
        ),
        Notice::ImportFailed(why) => {
            format!("Could not import: {why}. The notebook has not changed.")
        },
    }
}
