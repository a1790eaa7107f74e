//! Which tensors a checkpoint stores quantized, and the bytes of all of
//! them as published.

use super::automaton::Automaton;
use super::layout::StoredBytes;
use super::names::{Naming, Spelling};
use super::pattern::Patterns;
use super::{QuantGroup, Quantization, Scope};
use crate::model::dtype::Dtype;
use crate::model::layers::{AttentionKind, Plan};
use crate::model::params::{for_each_tensor, Arch, Group, ParamGroups, Tensor};
use crate::units::bytes_for_bits;

/// Experts named one by one at most (512 in the largest published MoE
/// layers); beyond this a list is applied to expert 0's names for all.
pub(super) const MAX_NAMED_EXPERTS: u64 = 4096;

#[cfg(test)]
thread_local! {
    /// Weigh with the reference selection (one name at a time, every
    /// expert named), to check the automata against it.
    pub(super) static REFERENCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a tensor is, as far as the selection rules care.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct View {
    /// An `nn.Linear` weight.
    pub linear: bool,
    pub lm_head: bool,
    pub router: bool,
    pub expert: bool,
    /// Inside a text decoder layer.
    pub in_decoder: bool,
    pub vision: bool,
}

/// The exclusion list and each group's targets, each one automaton.
pub(super) struct Selector<'q> {
    q: &'q Quantization,
    per_expert: bool,
    exclude: Automaton,
    targets: Vec<Targets>,
}

struct Targets {
    /// `"Linear"` is among the targets (class match).
    any_linear: bool,
    /// `"Experts"` is among the targets: every routed expert (vramfit's
    /// own class for formats that apply to the experts as a whole).
    experts: bool,
    names: Automaton,
}

/// One group's targets, as read from its list.
pub(super) struct TargetList {
    pub any_linear: bool,
    pub experts: bool,
    /// Names and `re:` patterns, and the `"prefix:<module>"` targets: the
    /// module and everything under it (ModelOpt `quantized_layers`).
    pub names: Patterns,
}

/// The lists of a quantization: the exclusion list and, per group, the
/// targets other than the `Linear` and `Experts` classes. The reference
/// selection compiles the same lists.
pub(super) fn lists(q: &Quantization) -> (Patterns, Vec<TargetList>) {
    // Every list was compiled once already when the config was read.
    let compile = |dialect, list: &[String]| {
        Patterns::new(dialect, list, "").unwrap_or_else(|_| Patterns::none(dialect))
    };
    let targets = q
        .groups
        .iter()
        .map(|g| {
            let names: Vec<String> = g
                .targets
                .iter()
                .filter(|t| *t != "Linear" && *t != "Experts" && !t.starts_with("prefix:"))
                .cloned()
                .collect();
            let prefixes = g
                .targets
                .iter()
                .filter_map(|t| t.strip_prefix("prefix:"))
                .map(str::to_string)
                .collect();
            TargetList {
                any_linear: g.targets.iter().any(|t| t == "Linear"),
                experts: g.targets.iter().any(|t| t == "Experts"),
                names: compile(super::Dialect::CompressedTensors, &names).with_prefixes(prefixes),
            }
        })
        .collect();
    (compile(q.dialect, &q.not_converted), targets)
}

/// Whether a tensor is within the method's [`Scope`] at all.
pub(super) fn in_scope(scope: Scope, v: View) -> bool {
    v.linear
        && match scope {
            Scope::LinearNoHead => !v.lm_head,
            Scope::Targets => true,
            Scope::DecoderLayers { routers, head } => {
                !v.vision && ((v.lm_head && head) || (v.in_decoder && (routers || !v.router)))
            }
            Scope::Experts => v.expert,
            Scope::TextLinear => !v.vision && !v.router,
        }
}

impl<'q> Selector<'q> {
    fn new(q: &'q Quantization) -> Selector<'q> {
        let (exclude, targets) = lists(q);
        // Experts must be named one by one when a list could single some out.
        let per_expert =
            exclude.mentions_experts() || targets.iter().any(|t| t.names.mentions_experts());
        Selector {
            q,
            per_expert,
            exclude: exclude.automaton(),
            targets: targets
                .iter()
                .map(|t| Targets {
                    any_linear: t.any_linear,
                    experts: t.experts,
                    names: t.names.automaton(),
                })
                .collect(),
        }
    }

    /// The group whose format `names` is stored in, if quantized.
    ///
    /// A tensor is quantized when it is an `nn.Linear` within the method's
    /// [`Scope`], no exclusion pattern covers any of its names, and a
    /// group targets it (names and patterns before the classes, as
    /// compressed-tensors `match_targets` orders them; `Experts` before
    /// `Linear`).
    fn group(&mut self, v: View, names: &[String]) -> Option<&'q QuantGroup> {
        if !in_scope(self.q.scope, v) || names.iter().any(|n| self.exclude.covers(n)) {
            return None;
        }
        let by_name = self
            .targets
            .iter_mut()
            .position(|t| names.iter().any(|n| t.names.covers(n)));
        let index = by_name.or_else(|| self.by_class(v))?;
        self.q.groups.get(index)
    }

    /// The first group whose class targets cover a tensor no name does.
    fn by_class(&self, v: View) -> Option<usize> {
        let targets = &self.targets;
        targets
            .iter()
            .position(|t| t.experts && v.expert)
            .or_else(|| targets.iter().position(|t| t.any_linear))
    }

    /// [`Selector::group`] for each of experts `0..count` at once: how
    /// many experts each group stores (in group order), and how many stay
    /// unquantized. Each list is asked which experts it covers
    /// ([`Automaton::covered`]), one bit per expert.
    fn expert_groups(&mut self, v: View, spellings: &[Spelling], count: u64) -> (Vec<u64>, u64) {
        let mut stored = vec![0u64; self.q.groups.len()];
        if !in_scope(self.q.scope, v) {
            return (stored, count);
        }
        let words = count.div_ceil(64) as usize;
        let all: Vec<u64> = (0..words)
            .map(|w| match count - 64 * w as u64 {
                64.. => u64::MAX,
                rest => (1u64 << rest) - 1,
            })
            .collect();
        let covered = |a: &mut Automaton| {
            let mut bits = vec![0u64; words];
            for s in spellings {
                let one = match s {
                    Spelling::Indexed(before, after) => a.covered(before, after, count),
                    Spelling::Fixed(name) => match a.covers(name) {
                        true => all.clone(),
                        false => vec![0; words],
                    },
                };
                bits.iter_mut().zip(one).for_each(|(b, o)| *b |= o);
            }
            bits
        };
        let excluded = covered(&mut self.exclude);
        let mut left: Vec<u64> = all.iter().zip(&excluded).map(|(a, x)| a & !x).collect();
        let ones = |bits: &[u64]| bits.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        for (i, t) in self.targets.iter_mut().enumerate() {
            let hit: Vec<u64> = covered(&mut t.names)
                .iter()
                .zip(&left)
                .map(|(c, l)| c & l)
                .collect();
            if let Some(slot) = stored.get_mut(i) {
                *slot += ones(&hit);
            }
            left.iter_mut().zip(&hit).for_each(|(l, h)| *l &= !h);
        }
        if let Some(slot) = self.by_class(v).and_then(|i| stored.get_mut(i)) {
            *slot += ones(&left);
        }
        let quantized: u64 = stored.iter().sum();
        (stored, count - quantized)
    }
}

/// Bytes of one stored quantized matrix of `group`, input scales included.
pub(super) fn quantized_bytes(
    group: &QuantGroup,
    rows: u64,
    cols: u64,
    dtype: Dtype,
) -> StoredBytes {
    let mut one = group.scheme.matrix(rows, cols, dtype);
    one.other = one.other.saturating_add(group.input_scale_bytes);
    one
}

/// The text model weighed: parameters stored quantized and bytes as
/// published, by group, and the quantized bytes by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Weighed {
    pub quantized: ParamGroups,
    pub bytes: ParamGroups,
    pub stored: StoredBytes,
}

/// Weighs the text model.
///
/// # Formula
///
/// ```text
/// bytes = Σ quantized matrices [QuantScheme::matrix + input scales] × copies
///       + Σ other tensors × dtype bits / 8
///       + key/value scales × attention layers
/// ```
///
/// Source: the selection rules of each library (see [`Scope`]) and the
/// layouts of [`super::QuantScheme::matrix`].
pub(crate) fn weigh(
    arch: &Arch,
    plan: &Plan,
    quant: Option<&Quantization>,
    dtype: Dtype,
    naming: &Naming,
) -> Weighed {
    #[cfg(test)]
    if REFERENCE.with(|r| r.get()) {
        return super::reference::weigh(arch, plan, quant, dtype, naming);
    }
    let mut out = Weighed::default();
    let mut plain = ParamGroups::default();
    let mut selector = quant.map(Selector::new);
    for_each_tensor(arch, plan, &mut |t| {
        let Some(sel) = selector.as_mut() else {
            plain.add(t.group, t.params());
            return;
        };
        let view = text_view(t, naming);
        let mut add = |group: Option<&QuantGroup>, copies: u64| match group {
            Some(group) => {
                let one = quantized_bytes(group, t.rows, t.cols, dtype);
                out.quantized
                    .add(t.group, t.per_copy().saturating_mul(copies));
                out.bytes.add(t.group, one.total().saturating_mul(copies));
                out.stored.add(&one, copies);
            }
            None => plain.add(t.group, t.per_copy().saturating_mul(copies)),
        };
        if view.expert && sel.per_expert && t.copies <= MAX_NAMED_EXPERTS {
            let spellings = naming.expert_spellings(t);
            let (stored, unquantized) = sel.expert_groups(view, &spellings, t.copies);
            for (group, copies) in sel.q.groups.iter().zip(stored) {
                if copies > 0 {
                    add(Some(group), copies);
                }
            }
            if unquantized > 0 {
                add(None, unquantized);
            }
        } else {
            let names = naming.text_names(t, Some(0).filter(|_| view.expert));
            add(sel.group(view, &names), t.copies);
        }
    });
    finish(out, &mut plain, plan, quant, dtype)
}

/// Adds the bytes of the unquantized parameters `plain` and the key/value
/// scales to `out`.
pub(super) fn finish(
    mut out: Weighed,
    plain: &mut ParamGroups,
    plan: &Plan,
    quant: Option<&Quantization>,
    dtype: Dtype,
) -> Weighed {
    for group in ALL_GROUPS {
        let extra = bytes_for_bits(*plain.get_mut(group), dtype.milli_bits());
        out.bytes.add(group, extra);
    }
    if let Some(q) = quant {
        let attention_layers = plan
            .attention
            .iter()
            .filter(|k| !matches!(k, AttentionKind::Linear { .. } | AttentionKind::None))
            .count() as u64;
        let kv = q.kv_scale_bytes.saturating_mul(attention_layers);
        out.bytes.add(Group::Attention, kv);
        out.stored.other = out.stored.other.saturating_add(kv);
    }
    out
}

pub(super) fn text_view(t: &Tensor, naming: &Naming) -> View {
    let router = Naming::is_router(t);
    View {
        linear: t.projection && (t.group != Group::Router || naming.router_is_linear()),
        lm_head: t.group == Group::LmHead,
        router,
        expert: t.group == Group::RoutedExperts && t.projection,
        in_decoder: t.layer.is_some(),
        vision: false,
    }
}

/// One tensor of a vision tower or projector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VisionTensor {
    /// The module's spellings in checkpoints (see [`Naming`]).
    pub names: Vec<String>,
    pub rows: u64,
    pub cols: u64,
    /// An `nn.Linear` weight (convolutions, embeddings, norms and biases
    /// are not).
    pub linear: bool,
}

/// Vision parameters stored quantized, bytes as published, and the
/// quantized bytes by kind.
pub(crate) fn weigh_vision(
    tensors: &[VisionTensor],
    quant: Option<&Quantization>,
    dtype: Dtype,
) -> (u64, u64, StoredBytes) {
    #[cfg(test)]
    if REFERENCE.with(|r| r.get()) {
        return super::reference::weigh_vision(tensors, quant, dtype);
    }
    let mut selector = quant.map(Selector::new);
    let (mut quantized, mut plain, mut bytes) = (0u64, 0u64, 0u64);
    let mut stored = StoredBytes::default();
    for t in tensors {
        let count = t.rows.saturating_mul(t.cols);
        let view = View {
            linear: t.linear,
            vision: true,
            ..View::default()
        };
        match selector.as_mut().and_then(|s| s.group(view, &t.names)) {
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

const ALL_GROUPS: [Group; 8] = [
    Group::Embedding,
    Group::LmHead,
    Group::Attention,
    Group::DenseMlp,
    Group::RoutedExperts,
    Group::SharedExperts,
    Group::Router,
    Group::Norms,
];
