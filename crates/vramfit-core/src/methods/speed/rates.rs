//! The effective rates: efficiencies and fixed costs fitted on the
//! calibration rows, read from `data/speed/rates.json` (written by
//! `cargo run -p vramfit-core --example speed_fit -- --write`). A new
//! backend or family is a new row of that file, not a new branch here.

use super::Backend;
use crate::gguf::FileType;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The weight-type family a kernel reads: block-quantized GGML types
/// (k-quants, legacy and i-quants: dequantized in the kernel), plain
/// floats, and MXFP4 experts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Quant,
    Float,
    Mxfp4,
}

impl Family {
    /// The family of a GGUF file type.
    pub const fn of(file_type: FileType) -> Family {
        match file_type {
            FileType::F16 | FileType::BF16 => Family::Float,
            FileType::MXFP4_MOE => Family::Mxfp4,
            FileType::Q8_0
            | FileType::Q6_K
            | FileType::Q5_K_M
            | FileType::Q5_K_S
            | FileType::Q5_0
            | FileType::Q5_1
            | FileType::Q4_K_M
            | FileType::Q4_K_S
            | FileType::Q4_0
            | FileType::Q4_1
            | FileType::IQ4_XS
            | FileType::Q3_K_L
            | FileType::Q3_K_M
            | FileType::Q3_K_S
            | FileType::Q2_K => Family::Quant,
        }
    }

    pub const fn id(self) -> &'static str {
        match self {
            Family::Quant => "quant",
            Family::Float => "float",
            Family::Mxfp4 => "mxfp4",
        }
    }
}

/// Measured / predicted at the low and high ends of the band (the 10th
/// and 90th percentiles of the calibration rows' ratios).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ratios {
    pub low: f64,
    pub high: f64,
}

/// The fixed costs of one backend in llama.cpp.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BackendCosts {
    pub backend: Backend,
    /// Per repeating layer per decode step, microseconds (kernel launches
    /// and the small products a layer runs besides its weights).
    pub layer_overhead_us: f64,
    /// Per extra GPU a layer split hands the activations to, microseconds.
    pub gpu_hop_us: f64,
    /// Prefill only: decimal GB/s at which a layer split hands a prompt's
    /// hidden states (F32, `n_embd` values a token) from one GPU to the
    /// next (`None`: the backend has no multi-GPU prompt rows; CUDA's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill_link_gb_s: Option<f64>,
    /// Fitted on these many rows; `false`: the costs of CUDA, borrowed.
    pub fitted: bool,
}

/// One efficiency for an engine × backend × family, with its fit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GroupRate {
    pub backend: Backend,
    pub family: Family,
    /// Share of the peak (bandwidth for decode, tensor throughput for
    /// prefill).
    pub efficiency: f64,
    /// The rate the kernels do not exceed on any GPU (`None`: no ceiling
    /// seen), decimal GB/s for decode, TFLOPS for prefill:
    /// `rate = min(e · peak, ceiling)`.
    pub ceiling: Option<f64>,
    /// Prefill only: how many passes over the dequantization traffic
    /// (each quantized weight read and written back as F16) one
    /// micro-batch costs, at the decode bandwidth. 1 where the backend
    /// dequantizes to F16 before a GEMM (CUDA's cuBLAS path), 0 where the
    /// GEMM kernel reads the blocks itself (Metal's `kernel_mul_mm`,
    /// MMQ); fitted on a grid. `None`: 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dequant: Option<f64>,
    /// Calibration rows it was fitted on, and their errors, percent.
    pub rows: u32,
    pub median_error_pct: f64,
    pub worst_error_pct: f64,
}

/// llama.cpp's rates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlamacppRates {
    pub costs: Vec<BackendCosts>,
    pub decode: Vec<GroupRate>,
    pub prefill: Vec<GroupRate>,
    pub decode_band: Ratios,
    pub prefill_band: Ratios,
    /// Share of the host's peak bandwidth a CPU matrix-vector product
    /// reaches (not calibrated: no host-offload rows; an assumption).
    pub host_efficiency: f64,
}

/// vLLM's rates (CUDA only).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VllmRates {
    pub bandwidth_efficiency: f64,
    pub compute_efficiency: f64,
    /// Per decode step (scheduler, sampler, graph launch), microseconds.
    pub step_overhead_us: f64,
    /// How a step's memory and compute times combine:
    /// `(mem^q + comp^q)^(1/q)` (`q` = 1: one after the other; large:
    /// the larger only). `None`: the larger only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap_norm: Option<f64>,
    pub decode_band: Ratios,
    pub throughput_band: Ratios,
    pub decode_rows: u32,
    pub throughput_rows: u32,
    /// The largest error of the fit on those rows, percent.
    pub decode_worst_error_pct: f64,
    pub throughput_worst_error_pct: f64,
}

/// Every rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    pub llamacpp: LlamacppRates,
    pub vllm: VllmRates,
}

/// A rate found, and where it was borrowed from if not its own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found<T> {
    pub rate: T,
    pub borrowed: Option<(Backend, Family)>,
}

impl GroupRate {
    /// The effective rate on a device whose peak is `peak` (same unit as
    /// the ceiling's: bytes/s or FLOP/s; the ceiling is scaled by `unit`).
    ///
    /// # Formula
    ///
    /// ```text
    /// rate = min(e · peak, ceiling · unit)
    /// ```
    ///
    /// A kernel reaches a share `e` of a GPU's peak up to a rate it does
    /// not pass on any GPU: on HBM parts (A100, H100) llama.cpp's
    /// matrix-vector kernels read ~1.2 TB/s of their 2 TB/s. Example: e =
    /// 0.95, ceiling 1,250 GB/s: 958 GB/s on an RTX 4090 (1,008 GB/s),
    /// 1,250 on an H100 PCIe (2,000).
    ///
    /// ```
    /// use vramfit_core::methods::speed::rates::GroupRate;
    /// use vramfit_core::methods::speed::{Backend, Family};
    /// let g = GroupRate { backend: Backend::Cuda, family: Family::Quant, efficiency: 0.95,
    ///     ceiling: Some(1250.0), dequant: None, rows: 0, median_error_pct: 0.0,
    ///     worst_error_pct: 0.0 };
    /// assert!((g.rate(1008e9, 1e9) - 957.6e9).abs() < 1e6);
    /// assert!((g.rate(2000e9, 1e9) - 1250e9).abs() < 1e6);
    /// ```
    pub fn rate(&self, peak: f64, unit: f64) -> f64 {
        let raw = self.efficiency * peak;
        match self.ceiling {
            Some(c) if c > 0.0 => raw.min(c * unit),
            _ => raw,
        }
    }
}

impl Rates {
    /// The checked-in rates (`data/speed/rates.json`).
    pub fn checked_in() -> &'static Rates {
        static RATES: OnceLock<Rates> = OnceLock::new();
        RATES.get_or_init(|| {
            let text = include_str!("../../../data/speed/rates.json");
            // The file is the crate's own and tested (`rates_file_reads`).
            serde_json::from_str(text).unwrap_or_else(|_| Rates::empty())
        })
    }

    /// No rows: every figure is refused (a front end shows none).
    pub fn empty() -> Rates {
        let band = Ratios {
            low: 1.0,
            high: 1.0,
        };
        Rates {
            llamacpp: LlamacppRates {
                costs: Vec::new(),
                decode: Vec::new(),
                prefill: Vec::new(),
                decode_band: band,
                prefill_band: band,
                host_efficiency: 0.7,
            },
            vllm: VllmRates {
                bandwidth_efficiency: 0.0,
                compute_efficiency: 0.0,
                step_overhead_us: 0.0,
                overlap_norm: None,
                decode_band: band,
                throughput_band: band,
                decode_rows: 0,
                throughput_rows: 0,
                decode_worst_error_pct: 0.0,
                throughput_worst_error_pct: 0.0,
            },
        }
    }

    /// A backend's llama.cpp costs: its own, else CUDA's.
    pub fn costs(&self, backend: Backend) -> Option<BackendCosts> {
        let find = |b: Backend| self.llamacpp.costs.iter().find(|c| c.backend == b);
        find(backend).or_else(|| find(Backend::Cuda)).copied()
    }

    /// The link rate a layer split hands a prompt's hidden states over,
    /// bytes per second: the backend's own, else CUDA's; `None`: none
    /// fitted (no cost).
    pub fn prefill_link(&self, backend: Backend) -> Option<f64> {
        let find = |b: Backend| {
            self.llamacpp
                .costs
                .iter()
                .find(|c| c.backend == b)
                .and_then(|c| c.prefill_link_gb_s)
        };
        find(backend)
            .or_else(|| find(Backend::Cuda))
            .filter(|g| *g > 0.0)
            .map(|g| g * 1e9)
    }

    /// The decode or prefill efficiency for a backend × family: its own;
    /// else the backend's quant rate; else CUDA's for the family; else
    /// CUDA's quant rate.
    pub fn group(
        table: &[GroupRate],
        backend: Backend,
        family: Family,
    ) -> Option<Found<GroupRate>> {
        let find = |b: Backend, f: Family| table.iter().find(|g| g.backend == b && g.family == f);
        if let Some(g) = find(backend, family) {
            return Some(Found {
                rate: *g,
                borrowed: None,
            });
        }
        [
            (backend, Family::Quant),
            (Backend::Cuda, family),
            (Backend::Cuda, Family::Quant),
        ]
        .into_iter()
        .find_map(|(b, f)| {
            find(b, f).map(|g| Found {
                rate: *g,
                borrowed: Some((b, f)),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_file_reads() {
        let text = include_str!("../../../data/speed/rates.json");
        let rates: Rates = serde_json::from_str(text).expect("rates.json");
        assert!(!rates.llamacpp.decode.is_empty());
        for g in rates.llamacpp.decode.iter().chain(&rates.llamacpp.prefill) {
            assert!(g.efficiency > 0.0 && g.efficiency.is_finite(), "{g:?}");
        }
        assert!(rates.vllm.bandwidth_efficiency > 0.0);
    }

    #[test]
    fn a_missing_group_borrows_in_a_stated_order() {
        let g = |backend, family, efficiency| GroupRate {
            backend,
            family,
            efficiency,
            ceiling: None,
            dequant: None,
            rows: 1,
            median_error_pct: 0.0,
            worst_error_pct: 0.0,
        };
        let table = [
            g(Backend::Cuda, Family::Quant, 0.9),
            g(Backend::Cuda, Family::Float, 0.8),
            g(Backend::Metal, Family::Quant, 0.7),
        ];
        let own = Rates::group(&table, Backend::Metal, Family::Quant).unwrap();
        assert_eq!((own.rate.efficiency, own.borrowed), (0.7, None));
        let metal_float = Rates::group(&table, Backend::Metal, Family::Float).unwrap();
        assert_eq!(metal_float.borrowed, Some((Backend::Metal, Family::Quant)));
        let rocm_float = Rates::group(&table, Backend::Rocm, Family::Float).unwrap();
        assert_eq!(rocm_float.borrowed, Some((Backend::Cuda, Family::Float)));
    }
}
