//! The catalog as a list: one [`ModelListing`] per model (what
//! `vramfit models [--json]` prints and what the page's model picker
//! searches), and [`search`] over such a list by name and size.
//!
//! A listing holds no config text, so a list computed once can be shipped
//! as data (it is `Serialize` and `Deserialize`) and searched without the
//! configs.

use super::{Figure, ModelEntry, ModelStatus, Scope, Source};
use crate::catalog::fuzzy;
use serde::{Deserialize, Serialize};

/// Whether vramfit computes a model, in a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListingStatus {
    /// The config parses.
    Calculable,
    /// The config is refused; see [`ModelListing::reason`].
    Excluded,
}

/// One model in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelListing {
    /// Hugging Face id.
    pub id: String,
    /// Family (`Qwen3`, `Llama 3.1`).
    pub family: String,
    /// Search tags (`moe`, `vision`, `fp8`, ...).
    pub tags: Vec<String>,
    /// Calculable or excluded.
    pub status: ListingStatus,
    /// Why the config is refused, for excluded models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// All parameters as vramfit counts them (text model and, where
    /// counted, vision tower), for calculable models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params_total: Option<u64>,
    /// Parameters used per token as vramfit counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params_active: Option<u64>,
    /// Bytes of the weights as published, as vramfit counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_bytes: Option<u64>,
    /// The published total, as written (`8,030,261,248`, `30.5B`, `~7B`).
    pub published_total: String,
    /// The published active count, for mixture-of-experts models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_active: Option<String>,
    /// What the published counts include.
    pub published_scope: Scope,
    /// Where the published counts are.
    pub published_source: String,
    /// Where the config's text was found.
    pub source: Source,
    /// Why a checkpoint known to be quantized is counted unquantized
    /// ([`super::ModelMeta::quantization_not_read`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantization_note: Option<String>,
}

impl ModelListing {
    /// The listing of one catalog entry (parses its config if not parsed
    /// yet).
    pub fn of(entry: &ModelEntry) -> ModelListing {
        let (status, reason, summary) = match entry.status() {
            ModelStatus::Calculable(s) => (ListingStatus::Calculable, None, Some(s)),
            ModelStatus::Excluded { reason } => (ListingStatus::Excluded, Some(reason), None),
        };
        let published = entry.published();
        ModelListing {
            id: entry.id.clone(),
            family: entry.meta.family.clone(),
            tags: entry.meta.tags.clone(),
            status,
            reason,
            params_total: summary.map(|s| s.params_with_vision),
            params_active: summary.map(|s| s.params_active),
            weight_bytes: summary.map(|s| s.published_weight_bytes),
            published_total: published.total.clone(),
            published_active: published.active.clone(),
            published_scope: published.scope,
            published_source: published.source.clone(),
            source: entry.source().clone(),
            quantization_note: entry.meta.quantization_not_read.clone(),
        }
    }

    /// The model's size in parameters: vramfit's count where it computes
    /// one, else the published figure's value.
    pub fn size(&self) -> Option<u64> {
        self.params_total
            .or_else(|| Figure::parse(&self.published_total).map(|f| f.value))
    }

    /// Whether the model passes every term of a parsed query.
    fn matches(&self, terms: &[Term]) -> bool {
        let id_key = fuzzy::key(&self.id);
        let family_key = fuzzy::key(&self.family);
        let name_words = fuzzy::words(&self.id);
        let text = |key: &str| {
            id_key.contains(key)
                || family_key.contains(key)
                || self.tags.iter().any(|t| fuzzy::key(t) == key)
        };
        terms.iter().all(|term| match term {
            Term::Text(key) => text(key),
            Term::Size(q) => {
                let by_size = self.size().is_some_and(|n| q.contains(n));
                let by_name = match q {
                    SizeQuery::About { word, .. } => name_words.iter().any(|w| w == word),
                    _ => false,
                };
                by_size || by_name
            }
        })
    }
}

/// A size term of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeQuery {
    /// `7b`: within 15 % of the value, or a name word equal to the term
    /// (`qwen3 30b` finds `Qwen3-30B-A3B`, 30.5 B).
    About {
        /// The value in parameters.
        value: u64,
        /// The term as written, lowercased (`30b`).
        word: String,
    },
    /// `<10b`, `<=10b`: at most the value.
    AtMost(u64),
    /// `>100b`, `>=100b`: at least the value.
    AtLeast(u64),
    /// `7b-14b`: between the two values, both included.
    Between(u64, u64),
}

impl SizeQuery {
    /// Reads a size term (`7b`, `0.5B`, `<10b`, `>=1t`, `7b-14b`); `None`
    /// for any other word.
    pub fn parse(term: &str) -> Option<SizeQuery> {
        let term = term.trim().to_ascii_lowercase();
        if let Some(rest) = term.strip_prefix("<=").or_else(|| term.strip_prefix('<')) {
            return size_value(rest).map(SizeQuery::AtMost);
        }
        if let Some(rest) = term.strip_prefix(">=").or_else(|| term.strip_prefix('>')) {
            return size_value(rest).map(SizeQuery::AtLeast);
        }
        if let Some((lo, hi)) = term.split_once('-') {
            let (lo, hi) = (size_value(lo)?, size_value(hi)?);
            return Some(SizeQuery::Between(lo.min(hi), lo.max(hi)));
        }
        let value = size_value(&term)?;
        Some(SizeQuery::About { value, word: term })
    }

    /// Whether a size in parameters passes the term.
    pub fn contains(&self, n: u64) -> bool {
        match *self {
            SizeQuery::About { value, .. } => {
                let slack = value / 100 * 15;
                n >= value.saturating_sub(slack) && n <= value.saturating_add(slack)
            }
            SizeQuery::AtMost(v) => n <= v,
            SizeQuery::AtLeast(v) => n >= v,
            SizeQuery::Between(lo, hi) => (lo..=hi).contains(&n),
        }
    }
}

/// A number with a `k`, `m`, `b` or `t` unit (`7b`, `0.5b`, `1t`).
fn size_value(text: &str) -> Option<u64> {
    let unit = text.chars().last()?;
    if !matches!(unit, 'k' | 'm' | 'b' | 't') {
        return None;
    }
    Figure::parse(text).map(|f| f.value).filter(|&v| v > 0)
}

/// One word of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Term {
    /// A name word, as a [`fuzzy::key`].
    Text(String),
    /// A size term.
    Size(SizeQuery),
}

/// The terms of a query: whitespace- or comma-separated words.
fn terms(query: &str) -> Vec<Term> {
    query
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .filter_map(|w| match SizeQuery::parse(w) {
            Some(q) => Some(Term::Size(q)),
            None => {
                let key = fuzzy::key(w);
                (!key.is_empty()).then_some(Term::Text(key))
            }
        })
        .collect()
}

/// The listings that pass every word of `query`: name words must appear in
/// the id, the family or the tags (`qwen`, `moe`, `fp8`, `vision`); size
/// words filter by parameters ([`SizeQuery`]). An empty query keeps
/// everything.
///
/// Order: names that start with the query's words first, then names that
/// contain them, shorter names first (a longer name is a tune or a
/// quantized copy), then smallest first, then by id.
///
/// ```
/// use vramfit_core::catalog::models::{list_models, search};
/// let all = list_models();
/// let hits = search(&all, "llama 3.1 8b");
/// assert_eq!(hits[0].id, "meta-llama/Llama-3.1-8B");
/// assert!(search(&all, "moe <40b").iter().all(|m| m.tags.contains(&"moe".to_string())));
/// ```
pub fn search<'a>(listings: &'a [ModelListing], query: &str) -> Vec<&'a ModelListing> {
    let terms = terms(query);
    let query_key = fuzzy::key(query);
    let mut hits: Vec<(Rank, &ModelListing)> = listings
        .iter()
        .filter(|m| m.matches(&terms))
        .map(|m| (rank(m, &query_key), m))
        .collect();
    hits.sort_by(|a, b| a.0.cmp(&b.0));
    hits.into_iter().map(|(_, m)| m).collect()
}

/// Sort key of a hit: starts-with, contains, name length, size, id.
type Rank = (bool, bool, usize, u64, String);

fn rank(m: &ModelListing, query_key: &str) -> Rank {
    let name = m.id.split_once('/').map_or(m.id.as_str(), |(_, n)| n);
    let name_key = fuzzy::key(name);
    (
        !name_key.starts_with(query_key),
        !name_key.contains(query_key),
        name_key.len(),
        m.size().unwrap_or(u64::MAX),
        m.id.clone(),
    )
}
