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
//! (the scenario's batch), `T = S × B` tokens in one step on one GPU, `H`
//! hidden size, `L` layers, `V` vocabulary, `n` GPUs of one server (at most
//! 8). 1 GB = 10⁹ bytes.
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
//! - **GPUs are the scenario's `gpus`**, all in one server; `tp` and `pp`
//!   are not read (the seed has one number: GPUs, split evenly). More than
//!   8 is out of its scope.
//! - **Sequences are the scenario's `batch`** ("KV × batch"); `users` is
//!   not read. In fine-tuning, each GPU holds the activations of `batch`
//!   sequences of `S` tokens ("activaties gelden per GPU").
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
//! use vramfit_core::methods::range;
//! use vramfit_core::scenario::{ModelRef, ScenarioInput};
//! let s = ScenarioInput {
//!     model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
//!     ..ScenarioInput::default()
//! }
//! .validate()
//! .unwrap();
//! let r = range::estimate(&s).unwrap();
//! assert_eq!(r.components.get("weights"), Some(16_060_522_496));
//! assert_eq!(r.low_bytes, Some(18_134_264_320));
//! assert_eq!(r.total_bytes, 21_346_368_819);
//! assert_eq!(r.seed_verdict, Some(range::FITS_COMFORTABLY));
//! ```

use crate::methods::{Feature, MethodId, MethodResult, OutOfScope};
use crate::model::{AttentionKind, FfnKind, ModelSpec};
use crate::scenario::{Mode, Scenario, WeightFormat};
use crate::units::{bytes_for_bits, percent_of, saturate, sum, GB};

/// Most GPUs the seed's tool considers: "maximaal 8 GPU's, één server".
pub const MAX_GPUS: u64 = 8;
/// Runtime overhead on every GPU: "1 GB per GPU voor de CUDA-context en
/// de runtimebuffers".
pub const RUNTIME_BYTES_PER_GPU: u64 = GB;
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

/// Seed verdict: the high estimate is at most 90 % of the GPU ("past ruim").
pub const FITS_COMFORTABLY: &str = "fits_comfortably";
/// Seed verdict: only the low estimate fits the GPU ("krap").
pub const FITS_TIGHTLY: &str = "fits_tightly";
/// Seed verdict: not even the low estimate fits.
pub const DOES_NOT_FIT: &str = "does_not_fit";

/// Bytes of every parameter at `milli_bits` per weight, with the
/// embeddings and the output head kept at 16 bits when the format is
/// narrower than 16 bits:
///
/// ```text
/// b_w ≥ 16:  P × b_w / 8
/// b_w < 16:  (E + O) × 16 / 8 + (P − E − O) × b_w / 8
/// ```
///
/// `P` parameters, `E` input embedding, `O` output head (0 when tied),
/// `b_w` bits per weight. Source, seed 001: "Gewichten: parameters × bits
/// per gewicht ÷ 8" (weights: parameters × bits per weight ÷ 8) and
/// "8-bit en 4-bit formaten houden de embeddings en de output-head op 16
/// bits" (8- and 4-bit formats keep the embeddings and the output head at
/// 16 bits). Bits per weight follow the seed's table
/// ([`WeightFormat::milli_bits`]).
pub fn weights_at_bits(spec: &ModelSpec, milli_bits: u64) -> u64 {
    if milli_bits >= EMBEDDING_MILLI_BITS {
        return bytes_for_bits(spec.params_total, milli_bits);
    }
    let kept = spec.params.embedding.saturating_add(spec.params.lm_head);
    let rest = spec.params_total.saturating_sub(kept);
    sum([
        bytes_for_bits(kept, EMBEDDING_MILLI_BITS),
        bytes_for_bits(rest, milli_bits),
    ])
}

/// Serving weights on all GPUs together: [`weights_at_bits`] at the
/// scenario's bits, or, for "as published", the checkpoint's own bytes
/// (quantized tensors with their scales, the rest at the checkpoint dtype;
/// MXFP4 at 4.25 bits). Source, seed 001: "“Zoals gepubliceerd” gebruikt
/// de dtypes van de eigen checkpoint van het model, met MXFP4 op 4.25
/// bits" ("as published" uses the dtypes of the model's own checkpoint,
/// with MXFP4 at 4.25 bits).
pub fn serving_weights_bytes(spec: &ModelSpec, s: &Scenario) -> u64 {
    match s.weight_format {
        Some(WeightFormat::AsPublished) => spec.published_weight_bytes(),
        _ => weights_at_bits(spec, s.weight_milli_bits),
    }
}

/// KV cache on all GPUs together, for `B` sequences of `S` tokens, each
/// layer by its own kind ([`ModelSpec::kv_cache_bytes`]):
///
/// ```text
/// full attention:  2 × H_kv × d × S
/// sliding window:  2 × H_kv × d × min(S, W)
/// MLA:             (r_kv + d_rope) × S        (one latent, not K and V)
/// linear:          fixed state per sequence
/// kv_cache = B × Σ layers × b_kv / 8
/// ```
///
/// Source, seed 001: "2 × lagen × KV-heads × head-dimensie × context ×
/// batch × bytes per waarde" (2 × layers × KV heads × head dimension ×
/// context × batch × bytes per value) for full attention, and "lagen met
/// een sliding window groeien niet verder dan het window, lagen met
/// latente attention cachen één gecomprimeerde latent per token en lagen
/// met lineaire attention houden een vaste state per sequentie" (sliding
/// layers grow no further than the window, latent-attention layers cache
/// one compressed latent per token, linear-attention layers keep a fixed
/// state per sequence).
pub fn kv_cache_bytes(spec: &ModelSpec, s: &Scenario) -> u64 {
    spec.kv_cache_bytes(s.context, s.batch, s.kv_milli_bits)
}

/// One GPU's share of `bytes` split evenly over `gpus`, rounded up (the
/// most loaded GPU). Source, seed 001: "Met meerdere GPU's worden
/// gewichten en cache gelijk verdeeld (tensor parallelism)" (with several
/// GPUs, weights and cache are split evenly) and "Modelstates worden over
/// de GPU's verdeeld (FSDP of ZeRO-3)" (model states are split over the
/// GPUs).
pub fn per_gpu(bytes: u64, gpus: u64) -> u64 {
    bytes.div_ceil(gpus.max(1))
}

/// The high end's extra: `0.2 × base`, to the nearest byte. `base` is the
/// per-GPU weights when serving, the per-GPU model states plus activations
/// when fine-tuning. Source, seed 001: "hoog = 1.2 × gewichten + KV-cache +
/// 1 GB" and "hoog = 1.2 × (modelstates + activaties) + 1 GB"; "De
/// bovenkant telt 20 % op bij de gewichten voor activaties, tijdelijke
/// buffers en fragmentatie, volgens de vuistregel van EleutherAI" (the
/// upper end adds 20 % to the weights for activations, temporary buffers
/// and fragmentation, following EleutherAI's rule of thumb).
pub fn margin_bytes(base: u64) -> u64 {
    percent_of(base, HIGH_EXTRA_CENTI_PCT)
}

/// Full fine-tuning model states: `16 × P` bytes. Source, seed 001:
/// "Volledig fine-tunen rekent 16 bytes per parameter: BF16-gewichten en
/// -gradiënten, FP32-mastergewichten en twee Adam-momenten" (full
/// fine-tuning counts 16 bytes per parameter: BF16 weights and gradients,
/// FP32 master weights and two Adam moments).
pub fn full_states_bytes(spec: &ModelSpec) -> u64 {
    saturate(spec.params_total as u128 * FULL_BYTES_PER_PARAM as u128)
}

/// The frozen base of LoRA (BF16, every parameter at 16 bits) or QLoRA
/// (NF4 at 4.127 bits, embeddings and head at 16 bits:
/// [`weights_at_bits`]); 0 in other modes. Source, seed 001: "LoRA houdt
/// de BF16-gewichten bevroren; QLoRA slaat ze op in NF4 op 4.127 bits"
/// (LoRA keeps the BF16 weights frozen; QLoRA stores them in NF4 at 4.127
/// bits).
pub fn frozen_weights_bytes(spec: &ModelSpec, mode: Mode) -> u64 {
    match mode {
        Mode::Lora => weights_at_bits(spec, LORA_BASE_MILLI_BITS),
        Mode::Qlora => weights_at_bits(spec, QLORA_BASE_MILLI_BITS),
        Mode::Inference | Mode::Full => 0,
    }
}

/// Parameters of one rank-`r` adapter on an `input → output` projection:
/// `A` is `r × input`, `B` is `output × r`, so `r × (input + output)`.
fn adapter(rank: u64, input: u64, output: u64) -> u128 {
    rank as u128 * (input as u128 + output as u128)
}

/// Adapters are counted on projections of one width per model: a model
/// whose attention widths differ per layer, or whose compressed attention
/// has other projections, is outside the method.
fn adapter_scope(spec: &ModelSpec) -> Result<(), OutOfScope> {
    if spec
        .attention
        .iter()
        .any(|k| matches!(k, AttentionKind::Compressed { .. }))
    {
        return Err(OutOfScope::Feature(Feature::CompressedAttention));
    }
    if spec.kv_dims_by_layer.is_some() {
        return Err(OutOfScope::Feature(Feature::MixedAttentionWidths));
    }
    Ok(())
}

/// Adapter parameters on one layer's attention projections:
///
/// ```text
/// attention (full, sliding, chunked):  q: H → H_q·d, k, v: H → H_kv·d, o: H_q·d → H
/// MLA:   q_a: H → r_q, q_b: r_q → H_q·d_qk (or q: H → H_q·d_qk),
///        kv_a: H → r_kv + d_rope, kv_b: r_kv → H_q·(d_nope + d_v), o: H_q·d_v → H
/// linear / state-space, none:  0
/// ```
fn attention_adapter_params(spec: &ModelSpec, i: usize, kind: AttentionKind, rank: u64) -> u128 {
    let h = spec.hidden_size;
    let kv_heads = match &spec.kv_heads_by_layer {
        Some(by_layer) => by_layer.get(i).copied().unwrap_or(0),
        None => spec.num_kv_heads,
    };
    let heads = spec.num_attention_heads;
    let layout = spec.projections;
    match kind {
        AttentionKind::Full
        | AttentionKind::SlidingWindow { .. }
        | AttentionKind::Chunked { .. } => {
            let heads_width = heads.saturating_mul(spec.head_dim);
            let gate = if layout.gated_query { 2 } else { 1 };
            let q = heads_width.saturating_mul(gate);
            let kv = kv_heads.saturating_mul(spec.head_dim);
            let qkv = if layout.fused_qkv {
                adapter(rank, h, q.saturating_add(kv.saturating_mul(2)))
            } else {
                adapter(rank, h, q) + 2 * adapter(rank, h, kv)
            };
            qkv + adapter(rank, heads_width, h)
        }
        AttentionKind::Mla { .. } | AttentionKind::SparseMla { .. } => {
            let Some(mla) = spec.mla else { return 0 };
            let q_width = heads.saturating_mul(mla.qk_head_dim());
            let q = match mla.q_lora_rank {
                Some(r_q) => adapter(rank, h, r_q) + adapter(rank, r_q, q_width),
                None => adapter(rank, h, q_width),
            };
            let kv_a = adapter(rank, h, mla.latent());
            let kv_b_width =
                heads.saturating_mul(mla.qk_nope_head_dim.saturating_add(mla.v_head_dim));
            let kv_b = adapter(rank, mla.kv_lora_rank, kv_b_width);
            let o = adapter(rank, heads.saturating_mul(mla.v_head_dim), h);
            q + kv_a + kv_b + o
        }
        // Outside the method (`adapter_scope`).
        AttentionKind::Compressed { .. } | AttentionKind::Linear { .. } | AttentionKind::None => 0,
    }
}

/// Adapter parameters on one dense MLP of width `I`:
/// `gate, up: H → I, down: I → H`, so `3 × r × (H + I)`; `2 × r × (H + I)`
/// without a gate; `r × (H + 2I) + r × (I + H)` with gate and up fused.
fn mlp_adapter_params(spec: &ModelSpec, width: u64, rank: u64) -> u128 {
    let h = spec.hidden_size;
    let layout = spec.projections;
    if !layout.gated_mlp {
        2 * adapter(rank, h, width)
    } else if layout.fused_gate_up {
        adapter(rank, h, width.saturating_mul(2)) + adapter(rank, width, h)
    } else {
        3 * adapter(rank, h, width)
    }
}

/// Trained adapter parameters `A` at rank `r`: every layer's attention
/// projections, plus its dense-MLP projections unless the model is a
/// mixture of experts. Source, seed 001: "Beide trainen adapters met rank
/// 16 op de attention- en dense-MLP-projecties (alleen attention bij
/// mixture-of-experts-modellen)" (both train rank-16 adapters on the
/// attention and dense-MLP projections; attention only for
/// mixture-of-experts models). The rank is the scenario's (default 16).
pub fn adapter_params(spec: &ModelSpec, rank: u64) -> u64 {
    let with_mlp = spec.moe.is_none();
    let width = |i: usize| match &spec.ffn_width_by_layer {
        Some(widths) => widths.get(i).copied().unwrap_or(0),
        None => spec.intermediate_size.unwrap_or(0),
    };
    let total = spec.attention.iter().zip(&spec.ffn).enumerate().fold(
        0u128,
        |acc, (i, (attention, ffn))| {
            let mlp = match (with_mlp, ffn) {
                (true, FfnKind::Dense) => mlp_adapter_params(spec, width(i), rank),
                _ => 0,
            };
            acc.saturating_add(attention_adapter_params(spec, i, *attention, rank))
                .saturating_add(mlp)
        },
    );
    saturate(total)
}

/// Adapter states: `16 × A` bytes (weight, gradient, master copy and two
/// Adam moments of every adapter parameter). Source, seed 001: "op 16
/// bytes per adapterparameter" (at 16 bytes per adapter parameter).
pub fn adapters_bytes(spec: &ModelSpec, rank: u64) -> u64 {
    saturate(adapter_params(spec, rank) as u128 * ADAPTER_BYTES_PER_PARAM as u128)
}

/// Tokens in one step on one GPU: `T = S × B`.
fn tokens(s: &Scenario) -> u128 {
    s.context as u128 * s.batch as u128
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
pub fn activations_bytes(spec: &ModelSpec, s: &Scenario) -> u64 {
    let th = tokens(s).saturating_mul(spec.hidden_size as u128);
    let saved = th
        .saturating_mul(spec.num_layers as u128)
        .saturating_mul(SAVED_INPUT_BYTES as u128);
    let recomputed = th.saturating_mul(RECOMPUTED_LAYER_BYTES as u128);
    saturate(saved.saturating_add(recomputed))
}

/// FP32 logits on one GPU: `4 × V × T` bytes. Source, seed 001: "en
/// FP32-logits" (and FP32 logits).
pub fn logits_bytes(spec: &ModelSpec, s: &Scenario) -> u64 {
    saturate(
        tokens(s)
            .saturating_mul(spec.vocab_size as u128)
            .saturating_mul(LOGIT_BYTES as u128),
    )
}

/// The seed's own verdict on one GPU of `gpu` bytes:
///
/// ```text
/// high × 100 ≤ gpu × 90  → "fits_comfortably"  (past ruim)
/// low ≤ gpu              → "fits_tightly"      (krap)
/// otherwise              → "does_not_fit"
/// ```
///
/// Source, seed 001: "Een model past ruim als de hoge schatting hoogstens
/// 90 % van het opgegeven geheugen van de GPU gebruikt (vLLM reserveert
/// standaard 92 %), en krap als de lage schatting binnen het opgegeven
/// geheugen past" (a model fits comfortably when the high estimate uses at
/// most 90 % of the GPU's stated memory — vLLM reserves 92 % by default —
/// and tightly when the low estimate fits within the stated memory).
pub fn seed_verdict(low: u64, high: u64, gpu: u64) -> &'static str {
    if high as u128 * 100 <= gpu as u128 * COMFORTABLE_PCT as u128 {
        FITS_COMFORTABLY
    } else if low <= gpu {
        FITS_TIGHTLY
    } else {
        DOES_NOT_FIT
    }
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
pub fn estimate(s: &Scenario) -> Result<MethodResult, OutOfScope> {
    let spec = s.model.as_deref().ok_or(OutOfScope::NeedsModel)?;
    if s.gpus > MAX_GPUS {
        return Err(OutOfScope::TooManyGpus { max: MAX_GPUS });
    }
    let gpus = s.gpus.max(1);
    let (mut weights, mut kv_cache, mut model_states, mut adapters) = (0, 0, 0, 0);
    let (mut activations, mut logits) = (0, 0);
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
                adapter_scope(spec)?;
                weights = per_gpu(frozen_weights_bytes(spec, s.mode), gpus);
                adapters = per_gpu(adapters_bytes(spec, s.lora_rank), gpus);
            }
            activations = activations_bytes(spec, s);
            logits = logits_bytes(spec, s);
            sum([weights, model_states, adapters, activations, logits])
        }
    };
    let runtime = RUNTIME_BYTES_PER_GPU;
    let margin = margin_bytes(margin_base);
    let low = sum([
        weights,
        kv_cache,
        model_states,
        adapters,
        activations,
        logits,
        runtime,
    ]);
    let high = sum([low, margin]);
    Ok(MethodResult {
        low_bytes: Some(low),
        high_bytes: Some(high),
        gpus: s.gpus,
        seed_verdict: Some(seed_verdict(low, high, s.gpu_bytes)),
        ..MethodResult::new(
            MethodId::Range,
            &[
                ("weights", weights),
                ("kv_cache", kv_cache),
                ("model_states", model_states),
                ("adapters", adapters),
                ("activations", activations),
                ("logits", logits),
                ("runtime", runtime),
                ("margin", margin),
            ],
            high,
            s.gpu_bytes,
        )
    })
}

#[cfg(test)]
mod tests {
    //! Golden tests. Every expected figure is worked out by hand in the
    //! comments from the model's published shape (see `vramfit inspect`),
    //! in bytes; GB = 10⁹ bytes.
    use super::*;
    use crate::methods::{run, ScenarioError};
    use crate::scenario::{ModelRef, ScenarioInput};
    use crate::verdict::FitStatus;

    const LLAMA_8B: &str = "meta-llama/Llama-3.1-8B";

    fn input(model: &str) -> ScenarioInput {
        ScenarioInput {
            method: MethodId::Range,
            model: Some(ModelRef::Catalog(model.into())),
            ..ScenarioInput::default()
        }
    }

    fn run_input(input: ScenarioInput) -> MethodResult {
        estimate(&input.validate().unwrap()).unwrap()
    }

    fn get(r: &MethodResult, name: &str) -> u64 {
        r.components.get(name).unwrap()
    }

    /// The components add up to the high end, and low = high − margin.
    fn check_sums(r: &MethodResult) {
        let all: u64 = r.components.0.iter().map(|c| c.bytes).sum();
        assert_eq!(all, r.total_bytes);
        assert_eq!(r.high_bytes, Some(r.total_bytes));
        assert_eq!(r.low_bytes, Some(r.total_bytes - get(r, "margin")));
        assert_eq!(r.verdict.needed_bytes, r.total_bytes);
    }

    #[test]
    fn llama_3_1_8b_bf16_8k_fits_24_gb_comfortably() {
        let r = run_input(input(LLAMA_8B));
        check_sums(&r);
        let names: Vec<&str> = r.components.0.iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "weights",
                "kv_cache",
                "model_states",
                "adapters",
                "activations",
                "logits",
                "runtime",
                "margin"
            ]
        );
        // P = 8,030,261,248 at 16 bits: × 2 bytes.
        assert_eq!(get(&r, "weights"), 16_060_522_496);
        // Every layer full attention: 2 × 32 layers × 8 KV heads × 128 × 2
        // bytes = 131,072 bytes per token, × 8,192 tokens × 1 sequence.
        assert_eq!(get(&r, "kv_cache"), 1_073_741_824);
        assert_eq!(get(&r, "runtime"), 1_000_000_000);
        // 0.2 × 16,060,522,496 = 3,212,104,499.2 → 3,212,104,499.
        assert_eq!(get(&r, "margin"), 3_212_104_499);
        // low = 16,060,522,496 + 1,073,741,824 + 10⁹.
        assert_eq!(r.low_bytes, Some(18_134_264_320));
        // high = low + margin = 21.35 GB ≤ 0.9 × 24 GB = 21.6 GB.
        assert_eq!(r.total_bytes, 21_346_368_819);
        assert_eq!(r.seed_verdict, Some(FITS_COMFORTABLY));
        // The ring reads 88.9 % of 24 GB: above seed 002's 85 %.
        assert_eq!(r.verdict.percent(), 88.9);
        assert_eq!(r.verdict.status, FitStatus::Ajustada);
        for name in ["model_states", "adapters", "activations", "logits"] {
            assert_eq!(get(&r, name), 0, "{name}");
        }
    }

    #[test]
    fn q4_k_m_keeps_embeddings_and_head_at_16_bits() {
        let mut q4 = input(LLAMA_8B);
        q4.set_weight_format(WeightFormat::Q4KM);
        let r = run_input(q4.clone());
        check_sums(&r);
        // Embedding 525,336,576 + head 525,336,576 = 1,050,673,152 params
        // at 2 bytes = 2,101,346,304; the other 6,979,588,096 params at
        // 4.89 bits: × 4.89 / 8 = 4,266,273,223.68 → 4,266,273,224.
        assert_eq!(get(&r, "weights"), 2_101_346_304 + 4_266_273_224);
        assert_eq!(get(&r, "weights"), 6_367_619_528);
        // All at 4.89 bits it would be 4,908,497,188 bytes.
        assert!(get(&r, "weights") > 4_908_497_188);
        // The cache stays at FP16: 1,073,741,824.
        assert_eq!(get(&r, "kv_cache"), 1_073_741_824);
        // 0.2 × 6,367,619,528 = 1,273,523,905.6 → 1,273,523,906.
        assert_eq!(get(&r, "margin"), 1_273_523_906);
        // low = 6,367,619,528 + 1,073,741,824 + 10⁹ = 8.44 GB;
        // high = 9.71 GB: 40.5 % of 24 GB.
        assert_eq!(r.low_bytes, Some(8_441_361_352));
        assert_eq!(r.total_bytes, 9_714_885_258);
        assert_eq!(r.seed_verdict, Some(FITS_COMFORTABLY));
        // On an 8 GB GPU not even the low end (8.44 GB) fits.
        q4.gpu_memory_gb = 8.0;
        assert_eq!(run_input(q4).seed_verdict, Some(DOES_NOT_FIT));
    }

    #[test]
    fn every_narrow_format_keeps_embeddings_at_16_bits() {
        let s = input(LLAMA_8B).validate().unwrap();
        let spec = s.model.as_deref().unwrap();
        let kept = 2 * 525_336_576u64;
        let rest = 8_030_261_248 - kept;
        for format in [
            WeightFormat::Fp8,
            WeightFormat::Int8,
            WeightFormat::Awq,
            WeightFormat::Gptq,
            WeightFormat::Q8_0,
            WeightFormat::Q5KM,
            WeightFormat::Q4KM,
        ] {
            let bits = format.milli_bits().unwrap();
            assert_eq!(
                weights_at_bits(spec, bits),
                2 * kept + bytes_for_bits(rest, bits),
                "{format:?}"
            );
        }
        // 16 and 32 bits: every parameter at that width.
        assert_eq!(weights_at_bits(spec, 16_000), 2 * 8_030_261_248);
        assert_eq!(weights_at_bits(spec, 32_000), 4 * 8_030_261_248);
    }

    #[test]
    fn gpt_oss_20b_as_published_64k() {
        let mut i = input("openai/gpt-oss-20b");
        i.set_weight_format(WeightFormat::AsPublished);
        i.context = 65_536;
        let r = run_input(i);
        check_sums(&r);
        // As published: MXFP4 experts (19,110,297,600 params at 4.25 bits
        // = 10,152,345,600 bytes) + their biases at BF16 (6,635,520 params,
        // 13,271,040 bytes) → experts 10,165,616,640; embedding and head
        // 2 × 1,158,266,880; attention 1,274,406,912; router 4,425,216;
        // norms 282,240 (all BF16). Sum 13,761,264,768.
        assert_eq!(get(&r, "weights"), 13_761_264_768);
        // 12 full layers and 12 sliding (window 128), 8 KV heads × 64:
        // 2 × 8 × 64 × 2 bytes = 2,048 bytes per token per layer.
        // Full: 12 × 2,048 × 65,536 = 1,610,612,736;
        // sliding: 12 × 2,048 × 128 = 3,145,728.
        assert_eq!(get(&r, "kv_cache"), 1_610_612_736 + 3_145_728);
        // 0.2 × 13,761,264,768 = 2,752,252,953.6 → 2,752,252,954.
        assert_eq!(get(&r, "margin"), 2_752_252_954);
        assert_eq!(r.low_bytes, Some(16_375_023_232));
        // 19.13 GB ≤ 21.6 GB.
        assert_eq!(r.total_bytes, 19_127_276_186);
        assert_eq!(r.seed_verdict, Some(FITS_COMFORTABLY));
    }

    #[test]
    fn gemma_2_9b_sliding_layers_stop_at_the_window() {
        let r = run_input(input("google/gemma-2-9b-it"));
        check_sums(&r);
        // 9,241,705,984 params (embedding tied: counted once) × 2 bytes.
        assert_eq!(get(&r, "weights"), 18_483_411_968);
        // 42 layers alternate sliding (window 4,096) and full; 8 KV heads ×
        // 256: 2 × 8 × 256 × 2 = 8,192 bytes per token per layer.
        // Full: 21 × 8,192 × 8,192 = 1,409,286,144;
        // sliding: 21 × 8,192 × 4,096 = 704,643,072.
        assert_eq!(get(&r, "kv_cache"), 2_113_929_216);
        // Every layer full would be 42 × 8,192 × 8,192 = 2,818,572,288.
        assert!(get(&r, "kv_cache") < 2_818_572_288);
        // low = 18,483,411,968 + 2,113,929,216 + 10⁹ = 21.60 GB ≤ 24 GB;
        // high = low + 3,696,682,394 = 25.29 GB > 21.6 GB: tight.
        assert_eq!(r.low_bytes, Some(21_597_341_184));
        assert_eq!(get(&r, "margin"), 3_696_682_394);
        assert_eq!(r.total_bytes, 25_294_023_578);
        assert_eq!(r.seed_verdict, Some(FITS_TIGHTLY));
        assert_eq!(r.verdict.status, FitStatus::NoCabe);
    }

    #[test]
    fn deepseek_v3_mla_as_published_on_8_gpus() {
        let mut i = input("deepseek-ai/DeepSeek-V3");
        i.set_weight_format(WeightFormat::AsPublished);
        i.gpus = 8;
        i.gpu_memory_gb = 141.0;
        let r = run_input(i.clone());
        check_sums(&r);
        // The FP8 checkpoint with one fp32 scale per 128 × 128 tile, BF16
        // embeddings, head, routers and norms: 673,150,582,112 bytes
        // (MTP layer not loaded). One GPU's eighth: 84,143,822,764.
        assert_eq!(get(&r, "weights"), 673_150_582_112 / 8);
        // MLA caches one latent of 512 + 64 = 576 values per token and
        // layer: 61 × 576 × 2 bytes = 70,272 bytes per token (a full
        // K and V of 128 heads × 192 would be 61 × 2 × 128 × 192 × 2 =
        // 5,996,544). × 8,192 tokens = 575,668,224; an eighth: 71,958,528.
        assert_eq!(get(&r, "kv_cache"), 71_958_528);
        // 0.2 × 84,143,822,764 = 16,828,764,552.8 → 16,828,764,553.
        assert_eq!(get(&r, "margin"), 16_828_764_553);
        assert_eq!(r.low_bytes, Some(85_215_781_292));
        // 102.04 GB ≤ 0.9 × 141 = 126.9 GB.
        assert_eq!(r.total_bytes, 102_044_545_845);
        assert_eq!(r.seed_verdict, Some(FITS_COMFORTABLY));
        // On 8 × 80 GB even the low end (85.2 GB) does not fit.
        i.gpu_memory_gb = 80.0;
        assert_eq!(run_input(i).seed_verdict, Some(DOES_NOT_FIT));
    }

    #[test]
    fn llama_3_1_70b_split_over_2_and_8_gpus() {
        let at = |gpus: u64| {
            run_input(ScenarioInput {
                gpus,
                gpu_memory_gb: 80.0,
                ..input("meta-llama/Llama-3.1-70B")
            })
        };
        // Whole: P = 70,553,706,496 × 2 = 141,107,412,992 bytes; KV 80
        // layers × 2 × 8 × 128 × 2 = 327,680 bytes per token × 8,192 =
        // 2,684,354,560.
        let one = at(1);
        assert_eq!(get(&one, "weights"), 141_107_412_992);
        assert_eq!(get(&one, "kv_cache"), 2_684_354_560);
        assert_eq!(one.seed_verdict, Some(DOES_NOT_FIT));
        // Two GPUs: 70,553,706,496 + 1,342,177,280 + 10⁹ (runtime on each)
        // = 72.90 GB ≤ 80 GB; high adds 0.2 × 70,553,706,496 =
        // 14,110,741,299.2 → 87.01 GB > 72 GB: tight.
        let two = at(2);
        check_sums(&two);
        assert_eq!(get(&two, "weights"), 70_553_706_496);
        assert_eq!(get(&two, "kv_cache"), 1_342_177_280);
        assert_eq!(get(&two, "runtime"), 1_000_000_000);
        assert_eq!(two.low_bytes, Some(72_895_883_776));
        assert_eq!(two.total_bytes, 87_006_625_075);
        assert_eq!(two.seed_verdict, Some(FITS_TIGHTLY));
        // Eight GPUs: 17,638,426,624 + 335,544,320 + 10⁹ = 18.97 GB; high
        // adds 3,527,685,324.8 → 3,527,685,325: 22.50 GB.
        let eight = at(8);
        check_sums(&eight);
        assert_eq!(get(&eight, "weights"), 17_638_426_624);
        assert_eq!(get(&eight, "kv_cache"), 335_544_320);
        assert_eq!(get(&eight, "runtime"), 1_000_000_000);
        assert_eq!(eight.low_bytes, Some(18_973_970_944));
        assert_eq!(eight.total_bytes, 22_501_656_269);
        assert_eq!(eight.seed_verdict, Some(FITS_COMFORTABLY));
    }

    #[test]
    fn an_uneven_split_rounds_up_to_the_most_loaded_gpu() {
        assert_eq!(per_gpu(10, 3), 4);
        assert_eq!(per_gpu(9, 3), 3);
        assert_eq!(per_gpu(7, 1), 7);
    }

    /// Llama-3.1-8B fine-tuning at 4,096 tokens, one sequence.
    fn training(mode: Mode, gpus: u64, gpu_memory_gb: f64) -> MethodResult {
        run_input(ScenarioInput {
            mode,
            context: 4096,
            gpus,
            gpu_memory_gb,
            ..input(LLAMA_8B)
        })
    }

    // Llama-3.1-8B activations at T = 4,096 tokens, H = 4,096, L = 32:
    // saved inputs 2 × 4,096 × 4,096 × 32 = 1,073,741,824; recomputed layer
    // 34 × 4,096 × 4,096 = 570,425,344; together 1,644,167,168.
    const LLAMA_8B_ACTIVATIONS: u64 = 1_073_741_824 + 570_425_344;
    // FP32 logits: 4 × 128,256 × 4,096 = 2,101,346,304.
    const LLAMA_8B_LOGITS: u64 = 2_101_346_304;

    #[test]
    fn full_fine_tune_is_16_bytes_per_parameter() {
        // One H200 (141 GB): states 16 × 8,030,261,248 = 128,484,179,968.
        let one = training(Mode::Full, 1, 141.0);
        check_sums(&one);
        assert_eq!(get(&one, "model_states"), 128_484_179_968);
        assert_eq!(get(&one, "weights"), 0);
        assert_eq!(get(&one, "kv_cache"), 0);
        assert_eq!(get(&one, "activations"), LLAMA_8B_ACTIVATIONS);
        assert_eq!(get(&one, "logits"), LLAMA_8B_LOGITS);
        // states + activations = 132,229,693,440; low + 1 GB = 133.23 GB ≤
        // 141 GB; high = 1.2 × 132,229,693,440 + 10⁹ = 159.68 GB: tight.
        assert_eq!(get(&one, "margin"), 26_445_938_688);
        assert_eq!(one.low_bytes, Some(133_229_693_440));
        assert_eq!(one.total_bytes, 159_675_632_128);
        assert_eq!(one.seed_verdict, Some(FITS_TIGHTLY));
        // Eight 80 GB GPUs (FSDP): states / 8 = 16,060,522,496 per GPU,
        // activations and logits stay whole on each GPU.
        let eight = training(Mode::Full, 8, 80.0);
        check_sums(&eight);
        assert_eq!(get(&eight, "model_states"), 16_060_522_496);
        assert_eq!(get(&eight, "activations"), LLAMA_8B_ACTIVATIONS);
        assert_eq!(get(&eight, "logits"), LLAMA_8B_LOGITS);
        // 16,060,522,496 + 1,644,167,168 + 2,101,346,304 = 19,806,035,968;
        // × 0.2 = 3,961,207,193.6 → 3,961,207,194.
        assert_eq!(get(&eight, "margin"), 3_961_207_194);
        assert_eq!(eight.low_bytes, Some(20_806_035_968));
        assert_eq!(eight.total_bytes, 24_767_243_162);
        assert_eq!(eight.seed_verdict, Some(FITS_COMFORTABLY));
    }

    #[test]
    fn lora_on_a_dense_model_adapts_attention_and_mlp() {
        let s = input(LLAMA_8B).validate().unwrap();
        let spec = s.model.as_deref().unwrap();
        // Per layer, r = 16, H = 4,096, q/o width 32 × 128 = 4,096, k/v
        // width 8 × 128 = 1,024, MLP width 14,336:
        // q (4,096 + 4,096) + k, v 2 × (4,096 + 1,024) + o (4,096 + 4,096)
        //   = 26,624; gate, up, down 3 × (4,096 + 14,336) = 55,296;
        // 16 × 81,920 = 1,310,720 per layer × 32 = 41,943,040.
        assert_eq!(adapter_params(spec, 16), 41_943_040);
        assert_eq!(adapters_bytes(spec, 16), 671_088_640);
        let r = training(Mode::Lora, 1, 24.0);
        check_sums(&r);
        // Frozen BF16 base 16,060,522,496 + adapters 671,088,640.
        assert_eq!(get(&r, "weights"), 16_060_522_496);
        assert_eq!(get(&r, "adapters"), 671_088_640);
        assert_eq!(get(&r, "model_states"), 0);
        // 16,731,611,136 + 1,644,167,168 + 2,101,346,304 = 20,477,124,608;
        // low 21.48 GB ≤ 24 GB; high = 1.2 × that + 10⁹ = 25.57 GB: tight.
        assert_eq!(get(&r, "margin"), 4_095_424_922);
        assert_eq!(r.low_bytes, Some(21_477_124_608));
        assert_eq!(r.total_bytes, 25_572_549_530);
        assert_eq!(r.seed_verdict, Some(FITS_TIGHTLY));
        // The rank scales the adapters linearly.
        let rank_32 = run_input(ScenarioInput {
            mode: Mode::Lora,
            context: 4096,
            lora_rank: 32,
            ..input(LLAMA_8B)
        });
        assert_eq!(get(&rank_32, "adapters"), 2 * 671_088_640);
    }

    #[test]
    fn lora_on_a_mixture_of_experts_adapts_attention_only() {
        let i = ScenarioInput {
            mode: Mode::Lora,
            context: 4096,
            gpu_memory_gb: 80.0,
            ..input("Qwen/Qwen3-30B-A3B")
        };
        let s = i.clone().validate().unwrap();
        let spec = s.model.as_deref().unwrap();
        // H = 2,048, q/o width 32 × 128 = 4,096, k/v width 4 × 128 = 512;
        // experts get no adapters. Per layer: (2,048 + 4,096)
        // + 2 × (2,048 + 512) + (4,096 + 2,048) = 17,408; × 16 × 48 layers
        // = 13,369,344 adapter parameters, 213,909,504 bytes.
        assert_eq!(adapter_params(spec, 16), 13_369_344);
        let r = run_input(i);
        check_sums(&r);
        assert_eq!(get(&r, "adapters"), 213_909_504);
        // Frozen base 30,532,122,624 × 2 = 61,064,245,248.
        assert_eq!(get(&r, "weights"), 61_064_245_248);
        // T = 4,096, H = 2,048, L = 48: 2 × 4,096 × 2,048 × 48 =
        // 805,306,368 + 34 × 4,096 × 2,048 = 285,212,672; logits
        // 4 × 151,936 × 4,096 = 2,489,319,424.
        assert_eq!(get(&r, "activations"), 805_306_368 + 285_212_672);
        assert_eq!(get(&r, "logits"), 2_489_319_424);
        // Sum 64,857,993,216: low 65.86 GB; high 78.83 GB > 72 GB: tight.
        assert_eq!(r.low_bytes, Some(65_857_993_216));
        assert_eq!(r.total_bytes, 78_829_591_859);
        assert_eq!(r.seed_verdict, Some(FITS_TIGHTLY));
    }

    #[test]
    fn mla_adapters_follow_the_latent_projections() {
        let s = input("deepseek-ai/DeepSeek-V3").validate().unwrap();
        let spec = s.model.as_deref().unwrap();
        // H = 7,168, 128 heads, r_q = 1,536, r_kv = 512, d_rope = 64,
        // d_nope = 128, d_v = 128, r = 16; per layer:
        // q_a (7,168 + 1,536) = 8,704; q_b (1,536 + 128 × 192) = 26,112;
        // kv_a (7,168 + 576) = 7,744; kv_b (512 + 128 × 256) = 33,280;
        // o (128 × 128 + 7,168) = 23,552; sum 99,392 × 16 = 1,590,272;
        // × 61 layers = 97,006,592 (a MoE model: no MLP adapters, even on
        // its three dense layers).
        assert_eq!(adapter_params(spec, 16), 97_006_592);
    }

    #[test]
    fn qlora_stores_the_base_in_nf4() {
        let r = training(Mode::Qlora, 1, 24.0);
        check_sums(&r);
        // Embedding and head 1,050,673,152 params at 16 bits =
        // 2,101,346,304; the other 6,979,588,096 at 4.127 bits =
        // 3,600,595,009.02 → 3,600,595,009. Base 5,701,941,313.
        assert_eq!(get(&r, "weights"), 5_701_941_313);
        assert_eq!(get(&r, "adapters"), 671_088_640);
        assert_eq!(get(&r, "activations"), LLAMA_8B_ACTIVATIONS);
        assert_eq!(get(&r, "logits"), LLAMA_8B_LOGITS);
        // Sum 10,118,543,425; × 0.2 = 2,023,708,685.
        assert_eq!(get(&r, "margin"), 2_023_708_685);
        assert_eq!(r.low_bytes, Some(11_118_543_425));
        assert_eq!(r.total_bytes, 13_142_252_110);
        assert_eq!(r.seed_verdict, Some(FITS_COMFORTABLY));
        // The weight format chosen for serving does not move fine-tuning.
        let mut q4 = ScenarioInput {
            mode: Mode::Qlora,
            context: 4096,
            ..input(LLAMA_8B)
        };
        q4.set_weight_format(WeightFormat::Q4KM);
        assert_eq!(run_input(q4).total_bytes, r.total_bytes);
    }

    #[test]
    fn seed_verdict_thresholds_at_90_percent_and_low_fits() {
        // Llama-3.1-8B BF16 8K: low 18,134,264,320, high 21,346,368,819.
        let mut s = input(LLAMA_8B).validate().unwrap();
        let at = |s: &mut Scenario, gpu: u64| {
            s.gpu_bytes = gpu;
            estimate(s).unwrap().seed_verdict.unwrap()
        };
        // high ≤ 0.9 × gpu ⇔ gpu ≥ high / 0.9 = 23,718,187,576.7.
        assert_eq!(at(&mut s, 23_718_187_577), FITS_COMFORTABLY);
        assert_eq!(at(&mut s, 23_718_187_576), FITS_TIGHTLY);
        // low ≤ gpu.
        assert_eq!(at(&mut s, 18_134_264_320), FITS_TIGHTLY);
        assert_eq!(at(&mut s, 18_134_264_319), DOES_NOT_FIT);
        // Exactly 90 % is still comfortable.
        assert_eq!(seed_verdict(1, 90, 100), FITS_COMFORTABLY);
        assert_eq!(seed_verdict(1, 91, 100), FITS_TIGHTLY);
        assert_eq!(seed_verdict(100, 120, 100), FITS_TIGHTLY);
        assert_eq!(seed_verdict(101, 120, 100), DOES_NOT_FIT);
    }

    #[test]
    fn typed_numbers_and_more_than_8_gpus_are_out_of_scope() {
        let typed = ScenarioInput {
            method: MethodId::Range,
            ..ScenarioInput::default()
        }
        .validate()
        .unwrap();
        assert_eq!(estimate(&typed), Err(OutOfScope::NeedsModel));
        let nine = ScenarioInput {
            gpus: 9,
            ..input(LLAMA_8B)
        }
        .validate()
        .unwrap();
        assert_eq!(estimate(&nine), Err(OutOfScope::TooManyGpus { max: 8 }));
        assert_eq!(
            run(MethodId::Range, &nine).unwrap_err(),
            ScenarioError::MethodScope {
                method: MethodId::Range,
                reason: OutOfScope::TooManyGpus { max: 8 }
            }
        );
        let eight = ScenarioInput {
            gpus: 8,
            ..input(LLAMA_8B)
        }
        .validate()
        .unwrap();
        assert!(estimate(&eight).is_ok());
    }

    #[test]
    fn every_mode_runs_through_the_registry() {
        for mode in Mode::ALL {
            let s = ScenarioInput {
                mode,
                ..input(LLAMA_8B)
            }
            .validate()
            .unwrap();
            let r = run(MethodId::Range, &s).unwrap();
            assert_eq!(r.method, MethodId::Range);
            check_sums(&r);
        }
    }

    #[test]
    fn kv_and_activations_grow_with_batch() {
        let one = run_input(input(LLAMA_8B));
        let four = run_input(ScenarioInput {
            batch: 4,
            ..input(LLAMA_8B)
        });
        assert_eq!(get(&four, "kv_cache"), 4 * get(&one, "kv_cache"));
        let t1 = training(Mode::Full, 1, 80.0);
        let t4 = run_input(ScenarioInput {
            mode: Mode::Full,
            context: 4096,
            batch: 4,
            gpu_memory_gb: 80.0,
            ..input(LLAMA_8B)
        });
        assert_eq!(get(&t4, "activations"), 4 * get(&t1, "activations"));
        assert_eq!(get(&t4, "logits"), 4 * get(&t1, "logits"));
    }

    #[test]
    fn serializes_low_high_and_the_seed_verdict() {
        let r = run_input(input(LLAMA_8B));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["method"], "range");
        assert_eq!(json["low_bytes"], 18_134_264_320u64);
        assert_eq!(json["high_bytes"], 21_346_368_819u64);
        assert_eq!(json["seed_verdict"], "fits_comfortably");
        assert_eq!(json["components"]["margin"], 3_212_104_499u64);
    }

    #[test]
    fn largest_inputs_do_not_panic() {
        for mode in Mode::ALL {
            let r = run_input(ScenarioInput {
                mode,
                context: 100_000_000,
                batch: 1_000_000,
                lora_rank: 4096,
                kv_bytes: 4.0,
                ..input("deepseek-ai/DeepSeek-V3")
            });
            assert!(r.total_bytes >= r.low_bytes.unwrap(), "{mode:?}");
            assert!(r.verdict.utilization.is_finite());
            assert_eq!(r.seed_verdict, Some(DOES_NOT_FIT));
        }
    }
}
