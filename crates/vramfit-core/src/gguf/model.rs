//! A GGUF file as a model: its tensors exactly as the file lists them
//! (each with its own type: unsloth's dynamic quants, imatrix mixes) and
//! its shape from the metadata llama.cpp itself reads
//! (`src/llama-model.cpp`, `load_hparams`: `{arch}.block_count`,
//! `{arch}.attention.head_count_kv`, `{arch}.attention.sliding_window`, …).
//!
//! The shape is written as the `config.json` the model reader takes
//! ([`GgufModel::config`]), so every method reads a file as it reads a
//! checkpoint, and the `llamacpp` method sizes the file's own tensors
//! instead of a `llama-quantize` recipe. Only the architectures whose keys
//! are mapped here are read; any other is refused by name.

use super::ftype::FileType;
use super::ggml_type::GgmlType;
use super::header::{GgufError, GgufHeader};
use super::split::{merge, SplitError};
use super::value::Value;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};

/// One tensor of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTensor {
    pub name: String,
    pub ggml_type: GgmlType,
    /// ggml's `ne` (`ne[0]` the row length), 1 to 4 entries.
    pub ne: Vec<u64>,
    /// Bytes of its data.
    pub bytes: u64,
}

/// A GGUF file read from its header(s).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GgufModel {
    /// The file's name (the first shard's for a split file), as
    /// `llama-server -m` takes it.
    pub file: String,
    /// `general.name`.
    pub name: Option<String>,
    /// `general.architecture`.
    pub architecture: String,
    /// `general.file_type` as a `llama-quantize` type, where it is one.
    pub file_type: Option<FileType>,
    /// Shards the file was split into (1: a whole file).
    pub shards: u64,
    /// The shape as a Hugging Face `config.json`.
    pub config: String,
    /// Every tensor, in the file's order.
    pub tensors: Vec<FileTensor>,
    /// The vision projector loaded with it (`--mmproj`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mmproj: Option<Projector>,
}

/// A multimodal projector file (`mmproj-*.gguf`, architecture `clip`):
/// the vision encoder and projector `llama-server --mmproj` loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Projector {
    /// The file's name.
    pub file: String,
    /// `clip.projector_type` (`gemma3`, `qwen2.5vl_merger`, `mlp`, …).
    pub projector_type: Option<String>,
    pub tensors: u64,
    /// Bytes of its tensors: the buffer it takes.
    pub bytes: u64,
    /// The vision encoder's shape (`clip.vision.*`), where the file has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vision: Option<ClipVision>,
    /// Every tensor, in the file's order: the encoder's graph reads which
    /// of them the file has and their shapes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tensor_list: Vec<FileTensor>,
}

/// The vision hyperparameters `tools/mtmd/clip.cpp` (`load_hparams`) reads
/// from a projector file (`clip.vision.embedding_length`, …); 0 where the
/// file states none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ClipVision {
    pub n_embd: u64,
    pub n_head: u64,
    pub n_ff: u64,
    pub n_layer: u64,
    pub projection_dim: u64,
    pub image_size: u64,
    pub patch_size: u64,
    /// `clip.vision.projector.scale_factor` (Gemma 3, Idefics 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_factor: Option<u64>,
    /// `clip.vision.spatial_merge_size` (Qwen-VL, Mistral 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spatial_merge_size: Option<u64>,
    /// `clip.vision.n_wa_pattern`: every n-th layer full attention, the
    /// others windowed (Qwen 2.5-VL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_wa_pattern: Option<u64>,
    /// `clip.vision.feature_layer`: the layers whose output is kept (LLaVA
    /// variants); empty: none stated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feature_layers: Vec<u64>,
    /// `clip.use_gelu` / `clip.use_silu`.
    #[serde(default)]
    pub use_gelu: bool,
    #[serde(default)]
    pub use_silu: bool,
}

/// The projector of an `mmproj` file from its header(s), or why it is not
/// one (another architecture than `clip`).
pub fn projector(file: &str, shards: &[GgufHeader]) -> Result<Projector, GgufModelError> {
    let tensors = merge(shards).map_err(GgufModelError::Split)?;
    let first = shards.first().ok_or(GgufModelError::NoArchitecture)?;
    let arch = first
        .get("general.architecture")
        .and_then(Value::as_str)
        .ok_or(GgufModelError::NoArchitecture)?;
    if arch != "clip" {
        return Err(GgufModelError::NotProjector {
            name: arch.to_string(),
        });
    }
    let num = |k: &str| first.get(k).and_then(Value::as_u64);
    let flag = |k: &str| matches!(first.get(k), Some(Value::Bool(true)));
    let vision = num("clip.vision.embedding_length").map(|n_embd| ClipVision {
        n_embd,
        n_head: num("clip.vision.attention.head_count").unwrap_or(0),
        n_ff: num("clip.vision.feed_forward_length").unwrap_or(0),
        n_layer: num("clip.vision.block_count").unwrap_or(0),
        projection_dim: num("clip.vision.projection_dim").unwrap_or(0),
        image_size: num("clip.vision.image_size").unwrap_or(0),
        patch_size: num("clip.vision.patch_size").unwrap_or(0),
        scale_factor: num("clip.vision.projector.scale_factor"),
        spatial_merge_size: num("clip.vision.spatial_merge_size"),
        n_wa_pattern: num("clip.vision.n_wa_pattern"),
        feature_layers: first
            .get("clip.vision.feature_layer")
            .and_then(Value::as_array)
            .map_or(Vec::new(), |a| a.iter().filter_map(Value::as_u64).collect()),
        use_gelu: flag("clip.use_gelu"),
        use_silu: flag("clip.use_silu"),
    });
    let projector_type = first
        .get("clip.projector_type")
        .or_else(|| first.get("clip.vision.projector_type"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Projector {
        file: last_part(file),
        projector_type,
        tensors: tensors.len() as u64,
        bytes: crate::units::sum(tensors.iter().map(|t| t.bytes)),
        vision,
        tensor_list: tensors
            .into_iter()
            .map(|t| FileTensor {
                name: t.name,
                ggml_type: t.ggml_type,
                ne: t.shape,
                bytes: t.bytes,
            })
            .collect(),
    })
}

/// The last part of a path or URL.
fn last_part(file: &str) -> String {
    file.rsplit(['/', '\\'])
        .find(|p| !p.is_empty())
        .unwrap_or(file)
        .to_string()
}

impl GgufModel {
    /// Bytes of all tensors: what llama.cpp prints as `model size`.
    pub fn tensor_bytes(&self) -> u64 {
        crate::units::sum(self.tensors.iter().map(|t| t.bytes))
    }

    /// Tensors and bytes per type, in the table's order.
    pub fn type_counts(&self) -> Vec<(GgmlType, u64, u64)> {
        let mut out: Vec<(GgmlType, u64, u64)> = Vec::new();
        for t in &self.tensors {
            match out.iter_mut().find(|c| c.0 == t.ggml_type) {
                Some(c) => {
                    c.1 += 1;
                    c.2 = c.2.saturating_add(t.bytes);
                }
                None => out.push((t.ggml_type, 1, t.bytes)),
            }
        }
        out.sort_by_key(|c| c.0);
        out
    }
}

/// Why a file is not read as a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum GgufModelError {
    Header(GgufError),
    Split(SplitError),
    /// No `general.architecture`.
    NoArchitecture,
    /// An architecture whose keys are not mapped.
    Architecture {
        name: String,
    },
    /// A key llama.cpp requires of the architecture is absent (or not a
    /// number).
    MissingKey {
        key: String,
    },
    /// A per-layer array whose values differ, which the mapped
    /// architectures do not have.
    PerLayer {
        key: String,
    },
    /// A layer count of none, or more than any model has (2^14).
    Layers {
        value: u64,
    },
    /// An `--mmproj` file of another architecture than `clip`.
    NotProjector {
        name: String,
    },
}

impl std::fmt::Display for GgufModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GgufModelError::Header(e) => e.fmt(f),
            GgufModelError::Split(e) => e.fmt(f),
            GgufModelError::NoArchitecture => {
                f.write_str("the file states no general.architecture")
            }
            GgufModelError::Architecture { name } => write!(
                f,
                "GGUF architecture `{name}` is not read (read: {})",
                ARCHITECTURES.join(", ")
            ),
            GgufModelError::MissingKey { key } => write!(f, "the file has no number `{key}`"),
            GgufModelError::PerLayer { key } => {
                write!(f, "`{key}` differs from layer to layer, which is not read")
            }
            GgufModelError::NotProjector { name } => {
                write!(f, "a projector file is a `clip` GGUF, not `{name}`")
            }
            GgufModelError::Layers { value } => {
                write!(f, "the file states {value} blocks (1 to 16,384 are read)")
            }
        }
    }
}

impl std::error::Error for GgufModelError {}

/// Blocks a file may state (the model reader's own bound).
const MAX_BLOCKS: u64 = 1 << 14;

/// The architectures read, by GGUF name.
pub const ARCHITECTURES: [&str; 12] = [
    "llama",
    "qwen2",
    "qwen2moe",
    "qwen3",
    "qwen3moe",
    "gemma",
    "gemma2",
    "gemma3",
    "gpt-oss",
    "phi3",
    "olmo2",
    "deepseek2",
];

/// The model of the file named `file` (a path or URL: its last part is
/// kept) from its shards' headers (one header for a whole file), or why it
/// is not read.
pub fn read(file: &str, shards: &[GgufHeader]) -> Result<GgufModel, GgufModelError> {
    let tensors = merge(shards).map_err(GgufModelError::Split)?;
    let first = shards.first().ok_or(GgufModelError::NoArchitecture)?;
    let architecture = first
        .get("general.architecture")
        .and_then(Value::as_str)
        .ok_or(GgufModelError::NoArchitecture)?
        .to_string();
    if !ARCHITECTURES.contains(&architecture.as_str()) {
        return Err(GgufModelError::Architecture { name: architecture });
    }
    let tensors: Vec<FileTensor> = tensors
        .into_iter()
        .map(|t| FileTensor {
            name: t.name,
            ggml_type: t.ggml_type,
            ne: t.shape,
            bytes: t.bytes,
        })
        .collect();
    let meta = Meta {
        h: first,
        arch: &architecture,
    };
    let config = config(&meta, &tensors)?;
    Ok(GgufModel {
        file: last_part(file),
        name: first
            .get("general.name")
            .and_then(Value::as_str)
            .map(str::to_string),
        file_type: first
            .get("general.file_type")
            .and_then(Value::as_u64)
            .and_then(FileType::from_llama_ftype),
        shards: shards.len() as u64,
        config: Json::Object(config).to_string(),
        architecture,
        tensors,
        mmproj: None,
    })
}

/// The header's metadata under the architecture's prefix.
struct Meta<'a> {
    h: &'a GgufHeader,
    arch: &'a str,
}

impl Meta<'_> {
    fn key(&self, suffix: &str) -> String {
        format!("{}.{suffix}", self.arch)
    }

    /// A number, or one per layer all alike.
    fn opt(&self, suffix: &str) -> Result<Option<u64>, GgufModelError> {
        let key = self.key(suffix);
        let Some(v) = self.h.get(&key) else {
            return Ok(None);
        };
        if let Some(list) = v.as_array() {
            let nums: Vec<Option<u64>> = list.iter().map(Value::as_u64).collect();
            return match nums.first() {
                Some(Some(n)) if nums.iter().all(|m| *m == Some(*n)) => Ok(Some(*n)),
                _ => Err(GgufModelError::PerLayer { key }),
            };
        }
        v.as_u64()
            .map(Some)
            .ok_or(GgufModelError::MissingKey { key })
    }

    fn req(&self, suffix: &str) -> Result<u64, GgufModelError> {
        self.opt(suffix)?.ok_or_else(|| GgufModelError::MissingKey {
            key: self.key(suffix),
        })
    }
}

/// The Hugging Face `model_type` each architecture converts from.
fn model_type(arch: &str, experts: bool) -> &'static str {
    // `experts`: routed experts (Mixtral), or DeepSeek's router bias.
    match arch {
        "llama" if experts => "mixtral",
        "qwen2" => "qwen2",
        "qwen2moe" => "qwen2_moe",
        "qwen3" => "qwen3",
        "qwen3moe" => "qwen3_moe",
        "gemma" => "gemma",
        "gemma2" => "gemma2",
        "olmo2" => "olmo2",
        // V3's sigmoid router with a bias; V2's softmax.
        "deepseek2" if experts => "deepseek_v3",
        "deepseek2" => "deepseek_v2",
        "gemma3" => "gemma3_text",
        "gpt-oss" => "gpt_oss",
        "phi3" => "phi3",
        _ => "llama",
    }
}

/// llama.cpp's sliding-window pattern of an architecture: layer `i` slides
/// when `i mod n < n − 1` (`llama_hparams::set_swa_pattern`; Gemma 2 and
/// gpt-oss 2, Gemma 3 6, in `load_hparams`), unless the file states
/// `{arch}.attention.sliding_window_pattern`.
fn swa_pattern(m: &Meta) -> Result<Option<Vec<bool>>, GgufModelError> {
    let n_layer = m.req("block_count")?;
    if n_layer == 0 || n_layer > MAX_BLOCKS {
        return Err(GgufModelError::Layers { value: n_layer });
    }
    if m.opt("attention.sliding_window")?.is_none() {
        return Ok(None);
    }
    let key = m.key("attention.sliding_window_pattern");
    if let Some(list) = m.h.get(&key).and_then(Value::as_array) {
        let flags: Option<Vec<bool>> = list
            .iter()
            .map(|v| {
                if let Value::Bool(b) = v {
                    return Some(*b);
                }
                None
            })
            .collect();
        return flags.map(Some).ok_or(GgufModelError::MissingKey { key });
    }
    let n = match m.opt("attention.sliding_window_pattern")? {
        Some(n) => n,
        None => match m.arch {
            "gemma2" | "gpt-oss" => 2,
            "gemma3" => 6,
            _ => return Ok(None),
        },
    };
    Ok(Some((0..n_layer).map(|i| n > 0 && i % n < n - 1).collect()))
}

/// The shape as `config.json` keys.
fn config(m: &Meta, tensors: &[FileTensor]) -> Result<Map<String, Json>, GgufModelError> {
    let has = |name: &str| tensors.iter().any(|t| t.name == name);
    let n_embd = m.req("embedding_length")?;
    let n_head = m.req("attention.head_count")?;
    let n_expert = m.opt("expert_count")?.unwrap_or(0);
    let vocab = vocab_size(m, tensors)?;
    let mut c = Map::new();
    let mut put = |k: &str, v: Json| {
        c.insert(k.to_string(), v);
    };
    let deepseek = m.arch == "deepseek2";
    let flag = match deepseek {
        true => tensors.iter().any(|t| t.name.ends_with("exp_probs_b.bias")),
        false => n_expert > 0,
    };
    put("model_type", json!(model_type(m.arch, flag)));
    put("hidden_size", json!(n_embd));
    put("num_hidden_layers", json!(m.req("block_count")?));
    put("num_attention_heads", json!(n_head));
    match deepseek {
        // The file's MLA keys; llama.cpp caches one latent row, whatever
        // the config's KV heads.
        true => {
            put("num_key_value_heads", json!(n_head));
            latent(m, &mut put)?;
        }
        false => {
            put(
                "num_key_value_heads",
                json!(m.opt("attention.head_count_kv")?.unwrap_or(n_head)),
            );
            if let Some(d) = m.opt("attention.key_length")? {
                put("head_dim", json!(d));
            }
        }
    }
    put("vocab_size", json!(vocab));
    put("max_position_embeddings", json!(m.req("context_length")?));
    put("tie_word_embeddings", json!(!has("output.weight")));
    if let Some(ff) = m.opt("feed_forward_length")? {
        put("intermediate_size", json!(ff));
    }
    if let Some(w) = m.opt("attention.sliding_window")? {
        put("sliding_window", json!(w));
    }
    if let Some(p) = swa_pattern(m)? {
        let names: Vec<&str> = p
            .iter()
            .map(|s| match s {
                true => "sliding_attention",
                false => "full_attention",
            })
            .collect();
        put("layer_types", json!(names));
    }
    if n_expert > 0 {
        experts(m, n_expert, &mut put)?;
    }
    if m.arch == "qwen2" || m.arch == "qwen2moe" {
        put("qkv_bias", json!(has("blk.0.attn_q.bias")));
    }
    Ok(c)
}

/// The expert keys of each MoE architecture's config.
fn experts(
    m: &Meta,
    n_expert: u64,
    put: &mut impl FnMut(&str, Json),
) -> Result<(), GgufModelError> {
    let used = m.req("expert_used_count")?;
    put("num_experts_per_tok", json!(used));
    match m.arch {
        "qwen2moe" | "qwen3moe" => {
            put("num_experts", json!(n_expert));
            put(
                "moe_intermediate_size",
                json!(m.req("expert_feed_forward_length")?),
            );
            if let Some(s) = m.opt("expert_shared_feed_forward_length")? {
                put("shared_expert_intermediate_size", json!(s));
            }
        }
        "gpt-oss" => {
            put("num_local_experts", json!(n_expert));
            put("experts_per_token", json!(used));
            if let Some(ff) = m.opt("expert_feed_forward_length")? {
                put("intermediate_size", json!(ff));
            }
        }
        "deepseek2" => {
            let ff = m.req("expert_feed_forward_length")?;
            put("n_routed_experts", json!(n_expert));
            put("moe_intermediate_size", json!(ff));
            put(
                "n_shared_experts",
                json!(m.opt("expert_shared_count")?.unwrap_or(0)),
            );
            put(
                "first_k_dense_replace",
                json!(m.opt("leading_dense_block_count")?.unwrap_or(0)),
            );
            put("moe_layer_freq", json!(1));
        }
        _ => put("num_local_experts", json!(n_expert)),
    }
    Ok(())
}

/// DeepSeek's latent attention from the file: `kv_lora_rank`,
/// `q_lora_rank` (absent: queries projected directly), the rotary part
/// (`rope.dimension_count`) and the per-head key and value widths
/// (`key_length_mla` / `value_length_mla`, which converters since the
/// absorbed-MLA layout write; `key_length` / `value_length` before).
fn latent(m: &Meta, put: &mut impl FnMut(&str, Json)) -> Result<(), GgufModelError> {
    let rope = m.req("rope.dimension_count")?;
    let key = match m.opt("attention.key_length_mla")? {
        Some(k) => k,
        None => m.req("attention.key_length")?,
    };
    let value = match m.opt("attention.value_length_mla")? {
        Some(v) => v,
        None => m.req("attention.value_length")?,
    };
    put("kv_lora_rank", json!(m.req("attention.kv_lora_rank")?));
    let q_rank = m.opt("attention.q_lora_rank")?.filter(|&r| r > 0);
    put("q_lora_rank", json!(q_rank));
    put("qk_rope_head_dim", json!(rope));
    put("qk_nope_head_dim", json!(key.saturating_sub(rope)));
    put("v_head_dim", json!(value));
    Ok(())
}

/// Tokens of the vocabulary: the tokenizer's list (what llama.cpp's
/// `n_vocab` counts), else `{arch}.vocab_size`, else `token_embd`'s rows.
fn vocab_size(m: &Meta, tensors: &[FileTensor]) -> Result<u64, GgufModelError> {
    if let Some(list) = m.h.get("tokenizer.ggml.tokens").and_then(Value::as_array) {
        return Ok(list.len() as u64);
    }
    if let Some(n) = m.opt("vocab_size")? {
        return Ok(n);
    }
    tensors
        .iter()
        .find(|t| t.name == "token_embd.weight")
        .and_then(|t| t.ne.get(1).copied())
        .ok_or(GgufModelError::MissingKey {
            key: "tokenizer.ggml.tokens".to_string(),
        })
}
