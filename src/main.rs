//! Entry point of the web app: mounts [`vramfit_app::App`] on the page.
//! The app only exists in the browser build (wasm32); natively this binary
//! explains where to look instead.

#[cfg(target_arch = "wasm32")]
fn main() {
    vramfit_app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("vramfit-app is the browser build: run `make serve`. The command-line tool is `vramfit` (crates/vramfit-cli).");
    std::process::exit(2);
}
