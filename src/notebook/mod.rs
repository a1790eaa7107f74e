//! The learning notebook: predictions, results, discrepancies and notes,
//! each with the full scenario it was made for, kept in the browser.
//!
//! - [`store`]: the data model, its JSON versions, merging and migration
//!   (pure: no browser API);
//! - [`storage`]: the key-value interface, `localStorage` behind it, and an
//!   in-memory stand-in that can be full or disabled;
//! - [`persist`]: loading and saving without ever losing data;
//! - [`lesson_state`]: the lesson's progress and drafts, kept in the same
//!   document;
//! - [`Notebook`]: the page's notebook (signals, other tabs, the lesson's
//!   draft); [`NotebookPanel`]: its view.

pub mod handle;
pub mod lesson_state;
pub mod panel;
pub mod persist;
pub mod storage;
pub mod store;
pub mod texts;
pub mod web;

pub use handle::{Draft, Notebook};
pub use panel::NotebookPanel;
