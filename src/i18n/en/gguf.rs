//! English: the GGUF file reader ([`crate::i18n::gguf`]).

use crate::gguf_read::{GgufLoadError, Loaded};
use crate::i18n::gguf::{GgufTexts, LoadedFigures};
use crate::i18n::Texts;
use vramfit_core::gguf::header::GgufError;
use vramfit_core::gguf::model::GgufModelError;
use vramfit_core::gguf::prefix::PrefixError;

pub static GGUF: GgufTexts = GgufTexts {
    file_label: "A GGUF file",
    drop_hint: "Drop a .gguf file here or choose it (every shard of a split file): only its header is read, never the whole file.",
    url_label: "A GGUF file's URL",
    url_placeholder: "https://huggingface.co/ORG/REPO/resolve/main/MODEL-Q4_K_M.gguf",
    url_button: "Read header",
    url_hint: "Read by HTTP range requests: the header only (a few MB), and every shard of a split file. The page may reach huggingface.co and the hosts its downloads redirect to (cas-bridge.xethub.hf.co, us.aws.cdn.hf.co, us.gcp.cdn.hf.co, and cdn-lfs.hf.co and cdn-lfs.huggingface.co with their -us-1 and -eu-1 hosts); any other host is blocked by the page's policy, and a gated repository needs its file downloaded and dropped here.",
    reading: "Reading the header…",
    loaded,
    error,
};

fn loaded(t: &Texts, l: &Loaded) -> String {
    let f = LoadedFigures::of(t, l);
    let shards = match f.shards {
        1 => String::new(),
        n => format!(" ({n} shards)"),
    };
    let share = f
        .share
        .map(|s| format!(" ({s} of the file)"))
        .unwrap_or_default();
    format!(
        "{}{shards}: {}, model size {} ({} bytes of tensors). Read {}{share} in {} reads.",
        f.file, l.model.architecture, f.size, f.size_bytes, f.read, f.requests
    )
}

fn error(e: &GgufLoadError) -> String {
    match e {
        GgufLoadError::NotGgufName { name } => {
            format!("`{name}` is not a .gguf file (a URL must end in .gguf).")
        }
        GgufLoadError::MissingShard { name } => format!(
            "A shard of this split file is missing: drop or choose every shard together (`{name}` is not among them)."
        ),
        GgufLoadError::Prefix { file, error } => format!("{file}: {}.", prefix(error)),
        GgufLoadError::Model { file, error } => format!("{file}: {}.", model(error)),
        GgufLoadError::Http { file, status } => {
            format!("{file}: the server answered HTTP {status}.")
        }
        GgufLoadError::NoRanges { file } => format!(
            "{file}: the server does not answer range requests; the whole file is not downloaded."
        ),
        GgufLoadError::Offline { file } => format!(
            "{file}: no answer (offline, or a host the page's policy does not allow)."
        ),
        GgufLoadError::Unreadable { file } => format!("{file}: the browser could not read the file."),
    }
}

fn prefix(e: &PrefixError) -> String {
    match e {
        PrefixError::Truncated { len } => {
            format!("the file ends inside its header (after {len} bytes)")
        }
        PrefixError::Header(GgufError::UnknownTensorType { tensor, id }) => {
            format!(
                "tensor `{tensor}` has ggml type {id}, which is not known; the file is not read"
            )
        }
        PrefixError::Header(GgufError::NotGguf { .. }) => "not a GGUF file".to_string(),
        PrefixError::Header(GgufError::Version { version }) => {
            format!("GGUF version {version} (versions 2 and 3 are read)")
        }
        PrefixError::Header(other) => other.to_string(),
    }
}

fn model(e: &GgufModelError) -> String {
    match e {
        GgufModelError::Architecture { name } => format!(
            "architecture `{name}` is not known, so the file is not read (known: {})",
            vramfit_core::gguf::model::ARCHITECTURES.join(", ")
        ),
        GgufModelError::NoArchitecture => "the file states no architecture".to_string(),
        GgufModelError::MissingKey { key } => format!("the file lacks `{key}`"),
        other => other.to_string(),
    }
}
