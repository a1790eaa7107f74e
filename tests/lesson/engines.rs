//! The engine methods' lessons: their terms against the engines' own
//! estimates, and their counterexamples against the figures shown.

use super::*;

/// The engine methods' terms, ready for the registry: every substituted
/// formula gives the engine estimate's own bytes.
#[wasm_bindgen_test]
fn the_engine_terms_give_the_engines_own_bytes() {
    use vramfit_app::lesson::formulas::engines::{self, LlamaCppPart, Num, VllmPart};
    use vramfit_app::lesson::symbols::Symbol;
    use vramfit_core::catalog::find_model;
    use vramfit_core::methods::{llamacpp, vllm};
    let n = Num(&Lang::En.t().number);
    let close = |text: &str, want: u64, what: &str| {
        let got = Eval::value(text);
        assert!(
            (got - want as f64).abs() <= 2.0,
            "{what}: {text} = {got}, the engine says {want}"
        );
    };
    let h100 = 7919 * (1u64 << 30) / 100;
    let releases = [vllm::VllmRelease::MEASURED, vllm::VllmRelease::NEWEST];
    for ((model, tp, pp), release) in [
        ("meta-llama/Llama-3.1-8B", 1, 1),
        ("meta-llama/Llama-3.1-8B", 2, 1),
        ("meta-llama/Llama-3.1-8B", 1, 2),
        ("Qwen/Qwen2.5-7B-Instruct", 1, 1),
        ("google/gemma-2-9b-it", 1, 1),
        ("deepseek-ai/DeepSeek-V2-Lite", 1, 1),
        ("mistralai/Mixtral-8x7B-Instruct-v0.1", 2, 1),
    ]
    .into_iter()
    .flat_map(|m| releases.map(|r| (m, r)))
    {
        let spec = find_model(model).unwrap().spec().unwrap();
        let inputs = vllm::VllmInputs {
            tp: tp as _,
            pp: pp as _,
            max_model_len: Some(8192),
            gpu_memory_utilization: vllm::Utilization(9500),
            release,
            ..vllm::VllmInputs::default()
        };
        let e = vllm::estimate(&vllm::VllmModel::from_spec(spec), h100, &inputs)
            .unwrap_or_else(|r| panic!("{model}: {r}"));
        for (part, want) in [
            (VllmPart::Weights, e.weights_bytes),
            (VllmPart::ActivationPeak, e.activation_peak_bytes),
            (VllmPart::NonTorch, e.non_torch_bytes),
            (VllmPart::KvCache, e.kv_cache_bytes),
            // From 0.20 the estimate set aside, before the capture after.
            (
                VllmPart::CudaGraphs,
                match e.ranks[0].graph_reserve_bytes {
                    0 => e.cuda_graph_bytes,
                    g => g,
                },
            ),
        ] {
            let (formula, _, numbers) = engines::vllm(part, &e, &inputs, &n).unwrap();
            assert!(formula.contains('='));
            close(
                &numbers.unwrap(),
                want,
                &format!("{model} tp{tp} pp{pp} {} {part:?}", release.text()),
            );
        }
    }
    for model in [
        "meta-llama/Llama-3.1-8B",
        "Qwen/Qwen2.5-7B-Instruct",
        "google/gemma-2-9b-it",
    ] {
        let spec = find_model(model).unwrap().spec().unwrap();
        let inputs = llamacpp::LlamaCppInputs {
            n_ctx: Some(8192),
            ..llamacpp::LlamaCppInputs::default()
        };
        let e = llamacpp::estimate(&spec, &inputs, Some(24 << 30)).unwrap();
        for (part, want) in [
            (LlamaCppPart::ModelSize, e.model_size_bytes),
            (LlamaCppPart::KCache, e.k_bytes),
            (LlamaCppPart::VCache, e.v_bytes),
            (LlamaCppPart::OutputBuffer, e.output_buffer_bytes),
        ] {
            let layers = (Symbol::Layers, spec.num_layers);
            let (formula, symbols, numbers) =
                engines::llamacpp(part, &e, &inputs, &spec, layers, &n);
            assert!(formula.contains('=') && !symbols.is_empty());
            match numbers {
                Some(text) => close(&text, want, &format!("{model} {part:?}")),
                // Sliding-window layers keep a second cache: described by
                // its symbols, not on one line.
                None => assert!(model.contains("gemma-2"), "{model} {part:?}"),
            }
        }
    }
}

/// The engine lessons' counterexamples quote the figures the page shows.
#[wasm_bindgen_test]
fn the_engine_counterexamples_quote_the_figures_shown() {
    use vramfit_app::i18n::format;
    let c = cases::counterexample(MethodId::Vllm);
    let a = c.assumed.run().unwrap();
    let Some(EngineReport::Vllm(v)) = &a.engine else {
        panic!("vLLM's figures");
    };
    let log = c.logged.unwrap();
    for lang in Lang::ALL {
        let n = &lang.t().number;
        let text = (lang.lesson().method)(MethodId::Vllm).counterexample;
        for tokens in [v.kv_cache_tokens, log.kv_cache_tokens] {
            let written = format::integer(n, tokens);
            assert!(text.contains(&written), "{lang:?}: {written} in {text}");
        }
    }
    let c = cases::counterexample(MethodId::Llamacpp);
    let (range, gguf) = (c.assumed.run().unwrap(), c.broken.run().unwrap());
    let Some(EngineReport::Llamacpp(e)) = &gguf.engine else {
        panic!("llama.cpp's figures");
    };
    let weights = range.components.get(Term::Weights).unwrap();
    for lang in Lang::ALL {
        let n = &lang.t().number;
        let text = (lang.lesson().method)(MethodId::Llamacpp).counterexample;
        for bytes in [weights, vramfit_core::units::Bytes(e.model_size_bytes)] {
            let written = format::bytes(n, vramfit_core::units::DisplayUnit::Gb, bytes);
            assert!(text.contains(&written), "{lang:?}: {written} in {text}");
        }
    }
}
