//! vramfit's estimator core: pure, deterministic, no web crates.
//!
//! - [`scenario`]: typed input, validated once at the edge;
//! - [`methods`]: one module per seed method, each a total function;
//! - [`verdict`]: the four ring states and headroom/shortfall;
//! - [`units`]: integer bytes, labelled GB (10⁹) and GiB (2³⁰);
//! - [`report`]: the `vramfit/1` JSON document shared by CLI and app.

pub mod advice;
pub mod calibrate;
pub mod catalog;
pub mod gguf;
pub mod kit;
pub mod methods;
pub mod model;
pub mod report;
pub mod request;
pub mod scenario;
pub mod table;
pub mod term;
pub mod units;
pub mod validation;
pub mod verdict;
