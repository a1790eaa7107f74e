//! The engine plan's speed as text: "decode 128 tok/s (110–140), prefill
//! …, first token … s; limited by …".

use vramfit_core::methods::speed::{Band, Limit, SpeedAssumption, SpeedEstimate};

fn rate(b: &Band) -> String {
    let f = |x: f64| match x {
        x if x >= 100.0 => format!("{x:.0}"),
        x if x >= 10.0 => format!("{x:.1}"),
        x => format!("{x:.2}"),
    };
    format!("{} tok/s ({}–{})", f(b.point), f(b.low), f(b.high))
}

fn seconds(b: &Band) -> String {
    let f = |x: f64| match x {
        x if x >= 10.0 => format!("{x:.1}"),
        x if x >= 0.1 => format!("{x:.2}"),
        x => format!("{x:.3}"),
    };
    format!("{} s ({}–{})", f(b.point), f(b.low), f(b.high))
}

const fn limit(l: Limit) -> &'static str {
    match l {
        Limit::Bandwidth => "memory bandwidth",
        Limit::Compute => "compute",
        Limit::HostMemory => "host memory",
        Limit::Overhead => "per-step overhead",
    }
}

/// The speed lines of an engine plan.
pub fn render(s: &SpeedEstimate) -> String {
    let mut line = format!("\nengine speed ({}, {}", s.backend.id(), s.family.id());
    line += &format!(
        ", {}-token prompt): decode {}",
        s.prompt_tokens,
        rate(&s.decode_tokens_per_s)
    );
    if let Some(p) = &s.prefill_tokens_per_s {
        line += &format!(", prefill {}", rate(p));
    }
    if let Some(t) = &s.time_to_first_token_s {
        line += &format!(", first token {}", seconds(t));
    }
    line += &format!("; limited by {}\n", limit(s.decode_limited_by));
    let mut out = line;
    if let (Some(c), Some(o)) = (s.concurrency.filter(|c| *c > 1), &s.output_tokens_per_s) {
        out += &format!("  at {c} sequences: {} in all", rate(o));
        if let Some(d) = &s.decode_at_concurrency_tokens_per_s {
            out += &format!(", {} each", rate(d));
        }
        out.push('\n');
    }
    out += &format!(
        "  at the end of the context: decode {}\n",
        rate(&s.decode_at_context_tokens_per_s)
    );
    if s.host_layers > 0 {
        out += &format!(
            "  slower because {} layer{} run from host memory\n",
            s.host_layers,
            if s.host_layers == 1 { "" } else { "s" }
        );
    }
    if s.prefill_tokens_per_s.is_none() {
        out += "  no prefill figure: the GPU's tensor throughput is not in the catalog\n";
    }
    for a in &s.assumptions {
        out += &match a {
            SpeedAssumption::RatesBorrowed {
                from_backend,
                from_family,
            } => format!(
                "  note: no calibration rows for this backend and weight type: {} {} rates used\n",
                from_backend.id(),
                from_family.id()
            ),
            SpeedAssumption::HostBandwidthDefault { gb_s_tenths } => format!(
                "  note: host memory bandwidth not given: {:.1} GB/s assumed (dual-channel DDR5-4800; --host-bandwidth-gbs)\n",
                *gb_s_tenths as f64 / 10.0
            ),
            SpeedAssumption::NoGpuFigures => "  note: no GPU figures\n".to_string(),
        };
    }
    out
}
