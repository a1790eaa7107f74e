//! What a person passes to `vllm serve`, with vLLM's own defaults, and the
//! command line that reproduces it.
//!
//! Defaults follow vLLM 0.19: `vllm/engine/arg_utils.py`
//! (`get_batch_defaults`, `_set_default_max_num_seqs_and_batched_tokens_args`)
//! and `vllm/config/cache.py` (`gpu_memory_utilization = 0.9`, `block_size =
//! 16` on CUDA).

use serde::Serialize;

/// `--gpu-memory-utilization` in ten-thousandths (0.9 → 9000), so that the
/// requested memory is integer arithmetic on bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Utilization(pub u32);

impl Utilization {
    /// vLLM's default, 0.9.
    pub const DEFAULT: Utilization = Utilization(9000);

    /// From a decimal text such as `"0.95"` or `"1"`; `None` outside
    /// `(0, 1]` or with more than four decimals.
    ///
    /// ```
    /// use vramfit_core::methods::vllm::Utilization;
    /// assert_eq!(Utilization::parse("0.95"), Some(Utilization(9500)));
    /// assert_eq!(Utilization::parse("1"), Some(Utilization(10000)));
    /// assert_eq!(Utilization::parse("1.5"), None);
    /// assert_eq!(Utilization::parse("0.12345"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Utilization> {
        let text = text.trim();
        let (whole, frac) = match text.split_once('.') {
            Some((w, f)) => (w, f),
            None => (text, ""),
        };
        if frac.len() > 4 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        let frac: u32 = format!("{frac:0<4}").parse().ok()?;
        let value = whole.checked_mul(10_000)?.checked_add(frac)?;
        (1..=10_000).contains(&value).then_some(Utilization(value))
    }

    /// The value as vLLM prints it (`0.95`).
    pub fn text(self) -> String {
        let whole = self.0 / 10_000;
        let frac = format!("{:04}", self.0 % 10_000);
        let frac = frac.trim_end_matches('0');
        match frac.is_empty() {
            true => format!("{whole}"),
            false => format!("{whole}.{frac}"),
        }
    }

    /// Requested memory: `⌈total × utilization⌉` bytes.
    ///
    /// # Formula
    ///
    /// `requested = ⌈M_total · u⌉`, with `M_total` the total memory CUDA
    /// reports (`torch.cuda.mem_get_info()[1]`) and `u` the utilization.
    /// Source: vLLM `vllm/v1/worker/utils.py`, `request_memory`.
    ///
    /// ```
    /// use vramfit_core::methods::vllm::Utilization;
    /// // 0.95 of an H100 80GB (79.19 GiB) is 75.23 GiB.
    /// let total = 7919u64 * (1 << 30) / 100;
    /// let req = Utilization(9500).requested(total);
    /// assert_eq!((req as f64 / (1u64 << 30) as f64 * 100.0).round(), 7523.0);
    /// ```
    pub fn requested(self, total_bytes: u64) -> u64 {
        let product = total_bytes as u128 * self.0 as u128;
        crate::units::saturate(product.div_ceil(10_000))
    }
}

/// `--dtype`: the type weights and activations are computed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ModelDtype {
    /// The checkpoint's `torch_dtype`; float32 checkpoints run in bfloat16
    /// (vLLM `vllm/config/model.py`, `_resolve_auto_dtype`).
    #[default]
    Auto,
    Bfloat16,
    Float16,
    Float32,
}

impl ModelDtype {
    /// The name `vllm serve --dtype` takes.
    pub const fn name(self) -> &'static str {
        match self {
            ModelDtype::Auto => "auto",
            ModelDtype::Bfloat16 => "bfloat16",
            ModelDtype::Float16 => "float16",
            ModelDtype::Float32 => "float32",
        }
    }

    /// From the names vLLM accepts (`bf16`, `half`, `float`, ...).
    pub fn parse(text: &str) -> Option<ModelDtype> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "auto" => ModelDtype::Auto,
            "bfloat16" | "bf16" => ModelDtype::Bfloat16,
            "float16" | "fp16" | "half" => ModelDtype::Float16,
            "float32" | "fp32" | "float" => ModelDtype::Float32,
            _ => return None,
        })
    }
}

/// `--quantization` applied when loading an unquantized checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OnlineQuant {
    /// The checkpoint as published (its own `quantization_config`, if any).
    #[default]
    None,
    /// `--quantization fp8`: every decoder linear layer to FP8 with one
    /// scale per tensor, embeddings and output head kept.
    Fp8,
}

/// `--kv-cache-dtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum KvCacheDtype {
    /// The model dtype.
    #[default]
    Auto,
    /// One byte per element (`fp8`, `fp8_e4m3`, `fp8_e5m2`).
    Fp8,
}

/// The options of `vllm serve` that decide start-up memory. `None` fields
/// take vLLM's default for the GPU and model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VllmInputs {
    /// `--tensor-parallel-size`.
    pub tp: u32,
    /// `--pipeline-parallel-size`.
    pub pp: u32,
    /// `--max-model-len`; default the model's `max_position_embeddings`.
    pub max_model_len: Option<u64>,
    /// `--gpu-memory-utilization`.
    pub gpu_memory_utilization: Utilization,
    /// `--max-num-batched-tokens`; default 8192 on GPUs of 70 GiB or more
    /// (not A100), else 2048.
    pub max_num_batched_tokens: Option<u64>,
    /// `--max-num-seqs`; default 1024 on GPUs of 70 GiB or more (not
    /// A100), else 256.
    pub max_num_seqs: Option<u64>,
    /// `--block-size` (tokens per KV block).
    pub block_size: u64,
    /// `--dtype`.
    pub dtype: ModelDtype,
    /// `--quantization` (online).
    pub quantization: OnlineQuant,
    /// `--kv-cache-dtype`.
    pub kv_cache_dtype: KvCacheDtype,
    /// `--enforce-eager`: no CUDA graphs captured.
    pub enforce_eager: bool,
    /// Streaming multiprocessors of the GPU (132 on an H100 SXM): the
    /// sampler keeps one vocabulary row per SM.
    pub sm_count: u32,
    /// The GPU is an A100, whose batch defaults stay at the small values
    /// whatever its memory (`get_batch_defaults`).
    pub a100: bool,
    /// The GPU's name holds `H100` or `H200` (0.8's rule for the batch
    /// defaults, [`super::BatchRule`]).
    pub h100_or_h200: bool,
    /// The GPU is of compute capability 12.1 (DGX Spark GB10), which 0.33
    /// keeps on the small batch defaults ([`super::BatchRule`]).
    pub gb10: bool,
    /// PyTorch's cuBLAS and cuBLASLt workspaces on this GPU
    /// ([`super::gemm_workspaces`]; 33 MiB on Hopper).
    pub gemm_workspace_bytes: u64,
    /// The vLLM release (`--vllm-version`): its family's facts
    /// ([`super::release_facts`]) decide what is set aside before the KV
    /// cache.
    pub release: super::VllmRelease,
    /// The runtime terms of this GPU and link ([`super::RuntimeTerms`]).
    pub runtime: super::RuntimeTerms,
    /// The MXFP4 kernel's padding on this GPU ([`super::Mxfp4Padding`]).
    pub mxfp4_padding: super::Mxfp4Padding,
    /// Memory other processes hold when vLLM starts (on unified memory,
    /// the system's other use).
    pub other_memory_bytes: u64,
}

impl Default for VllmInputs {
    fn default() -> Self {
        VllmInputs {
            tp: 1,
            pp: 1,
            max_model_len: None,
            gpu_memory_utilization: Utilization::DEFAULT,
            max_num_batched_tokens: None,
            max_num_seqs: None,
            block_size: 16,
            dtype: ModelDtype::Auto,
            quantization: OnlineQuant::None,
            kv_cache_dtype: KvCacheDtype::Auto,
            enforce_eager: false,
            sm_count: 132,
            a100: false,
            h100_or_h200: false,
            gb10: false,
            gemm_workspace_bytes: super::profile::GEMM_WORKSPACES,
            release: super::VllmRelease::MEASURED,
            runtime: super::RuntimeTerms::DEFAULT,
            mxfp4_padding: super::Mxfp4Padding::HOPPER,
            other_memory_bytes: 0,
        }
    }
}

/// The inputs with every default resolved, as vLLM ends up running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Resolved {
    pub max_model_len: u64,
    pub max_num_batched_tokens: u64,
    pub max_num_seqs: u64,
    /// Bytes per element of weights and activations.
    pub dtype_bytes: u64,
    /// Bytes per cached key/value element.
    pub kv_bytes: u64,
}

/// Default batch limits for `vllm serve` (usage context
/// `OPENAI_API_SERVER`): `(max_num_batched_tokens, max_num_seqs)`.
///
/// # Formula
///
/// The release's [`super::BatchRule`]: `(8192, 1024)` on a large GPU
/// (0.8.0–0.8.4: its name holds H100 or H200; 0.8.5: `M_total ≥ 70 GiB`;
/// 0.9 on: `M_total ≥ 70 GiB` and not an A100; 0.33: nor a GB10),
/// `(16384, 1024)` on `M_total ≥ 160 GiB` from 0.28, else `(2048, 256)`; then `tokens = min(tokens, seqs ·
/// max_model_len)` and `seqs = min(seqs, tokens)`. Source: vLLM
/// `vllm/engine/arg_utils.py`, `get_batch_defaults` and
/// `_set_default_max_num_seqs_and_batched_tokens_args` (0.19.0),
/// `_set_default_args` (0.11), `_set_default_args_v1` (0.8.4); the rows of
/// [`super::release_facts`].
pub fn batch_defaults(
    total_bytes: u64,
    a100: bool,
    max_model_len: u64,
    inputs: &VllmInputs,
) -> (u64, u64) {
    let rule = super::release_facts(inputs.release)
        .map_or(super::BatchRule::SeventyGibNotA100, |f| f.batch_rule.value);
    let (tokens, seqs) = rule.defaults(super::BatchGpu {
        total_bytes,
        a100,
        h100_or_h200: inputs.h100_or_h200,
        gb10: inputs.gb10,
    });
    let seqs_given = inputs.max_num_seqs;
    let seqs_for_tokens = seqs_given.unwrap_or(seqs);
    let tokens = match inputs.max_num_batched_tokens {
        Some(t) => t,
        None => tokens.min(seqs_for_tokens.saturating_mul(max_model_len)),
    };
    let seqs = match seqs_given {
        Some(s) => s,
        None => seqs.min(tokens),
    };
    (tokens, seqs)
}

/// The `vllm serve` line that reproduces `inputs` for `model_id`. Options
/// left at their default are written only where they decide the memory
/// (tensor/pipeline sizes, context, utilization) so the line stands on its
/// own.
///
/// ```
/// use vramfit_core::methods::vllm::{serve_command, Utilization, VllmInputs};
/// let inputs = VllmInputs {
///     tp: 2,
///     max_model_len: Some(8192),
///     gpu_memory_utilization: Utilization(9500),
///     ..VllmInputs::default()
/// };
/// assert_eq!(
///     serve_command("meta-llama/Llama-3.1-8B-Instruct", &inputs),
///     "vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 \
///      --max-model-len 8192 --gpu-memory-utilization 0.95"
/// );
/// ```
pub fn serve_command(model_id: &str, inputs: &VllmInputs) -> String {
    let mut parts = vec![format!("vllm serve {}", shell_word(model_id))];
    if inputs.tp != 1 {
        parts.push(format!("--tensor-parallel-size {}", inputs.tp));
    }
    if inputs.pp != 1 {
        parts.push(format!("--pipeline-parallel-size {}", inputs.pp));
    }
    if let Some(len) = inputs.max_model_len {
        parts.push(format!("--max-model-len {len}"));
    }
    // The flag is written where it differs from the release's own default.
    let release_default = super::release_facts(inputs.release).map_or(Utilization::DEFAULT, |f| {
        Utilization(f.gpu_memory_utilization.value)
    });
    if inputs.gpu_memory_utilization != release_default {
        parts.push(format!(
            "--gpu-memory-utilization {}",
            inputs.gpu_memory_utilization.text()
        ));
    }
    if let Some(t) = inputs.max_num_batched_tokens {
        parts.push(format!("--max-num-batched-tokens {t}"));
    }
    if let Some(s) = inputs.max_num_seqs {
        parts.push(format!("--max-num-seqs {s}"));
    }
    if inputs.block_size != 16 {
        parts.push(format!("--block-size {}", inputs.block_size));
    }
    if inputs.dtype != ModelDtype::Auto {
        parts.push(format!("--dtype {}", inputs.dtype.name()));
    }
    if inputs.quantization == OnlineQuant::Fp8 {
        parts.push("--quantization fp8".to_string());
    }
    if inputs.kv_cache_dtype == KvCacheDtype::Fp8 {
        parts.push("--kv-cache-dtype fp8".to_string());
    }
    if inputs.enforce_eager {
        parts.push("--enforce-eager".to_string());
    }
    parts.join(" ")
}

/// A model id as one shell word: quoted when it holds anything beyond
/// letters, digits and `/._-`.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
    match plain {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::GIB;

    #[test]
    fn utilization_round_trips() {
        for text in ["0.9", "0.95", "0.5", "1", "0.0001", "0.925"] {
            let u = Utilization::parse(text).unwrap();
            assert_eq!(u.text(), text);
        }
        for bad in ["0", "-0.5", "1.0001", "abc", "", "0.1.2"] {
            assert_eq!(Utilization::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn requested_rounds_up() {
        assert_eq!(Utilization(9500).requested(100), 95);
        assert_eq!(Utilization(9500).requested(101), 96); // 95.95 → 96
        assert_eq!(Utilization(10_000).requested(u64::MAX), u64::MAX);
    }

    #[test]
    fn batch_defaults_follow_the_gpu() {
        let i = VllmInputs::default();
        assert_eq!(batch_defaults(80 * GIB, false, 8192, &i), (8192, 1024));
        assert_eq!(batch_defaults(80 * GIB, true, 8192, &i), (2048, 256));
        assert_eq!(batch_defaults(24 * GIB, false, 8192, &i), (2048, 256));
        // A context of 4 tokens caps the batch at 1024 × 4.
        assert_eq!(batch_defaults(80 * GIB, false, 4, &i), (4096, 1024));
        let given = VllmInputs {
            max_num_batched_tokens: Some(512),
            ..VllmInputs::default()
        };
        assert_eq!(batch_defaults(80 * GIB, false, 8192, &given), (512, 512));
        // 0.8 picks by name: a 95 GiB GPU not named H100/H200 stays small.
        let old = VllmInputs {
            release: super::super::VllmRelease::new(0, 8, 4),
            ..VllmInputs::default()
        };
        assert_eq!(batch_defaults(95 * GIB, false, 8192, &old), (2048, 256));
        let h100 = VllmInputs {
            h100_or_h200: true,
            ..old
        };
        assert_eq!(batch_defaults(80 * GIB, false, 8192, &h100), (8192, 1024));
    }

    #[test]
    fn command_quotes_odd_ids() {
        let i = VllmInputs {
            dtype: ModelDtype::Float16,
            quantization: OnlineQuant::Fp8,
            kv_cache_dtype: KvCacheDtype::Fp8,
            pp: 2,
            ..VllmInputs::default()
        };
        assert_eq!(
            serve_command("my model", &i),
            "vllm serve 'my model' --pipeline-parallel-size 2 --dtype float16 \
             --quantization fp8 --kv-cache-dtype fp8"
        );
    }
}
