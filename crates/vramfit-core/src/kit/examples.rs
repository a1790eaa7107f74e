//! The seeds' worked examples: a name, the seed's words, and the request
//! that reproduces them.

use super::Citation;
use crate::methods::MethodId;
use crate::request::Request;
use crate::scenario::{ModelRef, Precision, ScenarioInput};

/// The seeds' worked examples: name, source, inputs.
pub(super) fn seed_examples() -> Vec<(&'static str, Citation, Request)> {
    let seed = |seed: &str, quote: &str, note: &str| Citation {
        seed: seed.to_string(),
        quote: quote.to_string(),
        note: note.to_string(),
    };
    let quick = |scenario| Request::new(MethodId::Quick, scenario);
    let lesson_example = ScenarioInput {
        params_b: 7.0,
        context: 4096,
        ..ScenarioInput::default()
    };
    let mut lesson_inference = lesson_example.clone();
    lesson_inference.set_capacity_gib(24.0);
    let lesson_training = ScenarioInput {
        mode: crate::scenario::Mode::Full,
        ..lesson_inference.clone()
    };
    let mut allocator = ScenarioInput {
        mode: crate::scenario::Mode::Lora,
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        context: 4096,
        lora_rank: 16,
        precision: Precision::Pure,
        ..ScenarioInput::default()
    };
    allocator.set_gpu("RTX 3090");
    // Seed 003 read a typed "24 GB" as 24 GiB; here that reading is typed
    // in GiB, as vramfit reads a typed GB as 10⁹ bytes.
    let mut allocator_typed = allocator.clone();
    allocator_typed.set_capacity_gib(24.0);
    let mut planner_gqa = ScenarioInput {
        ..ScenarioInput::default()
    };
    planner_gqa.planner.hidden_size = Some(4096);
    planner_gqa.planner.vocab_size = Some(128_000);
    let planner_mla = ScenarioInput {
        model: Some(ModelRef::Catalog("deepseek-ai/DeepSeek-V2-Lite".into())),
        context: 4096,
        gpus: 2,
        tp: Some(2),
        ..ScenarioInput::default()
    };
    let mut planner_residency = ScenarioInput {
        context: 4096,
        gpus: 8,
        tp: Some(1),
        sequences: 100,
        ..planner_gqa.clone()
    };
    planner_residency.planner.machines = 2;
    planner_residency.planner.batch_limit = Some(8);
    let range_llama = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        ..ScenarioInput::default()
    };
    let mut range_quant = range_llama.clone();
    range_quant.set_weight_format(crate::scenario::WeightFormat::Q4KM);
    let range_tp = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        gpus: 2,
        gpu_memory_gb: 80.0,
        ..range_llama.clone()
    };
    let range_qlora = ScenarioInput {
        mode: crate::scenario::Mode::Qlora,
        context: 4096,
        ..range_llama.clone()
    };
    let mut vllm_h100 = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B-Instruct".into())),
        context: 8192,
        ..ScenarioInput::default()
    };
    vllm_h100.set_gpu("H100 SXM");
    vllm_h100.engine.gpu_memory_utilization = Some(0.95);
    // The release of the log it quotes.
    vllm_h100.engine.vllm_version = Some(crate::scenario::VllmRelease::new(0, 19, 0));
    let mut llamacpp_q4 = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        context: 8192,
        ..ScenarioInput::default()
    };
    llamacpp_q4.set_weight_format(crate::scenario::WeightFormat::Q4KM);
    llamacpp_q4.set_gpu("RTX 4090");
    vec![
        (
            "seed004-8b-fp16-8k-24gb",
            seed(
                "004",
                "Un modelo de 8B con 32 capas, 8 cabezas KV y una dimensión de cabeza de 128, en FP16 con un contexto de 8.192 tokens: los pesos ocupan 16 GB y la caché KV 1,07 GB (131 KB por token). Con un 10 % de sobrecarga son unos 18,8 GB, que caben en una sola GPU de 24 GB.",
                "",
            ),
            quick(ScenarioInput::default()),
        ),
        (
            "seed004-8b-4bit-8k-8gb",
            seed(
                "004",
                "Un modelo de 8 mil millones de parámetros en 4 bits necesita unos 5,6 GB con un contexto de 8K, así que cabe en una GPU de 8 GB",
                "the KV cache stays FP16; only the weights go to 4 bits",
            ),
            quick(ScenarioInput {
                weight_bits: 4.0,
                gpu_memory_gb: 8.0,
                ..ScenarioInput::default()
            }),
        ),
        (
            "seed004-70b-4bit-48gb",
            seed(
                "004",
                "Un modelo de 70 mil millones de parámetros en 4 bits necesita unos 39,7 GB, que caben en una sola GPU de 48 GB.",
                "the seed does not restate the cache inputs; 39.7 GB comes out only with the 8B example's cache (32 layers, 8 KV heads, head dim 128, FP16, 8,192 tokens)",
            ),
            quick(ScenarioInput {
                params_b: 70.0,
                weight_bits: 4.0,
                gpu_memory_gb: 48.0,
                ..ScenarioInput::default()
            }),
        ),
        (
            "seed000-7b-inference-4k-24gib",
            seed(
                "000",
                "const result=estimateVRAM({mode:'inference',params:7,weightBits:16,layers:32,kvHeads:8,headDim:128,sequence:4096,batch:1,kvBytes:2,runtime:2,activation:4,margin:15,capacity:24}); console.log(result.components.cache); // 0.5 GiB",
                "the seed's components.cache is kv_cache here; capacity 24 GiB = 25,769,803,776 bytes",
            ),
            Request::new(MethodId::Lesson, lesson_inference),
        ),
        (
            "seed000-7b-full-training",
            seed(
                "000",
                "El entrenamiento completo usa 18 bytes/parámetro como referencia AdamW de precisión mixta, más tus reservas.",
                "training does not add the weights again (the 18 bytes hold the working copy) and has no KV cache",
            ),
            Request::new(MethodId::Lesson, lesson_training),
        ),
        (
            "seed003-llama-3.1-8b-lora16-pure-4k-rtx3090",
            seed(
                "003",
                "$ vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096 --gpu \"RTX 3090\"",
                "weights 16.12, gradients 0.05, optimizer 0.11, step_workspace 0.05 and overhead 0.75 GB match the seed; activations are derived from the code (docs/allocator-derivation.md), 36.41 GB where the seed printed 36.92",
            ),
            Request::new(MethodId::Allocator, allocator),
        ),
        (
            "seed003-llama-3.1-8b-lora16-typed-24gb-read-as-gib",
            seed(
                "003",
                "short by 28.9 GB on RTX 3090",
                "seed 003's reading of a GPU's \"24 GB\": 24 GiB = 25,769,803,776 bytes (53.19 + 0.75 − 0.97 × 25.77 GB). vramfit reads a typed GB as 10⁹ bytes (24 GB = 24,000,000,000) and a catalog card as its driver's total (the RTX 3090's 24,576 MiB, which is 24 GiB); the seed's reading is typed here in GiB (--capacity-gib 24)",
            ),
            Request::new(MethodId::Allocator, allocator_typed),
        ),
        (
            "seed001-llama-3.1-8b-bf16-8k-24gb",
            seed(
                "001",
                "Bereik bij serveren: laag = gewichten + KV-cache + 1 GB; hoog = 1.2 × gewichten + KV-cache + 1 GB",
                "worked by hand in docs/methods/range.md: low 18,134,264,320, high 21,346,368,819 bytes",
            ),
            Request::new(MethodId::Range, range_llama),
        ),
        (
            "seed001-llama-3.1-8b-q4_k_m",
            seed(
                "001",
                "8-bit en 4-bit formaten houden de embeddings en de output-head op 16 bits.",
                "Q4_K_M at 4.89 bits for the body, 16 bits for embeddings and head",
            ),
            Request::new(MethodId::Range, range_quant),
        ),
        (
            "seed001-llama-3.1-70b-2x80gb",
            seed(
                "001",
                "Met meerdere GPU's worden gewichten en cache gelijk verdeeld (tensor parallelism) en telt de runtime-overhead op elke GPU mee.",
                "",
            ),
            Request::new(MethodId::Range, range_tp),
        ),
        (
            "seed001-llama-3.1-8b-qlora-4k",
            seed(
                "001",
                "QLoRA slaat ze op in NF4 op 4.127 bits. Beide trainen adapters met rank 16 op de attention- en dense-MLP-projecties",
                "",
            ),
            Request::new(MethodId::Range, range_qlora),
        ),
        (
            "seed002-gqa-8b-8k-24gb",
            seed(
                "002",
                "Pruebas numéricas automatizadas: ejemplo GQA, precisión mixta, MLA, residencia, ...",
                "custom model: 8 × 10⁹ parameters, H 4,096, V 128,000; total 21,095,009,690 bytes (docs/methods/planner.md)",
            ),
            Request::new(MethodId::Planner, planner_gqa),
        ),
        (
            "seed002-mla-deepseek-v2-lite-tp2",
            seed(
                "002",
                "MLA comprimida se presupuesta replicada por rango TP.",
                "27 layers × (512 + 64) × 4,096 tokens × 2 bytes = 127,401,984 bytes of latent cache on each GPU",
            ),
            Request::new(MethodId::Planner, planner_mla),
        ),
        (
            "seed002-residency-2x4-gpus-100-users",
            seed(
                "002",
                "réplicas = equipos × GPU/(TP × PP); solicitudes/réplica = techo(usuarios/réplicas); activas = mínimo(lote, solicitudes/réplica).",
                "8 replicas, 13 requests each, 8 active; KV reserved for all 13",
            ),
            Request::new(MethodId::Planner, planner_residency),
        ),
        (
            "vllm-llama-3.1-8b-instruct-h100-0.95",
            Citation {
                seed: "vramfit".into(),
                quote: "vLLM 0.19 on an H100 80GB, `vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --gpu-memory-utilization 0.95`: Model loading took 14.99 GiB; Available KV cache memory: 58.11 GiB; GPU KV cache size: 476,016 tokens; Maximum concurrency for 8,192 tokens per request: 58.11x (data/engines/vllm-0.19-h100.csv)".into(),
                note: "the catalog's H100 SXM5 (79.19 GiB as CUDA reports it); vLLM's own batch defaults for that GPU (8,192 tokens, 1,024 sequences); the ring holds one request of 8,192 tokens".into(),
            },
            Request::new(MethodId::Vllm, vllm_h100),
        ),
        (
            "llamacpp-llama-3.1-8b-q4_k_m-rtx4090",
            Citation {
                seed: "vramfit".into(),
                quote: "llama.cpp `tools/quantize/README.md`: Llama-3.1-8B Q4_K_M, 4.8944 bits/weight, 4.58 GiB; at 8,192 cells in f16 `K (f16): 512.00 MiB, V (f16): 512.00 MiB` (data/engines/llamacpp.md)".into(),
                note: "every layer on an RTX 4090 (-ngl auto); the compute buffer is an approximation of ggml's graph allocator (docs/methods/llamacpp.md §6)".into(),
            },
            Request::new(MethodId::Llamacpp, llamacpp_q4),
        ),
    ]
}
