//! Decode speed against context for one engine plan: the speed model of
//! [`super::llamacpp`] or [`super::vllm`] evaluated at several context
//! lengths over the plan the scenario's own context gives.

use super::scenario::{llamacpp as llamacpp_speed, prompt_tokens};
use super::{calibration, vllm as vl, Band, Rates};
use crate::methods::{llamacpp, vllm, MethodId};
use crate::scenario::Scenario;

/// One point of the curve: the decode speed of one sequence whose cache
/// holds `context` tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodePoint {
    /// Tokens in the cache when the token is generated.
    pub context: u64,
    /// Tokens per second, with the calibration's band.
    pub decode_tokens_per_s: Band,
}

/// The decode speed of the engine plan of `method` for `s` at each of
/// `contexts`, in the order given; `None` where `method` is not an engine
/// method, refuses the scenario, or has no speed figure for it (no
/// catalog GPU).
///
/// # Formula
///
/// The plan (which bytes sit on which device, the cache's size and place)
/// is computed once, at the scenario's context; each point is that plan's
/// decode time per token with the cache read at `c` cells, the engine's
/// own formula at the end of a context of `c` tokens:
///
/// ```text
/// llama.cpp:  v(c) = 1 / ((W_gpu + K·c·s) / b_gpu + (W_host + K·c·(1 − s)) / (η_h·H) + L·o + (G − 1)·h)
/// vLLM:       v(c) = 1 / (max(mem, comp) + o),  mem = (W + K·c) / (e·BW)      (batch 1)
/// ```
///
/// `s` is the share of the cache on the GPU; every other symbol is the
/// one of [`super::llamacpp`] and [`super::vllm`], where the rates come
/// from (`data/speed/rates.json`). A context above the plan's own
/// (llama.cpp's `-c`, vLLM's `--max-model-len`) is left out: that plan's
/// cache has no room for it, and a longer context is another plan. The
/// point at the plan's own context is the report's
/// `decode_at_context_tokens_per_s`.
///
/// Worked example (the test below): Llama-3-8B Q4_K_M on an RTX 4090 at
/// 8,192 tokens reads 4.64 GB of weights and 128 KiB of cache per cell;
/// at 512 cells the cache adds 64 MiB per token, at 8,192 cells 1 GiB, so
/// decode falls by about a fifth from the first point to the last.
pub fn decode_curve(method: MethodId, s: &Scenario, contexts: &[u64]) -> Option<Vec<DecodePoint>> {
    let point = |context: u64, decode_tokens_per_s: Band| DecodePoint {
        context,
        decode_tokens_per_s,
    };
    match method {
        MethodId::Llamacpp => {
            let run = llamacpp::run(s).ok()?;
            // The same plan, its cache read at `c` cells.
            llamacpp_speed(s, &run)?;
            let points = contexts
                .iter()
                .filter(|c| (1..=s.context).contains(*c))
                .filter_map(|&c| {
                    let mut at = s.clone();
                    at.context = c;
                    llamacpp_speed(&at, &run).map(|e| point(c, e.decode_at_context_tokens_per_s))
                })
                .collect();
            Some(points)
        }
        MethodId::Vllm => {
            let run = vllm::run(s).ok()?;
            let model = s.model.as_deref()?;
            let setting = calibration::vllm_setting(
                &run,
                s.gpu?,
                s.layout.tp,
                s.sequences,
                prompt_tokens(s),
            )?;
            let rates = Rates::checked_in();
            vl::estimate(model, setting, rates, Vec::new())?;
            let points = contexts
                .iter()
                .filter(|c| (1..=setting.context).contains(*c))
                .filter_map(|&c| {
                    let at = vl::Setting {
                        context: c,
                        ..setting
                    };
                    vl::estimate(model, at, rates, Vec::new())
                        .map(|e| point(c, e.decode_at_context_tokens_per_s))
                })
                .collect();
            Some(points)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ModelRef, ScenarioInput};

    fn scenario(model: &str, gpu: &str, context: u64) -> Scenario {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog(model.into())),
            context,
            ..ScenarioInput::default()
        };
        input.set_gpu(gpu);
        input.validate().unwrap()
    }

    fn report_speed(method: MethodId, s: &Scenario) -> super::super::SpeedEstimate {
        let r = crate::methods::run(method, s).unwrap();
        match r.engine.unwrap() {
            crate::methods::engine::EngineReport::Vllm(v) => v.speed.unwrap(),
            crate::methods::engine::EngineReport::Llamacpp(l) => l.speed.unwrap(),
        }
    }

    #[test]
    fn llamacpp_decode_falls_with_the_context_and_ends_at_the_reports_figure() {
        let s = scenario("meta-llama/Meta-Llama-3-8B", "RTX 4090", 8192);
        let c = decode_curve(MethodId::Llamacpp, &s, &[512, 2048, 8192, 16384]).unwrap();
        // 16,384 is past the plan's context: left out.
        assert_eq!(
            c.iter().map(|p| p.context).collect::<Vec<_>>(),
            [512, 2048, 8192]
        );
        let v: Vec<f64> = c.iter().map(|p| p.decode_tokens_per_s.point).collect();
        assert!(v[0] > v[1] && v[1] > v[2], "{v:?}");
        // 64 MiB against 1 GiB of cache on ~4.6 GB of weights: 10–30 % slower.
        let drop = 1.0 - v[2] / v[0];
        assert!((0.1..0.3).contains(&drop), "{drop}");
        let end = report_speed(MethodId::Llamacpp, &s).decode_at_context_tokens_per_s;
        assert_eq!(c[2].decode_tokens_per_s, end);
        for p in &c {
            let b = p.decode_tokens_per_s;
            assert!(b.low <= b.point && b.point <= b.high && b.low > 0.0);
        }
    }

    #[test]
    fn vllm_decode_falls_with_the_context_and_ends_at_the_reports_figure() {
        let s = scenario("Qwen/Qwen3-8B", "H100 SXM", 32768);
        let c = decode_curve(MethodId::Vllm, &s, &[1024, 32768]).unwrap();
        assert_eq!(c.len(), 2);
        assert!(c[0].decode_tokens_per_s.point > c[1].decode_tokens_per_s.point);
        let end = report_speed(MethodId::Vllm, &s).decode_at_context_tokens_per_s;
        assert_eq!(c[1].decode_tokens_per_s, end);
    }

    #[test]
    fn a_method_without_an_engine_plan_has_no_curve() {
        let s = scenario("meta-llama/Meta-Llama-3-8B", "RTX 4090", 8192);
        assert_eq!(decode_curve(MethodId::Quick, &s, &[512]), None);
    }
}
