//! A GGUF file read from its header drives the `llamacpp` method: files
//! written here as `convert_hf_to_gguf.py` and `llama-quantize` write them
//! (the metadata keys of `gguf-py/gguf/constants.py`, the recipe's
//! tensors), then read back through [`crate::gguf`].

use super::super::{estimate, estimate_file, FileType, GgmlType, LlamaCppInputs};
use super::*;
use crate::catalog::models;
use crate::gguf::model::{read, GgufModel};
use crate::gguf::{header::parse, writer::Writer, Value};
use crate::model::parse_config;

fn spec(id: &str) -> ModelSpec {
    models::find_model(id).unwrap().spec().unwrap()
}

fn file_of(
    s: &ModelSpec,
    ftype: FileType,
    retype: impl Fn(&GgufTensor, GgmlType) -> GgmlType,
) -> Vec<u8> {
    super::converted(s, ftype, retype).unwrap().header()
}

fn model_of(bytes: &[u8]) -> (GgufModel, ModelSpec) {
    let m = read("model.gguf", &[parse(bytes).unwrap()]).unwrap();
    let spec = parse_config(&m.config).unwrap();
    (m, spec)
}

fn at(n_ctx: u64) -> LlamaCppInputs {
    LlamaCppInputs {
        n_ctx: Some(n_ctx),
        ..LlamaCppInputs::default()
    }
}

#[test]
fn a_recipe_file_reads_back_as_the_recipe_for_every_mapped_architecture() {
    for id in [
        "meta-llama/Llama-3.1-8B",
        "Qwen/Qwen2.5-7B",
        "Qwen/Qwen3-8B",
        "Qwen/Qwen3-30B-A3B",
        "google/gemma-2-2b-it",
        "google/gemma-3-1b-it",
        "openai/gpt-oss-20b",
        "microsoft/Phi-3.5-mini-instruct",
        "google/gemma-2b",
        "allenai/OLMo-2-1124-7B",
        "deepseek-ai/DeepSeek-V2-Lite",
        "deepseek-ai/DeepSeek-V3",
    ] {
        let s = spec(id);
        let ftype = match id {
            "openai/gpt-oss-20b" => FileType::MXFP4_MOE,
            _ => FileType::Q4_K_M,
        };
        let (file, from_file) = model_of(&file_of(&s, ftype, |_, t| t));
        let want = estimate(
            &s,
            &LlamaCppInputs {
                file_type: ftype,
                ..at(8192)
            },
            None,
        )
        .unwrap();
        let got = estimate_file(&from_file, &file.tensors, &at(8192), None).unwrap();
        assert_eq!(got.model_size_bytes, want.model_size_bytes, "{id}");
        assert_eq!(got.model_size_bytes, file.tensor_bytes(), "{id}");
        assert_eq!(got.tensor_types, want.tensor_types, "{id}");
        assert_eq!(
            (got.k_bytes, got.v_bytes),
            (want.k_bytes, want.v_bytes),
            "{id}"
        );
        assert_eq!(got.swa_cells, want.swa_cells, "{id}");
        assert_eq!(got.gpu, want.gpu, "{id}");
        assert_eq!(got.host, want.host, "{id}");
    }
}

#[test]
fn llama_3_1_8b_q4_k_m_from_its_file_is_the_size_llama_cpp_prints() {
    // llama.cpp's tables (`../shared/data/engines/llamacpp.md`): Llama-3.1-8B
    // Q4_K_M, "model size 4.58 GiB".
    let (file, s) = model_of(&file_of(
        &spec("meta-llama/Llama-3.1-8B"),
        FileType::Q4_K_M,
        |_, t| t,
    ));
    assert_eq!(file.file_type, Some(FileType::Q4_K_M));
    let e = estimate_file(&s, &file.tensors, &at(8192), None).unwrap();
    assert_eq!(e.model_size_bytes, 4_912_898_304);
    assert_eq!(
        format!("{:.2}", e.model_size_bytes as f64 / (1u64 << 30) as f64),
        "4.58"
    );
    // f16 K and V: 8,192 cells × 32 layers × 8 heads × 128 × 2 B each.
    assert_eq!((e.k_bytes, e.v_bytes), (536_870_912, 536_870_912));
}

#[test]
fn a_mixed_file_is_sized_by_its_own_types() {
    // Every quantizable matrix in iq2_xxs but token_embd (q4_K) and output
    // (q6_K), as a dynamic quant mixes them.
    let s = spec("meta-llama/Llama-3.1-8B");
    let (file, spec) = model_of(&file_of(&s, FileType::Q4_K_M, |t, ty| match t.role {
        Role::TokenEmbd => GgmlType::Q4_K,
        Role::Output => GgmlType::Q6_K,
        _ if ty.is_quantized() => GgmlType::IQ2_XXS,
        _ => ty,
    }));
    let e = estimate_file(&spec, &file.tensors, &at(8192), None).unwrap();
    // token_embd 128,256 rows × 16 × 144 B = 295,501,824; output 128,256 ×
    // 16 × 210 B = 430,940,160; per layer q, o 4,096 rows × 16 × 66 B =
    // 4,325,376 each, k, v 1,081,344 each, gate, up 14,336 rows × 1,056 B
    // and down 4,096 rows × 56 × 66 B = 15,138,816 each, two f32 norms
    // 16,384 each: 56,262,656 × 32 layers; output_norm 16,384, rope_freqs 256.
    assert_eq!(e.model_size_bytes, 2_526_863_616);
    assert_eq!(
        e.tensor_types
            .iter()
            .map(|c| (c.ggml_type, c.tensors))
            .collect::<Vec<_>>(),
        [
            (GgmlType::F32, 66),
            (GgmlType::Q4_K, 1),
            (GgmlType::Q6_K, 1),
            (GgmlType::IQ2_XXS, 224)
        ]
    );
    // The cache follows the metadata, not the weights' types.
    assert_eq!(e.k_bytes, 536_870_912);
}

#[test]
fn gemma_3_slides_five_layers_in_six_as_llama_cpp_does() {
    let s = spec("google/gemma-3-1b-it");
    let (file, from_file) = model_of(&file_of(&s, FileType::Q8_0, |_, t| t));
    let e = estimate_file(&from_file, &file.tensors, &at(8192), None).unwrap();
    // 26 layers: 5, 11, 17, 23 full (8,192 cells), 22 sliding: pad(min(8,192,
    // 512 × 4 + 512), 256) = 2,560 cells; a row is 1 head × 256 × 2 B.
    assert_eq!(e.swa_cells, 2_560);
    assert_eq!(e.k_bytes, 4 * 8_192 * 512 + 22 * 2_560 * 512);
    assert_eq!(e.k_bytes, 45_613_056);
}

#[test]
fn unknown_architectures_and_missing_keys_are_refused_by_name() {
    let mut w = Writer::new();
    w.kv("general.architecture", Value::String("mamba2".into()));
    let e = read("model.gguf", &[parse(&w.header()).unwrap()]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("GGUF architecture `mamba2` is not read"),
        "{e}"
    );
    let mut w = Writer::new();
    w.kv("general.architecture", Value::String("llama".into()))
        .kv("llama.embedding_length", Value::U32(4096));
    let e = read("model.gguf", &[parse(&w.header()).unwrap()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the file has no number `llama.attention.head_count`"
    );
}

#[test]
fn a_file_written_by_gguf_py_is_sized_by_its_header() {
    let bytes = include_bytes!("../../../tests/data/qwen3-mixed-header.gguf");
    let (file, s) = model_of(bytes);
    assert_eq!(
        (file.architecture.as_str(), file.name.as_deref()),
        ("qwen3", Some("py-made"))
    );
    assert_eq!(
        (s.num_layers, s.num_kv_heads, s.head_dim, s.vocab_size),
        (2, 8, 128, 1000)
    );
    let e = estimate_file(&s, &file.tensors, &at(4096), None).unwrap();
    assert_eq!(e.model_size_bytes, 14_819_840);
    assert_eq!(e.tensor_types.len(), 10);
    // 4,096 cells × 2 layers × 8 heads × 128 × 2 B.
    assert_eq!(e.k_bytes, 16_777_216);
}

#[test]
fn a_scenario_of_a_file_sizes_the_file_and_names_it_in_the_command() {
    use crate::scenario::{ModelRef, ScenarioInput};
    let s = spec("meta-llama/Llama-3.1-8B");
    let bytes = file_of(&s, FileType::Q4_K_M, |t, ty| match t.role {
        Role::FfnDown => GgmlType::IQ3_S,
        _ => ty,
    });
    let mut file = read("Llama-3.1-8B-UD-Q3.gguf", &[parse(&bytes).unwrap()]).unwrap();
    file.file = "Llama-3.1-8B-UD-Q3.gguf".into();
    let total = file.tensor_bytes();
    let input = ScenarioInput {
        model: Some(ModelRef::Gguf(Box::new(file))),
        context: 8192,
        gpu: Some("H100 SXM".into()),
        ..ScenarioInput::default()
    };
    let run = super::super::run(&input.validate().unwrap()).unwrap();
    assert_eq!(run.estimate.model_size_bytes, total);
    assert!(
        total < 4_912_898_304,
        "iq3_s downs are smaller than q4_K/q6_K"
    );
    assert_eq!(run.estimate.k_bytes, 536_870_912);
    assert!(
        run.estimate
            .command
            .starts_with("llama-server -m Llama-3.1-8B-UD-Q3.gguf -c 8192"),
        "{}",
        run.estimate.command
    );
    let result = super::super::estimate_scenario(&input.validate().unwrap()).unwrap();
    let Some(crate::methods::engine::EngineReport::Llamacpp(r)) = result.engine else {
        panic!("no engine report")
    };
    assert!(
        r.command
            .starts_with("llama-server -m Llama-3.1-8B-UD-Q3.gguf "),
        "{}",
        r.command
    );
    assert_eq!(r.model_size_bytes, total);
}
