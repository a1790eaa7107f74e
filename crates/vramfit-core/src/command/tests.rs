use super::*;
use crate::gguf::GgmlType;
use crate::scenario::KvDtype;

fn applied(text: &str) -> (MethodId, ScenarioInput) {
    let command = parse_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut input = ScenarioInput::default();
    let method = command
        .apply(&mut input)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    (method, input)
}

#[test]
fn a_vllm_command_is_a_scenario() {
    let (method, input) = applied(
        "vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2 --gpu-memory-utilization 0.85 \
         --kv-cache-dtype fp8 --max-num-seqs 64 --enforce-eager --port 8000",
    );
    assert_eq!(method, MethodId::Vllm);
    assert_eq!(input.model, Some(ModelRef::Catalog("Qwen/Qwen3-8B".into())));
    assert_eq!((input.context, input.tp, input.gpus), (16384, Some(2), 2));
    assert_eq!(input.engine.gpu_memory_utilization, Some(0.85));
    assert_eq!(input.kv_bytes, KvDtype::Fp8.bytes());
    assert_eq!(input.engine.max_num_seqs, Some(64));
    assert!(input.engine.enforce_eager);
}

#[test]
fn the_openai_module_and_underscores_read_the_same() {
    let (_, a) = applied(
        "CUDA_VISIBLE_DEVICES=0,1 python3 -m vllm.entrypoints.openai.api_server \
         --model Qwen/Qwen3-8B --max_model_len=32K --tensor-parallel-size 2",
    );
    let (_, b) = applied("vllm serve Qwen/Qwen3-8B --max-model-len 32768 -tp 2");
    assert_eq!(a, b);
    // vLLM's suffixes: k is 10³, K is 2¹⁰.
    assert_eq!(
        applied("vllm serve Qwen/Qwen3-8B --max-model-len 32k")
            .1
            .context,
        32_000
    );
}

#[test]
fn dtype_and_quantization_are_two_knobs_in_any_order() {
    let (_, a) = applied("vllm serve meta-llama/Llama-3.1-70B --dtype bfloat16 --quantization fp8");
    let (_, b) = applied("vllm serve meta-llama/Llama-3.1-70B --quantization fp8 --dtype bfloat16");
    assert_eq!(a, b);
    assert_eq!(a.weight_format, Some(WeightFormat::Fp8));
    assert_eq!(a.engine.dtype, Some(crate::scenario::ComputeDtype::Bf16));
    let (_, c) = applied("vllm serve meta-llama/Llama-3.1-70B --dtype half");
    assert_eq!(
        (c.weight_format, c.engine.dtype),
        (Some(WeightFormat::Fp16), None)
    );
}

#[test]
fn a_llama_server_command_is_a_scenario() {
    let (method, input) = applied(
        "llama-server -hf unsloth/Qwen3-30B-A3B-GGUF:Q4_K_M -c 16384 -ngl 40 -ctk q8_0 \
         -ctv q8_0 -fa on -ub 1024 -b 1024 --n-cpu-moe 8 --jinja",
    );
    assert_eq!(method, MethodId::Llamacpp);
    assert_eq!(
        input.model,
        Some(ModelRef::Catalog("Qwen/Qwen3-30B-A3B".into()))
    );
    assert_eq!(input.weight_format, Some(WeightFormat::Q4KM));
    assert_eq!(
        (input.context, input.sequences),
        (16384, LLAMA_SERVER_SLOTS)
    );
    let e = &input.engine;
    assert_eq!((e.n_gpu_layers, e.n_cpu_moe, e.ubatch), (Some(40), 8, 1024));
    assert_eq!(
        (e.cache_type_k, e.n_batch),
        (Some(GgmlType::Q8_0), Some(1024))
    );
    let (_, file) = applied("llama-cli -m models/Qwen3-30B-A3B-Q4_K_S.gguf -fa off -ngl auto");
    assert_eq!(file.engine.gguf_type, Some(FileType::Q4_K_S));
    assert_eq!((file.sequences, file.engine.flash_attn), (1, false));
    assert_eq!(file.engine.n_gpu_layers, None);
    // No -c: the model's trained context (llama.cpp's n_ctx = 0).
    assert_eq!(file.context, 40_960);
}

#[test]
fn every_mistake_names_its_word() {
    for (text, want) in [
        ("", "the engine command is empty"),
        ("vllm serve 'x", "a quote is not closed"),
        (
            "ollama run llama3",
            "`ollama run llama3` is not an engine command",
        ),
        (
            "vllm serve Qwen/Qwen3-8B --frobnicate 3",
            "unknown vLLM option `--frobnicate`",
        ),
        (
            "vllm serve Qwen/Qwen3-8B --max-model-len",
            "--max-model-len needs a value",
        ),
        (
            "vllm serve Qwen/Qwen3-8B --dtype int3",
            "--dtype int3: expected auto",
        ),
        (
            "vllm serve Qwen/Qwen3-8B --cpu-offload-gb 4",
            "vLLM option `--cpu-offload-gb` is not modelled",
        ),
        (
            "llama-server -m a.gguf -ts 1,1",
            "llama.cpp option `-ts` is not modelled",
        ),
        (
            "llama-server -m nothing-known-Q4_K_M.gguf",
            "no catalog model matches `nothing-known-Q4_K_M.gguf`",
        ),
        ("vllm serve a b", "unexpected word `b`: one model only"),
        (
            "llama-server -m x.gguf -fa maybe",
            "unexpected word `maybe`",
        ),
        (
            "vllm serve Qwen/Qwen3-8B -tp 0",
            "-tp 0: expected a whole number of GPUs",
        ),
        ("vllm serve Qwen/Qwen3-8B -tp 99999", "-tp: must be"),
    ] {
        let err = parse_text(text)
            .and_then(|c| c.apply(&mut ScenarioInput::default()))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(want), "{text}: {err}");
    }
}

#[test]
fn the_reasons_and_expected_values_are_typed() {
    let err = |text: &str| parse_text(text).unwrap_err();
    assert_eq!(
        err("vllm serve Qwen/Qwen3-8B --cpu-offload-gb 4"),
        CommandError::NotModelled {
            engine: Engine::Vllm,
            option: "--cpu-offload-gb".into(),
            why: Unmodelled::HostOffload,
        }
    );
    assert_eq!(
        err("llama-server -m a.gguf -ot exps=CPU"),
        CommandError::NotModelled {
            engine: Engine::Llamacpp,
            option: "-ot".into(),
            why: Unmodelled::TensorOverrides,
        }
    );
    for (text, expected) in [
        (
            "vllm serve Qwen/Qwen3-8B --max-model-len lots",
            Expected::TokenCount,
        ),
        ("vllm serve Qwen/Qwen3-8B -tp 0", Expected::GpuCount),
        (
            "vllm serve Qwen/Qwen3-8B --kv-cache-dtype int3",
            Expected::KvCacheDtype,
        ),
        (
            "vllm serve Qwen/Qwen3-8B --quantization int3",
            Expected::Quantization,
        ),
        ("vllm serve Qwen/Qwen3-8B --dtype int3", Expected::Dtype),
        ("llama-server -m a.gguf -ctk q9", Expected::CacheType),
        ("llama-server -m a.gguf -b 0", Expected::BatchTokens),
        (
            "llama-server -m a.gguf --flash-attn=maybe",
            Expected::FlashAttn,
        ),
    ] {
        match err(text) {
            CommandError::BadValue { expected: e, .. } => assert_eq!(e, expected, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // Every reason of the table is one of the enum's, each option once.
    for (i, (engine, name, _)) in NOT_MODELLED.iter().enumerate() {
        assert!(
            NOT_MODELLED[..i]
                .iter()
                .all(|(e, n, _)| (e, n) != (engine, name)),
            "{name}"
        );
    }
    // The English words and the lists, as the CLI prints them.
    assert_eq!(
        Expected::KvCacheDtype.to_string(),
        "auto, fp8, fp8_e4m3, fp8_e5m2 or bfloat16"
    );
    assert_eq!(Expected::FlashAttn.one_of(" of "), "on, off of auto");
    assert_eq!(Expected::TokenCount.to_string(), "a token count");
    // The JSON: a stable id beside the English.
    let json = serde_json::to_value(err("vllm serve Qwen/Qwen3-8B -dp 2")).unwrap();
    assert_eq!(json["kind"], "not_modelled");
    assert_eq!(json["why"]["id"], "data_parallel");
    assert_eq!(
        json["why"]["text"],
        "data-parallel copies are not modelled; give --gpus"
    );
    let json = serde_json::to_value(err("vllm serve Qwen/Qwen3-8B --dtype int3")).unwrap();
    assert_eq!(json["expected"]["id"], "dtype");
}

#[test]
fn gguf_names_lose_their_type_and_shards() {
    assert_eq!(
        gguf_stem("Qwen3-30B-A3B-Q4_K_M.gguf"),
        ("Qwen3-30B-A3B", Some(FileType::Q4_K_M))
    );
    assert_eq!(
        gguf_stem("Llama-3.1-70B.Q8_0-00001-of-00002.gguf"),
        ("Llama-3.1-70B", Some(FileType::Q8_0))
    );
    assert_eq!(gguf_stem("Qwen3-8B-GGUF"), ("Qwen3-8B", None));
}
