//! Method `allocator` — the peak of PyTorch's caching allocator
//! (`torch.cuda.max_memory_allocated()`) for one step of a dense decoder
//! model (llama, mistral, qwen2, qwen3, gemma, gemma2) run through Hugging
//! Face transformers, predicted from the tensors the code keeps alive at
//! the moment of the peak. Seed 003 ("vramcalc") gives the term names, the
//! sum and the fit rule; the formulas below are derived from the code of the
//! stack it measured (torch 2.x, transformers 4.57, peft 0.21) and are
//! explained line by line in `docs/allocator-derivation.md`.
//!
//! ```text
//! total = weights + kv_cache + gradients + optimizer
//!       + max(activations + autocast_cache, step_workspace)
//! fits  ⇔ total + overhead ≤ 97 % × the GPU's memory
//! ```
//!
//! Symbols used in every formula of this module:
//!
//! | symbol | meaning |
//! |---|---|
//! | `h` | hidden size |
//! | `L` | decoder layers |
//! | `H`, `K` | query heads, key/value heads |
//! | `d` | head dimension; `q = H·d`, `k = K·d` |
//! | `I` | MLP intermediate size |
//! | `V` | vocabulary size; `E = V·h` embedding parameters |
//! | `P` | all parameters; `A` LoRA adapter parameters |
//! | `B`, `T` | batch, sequence length; `N = B·T` tokens |
//! | `w` | bytes of a stored base weight (dtype; 4 under amp) |
//! | `a` | bytes of an activation (dtype; 2 under amp: the autocast dtype) |
//! | `s` | bytes of the residual stream (dtype; 4 under amp: the fp32 embedding output) |
//!
//! Scenario the formulas describe (what the validation harness runs):
//! inference is one `no_grad` forward over the whole prompt with
//! `use_cache=True`; training is a steady-state step (optimizer states
//! exist, gradients are zeroed in place, `set_to_none=False`) of
//! `out = model(ids, labels=ids)`, `out.loss.backward()`, then the output is
//! released and `optimizer.step()` runs; amp runs only the forward inside
//! `torch.autocast`; gradient checkpointing is transformers' default
//! (`use_reentrant=True`); whether the training forward keeps a KV cache
//! object is the scenario's `use_cache` (transformers' default is `True`;
//! checkpointing turns it off; without one sdpa runs with a materialized
//! mask: [`masked_sdpa_per_layer`]); LoRA adapters are fp32 and say whether
//! they have a dropout ([`StepKind::Lora`]).
//!
//! Validation: the 11 Llama-3.2-1B rows of seed 003 (run by its harness
//! with `use_cache=False` and no LoRA dropout) are all within ±0.2 %
//! (largest 0.17 %, mean 0.07 %; `tests/allocator_validation.rs`), with
//! nothing fitted.

mod activations;
mod arch;
mod sat;
mod states;
mod step;
#[cfg(test)]
mod tests;

pub use activations::{
    cache_extra_per_token, eager_scores_peak_bytes, final_saved_per_token, layer_saved_per_token,
    logits_backward_per_token, logits_forward_per_token, masked_sdpa_per_layer,
    norm_saved_per_token,
};
pub use arch::{DenseArch, NormStyle};
pub use states::{
    gradients_bytes, kv_cache_bytes, optimizer_bytes, step_workspace_bytes, trainable_bytes,
    trainable_params, weights_bytes,
};
pub use step::{
    usable_bytes, widths, AllocatorBreakdown, AllocatorInputs, Phase, StepDtype, StepKind, Widths,
};

use crate::methods::{MethodId, MethodResult, Refusal};
use crate::scenario::{Precision, Scenario, WeightFormat};
use crate::term::Term;
use crate::units::Bytes;
use activations::{inference_candidates, training_candidates, Candidate};
use sat::Sat;

/// Memory outside the allocator (CUDA context, kernels), seed 003's default:
/// 0.75 GB. Kept apart from `total`; added only for the fit verdict.
pub const OVERHEAD_BYTES: u64 = 750_000_000;

/// Usable share of the nominal capacity, in hundredths of a percent (97 %).
pub const USABLE_CENTI_PCT: u64 = 9_700;

/// The cuBLAS workspace torch allocates through the caching allocator on
/// the first matrix product and keeps for the life of the stream.
///
/// `4096 KiB × 2 + 16 KiB × 8 = 8,519,680` bytes: the default of
/// `CUBLAS_WORKSPACE_CONFIG` below compute capability 9 (pytorch/pytorch,
/// `aten/src/ATen/cuda/CublasHandlePool.cpp`, `parseChosenWorkspaceSize`).
/// Hopper and Blackwell default to 32 MiB, 25 MB more, under the two
/// decimals the estimate is shown with. Counted in `activations`.
pub const CUBLAS_WORKSPACE_BYTES: u64 = 4096 * 1024 * 2 + 16 * 1024 * 8;

/// The estimate for one model and one step. Total: no input panics, and
/// huge products saturate at `u64::MAX`.
///
/// ```
/// use vramfit_core::methods::allocator::*;
/// use vramfit_core::scenario::Precision;
/// let arch = DenseArch::llama_3_1_8b();
/// let inputs = AllocatorInputs::training(
///     StepKind::Lora { rank: 16, dropout: true }, StepDtype::Bf16, Precision::Pure, 1, 4096, false);
/// let e = estimate(&arch, &inputs);
/// assert_eq!(e.weights, 16_115_048_448);    // "16.12 GB"
/// assert_eq!(e.gradients, 54_525_952);      // "0.05 GB"
/// assert_eq!(e.optimizer, 109_051_904);     // "0.11 GB"
/// assert_eq!(e.step_workspace, 54_525_952); // "0.05 GB"
/// ```
pub fn estimate(arch: &DenseArch, inputs: &AllocatorInputs) -> AllocatorBreakdown {
    let weights = weights_bytes(arch, inputs);
    let kv_cache = kv_cache_bytes(arch, inputs);
    let gradients = gradients_bytes(arch, inputs);
    let optimizer = optimizer_bytes(arch, inputs);
    let step_workspace = step_workspace_bytes(arch, inputs);

    let candidates = match inputs.step {
        StepKind::Inference => inference_candidates(arch, inputs),
        _ => training_candidates(arch, inputs),
    };
    let peak = candidates
        .iter()
        .copied()
        .max_by_key(|c| c.activations + c.autocast)
        .unwrap_or(Candidate {
            phase: Phase::LogitsBackward,
            activations: Sat::ZERO,
            autocast: Sat::ZERO,
        });
    let activations = peak.activations.bytes();
    let autocast_cache = peak.autocast.bytes();
    let pass = activations.saturating_add(autocast_cache);
    let peak_phase = if inputs.step != StepKind::Inference && step_workspace > pass {
        Phase::OptimizerStep
    } else {
        peak.phase
    };
    let total = crate::units::sum([
        weights,
        kv_cache,
        gradients,
        optimizer,
        pass.max(step_workspace),
    ]);
    AllocatorBreakdown {
        weights,
        kv_cache,
        gradients,
        optimizer,
        activations,
        autocast_cache,
        step_workspace,
        total,
        overhead: OVERHEAD_BYTES,
        peak_phase,
    }
}

/// The weight dtype (pure, inference) or autocast dtype (amp) of a
/// scenario: FP16 when chosen by name, BF16 for any other 16-bit weights,
/// FP32 for 32-bit ones (under amp, 32-bit weights autocast to BF16); "as
/// published", the checkpoint's dtype.
fn dtype_of(s: &Scenario) -> Result<StepDtype, Refusal> {
    let amp = s.mode.trains() && s.precision == Precision::Amp;
    // "As published": the checkpoint's own dtype (a quantized checkpoint
    // is refused by the architecture reader).
    let published = match (s.weight_format, s.model.as_deref()) {
        (Some(WeightFormat::AsPublished), Some(m)) => Some(m.dtype),
        _ => None,
    };
    if let Some(dtype) = published {
        return match dtype {
            crate::model::Dtype::F16 => Ok(StepDtype::Fp16),
            crate::model::Dtype::Bf16 => Ok(StepDtype::Bf16),
            crate::model::Dtype::F32 | crate::model::Dtype::F64 if amp => Ok(StepDtype::Bf16),
            crate::model::Dtype::F32 => Ok(StepDtype::Fp32),
            _ => Err(Refusal::QuantizedWeights),
        };
    }
    match (s.weight_format, s.weight_milli_bits) {
        (Some(WeightFormat::Fp16), _) => Ok(StepDtype::Fp16),
        (_, 16_000) => Ok(StepDtype::Bf16),
        (_, 32_000) if amp => Ok(StepDtype::Bf16),
        (_, 32_000) => Ok(StepDtype::Fp32),
        _ => Err(Refusal::QuantizedWeights),
    }
}

/// The allocator inputs of a validated scenario.
pub fn inputs_of(s: &Scenario) -> Result<AllocatorInputs, Refusal> {
    let step = match s.mode {
        crate::scenario::Mode::Inference => StepKind::Inference,
        crate::scenario::Mode::Full => StepKind::FullFinetune,
        crate::scenario::Mode::Lora => StepKind::Lora {
            rank: s.lora_rank,
            dropout: s.lora_dropout,
        },
        crate::scenario::Mode::Qlora => return Err(Refusal::Mode(s.mode)),
    };
    Ok(AllocatorInputs {
        step,
        dtype: dtype_of(s)?,
        batch: s.replica_sequences(),
        seq_len: s.context,
        grad_checkpoint: s.grad_checkpoint,
        use_cache: s.use_cache,
        optimizer: s.optimizer,
        precision: s.precision,
        attn_impl: s.attn,
    })
}

/// The allocator estimates serving, full fine-tuning and LoRA; QLoRA's
/// 4-bit base is a quantized format (bitsandbytes), outside it.
pub const fn covers(mode: crate::scenario::Mode) -> bool {
    !matches!(mode, crate::scenario::Mode::Qlora)
}

/// The method's result for a scenario, or why it does not apply: it needs
/// a real dense model (catalog id or config) and unquantized weights.
///
/// `components` hold every term and `overhead` (0.75 GB outside the
/// allocator); `total_bytes` is the predicted peak allocation without the
/// overhead; the verdict compares `total + overhead` with 97 % of the GPU's
/// memory as every method reads it ([`Scenario::gpu_bytes`]: a catalog
/// card's driver total, not its marketed GB read as GiB). Seed 003's
/// example ("short by 28.9 GB on RTX 3090") still comes out so: the 3090's
/// driver reports 24,576 MiB, which is 24 GiB; a typed "24 GB" is 24 × 10⁹
/// bytes here (the kit keeps the seed's reading as an example typed in GiB).
pub fn estimate_scenario(s: &Scenario) -> Result<MethodResult, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    crate::methods::one_gpu_per_copy(s)?;
    let spec = s.model.as_deref().ok_or(Refusal::NeedsModel)?;
    let arch = DenseArch::from_spec(spec)?;
    let e = estimate(&arch, &inputs_of(s)?);
    Ok(MethodResult {
        // One copy of the model on each GPU.
        gpus: s.layout.gpus,
        outside_total: vec![Term::Overhead],
        verdict: e.fits(s.gpu_bytes()),
        ..MethodResult::new(MethodId::Allocator, &e.terms(), Bytes(e.total), Bytes::ZERO)
    })
}
