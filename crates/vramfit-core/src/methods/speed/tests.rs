//! The speed model against the calibration rows (`data/speed/
//! calibration.csv`), with tolerances taken from the fit itself
//! (`data/speed/rates.json`): a broken formula or a lost row fails here.

use super::calibration::{self, Engine, Metric};
use super::rates::Rates;
use super::{experts_touched, Family};
use crate::catalog::gpus::find_gpu;

/// Every row with its prediction, `(row, predicted)`.
fn predicted() -> Vec<(calibration::Row, f64)> {
    let rates = Rates::checked_in();
    let (rows, _) = calibration::rows();
    rows.into_iter()
        .filter_map(|r| {
            let p = calibration::prepare(&r).ok()?;
            calibration::predict(&r, &p, rates).ok().map(|v| (r, v))
        })
        .collect()
}

/// The error the fit recorded for a row's group, percent.
fn recorded_worst(row: &calibration::Row, rates: &Rates) -> f64 {
    let family = Family::of(row.file_type);
    match (row.engine, row.metric) {
        (Engine::Vllm, Metric::Decode) => rates.vllm.decode_worst_error_pct,
        (Engine::Vllm, _) => rates.vllm.throughput_worst_error_pct,
        (Engine::Llamacpp, metric) => {
            let table = match metric {
                Metric::Prefill => &rates.llamacpp.prefill,
                Metric::Decode | Metric::Throughput => &rates.llamacpp.decode,
            };
            Rates::group(table, row.backend, family).map_or(0.0, |g| g.rate.worst_error_pct)
        }
    }
}

#[test]
fn every_calibration_row_is_within_the_error_its_fit_recorded() {
    let rates = Rates::checked_in();
    let rows = predicted();
    // 156 of the 158 rows have a figure: the other two are a model outside
    // the catalog (every catalog GPU has a tensor peak, so every prefill
    // row has one).
    assert!(rows.len() >= 156, "{} rows with a figure", rows.len());
    for (row, p) in &rows {
        let error = 100.0 * (p / row.measured - 1.0).abs();
        // Half a point of slack for the rounding of the recorded figure.
        let tolerance = recorded_worst(row, rates) + 0.5;
        assert!(
            error <= tolerance,
            "line {}: {} {:?} {} {}: predicted {p:.1}, measured {}, error {error:.1} % > {tolerance:.1} %",
            row.line,
            row.gpu_label,
            row.engine,
            row.model_label,
            row.test,
            row.measured
        );
    }
}

#[test]
fn decode_is_within_twenty_percent_on_nearly_every_row() {
    let rows = predicted();
    let decode: Vec<_> = rows
        .iter()
        .filter(|(r, _)| r.metric == Metric::Decode)
        .collect();
    let within = decode
        .iter()
        .filter(|(r, p)| (p / r.measured - 1.0).abs() <= 0.2)
        .count();
    assert!(decode.len() >= 77, "{} decode rows", decode.len());
    // 77 of 77 at the fit; one row may move across the line.
    assert!(within + 1 >= decode.len(), "{within} of {}", decode.len());
}

/// Rows of a metric (and engine) within 20 % of the measurement, and all.
fn within_twenty(engine: Engine, metric: Metric) -> (usize, usize) {
    let rows = predicted();
    let mine: Vec<_> = rows
        .iter()
        .filter(|(r, _)| r.engine == engine && r.metric == metric)
        .collect();
    let within = mine
        .iter()
        .filter(|(r, p)| (p / r.measured - 1.0).abs() <= 0.2)
        .count();
    (within, mine.len())
}

#[test]
fn prefill_is_within_twenty_percent_on_most_rows() {
    // 63 of 73 at the fit (CUDA, Metal, ROCm, Vulkan); the misses are the
    // L40S's F16 rows (a source's odd figure), two Vulkan rows and a few
    // 70B rows. Two rows may move across the line.
    let (within, all) = within_twenty(Engine::Llamacpp, Metric::Prefill);
    assert!(all >= 73, "{all} prefill rows");
    assert!(within + 2 >= 63, "{within} of {all}");
}

#[test]
fn vllm_throughput_is_within_twenty_percent_on_four_of_six() {
    // 4 of 6 at the fit; the A10G at 64 sequences (vLLM 0.4.3) is 58 % over.
    let (within, all) = within_twenty(Engine::Vllm, Metric::Throughput);
    assert_eq!(all, 6);
    assert!(within >= 4, "{within} of {all}");
}

#[test]
fn llama3_8b_q4_k_m_on_a_4090() {
    // Line 47: RTX 4090, Meta-Llama-3-8B Q4_K_M, tg512 130.58 tokens/s.
    let rates = Rates::checked_in();
    let (rows, _) = calibration::rows();
    let row = rows.iter().find(|r| r.line == 47).expect("line 47");
    assert_eq!((row.test.as_str(), row.gpus), ("tg512", 1));
    let p = calibration::prepare(row).unwrap();
    let calibration::Prepared::Llamacpp(plan, _) = &p else {
        panic!("a llama.cpp row")
    };
    // A token reads every weight but token_embd, which it looks up:
    // 4,912,898,304 file bytes less 128,255/128,256 of the 369 MB Q4_K table.
    let read = plan.traffic.gpu_bytes + plan.traffic.host_bytes;
    assert!((read - 4_617_396_224.0).abs() < 5e6, "{read}");
    let v = calibration::predict(row, &p, rates).unwrap();
    assert!((v / 130.58 - 1.0).abs() < 0.12, "{v}");
}

#[test]
fn qwen3_8b_bf16_on_an_h100() {
    // Line 149: vLLM 0.30, H100 SXM, batch 1, 128 in / 128 out: 146.51.
    let (rows, _) = calibration::rows();
    let row = rows.iter().find(|r| r.line == 149).expect("line 149");
    let p = calibration::prepare(row).unwrap();
    let v = calibration::predict(row, &p, Rates::checked_in()).unwrap();
    assert!((v / 146.51 - 1.0).abs() < 0.02, "{v}");
}

#[test]
fn a_moe_token_reads_its_routed_experts_only() {
    // gpt-oss-20b: 4 of 32 experts per token; the rest of the file is read
    // whole. Line 121: tg32 on an M2 Ultra.
    let (rows, _) = calibration::rows();
    let row = rows.iter().find(|r| r.line == 121).expect("line 121");
    let calibration::Prepared::Llamacpp(plan, _) = calibration::prepare(row).unwrap() else {
        panic!("a llama.cpp row")
    };
    let read = plan.traffic.gpu_bytes;
    // The file is 11.27 GiB; a token reads under a quarter of it.
    assert!(read < 0.25 * 11.27 * (1u64 << 30) as f64, "{read}");
    assert!(read > 0.05 * 11.27 * (1u64 << 30) as f64, "{read}");
    assert!((experts_touched(32, 4, 1) - 4.0).abs() < 1e-12);
    assert!((experts_touched(32, 4, 10_000) - 32.0).abs() < 1e-9);
}

#[test]
fn layers_in_host_memory_slow_decode_down() {
    use crate::scenario::{ModelRef, ScenarioInput, SpeedKnobs};
    let run = |ngl: u64, host_gbs: f64| {
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Meta-Llama-3-8B".into())),
            context: 4096,
            speed: Box::new(SpeedKnobs {
                host_bandwidth_gbs: Some(host_gbs),
                ..SpeedKnobs::default()
            }),
            ..ScenarioInput::default()
        };
        input.set_gpu("RTX 4090");
        input.engine.n_gpu_layers = Some(ngl);
        let s = input.validate().unwrap();
        let r = crate::methods::llamacpp::run(&s).unwrap();
        super::scenario::llamacpp(&s, &r).unwrap()
    };
    let all = run(33, 76.8);
    let part = run(24, 76.8);
    let faster_host = run(24, 153.6);
    assert_eq!((all.host_layers, part.host_layers), (0, 9));
    assert!(part.decode_tokens_per_s.point < 0.6 * all.decode_tokens_per_s.point);
    assert!(faster_host.decode_tokens_per_s.point > part.decode_tokens_per_s.point);
    assert_eq!(part.decode_limited_by, super::Limit::HostMemory);
    let b = part.decode_tokens_per_s;
    assert!(b.low <= b.point && b.point <= b.high && b.low > 0.0);
}

#[test]
fn the_held_out_gpus_are_in_the_catalog_with_a_bandwidth() {
    for name in [
        "RTX 3060",
        "RTX 3070",
        "RTX 3080",
        "RTX 4070 Ti",
        "RTX 4080",
        "RTX 5090",
        "RTX 2080 Ti",
        "RTX 6000 Ada",
        "RTX 5000 Ada",
        "RTX 4000 Ada",
        "RTX A4000",
        "A40",
        "A100 SXM4",
        "H100 SXM",
        "V100",
        "M1 Max",
        "M3 Ultra",
        "RX 7900 XTX",
        "DGX Spark",
        "Ryzen AI Max+ 395",
        "M1",
    ] {
        let g = find_gpu(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(g.bandwidth_gb_s > 0.0, "{name}");
    }
}

#[test]
fn a_layer_split_hands_each_prompt_token_to_the_next_gpu() {
    // Lines 46 and 38: Meta-Llama-3-8B Q4_K_M pp512 on one RTX 4090 and on
    // eight (7,139 and 6,172 tokens/s measured). Eight GPUs add 7 links,
    // each carrying 512 tokens × 4,096 F32 values (8.4 MB) at the fitted
    // link rate: the prompt's time grows by exactly that.
    let rates = Rates::checked_in();
    let link = rates.prefill_link(super::Backend::Cuda).expect("CUDA link");
    let (rows, _) = calibration::rows();
    let time = |line: usize| {
        let row = rows.iter().find(|r| r.line == line).expect("row");
        let p = calibration::prepare(row).unwrap();
        let calibration::Prepared::Llamacpp(plan, setting) = &p else {
            panic!("a llama.cpp row")
        };
        assert_eq!((plan.hidden, setting.prompt_tokens), (4096, 512));
        (
            setting.gpus,
            512.0 / calibration::predict(row, &p, rates).unwrap(),
        )
    };
    let ((one, t1), (eight, t8)) = (time(46), time(38));
    assert_eq!((one, eight), (1, 8));
    let hops = 7.0 * 512.0 * 4096.0 * 4.0 / link;
    assert!((t8 - t1 - hops).abs() < 1e-9, "{t1} {t8} {hops}");
    // The measured rows grow by 11.2 ms; the link rate puts it within 20 %.
    let measured = 512.0 / 6172.06 - 512.0 / 7138.99;
    assert!((hops / measured - 1.0).abs() < 0.25, "{hops} vs {measured}");
}
