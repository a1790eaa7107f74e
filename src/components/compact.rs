//! The phone's sticky bar: a small ring, the percentage, the state and the
//! total stay in view while scrolling through the inputs. It repeats the
//! results column, so assistive technology skips it.

use crate::components::status_icon;
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::units::{Bytes, DisplayUnit};
use vramfit_core::verdict::Verdict;

/// Radius of the small ring (view box 0 0 40 40).
const RADIUS: f64 = 16.0;
/// [`RADIUS`] as the `r` attribute writes it (no float printing).
const R: &str = "16";

/// The compact result bar, shown on narrow screens only (by the style sheet).
#[component]
pub fn CompactBar(
    /// The verdict to show.
    #[prop(into)]
    verdict: Signal<Verdict>,
    /// The selected method's total, in bytes.
    #[prop(into)]
    total: Signal<Bytes>,
    /// Display unit.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let circumference = 2.0 * std::f64::consts::PI * RADIUS;
    let arc = move || {
        let share = verdict.with(|v| v.utilization.clamp(0.0, 1.0));
        format!(
            "{} {}",
            format::fixed(share * circumference, 2),
            format::fixed(circumference, 2)
        )
    };
    let status = move || verdict.with(|v| v.status);
    view! {
        <div class="vf-compact" data-testid="compact-bar" aria-hidden="true" data-status=move || status().id()>
            <svg class="vf-compact__ring" viewBox="0 0 40 40">
                <circle class="vf-ring__track" cx="20" cy="20" r=R />
                <circle class="vf-ring__arc" cx="20" cy="20" r=R stroke-dasharray=arc />
            </svg>
            <span class="vf-compact__percent">{move || format::percent(&t().number, verdict.with(Verdict::percent))}</span>
            <span class="vf-compact__status">
                {move || status_icon(status())} " " {move || (t().status_word)(status())}
            </span>
            <span class="vf-compact__total">{move || format::bytes(&t().number, unit.get(), total.get())}</span>
        </div>
    }
}
