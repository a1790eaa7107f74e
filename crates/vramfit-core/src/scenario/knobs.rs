//! The knobs seed 002 (the planner) names, part of the scenario as entered
//! (its `planner` object): what a person enters ([`PlannerKnobs`]), their
//! ranges, and the exact, validated copy a [`Scenario`](super::Scenario)
//! carries ([`PlannerSettings`]). Each knob is checked on its own here;
//! whether it agrees with the model and the workload is the planner's
//! precondition.
//!
//! Defaults are seed 002's ("Predeterminados propios: K=20, contexto del
//! motor=1,073741824 GB/GPU, margen=15 %, reserva=10 %, metadatos
//! cuantizados=5 %, bloques KV=16 tokens y prefill=2048 tokens"). Where the
//! seed names a choice without a default, the choice made here is stated
//! on the field and in `docs/methods/planner.md`.

use super::knob_error::{Knob, KnobProblem, PlannerError};
use crate::units::{Bytes, DisplayUnit};
use serde::{Deserialize, Serialize};

/// Which sequences the KV cache is reserved for (seed 002: "La política
/// seleccionada reserva KV para todas o solo para las activas").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum KvPolicy {
    /// Every request assigned to a replica, queued ones included. The
    /// default: it is the conservative reading, and the one the speed
    /// model's fair sharing between queued requests presumes.
    #[default]
    All,
    /// Only the sequences decoded at once (`min(batch limit, requests)`).
    Active,
}

/// The planner's knobs as entered. Missing keys take the defaults; unknown
/// keys are rejected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlannerKnobs {
    /// `K` in `activations = 2 × K × tokens × H` (seed default 20).
    pub activation_k: f64,
    /// Engine context per GPU, decimal GB (seed default 1.073741824 = 1 GiB).
    pub engine_context_gb: f64,
    /// Margin on the components, percent (seed default 15).
    pub margin_pct: f64,
    /// Share of the nominal memory kept out of use, percent (seed default 10).
    pub reserve_pct: f64,
    /// Scales and zero points of quantized weights, percent of their
    /// payload (seed default 5; also QLoRA's base).
    pub quant_metadata_pct: f64,
    /// Tokens per paged KV block (seed default 16).
    pub kv_block_tokens: u64,
    /// Prefill budget in tokens (seed default 2,048).
    pub prefill_budget_tokens: u64,
    /// Which sequences get a KV reservation (default: all).
    pub kv_policy: KvPolicy,
    /// Prompt prefix shared by every sequence of a replica, in tokens
    /// (default 0: nothing shared).
    pub shared_prefix_tokens: u64,
    /// A fused attention kernel (no `S²` score matrix). Default true. The
    /// scenario's `attn: eager` also turns it off.
    pub efficient_attention: bool,
    /// Training: a 4-byte master copy per trainable parameter. Default
    /// true (mixed-precision AdamW: 2 + 2 + 4 + 8 = 16 bytes per parameter).
    pub master_copy: bool,
    /// Training: bytes per gradient, 2 (BF16, the default) or 4 (FP32).
    pub gradient_bytes: u64,
    /// Machines (equipos) the scenario's GPUs are spread over, for the
    /// host RAM each GPU may offload to (default 1).
    pub machines: u64,
    /// The engine's largest batch (seed 002's "lote"): sequences of a
    /// replica beyond it wait in the queue, their KV cache still reserved
    /// under policy `all` (default: none, every sequence is decoded at
    /// once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch_limit: Option<u64>,
    /// Weights moved to host RAM, decimal GB per GPU (default 0).
    pub offload_gb: f64,
    /// Custom model (no catalog model or config): hidden size `H`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_size: Option<u64>,
    /// Custom model: vocabulary `V`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab_size: Option<u64>,
    /// Custom model: query heads (default `H / head dimension`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attention_heads: Option<u64>,
    /// `U`, unquantized parameters kept in BF16, in billions (default: the
    /// model's embeddings and output head; `2 × V × H` for a custom model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unquantized_params_b: Option<f64>,
    /// `U32`, the part of `U` kept in FP32, in billions (default 0).
    pub fp32_params_b: f64,
    /// Speed: prompt tokens of the prefill estimate (default: the context).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Speed: target tokens/s per user the conservative figure is compared
    /// with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_tokens_per_s: Option<f64>,
}

impl Default for PlannerKnobs {
    fn default() -> Self {
        PlannerKnobs {
            activation_k: 20.0,
            engine_context_gb: 1.073741824,
            margin_pct: 15.0,
            reserve_pct: 10.0,
            quant_metadata_pct: 5.0,
            kv_block_tokens: 16,
            prefill_budget_tokens: 2048,
            kv_policy: KvPolicy::All,
            shared_prefix_tokens: 0,
            efficient_attention: true,
            master_copy: true,
            gradient_bytes: 2,
            machines: 1,
            batch_limit: None,
            offload_gb: 0.0,
            hidden_size: None,
            vocab_size: None,
            attention_heads: None,
            unquantized_params_b: None,
            fp32_params_b: 0.0,
            prompt_tokens: None,
            target_tokens_per_s: None,
        }
    }
}

/// The validated knobs in exact integer units.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannerSettings {
    /// `K` in thousandths (20 = 20,000).
    pub activation_milli_k: u64,
    pub engine_context_bytes: Bytes,
    /// Percentages in hundredths of a percent (15 % = 1,500).
    pub margin_centi_pct: u64,
    pub reserve_centi_pct: u64,
    pub metadata_centi_pct: u64,
    pub block_tokens: u64,
    pub prefill_budget: u64,
    pub kv_policy: KvPolicy,
    pub shared_prefix: u64,
    pub efficient_attention: bool,
    pub master_copy: bool,
    pub gradient_bytes: u64,
    pub machines: u64,
    pub batch_limit: Option<u64>,
    /// Offloaded weights per GPU, bytes.
    pub offload_bytes: Bytes,
    pub hidden_size: Option<u64>,
    pub vocab_size: Option<u64>,
    pub attention_heads: Option<u64>,
    pub unquantized_params: Option<u64>,
    pub fp32_params: u64,
    pub prompt_tokens: Option<u64>,
    pub target_tokens_per_s: Option<f64>,
}

impl Default for PlannerSettings {
    /// The seed's defaults, exactly what [`PlannerKnobs::default`]
    /// validates to (a unit test checks it).
    fn default() -> Self {
        PlannerSettings {
            activation_milli_k: 20_000,
            engine_context_bytes: Bytes(1 << 30),
            margin_centi_pct: 1_500,
            reserve_centi_pct: 1_000,
            metadata_centi_pct: 500,
            block_tokens: 16,
            prefill_budget: 2048,
            kv_policy: KvPolicy::All,
            shared_prefix: 0,
            efficient_attention: true,
            master_copy: true,
            gradient_bytes: 2,
            machines: 1,
            batch_limit: None,
            offload_bytes: Bytes::ZERO,
            hidden_size: None,
            vocab_size: None,
            attention_heads: None,
            unquantized_params: None,
            fp32_params: 0,
            prompt_tokens: None,
            target_tokens_per_s: None,
        }
    }
}

impl PlannerKnobs {
    /// Range-checks every knob on its own; on success the exact settings.
    /// Checks that need the model or the workload (prefix ≤ context,
    /// `U ≤ P`, offload limits) are the planner's own preconditions.
    pub fn settings(&self) -> Result<PlannerSettings, Vec<PlannerError>> {
        let mut errors = Vec::new();
        let mut real = |knob: Knob, value: f64| -> f64 {
            let (min, max) = knob.range();
            let problem = if !value.is_finite() {
                Some(KnobProblem::NotANumber)
            } else if value < min || value > max {
                Some(KnobProblem::OutOfRange { min, max })
            } else {
                None
            };
            match problem {
                Some(problem) => {
                    errors.push(PlannerError { knob, problem });
                    0.0
                }
                None => value,
            }
        };
        let k = real(Knob::ActivationK, self.activation_k);
        let engine = real(Knob::EngineContextGb, self.engine_context_gb);
        let margin = real(Knob::MarginPct, self.margin_pct);
        let reserve = real(Knob::ReservePct, self.reserve_pct);
        let metadata = real(Knob::QuantMetadataPct, self.quant_metadata_pct);
        let offload = real(Knob::OffloadGb, self.offload_gb);
        let fp32 = real(Knob::Fp32ParamsB, self.fp32_params_b);
        let unquantized = self
            .unquantized_params_b
            .map(|u| real(Knob::UnquantizedParamsB, u));
        let target = self
            .target_tokens_per_s
            .map(|t| real(Knob::TargetTokensPerS, t));
        let mut whole = |knob: Knob, value: u64| {
            let (min, max) = knob.range();
            if (value as f64) < min || (value as f64) > max {
                errors.push(PlannerError {
                    knob,
                    problem: KnobProblem::OutOfRange { min, max },
                });
            }
            value
        };
        let block_tokens = whole(Knob::KvBlockTokens, self.kv_block_tokens);
        let prefill_budget = whole(Knob::PrefillBudgetTokens, self.prefill_budget_tokens);
        let shared_prefix = whole(Knob::SharedPrefixTokens, self.shared_prefix_tokens);
        let machines = whole(Knob::Machines, self.machines);
        let batch_limit = self.batch_limit.map(|v| whole(Knob::BatchLimit, v));
        let hidden_size = self.hidden_size.map(|v| whole(Knob::HiddenSize, v));
        let vocab_size = self.vocab_size.map(|v| whole(Knob::VocabSize, v));
        let attention_heads = self.attention_heads.map(|v| whole(Knob::AttentionHeads, v));
        let prompt_tokens = self.prompt_tokens.map(|v| whole(Knob::PromptTokens, v));
        if !matches!(self.gradient_bytes, 2 | 4) {
            errors.push(PlannerError {
                knob: Knob::GradientBytes,
                problem: KnobProblem::NotTwoOrFour,
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let hundredths = |pct: f64| (pct * 100.0).round() as u64;
        let billions = |b: f64| (b * 1e9).round() as u64;
        Ok(PlannerSettings {
            activation_milli_k: (k * 1_000.0).round() as u64,
            engine_context_bytes: Bytes::from_unit(engine, DisplayUnit::Gb),
            margin_centi_pct: hundredths(margin),
            reserve_centi_pct: hundredths(reserve),
            metadata_centi_pct: hundredths(metadata),
            block_tokens,
            prefill_budget,
            kv_policy: self.kv_policy,
            shared_prefix,
            efficient_attention: self.efficient_attention,
            master_copy: self.master_copy,
            gradient_bytes: self.gradient_bytes,
            machines,
            batch_limit,
            offload_bytes: Bytes::from_unit(offload, DisplayUnit::Gb),
            hidden_size,
            vocab_size,
            attention_heads,
            unquantized_params: unquantized.map(billions),
            fp32_params: billions(fp32),
            prompt_tokens,
            target_tokens_per_s: target,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_seeds_and_exact() {
        let s = PlannerKnobs::default().settings().unwrap();
        assert_eq!(s, PlannerSettings::default());
        assert_eq!(s.engine_context_bytes, Bytes(1_073_741_824));
        assert_eq!(s.reserve_centi_pct, 1_000);
    }

    #[test]
    fn every_bad_knob_is_named() {
        let knobs = PlannerKnobs {
            reserve_pct: 100.0,
            activation_k: f64::NAN,
            kv_block_tokens: 0,
            gradient_bytes: 3,
            ..PlannerKnobs::default()
        };
        let errors = knobs.settings().unwrap_err();
        let named: Vec<Knob> = errors.iter().map(|e| e.knob).collect();
        assert_eq!(
            named,
            [
                Knob::ActivationK,
                Knob::ReservePct,
                Knob::KvBlockTokens,
                Knob::GradientBytes
            ]
        );
        assert_eq!(
            errors[1].to_string(),
            "planner.reserve_pct must be between 0 and 99"
        );
        assert_eq!(
            errors[3].to_string(),
            "planner.gradient_bytes must be 2 (BF16) or 4 (FP32)"
        );
    }

    #[test]
    fn json_takes_defaults_and_rejects_unknown_keys() {
        let knobs: PlannerKnobs =
            serde_json::from_str(r#"{"kv_policy": "active", "margin_pct": 20}"#).unwrap();
        assert_eq!(knobs.kv_policy, KvPolicy::Active);
        assert_eq!(knobs.activation_k, 20.0);
        assert!(serde_json::from_str::<PlannerKnobs>(r#"{"margen": 1}"#).is_err());
    }
}
