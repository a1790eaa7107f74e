//! Speed: the decode and prefill ranges where the selected method gives
//! them (the planner's roofline), else why there is no figure.

use crate::figures::SpeedView;
use crate::i18n::{format, method_name, use_lang};
use leptos::prelude::*;
use vramfit_core::methods::planner::SpeedRange;

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
        })
    };
    view! {
        <section class="vf-speed" data-testid="speed-panel" aria-labelledby="vf-speed-title">
            <h3 id="vf-speed-title" class="vf-subhead">{move || t().speed_title}</h3>
            {body}
        </section>
    }
}
