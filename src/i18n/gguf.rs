//! What the GGUF file reader of the model input says (the `model` chunk,
//! [`crate::gguf_read`]): one table per language, reached only from that
//! chunk, so none of it is in the first load. A new language does not
//! compile until [`texts`] names its table.

use super::Lang;
use crate::gguf_read::{GgufLoadError, Loaded};

/// The reader's texts in one language.
pub struct GgufTexts {
    /// The file picker's label and the drop zone's line.
    pub file_label: &'static str,
    pub drop_hint: &'static str,
    /// The URL field, its placeholder, button and what the fetch needs.
    pub url_label: &'static str,
    pub url_placeholder: &'static str,
    pub url_button: &'static str,
    pub url_hint: &'static str,
    /// While the header is read.
    pub reading: &'static str,
    /// The file read: what it holds and what reading it took.
    pub loaded: fn(&crate::i18n::Texts, &Loaded) -> String,
    /// Why the file was not read.
    pub error: fn(&GgufLoadError) -> String,
}

/// The table of `lang`.
pub fn texts(lang: Lang) -> &'static GgufTexts {
    match lang {
        Lang::Es => &super::es::gguf::GGUF,
        Lang::En => &super::en::gguf::GGUF,
        Lang::Nl => &super::nl::gguf::GGUF,
    }
}

/// The numbers of a [`Loaded`] in `t`'s style: file name, shards, model
/// size in GiB and exact bytes, bytes read, the share of the file, reads.
pub struct LoadedFigures {
    pub file: String,
    pub shards: u64,
    pub size: String,
    pub size_bytes: String,
    pub read: String,
    /// `None` when the server did not say the file's length.
    pub share: Option<String>,
    pub requests: String,
}

impl LoadedFigures {
    pub fn of(t: &crate::i18n::Texts, l: &Loaded) -> LoadedFigures {
        use super::format;
        use vramfit_core::units::{Bytes, DisplayUnit};
        let n = &t.number;
        let tensor_bytes = l.model.tensor_bytes();
        LoadedFigures {
            file: l.model.file.clone(),
            shards: l.model.shards,
            size: format::bytes(n, DisplayUnit::Gib, Bytes(tensor_bytes)),
            size_bytes: format::integer(n, tensor_bytes),
            read: format!("{} MB", format::decimal(n, l.bytes_read as f64 / 1e6, 1)),
            share: l.file_bytes.filter(|&f| f > 0).map(|f| {
                let pct = l.bytes_read as f64 * 100.0 / f as f64;
                format!("{}{}%", format::decimal(n, pct, 2), n.percent_sep)
            }),
            requests: format::integer(n, l.requests),
        }
    }
}
