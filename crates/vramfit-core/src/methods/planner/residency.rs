//! Residency (seed 002): how many sequences one replica serves and keeps
//! a cache for.
//!
//! ```text
//! replicas             = GPUs / (TP × PP)               (the scenario's layout)
//! requests per replica = ⌈sequences / replicas⌉
//! active               = min(batch limit, requests per replica)
//! KV sequences         = requests per replica (policy "all") or active
//! ```
//!
//! Seed 002 names "usuarios" (the scenario's concurrent sequences) and a
//! "lote" (batch) per replica; the batch is the planner's own
//! `batch_limit`, none by default (every sequence is decoded at once).
//! "réplicas = equipos × GPU/(TP × PP)": the scenario's `gpus` count every
//! GPU of every machine already.

use crate::scenario::Scenario;
use crate::scenario::{KvPolicy, PlannerSettings};

/// The sequences of one replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Residency {
    /// Model copies over all machines.
    pub replicas: u64,
    /// Users each replica serves (some may queue).
    pub requests_per_replica: u64,
    /// Sequences decoded at once.
    pub active: u64,
    /// Sequences with a KV reservation, by the policy.
    pub kv_sequences: u64,
}

/// The residency of a scenario.
pub fn residency(s: &Scenario, k: &PlannerSettings) -> Residency {
    let replicas = s.layout.replicas.max(1);
    let requests_per_replica = s.replica_sequences();
    let active = k
        .batch_limit
        .map_or(requests_per_replica, |b| b.min(requests_per_replica));
    Residency {
        replicas,
        requests_per_replica,
        active,
        kv_sequences: match k.kv_policy {
            KvPolicy::All => requests_per_replica,
            KvPolicy::Active => active,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioInput;

    fn of(gpus: u64, tp: u64, sequences: u64, batch_limit: Option<u64>) -> Residency {
        let mut input = ScenarioInput {
            gpus,
            tp: Some(tp),
            sequences,
            ..ScenarioInput::default()
        };
        input.planner.batch_limit = batch_limit;
        let s = input.validate().unwrap();
        residency(&s, &s.planner)
    }

    #[test]
    fn sequences_spread_over_replicas_and_queue_beyond_the_batch() {
        // 16 GPUs / TP 2 = 8 replicas; ⌈100/8⌉ = 13 requests;
        // batch 4 → 4 active, 13 with a reservation under "all".
        let r = of(16, 2, 100, Some(4));
        assert_eq!(
            (r.replicas, r.requests_per_replica, r.active, r.kv_sequences),
            (8, 13, 4, 13)
        );
        // No batch limit: every sequence of a replica is decoded at once.
        let r = of(1, 1, 3, None);
        assert_eq!((r.requests_per_replica, r.active), (3, 3));
    }
}
