//! Het notitieboek, in het Nederlands.

use crate::notebook::persist::Notice;
use crate::notebook::texts::{NotebookTexts, Step};

pub static NOTEBOOK: NotebookTexts = NotebookTexts {
    title: "Notitieboek",
    intro: "Elke notitie bewaart wanneer, de stap van de les, het hele scenario, de versie van vramfit, je voorspelling, het resultaat en het verschil, met je notities, je tegenvoorbeeld en je transfertest. Bewaard in deze browser, in elke taal.",
    add: "Notitie toevoegen",
    export: "JSON exporteren",
    import: "JSON importeren",
    import_paste: "Of plak hier een geëxporteerd notitieboek",
    import_paste_button: "De geplakte tekst importeren",
    clear: "Alles wissen",
    confirm_clear: "Ja, alles wissen",
    cancel: "Annuleren",
    undo: "Ongedaan maken",
    undo_delete: "Notitie gewist.",
    empty: "Nog geen notities: voorspel, onthul en leg de eerste vast.",
    entries_label: "Notities in het notitieboek",
    step: "Stap",
    scenario: "Scenario",
    version: "Versie",
    prediction: "Voorspelling",
    observed: "Resultaat",
    discrepancy: "Verschil",
    notes: "Notities",
    counterexample: "Tegenvoorbeeld",
    reason: "Waarom de conclusie niet meer volgt",
    transfer_test: "Transfertest",
    none: "—",
    open: "Openen in de calculator",
    edit: "Bewerken",
    delete: "Wissen",
    save: "Opslaan",
    dismiss: "Begrepen",
    export_now: "Nu exporteren",
    quota: "De opslag van de browser is vol: het notitieboek blijft in het geheugen van dit tabblad en gaat verloren als je het sluit. Exporteer het om het te bewaren; het wordt opnieuw opgeslagen zodra er ruimte is.",
    unavailable: "De opslag van de browser is niet beschikbaar (privémodus of geblokkeerd): het notitieboek werkt alleen in het geheugen van dit tabblad. Exporteer het om het te bewaren.",
    frozen: "Er zijn opgeslagen gegevens van het notitieboek die niet te lezen en niet opzij te zetten zijn: er wordt niets geschreven, zodat ze niet worden overschreven. Het notitieboek werkt in het geheugen; exporteer het om het te bewaren.",
    saved_again: "Het notitieboek is weer in de browser opgeslagen.",
    prediction_value: "Voorspelde waarde",
    invalid_prediction: "Schrijf een getal van 0 of meer, of laat het leeg.",
    step_name: |step| match step {
        Step::Predict => "Een grensgeval voorspellen",
        Step::Understand => "Begrijpen",
        Step::Implement => "Uitvoeren",
        Step::Investigate => "Onderzoeken",
        Step::Isolate => "De aanname isoleren",
        Step::Example => "Uitvoerbaar voorbeeld",
        Step::Transfer => "Test en transfer",
        Step::Free => "Vrije notitie",
    },
    notice,
    write_failed: |why| {
        format!("Het notitieboek kon niet in de browser worden opgeslagen ({why}): het blijft in het geheugen van dit tabblad. Exporteer het om het te bewaren; bij elke wijziging wordt opnieuw geprobeerd.")
    },
    undo_clear: |count| format!("Notitieboek gewist ({count} notities)."),
    clear_question: |count| format!("Alle {count} notities wissen? Je kunt het ongedaan maken."),
};

fn notice(notice: &Notice) -> String {
    match notice {
        Notice::KeptAside { key, why } => format!(
            "De opgeslagen gegevens van het notitieboek waren niet te lezen ({why}). Ze zijn onaangeroerd opzijgezet onder de sleutel ‘{key}’ in deze browser, en het notitieboek begint opnieuw."
        ),
        Notice::CouldNotKeepAside { why } => format!(
            "De opgeslagen gegevens van het notitieboek waren niet te lezen ({why}) en niet opzij te zetten: ze blijven waar ze zijn."
        ),
        Notice::Migrated { from, entries } => format!(
            "Het eerdere notitieboek ({entries} notities, sleutel ‘{from}’, die bewaard blijft) is naar de huidige vorm gebracht, met groottes in exacte bytes."
        ),
        Notice::LegacyUnreadable { key } => format!(
            "Er staat een eerder notitieboek onder de sleutel ‘{key}’ dat niet te lezen is; het blijft onaangeroerd."
        ),
        Notice::UnreadableEntries { count } => format!(
            "{count} notitie(s) van een andere versie kunnen hier niet worden getoond; ze blijven zoals ze zijn in het notitieboek en in elke export."
        ),
        Notice::Merged { entries } => {
            format!("{entries} notitie(s) uit een ander tabblad zijn samengevoegd.")
        }
        Notice::SavedAgain => NOTEBOOK.saved_again.to_string(),
        Notice::Imported(s) => format!(
            "Geïmporteerd: {} nieuw, {} bijgewerkt, {} teruggezet, {} ongewijzigd.",
            s.added, s.updated, s.restored, s.unchanged
        ),
        Notice::ImportFailed(why) => {
            format!("Importeren is niet gelukt: {why}. Het notitieboek is niet gewijzigd.")
        }
    }
}
