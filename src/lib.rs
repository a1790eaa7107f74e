//! The vramfit web app (Leptos, client-side rendering).
//!
//! Everything here is built for wasm32 only; the estimator lives in
//! `vramfit-core`, and this crate only reads its results. One memo holds the
//! report ([`app::App`]); every component reads from it.
#![cfg(target_arch = "wasm32")]

pub mod advice_panel;
pub mod app;
pub mod components;
pub mod download;
pub mod model_panel;
pub mod text;
pub mod training_panel;

pub use app::App;

/// Mounts the app on `<body>`. A panic prints its message to the console
/// instead of failing silently.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
