//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format.

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("De methode ging van {from} naar {to}.")
}

pub(super) const SWITCH_PREFERRED: &str =
    "Het is de meest volledige methode voor dit model en deze modus.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str = "De methode die je koos schat dit niet.";
pub(super) const SWITCH_UNDO: &str = "Ongedaan maken";
pub(super) const SUMMARY_PUBLISHED: &str = "Gepubliceerd";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| {
        format!(", vision-toren van {v} inbegrepen")
    });
    format!("{format}: {bytes} aan gewichten{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("inclusief de vision-toren ({bytes})")
}

pub(super) fn chart_model_max(n: &str) -> String {
    format!("De as eindigt bij de maximale context van het model: {n} tokens (max_position_embeddings).")
}

pub(super) const ANSWER_MODEL_MAX: &str = "(het maximum van het model, max_position_embeddings)";
pub(super) const ANSWER_INPUT_MAX: &str = "(de grootste toegestane waarde; er past misschien meer)";

pub(super) fn context_over_model_max(n: &str) -> String {
    format!("Boven de maximale context van het model ({n} tokens, max_position_embeddings): het is niet op deze lengte getraind.")
}

pub(super) const STALE_FIGURES: &str =
    "De cijfers hieronder horen bij de laatste invoer die werkte; ze beantwoorden de huidige niet.";
pub(super) const WAY_OUT_METHODS: &str = "Methoden die dit wel schatten:";
pub(super) const WAY_OUT_NONE: &str =
    "Geen methode schat deze invoer: verander de modus, het model of de GPU's.";
pub(super) const WAY_OUT_LAYOUT: &str = "Laat vramfit TP en PP afleiden uit het aantal GPU's";
pub(super) const WAY_OUT_FIELD: &str =
    "Verbeter het rood gemarkeerde veld: de hint zegt wat het aanneemt.";
pub(super) const WAY_OUT_MODEL: &str =
    "Kies een model (catalogus, config.json of Hub) of een ander gewichtsformaat.";

pub(super) fn total_per_gpu(n: u64) -> String {
    match n {
        0 | 1 => "Geschat totaal (één GPU)".to_string(),
        n => format!("Per GPU (elk van {n}, het budget van de zwaarst belaste)"),
    }
}

pub(super) fn total_all_gpus(n: u64, bytes: &str) -> String {
    format!("Alle {n} GPU's: {bytes}")
}

pub(super) const COL_GPUS: &str = "GPU's";
pub(super) const COL_ALL_GPUS: &str = "Alle GPU's";

pub(super) const USE_CACHE: &str = "KV-cache in de forward (use_cache, standaard in transformers)";
