//! Kernel paddings vLLM applies to weights when it creates them.

use serde::Serialize;

/// How vLLM pads the MXFP4 expert matrices of one rank (gpt-oss) for the
/// kernel it picks on the GPU: the per-rank intermediate size `I` and the
/// hidden size `H` are rounded up to these multiples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mxfp4Padding {
    pub intermediate: u64,
    pub hidden: u64,
}

impl Mxfp4Padding {
    /// Hopper's Triton kernels: `I` to a multiple of 64, `H` as is.
    pub const HOPPER: Mxfp4Padding = Mxfp4Padding {
        intermediate: 64,
        hidden: 1,
    };

    /// The padding of the MXFP4 backend vLLM picks on a GPU of compute
    /// capability `major.minor`.
    ///
    /// # Formula
    ///
    /// ```text
    /// Marlin (compute capability below 9.0):   I → ⌈I/128⌉·128, H → ⌈H/256⌉·256
    /// Hopper (9.x, Triton kernels):            I → ⌈I/64⌉·64
    /// Blackwell (10.x and on, FlashInfer TRT-LLM): I → ⌈I/256⌉·256, H → ⌈H/256⌉·256
    /// ```
    ///
    /// Read at 0.19.0: `vllm/model_executor/layers/fused_moe/oracle/mxfp4.py:376`
    /// (`mxfp4_round_up_hidden_size_and_intermediate_size`: Marlin 128 / 256
    /// at `:380-385`, the TRT-LLM backends 256 / 256 at `:386-388`, the
    /// default, Triton, `I` to 64 at `:398-399`) and `:174-183` (the
    /// backends in priority order: on a 9.0 GPU, with no variable set, the
    /// first supported is Triton). Per rank on Hopper: gpt-oss
    /// (`I = 2880`) is unpadded at TP 1 (45 · 64), `1440 → 1472` at TP 2,
    /// `720 → 768` at TP 4, `360 → 384` at TP 8. Earlier reading:
    /// vLLM `model_executor/layers/quantization/mxfp4.py`,
    /// `Mxfp4MoEMethod.create_weights` (the `Mxfp4Backend.MARLIN`, `SM100_FI_*`
    /// and default branches; "the moe marlin kernel requires that for each
    /// linear n % 256 == 0 and k % 128 == 0"). Which backend a release picks
    /// on a GPU (`get_mxfp4_backend`) is taken from the compute capability
    /// alone. gpt-oss-20b (`I = H = 2880`, 32 experts, 24 layers) on an
    /// A100: `I → 2944`, `H → 3072`, 13.71 GiB loaded where the log says
    /// 13.72 (`data/engines/vllm-logs.md`, row 12), 12.86 unpadded.
    pub fn for_gpu(compute_major: u32) -> Mxfp4Padding {
        match compute_major {
            0..=8 => Mxfp4Padding {
                intermediate: 128,
                hidden: 256,
            },
            9 => Mxfp4Padding::HOPPER,
            _ => Mxfp4Padding {
                intermediate: 256,
                hidden: 256,
            },
        }
    }

    /// `(I, H)` padded.
    pub fn pad(self, intermediate: u64, hidden: u64) -> (u64, u64) {
        let up = |x: u64, m: u64| x.div_ceil(m.max(1)).saturating_mul(m.max(1));
        (up(intermediate, self.intermediate), up(hidden, self.hidden))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt_oss_on_each_backend() {
        assert_eq!(Mxfp4Padding::for_gpu(8).pad(2880, 2880), (2944, 3072));
        assert_eq!(Mxfp4Padding::for_gpu(9).pad(2880, 2880), (2880, 2880));
        assert_eq!(Mxfp4Padding::for_gpu(10).pad(2880, 2880), (3072, 3072));
        // At TP 2 each rank pads its own half.
        assert_eq!(Mxfp4Padding::for_gpu(8).pad(1440, 2880), (1536, 3072));
        // Hopper's Triton kernel rounds each rank's share to 64.
        let hopper = |tp: u64| Mxfp4Padding::for_gpu(9).pad(2880 / tp, 2880).0;
        assert_eq!(
            [hopper(1), hopper(2), hopper(4), hopper(8)],
            [2880, 1472, 768, 384]
        );
    }
}
