//! The model as the planner sees it: seed 002's symbols `P`, `U`, `U32`,
//! `L`, `H`, `V`, heads and the attention kind of every layer, from a
//! catalog model / `config.json`, or from typed numbers plus the custom
//! model knobs ("modelo personalizado").

use crate::methods::refusal::{Feature, Refusal};
use crate::model::{AttentionKind, Family};
use crate::scenario::PlannerSettings;
use crate::scenario::Scenario;
use std::borrow::Cow;

/// Seed 002's symbols for one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Dims<'a> {
    /// `P`: all parameters.
    pub params: u64,
    /// `U`: parameters kept unquantized (BF16).
    pub unquantized: u64,
    /// `U32`: the part of `U` kept in FP32.
    pub fp32: u64,
    /// `L`: decoder layers.
    pub layers: u64,
    /// `H`: hidden size.
    pub hidden: u64,
    /// `V`: vocabulary.
    pub vocab: u64,
    /// Query heads.
    pub q_heads: u64,
    /// Key/value heads (MHA: the query heads; MQA: one).
    pub kv_heads: u64,
    /// Key/value heads of each layer where they differ (Nemotron-NAS).
    pub kv_heads_by_layer: Option<Cow<'a, [u64]>>,
    /// Elements one key/value head caches per token in each layer where
    /// they differ from `2 × head_dim` (Gemma-4, MiMo-V2).
    pub kv_dims_by_layer: Option<Cow<'a, [u64]>>,
    pub head_dim: u64,
    /// Attention kind of each layer (all full for a custom model).
    pub attention: Cow<'a, [AttentionKind]>,
    /// GPT-OSS: at 4 bits, at least 6.25 % of scales.
    pub gpt_oss: bool,
    /// Mixture of experts (all experts resident).
    pub moe: bool,
    /// Typed numbers, not a catalog model or config.
    pub custom: bool,
}

impl Dims<'_> {
    /// The symbols of a scenario's model. A custom model needs its hidden
    /// size and vocabulary (activations, logits and `U` read them); linear
    /// or state-space layers are outside the seed ("no hay atención
    /// lineal").
    pub fn of<'s>(s: &'s Scenario, k: &PlannerSettings) -> Result<Dims<'s>, Refusal> {
        let dims = match s.model.as_deref() {
            Some(m) => {
                // A recurrent state beside attention (Falcon-H1) is a
                // linear layer too.
                let linear = m.side_state > 0
                    || m.attention
                        .iter()
                        .any(|a| matches!(a, AttentionKind::Linear { .. }));
                if linear {
                    return Err(Refusal::Feature(Feature::LinearLayers));
                }
                // Windows plus pooled entries (DeepSeek-V4) are outside
                // the seed's cache formula.
                if m.attention
                    .iter()
                    .any(|a| matches!(a, AttentionKind::Compressed { .. }))
                {
                    return Err(Refusal::Feature(Feature::CompressedAttention));
                }
                Dims {
                    // The text model and the vision tower an engine loads.
                    params: s.params,
                    unquantized: k
                        .unquantized_params
                        .unwrap_or(m.params.embedding.saturating_add(m.params.lm_head)),
                    fp32: k.fp32_params,
                    layers: m.num_layers,
                    hidden: m.hidden_size,
                    vocab: m.vocab_size,
                    q_heads: m.num_attention_heads,
                    kv_heads: m.num_kv_heads,
                    kv_heads_by_layer: m.kv_heads_by_layer.as_deref().map(Cow::Borrowed),
                    kv_dims_by_layer: m.kv_dims_by_layer.as_deref().map(Cow::Borrowed),
                    head_dim: m.head_dim,
                    attention: Cow::Borrowed(&m.attention),
                    gpt_oss: m.family == Family::GptOss,
                    moe: m.moe.is_some(),
                    custom: false,
                }
            }
            None => {
                let (Some(hidden), Some(vocab)) = (k.hidden_size, k.vocab_size) else {
                    return Err(Refusal::NeedsModel);
                };
                // The seed's presumption for untied embeddings and output
                // head in BF16: U ≈ 2 × V × H.
                let two_vh = 2u64.saturating_mul(vocab).saturating_mul(hidden);
                Dims {
                    params: s.params,
                    unquantized: k.unquantized_params.unwrap_or(two_vh),
                    fp32: k.fp32_params,
                    layers: s.layers,
                    hidden,
                    vocab,
                    q_heads: k
                        .attention_heads
                        .unwrap_or((hidden / s.head_dim.max(1)).max(1)),
                    kv_heads: s.kv_heads,
                    kv_heads_by_layer: None,
                    kv_dims_by_layer: None,
                    head_dim: s.head_dim,
                    attention: Cow::Owned(vec![AttentionKind::Full; s.layers as usize]),
                    gpt_oss: false,
                    moe: false,
                    custom: true,
                }
            }
        };
        Ok(dims)
    }

    /// `P − U`: the body (every decoder layer's weights).
    pub fn body_params(&self) -> u64 {
        self.params.saturating_sub(self.unquantized)
    }

    /// Whether any layer caches the compressed MLA latent.
    pub fn has_mla(&self) -> bool {
        self.attention.iter().any(|a| {
            matches!(
                a,
                AttentionKind::Mla { .. } | AttentionKind::SparseMla { .. }
            )
        })
    }

    /// Whether any layer attends within a window or chunk.
    pub fn has_window(&self) -> bool {
        self.attention.iter().any(|a| {
            matches!(
                a,
                AttentionKind::SlidingWindow { .. } | AttentionKind::Chunked { .. }
            )
        })
    }
}

#[cfg(test)]
impl Dims<'static> {
    /// A custom dense model for tests: 8 × 10⁹ parameters, 32 layers of
    /// full attention, H = 4,096, V = 128,000, 32 query and 8 KV heads of
    /// 128. Tests override the fields they exercise.
    pub(crate) fn test_8b() -> Dims<'static> {
        Dims {
            params: 8_000_000_000,
            unquantized: 0,
            fp32: 0,
            layers: 32,
            hidden: 4096,
            vocab: 128_000,
            q_heads: 32,
            kv_heads: 8,
            kv_heads_by_layer: None,
            kv_dims_by_layer: None,
            head_dim: 128,
            attention: Cow::Owned(vec![AttentionKind::Full; 32]),
            gpt_oss: false,
            moe: false,
            custom: true,
        }
    }
}
