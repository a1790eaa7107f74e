//! Every term of every method, derived for the current scenario: the
//! formula in symbols (the same in every language, as in the method's own
//! documentation), the symbols it uses with their values, and the formula
//! with those numbers in place. The value itself is the core's: nothing
//! here computes a term. The numbers put in are read from the scenario,
//! the model and the core's own intermediate results (the planner's plan,
//! the allocator's per-token counts); `tests/lesson.rs` evaluates every
//! substituted formula and checks that it gives the core's value.
//!
//! One module per method, each with one `match` arm per [`Term`] (no
//! `_ =>`): a new term does not compile until every method says whether
//! it has a formula for it, and a new method does not compile until
//! [`derive_term`] names it.

mod allocator;
pub mod engines;
mod kv;
mod lesson;
mod llamacpp;
mod planner;
mod quick;
mod range;
mod vllm;

use super::symbols::{term_sign, Symbol};
use crate::i18n::format::{self, NumberStyle};
use vramfit_core::methods::llamacpp::{run as llamacpp_run, LlamacppRun};
use vramfit_core::methods::vllm::{run as vllm_run, VllmRun};
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::scenario::Scenario;
use vramfit_core::term::Term;

/// One term of the current scenario, derived.
#[derive(Debug, Clone, PartialEq)]
pub struct Derivation {
    pub term: Term,
    /// The formula in symbols (`"KV = 2 × L × H_kv × d × S × B × b_kv"`).
    pub formula: String,
    /// The symbols the formula uses, each with its value here.
    pub symbols: Vec<(Symbol, String)>,
    /// The formula with the scenario's numbers in place, in bytes
    /// (`"2 × 32 × 8 × 128 × 8,192 × 1 × 2"`); `None` where the numbers
    /// would not fit on a line (a per-layer sum over layers of many kinds),
    /// which the symbols then describe.
    pub substituted: Option<String>,
}

/// What a derivation reads.
pub struct Ctx<'a> {
    pub s: &'a Scenario,
    pub r: &'a MethodResult,
    pub n: &'a NumberStyle,
}

impl Ctx<'_> {
    /// A term's bytes in the result (0 where it has none).
    pub fn bytes(&self, term: Term) -> u64 {
        self.r.components.get(term).unwrap_or_default().get()
    }

    /// A whole number, grouped as the language writes it.
    pub fn int(&self, n: u64) -> String {
        format::integer(self.n, n)
    }

    /// A number with the decimals it needs (up to three).
    pub fn dec(&self, x: f64) -> String {
        format::plain(self.n, x)
    }

    /// Thousandths as a number (`16_000` → `"16"`, `4_127` → `"4,127"`).
    pub fn milli(&self, m: u64) -> String {
        self.dec(m as f64 / 1_000.0)
    }

    /// Hundredths of a percent as a percentage (`1_500` → `"15"`).
    pub fn centi(&self, c: u64) -> String {
        self.dec(c as f64 / 100.0)
    }

    /// The terms of the result among `terms` that are not zero, as a sum
    /// of their signs (`"W + KV"`) and of their bytes.
    pub fn sum_of(&self, terms: &[Term]) -> (String, String) {
        let present: Vec<Term> = terms
            .iter()
            .copied()
            .filter(|t| self.bytes(*t) > 0)
            .collect();
        let signs = present.iter().map(|t| term_sign(*t)).collect::<Vec<_>>();
        let values = present
            .iter()
            .map(|t| self.int(self.bytes(*t)))
            .collect::<Vec<_>>();
        (signs.join(" + "), values.join(" + "))
    }
}

/// A derivation with its formula, symbols and numbers.
pub(super) fn derived(
    term: Term,
    formula: impl Into<String>,
    symbols: Vec<(Symbol, String)>,
    substituted: impl Into<String>,
) -> Option<Derivation> {
    Some(Derivation {
        term,
        formula: formula.into(),
        symbols,
        substituted: Some(substituted.into()),
    })
}

/// What an engine method's terms are derived from: the engine's own run
/// behind the result (`vramfit_core::methods::vllm::run`, `llamacpp::run`),
/// computed once for all of its terms.
enum EngineRun {
    Vllm(Box<VllmRun>),
    Llamacpp(Box<LlamacppRun>),
    /// Not an engine method, or the engine did not take the scenario.
    None,
}

impl EngineRun {
    fn of(method: MethodId, ctx: &Ctx) -> EngineRun {
        let run = match method {
            MethodId::Vllm => vllm_run(ctx.s).map(|run| EngineRun::Vllm(Box::new(run))),
            MethodId::Llamacpp => llamacpp_run(ctx.s).map(|run| EngineRun::Llamacpp(Box::new(run))),
            MethodId::Quick
            | MethodId::Lesson
            | MethodId::Range
            | MethodId::Planner
            | MethodId::Allocator => return EngineRun::None,
        };
        run.unwrap_or(EngineRun::None)
    }
}

/// `term` of `method` for the scenario, or `None` where the method does
/// not report the term.
pub fn derive_term(method: MethodId, term: Term, ctx: &Ctx) -> Option<Derivation> {
    derive_with(method, term, ctx, &EngineRun::of(method, ctx))
}

fn derive_with(method: MethodId, term: Term, ctx: &Ctx, run: &EngineRun) -> Option<Derivation> {
    match (method, run) {
        (MethodId::Quick, _) => quick::derive(term, ctx),
        (MethodId::Lesson, _) => lesson::derive(term, ctx),
        (MethodId::Range, _) => range::derive(term, ctx),
        (MethodId::Planner, _) => planner::derive(term, ctx),
        (MethodId::Allocator, _) => allocator::derive(term, ctx),
        (MethodId::Vllm, EngineRun::Vllm(run)) => vllm::derive(term, ctx, run),
        (MethodId::Llamacpp, EngineRun::Llamacpp(run)) => llamacpp::derive(term, ctx, run),
        (MethodId::Vllm | MethodId::Llamacpp, _) => None,
    }
}

/// The terms that apply to this scenario (those with bytes, and a term the
/// method keeps outside its total), each derived.
pub fn derive_all(ctx: &Ctx) -> Vec<Derivation> {
    let run = EngineRun::of(ctx.r.method, ctx);
    ctx.r
        .components
        .0
        .iter()
        .filter(|c| c.bytes.get() > 0 || ctx.r.outside_total.contains(&c.term))
        .filter_map(|c| derive_with(ctx.r.method, c.term, ctx, &run))
        .collect()
}

/// The method's total in term signs (`"W + KV + O"`), over the terms that
/// apply; the allocator's overhead outside it.
pub fn total_formula(ctx: &Ctx) -> String {
    let inside: Vec<&str> = ctx
        .r
        .components
        .0
        .iter()
        .filter(|c| c.bytes.get() > 0 && !ctx.r.outside_total.contains(&c.term))
        .map(|c| term_sign(c.term))
        .collect();
    match ctx.r.method {
        // The passes share the peak: the larger of the forward/backward
        // tensors and the optimizer step's temporary counts.
        MethodId::Allocator => allocator::total_formula(ctx),
        _ => inside.join(" + "),
    }
}
