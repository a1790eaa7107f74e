//! The vramfit web app (Leptos, client-side). Everything here is built for
//! wasm32 only; the estimator itself lives in `vramfit-core`.
#![cfg(target_arch = "wasm32")]
