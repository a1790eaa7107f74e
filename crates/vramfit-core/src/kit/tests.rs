use super::*;
use crate::report::APP_VERSION;

fn by_name<'a>(kit: &'a Kit, name: &str) -> &'a KitExample {
    kit.examples
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no example {name}"))
}

#[test]
fn reference_kit_reproduces() {
    let kit = reference();
    assert_eq!(kit.schema, SCHEMA);
    assert_eq!(kit.app_version, APP_VERSION);
    assert_eq!(check(&kit), []);
}

#[test]
fn reference_kit_holds_the_seeds_golden_bytes() {
    let kit = reference();
    // Seed 004 (methodology.md, quick).
    let e = by_name(&kit, "seed004-8b-fp16-8k-24gb");
    assert_eq!(e.expected.method, MethodId::Quick);
    assert_eq!(e.expected.total_bytes, 18_781_116_006);
    assert_eq!(
        e.expected.components.0,
        [
            ("weights".to_string(), Bytes(16_000_000_000)),
            ("kv_cache".to_string(), Bytes(1_073_741_824)),
            ("overhead".to_string(), Bytes(1_707_374_182)),
        ]
    );
    assert_eq!(
        by_name(&kit, "seed004-8b-4bit-8k-8gb").expected.total_bytes,
        5_581_116_006
    );
    assert_eq!(
        by_name(&kit, "seed004-70b-4bit-48gb").expected.total_bytes,
        39_681_116_006
    );
    // Seed 001 (docs/methods/range.md) and seed 002 (docs/methods/planner.md).
    let e = by_name(&kit, "seed001-llama-3.1-8b-bf16-8k-24gb");
    assert_eq!(e.expected.method, MethodId::Range);
    assert_eq!(e.expected.total_bytes, 21_346_368_819);
    assert_eq!(
        by_name(&kit, "seed002-gqa-8b-8k-24gb").expected.total_bytes,
        21_095_009_690
    );
    let mla = by_name(&kit, "seed002-mla-deepseek-v2-lite-tp2");
    let kv = mla
        .expected
        .components
        .0
        .iter()
        .find(|(n, _)| n == "kv_cache");
    assert_eq!(kv.map(|(_, b)| *b), Some(Bytes(127_401_984)));
    // Seed 000 (methodology.md, lesson).
    let e = by_name(&kit, "seed000-7b-inference-4k-24gib");
    assert_eq!(e.expected.method, MethodId::Lesson);
    assert_eq!(e.expected.total_bytes, 24_126_220_134);
    assert_eq!(e.inputs.scenario.gpu_memory_gb * 1e9, 25_769_803_776.0);
    assert_eq!(
        by_name(&kit, "seed000-7b-full-training")
            .expected
            .total_bytes,
        152_308_818_586
    );
    // Seed 003 (allocator): the terms the seed prints, in GB.
    let e = by_name(&kit, "seed003-llama-3.1-8b-lora16-pure-4k-rtx3090");
    assert_eq!(e.expected.method, MethodId::Allocator);
    let gb2 = |name: &str| {
        let (_, bytes) = e
            .expected
            .components
            .0
            .iter()
            .find(|(n, _)| n == name)
            .unwrap();
        bytes.display(crate::units::DisplayUnit::Gb)
    };
    assert_eq!(gb2("weights"), "16.12 GB");
    assert_eq!(gb2("overhead"), "0.75 GB");
    // The same 8B FP16 example under seed 000's method (methodology.md).
    assert_eq!(
        by_name(&kit, "seed004-8b-fp16-8k-24gb@lesson")
            .expected
            .total_bytes,
        27_043_621_683
    );
}

#[test]
fn every_method_has_an_example() {
    let kit = reference();
    for method in MethodId::ALL {
        assert!(
            kit.examples.iter().any(|e| e.expected.method == method),
            "{}",
            method.id()
        );
    }
    // Names are unique.
    let mut names: Vec<&str> = kit.examples.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), kit.examples.len());
}

#[test]
fn kit_round_trips_through_json_in_order() {
    let kit = reference();
    let back: Kit = serde_json::from_str(&kit.to_json()).unwrap();
    assert_eq!(back, kit);
    assert_eq!(
        check_json(&kit.to_json()).unwrap(),
        (kit.examples.len(), vec![])
    );
}

#[test]
fn a_tampered_kit_fails_with_one_clear_line_per_example() {
    let mut kit = reference();
    kit.examples[0].expected.total_bytes = kit.examples[0].expected.total_bytes + Bytes(1);
    kit.examples[0].expected.components.0[1].1 = Bytes(1);
    kit.examples[1].inputs.scenario.layers = 0;
    let failures = check(&kit);
    assert_eq!(failures.len(), 2);
    assert_eq!(
        failures[0].to_string(),
        "FAIL seed004-8b-fp16-8k-24gb: total_bytes expected 18781116007, got 18781116006; kv_cache expected 1, got 1073741824"
    );
    assert_eq!(
        failures[1].to_string(),
        format!(
            "FAIL {}: inputs not estimated: layers must be between 1 and 1024",
            kit.examples[1].name
        )
    );
    assert!(!failures[0].to_string().contains('\n'));
}

#[test]
fn unreadable_examples_and_schema_are_failures_not_errors() {
    let mut value: serde_json::Value = serde_json::from_str(&reference().to_json()).unwrap();
    value["schema"] = "vramfit-kit/9".into();
    value["examples"][2]["inputs"]["method"] = "astrology".into();
    let (count, failures) = check_json(&value.to_string()).unwrap();
    assert_eq!(count, reference().examples.len());
    assert_eq!(failures.len(), 2);
    assert_eq!(
        failures[0].to_string(),
        "FAIL (kit): schema expected vramfit-kit/1, got \"vramfit-kit/9\""
    );
    assert!(
        failures[1].to_string().contains("cannot be read"),
        "{}",
        failures[1]
    );
    assert!(check_json("[1, 2]").is_err());
    assert!(check_json("{not json").is_err());
}

#[test]
fn seed_003s_reading_of_a_typed_24_gb_stays_reproducible() {
    let kit = reference();
    let find = |name: &str| {
        kit.examples
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let typed = find("seed003-llama-3.1-8b-lora16-typed-24gb-read-as-gib");
    assert!(
        typed.source.note.contains("24 GiB"),
        "labelled as the seed's reading"
    );
    // 97 % of 24 GiB, as the seed's fit() takes it.
    let seeds = Bytes(25_769_803_776).percent(9_700);
    assert_eq!(typed.expected.usable_bytes, Some(seeds));
    // The catalog RTX 3090 reports 24,576 MiB: the same bytes.
    let card = find("seed003-llama-3.1-8b-lora16-pure-4k-rtx3090");
    assert_eq!(card.expected.usable_bytes, Some(seeds));
    // A typed 24 GB is 24 × 10⁹ bytes everywhere else.
    let mut decimal = typed.inputs.clone();
    decimal.scenario.gpu_memory_gb = 24.0;
    let r = decimal.run().unwrap();
    assert_eq!(r.verdict.usable_bytes, Bytes(24_000_000_000).percent(9_700));
    assert!(check_example(typed).is_none());
}
