//! Real configs of current architectures (2026) against their published
//! parameter counts, and the caches their layers keep. Configs and figures
//! are listed with their sources in `tests/fixtures/SOURCES.md`.

mod support;

use support::{check, fixture, read, Expect, Published, B};
use vramfit_core::model::{parse_config, AttentionKind, ConfigErrorKind, Family};

fn cases() -> Vec<(&'static str, Expect)> {
    use Published::{Exact, Rounded};
    vec![
        (
            // The Hub's safetensors total of the BF16 checkpoint (all 20
            // shards); "48B total, 3B activated" on the card.
            "moonshotai__Kimi-Linear-48B-A3B-Instruct.json",
            Expect {
                family: Family::KimiLinear,
                total: Exact(49_122_681_728),
                active: Some(Rounded { value: 3, unit: B }),
            },
        ),
        (
            // "284B total, 13B activated"; the activated figure leaves
            // out the input embedding.
            "deepseek-ai__DeepSeek-V4-Flash.json",
            Expect {
                family: Family::DeepseekV4,
                total: Rounded {
                    value: 284,
                    unit: B,
                },
                active: Some(Rounded { value: 13, unit: B }),
            },
        ),
        (
            // "1.6T total, 49B activated".
            "deepseek-ai__DeepSeek-V4-Pro.json",
            Expect {
                family: Family::DeepseekV4,
                total: Rounded {
                    value: 16,
                    unit: 100 * B,
                },
                active: Some(Rounded { value: 49, unit: B }),
            },
        ),
        (
            // "25.2B total, 3.8B active" (the text model; the vision
            // encoder is counted apart).
            "google__gemma-4-26B-A4B.json",
            Expect {
                family: Family::Gemma4,
                total: Rounded {
                    value: 252,
                    unit: B / 10,
                },
                active: Some(Rounded {
                    value: 38,
                    unit: B / 10,
                }),
            },
        ),
        (
            // "30.7B" (dense); the NVFP4 export keeps the shapes.
            "nvidia__Gemma-4-31B-IT-NVFP4.json",
            Expect {
                family: Family::Gemma4,
                total: Rounded {
                    value: 307,
                    unit: B / 10,
                },
                active: None,
            },
        ),
        (
            // "309B total, 15B active".
            "XiaomiMiMo__MiMo-V2-Flash.json",
            Expect {
                family: Family::MiMoV2,
                total: Rounded {
                    value: 309,
                    unit: B,
                },
                active: Some(Rounded { value: 15, unit: B }),
            },
        ),
        (
            // MiniMax-M1 (model_type minimax_m1), the MiniMax-Text-01
            // layout: "456 billion total parameters, 45.9 billion
            // activated per token".
            "MiniMaxAI__MiniMax-M1.json",
            Expect {
                family: Family::MiniMax,
                total: Rounded {
                    value: 456,
                    unit: B,
                },
                active: Some(Rounded {
                    value: 459,
                    unit: B / 10,
                }),
            },
        ),
    ]
}

#[test]
fn current_totals_match_published_figures() {
    let wrong: Vec<String> = cases().iter().flat_map(|(f, e)| check(f, e)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for file in support::CURRENT {
        assert!(
            cases().iter().any(|(f, _)| f == file) || STRUCTURAL.contains(file),
            "{file} is listed but not checked"
        );
    }
}

/// Fixtures checked by structure only (their published figure is not a
/// parameter count of the text model alone), or in a file of their own
/// (Kimi-K3: `tests/kimi_k3.rs`).
const STRUCTURAL: &[&str] = &[
    "nvidia__Gemma-4-26B-A4B-NVFP4.json",
    "XiaomiMiMo__MiMo-7B-Base.json",
    "zai-org__GLM-5.json",
    "zai-org__GLM-5.2.json",
    "nvidia__Qwen3.6-35B-A3B-NVFP4.json",
    "Qwen__Qwen3.5-397B-A17B.json",
    "moonshotai__Kimi-K3.json",
    "stepfun-ai__Step-3.7-Flash.json",
    "stepfun-ai__Step-3.7-Flash.text.reconstructed.json",
    "MiniMaxAI__MiniMax-M3.json",
];

#[test]
fn deepseek_v4_caches_a_window_and_compressed_entries() {
    let s = read("deepseek-ai__DeepSeek-V4-Flash.json");
    // compress_ratios (cut to 43 layers): 0, 0, then 4 and 128 in turn,
    // the last layer 4: 2 window-only, 21 overlapping (with an indexer),
    // 20 heavily compressed layers.
    let count = |ratio: u64| {
        s.attention
            .iter()
            .filter(|k| matches!(k, AttentionKind::Compressed { ratio: r, .. } if *r == ratio))
            .count() as u64
    };
    let window_only = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::SlidingWindow { window: 128 })
        .count() as u64;
    assert_eq!((window_only, count(4), count(128)), (2, 21, 20));
    // One shared key/value head of 512 per token, stored once.
    assert_eq!(s.num_kv_heads, 1);
    // Elements at a context of S: every layer keeps 512 × min(S, 128);
    // ratio-4 layers add (512 + 128) per 4 tokens, ratio-128 ones 512 per
    // 128 tokens; compressor buffers at bf16: 3·2048 + 4·1024 + 3·512 +
    // 4·256 = 12,800 (ratio 4), 2·127·512 = 130,048 (ratio 128).
    let elements =
        |ctx: u64| 43 * 512 * ctx.min(128) + 21 * (640 * (ctx / 4)) + 20 * (512 * (ctx / 128));
    let state = 21 * 12_800 + 20 * 130_048;
    for ctx in [1u64, 100, 1_000, 65_536, 1_048_576] {
        let bf16 = 2 * (elements(ctx) + state);
        assert_eq!(s.kv_cache_bytes(ctx, 1, 16_000), bf16, "context {ctx}");
    }
    // At one million tokens the cache is under a sixth of what full
    // attention on one 512-wide head in every layer would keep
    // ((21 · 160 + 20 · 4) / (43 · 512) = 15.6 %).
    let full = 2 * 43 * 512 * 1_048_576u64;
    let cache = s.kv_cache_bytes(1_048_576, 1, 16_000);
    assert!(cache * 6 < full && cache * 7 > full, "{cache} of {full}");
}

#[test]
fn deepseek_v4_stores_fp4_experts_and_fp8_blocks() {
    let s = read("deepseek-ai__DeepSeek-V4-Flash.json");
    let q = s.quantization.as_ref().expect("quantization_config");
    // Experts: E2M1 two per byte and an E8M0 scale per 32 inputs.
    let experts = s.params.routed_experts;
    assert_eq!(s.quantized_params.routed_experts, experts);
    assert_eq!(s.published_bytes.routed_experts, experts / 2 + experts / 32);
    assert!(q.assumptions.iter().any(|a| a.contains("expert_dtype fp4")));
    // The compressor and indexer projections stay bf16: the quantized
    // attention parameters leave them out.
    assert!(s.quantized_params.attention < s.params.attention);
}

#[test]
fn gemma4_global_layers_have_their_own_heads_and_widths() {
    let s = read("google__gemma-4-26B-A4B.json");
    // 25 sliding layers (8 key/value heads of 256, window 1024) and 5
    // global ones (2 heads of 512, keys doubling as values but cached as
    // both).
    let global = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::Full)
        .count();
    assert_eq!(global, 5);
    assert_eq!(
        s.kv_bytes_per_token(16_000),
        2 * (25 * 2 * 8 * 256 + 5 * 2 * 2 * 512)
    );
    // At 256K tokens the sliding layers stop at 1024.
    let ctx = 262_144u64;
    let elements = 25 * 2 * 8 * 256 * 1024 + 5 * 2 * 2 * 512 * ctx;
    assert_eq!(s.kv_cache_bytes(ctx, 1, 16_000), 2 * elements);
    // The SigLIP-like encoder (27 layers of 1152) and its embedder.
    let v = s.vision.as_ref().expect("vision tower counted");
    assert_eq!(v.layers, 27);
    let layer = 4 * 1152 * 1152 + 3 * 1152 * 4304 + 2 * 72 + 4 * 1152;
    let tower = 27 * layer + 1152 * 768 + 2 * 10_240 * 1152 + 2 * 1152 + 2816 * 1152;
    assert_eq!(v.params, tower);
}

#[test]
fn gemma4_nvfp4_export_quantizes_the_experts_only() {
    // NVIDIA's export ignores every layer's attention, MLP and router:
    // what is quantized is the experts (stored beside the MLP).
    let s = read("nvidia__Gemma-4-26B-A4B-NVFP4.json");
    assert_eq!(s.quantized_params.routed_experts, s.params.routed_experts);
    assert_eq!(
        s.quantized_params.total(),
        s.quantized_params.routed_experts
    );
}

#[test]
fn mimo_v2_layers_differ_in_heads_and_cache_values_narrower_than_keys() {
    let s = read("XiaomiMiMo__MiMo-V2-Flash.json");
    // hybrid_layer_pattern: 9 full layers (4 key/value heads), 39 sliding
    // ones (8 heads, window 128); keys 192 and values 128 wide.
    let full = s
        .attention
        .iter()
        .filter(|k| **k == AttentionKind::Full)
        .count() as u64;
    assert_eq!(full, 9);
    let ctx = 65_536u64;
    let elements = full * 4 * (192 + 128) * ctx + (48 - full) * 8 * (192 + 128) * 128;
    assert_eq!(s.kv_cache_bytes(ctx, 1, 16_000), 2 * elements);
    // Experts on the layers moe_layer_freq marks, a dense MLP on the first.
    let moe = s.moe.as_ref().expect("experts");
    assert_eq!((moe.moe_layers, moe.dense_layers), (47, 1));
}

#[test]
fn mimo_7b_stores_one_mtp_layer_beside_qwen2_layers() {
    let s = read("XiaomiMiMo__MiMo-7B-Base.json");
    assert_eq!(s.family, Family::MiMo);
    // One Qwen2 layer (q/k/v biases), its two norms, the two input norms
    // and the final one, input_proj 2H → H; embedding and head shared.
    let (h, kv, i) = (4096u64, 8 * 128u64, 11_008u64);
    let layer = h * h + h + 2 * (kv * h + kv) + h * h + 3 * h * i + 2 * h;
    assert_eq!(s.mtp_params, layer + 3 * h + 2 * h * h);
    // Qwen2-7B shapes with MiMo's vocabulary: 36 layers.
    let text = 36 * layer + 2 * 151_680 * h + h;
    assert_eq!(s.params_total, text);
}

#[test]
fn glm5_2_shares_indexers_and_caches_their_keys_where_they_run() {
    let glm5 = read("zai-org__GLM-5.json");
    let glm52 = read("zai-org__GLM-5.2.json");
    // "744B" (GLM-5 model card). Its "40B active" is not compared: the
    // reader counts 41.8B with the embedding, 40.8B without.
    assert_eq!((glm5.params_total + B / 2) / B, 744);
    // indexer_types: full on layers 0, 1, 2 and every fourth from 6: 21
    // layers; the other 57 reuse the selection and hold no indexer.
    let indexed = |s: &vramfit_core::model::ModelSpec| {
        s.attention
            .iter()
            .filter(|k| matches!(k, AttentionKind::SparseMla { .. }))
            .count() as u64
    };
    assert_eq!((indexed(&glm5), indexed(&glm52)), (78, 21));
    // One indexer: wq_b 32·128×2048, wk 128×6144, k_norm 2·128,
    // weights_proj 32×6144.
    let indexer = 32 * 128 * 2048 + 128 * 6144 + 2 * 128 + 32 * 6144;
    assert_eq!(glm5.params_total - glm52.params_total, 57 * indexer);
    // Per token: the latent (512 + 64) in every layer, the indexer's key
    // (128) where it runs.
    assert_eq!(glm5.kv_bytes_per_token(16_000), 2 * 78 * (576 + 128));
    assert_eq!(glm52.kv_bytes_per_token(16_000), 2 * (78 * 576 + 21 * 128));
}

#[test]
fn qwen3_5_counts_its_vision_encoder_and_mtp_layer_apart() {
    let s = read("Qwen__Qwen3.5-397B-A17B.json");
    // "397B total, 17B activated": the text model and the vision encoder
    // (Qwen3-VL's without DeepStack mergers); the MTP layer is apart.
    let v = s.vision.as_ref().expect("vision encoder counted");
    assert_eq!(v.layers, 27);
    assert_eq!((s.checkpoint.params + B / 2) / B, 397);
    assert_eq!((s.params_active + B / 2) / B, 17);
    // One MTP step: a gated-attention layer with experts, fc 2H → H and
    // three norms, the model's embedding and head.
    let h = s.hidden_size;
    assert!(s.mtp_params > 2 * h * h + 3 * h);
    assert!(s.mtp_params < s.params_total / 50);
}

#[test]
fn qwen3_6_mixed_precision_quantizes_each_listed_module_in_its_format() {
    // NVIDIA's ModelOpt MIXED_PRECISION export: experts, shared experts
    // and the head in NVFP4, attention and DeltaNet projections in FP8;
    // the rest (embedding, routers, DeltaNet b/a, vision) unquantized.
    let s = read("nvidia__Qwen3.6-35B-A3B-NVFP4.json");
    let q = s.quantization.as_ref().expect("quantization_config");
    assert_eq!(q.groups.len(), 2);
    assert_eq!(s.quantized_params.routed_experts, s.params.routed_experts);
    // Shared experts, but not their sigmoid gate (1 × 2048 per layer).
    assert_eq!(
        s.quantized_params.shared_experts,
        s.params.shared_experts - 40 * 2048
    );
    assert_eq!(s.quantized_params.lm_head, s.params.lm_head);
    assert_eq!(
        (s.quantized_params.embedding, s.quantized_params.router),
        (0, 0)
    );
    // in_proj_b and in_proj_a (2 × 32 × 2048 per DeltaNet layer) stay
    // bf16, like the norms, convolutions and scalars.
    let a = s.params.attention - s.quantized_params.attention;
    assert!(a >= 30 * 2 * 32 * 2048, "{a}");
    assert!(a < s.params.attention / 20, "{a}");
}

#[test]
fn kimi_linear_keeps_a_delta_state_in_kda_layers_and_latents_in_mla_layers() {
    let s = read("moonshotai__Kimi-Linear-48B-A3B-Instruct.json");
    // kda_layers (1-based) 1–3, 5–7, …; full_attn_layers 4, 8, …, 24, 27.
    let mla = s
        .attention
        .iter()
        .filter(|k| matches!(k, AttentionKind::Mla { .. }))
        .count() as u64;
    assert_eq!(mla, 7);
    assert!(matches!(s.attention[3], AttentionKind::Mla { .. }));
    assert!(matches!(s.attention[0], AttentionKind::Linear { .. }));
    // Per token only the MLA layers grow: the latent 512 and the rope key
    // 64.
    assert_eq!(s.kv_bytes_per_token(16_000), 2 * 7 * (512 + 64));
    // A KDA layer: 32 heads of 128 — a 128 × 128 state per head and three
    // convolution windows of 3 taps (q, k, v).
    let state = 32 * 128 * 128 + 3 * 32 * 128 * 3;
    assert_eq!(s.attention[0], AttentionKind::Linear { state });
    // One KDA layer's tensors, as the checkpoint lists them.
    let kda = 3 * 4096 * 2304
        + 3 * 4096 * 4
        + 2 * (128 * 2304 + 4096 * 128)
        + 32 * 2304
        + 32
        + 4096
        + 128
        + 2304 * 4096;
    let mla_layer = 6144 * 2304 + 576 * 2304 + 512 + 8192 * 512 + 2304 * 4096;
    assert_eq!(
        s.params.attention + 7 * 512 + 20 * 128,
        20 * kda + 7 * mla_layer
    );
}

#[test]
fn kimi_k3_keys_in_a_kimi_linear_config_are_read_with_its_parts() {
    // Kimi-Linear-48B with Kimi-K3's latent experts (SGLang `KimiK3MoE`):
    // the 256 experts of the 26 MoE layers work in 1024 instead of 2304,
    // bracketed by a down projection, a norm and an up projection; a K3
    // checkpoint stores A_log as [head_dim] (128, not 32) in the 20 KDA
    // layers. (Kimi-K3 itself: `tests/kimi_k3.rs`.)
    let base = read("moonshotai__Kimi-Linear-48B-A3B-Instruct.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&fixture("moonshotai__Kimi-Linear-48B-A3B-Instruct.json")).unwrap();
    c["routed_expert_hidden_size"] = 1024.into();
    c["latent_moe_use_norm"] = true.into();
    let s = parse_config(&c.to_string()).unwrap();
    let (h, r, moe_layers, experts, width) = (2304u64, 1024u64, 26u64, 256u64, 1024u64);
    let latent = moe_layers * (r * h + r + h * r);
    let narrower = moe_layers * experts * 3 * width * (h - r);
    let a_log = 20 * (128 - 32);
    assert_eq!(
        s.params_total + narrower,
        base.params_total + latent + a_log
    );
    assert_eq!(s.moe.as_ref().unwrap().latent, Some(r));
}

#[test]
fn step3p7_summary_without_the_keys_vllm_reads_is_refused() {
    // aiconfigurator's summary of Step-3.7-Flash is flat and spells the
    // experts `num_experts`: the step3p5 reader (vLLM's keys) refuses it
    // naming the key it lacks rather than reading it as something else.
    let text = fixture("stepfun-ai__Step-3.7-Flash.json");
    let e = parse_config(&text).unwrap_err();
    assert!(
        matches!(&e.kind, ConfigErrorKind::MissingKeys { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("moe_num_experts"), "{e}");
}

#[test]
fn deepseek_v4_nvfp4_export_keeps_the_fp8_layout_with_nvfp4_experts() {
    // NVIDIA's export: `quant_method: fp8`, `moe_quant_algo: NVFP4`; the
    // routed experts re-quantized to NVFP4, attention and shared experts
    // left in DeepSeek's FP8 blocks.
    let nv = parse_config(include_str!(
        "../data/configs/nvidia__DeepSeek-V4-Flash-NVFP4.json"
    ))
    .unwrap();
    let ds = read("deepseek-ai__DeepSeek-V4-Flash.json");
    assert_eq!(nv.params_total, ds.params_total);
    let experts = nv.params.routed_experts;
    assert_eq!(nv.quantized_params.routed_experts, experts);
    // 43 layers × 256 experts × 3 matrices, each R·C/2 packed values,
    // R·C/16 FP8 scales and two fp32 scalars.
    let matrices = 43 * 256 * 3;
    assert_eq!(
        nv.published_bytes.routed_experts,
        experts / 2 + experts / 16 + 8 * matrices
    );
    // Everything else as in DeepSeek's own FP8 checkpoint.
    assert_eq!(nv.published_bytes.attention, ds.published_bytes.attention);
    assert_eq!(
        nv.published_bytes.shared_experts,
        ds.published_bytes.shared_experts
    );
    let q = nv.quantization.as_ref().unwrap();
    assert!(q
        .assumptions
        .iter()
        .any(|a| a.contains("moe_quant_algo NVFP4")));
}

/// The Hub's totals of DeepSeek's V4 checkpoints count stored elements
/// (FP8 weights one each with an E8M0 scale per 128 × 128 block, FP4
/// experts two values per byte with an E8M0 scale per 32, the rest one
/// per value), the MTP layer included: 158,069,433,298 (Flash) and
/// 861,608,274,846 (Pro) (AlexsJones/llmfit@a3e0eb27c57fe05298292f4c61699b9aed2824ea
/// llmfit-core/data/hf_models.json, `parameters_raw`). The model as the
/// reader weighs it plus its MTP layer (stored like a model layer, with
/// FP8 e_proj and h_proj) gives both to the element.
#[test]
fn deepseek_v4_checkpoints_with_their_mtp_layer_match_the_hub_to_the_element() {
    let blocks = |r: u64, c: u64| r.div_ceil(128) * c.div_ceil(128);
    for (file, hub) in [
        ("deepseek-ai__DeepSeek-V4-Flash.json", 158_069_433_298u64),
        ("deepseek-ai__DeepSeek-V4-Pro.json", 861_608_274_846),
    ] {
        let s = read(file);
        let text = fixture(file);
        let c: serde_json::Value = serde_json::from_str(&text).unwrap();
        let k = |key: &str| c[key].as_u64().unwrap();
        let (h, heads, d) = (k("hidden_size"), k("num_attention_heads"), k("head_dim"));
        let (rq, groups, ro, i) = (
            k("q_lora_rank"),
            k("o_groups"),
            k("o_lora_rank"),
            k("moe_intermediate_size"),
        );
        // The main model: stored values, FP8 block scales (counted as
        // fp32 in the bytes, one element each), FP4 scales, the rest.
        let st = &s.checkpoint.quantized_bytes;
        let q = s.quantized_params.total();
        let routed = s.params.routed_experts;
        let main = st.values + (st.scales - routed / 32) / 4 + routed / 32 + (s.params_total - q);
        // The MTP layer: one layer's routed experts in FP4, its FP8
        // linears' block scales (q_a, q_b, kv, grouped o_a, o_b, the
        // shared expert, e_proj and h_proj), every other value once.
        let experts = k("n_routed_experts") * 3 * h * i;
        let fp8_scales = blocks(rq, h)
            + blocks(heads * d, rq)
            + blocks(d, h)
            + blocks(groups * ro, heads * d / groups)
            + blocks(h, groups * ro)
            + 2 * blocks(i, h)
            + blocks(h, i)
            + 2 * blocks(h, h);
        let mtp = experts / 2 + experts / 32 + (s.mtp_params - experts) + fp8_scales;
        assert_eq!(main + mtp, hub, "{file}");
    }
}

#[test]
fn stablelm_epoch_reads_as_the_stablelm_it_became() {
    // StableLM 2's config before its transformers port named the model
    // type stablelm_epoch and the norm epsilon norm_eps, for the same
    // tensors (vLLM stablelm.py reads both).
    let ported = include_str!("../data/configs/stabilityai__stablelm-2-zephyr-1_6b.json");
    let mut c: serde_json::Value = serde_json::from_str(ported).unwrap();
    let o = c.as_object_mut().unwrap();
    o.insert("model_type".into(), "stablelm_epoch".into());
    o.insert(
        "architectures".into(),
        serde_json::json!(["StableLMEpochForCausalLM"]),
    );
    let eps = o.remove("layer_norm_eps").unwrap();
    o.insert("norm_eps".into(), eps);
    let rope = o.remove("partial_rotary_factor").unwrap();
    o.insert("rope_pct".into(), rope);
    let epoch = parse_config(&c.to_string()).unwrap();
    let port = parse_config(ported).unwrap();
    assert_eq!(epoch.params_total, port.params_total);
    assert_eq!(epoch.family, Family::StableLm);
}
