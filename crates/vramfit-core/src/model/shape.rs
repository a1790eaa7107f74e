//! The model-wide dimensions read from a config: sizes, heads, head
//! dimension, vocabulary, storage type, MLA ranks.

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

/// Spellings of the number of decoder layers (`n_layer`: GPT-2).
pub(crate) const LAYER_KEYS: [&str; 4] = ["num_hidden_layers", "n_layer", "num_layers", "n_layers"];
/// Per-layer lists whose length is the number of layers.
pub(crate) const LAYER_LISTS: [&str; 2] = ["layer_types", "layers_block_type"];
/// Per-layer pattern strings (Nemotron-H: one character per layer).
pub(crate) const LAYER_PATTERNS: [&str; 1] = ["hybrid_override_pattern"];

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
    pub tied: bool,
    /// `attention_bias`: biases on q, k, v and o.
    pub attention_bias: bool,
    /// `mlp_bias`: biases on every MLP projection.
    pub mlp_bias: bool,
    pub mla: Option<MlaSpec>,
    pub dtype: Dtype,
    pub dtype_assumed: bool,
    /// Multi-token-prediction layers stored with the checkpoint.
    pub mtp_layers: u64,
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

/// Reads and validates the model-wide dimensions.
pub(crate) fn read(r: &Reader, family: Family) -> Result<Shape, ConfigError> {
    let rules = Rules::of(family);
    let attention_free = matches!(family, Family::Mamba | Family::Mamba2);
    let mut missing = Missing::default();
    let hidden = r.dim(&["hidden_size", "n_embd", "d_model"], MAX_DIM)?;
    let vocab = r.dim(&["vocab_size", "n_vocab", "padded_vocab_size"], MAX_DIM)?;
    let layers = match r.dim(&LAYER_KEYS, MAX_LAYERS)? {
        Some(n) => Some(n),
        None => listed_layers(r)?,
    };
    let heads = match attention_free {
        true => Some(0),
        false => r.dim(&["num_attention_heads", "n_head", "n_heads"], MAX_HEADS)?,
    };
    let hidden = missing.need(hidden, "hidden_size");
    let vocab = missing.need(vocab, "vocab_size");
    let layers = missing.need(layers, "num_hidden_layers");
    let heads = missing.need(heads, "num_attention_heads");
    let mla = read_mla(r, &mut missing)?;
    missing.check()?;

    let kv_heads = kv_heads(r, heads)?;
    let head_dim = head_dim(r, family, hidden, heads, mla)?;
    check_groups(heads, kv_heads, mla)?;
    let (dtype, dtype_assumed) = dtype(r, family)?;
    Ok(Shape {
        family,
        rules,
        hidden,
        layers,
        heads,
        kv_heads,
        head_dim,
        vocab: padded_vocab(r, vocab)?,
        intermediate: intermediate(r, family, hidden)?,
        max_context: r.dim(
            &[
                "max_position_embeddings",
                "n_positions",
                "n_ctx",
                "max_sequence_length",
                "seq_length",
            ],
            1 << 40,
        )?,
        positions: positions(r, rules)?,
        tied: r.flag("tie_word_embeddings")?.unwrap_or(rules.tied_default),
        attention_bias: r.flag("attention_bias")?.unwrap_or(false),
        mlp_bias: r.flag("mlp_bias")?.unwrap_or(false),
        mla,
        dtype,
        dtype_assumed,
        mtp_layers: r
            .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
            .unwrap_or(0),
    })
}

/// Number of layers from a per-layer list or pattern, when no count is given.
fn listed_layers(r: &Reader) -> Result<Option<u64>, ConfigError> {
    for key in LAYER_LISTS {
        if let Some(list) = r.text_list(key)? {
            return cap_layers(key, list.len() as u64);
        }
    }
    for key in LAYER_PATTERNS {
        if let Some(pattern) = r.text(key)? {
            return cap_layers(key, pattern.chars().count() as u64);
        }
    }
    Ok(None)
}

fn cap_layers(key: &str, n: u64) -> Result<Option<u64>, ConfigError> {
    if (1..=MAX_LAYERS).contains(&n) {
        Ok(Some(n))
    } else {
        Err(ConfigError::out_of_range(key, format!("{n} layers")))
    }
}

/// Key/value heads: `num_key_value_heads` (or a synonym); one when
/// `multi_query` is true; otherwise as many as query heads (multi-head
/// attention).
fn kv_heads(r: &Reader, heads: u64) -> Result<u64, ConfigError> {
    let keys = [
        "num_key_value_heads",
        "num_kv_heads",
        "n_head_kv",
        "multi_query_group_num",
    ];
    if let Some(kv) = r.dim(&keys, MAX_HEADS)? {
        return Ok(kv);
    }
    Ok(match r.flag("multi_query")? {
        Some(true) => 1,
        _ => heads,
    })
}

/// Head dimension `d_head`.
///
/// - MLA: `qk_nope_head_dim + qk_rope_head_dim` (the query/key width; a
///   `head_dim` key in such configs holds only the rotary part);
/// - an explicit `head_dim` (or `attention_head_dim`) wins: Qwen3-32B has
///   `head_dim` 128 though 5120 / 64 = 80;
/// - else `hidden_size / num_attention_heads`, which must divide exactly.
fn head_dim(
    r: &Reader,
    family: Family,
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
    // Mamba-2's `head_dim` is the SSM head width, not an attention one.
    if family != Family::Mamba2 {
        if let Some(d) = r.dim(&["head_dim", "attention_head_dim"], MAX_DIM)? {
            return Ok(d);
        }
    }
    if !hidden.is_multiple_of(heads) {
        return Err(ConfigError::contradictory(
            &["hidden_size", "num_attention_heads"],
            format!(
                "hidden_size {hidden} is not a multiple of num_attention_heads {heads} \
                 and there is no head_dim"
            ),
        ));
    }
    Ok(hidden / heads)
}

/// Grouped-query attention shares each key/value head among
/// `heads / kv_heads` query heads, so `kv_heads` must divide `heads`.
fn check_groups(heads: u64, kv_heads: u64, mla: Option<MlaSpec>) -> Result<(), ConfigError> {
    if mla.is_some() || heads == 0 || (kv_heads <= heads && heads.is_multiple_of(kv_heads)) {
        return Ok(());
    }
    Err(ConfigError::contradictory(
        &["num_attention_heads", "num_key_value_heads"],
        format!("{kv_heads} key/value heads cannot be shared evenly by {heads} query heads"),
    ))
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

/// Width of a dense MLP: `intermediate_size_mlp` (Llama-4, whose
/// `intermediate_size` is the expert width), `intermediate_size`, GPT-2's
/// `n_inner`; GPT-2 without `n_inner` uses `4 × n_embd`.
fn intermediate(r: &Reader, family: Family, hidden: u64) -> Result<Option<u64>, ConfigError> {
    let keys = [
        "intermediate_size_mlp",
        "intermediate_size",
        "n_inner",
        "ffn_dim",
        "ffn_hidden_size",
    ];
    let width = r.dim(&keys, MAX_DIM)?;
    let gpt2_style = family == Family::Gpt2 || r.has(&["n_embd"]);
    Ok(width.or(gpt2_style.then(|| hidden.saturating_mul(4))))
}

/// Rows of GPT-2's learned position embedding (`n_positions`).
fn positions(r: &Reader, rules: Rules) -> Result<u64, ConfigError> {
    if !rules.learned_positions {
        return Ok(0);
    }
    let rows = r.dim(
        &["n_positions", "max_position_embeddings", "n_ctx"],
        MAX_DIM,
    )?;
    rows.ok_or_else(|| ConfigError::missing(vec!["n_positions".to_string()]))
}

/// `vocab_size` rounded up to `pad_vocab_size_multiple` where a config
/// asks for it (original Mamba checkpoints).
fn padded_vocab(r: &Reader, vocab: u64) -> Result<u64, ConfigError> {
    match r.dim(&["pad_vocab_size_multiple"], MAX_DIM)? {
        Some(m) => Ok(vocab.div_ceil(m).saturating_mul(m)),
        None => Ok(vocab),
    }
}

/// Storage type: `torch_dtype` or `dtype` (text model first). Without one,
/// GPT-2-era checkpoints are float32 and later ones bfloat16; the spec
/// then says the type was assumed.
fn dtype(r: &Reader, family: Family) -> Result<(Dtype, bool), ConfigError> {
    for key in ["torch_dtype", "dtype"] {
        match r.text(key)? {
            Some("auto") | None => {}
            Some(text) => return Dtype::parse(key, text).map(|d| (d, false)),
        }
    }
    let assumed = match family {
        Family::Gpt2 => Dtype::F32,
        _ => Dtype::Bf16,
    };
    Ok((assumed, true))
}
