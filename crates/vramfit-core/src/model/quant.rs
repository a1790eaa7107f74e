//! Quantized checkpoints (`quantization_config`): which tensors are stored
//! in a narrow format, and the bytes of the checkpoint as published.

use super::dtype::Dtype;
use super::error::ConfigError;
use super::json::{as_uint, Reader};
use super::layers::Plan;
use super::params::{for_each_tensor, Arch, Group, ParamGroups, Tensor};
use crate::units::bytes_for_bits;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Bytes of one fp32 scale.
const F32_BYTES: u64 = 4;
/// MXFP4 block: 32 values share one 8-bit (E8M0) scale.
const MXFP4_BLOCK: u64 = 32;

/// The checkpoint's quantization, as its config states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quantization {
    /// `quant_method` as written (`"fp8"`, `"mxfp4"`, ...).
    pub method: String,
    pub scheme: QuantScheme,
    /// Module patterns kept at the checkpoint dtype
    /// (`modules_to_not_convert`), as written.
    pub not_converted: Vec<String>,
    /// One fp32 input scale per quantized projection
    /// (`activation_scheme: "static"`).
    pub static_activation_scales: bool,
}

/// Storage formats vramfit can size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuantScheme {
    /// FP8 weights, 1 byte each, plus one fp32 scale per `rows × cols`
    /// tile of each matrix (`weight_block_size`, e.g. 128 × 128).
    Fp8Block { rows: u64, cols: u64 },
    /// FP8 weights with one fp32 scale per matrix.
    Fp8Tensor,
    /// FP8 weights with one fp32 scale per output row (`fbgemm_fp8`).
    Fp8Channel,
    /// MXFP4 experts (gpt-oss): 4-bit values plus one 8-bit scale per 32
    /// values along the input dimension, 4.25 bits per weight.
    Mxfp4,
    /// Integer weights in groups along the input dimension (GPTQ, AWQ):
    /// `bits` per weight, one fp16 scale per group, packed zero points,
    /// and for GPTQ one int32 group index per input feature.
    /// `group_size` 0 means one group per row.
    IntGroup {
        bits: u64,
        group_size: u64,
        zero_points: bool,
        group_index: bool,
    },
    /// A method vramfit cannot size; its tensors are counted at the
    /// checkpoint dtype.
    Unknown,
}

impl QuantScheme {
    /// Whether this scheme stores tensors of `group` in its format.
    /// FP8 and integer schemes convert the projections of attention, MLPs
    /// and experts; MXFP4 (gpt-oss) only the experts. Embeddings, the
    /// output head, routers and norms stay at the checkpoint dtype.
    fn converts(self, group: Group) -> bool {
        let projections = matches!(
            group,
            Group::Attention | Group::DenseMlp | Group::RoutedExperts | Group::SharedExperts
        );
        match self {
            QuantScheme::Mxfp4 => group == Group::RoutedExperts,
            QuantScheme::Unknown => false,
            _ => projections,
        }
    }

    /// Bytes of one quantized `R × C` matrix:
    ///
    /// ```text
    /// FP8 block (b_r × b_c): R·C + 4·⌈R/b_r⌉·⌈C/b_c⌉
    /// FP8 tensor:            R·C + 4
    /// FP8 channel:           R·C + 4·R
    /// MXFP4:                 ⌈R·C/2⌉ + R·⌈C/32⌉
    /// integer (b bits, g):   ⌈R·C·b/8⌉ + 2·R·n + ⌈R·n·b/8⌉ (zeros) + 4·C (GPTQ index),
    ///                        n = ⌈C/g⌉
    /// ```
    ///
    /// Sources: DeepSeek-V3 `weight_scale_inv` tensors (one fp32 per
    /// 128 × 128 tile); OCP Microscaling spec v1.0 (MXFP4: E2M1 values,
    /// E8M0 scale per 32); AutoGPTQ / AutoAWQ packed layouts. `None` for
    /// [`QuantScheme::Unknown`].
    pub fn matrix_bytes(self, rows: u64, cols: u64) -> Option<u64> {
        let values = (rows as u128) * (cols as u128);
        let bytes: u128 = match self {
            QuantScheme::Fp8Block { rows: br, cols: bc } => {
                let tiles = rows.div_ceil(br.max(1)) as u128 * cols.div_ceil(bc.max(1)) as u128;
                values + F32_BYTES as u128 * tiles
            }
            QuantScheme::Fp8Tensor => values + F32_BYTES as u128,
            QuantScheme::Fp8Channel => values + F32_BYTES as u128 * rows as u128,
            QuantScheme::Mxfp4 => {
                values.div_ceil(2) + rows as u128 * cols.div_ceil(MXFP4_BLOCK) as u128
            }
            QuantScheme::IntGroup {
                bits,
                group_size,
                zero_points,
                group_index,
            } => {
                let groups = match group_size {
                    0 => 1,
                    g => cols.div_ceil(g),
                } as u128;
                let packed = (values * bits as u128).div_ceil(8);
                let scales = 2 * rows as u128 * groups;
                let zeros = match zero_points {
                    true => (rows as u128 * groups * bits as u128).div_ceil(8),
                    false => 0,
                };
                let index = if group_index { 4 * cols as u128 } else { 0 };
                packed + scales + zeros + index
            }
            QuantScheme::Unknown => return None,
        };
        Some(crate::units::saturate(bytes))
    }
}

/// Reads `quantization_config`, if any.
pub(crate) fn read(r: &Reader) -> Result<Option<Quantization>, ConfigError> {
    let Some(config) = r.object("quantization_config")? else {
        return Ok(None);
    };
    let method = method(config);
    let scheme = scheme(&method, config)?;
    Ok(Some(Quantization {
        not_converted: not_converted(config)?,
        static_activation_scales: matches!(
            scheme,
            QuantScheme::Fp8Block { .. } | QuantScheme::Fp8Tensor
        ) && config.get("activation_scheme").and_then(Value::as_str)
            == Some("static"),
        method,
        scheme,
    }))
}

fn method(config: &Map<String, Value>) -> String {
    if let Some(m) = config.get("quant_method").and_then(Value::as_str) {
        return m.to_ascii_lowercase();
    }
    let bnb = ["load_in_4bit", "load_in_8bit"];
    if bnb
        .iter()
        .any(|k| config.get(*k).and_then(Value::as_bool) == Some(true))
    {
        return "bitsandbytes".to_string();
    }
    "unknown".to_string()
}

fn scheme(method: &str, config: &Map<String, Value>) -> Result<QuantScheme, ConfigError> {
    Ok(match method {
        "fp8" => match config.get("weight_block_size").filter(|v| !v.is_null()) {
            Some(block) => fp8_block(block)?,
            None => QuantScheme::Fp8Tensor,
        },
        "fbgemm_fp8" => QuantScheme::Fp8Channel,
        "mxfp4" => QuantScheme::Mxfp4,
        "gptq" => QuantScheme::IntGroup {
            bits: int_key(config, &["bits"])?.unwrap_or(4),
            group_size: group_size(config)?,
            zero_points: true,
            group_index: true,
        },
        "awq" => QuantScheme::IntGroup {
            bits: int_key(config, &["bits", "w_bit"])?.unwrap_or(4),
            group_size: group_size(config)?,
            zero_points: config
                .get("zero_point")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            group_index: false,
        },
        _ => QuantScheme::Unknown,
    })
}

const BLOCK_KEY: &str = "quantization_config.weight_block_size";

fn fp8_block(block: &Value) -> Result<QuantScheme, ConfigError> {
    let items = block
        .as_array()
        .ok_or_else(|| ConfigError::wrong_type(BLOCK_KEY, "list of integers"))?;
    let sizes = items
        .iter()
        .map(|v| as_uint(BLOCK_KEY, v))
        .collect::<Result<Vec<_>, _>>()?;
    match sizes.as_slice() {
        [rows, cols] if *rows > 0 && *cols > 0 => Ok(QuantScheme::Fp8Block {
            rows: *rows,
            cols: *cols,
        }),
        _ => Err(ConfigError::out_of_range(BLOCK_KEY, block)),
    }
}

/// A bit width from the first present key, in `1..=16`.
fn int_key(config: &Map<String, Value>, keys: &[&str]) -> Result<Option<u64>, ConfigError> {
    for key in keys {
        if let Some(v) = config.get(*key).filter(|v| !v.is_null()) {
            let name = format!("quantization_config.{key}");
            let bits = as_uint(&name, v)?;
            if !(1..=16).contains(&bits) {
                return Err(ConfigError::out_of_range(&name, bits));
            }
            return Ok(Some(bits));
        }
    }
    Ok(None)
}

/// `group_size` (or `q_group_size`); `-1` means one group per row (0).
/// Defaults to 128.
fn group_size(config: &Map<String, Value>) -> Result<u64, ConfigError> {
    for key in ["group_size", "q_group_size"] {
        if let Some(v) = config.get(key).filter(|v| !v.is_null()) {
            if v.as_i64() == Some(-1) {
                return Ok(0);
            }
            return as_uint(&format!("quantization_config.{key}"), v);
        }
    }
    Ok(128)
}

fn not_converted(config: &Map<String, Value>) -> Result<Vec<String>, ConfigError> {
    for key in [
        "modules_to_not_convert",
        "ignore",
        "ignored_layers",
        "exclude_modules",
    ] {
        let Some(value) = config.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let name = format!("quantization_config.{key}");
        let items = value
            .as_array()
            .ok_or_else(|| ConfigError::wrong_type(&name, "list of strings"))?;
        return items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| ConfigError::wrong_type(&name, "list of strings"))
            })
            .collect();
    }
    Ok(Vec::new())
}

/// Module patterns kept at the checkpoint dtype, split into segments once.
///
/// A pattern names a run of dot-separated segments anywhere in a path (so
/// `lm_head`, `model.layers.*.self_attn` and `model.layers.0.mlp.gate` all
/// work), each segment a wildcard (`*`) match; a module excludes its
/// children. `model.layers.1.mlp.gate` does not match `...mlp.gate_proj`.
pub(crate) struct Exclusions {
    /// Patterns without wildcards, looked up whole.
    exact: HashSet<String>,
    /// Patterns with wildcards, by segment.
    globbed: Vec<Vec<String>>,
}

impl Exclusions {
    pub(crate) fn new(patterns: &[String]) -> Self {
        let (globbed, exact): (Vec<&String>, Vec<&String>) =
            patterns.iter().partition(|p| p.contains(['*', '?']));
        Exclusions {
            exact: exact.into_iter().cloned().collect(),
            globbed: globbed
                .into_iter()
                .map(|p| p.split('.').map(str::to_string).collect())
                .collect(),
        }
    }

    /// Whether some pattern covers `path`.
    pub(crate) fn covers(&self, path: &str) -> bool {
        if self.exact.is_empty() && self.globbed.is_empty() {
            return false;
        }
        // Byte offsets of segment starts, and of the end.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(path.match_indices('.').map(|(i, _)| i + 1))
            .collect();
        let end_of = |k: usize| starts.get(k + 1).map_or(path.len(), |next| next - 1);
        let exact = (0..starts.len())
            .any(|a| (a..starts.len()).any(|b| self.exact.contains(&path[starts[a]..end_of(b)])));
        exact || self.covers_globbed(path)
    }

    fn covers_globbed(&self, path: &str) -> bool {
        let segments: Vec<&str> = path.split('.').collect();
        self.globbed.iter().any(|wanted| {
            wanted.len() <= segments.len()
                && segments
                    .windows(wanted.len())
                    .any(|run| run.iter().zip(wanted).all(|(s, w)| wildcard(w, s)))
        })
    }
}

/// `*` matches any run of bytes, `?` any one byte.
fn wildcard(pattern: &str, text: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return pattern == text;
    }
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            resume = Some((pi, ti));
            pi += 1;
        } else if let Some((star, matched)) = resume {
            pi = star + 1;
            ti = matched + 1;
            resume = Some((star, matched + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == b'*')
}

/// Parameters stored quantized, and bytes of the checkpoint, by group.
///
/// `bytes = Σ quantized matrices (scheme layout) + unquantized parameters
/// × checkpoint dtype bits / 8`.
pub(crate) fn weigh(
    arch: &Arch,
    plan: &Plan,
    quant: Option<&Quantization>,
    dtype: Dtype,
) -> (ParamGroups, ParamGroups) {
    let mut quantized = ParamGroups::default();
    let mut plain = ParamGroups::default();
    let mut bytes = ParamGroups::default();
    let exclusions = Exclusions::new(quant.map(|q| q.not_converted.as_slice()).unwrap_or(&[]));
    for_each_tensor(arch, plan, &mut |t| {
        let layout = quant
            .filter(|q| stored_quantized(q, t, &exclusions))
            .and_then(|q| Some((q, q.scheme.matrix_bytes(t.rows, t.cols)?)));
        match layout {
            Some((q, one)) => {
                quantized.add(t.group, t.params());
                let scales = if q.static_activation_scales {
                    F32_BYTES
                } else {
                    0
                };
                bytes.add(t.group, one.saturating_add(scales).saturating_mul(t.copies));
            }
            None => plain.add(t.group, t.params()),
        }
    });
    for group in ALL_GROUPS {
        let extra = bytes_for_bits(*plain.get_mut(group), dtype.milli_bits());
        bytes.add(group, extra);
    }
    (quantized, bytes)
}

const ALL_GROUPS: [Group; 8] = [
    Group::Embedding,
    Group::LmHead,
    Group::Attention,
    Group::DenseMlp,
    Group::RoutedExperts,
    Group::SharedExperts,
    Group::Router,
    Group::Norms,
];

fn stored_quantized(q: &Quantization, t: &Tensor, exclusions: &Exclusions) -> bool {
    t.projection && q.scheme.converts(t.group) && !exclusions.covers(&t.path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_whole_segments() {
        let excluded = |path: &str, patterns: &[String]| Exclusions::new(patterns).covers(path);
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(excluded("lm_head", &p(&["lm_head"])));
        assert!(excluded(
            "model.layers.7.self_attn.q_proj",
            &p(&["model.layers.*.self_attn"])
        ));
        assert!(excluded(
            "model.layers.1.mlp.gate",
            &p(&["model.layers.1.mlp.gate"])
        ));
        assert!(!excluded(
            "model.layers.1.mlp.gate_proj",
            &p(&["model.layers.1.mlp.gate"])
        ));
        assert!(!excluded(
            "model.layers.10.mlp.gate",
            &p(&["model.layers.1.mlp.gate"])
        ));
        assert!(!excluded(
            "model.layers.1.mlp.experts.down_proj",
            &p(&["model.layers.*.self_attn"])
        ));
        assert!(!excluded("lm_head", &p(&[])));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*", "anything"));
        assert!(wildcard("q_*", "q_proj"));
        assert!(wildcard("*_proj", "q_proj"));
        assert!(wildcard("?_proj", "q_proj"));
        assert!(!wildcard("k_*", "q_proj"));
        assert!(wildcard("a*b*c", "aXXbYYc"));
        assert!(!wildcard("a*b*c", "aXXbYY"));
    }

    #[test]
    fn fp8_block_scales_round_up() {
        // DeepSeek-V3 kv_a_proj_with_mqa: 576 × 7168 → 5 × 56 tiles.
        let s = QuantScheme::Fp8Block {
            rows: 128,
            cols: 128,
        };
        assert_eq!(s.matrix_bytes(576, 7168), Some(576 * 7168 + 4 * 5 * 56));
    }

    #[test]
    fn mxfp4_is_4_25_bits() {
        // gpt-oss expert gate_up: 5760 × 2880 → 4.25 bits per value.
        let bytes = QuantScheme::Mxfp4.matrix_bytes(5760, 2880).unwrap();
        assert_eq!(bytes * 8 * 100, 5760 * 2880 * 425);
    }

    #[test]
    fn gptq_layout() {
        let s = QuantScheme::IntGroup {
            bits: 4,
            group_size: 128,
            zero_points: true,
            group_index: true,
        };
        // 4096 × 4096: 8 MiB of weights, 32 groups per row.
        let expected = 4096 * 4096 / 2 + 2 * 4096 * 32 + 4096 * 32 / 2 + 4 * 4096;
        assert_eq!(s.matrix_bytes(4096, 4096), Some(expected));
        assert_eq!(QuantScheme::Unknown.matrix_bytes(1, 1), None);
    }
}
