//! Method `range` — seed 001 ("Calculator voor VRAM en modelgrootte",
//! Dutch): a low and a high estimate per GPU, for serving or fine-tuning a
//! real model, in decimal GB.
//!
//! ```text
//! serving:
//!   weights      = Σ parameters × bits per weight / 8        (embeddings and head at 16 bits
//!                                                              in 8- and 4-bit formats)
//!   kv_cache     = the model's own layers at S tokens × B sequences
//!   low          = weights / n + kv_cache / n + 1 GB
//!   high         = 1.2 × weights / n + kv_cache / n + 1 GB
//! fine-tuning:
//!   states       = 16 × P                      (full)
//!                | weights at 16 bits + 16 × A (LoRA)
//!                | weights at 4.127 bits + 16 × A (QLoRA, NF4)
//!   activations  = 2 × T × H × L + 34 × T × H
//!   logits       = 4 × V × T
//!   low          = states / n + activations + logits + 1 GB
//!   high         = 1.2 × (states / n + activations + logits) + 1 GB
//! fit (seed):      high ≤ 90 % of one GPU → "past ruim" (fits comfortably)
//!                  else low ≤ one GPU     → "krap" (fits tightly)
//!                  else                   → does not fit
//! ```
//!
//! Symbols: `P` parameters, `A` adapter parameters (rank `r`, 16 by
//! default, on the attention and dense-MLP projections; attention only for
//! mixture-of-experts models), `S` context tokens, `B` sequences at once
//! (one copy's share of the scenario's `sequences`), `T = S × B` tokens in
//! one step on one GPU, `H` hidden size, `L` layers, `V` vocabulary, `n`
//! GPUs of one copy of the model, in one server (at most 8). 1 GB = 10⁹ bytes.
//!
//! Every figure is **per GPU**, for the most loaded one: weights, cache and
//! model states are split evenly (rounded up to the byte), the runtime
//! overhead and the activations count on every GPU. `total_bytes` is the
//! high end (the conservative one) and the components add up to it:
//! `low = total − margin`. The ring uses the high end against the GPU's
//! whole memory; `seed_verdict` keeps the seed's own three-way wording.
//!
//! Readings where the seed is not explicit:
//!
//! - **The method needs a real model** (catalog id or `config.json`): the
//!   embeddings, output head, per-layer attention kinds and projection
//!   shapes come from it. Typed numbers are out of its scope.
//! - **`n` is the GPUs of one copy of the model**, `TP × PP` of the
//!   scenario's layout, all in one server: the seed has one number, GPUs,
//!   split evenly, so TP and PP are not told apart. More than 8 is out of
//!   its scope. More GPUs than one copy uses are more copies, each with its
//!   share of the sequences.
//! - **Sequences are one copy's share of the scenario's `sequences`**
//!   ("KV × batch"). In fine-tuning, each of the copy's `n` GPUs holds the
//!   activations of its own `⌈sequences / n⌉` sequences of `S` tokens
//!   ("activaties gelden per GPU").
//! - **Any format below 16 bits keeps embeddings and head at 16 bits**,
//!   typed bits as well as named formats, and NF4 in QLoRA too (it is a
//!   4-bit format). "As published" takes the checkpoint's own bytes, which
//!   already keep them at the checkpoint's dtype.
//! - **Fine-tuning ignores the weight format**: full fine-tuning is 16
//!   bytes per parameter, LoRA's frozen base is BF16, QLoRA's is NF4.
//! - **Adapters go on the logical projections of the modules as stored**:
//!   `q, k, v, o` (one fused `qkv` where the family stores it so), MLA's
//!   `q_a, q_b, kv_a, kv_b, o`, and `gate, up, down` (one fused `gate_up`
//!   where stored so). Linear-attention and state-space layers get none:
//!   they have no attention projections.
//! - **The 20 % is on the per-GPU figure** and rounded to the nearest byte.
//!
//! Worked example (see `docs/methods/range.md`): Llama-3.1-8B, BF16,
//! 8,192 tokens, one 24 GB GPU → weights 16.06 GB, KV 1.07 GB, runtime
//! 1 GB: low 18.13 GB, high 21.35 GB ≤ 21.6 GB (90 %): fits comfortably.
//!
//! ```
//! use vramfit_core::methods::{range, SeedVerdict};
//! use vramfit_core::scenario::{ModelRef, ScenarioInput};
//! use vramfit_core::{term::Term, units::Bytes};
//! let s = ScenarioInput {
//!     model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
//!     ..ScenarioInput::default()
//! }
//! .validate()
//! .unwrap();
//! let r = range::estimate(&s).unwrap();
//! assert_eq!(r.components.get(Term::Weights), Some(Bytes(16_060_522_496)));
//! assert_eq!(r.low_bytes, Some(Bytes(18_134_264_320)));
//! assert_eq!(r.total_bytes, 21_346_368_819);
//! assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
//! ```

mod adapters;
mod serving;
#[cfg(test)]
mod tests;
mod training;

pub use adapters::{adapter_params, adapters_bytes};
pub use serving::{kv_cache_bytes, serving_weights_bytes, weights_at_bits};
pub use training::{activations_bytes, frozen_weights_bytes, full_states_bytes, logits_bytes};

use crate::methods::{MethodId, MethodResult, Refusal, SeedVerdict};
use crate::scenario::{Mode, Scenario};
use crate::term::Term;
use crate::units::{Bytes, GB};

/// Most GPUs the seed's tool considers: "maximaal 8 GPU's, één server".
pub const MAX_GPUS: u64 = 8;
/// Runtime overhead on every GPU: "1 GB per GPU voor de CUDA-context en
/// de runtimebuffers".
pub const RUNTIME_BYTES_PER_GPU: Bytes = Bytes(GB);
/// The high end's extra, in hundredths of a percent: "De bovenkant telt
/// 20 % op".
pub const HIGH_EXTRA_CENTI_PCT: u64 = 2_000;
/// "Past ruim": the high estimate uses at most this percentage of the GPU.
pub const COMFORTABLE_PCT: u64 = 90;
/// Bits of embeddings and output head in 8- and 4-bit formats, thousandths.
pub const EMBEDDING_MILLI_BITS: u64 = 16_000;
/// Full fine-tuning: 2 (BF16 weight) + 2 (BF16 gradient) + 4 (FP32 master
/// weight) + 4 + 4 (two FP32 Adam moments) bytes per parameter.
pub const FULL_BYTES_PER_PARAM: u64 = 16;
/// Bytes per trained adapter parameter (the same 16-byte layout).
pub const ADAPTER_BYTES_PER_PARAM: u64 = 16;
/// LoRA's frozen base: BF16, in thousandths of a bit.
pub const LORA_BASE_MILLI_BITS: u64 = 16_000;
/// QLoRA's frozen base: NF4 with double quantization, 4.127 bits.
pub const QLORA_BASE_MILLI_BITS: u64 = 4_127;
/// Saved layer input: bytes per token, hidden unit and layer.
pub const SAVED_INPUT_BYTES: u64 = 2;
/// The layer being recomputed: bytes per token and hidden unit.
pub const RECOMPUTED_LAYER_BYTES: u64 = 34;
/// FP32 logits: bytes per token and vocabulary entry.
pub const LOGIT_BYTES: u64 = 4;

/// One GPU's share of `bytes` split evenly over `gpus`, rounded up (the
/// most loaded GPU). Source, seed 001: "Met meerdere GPU's worden
/// gewichten en cache gelijk verdeeld (tensor parallelism)" (with several
/// GPUs, weights and cache are split evenly) and "Modelstates worden over
/// de GPU's verdeeld (FSDP of ZeRO-3)" (model states are split over the
/// GPUs).
pub fn per_gpu(bytes: Bytes, gpus: u64) -> Bytes {
    bytes.div_ceil(gpus)
}

/// The high end's extra: `0.2 × base`, to the nearest byte. `base` is the
/// per-GPU weights when serving, the per-GPU model states plus activations
/// when fine-tuning. Source, seed 001: "hoog = 1.2 × gewichten + KV-cache +
/// 1 GB" and "hoog = 1.2 × (modelstates + activaties) + 1 GB"; "De
/// bovenkant telt 20 % op bij de gewichten voor activaties, tijdelijke
/// buffers en fragmentatie, volgens de vuistregel van EleutherAI" (the
/// upper end adds 20 % to the weights for activations, temporary buffers
/// and fragmentation, following EleutherAI's rule of thumb).
pub fn margin_bytes(base: Bytes) -> Bytes {
    base.percent(HIGH_EXTRA_CENTI_PCT)
}

/// The seed's own verdict on one GPU of `gpu` bytes:
///
/// ```text
/// high × 100 ≤ gpu × 90  → fits comfortably  (past ruim)
/// low ≤ gpu              → fits tightly      (krap)
/// otherwise              → does not fit
/// ```
///
/// Source, seed 001: "Een model past ruim als de hoge schatting hoogstens
/// 90 % van het opgegeven geheugen van de GPU gebruikt (vLLM reserveert
/// standaard 92 %), en krap als de lage schatting binnen het opgegeven
/// geheugen past" (a model fits comfortably when the high estimate uses at
/// most 90 % of the GPU's stated memory — vLLM reserves 92 % by default —
/// and tightly when the low estimate fits within the stated memory).
pub fn seed_verdict(low: Bytes, high: Bytes, gpu: Bytes) -> SeedVerdict {
    if high.get() as u128 * 100 <= gpu.get() as u128 * COMFORTABLE_PCT as u128 {
        SeedVerdict::FitsComfortably
    } else if low <= gpu {
        SeedVerdict::FitsTightly
    } else {
        SeedVerdict::DoesNotFit
    }
}

/// Seed 001 estimates serving, full fine-tuning, LoRA and QLoRA.
pub const fn covers(mode: Mode) -> bool {
    matches!(
        mode,
        Mode::Inference | Mode::Full | Mode::Lora | Mode::Qlora
    )
}

/// Seed 001's range for a validated scenario, per GPU (the most loaded
/// one), or why it does not apply: typed numbers instead of a model, or
/// more than 8 GPUs.
///
/// Components, always all listed (0 where the mode does not count one):
/// `weights` (serving; LoRA/QLoRA frozen base), `kv_cache` (serving),
/// `model_states` (full fine-tuning), `adapters` (LoRA/QLoRA),
/// `activations` and `logits` (fine-tuning), `runtime` (1 GB), `margin`
/// (the high end's 20 %). They add up to `total_bytes` = `high_bytes`;
/// `low_bytes` = total − margin.
pub fn estimate(s: &Scenario) -> Result<MethodResult, Refusal> {
    let spec = s.model.as_deref().ok_or(Refusal::NeedsModel)?;
    if s.layout.per_replica() > MAX_GPUS {
        return Err(Refusal::TooManyGpus { max: MAX_GPUS });
    }
    let gpus = s.layout.per_replica().max(1);
    let zero = Bytes::ZERO;
    let (mut weights, mut kv_cache, mut model_states, mut adapters) = (zero, zero, zero, zero);
    let (mut activations, mut logits) = (zero, zero);
    let margin_base = match s.mode {
        Mode::Inference => {
            weights = per_gpu(serving_weights_bytes(spec, s), gpus);
            kv_cache = per_gpu(kv_cache_bytes(spec, s), gpus);
            weights
        }
        Mode::Full | Mode::Lora | Mode::Qlora => {
            if s.mode == Mode::Full {
                model_states = per_gpu(full_states_bytes(spec), gpus);
            } else {
                adapters::adapter_scope(spec)?;
                weights = per_gpu(frozen_weights_bytes(spec, s.mode), gpus);
                adapters = per_gpu(adapters_bytes(spec, s.lora_rank), gpus);
            }
            activations = activations_bytes(spec, s);
            logits = logits_bytes(spec, s);
            weights + model_states + adapters + activations + logits
        }
    };
    let runtime = RUNTIME_BYTES_PER_GPU;
    let margin = margin_bytes(margin_base);
    let low = weights + kv_cache + model_states + adapters + activations + logits + runtime;
    let high = low + margin;
    Ok(MethodResult {
        low_bytes: Some(low),
        high_bytes: Some(high),
        gpus: s.layout.gpus,
        seed_verdict: Some(seed_verdict(low, high, s.gpu_bytes())),
        ..MethodResult::new(
            MethodId::Range,
            &[
                (Term::Weights, weights),
                (Term::KvCache, kv_cache),
                (Term::ModelStates, model_states),
                (Term::Adapters, adapters),
                (Term::Activations, activations),
                (Term::Logits, logits),
                (Term::Runtime, runtime),
                (Term::Margin, margin),
            ],
            high,
            s.gpu_bytes(),
        )
    })
}
