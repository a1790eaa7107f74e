//! The two engine methods on scenarios, as the registry, the report and
//! the front ends run them: what the ring compares, the engine's own
//! figures, the command lines, and the refusals.

use vramfit_core::gguf::{FileType, GgmlType};
use vramfit_core::methods::engine::{EngineNote, EngineRefusal, EngineReport};
use vramfit_core::methods::vllm::{StartErrorKind, VllmRelease};
use vramfit_core::methods::{self, MethodId, MethodResult, Refusal};
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{
    LayoutError, Mode, ModelRef, ScenarioError, ScenarioInput, WeightFormat,
};
use vramfit_core::term::Term;
use vramfit_core::units::GIB;
use vramfit_core::verdict::FitStatus;

fn on(model: &str, f: impl FnOnce(&mut ScenarioInput)) -> ScenarioInput {
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog(model.into())),
        ..ScenarioInput::default()
    };
    f(&mut input);
    input
}

fn run(method: MethodId, input: &ScenarioInput) -> Result<MethodResult, Refusal> {
    methods::run(method, &input.validate().expect("a valid scenario")).map_err(|e| e.reason)
}

fn vllm_report(r: &MethodResult) -> &vramfit_core::methods::engine::VllmReport {
    match r.engine.as_ref() {
        Some(EngineReport::Vllm(v)) => v,
        other => panic!("no vLLM figures: {other:?}"),
    }
}

fn llamacpp_report(r: &MethodResult) -> &vramfit_core::methods::engine::LlamacppReport {
    match r.engine.as_ref() {
        Some(EngineReport::Llamacpp(l)) => l,
        other => panic!("no llama.cpp figures: {other:?}"),
    }
}

/// Llama-3.1-8B-Instruct on an H100 80GB at 0.95, as in the vLLM 0.19 log
/// (`data/engines/vllm-0.19-h100.csv`: 58.11 GiB, 476,000 tokens, 58.11×).
#[test]
fn vllm_reads_the_scenario_as_vllm_serve() {
    let input = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_capacity_gib(79.19);
        i.engine.vllm_version = Some(VllmRelease::new(0, 19, 0));
        i.engine.gpu_memory_utilization = Some(0.95);
        i.engine.max_num_batched_tokens = Some(8192);
        i.engine.max_num_seqs = Some(1024);
        i.context = 8192;
    });
    let r = run(MethodId::Vllm, &input).unwrap();
    let v = vllm_report(&r);
    let tokens_err = (v.kv_cache_tokens as f64 / 476_000.0 - 1.0).abs();
    assert!(tokens_err < 0.03, "{} tokens", v.kv_cache_tokens);
    assert!((v.kv_cache_bytes as f64 / GIB as f64 - 58.11).abs() < 0.5);
    assert!(
        (v.max_concurrency - 58.11).abs() < 0.6,
        "{}",
        v.max_concurrency
    );
    assert!(v.start_error.is_none());
    assert_eq!(
        v.command,
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 \
         --gpu-memory-utilization 0.95 --max-num-batched-tokens 8192 --max-num-seqs 1024"
    );
    // The ring: requested memory against what one request of 8,192
    // tokens needs besides the weights, peak and non-torch memory.
    assert_eq!(
        r.verdict.usable_bytes.get(),
        (79.19 * GIB as f64 * 0.95).ceil() as u64
    );
    let c = &r.components;
    let kv = c.get(Term::KvCache).unwrap().get();
    assert_eq!(kv, 8192 * 32 * 8 * 128 * 2 * 2);
    let sum = [
        Term::Weights,
        Term::ActivationPeak,
        Term::NonTorch,
        Term::KvCache,
    ]
    .iter()
    .map(|t| c.get(*t).unwrap().get())
    .sum::<u64>();
    assert_eq!(r.total_bytes.get(), sum);
    assert_eq!(r.outside_total, [Term::CudaGraphs]);
    assert_eq!(r.verdict.status, FitStatus::Roomy);
    // Four sequences at once need four times the cache.
    let four = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.sequences = 4;
        i.set_capacity_gib(79.19);
    });
    let r4 = run(MethodId::Vllm, &four).unwrap();
    assert_eq!(r4.components.get(Term::KvCache).unwrap().get(), 4 * kv);
}

/// With no release named, a scenario runs the newest release read, at its
/// own utilization default (0.92 from 0.20), and the CUDA-graph estimate
/// it sets aside before the KV cache counts in the total.
#[test]
fn a_scenario_without_a_release_runs_the_newest_at_its_defaults() {
    let input = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_capacity_gib(79.19);
        i.context = 8192;
    });
    assert_eq!(input.engine.gpu_memory_utilization, None);
    let r = run(MethodId::Vllm, &input).unwrap();
    let v = vllm_report(&r);
    assert_eq!(v.vllm_version, VllmRelease::NEWEST);
    assert_eq!(v.gpu_memory_utilization, 0.92);
    assert!(
        !v.command.contains("--gpu-memory-utilization"),
        "{}",
        v.command
    );
    assert_eq!(
        r.verdict.usable_bytes.get(),
        (79.19 * GIB as f64 * 0.92).ceil() as u64
    );
    assert!(r.outside_total.is_empty());
    let graphs = r.components.get(Term::CudaGraphs).unwrap().get();
    assert_eq!(graphs, v.graph_reserve_bytes);
    assert!(graphs > 0);
    // A utilization typed stays, whatever the release; one equal to the
    // release's default leaves the flag out of the command.
    let typed = |u: f64, release: VllmRelease| {
        let mut i = input.clone();
        i.engine.gpu_memory_utilization = Some(u);
        i.engine.vllm_version = Some(release);
        vllm_report(&run(MethodId::Vllm, &i).unwrap()).clone()
    };
    let old = VllmRelease::new(0, 19, 0);
    assert_eq!(typed(0.9, VllmRelease::NEWEST).gpu_memory_utilization, 0.9);
    assert!(typed(0.9, VllmRelease::NEWEST)
        .command
        .ends_with("--gpu-memory-utilization 0.9"));
    assert!(!typed(0.9, old).command.contains("--gpu-memory"));
    assert!(typed(0.92, old)
        .command
        .ends_with("--gpu-memory-utilization 0.92"));
    // Not typed, 0.19 runs at its own 0.9.
    let mut i = input.clone();
    i.engine.vllm_version = Some(old);
    assert_eq!(
        vllm_report(&run(MethodId::Vllm, &i).unwrap()).gpu_memory_utilization,
        0.9
    );
}

/// vLLM 0.27 on counts everything consumed since start-up against the KV
/// cache (`KvBudget::FreeMemoryConsumed`); the estimate counts as 0.26
/// does and says so. Llama-3.1-8B-Instruct on an H100 80GB: 0.26.0 and
/// 0.33.0 share every other fact an H100 reads (0.92, (8192, 1024), the
/// graph estimate set aside), so their figures are the same bytes, and
/// only the newer release carries the note.
#[test]
fn from_0_27_the_estimate_says_it_counts_as_0_26_does() {
    let at = |release: VllmRelease| {
        let input = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
            i.set_capacity_gib(79.19);
            i.context = 8192;
            i.engine.vllm_version = Some(release);
        });
        vllm_report(&run(MethodId::Vllm, &input).unwrap()).clone()
    };
    let (old, new) = (at(VllmRelease::new(0, 26, 0)), at(VllmRelease::NEWEST));
    let note = EngineNote::VllmConsumedMemoryNotModelled;
    assert!(!old.notes.contains(&note), "{:?}", old.notes);
    assert!(new.notes.contains(&note), "{:?}", new.notes);
    assert!(at(VllmRelease::new(0, 27, 0)).notes.contains(&note));
    assert_eq!(new.kv_cache_bytes, old.kv_cache_bytes);
    assert_eq!(new.non_torch_bytes, old.non_torch_bytes);
    assert_eq!(new.activation_peak_bytes, old.activation_peak_bytes);
    assert!(new.kv_cache_bytes > 50 * GIB, "{}", new.kv_cache_bytes);
}

#[test]
fn vllm_says_when_it_would_not_start() {
    // Qwen2.5-72B on one 48 GB card: the weights alone do not fit.
    let input = on("Qwen/Qwen2.5-72B-Instruct", |i| i.gpu_memory_gb = 48.0);
    let r = run(MethodId::Vllm, &input).unwrap();
    let v = vllm_report(&r);
    assert_eq!(
        v.start_error.as_ref().map(|e| e.kind),
        Some(StartErrorKind::WeightsDoNotFit)
    );
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
    // Llama-3.1-8B on a 24 GB card at its full 131,072 tokens: starts
    // with less, and says what does.
    let long = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.context = 131_072;
        i.set_gpu("RTX 4090");
    });
    let r = run(MethodId::Vllm, &long).unwrap();
    let v = vllm_report(&r);
    let e = v.start_error.as_ref().unwrap();
    assert_eq!(e.kind, StartErrorKind::ContextDoesNotFit);
    assert!(e.message.contains(&format!(
        "the estimated maximum model length is {}",
        v.max_model_len_fits
    )));
    assert!(v.notes.contains(&EngineNote::DriverTotalUsed));
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
}

#[test]
fn vllm_takes_the_gpu_from_the_catalog() {
    let input = on("Qwen/Qwen2.5-7B-Instruct", |i| i.set_gpu("H100 SXM"));
    let r = run(MethodId::Vllm, &input).unwrap();
    let v = vllm_report(&r);
    assert_eq!(v.gpu_total_bytes, 85_029_158_912);
    // The newest release's accounting is the only thing it notes.
    assert_eq!(v.notes, [EngineNote::VllmConsumedMemoryNotModelled]);
    let a10 = on("Qwen/Qwen2.5-7B-Instruct", |i| i.set_gpu("A10"));
    let v10 = run(MethodId::Vllm, &a10).unwrap();
    // Not Hopper: the smaller cuBLAS workspace; and smaller batch defaults.
    assert!(vllm_report(&v10).activation_peak_bytes < v.activation_peak_bytes);
}

#[test]
fn vllm_loads_the_checkpoint_a_dtype_or_fp8_online() {
    let fp8 = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_weight_format(WeightFormat::Fp8)
    });
    let bf16 = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_weight_format(WeightFormat::Bf16)
    });
    let w = |i: &ScenarioInput| vllm_report(&run(MethodId::Vllm, i).unwrap()).weights_bytes;
    assert!(w(&fp8) < w(&bf16) * 6 / 10);
    let command = vllm_report(&run(MethodId::Vllm, &fp8).unwrap())
        .command
        .clone();
    assert!(command.ends_with("--quantization fp8"), "{command}");
    // An FP8 checkpoint named FP8 is the checkpoint as published.
    let published = on("Qwen/Qwen3-32B-FP8", |i| {
        i.set_weight_format(WeightFormat::Fp8)
    });
    let c = vllm_report(&run(MethodId::Vllm, &published).unwrap())
        .command
        .clone();
    assert!(!c.contains("--quantization"), "{c}");
    let awq = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_weight_format(WeightFormat::Awq)
    });
    // vLLM loads AWQ checkpoints; it does not make one of a BF16 model.
    assert_eq!(
        run(MethodId::Vllm, &awq).unwrap_err(),
        Refusal::Engine(EngineRefusal::LoadsButDoesNotQuantize {
            format: WeightFormat::Awq
        })
    );
    let q4 = on("meta-llama/Llama-3.1-8B-Instruct", |i| {
        i.set_weight_format(WeightFormat::Q4KM)
    });
    assert_eq!(
        run(MethodId::Vllm, &q4).unwrap_err(),
        Refusal::Engine(EngineRefusal::Format {
            format: WeightFormat::Q4KM
        })
    );
}

#[test]
fn vllm_refusals_are_typed() {
    let refusal = |f: &dyn Fn(&mut ScenarioInput)| {
        let input = on("meta-llama/Llama-3.1-8B-Instruct", f);
        run(MethodId::Vllm, &input).unwrap_err()
    };
    assert_eq!(refusal(&|i| i.mode = Mode::Lora), Refusal::Mode(Mode::Lora));
    assert_eq!(
        refusal(&|i| i.context = 200_000),
        Refusal::Engine(EngineRefusal::ContextAboveModel {
            context: 200_000,
            max: 131_072
        })
    );
    // TP that does not split the heads, or GPUs that TP × PP does not
    // divide, are the scenario's layout errors before vLLM is asked.
    let layout_error = |f: &dyn Fn(&mut ScenarioInput)| {
        let input = on("meta-llama/Llama-3.1-8B-Instruct", f);
        input.validate().unwrap_err()
    };
    assert!(layout_error(&|i| {
        i.gpus = 3;
        i.tp = Some(3);
    })
    .iter()
    .any(|e| matches!(e, ScenarioError::Layout(LayoutError::Heads { tp: 3, .. }))));
    assert!(layout_error(&|i| i.tp = Some(2))
        .iter()
        .any(|e| matches!(e, ScenarioError::Layout(LayoutError::NotDivisible { .. }))));
    assert_eq!(
        run(MethodId::Vllm, &ScenarioInput::default()).unwrap_err(),
        Refusal::NeedsModel
    );
}

/// Llama-3.1-8B Q4_K_M: llama.cpp prints "4.58 GiB" (4,912,898,304 bytes)
/// and, at 8,192 cells in f16, K = V = 512 MiB.
#[test]
fn llamacpp_reads_the_scenario_as_llama_server() {
    let input = on("meta-llama/Llama-3.1-8B", |i| {
        i.set_weight_format(WeightFormat::Q4KM);
        i.set_gpu("RTX 4090");
    });
    let r = run(MethodId::Llamacpp, &input).unwrap();
    let l = llamacpp_report(&r);
    assert_eq!(l.model_size_bytes, 4_912_898_304);
    assert_eq!(l.k_bytes, 8192 * 32 * 8 * 128 * 2);
    assert_eq!(l.v_bytes, l.k_bytes);
    assert_eq!((l.gpu_layers, l.layers_total), (33, 33));
    assert_eq!(l.file_type, FileType::Q4_K_M);
    assert_eq!(
        l.command,
        "llama-server -m Llama-3.1-8B-Q4_K_M.gguf -c 8192 -ngl 33 -ctk f16 -ctv f16 -fa on -np 1"
    );
    assert_eq!(r.total_bytes.get(), l.gpu_bytes);
    assert_eq!(r.verdict.usable_bytes.get(), (24_564 << 20) - GIB);
    assert_eq!(r.outside_total, [Term::OutputBuffer, Term::HostPart]);
    let gpu_terms = [
        Term::Weights,
        Term::KCache,
        Term::VCache,
        Term::ComputeBuffer,
    ];
    let sum: u64 = gpu_terms
        .iter()
        .map(|t| r.components.get(*t).unwrap().get())
        .sum();
    assert_eq!(sum, l.gpu_bytes);
}

#[test]
fn llamacpp_splits_layers_between_gpu_and_host() {
    // Llama-3.1-70B Q4_K_M does not fit a 24 GB card: auto offloads what
    // does not fit, and the ring is that plan's GPU side; its host side is
    // checked against the host RAM (32 GB assumed where none is given).
    let auto = on("meta-llama/Llama-3.1-70B", |i| {
        i.set_weight_format(WeightFormat::Q4KM);
        i.set_gpu("RTX 4090");
    });
    let r = run(MethodId::Llamacpp, &auto).unwrap();
    let l = llamacpp_report(&r);
    assert!(l.gpu_layers > 0 && l.gpu_layers < l.layers_total);
    assert_eq!(l.max_gpu_layers, l.gpu_layers);
    assert!(l.host_bytes > 15 * GIB);
    assert_eq!(r.total_bytes.get(), l.gpu_bytes);
    assert_ne!(r.verdict.status, FitStatus::DoesNotFit);
    assert!(l.plan.host_ram_assumed && l.plan.host_short_by_bytes == 0);
    assert_eq!(l.plan.host_layers, l.layers_total - l.gpu_layers);
    assert!(l.command.contains(&format!("-ngl {}", l.gpu_layers)));
    // 16 GB of host RAM do not hold the host side: one verdict, short by
    // the host memory missing.
    let mut small_host = auto.clone();
    small_host.host_ram_gb = 16.0;
    let rs = run(MethodId::Llamacpp, &small_host).unwrap();
    let ls = llamacpp_report(&rs);
    assert_eq!(rs.verdict.status, FitStatus::DoesNotFit);
    assert_eq!(ls.plan.host_short_by_bytes, ls.host_bytes - 16_000_000_000);
    assert_eq!(rs.verdict.short_by_bytes.get(), ls.plan.host_short_by_bytes);
    // -ngl 20 given: the ring is that split.
    let mut twenty = auto.clone();
    twenty.engine.n_gpu_layers = Some(20);
    let r20 = run(MethodId::Llamacpp, &twenty).unwrap();
    let l20 = llamacpp_report(&r20);
    assert_eq!(l20.gpu_layers, 20);
    assert_eq!(r20.total_bytes.get(), l20.gpu_bytes);
    assert!(r20.components.get(Term::HostPart).unwrap().get() > 20 * GIB);
}

#[test]
fn on_unified_memory_the_host_and_the_gpu_share_one_memory() {
    // Qwen3-32B Q8_0 on an M3 Pro with 36 GB, -ngl 40 of 65, 16,384 tokens:
    // the GPU side fits Metal's 27 GB share and the host side would fit a
    // separate 32 GB host, but both come out of the same 36 GB.
    let mac = on("Qwen/Qwen3-32B", |i| {
        i.set_weight_format(WeightFormat::Q8_0);
        i.set_gpu("Apple M3 Pro (36GB)");
        i.context = 16_384;
        i.engine.n_gpu_layers = Some(40);
    });
    let r = run(MethodId::Llamacpp, &mac).unwrap();
    let l = llamacpp_report(&r);
    let p = &l.plan;
    assert!(p.unified_memory && !p.host_ram_assumed);
    assert_eq!(p.host_ram_bytes, 36 * GIB);
    assert_eq!(p.host_needed_bytes, l.host_bytes + l.gpu_bytes);
    assert!(l.host_bytes < 32_000_000_000 && l.gpu_bytes < 27 * GIB);
    assert_eq!(p.host_short_by_bytes, p.host_needed_bytes - 36 * GIB);
    assert!(p.host_short_by_bytes > 0);
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
    // A separate host of 32 GB (an RTX 4090 beside it) holds the same host side.
    let mut pc = mac.clone();
    pc.set_gpu("RTX 4090");
    let lp = run(MethodId::Llamacpp, &pc).unwrap();
    let lp = llamacpp_report(&lp);
    assert!(!lp.plan.unified_memory);
    assert_eq!(lp.plan.host_needed_bytes, lp.host_bytes);
    assert_eq!(lp.plan.host_short_by_bytes, 0);
    // Fewer layers on the GPU do not help: the sum stays above 36 GB.
    let mut fewer = mac.clone();
    fewer.engine.n_gpu_layers = Some(20);
    let rf = run(MethodId::Llamacpp, &fewer).unwrap();
    assert!(llamacpp_report(&rf).plan.host_short_by_bytes > 0);
}

#[test]
fn llamacpp_on_unified_memory_counts_the_gpu_side_against_the_same_memory() {
    // Qwen3-30B-A3B Q4_K_M (17.28 GiB) on an 8 GB M1: the GPU's share
    // (Metal's wired limit) holds 10 of 49 layers; the host side is what
    // the GPU side leaves of the same 8 GB, not a desktop's 32 GB of RAM:
    // it does not fit, and the M1 is no answer to "smallest GPU".
    let m1 = on("Qwen/Qwen3-30B-A3B", |i| {
        i.set_weight_format(WeightFormat::Q4KM);
        i.set_gpu("Apple M1 (8GB)");
    });
    let r = run(MethodId::Llamacpp, &m1).unwrap();
    let l = llamacpp_report(&r);
    assert_eq!((l.gpu_layers, l.layers_total), (10, 49));
    let machine = 8 * GIB;
    assert!(l.plan.unified_memory && !l.plan.host_ram_assumed);
    assert_eq!(l.plan.host_ram_bytes, machine);
    assert_eq!(l.plan.host_needed_bytes, l.gpu_bytes + l.host_bytes);
    assert_eq!(
        l.plan.host_short_by_bytes,
        l.plan.host_needed_bytes - l.plan.host_ram_bytes
    );
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
    // A 64 GB M4 Max holds it all, the GPU side within its share.
    let mut max = m1.clone();
    max.set_gpu("Apple M4 Max (64GB)");
    let r = run(MethodId::Llamacpp, &max).unwrap();
    assert_ne!(r.verdict.status, FitStatus::DoesNotFit);
    let a = vramfit_core::advice::answers(MethodId::Llamacpp, &m1.validate().unwrap());
    let smallest = a.smallest_gpu.unwrap();
    assert!(!smallest.contains("(8GB)"), "{smallest}");
}

#[test]
fn llamacpp_takes_gguf_and_cache_types() {
    let input = on("meta-llama/Llama-3.1-8B", |i| {
        i.set_gguf_type(FileType::IQ4_XS);
        i.engine.cache_type_k = Some(GgmlType::Q8_0);
        i.engine.cache_type_v = Some(GgmlType::Q8_0);
    });
    let r = run(MethodId::Llamacpp, &input).unwrap();
    let l = llamacpp_report(&r);
    // "4.17 GiB", IQ4_XS; q8_0 is 34 bytes per 32 values.
    assert_eq!(l.model_size_bytes, 4_476_526_848);
    assert_eq!(l.k_bytes, 8192 * 32 * 8 * 128 / 32 * 34);
    assert!(l.command.contains("-ctk q8_0 -ctv q8_0"), "{}", l.command);
    // A quantized V cache without flash attention is refused.
    let mut no_fa = input.clone();
    no_fa.engine.flash_attn = false;
    assert_eq!(
        run(MethodId::Llamacpp, &no_fa).unwrap_err(),
        Refusal::Engine(EngineRefusal::QuantizedVNeedsFlashAttention {
            cache_type_v: GgmlType::Q8_0
        })
    );
    // No GGUF type: Q4_K_M, said so.
    let plain = on("meta-llama/Llama-3.1-8B", |_| {});
    let l = llamacpp_report(&run(MethodId::Llamacpp, &plain).unwrap()).clone();
    assert_eq!(l.file_type, FileType::Q4_K_M);
    assert!(l.notes.contains(&EngineNote::GgufDefault));
    // Weight formats that are no GGUF type, and several GPUs, are refused.
    let awq = on("meta-llama/Llama-3.1-8B", |i| {
        i.set_weight_format(WeightFormat::Awq)
    });
    assert!(matches!(
        run(MethodId::Llamacpp, &awq),
        Err(Refusal::Engine(EngineRefusal::Format { .. }))
    ));
    let slots = on("meta-llama/Llama-3.1-8B", |i| i.sequences = 300);
    assert_eq!(
        run(MethodId::Llamacpp, &slots).unwrap_err(),
        Refusal::Engine(EngineRefusal::TooManySequences { max: 256 })
    );
    let two = on("meta-llama/Llama-3.1-8B", |i| {
        i.gpus = 2;
        i.tp = Some(2);
    });
    // Two GPUs: llama.cpp splits the layers over them (it refused them
    // before the per-device plan).
    let two = run(MethodId::Llamacpp, &two).unwrap();
    let devices = &llamacpp_report(&two).devices;
    assert_eq!(devices.len(), 2);
    assert_eq!(devices.iter().map(|d| d.layers.len()).sum::<usize>(), 32);
    assert!(devices[1].output_layer);
}

/// A pasted config names the model by its `_name_or_path`, else by a
/// placeholder for the folder that holds it.
#[test]
fn pasted_configs_name_the_model_in_the_commands() {
    let text = r#"{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
        "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192,
        "vocab_size": 128256, "max_position_embeddings": 131072, "torch_dtype": "bfloat16"}"#;
    let pasted = |text: &str| ScenarioInput {
        model: Some(ModelRef::Config(text.into())),
        ..ScenarioInput::default()
    };
    let r = run(MethodId::Vllm, &pasted(text)).unwrap();
    assert!(vllm_report(&r)
        .command
        .starts_with("vllm serve MODEL --max-model-len 8192"));
    let named = text.replace('{', r#"{"_name_or_path": "me/tiny-llama", "#);
    let r = run(MethodId::Llamacpp, &pasted(&named)).unwrap();
    assert!(llamacpp_report(&r)
        .command
        .starts_with("llama-server -m tiny-llama-Q4_K_M.gguf "));
}

/// `estimate.engine` holds the issues' integer fields, and only for the
/// engine methods.
#[test]
fn the_report_carries_the_engine_figures() {
    let vllm = on("meta-llama/Llama-3.1-8B-Instruct", |i| i.set_gpu("H100"));
    let doc = report::build(&Request::new(MethodId::Vllm, vllm)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let engine = &json["estimate"]["engine"];
    for key in [
        "weights_bytes",
        "activation_peak_bytes",
        "non_torch_bytes",
        "kv_cache_bytes",
        "kv_cache_tokens",
        "cuda_graph_bytes",
        "max_model_len_fits",
    ] {
        assert!(engine[key].is_u64(), "{key}: {}", engine[key]);
    }
    assert!(engine["max_concurrency"].is_f64());
    assert!(engine["command"]
        .as_str()
        .unwrap()
        .starts_with("vllm serve "));
    // The other methods have none; every method runs on the same scenario.
    let names: Vec<&str> = json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"vllm") && names.contains(&"llamacpp"),
        "{names:?}"
    );
    for m in json["methods"].as_array().unwrap() {
        let engine_method = matches!(m["method"].as_str(), Some("vllm" | "llamacpp"));
        assert_eq!(m.get("engine").is_some(), engine_method, "{}", m["method"]);
    }
    let llama = on("meta-llama/Llama-3.1-8B", |i| {
        i.set_weight_format(WeightFormat::Q4KM)
    });
    let doc = report::build(&Request::new(MethodId::Llamacpp, llama)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let engine = &json["estimate"]["engine"];
    for key in [
        "model_size_bytes",
        "kv_cache_bytes",
        "k_bytes",
        "v_bytes",
        "compute_buffer_bytes",
        "output_buffer_bytes",
        "gpu_bytes",
        "host_bytes",
        "gpu_layers",
    ] {
        assert!(engine[key].is_u64(), "{key}: {}", engine[key]);
    }
    assert!(engine["command"]
        .as_str()
        .unwrap()
        .starts_with("llama-server -m "));
}

/// The engine knobs travel in the request's JSON only when set.
#[test]
fn engine_knobs_round_trip_and_stay_out_when_default() {
    let plain = serde_json::to_string(&Request::default()).unwrap();
    assert!(!plain.contains("\"engine\""), "{plain}");
    let mut input = ScenarioInput::default();
    input.engine.n_gpu_layers = Some(12);
    input.set_gguf_type(FileType::Q3_K_M);
    let request = Request::new(MethodId::Llamacpp, input);
    let text = serde_json::to_string(&request).unwrap();
    assert!(text.contains(r#""engine":{"#), "{text}");
    let back: Request = serde_json::from_str(&text).unwrap();
    assert_eq!(back, request);
}

#[test]
fn an_apus_bios_vram_is_an_input_and_sets_its_gtt_limit() {
    use vramfit_core::methods::engine::engine_gpu;
    use vramfit_core::scenario::{EngineField, EngineProblem};
    // Radeon 780M with 32 GiB: 0.5 GiB assumed + half of the other 31.5.
    let apu = on("Qwen/Qwen3-8B", |i| {
        i.set_weight_format(WeightFormat::Q4KM);
        i.set_gpu("AMD Ryzen 7 8700G (Radeon 780M, 32GB)");
    });
    let s = apu.validate().unwrap();
    let g = engine_gpu(&s, true);
    assert_eq!(g.total_bytes, (1 << 29) + (31 * GIB + (1 << 29)) / 2);
    assert!(g.notes.iter().any(|n| matches!(
        n,
        EngineNote::GttLimitUsed { vram_bytes, .. } if *vram_bytes == 1 << 29
    )));
    // 8 GiB dedicated in the BIOS: 8 + 12 = 20 GiB.
    let mut eight = apu.clone();
    EngineField::BiosVramGib.set(&mut eight.engine, Some(8.0));
    let g8 = engine_gpu(&eight.validate().unwrap(), true);
    assert_eq!(g8.total_bytes, 20 * GIB);
    // The method fits against it, and the unified host check counts both sides.
    let r = run(MethodId::Llamacpp, &eight).unwrap();
    let l = llamacpp_report(&r);
    assert!(l.plan.unified_memory);
    assert_eq!(l.plan.host_ram_bytes, 32 * GIB);
    assert_eq!(l.plan.host_needed_bytes, l.gpu_bytes + l.host_bytes);
    // Range-checked, empty is the assumption.
    assert_eq!(EngineField::BiosVramGib.parse(""), Ok(None));
    assert_eq!(EngineField::BiosVramGib.parse("0,5"), Ok(Some(0.5)));
    assert!(matches!(
        EngineField::BiosVramGib.parse("0.01").unwrap_err().problem,
        EngineProblem::OutOfRange { .. }
    ));
    assert!(EngineField::BiosVramGib.parse("600").is_err());
}
