//! The runtime terms per GPU class and link: one row each, read by
//! [`runtime_terms`] alone. A GPU class or link without its own logs takes
//! another row's terms, marked [`Provenance::Assumed`].

use super::allocator::MIB;
use super::runtime::{Provenance, RuntimeTerms};
use serde::Serialize;

/// GPUs that share runtime behaviour (driver, NCCL transport, kernels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuClass {
    /// Compute capability 9.x (H100, H200, GH200).
    Hopper,
    /// 8.0 and 8.6 (A100, A10, RTX 30, RTX A-series).
    Ampere,
    /// 8.9 (L4, L40S, RTX 40, RTX 6000 Ada).
    Ada,
    /// 10.x and 12.x (B200, GB200, RTX 50, RTX PRO 6000, GB10).
    Blackwell,
    /// An AMD GPU under ROCm.
    Rocm,
    /// Anything else.
    Other,
}

impl GpuClass {
    /// From an NVIDIA compute capability (`None`: unknown).
    pub fn from_compute(major: Option<u32>, minor: Option<u32>) -> GpuClass {
        match (major, minor) {
            (Some(9), _) => GpuClass::Hopper,
            (Some(8), Some(9)) => GpuClass::Ada,
            (Some(8), _) => GpuClass::Ampere,
            (Some(10..=12), _) => GpuClass::Blackwell,
            _ => GpuClass::Other,
        }
    }
}

/// How the tensor-parallel GPUs talk (the scenario's `interconnect`).
pub use crate::scenario::Interconnect as Link;

/// One row: the terms, where they come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuntimeRow {
    pub class: GpuClass,
    /// `None`: the row holds for either link (the logs do not say which).
    pub link: Option<Link>,
    pub terms: RuntimeTerms,
    pub source: &'static str,
}

const HOPPER_NVLINK: RuntimeTerms = RuntimeTerms::DEFAULT;

/// Ampere: the H100's terms with the NCCL buffers of two A100s.
const AMPERE: RuntimeTerms = RuntimeTerms {
    nccl_tp2: 123 * MIB,
    nccl_per_rank_beyond4: super::runtime::NON_TORCH_NCCL_PER_RANK,
    ..RuntimeTerms::DEFAULT
};

/// The table.
pub const ROWS: &[RuntimeRow] = &[
    RuntimeRow {
        class: GpuClass::Hopper,
        link: Some(Link::Nvswitch),
        terms: HOPPER_NVLINK,
        source: "measured: the 47 vLLM 0.19 logs of an H100 80GB HBM3 (SXM, NVSwitch) at TP 1, \
                 2, 4 (vllm-0.19-h100.csv); TP 8 from one vLLM 0.10.0 log (vllm-logs.md row 8); \
                 the CUDA-graph estimate from rows 5, 7 and 10",
    },
    RuntimeRow {
        class: GpuClass::Ampere,
        link: None,
        terms: AMPERE,
        source: "measured: NCCL at TP 2 from two A100 80GB logs of one machine at TP 1 and 2 \
                 (vllm-logs.md rows 1-2, link not stated: 123 MiB where an H100 with NVLink \
                 SHARP takes 1864); the rest assumed from the H100 row; TP 1 checked on rows \
                 1, 10 and 12",
    },
];

/// The terms for a GPU class and link, and whether they were measured on
/// that class (and link) or assumed from another row.
///
/// A class and link without a row of their own take, as an assumption:
/// the Hopper NVSwitch row where NVLink SHARP can exist (Hopper or
/// Blackwell on an NVSwitch: NCCL allocates its NVLS buffers there and
/// nowhere else), else the Ampere row (no NVLS: PCIe, NVLink bridges,
/// and the classes before Hopper), whose NCCL buffers are an A100 pair's.
///
/// ```
/// use vramfit_core::methods::vllm::{runtime_terms, GpuClass, Link, Provenance};
/// assert_eq!(runtime_terms(GpuClass::Hopper, Link::Nvswitch).terms.provenance, Provenance::Measured);
/// assert_eq!(runtime_terms(GpuClass::Ada, Link::Pcie).terms.provenance, Provenance::Assumed);
/// ```
pub fn runtime_terms(class: GpuClass, link: Link) -> RuntimeRow {
    let found = ROWS
        .iter()
        .find(|r| r.class == class && r.link.is_none_or(|l| l == link));
    let nvls = link == Link::Nvswitch && matches!(class, GpuClass::Hopper | GpuClass::Blackwell);
    match (found, nvls) {
        (Some(row), _) => *row,
        (None, true) => RuntimeRow {
            class,
            link: Some(link),
            terms: RuntimeTerms {
                provenance: Provenance::Assumed,
                ..HOPPER_NVLINK
            },
            source: "assumed: no log of this GPU class and link; the H100 NVSwitch row's terms \
                     (NVLink SHARP buffers)",
        },
        (None, false) => RuntimeRow {
            class,
            link: Some(link),
            terms: RuntimeTerms {
                provenance: Provenance::Assumed,
                ..AMPERE
            },
            source: "assumed: no log of this GPU class and link; the A100 row's terms (NCCL \
                     without NVLink SHARP)",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_nvlink_sharp_the_a100_row_is_assumed() {
        let pcie = runtime_terms(GpuClass::Hopper, Link::Pcie);
        assert_eq!(pcie.terms.provenance, Provenance::Assumed);
        assert_eq!(pcie.terms.nccl_tp2, AMPERE.nccl_tp2);
        let b200 = runtime_terms(GpuClass::Blackwell, Link::Nvswitch);
        assert_eq!(b200.terms.nccl_tp2, HOPPER_NVLINK.nccl_tp2);
        // A bridged H100 NVL pair has no switch, so no NVLS buffers.
        let nvl = runtime_terms(GpuClass::Hopper, Link::Nvlink);
        assert_eq!(nvl.terms.nccl_tp2, AMPERE.nccl_tp2);
        assert_eq!(nvl.terms.provenance, Provenance::Assumed);
    }

    #[test]
    fn a100_pairs_take_less_nccl_than_h100_pairs() {
        let a = runtime_terms(GpuClass::Ampere, Link::Pcie).terms;
        let h = runtime_terms(GpuClass::Hopper, Link::Nvswitch).terms;
        assert!(a.non_torch(2, true) < h.non_torch(2, true));
        assert_eq!(a.non_torch(1, true), h.non_torch(1, true));
        assert_eq!(GpuClass::from_compute(Some(8), Some(0)), GpuClass::Ampere);
    }
}
