//! One language per load: each language's page table ([`Texts`]) in a
//! chunk of its own.
//!
//! With the feature `split`, [`Lang::t`] reads the tables loaded so far
//! rather than naming the three statics, and each language's table is
//! reached only through its split point here (`lang_es`, `lang_en`,
//! `lang_nl`): the table, with every function it holds, leaves the main
//! module for its chunk. The app loads the visitor's language before it
//! mounts ([`crate::start`]) and another one when it is chosen
//! ([`crate::components::lang`]); a visitor downloads one language. The
//! tables themselves (`es/`, `en/`, `nl/`) are written as before. Without
//! the feature, [`load`] answers at once and [`Lang::t`] names the statics.

use super::{en, es, nl, Lang, Texts};
use crate::parts::ChunkUnavailable;
use std::sync::OnceLock;

/// The tables loaded so far, by [`Lang`] index.
static LOADED: [OnceLock<&'static Texts>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(lang_es, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn spanish() -> Result<&'static Texts, ChunkUnavailable> {
    Ok(&es::TEXTS)
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(lang_en, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn english() -> Result<&'static Texts, ChunkUnavailable> {
    Ok(&en::TEXTS)
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(lang_nl, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn dutch() -> Result<&'static Texts, ChunkUnavailable> {
    Ok(&nl::TEXTS)
}

/// `lang`'s table, fetched if it has not been.
pub async fn load(lang: Lang) -> Result<&'static Texts, ChunkUnavailable> {
    if let Some(texts) = loaded(lang) {
        return Ok(texts);
    }
    let texts = match lang {
        Lang::Es => crate::split_call!(spanish())?,
        Lang::En => crate::split_call!(english())?,
        Lang::Nl => crate::split_call!(dutch())?,
    };
    Ok(LOADED[lang.slot()].get_or_init(|| texts))
}

/// `lang`'s table if it has been loaded ([`load`]; without the feature
/// `split`, every table always is).
pub fn loaded(lang: Lang) -> Option<&'static Texts> {
    #[cfg(not(feature = "split"))]
    return Some(lang.t());
    #[cfg(feature = "split")]
    LOADED[lang.slot()].get().copied()
}

/// `lang`'s table, else another loaded one. The app loads the visitor's
/// language before it mounts, so some table is always there once anything
/// is on screen; before that this is a programming error.
#[cfg(feature = "split")]
pub(super) fn get(lang: Lang) -> &'static Texts {
    loaded(lang)
        .or_else(|| Lang::ALL.into_iter().find_map(loaded))
        .expect("a language table is loaded before the app mounts")
}
