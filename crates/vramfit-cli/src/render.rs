//! Readable text for the terminal. Figures in decimal GB, like seed 003's
//! CLI; the exact bytes are in `--json`.

use vramfit_core::catalog::gpus;
use vramfit_core::report::{ModelSummary, Report};
use vramfit_core::units::DisplayUnit;

const UNIT: DisplayUnit = DisplayUnit::Gb;

/// The breakdown: one line per component, the total, the verdict.
pub fn estimate(doc: &Report) -> String {
    let est = &doc.estimate;
    let mut out = format!("method: {}\n", est.method.id());
    for c in &est.components.0 {
        out += &format!("{:<18}{:>9}\n", c.name, UNIT.format(c.bytes));
    }
    out += &format!("{:<18}{:>9}\n\n", "total", UNIT.format(est.total_bytes));
    let v = &est.verdict;
    let usable = UNIT.format(v.usable_bytes);
    out += &if v.short_by_bytes > 0 {
        format!(
            "does not fit {usable}: {:.1} % (no_cabe), short by {}\n",
            v.percent(),
            UNIT.format(v.short_by_bytes)
        )
    } else {
        format!(
            "fits {usable}: {:.1} % ({}), {} to spare\n",
            v.percent(),
            v.status.id(),
            UNIT.format(v.headroom_bytes)
        )
    };
    out
}

/// What was understood of a model.
pub fn model(m: &ModelSummary) -> String {
    let billions = |n: u64| format!("{:.2} B", n as f64 / 1e9);
    let mut out = String::new();
    if let Some(spec) = &m.spec {
        let name = spec.name.as_deref().or(spec.model_type.as_deref());
        out += &format!("model             {}\n", name.unwrap_or("(unnamed)"));
    }
    out += &format!("parameters        {}", billions(m.params_total));
    if m.params_active != m.params_total {
        out += &format!(" total, {} active", billions(m.params_active));
    }
    out += &format!("\nlayers            {}\n", m.layers);
    for kind in &m.layers_by_kind {
        out += &format!("  {:>4} × {:?}\n", kind.layers, kind.kind);
    }
    out += &format!("kv heads × dim    {} × {}\n", m.kv_heads, m.head_dim);
    out += &format!(
        "KV per token      {} B (FP16/BF16 cache)\n",
        m.kv_bytes_per_token
    );
    out
}

/// The GPU catalog: a table, or the rows as JSON.
pub fn gpus(json: bool) -> String {
    let all = gpus::all();
    if json {
        let mut text = serde_json::to_string_pretty(all).unwrap_or_default();
        text.push('\n');
        return text;
    }
    let mut out = format!("{:<48}{:>8}{:>12}{:>12}\n", "name", "GB", "GB/s", "BF16 TF");
    for g in all {
        let tflops = g
            .bf16_dense_tflops
            .map_or("-".to_string(), |v| format!("{v}"));
        out += &format!(
            "{:<48}{:>8}{:>12}{:>12}\n",
            g.name, g.memory_gb, g.bandwidth_gb_s, tflops
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vramfit_core::report;
    use vramfit_core::scenario::ScenarioInput;

    #[test]
    fn estimate_says_fit_and_spare() {
        let doc = report::build(&ScenarioInput::default()).unwrap();
        let text = estimate(&doc);
        assert!(text.contains("weights            16.00 GB"), "{text}");
        assert!(text.contains("total              18.78 GB"), "{text}");
        assert!(text.contains("fits 24.00 GB: 78.3 % (con_margen), 5.22 GB to spare"));
    }
}
