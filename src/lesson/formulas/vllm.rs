//! `vllm`: the scenario's terms as vLLM's own start-up figures on the most
//! loaded worker (`vramfit_core::methods::vllm::run`), derived in
//! [`super::engines`]; the KV cache is the scenario's demand on it, `B`
//! requests of the context in vLLM's blocks.

use super::engines::{self, Num, VllmPart};
use super::{derived, Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::vllm::VllmRun;
use vramfit_core::term::Term;

pub(super) fn derive(term: Term, c: &Ctx, run: &VllmRun) -> Option<Derivation> {
    let part = match term {
        Term::Weights => VllmPart::Weights,
        Term::ActivationPeak => VllmPart::ActivationPeak,
        Term::NonTorch => VllmPart::NonTorch,
        Term::CudaGraphs => VllmPart::CudaGraphs,
        Term::KvCache => return demand(c, run),
        Term::Overhead
        | Term::TrainingStates
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
        | Term::KCache
        | Term::VCache
        | Term::ComputeBuffer
        | Term::OutputBuffer
        | Term::HostPart => return None,
    };
    let rank = run.estimate.ranks.get(run.worker)?;
    let (formula, symbols, substituted) =
        engines::vllm_on(part, &run.estimate, rank, &run.inputs, &Num(c.n));
    Some(Derivation {
        term,
        formula,
        symbols,
        substituted,
    })
}

/// `KV = B × kv_req`: the scenario's requests at once, each of the
/// context, in the blocks vLLM gives one request on the worker.
fn demand(c: &Ctx, run: &VllmRun) -> Option<Derivation> {
    let per_request = run.estimate.ranks.get(run.worker)?.kv_per_request_bytes;
    derived(
        Term::KvCache,
        "KV = B × kv_req",
        vec![
            (Symbol::Sequences, c.int(c.s.replica_sequences())),
            (Symbol::Context, c.int(c.s.context)),
            (Symbol::Block, c.int(run.inputs.block_size)),
            (Symbol::RequestKv, c.int(per_request)),
        ],
        format!(
            "{} × {}",
            c.int(c.s.replica_sequences()),
            c.int(per_request)
        ),
    )
}
