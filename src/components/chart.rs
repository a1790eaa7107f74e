//! Memory against context length for the selected method, with the usable
//! memory as a line: where the curve crosses it is the longest context
//! that fits. The points come from [`crate::curve::context_curve`].

use crate::curve::{short_tokens, ContextCurve, Geometry};
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::units::{Bytes, DisplayUnit};

/// View box of the chart.
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 240.0;

/// The chart, its sentence and its data as a table.
#[component]
pub fn ContextChart(
    /// The curve of the current scenario (`None` before the first result).
    #[prop(into)]
    curve: Signal<Option<ContextCurve>>,
    /// Unit of the memory axis.
    #[prop(into)]
    unit: Signal<DisplayUnit>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let sentence = move || {
        curve.with(|c| {
            let c = c.as_ref()?;
            let t = t();
            Some(match c.max_context {
                None => t.chart_fits_nowhere.to_string(),
                Some(m) if m >= c.hi => t.chart_fits_everywhere.to_string(),
                Some(m) => (t.chart_crossing)(&format::integer(&t.number, m)),
            })
        })
    };
    let drawing = move || {
        curve.get().map(|c| {
            let g = Geometry::new(&c, WIDTH, HEIGHT);
            let t = t();
            let u = unit.get();
            let usable_y = g.y(c.usable_bytes);
            let y_ticks = g.y_ticks(u.bytes());
            let x_ticks = g.x_ticks(&c, 6);
            let current_point = c.points.iter().find(|p| p.context == c.current).copied();
            let crossing = c.max_context.filter(|m| *m < c.hi && *m >= c.lo);
            view! {
                <clipPath id="vf-chart-clip">
                    <rect x=g.left y=g.top width=g.right - g.left height=g.bottom - g.top />
                </clipPath>
                <g class="vf-chart__grid">
                    {y_ticks.into_iter().map(|b| view! {
                        <line x1=g.left x2=g.right y1=g.y(b) y2=g.y(b) />
                        <text class="vf-chart__label" x=g.left - 6.0 y=g.y(b) + 4.0 text-anchor="end">
                            {format::decimal(&t.number, Bytes(b).in_unit(u), if Bytes(b).in_unit(u).fract() == 0.0 { 0 } else { 1 })}
                        </text>
                    }).collect_view()}
                    {x_ticks.into_iter().map(|x| view! {
                        <line x1=g.x(x) x2=g.x(x) y1=g.top y2=g.bottom />
                        <text class="vf-chart__label" x=g.x(x) y=g.bottom + 16.0 text-anchor="middle">{short_tokens(x)}</text>
                    }).collect_view()}
                    <text class="vf-chart__label" x=g.left - 6.0 y=g.top - 2.0 text-anchor="end">{u.label()}</text>
                </g>
                <line
                    class="vf-chart__usable"
                    data-testid="chart-usable"
                    x1=g.left x2=g.right y1=usable_y y2=usable_y
                />
                <text class="vf-chart__usable-label" x=g.left + 6.0 y=usable_y - 6.0 text-anchor="start">
                    {(t.chart_usable)(&format::bytes(&t.number, u, Bytes(c.usable_bytes)))}
                </text>
                <path class="vf-chart__curve" data-testid="chart-curve" clip-path="url(#vf-chart-clip)" d=g.path(&c) />
                {crossing.map(|m| view! {
                    <line
                        class="vf-chart__crossing"
                        data-testid="chart-crossing"
                        data-context=m
                        x1=g.x(m) x2=g.x(m) y1=g.top y2=g.bottom
                    />
                })}
                {current_point.map(|p| view! {
                    <circle
                        class="vf-chart__current"
                        data-testid="chart-current"
                        clip-path="url(#vf-chart-clip)"
                        cx=g.x(p.context) cy=g.y(p.needed_bytes) r="4.5"
                    />
                    <text class="vf-chart__label" x=g.x(p.context) + 7.0 y=g.bottom - 6.0>{t.chart_current}</text>
                })}
            }
        })
    };
    let rows = move || {
        curve.get().map(|c| {
            let t = t();
            let u = unit.get();
            c.points
                .into_iter()
                .map(|p| {
                    let fits = p.needed_bytes <= c.usable_bytes;
                    view! {
                        <tr data-context=p.context data-bytes=p.needed_bytes data-fits=fits.to_string()>
                            <td class="vf-num">{format::integer(&t.number, p.context)}</td>
                            <td class="vf-num">{format::bytes(&t.number, u, Bytes(p.needed_bytes))}</td>
                            <td aria-hidden="true">{if fits { "✓" } else { "✕" }}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <figure
            class="vf-chart"
            data-testid="context-chart"
            data-max-context=move || curve.with(|c| c.as_ref().and_then(|c| c.max_context).map(|m| m.to_string()).unwrap_or_default())
            data-usable-bytes=move || curve.with(|c| c.as_ref().map(|c| c.usable_bytes.to_string()).unwrap_or_default())
            data-y-max=move || curve.with(|c| c.as_ref().map(|c| Geometry::new(c, WIDTH, HEIGHT).y_max.to_string()).unwrap_or_default())
            data-highest=move || curve.with(|c| c.as_ref().and_then(|c| c.points.iter().map(|p| p.needed_bytes).max()).map(|b| b.to_string()).unwrap_or_default())
            data-hi=move || curve.with(|c| c.as_ref().map(|c| c.hi.to_string()).unwrap_or_default())
        >
            <h3 class="vf-subhead" id="vf-chart-title">{move || t().chart_title}</h3>
            <svg
                class="vf-chart__svg"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-labelledby="vf-chart-title vf-chart-sentence"
            >
                {drawing}
            </svg>
            <figcaption id="vf-chart-sentence" class="vf-chart__sentence" data-testid="chart-sentence">{sentence}</figcaption>
            {move || curve.with(|c| c.as_ref().and_then(|c| c.model_max)).map(|m| view! {
                <p class="vf-note" data-testid="chart-model-max" data-context=m>
                    {move || (t().chart_model_max)(&format::integer(&t().number, m))}
                </p>
            })}
            <details class="vf-chart__data">
                <summary>{move || t().chart_data}</summary>
                <table class="vf-table">
                    <thead>
                        <tr>
                            <th scope="col" class="vf-num">{move || t().chart_col_context}</th>
                            <th scope="col" class="vf-num">{move || t().chart_col_memory}</th>
                            <th scope="col"><span class="vf-visually-hidden">"✓"</span></th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </details>
        </figure>
    }
}
