//! Checked-in catalogs, embedded in the binary and parsed once.
//!
//! - [`gpus`]: accelerators with their marketed memory (decimal GB), the
//!   exact capacity it denotes, the total a driver reports where known,
//!   unified memory with macOS's default GPU limit, memory bandwidth and
//!   dense tensor throughput, each with its sources, from `data/gpus.json`;
//! - [`models`]: the checked-in `config.json` files of `data/configs/`
//!   with one row each in `data/models.json` (provenance, published
//!   parameter counts, family and tags), whether vramfit can compute each
//!   (the config reader's verdict) and a listing searchable by name and
//!   size;
//! - [`fuzzy`]: edit distance and "did you mean" suggestions shared by
//!   every catalog lookup.
//!
//! Lookups never panic: a name that resolves to nothing comes back as a
//! [`NotFound`] carrying up to [`fuzzy::MAX_SUGGESTIONS`] close names.

pub mod fuzzy;
pub mod gpus;
pub mod models;

pub use gpus::{find_gpu, Gpu, GpuCategory};
pub use models::{find_model, list_models, ModelCatalog, ModelEntry, ModelListing};

use serde::Serialize;
use std::fmt;

/// A lookup that did not resolve to exactly one entry.
///
/// Returned both for a miss (then `suggestions` are the closest names by
/// edit distance, possibly none) and for a query that matches several
/// entries with no documented default (then `suggestions` are those
/// entries, closest first). At most [`fuzzy::MAX_SUGGESTIONS`] names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotFound {
    /// The query as given.
    pub query: String,
    /// Full catalog names to offer instead, closest first.
    pub suggestions: Vec<String>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no catalog entry matches \"{}\"", self.query)?;
        if !self.suggestions.is_empty() {
            write!(f, "; did you mean {}?", self.suggestions.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for NotFound {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_says_what_to_try() {
        let miss = NotFound {
            query: "RTX 4909".into(),
            suggestions: vec!["NVIDIA GeForce RTX 4090".into()],
        };
        assert_eq!(
            miss.to_string(),
            "no catalog entry matches \"RTX 4909\"; did you mean NVIDIA GeForce RTX 4090?"
        );
        let bare = NotFound {
            query: "toaster".into(),
            suggestions: vec![],
        };
        assert_eq!(bare.to_string(), "no catalog entry matches \"toaster\"");
    }
}
