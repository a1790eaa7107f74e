//! The counterexample: a prepared case where one of the method's
//! assumptions breaks, run both ways and shown side by side; then the
//! student's own counterexample and why the conclusion no longer follows,
//! recorded in the notebook. Recording both (a few words each, not one
//! character) is what marks "Understand" done.

use super::{cases, masked, Blind, Ticks};
use crate::i18n::{format, Lang};
use crate::notebook::panel::observe;
use crate::notebook::store::ContractStep;
use crate::notebook::texts::Step;
use crate::notebook::{Draft, Notebook};
use leptos::prelude::*;
use vramfit_core::methods::compare::compare;
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::{MethodId, MethodResult};
use vramfit_core::request::Request;
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};

/// Words that say something (at least one letter or digit each).
fn words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Enough to be an answer: a case and a reason of four words or more each.
pub(super) fn is_answer(case: &str, reason: &str) -> bool {
    words(case) >= 4 && words(reason) >= 4
}

/// The two columns' figures read out: the rows that differ, the row at
/// stake and, where the total moves against that row, the rows that make
/// it move ([`compare`]). Written from the results, so the words cannot
/// drift from the table they describe.
fn reading(
    l: Lang,
    a: &MethodResult,
    b: &MethodResult,
    terms: &[Term],
    stake: Option<Term>,
    show: &dyn Fn(Bytes) -> String,
) -> String {
    let c = compare(a, b, terms, stake);
    let list = |ts: &[Term]| {
        ts.iter()
            .map(|t| (l.t().term)(*t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let get = |r: &MethodResult, t: Term| r.components.get(t).unwrap_or_default();
    let texts = l.lesson();
    let mut out = Vec::new();
    if !c.differ.is_empty() {
        out.push((texts.counter_differ)(&list(&c.differ)));
    }
    if let Some(s) = stake {
        out.push((texts.counter_stake)(
            (l.t().term)(s),
            &show(get(a, s)),
            &show(get(b, s)),
        ));
    }
    if let Some(others) = &c.against {
        out.push((texts.counter_against)(&list(others)));
    }
    out.join(" ")
}

/// The prepared case, side by side, and the student's own.
#[component]
pub(super) fn Counter(
    input: RwSignal<Request>,
    lang: Memo<Lang>,
    method: Memo<MethodId>,
    draft: RwSignal<Draft>,
    ticks: Ticks,
    notebook: Option<Notebook>,
    blind: Blind,
) -> impl IntoView {
    let t = move || lang.get().lesson();
    let lesson = move || (t().method)(method.get());
    let run = RwSignal::new(None::<MethodId>);
    let recorded = RwSignal::new(false);
    let too_short = RwSignal::new(false);
    let table = move || {
        let m = method.get();
        if run.get() != Some(m) {
            return None;
        }
        let l = lang.get();
        let case = cases::counterexample(m);
        let a = case.assumed.run().ok();
        // Against a log, the second column is what the engine printed.
        let b = match &case.logged {
            Some(log) => Some(MethodResult::new(m, &log.terms, Bytes(0), Bytes(0))),
            None => case.broken.run().ok(),
        };
        // While a prediction is pending, figures of the scenario (which may
        // be one of these) stay hidden.
        let shown = !blind.pending.get();
        let mut terms: Vec<Term> = Vec::new();
        for r in [&a, &b].into_iter().flatten() {
            for term in r.components.terms() {
                if !terms.contains(&term) && r.components.get(term).unwrap_or_default().get() > 0 {
                    terms.push(term);
                }
            }
        }
        if let Some(log) = &case.logged {
            terms.retain(|t| log.terms.iter().any(|(logged, _)| logged == t));
        }
        let n = &l.t().number;
        // One unit for both columns: the assumed method's (vLLM and
        // llama.cpp print GiB; so does the source of `lesson`).
        let case_unit = match case.assumed.method {
            MethodId::Lesson | MethodId::Vllm | MethodId::Llamacpp => DisplayUnit::Gib,
            MethodId::Quick | MethodId::Range | MethodId::Planner | MethodId::Allocator => {
                DisplayUnit::Gb
            }
        };
        let unit = move |_: &MethodResult| case_unit;
        let cell = move |r: &Option<MethodResult>, f: &dyn Fn(&MethodResult) -> String| {
            masked(shown, || {
                r.as_ref()
                    .map_or_else(|| l.lesson().not_estimated.to_string(), f)
            })
        };
        // The figures read out in words, from the same results.
        let read_out = match (&a, &b, &case.logged) {
            (Some(x), Some(y), None) => masked(shown, || {
                reading(l, x, y, &terms, case.at_stake, &|v| {
                    format::bytes(n, case_unit, v)
                })
            }),
            _ => String::new(),
        };
        let rows = terms
            .into_iter()
            .map(|term| {
                let value = |r: &MethodResult| {
                    format::bytes(n, unit(r), r.components.get(term).unwrap_or_default())
                };
                view! {
                    <tr data-testid=format!("lesson-counter-{}", term.id()) class:vf-lesson__at-stake=case.at_stake == Some(term)>
                        <th scope="row">{(l.t().term)(term)}</th>
                        <td class="vf-num">{cell(&a, &value)}</td>
                        <td class="vf-num">{cell(&b, &value)}</td>
                    </tr>
                }
            })
            .collect_view();
        let total = move |r: &MethodResult| format::bytes(n, unit(r), r.total_bytes);
        let usable = move |r: &MethodResult| format::bytes(n, unit(r), r.verdict.usable_bytes);
        let verdict = |r: &MethodResult| {
            format!(
                "{} ({})",
                (l.t().status_word)(r.verdict.status),
                format::percent(n, r.verdict.percent())
            )
        };
        let broken_head = match &case.logged {
            Some(_) => l.lesson().counter_logged.to_string(),
            None => format!(
                "{} ({})",
                l.lesson().counter_broken,
                case.broken.method.id()
            ),
        };
        let tail = match case.logged.clone() {
            Some(log) => {
                let pool = a.as_ref().and_then(|r| match &r.engine {
                    Some(EngineReport::Vllm(v)) => Some((v.kv_cache_bytes, v.kv_cache_tokens)),
                    _ => None,
                });
                let gib = move |b: u64| format::bytes(n, DisplayUnit::Gib, Bytes(b));
                let missing = l.lesson().not_estimated.to_string();
                let predicted = move |f: fn((u64, u64)) -> u64, show: &dyn Fn(u64) -> String| {
                    masked(shown, || pool.map_or(missing.clone(), |p| show(f(p))))
                };
                let tokens = move |t: u64| format::integer(n, t);
                view! {
                    <tr class="vf-lesson__at-stake" data-testid="lesson-counter-kv-pool">
                        <th scope="row">{l.engine().kv_pool}</th>
                        <td class="vf-num">{predicted(|p| p.0, &gib)}</td>
                        <td class="vf-num">{masked(shown, || gib(log.kv_cache.get()))}</td>
                    </tr>
                    <tr data-testid="lesson-counter-kv-tokens">
                        <th scope="row">{l.engine().kv_tokens}</th>
                        <td class="vf-num">{predicted(|p| p.1, &tokens)}</td>
                        <td class="vf-num">{masked(shown, || tokens(log.kv_cache_tokens))}</td>
                    </tr>
                }
                .into_any()
            }
            None => view! {
                        <tr class="vf-lesson__baseline" data-testid="lesson-counter-total">
                            <th scope="row">{l.lesson().total}</th>
                            <td class="vf-num">{cell(&a, &total)}</td>
                            <td class="vf-num">{cell(&b, &total)}</td>
                        </tr>
                        <tr data-testid="lesson-counter-usable">
                            <th scope="row">{l.lesson().counter_usable}</th>
                            <td class="vf-num">{cell(&a, &usable)}</td>
                            <td class="vf-num">{cell(&b, &usable)}</td>
                        </tr>
                        <tr class:vf-lesson__at-stake=case.at_stake.is_none() data-testid="lesson-counter-verdict">
                            <th scope="row">{l.lesson().verdict}</th>
                            <td class="vf-num">{cell(&a, &verdict)}</td>
                            <td class="vf-num">{cell(&b, &verdict)}</td>
                        </tr>
            }
            .into_any(),
        };
        Some(view! {
            <div class="vf-lesson__scroll">
                <table class="vf-lesson__table" data-testid="lesson-counter-table">
                    <thead>
                        <tr>
                            <th scope="col"></th>
                            <th scope="col" class="vf-num">{l.lesson().counter_as_assumed} " (" {case.assumed.method.id()} ")"</th>
                            <th scope="col" class="vf-num">{broken_head}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {rows}
                        {tail}
                    </tbody>
                </table>
            </div>
            <p data-testid="lesson-counter-reading">{read_out}</p>
            <p data-testid="lesson-counter-lesson">{(l.lesson().method)(m).counterexample_lesson}</p>
            <div class="vf-lesson__predict-row">
                <button
                    type="button"
                    class="vf-nb-button"
                    data-testid="lesson-counter-load"
                    on:click=move |_| {
                        input.set(cases::counterexample(m).broken);
                        blind.start();
                    }
                >
                    {l.lesson().counter_load}
                </button>
            </div>
        })
    };
    let area = move |key: &'static str, get: fn(&Draft) -> String, set: fn(&mut Draft, String)| {
        view! {
            <textarea
                id=format!("vf-lesson-{key}")
                class="vf-config"
                rows="2"
                data-testid=format!("lesson-{key}")
                prop:value=move || draft.with(get)
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    recorded.set(false);
                    too_short.set(false);
                    draft.update(|d| set(d, text));
                }
            ></textarea>
        }
    };
    let record = move |_| {
        let (case, reason) = draft.with_untracked(|d| (d.counterexample.clone(), d.reason.clone()));
        if !is_answer(&case, &reason) {
            too_short.set(true);
            return;
        }
        if let Some(notebook) = notebook {
            let scenario = input.get_untracked();
            let observed = observe(&scenario);
            let prediction = draft.with_untracked(|d| d.prediction);
            // The entry is the counterexample's, not a prediction's.
            draft.update(|d| {
                d.step = Step::Understand.id().to_string();
                d.prediction = None;
            });
            notebook.add(scenario, observed);
            draft.update(|d| {
                d.step.clear();
                d.prediction = prediction;
            });
        } else {
            draft.update(|d| {
                d.counterexample.clear();
                d.reason.clear();
            });
        }
        ticks.mark(method.get_untracked(), ContractStep::Understand);
        recorded.set(true);
    };
    view! {
        <div class="vf-lesson__card" data-testid="lesson-counter">
            <h3 class="vf-lesson__heading">{move || t().counter_title}</h3>
            <p>{move || t().counter_intro}</p>
            <p data-testid="lesson-counter-case"><em>{move || lesson().counterexample}</em></p>
            <button
                type="button"
                class="vf-nb-button vf-nb-button--primary"
                data-testid="lesson-counter-run"
                on:click=move |_| run.set(Some(method.get_untracked()))
            >
                {move || t().counter_run}
            </button>
            {table}
            <label class="vf-field__label" for="vf-lesson-counterexample">{move || t().counterexample_label}</label>
            <p class="vf-field__hint">{move || t().counterexample_hint}</p>
            {area("counterexample", |d| d.counterexample.clone(), |d, v| d.counterexample = v)}
            <label class="vf-field__label" for="vf-lesson-reason">{move || t().reason_label}</label>
            <p class="vf-field__hint">{move || t().reason_hint}</p>
            {area("reason", |d| d.reason.clone(), |d, v| d.reason = v)}
            <div class="vf-lesson__predict-row">
                <button type="button" class="vf-nb-button vf-nb-button--primary" data-testid="lesson-counter-record" on:click=record>
                    {move || t().counter_record}
                </button>
                <span role="status" data-testid="lesson-counter-recorded">
                    {move || if recorded.get() { t().counter_recorded } else { "" }}
                </span>
            </div>
            <Show when=move || too_short.get()>
                <p class="vf-error" role="alert" data-testid="lesson-counter-too-short">{move || t().counter_too_short}</p>
            </Show>
        </div>
    }
}
