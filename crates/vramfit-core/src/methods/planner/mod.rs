//! Method `planner` — seed 002 ("Metodología de memoria v0.3"): a
//! per-GPU planning budget for serving or training one model over tensor
//! and pipeline parallelism, replicas and users, in decimal GB.
//!
//! ```text
//! total  = weights + adapters + kv_cache + activations + logits
//!        + attention_scores + gradients + optimizer + master_weights
//!        + communication + offload_staging            (the components)
//!        + margin (m % of the components) + engine_context
//! usable = nominal memory × (1 − reserve)
//! ```
//!
//! One module per group of terms, each with its formulas: [`weights`]
//! (quantization, `U`, `U32`, TP and PP placement), [`residency`]
//! (replicas, queued and active requests), [`kv`] (MHA/GQA/MQA/MLA, paged
//! blocks, shared prefix, windows), [`activations`] (activations, logits,
//! the `S²` matrix), [`training`] (AdamW, gradients, master copy,
//! adapters), [`comm`] (communication buffers, offload) and [`speed`]
//! (the roofline decode and prefill estimate). Every figure is for the
//! most loaded GPU; the verdict compares `total` with `usable` on the
//! seed's ring (≤ 60 % holgada, ≤ 85 % con margen, ≤ 100 % ajustada,
//! else no cabe with the missing GB).
//!
//! Defaults (the seed's own, [`PlannerKnobs`]): `K` = 20, engine context
//! 1.073741824 GB per GPU, margin 15 %, reserve 10 %, quantization metadata
//! 5 %, KV blocks of 16 tokens, prefill budget 2,048 tokens. The symbols
//! and worked examples are in `docs/methods/planner.md`.
//!
//! ```
//! use vramfit_core::{methods::planner, scenario::ScenarioInput, term::Term, units::Bytes};
//! let mut input = ScenarioInput::default(); // 8B, 32 layers, 8 KV heads, 8K, 24 GB
//! input.planner.hidden_size = Some(4096);
//! input.planner.vocab_size = Some(128_000);
//! let r = planner::estimate(&input.validate().unwrap()).unwrap();
//! assert_eq!(r.components.get(Term::Weights), Some(Bytes(16_000_000_000)));
//! assert_eq!(r.components.get(Term::KvCache), Some(Bytes(1_073_741_824)));
//! assert_eq!(r.total_bytes, 21_095_009_690);
//! assert_eq!(r.verdict.usable_bytes, 21_600_000_000); // 24 GB × 90 %
//! ```

pub mod activations;
pub mod comm;
pub mod kv;
pub mod residency;
pub mod shape;
pub mod speed;
pub mod training;
pub mod weights;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_more;

pub use residency::Residency;
pub use speed::{speed, NoSpeed, Speed, SpeedRange};

use crate::methods::Refusal;
use crate::methods::{Component, Components, MethodId, MethodResult};
use crate::scenario::{AttnImpl, Knob, KnobProblem, Mode, PlannerError, Scenario};
use crate::term::Term;
use crate::units::{percent_of, sum, Bytes};
use activations::Workload;
use kv::KvLayout;
use shape::Dims;
use weights::WeightBytes;

/// Everything the planner derives for a scenario, for the most loaded GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub residency: Residency,
    /// Layers of the largest pipeline stage, `⌈L / PP⌉`.
    pub stage_layers: u64,
    /// Key/value heads per GPU, `max(1, ⌈KV heads / TP⌉)`.
    pub local_kv_heads: u64,
    /// The whole model's weights (before TP, PP and offload).
    pub weights: WeightBytes,
    /// Weights moved to host RAM from this GPU.
    pub offloaded_bytes: Bytes,
    /// The terms in order, margin and engine context last.
    pub components: Components,
    pub total_bytes: Bytes,
    /// Nominal memory × (1 − reserve).
    pub usable_bytes: Bytes,
}

impl Plan {
    /// The method's result: components, total and verdict.
    pub fn result(&self) -> MethodResult {
        MethodResult {
            components: self.components.clone(),
            ..MethodResult::new(MethodId::Planner, &[], self.total_bytes, self.usable_bytes)
        }
    }
}

/// Seed 002 plans serving, full fine-tuning, LoRA and QLoRA.
pub const fn covers(mode: Mode) -> bool {
    matches!(
        mode,
        Mode::Inference | Mode::Full | Mode::Lora | Mode::Qlora
    )
}

/// Seed 002's estimate for a validated scenario, or why it cannot make
/// one: typed numbers without the
/// custom model's hidden size and vocabulary, linear-attention layers,
/// training with an optimizer other than AdamW, or knobs that contradict
/// the model or the workload ([`check_knobs`]).
pub fn estimate(s: &Scenario) -> Result<MethodResult, Refusal> {
    plan(s).map(|p| MethodResult {
        // Every GPU of every replica carries the largest stage's budget.
        gpus: s.layout.gpus,
        ..p.result()
    })
}

/// The whole derivation (see [`estimate`]).
pub fn plan(s: &Scenario) -> Result<Plan, Refusal> {
    if !covers(s.mode) {
        return Err(Refusal::Mode(s.mode));
    }
    let k = &s.planner;
    let (tp, pp) = (s.layout.tp, s.layout.pp);
    let d = Dims::of(s, k)?;
    check_knobs(s, &d).map_err(Refusal::Knob)?;
    let stage_layers = d.layers.div_ceil(pp.max(1));
    let res = residency::residency(s, k);
    let training = s.mode.trains();
    let t = training::training(s, &d, k, stage_layers)?;

    let w = weights::of_scenario(s, &d, k.metadata_centi_pct);
    let (body_gpu, u_gpu) = weights::per_gpu(&w, d.layers, stage_layers, tp);
    let offloaded = k.offload_bytes.get().min(body_gpu);
    let kv_cache = match training {
        true => 0,
        false => kv::kv_per_gpu(
            &d,
            &KvLayout {
                context: s.context,
                shared_prefix: k.shared_prefix,
                block_tokens: k.block_tokens,
                sequences: res.kv_sequences,
                tp,
                stage_layers,
                kv_milli_bits: s.kv_milli_bits,
            },
        ),
    };
    let work = Workload {
        training,
        sequences: if training {
            s.replica_sequences()
        } else {
            res.active
        },
        context: s.context,
        prefill_budget: k.prefill_budget,
        tp,
        stage_layers,
        checkpointing: s.grad_checkpoint,
    };
    let mut terms = vec![
        (Term::Weights, (body_gpu - offloaded).saturating_add(u_gpu)),
        (Term::Adapters, t.adapters),
        (Term::KvCache, kv_cache),
        (
            Term::Activations,
            activations::activations(&d, &work, k.activation_milli_k),
        ),
        (Term::Logits, activations::logits(&d, &work)),
        (
            Term::AttentionScores,
            activations::attention_scores(&d, &work, efficient_attention(s)),
        ),
        (Term::Gradients, t.gradients),
        (Term::Optimizer, t.optimizer),
        (Term::MasterWeights, t.master_weights),
        (
            Term::Communication,
            comm::communication(work.tokens(), d.hidden, tp, pp),
        ),
        (
            Term::OffloadStaging,
            comm::staging(offloaded, w.body, d.layers, tp),
        ),
    ];
    let margin = percent_of(sum(terms.iter().map(|t| t.1)), k.margin_centi_pct);
    terms.push((Term::Margin, margin));
    terms.push((Term::EngineContext, k.engine_context_bytes.get()));
    let total = sum(terms.iter().map(|t| t.1));
    Ok(Plan {
        residency: res,
        stage_layers,
        local_kv_heads: kv::local_kv_heads(d.kv_heads, tp),
        weights: w,
        offloaded_bytes: Bytes(offloaded),
        components: Components(
            terms
                .into_iter()
                .map(|(term, bytes)| Component {
                    term,
                    bytes: Bytes(bytes),
                })
                .collect(),
        ),
        total_bytes: Bytes(total),
        usable_bytes: s
            .gpu_bytes()
            .percent(10_000 - k.reserve_centi_pct.min(10_000)),
    })
}

/// Whether attention runs a fused kernel (no `S²` score matrix): the
/// planner's knob, unless the scenario's `attn` is eager, which
/// materializes the scores whatever the knob says.
pub fn efficient_attention(s: &Scenario) -> bool {
    s.planner.efficient_attention && s.attn != AttnImpl::Eager
}

/// The planner's knobs that must agree with the model or the workload
/// ("rechazo de configuraciones inválidas"): a shared prefix within the
/// context, `U32 ≤ U ≤ P`, and offload within the body weights on one GPU
/// and within 80 % of the host RAM over all GPUs of a machine. The first
/// that does not, by the order of the seed's list.
///
/// These are the planner's preconditions, not the scenario's: the other
/// methods do not read these knobs and still estimate the scenario.
pub fn check_knobs(s: &Scenario, d: &Dims) -> Result<(), PlannerError> {
    let k = &s.planner;
    let reject = |knob, problem| Err(PlannerError { knob, problem });
    if k.shared_prefix > s.context {
        return reject(
            Knob::SharedPrefixTokens,
            KnobProblem::AboveContext { context: s.context },
        );
    }
    if d.unquantized > d.params {
        return reject(
            Knob::UnquantizedParamsB,
            KnobProblem::AboveParams { params: d.params },
        );
    }
    if d.fp32 > d.unquantized {
        return reject(
            Knob::Fp32ParamsB,
            KnobProblem::AboveUnquantized {
                unquantized: d.unquantized,
            },
        );
    }
    let offload = k.offload_bytes.get();
    if offload > 0 {
        let stage_layers = d.layers.div_ceil(s.layout.pp.max(1));
        let w = weights::of_scenario(s, d, k.metadata_centi_pct);
        let (body_gpu, _) = weights::per_gpu(&w, d.layers, stage_layers, s.layout.tp);
        if offload > body_gpu {
            return reject(
                Knob::OffloadGb,
                KnobProblem::AboveBodyWeights {
                    max_bytes: Bytes(body_gpu),
                },
            );
        }
    }
    let ram_limit = comm::host_ram_limit_per_gpu(
        s.host_ram_bytes.get(),
        s.layout.gpus.div_ceil(k.machines.max(1)),
    );
    if offload > ram_limit {
        return reject(
            Knob::OffloadGb,
            KnobProblem::AboveHostRam {
                max_bytes: Bytes(ram_limit),
            },
        );
    }
    Ok(())
}
