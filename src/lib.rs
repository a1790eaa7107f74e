//! The vramfit web app (Leptos, client-side rendering).
//!
//! Everything here is built for wasm32 only; the estimator lives in
//! `vramfit-core`, and this crate only reads its results. One memo holds the
//! report ([`app::App`]); every component reads from it. Texts come from
//! [`i18n`] (Spanish, English, Dutch), numbers are written there too.
#![cfg(target_arch = "wasm32")]

pub mod advice_panel;
pub mod app;
pub mod components;
pub mod curve;
pub mod download;
pub mod figures;
pub mod i18n;
pub mod import;
pub mod learn;
pub mod lesson;
pub mod model_panel;
pub mod net;
pub mod notebook;
pub mod panic;
pub mod share;
pub mod training_panel;

pub use app::App;

/// Mounts the app on `<body>`. A panic prints its message to the console
/// and leaves a recoverable message on the page ([`panic::install`]).
pub fn start() {
    panic::install();
    leptos::mount::mount_to_body(App);
}
