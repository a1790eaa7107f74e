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
