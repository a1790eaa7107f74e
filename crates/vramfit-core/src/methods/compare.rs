//! Two results of the same scenario side by side (a method as its
//! assumption holds, and as it breaks): which terms differ, and whether the
//! total moves against the term at stake. The lesson writes its reading of
//! a counterexample from this, so its words follow from its figures.

use super::MethodResult;
use crate::term::Term;
use crate::units::Bytes;
use std::cmp::Ordering;

/// What the two columns of a comparison say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Terms whose bytes differ (a term one result lacks counts as 0), in
    /// the order they were given.
    pub differ: Vec<Term>,
    /// When the total moves the other way from the term at stake (it
    /// shrinks while the total grows, or the reverse): the other terms
    /// that differ, which make it move.
    pub against: Option<Vec<Term>>,
}

/// Compares `assumed` with `broken` over `terms`, with `stake` the term the
/// broken assumption is about.
///
/// ```text
/// differ  = { t ∈ terms : a_t ≠ b_t }
/// against = differ ∖ {stake}  when sign(b_stake − a_stake) = −sign(b_total − a_total) ≠ 0
/// ```
pub fn compare(
    assumed: &MethodResult,
    broken: &MethodResult,
    terms: &[Term],
    stake: Option<Term>,
) -> Comparison {
    let get = |r: &MethodResult, t: Term| r.components.get(t).unwrap_or(Bytes(0));
    let differ: Vec<Term> = terms
        .iter()
        .copied()
        .filter(|t| get(assumed, *t) != get(broken, *t))
        .collect();
    let against = stake.and_then(|s| {
        let at_stake = get(broken, s).cmp(&get(assumed, s));
        let total = broken.total_bytes.cmp(&assumed.total_bytes);
        let others: Vec<Term> = differ.iter().copied().filter(|t| *t != s).collect();
        let opposite = at_stake != Ordering::Equal && total != Ordering::Equal && at_stake != total;
        (opposite && !others.is_empty()).then_some(others)
    });
    Comparison { differ, against }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::MethodId;
    use crate::report;
    use crate::request::Request;
    use crate::scenario::{ModelRef, ScenarioInput, WeightFormat};

    fn run(method: MethodId, s: &ScenarioInput) -> MethodResult {
        report::build(&Request::new(method, s.clone()))
            .unwrap()
            .estimate
    }

    #[test]
    fn the_quick_counterexample_differs_beyond_the_kv_cache_and_its_total_grows() {
        // The lesson's counterexample of `quick`: Gemma 2 9B in BF16 at
        // 8,192 tokens on an RTX 4090, quick against range.
        let mut s = ScenarioInput {
            model: Some(ModelRef::Catalog("google/gemma-2-9b-it".into())),
            weight_format: Some(WeightFormat::Bf16),
            context: 8_192,
            sequences: 1,
            ..ScenarioInput::default()
        };
        s.set_gpu("NVIDIA GeForce RTX 4090");
        let (quick, range) = (run(MethodId::Quick, &s), run(MethodId::Range, &s));
        let mut terms: Vec<Term> = quick.components.terms().collect();
        for t in range.components.terms() {
            if !terms.contains(&t) {
                terms.push(t);
            }
        }
        let c = compare(&quick, &range, &terms, Some(Term::KvCache));
        // Not "only the KV cache": quick's overhead, range's runtime and
        // margin differ too.
        assert_eq!(
            c.differ,
            [Term::KvCache, Term::Overhead, Term::Runtime, Term::Margin]
        );
        // The range's cache is smaller, its total larger: the 1 GB runtime
        // and the 20 % margin outweigh the overhead and the cache saved.
        let kv = |r: &MethodResult| r.components.get(Term::KvCache).unwrap();
        assert!(kv(&range) < kv(&quick) && range.total_bytes > quick.total_bytes);
        assert_eq!(
            c.against,
            Some(vec![Term::Overhead, Term::Runtime, Term::Margin])
        );
        // Same results, no term at stake: nothing said against it.
        assert_eq!(compare(&quick, &range, &terms, None).against, None);
        assert!(compare(&quick, &quick, &terms, Some(Term::KvCache))
            .differ
            .is_empty());
    }
}
