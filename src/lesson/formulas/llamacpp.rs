//! `llamacpp`: the scenario's terms as llama.cpp places them
//! (`vramfit_core::methods::llamacpp::run`): the GPU's share of the file's
//! tensors, of the K and V caches and its compute buffer, and what stays
//! in host memory. The whole file's figures are derived in
//! [`super::engines`].
//!
//! Where a term's numbers would not give the core's bytes on one line (a
//! cache whose layers differ in width or window), the substituted line is
//! left out and the symbols describe it: each line here is checked against
//! the core's bytes before it is shown.

use super::engines::{self, LlamaCppPart, Num};
use super::{Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::llamacpp::{layer_split, DeviceBytes, LlamacppRun};
use vramfit_core::model::ModelSpec;
use vramfit_core::term::Term;

pub(super) fn derive(term: Term, c: &Ctx, run: &LlamacppRun) -> Option<Derivation> {
    let spec = c.s.model.as_deref()?;
    let (gpu, host) = run.ring();
    let want = c.bytes(term);
    let (formula, symbols, substituted) = match term {
        Term::Weights => weights(run, spec, &gpu, &host, c),
        Term::KCache => cache(LlamaCppPart::KCache, run, spec, c),
        Term::VCache => cache(LlamaCppPart::VCache, run, spec, c),
        Term::ComputeBuffer => compute(&gpu, run, c),
        Term::OutputBuffer => engines::llamacpp(
            LlamaCppPart::OutputBuffer,
            &run.estimate,
            &run.inputs,
            spec,
            (Symbol::Layers, spec.num_layers),
            &Num(c.n),
        ),
        Term::HostPart => host_part(&host, c),
        Term::KvCache
        | Term::Overhead
        | Term::TrainingStates
        | Term::Runtime
        | Term::Activation
        | Term::Margin
        | Term::Gradients
        | Term::Optimizer
        | Term::Activations
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::ModelStates
        | Term::Adapters
        | Term::Logits
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext
        | Term::ActivationPeak
        | Term::NonTorch
        | Term::CudaGraphs => return None,
    };
    Some(Derivation {
        term,
        formula,
        symbols,
        substituted: substituted.filter(|_| checks(term, run, spec, &gpu, &host, want)),
    })
}

/// The GPU's weights: the file's tensors less those left on the host,
/// plus the copy of a tied embedding the GPU keeps as its head.
fn weights(
    run: &LlamacppRun,
    spec: &ModelSpec,
    gpu: &DeviceBytes,
    host: &DeviceBytes,
    c: &Ctx,
) -> engines::Parts {
    let file = run.estimate.model_size_bytes;
    let dup = gpu
        .weights
        .saturating_add(host.weights)
        .saturating_sub(file);
    let (_, mut symbols, numbers) = engines::llamacpp(
        LlamaCppPart::ModelSize,
        &run.estimate,
        &run.inputs,
        spec,
        (Symbol::Layers, spec.num_layers),
        &Num(c.n),
    );
    symbols.push((Symbol::HostWeights, c.int(host.weights)));
    let mut formula = "W = Σ_types B_t − W_host".to_string();
    let mut line = format!(
        "({}) − {}",
        numbers.unwrap_or_else(|| c.int(file)),
        c.int(host.weights)
    );
    if dup > 0 {
        symbols.push((Symbol::TiedCopy, c.int(dup)));
        formula.push_str(" + E_dup");
        line.push_str(&format!(" + {}", c.int(dup)));
    }
    (formula, symbols, Some(line))
}

/// The layers `-ngl` puts on the GPU (every layer when the ring is over
/// all of them).
fn gpu_layers(run: &LlamacppRun, spec: &ModelSpec) -> u64 {
    let ngl = run.inputs.n_gpu_layers.unwrap_or(u64::MAX);
    let (layers, _) = layer_split(spec.num_layers, ngl, run.inputs.output_layer_first);
    layers.iter().filter(|on| **on).count() as u64
}

/// The GPU's K or V cache: its layers' rows of the cache type.
fn cache(part: LlamaCppPart, run: &LlamacppRun, spec: &ModelSpec, c: &Ctx) -> engines::Parts {
    engines::llamacpp(
        part,
        &run.estimate,
        &run.inputs,
        spec,
        (Symbol::GpuLayers, gpu_layers(run, spec)),
        &Num(c.n),
    )
}

/// `CB = max(I + max(A; F); O; S_w)` over the phases on the GPU.
fn compute(gpu: &DeviceBytes, run: &LlamacppRun, c: &Ctx) -> engines::Parts {
    let p = gpu.compute_phases;
    (
        "CB = max(I + max(A; F); O; S_w)".into(),
        vec![
            (Symbol::Ubatch, c.int(run.estimate.context.n_ubatch)),
            (Symbol::MaskBytes, c.int(p.layer_inputs)),
            (Symbol::AttentionPhase, c.int(p.attention)),
            (Symbol::FfnPhase, c.int(p.ffn)),
            (Symbol::OutputPhase, c.int(p.output)),
            (Symbol::StagedWeight, c.int(p.staged)),
        ],
        Some(format!(
            "max({} + max({}; {}); {}; {})",
            c.int(p.layer_inputs),
            c.int(p.attention),
            c.int(p.ffn),
            c.int(p.output),
            c.int(p.staged)
        )),
    )
}

/// What stays in host memory besides the output buffer.
fn host_part(host: &DeviceBytes, c: &Ctx) -> engines::Parts {
    let kv = host.k_cache.saturating_add(host.v_cache);
    (
        "H = W_host + KV_host + CB_host".into(),
        vec![
            (Symbol::HostWeights, c.int(host.weights)),
            (Symbol::HostKv, c.int(kv)),
            (Symbol::HostCompute, c.int(host.compute)),
        ],
        Some(format!(
            "{} + {} + {}",
            c.int(host.weights),
            c.int(kv),
            c.int(host.compute)
        )),
    )
}

/// Whether the line written for `term` gives the core's bytes: the same
/// arithmetic on the same integers.
fn checks(
    term: Term,
    run: &LlamacppRun,
    spec: &ModelSpec,
    gpu: &DeviceBytes,
    host: &DeviceBytes,
    want: u64,
) -> bool {
    let e = &run.estimate;
    let got = match term {
        Term::Weights => {
            let file = e
                .tensor_types
                .iter()
                .fold(0u64, |sum, t| sum.saturating_add(t.bytes));
            let dup = gpu
                .weights
                .saturating_add(host.weights)
                .saturating_sub(e.model_size_bytes);
            file.saturating_add(dup).checked_sub(host.weights)
        }
        Term::KCache | Term::VCache => {
            let ty = match term {
                Term::KCache => run.inputs.cache_type_k,
                _ => run.inputs.cache_type_v,
            };
            let width = spec.num_kv_heads * spec.head_dim;
            let uniform = engines::uniform_full(spec) && width.is_multiple_of(ty.block_size());
            uniform.then(|| {
                [
                    width / ty.block_size(),
                    ty.type_size(),
                    e.context.n_ctx_seq,
                    e.context.n_stream,
                ]
                .into_iter()
                .fold(gpu_layers(run, spec), u64::saturating_mul)
            })
        }
        Term::ComputeBuffer => Some(gpu.compute_phases.peak()),
        Term::OutputBuffer => Some(
            spec.vocab_size
                .saturating_mul(e.context.n_seq_max)
                .saturating_mul(4),
        ),
        Term::HostPart => Some(vramfit_core::units::sum([
            host.weights,
            host.k_cache,
            host.v_cache,
            host.compute,
        ])),
        _ => None,
    };
    got == Some(want)
}
