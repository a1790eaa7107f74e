//! Nederlands: de GGUF-bestandslezer ([`crate::i18n::gguf`]).

use crate::gguf_read::{GgufLoadError, Loaded};
use crate::i18n::gguf::{GgufTexts, LoadedFigures};
use crate::i18n::Texts;
use vramfit_core::gguf::header::GgufError;
use vramfit_core::gguf::model::GgufModelError;
use vramfit_core::gguf::prefix::PrefixError;

pub static GGUF: GgufTexts = GgufTexts {
    file_label: "Een GGUF-bestand",
    drop_hint: "Sleep hier een .gguf-bestand heen of kies het (alle delen van een gesplitst bestand): alleen de header wordt gelezen, nooit het hele bestand.",
    url_label: "De URL van een GGUF-bestand",
    url_placeholder: "https://huggingface.co/ORG/REPO/resolve/main/MODEL-Q4_K_M.gguf",
    url_button: "Header lezen",
    url_hint: "Gelezen met HTTP-range-verzoeken: alleen de header (enkele MB), en elk deel van een gesplitst bestand. De pagina mag huggingface.co bereiken en de hosts waar de downloads heen verwijzen (cas-bridge.xethub.hf.co, us.aws.cdn.hf.co, us.gcp.cdn.hf.co, en cdn-lfs.hf.co en cdn-lfs.huggingface.co met hun -us-1- en -eu-1-hosts); elke andere host blokkeert het beleid van de pagina, en voor een afgeschermde repository download je het bestand en sleep je het hierheen.",
    reading: "De header wordt gelezen…",
    loaded,
    error,
};

fn loaded(t: &Texts, l: &Loaded) -> String {
    let f = LoadedFigures::of(t, l);
    let shards = match f.shards {
        1 => String::new(),
        n => format!(" ({n} delen)"),
    };
    let share = f
        .share
        .map(|s| format!(" ({s} van het bestand)"))
        .unwrap_or_default();
    format!(
        "{}{shards}: {}, modelgrootte {} ({} bytes aan tensoren). {} gelezen{share} in {} leesacties.",
        f.file, l.model.architecture, f.size, f.size_bytes, f.read, f.requests
    )
}

fn error(e: &GgufLoadError) -> String {
    match e {
        GgufLoadError::NotGgufName { name } => {
            format!("`{name}` is geen .gguf-bestand (een URL moet op .gguf eindigen).")
        }
        GgufLoadError::MissingShard { name } => format!(
            "Er ontbreekt een deel van dit gesplitste bestand: sleep of kies alle delen tegelijk (`{name}` zit er niet bij)."
        ),
        GgufLoadError::Prefix { file, error } => format!("{file}: {}.", prefix(error)),
        GgufLoadError::Model { file, error } => format!("{file}: {}.", model(error)),
        GgufLoadError::Http { file, status } => {
            format!("{file}: de server antwoordde HTTP {status}.")
        }
        GgufLoadError::NoRanges { file } => format!(
            "{file}: de server beantwoordt geen range-verzoeken; het hele bestand wordt niet gedownload."
        ),
        GgufLoadError::Offline { file } => format!(
            "{file}: geen antwoord (offline, of een host die het beleid van de pagina niet toestaat)."
        ),
        GgufLoadError::Unreadable { file } => {
            format!("{file}: de browser kon het bestand niet lezen.")
        }
    }
}

fn prefix(e: &PrefixError) -> String {
    match e {
        PrefixError::Truncated { len } => {
            format!("het bestand eindigt binnen zijn header (na {len} bytes)")
        }
        PrefixError::Header(GgufError::UnknownTensorType { tensor, id }) => format!(
            "tensor `{tensor}` heeft ggml-type {id}, dat niet bekend is; het bestand wordt niet gelezen"
        ),
        PrefixError::Header(GgufError::NotGguf { .. }) => "geen GGUF-bestand".to_string(),
        PrefixError::Header(GgufError::Version { version }) => {
            format!("GGUF-versie {version} (versies 2 en 3 worden gelezen)")
        }
        PrefixError::Header(other) => other.to_string(),
    }
}

fn model(e: &GgufModelError) -> String {
    match e {
        GgufModelError::Architecture { name } => format!(
            "architectuur `{name}` is niet bekend, dus het bestand wordt niet gelezen (bekend: {})",
            vramfit_core::gguf::model::ARCHITECTURES.join(", ")
        ),
        GgufModelError::NoArchitecture => "het bestand noemt geen architectuur".to_string(),
        GgufModelError::MissingKey { key } => format!("het bestand mist `{key}`"),
        other => other.to_string(),
    }
}
