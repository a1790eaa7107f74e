//! How a GPU's tensor-parallel peers are linked: a catalog field
//! (`interconnect` in `data/gpus.json`, its source under `verification`)
//! and a scenario input (`engine.interconnect`, `--interconnect`) where a
//! GPU comes both ways.

use serde::{Deserialize, Serialize};

/// The link between the GPUs of a tensor-parallel group.
///
/// NCCL picks its transport from it: over PCIe without peer access its
/// buffers sit in host memory (the SHM transport); over NVLink each peer
/// gets `NCCL_BUFFSIZE` (4 MiB) per channel in GPU memory (P2P); an
/// NVSwitch of the third generation (Hopper, Blackwell systems) adds
/// NVLink SHARP (NVLS) buffers. Which of them vLLM's non-torch memory
/// shows is measured per GPU class and link (`methods::vllm::runtime_terms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Interconnect {
    /// NVLink without a switch: bridged pairs (H100 NVL, RTX A6000, RTX
    /// 3090), V100 SXM2's hybrid cube mesh.
    #[default]
    Nvlink,
    /// An NVSwitch fabric (HGX / DGX boards of SXM modules, NVL72 racks).
    Nvswitch,
    /// PCIe only.
    Pcie,
}

impl Interconnect {
    pub const ALL: [Interconnect; 3] = [
        Interconnect::Nvlink,
        Interconnect::Nvswitch,
        Interconnect::Pcie,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            Interconnect::Nvlink => "nvlink",
            Interconnect::Nvswitch => "nvswitch",
            Interconnect::Pcie => "pcie",
        }
    }

    /// From `nvlink` / `nvswitch` / `pcie` (any case).
    pub fn from_name(text: &str) -> Option<Interconnect> {
        Interconnect::ALL
            .into_iter()
            .find(|i| i.id().eq_ignore_ascii_case(text.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in Interconnect::ALL {
            assert_eq!(Interconnect::from_name(&i.id().to_uppercase()), Some(i));
        }
        assert_eq!(Interconnect::from_name("infiniband"), None);
    }
}
