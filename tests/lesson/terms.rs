//! Every term the lesson shows, in every language, on the cases it
//! prepares (each method's start and both sides of its counterexample):
//! a formula in symbols that reads the same in every language, the
//! symbols it uses with a definition in that language, and the formula
//! with the numbers in place, written in that language's digits, that
//! gives the core's bytes.

use super::derived;
use super::eval::Eval;
use vramfit_app::i18n::format::NumberStyle;
use vramfit_app::i18n::Lang;
use vramfit_app::lesson::cases;
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;
use vramfit_core::term::Term;
use wasm_bindgen_test::*;

/// The prepared cases of `method`, named.
fn prepared(method: MethodId) -> Vec<(&'static str, Request)> {
    let c = cases::counterexample(method);
    vec![
        ("start", cases::start(method)),
        ("counterexample as assumed", c.assumed),
        ("counterexample broken", c.broken),
    ]
}

/// `text` in English digits, for the evaluator: the language's group
/// separator dropped, its decimal mark made a point.
fn english_digits(text: &str, n: &NumberStyle) -> String {
    text.chars()
        .filter(|c| *c != n.group)
        .map(|c| if c == n.decimal { '.' } else { c })
        .collect()
}

/// What is missing from the terms of `request` in `lang`, one line each.
fn missing(request: &Request, lang: Lang) -> Vec<String> {
    let (rows, result) = derived(request, lang);
    let (english, _) = derived(request, Lang::En);
    let mut out = Vec::new();
    let shown = result
        .components
        .0
        .iter()
        .filter(|c| c.bytes.get() > 0 || result.outside_total.contains(&c.term));
    for c in shown {
        let term: Term = c.term;
        let Some(row) = rows.iter().find(|r| r.term == term) else {
            out.push(format!("{term:?}: no formula"));
            continue;
        };
        if !row.formula.contains('=') {
            out.push(format!("{term:?}: no formula ({})", row.formula));
        }
        let en = english.iter().find(|r| r.term == term);
        if en.map(|r| &r.formula) != Some(&row.formula) {
            out.push(format!(
                "{term:?}: the formula {} differs from English's",
                row.formula
            ));
        }
        if row.symbols.is_empty() {
            out.push(format!("{term:?}: no symbols ({})", row.formula));
        }
        for (symbol, value) in &row.symbols {
            if (lang.lesson().symbol)(*symbol).chars().count() <= 5 || value.is_empty() {
                out.push(format!("{term:?}: {symbol:?} undefined"));
            }
        }
        let Some(text) = &row.substituted else {
            out.push(format!("{term:?}: no numbers ({})", row.formula));
            continue;
        };
        let got = Eval::value(&english_digits(text, &lang.t().number));
        let want = c.bytes.get() as f64;
        if (got - want).abs() > 2.0 + want * 1e-12 {
            out.push(format!("{term:?}: {text} = {got}, the core says {want}"));
        }
    }
    out
}

#[wasm_bindgen_test]
fn every_term_of_every_prepared_case_has_its_formula_in_every_language() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for method in MethodId::ALL {
        for (case, request) in prepared(method) {
            for lang in Lang::ALL {
                checked += 1;
                for line in missing(&request, lang) {
                    failures.push(format!("{method:?} {case} {lang:?}: {line}"));
                }
            }
        }
    }
    assert_eq!(checked, MethodId::ALL.len() * 3 * Lang::ALL.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The check reads each language's digits as the evaluator's: Spanish
/// groups with a narrow space, Dutch with a point, both write a decimal
/// comma.
#[wasm_bindgen_test]
fn the_check_reads_numbers_in_each_languages_digits() {
    let es = &Lang::Es.t().number;
    assert_eq!(
        english_digits("0,75 × 1\u{202f}000\u{202f}000\u{202f}000", es),
        "0.75 × 1000000000"
    );
    let nl = &Lang::Nl.t().number;
    assert_eq!(
        Eval::value(&english_digits("(3.000 + 1,5) × 2", nl)),
        6_003.0
    );
}
