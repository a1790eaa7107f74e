//! Readable text for the terminal. Figures in decimal GB, like seed 003's
//! CLI; the exact bytes are in `--json`.

use vramfit_core::advice::Change;
use vramfit_core::catalog::{gpus, list_models, ModelListing};
use vramfit_core::methods::engine::{EngineNote, EngineReport, LlamacppReport, VllmReport};
use vramfit_core::methods::vllm::Provenance;
use vramfit_core::model::{PublishedFormat, QuantSource};
use vramfit_core::report::{ModelFacts, Report, ShapeOrigin};
use vramfit_core::scenario::WeightFormat;
use vramfit_core::units::{Bytes, DisplayUnit};

pub(crate) const UNIT: DisplayUnit = DisplayUnit::Gb;

/// The breakdown like seed 003's CLI: the non-zero terms, the total, the
/// terms kept outside it, then the verdict and the single adjustments.
pub fn estimate(doc: &Report) -> String {
    let est = &doc.estimate;
    let line = |name: &str, bytes: Bytes| format!("{:<18}{:>9}\n", name, bytes.display(UNIT));
    let (outside, inside): (Vec<_>, Vec<_>) = est
        .components
        .0
        .iter()
        .filter(|c| c.bytes > Bytes::ZERO)
        .partition(|c| est.outside_total.contains(&c.term));
    let mut out = String::new();
    match (&doc.model.published, doc.model.source) {
        // A GGUF file has no checkpoint format: its tensors are its own.
        (_, ShapeOrigin::Gguf) => {
            out += "model: a GGUF file's header; llamacpp sizes its own tensors\n";
            if let Some(EngineReport::Llamacpp(l)) = &est.engine {
                if let Some(p) = &l.projector {
                    out += &projector(p);
                }
            }
        }
        (Some(p), _) => out += &published(p, doc),
        (None, _) => {}
    }
    let l = &doc.layout;
    if l.gpus > 1 {
        out += &format!(
            "layout: {} GPUs = TP {} x PP {} x {} cop{}{}\n",
            l.gpus,
            l.tp,
            l.pp,
            l.replicas,
            if l.replicas == 1 { "y" } else { "ies" },
            if l.derived {
                " (derived from the GPU count)"
            } else {
                ""
            }
        );
    }
    out += &format!("method: {}\n", est.method.id());
    for c in inside {
        out += &line(c.term.id(), c.bytes);
    }
    // Every method's figure is for one GPU; say so when there are several.
    if est.gpus > 1 {
        out += &line("total per GPU", est.total_bytes);
        out += &line(&format!("all {} GPUs", est.gpus), est.all_gpus_bytes());
    } else {
        out += &line("total", est.total_bytes);
    }
    for c in outside {
        out += &line(c.term.id(), c.bytes);
    }
    if let (Some(low), Some(high)) = (est.low_bytes, est.high_bytes) {
        out += &format!(
            "range             {} – {}\n",
            low.display(UNIT),
            high.display(UNIT)
        );
    }
    out.push('\n');
    out += &verdict(doc);
    if let Some(seed) = est.seed_verdict {
        out += &format!("seed verdict: {}\n", seed.id().replace('_', " "));
    }
    out += &speed(doc);
    match &est.engine {
        Some(EngineReport::Vllm(v)) => out += &vllm(v),
        Some(EngineReport::Llamacpp(l)) => out += &llamacpp(l, doc),
        None => {}
    }
    let engine_speed = match &est.engine {
        Some(EngineReport::Vllm(v)) => v.speed.as_ref(),
        Some(EngineReport::Llamacpp(l)) => l.speed.as_ref(),
        None => None,
    };
    if let Some(s) = engine_speed {
        out += &crate::speed_line::render(s);
    }
    out
}

/// GiB to two decimals, as the engines print them.
fn gib(bytes: u64) -> String {
    Bytes(bytes).display(DisplayUnit::Gib)
}

/// What vLLM would report at start-up, in its terms.
fn vllm(v: &VllmReport) -> String {
    let mut out = format!(
        "\nvLLM {} at start-up (per GPU, --gpu-memory-utilization {}):\n",
        v.vllm_version.text(),
        v.gpu_memory_utilization
    );
    let row = |name: &str, value: String| format!("  {name:<30}{value}\n");
    out += &row("weights", gib(v.weights_bytes));
    out += &row("activation peak", gib(v.activation_peak_bytes));
    out += &row("non-torch memory", gib(v.non_torch_bytes));
    out += &row("KV cache", gib(v.kv_cache_bytes));
    out += &row("KV cache tokens", v.kv_cache_tokens.to_string());
    out += &row("max concurrency", format!("{:.2}x", v.max_concurrency));
    out += &row(
        "longest context that starts",
        v.max_model_len_fits.to_string(),
    );
    if v.graph_reserve_bytes > 0 {
        out += &row("CUDA graphs (set aside)", gib(v.graph_reserve_bytes));
    }
    out += &row("CUDA graphs (after KV)", gib(v.cuda_graph_bytes));
    out += &row("GPU total", gib(v.gpu_total_bytes));
    match &v.start_error {
        None => out += &format!("  command: {}\n", v.command),
        // No line to copy for a start that fails.
        Some(e) => out += &format!("  command: none: vLLM would not start: {}\n", e.message),
    }
    let provenance = match v.runtime.terms.provenance {
        Provenance::Measured => "measured",
        Provenance::Assumed => "assumed",
        Provenance::Calibrated => "calibrated on your log",
    };
    out += &format!("  runtime terms: {provenance} ({})\n", v.runtime.source);
    for note in &v.notes {
        out += &format!("  note: {note}\n");
    }
    out
}

/// Where llama.cpp puts each byte, in its terms.
fn llamacpp(l: &LlamacppReport, doc: &Report) -> String {
    let mut out = format!("\nllama.cpp, GGUF {}:\n", l.file_type.name());
    let row = |name: &str, value: String| format!("  {name:<30}{value}\n");
    out += &row("model size", gib(l.model_size_bytes));
    out += &row("K cache", gib(l.k_bytes));
    out += &row("V cache", gib(l.v_bytes));
    let calibrated = match l.compute_calibrated_from_log {
        Some(_) => " (calibrated from your log)",
        None => "",
    };
    out += &row(
        "compute buffers",
        format!("{}{calibrated}", gib(l.compute_buffer_bytes)),
    );
    if l.blas_compute_bytes > 0 {
        out += &row(
            "host compute buffers",
            format!(
                "{} CPU backend + {} BLAS",
                gib(l.host_compute_bytes),
                gib(l.blas_compute_bytes)
            ),
        );
    }
    out += &row("output buffer", gib(l.output_buffer_bytes));
    out += &row("on the GPU", gib(l.gpu_bytes));
    out += &row("in host memory", gib(l.host_bytes));
    out += &row(
        "layers on the GPU",
        format!("{}/{}", l.gpu_layers, l.layers_total),
    );
    let p = &l.plan;
    let mut from_host = match p.host_layers {
        0 => String::new(),
        1 => "1 layer".to_string(),
        n => format!("{n} layers"),
    };
    if p.experts_on_host_layers > 0 {
        if !from_host.is_empty() {
            from_host += ", ";
        }
        from_host += &format!("experts of {} blocks", p.experts_on_host_layers);
    }
    if p.offloaded() {
        out += &row("from host memory", from_host);
    }
    out += &row(
        "host memory needed",
        format!(
            "{} of {} host RAM{}",
            Bytes(p.host_needed_bytes).display(UNIT),
            Bytes(p.host_ram_bytes).display(UNIT),
            match (p.host_ram_assumed, p.unified_memory) {
                (true, _) => " (assumed)",
                (false, true) => " (unified memory: the GPU's part and the host's together)",
                (false, false) => "",
            }
        ),
    );
    out += &row("most layers that fit", l.max_gpu_layers.to_string());
    // The answers' own (`answers.max_context`): none where the host side
    // does not fit, whatever the GPU side would hold.
    let longest = match (l.max_context, p.host_short_by_bytes) {
        (Some(c), 0) => c.to_string(),
        (Some(_), _) => "none: the host side does not fit".to_string(),
        (None, _) => "none".to_string(),
    };
    out += &row("longest context that fits", longest);
    out += &devices(l);
    match p.host_short_by_bytes {
        0 => out += &format!("  command: {}\n", l.command),
        _ => out += "  command: none: this plan would not start (host memory)\n",
    }
    if let Some(g) = &l.lmstudio_guardrail {
        let limit = g.limit_bytes.map_or("no limit".to_string(), |b| {
            format!("limit {}", Bytes(b).display(DisplayUnit::Gb))
        });
        out += &row(
            &format!("LM Studio guard ({})", g.level.arg()),
            format!(
                "{} of {} GPU memory + RAM{}, {limit}: {}",
                Bytes(g.load_bytes).display(DisplayUnit::Gb),
                Bytes(g.machine_bytes).display(DisplayUnit::Gb),
                if g.host_ram_assumed {
                    " (RAM assumed)"
                } else {
                    ""
                },
                if g.refuses { "stopped" } else { "loads" }
            ),
        );
    }
    // A build no one named came from the calibration log.
    let engine = &doc.inputs.scenario.engine;
    let log_build = match engine.llamacpp_build {
        Some(_) => None,
        None => engine.llamacpp_calibration.as_ref().and_then(|c| c.build),
    };
    for note in &l.notes {
        let text = note.to_string();
        let text = match (note, log_build) {
            (EngineNote::LlamacppBuild { build: Some(b), .. }, Some(lb)) if *b == lb => text
                .replacen(
                    &format!("b{b}:"),
                    &format!("b{b} (the calibration log's):"),
                    1,
                ),
            _ => text,
        };
        out += &format!("  note: {text}\n");
    }
    out
}

/// The vision projector's line: its weights and compute buffers.
fn projector(p: &vramfit_core::methods::engine::ProjectorPart) -> String {
    let mib = |b: u64| format!("{:.2} MiB", b as f64 / f64::from(1 << 20));
    let kind = p
        .projector_type
        .as_deref()
        .map_or(String::new(), |t| format!(" ({t})"));
    let head = format!(
        "vision projector {}{kind}: {} of weights on GPU {}",
        p.file,
        Bytes(p.weights_bytes).display(DisplayUnit::Gib),
        p.device
    );
    match (&p.compute, &p.not_sized) {
        (Some(c), _) => format!(
            "{head}; clip compute buffers {} on the GPU, {} on the CPU (warm-up image {s}x{s}, {} patches, flash attention {})\n",
            mib(c.gpu_bytes),
            mib(c.host_bytes),
            c.patches,
            if c.flash_attn { "on" } else { "off" },
            s = c.warmup_image_size,
        ),
        (None, Some(why)) => format!("{head} (its clip compute buffers not sized: {why})\n"),
        (None, None) => format!("{head}\n"),
    }
}

/// Each GPU's part and the host's, with several GPUs or overrides.
fn devices(l: &LlamacppReport) -> String {
    let mut out = String::new();
    for d in &l.devices {
        let layers = match (d.layers.first(), d.layers.last()) {
            (Some(a), Some(b)) => format!("layers {a}-{b}"),
            _ => "no layers".to_string(),
        };
        let output = if d.output_layer { " + output" } else { "" };
        out += &format!(
            "  GPU {}: model {}, KV {}, compute {}, total {} of {} ({layers}{output})\n",
            d.index,
            gib(d.weights),
            gib(d.k_cache + d.v_cache),
            gib(d.compute),
            gib(d.total),
            gib(d.memory),
        );
    }
    if let Some(h) = &l.host {
        let locked = if h.locked { ", locked" } else { "" };
        out += &format!(
            "  host: model {} ({}{locked}), KV {}, compute {}{}, output {}, total {}\n",
            gib(h.weights),
            h.weights_buffer,
            gib(h.kv_cache),
            gib(h.compute),
            match h.blas_compute {
                0 => String::new(),
                b => format!(" + BLAS {}", gib(b)),
            },
            gib(h.output),
            gib(h.total)
        );
    }
    if let Some(g) = l.limiting_gpu {
        out += &format!("  the context is limited by GPU {g}\n");
    }
    out
}

/// The model catalog: a table, or the listings as JSON.
pub fn models(json: bool) -> String {
    let all: Vec<ModelListing> = list_models();
    if json {
        let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
        text.push('\n');
        return text;
    }
    let mut out = format!(
        "{:<56}{:>14}{:>14}  {:<11}{}\n",
        "id", "params", "active", "status", "source"
    );
    for m in &all {
        let billions =
            |n: Option<u64>| n.map_or("-".to_string(), |n| format!("{:.2} B", n as f64 / 1e9));
        let status = serde_json::to_value(m.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        out += &format!(
            "{:<56}{:>14}{:>14}  {:<11}{}\n",
            m.id,
            billions(m.params_total),
            billions(m.params_active),
            status,
            m.source.repo
        );
    }
    out
}

/// The checkpoint's own format, and whether the estimate weighs it so.
fn published(p: &PublishedFormat, doc: &Report) -> String {
    let vision = match p.vision_bytes {
        0 => String::new(),
        v => format!(", vision tower {} included", Bytes(v).display(UNIT)),
    };
    let weighed = match doc.inputs.scenario.weight_format {
        Some(WeightFormat::AsPublished) => "weighed as published".to_string(),
        Some(f) => format!("weighed as {}", f.label()),
        None => format!("weighed at {} bits", doc.inputs.scenario.weight_bits),
    };
    format!(
        "published in {}, {} of weights{vision}; {weighed}\n",
        p.label,
        Bytes(p.bytes).display(UNIT)
    )
}

/// Seed 002's roofline ranges, or why there are none. With an engine's
/// plan the engine's own speed (its section) is the answer: the roofline is
/// named as the planner's other estimate, and its absence goes unsaid.
fn speed(doc: &Report) -> String {
    let engine_speed = match &doc.estimate.engine {
        Some(EngineReport::Vllm(v)) => v.speed.is_some(),
        Some(EngineReport::Llamacpp(l)) => l.speed.is_some(),
        None => false,
    };
    let label = match engine_speed {
        true => "planner's roofline (other estimate)",
        false => "speed",
    };
    match (&doc.speed, doc.speed_unavailable) {
        (_, Some(_)) | (None, None) if engine_speed => String::new(),
        (Some(s), _) => format!(
            "{label}: {:.1}–{:.1} tokens/s per user, prefill {:.3}–{:.3} s (conservative–favourable)\n",
            s.tokens_per_s_per_user.conservative,
            s.tokens_per_s_per_user.favourable,
            s.prefill_seconds.conservative,
            s.prefill_seconds.favourable,
        ),
        (None, Some(reason)) => format!(
            "speed: no figure ({})\n",
            serde_json::to_value(reason)
                .ok()
                .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(|r| r.replace('_', " ")))
                .unwrap_or_default()
        ),
        (None, None) => String::new(),
    }
}

/// llama.cpp's plan, where its host side does not fit the host RAM.
fn host_short(doc: &Report) -> Option<&vramfit_core::methods::llamacpp::plan::LlamacppPlan> {
    match doc.estimate.engine.as_ref()? {
        EngineReport::Llamacpp(l) if l.plan.host_short_by_bytes > 0 => Some(&l.plan),
        _ => None,
    }
}

/// "fits ..." or "short by ... ; N single adjustments fit" and the list.
fn verdict(doc: &Report) -> String {
    let v = &doc.estimate.verdict;
    let usable = v.usable_bytes.display(UNIT);
    if v.short_by_bytes == Bytes::ZERO {
        return format!(
            "fits {usable} usable: {:.1} % ({}), {} to spare\n",
            v.percent(),
            v.status.id(),
            v.headroom_bytes.display(UNIT)
        );
    }
    let n = doc.suggestions.len();
    let adjustments = format!(
        "{n} single adjustment{} fit{}",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" },
    );
    let mut out =
        match host_short(doc) {
            // llama.cpp's plan: the GPU side fits, its host side does not.
            Some(p) if v.needed_bytes <= v.usable_bytes => format!(
            "short by {} of host memory: the plan keeps {} there, {} host RAM{}; {adjustments}\n",
            Bytes(p.host_short_by_bytes).display(UNIT),
            Bytes(p.host_needed_bytes).display(UNIT),
            Bytes(p.host_ram_bytes).display(UNIT),
            if p.host_ram_assumed { " (assumed: give --host-ram-gb)" } else { "" },
        ),
            _ => format!(
                "short by {} of {usable} usable ({:.1} %); {adjustments}\n",
                v.short_by_bytes.display(UNIT),
                v.percent(),
            ),
        };
    for s in &doc.suggestions {
        let need = v.usable_bytes - s.margin_bytes;
        let cost = serde_json::to_value(s.cost)
            .ok()
            .and_then(|c| c.as_str().map(|c| c.replace('_', " ")))
            .unwrap_or_default();
        // A move that trades memory for speed says both.
        let speed = s
            .decode_tokens_per_s
            .map_or(String::new(), |d| format!(", decode {d:.1} tokens/s"));
        out += &format!(
            "  -> {}: {}{speed} ({cost})\n",
            change(&s.change),
            need.display(UNIT)
        );
    }
    out
}

/// A change as `knob=value`, in seed 003's words.
fn change(c: &Change) -> String {
    match c {
        Change::Context(n) => format!("seq_len={n}"),
        Change::Sequences(n) => format!("sequences={n}"),
        Change::WeightFormat(f) => format!("quant={}", f.id()),
        Change::KvBytes(b) => format!("kv_bytes={b}"),
        Change::Lora => "lora instead of full fine-tuning".to_string(),
        Change::GradCheckpoint => "grad_checkpoint=true".to_string(),
        Change::PurePrecision => "precision=pure".to_string(),
        Change::Gpus(n) => format!("gpus={n}"),
        Change::GpuLayers(n) => format!("-ngl {n}"),
        Change::CpuMoe(n) => format!("--n-cpu-moe {n}"),
    }
}

/// What was understood of a model; `catalog_id` names a catalog model.
pub fn model(m: &ModelFacts, catalog_id: Option<&str>) -> String {
    let billions = |n: u64| format!("{:.2} B", n as f64 / 1e9);
    let mut out = String::new();
    if let Some(spec) = &m.spec {
        let name = catalog_id
            .or(spec.name.as_deref())
            .or(spec.model_type.as_deref());
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
    let g = &m.kv_growth;
    out += &format!(
        "KV per token      {} B (FP16/BF16 cache)\n",
        m.kv_bytes_per_token.get()
    );
    if !g.is_whole() {
        out += &format!(
            "KV per 1k tokens  {} B (exactly {}/{} B per token)\n",
            g.bytes_per_1000_tokens, g.bytes_num, g.bytes_den
        );
    }
    if let Some(copy) = m
        .spec
        .as_ref()
        .map(|s| s.checkpoint.tied_head_copy)
        .filter(|c| *c > 0)
    {
        out += &format!(
            "note: this family's original files also store lm_head.weight, a copy of the tied \
             embedding: {} more on disk ({copy} parameters), not in memory\n",
            billions(copy)
        );
    }
    if let Some(why) = m
        .spec
        .as_ref()
        .and_then(|s| s.vision_not_counted.as_deref())
    {
        out += &format!(
            "note: the vision tower is not counted ({why}): the parameters above are the text \
             model's alone\n"
        );
    }
    if let Some(QuantSource::NotInConfig {
        name_suggests: Some(word),
    }) = m.spec.as_ref().map(|s| &s.quantization_source)
    {
        out += &format!(
            "note: the model's name says {word}, but config.json has no quantization_config: \
             the weights are counted unquantized (an NVIDIA ModelOpt export states its \
             quantization in hf_quant_config.json: put it beside config.json)\n"
        );
    }
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
    use vramfit_core::request::Request;

    #[test]
    fn estimate_says_fit_and_spare() {
        let doc = report::build(&Request::default()).unwrap();
        let text = estimate(&doc);
        assert!(text.contains("weights            16.00 GB"), "{text}");
        assert!(text.contains("total              18.78 GB"), "{text}");
        assert!(text.contains("fits 24.00 GB usable: 78.3 % (con_margen), 5.22 GB to spare"));
    }
}
