//! Tests of the llamacpp method against the embedded configs.

use super::*;
use crate::catalog::models;
use crate::model::parse_config;

fn spec(id: &str) -> ModelSpec {
    models::find_model(id).unwrap().spec().unwrap()
}

fn inputs(file_type: FileType, n_ctx: u64) -> LlamaCppInputs {
    LlamaCppInputs {
        file_type,
        n_ctx: Some(n_ctx),
        ..LlamaCppInputs::default()
    }
}

/// The type of the tensor named `name`.
fn type_of(tensors: &[(GgufTensor, GgmlType)], name: &str) -> GgmlType {
    tensors
        .iter()
        .find(|(t, _)| t.name == name)
        .map(|(_, ty)| *ty)
        .unwrap_or_else(|| panic!("no tensor {name}"))
}

#[test]
fn the_inventory_holds_every_parameter_of_every_supported_config() {
    let mut supported = 0;
    for m in models::all() {
        let Ok(s) = m.spec() else { continue };
        let Ok(layout) = Layout::of(&s) else { continue };
        supported += 1;
        let elements: u64 = tensors::inventory(&layout)
            .iter()
            .map(GgufTensor::elements)
            .sum();
        // The converter adds the rope tables the checkpoint does not hold,
        // and cuts Gemma 3's embedding (and tied head) to its tokenizer.
        let extra = layout.rope_freqs + 2 * layout.rope_factors;
        let cut = s.vocab_size.saturating_sub(layout.n_vocab) * s.hidden_size;
        assert_eq!(elements + cut, s.params_total + extra, "{}", m.name());
    }
    assert!(supported >= 30, "{supported} supported configs");
}

#[test]
fn llama_3_1_8b_q4_k_m_lists_the_types_llama_cpp_prints() {
    // `llama_model_loader: - type f32: 66, q4_K: 193, q6_K: 33 tensors`:
    // norms and rope_freqs in f32; attn_v and ffn_down of 16 layers and
    // the output head in q6_K; the rest in q4_K.
    let e = estimate(
        &spec("meta-llama/Llama-3.1-8B"),
        &inputs(FileType::Q4_K_M, 8192),
        None,
    )
    .unwrap();
    let count = |t: GgmlType| {
        e.tensor_types
            .iter()
            .find(|c| c.ggml_type == t)
            .map(|c| c.tensors)
    };
    assert_eq!(count(GgmlType::F32), Some(66));
    assert_eq!(count(GgmlType::Q4_K), Some(193));
    assert_eq!(count(GgmlType::Q6_K), Some(33));
    assert_eq!(e.n_elements, 8_030_261_312);
    assert_eq!(e.model_size_bytes, 4_912_898_304);
}

#[test]
fn seventy_b_models_give_attn_v_five_bits() {
    let t = gguf_tensors(
        &spec("meta-llama/Llama-3.1-70B"),
        FileType::Q4_K_M,
        QuantOptions::default(),
    )
    .unwrap();
    // use_more_bits(10, 80) is false: q4_K, raised to q5_K for LLM_TYPE_70B.
    assert_eq!(type_of(&t, "blk.10.attn_v.weight"), GgmlType::Q5_K);
    assert_eq!(type_of(&t, "blk.9.attn_v.weight"), GgmlType::Q6_K);
    assert_eq!(type_of(&t, "blk.10.ffn_down.weight"), GgmlType::Q4_K);
    let q2 = gguf_tensors(
        &spec("meta-llama/Llama-3.1-8B"),
        FileType::Q2_K,
        QuantOptions::default(),
    )
    .unwrap();
    assert_eq!(
        type_of(&q2, "blk.10.attn_v.weight"),
        GgmlType::Q4_K,
        "8B: no bump"
    );
}

#[test]
fn eight_expert_models_keep_attention_in_q8_0() {
    let t = gguf_tensors(
        &spec("mistralai/Mixtral-8x7B-v0.1"),
        FileType::Q4_K_M,
        QuantOptions::default(),
    )
    .unwrap();
    assert_eq!(type_of(&t, "blk.0.attn_v.weight"), GgmlType::Q8_0);
    assert_eq!(type_of(&t, "blk.0.attn_k.weight"), GgmlType::Q8_0);
    assert_eq!(type_of(&t, "blk.0.attn_output.weight"), GgmlType::Q5_K);
    assert_eq!(type_of(&t, "blk.0.ffn_gate_inp.weight"), GgmlType::F32);
    assert_eq!(type_of(&t, "blk.0.ffn_down_exps.weight"), GgmlType::Q6_K);
    assert_eq!(type_of(&t, "blk.4.ffn_down_exps.weight"), GgmlType::Q4_K);
}

#[test]
fn rows_that_are_not_whole_super_blocks_fall_back() {
    // Qwen2.5-0.5B: hidden 896 = 3.5 × 256.
    let t = gguf_tensors(
        &spec("Qwen/Qwen2.5-0.5B"),
        FileType::Q4_K_M,
        QuantOptions::default(),
    )
    .unwrap();
    assert_eq!(type_of(&t, "blk.1.attn_q.weight"), GgmlType::Q5_0);
    // Tied: the embedding is the output head; 896 mod 256 ≠ 0 → q8_0.
    assert_eq!(type_of(&t, "token_embd.weight"), GgmlType::Q8_0);
    assert!(t.iter().all(|(t, _)| t.name != "output.weight"));
    // ffn_down rows are 4864 = 19 × 256 long: no fallback.
    assert_eq!(type_of(&t, "blk.1.ffn_down.weight"), GgmlType::Q6_K);
    assert_eq!(type_of(&t, "blk.4.ffn_down.weight"), GgmlType::Q4_K);
    assert_eq!(type_of(&t, "blk.4.attn_q.bias"), GgmlType::F32);
    // DeepSeek's attn_k_b rows are qk_nope_head_dim = 128 long.
    let d = gguf_tensors(
        &spec("deepseek-ai/DeepSeek-V3"),
        FileType::Q4_K_M,
        QuantOptions::default(),
    )
    .unwrap();
    assert_eq!(type_of(&d, "blk.0.attn_k_b.weight"), GgmlType::Q5_0);
    assert_eq!(type_of(&d, "blk.0.attn_v_b.weight"), GgmlType::Q4_K);
    assert_eq!(type_of(&d, "blk.3.exp_probs_b.bias"), GgmlType::F32);
}

#[test]
fn mxfp4_moe_puts_experts_in_mxfp4_and_the_rest_in_q8_0() {
    let t = gguf_tensors(
        &spec("openai/gpt-oss-20b"),
        FileType::MXFP4_MOE,
        QuantOptions::default(),
    )
    .unwrap();
    assert_eq!(type_of(&t, "blk.0.ffn_up_exps.weight"), GgmlType::MXFP4);
    assert_eq!(type_of(&t, "blk.0.ffn_up_exps.bias"), GgmlType::F32);
    assert_eq!(type_of(&t, "blk.0.attn_q.weight"), GgmlType::Q8_0);
    assert_eq!(type_of(&t, "blk.0.attn_sinks.weight"), GgmlType::F32);
    assert_eq!(type_of(&t, "output.weight"), GgmlType::Q8_0);
    assert_eq!(type_of(&t, "token_embd.weight"), GgmlType::Q8_0);
}

#[test]
fn an_importance_matrix_changes_the_iq4_xs_recipe() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let plain = gguf_tensors(&s, FileType::IQ4_XS, QuantOptions::default()).unwrap();
    let imatrix = gguf_tensors(&s, FileType::IQ4_XS, QuantOptions { imatrix: true }).unwrap();
    assert_eq!(type_of(&plain, "blk.0.ffn_down.weight"), GgmlType::Q5_K);
    assert_eq!(type_of(&imatrix, "blk.0.ffn_down.weight"), GgmlType::IQ4_XS);
    assert_eq!(type_of(&plain, "blk.4.ffn_down.weight"), GgmlType::IQ4_XS);
}

/// The KV line of `llama_kv_cache`: `K (t): n_ctx × L × H_kv × d × bytes(t)`,
/// block types at their bytes per block (q8_0: 34 per 32, q4_0: 18 per 32),
/// written out independently of the method.
#[test]
fn kv_cache_follows_the_formula_to_the_byte() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let (layers, kv_heads, head_dim) = (32u64, 8u64, 128u64);
    for (t, num, den) in [
        (GgmlType::F16, 2u64, 1u64),
        (GgmlType::F32, 4, 1),
        (GgmlType::BF16, 2, 1),
        (GgmlType::Q8_0, 34, 32),
        (GgmlType::Q4_0, 18, 32),
        (GgmlType::Q4_1, 20, 32),
        (GgmlType::Q5_0, 22, 32),
        (GgmlType::Q5_1, 24, 32),
        (GgmlType::IQ4_NL, 18, 32),
    ] {
        for (requested, cells) in [(4096u64, 4096u64), (8192, 8192), (5000, 5120), (1, 256)] {
            let e = estimate(
                &s,
                &LlamaCppInputs {
                    n_ctx: Some(requested),
                    cache_type_k: t,
                    cache_type_v: GgmlType::F16,
                    ..LlamaCppInputs::default()
                },
                None,
            )
            .unwrap();
            let k = cells * layers * kv_heads * head_dim * num / den;
            assert_eq!(e.k_bytes, k, "{t} K at {requested}");
            assert_eq!(e.v_bytes, cells * layers * kv_heads * head_dim * 2);
            assert_eq!(e.kv_cache_bytes, e.k_bytes + e.v_bytes);
            assert_eq!(e.kv_cells, cells);
        }
    }
    // 8192 cells in f16: the familiar "KV self size = 1024.00 MiB".
    let e = estimate(&s, &inputs(FileType::Q4_K_M, 8192), None).unwrap();
    assert_eq!(e.kv_cache_bytes, 1024 << 20);
}

#[test]
fn separate_streams_round_each_sequence_to_256_cells() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let e = estimate(
        &s,
        &LlamaCppInputs {
            n_ctx: Some(10_000),
            n_parallel: 3,
            kv_unified: false,
            ..LlamaCppInputs::default()
        },
        None,
    )
    .unwrap();
    // pad(10000, 256) = 10240; 10240 / 3 = 3413 → 3584 cells per stream.
    assert_eq!(e.context.n_ctx_seq, 3584);
    assert_eq!(e.kv_cells, 3 * 3584);
    assert_eq!(e.output_buffer_bytes, 3 * 128_256 * 4);
}

#[test]
fn sliding_window_layers_keep_window_plus_batch_cells() {
    let s = spec("google/gemma-2-9b-it");
    let one = LlamaCppInputs {
        n_ctx: Some(8192),
        n_parallel: 1,
        kv_unified: false,
        ..LlamaCppInputs::default()
    };
    let e = estimate(&s, &one, None).unwrap();
    // pad(min(8192, 4096 + 512), 256) = 4608; 21 of 42 layers slide.
    assert_eq!(e.swa_cells, 4608);
    let per_cell = 8 * 256 * 2; // H_kv · d · f16, K or V
    assert_eq!(e.k_bytes, 21 * 8192 * per_cell + 21 * 4608 * per_cell);
    // Four unified slots need a window each: min(8192, 4·4096 + 512).
    let four = estimate(&s, &inputs(FileType::Q4_K_M, 8192), None).unwrap();
    assert_eq!(four.swa_cells, 8192);
    let full = LlamaCppInputs {
        swa_full: true,
        ..one
    };
    assert_eq!(estimate(&s, &full, None).unwrap().swa_cells, 8192);
    // Mistral's window is not llama.cpp's: the llama architecture has no SWA.
    let mistral = parse_config(
        r#"{"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
            "vocab_size": 32000, "max_position_embeddings": 32768, "sliding_window": 4096}"#,
    )
    .unwrap();
    let m = estimate(&mistral, &inputs(FileType::Q4_K_M, 16384), None).unwrap();
    assert_eq!((m.swa_cells, m.kv_cells), (0, 16384));
}

#[test]
fn latent_attention_caches_one_row_and_no_v() {
    let s = spec("deepseek-ai/DeepSeek-V2-Lite");
    let e = estimate(&s, &inputs(FileType::Q4_K_M, 4096), None).unwrap();
    // 27 layers × 4096 cells × (512 + 64) × 2 bytes.
    assert_eq!(e.k_bytes, 27 * 4096 * 576 * 2);
    assert_eq!(e.v_bytes, 0);
}

#[test]
fn layers_leave_the_gpu_from_the_front() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let at = |ngl: u64| {
        estimate(
            &s,
            &LlamaCppInputs {
                n_gpu_layers: Some(ngl),
                ..inputs(FileType::Q4_K_M, 8192)
            },
            None,
        )
        .unwrap()
    };
    let all = at(99);
    let (none, head) = (at(0), at(1));
    // The input layer stays on the host: token_embd in q4_K.
    assert_eq!(all.host.weights, 295_501_824);
    assert_eq!(all.gpu.weights + all.host.weights, all.model_size_bytes);
    assert_eq!((all.gpu_layers, all.layers_total), (33, 33));
    assert_eq!(none.gpu.weights, 0);
    assert_eq!(none.gpu.kv_cache, 0);
    assert_eq!(none.host.kv_cache, 1024 << 20);
    // -ngl 1 offloads the output layer only: output (q6_K: 2,052,096
    // blocks of 210 bytes), its norm and rope_freqs (f32).
    assert_eq!(head.gpu.weights, 2_052_096 * 210 + 4096 * 4 + 64 * 4);
    assert_eq!(head.gpu.kv_cache, 0);
    // Each further layer brings its weights and its cache.
    let two = at(2);
    assert_eq!(two.gpu.kv_cache, (1024 << 20) / 32);
    for ngl in 0..33 {
        assert!(at(ngl).gpu.weights <= at(ngl + 1).gpu.weights);
    }
    for e in [&all, &none, &head, &two] {
        assert_eq!(
            e.gpu_bytes + e.host_bytes,
            e.model_size_bytes + e.kv_cache_bytes + e.compute_buffer_bytes + e.output_buffer_bytes
        );
    }
}

#[test]
fn tied_heads_are_copied_to_the_gpu() {
    let s = spec("google/gemma-2-2b-it");
    let e = estimate(&s, &inputs(FileType::Q8_0, 4096), None).unwrap();
    let embd = GgmlType::Q8_0.tensor_bytes([2304, 256_000, 1]).unwrap();
    assert_eq!(e.host.weights, embd);
    assert_eq!(e.gpu.weights, e.model_size_bytes);
}

#[test]
fn n_cpu_moe_keeps_expert_tensors_on_the_host() {
    let s = spec("Qwen/Qwen3-30B-A3B");
    let base = inputs(FileType::Q4_K_M, 8192);
    let all = estimate(&s, &base, None).unwrap();
    let cpu = estimate(
        &s,
        &LlamaCppInputs {
            n_cpu_moe: 10,
            ..base
        },
        None,
    )
    .unwrap();
    let experts: u64 = gguf_tensors(&s, FileType::Q4_K_M, QuantOptions::default())
        .unwrap()
        .iter()
        .filter(|(t, _)| t.expert && t.layer.is_some_and(|l| l < 10))
        .map(|(t, ty)| ty.tensor_bytes(t.ne).unwrap())
        .sum();
    assert!(experts > 0);
    assert_eq!(all.gpu.weights - cpu.gpu.weights, experts);
    assert_eq!(cpu.host.weights - all.host.weights, experts);
    assert!(cpu.command.contains("--n-cpu-moe 10"));
}

#[test]
fn what_fits_a_gpu() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let base = inputs(FileType::Q4_K_M, 32768);
    let gib = crate::units::GIB;
    // A 24 GiB card holds it all; an 8 GiB card some layers only.
    let big = estimate(&s, &base, Some(24 * gib)).unwrap();
    let fit = big.fit.unwrap();
    assert!(fit.fits);
    assert_eq!(fit.max_gpu_layers, 33);
    let small = estimate(&s, &base, Some(8 * gib)).unwrap();
    let f = small.fit.unwrap();
    assert!(f.max_gpu_layers < 33 && f.max_gpu_layers > 0);
    // -ngl auto took that many, and they fit within memory less 1 GiB.
    assert_eq!(small.gpu_layers, f.max_gpu_layers);
    assert!(small.gpu_bytes <= 7 * gib);
    let one_more = estimate(
        &s,
        &LlamaCppInputs {
            n_gpu_layers: Some(f.max_gpu_layers + 1),
            ..base
        },
        None,
    )
    .unwrap();
    assert!(one_more.gpu_bytes > 7 * gib);
    // The longest context at all layers: it fits, 256 more does not.
    let all = LlamaCppInputs {
        n_gpu_layers: Some(33),
        ..base
    };
    let ctx = estimate(&s, &all, Some(8 * gib))
        .unwrap()
        .fit
        .unwrap()
        .max_context
        .unwrap();
    assert_eq!(ctx % 256, 0);
    let at = |c: u64| {
        estimate(
            &s,
            &LlamaCppInputs {
                n_ctx: Some(c),
                ..all
            },
            None,
        )
        .unwrap()
    };
    assert!(at(ctx).gpu_bytes <= 7 * gib);
    assert!(at(ctx + 256).gpu_bytes > 7 * gib);
    // Nothing fits a GPU smaller than the margin.
    let tiny = estimate(&s, &all, Some(gib / 2)).unwrap().fit.unwrap();
    assert_eq!(
        (tiny.max_gpu_layers, tiny.max_context, tiny.fits),
        (0, None, false)
    );
}

#[test]
fn compute_buffers_grow_with_context_and_shrink_with_flash_attention() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let at = |c: u64, fa: bool| {
        estimate(
            &s,
            &LlamaCppInputs {
                flash_attn: fa,
                ..inputs(FileType::Q4_K_M, c)
            },
            None,
        )
        .unwrap()
    };
    let mut last = 0;
    for c in [512, 4096, 8192, 32768, 131072] {
        let off = at(c, false);
        let on = at(c, true);
        assert!(off.gpu.compute >= last, "{c}: {} < {last}", off.gpu.compute);
        // At 512 cells the scores (32 MiB a layer) are smaller than where
        // the allocator leaves the last hidden state: the two differ by
        // that placement only.
        if c >= 4096 {
            assert!(on.gpu.compute <= off.gpu.compute, "{c}");
        }
        last = off.gpu.compute;
    }
    // With flash attention the logits of 512 tokens dominate:
    // 512 × 128,256 × 4 bytes above the normed hidden state (512 × 4096 ×
    // 4) and the blocks the last layer leaves below it.
    let fa = at(8192, true).gpu.compute;
    let logits_and_norm = 512 * (4096 + 128_256) * 4;
    assert!(
        fa >= logits_and_norm && fa <= logits_and_norm + 4 * 512 * 4096 * 4,
        "{fa}"
    );
}

#[test]
fn refusals_are_typed() {
    // A Llama-shaped config of an architecture whose GGUF layout is not
    // derived here (StarCoder2 has biases and LayerNorms of its own).
    let other = parse_config(
        r#"{"model_type": "starcoder2", "hidden_size": 3072, "num_hidden_layers": 30,
            "num_attention_heads": 24, "num_key_value_heads": 2, "intermediate_size": 12288,
            "vocab_size": 49152, "max_position_embeddings": 16384}"#,
    )
    .unwrap();
    assert!(matches!(
        estimate(&other, &LlamaCppInputs::default(), None),
        Err(LlamaCppRefusal::UnsupportedArchitecture { .. })
    ));
    let s = spec("meta-llama/Llama-3.1-8B");
    let q8_v = LlamaCppInputs {
        cache_type_v: GgmlType::Q8_0,
        flash_attn: false,
        ..inputs(FileType::Q4_K_M, 4096)
    };
    assert_eq!(
        estimate(&s, &q8_v, None),
        Err(LlamaCppRefusal::QuantizedVNeedsFlashAttention {
            cache_type_v: GgmlType::Q8_0
        })
    );
    let bad_type = LlamaCppInputs {
        cache_type_k: GgmlType::Q4_K,
        ..inputs(FileType::Q4_K_M, 4096)
    };
    assert!(matches!(
        estimate(&s, &bad_type, None),
        Err(LlamaCppRefusal::InvalidInput {
            field: "cache_type_k",
            ..
        })
    ));
    let no_seq = LlamaCppInputs {
        n_parallel: 0,
        ..inputs(FileType::Q4_K_M, 4096)
    };
    assert!(estimate(&s, &no_seq, None).is_err());
}

#[test]
fn the_command_sets_what_the_estimate_assumed() {
    let s = spec("Qwen/Qwen3-8B");
    let e = estimate(
        &s,
        &LlamaCppInputs {
            cache_type_k: GgmlType::Q8_0,
            cache_type_v: GgmlType::Q8_0,
            n_ubatch: 1024,
            n_gpu_layers: Some(20),
            ..inputs(FileType::Q5_K_M, 16384)
        },
        None,
    )
    .unwrap();
    assert!(e.command.starts_with("llama-server -m "), "{}", e.command);
    for part in [
        "-Q5_K_M.gguf",
        " -c 16384",
        " -ngl 20",
        " -ctk q8_0",
        " -ctv q8_0",
        " -fa on",
        " -ub 1024",
    ] {
        assert!(e.command.contains(part), "{part} in {}", e.command);
    }
}

#[test]
fn the_trained_context_is_the_default() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let e = estimate(&s, &LlamaCppInputs::default(), None).unwrap();
    assert_eq!(e.context.n_ctx, 131_072);
    assert!(e.command.contains(" -c 131072"));
}

#[test]
fn huge_inputs_saturate_instead_of_overflowing() {
    let s = spec("deepseek-ai/DeepSeek-V3");
    let e = estimate(
        &s,
        &LlamaCppInputs {
            n_ctx: Some(u64::from(u32::MAX)),
            n_ubatch: u64::from(u32::MAX),
            n_batch: u64::from(u32::MAX),
            flash_attn: false,
            ..LlamaCppInputs::default()
        },
        Some(u64::MAX),
    )
    .unwrap();
    assert!(e.gpu_bytes > e.model_size_bytes);
}

#[test]
fn gemma_3_multimodal_configs_load_their_text_model() {
    // The 4B-27B checkpoints wrap the text model in `text_config` and
    // state a 262,208-token vocabulary; the file holds the tokenizer's
    // 262,144 rows.
    let s = parse_config(
        r#"{"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
            "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
              "intermediate_size": 10240, "num_hidden_layers": 34,
              "sliding_window": 1024, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}},
            "vision_config": {"hidden_size": 1152}}"#,
    )
    .unwrap();
    let t = gguf_tensors(&s, FileType::Q4_K_M, QuantOptions::default()).unwrap();
    let embd = t
        .iter()
        .find(|(t, _)| t.name == "token_embd.weight")
        .unwrap();
    assert_eq!(embd.0.ne, [2560, 262_144, 1]);
    assert_eq!(embd.1, GgmlType::Q6_K, "tied: the head's type");
    let e = estimate(&s, &inputs(FileType::Q4_K_M, 32768), None).unwrap();
    assert_eq!(e.arch, Arch::Gemma3);
    // 34 layers, every sixth global: 5 full, 29 sliding (4 slots × 1024 + 512).
    assert_eq!(e.swa_cells, 4608);
    assert_eq!(e.k_bytes, (5 * 32768 + 29 * 4608) * 4 * 256 * 2);
}

#[test]
fn sliding_layers_are_the_ones_llama_cpp_slides() {
    // set_swa_pattern(n): layer i slides when i mod n < n − 1
    // (Gemma 2 and gpt-oss: n = 2; Gemma 3: n = 6).
    for (id, period) in [
        ("google/gemma-2-9b-it", 2u64),
        ("openai/gpt-oss-20b", 2),
        ("google/gemma-3-1b-it", 6),
    ] {
        let layout = Layout::of(&spec(id)).unwrap();
        for (i, layer) in layout.layers.iter().enumerate() {
            let slides = (i as u64) % period < period - 1;
            let is_sliding = matches!(layer.cache, arch::LayerCache::Sliding { .. });
            assert_eq!(is_sliding, slides, "{id} layer {i}");
        }
    }
}

#[test]
fn earlier_releases_offload_the_output_layer_last() {
    let s = spec("meta-llama/Llama-3.1-8B");
    let at = |ngl: u64, output_layer_first: bool| {
        estimate(
            &s,
            &LlamaCppInputs {
                n_gpu_layers: Some(ngl),
                output_layer_first,
                ..inputs(FileType::Q4_K_M, 8192)
            },
            None,
        )
        .unwrap()
    };
    let head = 2_052_096 * 210 + 4096 * 4 + 64 * 4; // output, output_norm, rope_freqs
    let (new, old) = (at(32, true), at(32, false));
    // -ngl 32: the output layer and 31 blocks now; all 32 blocks before.
    assert_eq!(old.gpu.kv_cache, 1024 << 20);
    assert_eq!(new.gpu.kv_cache, 31 * (1024 << 20) / 32);
    assert_eq!(old.gpu.weights, old.model_size_bytes - 295_501_824 - head);
    assert_eq!(at(33, false).gpu.weights, at(33, true).gpu.weights);
}

#[test]
fn the_gpu_compute_buffer_is_the_largest_of_its_phases() {
    let models = [
        "meta-llama/Llama-3.1-8B",
        "google/gemma-2-9b-it",
        "Qwen/Qwen3-30B-A3B",
        "deepseek-ai/DeepSeek-V2-Lite",
    ];
    for id in models {
        let spec = spec(id);
        for (ngl, flash_attn) in [
            (None, true),
            (Some(0), true),
            (Some(5), false),
            (Some(99), false),
        ] {
            let i = LlamaCppInputs {
                n_gpu_layers: ngl,
                flash_attn,
                ..inputs(FileType::Q4_K_M, 8_192)
            };
            let e = estimate(&spec, &i, None).unwrap();
            for side in [e.gpu, e.all_layers_gpu] {
                assert_eq!(side.compute_phases.peak(), side.compute, "{id} {ngl:?}");
            }
            assert_eq!(e.host.compute_phases, ComputePhases::default());
        }
    }
    // Some GPU side with layers has an attention and a feed-forward phase.
    let e = estimate(&spec(models[0]), &inputs(FileType::Q4_K_M, 8_192), None).unwrap();
    let p = e.all_layers_gpu.compute_phases;
    assert!(p.layer_inputs > 0 && p.attention > 0 && p.ffn > 0 && p.output > 0);
}

#[test]
fn several_gpus_with_every_layer_keep_four_copies_of_each_input() {
    use super::devices::{estimate_devices, Devices};
    let s = spec("meta-llama/Llama-3.1-8B");
    let i = LlamaCppInputs {
        n_gpu_layers: Some(99),
        n_parallel: 1,
        ..inputs(FileType::Q4_K_M, 8192)
    };
    let gib = 1u64 << 30;
    let plan = |overrides: &[&str]| {
        let d = Devices {
            gpus: vec![24 * gib, 24 * gib],
            overrides: super::overrides::parse(overrides).unwrap(),
            ..Devices::default()
        };
        estimate_devices(&s, &i, &d).unwrap().plan
    };
    // Pipeline parallelism: every layer on a GPU, no -ot. An override that
    // matches nothing turns it off (llama.cpp checks that overrides exist).
    let parallel = plan(&[]);
    let serial = plan(&["nothing_matches=CUDA0"]);
    // GPU 1 reads the residual (512 × 4096 f32) and the mask (8192 × 512
    // f32) from elsewhere: three more copies of each stay in its buffer.
    let inputs_gpu1 = 512 * 4096 * 4 + 8192 * 512 * 4;
    let extra = parallel.devices[1].compute - serial.devices[1].compute;
    assert!(extra >= 3 * inputs_gpu1, "{extra}");
    assert!(parallel.host.compute > serial.host.compute);
}
