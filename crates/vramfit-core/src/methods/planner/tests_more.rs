//! Golden tests: "cola, AdamW, offload y rechazo de configuraciones
//! inválidas", the speed estimate and when it gives no figure.

use super::tests::{c, catalog, custom, run};
use super::*;
use crate::scenario::{Mode, Optimizer, PlannerKnobs, ScenarioError, ScenarioInput, WeightFormat};

fn llama_h100() -> ScenarioInput {
    let mut input = catalog("meta-llama/Llama-3.1-8B");
    input.set_gpu("H100 SXM");
    input
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs()
}

#[test]
fn speed_llama_8b_on_h100_by_hand() {
    let sp = speed(&llama_h100().validate().unwrap()).unwrap();
    // Weights 8,030,261,248 × 2 + KV of one 8,192-token sequence.
    assert_eq!(sp.decode_bytes_per_step, 16_060_522_496 + 1_073_741_824);
    // 2P + 4·L·H·S = 16,060,522,496 + 4·32·4,096·8,192.
    assert_eq!(sp.decode_flops_per_step, 20_355_489_792.0);
    assert_eq!(sp.penalty, 1.0);
    // Memory-bound: 17,134,264,320 / (3,350 GB/s × 35 %) + 2 ms.
    assert!(close(sp.step_seconds.conservative, 0.016_613_445_049));
    assert!(close(sp.tokens_per_s_per_user.conservative, 60.192_211_612));
    assert!(close(sp.tokens_per_s_per_user.favourable, 107.449_211_832));
    // Prefill of 8,192 tokens: (2PN + 4LHN²) / (989 TFLOPS × 20 %) + 2 ms.
    assert_eq!(sp.prompt_tokens, 8_192);
    assert!(close(sp.prefill_seconds.conservative, 0.845_034_238_504));
    assert!(close(sp.prefill_seconds.favourable, 0.376_681_883_779));
    assert_eq!(sp.target_ratio, None);
}

#[test]
fn queue_shares_each_step_between_the_requests() {
    let mut input = ScenarioInput {
        sequences: 10,
        ..llama_h100()
    };
    input.planner.batch_limit = Some(4);
    let sp = speed(&input.validate().unwrap()).unwrap();
    assert_eq!((sp.sequences_per_step, sp.requests_per_replica), (4, 10));
    // 4 sequences per step, 10 requests: 0.4 / step.
    assert_eq!(sp.decode_bytes_per_step, 16_060_522_496 + 4 * 1_073_741_824);
    assert!(close(sp.tokens_per_s_per_user.conservative, 20.660_347_169));
    assert!(close(sp.tokens_per_s_per_user.favourable, 37.451_852_920));
    assert!(close(sp.prefill_seconds.conservative, 3.374_136_954_015));
    // A second GPU set as a second copy: 5 requests each, 4 active.
    let two = ScenarioInput {
        gpus: 2,
        tp: Some(1),
        ..input
    };
    let sp2 = speed(&two.validate().unwrap()).unwrap();
    assert_eq!((sp2.sequences_per_step, sp2.requests_per_replica), (4, 5));
    assert!(close(
        sp2.tokens_per_s_per_user.conservative,
        2.0 * sp.tokens_per_s_per_user.conservative
    ));
}

#[test]
fn low_bit_weights_pay_the_0_92_penalty_and_a_target_fills_the_bar() {
    let mut input = llama_h100();
    input.set_weight_format(WeightFormat::Awq);
    input.planner.target_tokens_per_s = Some(40.0);
    let sp = speed(&input.validate().unwrap()).unwrap();
    assert_eq!(sp.penalty, 0.92);
    // (P − U) × 0.5 × 1.05 + U × 2 + KV = 6,839,371,878 bytes.
    assert_eq!(sp.decode_bytes_per_step, 6_839_371_878);
    assert!(close(sp.step_seconds.conservative, 0.008_340_383_682));
    let ratio = sp.target_ratio.unwrap();
    assert!(close(ratio, 119.898_560_798 / 40.0));
    assert_eq!(sp.target_bar, Some(1.0)); // saturates at 2× the target
}

#[test]
fn no_speed_where_the_seed_gives_none() {
    let why = |input: ScenarioInput| speed(&input.validate().unwrap()).unwrap_err();
    let with_gpu = |id: &str| {
        let mut input = catalog(id);
        input.set_gpu("H100 SXM");
        input
    };
    assert_eq!(
        why(ScenarioInput {
            mode: Mode::Full,
            ..llama_h100()
        }),
        NoSpeed::Training
    );
    assert_eq!(why(custom()), NoSpeed::CustomModel);
    assert_eq!(why(with_gpu("Qwen/Qwen3-30B-A3B")), NoSpeed::Moe);
    assert_eq!(why(with_gpu("deepseek-ai/DeepSeek-V2-Lite")), NoSpeed::Mla);
    assert_eq!(
        why(with_gpu("google/gemma-2-9b-it")),
        NoSpeed::SlidingWindow
    );
    // Qwen3-4B: 32 heads × 128 = 4,096 ≠ hidden 2,560.
    assert_eq!(why(with_gpu("Qwen/Qwen3-4B")), NoSpeed::SpecialDimensions);
    assert_eq!(
        why(ScenarioInput {
            gpus: 2,
            tp: Some(2),
            ..llama_h100()
        }),
        NoSpeed::Parallelism
    );
    let mut offload = llama_h100();
    offload.host_ram_gb = 64.0;
    offload.planner.offload_gb = 1.0;
    assert_eq!(why(offload), NoSpeed::Offload);
    let mut naive = llama_h100();
    naive.planner.efficient_attention = false;
    assert_eq!(why(naive), NoSpeed::NoEfficientAttention);
    assert_eq!(why(catalog("meta-llama/Llama-3.1-8B")), NoSpeed::NoGpu);
    let mut rtx = catalog("meta-llama/Llama-3.1-8B");
    rtx.set_gpu("RTX 4080");
    assert_eq!(why(rtx), NoSpeed::NoGpuFigures);
    let mut gb300 = catalog("meta-llama/Llama-3.1-8B");
    gb300.set_gpu("GB300");
    assert_eq!(why(gb300), NoSpeed::RackScaleGpu);
    assert_eq!(
        why(with_gpu("meta-llama/Llama-3.1-70B")),
        NoSpeed::DoesNotFit
    );
    assert_eq!(
        NoSpeed::Moe.to_string(),
        "mixture-of-experts models have no speed figure"
    );
    let json = serde_json::to_value(NoSpeed::Moe).unwrap();
    assert_eq!(json["reason"], "moe");
}

#[test]
fn adamw_full_training_is_16_bytes_per_parameter() {
    let input = ScenarioInput {
        mode: Mode::Full,
        context: 2048,
        ..custom()
    };
    let p = run(&input);
    assert_eq!(c(&p, Term::Weights), 16_000_000_000); // BF16 working copy
    assert_eq!(c(&p, Term::Gradients), 16_000_000_000); // 2 bytes (default)
    assert_eq!(c(&p, Term::Optimizer), 64_000_000_000); // AdamW, 8 bytes
    assert_eq!(c(&p, Term::MasterWeights), 32_000_000_000); // FP32 copy
    assert_eq!(c(&p, Term::KvCache), 0);
    // 2 × 20 × (1 × 2,048) × 4,096 × 32 layers.
    assert_eq!(c(&p, Term::Activations), 10_737_418_240);
    assert_eq!(c(&p, Term::Logits), 1_048_576_000); // 4 × 128,000 × 2,048
    assert_eq!(c(&p, Term::Margin), 20_967_899_136);
    assert_eq!(p.total_bytes, 161_827_635_200);
    // FP32 gradients and no master copy: 2 + 4 + 8 bytes.
    let mut lean = input.clone();
    lean.planner.gradient_bytes = 4;
    lean.planner.master_copy = false;
    let q = run(&lean);
    assert_eq!(c(&q, Term::Gradients), 32_000_000_000);
    assert_eq!(c(&q, Term::MasterWeights), 0);
    // Only AdamW is stated.
    let sgd = ScenarioInput {
        optimizer: Optimizer::Sgd,
        ..input
    };
    assert_eq!(
        estimate(&sgd.validate().unwrap()),
        Err(Refusal::Optimizer(Optimizer::Sgd))
    );
}

#[test]
fn lora_and_qlora_train_bf16_adapters_over_a_frozen_base() {
    let lora = ScenarioInput {
        mode: Mode::Lora,
        context: 2048,
        ..custom()
    };
    let p = run(&lora);
    // r = 16 on q, k, v, o: 13,631,488 trainable parameters.
    assert_eq!(c(&p, Term::Weights), 16_000_000_000);
    assert_eq!(c(&p, Term::Adapters), 2 * 13_631_488);
    assert_eq!(c(&p, Term::Gradients), 2 * 13_631_488);
    assert_eq!(c(&p, Term::Optimizer), 8 * 13_631_488);
    assert_eq!(c(&p, Term::MasterWeights), 4 * 13_631_488);
    let q = run(&ScenarioInput {
        mode: Mode::Qlora,
        ..lora
    });
    // 4-bit base: 6,951,424,000 × 0.5 × 1.05 + U × 2.
    assert_eq!(c(&q, Term::Weights), 3_649_497_600 + 2_097_152_000);
    assert_eq!(c(&q, Term::Adapters), 2 * 13_631_488);
}

#[test]
fn offload_moves_body_weights_and_stages_one_layer() {
    let mut input = ScenarioInput {
        host_ram_gb: 64.0,
        ..custom()
    };
    input.planner.offload_gb = 5.0;
    let p = run(&input);
    assert_eq!(p.offloaded_bytes, 5_000_000_000);
    assert_eq!(c(&p, Term::Weights), 11_000_000_000);
    // One layer's body: 13,902,848,000 / 32.
    assert_eq!(c(&p, Term::OffloadStaging), 434_464_000);
}

#[test]
fn invalid_configurations_are_refused_with_the_knob_named() {
    // Knobs that contradict the model or the workload: the scenario is
    // valid, the planner refuses it, naming the knob and what is wrong.
    let check = |host_ram_gb: f64, set: fn(&mut PlannerKnobs), knob: Knob, says: &str| {
        let mut input = ScenarioInput {
            host_ram_gb,
            ..custom()
        };
        set(&mut input.planner);
        match estimate(&input.validate().unwrap()) {
            Err(Refusal::Knob(e)) => {
                assert_eq!(e.knob, knob);
                assert_eq!(e.to_string(), says);
            }
            other => panic!("{other:?}"),
        }
    };
    // Offload above the body weights on one GPU (13.9 GB) ...
    check(
        1_000.0,
        |k| k.offload_gb = 14.0,
        Knob::OffloadGb,
        "planner.offload_gb must be at most the quantized body weights on one GPU (13.903 GB)",
    );
    // ... or above 80 % of the host RAM over the machine's GPUs.
    check(
        10.0,
        |k| k.offload_gb = 9.0,
        Knob::OffloadGb,
        "planner.offload_gb over all GPUs of a machine must be at most 80 % of its host RAM (8.000 GB per GPU)",
    );
    // A prefix longer than the context; U above P; U32 above U.
    check(
        0.0,
        |k| k.shared_prefix_tokens = 9_000,
        Knob::SharedPrefixTokens,
        "planner.shared_prefix_tokens must be at most the context (8192 tokens)",
    );
    check(
        0.0,
        |k| k.unquantized_params_b = Some(9.0),
        Knob::UnquantizedParamsB,
        "planner.unquantized_params_b must be at most the model's 8000000000 parameters",
    );
    check(
        0.0,
        |k| k.fp32_params_b = 2.0,
        Knob::Fp32ParamsB,
        "planner.fp32_params_b must be at most the 1048576000 unquantized parameters",
    );
    // Knobs out of range: the scenario itself is not valid.
    let mut bad = custom();
    bad.planner.gradient_bytes = 3;
    bad.planner.reserve_pct = 120.0;
    let named: Vec<Knob> = bad
        .validate()
        .unwrap_err()
        .iter()
        .map(|e| match e {
            ScenarioError::Planner(p) => p.knob,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(named, [Knob::ReservePct, Knob::GradientBytes]);
    // TP × PP that does not divide the GPUs: the scenario's own error.
    let split = ScenarioInput {
        gpus: 6,
        tp: Some(4),
        ..custom()
    };
    assert_eq!(
        split.validate().unwrap_err(),
        [ScenarioError::Layout(
            crate::scenario::LayoutError::NotDivisible {
                gpus: 6,
                tp: 4,
                pp: 1
            }
        )]
    );
    // Typed numbers without hidden size and vocabulary.
    assert_eq!(
        estimate(&ScenarioInput::default().validate().unwrap()),
        Err(Refusal::NeedsModel)
    );
}

#[test]
fn knobs_round_trip_through_the_scenario_json() {
    let input: ScenarioInput =
        serde_json::from_str(r#"{"planner": {"hidden_size": 4096, "vocab_size": 128000}}"#)
            .unwrap();
    assert_eq!(run(&input).total_bytes, 21_095_009_690);
    let text = serde_json::to_string(&input).unwrap();
    assert_eq!(serde_json::from_str::<ScenarioInput>(&text).unwrap(), input);
    let unknown = r#"{"planner": {"hidden": 4096}}"#;
    assert!(serde_json::from_str::<ScenarioInput>(unknown).is_err());
}

#[test]
fn run_and_preference_know_the_planner() {
    use crate::methods::{self, MethodId};
    let s = catalog("Qwen/Qwen3-30B-A3B").validate().unwrap();
    // MoE: the allocator does not estimate it, the planner does.
    assert_eq!(crate::request::preferred(&s), Some(MethodId::Planner));
    assert!(methods::run(MethodId::Planner, &s).is_ok());
    assert_eq!(MethodId::from_name("planner"), Some(MethodId::Planner));
}
