//! Fits the speed model's rates on the calibration rows and prints them
//! with their fit; `--write` stores them in `data/speed/rates.json`.
//!
//! ```text
//! cargo run --release -p vramfit-core --example speed_fit            # print
//! cargo run --release -p vramfit-core --example speed_fit -- --write
//! ```
//!
//! What is fitted (never per model or per GPU):
//! - llama.cpp decode: per backend the per-layer cost `o`, the per-GPU
//!   hop `h` and the bandwidth ceiling `S` (a grid), and per backend ×
//!   weight family the bandwidth efficiency `e` (golden-section search);
//!   a backend with fewer than 4 rows or one model size keeps CUDA's
//!   costs and fits `e` only;
//! - llama.cpp prefill: per backend the throughput ceiling and (where
//!   rows of two GPU counts or more exist) the link a layer split hands a
//!   prompt's hidden states over, per backend × family the tensor
//!   efficiency, on rows whose GPU has a tensor peak;
//! - vLLM: bandwidth efficiency and step cost on the batch-1 rows, tensor
//!   efficiency on the throughput rows;
//! - bands: the 10th and 90th percentiles of measured / predicted; for
//!   llama.cpp with each GPU's rows predicted by rates fitted without
//!   that GPU (leave one GPU out), as a GPU outside the calibration sees.
//!
//! The loss is the sum of squared log errors (decode, vLLM); prefill
//! fits the sum of absolute log errors, robust to a source's odd rows.

use std::collections::BTreeSet;
use vramfit_core::methods::speed::calibration::{self, Engine, Metric, Prepared, Row};
use vramfit_core::methods::speed::rates::{BackendCosts, GroupRate, Ratios};
use vramfit_core::methods::speed::{Backend, Device, Family, Rates};

type Case = (Row, Prepared);

fn main() {
    let write = std::env::args().any(|a| a == "--write");
    let (rows, skipped) = calibration::rows();
    let cases: Vec<Case> = rows
        .into_iter()
        .filter_map(|r| calibration::prepare(&r).ok().map(|p| (r, p)))
        .collect();
    eprintln!("{} rows prepared, {} not read", cases.len(), skipped.len());
    let mut rates = fit_all(&cases);
    // The llama.cpp bands: each GPU's rows predicted by rates fitted
    // without that GPU (leave one GPU out), so that the band is what a GPU
    // outside the calibration should expect.
    let (decode_cv, prefill_cv) = held_out_ratios(&cases);
    report_held_out("decode", &decode_cv);
    report_held_out("prefill", &prefill_cv);
    rates.llamacpp.decode_band = quantiles(decode_cv);
    rates.llamacpp.prefill_band = quantiles(prefill_cv);
    // vLLM's batch-1 rows are two GPUs: too few to leave one out. Its
    // decode band is at least llama.cpp's held-out one (the same
    // memory-bound step), wider where its own rows say so.
    let own = band(&cases, &rates, Engine::Vllm, &[Metric::Decode]);
    rates.vllm.decode_band = Ratios {
        low: own.low.min(rates.llamacpp.decode_band.low),
        high: own.high.max(rates.llamacpp.decode_band.high),
    };
    rates.vllm.throughput_band = band(&cases, &rates, Engine::Vllm, &[Metric::Throughput]);
    let text = serde_json::to_string_pretty(&rates).expect("rates serialize") + "\n";
    match write {
        true => {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/speed/rates.json");
            std::fs::write(path, &text).expect("write rates.json");
            eprintln!("wrote {path}");
        }
        false => print!("{text}"),
    }
}

/// Every rate fitted on `cases`.
fn fit_all(cases: &[Case]) -> Rates {
    let mut rates = Rates::checked_in().clone();
    rates.llamacpp.decode.clear();
    rates.llamacpp.prefill.clear();
    rates.llamacpp.costs.clear();
    fit_decode(cases, &mut rates);
    fit_prefill(cases, &mut rates);
    fit_vllm(cases, &mut rates);
    rates
}

/// Measured / predicted of every llama.cpp row, predicted by the rates
/// fitted on the other GPUs' rows: (decode, prefill).
fn held_out_ratios(cases: &[Case]) -> (Vec<f64>, Vec<f64>) {
    let gpus: BTreeSet<String> = cases
        .iter()
        .filter(|c| c.0.engine == Engine::Llamacpp)
        .map(|c| c.0.gpu.name.clone())
        .collect();
    let (mut decode, mut prefill) = (Vec::new(), Vec::new());
    for gpu in gpus {
        let (out, kept): (Vec<&Case>, Vec<&Case>) = cases.iter().partition(|c| c.0.gpu.name == gpu);
        let kept: Vec<Case> = kept.into_iter().cloned().collect();
        let rates = fit_all(&kept);
        for c in out.into_iter().filter(|c| c.0.engine == Engine::Llamacpp) {
            if let Ok(p) = calibration::predict(&c.0, &c.1, &rates) {
                if (p / c.0.measured - 1.0).abs() > 0.2 {
                    eprintln!(
                        "  held out beyond 20 %: line {} {} {} {} {}: {p:.1} vs {}",
                        c.0.line,
                        c.0.gpu_label,
                        c.0.model_label,
                        c.0.file_type.name(),
                        c.0.test,
                        c.0.measured
                    );
                }
                let list = match c.0.metric {
                    Metric::Prefill => &mut prefill,
                    _ => &mut decode,
                };
                list.push(c.0.measured / p);
            }
        }
    }
    (decode, prefill)
}

fn report_held_out(what: &str, ratios: &[f64]) {
    let mut errs: Vec<f64> = ratios.iter().map(|r| (1.0 / r - 1.0).abs()).collect();
    errs.sort_by(|a, b| a.total_cmp(b));
    if errs.is_empty() {
        return;
    }
    let within = errs.iter().filter(|e| **e <= 0.2).count();
    eprintln!(
        "llama.cpp {what}, each GPU left out of its own fit: {} rows, median error {:.1} %, worst {:.1} %, {within} within 20 %",
        errs.len(),
        100.0 * errs[errs.len() / 2],
        100.0 * errs[errs.len() - 1],
    );
}

/// The 10th and 90th percentiles of measured / predicted ratios.
fn quantiles(mut ratios: Vec<f64>) -> Ratios {
    ratios.sort_by(|a, b| a.total_cmp(b));
    if ratios.is_empty() {
        return Ratios {
            low: 1.0,
            high: 1.0,
        };
    }
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    Ratios {
        low: (at(0.1) * 1000.0).floor() / 1000.0,
        high: (at(0.9) * 1000.0).ceil() / 1000.0,
    }
}

/// Log errors of the cases with these rates (`None` where no figure).
fn log_errors<'a>(cases: impl Iterator<Item = &'a Case>, rates: &Rates) -> Vec<f64> {
    cases
        .filter_map(|(r, p)| {
            calibration::predict(r, p, rates)
                .ok()
                .map(|v| (v / r.measured).ln())
        })
        .collect()
}

fn loss(errs: &[f64]) -> f64 {
    errs.iter().map(|e| e * e).sum()
}

/// The minimum of a unimodal `f` on `[lo, hi]`.
fn golden(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        match f(a) < f(b) {
            true => hi = b,
            false => lo = a,
        }
    }
    (lo + hi) / 2.0
}

/// A group's ceiling and dequantization passes (`None`: none).
type Knobs = (Option<f64>, Option<f64>);

fn set_group(
    table: &mut Vec<GroupRate>,
    (backend, family): (Backend, Family),
    e: f64,
    (ceiling, dequant): Knobs,
) {
    table.retain(|g| !(g.backend == backend && g.family == family));
    table.push(GroupRate {
        backend,
        family,
        efficiency: e,
        ceiling,
        dequant,
        rows: 0,
        median_error_pct: 0.0,
        worst_error_pct: 0.0,
    });
}

fn set_costs(rates: &mut Rates, c: BackendCosts) {
    rates.llamacpp.costs.retain(|x| x.backend != c.backend);
    rates.llamacpp.costs.push(c);
}

fn is(case: &Case, engine: Engine, metric: Metric) -> bool {
    case.0.engine == engine && case.0.metric == metric
}

fn family_of(case: &Case) -> Family {
    Family::of(case.0.file_type)
}

/// The efficiency and ceiling of each family of `backend` given the rest
/// of `rates` (decode or prefill rows); the total loss.
fn fit_families(cases: &[&Case], rates: &mut Rates, backend: Backend, prefill: bool) -> f64 {
    let families: BTreeSet<_> = cases.iter().map(|c| family_of(c).id()).collect();
    let ceilings: Vec<Option<f64>> = match prefill {
        true => std::iter::once(None)
            .chain((2..=40).map(|i| Some(i as f64 * 10.0)))
            .collect(),
        false => std::iter::once(None)
            .chain((16..=60).map(|i| Some(i as f64 * 50.0)))
            .collect(),
    };
    let e_max = if prefill { 3.0 } else { 1.0 };
    let mut total = 0.0;
    for fam in families {
        let group: Vec<&Case> = cases
            .iter()
            .copied()
            .filter(|c| family_of(c).id() == fam)
            .collect();
        let family = family_of(group[0]);
        // A ceiling needs GPUs of several bandwidths to be seen.
        let gpus: BTreeSet<&str> = group.iter().map(|c| c.0.gpu.name.as_str()).collect();
        let grid = match gpus.len() >= 4 {
            true => ceilings.clone(),
            false => vec![None],
        };
        // Prefill of block-quantized weights: the passes over the
        // dequantization traffic per micro-batch, on a grid.
        // CUDA converts quantized weights to F16 before cuBLAS for a batch
        // (fitted here); ROCm builds the same code through HIP (CUDA's
        // value); Metal and Vulkan dequantize inside their matrix kernels
        // (none).
        let cuda_dequant = Rates::group(&rates.llamacpp.prefill, Backend::Cuda, family)
            .filter(|f| f.borrowed.is_none())
            .and_then(|f| f.rate.dequant);
        let dequants: Vec<Option<f64>> = match (prefill, family, backend) {
            (true, Family::Quant | Family::Mxfp4, Backend::Cuda) => {
                (0..=8).map(|i| Some(i as f64 * 0.25)).collect()
            }
            (true, Family::Quant | Family::Mxfp4, Backend::Rocm) => vec![cuda_dequant],
            _ => vec![None],
        };
        let score = |e: f64, knobs: Knobs, rates: &mut Rates| {
            let table = match prefill {
                true => &mut rates.llamacpp.prefill,
                false => &mut rates.llamacpp.decode,
            };
            set_group(table, (backend, family), e, knobs);
            let errs = log_errors(group.iter().copied(), rates);
            match prefill {
                // Absolute log errors: a source's odd row (the L40S's F16
                // prompts at a third of its Q4_K_M speed) does not pull the
                // rate of every other GPU.
                true => errs.iter().map(|e| e.abs()).sum(),
                false => loss(&errs),
            }
        };
        let mut best: Option<(f64, f64, Knobs)> = None;
        for &ceiling in &grid {
            for &dequant in &dequants {
                let knobs = (ceiling, dequant);
                let cell = std::cell::RefCell::new(rates.clone());
                let e = golden(0.05, e_max, |e| score(e, knobs, &mut cell.borrow_mut()));
                let l = score(e, knobs, &mut cell.borrow_mut());
                if best.is_none_or(|b| l < b.0 - 1e-12) {
                    best = Some((l, e, knobs));
                }
            }
        }
        if let Some((l, e, knobs)) = best {
            score(e, knobs, rates);
            total += l;
        }
    }
    total
}

fn fit_decode(cases: &[Case], rates: &mut Rates) {
    let dec: Vec<&Case> = cases
        .iter()
        .filter(|c| is(c, Engine::Llamacpp, Metric::Decode))
        .collect();
    let backends: BTreeSet<Backend> = dec.iter().map(|c| c.0.backend).collect();
    // CUDA first: the others may borrow its costs.
    let mut order: Vec<Backend> = backends.into_iter().collect();
    order.sort_by_key(|b| *b != Backend::Cuda);
    for backend in order {
        let mine: Vec<&Case> = dec
            .iter()
            .copied()
            .filter(|c| c.0.backend == backend)
            .collect();
        let sizes: BTreeSet<&str> = mine.iter().map(|c| c.0.model_id).collect();
        let multi_gpu = mine.iter().any(|c| c.0.gpus > 1);
        let own = mine.len() >= 4 && sizes.len() >= 2;
        let cuda = rates.costs(Backend::Cuda);
        let mut best: Option<(f64, BackendCosts, Rates)> = None;
        let grid_o: Vec<f64> = match own {
            true => (0..=30).map(|i| i as f64 * 10.0).collect(),
            false => vec![cuda.map_or(0.0, |c| c.layer_overhead_us)],
        };
        let grid_h: Vec<f64> = match (own, multi_gpu) {
            (true, true) => (0..=10).map(|i| i as f64 * 50.0).collect(),
            _ => vec![0.0],
        };
        for &o in &grid_o {
            for &h in &grid_h {
                let mut r = rates.clone();
                let c = BackendCosts {
                    backend,
                    layer_overhead_us: o,
                    gpu_hop_us: h,
                    prefill_link_gb_s: None,
                    fitted: own,
                };
                set_costs(&mut r, c);
                let l = fit_families(&mine, &mut r, backend, false);
                if best.as_ref().is_none_or(|b| l < b.0) {
                    best = Some((l, c, r));
                }
            }
        }
        if let Some((_, _, r)) = best {
            *rates = r;
        }
    }
    record_fit(cases, rates, Metric::Decode);
}

fn fit_prefill(cases: &[Case], rates: &mut Rates) {
    let pre: Vec<&Case> = cases
        .iter()
        .filter(|c| is(c, Engine::Llamacpp, Metric::Prefill))
        .filter(|c| Device::of(c.0.gpu).fp16_flops.is_some())
        .collect();
    let backends: BTreeSet<Backend> = pre.iter().map(|c| c.0.backend).collect();
    // CUDA first: ROCm takes its dequantization passes.
    let mut order: Vec<Backend> = backends.into_iter().collect();
    order.sort_by_key(|b| *b != Backend::Cuda);
    for backend in order {
        let mine: Vec<&Case> = pre
            .iter()
            .copied()
            .filter(|c| c.0.backend == backend)
            .collect();
        // The link a layer split hands a prompt's hidden states over: a
        // grid where the backend has multi-GPU prompt rows of at least two
        // GPU counts; the others take CUDA's.
        let counts: BTreeSet<u64> = mine.iter().map(|c| c.0.gpus).collect();
        let links: Vec<Option<f64>> = match counts.len() >= 2 {
            true => std::iter::once(None)
                .chain([2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 16.0, 24.0].map(Some))
                .collect(),
            false => vec![None],
        };
        let mut best: Option<(f64, Rates)> = None;
        for link in links {
            let mut r = rates.clone();
            if let Some(mut c) = r.costs(backend).filter(|c| c.backend == backend) {
                c.prefill_link_gb_s = link;
                set_costs(&mut r, c);
            }
            let l = fit_families(&mine, &mut r, backend, true);
            if best.as_ref().is_none_or(|b| l < b.0 - 1e-9) {
                best = Some((l, r));
            }
        }
        if let Some((_, r)) = best {
            *rates = r;
        }
    }
    record_fit(cases, rates, Metric::Prefill);
}

fn fit_vllm(cases: &[Case], rates: &mut Rates) {
    let dec: Vec<&Case> = cases
        .iter()
        .filter(|c| is(c, Engine::Vllm, Metric::Decode))
        .collect();
    let thr: Vec<&Case> = cases
        .iter()
        .filter(|c| is(c, Engine::Vllm, Metric::Throughput))
        .collect();
    let mut best: Option<(f64, Rates)> = None;
    for o in (0..=40).map(|i| i as f64 * 100.0) {
        let mut r = rates.clone();
        r.vllm.step_overhead_us = o;
        let cell = std::cell::RefCell::new(r.clone());
        let e = golden(0.2, 1.5, |e| {
            let mut r = cell.borrow_mut();
            r.vllm.bandwidth_efficiency = e;
            loss(&log_errors(dec.iter().copied(), &r))
        });
        r.vllm.bandwidth_efficiency = e;
        let l = loss(&log_errors(dec.iter().copied(), &r));
        if best.as_ref().is_none_or(|b| l < b.0) {
            best = Some((l, r));
        }
    }
    if let Some((_, r)) = best {
        *rates = r;
    }
    // The tensor efficiency, and how memory and compute combine in a step
    // (a grid of norms; `None`: the larger only).
    let mut best: Option<(f64, f64, Option<f64>)> = None;
    for q in [Some(1.0), Some(1.5), Some(2.0), Some(3.0), Some(4.0), None] {
        let cell = std::cell::RefCell::new(rates.clone());
        cell.borrow_mut().vllm.overlap_norm = q;
        let e = golden(0.02, 1.5, |e| {
            let mut r = cell.borrow_mut();
            r.vllm.compute_efficiency = e;
            loss(&log_errors(thr.iter().copied(), &r))
        });
        let mut r = cell.borrow_mut();
        r.vllm.compute_efficiency = e;
        let l = loss(&log_errors(thr.iter().copied(), &r));
        if best.is_none_or(|b| l < b.0) {
            best = Some((l, e, q));
        }
    }
    if let Some((_, e, q)) = best {
        rates.vllm.compute_efficiency = e;
        rates.vllm.overlap_norm = q;
    }
    rates.vllm.decode_rows = dec.len() as u32;
    rates.vllm.throughput_rows = thr.len() as u32;
    let worst = |cases: &[&Case], r: &Rates| {
        log_errors(cases.iter().copied(), r)
            .into_iter()
            .map(|l| 100.0 * (l.exp() - 1.0).abs())
            .fold(0.0, f64::max)
    };
    rates.vllm.decode_worst_error_pct = round1(worst(&dec, rates));
    rates.vllm.throughput_worst_error_pct = round1(worst(&thr, rates));
}

/// Rows, median and worst error of each llama.cpp group, into its row.
fn record_fit(cases: &[Case], rates: &mut Rates, metric: Metric) {
    let snapshot = rates.clone();
    let table = match metric {
        Metric::Prefill => &mut rates.llamacpp.prefill,
        _ => &mut rates.llamacpp.decode,
    };
    for g in table.iter_mut() {
        let mut errs: Vec<f64> = log_errors(
            cases.iter().filter(|c| {
                is(c, Engine::Llamacpp, metric)
                    && c.0.backend == g.backend
                    && family_of(c) == g.family
            }),
            &snapshot,
        )
        .into_iter()
        .map(|l| 100.0 * (l.exp() - 1.0).abs())
        .collect();
        errs.sort_by(|a, b| a.total_cmp(b));
        g.rows = errs.len() as u32;
        g.median_error_pct = round1(errs.get(errs.len() / 2).copied().unwrap_or(0.0));
        g.worst_error_pct = round1(errs.last().copied().unwrap_or(0.0));
        g.efficiency = (g.efficiency * 1e4).round() / 1e4;
    }
    table.sort_by_key(|g| (g.backend, g.family.id()));
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The 10th and 90th percentiles of measured / predicted.
fn band(cases: &[Case], rates: &Rates, engine: Engine, metrics: &[Metric]) -> Ratios {
    let mut ratios: Vec<f64> = log_errors(
        cases
            .iter()
            .filter(|c| c.0.engine == engine && metrics.contains(&c.0.metric)),
        rates,
    )
    .into_iter()
    .map(|l| (-l).exp())
    .collect();
    ratios.sort_by(|a, b| a.total_cmp(b));
    if ratios.is_empty() {
        return Ratios {
            low: 1.0,
            high: 1.0,
        };
    }
    let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
    Ratios {
        low: (at(0.1) * 1000.0).floor() / 1000.0,
        high: (at(0.9) * 1000.0).ceil() / 1000.0,
    }
}
