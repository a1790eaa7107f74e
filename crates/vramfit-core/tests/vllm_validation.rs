//! Validation of the `vllm` method against 47 real vLLM 0.19 start-up logs
//! of an H100 80GB (`data/engines/vllm-0.19-h100.csv`, 24 models: dense,
//! MoE, MLA, sliding window, FP8, W8A8, W4A16, TP 1/2/4, PP 2/4,
//! fp32/fp16, fp8 KV). Every run must be within: weights ±1.5 %, KV
//! memory ±0.5 GiB, KV tokens ±3 % where the KV cache is 10 GiB or more.
//! The rows go through the catalog's config of each model.

use vramfit_core::methods::vllm::logs as validation_logs;
use vramfit_core::methods::vllm::validation;

#[test]
fn every_logged_startup_within_tolerance() {
    let rows = validation::compare().expect("every logged run parses and runs");
    println!("{}", validation::markdown(&rows));
    assert_eq!(rows.len(), 47);
    let outside: Vec<String> = rows
        .iter()
        .filter(|c| !c.within())
        .map(|c| {
            format!(
                "{}: weights {:+.2} %, KV {:+.2} GiB, tokens {:+.2} %",
                c.label(),
                c.weights_error_pct,
                c.kv_cache_error_gib,
                c.tokens_error_pct
            )
        })
        .collect();
    assert!(outside.is_empty(), "outside tolerance: {outside:#?}");
}

#[test]
fn no_run_fails_to_start() {
    // Every logged run started: the method must not predict an error.
    for c in validation::compare().unwrap() {
        assert!(
            c.estimate.start_error.is_none(),
            "{}: {:?}",
            c.label(),
            c.estimate.start_error
        );
    }
}

#[test]
fn concurrency_follows_the_blocks() {
    // "Maximum concurrency for N tokens per request" is blocks over blocks
    // per request: within 1 % wherever the KV cache is 10 GiB or more.
    for c in validation::compare().unwrap() {
        if c.run.kv_cache_gib < validation::KV_TOKENS_FLOOR_GIB {
            continue;
        }
        let error = (c.estimate.max_concurrency - c.run.max_concurrency) / c.run.max_concurrency;
        assert!(error.abs() < 0.01, "{}: {error:+.4}", c.label());
    }
}

/// Every log of other releases and GPUs (`data/engines/vllm-logs.csv`),
/// each compared on what it shows: weights within ±2 %, tokens per GiB of
/// KV cache within ±2 %, KV memory within 1 GiB or 5 %. The counts keep a
/// row from dropping out of the comparison unnoticed.
#[test]
fn every_other_log_within_tolerance() {
    use validation_logs as logs;
    let rows = logs::compare_logs().expect("every log row parses");
    println!("{}", logs::logs_markdown(&rows));
    assert_eq!(rows.len(), 12);
    let count = |f: fn(&logs::LogComparison) -> Option<bool>| logs::tally(&rows, f);
    // (within, compared): 3 rows have no config in the catalog; the V0
    // log, the two unified-memory machines and the unnamed ROCm GPU show
    // no comparable KV memory; gpt-oss-20b's excerpt prints no tokens.
    assert_eq!(count(logs::LogComparison::weights_within), (9, 9));
    assert_eq!(count(logs::LogComparison::tokens_within), (8, 8));
    assert_eq!(count(logs::LogComparison::kv_within), (6, 6));
    // The cache layout at the logged context (KV memory over concurrency),
    // Gemma-4's sliding and global layers of different widths included.
    assert_eq!(count(logs::LogComparison::per_request_within), (9, 9));
}
