//! Native benchmark (not a test): how long the core takes for
//!   1. one full scenario through every method (`report::build`: validation,
//!      every method, suggestions and answers), and
//!   2. the fit table: every catalog model × every catalog GPU × four
//!      weight formats through one method.
//!
//! Run: `cargo run --release -p vramfit-core --example bench` (or `make bench`).
//! Timings on a shared machine are noisy: each figure is the median of
//! several rounds.

use std::time::{Duration, Instant};
use vramfit_core::methods::MethodId;
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
}
