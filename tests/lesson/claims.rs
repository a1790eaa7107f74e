//! Every counterexample's words against its own figures, in every
//! language: what a static text claims (a figure it quotes, a row that
//! grows fourfold, a verdict that turns, a total that stays the same) is
//! checked on the two results the page puts side by side. The sentence
//! that reads the table out is generated from the figures
//! (`methods::compare`); this checks the texts written by hand.

use vramfit_app::i18n::format::{self, NumberStyle};
use vramfit_app::i18n::Lang;
use vramfit_app::lesson::cases;
use vramfit_app::lesson::texts::MethodLesson;
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::model::AttentionKind;
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit, GB, GIB};
use vramfit_core::verdict::FitStatus;
use wasm_bindgen_test::*;

fn both(method: MethodId) -> (MethodResult, MethodResult) {
    let c = cases::counterexample(method);
    (c.assumed.run().unwrap(), c.broken.run().unwrap())
}

fn get(r: &MethodResult, term: Term) -> u64 {
    r.components.get(term).unwrap_or_default().get()
}

fn fits(r: &MethodResult) -> bool {
    r.verdict.status != FitStatus::DoesNotFit
}

/// `figure` is written in `text` (the case or its lesson), in `lang`.
fn quotes(lang: Lang, text: &str, figure: &str) {
    assert!(text.contains(figure), "{lang:?}: {figure} in {text}");
}

/// Each language's lesson of `method`, with its number style.
fn texts(method: MethodId) -> Vec<(Lang, &'static NumberStyle, &'static MethodLesson)> {
    Lang::ALL
        .into_iter()
        .map(|l| (l, &l.t().number, (l.lesson().method)(method)))
        .collect()
}

/// Quick: half of Gemma 2 9B's layers slide over a window the context
/// passes, and the dense formula's cache is the larger.
#[wasm_bindgen_test]
fn quicks_counterexample_follows_from_its_figures() {
    let c = cases::counterexample(MethodId::Quick);
    let (a, b) = both(MethodId::Quick);
    let s = c.broken.scenario.validate().unwrap();
    let spec = s.model.as_deref().unwrap();
    let windows: Vec<u64> = spec
        .attention
        .iter()
        .filter_map(|l| match l {
            AttentionKind::SlidingWindow { window } => Some(*window),
            _ => None,
        })
        .collect();
    assert_eq!(
        windows.len() as u64 * 2,
        spec.num_layers,
        "half of the layers slide"
    );
    let window = windows[0];
    assert!(windows.iter().all(|w| *w == window));
    assert!(s.context > window, "the context passes the window");
    assert!(
        get(&a, Term::KvCache) > get(&b, Term::KvCache),
        "the dense cache overcounts"
    );
    for (lang, n, t) in texts(MethodId::Quick) {
        for figure in [spec.num_layers, window, s.context] {
            quotes(lang, t.counterexample, &format::integer(n, figure));
        }
    }
}

/// Lesson: the same bytes against 24 GiB and 24 GB; it fits one and not
/// the other, and 1 GiB is 7.4 % more than 1 GB.
#[wasm_bindgen_test]
fn the_lesson_methods_counterexample_follows_from_its_figures() {
    let (a, b) = both(MethodId::Lesson);
    assert_eq!(a.components, b.components, "same terms");
    assert_eq!(a.total_bytes, b.total_bytes, "same bytes");
    assert!(fits(&a) && !fits(&b), "fits 24 GiB, not 24 GB");
    let more = (GIB as f64 / GB as f64 - 1.0) * 100.0;
    for (lang, n, t) in texts(MethodId::Lesson) {
        for figure in [a.total_bytes.get(), 24 * GIB, 24 * GB] {
            quotes(lang, t.counterexample, &format::integer(n, figure));
        }
        quotes(lang, t.counterexample_lesson, &format::decimal(n, more, 1));
    }
}

/// Range: without checkpointing the activations are far apart (the
/// allocator's several times the range's), and the range's verdict is
/// the more optimistic.
#[wasm_bindgen_test]
fn ranges_counterexample_follows_from_its_figures() {
    let (a, b) = both(MethodId::Range);
    let (kept, all) = (get(&a, Term::Activations), get(&b, Term::Activations));
    assert!(
        kept > 0 && all > 2 * kept,
        "far apart: {kept} against {all}"
    );
}

/// Planner: four times the prefill tokens, four times the activations,
/// a larger margin; the total rises towards the usable memory and still
/// fits, with less to spare (the figures the lesson quotes).
#[wasm_bindgen_test]
fn the_planners_counterexample_follows_from_its_figures() {
    let c = cases::counterexample(MethodId::Planner);
    let (a, b) = both(MethodId::Planner);
    let budgets = [&c.assumed, &c.broken].map(|r| r.scenario.planner.prefill_budget_tokens);
    assert_eq!(budgets, [2_048, 8_192]);
    let (x, y) = (get(&a, Term::Activations), get(&b, Term::Activations));
    assert!(y.abs_diff(4 * x) <= 4, "fourfold: {x} against {y}");
    assert!(
        get(&b, Term::Margin) > get(&a, Term::Margin),
        "the margin grows"
    );
    assert!(fits(&a) && fits(&b), "it still fits");
    assert_eq!(a.verdict.usable_bytes, b.verdict.usable_bytes);
    let gb = |n: &NumberStyle, b: Bytes| format::bytes(n, DisplayUnit::Gb, b);
    for (lang, n, t) in texts(MethodId::Planner) {
        for figure in budgets {
            quotes(lang, t.counterexample, &format::integer(n, figure));
        }
        for bytes in [
            a.total_bytes,
            b.total_bytes,
            a.verdict.usable_bytes,
            a.verdict.headroom_bytes,
            b.verdict.headroom_bytes,
        ] {
            quotes(lang, t.counterexample_lesson, &gb(n, bytes));
        }
    }
}

/// Allocator: without the dropout the activations shrink, and the peak
/// with them.
#[wasm_bindgen_test]
fn the_allocators_counterexample_follows_from_its_figures() {
    let (a, b) = both(MethodId::Allocator);
    assert!(get(&b, Term::Activations) < get(&a, Term::Activations));
    assert!(b.total_bytes < a.total_bytes, "the peak shrinks");
}

/// vLLM: the constant's and the log's memory outside PyTorch, both KV
/// caches, and the difference, which comes out of the cache one for one.
#[wasm_bindgen_test]
fn vllms_counterexample_follows_from_its_figures() {
    let c = cases::counterexample(MethodId::Vllm);
    let a = c.assumed.run().unwrap();
    let Some(EngineReport::Vllm(v)) = &a.engine else {
        panic!("vLLM's figures");
    };
    let log = c.logged.unwrap();
    let logged = log
        .terms
        .iter()
        .find(|(t, _)| *t == Term::NonTorch)
        .unwrap()
        .1;
    let missed = logged.get() as f64 - v.non_torch_bytes as f64;
    let fewer = v.kv_cache_bytes as f64 - log.kv_cache.get() as f64;
    // The log prints GiB to two decimals: one for one within that.
    assert!(
        (missed - fewer).abs() <= 0.015 * GIB as f64,
        "{missed} against {fewer}"
    );
    for (lang, n, t) in texts(MethodId::Vllm) {
        for bytes in [
            Bytes(v.non_torch_bytes),
            logged,
            Bytes(v.kv_cache_bytes),
            log.kv_cache,
        ] {
            quotes(
                lang,
                t.counterexample,
                &format::bytes(n, DisplayUnit::Gib, bytes),
            );
        }
        let tokens = v.kv_cache_tokens - log.kv_cache_tokens;
        quotes(lang, t.counterexample_lesson, &format::integer(n, tokens));
        let about = format::decimal(n, fewer / GIB as f64, 1);
        quotes(lang, t.counterexample_lesson, &about);
    }
}

/// llama.cpp: the range method's weights are larger than the recipe's
/// file, and the part left in host memory is the figure the table shows.
#[wasm_bindgen_test]
fn llamacpps_counterexample_follows_from_its_figures() {
    let (range, gguf) = both(MethodId::Llamacpp);
    let Some(EngineReport::Llamacpp(e)) = &gguf.engine else {
        panic!("llama.cpp's figures");
    };
    assert!(
        e.model_size_bytes < get(&range, Term::Weights),
        "the recipe's file is smaller"
    );
    let host = gguf.components.get(Term::HostPart).unwrap();
    for (lang, n, t) in texts(MethodId::Llamacpp) {
        quotes(
            lang,
            t.counterexample,
            &format::bytes(n, DisplayUnit::Gb, host),
        );
    }
}
