//! `allocator`: PyTorch's peak allocation for one step of a dense model
//! (`vramfit_core::methods::allocator`). The per-token byte counts put in
//! are the core's own (`layer_saved_per_token`, ...); the phase that sets
//! the peak is the core's too.

use super::{derived, Ctx, Derivation};
use crate::lesson::symbols::{term_sign, Symbol};
use vramfit_core::methods::allocator::{
    self, cache_extra_per_token, final_saved_per_token, logits_backward_per_token,
    logits_forward_per_token, masked_sdpa_per_layer, norm_saved_per_token, trainable_bytes,
    trainable_params, AllocatorInputs, DenseArch, Phase, StepKind, CUBLAS_WORKSPACE_BYTES,
    OVERHEAD_BYTES,
};
use vramfit_core::scenario::{AttnImpl, Optimizer};
use vramfit_core::term::Term;
use vramfit_core::units::GB;

struct Step {
    arch: DenseArch,
    inputs: AllocatorInputs,
    /// The phase whose tensors set the activations (and autocast copies):
    /// the peak of the forward and backward passes, whatever the optimizer
    /// step's temporary does.
    phase: Phase,
}

fn step(c: &Ctx) -> Option<Step> {
    let spec = c.s.model.as_deref()?;
    let arch = DenseArch::from_spec(spec).ok()?;
    let inputs = allocator::inputs_of(c.s).ok()?;
    // Without the optimizer's temporary (SGD has none) the peak phase is
    // the passes' own; the activations do not depend on the optimizer.
    let passes = AllocatorInputs {
        optimizer: Optimizer::Sgd,
        ..inputs
    };
    let phase = allocator::estimate(&arch, &passes).peak_phase;
    Some(Step {
        arch,
        inputs,
        phase,
    })
}

fn lora_rank(inputs: &AllocatorInputs) -> Option<u64> {
    match inputs.step {
        StepKind::Lora { rank, .. } => Some(rank),
        _ => None,
    }
}

/// `total = W + KV + G + OS + max(Act + AC, SW)` over the terms present.
pub(super) fn total_formula(c: &Ctx) -> String {
    let (states, _) = c.sum_of(&[
        Term::Weights,
        Term::KvCache,
        Term::Gradients,
        Term::Optimizer,
    ]);
    let (pass, _) = c.sum_of(&[Term::Activations, Term::AutocastCache]);
    match c.bytes(Term::StepWorkspace) {
        0 => format!("{states} + {pass}"),
        _ => format!("{states} + max({pass}; {})", term_sign(Term::StepWorkspace)),
    }
}

/// A piece of a formula: in symbols, in numbers, and the symbols it uses.
type Written = (String, String, Vec<(Symbol, String)>);

/// What one sdpa layer keeps beyond its per-token share when no KV cache
/// object exists in training (`use_cache=False` or checkpointing): the
/// additive mask, its columns padded to 16, and the efficient kernel's
/// log-sum-exp, its rows padded to 32 (`allocator::masked_sdpa_per_layer`).
/// `None` when attention runs without a mask.
fn masked(c: &Ctx, st: &Step) -> Option<Written> {
    let (a, i) = (&st.arch, &st.inputs);
    if masked_sdpa_per_layer(a, i) == 0 {
        return None;
    }
    let wd = allocator::widths(i);
    let (b, t) = (c.int(i.batch), c.int(i.seq_len));
    Some((
        "(B × S × ⌈S / 16⌉ × 16 × a + 4 × B × Q × ⌈S / 32⌉ × 32)".into(),
        format!(
            "({b} × {t} × ⌈{t} / 16⌉ × 16 × {} + 4 × {b} × {} × ⌈{t} / 32⌉ × 32)",
            c.int(wd.a),
            c.int(a.heads)
        ),
        vec![
            (Symbol::ActWidth, c.int(wd.a)),
            (Symbol::QueryHeads, c.int(a.heads)),
        ],
    ))
}

/// Adds `symbols` to `into`, each once.
fn add_symbols(into: &mut Vec<(Symbol, String)>, symbols: Vec<(Symbol, String)>) {
    for (symbol, value) in symbols {
        if !into.iter().any(|(s, _)| *s == symbol) {
            into.push((symbol, value));
        }
    }
}

/// Activations at the peak phase.
fn activations(c: &Ctx, st: &Step) -> Option<Derivation> {
    let (a, i) = (&st.arch, &st.inputs);
    let wd = allocator::widths(i);
    let ws = c.int(CUBLAS_WORKSPACE_BYTES);
    let mut symbols = vec![
        (Symbol::Sequences, c.int(i.batch)),
        (Symbol::Context, c.int(i.seq_len)),
    ];
    let tokens = format!("{} × {}", c.int(i.batch), c.int(i.seq_len));
    let full = i.step == StepKind::FullFinetune;
    // The saved layer stack of a training step.
    let mut stack = || -> (String, String) {
        if i.grad_checkpoint {
            symbols.extend([
                (Symbol::Layers, c.int(a.layers)),
                (Symbol::StreamWidth, c.int(wd.s)),
                (Symbol::Hidden, c.int(a.hidden)),
            ]);
            (
                "N × L × s × H".into(),
                format!(
                    "{tokens} × {} × {} × {}",
                    c.int(a.layers),
                    c.int(wd.s),
                    c.int(a.hidden)
                ),
            )
        } else {
            let layer = a_layer(a, i);
            symbols.extend([
                (Symbol::Layers, c.int(a.layers)),
                (Symbol::LayerSaved, c.int(layer)),
            ]);
            let (per_token, per_token_n) = if full {
                (
                    "N × L × λ".to_string(),
                    format!("{tokens} × {} × {}", c.int(a.layers), c.int(layer)),
                )
            } else {
                let first = norm_saved_per_token(a.hidden, a.norm_style, wd.s, false) as u64;
                symbols.push((Symbol::FirstNorm, c.int(first)));
                (
                    "N × (L × λ − ν₀)".to_string(),
                    format!(
                        "{tokens} × ({} × {} − {})",
                        c.int(a.layers),
                        c.int(layer),
                        c.int(first)
                    ),
                )
            };
            // Every layer's mask and log-sum-exp, without a cache object.
            match masked(c, st) {
                None => (per_token, per_token_n),
                Some((m, m_n, m_symbols)) => {
                    add_symbols(&mut symbols, m_symbols);
                    (
                        format!("{per_token} + L × {m}"),
                        format!("{per_token_n} + {} × {m_n}", c.int(a.layers)),
                    )
                }
            }
        }
    };
    let (formula, substituted) = match st.phase {
        Phase::LogitsBackward | Phase::ForwardLoss | Phase::OptimizerStep => {
            let (stack_f, stack_n) = stack();
            let fin = final_saved_per_token(a, i) as u64;
            let backward = st.phase != Phase::ForwardLoss;
            let chain = match backward {
                true => logits_backward_per_token(a, i),
                false => logits_forward_per_token(a, i),
            } as u64;
            // The forward keeps the last hidden state unless the trained
            // head saves it anyway.
            let hidden = match backward || (full && !wd.autocast) {
                true => 0,
                false => wd.s * a.hidden,
            };
            symbols.extend([
                (Symbol::FinalSaved, c.int(fin + hidden)),
                (Symbol::LogitBytes, c.int(chain)),
                (Symbol::Workspace, ws.clone()),
            ]);
            (
                format!("Act = {stack_f} + N × (φ + χ) + ws"),
                format!(
                    "{stack_n} + {tokens} × ({} + {}) + {ws}",
                    c.int(fin + hidden),
                    c.int(chain)
                ),
            )
        }
        Phase::LayerRecompute => {
            let (stack_f, stack_n) = stack();
            let layer = allocator::layer_saved_per_token(a, i) as u64;
            symbols.extend([
                (Symbol::LayerSaved, c.int(layer)),
                (Symbol::ActWidth, c.int(wd.a)),
                (Symbol::Vocab, c.int(a.vocab)),
                (Symbol::Workspace, ws.clone()),
            ]);
            // The recomputed layer's own mask and log-sum-exp.
            let (m, m_n) = match masked(c, st) {
                None => (String::new(), String::new()),
                Some((m, m_n, m_symbols)) => {
                    add_symbols(&mut symbols, m_symbols);
                    (format!(" + {m}"), format!(" + {m_n}"))
                }
            };
            (
                format!("Act = {stack_f} + N × (λ + a × V + s × H){m} + ws"),
                format!(
                    "{stack_n} + {tokens} × ({} + {} × {} + {} × {}){m_n} + {ws}",
                    c.int(layer),
                    c.int(wd.a),
                    c.int(a.vocab),
                    c.int(wd.s),
                    c.int(a.hidden)
                ),
            )
        }
        // A tied head: the decoder layers' backward starts while the
        // head's gradient for the shared weight waits for the embedding's.
        Phase::HeadGradient => {
            let (stack_f, stack_n) = stack();
            let fin = final_saved_per_token(a, i) as u64;
            add_symbols(
                &mut symbols,
                vec![
                    (Symbol::FinalSaved, c.int(fin)),
                    (Symbol::ActWidth, c.int(wd.a)),
                    (Symbol::StreamWidth, c.int(wd.s)),
                    (Symbol::Hidden, c.int(a.hidden)),
                    (Symbol::Vocab, c.int(a.vocab)),
                    (Symbol::EmbedParams, c.int(a.embedding_params())),
                    (Symbol::WeightWidth, c.int(wd.w)),
                    (Symbol::Workspace, ws.clone()),
                ],
            );
            (
                format!("Act = {stack_f} + N × (φ + a × H + s × H) + N × a × V + E × w + ws"),
                format!(
                    "{stack_n} + {tokens} × ({} + {} × {} + {} × {}) + {tokens} × {} × {} + {} × {} + {ws}",
                    c.int(fin),
                    c.int(wd.a),
                    c.int(a.hidden),
                    c.int(wd.s),
                    c.int(a.hidden),
                    c.int(wd.a),
                    c.int(a.vocab),
                    c.int(a.embedding_params()),
                    c.int(wd.w)
                ),
            )
        }
        // A tied head: the embedding's backward, the step's last node,
        // adds its gradient to the head's; only the kept logits remain.
        Phase::EmbeddingBackward => {
            symbols.extend([
                (Symbol::ActWidth, c.int(wd.a)),
                (Symbol::Vocab, c.int(a.vocab)),
                (Symbol::EmbedParams, c.int(a.embedding_params())),
                (Symbol::WeightWidth, c.int(wd.w)),
                (Symbol::Workspace, ws.clone()),
            ]);
            (
                "Act = N × a × V + 2 × E × w + ws".into(),
                format!(
                    "{tokens} × {} × {} + 2 × {} × {} + {ws}",
                    c.int(wd.a),
                    c.int(a.vocab),
                    c.int(a.embedding_params()),
                    c.int(wd.w)
                ),
            )
        }
        Phase::PrefillLogits => {
            let softcap = a.final_logit_softcap;
            symbols.extend([
                (Symbol::ActWidth, c.int(wd.a)),
                (Symbol::Hidden, c.int(a.hidden)),
                (Symbol::Vocab, c.int(a.vocab)),
                (Symbol::Workspace, ws.clone()),
            ]);
            match softcap {
                false => (
                    "Act = N × a × (H + V) + ws".into(),
                    format!(
                        "{tokens} × {} × ({} + {}) + {ws}",
                        c.int(wd.a),
                        c.int(a.hidden),
                        c.int(a.vocab)
                    ),
                ),
                true => (
                    "Act = N × a × (H + 2 × V) + ws".into(),
                    format!(
                        "{tokens} × {} × ({} + 2 × {}) + {ws}",
                        c.int(wd.a),
                        c.int(a.hidden),
                        c.int(a.vocab)
                    ),
                ),
            }
        }
        Phase::PrefillMlp => {
            symbols.extend([
                (Symbol::ActWidth, c.int(wd.a)),
                (Symbol::Hidden, c.int(a.hidden)),
                (Symbol::Intermediate, c.int(a.intermediate)),
                (Symbol::Workspace, ws.clone()),
            ]);
            (
                "Act = N × a × (4 × H + 3 × I) + ws".into(),
                format!(
                    "{tokens} × {} × (4 × {} + 3 × {}) + {ws}",
                    c.int(wd.a),
                    c.int(a.hidden),
                    c.int(a.intermediate)
                ),
            )
        }
        Phase::PrefillAttention => {
            symbols.extend([
                (Symbol::ActWidth, c.int(wd.a)),
                (Symbol::Hidden, c.int(a.hidden)),
                (Symbol::QueryWidth, c.int(a.q_dim())),
                (Symbol::Workspace, ws.clone()),
            ]);
            match i.attn_impl {
                AttnImpl::Eager => {
                    let copies = if a.kv_heads < a.heads { 2 } else { 0 };
                    let scores = allocator::eager_scores_peak_bytes(i.dtype) as u64;
                    symbols.push((Symbol::QueryHeads, c.int(a.heads)));
                    (
                        format!(
                            "Act = N × a × (3 × H + {} × q) + B × S² × a + B × Q × S² × {scores} + ws",
                            1 + copies
                        ),
                        format!(
                            "{tokens} × {} × (3 × {} + {} × {}) + {b} × {s} × {s} × {} + {b} × {} × {s} × {s} × {scores} + {ws}",
                            c.int(wd.a),
                            c.int(a.hidden),
                            1 + copies,
                            c.int(a.q_dim()),
                            c.int(wd.a),
                            c.int(a.heads),
                            b = c.int(i.batch),
                            s = c.int(i.seq_len),
                        ),
                    )
                }
                AttnImpl::Sdpa | AttnImpl::Flash => (
                    "Act = N × a × (3 × H + 2 × q) + ws".into(),
                    format!(
                        "{tokens} × {} × (3 × {} + 2 × {}) + {ws}",
                        c.int(wd.a),
                        c.int(a.hidden),
                        c.int(a.q_dim())
                    ),
                ),
            }
        }
    };
    derived(Term::Activations, formula, symbols, substituted)
}

/// A layer's saved bytes per token, with what the training-time cache
/// adds: `λ`.
fn a_layer(a: &DenseArch, i: &AllocatorInputs) -> u64 {
    (allocator::layer_saved_per_token(a, i) + cache_extra_per_token(a, i)) as u64
}

/// The autocast copies alive in the peak phase (amp only).
fn autocast(c: &Ctx, st: &Step) -> Option<Derivation> {
    let (a, i) = (&st.arch, &st.inputs);
    let wd = allocator::widths(i);
    let adapters = lora_rank(i).map(|r| a.lora_params(r));
    let aw = c.int(wd.a);
    let mut symbols = vec![(Symbol::ActWidth, aw.clone())];
    let (formula, substituted) = match (i.grad_checkpoint, st.phase, adapters) {
        // The embedding's backward comes after every cast is freed.
        (_, Phase::EmbeddingBackward, _) => ("AC = 0".to_string(), "0".to_string()),
        // Every cast is saved (no checkpointing), or still cached by the
        // no_grad forward of a full fine-tuning (checkpointing, forward).
        (false, _, None) | (true, Phase::ForwardLoss, None) => {
            symbols.push((Symbol::CastParams, c.int(a.autocast_params())));
            (
                "AC = a × P_c".to_string(),
                format!("{aw} × {}", c.int(a.autocast_params())),
            )
        }
        (false, _, Some(ap)) => {
            symbols.extend([
                (Symbol::CastParams, c.int(a.autocast_params())),
                (Symbol::AdapterParams, c.int(ap)),
            ]);
            (
                "AC = a × (P_c + A_p)".to_string(),
                format!("{aw} × ({} + {})", c.int(a.autocast_params()), c.int(ap)),
            )
        }
        (true, Phase::ForwardLoss, Some(ap)) => {
            symbols.extend([
                (Symbol::EmbedParams, c.int(a.embedding_params())),
                (Symbol::AdapterParams, c.int(ap)),
            ]);
            (
                "AC = a × (E + A_p)".to_string(),
                format!("{aw} × ({} + {})", c.int(a.embedding_params()), c.int(ap)),
            )
        }
        (true, Phase::LayerRecompute, ap) => {
            symbols.push((Symbol::LayerParams, c.int(a.layer_linear_params())));
            match ap {
                None => (
                    "AC = a × P_ℓ".to_string(),
                    format!("{aw} × {}", c.int(a.layer_linear_params())),
                ),
                Some(ap) => {
                    symbols.extend([
                        (Symbol::AdapterParams, c.int(ap)),
                        (Symbol::Layers, c.int(a.layers)),
                    ]);
                    (
                        "AC = a × P_ℓ + ⌊a × A_p / L⌋".to_string(),
                        format!(
                            "{aw} × {} + ⌊{aw} × {} / {}⌋",
                            c.int(a.layer_linear_params()),
                            c.int(ap),
                            c.int(a.layers)
                        ),
                    )
                }
            }
        }
        // Checkpointed backward: only the LM head's copy, saved by its
        // linear layer.
        (true, _, _) => {
            symbols.push((Symbol::EmbedParams, c.int(a.embedding_params())));
            (
                "AC = a × E".to_string(),
                format!("{aw} × {}", c.int(a.embedding_params())),
            )
        }
    };
    derived(Term::AutocastCache, formula, symbols, substituted)
}

pub(super) fn derive(term: Term, c: &Ctx) -> Option<Derivation> {
    let st = step(c)?;
    let (a, i) = (&st.arch, &st.inputs);
    let wd = allocator::widths(i);
    let trainable = trainable_params(a, i.step);
    let t = trainable_bytes(i);
    let trained = || {
        vec![
            (Symbol::Trainable, c.int(trainable)),
            (Symbol::TrainWidth, c.int(t)),
        ]
    };
    match term {
        Term::Weights => match lora_rank(i) {
            None => derived(
                term,
                "W = P × w",
                vec![
                    (Symbol::Params, c.int(a.params_total)),
                    (Symbol::WeightWidth, c.int(wd.w)),
                ],
                format!("{} × {}", c.int(a.params_total), c.int(wd.w)),
            ),
            Some(r) => derived(
                term,
                "W = P × w + 4 × A_p",
                vec![
                    (Symbol::Params, c.int(a.params_total)),
                    (Symbol::WeightWidth, c.int(wd.w)),
                    (Symbol::AdapterParams, c.int(a.lora_params(r))),
                    (Symbol::LoraRank, c.int(r)),
                ],
                format!(
                    "{} × {} + 4 × {}",
                    c.int(a.params_total),
                    c.int(wd.w),
                    c.int(a.lora_params(r))
                ),
            ),
        },
        Term::KvCache => derived(
            term,
            "KV = 2 × L × N × k × a",
            vec![
                (Symbol::Layers, c.int(a.layers)),
                (Symbol::Sequences, c.int(i.batch)),
                (Symbol::Context, c.int(i.seq_len)),
                (Symbol::KvWidth, c.int(a.kv_dim())),
                (Symbol::ActWidth, c.int(wd.a)),
            ],
            format!(
                "2 × {} × {} × {} × {} × {}",
                c.int(a.layers),
                c.int(i.batch),
                c.int(i.seq_len),
                c.int(a.kv_dim()),
                c.int(wd.a)
            ),
        ),
        Term::Gradients | Term::StepWorkspace => derived(
            term,
            format!("{} = T_p × t", term_sign(term)),
            trained(),
            format!("{} × {}", c.int(trainable), c.int(t)),
        ),
        Term::Optimizer => {
            let states = match i.optimizer {
                Optimizer::AdamW => 2,
                Optimizer::Sgd => 1,
            };
            let mut symbols = vec![(Symbol::OptimizerStates, c.int(states))];
            symbols.extend(trained());
            derived(
                term,
                "OS = k_opt × T_p × t",
                symbols,
                format!("{states} × {} × {}", c.int(trainable), c.int(t)),
            )
        }
        Term::Activations => activations(c, &st),
        Term::AutocastCache => autocast(c, &st),
        Term::Overhead => {
            let gb = c.dec(OVERHEAD_BYTES as f64 / GB as f64);
            derived(
                term,
                "O = O_GB × 10⁹",
                vec![(Symbol::OverheadGb, gb.clone())],
                format!("{gb} × {}", c.int(GB)),
            )
        }
        Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::Margin
        | Term::ModelStates
        | Term::Adapters
        | Term::Logits
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext
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
