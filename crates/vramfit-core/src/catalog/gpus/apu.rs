//! Which limit the GPU of a machine with shared (unified) memory may use,
//! besides Apple silicon's wired limit ([`super::default_wired_limit`]).
//!
//! Data, one row per catalog GPU, each with its source:
//!
//! - **AMD APUs** (Strix Halo / Ryzen AI Max, Radeon 780M): the GPU sees
//!   the carve-out the BIOS dedicates to it (VRAM) plus GTT, system memory
//!   the kernel lets it map. Linux's amdgpu takes GTT from TTM's page
//!   limit, by default half of the memory the kernel sees
//!   (`drivers/gpu/drm/ttm/ttm_tt.c` `ttm_tt_mgr_init`: `num_pages / 2`;
//!   `amdgpu_ttm.c` uses it when `amdgpu.gttsize` is unset, kernel 6.x).
//!   ROCm and Vulkan (RADV) builds of llama.cpp both allocate from it.
//!   Raised with the kernel options `ttm.pages_limit=N` (4 KiB pages) and
//!   `amdgpu.gttsize=M` (MiB).
//! - **NVIDIA DGX Spark (GB10)**: CUDA reports the whole system memory as
//!   the device's total (`cudaMemGetInfo`), which llama.cpp fits against.

const GIB: u64 = 1 << 30;

/// How a shared-memory GPU's usable memory is derived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SharedLimit {
    /// AMD APU on Linux: BIOS VRAM plus the default GTT ([`amd_gpu_visible`]).
    AmdGtt,
    /// CUDA reports the whole unified memory (DGX Spark).
    CudaUnifiedTotal,
}

/// One catalog GPU whose memory is shared with the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedRow {
    /// The catalog name.
    pub gpu: &'static str,
    /// How its limit is derived.
    pub limit: SharedLimit,
    /// Where that comes from.
    pub source: &'static str,
}

/// The shared-memory GPUs of the catalog other than Apple's.
pub const SHARED: &[SharedRow] = &[
    SharedRow {
        gpu: "AMD Ryzen AI Max+ 395 (Radeon 8060S, 128GB)",
        limit: SharedLimit::AmdGtt,
        source:
            "Linux drivers/gpu/drm/ttm/ttm_tt.c (ttm_tt_mgr_init: pages_limit = num_pages / 2) \
                 and drivers/gpu/drm/amd/amdgpu/amdgpu_ttm.c (gtt size = ttm pages limit when \
                 amdgpu.gttsize is unset); lhl/strix-halo-testing llm-bench/README.md (GTT memory)",
    },
    SharedRow {
        gpu: "AMD Ryzen 7 8700G (Radeon 780M, 32GB)",
        limit: SharedLimit::AmdGtt,
        source:
            "Linux drivers/gpu/drm/ttm/ttm_tt.c (ttm_tt_mgr_init: pages_limit = num_pages / 2) \
                 and drivers/gpu/drm/amd/amdgpu/amdgpu_ttm.c (gtt size = ttm pages limit when \
                 amdgpu.gttsize is unset): the same amdgpu driver as Strix Halo's",
    },
    SharedRow {
        gpu: "NVIDIA DGX Spark (GB10)",
        limit: SharedLimit::CudaUnifiedTotal,
        source: "NVIDIA DGX Spark user guide: CPU and GPU share 128 GB LPDDR5X; cudaMemGetInfo \
                 reports the system memory as the device's total",
    },
];

/// The BIOS's dedicated VRAM assumed on an AMD APU when none is given:
/// 512 MiB, the smallest setting firmware offers and a common default
/// (assumed; vendors differ).
pub const AMD_DEFAULT_BIOS_VRAM: u64 = 512 << 20;

/// The BIOS VRAM of an AMD APU: the one given (`--bios-vram-gib`), else
/// [`AMD_DEFAULT_BIOS_VRAM`].
pub const fn bios_vram(given: Option<u64>) -> u64 {
    match given {
        Some(v) => v,
        None => AMD_DEFAULT_BIOS_VRAM,
    }
}

/// The row of a catalog GPU, if its memory is shared.
pub fn shared_row(name: &str) -> Option<&'static SharedRow> {
    SHARED.iter().find(|r| r.gpu == name)
}

/// What an AMD APU's GPU may allocate under Linux's defaults.
///
/// # Formula
///
/// `visible = vram + ⌊(memory − vram) / 2⌋`: the BIOS carve-out `vram`
/// plus the default GTT, half of what the kernel sees (`memory − vram`).
///
/// ```
/// use vramfit_core::catalog::gpus::apu::{amd_gpu_visible, AMD_DEFAULT_BIOS_VRAM};
/// // 128 GiB Strix Halo, 512 MiB carve-out: 0.5 + 63.75 = 64.25 GiB.
/// assert_eq!(amd_gpu_visible(128 << 30, AMD_DEFAULT_BIOS_VRAM), 64 * (1 << 30) + (256 << 20));
/// ```
pub fn amd_gpu_visible(memory: u64, vram: u64) -> u64 {
    let vram = vram.min(memory);
    vram + (memory - vram) / 2
}

/// What an AMD APU's kernel needs to map `want` bytes as GTT: the
/// `ttm.pages_limit` in 4 KiB pages and `amdgpu.gttsize` in MiB, both
/// rounded up.
pub fn amd_gtt_options(want_gtt: u64) -> (u64, u64) {
    (want_gtt.div_ceil(4096), want_gtt.div_ceil(1 << 20))
}

/// Memory an APU's host keeps for itself when GTT is raised (assumed:
/// 8 GiB for the OS and llama.cpp's host side).
pub const APU_HOST_RESERVE: u64 = 8 * GIB;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_names_a_catalog_gpu_with_shared_memory_type() {
        for r in SHARED {
            let g = crate::catalog::gpus::all()
                .iter()
                .find(|g| g.name == r.gpu)
                .unwrap_or_else(|| panic!("{} not in the catalog", r.gpu));
            assert!(
                g.memory_type
                    .as_deref()
                    .is_some_and(|t| t.contains("unified")),
                "{}",
                r.gpu
            );
        }
    }

    #[test]
    fn gtt_options_cover_what_they_are_asked_for() {
        let (pages, mb) = amd_gtt_options(120 * GIB);
        assert_eq!(pages, 31_457_280);
        assert_eq!(mb, 122_880);
        assert_eq!(amd_gpu_visible(0, AMD_DEFAULT_BIOS_VRAM), 0);
    }
}
