//! What one step runs and how it ends: the step's dtype and kind, the
//! knobs of the step ([`AllocatorInputs`]), the byte widths they give, the
//! phase at which the allocator peaks, and the breakdown by term.

use super::sat::Sat;
use super::USABLE_CENTI_PCT;
use crate::scenario::{AttnImpl, Optimizer, Precision};
use crate::term::Term;
use crate::units::Bytes;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// Storage type of weights (pure precision and inference) or of the
/// autocast compute (amp).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepDtype {
    /// 4 bytes.
    Fp32,
    /// 2 bytes.
    Bf16,
    /// 2 bytes.
    Fp16,
}

impl StepDtype {
    /// Bytes per element.
    pub const fn bytes(self) -> u64 {
        match self {
            StepDtype::Fp32 => 4,
            StepDtype::Bf16 | StepDtype::Fp16 => 2,
        }
    }
}

/// What the step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StepKind {
    /// One forward over the prompt with a KV cache, no gradients.
    Inference,
    /// Every parameter trains.
    FullFinetune,
    /// peft LoRA on `q_proj`, `k_proj`, `v_proj`, `o_proj`, fp32 adapters.
    Lora {
        /// Adapter rank `r`.
        rank: u64,
        /// `lora_dropout > 0` (an `nn.Dropout` per adapter) rather than 0
        /// (an `nn.Identity`). The probability itself does not change memory.
        dropout: bool,
    },
}

/// The knobs of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorInputs {
    /// Inference, full fine-tuning or LoRA.
    pub step: StepKind,
    /// Weight dtype (pure, inference) or autocast dtype (amp).
    pub dtype: StepDtype,
    /// Sequences per step (`B`).
    pub batch: u64,
    /// Tokens per sequence (`T`).
    pub seq_len: u64,
    /// `model.gradient_checkpointing_enable()` (training only).
    pub grad_checkpoint: bool,
    /// Training: the forward runs with `use_cache=True`, transformers'
    /// default, so a `DynamicCache` exists (gradient checkpointing turns it
    /// off); `false` for `use_cache=False`. Inference always has a cache.
    pub use_cache: bool,
    /// Optimizer (training only).
    pub optimizer: Optimizer,
    /// amp or pure (training only).
    pub precision: Precision,
    /// Attention implementation.
    pub attn_impl: AttnImpl,
}

impl AllocatorInputs {
    /// Inference with sdpa, the given dtype, batch and prompt length.
    pub fn inference(dtype: StepDtype, batch: u64, seq_len: u64) -> AllocatorInputs {
        AllocatorInputs {
            step: StepKind::Inference,
            dtype,
            batch,
            seq_len,
            grad_checkpoint: false,
            use_cache: true,
            optimizer: Optimizer::AdamW,
            precision: Precision::Pure,
            attn_impl: AttnImpl::Sdpa,
        }
    }

    /// Whether a KV cache object exists during the forward: always in
    /// inference, in training only with `use_cache=True` and without
    /// gradient checkpointing (transformers `utils/generic.py`,
    /// `check_model_inputs`; `modeling_layers.py`,
    /// `GradientCheckpointingLayer.__call__`, which turn it off).
    pub fn has_cache(&self) -> bool {
        self.step == StepKind::Inference || (self.use_cache && !self.grad_checkpoint)
    }

    /// Training with AdamW and sdpa, `use_cache=True` (transformers'
    /// default).
    pub fn training(
        step: StepKind,
        dtype: StepDtype,
        precision: Precision,
        batch: u64,
        seq_len: u64,
        grad_checkpoint: bool,
    ) -> AllocatorInputs {
        AllocatorInputs {
            step,
            dtype,
            batch,
            seq_len,
            grad_checkpoint,
            use_cache: true,
            optimizer: Optimizer::AdamW,
            precision,
            attn_impl: AttnImpl::Sdpa,
        }
    }
}

/// The moment of the step at which the allocator peaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Inference: the LM head writes the logits.
    PrefillLogits,
    /// Inference: the last layer's MLP.
    PrefillMlp,
    /// Inference: the last layer's attention.
    PrefillAttention,
    /// Training: `log_softmax` in the loss, end of the forward.
    ForwardLoss,
    /// Training: `log_softmax` backward, start of the backward.
    LogitsBackward,
    /// Training with checkpointing: one layer recomputed in the backward.
    LayerRecompute,
    /// Training, tied head: the decoder layers' backward begins while the
    /// LM head's gradient for the tied weight waits for the embedding's.
    HeadGradient,
    /// Training, tied head: the embedding's backward, the last of the step,
    /// adding its gradient to the LM head's.
    EmbeddingBackward,
    /// Training: the foreach optimizer step.
    OptimizerStep,
}

/// The estimate, term by term, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorBreakdown {
    /// Parameters as stored (LoRA: frozen base plus fp32 adapters).
    pub weights: u64,
    /// Inference KV cache (zero in training: see [`cache_extra_per_token`]).
    pub kv_cache: u64,
    /// Gradients of the trainable parameters.
    pub gradients: u64,
    /// Optimizer states.
    pub optimizer: u64,
    /// Tensors alive at the forward/backward peak (saved activations, the
    /// logits chain, workspaces), autocast copies excluded.
    pub activations: u64,
    /// Low-precision weight copies alive at that peak (amp only).
    pub autocast_cache: u64,
    /// Temporary of the foreach optimizer during `step()`.
    pub step_workspace: u64,
    /// `weights + kv_cache + gradients + optimizer
    /// + max(activations + autocast_cache, step_workspace)`.
    pub total: u64,
    /// Memory outside the allocator, added only by [`AllocatorBreakdown::fits`].
    pub overhead: u64,
    /// Where the peak is.
    pub peak_phase: Phase,
}

impl AllocatorBreakdown {
    /// The fit against a GPU of `capacity_bytes` nominal memory: usable is
    /// 97 % of it, and the need is `total + overhead`.
    pub fn fits(&self, capacity: Bytes) -> Verdict {
        Verdict::new(
            Bytes(self.total) + Bytes(self.overhead),
            usable_bytes(capacity),
        )
    }

    /// The terms in display order: those of the total, then the
    /// overhead kept outside it.
    pub fn terms(&self) -> [(Term, Bytes); 8] {
        [
            (Term::Weights, self.weights),
            (Term::KvCache, self.kv_cache),
            (Term::Gradients, self.gradients),
            (Term::Optimizer, self.optimizer),
            (Term::Activations, self.activations),
            (Term::AutocastCache, self.autocast_cache),
            (Term::StepWorkspace, self.step_workspace),
            (Term::Overhead, self.overhead),
        ]
        .map(|(term, bytes)| (term, Bytes(bytes)))
    }
}

/// Usable memory: 97 % of the nominal capacity (seed 003, `fits()`).
pub fn usable_bytes(capacity: Bytes) -> Bytes {
    capacity.percent(USABLE_CENTI_PCT)
}

/// Byte widths of one step: stored base weight `w`, activation `a`,
/// residual stream `s`, and whether autocast is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Widths {
    /// Bytes of a stored base weight.
    pub w: u64,
    /// Bytes of a linear layer's output (and of the logits).
    pub a: u64,
    /// Bytes of the residual stream (the embedding output and the sums).
    pub s: u64,
    /// The forward runs under `torch.autocast`.
    pub autocast: bool,
}

/// `w, a, s`: all equal to the dtype, except amp, where weights and the
/// residual stream are fp32 (`nn.Embedding` is not autocast, so its fp32
/// output starts the stream and every residual add promotes to fp32) and
/// linear outputs are in the autocast dtype (bf16 when the dtype is fp32).
pub fn widths(inputs: &AllocatorInputs) -> Widths {
    let dt = inputs.dtype.bytes();
    match (inputs.step, inputs.precision) {
        (StepKind::Inference, _) | (_, Precision::Pure) => Widths {
            w: dt,
            a: dt,
            s: dt,
            autocast: false,
        },
        (_, Precision::Amp) => Widths {
            w: 4,
            a: if dt == 4 { 2 } else { dt },
            s: 4,
            autocast: true,
        },
    }
}

/// Tokens in one step: `N = B·T`.
pub(super) fn tokens(inputs: &AllocatorInputs) -> Sat {
    Sat::of(inputs.batch) * Sat::of(inputs.seq_len)
}

/// The rank and dropout of a LoRA step.
pub(super) fn lora(mode: StepKind) -> Option<(u64, bool)> {
    match mode {
        StepKind::Lora { rank, dropout } => Some((rank, dropout)),
        _ => None,
    }
}
