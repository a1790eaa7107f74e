//! The texts of answers to trust: a method the page switched on its own,
//! the checkpoint's own format.

pub(super) fn switch_done(from: &str, to: &str) -> String {
    format!("El método pasó de {from} a {to}.")
}

pub(super) const SWITCH_PREFERRED: &str = "Es el método más completo para este modelo y modo.";
pub(super) const SWITCH_NO_LONGER_APPLIES: &str = "El método que elegiste no estima esto.";
pub(super) const SWITCH_UNDO: &str = "Deshacer";
pub(super) const SUMMARY_PUBLISHED: &str = "Publicado";

pub(super) fn model_published(format: &str, bytes: &str, vision: Option<&str>) -> String {
    let vision = vision.map_or(String::new(), |v| {
        format!(", torre de visión de {v} incluida")
    });
    format!("{format}: {bytes} de pesos{vision}")
}

pub(super) fn weights_with_vision(bytes: &str) -> String {
    format!("incluye la torre de visión ({bytes})")
}
