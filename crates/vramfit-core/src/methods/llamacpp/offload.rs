//! Which bytes go to the GPU and which stay on the host, and what fits.
//!
//! Source: llama.cpp `src/llama-model.cpp`, `llama_model::load_tensors`
//! (`i_gpu_start`, `get_layer_buft_list`; since PR #18148 the output layer
//! counts as the first layer `-ngl` offloads), `dev_input` (the input
//! layer, `token_embd`, always on the host: "there is very little benefit
//! to offloading the input layer"); `common/common.h`
//! (`LLM_FFN_EXPS_REGEX`, `--n-cpu-moe`: the expert tensors of the first
//! N blocks stay on the host); `src/llama-kv-cache.cpp` (with
//! `offload_kqv`, the default, a layer's cache lives with its layer).

use super::tensors::{GgufTensor, Role};

/// Where the layers go for `-ngl n`: which repeating layers, and whether
/// the output layer.
///
/// # Formula
///
/// ```text
/// output layer first (since PR #18148):  layer i on the GPU ⇔ i ≥ L + 1 − min(n, L + 1)   (i = L: output)
/// before:                                layer i on the GPU ⇔ i ≥ L − min(n, L),  output ⇔ n > L
/// ```
///
/// `L` repeating layers. Since December 2025 `-ngl 1` offloads the output
/// layer only and `-ngl L+1` everything but the input layer; before, `-ngl
/// n ≤ L` offloaded the last `n` repeating layers and kept the output
/// layer on the host. Source: `src/llama-model.cpp`, `load_tensors`
/// (`i_gpu_start`, `act_gpu_layers`, `get_layer_buft_list`).
///
/// ```
/// use vramfit_core::methods::llamacpp::layer_split;
/// assert_eq!(layer_split(4, 2, true), (vec![false, false, false, true], true));
/// assert_eq!(layer_split(4, 2, false), (vec![false, false, true, true], false));
/// assert_eq!(layer_split(4, 5, false), (vec![true; 4], true));
/// ```
pub fn layer_split(n_layer: u64, n_gpu_layers: u64, output_first: bool) -> (Vec<bool>, bool) {
    let total = n_layer.saturating_add(1);
    let n = n_gpu_layers.min(total);
    match output_first {
        true => {
            let start = total - n;
            ((0..n_layer).map(|i| i >= start).collect(), n >= 1)
        }
        false => {
            let start = n_layer - n.min(n_layer);
            ((0..n_layer).map(|i| i >= start).collect(), n > n_layer)
        }
    }
}

/// The host matrix product staged to the GPU, of `current` and `t`: the
/// larger weight, and of equal weights (an MoE layer's gate, up and down
/// experts) the one with more activations. `(weight bytes, input values,
/// output values)` per token: an expert product reads the token's row
/// (gate, up) or its `k` expert rows (down) and writes `k` rows.
///
/// # Formula
///
/// ```text
/// gate, up:  in = ne0,       out = ne1 · k          down:  in = ne0 · k,   out = ne1 · k
/// ```
///
/// `k` experts per token (1 for a dense matrix). Source: `src/llama-graph.cpp`,
/// `build_moe_ffn` (`ggml_mul_mat_id` on `[n_embd, 1, T]` for gate and
/// up, on `[n_ff, k, T]` for down).
pub(crate) fn larger_product(
    current: Option<(u64, u64, u64)>,
    t: &GgufTensor,
    bytes: u64,
    n_expert_used: u64,
) -> Option<(u64, u64, u64)> {
    if !t.role.quantizable() || t.role == Role::TokenEmbd {
        return current;
    }
    let k = if t.expert { n_expert_used.max(1) } else { 1 };
    let input = match t.expert && t.role == Role::FfnDown {
        true => t.ne[0].saturating_mul(k),
        false => t.ne[0],
    };
    let this = (bytes, input, t.ne[1].saturating_mul(k));
    let key = |(b, i, o): (u64, u64, u64)| (b, i.saturating_add(o));
    match current {
        Some(c) if key(c) >= key(this) => Some(c),
        _ => Some(this),
    }
}

/// Weight bytes on each side, and the largest host matrix product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct WeightSplit {
    pub gpu: u64,
    pub host: u64,
    /// `(bytes, input values, output values)` of the largest host matrix
    /// a product reads (not `token_embd`, which is only looked up).
    pub staged: Option<(u64, u64, u64)>,
}

/// Splits the weights: block tensors follow their layer (experts of the
/// first `n_cpu_moe` blocks stay on the host), `token_embd` and learned
/// positions stay on the host, the rest of the model-wide tensors follow
/// the output layer. A tied output head on the GPU is a copy of
/// `token_embd` there (`TENSOR_DUPLICATED`).
pub(crate) fn split_weights(
    tensors: &[(GgufTensor, u64)],
    gpu_layer: &[bool],
    output_on_gpu: bool,
    n_cpu_moe: u64,
    tied: bool,
    n_expert_used: u64,
) -> WeightSplit {
    let mut s = WeightSplit::default();
    for (t, bytes) in tensors {
        let on_gpu = match (t.layer, t.role) {
            (Some(i), _) => {
                let layer_gpu = gpu_layer.get(i as usize).copied().unwrap_or(false);
                layer_gpu && !(t.expert && i < n_cpu_moe)
            }
            (None, Role::TokenEmbd | Role::PosEmbd) => false,
            (None, _) => output_on_gpu,
        };
        if on_gpu {
            s.gpu = s.gpu.saturating_add(*bytes);
        } else {
            s.host = s.host.saturating_add(*bytes);
            s.staged = larger_product(s.staged, t, *bytes, n_expert_used);
        }
        if tied && output_on_gpu && t.role == Role::TokenEmbd {
            s.gpu = s.gpu.saturating_add(*bytes);
        }
    }
    if tied && !output_on_gpu {
        // The head reads token_embd on the host.
        if let Some((t, bytes)) = tensors.iter().find(|(t, _)| t.role == Role::TokenEmbd) {
            if s.staged.is_none_or(|(b, _, _)| *bytes > b) {
                s.staged = Some((*bytes, t.ne[0], t.ne[1]));
            }
        }
    }
    s
}

/// The span a backend maps of the file for its tensors (Metal with mmap,
/// `ggml_backend_dev_buffer_from_host_ptr` over
/// `llama_model_loader::get_mapping_range`): every tensor from the first
/// that is on the GPU to the last, in the file's order.
///
/// # Formula
///
/// ```text
/// mapped = Σ bytes(t_i) for i from min{i : t_i on the GPU} to max{i : t_i on the GPU}
/// ```
///
/// The order is llama-quantize's (`weight_name_comparer` in
/// `src/llama-model-loader.h`: model-wide tensors first, then by block,
/// by name within each): `output.weight` before `token_embd.weight`, so
/// with the output layer on the GPU the mapped span holds `token_embd`,
/// which the host maps as well (load logs U1, U3: 586.82 MiB in both
/// `CPU_Mapped` and the Metal buffer).
pub(crate) fn mapped_span(
    tensors: &[(GgufTensor, u64)],
    on_gpu: &dyn Fn(&GgufTensor) -> bool,
) -> u64 {
    let mut order: Vec<(i64, &str, u64, bool)> = tensors
        .iter()
        .map(|(t, b)| {
            (
                t.layer.map_or(-1, |l| l as i64),
                t.name.as_str(),
                *b,
                on_gpu(t),
            )
        })
        .collect();
    order.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let first = order.iter().position(|x| x.3);
    let last = order.iter().rposition(|x| x.3);
    match (first, last) {
        (Some(f), Some(l)) => order[f..=l]
            .iter()
            .map(|x| x.2)
            .fold(0u64, u64::saturating_add),
        _ => 0,
    }
}
