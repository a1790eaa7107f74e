//! The terms of an estimate: every component a method reports, by one
//! stable name. A result lists its components as [`Term`]s, and everything
//! that shows a component (the report, the page's colours, every
//! language's names, the lesson's formulas) matches on `Term` without a
//! fallback, so a new term does not compile until each of them says what
//! it is.
//!
//! The serde ids are the names of the `vramfit/1` document's
//! `components` keys (`weights`, `kv_cache`, ...); they never change.

use serde::{Deserialize, Serialize};

/// One component of an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// Parameters as stored.
    Weights,
    /// Keys and values cached for the context.
    KvCache,
    /// A flat share or figure for what the method does not derive (quick's
    /// percentage; the allocator's memory outside PyTorch).
    Overhead,
    /// Seed 000's 18 bytes per trained parameter.
    TrainingStates,
    /// A runtime reserve (CUDA context, kernels, runtime buffers).
    Runtime,
    /// Seed 000's activation reserve, entered by the person.
    Activation,
    /// A safety margin on the other terms.
    Margin,
    /// Gradients of the trained parameters.
    Gradients,
    /// Optimizer states.
    Optimizer,
    /// Activations derived from the model and the workload.
    Activations,
    /// Low-precision copies of the weights kept by autocast.
    AutocastCache,
    /// The optimizer step's temporary buffers.
    StepWorkspace,
    /// Seed 001's 16 bytes per parameter of full fine-tuning.
    ModelStates,
    /// LoRA/QLoRA adapters (and, in seed 001, their states).
    Adapters,
    /// The output logits.
    Logits,
    /// The `S²` attention score matrix.
    AttentionScores,
    /// An FP32 master copy of the trained parameters.
    MasterWeights,
    /// Tensor- and pipeline-parallel communication buffers.
    Communication,
    /// Staging buffers for weights offloaded to host RAM.
    OffloadStaging,
    /// The serving engine's own context on each GPU.
    EngineContext,
    /// vLLM's profiling peak: what its dummy forward and sampler allocate
    /// above the weights ("torch peak memory increase").
    ActivationPeak,
    /// vLLM's memory outside PyTorch's allocator grown during start-up
    /// (kernels loaded, NCCL buffers: "non-torch forward increase memory").
    NonTorch,
    /// vLLM's CUDA-graph pool, captured after the KV cache is allocated
    /// (reported apart, outside the requested memory).
    CudaGraphs,
    /// llama.cpp's K cache on the GPU.
    KCache,
    /// llama.cpp's V cache on the GPU.
    VCache,
    /// llama.cpp's compute buffer on the GPU (the graph allocator's peak).
    ComputeBuffer,
    /// llama.cpp's output buffer: the logits, in host memory.
    OutputBuffer,
    /// What llama.cpp keeps in host memory besides the output buffer:
    /// weights, KV cache and compute buffer of the layers not offloaded.
    HostPart,
}

impl Term {
    /// Every term, in the order of the enum.
    pub const ALL: [Term; 28] = [
        Term::Weights,
        Term::KvCache,
        Term::Overhead,
        Term::TrainingStates,
        Term::Runtime,
        Term::Activation,
        Term::Margin,
        Term::Gradients,
        Term::Optimizer,
        Term::Activations,
        Term::AutocastCache,
        Term::StepWorkspace,
        Term::ModelStates,
        Term::Adapters,
        Term::Logits,
        Term::AttentionScores,
        Term::MasterWeights,
        Term::Communication,
        Term::OffloadStaging,
        Term::EngineContext,
        Term::ActivationPeak,
        Term::NonTorch,
        Term::CudaGraphs,
        Term::KCache,
        Term::VCache,
        Term::ComputeBuffer,
        Term::OutputBuffer,
        Term::HostPart,
    ];

    /// The stable name, as in JSON (`"kv_cache"`).
    pub const fn id(self) -> &'static str {
        match self {
            Term::Weights => "weights",
            Term::KvCache => "kv_cache",
            Term::Overhead => "overhead",
            Term::TrainingStates => "training_states",
            Term::Runtime => "runtime",
            Term::Activation => "activation",
            Term::Margin => "margin",
            Term::Gradients => "gradients",
            Term::Optimizer => "optimizer",
            Term::Activations => "activations",
            Term::AutocastCache => "autocast_cache",
            Term::StepWorkspace => "step_workspace",
            Term::ModelStates => "model_states",
            Term::Adapters => "adapters",
            Term::Logits => "logits",
            Term::AttentionScores => "attention_scores",
            Term::MasterWeights => "master_weights",
            Term::Communication => "communication",
            Term::OffloadStaging => "offload_staging",
            Term::EngineContext => "engine_context",
            Term::ActivationPeak => "activation_peak",
            Term::NonTorch => "non_torch",
            Term::CudaGraphs => "cuda_graphs",
            Term::KCache => "k_cache",
            Term::VCache => "v_cache",
            Term::ComputeBuffer => "compute_buffer",
            Term::OutputBuffer => "output_buffer",
            Term::HostPart => "host_part",
        }
    }

    /// The term of a stable name.
    ///
    /// ```
    /// use vramfit_core::term::Term;
    /// assert_eq!(Term::from_id("kv_cache"), Some(Term::KvCache));
    /// assert_eq!(Term::from_id("states"), None);
    /// ```
    pub fn from_id(id: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_is_listed_once_and_its_id_is_its_json_name() {
        for term in Term::ALL {
            assert_eq!(Term::ALL.iter().filter(|t| **t == term).count(), 1);
            let json = serde_json::to_string(&term).unwrap();
            assert_eq!(json, format!("\"{}\"", term.id()));
            assert_eq!(Term::from_id(term.id()), Some(term));
        }
        // Listed in the order of the enum, so a variant left out shows.
        for (i, term) in Term::ALL.iter().enumerate() {
            assert_eq!(*term as usize, i, "{term:?}");
        }
        let mut ids: Vec<&str> = Term::ALL.iter().map(|t| t.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Term::ALL.len());
    }
}
