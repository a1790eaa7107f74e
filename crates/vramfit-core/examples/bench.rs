//! Native benchmark (not a test): how long the core takes for
//!   1. one full scenario through every method (`report::build`: validation,
//!      every method, suggestions and answers),
//!   2. the fit table: every catalog model × every catalog GPU × four
//!      weight formats through one method, and
//!   3. reading configs (`parse_config`): the slowest catalog configs (MoE
//!      checkpoints whose quantization lists name modules one by one) and
//!      every catalog config (what the catalog listing parses).
//!
//! Run: `cargo run --release -p vramfit-core --example bench` (or `make bench`).
//! Timings on a shared machine are noisy: each figure is the median of
//! several rounds.

use std::time::{Duration, Instant};
use vramfit_core::catalog;
use vramfit_core::methods::MethodId;
use vramfit_core::model::parse_config;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ModelRef, ScenarioInput};
use vramfit_core::table::{fit_table, DEFAULT_FORMATS};

/// Median wall time of `rounds` runs of `f`.
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[rounds / 2]
}

/// The configs that took longest to read before the quantization lists
/// ran as automata (0.1 to 1.9 s each then; see `docs/quantization.md`,
/// "Matching speed"), and the longest since (lists of hundreds of names).
const SLOWEST_CONFIGS: [&str; 8] = [
    "moonshotai/Kimi-K2.5",
    "nvidia/Qwen3.5-397B-A17B-NVFP4",
    "nvidia/Qwen3.5-122B-A10B-NVFP4",
    "nvidia/Kimi-K2.6-NVFP4",
    "nvidia/Kimi-K2.7-Code-NVFP4",
    "nvidia/GLM-5.1-NVFP4",
    "zai-org/GLM-5.1-FP8",
    "nvidia/Qwen3.6-27B-NVFP4",
];

fn main() {
    let scenario = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        context: 32_768,
        ..ScenarioInput::default()
    };
    let scenario = Request::new(MethodId::Quick, scenario);
    let doc = report::build(&scenario).expect("the benchmark scenario is valid");
    let full = median(201, || {
        std::hint::black_box(report::build(std::hint::black_box(&scenario)).ok());
    });
    println!(
        "full scenario (Llama-3.1-8B, 32K, {} methods + suggestions + answers): {:.1} µs",
        doc.methods.len(),
        full.as_secs_f64() * 1e6
    );
    for method in MethodId::ALL {
        let base = Request::new(method, ScenarioInput::default());
        let cells = fit_table(&base, &DEFAULT_FORMATS).len();
        let t = median(11, || {
            std::hint::black_box(fit_table(std::hint::black_box(&base), &DEFAULT_FORMATS));
        });
        println!(
            "fit table, method {:<9} {cells:>5} cells in {:>7.2} ms ({:.2} µs per cell; {:.0} % of a 16 ms frame)",
            method.id(),
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e6 / cells.max(1) as f64,
            t.as_secs_f64() * 1e3 / 16.0 * 100.0
        );
    }
    let entries = catalog::models::all();
    for id in SLOWEST_CONFIGS {
        let Some(entry) = entries.iter().find(|e| e.id == id) else {
            println!("config {id}: not in the catalog");
            continue;
        };
        let t = median(21, || {
            std::hint::black_box(parse_config(std::hint::black_box(&entry.config)).ok());
        });
        println!("parse_config {id:<32} {:>7.3} ms", t.as_secs_f64() * 1e3);
    }
    let t = median(5, || {
        for e in entries {
            std::hint::black_box(parse_config(std::hint::black_box(&e.config)).ok());
        }
    });
    println!(
        "parse_config, all {} catalog configs: {:.1} ms",
        entries.len(),
        t.as_secs_f64() * 1e3
    );
}
