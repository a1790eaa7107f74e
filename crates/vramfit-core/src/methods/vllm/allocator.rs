//! What PyTorch's CUDA caching allocator counts for one tensor.
//!
//! vLLM reports the weights as the growth of
//! `torch.cuda.max_memory_allocated()` across model loading
//! (`DeviceMemoryProfiler` in `vllm/utils/mem_utils.py`), which sums the
//! *blocks* handed out, not the bytes asked for. A large tensor gets a
//! fresh segment rounded to 2 MiB; when less than 1 MiB of that segment is
//! left over, the allocator does not split it and the whole segment counts.

/// Bytes in one MiB.
pub const MIB: u64 = 1 << 20;

/// Bytes the caching allocator counts as allocated for a fresh tensor of
/// `bytes`.
///
/// # Formula
///
/// ```text
/// s = max(512, ⌈n / 512⌉ · 512)
/// s ≤ 1 MiB:            s            (small pool)
/// s < 10 MiB:           s            (carved from a 20 MiB segment, split)
/// otherwise:            g = ⌈s / 2 MiB⌉ · 2 MiB
///                       g if g − s ≤ 1 MiB (not split), else s
/// ```
///
/// Source: PyTorch `c10/cuda/CUDACachingAllocator.cpp`: `round_size`
/// (`kMinBlockSize` 512), `get_allocation_size` (`kSmallSize` 1 MiB,
/// `kMinLargeAlloc` 10 MiB, `kRoundLarge` 2 MiB), `should_split` (a large
/// block splits only when more than `kSmallSize` remains). Tensors are
/// taken as allocated one after another into fresh segments, which is how
/// a model's parameters are created; reuse of freed blocks is not modelled.
///
/// ```
/// use vramfit_core::methods::vllm::allocated_block;
/// // Qwen2.5-7B's fused q/k/v weight, 4608 × 3584 bf16 = 31.5 MiB: the
/// // 32 MiB segment is not split.
/// assert_eq!(allocated_block(4608 * 3584 * 2), 32 << 20);
/// // Its o_proj, 24.5 MiB in a 26 MiB segment: split, exact.
/// assert_eq!(allocated_block(3584 * 3584 * 2), 3584 * 3584 * 2);
/// ```
pub fn allocated_block(bytes: u64) -> u64 {
    if bytes == 0 {
        return 0;
    }
    let size = bytes.div_ceil(512).saturating_mul(512).max(512);
    if size < 10 * MIB {
        return size;
    }
    let segment = size.div_ceil(2 * MIB).saturating_mul(2 * MIB);
    match segment - size <= MIB {
        true => segment,
        false => size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_exact_sizes_are_unchanged() {
        assert_eq!(allocated_block(0), 0);
        assert_eq!(allocated_block(1), 512);
        assert_eq!(allocated_block(513), 1024);
        assert_eq!(allocated_block(3 * MIB + 7), 3 * MIB + 512);
        assert_eq!(allocated_block(48 * MIB), 48 * MIB);
    }

    #[test]
    fn a_remainder_of_one_mib_or_less_is_kept() {
        assert_eq!(allocated_block(259 * MIB), 260 * MIB); // 1 MiB left
        assert_eq!(allocated_block(129 * MIB + MIB / 2), 130 * MIB);
        assert_eq!(
            allocated_block(64 * MIB + 3 * MIB / 4),
            64 * MIB + 3 * MIB / 4
        );
        assert_eq!(allocated_block(u64::MAX), u64::MAX);
    }
}
