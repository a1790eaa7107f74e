//! Speed: the decode and prefill ranges where the selected method gives
//! them (the planner's roofline), else why there is no figure.

use crate::figures::SpeedView;
use crate::i18n::{format, method_name, use_lang};
use leptos::prelude::*;
use vramfit_core::methods::planner::SpeedRange;
use vramfit_core::methods::speed::{Band, SpeedEstimate};

/// The speed panel.
#[component]
pub fn SpeedPanel(
    /// The selected method's speed (`None` before the first result).
    #[prop(into)]
    speed: Signal<Option<SpeedView>>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let range = move |r: SpeedRange, decimals: usize| {
        let style = t().number;
        let (a, b) = (
            r.conservative.min(r.favourable),
            r.conservative.max(r.favourable),
        );
        format!(
            "{}–{}",
            format::decimal(&style, a, decimals),
            format::decimal(&style, b, decimals)
        )
    };
    let body = move || {
        let t = t();
        speed.get().map(|view| match view {
            SpeedView::NotAMethodFigure(m) => view! {
                <p class="vf-note" data-testid="speed-none">{(t.speed_none)(method_name(m))}</p>
            }
            .into_any(),
            SpeedView::Unavailable(reason) => view! {
                <p class="vf-note" data-testid="speed-none">{(t.speed_unavailable)(&reason)}</p>
            }
            .into_any(),
            SpeedView::Figures {
                decode_tokens_per_s,
                prefill_seconds,
                prompt_tokens,
            } => view! {
                <dl class="vf-summary" data-testid="speed-figures">
                    <dt>{t.speed_decode}</dt>
                    <dd data-testid="speed-decode">{format!("{} {}", range(decode_tokens_per_s, 1), t.tokens_per_second)}</dd>
                    <dt>{(t.speed_prefill)(&format::integer(&t.number, prompt_tokens))}</dt>
                    <dd data-testid="speed-prefill">{format!("{} s", range(prefill_seconds, 2))}</dd>
                </dl>
                <p class="vf-note">{t.speed_note}</p>
            }
            .into_any(),
            SpeedView::Engine(speed) => {
                let e = lang.get().engine();
                view! {
                    <dl class="vf-summary" data-testid="speed-figures">
                        <dt>{e.decode_at_context}</dt>
                        <dd data-testid="speed-decode-at-context">{format!("{} {}", band(&t.number, speed.decode_at_context_tokens_per_s, 1), t.tokens_per_second)}</dd>
                    </dl>
                    <p class="vf-note">{t.speed_note}</p>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="vf-speed" data-testid="speed-panel" aria-labelledby="vf-speed-title">
            <h3 id="vf-speed-title" class="vf-subhead">{move || t().speed_title}</h3>
            {body}
        </section>
    }
}

/// A band as the page writes it: "low–high".
fn band(style: &format::NumberStyle, b: Band, decimals: usize) -> String {
    format!(
        "{}–{}",
        format::decimal(style, b.low, decimals),
        format::decimal(style, b.high, decimals)
    )
}

/// An engine plan's speed beside the ring (vLLM's and llama.cpp's):
/// decode as a band, vLLM's decode per request and output throughput at
/// the sequences at once, prefill, the first token, what limits decode,
/// and the layers that run from host memory.
#[component]
pub fn EngineSpeed(
    /// `estimate.engine.speed`; nothing is shown without it.
    #[prop(into)]
    speed: Signal<Option<SpeedEstimate>>,
) -> impl IntoView {
    let lang = use_lang();
    move || {
        let s = speed.get()?;
        let (t, e) = (lang.get().t(), lang.get().engine());
        let n = &t.number;
        let prefill = s.prefill_tokens_per_s.map(|p| {
            view! {
                <dt>{e.prefill}</dt>
                <dd data-testid="engine-speed-prefill">{format!("{} {}", format::decimal(n, p.point, 0), t.tokens_per_second)}</dd>
            }
        });
        let first = s.time_to_first_token_s.map(|f| {
            view! {
                <dt>{e.first_token}</dt>
                <dd data-testid="engine-speed-ttft">{format!("{} s", format::decimal(n, f.point, 2))}</dd>
            }
        });
        // vLLM at the scenario's sequences at once: each request's decode
        // beside one alone, and all of them together.
        let concurrency = s.concurrency.map(|b| {
            let each = s
                .decode_at_concurrency_tokens_per_s
                .filter(|_| b > 1)
                .map(|d| {
                    view! {
                        <dt>{(e.decode_each)(b)}</dt>
                        <dd data-testid="engine-speed-each">{format!("{} {}", format::decimal(n, d.point, 1), t.tokens_per_second)}</dd>
                    }
                });
            let all = s.output_tokens_per_s.map(|o| {
                view! {
                    <dt>{(e.output_all)(b)}</dt>
                    <dd data-testid="engine-speed-output">{format!("{} {}", format::decimal(n, o.point, 0), t.tokens_per_second)}</dd>
                }
            });
            (each, all)
        });
        let decode_label = match s.concurrency {
            Some(_) => e.decode_alone,
            None => e.decode,
        };
        let host = (s.host_layers > 0).then(|| {
            view! { <p class="vf-offload" data-testid="engine-speed-host">{(e.slower_host)(s.host_layers)}</p> }
        });
        Some(view! {
            <section class="vf-engine-speed" data-testid="engine-speed" aria-label=e.speed_label>
                <dl class="vf-summary">
                    <dt>{decode_label}</dt>
                    <dd data-testid="engine-speed-decode">{format!("{} {}", band(n, s.decode_tokens_per_s, 1), t.tokens_per_second)}</dd>
                    {concurrency}
                    {prefill}
                    {first}
                </dl>
                <p class="vf-note" data-testid="engine-speed-limit">{(e.limited_by)(s.decode_limited_by)}</p>
                {host}
            </section>
        })
    }
}
