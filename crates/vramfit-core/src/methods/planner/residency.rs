//! Residency (seed 002): how many sequences one replica serves and keeps
//! a cache for.
//!
//! ```text
//! replicas             = machines × GPUs / (TP × PP)
//! requests per replica = ⌈users / replicas⌉
//! active               = min(batch, requests per replica)
//! KV sequences         = requests per replica (policy "all") or active
//! ```

use crate::methods::Refusal;
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

/// `TP × PP` GPUs per replica; they must divide the machine's GPUs.
pub fn check_parallelism(s: &Scenario) -> Result<(), Refusal> {
    let per_replica = s.tp.saturating_mul(s.pp);
    if per_replica == 0 || !s.gpus.is_multiple_of(per_replica) {
        return Err(Refusal::Parallelism {
            tp: s.tp,
            pp: s.pp,
            gpus: s.gpus,
        });
    }
    Ok(())
}

/// The residency of a scenario whose parallelism divides its GPUs.
pub fn residency(s: &Scenario, k: &PlannerSettings) -> Residency {
    let per_replica = s.tp.saturating_mul(s.pp).max(1);
    let replicas = k.machines.saturating_mul(s.gpus / per_replica).max(1);
    let requests_per_replica = s.users.div_ceil(replicas);
    let active = s.batch.min(requests_per_replica);
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

    fn of(gpus: u64, tp: u64, users: u64, batch: u64, machines: u64) -> Residency {
        let s = ScenarioInput {
            gpus,
            tp,
            users,
            batch,
            ..ScenarioInput::default()
        }
        .validate()
        .unwrap();
        let k = PlannerSettings {
            machines,
            ..PlannerSettings::default()
        };
        check_parallelism(&s).unwrap();
        residency(&s, &k)
    }

    #[test]
    fn users_spread_over_replicas_and_queue_beyond_the_batch() {
        // 2 machines × 8 GPUs / TP 2 = 8 replicas; ⌈100/8⌉ = 13 requests;
        // batch 4 → 4 active, 13 with a reservation under "all".
        let r = of(8, 2, 100, 4, 2);
        assert_eq!(
            (r.replicas, r.requests_per_replica, r.active, r.kv_sequences),
            (8, 13, 4, 13)
        );
        // Fewer requests than the batch: all of them are active.
        let r = of(1, 1, 3, 8, 1);
        assert_eq!((r.requests_per_replica, r.active), (3, 3));
    }

    #[test]
    fn parallelism_must_divide_the_gpus() {
        let s = ScenarioInput {
            gpus: 6,
            tp: 4,
            ..ScenarioInput::default()
        }
        .validate()
        .unwrap();
        assert_eq!(
            check_parallelism(&s),
            Err(Refusal::Parallelism {
                tp: 4,
                pp: 1,
                gpus: 6
            })
        );
    }
}
