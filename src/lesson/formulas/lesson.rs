//! `lesson`: weights and KV cache (inference) or 18 bytes per parameter
//! (training), two reserves in GiB and a margin on the subtotal
//! (`vramfit_core::methods::lesson`).

use super::quick::dense;
use super::{derived, Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::lesson::TRAINING_BYTES_PER_PARAM;
use vramfit_core::term::Term;
use vramfit_core::units::{DisplayUnit, GIB};

pub(super) fn derive(term: Term, c: &Ctx) -> Option<Derivation> {
    let s = c.s;
    let gib = |b: vramfit_core::units::Bytes| c.dec(b.in_unit(DisplayUnit::Gib));
    match term {
        Term::Weights | Term::KvCache => dense(term, c),
        Term::TrainingStates => derived(
            term,
            format!("TS = P × {TRAINING_BYTES_PER_PARAM}"),
            vec![(Symbol::Params, c.int(s.params))],
            format!("{} × {TRAINING_BYTES_PER_PARAM}", c.int(s.params)),
        ),
        Term::Runtime => derived(
            term,
            "RT = R × 2³⁰",
            vec![(Symbol::RuntimeGib, gib(s.runtime_bytes))],
            format!("{} × {}", gib(s.runtime_bytes), c.int(GIB)),
        ),
        Term::Activation => derived(
            term,
            "AR = A × 2³⁰",
            vec![(Symbol::ActivationGib, gib(s.activation_bytes))],
            format!("{} × {}", gib(s.activation_bytes), c.int(GIB)),
        ),
        Term::Margin => {
            let (signs, values) = c.sum_of(&[
                Term::Weights,
                Term::KvCache,
                Term::TrainingStates,
                Term::Runtime,
                Term::Activation,
            ]);
            derived(
                term,
                format!("M = ({signs}) × m / 100"),
                vec![(Symbol::MarginPct, c.centi(s.margin_centi_pct))],
                format!("({values}) × {} / 100", c.centi(s.margin_centi_pct)),
            )
        }
        Term::Overhead
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
