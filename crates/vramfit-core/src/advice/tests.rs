use super::*;
use crate::scenario::{ModelRef, ScenarioInput};

fn scenario(request: Request) -> (Scenario, MethodResult) {
    let s = request.scenario.validate().unwrap();
    let r = methods::run(request.method, &s).unwrap();
    (s, r)
}

/// `quick` on a scenario.
fn quick(scenario: ScenarioInput) -> Request {
    Request::new(MethodId::Quick, scenario)
}

#[test]
fn longest_context_is_the_crossing_of_the_usable_line() {
    // quick, 8B FP16 on 24 GB: (16 GB + 131,072 B × S) × 1.1 ≤ 24 GB
    // ⇔ S ≤ (24/1.1 − 16) × 10⁹ / 131,072 = 44,389.5.
    let (s, _) = scenario(Request::default());
    let a = answers(MethodId::Quick, &s);
    assert_eq!(a.max_context, Some(44_389));
    // B × 8,192 tokens ≤ 44,389 ⇔ B ≤ 5.
    assert_eq!(a.max_sequences, Some(5));
    let (_, over) = scenario(quick(ScenarioInput {
        context: 44_390,
        ..ScenarioInput::default()
    }));
    assert!(over.verdict.short_by_bytes > 0);
}

#[test]
fn answers_stop_at_the_models_maximum_context() {
    // Llama-3.1-8B on an H200: memory alone would allow ~700K tokens;
    // the model is made for 131,072.
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        ..ScenarioInput::default()
    };
    input.set_gpu("H200");
    let (s, _) = scenario(Request::new(MethodId::Planner, input.clone()));
    let a = answers(MethodId::Planner, &s);
    assert_eq!(a.model_max_context, Some(131_072));
    assert_eq!(a.max_context, Some(131_072));
    assert_eq!(a.max_context_limit, Limit::ModelMaximum);
    // GPT-2 (1,024 positions) never answers millions of tokens.
    let gpt2 = ScenarioInput {
        model: Some(ModelRef::Catalog("openai-community/gpt2".into())),
        ..ScenarioInput::default()
    };
    let (s, _) = scenario(Request::new(MethodId::Quick, gpt2));
    let a = answers(MethodId::Quick, &s);
    assert_eq!(
        (a.max_context, a.max_context_limit),
        (Some(1_024), Limit::ModelMaximum)
    );
    // On a small card the memory stops it first.
    input.set_gpu("RTX 4090");
    input.set_weight_format(WeightFormat::Bf16);
    let (s, _) = scenario(Request::new(MethodId::Planner, input));
    let a = answers(MethodId::Planner, &s);
    assert!(a.max_context.unwrap() < 131_072);
    assert_eq!(a.max_context_limit, Limit::Memory);
}

#[test]
fn a_figure_that_does_not_grow_gives_no_answer() {
    // The lesson's full training: 18 bytes per parameter and fixed
    // reserves, whatever the context or the sequences.
    let (s, _) = scenario(Request::new(
        MethodId::Lesson,
        ScenarioInput {
            mode: Mode::Full,
            params_b: 1.0,
            ..ScenarioInput::default()
        },
    ));
    let a = answers(MethodId::Lesson, &s);
    assert_eq!((a.max_context, a.max_sequences), (None, None));
}

#[test]
fn nothing_fits_says_none() {
    let (s, _) = scenario(quick(ScenarioInput {
        params_b: 100.0,
        ..ScenarioInput::default()
    }));
    let a = answers(MethodId::Quick, &s);
    assert_eq!((a.max_context, a.max_sequences), (None, None));
    // quick estimates one device: the GPU count does not change it.
    assert_eq!(a.min_gpus, None);
    // 100B at 16 bits = 200 GB of weights: only the largest cards hold it.
    let gpu = a
        .smallest_gpu
        .expect("a catalog card with more than 220 GB");
    let memory = crate::catalog::find_gpu(&gpu).unwrap().memory_bytes;
    assert!(memory >= 220_000_000_000, "{gpu}");
}

#[test]
fn seed_003_example_suggests_a_shorter_sequence() {
    // vramcalc: "short by 28.9 GB on RTX 3090; 1 single adjustment fits
    //   -> seq_len=512: 21.6 GB (changes training objective)"
    let (s, r) = scenario(Request::new(
        MethodId::Allocator,
        ScenarioInput {
            mode: Mode::Lora,
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            context: 4096,
            ..ScenarioInput::default()
        },
    ));
    let list = suggestions(&s, &r);
    let context = list
        .iter()
        .find(|x| matches!(x.change, Change::Context(_)))
        .expect("a shorter context fits");
    assert_eq!(context.change, Change::Context(512));
    assert_eq!(context.cost, Cost::ChangesTrainingObjective);
    assert!(list.iter().all(|x| x.margin_bytes > 0));
}

#[test]
fn the_published_format_is_a_suggestion() {
    // gpt-oss-20b weighed at 16 bits does not fit a 4090; its own MXFP4
    // checkpoint does.
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog("openai/gpt-oss-20b".into())),
        ..ScenarioInput::default()
    };
    input.set_weight_format(WeightFormat::Bf16);
    input.set_gpu("RTX 4090");
    let (s, r) = scenario(Request::new(MethodId::Planner, input));
    assert!(r.verdict.short_by_bytes > 0);
    let list = suggestions(&s, &r);
    let published = list
        .iter()
        .find(|x| x.change == Change::WeightFormat(WeightFormat::AsPublished))
        .expect("as published among the suggestions");
    assert_eq!(published.cost, Cost::PublishedFormat);
    // It comes before any smaller post-training format.
    let first_format = list
        .iter()
        .find(|x| matches!(x.change, Change::WeightFormat(_)))
        .unwrap();
    assert_eq!(first_format.change, published.change);
}

#[test]
fn a_four_bit_checkpoint_is_not_quantized_again() {
    let input = ScenarioInput {
        model: Some(ModelRef::Catalog("openai/gpt-oss-20b".into())),
        context: 2048,
        gpu_memory_gb: 13.5,
        ..ScenarioInput::default()
    };
    let mut request = quick(input);
    request
        .scenario
        .set_weight_format(WeightFormat::AsPublished);
    let (s, r) = scenario(request);
    assert_eq!(r.verdict.status, crate::verdict::FitStatus::DoesNotFit);
    let formats: Vec<Change> = suggestions(&s, &r)
        .into_iter()
        .map(|x| x.change)
        .filter(|c| matches!(c, Change::WeightFormat(_)))
        .collect();
    assert_eq!(formats, []);
}

#[test]
fn a_fitting_scenario_needs_no_suggestion() {
    let (s, r) = scenario(Request::default());
    assert!(suggestions(&s, &r).is_empty());
}

#[test]
fn applying_a_suggestion_to_the_input_gives_its_total() {
    let input = quick(ScenarioInput {
        context: 131_072,
        ..ScenarioInput::default()
    });
    let (s, r) = scenario(input.clone());
    for sug in suggestions(&s, &r) {
        let mut changed = input.clone();
        sug.change.apply(&mut changed);
        let (_, after) = scenario(changed);
        assert_eq!(after.total_bytes, sug.total_bytes, "{:?}", sug.change);
    }
}

#[test]
fn the_planner_answers_in_sequences_and_gpu_counts() {
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        gpus: 4,
        ..ScenarioInput::default()
    };
    input.set_gpu("H100 SXM");
    let (s, _) = scenario(Request::new(MethodId::Planner, input));
    let a = answers(MethodId::Planner, &s);
    let most = a.max_sequences.expect("some sequences fit on 4 × 80 GB");
    let fits_sequences = |n: u64| {
        let r = rerun(MethodId::Planner, &s, |c| c.sequences = n).unwrap();
        r.verdict.short_by_bytes == 0
    };
    assert!(fits_sequences(most) && !fits_sequences(most + 1));
    assert!(most < MAX_SEQUENCES, "{most}");
    // 141 GB of BF16 weights need more than one 80 GB card.
    let min = a.min_gpus.expect("a few H100s hold it");
    assert!([2, 4].contains(&min), "{min}");
}

#[test]
fn more_gpus_is_offered_where_the_method_spreads_the_model() {
    let input = Request::new(
        MethodId::Planner,
        ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            sequences: 3,
            ..ScenarioInput::default()
        },
    );
    let (s, r) = scenario(input.clone());
    assert!(r.verdict.short_by_bytes > 0);
    let more = suggestions(&s, &r)
        .into_iter()
        .find(|x| matches!(x.change, Change::Gpus(_)))
        .expect("a GPU count that fits");
    let min_gpus = answers(MethodId::Planner, &s).min_gpus.unwrap();
    assert_eq!(more.change, Change::Gpus(min_gpus));
    assert_eq!(more.cost, Cost::MoreHardware);
    let mut changed = input;
    more.change.apply(&mut changed);
    assert_eq!(scenario(changed).1.total_bytes, more.total_bytes);
}

#[test]
fn a_mac_is_never_offered_as_several() {
    // Llama-3.1-70B at 128K does not fit an M4 Max 128 GB; the methods
    // that spread a model fit it on 4 H100-class cards, but 4 Macs are
    // a network cluster, not a GPU count.
    for method in [MethodId::Range, MethodId::Planner] {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
            context: 131_072,
            ..ScenarioInput::default()
        };
        input.set_gpu("Apple M4 Max (128GB, 40-core GPU)");
        let (s, r) = scenario(Request::new(method, input.clone()));
        assert!(r.verdict.short_by_bytes > 0, "{method:?}");
        let offered: Vec<Change> = suggestions(&s, &r).into_iter().map(|x| x.change).collect();
        assert!(
            !offered.iter().any(|c| matches!(c, Change::Gpus(_))),
            "{method:?}: {offered:?}"
        );
        assert_eq!(answers(method, &s).min_gpus, None, "{method:?}");
        // The same scenario on a card that gangs is offered more of it.
        input.set_gpu("H100 SXM");
        let (s, r) = scenario(Request::new(method, input));
        assert!(answers(method, &s).min_gpus.is_some(), "{method:?}");
        assert!(
            suggestions(&s, &r)
                .iter()
                .any(|x| matches!(x.change, Change::Gpus(_))),
            "{method:?}"
        );
    }
}
