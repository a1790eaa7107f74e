//! The lesson's derivations against the core: every substituted formula
//! the lesson shows, evaluated, gives the term's bytes as the method
//! computes them (for each method, on real models of every kind the
//! methods read), and every symbol has a definition in every language.
#![cfg(target_arch = "wasm32")]

use vramfit_app::i18n::Lang;
use vramfit_app::lesson::cases;
use vramfit_app::lesson::formulas::{derive_all, Ctx, Derivation};
use vramfit_core::methods::engine::EngineReport;
use vramfit_core::methods::MethodId;
use vramfit_core::request::Request;
use vramfit_core::scenario::{AttnImpl, Mode, ModelRef, Precision, ScenarioInput, WeightFormat};
use vramfit_core::term::Term;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod claims;
mod engines;
mod eval;
mod terms;

use eval::Eval;

fn catalog(model: &str) -> ScenarioInput {
    ScenarioInput {
        model: Some(ModelRef::Catalog(model.into())),
        weight_format: Some(WeightFormat::Bf16),
        ..ScenarioInput::default()
    }
}

fn with(base: ScenarioInput, edit: impl FnOnce(&mut ScenarioInput)) -> ScenarioInput {
    let mut s = base;
    edit(&mut s);
    s
}

/// The derivations of `request`, in `lang`, with the core's result.
fn derived(
    request: &Request,
    lang: Lang,
) -> (Vec<Derivation>, vramfit_core::methods::MethodResult) {
    let scenario = request.scenario.validate().expect("a valid scenario");
    let result = request
        .run()
        .unwrap_or_else(|e| panic!("{request:?}: {e:?}"));
    let ctx = Ctx {
        s: &scenario,
        r: &result,
        n: &lang.t().number,
    };
    (derive_all(&ctx), result)
}

/// Every term shown has a formula, and its numbers give the core's bytes.
/// Returns how many terms it checked.
fn check(request: &Request) -> usize {
    let (rows, result) = derived(request, Lang::En);
    let shown: Vec<Term> = result
        .components
        .0
        .iter()
        .filter(|c| c.bytes.get() > 0 || result.outside_total.contains(&c.term))
        .map(|c| c.term)
        .collect();
    let derived_terms: Vec<Term> = rows.iter().map(|r| r.term).collect();
    assert_eq!(
        derived_terms, shown,
        "{request:?}: every term shown is derived"
    );
    for row in &rows {
        assert!(row.formula.contains('='), "{:?}: {}", row.term, row.formula);
        let want = result.components.get(row.term).unwrap().get() as f64;
        let Some(text) = &row.substituted else {
            panic!("{:?} of {:?} has no numbers", row.term, request.method);
        };
        let got = Eval::value(text);
        assert!(
            (got - want).abs() <= 2.0 + want * 1e-12,
            "{:?} {:?}: {text} = {got}, the core says {want}",
            request.method,
            row.term
        );
    }
    rows.len()
}

fn requests() -> Vec<Request> {
    let llama = catalog("meta-llama/Llama-3.1-8B");
    let small = catalog("meta-llama/Llama-3.2-1B-Instruct");
    let mut out = Vec::new();
    for method in MethodId::ALL {
        out.push(cases::start(method));
        let c = cases::counterexample(method);
        out.extend([c.assumed, c.broken]);
    }
    let h100 = |model: &str| {
        let mut s = catalog(model);
        s.set_gpu("NVIDIA H100 SXM5");
        s
    };
    let rtx = |model: &str| {
        let mut s = catalog(model);
        s.set_gpu("NVIDIA GeForce RTX 4090");
        s.set_weight_format(WeightFormat::Q4KM);
        s
    };
    out.extend([
        // vllm: tensor and pipeline parallel, latent attention, sliding
        // windows, several requests.
        Request::new(
            MethodId::Vllm,
            with(h100("meta-llama/Llama-3.1-8B"), |s| {
                s.gpus = 2;
                s.tp = Some(2);
                s.sequences = 8;
            }),
        ),
        Request::new(
            MethodId::Vllm,
            with(h100("meta-llama/Llama-3.1-8B"), |s| {
                s.gpus = 2;
                s.pp = Some(2);
            }),
        ),
        Request::new(MethodId::Vllm, h100("deepseek-ai/DeepSeek-V2-Lite")),
        Request::new(MethodId::Vllm, h100("google/gemma-2-9b-it")),
        // llamacpp: part of the layers on the GPU, experts, f32 head.
        Request::new(
            MethodId::Llamacpp,
            with(rtx("meta-llama/Llama-3.1-8B"), |s| {
                s.engine.n_gpu_layers = Some(10);
                s.context = 16_384;
            }),
        ),
        Request::new(MethodId::Llamacpp, rtx("Qwen/Qwen3-30B-A3B")),
        Request::new(
            MethodId::Llamacpp,
            with(rtx("Qwen/Qwen2.5-7B-Instruct"), |s| s.sequences = 4),
        ),
    ]);
    out.extend([
        Request::default(),
        Request::new(
            MethodId::Lesson,
            ScenarioInput {
                mode: Mode::Full,
                ..ScenarioInput::default()
            },
        ),
        Request::new(
            MethodId::Quick,
            with(llama.clone(), |s| s.set_weight_format(WeightFormat::Q4KM)),
        ),
        // range: formats, splits, windows, latent attention, training.
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| s.set_weight_format(WeightFormat::Q4KM)),
        ),
        Request::new(MethodId::Range, with(llama.clone(), |s| s.gpus = 3)),
        Request::new(
            MethodId::Range,
            with(catalog("openai/gpt-oss-20b"), |s| {
                s.set_weight_format(WeightFormat::AsPublished);
                s.context = 65_536;
            }),
        ),
        Request::new(MethodId::Range, catalog("deepseek-ai/DeepSeek-V2-Lite")),
        Request::new(
            MethodId::Range,
            with(catalog("google/gemma-3-4b-it"), |s| s.sequences = 3),
        ),
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| {
                s.mode = Mode::Full;
                s.gpus = 8;
            }),
        ),
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| s.mode = Mode::Lora),
        ),
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| {
                s.mode = Mode::Qlora;
                s.sequences = 2;
            }),
        ),
        // planner: quantized, TP/PP, users, prefix, windows, latent, training, offload, scores.
        Request::new(
            MethodId::Planner,
            with(catalog("Qwen/Qwen2.5-7B"), |s| {
                s.set_weight_format(WeightFormat::Awq)
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.gpus = 4;
                s.tp = Some(2);
                s.pp = Some(2);
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                // Eight copies of the model, the engine's batch limit.
                s.gpus = 8;
                s.tp = Some(1);
                s.sequences = 100;
                s.planner.batch_limit = Some(8);
                s.context = 4_096;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.sequences = 4;
                s.context = 4_096;
                s.planner.shared_prefix_tokens = 1_000;
            }),
        ),
        Request::new(MethodId::Planner, catalog("google/gemma-2-9b-it")),
        Request::new(
            MethodId::Planner,
            with(catalog("google/gemma-2-9b-it"), |s| {
                s.gpus = 2;
                s.pp = Some(2);
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(catalog("deepseek-ai/DeepSeek-V2-Lite"), |s| {
                s.gpus = 2;
                s.tp = Some(2);
                s.context = 4_096;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.mode = Mode::Full;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.mode = Mode::Lora;
                s.context = 2_048;
                s.gpus = 2;
                s.tp = Some(2);
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.mode = Mode::Qlora;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.host_ram_gb = 64.0;
                s.planner.offload_gb = 5.0;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.planner.efficient_attention = false;
                s.context = 2_048;
                s.sequences = 2;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(ScenarioInput::default(), |s| {
                s.planner.hidden_size = Some(4_096);
                s.planner.vocab_size = Some(128_000);
                s.planner.fp32_params_b = 0.5;
            }),
        ),
        // allocator: inference (sdpa, eager), amp, LoRA, checkpointing.
        Request::new(MethodId::Allocator, small.clone()),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.attn = AttnImpl::Eager;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(catalog("google/gemma-2-2b-it"), |s| s.context = 1_024),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.precision = Precision::Amp;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.grad_checkpoint = true;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.grad_checkpoint = true;
                s.precision = Precision::Amp;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Lora;
                s.grad_checkpoint = true;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Lora;
                s.grad_checkpoint = true;
                s.precision = Precision::Amp;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Lora;
                s.precision = Precision::Amp;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(catalog("Qwen/Qwen3-0.6B"), |s| {
                s.mode = Mode::Full;
                s.context = 1_024;
            }),
        ),
        // The allocator without a KV cache object (use_cache=False): the
        // masked sdpa path, a length that pads the mask; a tied head's two
        // gradient phases on short sequences.
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.use_cache = false;
                s.context = 2_048;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Lora;
                s.use_cache = false;
                s.lora_dropout = false;
                s.context = 1_000;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.context = 64;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.mode = Mode::Full;
                s.precision = Precision::Amp;
                s.use_cache = false;
                s.context = 64;
            }),
        ),
        Request::new(
            MethodId::Allocator,
            with(small.clone(), |s| {
                s.set_weight_format(WeightFormat::AsPublished)
            }),
        ),
        // As published (a real model's default on the page), and layouts
        // with several copies of the model.
        Request::new(
            MethodId::Quick,
            with(catalog("openai/gpt-oss-20b"), |s| {
                s.set_weight_format(WeightFormat::AsPublished)
            }),
        ),
        Request::new(
            MethodId::Lesson,
            with(llama.clone(), |s| {
                s.set_weight_format(WeightFormat::AsPublished)
            }),
        ),
        Request::new(
            MethodId::Quick,
            with(llama.clone(), |s| {
                s.gpus = 2;
                s.tp = Some(1);
                s.sequences = 3;
            }),
        ),
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| {
                s.gpus = 4;
                s.tp = Some(2);
                s.sequences = 5;
            }),
        ),
        Request::new(
            MethodId::Range,
            with(llama.clone(), |s| {
                s.mode = Mode::Lora;
                s.gpus = 4;
                s.tp = Some(2);
                s.sequences = 5;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(catalog("openai/gpt-oss-20b"), |s| {
                s.set_weight_format(WeightFormat::AsPublished)
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(catalog("openai/gpt-oss-20b"), |s| {
                s.set_weight_format(WeightFormat::AsPublished);
                s.gpus = 4;
                s.tp = Some(2);
                s.pp = Some(2);
                s.host_ram_gb = 64.0;
                s.planner.offload_gb = 1.0;
            }),
        ),
        Request::new(
            MethodId::Planner,
            with(llama.clone(), |s| {
                s.mode = Mode::Full;
                s.gpus = 4;
                s.tp = Some(2);
                s.sequences = 6;
                s.context = 2_048;
            }),
        ),
    ]);
    out
}

#[wasm_bindgen_test]
fn every_substituted_formula_gives_the_cores_bytes() {
    let mut terms = 0;
    for request in requests() {
        terms += check(&request);
    }
    // Every method, on dozens of scenarios: hundreds of terms.
    assert!(terms > 200, "{terms} terms checked");
    // The evaluator itself reads what the lesson writes.
    assert_eq!(
        Eval::value("⌈(1,000 + 7) / 2⌉ + min(3; 2.5) × 2² − ⌊7 / 2⌋"),
        504.0 + 2.5 * 4.0 - 3.0
    );
}

/// The requests reach the allocator's phases that trust's derivation
/// added (a tied head's gradient held, the embedding's backward) and its
/// masked attention, so the check above covers them.
#[wasm_bindgen_test]
fn the_requests_reach_the_allocators_tied_head_and_masked_attention() {
    use vramfit_core::methods::allocator::{self, DenseArch, Phase};
    let mut phases = Vec::new();
    let mut masked = 0;
    for request in requests() {
        if request.method != MethodId::Allocator {
            continue;
        }
        let s = request.scenario.validate().unwrap();
        let arch = DenseArch::from_spec(s.model.as_deref().unwrap()).unwrap();
        let inputs = allocator::inputs_of(&s).unwrap();
        // The passes' own peak, as the lesson reads it (no optimizer
        // temporary).
        let passes = allocator::AllocatorInputs {
            optimizer: vramfit_core::scenario::Optimizer::Sgd,
            ..inputs
        };
        phases.push(allocator::estimate(&arch, &passes).peak_phase);
        if allocator::masked_sdpa_per_layer(&arch, &inputs) > 0 {
            masked += 1;
        }
    }
    for phase in [Phase::HeadGradient, Phase::EmbeddingBackward] {
        assert!(phases.contains(&phase), "{phase:?} in {phases:?}");
    }
    assert!(masked >= 2, "{masked} requests with a masked sdpa");
}

#[wasm_bindgen_test]
fn every_symbol_shown_is_defined_in_every_language() {
    for request in requests() {
        for lang in Lang::ALL {
            let (rows, _) = derived(&request, lang);
            for row in rows {
                for (symbol, value) in &row.symbols {
                    let definition = (lang.lesson().symbol)(*symbol);
                    assert!(definition.chars().count() > 5, "{lang:?} {symbol:?}");
                    assert!(!value.is_empty(), "{symbol:?} has a value");
                }
            }
        }
    }
}

#[wasm_bindgen_test]
fn every_prepared_case_runs_and_shows_the_difference_it_is_about() {
    for method in MethodId::ALL {
        let start = cases::start(method);
        assert_eq!(start.method, method);
        assert!(
            start.run().is_ok(),
            "{method:?} starts on a scenario it estimates"
        );
        assert!(
            start.scenario.model.is_some(),
            "{method:?} starts on a real model"
        );
        let c = cases::counterexample(method);
        let (a, b) = (c.assumed.run().unwrap(), c.broken.run().unwrap());
        if let Some(log) = &c.logged {
            // Set against the engine's own log: the term at stake differs
            // from the prediction, and the log is the same scenario's.
            assert_eq!(c.assumed, c.broken);
            let term = c.at_stake.expect("a logged case names its term");
            let logged = log.terms.iter().find(|(t, _)| *t == term).unwrap().1;
            assert_ne!(a.components.get(term), Some(logged), "{method:?}: {term:?}");
            let Some(EngineReport::Vllm(v)) = &a.engine else {
                panic!("{method:?}: an engine's figures");
            };
            assert_ne!(v.kv_cache_tokens, log.kv_cache_tokens);
            continue;
        }
        match c.at_stake {
            Some(term) => assert_ne!(
                a.components.get(term),
                b.components.get(term),
                "{method:?}: {term:?} differs"
            ),
            None => assert_ne!(
                a.verdict.status, b.verdict.status,
                "{method:?}: the verdict differs"
            ),
        }
    }
}

/// The methodology pages the lesson shows: read by its Markdown reader,
/// every link to another page opens that page in the lesson, nothing links
/// into the repository, and every source is named (no "seed 002").
#[wasm_bindgen_test]
fn the_methodology_pages_read_safely_and_link_only_within_the_lesson() {
    use vramfit_app::lesson::markdown::{inline, parse, plain_text, Block, Inline, Target};
    use vramfit_app::lesson::methodology::Doc;
    let pages = [
        (Doc::Methodology, include_str!("../../docs/methodology.md")),
        (Doc::Range, include_str!("../../docs/methods/range.md")),
        (Doc::Planner, include_str!("../../docs/methods/planner.md")),
        (
            Doc::Allocator,
            include_str!("../../docs/allocator-derivation.md"),
        ),
        (Doc::Vllm, include_str!("../../docs/methods/vllm.md")),
        (
            Doc::Llamacpp,
            include_str!("../../docs/methods/llamacpp.md"),
        ),
    ];
    fn links(runs: &[Inline], out: &mut Vec<Target>) {
        for r in runs {
            match r {
                Inline::Link { text, target } => {
                    out.push(target.clone());
                    links(text, out);
                }
                Inline::Strong(inner) | Inline::Emphasis(inner) => links(inner, out),
                Inline::Text(_) | Inline::Code(_) => {}
            }
        }
    }
    let mut page_links = 0;
    for (doc, text) in pages {
        assert!(Doc::ALL.contains(&doc));
        let blocks = parse(text);
        assert!(
            matches!(blocks.first(), Some(Block::Heading(1, _))),
            "{doc:?} opens with its title"
        );
        let mut targets = Vec::new();
        let mut tables = 0;
        let mut all_text = String::new();
        for b in &blocks {
            let runs: Vec<&Vec<Inline>> = match b {
                Block::Heading(_, r) | Block::Paragraph(r) => vec![r],
                Block::List { items, .. } => items.iter().collect(),
                Block::Quote(ps) => ps.iter().collect(),
                Block::Table { head, rows } => {
                    tables += 1;
                    head.iter().chain(rows.iter().flatten()).collect()
                }
                Block::Code(code) => {
                    all_text.push_str(code);
                    vec![]
                }
            };
            for r in runs {
                links(r, &mut targets);
                all_text.push_str(&plain_text(r));
            }
        }
        assert!(tables > 0, "{doc:?} has its tables");
        for t in &targets {
            match t {
                Target::Page(file) => {
                    page_links += 1;
                    assert!(
                        Doc::from_file(file).is_some(),
                        "{doc:?}: {file} is a page of the lesson"
                    );
                }
                Target::Web(url) => assert!(url.starts_with("https://"), "{url}"),
                Target::None => {}
            }
        }
        let lower = all_text.to_lowercase();
        assert!(!lower.contains("seed 0"), "{doc:?} names its sources");
    }
    assert!(page_links >= 3, "the overview links the method pages");
    // HTML in a page stays text.
    assert_eq!(
        inline("<script>alert(1)</script> and [x](../../src/lib.rs)"),
        vec![
            Inline::Text("<script>alert(1)</script> and ".into()),
            Inline::Link {
                text: vec![Inline::Text("x".into())],
                target: Target::None
            }
        ]
    );
}
