//! Activations, logits and the attention score matrix (seed 002).
//!
//! ```text
//! activations  = 2 × K × tokens × H
//!   inference: tokens = min(active × S, prefill budget)   (not × L: reused between layers)
//!   training:  tokens = B × S, and × stage layers
//! logits       = 4 × V × active           (inference: last token only)
//!              = 4 × V × B × S            (training)
//! scores       = 2 × ⌈Q heads / TP⌉ × B × S²   without efficient attention
//!                                           (× stage layers in training)
//! ```
//!
//! Not divided by TP (no sequence parallelism) and logits not split over
//! the vocabulary: the seed's conservative budget. In inference `B` is the
//! active sequences of a replica; in training, the micro-batch.
//!
//! # Gradient checkpointing (training)
//!
//! Seed 002 keeps every stage layer's activations for the backward pass.
//! With gradient checkpointing (an addition to the seed, off unless the
//! scenario turns it on) each decoder layer keeps only its input, and one
//! layer's activations are rebuilt at a time during the backward pass:
//!
//! ```text
//! activations = 2 × K × B × S × H  +  2 × B × S × H × (L_stage − 1)
//! scores      = 2 × ⌈Q heads / TP⌉ × B × S²           (one layer's)
//! ```
//!
//! `2 × B × S × H` is a layer's BF16 input, the checkpoint. Source:
//! transformers' `GradientCheckpointingLayer` (`modeling_layers.py`,
//! v4.56: each decoder layer runs under `torch.utils.checkpoint`, its
//! input saved, its inside recomputed), after Chen et al. 2016, "Training
//! Deep Nets with Sublinear Memory Cost". Worked example (the test below):
//! K = 20, B = 2, S = 1,024, H = 4,096, 16 stage layers: 2 × 20 × 2,048 ×
//! 4,096 + 2 × 2,048 × 4,096 × 15 = 335,544,320 + 251,658,240 =
//! 587,202,560 bytes, against 5,368,709,120 without.

use super::shape::Dims;
use crate::units::saturate;

/// What the activation terms read.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Training (tokens = `B × S`, per stage layer) or inference.
    pub training: bool,
    /// `B`: active sequences (inference) or micro-batch (training).
    pub sequences: u64,
    /// `S`: context tokens.
    pub context: u64,
    pub prefill_budget: u64,
    pub tp: u64,
    pub stage_layers: u64,
    /// Training with gradient checkpointing: one layer's activations live,
    /// the others' inputs kept (see the module documentation).
    pub checkpointing: bool,
}

impl Workload {
    /// Tokens the activation and communication buffers hold: inference
    /// `min(active × S, prefill budget)`, training `B × S`.
    pub fn tokens(&self) -> u64 {
        let all = saturate(self.sequences as u128 * self.context as u128);
        match self.training {
            true => all,
            false => all.min(self.prefill_budget),
        }
    }

    /// Layers the training terms are multiplied by (1 in inference, and
    /// with gradient checkpointing: one layer's at a time).
    fn layer_factor(&self) -> u128 {
        match (self.training, self.checkpointing) {
            (true, false) => self.stage_layers as u128,
            _ => 1,
        }
    }

    /// Checkpointed layer inputs: `2 × B × S × H × (L_stage − 1)` bytes
    /// with gradient checkpointing in training, else 0.
    fn checkpoints(&self, hidden: u64) -> u128 {
        match (self.training, self.checkpointing) {
            (true, true) => (2 * self.tokens() as u128)
                .saturating_mul(hidden as u128)
                .saturating_mul(self.stage_layers.saturating_sub(1) as u128),
            _ => 0,
        }
    }
}

/// `2 × K × tokens × H` (× stage layers in training), `K` in thousandths,
/// rounded to the nearest byte.
pub fn activations(d: &Dims, w: &Workload, milli_k: u64) -> u64 {
    let n = (2 * milli_k as u128)
        .saturating_mul(w.tokens() as u128)
        .saturating_mul(d.hidden as u128)
        .saturating_mul(w.layer_factor());
    saturate((n.saturating_add(500) / 1_000).saturating_add(w.checkpoints(d.hidden)))
}

/// FP32 logits: `4 × V × active` (inference), `4 × V × B × S` (training).
pub fn logits(d: &Dims, w: &Workload) -> u64 {
    let rows = match w.training {
        true => w.sequences as u128 * w.context as u128,
        false => w.sequences as u128,
    };
    saturate((4 * d.vocab as u128).saturating_mul(rows))
}

/// The `S²` score matrix without efficient attention:
/// `2 × ⌈Q heads / TP⌉ × B × S²` (× stage layers in training); 0 with it.
pub fn attention_scores(d: &Dims, w: &Workload, efficient: bool) -> u64 {
    if efficient {
        return 0;
    }
    let heads = d.q_heads.div_ceil(w.tp.max(1)) as u128;
    let s = w.context as u128;
    saturate(
        (2 * heads)
            .saturating_mul(w.sequences as u128)
            .saturating_mul(s.saturating_mul(s))
            .saturating_mul(w.layer_factor()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> Dims<'static> {
        Dims {
            params: 1,
            ..Dims::test_8b()
        }
    }

    fn work(training: bool, sequences: u64, context: u64) -> Workload {
        Workload {
            training,
            sequences,
            context,
            prefill_budget: 2048,
            tp: 2,
            stage_layers: 16,
            checkpointing: false,
        }
    }

    #[test]
    fn inference_tokens_are_capped_by_the_prefill_budget() {
        // 4 × 8,192 > 2,048: 2 × 20 × 2,048 × 4,096 = 335,544,320.
        assert_eq!(
            activations(&dims(), &work(false, 4, 8_192), 20_000),
            335_544_320
        );
        // 1 × 1,000 < 2,048: 2 × 20 × 1,000 × 4,096.
        assert_eq!(
            activations(&dims(), &work(false, 1, 1_000), 20_000),
            163_840_000
        );
        // Last token only: 4 × 128,000 × 4.
        assert_eq!(logits(&dims(), &work(false, 4, 8_192)), 2_048_000);
    }

    #[test]
    fn training_multiplies_by_stage_layers_and_keeps_every_logit() {
        // 2 × 20 × (2 × 1,024) × 4,096 × 16 layers.
        let w = work(true, 2, 1_024);
        assert_eq!(activations(&dims(), &w, 20_000), 5_368_709_120);
        assert_eq!(logits(&dims(), &w), 4 * 128_000 * 2 * 1_024);
    }

    #[test]
    fn checkpointing_keeps_one_layer_and_the_others_inputs() {
        let w = Workload {
            checkpointing: true,
            ..work(true, 2, 1_024)
        };
        // 2 × 20 × 2,048 × 4,096 + 2 × 2,048 × 4,096 × 15.
        assert_eq!(activations(&dims(), &w, 20_000), 335_544_320 + 251_658_240);
        // One layer's score matrix: 2 × 16 × 2 × 1,024².
        assert_eq!(attention_scores(&dims(), &w, false), 2 * 33_554_432);
        // Inference ignores it.
        let i = Workload {
            checkpointing: true,
            ..work(false, 4, 8_192)
        };
        assert_eq!(activations(&dims(), &i, 20_000), 335_544_320);
    }

    #[test]
    fn score_matrix_only_without_efficient_attention() {
        let w = work(false, 1, 1_024);
        assert_eq!(attention_scores(&dims(), &w, true), 0);
        // 2 × 32/2 × 1 × 1,024² = 33,554,432.
        assert_eq!(attention_scores(&dims(), &w, false), 33_554_432);
        // Training: × 16 stage layers.
        let t = work(true, 1, 1_024);
        assert_eq!(attention_scores(&dims(), &t, false), 16 * 33_554_432);
    }
}
