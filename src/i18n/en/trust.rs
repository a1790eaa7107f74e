//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format.

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("The method changed from {from} to {to}.")
}

pub(super) const SWITCH_PREFERRED: &str = "It is the most complete method for this model and mode.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str =
    "The method you had chosen does not estimate this.";
pub(super) const SWITCH_UNDO: &str = "Undo";
pub(super) const SUMMARY_PUBLISHED: &str = "Published";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| format!(", vision tower {v} included"));
    format!("{format}: {bytes} of weights{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("includes the vision tower ({bytes})")
}
