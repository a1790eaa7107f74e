//! Why a method does not estimate a scenario: each method checks its own
//! preconditions and refuses with one of these.

use crate::model::Family;
use crate::scenario::{Mode, Optimizer, PlannerError};
use serde::Serialize;

/// Why a method does not estimate a scenario. Shared by every method;
/// each variant names what is missing or out of reach, so that every front
/// end can say it in its own language.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Refusal {
    /// A mode the method does not estimate (seed 004 is for serving only).
    Mode(Mode),
    /// Typed numbers: the method needs the whole architecture.
    NeedsModel,
    /// A family whose layers it does not derive.
    Family(Family),
    /// Something in the model it does not model.
    Feature(Feature),
    /// Weights that are not fp32, bf16 or fp16.
    QuantizedWeights,
    /// More GPUs than the method spreads a model over.
    TooManyGpus { max: u64 },
    /// The method estimates one GPU holding a whole copy of the model; the
    /// layout spreads a copy over `tp × pp` GPUs.
    SingleGpu { tp: u64, pp: u64 },
    /// Training with an optimizer the method does not state (seed 002
    /// gives AdamW only).
    Optimizer(Optimizer),
    /// A knob that contradicts the model or the workload (the planner's
    /// offload above the weights or the host RAM, a shared prefix longer
    /// than the context, `U` above the parameters).
    Knob(PlannerError),
    /// An engine method (`vllm`, `llamacpp`) that does not take the
    /// scenario, in the engine's terms.
    Engine(super::engine::EngineRefusal),
}

/// A model feature outside the method's derivations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    Experts,
    LatentAttention,
    LinearLayers,
    QuantizedCheckpoint,
    NoDenseMlp,
    /// DeepSeek-V4's compressed attention (windows plus pooled entries).
    CompressedAttention,
    /// Grouped-query attention layers that also cache a sparse-attention
    /// indexer's key per token (MiniMax-M3).
    SparseIndexer,
    /// Attention layers whose head widths differ from layer to layer
    /// (Gemma-4's global layers, MiMo-V2's value heads).
    MixedAttentionWidths,
    /// A vision tower, whose activations the method does not derive.
    VisionTower,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Mode(mode) => write!(f, "it does not estimate {}", mode.id()),
            Refusal::NeedsModel => {
                write!(f, "it needs a real model (catalog id or config.json), not typed numbers")
            }
            Refusal::Family(family) => write!(
                f,
                "{} models are outside its scope (dense llama, mistral, qwen2, qwen3, gemma, gemma2)",
                family.name()
            ),
            Refusal::Feature(feature) => {
                let what = match feature {
                    Feature::Experts => "mixture of experts",
                    Feature::LatentAttention => "latent attention",
                    Feature::LinearLayers => "linear or state-space layers",
                    Feature::QuantizedCheckpoint => "a quantized checkpoint",
                    Feature::NoDenseMlp => "no dense MLP width (intermediate_size)",
                    Feature::CompressedAttention => "compressed attention",
                    Feature::SparseIndexer => "a sparse-attention indexer beside its attention",
                    Feature::MixedAttentionWidths => {
                        "attention head widths that differ from layer to layer"
                    }
                    Feature::VisionTower => "a vision tower",
                };
                write!(f, "the model has {what}, which this method does not model")
            }
            Refusal::QuantizedWeights => write!(
                f,
                "it covers fp32, bf16 and fp16 weights; quantized formats are outside its scope"
            ),
            Refusal::TooManyGpus { max } => {
                write!(
                    f,
                    "it spreads a model over at most {}",
                    crate::scenario::gpu_count(*max)
                )
            }
            Refusal::SingleGpu { tp, pp } => write!(
                f,
                "it estimates one GPU holding the whole model, not one copy spread over TP {tp} × PP {pp} GPUs (set TP = PP = 1 for copies of the model, one per GPU)"
            ),
            Refusal::Optimizer(optimizer) => write!(
                f,
                "it states AdamW's training states only, not {}",
                optimizer.id()
            ),
            Refusal::Knob(e) => e.fmt(f),
            Refusal::Engine(e) => e.fmt(f),
        }
    }
}
