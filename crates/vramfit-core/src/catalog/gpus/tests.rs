use super::resolve::{atoms, contains_all, is_memory_size, outside_parentheses, resolve, NameKeys};
use super::*;
use crate::catalog::fuzzy;
use std::collections::HashSet;

fn name_of(query: &str) -> String {
    match find_gpu(query) {
        Ok(gpu) => gpu.name.clone(),
        Err(e) => panic!("{query:?} did not resolve: {e}"),
    }
}

#[test]
fn checked_in_file_parses_row_by_row() {
    // The whole document, strictly (unknown keys are errors) ...
    let parsed = parse(GPUS_JSON).expect("data/gpus.json parses");
    // ... and each row on its own, so a failure names the row.
    let value: serde_json::Value = serde_json::from_str(GPUS_JSON).unwrap();
    let rows = value["gpus"].as_array().expect("a `gpus` array");
    assert_eq!(rows.len(), parsed.len());
    for row in rows {
        if let Err(e) = serde_json::from_value::<GpuRow>(row.clone()) {
            panic!("row {} does not parse: {e}", row["name"]);
        }
    }
    assert_eq!(all().len(), parsed.len());
    assert!(all().len() >= 80, "{} GPUs", all().len());
}

#[test]
fn names_are_unique_and_resolve_to_themselves() {
    let mut seen = HashSet::new();
    let mut keys = HashSet::new();
    for gpu in all() {
        assert!(seen.insert(gpu.name.as_str()), "duplicate {}", gpu.name);
        let k = NameKeys::of(&gpu.name);
        assert!(keys.insert(k.full_key.clone()), "key clash {}", gpu.name);
        assert_eq!(name_of(&gpu.name), gpu.name);
        assert_eq!(name_of(&gpu.name.to_uppercase()), gpu.name);
    }
}

#[test]
fn memory_and_rates_are_positive_and_finite() {
    for gpu in all() {
        assert!(
            gpu.memory_gb.is_finite() && gpu.memory_gb > 0.0,
            "{}",
            gpu.name
        );
        assert!(gpu.memory_bytes > Bytes::ZERO, "{}", gpu.name);
        assert_eq!(
            gpu.memory_bytes,
            Bytes::from_unit(gpu.memory_gb, DisplayUnit::Gb)
        );
        assert!(gpu.bandwidth_gb_s.is_finite() && gpu.bandwidth_gb_s > 0.0);
        for t in [
            gpu.bf16_dense_tflops,
            gpu.fp16_dense_tflops,
            gpu.fp16_acc16_dense_tflops,
            gpu.int8_dense_tops,
            gpu.fp8_dense_tflops,
            gpu.fp4_dense_tflops,
        ]
        .into_iter()
        .flatten()
        {
            assert!(t.is_finite() && t > 0.0, "{}", gpu.name);
        }
        // The marketed number read in binary units, never less than the
        // decimal figure; a driver's total below it, and at least 90 % of it.
        assert!(gpu.memory_bytes <= gpu.capacity_bytes, "{}", gpu.name);
        assert_eq!(
            gpu.capacity_bytes,
            (gpu.memory_gb * GIB as f64).round() as u64
        );
        if let Some(driver) = gpu.driver_total_bytes {
            assert!(driver <= gpu.capacity_bytes, "{}", gpu.name);
            assert!(driver >= gpu.capacity_bytes / 10 * 9, "{}", gpu.name);
            assert!(gpu.driver_total_source.is_some(), "{}", gpu.name);
        }
        // What CUDA reports sits below the driver's total, with a source.
        if let Some(cuda) = gpu.cuda_total_bytes {
            let ceiling = gpu.driver_total_bytes.unwrap_or(gpu.capacity_bytes);
            assert!(cuda <= ceiling, "{}", gpu.name);
            assert!(cuda >= gpu.capacity_bytes / 10 * 9, "{}", gpu.name);
            assert!(gpu.cuda_total_source.is_some(), "{}", gpu.name);
        }
        if gpu.sm_count.is_some() || gpu.compute_capability.is_some() {
            assert_eq!(gpu.vendor, "NVIDIA", "{}", gpu.name);
            assert!(gpu.verification.contains_key("compute_capability"));
        }
        assert_eq!(
            gpu.unified_memory,
            gpu.category == GpuCategory::AppleUnified
        );
        assert_eq!(gpu.wired_limit_bytes.is_some(), gpu.unified_memory);
        for field in ["memory_gb", "bandwidth_gb_s", "capacity_bytes"] {
            assert!(
                gpu.verification.contains_key(field),
                "{}: {field}",
                gpu.name
            );
        }
        assert!(!gpu.sources.is_empty(), "{} has no source", gpu.name);
    }
}

#[test]
fn cuda_totals_and_sm_counts_where_a_log_shows_them() {
    let h100 = find_gpu("H100").unwrap();
    // 79.19 GiB, as vLLM logs it on an H100 80GB.
    assert_eq!(h100.cuda_total_bytes, Some(85_029_158_912));
    assert_eq!(h100.sm_count, Some(132));
    assert_eq!(
        h100.compute_capability,
        Some(ComputeCapability { major: 9, minor: 0 })
    );
    let a100 = find_gpu("A100 40GB").unwrap();
    assert_eq!(a100.cuda_total_bytes, Some(42_298_834_944));
    assert_eq!(find_gpu("RTX 4090").unwrap().cuda_total_bytes, None);
    assert_eq!(find_gpu("MI300X").unwrap().compute_capability, None);
}

#[test]
fn marketed_gb_are_decimal_bytes() {
    let h200 = find_gpu("H200").unwrap();
    assert_eq!(h200.memory_gb, 141.0);
    assert_eq!(h200.memory_bytes, Bytes(141_000_000_000));
    // The exact size the marketed number denotes is kept apart.
    assert_eq!(h200.capacity_bytes, 141 << 30);
    assert_eq!(h200.driver_total_bytes, None);
    let rtx = find_gpu("RTX 4090").unwrap();
    assert_eq!(rtx.memory_bytes, Bytes(24_000_000_000));
    assert_eq!(rtx.capacity_bytes, 24 << 30);
    assert_eq!(rtx.driver_total_bytes, Some(24_564 << 20));
    let h100 = find_gpu("H100").unwrap();
    assert_eq!(h100.capacity_bytes, 85_899_345_920);
    assert_eq!(h100.driver_total_bytes, Some(81_559 << 20));
    assert!(h100
        .driver_total_source
        .as_deref()
        .unwrap()
        .contains("nvidia-smi"));
    assert_eq!(rtx.category, GpuCategory::Consumer);
}

#[test]
fn short_names_resolve() {
    let cases = [
        ("RTX 4090", "NVIDIA GeForce RTX 4090"),
        ("rtx4090", "NVIDIA GeForce RTX 4090"),
        ("GeForce RTX-4090", "NVIDIA GeForce RTX 4090"),
        ("4090", "NVIDIA GeForce RTX 4090"),
        ("H100", "NVIDIA H100 SXM5"),
        ("h100 sxm", "NVIDIA H100 SXM5"),
        ("H100 PCIe", "NVIDIA H100 PCIe"),
        ("nvidia h100 nvl", "NVIDIA H100 NVL"),
        ("A100 80GB", "NVIDIA A100 80GB SXM4"),
        ("a100-80gb-pcie", "NVIDIA A100 80GB PCIe"),
        ("A100 SXM4 80GB", "NVIDIA A100 80GB SXM4"),
        ("A100 40GB", "NVIDIA A100 40GB SXM4"),
        ("A100", "NVIDIA A100 80GB SXM4"),
        ("A100 PCIe", "NVIDIA A100 80GB PCIe"),
        ("A10", "NVIDIA A10"),
        ("V100", "NVIDIA V100 32GB (SXM2)"),
        ("V100 16GB", "NVIDIA V100 16GB (SXM2)"),
        ("H200", "NVIDIA H200 SXM"),
        ("B200", "NVIDIA B200 (HGX/DGX B200, per GPU)"),
        ("GB200", "NVIDIA GB200 (per Blackwell GPU in the superchip)"),
        ("L4", "NVIDIA L4"),
        ("L40S", "NVIDIA L40S"),
        ("RTX 4060 Ti", "NVIDIA GeForce RTX 4060 Ti 16GB"),
        ("A6000", "NVIDIA RTX A6000"),
        ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation"),
        (
            "RTX PRO 6000",
            "NVIDIA RTX PRO 6000 Blackwell Server Edition",
        ),
        ("MI300X", "AMD Instinct MI300X"),
        ("amd mi325x", "AMD Instinct MI325X"),
        ("M3 Max", "Apple M3 Max (128GB, 40-core GPU)"),
        ("M2 Ultra", "Apple M2 Ultra (192GB)"),
        ("Gaudi 3", "Intel Gaudi 3"),
    ];
    for (query, want) in cases {
        assert_eq!(name_of(query), want, "{query:?}");
    }
}

#[test]
fn typo_suggests_the_close_name() {
    let miss = find_gpu("RTX 4909").unwrap_err();
    assert_eq!(miss.query, "RTX 4909");
    assert_eq!(
        miss.suggestions.first().map(String::as_str),
        Some("NVIDIA GeForce RTX 4090")
    );
    assert!(miss.suggestions.len() <= fuzzy::MAX_SUGGESTIONS);
    let miss = find_gpu("NVIDIA H10O").unwrap_err();
    assert!(miss
        .suggestions
        .iter()
        .any(|s| s.starts_with("NVIDIA H100")));
}

#[test]
fn other_cards_are_not_substituted() {
    // A plain RTX 4060 is its own card, not the 4060 Ti.
    assert_eq!(name_of("RTX 4060"), "NVIDIA GeForce RTX 4060");
    assert_eq!(name_of("RTX 4060 Ti 8GB"), "NVIDIA GeForce RTX 4060 Ti 8GB");
    // An M1 is the base M1, not an M1 Pro; a Radeon PRO W7900 is not a
    // "W7900" guess.
    assert_eq!(name_of("M1"), "Apple M1 (8GB)");
    assert_eq!(name_of("M1 Pro"), "Apple M1 Pro (32GB)");
    assert!(find_gpu("W7900").is_err());
    // MI300A is another part than MI300X.
    let miss = find_gpu("MI300").unwrap_err();
    assert_eq!(miss.suggestions[0], "AMD Instinct MI300X");
    // "RTX 6000" names three different cards.
    let miss = find_gpu("RTX 6000").unwrap_err();
    assert_eq!(miss.suggestions[0], "NVIDIA RTX 6000 Ada Generation");
    assert!(miss.suggestions.contains(&"NVIDIA RTX A6000".to_string()));
    // Gaudi 2 or Gaudi 3.
    let miss = find_gpu("Gaudi").unwrap_err();
    assert_eq!(miss.suggestions, ["Intel Gaudi 2", "Intel Gaudi 3"]);
}

/// A minimal row for synthetic catalogs.
fn row(name: &str, memory_gb: u64) -> String {
    let capacity = memory_gb << 30;
    format!(
        r#"{{"name": "{name}", "vendor": "V", "category": "consumer",
            "memory_gb": {memory_gb}, "memory_type": null, "capacity_bytes": {capacity},
            "bandwidth_gb_s": 1, "bf16_dense_tflops": null,
            "fp16_dense_tflops": null, "fp8_support": false, "fp8_dense_tflops": null,
            "int4_support": null, "fp4_support": false, "fp4_dense_tflops": null,
            "notes": null}}"#
    )
}

#[test]
fn ambiguity_between_chips_lists_the_matches() {
    // "x1y" is exactly both names, and they are different chips
    // (identities `x 1` and `x 1 y`): no default, both offered.
    let doc = format!(
        r#"{{"gpus": [{}, {}]}}"#,
        row("X 1 (Y)", 8),
        row("X 1 Y", 24)
    );
    let gpus = parse(&doc).unwrap();
    let miss = resolve(&gpus, "x 1 y").unwrap_err();
    assert_eq!(miss.suggestions, ["X 1 (Y)", "X 1 Y"]);
    assert_eq!(resolve(&gpus, "x1").unwrap().name, "X 1 (Y)");
}

#[test]
fn variants_of_one_chip_default_to_sxm_then_most_memory() {
    let doc = format!(
        r#"{{"gpus": [{}, {}, {}]}}"#,
        row("Z 9 PCIe", 96),
        row("Z 9 SXM", 80),
        row("Z 9 NVL", 94)
    );
    let gpus = parse(&doc).unwrap();
    assert_eq!(resolve(&gpus, "z9").unwrap().name, "Z 9 SXM");
    let doc = format!(
        r#"{{"gpus": [{}, {}]}}"#,
        row("Q 1 PCIe", 40),
        row("Q 1 NVL", 40)
    );
    let gpus = parse(&doc).unwrap();
    // Same memory, no SXM: a genuine tie, so suggestions.
    assert_eq!(resolve(&gpus, "Q1").unwrap_err().suggestions.len(), 2);
}

#[test]
fn degenerate_queries_do_not_panic() {
    for q in [
        "",
        "   ",
        "NVIDIA",
        "()",
        "😀",
        "a",
        "0",
        &"9".repeat(10_000),
    ] {
        assert!(find_gpu(q).is_err(), "{q:?}");
    }
    assert!(find_gpu("").unwrap_err().suggestions.is_empty());
}

#[test]
fn a_broken_document_is_an_error_not_a_panic() {
    assert!(parse("").is_err());
    assert!(parse(r#"{"gpus": [{"name": "x"}]}"#).is_err());
    assert!(parse(r#"{"gpus": [], "extra": 1}"#).is_err());
    assert_eq!(parse(r#"{"gpus": []}"#).unwrap(), Vec::<Gpu>::new());
}

#[test]
fn helpers() {
    assert_eq!(atoms("h100"), ["h", "100"]);
    assert_eq!(atoms("mi300x"), ["mi", "300", "x"]);
    assert!(is_memory_size("80gb"));
    assert!(!is_memory_size("gb"));
    assert!(!is_memory_size("gb200"));
    assert_eq!(
        outside_parentheses("a (b (c)) d")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["a", "d"]
    );
    assert!(contains_all(
        &["a".into(), "b".into(), "a".into()],
        &["a".into(), "a".into()]
    ));
    assert!(!contains_all(&["a".into()], &["a".into(), "a".into()]));
}

#[test]
fn apple_silicon_has_a_default_wired_limit() {
    let m2 = find_gpu("M2 Max").unwrap();
    assert_eq!(m2.name, "Apple M2 Max (96GB)");
    assert!(m2.unified_memory);
    // Metal's own figure on a 96 GiB M2 Max: 73728 MiB.
    assert_eq!(m2.wired_limit_bytes, Some(73_728 << 20));
    let pro = find_gpu("M1 Pro").unwrap();
    assert_eq!(pro.wired_limit_bytes, Some(default_wired_limit(32 << 30)));
    assert_eq!(default_wired_limit(16 << 30) >> 20, 10_922); // 10922.67 MiB
    assert_eq!(default_wired_limit(36 << 30), 24 << 30);
    assert_eq!(default_wired_limit(512 << 30), 384 << 30);
    assert_eq!(default_wired_limit(0), 0);
    assert_eq!(default_wired_limit(u64::MAX), u64::MAX / 4 * 3 + 2);
    assert_eq!(find_gpu("RTX 4090").unwrap().wired_limit_bytes, None);
}

#[test]
fn new_families_resolve() {
    let cases = [
        ("5090", "NVIDIA GeForce RTX 5090"),
        ("rtx 5080", "NVIDIA GeForce RTX 5080"),
        ("5070 ti", "NVIDIA GeForce RTX 5070 Ti"),
        ("5060 Ti", "NVIDIA GeForce RTX 5060 Ti 16GB"),
        ("4090 laptop", "NVIDIA GeForce RTX 4090 Laptop GPU"),
        ("RTX 5090 Laptop", "NVIDIA GeForce RTX 5090 Laptop GPU"),
        ("m3 max", "Apple M3 Max (128GB, 40-core GPU)"),
        ("M3 Ultra", "Apple M3 Ultra (512GB)"),
        ("mi300x", "AMD Instinct MI300X"),
        ("mi250", "AMD Instinct MI250"),
        ("7900 xtx", "AMD Radeon RX 7900 XTX"),
        ("radeon pro w7900", "AMD Radeon PRO W7900"),
        ("arc b580", "Intel Arc B580"),
        ("A770", "Intel Arc A770 16GB"),
        ("H20", "NVIDIA H20"),
        ("GH200", "NVIDIA GH200 (141GB HBM3e, per GPU)"),
    ];
    for (query, want) in cases {
        assert_eq!(name_of(query), want, "{query:?}");
    }
    // A desktop card is not silently a laptop one, nor the reverse.
    assert_eq!(name_of("RTX 4090"), "NVIDIA GeForce RTX 4090");
}

#[test]
fn catalog_covers_every_vendor_and_segment() {
    let count = |f: &dyn Fn(&Gpu) -> bool| all().iter().filter(|g| f(g)).count();
    assert!(count(&|g| g.vendor == "NVIDIA") >= 40);
    assert!(count(&|g| g.vendor == "AMD") >= 10);
    assert!(count(&|g| g.vendor == "Apple") >= 10);
    assert!(count(&|g| g.vendor == "Intel") >= 4);
    assert!(count(&|g| g.category == GpuCategory::Laptop) >= 3);
    assert!(count(&|g| g.driver_total_bytes.is_some()) >= 10);
}

#[test]
fn every_gpu_has_a_tensor_peak_with_its_source() {
    // The speed model's prefill needs a dense FP16/BF16 tensor peak on every
    // GPU (consumer NVIDIA, AMD, Apple, Intel included), each figure with
    // where it was checked or how it was derived.
    for gpu in all() {
        assert!(
            gpu.fp16_dense_tflops.is_some() || gpu.bf16_dense_tflops.is_some(),
            "{} has no tensor peak",
            gpu.name
        );
        for (field, value) in [
            ("fp16_dense_tflops", gpu.fp16_dense_tflops),
            ("fp16_acc16_dense_tflops", gpu.fp16_acc16_dense_tflops),
            ("int8_dense_tops", gpu.int8_dense_tops),
        ] {
            if value.is_some() {
                let why = gpu.verification.get(field);
                assert!(why.is_some(), "{}: {field} without a source", gpu.name);
                assert!(
                    !why.is_some_and(|w| w.starts_with("unverified")),
                    "{}: {field} unverified",
                    gpu.name
                );
            }
        }
        // FP16 with FP16 accumulate is never slower than with FP32.
        if let (Some(a16), Some(a32)) = (gpu.fp16_acc16_dense_tflops, gpu.fp16_dense_tflops) {
            assert!(a16 >= a32, "{}", gpu.name);
        }
    }
}

#[test]
fn interconnects_follow_the_form_factor_and_carry_a_source() {
    let link = |name: &str| find_gpu(name).unwrap().interconnect;
    assert_eq!(link("H100 SXM5"), Some(Interconnect::Nvswitch));
    assert_eq!(link("H100 PCIe"), Some(Interconnect::Pcie));
    assert_eq!(link("H100 NVL"), Some(Interconnect::Nvlink));
    assert_eq!(link("A100 80GB SXM4"), Some(Interconnect::Nvswitch));
    assert_eq!(link("A100 80GB PCIe"), Some(Interconnect::Pcie));
    assert_eq!(link("RTX 4090"), Some(Interconnect::Pcie));
    assert_eq!(link("MI300X"), None);
    for gpu in all() {
        if gpu.interconnect.is_some() {
            assert!(
                gpu.verification.contains_key("interconnect"),
                "{}: interconnect without a source",
                gpu.name
            );
        }
        if gpu.name.contains("PCIe") {
            assert_eq!(gpu.interconnect, Some(Interconnect::Pcie), "{}", gpu.name);
        }
        if gpu.name.contains("SXM4") || gpu.name.contains("SXM5") {
            assert_eq!(
                gpu.interconnect,
                Some(Interconnect::Nvswitch),
                "{}",
                gpu.name
            );
        }
    }
}
