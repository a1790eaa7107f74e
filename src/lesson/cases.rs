//! The prepared scenarios of each method's lesson: where it starts (a
//! catalog model on which every assumption of the method holds) and its
//! counterexample (the same question asked twice: once as the method
//! assumes, once where one of its assumptions breaks). Each language says
//! why (`MethodLesson::start`, `counterexample`).

use vramfit_core::methods::vllm::validation;
use vramfit_core::methods::{lesson, MethodId};
use vramfit_core::request::Request;
use vramfit_core::scenario::{Mode, ModelRef, ScenarioInput, WeightFormat};
use vramfit_core::term::Term;
use vramfit_core::units::Bytes;

/// A prepared counterexample: the case as the method assumes it, the case
/// where the assumption breaks, and the term that shows the difference
/// (`None` when it is the verdict, not a term).
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    pub assumed: Request,
    pub broken: Request,
    pub at_stake: Option<Term>,
    /// Where the case is set against what the engine itself printed, not
    /// against a second estimate: the log's figures (`broken` is then the
    /// same scenario as `assumed`).
    pub logged: Option<Logged>,
}

/// What an engine printed at start-up for a counterexample's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    /// The terms the log prints, from its GiB figures (two decimals).
    pub terms: Vec<(Term, Bytes)>,
    /// "Available KV cache memory".
    pub kv_cache: Bytes,
    /// "GPU KV cache size: N tokens".
    pub kv_cache_tokens: u64,
}

impl Logged {
    /// The log of `model` among the shipped vLLM start-up logs.
    fn vllm(model: &str) -> Option<Logged> {
        let runs = validation::runs().ok()?;
        let run = runs
            .iter()
            .find(|r| r.model == model && r.tp == 1 && r.pp == 1)?;
        // GiB to two decimals, as vLLM prints them, in bytes.
        let bytes = |gib: f64| Bytes(validation::log_bytes(gib));
        Some(Logged {
            terms: vec![
                (Term::Weights, bytes(run.weights_gib)),
                (Term::ActivationPeak, bytes(run.activation_peak_gib)),
                (Term::NonTorch, bytes(run.non_torch_gib)),
            ],
            kv_cache: bytes(run.kv_cache_gib),
            kv_cache_tokens: run.kv_cache_tokens,
        })
    }
}

/// A catalog model in BF16 on a catalog GPU, `context` tokens, one
/// sequence.
fn on(model: &str, gpu: &str, context: u64) -> ScenarioInput {
    let mut s = ScenarioInput {
        model: Some(ModelRef::Catalog(model.to_string())),
        weight_format: Some(WeightFormat::Bf16),
        context,
        sequences: 1,
        ..ScenarioInput::default()
    };
    s.set_gpu(gpu);
    s
}

const LLAMA_8B: &str = "meta-llama/Llama-3.1-8B";
const LLAMA_1B: &str = "meta-llama/Llama-3.2-1B-Instruct";
const GEMMA_2_9B: &str = "google/gemma-2-9b-it";
const GRANITE_8B: &str = "ibm-granite/granite-3.1-8b-instruct";
const RTX_4090: &str = "NVIDIA GeForce RTX 4090";
const H100: &str = "NVIDIA H100 SXM5";
const A6000: &str = "NVIDIA RTX A6000";

/// Where `method`'s lesson starts.
pub fn start(method: MethodId) -> Request {
    let scenario = match method {
        MethodId::Quick | MethodId::Range | MethodId::Planner => on(LLAMA_8B, RTX_4090, 8_192),
        MethodId::Lesson => {
            let mut s = on(LLAMA_8B, RTX_4090, 4_096);
            s.set_capacity_gib(24.0);
            s
        }
        // As the measurement ran it: without a KV cache object.
        MethodId::Allocator => ScenarioInput {
            mode: Mode::Full,
            use_cache: false,
            ..on(LLAMA_1B, A6000, 2_048)
        },
        MethodId::Vllm => on_h100(LLAMA_8B),
        MethodId::Llamacpp => gguf_q4_k_m(),
    };
    Request::new(method, scenario)
}

/// `model` in BF16 on an H100 80GB at 8,192 tokens, utilization 0.95,
/// vLLM 0.19: the settings and release of the shipped start-up logs.
fn on_h100(model: &str) -> ScenarioInput {
    let mut s = on(model, H100, 8_192);
    s.engine.gpu_memory_utilization = Some(0.95);
    s.engine.vllm_version = Some(vramfit_core::scenario::VllmRelease::new(0, 19, 0));
    s
}

/// Llama 3.1 8B as GGUF Q4_K_M with 8,192 tokens on a 24 GB card.
fn gguf_q4_k_m() -> ScenarioInput {
    let mut s = on(LLAMA_8B, RTX_4090, 8_192);
    s.set_weight_format(WeightFormat::Q4KM);
    s
}

/// `method`'s prepared counterexample.
pub fn counterexample(method: MethodId) -> Counterexample {
    match method {
        // A dense formula on a model with sliding-window layers.
        MethodId::Quick => {
            let s = on(GEMMA_2_9B, RTX_4090, 8_192);
            Counterexample {
                assumed: Request::new(MethodId::Quick, s.clone()),
                broken: Request::new(MethodId::Range, s),
                at_stake: Some(Term::KvCache),
                logged: None,
            }
        }
        // GiB or GB: the source's own example against both readings of
        // "24".
        MethodId::Lesson => {
            let mut gb = lesson::seed_example();
            gb.gpu_memory_gb = 24.0;
            Counterexample {
                assumed: Request::new(MethodId::Lesson, lesson::seed_example()),
                broken: Request::new(MethodId::Lesson, gb),
                at_stake: None,
                logged: None,
            }
        }
        // Fine-tuning without gradient checkpointing.
        MethodId::Range => {
            let s = ScenarioInput {
                mode: Mode::Full,
                ..on(LLAMA_1B, A6000, 2_048)
            };
            Counterexample {
                assumed: Request::new(MethodId::Range, s.clone()),
                broken: Request::new(MethodId::Allocator, s),
                at_stake: Some(Term::Activations),
                logged: None,
            }
        }
        // An engine that prefills 8,192 tokens per step, not 2,048, on a
        // card the budget just fits.
        MethodId::Planner => {
            let s = on(LLAMA_8B, RTX_4090, 8_192);
            let mut wide = s.clone();
            wide.planner.prefill_budget_tokens = 8_192;
            Counterexample {
                assumed: Request::new(MethodId::Planner, s),
                broken: Request::new(MethodId::Planner, wide),
                at_stake: Some(Term::Activations),
                logged: None,
            }
        }
        // LoRA without a dropout in front of the adapters.
        MethodId::Allocator => {
            let s = ScenarioInput {
                mode: Mode::Lora,
                lora_dropout: true,
                ..on(LLAMA_1B, A6000, 2_048)
            };
            let without = ScenarioInput {
                lora_dropout: false,
                ..s.clone()
            };
            Counterexample {
                assumed: Request::new(MethodId::Allocator, s),
                broken: Request::new(MethodId::Allocator, without),
                at_stake: Some(Term::Activations),
                logged: None,
            }
        }
        // A measured constant on a model it was not measured on: vLLM's
        // own log beside the prediction.
        MethodId::Vllm => {
            let s = Request::new(MethodId::Vllm, on_h100(GRANITE_8B));
            Counterexample {
                assumed: s.clone(),
                broken: s,
                at_stake: Some(Term::NonTorch),
                logged: Logged::vllm(GRANITE_8B),
            }
        }
        // Bits per weight from the file type's name, against the recipe.
        MethodId::Llamacpp => {
            let s = gguf_q4_k_m();
            Counterexample {
                assumed: Request::new(MethodId::Range, s.clone()),
                broken: Request::new(MethodId::Llamacpp, s),
                at_stake: Some(Term::Weights),
                logged: None,
            }
        }
    }
}
