//! Which llama.cpp build: the cache layouts that changed between builds.
//!
//! The facts are a data table, `data/engines/llamacpp-builds.csv`: one row
//! per layout change, with the last build known to have the old layout
//! (`old_through`), the first build known to have the new one
//! (`new_from`, empty when no log read here shows it), the month the pull
//! request was merged and its source. A build number (`bNNNN`, llama.cpp's
//! release tags) between the two bounds is not known either way: the
//! method takes the old layout there (the larger cache) and says so.
//! Without a build, the newest layout read from llama.cpp's source is
//! taken.

use serde::Serialize;

/// The table (embedded).
pub const BUILDS_CSV: &str = include_str!("../../../data/engines/llamacpp-builds.csv");

/// A llama.cpp release: `b5331` is 5331.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Build(pub u32);

impl Build {
    /// `b5331`, `5331` or `B5331`; `None` for anything else.
    ///
    /// ```
    /// use vramfit_core::methods::llamacpp::build::Build;
    /// assert_eq!(Build::parse("b5331"), Some(Build(5331)));
    /// assert_eq!(Build::parse("5331"), Some(Build(5331)));
    /// assert_eq!(Build::parse("v1.2"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Build> {
        let t = text.trim();
        let digits = t
            .strip_prefix('b')
            .or_else(|| t.strip_prefix('B'))
            .unwrap_or(t);
        match digits.chars().all(|c| c.is_ascii_digit()) && !digits.is_empty() {
            true => digits.parse().ok().map(Build),
            false => None,
        }
    }
}

impl std::fmt::Display for Build {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b{}", self.0)
    }
}

/// A layout change of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    /// MLA models cache the latent (K) and a V of `kv_lora_rank`, not K
    /// and V per head.
    MlaLatentCache,
    /// MLA models keep no V buffer: V is a view of K.
    MlaVLess,
    /// Sliding-window layers keep a window-sized cache.
    SwaCache,
    /// The cache is written at row indices (`ggml_set_rows`), each cache
    /// with its index inputs.
    KvSetRows,
}

impl Change {
    /// The table's name for it.
    pub const fn id(self) -> &'static str {
        match self {
            Change::MlaLatentCache => "mla_latent_cache",
            Change::MlaVLess => "mla_v_less",
            Change::SwaCache => "swa_cache",
            Change::KvSetRows => "kv_set_rows",
        }
    }

    const ALL: [Change; 4] = [
        Change::MlaLatentCache,
        Change::MlaVLess,
        Change::SwaCache,
        Change::KvSetRows,
    ];
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildFact {
    pub change: Change,
    /// The last build known to have the old layout.
    pub old_through: Build,
    /// The first build known to have the new one.
    pub new_from: Option<Build>,
    /// When the pull request was merged (`2025-04`).
    pub merged: String,
    pub source: String,
}

/// Every row of the table.
pub fn facts() -> Result<Vec<BuildFact>, String> {
    let mut rows = crate::methods::llamacpp::logs::csv_rows(BUILDS_CSV)?.into_iter();
    let header = rows.next().ok_or("empty build table")?;
    if header != ["change", "old_through", "new_from", "merged", "source"] {
        return Err(format!("build table header: {header:?}"));
    }
    rows.map(|r| {
        let [change, old, new, merged, source] = &r[..] else {
            return Err(format!("build table row: {r:?}"));
        };
        let change = Change::ALL
            .into_iter()
            .find(|c| c.id() == change)
            .ok_or_else(|| format!("unknown change {change}"))?;
        let build = |t: &str| Build::parse(t).ok_or_else(|| format!("build {t}"));
        Ok(BuildFact {
            change,
            old_through: build(old)?,
            new_from: match new.as_str() {
                "" => None,
                t => Some(build(t)?),
            },
            merged: merged.clone(),
            source: source.clone(),
        })
    })
    .collect()
}

/// How an MLA model's cache is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MlaCache {
    /// K and V per head, as for any other attention.
    PerHead,
    /// The latent in K, a V of `kv_lora_rank` beside it.
    LatentWithV,
    /// The latent in K only.
    Latent,
}

/// The layouts a build makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layouts {
    pub mla: MlaCache,
    /// Sliding-window layers get their own, smaller cache.
    pub swa_cache: bool,
    /// The cache writes take row-index graph inputs (`ggml_set_rows`).
    pub set_rows: bool,
    /// The changes this build lies between the bounds of (taken as old).
    pub unsure: Vec<Change>,
}

impl Layouts {
    /// The newest layouts (no build given).
    pub const NEWEST: Layouts = Layouts {
        mla: MlaCache::Latent,
        swa_cache: true,
        set_rows: true,
        unsure: Vec::new(),
    };
}

/// The layouts of a build, from the table; the newest for `None`.
///
/// ```
/// use vramfit_core::methods::llamacpp::build::{layouts, Build, MlaCache};
/// assert_eq!(layouts(Some(Build(4905))).unwrap().mla, MlaCache::PerHead);
/// assert_eq!(layouts(Some(Build(5331))).unwrap().mla, MlaCache::LatentWithV);
/// assert_eq!(layouts(None).unwrap().mla, MlaCache::Latent);
/// ```
pub fn layouts(build: Option<Build>) -> Result<Layouts, String> {
    let Some(build) = build else {
        return Ok(Layouts::NEWEST);
    };
    let mut out = Layouts::NEWEST;
    for fact in facts()? {
        let new = match (build <= fact.old_through, fact.new_from) {
            (true, _) => false,
            (false, Some(from)) if build >= from => true,
            (false, _) => {
                out.unsure.push(fact.change);
                false
            }
        };
        match (fact.change, new) {
            (Change::MlaLatentCache, false) => out.mla = MlaCache::PerHead,
            (Change::MlaVLess, false) if out.mla == MlaCache::Latent => {
                out.mla = MlaCache::LatentWithV
            }
            (Change::SwaCache, false) => out.swa_cache = false,
            (Change::KvSetRows, false) => out.set_rows = false,
            (
                Change::MlaLatentCache | Change::MlaVLess | Change::SwaCache | Change::KvSetRows,
                _,
            ) => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_orders_its_bounds() {
        let facts = facts().unwrap();
        assert_eq!(facts.len(), 4);
        for f in &facts {
            assert!(f.new_from.is_none_or(|n| n > f.old_through), "{f:?}");
            assert!(f.source.contains("PR #"), "{f:?}");
        }
    }

    #[test]
    fn a_build_between_the_bounds_is_old_and_unsure() {
        let l = layouts(Some(Build(5000))).unwrap();
        assert_eq!(l.mla, MlaCache::PerHead);
        assert!(!l.swa_cache);
        assert!(l.unsure.contains(&Change::MlaLatentCache));
        assert!(!l.set_rows);
        let l = layouts(Some(Build(8164))).unwrap();
        assert_eq!(l.mla, MlaCache::LatentWithV);
        assert!(l.swa_cache && l.set_rows);
        assert_eq!(l.unsure, vec![Change::MlaVLess]);
        let l = layouts(Some(Build(6000))).unwrap();
        assert!(!l.set_rows && l.unsure.contains(&Change::KvSetRows));
    }
}
