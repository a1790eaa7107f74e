//! Reading `quantization_config`, one reader per `quant_method`, with the
//! defaults of the library's own config class for absent keys.

use super::layout::QuantScheme;
use super::pattern::{Dialect, Patterns};
use super::{QuantGroup, Quantization, Scope};
use crate::model::dtype::Dtype;
use crate::model::error::ConfigError;
use crate::model::json::{as_uint, Reader};
use serde_json::{Map, Value};

mod compressed;
mod refused;

use refused::refusal;

type Object = Map<String, Value>;

/// Reads `quantization_config`, if any. `dtype` is the checkpoint's storage
/// type (the type of scales that follow the weight's own dtype).
pub(crate) fn read(r: &Reader, dtype: Dtype) -> Result<Option<Quantization>, ConfigError> {
    // compressed-tensors' first exports (llm-compressor, 2024) wrote their
    // config under `compression_config`, which vLLM reads when there is no
    // `quantization_config` (`ModelConfig._parse_quant_hf_config`).
    let config = match r.object("quantization_config")? {
        Some(c) => c,
        None => match r.object("compression_config")? {
            Some(c) => c,
            None => return refused::quantization_elsewhere(r).map(|()| None),
        },
    };
    let method = method(config);
    let q = match method.as_str() {
        "fp8" => fine_grained_fp8(config)?,
        "fbgemm_fp8" => simple(
            config,
            "fbgemm_fp8",
            QuantScheme::Fp8Channel,
            Scope::LinearNoHead,
        )?,
        "eetq" => simple(
            config,
            "eetq",
            QuantScheme::Int8Channel,
            Scope::LinearNoHead,
        )?,
        "mxfp4" => simple(config, "mxfp4", QuantScheme::Mxfp4, Scope::Experts)?,
        "gptq" => gptq(config)?,
        "awq" => awq(config)?,
        "bitsandbytes" => bitsandbytes(config)?,
        // `sparseml`: the name compressed-tensors' QuantizationConfig gave
        // its own layout before it was renamed (its tests still build
        // configs with it); the config groups are the same.
        "compressed-tensors" | "compressed_tensors" | "sparseml" => {
            compressed::compressed_tensors(config, dtype)?
        }
        "modelopt" | "modelopt_fp4" => modelopt(config)?,
        "unknown" => return Err(refused::without_method(config)),
        other => return Err(refusal(other)),
    };
    Ok(Some(q))
}

fn method(config: &Object) -> String {
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

pub(super) fn key(name: &str) -> String {
    format!("quantization_config.{name}")
}

/// A non-negative integer under the first present key.
fn uint(config: &Object, keys: &[&str]) -> Result<Option<u64>, ConfigError> {
    for k in keys {
        if let Some(v) = config.get(*k).filter(|v| !v.is_null()) {
            return as_uint(&key(k), v).map(Some);
        }
    }
    Ok(None)
}

/// A bit width in `1..=16` under the first present key.
fn bits(config: &Object, keys: &[&str], default: u64) -> Result<u64, ConfigError> {
    let b = uint(config, keys)?.unwrap_or(default);
    match (1..=16).contains(&b) {
        true => Ok(b),
        false => Err(ConfigError::out_of_range(&key(keys[0]), b)),
    }
}

fn flag(config: &Object, name: &str, default: bool) -> Result<bool, ConfigError> {
    match config.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ConfigError::wrong_type(&key(name), "boolean")),
    }
}

pub(super) fn text<'a>(config: &'a Object, name: &str) -> Result<Option<&'a str>, ConfigError> {
    match config.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ConfigError::wrong_type(&key(name), "string")),
    }
}

/// A list of strings under the first present key.
pub(super) fn strings(config: &Object, keys: &[&str]) -> Result<Vec<String>, ConfigError> {
    for k in keys {
        let Some(value) = config.get(*k).filter(|v| !v.is_null()) else {
            continue;
        };
        let wrong = || ConfigError::wrong_type(&key(k), "list of strings");
        let items = value.as_array().ok_or_else(wrong)?;
        return items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(wrong))
            .collect();
    }
    Ok(Vec::new())
}

/// `group_size` (or `q_group_size`): `-1` means one group per row (0).
fn group_size(config: &Object, default: u64) -> Result<u64, ConfigError> {
    for k in ["group_size", "q_group_size"] {
        if let Some(v) = config.get(k).filter(|v| !v.is_null()) {
            if v.as_i64() == Some(-1) {
                return Ok(0);
            }
            let g = as_uint(&key(k), v)?;
            return match g {
                0 => Err(ConfigError::out_of_range(&key(k), g)),
                g => Ok(g),
            };
        }
    }
    Ok(default)
}

fn quantization(
    method: &str,
    scheme: QuantScheme,
    scope: Scope,
    dialect: Dialect,
    not_converted: Vec<String>,
    input_scale_bytes: u64,
) -> Result<Quantization, ConfigError> {
    Patterns::check(dialect, &not_converted, &key("modules_to_not_convert"))?;
    Ok(Quantization {
        method: method.to_string(),
        scheme,
        not_converted,
        static_activation_scales: input_scale_bytes > 0,
        groups: vec![QuantGroup {
            targets: vec!["Linear".to_string()],
            scheme,
            input_scale_bytes,
        }],
        scope,
        dialect,
        kv_scale_bytes: 0,
        assumptions: Vec::new(),
    })
}

/// Methods with one format and `modules_to_not_convert`.
fn simple(
    config: &Object,
    method: &str,
    scheme: QuantScheme,
    scope: Scope,
) -> Result<Quantization, ConfigError> {
    let skip = strings(config, &["modules_to_not_convert"])?;
    quantization(method, scheme, scope, Dialect::ModuleGlob, skip, 0)
}

/// `quant_method: "fp8"`: transformers `FineGrainedFP8Config` when
/// `weight_block_size` is given (fp32 `weight_scale_inv` per tile), else
/// the per-tensor layout of AutoFP8 / vLLM (`weight_scale` scalar). An
/// fp32 `input_scale` per layer when `activation_scheme` is `"static"`.
fn fine_grained_fp8(config: &Object) -> Result<Quantization, ConfigError> {
    const BLOCK_KEY: &str = "quantization_config.weight_block_size";
    // A ModelOpt mixed-precision export written under `quant_method: fp8`
    // (NVIDIA's DeepSeek-V4 NVFP4): the FP8 checkpoint's layout with its
    // routed experts re-quantized to NVFP4 (`moe_quant_algo`); its
    // `quantized_layers` name the experts, its `ignore` the modules left
    // as they were (attention and shared experts in FP8 blocks, head and
    // MTP). Sources: vLLM `models/deepseek_v4/quant_config.py`
    // (`moe_quant_algo` routes the experts to `ModelOptNvFp4FusedMoE`,
    // other linears stay on the FP8 path); SGLang's DeepSeek-V4 NVFP4 MoE
    // support (`HybridFp8NvFp4Config`).
    let moe_algo = text(config, "moe_quant_algo")?.map(str::to_ascii_uppercase);
    let mixed = config.contains_key("quantized_layers") || config.contains_key("quant_algo");
    let nvfp4_experts = match (mixed, moe_algo.as_deref()) {
        (_, Some("NVFP4")) => Some(group_size(config, 16)?),
        (false, None) => None,
        (true, None) => {
            return Err(ConfigError::unsupported(
                "quantization_config: a ModelOpt mixed-precision layout (quant_algo, \
                 quantized_layers) under quant_method `fp8` without moe_quant_algo is not sized"
                    .to_string(),
            ))
        }
        (_, Some(other)) => {
            return Err(ConfigError::unsupported(format!(
                "quantization_config: moe_quant_algo `{other}` under quant_method `fp8` is not \
                 sized"
            )))
        }
    };
    let scheme = match config.get("weight_block_size").filter(|v| !v.is_null()) {
        None => QuantScheme::Fp8Tensor,
        Some(block) => {
            let items = block
                .as_array()
                .ok_or_else(|| ConfigError::wrong_type(BLOCK_KEY, "list of integers"))?;
            let sizes = items
                .iter()
                .map(|v| as_uint(BLOCK_KEY, v))
                .collect::<Result<Vec<_>, _>>()?;
            match sizes.as_slice() {
                [rows, cols] if *rows > 0 && *cols > 0 => QuantScheme::Fp8Block {
                    rows: *rows,
                    cols: *cols,
                },
                _ => return Err(ConfigError::out_of_range(BLOCK_KEY, block)),
            }
        }
    };
    let input = match text(config, "activation_scheme")? {
        Some("static") => 4,
        _ => 0,
    };
    let skip = strings(config, &["modules_to_not_convert", "ignored_layers"])?;
    let mut q = quantization(
        "fp8",
        scheme,
        Scope::LinearNoHead,
        Dialect::ModuleGlob,
        skip,
        input,
    )?;
    if let Some(group) = nvfp4_experts {
        q.groups.insert(
            0,
            QuantGroup {
                targets: vec!["Experts".to_string()],
                scheme: QuantScheme::Nvfp4 { group_size: group },
                input_scale_bytes: 0,
            },
        );
        q.assumptions.push(format!(
            "moe_quant_algo NVFP4: routed experts stored as NVFP4 (E2M1 with an FP8 scale per \
             {group} inputs and two fp32 scalars), the other linear layers as FP8 blocks"
        ));
    }
    Ok(q)
}

/// ModelOpt `MIXED_PRECISION`: each module listed in `quantized_layers`
/// has its own format (`FP8`: FP8 per tensor with a static input scale;
/// `NVFP4`, `W4A16_NVFP4`: NVFP4 of its `group_size`), a listed module
/// covering everything under it (`layers.0.mlp.experts`); modules not
/// listed stay unquantized. Source: vLLM
/// `quantization/modelopt.py` (`ModelOptMixedPrecisionConfig`).
fn modelopt_mixed(config: &Object, c: &Object, nested: bool) -> Result<Quantization, ConfigError> {
    const LAYERS: &str = "quantization_config.quantized_layers";
    let layers = c
        .get("quantized_layers")
        .and_then(Value::as_object)
        .ok_or_else(|| ConfigError::missing(vec![LAYERS.to_string()]))?;
    let mut groups: Vec<QuantGroup> = Vec::new();
    for (module, entry) in layers {
        let entry = entry
            .as_object()
            .ok_or_else(|| ConfigError::wrong_type(LAYERS, "object of objects"))?;
        let algo = text(entry, "quant_algo")?
            .ok_or_else(|| ConfigError::missing(vec![format!("{LAYERS}.{module}.quant_algo")]))?
            .to_ascii_uppercase();
        let (scheme, input) = match algo.as_str() {
            "FP8" => (QuantScheme::Fp8Tensor, 4),
            "FP8_PER_CHANNEL_PER_TOKEN" => (QuantScheme::Fp8Channel, 0),
            "NVFP4" | "W4A16_NVFP4" => (
                QuantScheme::Nvfp4 {
                    group_size: group_size(entry, 16)?,
                },
                0,
            ),
            other => {
                return Err(ConfigError::unsupported(format!(
                    "{LAYERS}: quant_algo `{other}` of `{module}` is not sized"
                )))
            }
        };
        let target = format!("prefix:{}", plain_module(module)?);
        match groups
            .iter_mut()
            .find(|g| g.scheme == scheme && g.input_scale_bytes == input)
        {
            Some(g) => g.targets.push(target),
            None => groups.push(QuantGroup {
                targets: vec![target],
                scheme,
                input_scale_bytes: input,
            }),
        }
    }
    let Some(first) = groups.first().map(|g| g.scheme) else {
        return Err(ConfigError::missing(vec![LAYERS.to_string()]));
    };
    let skip = match nested {
        true => strings(c, &["exclude_modules"])?,
        false => strings(config, &["ignore", "exclude_modules"])?,
    };
    let mut q = quantization(
        "modelopt",
        first,
        Scope::Targets,
        Dialect::ModelOpt,
        skip,
        0,
    )?;
    q.static_activation_scales = groups.iter().any(|g| g.input_scale_bytes > 0);
    q.groups = groups;
    let kv_fp8 = text(c, "kv_cache_quant_algo")?.is_some_and(|a| a.eq_ignore_ascii_case("fp8"))
        || config
            .get("kv_cache_scheme")
            .and_then(Value::as_object)
            .is_some_and(|k| k.get("type").and_then(Value::as_str) == Some("float"));
    if kv_fp8 {
        q.kv_scale_bytes = 8;
    }
    q.assumptions.push(
        "ModelOpt MIXED_PRECISION: NVFP4 layers counted with an input scale; W4A16 exports may \
         store none (4 bytes per layer)"
            .to_string(),
    );
    Ok(q)
}

/// A module path, which must be a plain dotted path.
fn plain_module(module: &str) -> Result<&str, ConfigError> {
    match module
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        true => Ok(module),
        false => Err(ConfigError::unsupported(format!(
            "quantization_config.quantized_layers: module `{module}` is not a plain path"
        ))),
    }
}

/// DeepSeek-V4's own FP8 checkpoints: `expert_dtype: "fp4"` stores the
/// routed experts as FP4 (E2M1) with one E8M0 scale per 32 inputs, the
/// MXFP4 layout, and the rest as the config's FP8 blocks; the compressor
/// and indexer projections stay bf16 (`DeepseekV4PreTrainedModel.
/// _keep_in_fp32_modules`, which transformers' FP8 quantizer leaves
/// unconverted). With `scale_fmt: "ue8m0"` the block scales are one byte
/// each; they are counted as fp32 here (noted in the assumptions).
pub(crate) fn deepseek_v4_layout(q: &mut Quantization, experts_fp4: bool, ue8m0: bool) {
    if q.method != "fp8" {
        return;
    }
    keep_unconverted(
        q,
        &[
            "compressor.kv_proj",
            "compressor.gate_proj",
            "indexer.kv_proj",
            "indexer.gate_proj",
            "scorer.weights_proj",
        ],
    );
    let experts_set = q.groups.iter().any(|g| g.targets == ["Experts"]);
    if experts_fp4 && !experts_set {
        q.groups.insert(
            0,
            QuantGroup {
                targets: vec!["Experts".to_string()],
                scheme: QuantScheme::Mxfp4,
                input_scale_bytes: 0,
            },
        );
        q.assumptions.push(
            "expert_dtype fp4: routed experts stored as FP4 with an E8M0 scale per 32 inputs"
                .to_string(),
        );
    }
    if ue8m0 {
        q.assumptions.push(
            "scale_fmt ue8m0: the FP8 block scales are counted as fp32 (4 bytes); the \
             checkpoint stores 1 byte each"
                .to_string(),
        );
    }
}

/// Modules a model class keeps out of transformers' FP8 conversion
/// (`_keep_in_fp32_modules`, read by `get_modules_to_not_convert`): the
/// checkpoint stores them unquantized though its config does not list
/// them (GLM-5's `indexer.weights_proj`).
pub(crate) fn keep_unconverted(q: &mut Quantization, modules: &[&str]) {
    if q.method != "fp8" {
        return;
    }
    q.not_converted
        .extend(modules.iter().map(|m| (*m).to_string()));
}

/// GPTQ (AutoGPTQ, GPTQModel, optimum): `bits` (default 4), `group_size`
/// (default 128). `qzeros` and `g_idx` are stored whatever `sym` and
/// `desc_act` say. AutoGPTQ's own configs (`model_file_base_name` /
/// `model_name_or_path` keys, no GPTQModel `meta`) come from versions that
/// created a zero fp16 bias for every quantized layer (AutoGPTQ
/// `make_quant`, fixed by PR #602 in March 2024).
fn gptq(config: &Object) -> Result<Quantization, ConfigError> {
    if let Some(format) = text(config, "checkpoint_format")? {
        if !matches!(format, "gptq" | "gptq_v2") {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.checkpoint_format `{format}`: only the gptq layout is sized"
            )));
        }
    }
    let autogptq = (config.contains_key("model_file_base_name")
        || config.contains_key("model_name_or_path"))
        && !config.contains_key("meta");
    let scheme = QuantScheme::Gptq {
        bits: bits(config, &["bits"], 4)?,
        group_size: group_size(config, 128)?,
        zero_bias: autogptq,
    };
    let mut skip = Vec::new();
    if let Some(dynamic) = config.get("dynamic").and_then(Value::as_object) {
        for (rule, overrides) in dynamic {
            match rule.strip_prefix("-:") {
                Some(re) => skip.push(format!("re:{re}")),
                None if overrides.as_object().is_some_and(|o| o.is_empty()) => {}
                None => {
                    return Err(ConfigError::unsupported(format!(
                        "quantization_config.dynamic rule `{rule}` gives some modules their own bits or group size"
                    )))
                }
            }
        }
    }
    let mut q = quantization(
        "gptq",
        scheme,
        Scope::DecoderLayers {
            routers: false,
            head: flag(config, "lm_head", false)?,
        },
        Dialect::CompressedTensors,
        skip,
        0,
    )?;
    if let Some(blocks) = config
        .get("modules_in_block_to_quantize")
        .filter(|v| !v.is_null())
    {
        let wrong = || {
            ConfigError::wrong_type(
                &key("modules_in_block_to_quantize"),
                "list of lists of strings",
            )
        };
        let mut names = Vec::new();
        for list in blocks.as_array().ok_or_else(wrong)? {
            for name in list.as_array().ok_or_else(wrong)? {
                names.push(format!(
                    "re:.*\\.{}$",
                    escape(name.as_str().ok_or_else(wrong)?)
                ));
            }
        }
        q.groups[0].targets = names;
    }
    if autogptq {
        q.assumptions.push(
            "AutoGPTQ config: a zero fp16 bias is stored for every quantized layer".to_string(),
        );
    }
    Ok(q)
}

/// A module name as a literal regular expression.
fn escape(name: &str) -> String {
    name.chars()
        .flat_map(|c| match c.is_ascii_alphanumeric() || c == '_' {
            true => vec![c],
            false => vec!['\\', c],
        })
        .collect()
}

/// AutoAWQ: `version` gemm (default), gemv, gemv_fast (exllama and ipex
/// load the GEMM layout); `bits`/`w_bit` 4, `group_size`/`q_group_size`
/// 128, `zero_point` true; `modules_to_not_convert` as substrings.
fn awq(config: &Object) -> Result<Quantization, ConfigError> {
    let bits = bits(config, &["bits", "w_bit"], 4)?;
    let group_size = group_size(config, 128)?;
    let version = text(config, "version")?
        .unwrap_or("gemm")
        .to_ascii_lowercase();
    let scheme = match version.as_str() {
        "gemm" | "exllama" | "ipex" => QuantScheme::AwqGemm {
            bits,
            group_size,
            zero_points: flag(config, "zero_point", true)?,
        },
        "gemv" => QuantScheme::AwqGemv { bits, group_size },
        "gemv_fast" => QuantScheme::AwqGemvFast { bits, group_size },
        other => {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.version `{other}`: the AWQ {other} layout is not sized"
            )))
        }
    };
    let skip = strings(config, &["modules_to_not_convert"])?;
    quantization(
        "awq",
        scheme,
        Scope::DecoderLayers {
            routers: true,
            head: false,
        },
        Dialect::Substring,
        skip,
        0,
    )
}

/// transformers `BitsAndBytesConfig`: `load_in_4bit` (blocks of 64,
/// `bnb_4bit_use_double_quant` false, `bnb_4bit_quant_storage` uint8) or
/// `load_in_8bit`; `llm_int8_skip_modules` kept as they are.
fn bitsandbytes(config: &Object) -> Result<Quantization, ConfigError> {
    let four = flag(config, "load_in_4bit", false)?;
    let eight = flag(config, "load_in_8bit", false)?;
    let scheme = match (four, eight) {
        (true, false) => {
            let storage = text(config, "bnb_4bit_quant_storage")?.unwrap_or("uint8");
            let storage_bytes = match Dtype::parse(&key("bnb_4bit_quant_storage"), storage) {
                Ok(d) => d.milli_bits() / 8_000,
                Err(_) if matches!(storage, "uint8" | "int8" | "torch.uint8" | "torch.int8") => 1,
                Err(e) => return Err(e),
            };
            QuantScheme::Bnb4 {
                double_quant: flag(config, "bnb_4bit_use_double_quant", false)?,
                blocksize: 64,
                storage_bytes,
            }
        }
        (false, true) => QuantScheme::Bnb8,
        (true, true) => {
            return Err(ConfigError::contradictory(
                &[
                    "quantization_config.load_in_4bit",
                    "quantization_config.load_in_8bit",
                ],
                "a bitsandbytes checkpoint is either 4-bit or 8-bit".to_string(),
            ))
        }
        (false, false) => {
            return Err(ConfigError::missing(vec![key("load_in_4bit")]));
        }
    };
    let skip = strings(config, &["llm_int8_skip_modules", "modules_to_not_convert"])?;
    let mut q = quantization(
        "bitsandbytes",
        scheme,
        Scope::LinearNoHead,
        Dialect::ModuleGlob,
        skip,
        0,
    )?;
    if let QuantScheme::Bnb4 {
        double_quant: true, ..
    } = scheme
    {
        q.assumptions.push(format!(
            "bitsandbytes quant_state JSON: nested_offset taken as {} characters",
            super::layout::BNB_OFFSET_CHARS
        ));
    }
    Ok(q)
}

/// NVIDIA ModelOpt (`quant_algo` FP8, FP8_PER_CHANNEL_PER_TOKEN, NVFP4),
/// in config.json's form (`quant_algo`, `ignore`, `kv_cache_scheme`) or
/// hf_quant_config.json's (`quantization: {quant_algo, exclude_modules,
/// kv_cache_quant_algo, group_size}`). Source: vLLM
/// `quantization/modelopt.py::ModelOptQuantConfigBase.from_config`.
fn modelopt(config: &Object) -> Result<Quantization, ConfigError> {
    let nested = config.get("quantization").and_then(Value::as_object);
    let c = nested.unwrap_or(config);
    let algo = text(c, "quant_algo")?
        .ok_or_else(|| ConfigError::missing(vec![key("quant_algo")]))?
        .to_ascii_uppercase();
    let (scheme, input) = match algo.as_str() {
        "FP8" => (QuantScheme::Fp8Tensor, 4),
        "FP8_PER_CHANNEL_PER_TOKEN" => (QuantScheme::Fp8Channel, 0),
        "NVFP4" => (
            QuantScheme::Nvfp4 {
                group_size: group_size(c, 16)?,
            },
            0,
        ),
        "MIXED_PRECISION" => return modelopt_mixed(config, c, nested.is_some()),
        other => {
            return Err(ConfigError::unsupported(format!(
                "quantization_config.quant_algo `{other}`: this ModelOpt format is not sized"
            )))
        }
    };
    let skip = match nested {
        Some(n) => strings(n, &["exclude_modules"])?,
        None => strings(config, &["ignore", "exclude_modules"])?,
    };
    let kv_fp8 = match nested {
        Some(n) => text(n, "kv_cache_quant_algo")?.is_some_and(|a| a.eq_ignore_ascii_case("fp8")),
        None => config
            .get("kv_cache_scheme")
            .and_then(Value::as_object)
            .is_some_and(|k| k.get("type").and_then(Value::as_str) == Some("float")),
    };
    let mut q = quantization(
        "modelopt",
        scheme,
        Scope::TextLinear,
        Dialect::ModelOpt,
        skip,
        input,
    )?;
    if kv_fp8 {
        // `k_proj.k_scale` and `v_proj.v_scale`, fp32 scalars.
        q.kv_scale_bytes = 8;
    }
    Ok(q)
}
