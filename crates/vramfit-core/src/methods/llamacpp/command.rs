//! The `llama-server` line that reproduces an estimate.

use super::LlamaCppInputs;
use crate::model::ModelSpec;

/// `llama-server -m <model>-<TYPE>.gguf -c N -ngl N -ctk T -ctv T -fa on|off`,
/// plus the flags whose values differ from llama.cpp's defaults
/// (`common/arg.cpp`).
///
/// The file name is the model's name (the last part of `_name_or_path`,
/// else its `model_type`) and the file type, the way GGUF files are
/// usually named; characters other than letters, digits, `.`, `_` and `-`
/// become `-`, so the line can be pasted into a shell as is.
pub(super) fn llama_server(
    model: &ModelSpec,
    inputs: &LlamaCppInputs,
    n_ctx: u64,
    n_gpu_layers: u64,
) -> String {
    let name = model
        .name
        .as_deref()
        .or(model.model_type.as_deref())
        .unwrap_or("model");
    llama_server_named(name, inputs, n_ctx, n_gpu_layers)
}

/// [`llama_server`] for a model named `name` (a Hugging Face id or a
/// path: its last part names the file).
pub(crate) fn llama_server_named(
    name: &str,
    inputs: &LlamaCppInputs,
    n_ctx: u64,
    n_gpu_layers: u64,
) -> String {
    let name = name
        .rsplit('/')
        .find(|part| !part.is_empty())
        .unwrap_or("model");
    let name: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '-',
            },
        )
        .collect();
    let file = format!("{name}-{}.gguf", inputs.file_type.name());
    llama_server_file(&file, inputs, n_ctx, n_gpu_layers)
}

/// [`llama_server`] for the GGUF file `file` (a name, printed as given).
pub(crate) fn llama_server_file(
    file: &str,
    inputs: &LlamaCppInputs,
    n_ctx: u64,
    n_gpu_layers: u64,
) -> String {
    let defaults = LlamaCppInputs::default();
    let mut line = format!(
        "llama-server -m {file} -c {n_ctx} -ngl {n_gpu_layers} -ctk {} -ctv {} -fa {}",
        inputs.cache_type_k.name(),
        inputs.cache_type_v.name(),
        if inputs.flash_attn { "on" } else { "off" },
    );
    if inputs.n_batch != defaults.n_batch {
        line.push_str(&format!(" -b {}", inputs.n_batch));
    }
    if inputs.n_ubatch != defaults.n_ubatch {
        line.push_str(&format!(" -ub {}", inputs.n_ubatch));
    }
    let auto_slots = inputs.n_parallel == defaults.n_parallel && inputs.kv_unified;
    if !auto_slots {
        line.push_str(&format!(" -np {}", inputs.n_parallel));
        if inputs.kv_unified {
            line.push_str(" -kvu");
        }
    }
    if inputs.n_cpu_moe > 0 {
        line.push_str(&format!(" --n-cpu-moe {}", inputs.n_cpu_moe));
    }
    if inputs.swa_full {
        line.push_str(" --swa-full");
    }
    if !inputs.op_offload {
        line.push_str(" --no-op-offload");
    }
    line
}
