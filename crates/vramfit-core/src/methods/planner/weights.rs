//! Weights (seed 002):
//!
//! ```text
//! quantized (b < 16):  (P − U) × b/8 × (1 + metadata) + U × 2 + U32 × 2
//! 16 bits:             P × 2 + U32 × 2          (U32 stays at 32 bits)
//! 32 bits:             P × 4
//! GPT-OSS at 4 bits:   metadata ≥ 6.25 %        (one 8-bit scale per 32 values)
//! ```
//!
//! The first term is the *body*, `(P − U)` parameters of the decoder
//! layers; the rest is `U` (embeddings and output head, BF16) with its FP32
//! subset `U32`. No metadata percentage at 16 or 32 bits.
//!
//! Per GPU, with tensor parallelism `TP` and a largest pipeline stage of
//! `⌈L/PP⌉` layers: `body × stage_layers / L / TP + U bytes / TP`, each
//! rounded up to the byte ("una cota de colocación conservadora").

use super::shape::Dims;
use crate::model::ModelSpec;
use crate::scenario::{Mode, Scenario, WeightFormat};
use crate::units::saturate;

/// GPT-OSS's minimum metadata at 4 bits, in hundredths of a percent
/// (6.25 % = one 8-bit E8M0 scale per 32 four-bit values).
pub const GPT_OSS_MIN_METADATA_CENTI_PCT: u64 = 625;

/// The weights of the whole model, split as the seed places them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeightBytes {
    /// Bits per body weight, thousandths (the payload, before metadata).
    pub milli_bits: u64,
    /// Metadata applied to the body, hundredths of a percent (0 unquantized).
    pub metadata_centi_pct: u64,
    /// `(P − U) × b/8 × (1 + metadata)`.
    pub body: u64,
    /// `U × 2 + U32 × 2` (quantized) or `U` at the weight width with
    /// `U32` at 32 bits.
    pub unquantized: u64,
}

impl WeightBytes {
    /// Body and `U` together: the whole model's weights.
    pub fn total(&self) -> u64 {
        self.body.saturating_add(self.unquantized)
    }
}

/// The payload bits of the scenario's weights, thousandths: a typed width
/// as typed; a named format by its value width (AWQ, GPTQ, NF4, MXFP4 and
/// Q4_K_M 4; Q5_K_M 5; FP8, INT8 and Q8_0 8), because the seed adds scales
/// and zero points through its metadata percentage, not through the width;
/// "as published" by the checkpoint's quantization, else its dtype.
pub fn payload_milli_bits(s: &Scenario) -> u64 {
    match s.weight_format {
        None => s.weight_milli_bits,
        Some(WeightFormat::Fp32) => 32_000,
        Some(WeightFormat::Bf16 | WeightFormat::Fp16) => 16_000,
        Some(WeightFormat::Fp8 | WeightFormat::Int8 | WeightFormat::Q8_0) => 8_000,
        Some(WeightFormat::Q5KM) => 5_000,
        Some(
            WeightFormat::Q4KM
            | WeightFormat::Awq
            | WeightFormat::Gptq
            | WeightFormat::Mxfp4
            | WeightFormat::Nf4,
        ) => 4_000,
        Some(WeightFormat::AsPublished) => match s.model.as_deref() {
            Some(m) => match m.quantization.as_ref().map(|q| q.scheme) {
                Some(scheme) => scheme.value_milli_bits(),
                None => m.dtype.milli_bits(),
            },
            None => s.weight_milli_bits,
        },
    }
}

/// Bits of the base weights in each mode: inference as chosen; full
/// training at least 16 (the working copy is BF16 or wider); LoRA's base
/// in BF16 and QLoRA's in 4 bits, as the seed states.
pub fn base_milli_bits(s: &Scenario) -> u64 {
    match s.mode {
        Mode::Inference => payload_milli_bits(s),
        Mode::Full => payload_milli_bits(s).max(16_000),
        Mode::Lora => 16_000,
        Mode::Qlora => 4_000,
    }
}

/// The weights of a scenario: serving "as published", the checkpoint's own
/// bytes ([`published`]); otherwise the seed's formula ([`weigh`]) at the
/// mode's bits ([`base_milli_bits`]).
pub fn of_scenario(s: &Scenario, d: &Dims, metadata_centi_pct: u64) -> WeightBytes {
    match (s.mode, s.weight_format, s.model.as_deref()) {
        (Mode::Inference, Some(WeightFormat::AsPublished), Some(m)) => published(m),
        _ => weigh(d, base_milli_bits(s), metadata_centi_pct),
    }
}

/// The checkpoint as published, split as the seed places it:
///
/// ```text
/// unquantized = published bytes of the embeddings and the output head
/// body        = published bytes of everything else (decoder layers,
///               vision tower), quantized tensors with their scales
/// ```
///
/// No metadata percentage: the published bytes already hold the scales
/// and zero points ([`ModelSpec::published_format`]).
pub fn published(m: &ModelSpec) -> WeightBytes {
    let unquantized = m
        .published_bytes
        .embedding
        .saturating_add(m.published_bytes.lm_head);
    let total = m.checkpoint.bytes;
    let params = m.checkpoint.params.max(1) as u128;
    WeightBytes {
        milli_bits: saturate((total as u128 * 8_000).div_ceil(params)),
        metadata_centi_pct: 0,
        body: total.saturating_sub(unquantized),
        unquantized,
    }
}

/// The seed's weight formula at `milli_bits` per body weight.
pub fn weigh(d: &Dims, milli_bits: u64, metadata_centi_pct: u64) -> WeightBytes {
    let body = d.body_params() as u128;
    let u = d.unquantized as u128;
    let u32_ = d.fp32.min(d.unquantized) as u128;
    let bits = milli_bits as u128;
    if milli_bits < 16_000 {
        let metadata = match d.gpt_oss && milli_bits == 4_000 {
            true => metadata_centi_pct.max(GPT_OSS_MIN_METADATA_CENTI_PCT),
            false => metadata_centi_pct,
        };
        let scaled = body * bits * (10_000 + metadata as u128);
        WeightBytes {
            milli_bits,
            metadata_centi_pct: metadata,
            body: round_div(scaled, 8_000 * 10_000),
            unquantized: saturate(2 * u + 2 * u32_),
        }
    } else {
        let wide = bits.max(32_000);
        WeightBytes {
            milli_bits,
            metadata_centi_pct: 0,
            body: round_div(body * bits, 8_000),
            unquantized: round_div((u - u32_) * bits + u32_ * wide, 8_000),
        }
    }
}

/// `value × num / den`, rounded up to the byte (0 when `den` is 0).
pub fn share(value: u64, num: u64, den: u64) -> u64 {
    if den == 0 {
        return 0;
    }
    saturate((value as u128 * num as u128).div_ceil(den as u128))
}

/// `n / d` rounded to the nearest integer, saturating.
pub fn round_div(n: u128, d: u128) -> u64 {
    saturate((n + d / 2) / d)
}

/// One GPU's weights: the body of the largest stage over `TP`, and `U`
/// over `TP` on every stage.
pub fn per_gpu(w: &WeightBytes, layers: u64, stage_layers: u64, tp: u64) -> (u64, u64) {
    (
        share(w.body, stage_layers, layers.saturating_mul(tp)),
        share(w.unquantized, 1, tp),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(params: u64, unquantized: u64, fp32: u64) -> Dims<'static> {
        Dims {
            params,
            unquantized,
            fp32,
            ..Dims::test_8b()
        }
    }

    #[test]
    fn mixed_precision_follows_the_seed_at_4_16_and_32_bits() {
        // P = 8e9, U = 1e9, U32 = 0.1e9.
        let d = dims(8_000_000_000, 1_000_000_000, 100_000_000);
        // 4 bits, 5 %: 7e9 × 0.5 × 1.05 = 3.675e9; U×2 + U32×2 = 2.2e9.
        let q = weigh(&d, 4_000, 500);
        assert_eq!((q.body, q.unquantized), (3_675_000_000, 2_200_000_000));
        // 16 bits: P × 2 + U32 × 2 = 16.2e9, no metadata.
        let h = weigh(&d, 16_000, 500);
        assert_eq!(h.total(), 16_200_000_000);
        assert_eq!(h.metadata_centi_pct, 0);
        // 32 bits: everything at 4 bytes.
        assert_eq!(weigh(&d, 32_000, 500).total(), 32_000_000_000);
        // 8 bits: 7e9 × 1 × 1.05 + 2.2e9.
        assert_eq!(weigh(&d, 8_000, 500).total(), 9_550_000_000);
    }

    #[test]
    fn gpt_oss_keeps_at_least_6_25_percent_of_scales_at_4_bits() {
        let mut d = dims(8_000_000_000, 1_000_000_000, 0);
        d.gpt_oss = true;
        // 7e9 × 0.5 × 1.0625 = 3.71875e9.
        assert_eq!(weigh(&d, 4_000, 500).body, 3_718_750_000);
        // A larger percentage wins; other widths keep the typed one.
        assert_eq!(weigh(&d, 4_000, 1_000).body, 3_850_000_000);
        assert_eq!(weigh(&d, 8_000, 500).body, 7_350_000_000);
    }

    #[test]
    fn per_gpu_rounds_up() {
        let w = WeightBytes {
            milli_bits: 16_000,
            metadata_centi_pct: 0,
            body: 1_000,
            unquantized: 101,
        };
        // 1000 × 11 / (32 × 2) = 171.875 → 172; 101 / 2 → 51.
        assert_eq!(per_gpu(&w, 32, 11, 2), (172, 51));
    }
}
