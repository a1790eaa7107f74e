//! Every word of the notebook, in Spanish and English (see
//! [`crate::lesson::text`] for the language and number formats).

use super::persist::Notice;
use crate::lesson::text::{short, Lang};
use vramfit_core::request::Request;
use vramfit_core::scenario::{Mode, ModelRef};

/// The fixed wording of the notebook.
pub struct Texts {
    pub title: &'static str,
    pub intro: &'static str,
    pub add: &'static str,
    pub export: &'static str,
    pub import: &'static str,
    pub import_paste: &'static str,
    pub import_paste_button: &'static str,
    pub clear: &'static str,
    pub confirm_clear: &'static str,
    pub cancel: &'static str,
    pub undo: &'static str,
    pub undo_delete: &'static str,
    pub empty: &'static str,
    pub entries_label: &'static str,
    pub step: &'static str,
    pub scenario: &'static str,
    pub version: &'static str,
    pub prediction: &'static str,
    pub observed: &'static str,
    pub discrepancy: &'static str,
    pub notes: &'static str,
    pub counterexample: &'static str,
    pub transfer_test: &'static str,
    pub none: &'static str,
    pub open: &'static str,
    pub edit: &'static str,
    pub delete: &'static str,
    pub save: &'static str,
    pub dismiss: &'static str,
    pub export_now: &'static str,
    pub quota: &'static str,
    pub unavailable: &'static str,
    pub frozen: &'static str,
    pub saved_again: &'static str,
    pub prediction_value: &'static str,
    pub invalid_prediction: &'static str,
}

static ES: Texts = Texts {
    title: "Cuaderno",
    intro: "Cada entrada guarda cuándo, el paso de la lección, el escenario completo, la versión de vramfit, tu predicción, el resultado y la discrepancia, con tus notas, tu contraejemplo y tu prueba de transferencia. Se guarda en este navegador, en cualquier idioma.",
    add: "Añadir entrada",
    export: "Exportar JSON",
    import: "Importar JSON",
    import_paste: "O pega aquí un cuaderno exportado",
    import_paste_button: "Importar el texto pegado",
    clear: "Borrar todo",
    confirm_clear: "Sí, borrar todo",
    cancel: "Cancelar",
    undo: "Deshacer",
    undo_delete: "Entrada borrada.",
    empty: "Aún no hay entradas: predice, revela y registra la primera.",
    entries_label: "Entradas del cuaderno",
    step: "Paso",
    scenario: "Escenario",
    version: "Versión",
    prediction: "Predicción",
    observed: "Resultado",
    discrepancy: "Discrepancia",
    notes: "Notas",
    counterexample: "Contraejemplo",
    transfer_test: "Prueba de transferencia",
    none: "—",
    open: "Abrir en la calculadora",
    edit: "Editar",
    delete: "Borrar",
    save: "Guardar",
    dismiss: "Entendido",
    export_now: "Exportar ahora",
    quota: "El almacenamiento del navegador está lleno: el cuaderno sigue en la memoria de esta pestaña y se perderá al cerrarla. Expórtalo para conservarlo; se volverá a guardar en cuanto haya sitio.",
    unavailable: "El almacenamiento del navegador no está disponible (modo privado o bloqueado): el cuaderno funciona solo en la memoria de esta pestaña. Expórtalo para conservarlo.",
    frozen: "Hay datos guardados del cuaderno que no se pueden leer ni apartar: no se escribe nada para no sobrescribirlos. El cuaderno funciona en memoria; expórtalo para conservarlo.",
    saved_again: "El cuaderno vuelve a estar guardado en el navegador.",
    prediction_value: "Valor previsto",
    invalid_prediction: "Escribe un número mayor o igual que 0, o déjalo vacío.",
};

static EN: Texts = Texts {
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
};

/// The notebook's wording in `lang`.
pub fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::Es => &ES,
        Lang::En => &EN,
    }
}

/// The lesson steps an entry can belong to: (id, Spanish, English).
pub const STEPS: [(&str, &str, &str); 8] = [
    (
        "predict",
        "Predecir un caso límite",
        "Predict a boundary case",
    ),
    ("understand", "Comprender", "Understand"),
    ("implement", "Implementar", "Implement"),
    ("investigate", "Investigar", "Investigate"),
    ("isolate", "Aislar la suposición", "Isolate the assumption"),
    ("example", "Ejemplo ejecutable", "Executable example"),
    ("transfer", "Prueba y transferencia", "Test and transfer"),
    ("free", "Nota libre", "Free note"),
];

/// A step's name; an unknown id (from another version) as it is.
pub fn step_name(lang: Lang, id: &str) -> String {
    STEPS
        .iter()
        .find(|(step, _, _)| *step == id)
        .map(|(_, es, en)| match lang {
            Lang::Es => es.to_string(),
            Lang::En => en.to_string(),
        })
        .unwrap_or_else(|| id.to_string())
}

/// One line that identifies a scenario.
pub fn scenario_summary(lang: Lang, request: &Request) -> String {
    let s = &request.scenario;
    let model = match &s.model {
        Some(ModelRef::Catalog(id)) => id.clone(),
        Some(ModelRef::Config(_)) => "config.json".to_string(),
        None => format!("{}B", short(lang, s.params_b)),
    };
    let format = match s.weight_format {
        Some(f) => f.label().to_string(),
        None => format!("{} bits", short(lang, s.weight_bits)),
    };
    let gpu = match &s.gpu {
        Some(name) => name.clone(),
        None => format!("{} GB", short(lang, s.gpu_memory_gb)),
    };
    let mode = match (lang, s.mode) {
        (Lang::Es, Mode::Inference) => "inferencia",
        (Lang::Es, Mode::Full) => "ajuste completo",
        (Lang::En, Mode::Inference) => "inference",
        (Lang::En, Mode::Full) => "full fine-tuning",
        (_, Mode::Lora) => "LoRA",
        (_, Mode::Qlora) => "QLoRA",
    };
    format!(
        "{} · {mode} · {model} · {format} · {} × {} tokens · GPU {gpu}",
        request.method.id(),
        s.batch,
        s.context
    )
}

/// A notice in words.
pub fn notice(lang: Lang, notice: &Notice) -> String {
    match (lang, notice) {
        (Lang::Es, Notice::KeptAside { key, why }) => format!(
            "Los datos guardados del cuaderno no se podían leer ({why}). Se han apartado sin tocarlos en la clave «{key}» de este navegador y el cuaderno empieza de nuevo."
        ),
        (Lang::En, Notice::KeptAside { key, why }) => format!(
            "The stored notebook data could not be read ({why}). It was set aside untouched under the key “{key}” in this browser, and the notebook starts afresh."
        ),
        (Lang::Es, Notice::CouldNotKeepAside { why }) => format!(
            "Los datos guardados del cuaderno no se podían leer ({why}) ni apartar: se dejan donde están."
        ),
        (Lang::En, Notice::CouldNotKeepAside { why }) => format!(
            "The stored notebook data could be neither read ({why}) nor set aside: it is left where it is."
        ),
        (Lang::Es, Notice::Migrated { from, entries }) => format!(
            "Se ha traído el cuaderno anterior ({entries} entradas, clave «{from}», que se conserva) al formato actual, con los tamaños en bytes exactos."
        ),
        (Lang::En, Notice::Migrated { from, entries }) => format!(
            "The earlier notebook ({entries} entries, key “{from}”, which is kept) was brought to the current format, with sizes in exact bytes."
        ),
        (Lang::Es, Notice::LegacyUnreadable { key }) => format!(
            "Hay un cuaderno anterior en la clave «{key}» que no se puede leer; se deja sin tocar."
        ),
        (Lang::En, Notice::LegacyUnreadable { key }) => format!(
            "There is an earlier notebook under the key “{key}” that cannot be read; it is left untouched."
        ),
        (Lang::Es, Notice::UnreadableEntries { count }) => format!(
            "{count} entrada(s) de otra versión no se pueden mostrar aquí; se conservan tal cual en el cuaderno y en cada exportación."
        ),
        (Lang::En, Notice::UnreadableEntries { count }) => format!(
            "{count} entry(ies) from another version cannot be shown here; they are kept as they are in the notebook and in every export."
        ),
        (Lang::Es, Notice::Merged { entries }) => {
            format!("Se han añadido {entries} entrada(s) escritas en otra pestaña.")
        }
        (Lang::En, Notice::Merged { entries }) => {
            format!("{entries} entry(ies) written in another tab were merged in.")
        }
        (_, Notice::SavedAgain) => texts(lang).saved_again.to_string(),
        (Lang::Es, Notice::Imported(s)) => format!(
            "Importado: {} nueva(s), {} actualizada(s), {} recuperada(s), {} sin cambios.",
            s.added, s.updated, s.restored, s.unchanged
        ),
        (Lang::En, Notice::Imported(s)) => format!(
            "Imported: {} new, {} updated, {} restored, {} unchanged.",
            s.added, s.updated, s.restored, s.unchanged
        ),
        (Lang::Es, Notice::ImportFailed(why)) => {
            format!("No se pudo importar: {why}. El cuaderno no ha cambiado.")
        }
        (Lang::En, Notice::ImportFailed(why)) => {
            format!("Could not import: {why}. The notebook has not changed.")
        }
    }
}

/// A write that failed for a reason other than the quota.
pub fn write_failed(lang: Lang, why: &str) -> String {
    match lang {
        Lang::Es => format!(
            "No se pudo guardar el cuaderno en el navegador ({why}): sigue en la memoria de esta pestaña. Expórtalo para conservarlo; se volverá a intentar en cada cambio."
        ),
        Lang::En => format!(
            "The notebook could not be saved in the browser ({why}): it stays in this tab's memory. Export it to keep it; saving is retried on every change."
        ),
    }
}

/// The line offering to undo a clear.
pub fn undo_clear(lang: Lang, count: usize) -> String {
    match lang {
        Lang::Es => format!("Cuaderno borrado ({count} entradas)."),
        Lang::En => format!("Notebook cleared ({count} entries)."),
    }
}

/// The question before clearing.
pub fn clear_question(lang: Lang, count: usize) -> String {
    match lang {
        Lang::Es => format!("¿Borrar las {count} entradas? Podrás deshacerlo."),
        Lang::En => format!("Clear all {count} entries? You can undo it."),
    }
}
