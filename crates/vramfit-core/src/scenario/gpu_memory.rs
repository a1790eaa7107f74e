//! One GPU's memory, in exact bytes, and which of its figures the methods
//! fit against.
//!
//! A catalog GPU carries three figures (`data/gpus.json`, each with its
//! source): its nominal size (`capacity_bytes`: the marketed "80 GB" of an
//! H100 is 80 GiB of memory chips), what the driver reports as total
//! (`driver_total_bytes`, nvidia-smi / NVML, where a public log shows it),
//! and, for Apple silicon, the part of the unified memory macOS lets the GPU
//! wire by default (`wired_limit_bytes`). Memory typed by hand is decimal
//! GB (`--capacity-gb`, the page's field) or GiB (`--capacity-gib`),
//! converted to bytes once, as typed.
//!
//! Every method fits against the same figure, [`GpuMemory::bytes`]: what a
//! process can actually have. No method converts a "GB" into GiB on its
//! own (seed 003 read a typed "24 GB" as 24 GiB; the reference kit keeps
//! that reading as an example typed in GiB, and says so).

use crate::catalog::Gpu;
use crate::units::Bytes;
use serde::Serialize;

/// Where the figure the methods use comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemorySource {
    /// Typed by hand (decimal GB or GiB, as typed).
    Typed,
    /// The total the driver reports (catalog, with its source).
    DriverTotal,
    /// The nominal size (catalog `capacity_bytes`): no driver log known.
    Nominal,
    /// Apple silicon: macOS's default GPU wired-memory limit.
    WiredLimit,
}

/// One GPU's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GpuMemory {
    /// The nominal size: the catalog's `capacity_bytes`, or the typed
    /// figure.
    pub nominal: Bytes,
    /// What the driver reports as total, where known (catalog only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_total: Option<Bytes>,
    /// Apple silicon: the default GPU wired-memory limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wired_limit: Option<Bytes>,
}

impl GpuMemory {
    /// Memory typed by hand, already in bytes.
    pub const fn typed(bytes: Bytes) -> GpuMemory {
        GpuMemory {
            nominal: bytes,
            driver_total: None,
            wired_limit: None,
        }
    }

    /// A catalog GPU's figures.
    pub fn of(gpu: &Gpu) -> GpuMemory {
        GpuMemory {
            nominal: Bytes(gpu.capacity_bytes),
            driver_total: gpu.driver_total_bytes.map(Bytes),
            wired_limit: gpu.wired_limit_bytes.map(Bytes),
        }
    }

    /// The memory every method fits against: on a Mac the wired limit (the
    /// GPU cannot have more by default), else the driver's total where a
    /// log shows it, else the nominal size.
    ///
    /// ```
    /// use vramfit_core::catalog::find_gpu;
    /// use vramfit_core::scenario::GpuMemory;
    /// // An H100 SXM: 80 GiB of chips, 81,559 MiB reported by nvidia-smi.
    /// let h100 = GpuMemory::of(find_gpu("H100 SXM").unwrap());
    /// assert_eq!(h100.nominal.get(), 80 << 30);
    /// assert_eq!(h100.bytes().get(), 81_559 << 20);
    /// // A 128 GB M4 Max: the GPU wires 96 GiB by default.
    /// let mac = GpuMemory::of(find_gpu("M4 Max 128GB").unwrap());
    /// assert_eq!(mac.bytes().get(), 96 << 30);
    /// ```
    pub fn bytes(&self) -> Bytes {
        self.wired_limit
            .or(self.driver_total)
            .unwrap_or(self.nominal)
    }

    /// Which figure [`GpuMemory::bytes`] is, for a memory from the
    /// catalog (`catalog`) or typed.
    pub fn source(&self, catalog: bool) -> MemorySource {
        match (catalog, self.wired_limit, self.driver_total) {
            (false, _, _) => MemorySource::Typed,
            (true, Some(_), _) => MemorySource::WiredLimit,
            (true, None, Some(_)) => MemorySource::DriverTotal,
            (true, None, None) => MemorySource::Nominal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::find_gpu;

    #[test]
    fn a_catalog_card_is_never_read_as_gib_of_its_marketed_gb() {
        // "24 GB" RTX 4090: nvidia-smi shows 24,564 MiB, not 24 GiB.
        let card = GpuMemory::of(find_gpu("RTX 4090").unwrap());
        assert_eq!(card.bytes(), Bytes(24_564 << 20));
        assert_eq!(card.source(true), MemorySource::DriverTotal);
        // No driver log: the nominal size the chips give.
        let a6000 = GpuMemory::of(find_gpu("RTX A6000").unwrap());
        assert_eq!(a6000.bytes(), Bytes(48 << 30));
        assert_eq!(a6000.source(true), MemorySource::Nominal);
        let typed = GpuMemory::typed(Bytes(24_000_000_000));
        assert_eq!(typed.bytes(), Bytes(24_000_000_000));
        assert_eq!(typed.source(false), MemorySource::Typed);
    }

    #[test]
    fn every_catalog_card_has_a_positive_figure_at_most_its_nominal_size() {
        for gpu in crate::catalog::gpus::all() {
            let m = GpuMemory::of(gpu);
            assert!(m.bytes() > Bytes::ZERO, "{}", gpu.name);
            assert!(m.bytes() <= m.nominal, "{}", gpu.name);
        }
    }
}
