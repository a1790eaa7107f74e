//! From a parsed config to the llama.cpp architecture it loads as, and the
//! facts of its GGUF layout that config keys do not state directly.
//!
//! Sources: llama.cpp `convert_hf_to_gguf.py` and its `conversion/*.py`
//! classes (which tensors are written), `src/models/<arch>.cpp`
//! (`load_arch_tensors`: which tensors the loader expects, their shapes;
//! `load_arch_hparams`: the model type and the sliding-window pattern).

use super::refusal::LlamaCppRefusal;
use crate::model::{AttentionKind, FfnKind, MlaSpec, ModelSpec, QuantScheme};
use serde::{Deserialize, Serialize};

/// The llama.cpp architecture a model loads as (GGUF
/// `general.architecture`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    /// `llama`: Llama 1–3, Mistral and Mixtral (`LlamaModel` converts all
    /// three).
    Llama,
    Qwen2,
    Qwen2Moe,
    Qwen3,
    Qwen3Moe,
    Gemma,
    Gemma2,
    Gemma3,
    Phi3,
    /// `deepseek2`: DeepSeek-V2, V2-Lite, V3 and R1 (MLA).
    Deepseek2,
    /// `gpt-oss` (`LLM_ARCH_OPENAI_MOE`).
    GptOss,
    Olmo2,
    Gpt2,
    /// `glm4`: GLM-4-0414 and GLM-Z1-0414 (`Glm4Model`; fused gate/up,
    /// post-attention and post-MLP norms).
    Glm4,
}

impl Arch {
    /// The GGUF architecture name (`src/llama-arch.cpp`, `LLM_ARCH_NAMES`).
    pub const fn gguf_name(self) -> &'static str {
        match self {
            Arch::Llama => "llama",
            Arch::Qwen2 => "qwen2",
            Arch::Qwen2Moe => "qwen2moe",
            Arch::Qwen3 => "qwen3",
            Arch::Qwen3Moe => "qwen3moe",
            Arch::Gemma => "gemma",
            Arch::Gemma2 => "gemma2",
            Arch::Gemma3 => "gemma3",
            Arch::Phi3 => "phi3",
            Arch::Deepseek2 => "deepseek2",
            Arch::GptOss => "gpt-oss",
            Arch::Olmo2 => "olmo2",
            Arch::Gpt2 => "gpt2",
            Arch::Glm4 => "glm4",
        }
    }

    /// The architecture of a Hugging Face `model_type` (of the text model),
    /// `None` where the layout is not derived here.
    pub fn of_model_type(model_type: &str) -> Option<Arch> {
        Some(match model_type {
            "llama" | "mistral" | "mixtral" => Arch::Llama,
            "qwen2" => Arch::Qwen2,
            "qwen2_moe" => Arch::Qwen2Moe,
            "qwen3" => Arch::Qwen3,
            "qwen3_moe" => Arch::Qwen3Moe,
            "gemma" => Arch::Gemma,
            "gemma2" => Arch::Gemma2,
            "gemma3" | "gemma3_text" => Arch::Gemma3,
            "phi3" => Arch::Phi3,
            "deepseek_v2" | "deepseek_v3" => Arch::Deepseek2,
            "gpt_oss" => Arch::GptOss,
            "olmo2" => Arch::Olmo2,
            "gpt2" => Arch::Gpt2,
            "glm4" => Arch::Glm4,
            _ => return None,
        })
    }

    /// Whether llama.cpp gives this architecture a sliding-window cache
    /// (`hparams.swa_type` set in `load_arch_hparams`). Mistral's
    /// `sliding_window` and Phi-3's are ignored: `llama` has no SWA, and
    /// `phi3` disables it ("Phi SWA is currently disabled").
    pub const fn has_sliding_window(self) -> bool {
        matches!(
            self,
            Arch::Gemma2 | Arch::Gemma3 | Arch::GptOss | Arch::Olmo2
        )
    }

    /// Whether every routed layer holds experts, from the first layer
    /// (`true`) or after a run of leading dense layers (`deepseek2`'s
    /// `leading_dense_block_count`).
    const fn moe_everywhere(self) -> bool {
        !matches!(self, Arch::Deepseek2)
    }

    /// Whether the file always holds `output.weight` (no tied variant in
    /// the loader).
    const fn output_required(self) -> bool {
        matches!(self, Arch::Qwen2Moe | Arch::GptOss | Arch::Olmo2)
    }
}

/// What a layer keeps in the KV cache, as llama.cpp builds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LayerCache {
    /// K and V for every cell of the context.
    Full,
    /// K and V for the sliding-window cache (`llama_kv_cache_iswa`).
    Sliding { window: u64 },
    /// MLA: one row of `kv_lora_rank + qk_rope_head_dim` per cell, no V.
    Latent,
}

/// The feed-forward part of a layer, in GGUF terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LayerFfn {
    /// `ffn_gate`, `ffn_up`, `ffn_down` of width `n_ff`.
    Dense { n_ff: u64 },
    /// Router, merged experts `ffn_*_exps` of width `n_ff_exp`, and a
    /// shared expert `ffn_*_shexp` of width `n_ff_shexp` (0: none).
    Moe { n_ff_exp: u64, n_ff_shexp: u64 },
}

/// One layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerLayout {
    pub cache: LayerCache,
    pub ffn: LayerFfn,
}

/// Everything the tensor inventory, the KV cache and the buffers read.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub arch: Arch,
    pub n_layer: u64,
    pub n_embd: u64,
    pub n_head: u64,
    /// `head_count_kv` as written to the GGUF (1 for MLA).
    pub n_head_kv: u64,
    /// Key and value head dimension (non-MLA).
    pub head_dim: u64,
    /// Rows of `token_embd` and of the logits.
    pub n_vocab: u64,
    /// No `output.weight` in the file: the loader duplicates `token_embd`.
    pub tied: bool,
    pub layers: Vec<LayerLayout>,
    /// Routed experts per MoE layer (`hparams.n_expert`, 0 for dense).
    pub n_expert: u64,
    pub n_expert_used: u64,
    /// llama.cpp's `LLM_TYPE_70B` (the quantizer gives `attn_v` more bits).
    pub type_70b: bool,
    /// Values of the `rope_freqs` tensor (Llama-3.1 rope scaling), 0: none.
    pub rope_freqs: u64,
    /// Values of each of `rope_factors_long` / `_short` (LongRoPE), 0: none.
    pub rope_factors: u64,
    /// Rows of GPT-2's learned position embedding.
    pub positions: u64,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub mlp_bias: bool,
    /// DeepSeek's e-score correction bias (`exp_probs_b`).
    pub expert_score_bias: bool,
    pub mla: Option<MlaSpec>,
}

/// Tokens in the Gemma 3 tokenizer. `convert_hf_to_gguf.py` (`Gemma3Model.
/// modify_tensors`) cuts `token_embd` to the tokenizer's length; the 4B–27B
/// configs say `vocab_size` 262,208 but their tokenizer holds 262,144.
const GEMMA3_TOKENIZER: u64 = 262_144;

impl Layout {
    /// The layout of a parsed model, or why it is not derived.
    pub(crate) fn of(spec: &ModelSpec) -> Result<Layout, LlamaCppRefusal> {
        let unsupported = || LlamaCppRefusal::UnsupportedArchitecture {
            model_type: spec.model_type.clone(),
            family: spec.family,
        };
        let arch = spec
            .model_type
            .as_deref()
            .and_then(Arch::of_model_type)
            .ok_or_else(unsupported)?;
        let layout_err = |what: LayoutProblem| LlamaCppRefusal::UnsupportedLayout {
            model_type: spec.model_type.clone(),
            what,
        };
        // The converter dequantizes FP8 and GPTQ checkpoints
        // (`ModelBase.dequant_model`) and repacks gpt-oss's MXFP4 experts;
        // llama-quantize then chooses every type afresh, so the
        // checkpoint's own format does not enter the sizes. It reads no
        // AWQ checkpoint.
        if let Some(q) = spec.quantization.as_ref() {
            let fp8 = matches!(q.method.as_str(), "fp8" | "fbgemm_fp8");
            match q.scheme {
                QuantScheme::AwqGemm { .. }
                | QuantScheme::AwqGemv { .. }
                | QuantScheme::AwqGemvFast { .. } => {
                    return Err(layout_err(LayoutProblem::AwqCheckpoint))
                }
                QuantScheme::Mxfp4 if arch != Arch::GptOss => {
                    return Err(layout_err(LayoutProblem::Mxfp4OutsideGptOss))
                }
                QuantScheme::Fp8Block { .. } | QuantScheme::Fp8Tensor | QuantScheme::Fp8Channel
                    if fp8 => {}
                QuantScheme::Gptq { .. } | QuantScheme::Mxfp4 => {}
                _ => return Err(layout_err(LayoutProblem::UnreadableQuantization)),
            }
        }
        let layers = layers(spec, arch).map_err(layout_err)?;
        let moe = spec.moe.as_ref();
        let n_expert = match layers.iter().any(|l| matches!(l.ffn, LayerFfn::Moe { .. })) {
            true => moe.map(|m| m.routed_experts).unwrap_or(0),
            false => 0,
        };
        let tied = match arch {
            Arch::Gemma | Arch::Gemma2 => true,
            _ => spec.tied_embeddings,
        };
        if tied && arch.output_required() {
            return Err(layout_err(LayoutProblem::TiedOutput));
        }
        let mla = match arch {
            Arch::Deepseek2 => Some(
                spec.mla
                    .ok_or_else(|| layout_err(LayoutProblem::NoMlaRanks))?,
            ),
            _ => None,
        };
        let n_vocab = match arch {
            Arch::Gemma3 => spec.vocab_size.min(GEMMA3_TOKENIZER),
            _ => spec.vocab_size,
        };
        let n_layer = spec.num_layers;
        let p = spec.projections;
        let (qkv_bias, o_bias) = match arch {
            Arch::Deepseek2 => (false, false),
            _ => (p.qkv_bias, p.o_bias),
        };
        let mlp_bias = p.mlp_bias
            && layers
                .iter()
                .any(|l| matches!(l.ffn, LayerFfn::Dense { .. }));
        let positions = match arch {
            Arch::Gpt2 => spec
                .params
                .embedding
                .checked_div(spec.hidden_size)
                .unwrap_or(0)
                .saturating_sub(spec.vocab_size),
            _ => 0,
        };
        Ok(Layout {
            arch,
            n_layer,
            n_embd: spec.hidden_size,
            n_head: spec.num_attention_heads,
            n_head_kv: match arch {
                Arch::Deepseek2 => 1,
                _ => spec.num_kv_heads,
            },
            head_dim: spec.head_dim,
            n_vocab,
            tied,
            n_expert,
            n_expert_used: moe.map(|m| m.experts_per_token).unwrap_or(0),
            type_70b: type_70b(arch, spec, n_expert),
            rope_freqs: rope_freqs(arch, spec),
            rope_factors: rope_factors(arch, spec),
            positions,
            qkv_bias,
            o_bias,
            mlp_bias,
            expert_score_bias: arch == Arch::Deepseek2 && moe.is_some_and(|m| m.score_bias),
            mla,
            layers,
        })
    }

    /// `n_head / n_head_kv` of the first layer (`hparams.n_gqa()`), which
    /// the quantizer reads.
    pub(crate) fn n_gqa(&self) -> u64 {
        self.n_head.checked_div(self.n_head_kv).unwrap_or(0)
    }
}

/// The per-layer plan in llama.cpp's terms, or what does not fit it.
fn layers(spec: &ModelSpec, arch: Arch) -> Result<Vec<LayerLayout>, LayoutProblem> {
    let moe = spec.moe.as_ref();
    let mut out = Vec::with_capacity(spec.attention.len());
    let mut seen_moe = false;
    for (i, (attention, ffn)) in spec.attention.iter().zip(&spec.ffn).enumerate() {
        let cache = match (*attention, arch) {
            (AttentionKind::Mla { .. }, Arch::Deepseek2) => LayerCache::Latent,
            (AttentionKind::Full, a) if a != Arch::Deepseek2 => LayerCache::Full,
            (AttentionKind::SlidingWindow { window }, a) if a.has_sliding_window() => {
                LayerCache::Sliding { window }
            }
            (AttentionKind::SlidingWindow { .. }, a) if a != Arch::Deepseek2 => LayerCache::Full,
            (kind, _) => {
                return Err(LayoutProblem::LayerKind {
                    kind,
                    layer: i as u64,
                })
            }
        };
        let ffn = match (ffn, moe) {
            (FfnKind::Dense, _) => {
                if seen_moe || (arch.moe_everywhere() && moe.is_some()) {
                    return Err(LayoutProblem::DenseBetweenExperts { layer: i as u64 });
                }
                LayerFfn::Dense {
                    n_ff: spec
                        .intermediate_size
                        .ok_or(LayoutProblem::NoIntermediateSize)?,
                }
            }
            (FfnKind::Moe, Some(m)) => {
                seen_moe = true;
                if m.latent.is_some() {
                    return Err(LayoutProblem::LatentExperts);
                }
                let shared_ok = match arch {
                    Arch::Qwen2Moe | Arch::Deepseek2 => m.shared_intermediate > 0,
                    _ => m.shared_intermediate == 0,
                };
                if !shared_ok {
                    return Err(LayoutProblem::SharedExperts);
                }
                LayerFfn::Moe {
                    n_ff_exp: m.expert_intermediate,
                    n_ff_shexp: m.shared_intermediate,
                }
            }
            _ => return Err(LayoutProblem::NoFeedForward { layer: i as u64 }),
        };
        if matches!(
            (arch, ffn),
            (
                Arch::Qwen2Moe | Arch::Qwen3Moe | Arch::GptOss,
                LayerFfn::Dense { .. }
            )
        ) {
            return Err(LayoutProblem::DenseMlp { layer: i as u64 });
        }
        out.push(LayerLayout { cache, ffn });
    }
    if out.is_empty() {
        return Err(LayoutProblem::NoLayers);
    }
    Ok(out)
}

/// llama.cpp's `LLM_TYPE_70B`, the only model type the quantizer reads:
/// `llama` with 80 layers and grouped KV heads (not the 8-expert types),
/// `qwen2` with 80 layers (`src/models/llama.cpp`, `src/models/qwen2.cpp`,
/// `load_arch_hparams`).
fn type_70b(arch: Arch, spec: &ModelSpec, n_expert: u64) -> bool {
    match arch {
        Arch::Llama => {
            n_expert != 8 && spec.num_layers == 80 && spec.num_attention_heads != spec.num_kv_heads
        }
        Arch::Qwen2 => spec.num_layers == 80,
        _ => false,
    }
}

/// Values of `rope_freqs.weight`, which `LlamaModel.generate_extra_tensors`
/// writes (f32, `n_rot / 2`) when `rope_scaling.rope_type` is `llama3`
/// (`convert_hf_to_gguf.py`; `n_rot` is the rotated part of a head:
/// `head_dim × partial_rotary_factor`).
fn rope_freqs(arch: Arch, spec: &ModelSpec) -> u64 {
    let llama3 = spec
        .rope_scaling
        .as_ref()
        .is_some_and(|r| r.is(&["llama3"]));
    match arch == Arch::Llama && llama3 {
        true => rotary_dims(spec) / 2,
        false => 0,
    }
}

/// Values of each LongRoPE factor tensor (`rope_factors_long` / `_short`,
/// f32) that `Phi3MiniModel.generate_extra_tensors` writes when
/// `rope_scaling.rope_type` is `longrope` (or the older `su`): the
/// config's `long_factor` list, which the converter requires to hold
/// `n_rot / 2` values.
fn rope_factors(arch: Arch, spec: &ModelSpec) -> u64 {
    match (arch, spec.rope_scaling.as_ref()) {
        (Arch::Phi3, Some(r)) if r.is(&["longrope", "su"]) => {
            r.long_factor_len.unwrap_or(rotary_dims(spec) / 2)
        }
        _ => 0,
    }
}

/// Rotated dimensions of a head: `⌊head_dim × partial_rotary_factor⌋`.
fn rotary_dims(spec: &ModelSpec) -> u64 {
    let milli = spec.partial_rotary_milli.unwrap_or(1000);
    spec.head_dim.saturating_mul(milli) / 1000
}

/// Why a model's GGUF layout is not derived here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum LayoutProblem {
    /// An AWQ checkpoint: the converter reads none.
    AwqCheckpoint,
    /// MXFP4 weights in an architecture other than gpt-oss.
    Mxfp4OutsideGptOss,
    /// A quantized checkpoint the converter does not dequantize.
    UnreadableQuantization,
    /// Tied embeddings where the architecture always has `output.weight`.
    TiedOutput,
    /// DeepSeek without MLA ranks.
    NoMlaRanks,
    /// A layer of an attention kind the architecture does not hold.
    LayerKind { kind: AttentionKind, layer: u64 },
    /// A dense MLP between expert layers.
    DenseBetweenExperts { layer: u64 },
    /// A dense MLP in an architecture of expert layers only.
    DenseMlp { layer: u64 },
    /// Dense layers without `intermediate_size`.
    NoIntermediateSize,
    /// Experts on a latent projection.
    LatentExperts,
    /// Shared experts unlike the architecture's.
    SharedExperts,
    /// A layer without feed-forward part.
    NoFeedForward { layer: u64 },
    /// A config without layers.
    NoLayers,
    /// The tensors the converter writes do not hold the model's parameter
    /// count: the checkpoint has tensors this layout does not list.
    TensorCount,
}

impl std::fmt::Display for LayoutProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutProblem::AwqCheckpoint => {
                f.write_str("an AWQ checkpoint, which the converter does not read")
            }
            LayoutProblem::Mxfp4OutsideGptOss => f.write_str("MXFP4 weights outside gpt-oss"),
            LayoutProblem::UnreadableQuantization => {
                f.write_str("a quantized checkpoint the converter does not read")
            }
            LayoutProblem::TiedOutput => f.write_str("tied input and output embeddings"),
            LayoutProblem::NoMlaRanks => f.write_str("no MLA ranks"),
            LayoutProblem::LayerKind { kind, layer } => {
                write!(f, "a layer of kind {kind:?} (layer {layer})")
            }
            LayoutProblem::DenseBetweenExperts { layer } => {
                write!(f, "a dense MLP between expert layers (layer {layer})")
            }
            LayoutProblem::DenseMlp { layer } => write!(f, "a dense MLP (layer {layer})"),
            LayoutProblem::NoIntermediateSize => f.write_str("no intermediate_size"),
            LayoutProblem::LatentExperts => f.write_str("experts on a latent projection"),
            LayoutProblem::SharedExperts => f.write_str("shared experts unlike the architecture's"),
            LayoutProblem::NoFeedForward { layer } => {
                write!(f, "a layer without feed-forward part (layer {layer})")
            }
            LayoutProblem::NoLayers => f.write_str("no layers"),
            LayoutProblem::TensorCount => {
                f.write_str("tensors beyond those the converter writes for its architecture")
            }
        }
    }
}

/// Checks that the tensors of `layout` hold every parameter of `spec`:
/// their values equal the model's count, plus the rope tables the
/// converter adds, less the rows it cuts from Gemma 3's embedding. A
/// checkpoint with tensors the layout does not list is refused rather
/// than sized without them.
pub(crate) fn check_inventory(
    spec: &ModelSpec,
    layout: &Layout,
    elements: u64,
) -> Result<(), LlamaCppRefusal> {
    let extra = layout.rope_freqs + 2 * layout.rope_factors;
    let cut = spec.vocab_size.saturating_sub(layout.n_vocab) * spec.hidden_size;
    match elements.saturating_add(cut) == spec.params_total.saturating_add(extra) {
        true => Ok(()),
        false => Err(LlamaCppRefusal::UnsupportedLayout {
            model_type: spec.model_type.clone(),
            what: LayoutProblem::TensorCount,
        }),
    }
}
