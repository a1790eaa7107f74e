//! Español: el lector de ficheros GGUF ([`crate::i18n::gguf`]).

use crate::gguf_read::{GgufLoadError, Loaded};
use crate::i18n::gguf::{GgufTexts, LoadedFigures};
use crate::i18n::Texts;
use vramfit_core::gguf::header::GgufError;
use vramfit_core::gguf::model::GgufModelError;
use vramfit_core::gguf::prefix::PrefixError;

pub static GGUF: GgufTexts = GgufTexts {
    file_label: "Un fichero GGUF",
    drop_hint: "Suelta aquí un fichero .gguf o elígelo (todas las partes de un fichero dividido): solo se lee su cabecera, nunca el fichero entero.",
    url_label: "La URL de un fichero GGUF",
    url_placeholder: "https://huggingface.co/ORG/REPO/resolve/main/MODELO-Q4_K_M.gguf",
    url_button: "Leer cabecera",
    url_hint: "Se lee con peticiones HTTP de rango: solo la cabecera (unos MB), y cada parte de un fichero dividido. La página puede llegar a huggingface.co y a los servidores a los que redirigen sus descargas (cas-bridge.xethub.hf.co, us.aws.cdn.hf.co, us.gcp.cdn.hf.co, y cdn-lfs.hf.co y cdn-lfs.huggingface.co con sus variantes -us-1 y -eu-1); la política de la página bloquea cualquier otro, y un repositorio restringido exige descargar el fichero y soltarlo aquí.",
    reading: "Leyendo la cabecera…",
    loaded,
    error,
};

fn loaded(t: &Texts, l: &Loaded) -> String {
    let f = LoadedFigures::of(t, l);
    let shards = match f.shards {
        1 => String::new(),
        n => format!(" ({n} partes)"),
    };
    let share = f
        .share
        .map(|s| format!(" ({s} del fichero)"))
        .unwrap_or_default();
    format!(
        "{}{shards}: {}, tamaño del modelo {} ({} bytes de tensores). Leídos {}{share} en {} lecturas.",
        f.file, l.model.architecture, f.size, f.size_bytes, f.read, f.requests
    )
}

fn error(e: &GgufLoadError) -> String {
    match e {
        GgufLoadError::NotGgufName { name } => {
            format!("`{name}` no es un fichero .gguf (una URL debe acabar en .gguf).")
        }
        GgufLoadError::MissingShard { name } => format!(
            "Falta una parte de este fichero dividido: suelta o elige todas las partes a la vez (`{name}` no está entre ellas)."
        ),
        GgufLoadError::Prefix { file, error } => format!("{file}: {}.", prefix(error)),
        GgufLoadError::Model { file, error } => format!("{file}: {}.", model(error)),
        GgufLoadError::Http { file, status } => {
            format!("{file}: el servidor respondió HTTP {status}.")
        }
        GgufLoadError::NoRanges { file } => format!(
            "{file}: el servidor no responde a peticiones de rango; no se descarga el fichero entero."
        ),
        GgufLoadError::Offline { file } => format!(
            "{file}: sin respuesta (sin conexión, o un servidor que la política de la página no permite)."
        ),
        GgufLoadError::Unreadable { file } => {
            format!("{file}: el navegador no pudo leer el fichero.")
        }
    }
}

fn prefix(e: &PrefixError) -> String {
    match e {
        PrefixError::Truncated { len } => {
            format!("el fichero acaba dentro de su cabecera (tras {len} bytes)")
        }
        PrefixError::Header(GgufError::UnknownTensorType { tensor, id }) => format!(
            "el tensor `{tensor}` es de tipo ggml {id}, que no se conoce; el fichero no se lee"
        ),
        PrefixError::Header(GgufError::NotGguf { .. }) => "no es un fichero GGUF".to_string(),
        PrefixError::Header(GgufError::Version { version }) => {
            format!("GGUF versión {version} (se leen las versiones 2 y 3)")
        }
        PrefixError::Header(other) => other.to_string(),
    }
}

fn model(e: &GgufModelError) -> String {
    match e {
        GgufModelError::Architecture { name } => format!(
            "la arquitectura `{name}` no se conoce, así que el fichero no se lee (conocidas: {})",
            vramfit_core::gguf::model::ARCHITECTURES.join(", ")
        ),
        GgufModelError::NoArchitecture => "el fichero no declara su arquitectura".to_string(),
        GgufModelError::MissingKey { key } => format!("al fichero le falta `{key}`"),
        other => other.to_string(),
    }
}
