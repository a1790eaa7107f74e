//! Golden tests, serving: seed 002's test categories "ejemplo GQA,
//! precisión mixta, MLA, residencia, prefijo, bloques, SWA, TP/PP,
//! replicación KV", each computed by hand in `docs/methods/planner.md`.

use super::*;
use crate::methods::MethodId;
use crate::report;
use crate::request::Request;
use crate::scenario::{AttnImpl, KvPolicy, ModelRef, ScenarioInput, WeightFormat};
use crate::verdict::FitStatus;

/// The custom model of the examples: 8B, 32 layers, 8 KV heads of 128,
/// hidden 4,096, vocabulary 128,000 (so U = 2 × V × H = 1,048,576,000),
/// BF16 weights and cache, 8,192 tokens, one user, 24 GB.
pub(super) fn custom() -> ScenarioInput {
    let mut input = ScenarioInput::default();
    input.planner.hidden_size = Some(4096);
    input.planner.vocab_size = Some(128_000);
    input
}

pub(super) fn catalog(id: &str) -> ScenarioInput {
    ScenarioInput {
        model: Some(ModelRef::Catalog(id.into())),
        ..ScenarioInput::default()
    }
}

pub(super) fn run(input: &ScenarioInput) -> Plan {
    plan(&input.validate().unwrap()).unwrap()
}

pub(super) fn c(p: &Plan, term: Term) -> u64 {
    p.components.get(term).unwrap().get()
}

#[test]
fn gqa_example_every_term() {
    let p = run(&custom());
    assert_eq!(c(&p, Term::Weights), 16_000_000_000); // P × 2
    assert_eq!(c(&p, Term::KvCache), 1_073_741_824); // 2·32·8·128·8,192·2
    assert_eq!(c(&p, Term::Activations), 335_544_320); // 2·20·min(8,192, 2,048)·4,096
    assert_eq!(c(&p, Term::Logits), 512_000); // 4·128,000·1
    for zero in [
        Term::Adapters,
        Term::AttentionScores,
        Term::Gradients,
        Term::Optimizer,
        Term::MasterWeights,
        Term::Communication,
        Term::OffloadStaging,
    ] {
        assert_eq!(c(&p, zero), 0, "{zero:?}");
    }
    // 15 % of 17,409,798,144 = 2,611,469,721.6.
    assert_eq!(c(&p, Term::Margin), 2_611_469_722);
    assert_eq!(c(&p, Term::EngineContext), 1_073_741_824);
    assert_eq!(p.total_bytes, 21_095_009_690);
    let r = p.result();
    assert_eq!(r.method, MethodId::Planner);
    assert_eq!(r.verdict.usable_bytes, 21_600_000_000);
    // 21.095 / 21.6 = 97.7 %: ajustada.
    assert_eq!(r.verdict.status, FitStatus::Tight);
    assert_eq!(r.verdict.percent(), 97.7);
    let sum: Bytes = r.components.0.iter().map(|x| x.bytes).sum();
    assert_eq!(sum, r.total_bytes);
}

#[test]
fn a_shortfall_reports_the_missing_gb() {
    let input = ScenarioInput {
        gpu_memory_gb: 16.0,
        ..custom()
    };
    let r = run(&input).result();
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
    // 21,095,009,690 − 16 GB × 0.9.
    assert_eq!(r.verdict.short_by_bytes, 6_695_009_690);
}

#[test]
fn mixed_precision_qwen_awq_keeps_embeddings_in_bf16() {
    let mut input = catalog("Qwen/Qwen2.5-7B");
    input.set_weight_format(WeightFormat::Awq);
    let p = run(&input);
    // U = 2 × V × H = 2 × 152,064 × 3,584 (untied embeddings and head).
    assert_eq!(p.weights.unquantized, 2 * 1_089_994_752);
    // (P − U) = 6,525,621,760 at 4 bits × 1.05 = 3,425,951,424.
    assert_eq!(p.weights.body, 3_425_951_424);
    assert_eq!(c(&p, Term::Weights), 5_605_940_928);
    assert_eq!(c(&p, Term::KvCache), 469_762_048); // 2·28·4·128·8,192·2
    assert_eq!(c(&p, Term::Activations), 293_601_280); // 2·20·2,048·3,584
    assert_eq!(c(&p, Term::Logits), 608_256); // 4·152,064
    assert_eq!(c(&p, Term::Margin), 955_486_877);
    assert_eq!(p.total_bytes, 8_399_141_213);
    assert_eq!(p.result().verdict.status, FitStatus::Roomy);
}

#[test]
fn mixed_precision_fp32_subset_and_no_metadata_at_16_bits() {
    let mut input = custom();
    input.planner.fp32_params_b = 0.5;
    // 16 bits: P × 2 + U32 × 2 = 16 + 1 GB; the 5 % is not applied.
    assert_eq!(c(&run(&input), Term::Weights), 17_000_000_000);
    // 32 bits: everything at 4 bytes.
    input.weight_bits = 32.0;
    assert_eq!(c(&run(&input), Term::Weights), 32_000_000_000);
    // 8 bits: (P − U) × 1 × 1.05 + U × 2 + U32 × 2
    //       = 6,951,424,000 × 1.05 + 2,097,152,000 + 1,000,000,000.
    input.weight_bits = 8.0;
    assert_eq!(c(&run(&input), Term::Weights), 10_396_147_200);
}

#[test]
fn gpt_oss_mxfp4_carries_6_25_percent_of_scales() {
    let mut input = catalog("openai/gpt-oss-20b");
    input.set_weight_format(WeightFormat::Mxfp4);
    let p = run(&input);
    // (20,914,757,184 − 2 × 579,133,440) × 0.5 × 1.0625.
    assert_eq!(p.weights.metadata_centi_pct, 625);
    assert_eq!(p.weights.body, 10_495_635_474);
    // A typed 10 % is larger than the minimum and wins.
    input.planner.quant_metadata_pct = 10.0;
    assert_eq!(run(&input).weights.metadata_centi_pct, 1_000);
}

#[test]
fn mla_caches_the_latent_replicated_per_tp_rank() {
    let input = ScenarioInput {
        context: 4096,
        ..catalog("deepseek-ai/DeepSeek-V2-Lite")
    };
    // 27 layers × (512 + 64) × 4,096 tokens × 2 bytes.
    let one = run(&input);
    assert_eq!(c(&one, Term::KvCache), 127_401_984);
    let tp2 = run(&ScenarioInput {
        gpus: 2,
        tp: Some(2),
        ..input
    });
    assert_eq!(c(&tp2, Term::KvCache), 127_401_984);
    // Weights halve: (P − U) × 2 / 2 + U × 2 / 2.
    assert_eq!(c(&tp2, Term::Weights), 15_287_053_824 + 419_430_400);
    // One active TP dimension: 2 × 2 × 2,048 × 2,048.
    assert_eq!(c(&tp2, Term::Communication), 16_777_216);
}

#[test]
fn residency_spreads_sequences_and_the_policy_picks_the_reservation() {
    let mut input = ScenarioInput {
        context: 4096,
        gpus: 8,
        tp: Some(1),
        sequences: 100,
        ..custom()
    };
    input.planner.machines = 2;
    input.planner.batch_limit = Some(8);
    let all = run(&input);
    assert_eq!(
        all.residency,
        Residency {
            replicas: 8,
            requests_per_replica: 13,
            active: 8,
            kv_sequences: 13
        }
    );
    // 13 × 4,096 tokens × 131,072 bytes per token.
    assert_eq!(c(&all, Term::KvCache), 6_979_321_856);
    assert_eq!(c(&all, Term::Logits), 4_096_000); // 4 × 128,000 × 8 active
    input.planner.kv_policy = KvPolicy::Active;
    let active = run(&input);
    assert_eq!(active.residency.kv_sequences, 8);
    assert_eq!(c(&active, Term::KvCache), 4_294_967_296);
}

#[test]
fn shared_prefix_rounds_down_and_is_stored_once() {
    let mut input = ScenarioInput {
        context: 4096,
        sequences: 4,
        ..custom()
    };
    assert_eq!(c(&run(&input), Term::KvCache), 16_384 * 131_072);
    // 1,000 → 992 shared tokens; 4 × (4,096 − 992) private.
    input.planner.shared_prefix_tokens = 1_000;
    assert_eq!(c(&run(&input), Term::KvCache), 13_408 * 131_072);
}

#[test]
fn blocks_round_the_context_up_to_16_tokens() {
    let mut input = ScenarioInput {
        context: 1_000,
        ..custom()
    };
    // 1,000 → 63 blocks = 1,008 tokens.
    assert_eq!(c(&run(&input), Term::KvCache), 1_008 * 131_072);
    input.planner.kv_block_tokens = 1;
    assert_eq!(c(&run(&input), Term::KvCache), 1_000 * 131_072);
}

#[test]
fn sliding_windows_only_on_declared_layers_gemma_2() {
    // 21 full + 21 sliding (window 4,096); 2·8·256·2 = 8,192 B per token
    // and layer.
    let input = catalog("google/gemma-2-9b-it");
    let p = run(&input);
    assert_eq!(
        c(&p, Term::KvCache),
        21 * 8_192 * 8_192 + 21 * 8_192 * 4_096
    );
    // PP 2: 21 layers per stage, budgeted as the 21 with the most KV.
    let pp = run(&ScenarioInput {
        gpus: 2,
        pp: Some(2),
        ..input
    });
    assert_eq!(pp.stage_layers, 21);
    assert_eq!(c(&pp, Term::KvCache), 21 * 8_192 * 8_192);
}

#[test]
fn tp_and_pp_place_the_body_and_keep_u_on_every_stage() {
    let input = ScenarioInput {
        gpus: 4,
        tp: Some(2),
        pp: Some(2),
        ..custom()
    };
    let p = run(&input);
    assert_eq!(p.stage_layers, 16);
    assert_eq!(p.local_kv_heads, 4);
    // Body 13,902,848,000 × 16 / 32 / 2 + U bytes 2,097,152,000 / 2.
    assert_eq!(c(&p, Term::Weights), 3_475_712_000 + 1_048_576_000);
    // 2 × 16 × 4 × 128 × 8,192 × 2.
    assert_eq!(c(&p, Term::KvCache), 268_435_456);
    // Not divided by TP.
    assert_eq!(c(&p, Term::Activations), 335_544_320);
    // TP and PP active: 2 × (2 × 2 × 2,048 × 4,096).
    assert_eq!(c(&p, Term::Communication), 67_108_864);
    assert_eq!(c(&p, Term::Margin), 779_383_296);
    assert_eq!(p.total_bytes, 7_049_013_760);
    // PP 3 over 32 layers: the largest stage holds ⌈32/3⌉ = 11.
    let pp3 = run(&ScenarioInput {
        gpus: 3,
        pp: Some(3),
        ..custom()
    });
    assert_eq!(pp3.stage_layers, 11);
    // 13,902,848,000 × 11 / 32 = 4,779,104,000, + U whole.
    assert_eq!(c(&pp3, Term::Weights), 4_779_104_000 + 2_097_152_000);
}

#[test]
fn kv_heads_replicate_when_tp_exceeds_them() {
    let p = run(&ScenarioInput {
        gpus: 16,
        tp: Some(16),
        ..custom()
    });
    // 8 KV heads over TP 16: one head per GPU, not half of one.
    assert_eq!(p.local_kv_heads, 1);
    assert_eq!(c(&p, Term::KvCache), 2 * 32 * 128 * 8_192 * 2);
    // TP 3 does not split 8 KV heads: vLLM refuses it, and so does the
    // scenario.
    let tp3 = ScenarioInput {
        gpus: 3,
        tp: Some(3),
        ..custom()
    };
    assert!(matches!(
        tp3.validate().unwrap_err()[0],
        crate::scenario::ScenarioError::Layout(crate::scenario::LayoutError::Heads { .. })
    ));
}

#[test]
fn score_matrix_without_efficient_attention() {
    let mut input = ScenarioInput {
        context: 4096,
        ..custom()
    };
    input.planner.efficient_attention = false;
    // 2 × 32 heads × 1 × 4,096².
    assert_eq!(c(&run(&input), Term::AttentionScores), 1_073_741_824);
}

#[test]
fn eager_attention_adds_the_score_matrix_like_the_knob() {
    let base = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        ..ScenarioInput::default()
    };
    let scores = |input: &ScenarioInput| {
        report::build(&Request::new(MethodId::Planner, input.clone()))
            .unwrap()
            .estimate
            .components
            .get(Term::AttentionScores)
            .unwrap()
    };
    assert_eq!(scores(&base), 0);
    let eager = ScenarioInput {
        attn: AttnImpl::Eager,
        ..base.clone()
    };
    let mut knob = base.clone();
    knob.planner.efficient_attention = false;
    assert!(scores(&eager) > 0);
    assert_eq!(scores(&eager), scores(&knob));
}
