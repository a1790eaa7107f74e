//! The vramfit web app (Leptos, client-side rendering).
//!
//! Everything here is built for wasm32 only; the estimator lives in
//! `vramfit-core`, and this crate only reads its results. One memo holds the
//! report ([`app::App`]); every component reads from it. Texts come from
//! [`i18n`] (Spanish, English, Dutch), numbers are written there too.
#![cfg(target_arch = "wasm32")]

pub mod advanced_panel;
pub mod advice_panel;
pub mod app;
pub mod catalog_file;
pub mod components;
pub mod curve;
pub mod details;
pub mod download;
pub mod figures;
pub mod first;
pub mod gguf_read;
pub mod i18n;
pub mod import;
pub mod learn;
pub mod lesson;
pub mod model_list;
pub mod model_panel;
pub mod model_part;
pub mod net;
pub mod notebook;
pub mod panic;
pub mod parts;
pub mod share;
pub mod styles;
pub mod training_panel;

pub use app::App;

/// Mounts the app on `<body>` once the visitor's language table is here
/// ([`i18n::tables`]: with the feature `split` it is a chunk of its own). A
/// panic prints its message to the console and leaves a recoverable
/// message on the page ([`panic::install`]); so does a language table that
/// cannot be fetched.
pub fn start() {
    panic::install();
    wasm_bindgen_futures::spawn_local(async {
        match i18n::tables::load(i18n::initial_lang()).await {
            Ok(_) => leptos::mount::mount_to_body(App),
            Err(parts::ChunkUnavailable) => {
                panic::show_panic_message("the language table could not be fetched")
            }
        }
    });
}
