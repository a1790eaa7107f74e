//! This machine's runtime terms fitted on its own start-up log, and the
//! prediction beside each logged figure.

use super::{FigureUnit, LogFigure, VllmLog};
use crate::methods::vllm::{estimate, VllmEstimate, VllmInputs, VllmModel};
use crate::scenario::VllmCalibration;
use serde::Serialize;

/// One figure: the prediction (with the GPU class's terms) and the log's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Compared {
    pub figure: LogFigure,
    /// In [`Compared::unit`]: GiB, tokens or times.
    pub predicted: f64,
    pub logged: Option<f64>,
    /// The figure's own ([`LogFigure::unit`]).
    pub unit: FigureUnit,
}

/// The fit: the comparison, and the terms that reproduce the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    pub compared: Vec<Compared>,
    /// What the scenario carries (`engine.vllm_calibration`).
    pub calibration: VllmCalibration,
    /// The log's run predicted with the fitted terms.
    pub refit: VllmEstimate,
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / crate::units::GIB as f64
}

/// Fits this machine's runtime terms on `log`, whose run is `inputs` of
/// `model` on a GPU of `total_bytes`.
///
/// # Formula
///
/// ```text
/// residual = (requested − KV_logged) − (W + P + N + G)_predicted
/// non_torch_offset = residual,  graph_estimate = G_logged where printed
/// ```
///
/// `requested = ⌈M_total · u⌉` and the predicted non-KV memory use the GPU
/// class's terms ([`crate::methods::vllm::runtime_terms`]); what the
/// prediction misses of the log's non-KV memory (`requested − KV`, which
/// is what vLLM subtracts) is this machine's: it is added to the
/// non-torch memory of every worker of any other scenario on the machine.
/// With it the log's own KV memory is reproduced to the byte (up to the
/// block rounding of the tokens).
pub fn fit(
    log: &VllmLog,
    model: &VllmModel,
    inputs: &VllmInputs,
    total_bytes: u64,
) -> Result<Calibration, String> {
    let e = estimate(model, total_bytes, inputs).map_err(|e| e.to_string())?;
    let rank = e.ranks.first().ok_or("no worker")?;
    let logged_non_kv = e.requested_bytes as i128 - log.kv_cache_bytes as i128;
    // 0.18 and 0.19 print the estimate without taking it off the cache
    // (`GraphEstimate::ProfiledOnly`): it counts only where the release
    // sets it aside, which the prediction's reserve says.
    let graph = match rank.graph_reserve_bytes {
        0 => 0,
        reserve => log.graph_estimate_bytes.unwrap_or(reserve),
    };
    let predicted_non_kv =
        rank.non_kv_bytes as i128 - rank.graph_reserve_bytes as i128 + graph as i128;
    let residual = logged_non_kv - predicted_non_kv;
    let offset = residual.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    let calibration = VllmCalibration {
        non_torch_offset_bytes: offset,
        graph_estimate_bytes: log.graph_estimate_bytes,
        cuda_total_bytes: log.total_bytes,
    };
    let refit_inputs = VllmInputs {
        runtime: inputs.runtime.calibrated(&calibration),
        ..inputs.clone()
    };
    let refit = estimate(model, total_bytes, &refit_inputs).map_err(|e| e.to_string())?;
    let b = |figure: LogFigure, predicted: u64, logged: Option<u64>| Compared {
        figure,
        predicted: gib(predicted),
        logged: logged.map(gib),
        unit: figure.unit(),
    };
    let compared = vec![
        b(
            LogFigure::Weights,
            rank.weights_bytes,
            Some(log.weights_bytes),
        ),
        b(
            LogFigure::ActivationPeak,
            rank.activation_peak_bytes,
            log.activation_peak_bytes,
        ),
        b(
            LogFigure::NonTorch,
            rank.non_torch_bytes,
            log.non_torch_bytes,
        ),
        b(
            LogFigure::GraphsSetAside,
            rank.graph_reserve_bytes,
            log.graph_estimate_bytes,
        ),
        b(
            LogFigure::KvCacheMemory,
            rank.kv_cache_bytes,
            Some(log.kv_cache_bytes),
        ),
        Compared {
            figure: LogFigure::KvCacheTokens,
            predicted: e.kv_cache_tokens as f64,
            logged: log.kv_cache_tokens.map(|t| t as f64),
            unit: LogFigure::KvCacheTokens.unit(),
        },
        Compared {
            figure: LogFigure::MaxConcurrency,
            predicted: e.max_concurrency,
            logged: log.max_concurrency,
            unit: LogFigure::MaxConcurrency.unit(),
        },
        b(
            LogFigure::GraphsCaptured,
            rank.cuda_graph_bytes,
            log.cuda_graph_bytes,
        ),
    ];
    Ok(Calibration {
        compared,
        calibration,
        refit,
    })
}

/// The log's model: the catalog entry it names (a hub id, or the last two
/// parts of a local path), else `None`.
fn log_model(log: &VllmLog) -> Option<VllmModel> {
    let name = log.model.as_deref()?.trim_end_matches('/');
    let parts: Vec<&str> = name.rsplit('/').take(2).collect();
    let tail = match parts.as_slice() {
        [last, owner] => format!("{owner}/{last}"),
        _ => name.to_string(),
    };
    [name.to_string(), tail].iter().find_map(|id| {
        let entry = crate::catalog::find_model(id).ok()?;
        (entry.id.eq_ignore_ascii_case(id)).then_some(())?;
        VllmModel::from_config(&entry.config).ok()
    })
}

/// Fits the machine's runtime terms on `log`, on the scenario's GPU (its
/// SM count, compute capability and runtime row; its total where the log
/// prints none) and the log's model where the catalog has it, else the
/// scenario's: the log's own options (TP, context, utilization, batch
/// limits, dtype, KV dtype, eager, release) make the run.
pub fn fit_scenario(log: &VllmLog, s: &crate::scenario::Scenario) -> Result<Calibration, String> {
    use crate::methods::vllm::{KvCacheDtype, ModelDtype, OnlineQuant, Utilization, VllmRelease};
    if log.v0 {
        return Err("a V0 engine log (\"Memory profiling results\"): V0 profiles a whole                     max_model_len at once; vramfit fits on the V1 engine's logs (0.8 on)"
            .to_string());
    }
    let run = crate::methods::vllm::run(s).map_err(|e| e.to_string())?;
    let model = match log_model(log) {
        Some(m) => m,
        None => {
            let spec = s.model.clone().ok_or("the scenario has no model")?;
            VllmModel::shared(spec, s.model_config.as_ref().map(|c| c.as_str()))
        }
    };
    let release = log.release.unwrap_or(VllmRelease::DEFAULT);
    let utilization = log
        .gpu_memory_utilization
        .as_deref()
        .and_then(Utilization::parse)
        // Not printed among the non-default arguments: the release's default
        // (0.92 from 0.20).
        .or_else(|| {
            crate::methods::vllm::release_facts(release)
                .ok()
                .map(|f| Utilization(f.gpu_memory_utilization.value))
        })
        .unwrap_or(Utilization::DEFAULT);
    let inputs = VllmInputs {
        tp: log.tp.unwrap_or(1),
        pp: 1,
        max_model_len: log.max_model_len.or(Some(s.context)),
        gpu_memory_utilization: utilization,
        max_num_batched_tokens: log.max_num_batched_tokens,
        max_num_seqs: log.max_num_seqs,
        dtype: log
            .dtype
            .as_deref()
            .and_then(ModelDtype::parse)
            .unwrap_or_default(),
        quantization: match (
            log.quantization.as_deref(),
            model.spec.quantization.is_some(),
        ) {
            (Some("fp8"), false) => OnlineQuant::Fp8,
            _ => OnlineQuant::None,
        },
        kv_cache_dtype: match log.kv_cache_dtype.as_deref() {
            Some(k) if k.starts_with("fp8") => KvCacheDtype::Fp8,
            _ => KvCacheDtype::Auto,
        },
        enforce_eager: log.enforce_eager.unwrap_or(false),
        release,
        ..run.inputs.clone()
    };
    let total = log.total_bytes.unwrap_or(run.gpu_total_bytes);
    fit(log, &model, &inputs, total)
}
