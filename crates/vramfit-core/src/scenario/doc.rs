//! A scenario as a document stores it, and how a document written by an
//! earlier version is read.
//!
//! Every key is optional (a missing key takes the default of
//! [`ScenarioInput::default`]); an unknown key is rejected by name.
//!
//! Documents written before the one `sequences` field carried two keys
//! for it, `batch` (sequences at once, per copy of the model, read by
//! every method but the planner) and `users` (concurrent users over all
//! copies, read by the planner only). Such a document is read so that
//! every method still sees the same workload where the two agreed:
//!
//! - `sequences = max(batch, users)`;
//! - when `users > batch`, the batch was the planner's cap on sequences
//!   decoded at once: it becomes `planner.batch_limit` (unless set);
//! - `gpus` counted the GPUs of one machine, `planner.machines` the
//!   machines: today's `gpus` is their product;
//! - `tp` and `pp` were always written; both 1 (the default) now means
//!   "derived from the GPU count" (one copy of the model spread over all
//!   of them, as the `range` method read it), anything else stays as set.
//!
//! A document with `sequences` and with `batch` or `users` as well is
//! read by `sequences`; the old keys are then ignored.

use super::{
    AttnImpl, EngineKnobs, Mode, ModelRef, Optimizer, PlannerKnobs, Precision, ScenarioInput,
    WeightFormat,
};
use serde::Deserialize;

/// Every key of [`ScenarioInput`], each optional, plus the keys of earlier
/// documents.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Stored {
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    model: Option<ModelRef>,
    #[serde(default)]
    params_b: Option<f64>,
    #[serde(default)]
    layers: Option<u64>,
    #[serde(default)]
    kv_heads: Option<u64>,
    #[serde(default)]
    head_dim: Option<u64>,
    #[serde(default)]
    weight_format: Option<WeightFormat>,
    #[serde(default)]
    weight_bits: Option<f64>,
    #[serde(default)]
    kv_bytes: Option<f64>,
    #[serde(default)]
    context: Option<u64>,
    #[serde(default)]
    sequences: Option<u64>,
    /// Earlier documents: sequences at once per copy of the model.
    #[serde(default)]
    batch: Option<u64>,
    /// Earlier documents: the planner's concurrent users.
    #[serde(default)]
    users: Option<u64>,
    #[serde(default)]
    gpu: Option<String>,
    #[serde(default)]
    gpus: Option<u64>,
    #[serde(default)]
    tp: Option<u64>,
    #[serde(default)]
    pp: Option<u64>,
    #[serde(default)]
    gpu_memory_gb: Option<f64>,
    #[serde(default)]
    host_ram_gb: Option<f64>,
    #[serde(default)]
    lora_rank: Option<u64>,
    #[serde(default)]
    precision: Option<Precision>,
    #[serde(default)]
    grad_checkpoint: Option<bool>,
    #[serde(default)]
    optimizer: Option<Optimizer>,
    #[serde(default)]
    lora_dropout: Option<bool>,
    #[serde(default)]
    use_cache: Option<bool>,
    #[serde(default)]
    attn: Option<AttnImpl>,
    #[serde(default)]
    overhead_pct: Option<f64>,
    #[serde(default)]
    runtime_gib: Option<f64>,
    #[serde(default)]
    activation_gib: Option<f64>,
    #[serde(default)]
    margin_pct: Option<f64>,
    #[serde(default)]
    planner: Option<Box<PlannerKnobs>>,
    #[serde(default)]
    engine: Option<Box<EngineKnobs>>,
    #[serde(default)]
    speed: Option<Box<super::SpeedKnobs>>,
}

impl From<Stored> for ScenarioInput {
    fn from(doc: Stored) -> ScenarioInput {
        let d = ScenarioInput::default();
        let mut planner = doc.planner.unwrap_or(d.planner);
        let earlier = doc.sequences.is_none() && (doc.batch.is_some() || doc.users.is_some());
        let mut gpus = doc.gpus.unwrap_or(d.gpus);
        let (mut tp, mut pp) = (doc.tp, doc.pp);
        let sequences = match doc.sequences {
            Some(n) => n,
            None => {
                let batch = doc.batch.unwrap_or(1);
                let users = doc.users.unwrap_or(1);
                if users > batch && planner.batch_limit.is_none() {
                    planner.batch_limit = Some(batch);
                }
                batch.max(users)
            }
        };
        if earlier {
            gpus = gpus.saturating_mul(planner.machines.max(1));
            if tp == Some(1) && pp == Some(1) {
                (tp, pp) = (None, None);
            }
        }
        ScenarioInput {
            mode: doc.mode.unwrap_or(d.mode),
            model: doc.model,
            params_b: doc.params_b.unwrap_or(d.params_b),
            layers: doc.layers.unwrap_or(d.layers),
            kv_heads: doc.kv_heads.unwrap_or(d.kv_heads),
            head_dim: doc.head_dim.unwrap_or(d.head_dim),
            weight_format: doc.weight_format,
            weight_bits: doc.weight_bits.unwrap_or(d.weight_bits),
            kv_bytes: doc.kv_bytes.unwrap_or(d.kv_bytes),
            context: doc.context.unwrap_or(d.context),
            sequences,
            gpu: doc.gpu,
            gpus,
            tp: tp.filter(|v| *v > 0),
            pp: pp.filter(|v| *v > 0),
            gpu_memory_gb: doc.gpu_memory_gb.unwrap_or(d.gpu_memory_gb),
            host_ram_gb: doc.host_ram_gb.unwrap_or(d.host_ram_gb),
            lora_rank: doc.lora_rank.unwrap_or(d.lora_rank),
            precision: doc.precision.unwrap_or(d.precision),
            grad_checkpoint: doc.grad_checkpoint.unwrap_or(d.grad_checkpoint),
            optimizer: doc.optimizer.unwrap_or(d.optimizer),
            lora_dropout: doc.lora_dropout.unwrap_or(d.lora_dropout),
            use_cache: doc.use_cache.unwrap_or(d.use_cache),
            attn: doc.attn.unwrap_or(d.attn),
            overhead_pct: doc.overhead_pct.unwrap_or(d.overhead_pct),
            runtime_gib: doc.runtime_gib.unwrap_or(d.runtime_gib),
            activation_gib: doc.activation_gib.unwrap_or(d.activation_gib),
            margin_pct: doc.margin_pct.unwrap_or(d.margin_pct),
            planner,
            engine: doc.engine.unwrap_or(d.engine),
            speed: doc.speed.unwrap_or(d.speed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> ScenarioInput {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn an_earlier_document_reads_into_the_one_sequences_field() {
        // Written before `sequences`: every key present, batch and users apart.
        let old = read(
            r#"{"mode":"inference","context":4096,"batch":4,"users":1,"gpus":2,"tp":1,"pp":1}"#,
        );
        assert_eq!(old.sequences, 4);
        assert_eq!((old.gpus, old.tp, old.pp), (2, None, None));
        assert_eq!(old.planner.batch_limit, None);
        // The planner's users beyond its batch: the batch caps the active ones.
        let planner =
            read(r#"{"batch":8,"users":100,"gpus":4,"tp":1,"pp":1,"planner":{"machines":2}}"#);
        assert_eq!(planner.sequences, 100);
        assert_eq!(planner.planner.batch_limit, Some(8));
        assert_eq!(planner.gpus, 8);
        // A parallelism that was set stays set.
        let tp = read(r#"{"batch":1,"users":1,"gpus":4,"tp":2,"pp":1}"#);
        assert_eq!((tp.tp, tp.pp), (Some(2), Some(1)));
    }

    #[test]
    fn todays_document_round_trips_and_rejects_unknown_keys() {
        let input = ScenarioInput {
            sequences: 7,
            gpus: 4,
            tp: Some(2),
            ..ScenarioInput::default()
        };
        let text = serde_json::to_string(&input).unwrap();
        assert!(
            text.contains(r#""sequences":7"#) && !text.contains("batch"),
            "{text}"
        );
        assert_eq!(read(&text), input);
        let err = serde_json::from_str::<ScenarioInput>(r#"{"sequencez": 3}"#).unwrap_err();
        assert!(err.to_string().contains("sequencez"), "{err}");
    }
}
