//! The speed of an engine method's plan for a validated scenario: the
//! device, backend, host bandwidth and prompt read from the scenario, the
//! plan from the method's own run.

use super::{backend_of, host_bytes_per_s, llamacpp as lc, vllm as vl, Device};
use super::{Rates, SpeedAssumption, SpeedEstimate};
use crate::methods::llamacpp::LlamacppRun;
use crate::methods::vllm::VllmRun;
use crate::scenario::{Scenario, DEFAULT_PROMPT_TOKENS};

/// The prompt a scenario's figures are for: as given, else 512 tokens;
/// at most the context.
pub fn prompt_tokens(s: &Scenario) -> u64 {
    s.speed
        .prompt_tokens
        .unwrap_or(DEFAULT_PROMPT_TOKENS)
        .min(s.context)
        .max(1)
}

/// llama.cpp's speed for the plan of `run`; `None` without a catalog GPU.
pub fn llamacpp(s: &Scenario, run: &LlamacppRun) -> Option<SpeedEstimate> {
    let gpu = s.gpu?;
    let model = s.model.as_deref()?;
    let mut notes = Vec::new();
    let host = host_bytes_per_s(&s.speed, Some(gpu), &mut notes);
    let setting = lc::Setting {
        device: Device::of(gpu),
        gpus: s.layout.gpus.max(1),
        backend: backend_of(s),
        host_bytes_per_s: host,
        prompt_tokens: prompt_tokens(s),
        context: s.context,
    };
    let mut e = lc::estimate(run, model, setting, Rates::checked_in(), notes)?;
    if e.host_layers == 0 && run.inputs.n_cpu_moe == 0 {
        // Only the input embedding's look-up is on the host: the host's
        // bandwidth does not matter.
        e.assumptions
            .retain(|n| !matches!(n, SpeedAssumption::HostBandwidthDefault { .. }));
    }
    Some(e)
}

/// vLLM's speed for the plan of `run` at the scenario's sequences at once;
/// `None` without a catalog GPU.
pub fn vllm(s: &Scenario, run: &VllmRun) -> Option<SpeedEstimate> {
    let gpu = s.gpu?;
    let model = s.model.as_deref()?;
    let setting = crate::methods::speed::calibration::vllm_setting(
        run,
        gpu,
        s.layout.tp,
        s.sequences,
        prompt_tokens(s),
    )?;
    vl::estimate(model, setting, Rates::checked_in(), Vec::new())
}
