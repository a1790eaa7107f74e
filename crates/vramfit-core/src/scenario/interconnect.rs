//! How tensor-parallel GPUs are linked (`engine.interconnect`,
//! `--interconnect nvlink|nvswitch|pcie`), where a GPU comes both ways:
//! the catalog's type ([`crate::catalog::gpus::Interconnect`]), which a
//! catalog GPU also carries as its usual link.

pub use crate::catalog::gpus::Interconnect;
