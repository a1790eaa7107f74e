//! Model types of the catalog read from a serving engine's implementation
//! (their modelling code is the checkpoint's own, and vLLM ports it):
//! each against a count written out by hand from that code, on the
//! catalog's config (`data/configs/`, sources in `data/models.json`).

use vramfit_core::model::{parse_config, AttentionKind, Family, ModelSpec, Reading};

fn catalog(file: &str) -> String {
    let path = format!("{}/data/configs/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(file: &str) -> ModelSpec {
    parse_config(&catalog(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn edited(file: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(&catalog(file)).unwrap();
    edit(&mut c);
    c.to_string()
}

/// Orion-14B-Base, from vLLM's `orion.py`: Llama's tensors with
/// LayerNorms (weight and bias) in place of RMSNorms.
#[test]
fn orion_is_llama_with_biased_layer_norms() {
    const FILE: &str = "OrionStarAI__Orion-14B-Base.json";
    let (h, i, layers, heads, vocab) = (5120u64, 15360u64, 40u64, 40u64, 84_608u64);
    let d = h / heads;
    let s = read(FILE);
    assert_eq!((s.reading, s.family), (Reading::Exact, Family::Orion));
    let attention = 4 * h * heads * d;
    let mlp = 3 * h * i;
    let norms = 2 * 2 * h;
    let total = 2 * vocab * h + layers * (attention + mlp + norms) + 2 * h;
    assert_eq!(s.params_total, total);
    assert_eq!(s.params_total, 14_498_703_360);
    // The paper's and the model name's "14B" (arXiv 2401.12246).
    assert_eq!((s.params_total + 500_000_000) / 1_000_000_000, 14);
    assert!(s.attention.iter().all(|k| *k == AttentionKind::Full));
    // Multi-head attention: 40 key and value heads of 128 in 40 layers,
    // bf16.
    assert_eq!(s.kv_bytes_per_token(16_000), layers * 2 * heads * d * 2);
    assert_eq!(s.kv_bytes_per_token(16_000), 819_200);
    // vLLM's Orion MLP is SiLU only.
    let gelu = edited(FILE, |c| c["hidden_act"] = "gelu".into());
    let e = parse_config(&gelu).unwrap_err();
    assert!(e.to_string().contains("hidden_act"), "{e}");
    // A tied head drops one V × H matrix.
    let tied = edited(FILE, |c| c["tie_word_embeddings"] = true.into());
    assert_eq!(parse_config(&tied).unwrap().params_total, total - vocab * h);
}

/// Phi-3.5-vision-instruct, from vLLM's `phi3v.py` and the checkpoint's
/// `image_embedding_phi3_v.py`: the Phi-3.5-mini text model, a CLIP
/// ViT-L/14-336 and the HD transform's separators and two-layer projector.
#[test]
fn phi3_vision_counts_the_clip_tower_and_the_hd_projector() {
    const FILE: &str = "microsoft__Phi-3.5-vision-instruct.json";
    let (h, i, layers, vocab) = (3072u64, 8192u64, 32u64, 32_064u64);
    let s = read(FILE);
    assert_eq!((s.reading, s.family), (Reading::Exact, Family::Phi3));
    // Phi-3: fused qkv (3H), o, fused gate/up (2I), down, two RMSNorms.
    let layer = h * 3 * h + h * h + h * 2 * i + i * h + 2 * h;
    let text = 2 * vocab * h + layers * layer + h;
    assert_eq!(s.params_total, text);
    // floschne/gimmick's Hub count of microsoft/phi-3.5-mini-instruct.
    assert_eq!(s.params_total, 3_821_079_552);
    let (c, ci, cl, positions) = (1024u64, 4096u64, 24u64, 577u64);
    let clip_layer = 4 * (c * c + c) + (ci * c + ci) + (c * ci + c) + 4 * c;
    let clip = c + c * 3 * 14 * 14 + positions * c + 2 * c + cl * clip_layer + 2 * c;
    let projector = 2 * 4 * c + (4 * c * h + h) + (h * h + h);
    let v = s.vision.as_ref().expect("the image embedding is counted");
    assert_eq!((v.encoder_params, v.projector_params), (clip, projector));
    assert_eq!(v.encoder_params, 303_507_456);
    // The Hub's safetensors count of microsoft/Phi-3.5-vision-instruct, as
    // floschne/gimmick records it (the model card's "4.2B").
    assert_eq!(s.checkpoint.params, 4_146_621_440);
    // Sliding window of 262,144 on every layer, longer than the context:
    // 32 heads of 96, K and V, bf16.
    assert_eq!(s.kv_bytes_per_token(16_000), layers * 2 * h * 2);
    // Layouts vLLM does not build are refused by name.
    for (edit, key) in [
        (
            edited(FILE, |c| {
                c["embd_layer"]["projection_cls"] = "linear".into()
            }),
            "projection_cls",
        ),
        (
            edited(FILE, |c| {
                c["embd_layer"]["hd_transform_order"] = "glb_sub".into()
            }),
            "hd_transform_order",
        ),
        (
            edited(FILE, |c| c["img_processor"]["image_dim_out"] = 768.into()),
            "image_dim_out",
        ),
    ] {
        let e = parse_config(&edit).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
}

/// Phi-4-reasoning-vision-15B, from Microsoft's `modeling_phi4_visionr.py`:
/// a Phi-3-layout text model with Phi-4's sizes, a SigLIP-2 NaFlex
/// encoder (patch 16 from the tower's name, 256 positions, the
/// attention-pooling head) and an `mlp2x_gelu` projector.
#[test]
fn phi4_reasoning_vision_counts_the_siglip2_tower_and_projector() {
    const FILE: &str = "microsoft__Phi-4-reasoning-vision-15B.json";
    let (h, i, layers, kv, d, vocab) = (5120u64, 17920u64, 40u64, 10u64, 128u64, 100_352u64);
    let s = read(FILE);
    assert_eq!((s.reading, s.family), (Reading::Exact, Family::Phi3));
    let layer = h * (h + 2 * kv * d) + h * h + h * 2 * i + i * h + 2 * h;
    assert_eq!(s.params_total, 2 * vocab * h + layers * layer + h);
    let (vh, vi, vl, patch, positions) = (1152u64, 4304u64, 27u64, 16u64, 256u64);
    let siglip_layer = 4 * (vh * vh + vh) + (vi * vh + vi) + (vh * vi + vh) + 4 * vh;
    let head = vh + 3 * vh * vh + 3 * vh + vh * vh + vh + 2 * vh + (vi * vh + vi) + (vh * vi + vh);
    let encoder =
        (vh * 3 * patch * patch + vh) + positions * vh + vl * siglip_layer + 2 * vh + head;
    let projector = (h * vh + h) + (h * h + h);
    let v = s.vision.as_ref().expect("the SigLIP-2 tower is counted");
    assert_eq!((v.encoder_params, v.projector_params), (encoder, projector));
    // The Hub's safetensors total (llmfit's `parameters_raw`, in the
    // catalog): to the parameter.
    assert_eq!(s.checkpoint.params, 15_119_518_144);
    // Grouped-query attention (10 key/value heads of 128) in 40 layers,
    // bf16; the config's sliding_window is null.
    assert_eq!(s.kv_bytes_per_token(16_000), layers * 2 * kv * d * 2);
    for (edit, key) in [
        (
            edited(FILE, |c| {
                c["mm_vision_tower"] = "google/siglip-so400m-patch14-384".into()
            }),
            "mm_vision_tower",
        ),
        (edited(FILE, |c| c["use_s2"] = true.into()), "use_s2"),
        (
            edited(FILE, |c| c["mm_projector_type"] = "qformer".into()),
            "mm_projector_type",
        ),
    ] {
        let e = parse_config(&edit).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
    // A linear projector is one biased matrix.
    let linear = edited(FILE, |c| c["mm_projector_type"] = "linear".into());
    let v = parse_config(&linear).unwrap().vision.unwrap();
    assert_eq!(v.projector_params, h * vh + h);
}

/// RWKV-5 World 3B, from mlc-llm's `rwkv5_model.py`: recurrent blocks
/// (time mixing with a 64 × 64 state per head, squared-ReLU channel
/// mixing), no KV cache per token, a fixed state per sequence.
#[test]
fn rwkv5_counts_time_and_channel_mixing_and_a_fixed_state() {
    const FILE: &str = "RWKV__rwkv-5-world-3b.json";
    let (h, layers, vocab, d) = (2560u64, 32u64, 65_536u64, 64u64);
    let heads = h / d;
    // intermediate_size null: ⌊3.5 · 2560⌋ rounded down to 32.
    let i = 8960u64;
    let s = read(FILE);
    assert_eq!((s.reading, s.family), (Reading::Exact, Family::Rwkv5));
    let time_mixing = 2 * heads * d + 4 * h + 5 * h * h + 2 * h;
    let channel_mixing = 2 * h + 2 * i * h + h * h;
    let block = time_mixing + channel_mixing + 2 * 2 * h;
    // The head is counted although the config says tie_word_embeddings:
    // the engine loads the checkpoint's own head.weight.
    let total = 2 * vocab * h + 2 * h + layers * block + 2 * h;
    assert_eq!(s.params_total, total);
    assert_eq!(s.params_total, 3_062_999_040);
    // The model name's "3B".
    assert_eq!((s.params_total + 500_000_000) / 1_000_000_000, 3);
    // Nothing grows with the context; the state is two token shifts of H
    // at bf16 and a float32 64 × 64 state per head, per block.
    assert_eq!(s.kv_bytes_per_token(16_000), 0);
    let state_bytes = layers * (2 * h * 2 + heads * d * d * 4);
    assert_eq!(state_bytes, 21_299_200);
    assert_eq!(s.kv_cache_bytes(1, 1, 16_000), state_bytes);
    assert_eq!(s.kv_cache_bytes(100_000, 3, 16_000), 3 * state_bytes);
    // A float32 checkpoint holds the whole state at its own width.
    let f32 = edited(FILE, |c| c["torch_dtype"] = "float32".into());
    let s32 = parse_config(&f32).unwrap();
    assert_eq!(
        s32.kv_cache_bytes(1, 1, 16_000),
        layers * (2 * h * 4 + heads * d * d * 4)
    );
    // Other versions and widths are refused by name.
    for (edit, key) in [
        (
            edited(FILE, |c| c["model_version"] = "5_1".into()),
            "model_version",
        ),
        (
            edited(FILE, |c| c["attention_hidden_size"] = 2048.into()),
            "attention_hidden_size",
        ),
    ] {
        let e = parse_config(&edit).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
}
