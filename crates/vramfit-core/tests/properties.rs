//! Invariants every method must keep, checked over every catalog model and
//! many sampled scenarios (a small deterministic generator: the same cases
//! on every run, no extra dependency):
//!
//! - more context, batch or users never needs less memory;
//! - a smaller weight format never needs more;
//! - splitting over more GPUs never loses memory (per-GPU × GPUs ≥ one GPU);
//! - no figure is NaN or infinite, whatever finite input in range;
//! - invalid input is a typed error, never a panic.

use vramfit_core::catalog::models;
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::{self, MethodId, MethodResult};
use vramfit_core::model::parse_config;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Field, Mode, ModelRef, ScenarioInput, WeightFormat};

/// xorshift64*: deterministic pseudo-random numbers for sampling.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `lo..=hi`, spread evenly over orders of magnitude.
    fn log_uniform(&mut self, lo: u64, hi: u64) -> u64 {
        let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
        let t = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((a + (b - a) * t).exp().round() as u64).clamp(lo, hi)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// Every method's result for an input, by method; methods that do not
/// estimate it are skipped.
fn results(input: &ScenarioInput) -> Vec<(MethodId, MethodResult)> {
    let Ok(s) = input.validate() else {
        return Vec::new();
    };
    MethodId::ALL
        .into_iter()
        .filter_map(|m| methods::run(m, &s).ok().map(|r| (m, r)))
        .collect()
}

/// A sampled scenario on a catalog model or typed numbers.
fn sample(rng: &mut Rng) -> ScenarioInput {
    let mut input = ScenarioInput {
        mode: *rng.pick(&Mode::ALL),
        context: rng.log_uniform(1, 1_000_000),
        sequences: rng.log_uniform(1, 1_000),
        gpu_memory_gb: rng.log_uniform(4, 1_000) as f64,
        ..ScenarioInput::default()
    };
    let all = models::all();
    if !rng.next().is_multiple_of(4) {
        input.model = Some(ModelRef::Catalog(rng.pick(all).id.to_string()));
    } else {
        input.params_b = rng.log_uniform(1, 500) as f64;
        input.layers = rng.log_uniform(1, 128);
    }
    input.set_weight_format(*rng.pick(&WeightFormat::ALL));
    input
}

/// What a result needs in all: the figure against the GPU, and for
/// llama.cpp, whose plan fills the GPU and keeps the rest on the host
/// (`-ngl auto`), its host part too.
fn whole_need(r: &MethodResult) -> vramfit_core::units::Bytes {
    match &r.engine {
        Some(EngineReport::Llamacpp(l)) => vramfit_core::units::Bytes(l.gpu_bytes + l.host_bytes),
        _ => r.verdict.needed_bytes,
    }
}

/// The host memory llama.cpp's plan is short of (zero for the others).
fn host_short(r: &MethodResult) -> vramfit_core::units::Bytes {
    match &r.engine {
        Some(EngineReport::Llamacpp(l)) => vramfit_core::units::Bytes(l.plan.host_short_by_bytes),
        _ => vramfit_core::units::Bytes::ZERO,
    }
}

/// `more` never needs less than `less`, method by method.
fn never_less(less: &ScenarioInput, more: &ScenarioInput, what: &str) {
    let a = results(less);
    let b = results(more);
    for (m, ra) in &a {
        if let Some((_, rb)) = b.iter().find(|(mb, _)| mb == m) {
            assert!(
                whole_need(rb) >= whole_need(ra),
                "{}: more {what} needs less ({:?} < {:?}) for {:?}",
                m.id(),
                rb.verdict.needed_bytes,
                ra.verdict.needed_bytes,
                more
            );
        }
    }
}

#[test]
fn more_context_or_sequences_never_needs_less() {
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..300 {
        let base = sample(&mut rng);
        let grow = |f: &dyn Fn(&mut ScenarioInput)| {
            let mut more = base.clone();
            f(&mut more);
            more
        };
        never_less(&base, &grow(&|i| i.context = i.context * 2 + 1), "context");
        never_less(
            &base,
            &grow(&|i| i.sequences += 1 + i.sequences / 2),
            "sequences",
        );
    }
}

#[test]
fn a_smaller_weight_format_never_needs_more() {
    let mut rng = Rng(0x5eed_0002);
    let mut formats: Vec<WeightFormat> = WeightFormat::ALL
        .into_iter()
        .filter(|f| f.milli_bits().is_some())
        .collect();
    formats.sort_by_key(|f| f.milli_bits());
    for _ in 0..200 {
        let base = sample(&mut rng);
        for pair in formats.windows(2) {
            let (mut small, mut big) = (base.clone(), base.clone());
            small.set_weight_format(pair[0]);
            big.set_weight_format(pair[1]);
            never_less(&small, &big, "bits per weight");
        }
    }
}

#[test]
fn splitting_over_gpus_never_loses_memory() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..200 {
        let one = ScenarioInput {
            gpus: 1,
            ..sample(&mut rng)
        };
        for n in [2, 4, 8] {
            // One copy of the model spread over n GPUs (the derived layout).
            let split = ScenarioInput {
                gpus: n,
                ..one.clone()
            };
            for (m, single) in results(&one) {
                let Some((_, per_gpu)) = results(&split).into_iter().find(|(x, _)| *x == m) else {
                    continue;
                };
                let spread = per_gpu.total_bytes.get() as u128 * n as u128;
                assert!(
                    spread >= single.total_bytes.get() as u128,
                    "{}: {n} GPUs × {:?} < one GPU {:?}",
                    m.id(),
                    per_gpu.total_bytes,
                    single.total_bytes
                );
            }
        }
    }
}

#[test]
fn no_figure_is_nan_or_infinite_even_at_the_limits() {
    let mut rng = Rng(0x5eed_0004);
    let mut inputs: Vec<ScenarioInput> = (0..300).map(|_| sample(&mut rng)).collect();
    // Every field at its minimum, then at its maximum.
    for pick_max in [false, true] {
        let mut extreme = ScenarioInput::default();
        for f in Field::ALL {
            let (lo, hi) = f.range();
            extreme.set(f, if pick_max { hi } else { lo });
        }
        inputs.push(extreme.clone());
        inputs.push(ScenarioInput {
            model: Some(ModelRef::Catalog("deepseek-ai/DeepSeek-V3".into())),
            ..extreme
        });
    }
    for input in inputs {
        let Ok(doc) = report::build(&Request::new(MethodId::Quick, input)) else {
            continue;
        };
        for r in doc.methods.iter().chain([&doc.estimate]) {
            let v = &r.verdict;
            assert!(v.utilization.is_finite() && v.utilization >= 0.0, "{r:?}");
            assert_eq!(
                v.short_by_bytes,
                (v.needed_bytes - v.usable_bytes).max(host_short(r))
            );
        }
        // The document always serializes (no NaN reaches JSON).
        assert!(serde_json::from_str::<serde_json::Value>(&doc.to_json()).is_ok());
    }
}

#[test]
fn invalid_input_is_a_typed_error_never_a_panic() {
    let mut rng = Rng(0x5eed_0005);
    let bad = [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e300, 0.5];
    for _ in 0..500 {
        let mut input = sample(&mut rng);
        let field = *rng.pick(&Field::ALL);
        let value = *rng.pick(&bad);
        // Write the raw value past `Field::check`, as an imported JSON could.
        let mut json = serde_json::to_value(&input).unwrap();
        if value.is_finite() {
            json[field.key()] = serde_json::json!(value);
            input = match serde_json::from_value(json) {
                Ok(i) => i,
                Err(_) => continue, // a negative or fractional integer: refused by serde
            };
        } else if field.integer() {
            // A whole-number field cannot hold NaN or infinity at all.
            continue;
        } else {
            input.set(field, value);
        }
        match field.check(value) {
            Ok(_) => {}
            Err(_) => assert!(input.validate().is_err(), "{field:?} = {value} accepted"),
        }
    }
}

#[test]
fn config_parser_never_panics_on_mangled_configs() {
    let mut rng = Rng(0x5eed_0006);
    for entry in models::all() {
        let text = entry.config.as_bytes();
        for _ in 0..20 {
            let mut bytes = text.to_vec();
            for _ in 0..1 + rng.next() % 8 {
                let i = (rng.next() % bytes.len() as u64) as usize;
                bytes[i] = b"{}[]:,\"0123456789-eE.nulltrue"[(rng.next() % 29) as usize];
            }
            let mangled = String::from_utf8_lossy(&bytes);
            let _ = parse_config(&mangled);
        }
    }
}
