//! Decode speed against context for the engine plan (vLLM's, llama.cpp's):
//! the core's [`decode_curve`] at a few context lengths up to the context
//! set, drawn as a line with its band, the context set marked, and the
//! same points as a table.

use crate::curve::short_tokens;
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::methods::speed::curve::{decode_curve, DecodePoint};
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;

/// View box of the chart.
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 220.0;
/// Points of the curve (more at the prompt and the context set).
const SAMPLES: usize = 12;
/// The shortest context the axis starts at (or the context set, if less).
const FIRST: u64 = 128;

/// The curve of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedCurve {
    /// In increasing context; the last is the context set.
    pub points: Vec<DecodePoint>,
}

/// The engine plan's decode speed at [`SAMPLES`] contexts spread
/// geometrically from 128 tokens to the context set; `None` unless the
/// method is an engine's and gives at least two points.
pub fn speed_curve(input: &Request) -> Option<SpeedCurve> {
    if !matches!(input.method, MethodId::Vllm | MethodId::Llamacpp) {
        return None;
    }
    let s = input.scenario.validate().ok()?;
    let hi = s.context.max(1);
    let lo = FIRST.min(hi);
    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
    let mut contexts: Vec<u64> = (0..SAMPLES)
        .map(|i| {
            (a + (b - a) * i as f64 / (SAMPLES - 1) as f64)
                .exp()
                .round() as u64
        })
        .map(|c| c.clamp(lo, hi))
        .chain([hi])
        .collect();
    contexts.sort_unstable();
    contexts.dedup();
    let points = decode_curve(input.method, &s, &contexts)?;
    (points.len() >= 2).then_some(SpeedCurve { points })
}

/// Where the chart draws: a log axis of context, a linear one of speed
/// from 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedGeometry {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    /// Tokens per second at the top of the plot.
    pub y_max: f64,
    lo_ln: f64,
    hi_ln: f64,
}

impl SpeedGeometry {
    /// The frame for `curve`: the top a round figure above the band's
    /// highest end.
    pub fn new(curve: &SpeedCurve) -> SpeedGeometry {
        let highest = curve
            .points
            .iter()
            .map(|p| p.decode_tokens_per_s.high)
            .fold(0.0, f64::max);
        let (lo, hi) = ends(curve);
        SpeedGeometry {
            left: 48.0,
            right: WIDTH - 14.0,
            top: 12.0,
            bottom: HEIGHT - 40.0,
            y_max: nice_step(highest * 1.05 / 4.0) * 4.0,
            lo_ln: (lo.max(1) as f64).ln(),
            hi_ln: (hi.max(lo + 1) as f64).ln(),
        }
    }

    /// Horizontal position of a context.
    pub fn x(&self, context: u64) -> f64 {
        let t = ((context.max(1) as f64).ln() - self.lo_ln) / (self.hi_ln - self.lo_ln).max(1e-9);
        self.left + t.clamp(0.0, 1.0) * (self.right - self.left)
    }

    /// Vertical position of a speed.
    pub fn y(&self, tokens_per_s: f64) -> f64 {
        let t = tokens_per_s / self.y_max.max(1e-9);
        self.bottom - t.clamp(0.0, 1.0) * (self.bottom - self.top)
    }

    /// The point figures as a path.
    pub fn line(&self, curve: &SpeedCurve) -> String {
        path(
            curve
                .points
                .iter()
                .map(|p| (self.x(p.context), self.y(p.decode_tokens_per_s.point))),
        )
    }

    /// The band as a closed shape: the high ends, then the low ends back.
    pub fn band(&self, curve: &SpeedCurve) -> String {
        let high = curve
            .points
            .iter()
            .map(|p| (self.x(p.context), self.y(p.decode_tokens_per_s.high)));
        let low = curve
            .points
            .iter()
            .rev()
            .map(|p| (self.x(p.context), self.y(p.decode_tokens_per_s.low)));
        format!("{} Z", path(high.chain(low)))
    }

    /// Four speed ticks, at a round step.
    pub fn y_ticks(&self) -> Vec<f64> {
        let step = self.y_max / 4.0;
        (1..=4).map(|i| i as f64 * step).collect()
    }

    /// Context ticks: powers of two between the ends, at most five.
    pub fn x_ticks(&self, curve: &SpeedCurve) -> Vec<u64> {
        let (lo, hi) = ends(curve);
        let all: Vec<u64> = (0..=40u32)
            .map(|k| 1u64 << k)
            .filter(|t| (lo..=hi).contains(t))
            .collect();
        let stride = all.len().div_ceil(5).max(1);
        all.into_iter().rev().step_by(stride).rev().collect()
    }
}

fn ends(curve: &SpeedCurve) -> (u64, u64) {
    let lo = curve.points.first().map_or(1, |p| p.context);
    let hi = curve.points.last().map_or(2, |p| p.context);
    (lo, hi)
}

fn path(points: impl Iterator<Item = (f64, f64)>) -> String {
    points
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" }))
        .collect()
}

/// The smallest of 1, 2 or 5 × 10ⁿ at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

/// Decimals a speed is written with: none from 100 tokens/s up.
fn decimals(v: f64) -> usize {
    match v >= 100.0 {
        true => 0,
        false => 1,
    }
}

/// The chart, its sentence and its data as a table.
#[component]
pub fn SpeedChart(
    /// The engine plan's curve (`None`: nothing is shown).
    #[prop(into)]
    curve: Signal<Option<SpeedCurve>>,
) -> impl IntoView {
    let lang = use_lang();
    move || {
        let c = curve.get()?;
        let (t, e) = (lang.get().t(), lang.get().engine());
        let n = &t.number;
        let g = SpeedGeometry::new(&c);
        let first = *c.points.first()?;
        let last = *c.points.last()?;
        let speed = |v: f64| format::decimal(n, v, decimals(v));
        let sentence = (e.speed_chart_sentence)(
            &speed(first.decode_tokens_per_s.point),
            &format::integer(n, first.context),
            &speed(last.decode_tokens_per_s.point),
            &format::integer(n, last.context),
        );
        let y_ticks = g.y_ticks().into_iter().map(|v| view! {
            <line x1=g.left x2=g.right y1=g.y(v) y2=g.y(v) />
            <text class="vf-chart__label" x=g.left - 6.0 y=g.y(v) + 4.0 text-anchor="end">{speed(v)}</text>
        }).collect_view();
        let x_ticks = g.x_ticks(&c).into_iter().map(|x| view! {
            <line x1=g.x(x) x2=g.x(x) y1=g.top y2=g.bottom />
            <text class="vf-chart__label" x=g.x(x) y=g.bottom + 16.0 text-anchor="middle">{short_tokens(x)}</text>
        }).collect_view();
        let rows = c
            .points
            .iter()
            .map(|p| {
                let b = p.decode_tokens_per_s;
                view! {
                    <tr data-context=p.context data-tokens-per-s=format!("{:.3}", b.point)>
                        <td class="vf-num">{format::integer(n, p.context)}</td>
                        <td class="vf-num">{speed(b.point)}</td>
                        <td class="vf-num">{format!("{}–{}", speed(b.low), speed(b.high))}</td>
                    </tr>
                }
            })
            .collect_view();
        let (cx, cy) = (g.x(last.context), g.y(last.decode_tokens_per_s.point));
        Some(view! {
            <figure class="vf-chart vf-speed-chart" data-testid="speed-chart" data-points=c.points.len()>
                <h3 class="vf-subhead" id="vf-speed-chart-title">{e.speed_chart_title}</h3>
                <svg
                    class="vf-chart__svg"
                    viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                    role="img"
                    aria-labelledby="vf-speed-chart-title vf-speed-chart-sentence"
                >
                    <g class="vf-chart__grid">
                        {y_ticks}
                        {x_ticks}
                        <text class="vf-chart__label" x=g.left + 4.0 y=g.top - 2.0 text-anchor="start">{t.tokens_per_second}</text>
                        <text class="vf-chart__label" x=(g.left + g.right) / 2.0 y=HEIGHT - 4.0 text-anchor="middle">{t.chart_col_context}</text>
                    </g>
                    <path class="vf-speed-chart__band" d=g.band(&c) />
                    <path class="vf-chart__curve" data-testid="speed-chart-line" d=g.line(&c) />
                    <circle class="vf-chart__current" data-testid="speed-chart-current" data-context=last.context cx=cx cy=cy r="4.5" />
                    <text class="vf-chart__label" x=cx - 7.0 y=cy - 9.0 text-anchor="end">{t.chart_current}</text>
                </svg>
                <figcaption id="vf-speed-chart-sentence" class="vf-chart__sentence" data-testid="speed-chart-sentence">{sentence}</figcaption>
                <details class="vf-chart__data">
                    <summary>{t.chart_data}</summary>
                    <div class="vf-table-scroll">
                        <table class="vf-table" data-testid="speed-chart-table">
                            <thead>
                                <tr>
                                    <th scope="col" class="vf-num">{t.chart_col_context}</th>
                                    <th scope="col" class="vf-num">{e.decode} " (" {t.tokens_per_second} ")"</th>
                                    <th scope="col" class="vf-num">{e.speed_chart_band}</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                </details>
            </figure>
        })
    }
}
