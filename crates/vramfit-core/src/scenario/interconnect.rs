//! How tensor-parallel GPUs are linked (`engine.interconnect`,
//! `--interconnect nvlink|pcie`), where a GPU comes both ways.

use serde::{Deserialize, Serialize};

/// The link between the GPUs of a tensor-parallel group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Interconnect {
    /// NVLink / NVSwitch (NVLink SHARP where the switch has it).
    #[default]
    Nvlink,
    Pcie,
}

impl Interconnect {
    pub const ALL: [Interconnect; 2] = [Interconnect::Nvlink, Interconnect::Pcie];

    pub const fn id(self) -> &'static str {
        match self {
            Interconnect::Nvlink => "nvlink",
            Interconnect::Pcie => "pcie",
        }
    }

    /// From `nvlink` / `pcie` (any case).
    pub fn from_name(text: &str) -> Option<Interconnect> {
        Interconnect::ALL
            .into_iter()
            .find(|i| i.id().eq_ignore_ascii_case(text.trim()))
    }
}
