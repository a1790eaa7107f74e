//! Memory against context length for the selected method: the core rerun
//! at about two dozen context lengths, and where that curve meets the
//! usable memory. Pure functions, no view code: the chart only draws what
//! [`context_curve`] and [`Geometry`] return.

use vramfit_core::methods;
use vramfit_core::request::Request;

/// Geometric samples between the ends of the axis (more are added at the
/// current context and at the crossing).
pub const SAMPLES: usize = 24;

/// The largest context the scenario accepts (the `context` field's range).
const MAX_CONTEXT: u64 = 100_000_000;

/// One point of the curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurvePoint {
    /// Context tokens per sequence.
    pub context: u64,
    /// What the method compares with usable memory at that context
    /// (the verdict's `needed_bytes`), in bytes.
    pub needed_bytes: u64,
}

/// The curve of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextCurve {
    /// Points in increasing context, from `lo` to `hi`.
    pub points: Vec<CurvePoint>,
    /// Usable memory (the horizontal line), in bytes.
    pub usable_bytes: u64,
    /// The scenario's own context.
    pub current: u64,
    /// The longest context that fits (the report's `answers.max_context`).
    pub max_context: Option<u64>,
    /// Ends of the context axis.
    pub lo: u64,
    pub hi: u64,
    /// The model's own maximum context (`max_position_embeddings`), where
    /// it stops the axis.
    pub model_max: Option<u64>,
}

/// Reruns the selected method of `input` at [`SAMPLES`] context lengths
/// spread geometrically around the current context and the crossing
/// (`max_context`, from the report), plus those two exactly and the first
/// context that no longer fits; never past the model's own maximum
/// context (`max_position_embeddings`), which ends the axis where it is
/// reached. `None` when the input is not valid or the method does not
/// estimate it.
pub fn context_curve(input: &Request, max_context: Option<u64>) -> Option<ContextCurve> {
    let scenario = input.scenario.validate().ok()?;
    let run = |context: u64| {
        let mut s = scenario.clone();
        s.context = context;
        methods::run(input.method, &s).ok().map(|r| r.verdict)
    };
    let usable_bytes = run(scenario.context)?.usable_bytes.get();
    let model_max = scenario.model.as_deref().and_then(|m| m.max_context);
    let (lo, wide) = axis(scenario.context, max_context);
    // The axis ends at the model's maximum, unless the scenario itself
    // asks for more (then it shows that much, and the chart says so).
    let hi = match model_max {
        Some(m) if m >= lo.saturating_add(1) => wide.min(m.max(scenario.context)),
        _ => wide,
    };
    let model_max = model_max.filter(|m| *m <= hi);
    let mut contexts = geometric(lo, hi, SAMPLES);
    contexts.push(scenario.context);
    if let Some(m) = max_context {
        contexts.extend([m, m.saturating_add(1)]);
    }
    contexts.retain(|c| (lo..=hi).contains(c));
    contexts.sort_unstable();
    contexts.dedup();
    let points = contexts
        .into_iter()
        .filter_map(|context| {
            run(context).map(|v| CurvePoint {
                context,
                needed_bytes: v.needed_bytes.get(),
            })
        })
        .collect();
    Some(ContextCurve {
        points,
        usable_bytes,
        current: scenario.context,
        max_context,
        lo,
        hi,
        model_max,
    })
}

/// Ends of the axis: from a power of two well below the current context
/// (and the crossing) to one well above both, within the accepted range.
fn axis(current: u64, max_context: Option<u64>) -> (u64, u64) {
    let low_anchor = max_context.map_or(current, |m| m.min(current)).max(1);
    let lo = prev_power_of_two((low_anchor / 32).max(1));
    let high_anchor = max_context.map_or(current, |m| m.saturating_add(1).max(current));
    let hi = high_anchor
        .saturating_mul(4)
        .checked_next_power_of_two()
        .unwrap_or(MAX_CONTEXT)
        .clamp(lo.saturating_mul(16), MAX_CONTEXT);
    (lo, hi.max(lo + 1))
}

fn prev_power_of_two(n: u64) -> u64 {
    1u64 << (63 - n.max(1).leading_zeros())
}

/// `count` integers from `lo` to `hi` (both included), evenly spaced on a
/// logarithmic scale.
fn geometric(lo: u64, hi: u64, count: usize) -> Vec<u64> {
    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
    let steps = count.max(2) - 1;
    (0..=steps)
        .map(|i| (a + (b - a) * i as f64 / steps as f64).exp().round() as u64)
        .map(|c| c.clamp(lo, hi))
        .collect()
}

impl ContextCurve {
    /// The first point that does not fit, and the last one that does,
    /// around the crossing (for checks and the chart's marker).
    pub fn crossing(&self) -> Option<(CurvePoint, CurvePoint)> {
        self.points
            .windows(2)
            .find(|w| {
                w[0].needed_bytes <= self.usable_bytes && w[1].needed_bytes > self.usable_bytes
            })
            .map(|w| (w[0], w[1]))
    }
}

/// Where the chart draws: a plot area inside a view box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    /// Bytes at the top of the plot area.
    pub y_max: u64,
    lo_ln: f64,
    hi_ln: f64,
}

impl Geometry {
    /// The chart's frame for `curve` in a `width × height` view box. The
    /// vertical axis runs from 0 to a little above both the usable line
    /// and the highest point of the curve, so that both are always on the
    /// plot (1,555 GB against 24 GB usable included).
    pub fn new(curve: &ContextCurve, width: f64, height: f64) -> Geometry {
        let usable = curve.usable_bytes.max(1) as f64;
        let highest = curve
            .points
            .iter()
            .map(|p| p.needed_bytes)
            .max()
            .unwrap_or(0) as f64;
        let y_max = (usable * 1.25).max(highest * 1.08);
        Geometry {
            width,
            height,
            left: 52.0,
            right: width - 12.0,
            top: 12.0,
            bottom: height - 28.0,
            y_max: y_max.round() as u64,
            lo_ln: (curve.lo.max(1) as f64).ln(),
            hi_ln: (curve.hi.max(2) as f64).ln(),
        }
    }

    /// Horizontal position of a context (logarithmic axis).
    pub fn x(&self, context: u64) -> f64 {
        let t = ((context.max(1) as f64).ln() - self.lo_ln) / (self.hi_ln - self.lo_ln).max(1e-9);
        self.left + t.clamp(0.0, 1.0) * (self.right - self.left)
    }

    /// Vertical position of a byte count (linear axis, 0 at the bottom).
    pub fn y(&self, bytes: u64) -> f64 {
        let t = bytes as f64 / self.y_max.max(1) as f64;
        self.bottom - t.min(1.0) * (self.bottom - self.top)
    }

    /// The curve as an SVG path (`M x,y L x,y …`).
    pub fn path(&self, curve: &ContextCurve) -> String {
        curve
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { "M" } else { " L" },
                    self.x(p.context),
                    self.y(p.needed_bytes)
                )
            })
            .collect()
    }

    /// Context ticks: powers of two inside the axis, at most `max` of them
    /// (every other octave, or sparser, on a wide axis).
    pub fn x_ticks(&self, curve: &ContextCurve, max: usize) -> Vec<u64> {
        let all: Vec<u64> = (0..=40u32)
            .map(|k| 1u64 << k)
            .filter(|t| (curve.lo..=curve.hi).contains(t))
            .collect();
        let stride = all.len().div_ceil(max.max(1)).max(1);
        all.into_iter().rev().step_by(stride).rev().collect()
    }

    /// Byte ticks at 1, 2 or 5 × 10ⁿ display units, about four of them.
    pub fn y_ticks(&self, unit_bytes: u64) -> Vec<u64> {
        let top = self.y_max as f64 / unit_bytes.max(1) as f64;
        let raw = top / 4.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        (1..)
            .map(|i| i as f64 * step)
            .take_while(|v| *v <= top)
            .map(|v| (v * unit_bytes as f64).round() as u64)
            .collect()
    }
}

/// A context length as the chart's axis writes it: `512`, `8K`, `1M`
/// (K = 1,024 tokens, as context sizes are named).
pub fn short_tokens(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{}K", n >> 10)
    } else {
        n.to_string()
    }
}
