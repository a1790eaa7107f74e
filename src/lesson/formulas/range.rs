//! `range`: a low and a high estimate per GPU for serving or fine-tuning
//! a real model (`vramfit_core::methods::range`).

use super::{derived, kv, Ctx, Derivation};
use crate::lesson::symbols::Symbol;
use vramfit_core::methods::range::{
    adapter_params, ADAPTER_BYTES_PER_PARAM, FULL_BYTES_PER_PARAM, HIGH_EXTRA_CENTI_PCT,
    LOGIT_BYTES, QLORA_BASE_MILLI_BITS, RECOMPUTED_LAYER_BYTES, RUNTIME_BYTES_PER_GPU,
    SAVED_INPUT_BYTES,
};
use vramfit_core::model::ModelSpec;
use vramfit_core::scenario::{Mode, WeightFormat};
use vramfit_core::term::Term;
use vramfit_core::units::GB;

/// The GPUs one copy of the model is split over: `n = TP × PP`.
fn copy_gpus(c: &Ctx) -> u64 {
    c.s.layout.per_replica().max(1)
}

/// `⌈x / n⌉` where the method splits over `n` GPUs; `x` alone on one.
fn split(c: &Ctx, x: String) -> String {
    match copy_gpus(c) {
        1 => x,
        n => format!("⌈({x}) / {}⌉", c.int(n)),
    }
}

/// The formula of a split over `n` GPUs: `⌈(…) / n⌉`, or the bare sum.
fn split_formula(c: &Ctx, x: &str) -> String {
    match copy_gpus(c) {
        1 => x.to_string(),
        _ => format!("⌈({x}) / n⌉"),
    }
}

/// Weights at `milli_bits` with the embeddings and head at 16 bits below
/// 16 bits (`range::weights_at_bits`).
fn weights_at(
    term: Term,
    c: &Ctx,
    spec: &ModelSpec,
    milli_bits: u64,
    bits_symbol: bool,
) -> Option<Derivation> {
    // Everything the checkpoint counts: the text model and the vision
    // tower an engine loads with it (`range::weights_at_bits`).
    let p = spec.checkpoint.params;
    let e = spec.params.embedding.saturating_add(spec.params.lm_head);
    let gpus = (Symbol::Gpus, c.int(copy_gpus(c)));
    let bits = c.milli(milli_bits);
    let b = if bits_symbol { "b_w" } else { bits.as_str() };
    let mut symbols = vec![(Symbol::Params, c.int(p))];
    if milli_bits >= 16_000 {
        if bits_symbol {
            symbols.push((Symbol::WeightBits, bits.clone()));
        }
        symbols.push(gpus);
        return derived(
            term,
            format!("W = {}", split_formula(c, &format!("P × {b} / 8"))),
            symbols,
            split(c, format!("{} × {bits} / 8", c.int(p))),
        );
    }
    symbols.push((Symbol::EmbedParams, c.int(e)));
    if bits_symbol {
        symbols.push((Symbol::WeightBits, bits.clone()));
    }
    symbols.push(gpus);
    derived(
        term,
        format!(
            "W = {}",
            split_formula(c, &format!("E × 16 / 8 + (P − E) × {b} / 8"))
        ),
        symbols,
        split(
            c,
            format!(
                "{} × 16 / 8 + ({} − {}) × {bits} / 8",
                c.int(e),
                c.int(p),
                c.int(e)
            ),
        ),
    )
}

fn weights(c: &Ctx, spec: &ModelSpec) -> Option<Derivation> {
    let s = c.s;
    match s.mode {
        Mode::Inference => match s.weight_format {
            Some(WeightFormat::AsPublished) => derived(
                Term::Weights,
                format!("W = {}", split_formula(c, "W_ckpt")),
                vec![
                    (Symbol::CheckpointBytes, c.int(spec.checkpoint.bytes)),
                    (Symbol::Gpus, c.int(copy_gpus(c))),
                ],
                split(c, c.int(spec.checkpoint.bytes)),
            ),
            _ => weights_at(Term::Weights, c, spec, s.weight_milli_bits, true),
        },
        Mode::Lora => weights_at(Term::Weights, c, spec, 16_000, false),
        Mode::Qlora => weights_at(Term::Weights, c, spec, QLORA_BASE_MILLI_BITS, false),
        Mode::Full => None,
    }
}

/// Tokens of one step on one GPU, as a formula and written out: `S × B`,
/// or `S × ⌈B / n⌉` when the copy's `n` GPUs each run their own share.
fn tokens(c: &Ctx) -> (&'static str, String) {
    let (context, b) = (c.int(c.s.context), c.int(c.s.replica_sequences()));
    match copy_gpus(c) {
        1 => ("S × B", format!("({context} × {b})")),
        n => ("S × ⌈B / n⌉", format!("({context} × ⌈{b} / {}⌉)", c.int(n))),
    }
}

pub(super) fn derive(term: Term, c: &Ctx) -> Option<Derivation> {
    let s = c.s;
    let spec = s.model.as_deref()?;
    let gpus = || (Symbol::Gpus, c.int(copy_gpus(c)));
    match term {
        Term::Weights => weights(c, spec),
        Term::KvCache => {
            let (substituted, symbols) = kv::range(c, spec);
            let span = match symbols.iter().any(|(s, _)| *s == Symbol::Window) {
                true => "min(S; S_w)",
                false => "S",
            };
            let formula = split_formula(c, &format!("B × Σ_ℓ v_ℓ × {span} × b_kv"));
            Some(Derivation {
                term,
                formula: format!("KV = {formula}"),
                symbols,
                substituted,
            })
        }
        Term::ModelStates => derived(
            term,
            format!(
                "MS = {}",
                split_formula(c, &format!("{FULL_BYTES_PER_PARAM} × P"))
            ),
            vec![(Symbol::Params, c.int(spec.params_total)), gpus()],
            split(
                c,
                format!("{FULL_BYTES_PER_PARAM} × {}", c.int(spec.params_total)),
            ),
        ),
        Term::Adapters => derived(
            term,
            format!(
                "Ad = {}",
                split_formula(c, &format!("{ADAPTER_BYTES_PER_PARAM} × A_p"))
            ),
            vec![
                (
                    Symbol::AdapterParams,
                    c.int(adapter_params(spec, s.lora_rank)),
                ),
                (Symbol::LoraRank, c.int(s.lora_rank)),
                gpus(),
            ],
            split(
                c,
                format!(
                    "{ADAPTER_BYTES_PER_PARAM} × {}",
                    c.int(adapter_params(spec, s.lora_rank))
                ),
            ),
        ),
        Term::Activations => {
            let (n, t) = tokens(c);
            let mut symbols = vec![
                (Symbol::Context, c.int(s.context)),
                (Symbol::Sequences, c.int(s.replica_sequences())),
                (Symbol::Hidden, c.int(spec.hidden_size)),
                (Symbol::Layers, c.int(spec.num_layers)),
            ];
            if copy_gpus(c) > 1 {
                symbols.push(gpus());
            }
            derived(
                term,
                format!(
                    "Act = {SAVED_INPUT_BYTES} × N × H × L + {RECOMPUTED_LAYER_BYTES} × N × H, N = {n}"
                ),
                symbols,
                format!(
                    "{SAVED_INPUT_BYTES} × {t} × {h} × {l} + {RECOMPUTED_LAYER_BYTES} × {t} × {h}",
                    h = c.int(spec.hidden_size),
                    l = c.int(spec.num_layers)
                ),
            )
        }
        Term::Logits => {
            let (n, t) = tokens(c);
            let mut symbols = vec![
                (Symbol::Vocab, c.int(spec.vocab_size)),
                (Symbol::Context, c.int(s.context)),
                (Symbol::Sequences, c.int(s.replica_sequences())),
            ];
            if copy_gpus(c) > 1 {
                symbols.push(gpus());
            }
            derived(
                term,
                format!("Lg = {LOGIT_BYTES} × V × N, N = {n}"),
                symbols,
                format!("{LOGIT_BYTES} × {} × {t}", c.int(spec.vocab_size)),
            )
        }
        Term::Runtime => {
            let gb = RUNTIME_BYTES_PER_GPU.get() as f64 / GB as f64;
            derived(
                term,
                "RT = R_GB × 10⁹",
                vec![(Symbol::RuntimeGb, c.dec(gb))],
                format!("{} × {}", c.dec(gb), c.int(GB)),
            )
        }
        Term::Margin => {
            let (signs, values) = c.sum_of(&[
                Term::Weights,
                Term::ModelStates,
                Term::Adapters,
                Term::Activations,
                Term::Logits,
            ]);
            let m = c.centi(HIGH_EXTRA_CENTI_PCT);
            derived(
                term,
                format!("M = ({signs}) × m / 100"),
                vec![(Symbol::MarginPct, m.clone())],
                format!("({values}) × {m} / 100"),
            )
        }
        Term::Overhead
        | Term::TrainingStates
        | Term::Activation
        | Term::Gradients
        | Term::Optimizer
        | Term::AutocastCache
        | Term::StepWorkspace
        | Term::AttentionScores
        | Term::MasterWeights
        | Term::Communication
        | Term::OffloadStaging
        | Term::EngineContext
        | Term::ActivationPeak
        | Term::NonTorch
        | Term::CudaGraphs
        | Term::KCache
        | Term::VCache
        | Term::ComputeBuffer
        | Term::OutputBuffer
        | Term::HostPart => None,
    }
}
