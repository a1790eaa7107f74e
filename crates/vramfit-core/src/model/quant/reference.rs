//! The reference selection the automata are tested against: each name
//! matched on its own, pattern by pattern, as each library reads its list
//! (segment runs and `fnmatch`, `re.match`, substrings), and every expert
//! named one by one. Slow (seconds for a model with hundreds of experts
//! and patterns) and simple; tests only.

use super::layout::StoredBytes;
use super::names::Naming;
use super::pattern::{wildcard, Dialect, Patterns};
use super::regex::Regex;
use super::select::{
    finish, in_scope, lists, quantized_bytes, text_view, View, Weighed, MAX_NAMED_EXPERTS,
};
use super::{QuantGroup, Quantization, VisionTensor};
use crate::model::dtype::Dtype;
use crate::model::layers::Plan;
use crate::model::params::{for_each_tensor, Arch, ParamGroups};
use crate::units::bytes_for_bits;
use std::collections::HashSet;

/// One list, matched name by name.
pub(super) struct Matcher {
    dialect: Dialect,
    /// Patterns without wildcards (whole names or segment runs).
    exact: HashSet<String>,
    /// Wildcard patterns (`*`, `?`, `[`).
    globs: Vec<String>,
    regexes: Vec<Regex>,
    /// Every pattern as written (substring dialects).
    plain: Vec<String>,
    /// Modules covering everything under them.
    prefixes: HashSet<String>,
}

impl Matcher {
    pub(super) fn new(p: &Patterns) -> Matcher {
        let mut m = Matcher {
            dialect: p.dialect,
            exact: HashSet::new(),
            globs: Vec::new(),
            regexes: Vec::new(),
            plain: Vec::new(),
            prefixes: p.prefixes.iter().cloned().collect(),
        };
        for pattern in &p.list {
            match m.dialect {
                Dialect::CompressedTensors => match pattern.strip_prefix("re:") {
                    Some(re) => m.regexes.push(Regex::new(re).expect("checked by Patterns")),
                    None => {
                        m.exact.insert(pattern.clone());
                    }
                },
                Dialect::ModuleGlob | Dialect::ModelOpt if pattern.contains(['*', '?', '[']) => {
                    m.globs.push(pattern.clone())
                }
                Dialect::ModuleGlob => {
                    m.exact.insert(pattern.clone());
                }
                Dialect::ModelOpt | Dialect::Substring => m.plain.push(pattern.clone()),
            }
        }
        m
    }

    /// Whether `name` is a listed module or lies under one.
    fn under_prefix(&self, name: &str) -> bool {
        if self.prefixes.is_empty() {
            return false;
        }
        let mut end = name.len();
        loop {
            if self.prefixes.contains(&name[..end]) {
                return true;
            }
            match name[..end].rfind('.') {
                Some(dot) => end = dot,
                None => return false,
            }
        }
    }

    /// Whether some pattern covers the module `name`.
    pub(super) fn covers(&self, name: &str) -> bool {
        self.under_prefix(name) || self.covers_pattern(name)
    }

    fn covers_pattern(&self, name: &str) -> bool {
        match self.dialect {
            Dialect::ModuleGlob => self.covers_segments(name),
            Dialect::CompressedTensors => {
                self.exact.contains(name) || self.regexes.iter().any(|r| r.matches_start(name))
            }
            Dialect::Substring => self.plain.iter().any(|p| name.contains(p.as_str())),
            Dialect::ModelOpt => {
                self.plain.iter().any(|p| name.contains(p.as_str()))
                    || self.globs.iter().any(|g| wildcard(g, name))
            }
        }
    }

    /// Any run of whole segments of `name` equal to an exact pattern or
    /// matching a wildcard one.
    fn covers_segments(&self, name: &str) -> bool {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(name.match_indices('.').map(|(i, _)| i + 1))
            .collect();
        let end_of = |k: usize| starts.get(k + 1).map_or(name.len(), |next| next - 1);
        (0..starts.len()).any(|a| {
            (a..starts.len()).any(|b| {
                let run = &name[starts[a]..end_of(b)];
                self.exact.contains(run) || self.globs.iter().any(|g| wildcard(g, run))
            })
        })
    }
}

struct Selector<'q> {
    q: &'q Quantization,
    exclude: Matcher,
    /// Per group: the `Linear` class, the `Experts` class, the names.
    targets: Vec<(bool, bool, Matcher)>,
    per_expert: bool,
}

impl<'q> Selector<'q> {
    fn new(q: &'q Quantization) -> Selector<'q> {
        let (exclude, targets) = lists(q);
        Selector {
            q,
            per_expert: exclude.mentions_experts()
                || targets.iter().any(|t| t.names.mentions_experts()),
            exclude: Matcher::new(&exclude),
            targets: targets
                .iter()
                .map(|t| (t.any_linear, t.experts, Matcher::new(&t.names)))
                .collect(),
        }
    }

    fn group(&self, v: View, names: &[String]) -> Option<&'q QuantGroup> {
        if !in_scope(self.q.scope, v) || names.iter().any(|n| self.exclude.covers(n)) {
            return None;
        }
        let by_name = self
            .targets
            .iter()
            .position(|(_, _, t)| names.iter().any(|n| t.covers(n)));
        let index = by_name
            .or_else(|| self.targets.iter().position(|t| t.1 && v.expert))
            .or_else(|| self.targets.iter().position(|t| t.0))?;
        self.q.groups.get(index)
    }
}

/// [`super::weigh`], one name and one expert at a time.
pub(super) fn weigh(
    arch: &Arch,
    plan: &Plan,
    quant: Option<&Quantization>,
    dtype: Dtype,
    naming: &Naming,
) -> Weighed {
    let mut out = Weighed::default();
    let mut plain = ParamGroups::default();
    let selector = quant.map(Selector::new);
    for_each_tensor(arch, plan, &mut |t| {
        let Some(sel) = selector.as_ref() else {
            plain.add(t.group, t.params());
            return;
        };
        let view = text_view(t, naming);
        let mut weigh_copies = |expert: Option<u64>, copies: u64| {
            let names = naming.text_names(t, expert);
            match sel.group(view, &names) {
                Some(group) => {
                    let one = quantized_bytes(group, t.rows, t.cols, dtype);
                    out.quantized
                        .add(t.group, t.per_copy().saturating_mul(copies));
                    out.bytes.add(t.group, one.total().saturating_mul(copies));
                    out.stored.add(&one, copies);
                }
                None => plain.add(t.group, t.per_copy().saturating_mul(copies)),
            }
        };
        match view.expert && sel.per_expert && t.copies <= MAX_NAMED_EXPERTS {
            true => (0..t.copies).for_each(|e| weigh_copies(Some(e), 1)),
            false => weigh_copies(Some(0).filter(|_| view.expert), t.copies),
        }
    });
    finish(out, &mut plain, plan, quant, dtype)
}

/// [`super::weigh_vision`], one name at a time.
pub(super) fn weigh_vision(
    tensors: &[VisionTensor],
    quant: Option<&Quantization>,
    dtype: Dtype,
) -> (u64, u64, StoredBytes) {
    let selector = quant.map(Selector::new);
    let (mut quantized, mut plain, mut bytes) = (0u64, 0u64, 0u64);
    let mut stored = StoredBytes::default();
    for t in tensors {
        let count = t.rows.saturating_mul(t.cols);
        let view = View {
            linear: t.linear,
            vision: true,
            ..View::default()
        };
        match selector.as_ref().and_then(|s| s.group(view, &t.names)) {
            Some(group) => {
                let one = quantized_bytes(group, t.rows, t.cols, dtype);
                quantized = quantized.saturating_add(count);
                bytes = bytes.saturating_add(one.total());
                stored.add(&one, 1);
            }
            None => plain = plain.saturating_add(count),
        }
    }
    let bytes = bytes.saturating_add(bytes_for_bits(plain, dtype.milli_bits()));
    (quantized, bytes, stored)
}
