//! The questions people ask beyond "does it fit?": the longest context and
//! the most concurrent sequences that fit, the smallest catalog GPU that fits, and
//! single-adjustment suggestions when it does not fit (seed 003's `fits()`:
//! "short by 28.9 GB on RTX 3090; 1 single adjustment fits").
//!
//! Every answer reruns the selected method on a changed copy of the
//! validated scenario, so it is exactly what the method would say for
//! that input. Searches rely on memory never decreasing with context or
//! sequences (a property test in `tests/properties.rs`).

mod offload;

use crate::catalog::gpus;
use crate::methods::{self, MethodId, MethodResult};
use crate::request::Request;
use crate::scenario::{GpuMemory, Layout, Mode, Precision, Scenario, WeightFormat};
use crate::units::Bytes;
use serde::Serialize;

/// Formats a suggestion may propose for any model.
const SUGGESTED_FORMATS: [WeightFormat; 7] = [
    WeightFormat::Fp8,
    WeightFormat::Int8,
    WeightFormat::Q8_0,
    WeightFormat::Q5KM,
    WeightFormat::Q4KM,
    WeightFormat::Awq,
    WeightFormat::Gptq,
];

/// Largest context and sequences the search considers (the input ranges).
const MAX_CONTEXT: u64 = 100_000_000;
const MAX_SEQUENCES: u64 = 1_000_000;
/// Most GPUs a suggestion or an answer considers (the input range).
const MAX_GPUS: u64 = 64;

/// One change to one knob of the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "knob", content = "value")]
pub enum Change {
    /// Context tokens per sequence.
    Context(u64),
    /// Concurrent sequences.
    Sequences(u64),
    /// A smaller named weight format.
    WeightFormat(WeightFormat),
    /// Bytes per cached element (1 = FP8).
    KvBytes(f64),
    /// LoRA adapters instead of full fine-tuning.
    Lora,
    /// Gradient checkpointing on.
    GradCheckpoint,
    /// Pure (weights in bf16) instead of amp (fp32 master weights).
    PurePrecision,
    /// More GPUs of the same kind, one copy of the model spread over all
    /// of them ([`Layout::spread`]).
    Gpus(u64),
    /// llama.cpp `-ngl N`: layers on the GPU.
    GpuLayers(u64),
    /// llama.cpp `--n-cpu-moe N`: the experts of the first N blocks in host
    /// memory.
    CpuMoe(u64),
}

/// What a change costs besides memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    /// Shorter training sequences change what the model learns.
    ChangesTrainingObjective,
    /// Shorter prompts or answers for users.
    ShorterContext,
    /// Fewer sequences at once: lower throughput.
    LowerThroughput,
    /// Quantization may cost quality; test it on your task.
    MayCostQuality,
    /// Trains adapters only, not every weight.
    TrainsAdaptersOnly,
    /// Recomputes activations: a slower step.
    SlowerStep,
    /// bf16 master weights can lose small updates.
    LessPreciseUpdates,
    /// More cards to buy or rent.
    MoreHardware,
    /// None: the model's own published format, as its authors ship it.
    PublishedFormat,
    /// Layers or experts read from host memory: slower tokens.
    RunsFromHostMemory,
    /// Fewer experts in host memory: more of the GPU in use.
    MoreGpuMemory,
}

impl Change {
    /// The same change on the request a person edits (so the UI can apply
    /// it in one click); LoRA keeps the method as [`Request::set_mode`] does.
    pub fn apply(self, request: &mut Request) {
        let input = &mut request.scenario;
        match self {
            Change::Context(n) => input.context = n,
            Change::Sequences(n) => input.sequences = n,
            Change::WeightFormat(f) => input.set_weight_format(f),
            Change::KvBytes(b) => input.kv_bytes = b,
            Change::Lora => {
                request.set_mode(Mode::Lora);
            }
            Change::GradCheckpoint => input.grad_checkpoint = true,
            Change::PurePrecision => input.precision = Precision::Pure,
            Change::Gpus(n) => (input.gpus, input.tp, input.pp) = (n, None, None),
            Change::GpuLayers(n) => input.engine.n_gpu_layers = Some(n),
            Change::CpuMoe(n) => input.engine.n_cpu_moe = n,
        }
    }

    /// The change on a validated scenario; `None` when it cannot be made
    /// (no layout spreads the model over that many GPUs, or the GPU is one
    /// per machine).
    fn apply_valid(self, s: &mut Scenario) -> Option<()> {
        match self {
            Change::Context(n) => s.context = n,
            Change::Sequences(n) => s.sequences = n,
            Change::WeightFormat(f) => s.set_weight_format(f),
            Change::KvBytes(b) => s.kv_milli_bits = (b * 8_000.0).round() as u64,
            Change::Lora => s.mode = Mode::Lora,
            Change::GradCheckpoint => s.grad_checkpoint = true,
            Change::PurePrecision => s.precision = Precision::Pure,
            Change::Gpus(n) => {
                Layout::on_one_device(n, s.gpu).ok()?;
                s.layout = Layout::spread(n, s.heads).ok()?;
            }
            Change::GpuLayers(n) => s.engine.n_gpu_layers = Some(n),
            Change::CpuMoe(n) => s.engine.n_cpu_moe = n,
        }
        Some(())
    }
}

/// A single adjustment that makes the scenario fit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion {
    pub change: Change,
    /// The method's total after the change.
    pub total_bytes: Bytes,
    /// Usable memory left after the change.
    pub margin_bytes: Bytes,
    pub cost: Cost,
    /// An engine plan's decode tokens per second after the change: the
    /// engine's speed model ([`crate::methods::speed`]) over the suggested
    /// plan, so that a move that trades memory for speed says both
    /// (`--n-cpu-moe 20`: fits, 14 tokens/s). `None` for the methods
    /// without a speed, and where the plan has no GPU figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_tokens_per_s: Option<f64>,
}

/// The decode point of an engine plan's speed, where the method has one.
fn decode_point(r: &MethodResult) -> Option<f64> {
    use crate::methods::engine::EngineReport;
    let speed = match r.engine.as_ref()? {
        EngineReport::Llamacpp(l) => l.speed.as_ref(),
        EngineReport::Vllm(v) => v.speed.as_ref(),
    }?;
    Some(speed.decode_tokens_per_s.point).filter(|d| d.is_finite() && *d > 0.0)
}

/// What stops a "largest that fits" answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The memory: one more does not fit.
    #[default]
    Memory,
    /// The model's own maximum context (`max_position_embeddings`): more
    /// would fit, but the model is not made for it.
    ModelMaximum,
    /// The largest value the input accepts: more might fit.
    InputMaximum,
}

/// Answers for the selected method (the default: none given).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Answers {
    /// Longest context (tokens per sequence) that fits, if any does, up to
    /// the model's own maximum; `None` too when the method's figure does
    /// not grow with the context.
    pub max_context: Option<u64>,
    /// What stops `max_context`.
    pub max_context_limit: Limit,
    /// The model's maximum context (`max_position_embeddings`), where the
    /// model gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_max_context: Option<u64>,
    /// Most concurrent sequences that fit; `None` when even one does not
    /// fit, or when the method's figure does not grow with them.
    pub max_sequences: Option<u64>,
    /// What stops `max_sequences`.
    pub max_sequences_limit: Limit,
    /// The catalog GPU with the least memory that fits, if any does.
    pub smallest_gpu: Option<String>,
    /// The fewest GPUs of the chosen kind on which it fits, among the
    /// counts worth suggesting ([`Layout::suggested_counts`]: one copy of
    /// the model, TP within a node, PP across whole nodes); `None` when
    /// none does, or when the method does not spread a model.
    pub min_gpus: Option<u64>,
}

/// The method on a changed scenario; `None` when it does not estimate it.
fn rerun(
    method: MethodId,
    s: &Scenario,
    change: impl FnOnce(&mut Scenario),
) -> Option<MethodResult> {
    let mut changed = s.clone();
    change(&mut changed);
    methods::run(method, &changed).ok()
}

/// The method after one [`Change`]; `None` when the change cannot be made
/// or the method does not estimate the result.
fn rerun_change(method: MethodId, s: &Scenario, change: Change) -> Option<MethodResult> {
    let mut changed = s.clone();
    change.apply_valid(&mut changed)?;
    methods::run(method, &changed).ok()
}

fn fits(r: &MethodResult) -> bool {
    r.verdict.short_by_bytes == Bytes::ZERO
}

/// Largest `n` in `1..=max` for which `fits_at(n)`, assuming it is monotone
/// (true up to some point, false after); `None` if not even 1 fits.
fn largest_fitting(max: u64, fits_at: impl Fn(u64) -> bool) -> Option<u64> {
    if !fits_at(1) {
        return None;
    }
    let (mut lo, mut hi) = (1, max);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits_at(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// The answers of `method` for a validated scenario.
///
/// Both searches have a real upper bound: the context stops at the
/// model's maximum (`max_position_embeddings`) where it has one, else at
/// the input's; the sequences at the input's. A method whose figure does
/// not grow with a knob gives no answer for it, rather than its maximum.
pub fn answers(method: MethodId, s: &Scenario) -> Answers {
    let fits_with =
        |change: &dyn Fn(&mut Scenario)| rerun(method, s, change).is_some_and(|r| fits(&r));
    let model_max_context = s.model.as_deref().and_then(|m| m.max_context);
    let (context_cap, context_limit) = match model_max_context {
        Some(m) => (m.clamp(1, MAX_CONTEXT), Limit::ModelMaximum),
        None => (MAX_CONTEXT, Limit::InputMaximum),
    };
    let (max_context, max_context_limit) = match plan_max_context(method, s) {
        Some(Some(n)) if n >= context_cap => (Some(context_cap), context_limit),
        Some(n) => (n, Limit::Memory),
        None => bounded(
            grows_with(method, s, context_cap, |c, n| c.context = n),
            context_cap,
            context_limit,
            |n| fits_with(&|c| c.context = n),
        ),
    };
    let (max_sequences, max_sequences_limit) = bounded(
        grows_with(method, s, MAX_SEQUENCES, |c, n| c.sequences = n),
        MAX_SEQUENCES,
        Limit::InputMaximum,
        |n| fits_with(&|c| c.sequences = n),
    );
    Answers {
        max_context,
        max_context_limit,
        model_max_context,
        max_sequences,
        max_sequences_limit,
        smallest_gpu: smallest_gpu(method, s),
        min_gpus: min_gpus(method, s),
    }
}

/// llama.cpp's longest context is its plan's: the longest that fits at
/// the layers the plan puts on the GPU (`estimate.engine.max_context`),
/// none where the plan's host side does not fit. `None` for the other
/// methods (their answer is the search).
fn plan_max_context(method: MethodId, s: &Scenario) -> Option<Option<u64>> {
    if method != MethodId::Llamacpp {
        return None;
    }
    let r = methods::run(method, s).ok()?;
    match r.engine? {
        crate::methods::engine::EngineReport::Llamacpp(e) => {
            Some(e.max_context.filter(|_| e.plan.host_short_by_bytes == 0))
        }
        crate::methods::engine::EngineReport::Vllm(_) => None,
    }
}

/// The largest `n` up to `cap` that fits, and what stops it: the memory,
/// or the cap itself (`at_cap`) when even the cap fits. `None` when the
/// figure does not grow (`grows` false) or when 1 does not fit.
fn bounded(
    grows: bool,
    cap: u64,
    at_cap: Limit,
    fits_at: impl Fn(u64) -> bool,
) -> (Option<u64>, Limit) {
    let found = grows.then(|| largest_fitting(cap, fits_at)).flatten();
    match found {
        Some(n) if n == cap => (Some(n), at_cap),
        other => (other, Limit::Memory),
    }
}

/// Whether the method's need grows when a knob goes from 1 to `max`.
fn grows_with(method: MethodId, s: &Scenario, max: u64, set: fn(&mut Scenario, u64)) -> bool {
    let need = |n: u64| rerun(method, s, |c| set(c, n)).map(|r| r.verdict.needed_bytes);
    match (need(1), need(max.max(2))) {
        (Some(low), Some(high)) => high > low,
        _ => false,
    }
}

/// The same scenario with one copy of the model spread over `n` GPUs.
fn on_gpus(method: MethodId, s: &Scenario, n: u64) -> Option<MethodResult> {
    rerun_change(method, s, Change::Gpus(n))
}

/// The fewest GPUs that fit, among the counts worth suggesting, for
/// methods that spread a model (their figure changes from one GPU to two);
/// none where two cannot be had ([`Layout::on_one_device`]: a Mac).
fn min_gpus(method: MethodId, s: &Scenario) -> Option<u64> {
    let counts = Layout::suggested_counts(s.heads, MAX_GPUS);
    let two = counts.iter().copied().find(|n| *n > 1)?;
    let one = on_gpus(method, s, 1)?;
    let more = on_gpus(method, s, two)?;
    if one.total_bytes == more.total_bytes {
        return None;
    }
    counts
        .into_iter()
        .find(|n| on_gpus(method, s, *n).is_some_and(|r| fits(&r)))
}

/// The catalog GPU with the least memory on which the scenario fits.
fn smallest_gpu(method: MethodId, s: &Scenario) -> Option<String> {
    let mut all: Vec<&'static gpus::Gpu> = gpus::all().iter().collect();
    all.sort_by_key(|g| GpuMemory::of(g).bytes());
    all.into_iter()
        .find(|g| {
            rerun(method, s, |c| {
                c.gpu_memory = GpuMemory::of(g);
                c.gpu = Some(g);
            })
            .is_some_and(|r| fits(&r))
        })
        .map(|g| g.name.clone())
}

/// Single adjustments that make a scenario that does not fit, fit; empty
/// when it already fits. Each changes one knob, to the least disruptive
/// value that fits.
pub fn suggestions(s: &Scenario, current: &MethodResult) -> Vec<Suggestion> {
    if fits(current) {
        return Vec::new();
    }
    let method = current.method;
    candidates(method, s)
        .into_iter()
        .filter_map(|(change, cost)| {
            let r = rerun_change(method, s, change)?;
            fits(&r).then_some(Suggestion {
                change,
                total_bytes: r.total_bytes,
                margin_bytes: r.verdict.headroom_bytes,
                cost,
                decode_tokens_per_s: decode_point(&r),
            })
        })
        .collect()
}

/// Whether the model's checkpoint is published quantized to about 4 bits.
fn published_at_four_bits(spec: &crate::model::ModelSpec) -> bool {
    use crate::model::QuantScheme as Q;
    spec.quantization.as_ref().is_some_and(|q| match q.scheme {
        Q::Mxfp4 | Q::Nvfp4 { .. } | Q::Bnb4 { .. } => true,
        Q::Gptq { bits, .. }
        | Q::AwqGemm { bits, .. }
        | Q::AwqGemv { bits, .. }
        | Q::AwqGemvFast { bits, .. } => bits <= 4,
        Q::CompressedTensors(w) => w.num_bits <= 4,
        Q::Fp8Block { .. } | Q::Fp8Tensor | Q::Fp8Channel | Q::Bnb8 | Q::Int8Channel => false,
    })
}

/// The changes worth trying, each at its least disruptive fitting value.
fn candidates(method: MethodId, s: &Scenario) -> Vec<(Change, Cost)> {
    let fits_with = |change: Change| rerun_change(method, s, change).is_some_and(|r| fits(&r));
    let mut out = Vec::new();
    // Context and batch: the largest power of two below today's that fits.
    let halvings = |from: u64| (1..64).map(move |k| from >> k).take_while(|n| *n >= 1);
    if let Some(n) = halvings(s.context).find(|n| fits_with(Change::Context(*n))) {
        let cost = if s.mode.trains() {
            Cost::ChangesTrainingObjective
        } else {
            Cost::ShorterContext
        };
        out.push((Change::Context(n), cost));
    }
    if let Some(n) = halvings(s.sequences).find(|n| fits_with(Change::Sequences(*n))) {
        out.push((Change::Sequences(n), Cost::LowerThroughput));
    }
    // Weights: first the checkpoint's own format, where it is not the one
    // chosen and it fits; then the largest smaller post-training format
    // that fits (MXFP4 and NF4 are left out: they come with particular
    // checkpoints or QLoRA).
    if s.model.is_some()
        && s.weight_format != Some(WeightFormat::AsPublished)
        && fits_with(Change::WeightFormat(WeightFormat::AsPublished))
    {
        out.push((
            Change::WeightFormat(WeightFormat::AsPublished),
            Cost::PublishedFormat,
        ));
    }
    // A checkpoint published at about 4 bits (MXFP4, NVFP4, GPTQ, AWQ,
    // NF4) is not quantized again: those formats are made from the 16-bit
    // original, another checkpoint.
    let four_bit = s.model.as_deref().is_some_and(published_at_four_bits);
    let mut formats: Vec<WeightFormat> = SUGGESTED_FORMATS
        .into_iter()
        .filter(|_| !four_bit)
        .filter(|f| f.milli_bits().is_some_and(|b| b < s.weight_milli_bits))
        .collect();
    formats.sort_by_key(|f| std::cmp::Reverse(f.milli_bits()));
    if let Some(f) = formats
        .into_iter()
        .find(|f| fits_with(Change::WeightFormat(*f)))
    {
        out.push((Change::WeightFormat(f), Cost::MayCostQuality));
    }
    if s.kv_milli_bits > 8_000 && !s.mode.trains() {
        out.push((Change::KvBytes(1.0), Cost::MayCostQuality));
    }
    if s.mode == Mode::Full {
        out.push((Change::Lora, Cost::TrainsAdaptersOnly));
    }
    if s.mode.trains() && !s.grad_checkpoint {
        out.push((Change::GradCheckpoint, Cost::SlowerStep));
    }
    if s.mode.trains() && s.precision == Precision::Amp {
        out.push((Change::PurePrecision, Cost::LessPreciseUpdates));
    }
    out.extend(offload::moves(method, s));
    // More GPUs, where the method spreads the model over them.
    if let Some(n) = min_gpus(method, s).filter(|n| *n > s.layout.gpus) {
        out.push((Change::Gpus(n), Cost::MoreHardware));
    }
    out
}

#[cfg(test)]
mod tests;
