//! The `llamacpp` method against every size llama.cpp printed in
//! `data/engines/llamacpp.md`: the Llama-3.1-8B table of
//! `tools/quantize/README.md` (nine file types) and the `llama-bench` lines
//! (LLaMA-1 7B Q4_0 and Q8_0, LLaMA-1 13B Q4_0, a Qwen2-7B-class Q4_K_M).

use vramfit_core::methods::llamacpp::validation;

/// Largest accepted |predicted − printed| / printed, in millionths (0.5 %).
const TOLERANCE_PPM: u64 = 5_000;

#[test]
fn every_printed_size_within_half_a_percent() {
    let rows = validation::compare().expect("every printed line parses and estimates");
    println!("{}", validation::markdown(&rows));
    assert_eq!(rows.len(), 13, "9 table rows and 4 llama-bench lines");
    let outside: Vec<String> = rows
        .iter()
        .filter(|r| r.error_ppm.unsigned_abs() > TOLERANCE_PPM)
        .map(|r| format!("{} {}", r.printed.model, r.printed.file_type))
        .collect();
    assert!(outside.is_empty(), "outside ±0.5 %: {outside:?}");
}

#[test]
fn rounded_as_llama_cpp_prints_every_size_is_the_printed_one() {
    // The printed figures are rounded (GiB to 0.01, bits per weight to
    // 0.0001, parameters to 0.01 B); the prediction rounded the same way
    // must read the same.
    for r in validation::compare().unwrap() {
        let label = format!("{} {}", r.printed.model, r.printed.file_type);
        assert_eq!(r.predicted_centi_gib(), r.printed.centi_gib, "{label} GiB");
        if let Some(bpw) = r.printed.bpw_e4 {
            assert_eq!(r.predicted_bpw_e4(), bpw, "{label} BPW");
        }
        if let Some(params) = r.printed.centi_billion_params {
            let predicted = (r.predicted_elements + 5_000_000) / 10_000_000;
            assert_eq!(predicted, params, "{label} parameters");
        }
    }
}
