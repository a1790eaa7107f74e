//! The model-wide dimensions read from a config: sizes, heads, head
//! dimension, vocabulary, storage type, MLA ranks. Each reader says under
//! which names its config class stores them ([`Keys`]).

use super::dtype::Dtype;
use super::error::ConfigError;
use super::family::{Family, Rules};
use super::json::Reader;
use serde::Serialize;

/// Largest accepted width (hidden size, vocabulary, MLP width, ...): 2²⁴.
pub(crate) const MAX_DIM: u64 = 1 << 24;
/// Largest accepted number of decoder layers.
pub(crate) const MAX_LAYERS: u64 = 1 << 14;
/// Largest accepted number of heads or experts.
pub(crate) const MAX_HEADS: u64 = 1 << 16;
/// Largest accepted context or window.
pub(crate) const MAX_CONTEXT: u64 = 1 << 40;

/// The names a config class gives its sizes: its `__init__` parameters
/// first, then the names its `attribute_map` redirects to them. The first
/// name is the one an error reports.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keys {
    pub hidden: &'static [&'static str],
    pub layers: &'static [&'static str],
    /// Empty for attention-free models.
    pub heads: &'static [&'static str],
    /// Empty when every head has its own keys and values.
    pub kv_heads: &'static [&'static str],
    pub vocab: &'static [&'static str],
    /// Width of a dense MLP; empty when the class derives it.
    pub intermediate: &'static [&'static str],
    /// Longest context (`max_position_embeddings`).
    pub context: &'static [&'static str],
    /// An explicit head dimension the modeling code honours; empty when it
    /// always uses `hidden / heads`.
    pub head_dim: &'static [&'static str],
}

impl Keys {
    /// The names of `LlamaConfig` and the many classes written like it.
    pub(crate) const STANDARD: Keys = Keys {
        hidden: &["hidden_size"],
        layers: &["num_hidden_layers"],
        heads: &["num_attention_heads"],
        kv_heads: &["num_key_value_heads"],
        vocab: &["vocab_size"],
        intermediate: &["intermediate_size"],
        context: &["max_position_embeddings"],
        head_dim: &["head_dim"],
    };

    /// GPT-2's names (`n_embd`, `n_layer`, `n_head`, `n_positions`,
    /// `n_inner`) with the `attribute_map` spellings after them.
    pub(crate) const GPT2: Keys = Keys {
        hidden: &["n_embd", "hidden_size"],
        layers: &["n_layer", "num_hidden_layers"],
        heads: &["n_head", "num_attention_heads"],
        kv_heads: &[],
        vocab: &["vocab_size"],
        intermediate: &["n_inner"],
        context: &["n_positions", "max_position_embeddings"],
        head_dim: &[],
    };
}

/// Multi-head latent attention (DeepSeek-V2/V3): keys and values are
/// rebuilt from one compressed latent per token.
///
/// Source: DeepSeek-V2 paper (arXiv:2405.04434) §2.1; `transformers`
/// `DeepseekV3Attention`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MlaSpec {
    /// Rank of the query compression; `None` when queries are projected
    /// directly (`q_lora_rank` null or absent, e.g. DeepSeek-V2-Lite).
    pub q_lora_rank: Option<u64>,
    /// Rank of the key/value latent (`kv_lora_rank`).
    pub kv_lora_rank: u64,
    /// Per-head query/key dimension without rotary embedding.
    pub qk_nope_head_dim: u64,
    /// Per-head query/key dimension with rotary embedding; the rotary key
    /// part is shared by all heads and cached next to the latent.
    pub qk_rope_head_dim: u64,
    /// Per-head value dimension.
    pub v_head_dim: u64,
}

impl MlaSpec {
    /// Elements cached per token per layer: `kv_lora_rank + qk_rope_head_dim`
    /// (512 + 64 = 576 for DeepSeek-V3), stored once, not as K and V.
    pub const fn latent(&self) -> u64 {
        self.kv_lora_rank + self.qk_rope_head_dim
    }

    /// Query/key head dimension: `qk_nope_head_dim + qk_rope_head_dim`.
    pub const fn qk_head_dim(&self) -> u64 {
        self.qk_nope_head_dim + self.qk_rope_head_dim
    }
}

/// Model-wide dimensions, validated.
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    pub family: Family,
    pub rules: Rules,
    pub hidden: u64,
    pub layers: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub vocab: u64,
    /// Width of a dense MLP layer, where the config gives one.
    pub intermediate: Option<u64>,
    pub max_context: Option<u64>,
    /// Rows of the learned position embedding (0 without one).
    pub positions: u64,
    /// Width of the token embedding and output head when it differs from
    /// the hidden size (OPT's `word_embed_proj_dim`, with projections in
    /// and out).
    pub embed_width: u64,
    pub tied: bool,
    pub mla: Option<MlaSpec>,
    pub dtype: Dtype,
    pub dtype_assumed: bool,
    /// Multi-token-prediction layers stored with the checkpoint.
    pub mtp_layers: u64,
    /// DeepSeek sparse attention's indexer in the MLA layers.
    pub indexer: Option<Indexer>,
    /// Gemma-3n's per-layer embeddings, AltUp and LAuReL blocks.
    pub gemma3n: Option<Gemma3nParts>,
    /// Width of a value head where it differs from `head_dim` (MiMo-V2).
    pub v_head_dim: Option<u64>,
    /// DeepSeek-V4's compressed attention, grouped output projection and
    /// hyper-connections.
    pub compressed: Option<CompressedParts>,
    /// Per-layer input embeddings (Gemma-4 `hidden_size_per_layer_input`):
    /// `(width per layer, vocabulary)`.
    pub per_layer_input: Option<(u64, u64)>,
    /// How the multi-token-prediction layers are stored (with
    /// `mtp_layers`).
    pub mtp: Option<MtpLayout>,
    /// Kimi-K3's parts beyond Kimi-Linear's.
    pub kimi_k3: Option<KimiK3Parts>,
}

/// Kimi-K3's text-model parts beyond Kimi-Linear's, each from its config
/// key (SGLang `models/kimi_k3.py`; see `arch/kimi.rs`). The latent experts'
/// width is the MoE's `latent` (`routed_expert_hidden_size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KimiK3Parts {
    /// `attn_res_block_size` set: attention residuals, two norms and two
    /// `1 × H` score projections per layer and one of each at the output.
    pub attn_residuals: bool,
    /// `mla_use_output_gate`: a `g_proj` of `H_q·d_v × H` in the MLA layers.
    pub mla_output_gate: bool,
    /// `linear_attn_config.use_full_rank_gate`: the KDA output gate is one
    /// `g_proj` of `h·d × H` instead of `g_a_proj`/`g_b_proj`.
    pub full_rank_gate: bool,
    /// `latent_moe_use_norm`: an RMSNorm of the latent width between the
    /// experts and the up projection.
    pub latent_norm: bool,
}

/// DeepSeek sparse attention's lightning indexer (`index_n_heads`,
/// `index_head_dim`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Indexer {
    pub heads: u64,
    pub head_dim: u64,
}

/// How one multi-token-prediction step is stored beside the model.
#[derive(Debug, Clone)]
pub(crate) struct MtpLayout {
    /// Vocabulary-sized matrices it stores of its own: 2 (embedding and
    /// head, DeepSeek-V3), 1 (a dedicated embedding, Qwen3.5
    /// `mtp_use_dedicated_embeddings`) or 0 (the model's, Qwen3-Next,
    /// Nemotron-H).
    pub vocab_matrices: u64,
    /// Its decoder blocks, in order (one layer like the model's last when
    /// empty).
    pub blocks: Vec<super::layers::Block>,
    /// Each block is one step of its own (Step-3.5: step `i` is layer
    /// `L + i` of `layer_types`), rather than every step holding all of
    /// them.
    pub per_step: bool,
    /// Parameters each step stores beyond its blocks, norms, projection
    /// and vocabulary matrices (DeepSeek-V4's hyper-connection head:
    /// `N × N·H + N + 1`).
    pub extra: u64,
}

/// DeepSeek-V4's layer parts beyond the sizes every decoder has.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompressedParts {
    /// `q_lora_rank`: queries go through a rank-`r_q` bottleneck.
    pub q_rank: u64,
    /// `o_groups` × `o_lora_rank`: the grouped output projection.
    pub o_groups: u64,
    pub o_rank: u64,
    /// `hc_mult`: hyper-connection streams.
    pub streams: u64,
    /// Ratio of the layers whose compressor overlaps windows and runs an
    /// indexer (`compressed_sparse_attention`, 4).
    pub sparse_ratio: u64,
    pub index: Indexer,
    /// The first layers route by a token → experts table (`hash_moe`).
    pub hash_layers: u64,
}

impl CompressedParts {
    /// Indexer key elements per compressed entry of a layer of `ratio`.
    pub(crate) fn index_width(&self, ratio: u64) -> u64 {
        match ratio == self.sparse_ratio {
            true => self.index.head_dim,
            false => 0,
        }
    }

    /// Compressor buffers one sequence keeps in a layer of `ratio`, head
    /// dimension `d`, indexer dimension `c`:
    ///
    /// ```text
    /// heavily compressed:  2·(m − 1)·d                 (pending keys and gates)
    /// sparse (overlapping): 2·(m − 1)·2d + 2·m·d       (pending, previous window)
    ///                     + 2·(m − 1)·2c + 2·m·c       (the indexer's own)
    /// ```
    ///
    /// Source: `transformers` `DeepseekV4HCACache.store_compression_weights`,
    /// `DeepseekV4CSACache.update_overlap_state`.
    pub(crate) fn state(&self, ratio: u64, d: u64) -> u64 {
        let pending = ratio.saturating_sub(1);
        let m = |xs: &[u64]| xs.iter().fold(1u64, |a, b| a.saturating_mul(*b));
        if ratio == self.sparse_ratio {
            let c = self.index.head_dim;
            [
                m(&[4, pending, d]),
                m(&[2, ratio, d]),
                m(&[4, pending, c]),
                m(&[2, ratio, c]),
            ]
            .iter()
            .fold(0u64, |a, b| a.saturating_add(*b))
        } else {
            m(&[2, pending, d])
        }
    }
}

/// The parts of a Gemma-3n text model beyond Gemma's layers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Gemma3nParts {
    /// `altup_num_inputs`: parallel streams of AltUp.
    pub altup: u64,
    /// `laurel_rank`: width of LAuReL's low-rank residual.
    pub laurel_rank: u64,
    /// `hidden_size_per_layer_input`.
    pub per_layer_hidden: u64,
    /// `vocab_size_per_layer_input`.
    pub per_layer_vocab: u64,
}

/// Collects required keys that are absent, so that all of them are named
/// in one error.
#[derive(Default)]
pub(crate) struct Missing(Vec<String>);

impl Missing {
    /// The value, or 0 after noting `key` as missing.
    pub(crate) fn need(&mut self, value: Option<u64>, key: &str) -> u64 {
        value.unwrap_or_else(|| {
            self.0.push(key.to_string());
            0
        })
    }

    /// An error naming every missing key, if any.
    pub(crate) fn check(self) -> Result<(), ConfigError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ConfigError::missing(self.0))
        }
    }
}

fn first(keys: &[&'static str]) -> &'static str {
    keys.first().copied().unwrap_or("")
}

/// Reads and validates the model-wide dimensions under `keys`, with the
/// reader's [`Rules`] (its tie default included).
pub(crate) fn read_with(
    r: &Reader,
    family: Family,
    keys: &Keys,
    rules: Rules,
) -> Result<Shape, ConfigError> {
    let mut missing = Missing::default();
    let hidden = r.dim(keys.hidden, MAX_DIM)?;
    let vocab = r.dim(keys.vocab, MAX_DIM)?;
    // No layer key: the reader counts the layers from its own list.
    let layers = match keys.layers.is_empty() {
        true => Some(0),
        false => r.dim(keys.layers, MAX_LAYERS)?,
    };
    let heads = match keys.heads.is_empty() {
        true => Some(0),
        false => r.dim(keys.heads, MAX_HEADS)?,
    };
    let hidden = missing.need(hidden, first(keys.hidden));
    let vocab = missing.need(vocab, first(keys.vocab));
    let layers = missing.need(layers, first(keys.layers));
    let heads = missing.need(heads, first(keys.heads));
    let mla = read_mla(r, &mut missing)?;
    missing.check()?;

    let kv_heads = match keys.kv_heads.is_empty() {
        true => heads,
        false => r.dim(keys.kv_heads, MAX_HEADS)?.unwrap_or(heads),
    };
    let head_dim = head_dim(r, keys, hidden, heads, mla)?;
    let (dtype, dtype_assumed) = dtype(r)?;
    Ok(Shape {
        family,
        rules,
        hidden,
        layers,
        heads,
        kv_heads,
        head_dim,
        vocab,
        intermediate: r.dim(keys.intermediate, MAX_DIM)?,
        max_context: r.dim(keys.context, MAX_CONTEXT)?,
        positions: 0,
        embed_width: hidden,
        tied: r.flag("tie_word_embeddings")?.unwrap_or(rules.tied_default),
        mla,
        dtype,
        dtype_assumed,
        mtp_layers: 0,
        indexer: None,
        gemma3n: None,
        v_head_dim: None,
        compressed: None,
        per_layer_input: None,
        mtp: None,
        kimi_k3: None,
    })
}

impl Shape {
    /// Grouped-query attention shares each key/value head among
    /// `heads / kv_heads` query heads, so `kv_heads` must divide `heads`.
    pub(crate) fn check_groups(&self, kv_key: &str) -> Result<(), ConfigError> {
        let (heads, kv) = (self.heads, self.kv_heads);
        if self.mla.is_some() || heads == 0 || (kv >= 1 && kv <= heads && heads.is_multiple_of(kv))
        {
            return Ok(());
        }
        Err(ConfigError::contradictory(
            &["num_attention_heads", kv_key],
            format!("{kv} key/value heads cannot be shared evenly by {heads} query heads"),
        ))
    }

    /// The width of a dense MLP, which the config must give.
    pub(crate) fn need_intermediate(&self, key: &str) -> Result<u64, ConfigError> {
        self.intermediate
            .ok_or_else(|| ConfigError::missing(vec![key.to_string()]))
    }
}

/// Head dimension `d_head`.
///
/// - MLA: `qk_nope_head_dim + qk_rope_head_dim` (the query/key width; a
///   `head_dim` key in such configs holds only the rotary part);
/// - an explicit `head_dim` wins where the modeling code reads one:
///   Qwen3-32B has `head_dim` 128 though 5120 / 64 = 80;
/// - else `hidden_size / num_attention_heads`, which must divide exactly.
fn head_dim(
    r: &Reader,
    keys: &Keys,
    hidden: u64,
    heads: u64,
    mla: Option<MlaSpec>,
) -> Result<u64, ConfigError> {
    if let Some(mla) = mla {
        return Ok(mla.qk_head_dim());
    }
    if heads == 0 {
        return Ok(0);
    }
    if let Some(d) = r.dim(keys.head_dim, MAX_DIM)? {
        return Ok(d);
    }
    if !hidden.is_multiple_of(heads) {
        return Err(ConfigError::contradictory(
            &[first(keys.hidden), first(keys.heads)],
            format!(
                "{} {hidden} is not a multiple of {} {heads} and there is no head_dim",
                first(keys.hidden),
                first(keys.heads)
            ),
        ));
    }
    Ok(hidden / heads)
}

/// The MLA ranks, when the config has `kv_lora_rank`.
fn read_mla(r: &Reader, missing: &mut Missing) -> Result<Option<MlaSpec>, ConfigError> {
    let Some(kv_lora_rank) = r.dim(&["kv_lora_rank"], MAX_DIM)? else {
        return Ok(None);
    };
    let rope = r.dim(&["qk_rope_head_dim"], MAX_DIM)?;
    let nope = r.dim(&["qk_nope_head_dim"], MAX_DIM)?;
    let v = r.dim(&["v_head_dim"], MAX_DIM)?;
    Ok(Some(MlaSpec {
        q_lora_rank: r.dim(&["q_lora_rank"], MAX_DIM)?,
        kv_lora_rank,
        qk_nope_head_dim: missing.need(nope, "qk_nope_head_dim"),
        qk_rope_head_dim: missing.need(rope, "qk_rope_head_dim"),
        v_head_dim: missing.need(v, "v_head_dim"),
    }))
}

/// Storage type: `torch_dtype` or `dtype`, the outer config's first (what
/// `save_pretrained` wrote the files in, and what vLLM reads before the
/// text config's; a nested `text_config` may keep a stale `float32`), then
/// the text model's. Without one the spec says the type was assumed
/// (bfloat16; readers of float32-era families assume float32).
fn dtype(r: &Reader) -> Result<(Dtype, bool), ConfigError> {
    for key in ["torch_dtype", "dtype"] {
        match r.get_outer(key) {
            Some(serde_json::Value::String(text)) if text != "auto" => {
                return Dtype::parse(key, text).map(|d| (d, false))
            }
            _ => {}
        }
    }
    for key in ["torch_dtype", "dtype"] {
        match r.text(key)? {
            Some("auto") | None => {}
            Some(text) => return Dtype::parse(key, text).map(|d| (d, false)),
        }
    }
    Ok((Dtype::Bf16, true))
}
