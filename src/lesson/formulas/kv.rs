//! A model's KV cache written layer kind by layer kind, for the methods
//! that follow each layer (`range`, `planner`): layers of the same kind and
//! width are one group, `count × values per token × tokens`.

use super::Ctx;
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::planner::kv::resident_tokens;
use vramfit_core::model::{AttentionKind, ModelSpec};

/// Values a layer caches per token, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    /// `heads × dims`: `dims` is `d_k + d_v` (`2 × d` when both are `d`).
    Kv { heads: u64, dims: u64 },
    /// One latent (and an indexer key) per token: MLA.
    Latent { latent: u64, index: u64 },
    /// `heads × dims` and an indexer's key of `index` values (MiniMax-M3's
    /// sparse layers).
    Indexed { heads: u64, dims: u64, index: u64 },
}

impl Width {
    fn values(self) -> u128 {
        match self {
            Width::Kv { heads, dims } => heads as u128 * dims as u128,
            Width::Latent { latent, index } => latent as u128 + index as u128,
            Width::Indexed { heads, dims, index } => heads as u128 * dims as u128 + index as u128,
        }
    }

    fn text(self, c: &Ctx, head_dim: u64) -> String {
        match self {
            Width::Kv { heads, dims } if dims == 2 * head_dim => {
                format!("2 × {} × {}", c.int(heads), c.int(head_dim))
            }
            Width::Kv { heads, dims } => format!("{} × {}", c.int(heads), c.int(dims)),
            Width::Latent { latent, index: 0 } => c.int(latent),
            Width::Latent { latent, index } => format!("({} + {})", c.int(latent), c.int(index)),
            Width::Indexed { heads, dims, index } => {
                let kv = Width::Kv { heads, dims }.text(c, head_dim);
                format!("({kv} + {})", c.int(index))
            }
        }
    }
}

/// How many tokens of the context a layer keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Span {
    /// Every token: `S`.
    All,
    /// At most a window (or a chunk) of tokens: `min(S; S_w)`.
    Window(u64),
}

impl Span {
    fn tokens(self, context: u64) -> u64 {
        match self {
            Span::All => context,
            Span::Window(w) => context.min(w),
        }
    }

    fn text(self, c: &Ctx) -> String {
        match self {
            Span::All => c.int(c.s.context),
            Span::Window(w) => format!("min({}; {})", c.int(c.s.context), c.int(w)),
        }
    }
}

/// Layers of one kind and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Group {
    count: u64,
    width: Width,
    span: Span,
}

/// The layers that cache tokens, grouped, with `tp` splitting key/value
/// heads (at least one per GPU); `None` when a layer keeps a state that is
/// not a cache of tokens (linear attention, state-space or compressed
/// layers), which one line cannot show.
fn groups(spec: &ModelSpec, tp: u64) -> Option<Vec<(Width, Span)>> {
    if spec.side_state > 0 {
        return None;
    }
    let mut layers = Vec::new();
    for (i, kind) in spec.attention.iter().enumerate() {
        let heads = match &spec.kv_heads_by_layer {
            Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
            None => spec.num_kv_heads,
        };
        let dims = match &spec.kv_dims_by_layer {
            Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
            None => spec.head_dim.saturating_mul(2),
        };
        let local = heads.div_ceil(tp.max(1)).max(1);
        let kv = Width::Kv { heads: local, dims };
        let layer = match *kind {
            AttentionKind::Full => (kv, Span::All),
            AttentionKind::Indexed { index } => (
                Width::Indexed {
                    heads: local,
                    dims,
                    index,
                },
                Span::All,
            ),
            AttentionKind::SlidingWindow { window } => (kv, Span::Window(window)),
            AttentionKind::Chunked { chunk } => (kv, Span::Window(chunk)),
            AttentionKind::Mla { latent } => (Width::Latent { latent, index: 0 }, Span::All),
            AttentionKind::SparseMla { latent, index } => {
                (Width::Latent { latent, index }, Span::All)
            }
            AttentionKind::None => continue,
            AttentionKind::Linear { .. } | AttentionKind::Compressed { .. } => return None,
        };
        layers.push(layer);
    }
    Some(layers)
}

fn group(layers: impl IntoIterator<Item = (Width, Span)>) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for (width, span) in layers {
        match out.iter_mut().find(|g| g.width == width && g.span == span) {
            Some(g) => g.count += 1,
            None => out.push(Group {
                count: 1,
                width,
                span,
            }),
        }
    }
    out
}

/// The distinct windows of the model's layers, for the symbol list.
fn windows(c: &Ctx, groups: &[Group]) -> Option<String> {
    let mut w: Vec<u64> = groups
        .iter()
        .filter_map(|g| match g.span {
            Span::Window(w) => Some(w),
            Span::All => None,
        })
        .collect();
    w.sort_unstable();
    w.dedup();
    (!w.is_empty()).then(|| w.iter().map(|w| c.int(*w)).collect::<Vec<_>>().join(", "))
}

fn widths(c: &Ctx, groups: &[Group], head_dim: u64) -> String {
    let mut out: Vec<String> = Vec::new();
    for g in groups {
        let text = g.width.text(c, head_dim);
        if !out.contains(&text) {
            out.push(text);
        }
    }
    out.join(", ")
}

/// `range`: `B × Σ count × v_ℓ × C_ℓ × b_kv`, split over `n` GPUs.
pub(super) fn range(c: &Ctx, spec: &ModelSpec) -> (Option<String>, Vec<(Symbol, String)>) {
    let s = c.s;
    let b_kv = c.dec(s.kv_milli_bits as f64 / 8_000.0);
    // One copy of the model: its share of the sequences over its GPUs.
    let gpus = s.layout.per_replica().max(1);
    let b = s.replica_sequences();
    let mut symbols = vec![
        (Symbol::Sequences, c.int(b)),
        (Symbol::Context, c.int(s.context)),
    ];
    let Some(layers) = groups(spec, 1) else {
        symbols.extend([(Symbol::KvBytes, b_kv), (Symbol::Gpus, c.int(gpus))]);
        return (None, symbols);
    };
    let groups = group(layers);
    symbols.push((Symbol::LayerWidth, widths(c, &groups, spec.head_dim)));
    if let Some(w) = windows(c, &groups) {
        symbols.push((Symbol::Window, w));
    }
    symbols.extend([(Symbol::KvBytes, b_kv.clone()), (Symbol::Gpus, c.int(gpus))]);
    let sum = groups
        .iter()
        .map(|g| {
            format!(
                "{} × {} × {}",
                c.int(g.count),
                g.width.text(c, spec.head_dim),
                g.span.text(c)
            )
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let whole = format!("{} × ({sum}) × {b_kv}", c.int(b));
    let text = match gpus {
        1 => whole,
        n => format!("⌈{whole} / {}⌉", c.int(n)),
    };
    (Some(text), symbols)
}

/// `planner`: over the `L_st` layers with the largest caches,
/// `count × v_ℓ × N_res,ℓ × b_kv`, with `H_loc = max(1, ⌈H_kv / TP⌉)` heads
/// and `N_res` the resident tokens of each layer's span.
pub(super) fn planner(
    c: &Ctx,
    spec: Option<&ModelSpec>,
    stage_layers: u64,
    sequences: u64,
) -> (Option<String>, Vec<(Symbol, String)>) {
    let s = c.s;
    let k = &s.planner;
    let b_kv = c.dec(s.kv_milli_bits as f64 / 8_000.0);
    let resident = |span: Span| {
        resident_tokens(
            span.tokens(s.context),
            k.shared_prefix,
            k.block_tokens,
            sequences,
        )
    };
    let tp = s.layout.tp.max(1);
    let mut symbols = vec![
        (Symbol::StageLayers, c.int(stage_layers)),
        (Symbol::LocalKvHeads, c.int(s.kv_heads.div_ceil(tp).max(1))),
    ];
    let layers = match spec {
        Some(spec) => groups(spec, tp),
        // Typed numbers: every layer full attention.
        None => Some(vec![
            (
                Width::Kv {
                    heads: s.kv_heads.div_ceil(tp).max(1),
                    dims: s.head_dim.saturating_mul(2),
                },
                Span::All,
            );
            s.layers as usize
        ]),
    };
    let Some(mut layers) = layers else {
        symbols.push((Symbol::KvBytes, b_kv));
        return (None, symbols);
    };
    // The stage holds the layers whose caches are largest.
    layers.sort_by_key(|(w, span)| std::cmp::Reverse(w.values() * resident(*span) as u128));
    layers.truncate(stage_layers as usize);
    let groups = group(layers);
    symbols.push((Symbol::LayerWidth, widths(c, &groups, s.head_dim)));
    let residents: Vec<String> = groups.iter().map(|g| c.int(resident(g.span))).collect();
    let mut distinct = residents.clone();
    distinct.dedup();
    symbols.extend([
        (Symbol::Resident, distinct.join(", ")),
        (Symbol::Block, c.int(k.block_tokens)),
        (Symbol::Prefix, c.int(k.shared_prefix)),
        (Symbol::KeptSequences, c.int(sequences)),
        (Symbol::KvBytes, b_kv.clone()),
    ]);
    if let Some(w) = windows(c, &groups) {
        symbols.push((Symbol::Window, w));
    }
    let sum = groups
        .iter()
        .zip(&residents)
        .map(|(g, r)| format!("{} × {} × {r}", c.int(g.count), g.width.text(c, s.head_dim)))
        .collect::<Vec<_>>()
        .join(" + ");
    (Some(format!("({sum}) × {b_kv}")), symbols)
}
