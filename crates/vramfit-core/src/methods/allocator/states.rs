//! Weights, KV cache, gradients, optimizer states and the optimizer
//! step's workspace.

use super::arch::DenseArch;
use super::sat::Sat;
use super::step::{tokens, widths, AllocatorInputs, StepKind};
use crate::scenario::Optimizer;

/// Trainable parameters: `P` (full), `A` (LoRA), 0 (inference).
pub fn trainable_params(arch: &DenseArch, mode: StepKind) -> u64 {
    match mode {
        StepKind::Inference => 0,
        StepKind::FullFinetune => arch.params_total,
        StepKind::Lora { rank, .. } => arch.lora_params(rank),
    }
}

/// Bytes of one trainable parameter, of its gradient and of each optimizer
/// state: the parameter's dtype (`zeros_like(p)` in the optimizers, `.grad`
/// in the dtype of the parameter). LoRA adapters are fp32 (peft's
/// `autocast_adapter_dtype=True` upcasts them), so 4.
pub fn trainable_bytes(inputs: &AllocatorInputs) -> u64 {
    match inputs.step {
        StepKind::Lora { .. } => 4,
        _ => widths(inputs).w,
    }
}

/// Weights: `P·w`, plus `4·A` for LoRA adapters.
///
/// Seed 003's example: Llama-3.1-8B, LoRA 16, pure bf16:
/// `8,030,261,248 × 2 + 13,631,488 × 4 = 16,115,048,448` → "16.12 GB".
pub fn weights_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    let base = Sat::of(arch.params_total) * Sat::of(widths(inputs).w);
    let adapters = match inputs.step {
        StepKind::Lora { rank, .. } => 4 * Sat::of(arch.lora_params(rank)),
        _ => Sat::ZERO,
    };
    (base + adapters).bytes()
}

/// Inference KV cache: `2 · L · B · T · k · a`, the `torch.cat` copies each
/// `DynamicLayer.update` keeps (transformers `cache_utils.py`). RoPE output
/// has the dtype of the hidden states, so the cache is in the dtype.
/// Sliding-window layers are counted as global (conservative).
pub fn kv_cache_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    if inputs.step != StepKind::Inference {
        return 0;
    }
    (2 * Sat::of(arch.layers) * tokens(inputs) * Sat::of(arch.kv_dim()) * Sat::of(widths(inputs).a))
        .bytes()
}

/// Gradients: trainable parameters × their bytes (steady state: `.grad`
/// stays allocated between steps).
pub fn gradients_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    (Sat::of(trainable_params(arch, inputs.step)) * Sat::of(trainable_bytes(inputs))).bytes()
}

/// Optimizer states: AdamW keeps `exp_avg` and `exp_avg_sq`, SGD one
/// `momentum_buffer`, each `zeros_like(p)`: states × trainable × bytes.
pub fn optimizer_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    let states = match inputs.optimizer {
        Optimizer::AdamW => 2,
        Optimizer::Sgd => 1,
    };
    (states * Sat::of(trainable_params(arch, inputs.step)) * Sat::of(trainable_bytes(inputs)))
        .bytes()
}

/// Step workspace of the foreach optimizers (torch `optim/adam.py`,
/// `_multi_tensor_adam`): `exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs)`
/// is one temporary the size of all states of one moment, alive while the
/// update is applied, so trainable × bytes. `_multi_tensor_sgd` with
/// momentum and no weight decay updates in place: 0.
pub fn step_workspace_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    match inputs.optimizer {
        Optimizer::AdamW => gradients_bytes(arch, inputs),
        Optimizer::Sgd => 0,
    }
}
