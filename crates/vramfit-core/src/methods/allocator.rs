//! Method `allocator` — the peak of PyTorch's caching allocator
//! (`torch.cuda.max_memory_allocated()`) for one step of a dense decoder
//! model (llama, mistral, qwen2, qwen3, gemma, gemma2) run through Hugging
//! Face transformers, predicted from the tensors the code keeps alive at
//! the moment of the peak. Seed 003 ("vramcalc") gives the term names, the
//! sum and the fit rule; the formulas below are derived from the code of the
//! stack it measured (torch 2.x, transformers 4.57, peft 0.21) and are
//! explained line by line in `docs/allocator-derivation.md`.
//!
//! ```text
//! total = weights + kv_cache + gradients + optimizer
//!       + max(activations + autocast_cache, step_workspace)
//! fits  ⇔ total + overhead ≤ 97 % × nominal capacity
//! ```
//!
//! Symbols used in every formula of this module:
//!
//! | symbol | meaning |
//! |---|---|
//! | `h` | hidden size |
//! | `L` | decoder layers |
//! | `H`, `K` | query heads, key/value heads |
//! | `d` | head dimension; `q = H·d`, `k = K·d` |
//! | `I` | MLP intermediate size |
//! | `V` | vocabulary size; `E = V·h` embedding parameters |
//! | `P` | all parameters; `A` LoRA adapter parameters |
//! | `B`, `T` | batch, sequence length; `N = B·T` tokens |
//! | `w` | bytes of a stored base weight (dtype; 4 under amp) |
//! | `a` | bytes of an activation (dtype; 2 under amp: the autocast dtype) |
//! | `s` | bytes of the residual stream (dtype; 4 under amp: the fp32 embedding output) |
//!
//! Scenario the formulas describe (what the validation harness runs):
//! inference is one `no_grad` forward over the whole prompt with
//! `use_cache=True`; training is a steady-state step (optimizer states
//! exist, gradients are zeroed in place, `set_to_none=False`) of
//! `out = model(ids, labels=ids)`, `out.loss.backward()`, then the output is
//! released and `optimizer.step()` runs; amp runs only the forward inside
//! `torch.autocast`; gradient checkpointing is transformers' default
//! (`use_reentrant=True`); transformers' default `use_cache=True` stays on
//! during non-checkpointed training; LoRA adapters are fp32 and say whether
//! they have a dropout ([`Mode::Lora`]).
//!
//! Validation: the 11 Llama-3.2-1B rows of seed 003 are all within ±2 %
//! (largest 1.96 %, mean 0.40 %; `tests/allocator_validation.rs`).

use crate::methods::scope::{Feature, OutOfScope};
use crate::methods::{Component, Components, MethodId, MethodResult};
use crate::model::{Family, ModelSpec};
use crate::scenario::{Scenario, WeightFormat};
use crate::units::{percent_of, saturate, GB};
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// Memory outside the allocator (CUDA context, kernels), seed 003's default:
/// 0.75 GB. Kept apart from `total`; added only for the fit verdict.
pub const OVERHEAD_BYTES: u64 = 750_000_000;

/// Usable share of the nominal capacity, in hundredths of a percent (97 %).
pub const USABLE_CENTI_PCT: u64 = 9_700;

/// The cuBLAS workspace torch allocates through the caching allocator on
/// the first matrix product and keeps for the life of the stream.
///
/// `4096 KiB × 2 + 16 KiB × 8 = 8,519,680` bytes: the default of
/// `CUBLAS_WORKSPACE_CONFIG` below compute capability 9 (pytorch/pytorch,
/// `aten/src/ATen/cuda/CublasHandlePool.cpp`, `parseChosenWorkspaceSize`).
/// Hopper and Blackwell default to 32 MiB, 25 MB more, under the two
/// decimals the estimate is shown with. Counted in `activations`.
pub const CUBLAS_WORKSPACE_BYTES: u64 = 4096 * 1024 * 2 + 16 * 1024 * 8;

/// Saturating byte arithmetic in `u128`: sums and products of in-range
/// inputs are exact, absurd inputs read as `u64::MAX` ("does not fit
/// anywhere"), never a wrap-around or a panic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Sat(u128);

impl Sat {
    const ZERO: Sat = Sat(0);

    fn of(v: u64) -> Sat {
        Sat(v as u128)
    }

    fn bytes(self) -> u64 {
        saturate(self.0)
    }
}

impl std::ops::Add for Sat {
    type Output = Sat;
    fn add(self, o: Sat) -> Sat {
        Sat(self.0.saturating_add(o.0))
    }
}

impl std::ops::Add<u128> for Sat {
    type Output = Sat;
    fn add(self, o: u128) -> Sat {
        Sat(self.0.saturating_add(o))
    }
}

impl std::ops::Sub for Sat {
    type Output = Sat;
    fn sub(self, o: Sat) -> Sat {
        Sat(self.0.saturating_sub(o.0))
    }
}

impl std::ops::Mul for Sat {
    type Output = Sat;
    fn mul(self, o: Sat) -> Sat {
        Sat(self.0.saturating_mul(o.0))
    }
}

impl std::ops::Mul<Sat> for u128 {
    type Output = Sat;
    fn mul(self, o: Sat) -> Sat {
        Sat(self.saturating_mul(o.0))
    }
}

impl std::ops::Div<u128> for Sat {
    type Output = Sat;
    fn div(self, o: u128) -> Sat {
        Sat(self.0.checked_div(o).unwrap_or(0))
    }
}

impl std::iter::Sum for Sat {
    fn sum<I: Iterator<Item = Sat>>(iter: I) -> Sat {
        iter.fold(Sat::ZERO, |acc, v| acc + v)
    }
}

/// Storage type of weights (pure precision and inference) or of the
/// autocast compute (amp).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// 4 bytes.
    Fp32,
    /// 2 bytes.
    Bf16,
    /// 2 bytes.
    Fp16,
}

impl Dtype {
    /// Bytes per element.
    pub const fn bytes(self) -> u64 {
        match self {
            Dtype::Fp32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
        }
    }
}

/// What the step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Mode {
    /// One forward over the prompt with a KV cache, no gradients.
    Inference,
    /// Every parameter trains.
    FullFinetune,
    /// peft LoRA on `q_proj`, `k_proj`, `v_proj`, `o_proj`, fp32 adapters.
    Lora {
        /// Adapter rank `r`.
        rank: u64,
        /// `lora_dropout > 0` (an `nn.Dropout` per adapter) rather than 0
        /// (an `nn.Identity`). The probability itself does not change memory.
        dropout: bool,
    },
}

/// The optimizer, in torch's default `foreach` implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimizer {
    /// `torch.optim.AdamW`: two moments.
    AdamW,
    /// `torch.optim.SGD` with momentum: one buffer.
    Sgd,
}

impl Optimizer {
    /// Stable name (`adamw`, `sgd`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            Optimizer::AdamW => "adamw",
            Optimizer::Sgd => "sgd",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Optimizer> {
        [Optimizer::AdamW, Optimizer::Sgd]
            .into_iter()
            .find(|o| o.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// How training holds the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// fp32 weights, forward under `torch.autocast` in bf16 (fp16 when the
    /// dtype is fp16).
    Amp,
    /// Weights loaded and trained in the dtype.
    Pure,
}

impl Precision {
    /// Stable name (`amp`, `pure`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            Precision::Amp => "amp",
            Precision::Pure => "pure",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<Precision> {
        [Precision::Amp, Precision::Pure]
            .into_iter()
            .find(|p| p.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// transformers' `attn_implementation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttnImpl {
    /// `eager_attention_forward`: materialized scores.
    Eager,
    /// `sdpa_attention_forward` on the flash or memory-efficient kernel.
    Sdpa,
    /// `flash_attention_2`: the same saved tensors as `sdpa`.
    Flash,
}

impl AttnImpl {
    /// Stable name (`eager`, `sdpa`, `flash`), as in JSON and on the CLI.
    pub const fn id(self) -> &'static str {
        match self {
            AttnImpl::Eager => "eager",
            AttnImpl::Sdpa => "sdpa",
            AttnImpl::Flash => "flash",
        }
    }

    /// Parses a name, case-insensitively.
    pub fn from_name(name: &str) -> Option<AttnImpl> {
        [AttnImpl::Eager, AttnImpl::Sdpa, AttnImpl::Flash]
            .into_iter()
            .find(|a| a.id().eq_ignore_ascii_case(name.trim()))
    }
}

/// How an RMSNorm rounds its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NormStyle {
    /// `weight * x32_normed.to(input_dtype)` (Llama, Mistral, Qwen).
    Llama,
    /// `(x32_normed * (1 + weight.float())).type_as(x)` (Gemma, Gemma 2).
    Gemma,
}

/// The shape of a dense decoder model, as read from its `config.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DenseArch {
    /// `hidden_size` (`h`).
    pub hidden: u64,
    /// `num_hidden_layers` (`L`).
    pub layers: u64,
    /// `num_attention_heads` (`H`).
    pub heads: u64,
    /// `num_key_value_heads` (`K`).
    pub kv_heads: u64,
    /// `head_dim` (`d`).
    pub head_dim: u64,
    /// `intermediate_size` (`I`).
    pub intermediate: u64,
    /// `vocab_size` (`V`).
    pub vocab: u64,
    /// `tie_word_embeddings`: the LM head is the embedding matrix.
    pub tied_embeddings: bool,
    /// Biases on `q_proj`, `k_proj`, `v_proj` (Qwen2; `attention_bias`).
    pub qkv_bias: bool,
    /// Bias on `o_proj` (Llama-style `attention_bias`).
    pub o_bias: bool,
    /// Biases on the MLP projections (`mlp_bias`).
    pub mlp_bias: bool,
    /// RMSNorms per decoder layer: 2, or 4 for Gemma 2.
    pub norms_per_layer: u64,
    /// Where the norm casts back to the input dtype.
    pub norm_style: NormStyle,
    /// RMSNorm on each head of q and k before RoPE (Qwen3).
    pub qk_norm: bool,
    /// `attn_logit_softcapping` (Gemma 2; only the eager path applies it).
    pub attn_logit_softcap: bool,
    /// `final_logit_softcapping` (Gemma 2).
    pub final_logit_softcap: bool,
    /// Parameter count `P` (each tied matrix once).
    pub params_total: u64,
}

impl DenseArch {
    /// Query width `q = H·d`.
    pub fn q_dim(&self) -> u64 {
        self.heads.saturating_mul(self.head_dim)
    }

    /// Key (and value) width `k = K·d`.
    pub fn kv_dim(&self) -> u64 {
        self.kv_heads.saturating_mul(self.head_dim)
    }

    /// Embedding parameters `E = V·h`.
    pub fn embedding_params(&self) -> u64 {
        self.vocab.saturating_mul(self.hidden)
    }

    /// RMSNorm weights: `h` per norm, `L·n + 1` norms, plus `2·d` per layer
    /// for q/k norms.
    pub fn norm_params(&self) -> u64 {
        let qk = if self.qk_norm {
            2 * Sat::of(self.head_dim)
        } else {
            Sat::ZERO
        };
        let per_layer = Sat::of(self.norms_per_layer) * Sat::of(self.hidden) + qk;
        (Sat::of(self.layers) * per_layer + Sat::of(self.hidden)).bytes()
    }

    /// Weights and biases of one decoder layer's linear projections:
    /// `h·q + 2·h·k + q·h + 3·h·I` plus biases.
    pub fn layer_linear_params(&self) -> u64 {
        let (h, q, k, i) = (
            Sat::of(self.hidden),
            Sat::of(self.q_dim()),
            Sat::of(self.kv_dim()),
            Sat::of(self.intermediate),
        );
        let mut n = h * q + 2 * (h * k) + q * h + 3 * (h * i);
        if self.qkv_bias {
            n = n + q + 2 * k;
        }
        if self.o_bias {
            n = n + h;
        }
        if self.mlp_bias {
            n = n + 2 * i + h;
        }
        n.bytes()
    }

    /// Parameters from the shapes: embedding, layers, norms, and the LM head
    /// when it is not tied.
    ///
    /// ```
    /// use vramfit_core::methods::allocator::DenseArch;
    /// assert_eq!(DenseArch::llama_3_2_1b().count_params(), 1_235_814_400);
    /// ```
    pub fn count_params(&self) -> u64 {
        let head = if self.tied_embeddings {
            Sat::ZERO
        } else {
            Sat::of(self.embedding_params())
        };
        (Sat::of(self.embedding_params())
            + Sat::of(self.layers) * Sat::of(self.layer_linear_params())
            + Sat::of(self.norm_params())
            + head)
            .bytes()
    }

    /// Parameters that autocast turns into bf16 copies when every linear
    /// layer runs: all layer projections plus the LM head, whose weight is the
    /// embedding when tied. `P − E − norms` counts the projections (and the
    /// untied head); a tied head adds `E` back.
    pub fn autocast_params(&self) -> u64 {
        let base = Sat::of(self.params_total)
            - Sat::of(self.embedding_params())
            - Sat::of(self.norm_params());
        let head = if self.tied_embeddings {
            Sat::of(self.embedding_params())
        } else {
            Sat::ZERO
        };
        (base + head).bytes()
    }

    /// LoRA adapter parameters: `r × (in + out)` for q, k, v and o,
    /// `A = L · r · (4h + 2q + 2k)`.
    pub fn lora_params(&self, rank: u64) -> u64 {
        let (h, q, k) = (
            Sat::of(self.hidden),
            Sat::of(self.q_dim()),
            Sat::of(self.kv_dim()),
        );
        (Sat::of(self.layers) * Sat::of(rank) * (4 * h + 2 * q + 2 * k)).bytes()
    }

    /// Llama-3.2-1B (the validation model): h 2048, 16 layers, 32/8 heads,
    /// head dim 64, intermediate 8192, vocab 128256, tied.
    pub fn llama_3_2_1b() -> DenseArch {
        DenseArch::llama_like(2048, 16, 32, 8, 64, 8192, 128_256, true)
    }

    /// Llama-3.1-8B (seed 003's CLI example): h 4096, 32 layers, 32/8
    /// heads, head dim 128, intermediate 14336, vocab 128256, untied.
    pub fn llama_3_1_8b() -> DenseArch {
        DenseArch::llama_like(4096, 32, 32, 8, 128, 14_336, 128_256, false)
    }

    /// A Llama-layout model (two Llama-style norms, no biases) with its
    /// parameter count computed from the shapes.
    #[allow(clippy::too_many_arguments)]
    pub fn llama_like(
        hidden: u64,
        layers: u64,
        heads: u64,
        kv_heads: u64,
        head_dim: u64,
        intermediate: u64,
        vocab: u64,
        tied_embeddings: bool,
    ) -> DenseArch {
        let mut arch = DenseArch {
            hidden,
            layers,
            heads,
            kv_heads,
            head_dim,
            intermediate,
            vocab,
            tied_embeddings,
            qkv_bias: false,
            o_bias: false,
            mlp_bias: false,
            norms_per_layer: 2,
            norm_style: NormStyle::Llama,
            qk_norm: false,
            attn_logit_softcap: false,
            final_logit_softcap: false,
            params_total: 0,
        };
        arch.params_total = arch.count_params();
        arch
    }

    /// The dense decoder of a parsed config: `llama`, `mistral`, `qwen2`,
    /// `qwen3`, `gemma` or `gemma2`, unquantized, without experts, latent
    /// attention or linear layers. Family rules follow transformers'
    /// modules: Qwen2 has q/k/v biases, Qwen3 per-head q/k norms, Gemma
    /// casts its norm after scaling by `1 + w`, Gemma 2 has four norms per
    /// layer and soft-capped logits. Sliding-window layers are counted as
    /// global attention, as seed 003 does (conservative).
    pub fn from_spec(spec: &ModelSpec) -> Result<DenseArch, OutOfScope> {
        let (norms_per_layer, norm_style, qk_norm) = match spec.family {
            Family::Llama | Family::Mistral | Family::Qwen2 => (2, NormStyle::Llama, false),
            Family::Qwen3 => (2, NormStyle::Llama, true),
            Family::Gemma => (2, NormStyle::Gemma, false),
            Family::Gemma2 => (4, NormStyle::Gemma, false),
            other => return Err(OutOfScope::Family(other)),
        };
        let blocker = [
            (spec.moe.is_some(), Feature::Experts),
            (spec.mla.is_some(), Feature::LatentAttention),
            (spec.linear_mixer.is_some(), Feature::LinearLayers),
            (spec.quantization.is_some(), Feature::QuantizedCheckpoint),
            (spec.intermediate_size.is_none(), Feature::NoDenseMlp),
        ]
        .into_iter()
        .find(|(present, _)| *present);
        if let Some((_, feature)) = blocker {
            return Err(OutOfScope::Feature(feature));
        }
        let intermediate = spec.intermediate_size.unwrap_or_default();
        let gemma2 = spec.family == Family::Gemma2;
        let mut arch = DenseArch {
            hidden: spec.hidden_size,
            layers: spec.num_layers,
            heads: spec.num_attention_heads,
            kv_heads: spec.num_kv_heads,
            head_dim: spec.head_dim,
            intermediate,
            vocab: spec.vocab_size,
            tied_embeddings: spec.tied_embeddings,
            qkv_bias: spec.family == Family::Qwen2,
            o_bias: false,
            mlp_bias: false,
            norms_per_layer,
            norm_style,
            qk_norm,
            attn_logit_softcap: gemma2,
            final_logit_softcap: gemma2,
            params_total: 0,
        };
        arch.params_total = arch.count_params();
        Ok(arch)
    }
}

/// The knobs of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorInputs {
    /// Inference, full fine-tuning or LoRA.
    pub mode: Mode,
    /// Weight dtype (pure, inference) or autocast dtype (amp).
    pub dtype: Dtype,
    /// Sequences per step (`B`).
    pub batch: u64,
    /// Tokens per sequence (`T`).
    pub seq_len: u64,
    /// `model.gradient_checkpointing_enable()` (training only).
    pub grad_checkpoint: bool,
    /// Optimizer (training only).
    pub optimizer: Optimizer,
    /// amp or pure (training only).
    pub precision: Precision,
    /// Attention implementation.
    pub attn_impl: AttnImpl,
}

impl AllocatorInputs {
    /// Inference with sdpa, the given dtype, batch and prompt length.
    pub fn inference(dtype: Dtype, batch: u64, seq_len: u64) -> AllocatorInputs {
        AllocatorInputs {
            mode: Mode::Inference,
            dtype,
            batch,
            seq_len,
            grad_checkpoint: false,
            optimizer: Optimizer::AdamW,
            precision: Precision::Pure,
            attn_impl: AttnImpl::Sdpa,
        }
    }

    /// Training with AdamW and sdpa.
    pub fn training(
        mode: Mode,
        dtype: Dtype,
        precision: Precision,
        batch: u64,
        seq_len: u64,
        grad_checkpoint: bool,
    ) -> AllocatorInputs {
        AllocatorInputs {
            mode,
            dtype,
            batch,
            seq_len,
            grad_checkpoint,
            optimizer: Optimizer::AdamW,
            precision,
            attn_impl: AttnImpl::Sdpa,
        }
    }
}

/// The moment of the step at which the allocator peaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Inference: the LM head writes the logits.
    PrefillLogits,
    /// Inference: the last layer's MLP.
    PrefillMlp,
    /// Inference: the last layer's attention.
    PrefillAttention,
    /// Training: `log_softmax` in the loss, end of the forward.
    ForwardLoss,
    /// Training: `log_softmax` backward, start of the backward.
    LogitsBackward,
    /// Training with checkpointing: one layer recomputed in the backward.
    LayerRecompute,
    /// Training: the foreach optimizer step.
    OptimizerStep,
}

/// The estimate, term by term, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocatorBreakdown {
    /// Parameters as stored (LoRA: frozen base plus fp32 adapters).
    pub weights: u64,
    /// Inference KV cache (zero in training: see [`cache_extra_per_token`]).
    pub kv_cache: u64,
    /// Gradients of the trainable parameters.
    pub gradients: u64,
    /// Optimizer states.
    pub optimizer: u64,
    /// Tensors alive at the forward/backward peak (saved activations, the
    /// logits chain, workspaces), autocast copies excluded.
    pub activations: u64,
    /// Low-precision weight copies alive at that peak (amp only).
    pub autocast_cache: u64,
    /// Temporary of the foreach optimizer during `step()`.
    pub step_workspace: u64,
    /// `weights + kv_cache + gradients + optimizer
    /// + max(activations + autocast_cache, step_workspace)`.
    pub total: u64,
    /// Memory outside the allocator, added only by [`AllocatorBreakdown::fits`].
    pub overhead: u64,
    /// Where the peak is.
    pub peak_phase: Phase,
}

impl AllocatorBreakdown {
    /// The fit against a GPU of `capacity_bytes` nominal memory: usable is
    /// 97 % of it, and the need is `total + overhead`.
    pub fn fits(&self, capacity_bytes: u64) -> Verdict {
        Verdict::new(
            self.total.saturating_add(self.overhead),
            usable_bytes(capacity_bytes),
        )
    }

    /// The terms in display order, with their stable names.
    pub fn terms(&self) -> [(&'static str, u64); 9] {
        [
            ("weights", self.weights),
            ("kv_cache", self.kv_cache),
            ("gradients", self.gradients),
            ("optimizer", self.optimizer),
            ("activations", self.activations),
            ("autocast_cache", self.autocast_cache),
            ("step_workspace", self.step_workspace),
            ("total", self.total),
            ("overhead", self.overhead),
        ]
    }
}

/// Usable memory: 97 % of the nominal capacity (seed 003, `fits()`).
pub fn usable_bytes(capacity_bytes: u64) -> u64 {
    percent_of(capacity_bytes, USABLE_CENTI_PCT)
}

/// Byte widths of one step: stored base weight `w`, activation `a`,
/// residual stream `s`, and whether autocast is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Widths {
    /// Bytes of a stored base weight.
    pub w: u64,
    /// Bytes of a linear layer's output (and of the logits).
    pub a: u64,
    /// Bytes of the residual stream (the embedding output and the sums).
    pub s: u64,
    /// The forward runs under `torch.autocast`.
    pub autocast: bool,
}

/// `w, a, s`: all equal to the dtype, except amp, where weights and the
/// residual stream are fp32 (`nn.Embedding` is not autocast, so its fp32
/// output starts the stream and every residual add promotes to fp32) and
/// linear outputs are in the autocast dtype (bf16 when the dtype is fp32).
pub fn widths(inputs: &AllocatorInputs) -> Widths {
    let dt = inputs.dtype.bytes();
    match (inputs.mode, inputs.precision) {
        (Mode::Inference, _) | (_, Precision::Pure) => Widths {
            w: dt,
            a: dt,
            s: dt,
            autocast: false,
        },
        (_, Precision::Amp) => Widths {
            w: 4,
            a: if dt == 4 { 2 } else { dt },
            s: 4,
            autocast: true,
        },
    }
}

/// Trainable parameters: `P` (full), `A` (LoRA), 0 (inference).
pub fn trainable_params(arch: &DenseArch, mode: Mode) -> u64 {
    match mode {
        Mode::Inference => 0,
        Mode::FullFinetune => arch.params_total,
        Mode::Lora { rank, .. } => arch.lora_params(rank),
    }
}

/// Bytes of one trainable parameter, of its gradient and of each optimizer
/// state: the parameter's dtype (`zeros_like(p)` in the optimizers, `.grad`
/// in the dtype of the parameter). LoRA adapters are fp32 (peft's
/// `autocast_adapter_dtype=True` upcasts them), so 4.
pub fn trainable_bytes(inputs: &AllocatorInputs) -> u64 {
    match inputs.mode {
        Mode::Lora { .. } => 4,
        _ => widths(inputs).w,
    }
}

/// Weights: `P·w`, plus `4·A` for LoRA adapters.
///
/// Seed 003's example: Llama-3.1-8B, LoRA 16, pure bf16:
/// `8,030,261,248 × 2 + 13,631,488 × 4 = 16,115,048,448` → "16.12 GB".
pub fn weights_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    let base = Sat::of(arch.params_total) * Sat::of(widths(inputs).w);
    let adapters = match inputs.mode {
        Mode::Lora { rank, .. } => 4 * Sat::of(arch.lora_params(rank)),
        _ => Sat::ZERO,
    };
    (base + adapters).bytes()
}

/// Inference KV cache: `2 · L · B · T · k · a`, the `torch.cat` copies each
/// `DynamicLayer.update` keeps (transformers `cache_utils.py`). RoPE output
/// has the dtype of the hidden states, so the cache is in the dtype.
/// Sliding-window layers are counted as global (conservative).
pub fn kv_cache_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    if inputs.mode != Mode::Inference {
        return 0;
    }
    (2 * Sat::of(arch.layers) * tokens(inputs) * Sat::of(arch.kv_dim()) * Sat::of(widths(inputs).a))
        .bytes()
}

/// Gradients: trainable parameters × their bytes (steady state: `.grad`
/// stays allocated between steps).
pub fn gradients_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    (Sat::of(trainable_params(arch, inputs.mode)) * Sat::of(trainable_bytes(inputs))).bytes()
}

/// Optimizer states: AdamW keeps `exp_avg` and `exp_avg_sq`, SGD one
/// `momentum_buffer`, each `zeros_like(p)`: states × trainable × bytes.
pub fn optimizer_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    let states = match inputs.optimizer {
        Optimizer::AdamW => 2,
        Optimizer::Sgd => 1,
    };
    (states * Sat::of(trainable_params(arch, inputs.mode)) * Sat::of(trainable_bytes(inputs)))
        .bytes()
}

/// Step workspace of the foreach optimizers (torch `optim/adam.py`,
/// `_multi_tensor_adam`): `exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs)`
/// is one temporary the size of all states of one moment, alive while the
/// update is applied, so trainable × bytes. `_multi_tensor_sgd` with
/// momentum and no weight decay updates in place: 0.
pub fn step_workspace_bytes(arch: &DenseArch, inputs: &AllocatorInputs) -> u64 {
    match inputs.optimizer {
        Optimizer::AdamW => gradients_bytes(arch, inputs),
        Optimizer::Sgd => 0,
    }
}

fn tokens(inputs: &AllocatorInputs) -> Sat {
    Sat::of(inputs.batch) * Sat::of(inputs.seq_len)
}

fn lora(mode: Mode) -> Option<(u64, bool)> {
    match mode {
        Mode::Lora { rank, dropout } => Some((rank, dropout)),
        _ => None,
    }
}

/// Bytes per token one RMSNorm saves for backward, `in_bytes` being the
/// dtype of its input.
///
/// `x32 = x.to(float32)` is saved by `pow(2)` and by `x32 * rsqrt(...)`
/// (4 bytes per element, whatever the input dtype: in fp32 it is the input
/// itself), `rsqrt` saves its result (4 bytes per token). When the weight
/// trains, `weight * y` saves `y`: `y.to(input_dtype)` for the Llama style
/// (`in_bytes`), the fp32 `y` for the Gemma style (4).
/// Source: transformers `LlamaRMSNorm.forward`, `Gemma2RMSNorm.forward`;
/// torch autograd saves an input of `mul` only when the other input needs a
/// gradient (`tools/autograd/gen_variable_type.py`, `guard_for`).
pub fn norm_saved_per_token(h: u64, style: NormStyle, in_bytes: u64, trainable: bool) -> u128 {
    norm_saved(h, style, in_bytes, trainable).0
}

fn norm_saved(h: u64, style: NormStyle, in_bytes: u64, trainable: bool) -> Sat {
    let h = Sat::of(h);
    let y = match (trainable, style) {
        (false, _) => Sat::ZERO,
        (true, NormStyle::Llama) => Sat::of(in_bytes) * h,
        (true, NormStyle::Gemma) => 4 * h,
    };
    4 * h + 4 + y
}

/// Bytes per token one decoder layer saves for backward (no checkpointing),
/// excluding the KV cache's own tensors (see [`cache_extra_per_token`]).
///
/// - norms: [`norm_saved_per_token`] for each; Gemma 2's extra two norms
///   take the linear outputs (`a`), the others the residual stream (`s`);
/// - full fine-tuning, projection inputs: `q_proj`/`k_proj`/`v_proj` save
///   the normed input and `gate_proj`/`up_proj` theirs, one shared tensor
///   each (`a·h` twice); under autocast each linear casts its fp32 input
///   anew (autocast caches only leaf weights), so `3·a·h + 2·a·h`;
///   `o_proj` saves the attention output, already counted;
/// - LoRA (frozen base linears save no input): each of the q, k, v, o
///   adapters saves the input of `lora_A`: peft's `_cast_input_dtype` fp32
///   copy (`4·in`) in pure 16-bit, the autocast cast (`a·in`) under amp;
///   with dropout also the dropout's `bool` mask (`1·in`); plus `lora_A`'s
///   output (`r` values) for `lora_B`;
/// - attention, sdpa/flash: the kernel saves q, k, v, the output and the
///   fp32 log-sum-exp: `a·(2q + 2k) + 4H`; eager: the matmuls save q,
///   the `repeat_kv` copies of k and v (`a·q` each when `K < H`), the fp32
///   softmax output `4·H·T` and its `.to(a)` copy `a·H·T` (none in fp32),
///   Gemma 2's `tanh` softcap output `a·H·T`, and `o_proj`'s input
///   `a·q` when it trains;
/// - Qwen3 q/k norms: [`norm_saved_per_token`] over `q + k` (input `a`);
/// - MLP: `silu`/`gelu` saves the gate, `act * up` saves both, `down_proj`
///   saves the product when it trains: `4·a·I`, or `3·a·I` with LoRA.
pub fn layer_saved_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    layer_saved(arch, inputs).0
}

fn layer_saved(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let wd = widths(inputs);
    let (h, q, k, i) = (
        Sat::of(arch.hidden),
        Sat::of(arch.q_dim()),
        Sat::of(arch.kv_dim()),
        Sat::of(arch.intermediate),
    );
    let (a, t, heads) = (Sat::of(wd.a), Sat::of(inputs.seq_len), Sat::of(arch.heads));
    let full = inputs.mode == Mode::FullFinetune;

    let norm_inputs: &[u64] = if arch.norms_per_layer >= 4 {
        &[wd.s, wd.a, wd.s, wd.a]
    } else {
        &[wd.s, wd.s]
    };
    let norms: Sat = norm_inputs
        .iter()
        .map(|&b| norm_saved(arch.hidden, arch.norm_style, b, full))
        .sum();

    let projections = if full {
        let casts = if wd.autocast { 3 + 2 } else { 1 + 1 };
        casts * (a * h)
    } else if let Some((rank, dropout)) = lora(inputs.mode) {
        lora_saved(arch, inputs, rank, dropout)
    } else {
        Sat::ZERO
    };

    let attention = match inputs.attn_impl {
        AttnImpl::Sdpa | AttnImpl::Flash => a * (2 * q + 2 * k) + 4 * heads,
        AttnImpl::Eager => {
            let keys_values = if arch.kv_heads < arch.heads {
                2 * (a * q)
            } else {
                2 * (a * k)
            };
            let softmax_copy = if wd.a < 4 { a } else { Sat::ZERO };
            let softcap = if arch.attn_logit_softcap {
                a
            } else {
                Sat::ZERO
            };
            let scores = (Sat::of(4) + softmax_copy + softcap) * heads * t;
            let o_input = if full { a * q } else { Sat::ZERO };
            a * q + keys_values + scores + o_input
        }
    };

    let qk_norms = if arch.qk_norm {
        let trainable_y = if full { a * (q + k) } else { Sat::ZERO };
        4 * (q + k) + 4 * (heads + Sat::of(arch.kv_heads)) + trainable_y
    } else {
        Sat::ZERO
    };

    let mlp = if full { 4 * (a * i) } else { 3 * (a * i) };

    norms + projections + attention + qk_norms + mlp
}

/// LoRA's share of [`layer_saved_per_token`]: what the four adapters save.
fn lora_saved(arch: &DenseArch, inputs: &AllocatorInputs, rank: u64, dropout: bool) -> Sat {
    let wd = widths(inputs);
    let (h, q, a) = (Sat::of(arch.hidden), Sat::of(arch.q_dim()), Sat::of(wd.a));
    let mask = |width: Sat| if dropout { width } else { Sat::ZERO };
    let a_out_bytes = if wd.autocast { a } else { Sat::of(4) };
    let a_out = 4 * (Sat::of(rank) * a_out_bytes);
    let inputs_saved = if wd.autocast {
        // lora_A runs under autocast: the cast of its input is saved.
        3 * (a * h + mask(h)) + a * q + mask(q)
    } else if wd.a != 4 || dropout {
        // `x.to(float32)` (or the dropout output) per adapter.
        3 * (4 * h + mask(h)) + 4 * q + mask(q)
    } else {
        // fp32, no dropout: q, k, v adapters share the saved normed input;
        // o's input is the attention output, saved by sdpa, not by eager.
        4 * h
            + match inputs.attn_impl {
                AttnImpl::Eager => 4 * q,
                _ => Sat::ZERO,
            }
    };
    inputs_saved + a_out
}

/// Bytes per token the KV cache keeps beyond the tensors autograd saves, per
/// layer, in non-checkpointed training (transformers keeps `use_cache=True`
/// unless checkpointing turns it off, and the output holds the cache
/// through the backward).
///
/// RoPE output has the residual dtype `s` (cos/sin are cast to the hidden
/// states' dtype), so the cached keys are `s·k`; the cached values are the
/// `v_proj` output, `a·k`. sdpa/flash save the cached tensors themselves
/// unless autocast casts the keys (`s ≠ a`): extra `s·k`. Eager saves the
/// `repeat_kv` copies instead, so with `K < H` the whole cache is extra.
pub fn cache_extra_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    cache_extra(arch, inputs).0
}

fn cache_extra(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    if inputs.mode == Mode::Inference || inputs.grad_checkpoint {
        return Sat::ZERO;
    }
    let wd = widths(inputs);
    let k = Sat::of(arch.kv_dim());
    match inputs.attn_impl {
        AttnImpl::Eager if arch.kv_heads < arch.heads => Sat::of(wd.s + wd.a) * k,
        _ if wd.s != wd.a => Sat::of(wd.s) * k,
        _ => Sat::ZERO,
    }
}

/// Bytes per token the final norm and the LM head save for backward: the
/// final norm ([`norm_saved_per_token`], input `s`) and, when the head
/// trains, its input (`a·h`: the norm output, or its autocast cast).
pub fn final_saved_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    final_saved(arch, inputs).0
}

fn final_saved(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let wd = widths(inputs);
    let full = inputs.mode == Mode::FullFinetune;
    let head_input = if full {
        Sat::of(wd.a) * Sat::of(arch.hidden)
    } else {
        Sat::ZERO
    };
    norm_saved(arch.hidden, arch.norm_style, wd.s, full) + head_input
}

/// Bytes per token of the logits chain at the start of the backward
/// (`LogSoftmaxBackward`): the logits the output keeps (`a·V`), and in fp32
/// the saved `log_softmax` output, the gradient from `nll_loss` and the
/// gradient being written (`3 × 4·V`). In bf16 that is seed 003's 14 bytes
/// per logit. Gemma 2's final softcap adds its saved `tanh` output (`a·V`).
/// Source: transformers `ForCausalLMLoss` (`logits.float()`), torch
/// `cross_entropy` = `log_softmax` + `nll_loss`.
pub fn logits_backward_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    logits_backward(arch, inputs).0
}

fn logits_backward(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let (a, v) = (Sat::of(widths(inputs).a), Sat::of(arch.vocab));
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    a * v + 12 * v + softcap
}

/// Bytes per token of the logits chain at `log_softmax` in the forward: the
/// kept logits (`a·V`), their fp32 upcast (`4·V`, none when already fp32)
/// and the `log_softmax` output (`4·V`), plus the softcap's `tanh` output.
pub fn logits_forward_per_token(arch: &DenseArch, inputs: &AllocatorInputs) -> u128 {
    logits_forward(arch, inputs).0
}

fn logits_forward(arch: &DenseArch, inputs: &AllocatorInputs) -> Sat {
    let a_bytes = widths(inputs).a;
    let (a, v) = (Sat::of(a_bytes), Sat::of(arch.vocab));
    let upcast = if a_bytes == 4 { Sat::ZERO } else { 4 * v };
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    a * v + upcast + 4 * v + softcap
}

/// One candidate peak: activations and autocast copies alive at it.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    phase: Phase,
    activations: Sat,
    autocast: Sat,
}

/// Training candidates (checkpointed or not) at the loss forward, the
/// logits backward and, with checkpointing, a recomputed layer.
///
/// - layer stack: `N · L · (layer + cache extra)` without checkpointing
///   (LoRA: minus layer 0's first norm, whose input, the frozen embedding's
///   output, needs no gradient); `N · L · s·h` with reentrant
///   checkpointing, which saves each layer's input only;
/// - forward loss: stack + final norm + `last_hidden_state` (`s·h`, unless
///   the trainable head saves it anyway) + [`logits_forward_per_token`];
/// - logits backward: stack + final norm + [`logits_backward_per_token`];
/// - layer recompute: stack + one layer's activations + the kept logits
///   (`a·V`) + the gradient entering the layer (`s·h`);
/// - autocast copies (amp): every cast weight is saved by its linear
///   without checkpointing (`a · autocast params`, plus LoRA adapters);
///   with checkpointing the no_grad forward still fills autocast's cache
///   (trainable leaves only) until the context exits, after which only the
///   LM head's copy (`a·E`), saved by its linear, stays; a recomputed layer
///   holds its own copies;
/// - plus [`CUBLAS_WORKSPACE_BYTES`] in every phase.
fn training_candidates(arch: &DenseArch, inputs: &AllocatorInputs) -> Vec<Candidate> {
    let wd = widths(inputs);
    let n = tokens(inputs);
    let (h, l, v) = (
        Sat::of(arch.hidden),
        Sat::of(arch.layers),
        Sat::of(arch.vocab),
    );
    let (a, s) = (Sat::of(wd.a), Sat::of(wd.s));
    let full = inputs.mode == Mode::FullFinetune;
    let lora_params = lora(inputs.mode)
        .map(|(r, _)| Sat::of(arch.lora_params(r)))
        .unwrap_or(Sat::ZERO);
    let ws = Sat::of(CUBLAS_WORKSPACE_BYTES);

    let layer = layer_saved(arch, inputs);
    let final_norm = final_saved(arch, inputs);
    let forward_hidden = if full && !wd.autocast {
        Sat::ZERO
    } else {
        s * h
    };

    let stack = if inputs.grad_checkpoint {
        n * l * s * h
    } else {
        let first_norm = if full {
            Sat::ZERO
        } else {
            norm_saved(arch.hidden, arch.norm_style, wd.s, false)
        };
        n * (l * (layer + cache_extra(arch, inputs)) - first_norm)
    };

    let (cast_forward, cast_backward, cast_layer) = if !wd.autocast {
        (Sat::ZERO, Sat::ZERO, Sat::ZERO)
    } else {
        let all = a * Sat::of(arch.autocast_params());
        let head = a * Sat::of(arch.embedding_params());
        let adapters = a * lora_params;
        let layer_casts =
            a * Sat::of(arch.layer_linear_params()) + adapters / Sat::of(arch.layers).0;
        match (full, inputs.grad_checkpoint) {
            (true, false) => (all, all, Sat::ZERO),
            (false, false) => (all + adapters, all + adapters, Sat::ZERO),
            (true, true) => (all, head, layer_casts),
            (false, true) => (head + adapters, head, layer_casts),
        }
    };

    let mut out = vec![
        Candidate {
            phase: Phase::ForwardLoss,
            activations: stack
                + n * (final_norm + forward_hidden + logits_forward(arch, inputs))
                + ws,
            autocast: cast_forward,
        },
        Candidate {
            phase: Phase::LogitsBackward,
            activations: stack + n * (final_norm + logits_backward(arch, inputs)) + ws,
            autocast: cast_backward,
        },
    ];
    if inputs.grad_checkpoint {
        out.push(Candidate {
            phase: Phase::LayerRecompute,
            activations: stack + n * (layer + a * v + s * h) + ws,
            autocast: cast_layer,
        });
    }
    out
}

/// Bytes per score of eager attention's transient peak in a `no_grad`
/// forward: bf16 keeps the masked scores, their fp32 copy (`softmax` with
/// `dtype=float32` converts first, torch `SoftMax.cpp`) and the fp32 result
/// (2 + 4 + 4); fp16 takes the fused half-to-float kernel, so the peak is
/// the scores, the fp32 result and its fp16 copy (2 + 4 + 2); fp32 keeps
/// the scores and the result (4 + 4).
pub fn eager_scores_peak_bytes(dtype: Dtype) -> u128 {
    match dtype {
        Dtype::Bf16 => 10,
        Dtype::Fp16 | Dtype::Fp32 => 8,
    }
}

/// Inference candidates: the last layer's attention, its MLP, and the LM
/// head (all layers' KV cache exists at each; it is reported apart).
///
/// - LM head: the final norm output and the logits of every position
///   (`logits_to_keep=0`), `a·(h + V)` per token; Gemma 2's softcap keeps a
///   second logits tensor while it rescales;
/// - MLP: the embedding output (a local of the model's forward), the layer
///   input, the residual and the normed input (`4·a·h`) plus `act`, `up`
///   and their product (`3·a·I`);
/// - attention, eager: the embedding output, the layer input and its normed
///   copy (`3·a·h`), q and the `repeat_kv` copies, the `(B,1,T,T)` mask and
///   [`eager_scores_peak_bytes`] per score; sdpa/flash: the same hidden
///   tensors, q and the output;
/// - plus [`CUBLAS_WORKSPACE_BYTES`].
fn inference_candidates(arch: &DenseArch, inputs: &AllocatorInputs) -> Vec<Candidate> {
    let a = Sat::of(widths(inputs).a);
    let n = tokens(inputs);
    let (h, q, i, v) = (
        Sat::of(arch.hidden),
        Sat::of(arch.q_dim()),
        Sat::of(arch.intermediate),
        Sat::of(arch.vocab),
    );
    let (b, t) = (Sat::of(inputs.batch), Sat::of(inputs.seq_len));
    let ws = Sat::of(CUBLAS_WORKSPACE_BYTES);
    let softcap = if arch.final_logit_softcap {
        a * v
    } else {
        Sat::ZERO
    };
    let attention = match inputs.attn_impl {
        AttnImpl::Eager => {
            let copies = if arch.kv_heads < arch.heads {
                2 * q
            } else {
                Sat::ZERO
            };
            let scores = Sat(eager_scores_peak_bytes(inputs.dtype));
            n * a * (3 * h + q + copies) + b * t * t * a + b * Sat::of(arch.heads) * t * t * scores
        }
        AttnImpl::Sdpa | AttnImpl::Flash => n * a * (3 * h + 2 * q),
    };
    [
        (Phase::PrefillLogits, n * (a * (h + v) + softcap)),
        (Phase::PrefillMlp, n * a * (4 * h + 3 * i)),
        (Phase::PrefillAttention, attention),
    ]
    .into_iter()
    .map(|(phase, bytes)| Candidate {
        phase,
        activations: bytes + ws,
        autocast: Sat::ZERO,
    })
    .collect()
}

/// The estimate for one model and one step. Total: no input panics, and
/// huge products saturate at `u64::MAX`.
///
/// ```
/// use vramfit_core::methods::allocator::*;
/// let arch = DenseArch::llama_3_1_8b();
/// let inputs = AllocatorInputs::training(
///     Mode::Lora { rank: 16, dropout: true }, Dtype::Bf16, Precision::Pure, 1, 4096, false);
/// let e = estimate(&arch, &inputs);
/// assert_eq!(e.weights, 16_115_048_448);    // "16.12 GB"
/// assert_eq!(e.gradients, 54_525_952);      // "0.05 GB"
/// assert_eq!(e.optimizer, 109_051_904);     // "0.11 GB"
/// assert_eq!(e.step_workspace, 54_525_952); // "0.05 GB"
/// ```
pub fn estimate(arch: &DenseArch, inputs: &AllocatorInputs) -> AllocatorBreakdown {
    let weights = weights_bytes(arch, inputs);
    let kv_cache = kv_cache_bytes(arch, inputs);
    let gradients = gradients_bytes(arch, inputs);
    let optimizer = optimizer_bytes(arch, inputs);
    let step_workspace = step_workspace_bytes(arch, inputs);

    let candidates = match inputs.mode {
        Mode::Inference => inference_candidates(arch, inputs),
        _ => training_candidates(arch, inputs),
    };
    let peak = candidates
        .iter()
        .copied()
        .max_by_key(|c| c.activations + c.autocast)
        .unwrap_or(Candidate {
            phase: Phase::LogitsBackward,
            activations: Sat::ZERO,
            autocast: Sat::ZERO,
        });
    let activations = peak.activations.bytes();
    let autocast_cache = peak.autocast.bytes();
    let pass = activations.saturating_add(autocast_cache);
    let peak_phase = if inputs.mode != Mode::Inference && step_workspace > pass {
        Phase::OptimizerStep
    } else {
        peak.phase
    };
    let total = crate::units::sum([
        weights,
        kv_cache,
        gradients,
        optimizer,
        pass.max(step_workspace),
    ]);
    AllocatorBreakdown {
        weights,
        kv_cache,
        gradients,
        optimizer,
        activations,
        autocast_cache,
        step_workspace,
        total,
        overhead: OVERHEAD_BYTES,
        peak_phase,
    }
}

/// The weight dtype (pure, inference) or autocast dtype (amp) of a
/// scenario: FP16 when chosen by name, BF16 for any other 16-bit weights,
/// FP32 for 32-bit ones (under amp, 32-bit weights autocast to BF16).
fn dtype_of(s: &Scenario) -> Result<Dtype, OutOfScope> {
    let amp = s.mode.trains() && s.precision == Precision::Amp;
    match (s.weight_format, s.weight_milli_bits) {
        (Some(WeightFormat::Fp16), _) => Ok(Dtype::Fp16),
        (_, 16_000) => Ok(Dtype::Bf16),
        (_, 32_000) if amp => Ok(Dtype::Bf16),
        (_, 32_000) => Ok(Dtype::Fp32),
        _ => Err(OutOfScope::QuantizedWeights),
    }
}

/// The memory the device really has for a card sold as `nominal` decimal
/// GB: the same number of GiB (a "24 GB" RTX 3090 has 24 GiB =
/// 25,769,803,776 bytes; `torch.cuda.get_device_properties` and nvidia-smi
/// count binary units). Seed 003 measures against the device, and its
/// example only comes out so: "short by 28.9 GB on RTX 3090" is
/// 53.19 + 0.75 − 0.97 × 25.77 GB. Seeds 002 and 004 keep the decimal
/// figure instead; the methods disagree here on purpose.
pub fn device_bytes(nominal: u64) -> u64 {
    saturate(nominal as u128 * crate::units::GIB as u128 / GB as u128)
}

/// The allocator inputs of a validated scenario.
pub fn inputs_of(s: &Scenario) -> Result<AllocatorInputs, OutOfScope> {
    let mode = match s.mode {
        crate::scenario::Mode::Inference => Mode::Inference,
        crate::scenario::Mode::Full => Mode::FullFinetune,
        crate::scenario::Mode::Lora => Mode::Lora {
            rank: s.lora_rank,
            dropout: s.lora_dropout,
        },
        // A 4-bit base is a quantized format (bitsandbytes), out of scope.
        crate::scenario::Mode::Qlora => return Err(OutOfScope::QuantizedWeights),
    };
    Ok(AllocatorInputs {
        mode,
        dtype: dtype_of(s)?,
        batch: s.batch,
        seq_len: s.context,
        grad_checkpoint: s.grad_checkpoint,
        optimizer: s.optimizer,
        precision: s.precision,
        attn_impl: s.attn,
    })
}

/// The method's result for a scenario, or why it does not apply: it needs
/// a real dense model (catalog id or config) and unquantized weights.
///
/// `components` hold every term and `overhead` (0.75 GB outside the
/// allocator); `total_bytes` is the predicted peak allocation without the
/// overhead; the verdict compares `total + overhead` with 97 % of the GPU.
pub fn estimate_scenario(s: &Scenario) -> Result<MethodResult, OutOfScope> {
    let spec = s.model.as_deref().ok_or(OutOfScope::NeedsModel)?;
    let arch = DenseArch::from_spec(spec)?;
    let e = estimate(&arch, &inputs_of(s)?);
    let components = e
        .terms()
        .into_iter()
        .filter(|(name, _)| *name != "total")
        .map(|(name, bytes)| Component { name, bytes })
        .collect();
    Ok(MethodResult {
        components: Components(components),
        outside_total: vec!["overhead"],
        verdict: e.fits(device_bytes(s.gpu_bytes)),
        ..MethodResult::new(MethodId::Allocator, &[], e.total, 0)
    })
}

/// Bytes as decimal GB with two decimals, as seed 003 prints them.
pub fn gb2(bytes: u64) -> String {
    format!("{:.2}", bytes as f64 / GB as f64)
}

#[cfg(test)]
mod tests {
    //! Golden tests: seed 003's CLI example and hand-checked derivations.
    use super::*;
    use crate::verdict::FitStatus;

    fn seed_example() -> AllocatorBreakdown {
        let inputs = AllocatorInputs::training(
            Mode::Lora {
                rank: 16,
                dropout: true,
            },
            Dtype::Bf16,
            Precision::Pure,
            1,
            4096,
            false,
        );
        estimate(&DenseArch::llama_3_1_8b(), &inputs)
    }

    #[test]
    fn seed_003_cli_example_deterministic_terms() {
        // vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096
        let e = seed_example();
        assert_eq!(DenseArch::llama_3_1_8b().params_total, 8_030_261_248);
        assert_eq!(DenseArch::llama_3_1_8b().lora_params(16), 13_631_488);
        assert_eq!(gb2(e.weights), "16.12");
        assert_eq!(gb2(e.gradients), "0.05");
        assert_eq!(gb2(e.optimizer), "0.11");
        assert_eq!(gb2(e.step_workspace), "0.05");
        assert_eq!(gb2(e.overhead), "0.75");
        assert_eq!(e.kv_cache, 0);
        assert_eq!(e.autocast_cache, 0);
        assert_eq!(e.peak_phase, Phase::LogitsBackward);
    }

    #[test]
    fn seed_003_cli_example_activations_and_total() {
        // The seed prints activations 36.92 and total 53.19; this derivation
        // gives 36.41 and 52.68 (see docs/allocator-derivation.md, §9).
        let e = seed_example();
        assert_eq!(gb2(e.activations), "36.41");
        assert_eq!(gb2(e.total), "52.68");
        // Short on an RTX 3090 (24 GB), as the seed says.
        let v = e.fits(24 * GB);
        assert_eq!(v.status, FitStatus::NoCabe);
        assert_eq!(v.usable_bytes, 23_280_000_000);
    }

    #[test]
    fn llama_3_2_1b_counts() {
        let arch = DenseArch::llama_3_2_1b();
        assert_eq!(arch.params_total, 1_235_814_400);
        assert_eq!(arch.lora_params(16), 3_407_872);
        // Tied: every projection plus the head's copy of the embedding.
        assert_eq!(arch.autocast_params(), 1_235_814_400 - 2048 * 33);
    }

    #[test]
    fn fourteen_bytes_per_logit_in_bf16() {
        let arch = DenseArch::llama_3_2_1b();
        let inputs = AllocatorInputs::training(
            Mode::FullFinetune,
            Dtype::Bf16,
            Precision::Pure,
            1,
            2048,
            false,
        );
        assert_eq!(logits_backward_per_token(&arch, &inputs), 14 * 128_256);
        assert_eq!(logits_forward_per_token(&arch, &inputs), 10 * 128_256);
    }

    #[test]
    fn layer_saved_bytes_llama_3_2_1b_pure_sdpa() {
        // 2 norms × (4h + 4 + 2h) + 2·2h + 2·(2q + 2k) + 4H + 4·2·I.
        let arch = DenseArch::llama_3_2_1b();
        let inputs = AllocatorInputs::training(
            Mode::FullFinetune,
            Dtype::Bf16,
            Precision::Pure,
            1,
            2048,
            false,
        );
        assert_eq!(
            layer_saved_per_token(&arch, &inputs),
            2 * (6 * 2048 + 4) + 4 * 2048 + 2 * (2 * 2048 + 2 * 512) + 128 + 8 * 8192
        );
    }

    #[test]
    fn inference_kv_cache_matches_quick_method_formula() {
        // 2 × 16 layers × 2048 tokens × 512 × 2 bytes.
        let arch = DenseArch::llama_3_2_1b();
        let e = estimate(&arch, &AllocatorInputs::inference(Dtype::Bf16, 1, 2048));
        assert_eq!(e.kv_cache, 67_108_864);
        assert_eq!(e.peak_phase, Phase::PrefillLogits);
        assert_eq!(e.gradients + e.optimizer + e.step_workspace, 0);
    }

    #[test]
    fn sgd_has_one_state_and_no_step_temporary() {
        let arch = DenseArch::llama_3_2_1b();
        let mut inputs = AllocatorInputs::training(
            Mode::FullFinetune,
            Dtype::Bf16,
            Precision::Pure,
            1,
            512,
            true,
        );
        inputs.optimizer = Optimizer::Sgd;
        let e = estimate(&arch, &inputs);
        assert_eq!(e.optimizer, e.gradients);
        assert_eq!(e.step_workspace, 0);
    }

    #[test]
    fn amp_full_weights_states_are_fp32() {
        let arch = DenseArch::llama_3_2_1b();
        let inputs = AllocatorInputs::training(
            Mode::FullFinetune,
            Dtype::Bf16,
            Precision::Amp,
            1,
            2048,
            true,
        );
        let e = estimate(&arch, &inputs);
        assert_eq!(e.weights, 4 * arch.params_total);
        assert_eq!(e.gradients, 4 * arch.params_total);
        assert_eq!(e.optimizer, 8 * arch.params_total);
        // Checkpointed amp peaks in the forward, with the whole cache alive.
        assert_eq!(e.peak_phase, Phase::ForwardLoss);
        assert_eq!(e.autocast_cache, 2 * arch.autocast_params());
    }

    #[test]
    fn optimizer_step_can_bind_for_short_sequences() {
        let arch = DenseArch::llama_3_1_8b();
        let inputs = AllocatorInputs::training(
            Mode::FullFinetune,
            Dtype::Bf16,
            Precision::Pure,
            1,
            16,
            true,
        );
        let e = estimate(&arch, &inputs);
        assert_eq!(e.peak_phase, Phase::OptimizerStep);
        assert_eq!(
            e.total,
            e.weights + e.gradients + e.optimizer + e.step_workspace
        );
    }

    #[test]
    fn huge_inputs_saturate_instead_of_panicking() {
        let arch = DenseArch::llama_3_1_8b();
        let inputs = AllocatorInputs {
            attn_impl: AttnImpl::Eager,
            ..AllocatorInputs::inference(Dtype::Fp32, u64::MAX, u64::MAX)
        };
        let e = estimate(&arch, &inputs);
        assert_eq!(e.total, u64::MAX);
        let zero = estimate(&arch, &AllocatorInputs::inference(Dtype::Bf16, 0, 0));
        assert_eq!(zero.kv_cache, 0);
    }

    #[test]
    fn parsed_config_gives_the_validation_model() {
        let spec = crate::model::parse_config(include_str!(
            "../../data/configs/meta-llama__Llama-3.2-1B-Instruct.json"
        ))
        .unwrap();
        assert_eq!(
            DenseArch::from_spec(&spec).unwrap(),
            DenseArch::llama_3_2_1b()
        );
    }

    /// Catalog models the allocator's layout accepts but counts differently
    /// from the config parser, to fix in the layout (then empty the list):
    /// - `ibm-granite/granite-3b-code-instruct-128k`: a Llama-architecture
    ///   config with `attention_bias` and `mlp_bias` true; the layout has no
    ///   q/k/v/o or MLP biases: 3,481,438,720 vs 3,482,503,680 (the parser,
    ///   which is the checkpoint's index total).
    const ALLOCATOR_GAPS_PENDING: &[&str] = &["ibm-granite/granite-3b-code-instruct-128k"];

    #[test]
    fn dense_catalog_models_count_like_the_parser() {
        // Two independent counts of the same shapes: the allocator's layout
        // and the config parser's (checked against published counts by the
        // catalog's tests).
        let mut checked = 0;
        let mut differ = Vec::new();
        for entry in crate::catalog::models::all() {
            let Ok(spec) = entry.spec() else {
                continue; // excluded by the config reader
            };
            match DenseArch::from_spec(&spec) {
                Ok(arch) if arch.params_total == spec.params_total => checked += 1,
                Ok(_) => differ.push(entry.id.as_str()),
                Err(reason) => assert!(!reason.to_string().is_empty()),
            }
        }
        assert_eq!(differ, ALLOCATOR_GAPS_PENDING);
        assert!(checked >= 15, "only {checked} dense models");
    }

    #[test]
    fn out_of_scope_models_say_why() {
        let moe = crate::catalog::find_model("mistralai/Mixtral-8x7B-v0.1").unwrap();
        let err = DenseArch::from_spec(&moe.spec().unwrap()).unwrap_err();
        assert_eq!(err, OutOfScope::Family(Family::Mixtral));
        assert!(err.to_string().contains("outside its scope"), "{err}");
        let fp8 = crate::catalog::find_model("Qwen/Qwen3-30B-A3B-FP8").unwrap();
        assert!(DenseArch::from_spec(&fp8.spec().unwrap()).is_err());
    }

    #[test]
    fn fits_uses_97_percent_and_overhead() {
        let e = AllocatorBreakdown {
            weights: 0,
            kv_cache: 0,
            gradients: 0,
            optimizer: 0,
            activations: 0,
            autocast_cache: 0,
            step_workspace: 0,
            total: 46_000_000_000,
            overhead: OVERHEAD_BYTES,
            peak_phase: Phase::LogitsBackward,
        };
        // 46 + 0.75 = 46.75 > 0.97 × 48 = 46.56.
        assert_eq!(e.fits(48 * GB).status, FitStatus::NoCabe);
        assert_eq!(e.fits(48 * GB).short_by_bytes, 190_000_000);
    }
}
