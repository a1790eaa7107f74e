//! `quick`: weights, a dense full-attention KV cache and a percentage of
//! overhead (`vramfit_core::methods::quick`, `dense`).

use super::{derived, Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::scenario::WeightFormat;
use vramfit_core::term::Term;

/// The dense formulas both `quick` and `lesson` state: weights
/// `P × b_w / 8` (as published, the checkpoint's own bytes) and cache
/// `2 × L × H_kv × d × S × B × b_kv`, `B` one copy's share of the
/// sequences.
pub(super) fn dense(term: Term, c: &Ctx) -> Option<Derivation> {
    let s = c.s;
    let published = match (s.weight_format, s.model.as_deref()) {
        (Some(WeightFormat::AsPublished), Some(m)) => Some(m.checkpoint.bytes),
        _ => None,
    };
    match (term, published) {
        (Term::Weights, Some(bytes)) => derived(
            term,
            "W = W_ckpt",
            vec![(Symbol::CheckpointBytes, c.int(bytes))],
            c.int(bytes),
        ),
        (Term::Weights, None) => derived(
            term,
            "W = P × b_w / 8",
            vec![
                (Symbol::Params, c.int(s.params)),
                (Symbol::WeightBits, c.milli(s.weight_milli_bits)),
            ],
            format!("{} × {} / 8", c.int(s.params), c.milli(s.weight_milli_bits)),
        ),
        (Term::KvCache, _) => derived(
            term,
            "KV = 2 × L × H_kv × d × S × B × b_kv",
            vec![
                (Symbol::Layers, c.int(s.layers)),
                (Symbol::KvHeads, c.int(s.kv_heads)),
                (Symbol::HeadDim, c.int(s.head_dim)),
                (Symbol::Context, c.int(s.context)),
                (Symbol::Sequences, c.int(s.replica_sequences())),
                (Symbol::KvBytes, c.dec(s.kv_milli_bits as f64 / 8_000.0)),
            ],
            format!(
                "2 × {} × {} × {} × {} × {} × {}",
                c.int(s.layers),
                c.int(s.kv_heads),
                c.int(s.head_dim),
                c.int(s.context),
                c.int(s.replica_sequences()),
                c.dec(s.kv_milli_bits as f64 / 8_000.0)
            ),
        ),
        _ => None,
    }
}

pub(super) fn derive(term: Term, c: &Ctx) -> Option<Derivation> {
    match term {
        Term::Weights | Term::KvCache => dense(term, c),
        Term::Overhead => {
            let (signs, values) = c.sum_of(&[Term::Weights, Term::KvCache]);
            derived(
                term,
                format!("O = ({signs}) × o / 100"),
                vec![(Symbol::OverheadPct, c.centi(c.s.overhead_centi_pct))],
                format!("({values}) × {} / 100", c.centi(c.s.overhead_centi_pct)),
            )
        }
        Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::Margin
        | Term::Gradients
        | Term::Optimizer
        | Term::Activations
        | Term::AutocastCache
        | Term::StepWorkspace
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
