//! `planner`: the per-GPU budget of the most loaded GPU over TP, PP,
//! replicas and concurrent sequences (`vramfit_core::methods::planner`). The numbers put
//! in come from the core's own plan (`planner::plan`: stage layers,
//! residency, the weights' body and `U`) and its shape (`Dims`).

use super::{derived, kv, Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::planner::shape::Dims;
use vramfit_core::methods::planner::training::{ADAMW_BYTES, ADAPTER_BYTES, MASTER_BYTES};
use vramfit_core::methods::planner::{self, efficient_attention, Plan};
use vramfit_core::model::ModelSpec;
use vramfit_core::scenario::{Mode, WeightFormat};
use vramfit_core::term::Term;

/// What the planner derived, read once per term.
struct Planned<'s> {
    plan: Plan,
    d: Dims<'s>,
    trainable: u64,
}

fn planned<'s>(c: &Ctx<'s>) -> Option<Planned<'s>> {
    let s = c.s;
    let plan = planner::plan(s).ok()?;
    let d = Dims::of(s, &s.planner).ok()?;
    let trainable = planner::training::training(s, &d, &s.planner, plan.stage_layers)
        .ok()?
        .trainable;
    Some(Planned { plan, d, trainable })
}

/// `× L_st / (L × TP)`: one GPU's share of the layers' body, or nothing
/// when one GPU holds every layer.
fn placement(c: &Ctx, p: &Planned) -> (String, Option<String>) {
    let (tp, stage, layers) = (c.s.layout.tp.max(1), p.plan.stage_layers, p.d.layers);
    if tp == 1 && stage == layers {
        (String::new(), None)
    } else {
        (
            " × L_st / (L × TP)".into(),
            Some(format!(
                " × {} / ({} × {})",
                c.int(stage),
                c.int(layers),
                c.int(tp)
            )),
        )
    }
}

/// The checkpoint's own bytes ("as published", serving): its body (every
/// tensor but the embeddings and the head) placed like the formula's,
/// and the embeddings and head split over TP (`planner::weights::published`).
fn published_weights(
    c: &Ctx,
    p: &Planned,
    m: &ModelSpec,
) -> (String, String, Vec<(Symbol, String)>) {
    let ckpt = m.checkpoint.bytes;
    let u = m
        .published_bytes
        .embedding
        .saturating_add(m.published_bytes.lm_head);
    let tp = c.s.layout.tp.max(1);
    let mut symbols = vec![(Symbol::CheckpointBytes, c.int(ckpt))];
    match placement(c, p) {
        (_, None) => ("W_ckpt".into(), c.int(ckpt), symbols),
        (place, Some(place_n)) => {
            symbols.extend([
                (Symbol::PublishedEmbedBytes, c.int(u)),
                (Symbol::StageLayers, c.int(p.plan.stage_layers)),
                (Symbol::Layers, c.int(p.d.layers)),
                (Symbol::Tp, c.int(tp)),
            ]);
            (
                format!("⌈(W_ckpt − W_U){place}⌉ + ⌈W_U / TP⌉"),
                format!(
                    "⌈({} − {}){place_n}⌉ + ⌈{} / {}⌉",
                    c.int(ckpt),
                    c.int(u),
                    c.int(u),
                    c.int(tp)
                ),
                symbols,
            )
        }
    }
}

fn weights(c: &Ctx, p: &Planned) -> Option<Derivation> {
    let (formula, substituted, mut symbols) =
        match (c.s.mode, c.s.weight_format, c.s.model.as_deref()) {
            (Mode::Inference, Some(WeightFormat::AsPublished), Some(m)) => {
                published_weights(c, p, m)
            }
            _ => formula_weights(c, p),
        };
    let offload = p.plan.offloaded_bytes.get();
    let (formula, substituted) = match offload {
        0 => (formula, substituted),
        off => {
            symbols.push((Symbol::Offload, c.int(off)));
            (
                format!("{formula} − off"),
                format!("{substituted} − {}", c.int(off)),
            )
        }
    };
    derived(
        Term::Weights,
        format!("W = {formula}"),
        symbols,
        substituted,
    )
}

/// The method's own weight formula at the mode's bits.
fn formula_weights(c: &Ctx, p: &Planned) -> (String, String, Vec<(Symbol, String)>) {
    let w = &p.plan.weights;
    let d = &p.d;
    let tp = c.s.layout.tp.max(1);
    let bits = c.milli(w.milli_bits);
    let quantized = w.milli_bits < 16_000;
    let (place, place_n) = placement(c, p);
    let mut symbols = vec![
        (Symbol::Params, c.int(d.params)),
        (Symbol::Unquantized, c.int(d.unquantized)),
    ];
    if d.fp32 > 0 {
        symbols.push((Symbol::Fp32Params, c.int(d.fp32)));
    }
    symbols.push((Symbol::WeightBits, bits.clone()));
    let (body, body_n) = if quantized {
        symbols.push((Symbol::Metadata, c.centi(w.metadata_centi_pct)));
        (
            "(P − U) × b_w / 8 × (1 + meta / 100)".to_string(),
            format!(
                "({} − {}) × {bits} / 8 × (1 + {} / 100)",
                c.int(d.params),
                c.int(d.unquantized),
                c.centi(w.metadata_centi_pct)
            ),
        )
    } else {
        (
            "(P − U) × b_w / 8".to_string(),
            format!(
                "({} − {}) × {bits} / 8",
                c.int(d.params),
                c.int(d.unquantized)
            ),
        )
    };
    let (kept, kept_n) = match (quantized, d.fp32 > 0) {
        (true, true) => (
            "U × 2 + U32 × 2".to_string(),
            format!("{} × 2 + {} × 2", c.int(d.unquantized), c.int(d.fp32)),
        ),
        (true, false) => ("U × 2".to_string(), format!("{} × 2", c.int(d.unquantized))),
        (false, true) => (
            "(U − U32) × b_w / 8 + U32 × 4".to_string(),
            format!(
                "({} − {}) × {bits} / 8 + {} × 4",
                c.int(d.unquantized),
                c.int(d.fp32),
                c.int(d.fp32)
            ),
        ),
        (false, false) => (
            "U × b_w / 8".to_string(),
            format!("{} × {bits} / 8", c.int(d.unquantized)),
        ),
    };
    let (formula, substituted) = match place_n {
        None => (format!("{body} + {kept}"), format!("{body_n} + {kept_n}")),
        Some(place_n) => {
            symbols.extend([
                (Symbol::StageLayers, c.int(p.plan.stage_layers)),
                (Symbol::Layers, c.int(d.layers)),
                (Symbol::Tp, c.int(tp)),
            ]);
            (
                format!("⌈{body}{place}⌉ + ⌈({kept}) / TP⌉"),
                format!("⌈{body_n}{place_n}⌉ + ⌈({kept_n}) / {}⌉", c.int(tp)),
            )
        }
    };
    (formula, substituted, symbols)
}

/// The tokens whose activations are budgeted, as a formula and in
/// numbers: `min(B_act × S; N_pre)` serving, `B × S` training.
fn act_tokens(c: &Ctx, p: &Planned) -> (&'static str, String, Vec<(Symbol, String)>) {
    let s = c.s;
    let k = &s.planner;
    if s.mode.trains() {
        (
            "B × S",
            format!("({} × {})", c.int(s.replica_sequences()), c.int(s.context)),
            vec![
                (Symbol::Sequences, c.int(s.replica_sequences())),
                (Symbol::Context, c.int(s.context)),
            ],
        )
    } else {
        (
            "min(B_act × S; N_pre)",
            format!(
                "min({} × {}; {})",
                c.int(p.plan.residency.active),
                c.int(s.context),
                c.int(k.prefill_budget)
            ),
            vec![
                (Symbol::Active, c.int(p.plan.residency.active)),
                (Symbol::Context, c.int(s.context)),
                (Symbol::PrefillBudget, c.int(k.prefill_budget)),
            ],
        )
    }
}

/// `T_p`-based training terms: `bytes × T_p`.
fn per_trainable(c: &Ctx, p: &Planned, term: Term, bytes: u64, sign: &str) -> Option<Derivation> {
    let (factor, symbols) = match term {
        Term::Gradients => (
            "g".to_string(),
            vec![
                (Symbol::GradientBytes, c.int(bytes)),
                (Symbol::Trainable, c.int(p.trainable)),
            ],
        ),
        _ => (c.int(bytes), vec![(Symbol::Trainable, c.int(p.trainable))]),
    };
    derived(
        term,
        format!("{sign} = {factor} × T_p"),
        symbols,
        format!("{} × {}", c.int(bytes), c.int(p.trainable)),
    )
}

pub(super) fn derive(term: Term, c: &Ctx) -> Option<Derivation> {
    let s = c.s;
    let p = planned(c)?;
    let d = &p.d;
    let training = s.mode.trains();
    let layer_factor = |c: &Ctx| match training {
        true => (" × L_st", format!(" × {}", c.int(p.plan.stage_layers))),
        false => ("", String::new()),
    };
    match term {
        Term::Weights => weights(c, &p),
        Term::KvCache => {
            let (substituted, symbols) = kv::planner(
                c,
                s.model.as_deref(),
                p.plan.stage_layers,
                p.plan.residency.kv_sequences,
            );
            Some(Derivation {
                term,
                formula: "KV = Σ_ℓ≤L_st v_ℓ × N_res × b_kv".into(),
                symbols,
                substituted,
            })
        }
        Term::Activations => {
            let (tokens, tokens_n, mut symbols) = act_tokens(c, &p);
            let (lf, lf_n) = layer_factor(c);
            let k = c.milli(s.planner.activation_milli_k);
            symbols.extend([
                (Symbol::ActivationK, k.clone()),
                (Symbol::Hidden, c.int(d.hidden)),
            ]);
            if training {
                symbols.push((Symbol::StageLayers, c.int(p.plan.stage_layers)));
            }
            derived(
                term,
                format!("Act = 2 × K × {tokens} × H{lf}"),
                symbols,
                format!("2 × {k} × {tokens_n} × {}{lf_n}", c.int(d.hidden)),
            )
        }
        Term::Logits => match training {
            true => derived(
                term,
                "Lg = 4 × V × B × S",
                vec![
                    (Symbol::Vocab, c.int(d.vocab)),
                    (Symbol::Sequences, c.int(s.replica_sequences())),
                    (Symbol::Context, c.int(s.context)),
                ],
                format!(
                    "4 × {} × {} × {}",
                    c.int(d.vocab),
                    c.int(s.replica_sequences()),
                    c.int(s.context)
                ),
            ),
            false => derived(
                term,
                "Lg = 4 × V × B_act",
                vec![
                    (Symbol::Vocab, c.int(d.vocab)),
                    (Symbol::Active, c.int(p.plan.residency.active)),
                ],
                format!(
                    "4 × {} × {}",
                    c.int(d.vocab),
                    c.int(p.plan.residency.active)
                ),
            ),
        },
        Term::AttentionScores => {
            if efficient_attention(s) {
                return None;
            }
            let (lf, lf_n) = layer_factor(c);
            let (b, b_sym, b_n) = match training {
                true => ("B", Symbol::Sequences, s.replica_sequences()),
                false => ("B_act", Symbol::Active, p.plan.residency.active),
            };
            derived(
                term,
                format!("Sc = 2 × ⌈Q / TP⌉ × {b} × S²{lf}"),
                vec![
                    (Symbol::QueryHeads, c.int(d.q_heads)),
                    (Symbol::Tp, c.int(s.layout.tp.max(1))),
                    (b_sym, c.int(b_n)),
                    (Symbol::Context, c.int(s.context)),
                ],
                format!(
                    "2 × ⌈{} / {}⌉ × {} × {} × {}{lf_n}",
                    c.int(d.q_heads),
                    c.int(s.layout.tp.max(1)),
                    c.int(b_n),
                    c.int(s.context),
                    c.int(s.context)
                ),
            )
        }
        Term::Adapters => per_trainable(c, &p, term, ADAPTER_BYTES, "Ad"),
        Term::Gradients => per_trainable(c, &p, term, s.planner.gradient_bytes, "G"),
        Term::Optimizer => per_trainable(c, &p, term, ADAMW_BYTES, "OS"),
        Term::MasterWeights => per_trainable(c, &p, term, MASTER_BYTES, "MW"),
        Term::Communication => {
            let (tokens, tokens_n, mut symbols) = act_tokens(c, &p);
            let dims = u64::from(s.layout.tp > 1) + u64::from(s.layout.pp > 1);
            symbols.extend([
                (Symbol::Hidden, c.int(d.hidden)),
                (Symbol::Tp, c.int(s.layout.tp)),
                (Symbol::Pp, c.int(s.layout.pp)),
            ]);
            derived(
                term,
                format!("Cm = 2 × 2 × {tokens} × H × ([TP > 1] + [PP > 1])"),
                symbols,
                format!("2 × 2 × {tokens_n} × {} × {}", c.int(d.hidden), c.int(dims)),
            )
        }
        Term::OffloadStaging => derived(
            term,
            "St = ⌈W_body / (L × TP)⌉",
            vec![
                (Symbol::BodyBytes, c.int(p.plan.weights.body)),
                (Symbol::Layers, c.int(d.layers)),
                (Symbol::Tp, c.int(s.layout.tp.max(1))),
            ],
            format!(
                "⌈{} / ({} × {})⌉",
                c.int(p.plan.weights.body),
                c.int(d.layers),
                c.int(s.layout.tp.max(1))
            ),
        ),
        Term::Margin => {
            let (signs, values) = c.sum_of(&[
                Term::Weights,
                Term::Adapters,
                Term::KvCache,
                Term::Activations,
                Term::Logits,
                Term::AttentionScores,
                Term::Gradients,
                Term::Optimizer,
                Term::MasterWeights,
                Term::Communication,
                Term::OffloadStaging,
            ]);
            let m = c.centi(s.planner.margin_centi_pct);
            derived(
                term,
                format!("M = m / 100 × ({signs})"),
                vec![(Symbol::MarginPct, m.clone())],
                format!("{m} / 100 × ({values})"),
            )
        }
        Term::EngineContext => derived(
            term,
            match s.planner.engine_context_bytes.get() == vramfit_core::units::GIB {
                true => "EC = 1 GiB = 2³⁰",
                false => "EC",
            },
            vec![(
                Symbol::EngineContextBytes,
                c.int(s.planner.engine_context_bytes.get()),
            )],
            c.int(s.planner.engine_context_bytes.get()),
        ),
        Term::Overhead
        | Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::ModelStates
        | Term::ActivationPeak
        | Term::NonTorch
        | Term::CudaGraphs
        | Term::KCache
        | Term::VCache
        | Term::ComputeBuffer
        | Term::OutputBuffer
        | Term::HostPart => None,
    }
}
