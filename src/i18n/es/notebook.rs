//! El cuaderno, en español.

use crate::notebook::persist::Notice;
use crate::notebook::texts::{NotebookTexts, Step};

pub static NOTEBOOK: NotebookTexts = NotebookTexts {
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
    reason: "Por qué rompe la conclusión",
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
    step_name: |step| match step {
        Step::Predict => "Predecir un caso límite",
        Step::Understand => "Comprender",
        Step::Implement => "Implementar",
        Step::Investigate => "Investigar",
        Step::Isolate => "Aislar la suposición",
        Step::Example => "Ejemplo ejecutable",
        Step::Transfer => "Prueba y transferencia",
        Step::Free => "Nota libre",
    },
    notice,
    write_failed: |why| {
        format!("No se pudo guardar el cuaderno en el navegador ({why}): sigue en la memoria de esta pestaña. Expórtalo para conservarlo; se volverá a intentar en cada cambio.")
    },
    undo_clear: |count| format!("Cuaderno borrado ({count} entradas)."),
    clear_question: |count| format!("¿Borrar las {count} entradas? Podrás deshacerlo."),
};

fn notice(notice: &Notice) -> String {
    match notice {
        Notice::KeptAside { key, why } => format!(
            "Los datos guardados del cuaderno no se podían leer ({why}). Se han apartado sin tocarlos en la clave «{key}» de este navegador y el cuaderno empieza de nuevo."
        ),
        Notice::CouldNotKeepAside { why } => format!(
            "Los datos guardados del cuaderno no se podían leer ({why}) ni apartar: se dejan donde están."
        ),
        Notice::Migrated { from, entries } => format!(
            "Se ha traído el cuaderno anterior ({entries} entradas, clave «{from}», que se conserva) al formato actual, con los tamaños en bytes exactos."
        ),
        Notice::LegacyUnreadable { key } => format!(
            "Hay un cuaderno anterior en la clave «{key}» que no se puede leer; se deja sin tocar."
        ),
        Notice::UnreadableEntries { count } => format!(
            "{count} entrada(s) de otra versión no se pueden mostrar aquí; se conservan tal cual en el cuaderno y en cada exportación."
        ),
        Notice::Merged { entries } => {
            format!("Se han añadido {entries} entrada(s) escritas en otra pestaña.")
        },
        Notice::SavedAgain => NOTEBOOK.saved_again.to_string(),
        Notice::Imported(s) => format!(
            "Importado: {} nueva(s), {} actualizada(s), {} recuperada(s), {} sin cambios.",
            s.added, s.updated, s.restored, s.unchanged
        ),
        Notice::ImportFailed(why) => {
            format!("No se pudo importar: {why}. El cuaderno no ha cambiado.")
        },
    }
}
