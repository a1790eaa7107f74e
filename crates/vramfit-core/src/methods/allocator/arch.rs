//! The shape of a dense decoder model as the allocator derives it, read
//! from a parsed `config.json`, with its parameter counts.

use super::sat::Sat;
use crate::methods::refusal::{Feature, Refusal};
use crate::model::{Family, ModelSpec};
use serde::{Deserialize, Serialize};

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
    pub fn from_spec(spec: &ModelSpec) -> Result<DenseArch, Refusal> {
        let (norms_per_layer, norm_style, qk_norm) = match spec.family {
            Family::Llama | Family::Mistral | Family::Qwen2 => (2, NormStyle::Llama, false),
            Family::Qwen3 => (2, NormStyle::Llama, true),
            Family::Gemma => (2, NormStyle::Gemma, false),
            Family::Gemma2 => (4, NormStyle::Gemma, false),
            other => return Err(Refusal::Family(other)),
        };
        let blocker = [
            (spec.moe.is_some(), Feature::Experts),
            (spec.mla.is_some(), Feature::LatentAttention),
            (spec.linear_mixer.is_some(), Feature::LinearLayers),
            (spec.quantization.is_some(), Feature::QuantizedCheckpoint),
            (spec.vision.is_some(), Feature::VisionTower),
            (spec.intermediate_size.is_none(), Feature::NoDenseMlp),
        ]
        .into_iter()
        .find(|(present, _)| *present);
        if let Some((_, feature)) = blocker {
            return Err(Refusal::Feature(feature));
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
            // The biases the model's reader found (Qwen2's q/k/v biases,
            // Llama's `attention_bias` and `mlp_bias`).
            qkv_bias: spec.projections.qkv_bias,
            o_bias: spec.projections.o_bias,
            mlp_bias: spec.projections.mlp_bias,
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
