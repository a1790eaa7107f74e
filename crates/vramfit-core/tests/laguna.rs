//! Poolside's Laguna (`laguna`) against counts written out by hand from
//! transformers' `models/laguna` and vLLM's `laguna.py`, on the two
//! configs of the catalog (`data/models.json` gives their sources). The
//! published totals are the model cards' rounded figures (~33B and ~3B
//! active for XS.2, ~118B and ~8B for S-2.1, as vLLM's recipes quote
//! them); the per-head reading of `gating: true` meets them, the
//! per-channel one would not (34.07B, 118.80B).

use vramfit_core::model::{parse_config, ConfigErrorKind, Family, ModelSpec, Reading};

const XS: &str = include_str!("../data/configs/poolside__Laguna-XS.2-FP8.json");
const S: &str = include_str!("../data/configs/poolside__Laguna-S-2.1-FP8.json");

/// The sizes a Laguna count needs.
struct Sizes {
    h: u64,
    vocab: u64,
    kv: u64,
    d: u64,
    experts: u64,
    top_k: u64,
    moe_width: u64,
    shared_width: u64,
    dense_width: u64,
    /// Query heads of the full layers and of the sliding ones.
    full_heads: u64,
    sliding_heads: u64,
    full_layers: u64,
    sliding_layers: u64,
    /// Layer 0 is dense, every other layer sparse, in both configs.
    sparse_layers: u64,
}

const XS_SIZES: Sizes = Sizes {
    h: 2048,
    vocab: 100_352,
    kv: 8,
    d: 128,
    experts: 256,
    top_k: 8,
    moe_width: 512,
    shared_width: 512,
    dense_width: 8192,
    full_heads: 48,
    sliding_heads: 64,
    full_layers: 10,
    sliding_layers: 30,
    sparse_layers: 39,
};

const S_SIZES: Sizes = Sizes {
    h: 3072,
    vocab: 100_352,
    kv: 8,
    d: 128,
    experts: 256,
    top_k: 10,
    moe_width: 1024,
    shared_width: 1024,
    dense_width: 12_288,
    full_heads: 48,
    sliding_heads: 72,
    full_layers: 12,
    sliding_layers: 36,
    sparse_layers: 47,
};

impl Sizes {
    /// q, k, v, o, the per-head gate g_proj (H → heads), q/k norms of one
    /// head width, and the layer's two norms.
    fn attention(&self, heads: u64) -> u64 {
        let (h, d) = (self.h, self.d);
        2 * h * heads * d + 2 * h * self.kv * d + h * heads + 2 * d + 2 * h
    }
    fn routed(&self) -> u64 {
        self.experts * 3 * self.h * self.moe_width
    }
    /// Router (E × H) and its score-correction bias (E), the shared expert.
    fn always_on(&self) -> u64 {
        self.experts * self.h + self.experts + 3 * self.h * self.shared_width
    }
    fn dense(&self) -> u64 {
        3 * self.h * self.dense_width
    }
    fn layers(&self) -> u64 {
        self.full_layers * self.attention(self.full_heads)
            + self.sliding_layers * self.attention(self.sliding_heads)
            + self.dense()
    }
    /// Embedding, untied head and the final norm.
    fn ends(&self) -> u64 {
        2 * self.vocab * self.h + self.h
    }
    fn total(&self) -> u64 {
        self.ends() + self.layers() + self.sparse_layers * (self.routed() + self.always_on())
    }
    fn active(&self) -> u64 {
        let routed = self.top_k * 3 * self.h * self.moe_width;
        self.ends() + self.layers() + self.sparse_layers * (routed + self.always_on())
    }
}

fn read(text: &str) -> ModelSpec {
    parse_config(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn laguna_xs_is_counted_tensor_by_tensor() {
    let s = read(XS);
    assert_eq!(s.reading, Reading::Exact);
    assert_eq!(s.family, Family::Laguna);
    assert_eq!(s.params_total, XS_SIZES.total());
    assert_eq!(s.params_total, 33_442_617_088);
    assert_eq!(s.params_active, XS_SIZES.active());
    assert_eq!(s.params_active, 3_017_135_872);
    let moe = s.moe.as_ref().expect("experts");
    assert_eq!((moe.moe_layers, moe.dense_layers), (39, 1));
    assert!(moe.score_bias);
    assert_eq!(moe.shared_intermediate, 512);
    assert_eq!(s.params.routed_experts, 39 * XS_SIZES.routed());
}

#[test]
fn laguna_s_is_counted_tensor_by_tensor() {
    let s = read(S);
    assert_eq!(s.reading, Reading::Exact);
    assert_eq!(s.params_total, S_SIZES.total());
    assert_eq!(s.params_total, 117_561_977_600);
    assert_eq!(s.params_active, S_SIZES.active());
    assert_eq!(s.params_active, 8_449_256_192);
}

#[test]
fn laguna_fp8_exports_quantize_what_their_ignore_lists_leave() {
    // XS.2 leaves attention (g_proj included), the routers and the head in
    // BF16: experts, shared experts and layer 0's dense MLP are FP8.
    let xs = read(XS);
    let q = &xs.quantized_params;
    assert_eq!(q.routed_experts, xs.params.routed_experts);
    assert_eq!(q.shared_experts, xs.params.shared_experts);
    assert_eq!(q.dense_mlp, xs.params.dense_mlp);
    assert_eq!((q.attention, q.router, q.lm_head), (0, 0, 0));
    // S-2.1 also leaves layer 0's MLP and the shared experts (spelled
    // `mlp.shared_expert`, as the checkpoint names them) in BF16.
    let s = read(S);
    let q = &s.quantized_params;
    assert_eq!(q.routed_experts, s.params.routed_experts);
    assert_eq!((q.shared_experts, q.dense_mlp, q.attention), (0, 0, 0));
}

#[test]
fn laguna_caches_k_and_v_of_every_layer_the_sliding_ones_up_to_the_window() {
    let s = read(XS);
    // 8 heads of 128, K and V, 2 bytes: 4,096 B per layer and token.
    let layer = 8 * 2 * 128 * 2;
    let context = 100_000;
    assert_eq!(
        s.kv_cache_bytes(context, 1, 16_000),
        layer * (10 * context + 30 * 512)
    );
}

fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut c: serde_json::Value = serde_json::from_str(XS).unwrap();
    edit(&mut c);
    c.to_string()
}

#[test]
fn laguna_branches_not_read_are_refused_by_name() {
    let cases: Vec<(String, &str)> = vec![
        (edited(|c| c["gating"] = "per-element".into()), "gating"),
        (edited(|c| c["gating"] = false.into()), "gating"),
        (
            edited(|c| c["layer_types"][3] = "chunked_attention".into()),
            "chunked_attention",
        ),
        (
            edited(|c| c["mlp_layer_types"][3] = "mamba".into()),
            "mamba",
        ),
        (
            edited(|c| {
                c["num_attention_heads_per_layer"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
            "num_attention_heads_per_layer",
        ),
        (
            edited(|c| c["num_attention_heads_per_layer"][1] = 60.into()),
            "num_attention_heads_per_layer",
        ),
    ];
    for (text, key) in cases {
        let e = parse_config(&text).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
    for (text, key) in [
        (
            edited(|c| c["use_bidirectional_attention"] = true.into()),
            "use_bidirectional_attention",
        ),
        (
            edited(|c| c["mlp_only_layers"] = serde_json::json!([0, 5])),
            "mlp_only_layers",
        ),
        (
            edited(|c| c["decoder_sparse_step"] = 2.into()),
            "decoder_sparse_step",
        ),
    ] {
        let e = parse_config(&text).expect_err(key);
        assert!(e.to_string().contains(key), "{key}: {e}");
    }
    // XS.2's Hadamard rotation is fused into the weights it names; one
    // applied online (to activations) would keep matrices of its own.
    let online = edited(|c| {
        c["quantization_config"]["transform_config"]["config_groups"]["R1"]["apply"][0]
            ["location"] = "input".into();
    });
    let e = parse_config(&online).unwrap_err();
    assert!(e.to_string().contains("transform_config"), "{e}");
    let e = parse_config(&edited(|c| {
        c.as_object_mut().unwrap().remove("mlp_layer_types");
    }))
    .unwrap_err();
    assert!(
        matches!(&e.kind, ConfigErrorKind::MissingKeys { .. }),
        "{e}"
    );
}
