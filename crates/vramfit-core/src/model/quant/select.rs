//! Which tensors a checkpoint stores quantized, and the bytes of all of
//! them as published.

use super::layout::StoredBytes;
use super::names::Naming;
use super::pattern::Patterns;
use super::{QuantGroup, Quantization, Scope};
use crate::model::dtype::Dtype;
use crate::model::layers::{AttentionKind, Plan};
use crate::model::params::{for_each_tensor, Arch, Group, ParamGroups, Tensor};
use crate::units::bytes_for_bits;

/// Experts named one by one at most (512 in the largest published MoE
/// layers); beyond this a list is applied to expert 0's names for all.
const MAX_NAMED_EXPERTS: u64 = 4096;

/// What a tensor is, as far as the selection rules care.
#[derive(Debug, Clone, Copy, Default)]
struct View {
    /// An `nn.Linear` weight.
    linear: bool,
    lm_head: bool,
    router: bool,
    expert: bool,
    /// Inside a text decoder layer.
    in_decoder: bool,
    vision: bool,
}

/// The exclusion list and each group's targets, compiled once.
struct Selector<'q> {
    q: &'q Quantization,
    exclude: Patterns,
    targets: Vec<Targets>,
}

struct Targets {
    /// `"Linear"` is among the targets (class match).
    any_linear: bool,
    /// `"Experts"` is among the targets: every routed expert (vramfit's
    /// own class for formats that apply to the experts as a whole).
    experts: bool,
    /// `"prefix:<module>"` targets: the module and everything under it
    /// (ModelOpt `quantized_layers`).
    prefixes: std::collections::HashSet<String>,
    names: Patterns,
}

impl Targets {
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

    fn covers(&self, name: &str) -> bool {
        self.under_prefix(name) || self.names.covers(name)
    }

    /// Some listed module lies inside the experts (names one of them).
    fn singles_out_experts(&self) -> bool {
        self.names.mentions_experts() || self.prefixes.iter().any(|p| p.contains("experts."))
    }
}

impl<'q> Selector<'q> {
    fn new(q: &'q Quantization) -> Selector<'q> {
        // Every list was compiled once already when the config was read.
        let compile = |list: &[String]| {
            Patterns::new(q.dialect, list, "").unwrap_or_else(|_| Patterns::none(q.dialect))
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
                Targets {
                    any_linear: g.targets.iter().any(|t| t == "Linear"),
                    experts: g.targets.iter().any(|t| t == "Experts"),
                    prefixes: g
                        .targets
                        .iter()
                        .filter_map(|t| t.strip_prefix("prefix:"))
                        .map(str::to_string)
                        .collect(),
                    names: Patterns::new(super::Dialect::CompressedTensors, &names, "")
                        .unwrap_or_else(|_| Patterns::none(q.dialect)),
                }
            })
            .collect();
        Selector {
            q,
            exclude: compile(&q.not_converted),
            targets,
        }
    }

    /// Experts must be named one by one when a list could single some out.
    fn per_expert(&self) -> bool {
        self.exclude.mentions_experts() || self.targets.iter().any(Targets::singles_out_experts)
    }

    /// The group whose format `names` is stored in, if quantized.
    ///
    /// A tensor is quantized when it is an `nn.Linear` within the method's
    /// [`Scope`], no exclusion pattern covers any of its names, and a
    /// group targets it (names and patterns before the `Linear` class, as
    /// compressed-tensors `match_targets` orders them).
    fn group(&self, v: View, names: &[String]) -> Option<&'q QuantGroup> {
        if !v.linear {
            return None;
        }
        let in_scope = match self.q.scope {
            Scope::LinearNoHead => !v.lm_head,
            Scope::Targets => true,
            Scope::DecoderLayers { routers, head } => {
                !v.vision && ((v.lm_head && head) || (v.in_decoder && (routers || !v.router)))
            }
            Scope::Experts => v.expert,
            Scope::TextLinear => !v.vision && !v.router,
        };
        if !in_scope || names.iter().any(|n| self.exclude.covers(n)) {
            return None;
        }
        let by_name = self
            .targets
            .iter()
            .position(|t| names.iter().any(|n| t.covers(n)));
        let index = by_name
            .or_else(|| self.targets.iter().position(|t| t.experts && v.expert))
            .or_else(|| self.targets.iter().position(|t| t.any_linear))?;
        self.q.groups.get(index)
    }
}

/// Bytes of one stored quantized matrix of `group`, input scales included.
fn quantized_bytes(group: &QuantGroup, rows: u64, cols: u64, dtype: Dtype) -> StoredBytes {
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
    let mut out = Weighed::default();
    let mut plain = ParamGroups::default();
    let selector = quant.map(Selector::new);
    let per_expert = selector.as_ref().is_some_and(Selector::per_expert);
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
        match view.expert && per_expert && t.copies <= MAX_NAMED_EXPERTS {
            true => (0..t.copies).for_each(|e| weigh_copies(Some(e), 1)),
            false => weigh_copies(Some(0).filter(|_| view.expert), t.copies),
        }
    });
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

fn text_view(t: &Tensor, naming: &Naming) -> View {
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
