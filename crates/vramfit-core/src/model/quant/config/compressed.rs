//! compressed-tensors (llm-compressor) `quantization_config`: config
//! groups of targets and quantization arguments, the `ignore` list and the
//! key/value cache scheme.

use super::{key, strings, text, Object};
use crate::model::dtype::Dtype;
use crate::model::error::ConfigError;
use crate::model::json::as_uint;
use crate::model::quant::layout::{CtFormat, CtStrategy, CtWeights, QuantScheme};
use crate::model::quant::pattern::{Dialect, Patterns};
use crate::model::quant::{QuantGroup, Quantization, Scope};
use serde_json::Value;

/// compressed-tensors (llm-compressor): `config_groups` of `targets` and
/// weight / activation arguments, an `ignore` list, a global `format`
/// (or one per group), an optional `kv_cache_scheme`.
pub(super) fn compressed_tensors(
    config: &Object,
    dtype: Dtype,
) -> Result<Quantization, ConfigError> {
    if let Some(sparsity) = config.get("sparsity_config").and_then(Value::as_object) {
        let format = sparsity
            .get("format")
            .and_then(Value::as_str)
            .unwrap_or("dense");
        if format != "dense" {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.sparsity_config: sparse format `{format}` is not sized"
            )));
        }
    }
    // A transform applied to the weights themselves (locations
    // `weight_input` / `weight_output`: compressed-tensors'
    // `TransformLocation.is_online()` is false for them) is fused into the
    // stored weights and keeps no tensor of its own, as in Poolside's
    // Laguna-XS.2 FP8 export (a Hadamard R1 rotation); an online one (on
    // activations, queries or the cache) is refused.
    let online = |apply: &Value| {
        let location = apply.get("location").and_then(Value::as_str);
        !matches!(location, Some("weight_input" | "weight_output"))
    };
    let stores_transforms = |v: &Value| match v {
        Value::Null => false,
        Value::Object(m) => match m.get("config_groups") {
            None | Some(Value::Null) => false,
            Some(Value::Object(groups)) => groups.values().any(|g| {
                g.get("apply")
                    .and_then(Value::as_array)
                    .is_none_or(|a| a.iter().any(online))
            }),
            Some(_) => true,
        },
        _ => true,
    };
    if config
        .get("transform_config")
        .is_some_and(stores_transforms)
    {
        return Err(ConfigError::unsupported(
            "quantization_config.transform_config: stored transforms are not sized".to_string(),
        ));
    }
    let global_format = text(config, "format")?;
    if let Some(f) = global_format {
        if matches!(
            f,
            "dense" | "marlin-24" | "sparse-bitmask" | "sparse-24-bitmask"
        ) {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.format `{f}` is not sized"
            )));
        }
    }
    let groups_obj = config
        .get("config_groups")
        .and_then(Value::as_object)
        .ok_or_else(|| ConfigError::missing(vec![key("config_groups")]))?;
    let mut groups = Vec::new();
    for (name, group) in groups_obj {
        let group = group.as_object().ok_or_else(|| {
            ConfigError::wrong_type(&key(&format!("config_groups.{name}")), "object")
        })?;
        groups.push(ct_group(name, group, global_format, dtype)?);
    }
    let first = groups
        .first()
        .map(|g| g.scheme)
        .ok_or_else(|| ConfigError::missing(vec![key("config_groups")]))?;
    let ignore = strings(config, &["ignore"])?;
    Patterns::check(Dialect::CompressedTensors, &ignore, &key("ignore"))?;
    for g in &groups {
        for t in &g.targets {
            if !t.starts_with("re:")
                && !t.contains('.')
                && t.chars().next().is_some_and(char::is_uppercase)
                && t != "Linear"
            {
                return Err(ConfigError::unsupported(format!(
                    "quantization_config.config_groups: target class `{t}` is not sized"
                )));
            }
        }
        Patterns::check(
            Dialect::CompressedTensors,
            &g.targets,
            &key("config_groups.targets"),
        )?;
    }
    let kv_scale_bytes = match config.get("kv_cache_scheme").filter(|v| !v.is_null()) {
        None => 0,
        Some(kv) => kv_scales(kv, dtype)?,
    };
    Ok(Quantization {
        method: "compressed-tensors".to_string(),
        scheme: first,
        not_converted: ignore,
        static_activation_scales: groups.iter().any(|g| g.input_scale_bytes > 0),
        groups,
        scope: Scope::Targets,
        dialect: Dialect::CompressedTensors,
        kv_scale_bytes,
        assumptions: Vec::new(),
    })
}

/// One `config_groups` entry.
fn ct_group(
    name: &str,
    group: &Object,
    global_format: Option<&str>,
    dtype: Dtype,
) -> Result<QuantGroup, ConfigError> {
    let targets = strings(group, &["targets"])?;
    let weights = group
        .get("weights")
        .and_then(Value::as_object)
        .ok_or_else(|| ConfigError::missing(vec![key(&format!("config_groups.{name}.weights"))]))?;
    let w = CtArgs::read(weights, &format!("config_groups.{name}.weights"))?;
    let input = group
        .get("input_activations")
        .and_then(Value::as_object)
        .map(|a| CtArgs::read(a, &format!("config_groups.{name}.input_activations")))
        .transpose()?;
    let fp4 = w.float && w.num_bits == 4;
    let format = match group
        .get("format")
        .and_then(Value::as_str)
        .or(global_format)
    {
        Some("pack-quantized") => CtFormat::PackQuantized,
        Some("nvfp4-pack-quantized" | "mxfp4-pack-quantized") => CtFormat::Fp4Packed,
        Some("int-quantized" | "float-quantized" | "naive-quantized") => CtFormat::Unpacked,
        Some("mixed-precision") | None => inferred_format(&w, input.as_ref()),
        Some(other) => {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.format `{other}` is not sized"
            )))
        }
    };
    if format == CtFormat::PackQuantized && w.num_bits > 8 {
        return Err(ConfigError::out_of_range(
            &key(&format!("config_groups.{name}.weights.num_bits")),
            w.num_bits,
        ));
    }
    // Scales follow the weight's dtype (bf16, fp16, fp32), FP8 for FP4.
    let scale_bytes = match (fp4, dtype) {
        (true, _) => 1,
        (false, Dtype::F32) => 4,
        (false, Dtype::F64) => 8,
        _ => 2,
    };
    let scheme = QuantScheme::CompressedTensors(CtWeights {
        num_bits: w.num_bits,
        float: w.float,
        strategy: w.strategy,
        symmetric: w.symmetric,
        group_index: w.actorder_group,
        format,
        scale_bytes,
    });
    let input_scale_bytes = match input {
        None => 0,
        Some(a) => a.stored_activation_bytes(scale_bytes),
    };
    Ok(QuantGroup {
        targets,
        scheme,
        input_scale_bytes,
    })
}

/// compressed-tensors `config/format.py::_get_quant_compression_format`.
fn inferred_format(w: &CtArgs, input: Option<&CtArgs>) -> CtFormat {
    if w.float && w.num_bits == 4 {
        return CtFormat::Fp4Packed;
    }
    let weight_only = input.is_none();
    if weight_only && !w.float && matches!(w.num_bits, 4 | 8) {
        return CtFormat::PackQuantized;
    }
    CtFormat::Unpacked
}

/// compressed-tensors `QuantizationArgs`, with its validator's inference
/// of `strategy` from `group_size`.
struct CtArgs {
    num_bits: u64,
    float: bool,
    symmetric: bool,
    strategy: CtStrategy,
    /// `dynamic`: true, false or `"local"`.
    dynamic: Dynamism,
    actorder_group: bool,
}

#[derive(PartialEq)]
enum Dynamism {
    Static,
    Always,
    Local,
}

impl CtArgs {
    fn read(args: &Object, at: &str) -> Result<CtArgs, ConfigError> {
        let k = |name: &str| format!("quantization_config.{at}.{name}");
        let num_bits = match args.get("num_bits").filter(|v| !v.is_null()) {
            None => 8,
            Some(v) => as_uint(&k("num_bits"), v)?,
        };
        if !(1..=32).contains(&num_bits) {
            return Err(ConfigError::out_of_range(&k("num_bits"), num_bits));
        }
        let float = match args
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
        {
            None => false,
            Some(t) if t == "int" => false,
            Some(t) if t == "float" => true,
            Some(t) => return Err(ConfigError::out_of_range(&k("type"), t)),
        };
        let symmetric = match args.get("symmetric") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(ConfigError::wrong_type(&k("symmetric"), "boolean")),
        };
        let group_size = match args.get("group_size").filter(|v| !v.is_null()) {
            None => None,
            Some(v) if v.as_i64() == Some(-1) => Some(-1i64),
            Some(v) => Some(as_uint(&k("group_size"), v)? as i64),
        };
        let block = match args.get("block_structure").filter(|v| !v.is_null()) {
            None => None,
            Some(Value::String(s)) => {
                let parts: Vec<Option<u64>> = s.split('x').map(|p| p.trim().parse().ok()).collect();
                match parts.as_slice() {
                    [Some(r), Some(c)] => Some((*r, *c)),
                    _ => return Err(ConfigError::out_of_range(&k("block_structure"), s)),
                }
            }
            Some(Value::Array(items)) => {
                let sizes = items
                    .iter()
                    .map(|v| as_uint(&k("block_structure"), v))
                    .collect::<Result<Vec<_>, _>>()?;
                match sizes.as_slice() {
                    [r, c] => Some((*r, *c)),
                    _ => {
                        return Err(ConfigError::out_of_range(
                            &k("block_structure"),
                            items.len(),
                        ))
                    }
                }
            }
            Some(_) => {
                return Err(ConfigError::wrong_type(
                    &k("block_structure"),
                    "list of integers",
                ))
            }
        };
        let strategy = match args
            .get("strategy")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
        {
            Some(s) => match (s.as_str(), group_size, block) {
                ("tensor", _, _) => CtStrategy::Tensor,
                ("channel", _, _) => CtStrategy::Channel,
                ("group", Some(g), _) if g > 0 => CtStrategy::Group { size: g as u64 },
                ("tensor_group", Some(g), _) if g > 0 => CtStrategy::TensorGroup { size: g as u64 },
                ("block", _, Some((r, c))) if r > 0 && c > 0 => {
                    CtStrategy::Block { rows: r, cols: c }
                }
                ("token", _, _) => CtStrategy::Tensor,
                (other, _, _) => {
                    return Err(ConfigError::contradictory(
                        &[&k("strategy"), &k("group_size")],
                        format!("strategy `{other}` needs its group size or block structure"),
                    ))
                }
            },
            None => match group_size {
                None => CtStrategy::Tensor,
                Some(-1) => CtStrategy::Channel,
                Some(g) if g > 0 => CtStrategy::Group { size: g as u64 },
                Some(g) => return Err(ConfigError::out_of_range(&k("group_size"), g)),
            },
        };
        let dynamic = match args.get("dynamic") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => Dynamism::Static,
            Some(Value::Bool(true)) => Dynamism::Always,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("local") => Dynamism::Local,
            Some(other) => return Err(ConfigError::out_of_range(&k("dynamic"), other)),
        };
        let actorder_group = match args.get("actorder") {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => {
                matches!(s.to_ascii_lowercase().as_str(), "group" | "dynamic")
            }
            _ => false,
        };
        Ok(CtArgs {
            num_bits,
            float,
            symmetric,
            strategy,
            dynamic,
            actorder_group,
        })
    }

    /// Bytes stored per layer for these activation arguments: nothing when
    /// dynamic; an fp32 global scale when `"local"`; a scale (and a zero
    /// point when asymmetric) when static per tensor. Source:
    /// compressed-tensors `initialize_qparams`.
    fn stored_activation_bytes(&self, scale_bytes: u64) -> u64 {
        match self.dynamic {
            Dynamism::Always => 0,
            Dynamism::Local => 4,
            Dynamism::Static => {
                let global = match self.strategy {
                    CtStrategy::TensorGroup { .. } => 4,
                    _ => 0,
                };
                let zero = if self.symmetric { 0 } else { 1 };
                global + scale_bytes + zero
            }
        }
    }
}

/// `kv_cache_scheme`: a key and a value scale per attention layer at the
/// layer's dtype (plus zero points when asymmetric); nothing when dynamic.
fn kv_scales(kv: &Value, dtype: Dtype) -> Result<u64, ConfigError> {
    let args = kv
        .as_object()
        .ok_or_else(|| ConfigError::wrong_type(&key("kv_cache_scheme"), "object"))?;
    let a = CtArgs::read(args, "kv_cache_scheme")?;
    if a.dynamic != Dynamism::Static {
        return Ok(0);
    }
    if a.strategy != CtStrategy::Tensor {
        return Err(ConfigError::unsupported(
            "quantization_config.kv_cache_scheme: only per-tensor key/value scales are sized"
                .to_string(),
        ));
    }
    let scale = match dtype {
        Dtype::F32 => 4,
        _ => 2,
    };
    Ok(2 * (scale + if a.symmetric { 0 } else { 1 }))
}
