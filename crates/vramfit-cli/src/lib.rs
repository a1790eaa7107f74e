//! The command line of vramfit as text: a request written as the
//! `vramfit` arguments that reproduce it ([`line`]), and the names of the
//! options both directions use. No argument parser is compiled into this
//! library (the binary's is, behind the `cli` feature), so the web app can
//! show the line without clap in its wasm.

pub mod line;
