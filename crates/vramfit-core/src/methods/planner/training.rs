//! Training states (seed 002): per trainable parameter, 8 bytes of AdamW,
//! 2 or 4 bytes of gradient and an optional 4-byte master copy. LoRA and
//! QLoRA adapters add their own BF16 weights; the frozen base is BF16
//! (LoRA) or 4-bit with the metadata percentage (QLoRA).
//!
//! ```text
//! trainable (full)   = P, placed as the weights: body × stage/L/TP + U/TP
//! trainable (LoRA)   = r × L × (4H + 2·Q·d + 2·KV·d), placed × stage/L/TP
//! adapters           = 2 × trainable               (LoRA and QLoRA)
//! gradients          = g × trainable               (g = 2 or 4)
//! optimizer          = 8 × trainable               (AdamW: two FP32 moments)
//! master_weights     = 4 × trainable               (when enabled)
//! ```
//!
//! The seed gives no adapter count; here adapters sit on the four attention
//! projections q, k, v and o (as the `allocator` method counts them), each
//! `r × (in + out)`: q `H → Q·d`, k and v `H → KV·d`, o `Q·d → H`.

use super::shape::Dims;
use super::weights::share;
use crate::methods::Refusal;
use crate::scenario::PlannerSettings;
use crate::scenario::{Mode, Optimizer, Scenario};
use crate::units::saturate;

/// AdamW's two FP32 moments, bytes per trainable parameter.
pub const ADAMW_BYTES: u64 = 8;
/// An FP32 master copy, bytes per trainable parameter.
pub const MASTER_BYTES: u64 = 4;
/// Adapter weights are BF16.
pub const ADAPTER_BYTES: u64 = 2;

/// The training terms on one GPU, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrainingBytes {
    /// Trainable parameters on this GPU.
    pub trainable: u64,
    pub adapters: u64,
    pub gradients: u64,
    pub optimizer: u64,
    pub master_weights: u64,
}

/// LoRA adapter parameters of the whole model at rank `r`.
pub fn lora_params(d: &Dims, rank: u64) -> u64 {
    let q = d.q_heads as u128 * d.head_dim as u128;
    let kv = d.kv_heads as u128 * d.head_dim as u128;
    let per_layer = 4 * d.hidden as u128 + 2 * q + 2 * kv;
    saturate(
        (rank as u128)
            .saturating_mul(d.layers as u128)
            .saturating_mul(per_layer),
    )
}

/// The training terms of a scenario on its most loaded GPU; nothing in
/// inference. The seed states AdamW only.
pub fn training(
    s: &Scenario,
    d: &Dims,
    k: &PlannerSettings,
    stage_layers: u64,
) -> Result<TrainingBytes, Refusal> {
    if s.mode == Mode::Inference {
        return Ok(TrainingBytes::default());
    }
    if s.optimizer != Optimizer::AdamW {
        return Err(Refusal::Optimizer(s.optimizer));
    }
    let tp = s.layout.tp;
    let split = d.layers.saturating_mul(tp);
    let (trainable, adapters) = match s.mode {
        Mode::Full => {
            let body = share(d.body_params(), stage_layers, split);
            let u = share(d.unquantized, 1, tp);
            (body.saturating_add(u), 0)
        }
        _ => {
            let a = share(lora_params(d, s.lora_rank), stage_layers, split);
            (a, a.saturating_mul(ADAPTER_BYTES))
        }
    };
    Ok(TrainingBytes {
        trainable,
        adapters,
        gradients: trainable.saturating_mul(k.gradient_bytes),
        optimizer: trainable.saturating_mul(ADAMW_BYTES),
        master_weights: match k.master_copy {
            true => trainable.saturating_mul(MASTER_BYTES),
            false => 0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lora_counts_q_k_v_o() {
        let d = Dims {
            unquantized: 1_048_576_000,
            ..Dims::test_8b()
        };
        // r = 16: 16 × 32 × (4 × 4,096 + 2 × 4,096 + 2 × 1,024) = 13,631,488.
        assert_eq!(lora_params(&d, 16), 13_631_488);
    }
}
