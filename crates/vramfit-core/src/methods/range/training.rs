//! Fine-tuning (seed 001): 16 bytes per parameter for full fine-tuning,
//! the frozen base of LoRA and QLoRA, and the activations and logits of
//! one step on one GPU.

use super::serving::weights_at_bits;
use super::{
    FULL_BYTES_PER_PARAM, LOGIT_BYTES, LORA_BASE_MILLI_BITS, QLORA_BASE_MILLI_BITS,
    RECOMPUTED_LAYER_BYTES, SAVED_INPUT_BYTES,
};
use crate::model::ModelSpec;
use crate::scenario::{Mode, Scenario};
use crate::units::{saturate, Bytes};

/// Full fine-tuning model states: `16 × P` bytes. Source, seed 001:
/// "Volledig fine-tunen rekent 16 bytes per parameter: BF16-gewichten en
/// -gradiënten, FP32-mastergewichten en twee Adam-momenten" (full
/// fine-tuning counts 16 bytes per parameter: BF16 weights and gradients,
/// FP32 master weights and two Adam moments).
pub fn full_states_bytes(spec: &ModelSpec) -> Bytes {
    Bytes(spec.params_total).times(FULL_BYTES_PER_PARAM)
}

/// The frozen base of LoRA (BF16, every parameter at 16 bits) or QLoRA
/// (NF4 at 4.127 bits, embeddings and head at 16 bits:
/// [`weights_at_bits`]); 0 in other modes. Source, seed 001: "LoRA houdt
/// de BF16-gewichten bevroren; QLoRA slaat ze op in NF4 op 4.127 bits"
/// (LoRA keeps the BF16 weights frozen; QLoRA stores them in NF4 at 4.127
/// bits).
pub fn frozen_weights_bytes(spec: &ModelSpec, mode: Mode) -> Bytes {
    match mode {
        Mode::Lora => weights_at_bits(spec, LORA_BASE_MILLI_BITS),
        Mode::Qlora => weights_at_bits(spec, QLORA_BASE_MILLI_BITS),
        Mode::Inference | Mode::Full => Bytes::ZERO,
    }
}

/// Tokens in one step on one GPU: `T = S × B`, with `B` the sequences of
/// one copy of the model shared by its `n` GPUs (ZeRO-3 / FSDP: each GPU
/// runs its own micro-batch), `⌈sequences per copy / n⌉`.
fn tokens(s: &Scenario) -> u128 {
    let per_gpu = s
        .replica_sequences()
        .div_ceil(s.layout.per_replica().max(1));
    s.context as u128 * per_gpu as u128
}

/// Activations under full gradient checkpointing, on one GPU:
///
/// ```text
/// activations = 2 × T × H × L      (saved input of every layer)
///             + 34 × T × H         (the one layer being recomputed)
/// ```
///
/// Source, seed 001: "Trainingsactivaties gaan uit van volledige gradient
/// checkpointing: 2 bytes per token, verborgen eenheid en laag voor de
/// opgeslagen laaginvoer, 34 bytes per token en verborgen eenheid voor de
/// laag die opnieuw wordt berekend" (training activations assume full
/// gradient checkpointing: 2 bytes per token, hidden unit and layer for
/// the saved layer input, 34 bytes per token and hidden unit for the layer
/// being recomputed); "activaties gelden per GPU" (activations are per
/// GPU).
pub fn activations_bytes(spec: &ModelSpec, s: &Scenario) -> Bytes {
    let th = tokens(s).saturating_mul(spec.hidden_size as u128);
    let saved = th
        .saturating_mul(spec.num_layers as u128)
        .saturating_mul(SAVED_INPUT_BYTES as u128);
    let recomputed = th.saturating_mul(RECOMPUTED_LAYER_BYTES as u128);
    Bytes(saturate(saved.saturating_add(recomputed)))
}

/// FP32 logits on one GPU: `4 × V × T` bytes. Source, seed 001: "en
/// FP32-logits" (and FP32 logits).
pub fn logits_bytes(spec: &ModelSpec, s: &Scenario) -> Bytes {
    Bytes(saturate(
        tokens(s)
            .saturating_mul(spec.vocab_size as u128)
            .saturating_mul(LOGIT_BYTES as u128),
    ))
}
