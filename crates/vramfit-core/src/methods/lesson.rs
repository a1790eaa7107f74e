//! Method `lesson` — seed 000 ("Estimador de memoria GPU. Desglosa pesos,
//! caché KV y estados de entrenamiento antes de ejecutar."): a
//! single-device estimate in binary GiB (2³⁰ bytes) for inference or full
//! training, with the user's own reserves and a safety margin.
//!
//! ```text
//! inference:
//!   weights         = P × b_w / 8
//!   cache           = 2 × L × H_kv × d_head × S × B × b_kv
//!   training_states = 0
//! training:
//!   weights         = 0          (inside the 18 bytes below)
//!   cache           = 0
//!   training_states = P × 18
//! both:
//!   runtime         = R × 2³⁰
//!   activation      = A × 2³⁰
//!   subtotal        = weights + cache + training_states + runtime + activation
//!   margin          = subtotal × m / 100
//!   total           = subtotal + margin
//!   fits            ⇔ total ≤ C × 2³⁰
//! ```
//!
//! Symbols: `P` parameters (the input is in billions, 10⁹), `b_w` bits per
//! weight, `L` layers, `H_kv` key/value heads, `d_head` head dimension,
//! `S` sequence length in tokens, `B` batch (sequences), `b_kv` bytes per
//! cached element, `R` runtime reserve and `A` activation reserve in GiB,
//! `m` margin in percent, `C` device capacity in GiB. The factor 2 in the
//! cache is one key and one value vector per KV head per layer.
//!
//! Source, seed 000, verbatim: "GiB = 2³⁰ bytes. Estados = parámetros × 18
//! bytes. KV = 2 × capas × cabezas KV × dimensión × secuencia × lote ×
//! bytes. El margen multiplica el subtotal con reservas." The 18 bytes are
//! "2 working-weight + 4 master-weight + 4 gradient + 8 Adam-moment bytes
//! per parameter", mixed-precision AdamW; "one dtype layout, not a
//! universal framework constant or measured peak". Inference assumes ideal
//! weight storage and a dense KV cache; quantization metadata, kernels and
//! allocators are what the reserves are for.
//!
//! Readings of the seed where it is not explicit:
//!
//! - **Training does not add the weights again.** The 18 bytes already hold
//!   the 2-byte working copy of every weight, so in training `weights` is 0
//!   and `b_w` does not change the estimate. Nor is there a KV cache: the
//!   seed's training estimate is "18 bytes/parameter … plus your reserves",
//!   and activations belong to the activation reserve.
//! - **Both reserves count in both modes.** The seed's own example passes
//!   `activation: 4` in inference mode.
//! - **The margin is on the subtotal with reserves**, rounded to the byte.
//! - **Every component is always listed**, in the order weights, kv_cache,
//!   training_states, runtime, activation, margin, with 0 where the mode
//!   does not count it, so the shape of the result does not depend on the
//!   mode. The seed's `cache` is called `kv_cache` here, as in every other
//!   method, so that one component keeps one name and one colour.
//! - **The capacity is the scenario's GPU memory.** The seed enters it in
//!   GiB (24 GiB = 25,769,803,776 bytes); the CLI's `--capacity-gib` does
//!   the same.
//! - **Fitting is `total ≤ capacity`**; the verdict's ring uses the whole
//!   capacity as usable memory.
//!
//! Worked example (seed 000): 7B, 16-bit weights, 32 layers, 8 KV heads,
//! head dimension 128, 4,096 tokens, batch 1, 2-byte cache, 2 GiB runtime,
//! 4 GiB activation, 15 % margin, 24 GiB device → cache 0.5 GiB (the
//! seed's stated result); weights 14 × 10⁹ bytes = 13.04 GiB, subtotal
//! 19.54 GiB, margin 2.93 GiB, total 22.47 GiB: fits, at 93.6 %.
//!
//! ```
//! use vramfit_core::{methods::lesson, term::Term, units::Bytes};
//! let s = lesson::seed_example().validate().unwrap();
//! let r = lesson::estimate(&s).unwrap();
//! assert_eq!(r.components.get(Term::KvCache), Some(Bytes(1 << 29))); // 0.5 GiB
//! assert_eq!(r.components.get(Term::Weights), Some(Bytes(14_000_000_000)));
//! assert_eq!(r.components.get(Term::Margin), Some(Bytes(3_146_898_278)));
//! assert_eq!(r.total_bytes, 24_126_220_134);
//! assert_eq!(r.verdict.usable_bytes, 24 << 30);
//! assert_eq!(r.verdict.short_by_bytes, 0);
//! ```

use crate::methods::dense::{kv_cache_bytes, weights_bytes};
use crate::methods::{MethodId, MethodResult, Refusal};
use crate::scenario::{Mode, Scenario, ScenarioInput};
use crate::term::Term;
#[cfg(test)]
use crate::units::GIB;
use crate::units::{saturate, Bytes, DisplayUnit};

/// Bytes of the working (BF16/FP16) copy of each weight in training.
pub const WORKING_WEIGHT_BYTES: u64 = 2;
/// Bytes of the FP32 master copy of each weight.
pub const MASTER_WEIGHT_BYTES: u64 = 4;
/// Bytes of the FP32 gradient of each weight.
pub const GRADIENT_BYTES: u64 = 4;
/// Bytes of the two FP32 Adam moments of each weight.
pub const ADAM_MOMENT_BYTES: u64 = 8;
/// Seed 000's training baseline: 2 + 4 + 4 + 8 = 18 bytes per parameter.
pub const TRAINING_BYTES_PER_PARAM: u64 =
    WORKING_WEIGHT_BYTES + MASTER_WEIGHT_BYTES + GRADIENT_BYTES + ADAM_MOMENT_BYTES;

/// Seed 000's worked example as a scenario: `estimateVRAM({mode:'inference',
/// params:7, weightBits:16, layers:32, kvHeads:8, headDim:128,
/// sequence:4096, batch:1, kvBytes:2, runtime:2, activation:4, margin:15,
/// capacity:24})`.
pub fn seed_example() -> ScenarioInput {
    ScenarioInput {
        mode: Mode::Inference,
        params_b: 7.0,
        weight_bits: 16.0,
        layers: 32,
        kv_heads: 8,
        head_dim: 128,
        context: 4096,
        sequences: 1,
        kv_bytes: 2.0,
        runtime_gib: 2.0,
        activation_gib: 4.0,
        margin_pct: 15.0,
        gpu_memory_gb: DisplayUnit::convert(24.0, DisplayUnit::Gib, DisplayUnit::Gb),
        ..ScenarioInput::default()
    }
}

/// Training states: `P × 18` bytes (2 working weight + 4 master weight +
/// 4 gradient + 8 Adam moments).
///
/// ```
/// use vramfit_core::methods::lesson;
/// let s = lesson::seed_example().validate().unwrap();
/// assert_eq!(lesson::training_states_bytes(&s).get(), 126_000_000_000);
/// ```
pub fn training_states_bytes(s: &Scenario) -> Bytes {
    Bytes(saturate(
        s.params as u128 * TRAINING_BYTES_PER_PARAM as u128,
    ))
}

/// Seed 000 estimates serving and full training; LoRA and QLoRA are
/// outside it.
pub const fn covers(mode: Mode) -> bool {
    matches!(mode, Mode::Inference | Mode::Full)
}

/// Seed 000's estimate, or [`Refusal::Mode`] for LoRA and QLoRA. Never
/// panics; see the module documentation for the formula.
pub fn estimate(s: &Scenario) -> Result<MethodResult, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    super::one_gpu_per_copy(s)?;
    let (weights, kv_cache, training_states) = match s.mode {
        Mode::Inference => (weights_bytes(s), kv_cache_bytes(s), Bytes::ZERO),
        Mode::Full => (Bytes::ZERO, Bytes::ZERO, training_states_bytes(s)),
        Mode::Lora | Mode::Qlora => return Err(Refusal::Mode(s.mode)),
    };
    let subtotal = weights + kv_cache + training_states + s.runtime_bytes + s.activation_bytes;
    let margin = subtotal.percent(s.margin_centi_pct);
    Ok(MethodResult {
        // One copy of the model on each GPU.
        gpus: s.layout.gpus,
        ..MethodResult::summed(
            MethodId::Lesson,
            &[
                (Term::Weights, weights),
                (Term::KvCache, kv_cache),
                (Term::TrainingStates, training_states),
                (Term::Runtime, s.runtime_bytes),
                (Term::Activation, s.activation_bytes),
                (Term::Margin, margin),
            ],
            s.gpu_bytes(),
        )
    })
}

#[cfg(test)]
mod tests {
    //! Golden tests: seed 000's worked example, its training counterpart,
    //! and the boundaries of each reading.
    use super::*;
    use crate::methods::estimate_input;
    use crate::units::DisplayUnit;
    use crate::verdict::FitStatus;

    fn run(input: ScenarioInput) -> MethodResult {
        estimate_input(estimate, input)
    }

    fn gib2(bytes: Bytes) -> String {
        bytes.display(DisplayUnit::Gib)
    }

    fn training() -> ScenarioInput {
        ScenarioInput {
            mode: Mode::Full,
            ..seed_example()
        }
    }

    #[test]
    fn seed_000_example_exact_bytes() {
        let r = run(seed_example());
        let names: Vec<Term> = r.components.terms().collect();
        assert_eq!(
            names,
            [
                Term::Weights,
                Term::KvCache,
                Term::TrainingStates,
                Term::Runtime,
                Term::Activation,
                Term::Margin
            ]
        );
        // 7 × 10⁹ × 16 / 8.
        assert_eq!(r.components.get(Term::Weights), Some(Bytes(14_000_000_000)));
        // 2 × 32 × 8 × 128 × 4096 × 1 × 2 = 2²⁹: "0.5 GiB".
        assert_eq!(r.components.get(Term::KvCache), Some(Bytes(536_870_912)));
        assert_eq!(
            r.components
                .get(Term::KvCache)
                .unwrap()
                .in_unit(DisplayUnit::Gib),
            0.5
        );
        assert_eq!(r.components.get(Term::TrainingStates), Some(Bytes(0)));
        assert_eq!(r.components.get(Term::Runtime), Some(Bytes(2_147_483_648)));
        assert_eq!(
            r.components.get(Term::Activation),
            Some(Bytes(4_294_967_296))
        );
        // Subtotal 20,979,321,856; 15 % of it = 3,146,898,278.4 → nearest byte.
        assert_eq!(r.components.get(Term::Margin), Some(Bytes(3_146_898_278)));
        assert_eq!(r.total_bytes, 24_126_220_134);
        // In GiB as the seed displays them.
        assert_eq!(gib2(r.components.get(Term::Weights).unwrap()), "13.04 GiB");
        assert_eq!(gib2(r.components.get(Term::Margin).unwrap()), "2.93 GiB");
        assert_eq!(gib2(r.total_bytes), "22.47 GiB");
        // Fits 24 GiB with 1,643,583,642 bytes to spare, at 93.6 %.
        assert_eq!(r.verdict.usable_bytes, 25_769_803_776);
        assert_eq!(r.verdict.headroom_bytes, 1_643_583_642);
        assert_eq!(r.verdict.percent(), 93.6);
        assert_eq!(r.verdict.status, FitStatus::Tight);
    }

    #[test]
    fn seed_000_training_is_18_bytes_per_parameter_plus_reserves() {
        let r = run(training());
        assert_eq!(TRAINING_BYTES_PER_PARAM, 18);
        assert_eq!(
            r.components.get(Term::TrainingStates),
            Some(Bytes(126_000_000_000))
        );
        assert_eq!(gib2(Bytes(126_000_000_000)), "117.35 GiB");
        // Weights are inside the 18 bytes; no KV cache in training.
        assert_eq!(r.components.get(Term::Weights), Some(Bytes(0)));
        assert_eq!(r.components.get(Term::KvCache), Some(Bytes(0)));
        // Subtotal 132,442,450,944; 15 % = 19,866,367,641.6 → nearest byte.
        assert_eq!(r.components.get(Term::Margin), Some(Bytes(19_866_367_642)));
        assert_eq!(r.total_bytes, 152_308_818_586);
        assert_eq!(gib2(r.total_bytes), "141.85 GiB");
        assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
    }

    #[test]
    fn training_does_not_count_weights_twice() {
        let at = |weight_bits: f64| {
            run(ScenarioInput {
                weight_bits,
                runtime_gib: 0.0,
                activation_gib: 0.0,
                margin_pct: 0.0,
                ..training()
            })
        };
        // Total is exactly P × 18: not P × 18 + P × 2.
        assert_eq!(at(16.0).total_bytes, 7_000_000_000 * 18);
        // The weight format does not move a training estimate.
        assert_eq!(at(4.0).total_bytes, at(16.0).total_bytes);
    }

    #[test]
    fn both_reserves_count_in_both_modes() {
        for base in [seed_example(), training()] {
            let bare = ScenarioInput {
                runtime_gib: 0.0,
                activation_gib: 0.0,
                margin_pct: 0.0,
                ..base.clone()
            };
            let reserved = ScenarioInput {
                runtime_gib: 1.0,
                activation_gib: 3.0,
                ..bare.clone()
            };
            assert_eq!(run(reserved).total_bytes - run(bare).total_bytes, 4 * GIB);
        }
    }

    #[test]
    fn margin_multiplies_the_subtotal_with_reserves() {
        let no_margin = run(ScenarioInput {
            margin_pct: 0.0,
            ..seed_example()
        });
        let doubled = run(ScenarioInput {
            margin_pct: 100.0,
            ..seed_example()
        });
        assert_eq!(doubled.total_bytes, no_margin.total_bytes.times(2));
    }

    #[test]
    fn fits_is_total_at_most_capacity() {
        let total = run(seed_example()).total_bytes;
        let at = |bytes: Bytes| {
            run(ScenarioInput {
                gpu_memory_gb: bytes.in_unit(DisplayUnit::Gb),
                ..seed_example()
            })
            .verdict
        };
        assert_eq!(at(total).short_by_bytes, 0);
        assert_eq!(at(total).status, FitStatus::Tight);
        assert_eq!(at(total - Bytes(1)).status, FitStatus::DoesNotFit);
    }

    #[test]
    fn largest_inputs_saturate_instead_of_panicking() {
        let r = run(ScenarioInput {
            params_b: 100_000.0,
            layers: 1024,
            kv_heads: 1024,
            head_dim: 16_384,
            context: 100_000_000,
            sequences: 1_000_000,
            kv_bytes: 4.0,
            runtime_gib: 1_000_000.0,
            activation_gib: 1_000_000.0,
            margin_pct: 1_000.0,
            ..seed_example()
        });
        assert_eq!(r.components.get(Term::KvCache), Some(Bytes(u64::MAX)));
        assert_eq!(r.total_bytes, u64::MAX);
        assert!(r.verdict.utilization.is_finite());
    }
}
