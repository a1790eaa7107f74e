//! What a speed figure needs beyond the memory question: the runtime
//! backend the engine is built for, the host memory's bandwidth (for
//! layers left in host memory) and the prompt a first token waits for.
//! Each is range-checked here, on its own; the speed model reads them
//! (`methods::speed`).

use serde::{Deserialize, Serialize};

/// The backend an engine runs its kernels on: llama.cpp's build
/// (`GGML_CUDA`, `GGML_METAL`, `GGML_VULKAN`, `GGML_HIP`, CPU only);
/// vLLM runs on CUDA (and ROCm).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    Cuda,
    Metal,
    Vulkan,
    Rocm,
    Cpu,
}

impl Backend {
    pub const ALL: [Backend; 5] = [
        Backend::Cuda,
        Backend::Metal,
        Backend::Vulkan,
        Backend::Rocm,
        Backend::Cpu,
    ];

    /// The id in JSON and on the command line.
    pub const fn id(self) -> &'static str {
        match self {
            Backend::Cuda => "cuda",
            Backend::Metal => "metal",
            Backend::Vulkan => "vulkan",
            Backend::Rocm => "rocm",
            Backend::Cpu => "cpu",
        }
    }

    /// The backend named by `name` (its id, any case; `hip` is ROCm).
    pub fn from_name(name: &str) -> Option<Backend> {
        let lower = name.trim().to_ascii_lowercase();
        match lower.as_str() {
            "hip" => return Some(Backend::Rocm),
            "mps" => return Some(Backend::Metal),
            _ => {}
        }
        Backend::ALL.into_iter().find(|b| b.id() == lower)
    }

    /// The backend a GPU's vendor ships by default: CUDA on NVIDIA, Metal
    /// on Apple, ROCm on AMD, Vulkan on Intel (llama.cpp's SYCL build is
    /// less common than its Vulkan one).
    pub fn default_for_vendor(vendor: &str) -> Backend {
        match vendor {
            "NVIDIA" => Backend::Cuda,
            "Apple" => Backend::Metal,
            "AMD" => Backend::Rocm,
            "Intel" => Backend::Vulkan,
            _ => Backend::Cpu,
        }
    }
}

/// Host memory bandwidth when none is given, decimal GB/s: dual-channel
/// DDR5-4800 (2 channels × 8 bytes × 4.8 GT/s = 76.8 GB/s), the common
/// desktop of 2023–2025.
pub const DEFAULT_HOST_BANDWIDTH_GB_S: f64 = 76.8;

/// The prompt a figure is for when none is given: 512 tokens, the
/// prompt `llama-bench` measures by default (`-p 512`).
pub const DEFAULT_PROMPT_TOKENS: u64 = 512;

/// The speed inputs as entered. Missing keys take the defaults above.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SpeedKnobs {
    /// Host memory bandwidth, decimal GB/s (`--host-bandwidth-gbs`);
    /// `None`: the GPU's own bandwidth on unified memory, else
    /// [`DEFAULT_HOST_BANDWIDTH_GB_S`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_bandwidth_gbs: Option<f64>,
    /// The backend (`--backend`); `None`: the GPU vendor's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<Backend>,
    /// Tokens of prompt before the reply (`--prompt-tokens`); `None`:
    /// [`DEFAULT_PROMPT_TOKENS`], at most the context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
}

/// The speed inputs, checked.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SpeedSettings {
    /// Host bandwidth in bytes per second, if given.
    pub host_bytes_per_s: Option<f64>,
    pub backend: Option<Backend>,
    pub prompt_tokens: Option<u64>,
}

/// A speed input out of range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpeedError {
    /// The JSON key.
    pub field: &'static str,
    pub value: f64,
    /// The range allowed, inclusive.
    pub min: f64,
    pub max: f64,
}

impl std::fmt::Display for SpeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {} is outside {}..={}",
            self.field, self.value, self.min, self.max
        )
    }
}

impl SpeedKnobs {
    /// Whether every knob is at its default (serde's skip test).
    pub fn is_default(&self) -> bool {
        *self == SpeedKnobs::default()
    }

    /// The knobs checked: host bandwidth 1–2,000 GB/s, prompt 1–2²⁴ tokens.
    pub fn settings(&self) -> Result<SpeedSettings, Vec<SpeedError>> {
        let mut errors = Vec::new();
        if let Some(gbs) = self.host_bandwidth_gbs {
            if !(1.0..=2_000.0).contains(&gbs) {
                errors.push(SpeedError {
                    field: "host_bandwidth_gbs",
                    value: gbs,
                    min: 1.0,
                    max: 2_000.0,
                });
            }
        }
        if let Some(p) = self.prompt_tokens {
            if !(1..=1 << 24).contains(&p) {
                errors.push(SpeedError {
                    field: "prompt_tokens",
                    value: p as f64,
                    min: 1.0,
                    max: (1u64 << 24) as f64,
                });
            }
        }
        match errors.is_empty() {
            true => Ok(SpeedSettings {
                host_bytes_per_s: self.host_bandwidth_gbs.map(|g| g * 1e9),
                backend: self.backend,
                prompt_tokens: self.prompt_tokens,
            }),
            false => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_knobs_are_refused_by_name() {
        let bad = SpeedKnobs {
            host_bandwidth_gbs: Some(0.5),
            prompt_tokens: Some(0),
            ..SpeedKnobs::default()
        };
        let errors = bad.settings().unwrap_err();
        let fields: Vec<_> = errors.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["host_bandwidth_gbs", "prompt_tokens"]);
        let good = SpeedKnobs {
            host_bandwidth_gbs: Some(76.8),
            ..SpeedKnobs::default()
        };
        assert_eq!(good.settings().unwrap().host_bytes_per_s, Some(76.8e9));
    }

    #[test]
    fn backends_read_by_name_and_vendor() {
        assert_eq!(Backend::from_name("HIP"), Some(Backend::Rocm));
        assert_eq!(Backend::from_name("vulkan"), Some(Backend::Vulkan));
        assert_eq!(Backend::from_name("opencl"), None);
        assert_eq!(Backend::default_for_vendor("Apple"), Backend::Metal);
    }
}
