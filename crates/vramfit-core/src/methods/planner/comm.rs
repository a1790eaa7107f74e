//! Communication buffers and weight offload (seed 002).
//!
//! ```text
//! communication   = 2 buffers × 2 bytes (BF16) × tokens × H × active dimensions
//!                   active dimensions = [TP > 1] + [PP > 1]
//!                   tokens: inference min(active × S, prefill budget); training B × S
//! offload_staging = the body of one layer on each GPU: body / L / TP   (when offloading)
//! limits          offload per GPU ≤ quantized body weights on that GPU
//!                 offload × GPUs of a machine ≤ 80 % of its host RAM
//! ```
//!
//! A capacity limit only: no transfer time, initial load or real layer
//! granularity is simulated.

use super::weights::share;
use crate::units::saturate;

/// Bytes of one BF16 value.
const BF16_BYTES: u128 = 2;
/// Buffers per active parallel dimension.
const BUFFERS: u128 = 2;
/// Host RAM offload may take, percent.
pub const HOST_RAM_PCT: u64 = 80;

/// `2 × 2 × tokens × H` for each of TP and PP that is above 1.
pub fn communication(tokens: u64, hidden: u64, tp: u64, pp: u64) -> u64 {
    let dims = u128::from(tp > 1) + u128::from(pp > 1);
    saturate(
        (BUFFERS * BF16_BYTES * dims)
            .saturating_mul(tokens as u128)
            .saturating_mul(hidden as u128),
    )
}

/// Staging for one layer's body on one GPU: `body / L / TP`, rounded up;
/// 0 without offload.
pub fn staging(offload: u64, body: u64, layers: u64, tp: u64) -> u64 {
    match offload {
        0 => 0,
        _ => share(body, 1, layers.saturating_mul(tp)),
    }
}

/// Most a GPU may offload when a machine has `gpus` GPUs and `host_ram`
/// bytes: `80 % × host RAM / GPUs`, rounded down.
pub fn host_ram_limit_per_gpu(host_ram: u64, gpus: u64) -> u64 {
    saturate(host_ram as u128 * HOST_RAM_PCT as u128 / (100 * gpus.max(1) as u128))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bf16_buffers_per_active_dimension() {
        assert_eq!(communication(2_048, 4_096, 1, 1), 0);
        // TP only: 2 × 2 × 2,048 × 4,096 = 33,554,432.
        assert_eq!(communication(2_048, 4_096, 2, 1), 33_554_432);
        assert_eq!(communication(2_048, 4_096, 2, 2), 2 * 33_554_432);
    }

    #[test]
    fn staging_is_one_layer_body_and_host_ram_caps_offload() {
        assert_eq!(staging(0, 3_200, 32, 1), 0);
        assert_eq!(staging(1, 3_200, 32, 2), 50);
        // 64 GB of RAM, 4 GPUs: 80 % / 4 = 12.8 GB each.
        assert_eq!(host_ram_limit_per_gpu(64_000_000_000, 4), 12_800_000_000);
    }
}
