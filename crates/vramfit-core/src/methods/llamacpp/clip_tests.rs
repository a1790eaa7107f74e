//! The projector graphs on hand-built projector files.

use super::*;
use crate::gguf::GgmlType;

fn t(name: &str, ne: &[u64], ty: GgmlType) -> FileTensor {
    let values: u64 = ne.iter().product();
    let bytes = match ty {
        GgmlType::F32 => values * 4,
        _ => values * 2,
    };
    FileTensor {
        name: name.into(),
        ggml_type: ty,
        ne: ne.to_vec(),
        bytes,
    }
}

/// A SigLIP encoder's tensors (`v.*`), biases everywhere, no gate.
fn siglip(e: u64, f: u64, layers: u64, patch: u64, positions: u64) -> Vec<FileTensor> {
    use GgmlType::{F16, F32};
    let mut out = vec![
        t("v.patch_embd.weight", &[patch, patch, 3, e], F16),
        t("v.patch_embd.bias", &[e], F32),
        t("v.position_embd.weight", &[e, positions], F32),
        t("v.post_ln.weight", &[e], F32),
        t("v.post_ln.bias", &[e], F32),
    ];
    for il in 0..layers {
        let b = |s: &str| format!("v.blk.{il}.{s}");
        for n in ["ln1", "ln2"] {
            out.push(t(&b(&format!("{n}.weight")), &[e], F32));
            out.push(t(&b(&format!("{n}.bias")), &[e], F32));
        }
        for n in ["attn_q", "attn_k", "attn_v", "attn_out"] {
            out.push(t(&b(&format!("{n}.weight")), &[e, e], F16));
            out.push(t(&b(&format!("{n}.bias")), &[e], F32));
        }
        out.push(t(&b("ffn_up.weight"), &[e, f], F16));
        out.push(t(&b("ffn_up.bias"), &[f], F32));
        out.push(t(&b("ffn_down.weight"), &[f, e], F16));
        out.push(t(&b("ffn_down.bias"), &[e], F32));
    }
    out
}

fn projector(kind: &str, v: ClipVision, tensors: Vec<FileTensor>) -> Projector {
    Projector {
        file: "mmproj.gguf".into(),
        projector_type: Some(kind.into()),
        tensors: tensors.len() as u64,
        bytes: tensors.iter().map(|t| t.bytes).sum(),
        vision: Some(v),
        tensor_list: tensors,
    }
}

/// Gemma 3's projector as converted (`mmproj-*-f16.gguf`): SigLIP
/// so400m/14 at 896, 27 layers, 1152 wide, 16 heads, projected to 2560.
fn gemma3() -> Projector {
    let mut ts = siglip(1152, 4304, 27, 14, 4096);
    ts.push(t("mm.soft_emb_norm.weight", &[1152], GgmlType::F32));
    ts.push(t(
        "mm.input_projection.weight",
        &[2560, 1152],
        GgmlType::F16,
    ));
    projector(
        "gemma3",
        ClipVision {
            n_embd: 1152,
            n_head: 16,
            n_ff: 4304,
            n_layer: 27,
            projection_dim: 2560,
            image_size: 896,
            patch_size: 14,
            use_gelu: true,
            ..ClipVision::default()
        },
        ts,
    )
}

#[test]
fn gemma_3_warms_up_at_its_image_size() {
    let p = gemma3();
    let c = compute(&p, false).unwrap();
    assert_eq!((c.warmup_image_size, c.patches), (896, 4096));
    // The CPU holds the raw image: 896² · 3 · 4 bytes (9.19 MiB).
    assert_eq!(c.host_bytes, 9_633_792);
    // Without flash attention the GPU's buffer is led by one layer's K·Q,
    // 4096² · 16 · 4 bytes (1,024 MiB); the replay gives 1,132 MiB, the
    // other 108 MiB six N·E f32 tensors' worth (18 MiB each: the residual,
    // Q, K, V's cont and the holes the best fit leaves).
    let kq = 4096 * 4096 * 16 * 4;
    assert_eq!(kq, 1 << 30);
    assert_eq!(c.gpu_bytes, 1132 << 20);
    assert_eq!(c.gpu_bytes - kq, 6 * 4096 * 1152 * 4);
    // With it, K and V are cast to f16 and no score matrix is kept.
    let fa = compute(&p, true).unwrap();
    assert!(fa.flash_attn && fa.gpu_bytes < kq / 8, "{fa:?}");
}

/// The other layers' gate (`ffn_gate`), for the SwiGLU encoders.
fn with_gates(mut ts: Vec<FileTensor>, e: u64, f: u64, layers: u64) -> Vec<FileTensor> {
    for il in 0..layers {
        ts.push(t(
            &format!("v.blk.{il}.ffn_gate.weight"),
            &[e, f],
            GgmlType::F16,
        ));
    }
    ts
}

/// Qwen2.5-VL-7B's projector: 32 layers, 1280 wide, 16 heads, windows of
/// 8 layers, two patch kernels, the merger to 3584.
fn qwen25vl() -> Projector {
    use GgmlType::{F16, F32};
    let mut ts = with_gates(siglip(1280, 3420, 32, 14, 0), 1280, 3420, 32);
    ts.push(t("v.patch_embd.weight.1", &[14, 14, 3, 1280], F16));
    ts.push(t("mm.0.weight", &[5120, 5120], F16));
    ts.push(t("mm.0.bias", &[5120], F32));
    ts.push(t("mm.2.weight", &[5120, 3584], F16));
    ts.push(t("mm.2.bias", &[3584], F32));
    projector(
        "qwen2.5vl_merger",
        ClipVision {
            n_embd: 1280,
            n_head: 16,
            n_ff: 3420,
            n_layer: 32,
            projection_dim: 3584,
            image_size: 560,
            patch_size: 14,
            spatial_merge_size: Some(2),
            n_wa_pattern: Some(8),
            use_silu: true,
            ..ClipVision::default()
        },
        ts,
    )
}

/// Qwen's warm-up image is 46 merged tokens a side: 46 · 14 · 2 = 1288,
/// 92² = 8,464 patches. The CPU holds the raw image, the M-RoPE positions
/// (4 per patch), both window indices (8,464 / 4 each) and the window mask
/// (8,464² f32), each rounded up to 32 bytes.
#[test]
fn qwen_2_5_vl_warms_up_at_46_tokens_a_side() {
    let p = qwen25vl();
    let c = compute(&p, true).unwrap();
    assert_eq!((c.warmup_image_size, c.patches), (1288, 8464));
    let raw = 1288 * 1288 * 3 * 4;
    let positions = 4 * 4 * 8464;
    let index = (4 * 2116_u64).div_ceil(32) * 32;
    let mask = 8464 * 8464 * 4;
    assert_eq!(c.host_bytes, raw + positions + 2 * index + mask);
    assert_eq!(c.host_bytes, 306_616_896);
    // Flash attention reads an f16 cast of the mask; without it, every
    // layer's K·Q is 8,464² · 16 · 4 bytes.
    let no_fa = compute(&p, false).unwrap();
    assert!(c.gpu_bytes > mask / 2, "{c:?}");
    assert!(no_fa.gpu_bytes > 8464 * 8464 * 16 * 4, "{no_fa:?}");
}

/// Mistral Small 3.1's Pixtral encoder: 256 merged tokens, 16 · 14 · 2 =
/// 448 a side, 1,024 patches; the CPU holds the image and the two
/// position rows.
#[test]
fn pixtral_warms_up_at_256_tokens() {
    use GgmlType::{F16, F32};
    let mut ts = with_gates(siglip(1024, 4096, 24, 14, 0), 1024, 4096, 24);
    ts.push(t("mm.input_norm.weight", &[1024], F32));
    ts.push(t("mm.patch_merger.weight", &[4096, 1024], F16));
    ts.push(t("mm.1.weight", &[1024, 5120], F16));
    ts.push(t("mm.1.bias", &[5120], F32));
    ts.push(t("mm.2.weight", &[5120, 5120], F16));
    ts.push(t("mm.2.bias", &[5120], F32));
    ts.push(t("v.token_embd.img_break", &[5120], F32));
    let v = ClipVision {
        n_embd: 1024,
        n_head: 16,
        n_ff: 4096,
        n_layer: 24,
        image_size: 1540,
        patch_size: 14,
        spatial_merge_size: Some(2),
        use_silu: true,
        ..ClipVision::default()
    };
    let c = compute(&projector("pixtral", v, ts), false).unwrap();
    assert_eq!((c.warmup_image_size, c.patches), (448, 1024));
    assert_eq!(c.host_bytes, 448 * 448 * 3 * 4 + 2 * 4 * 1024);
    assert!(c.gpu_bytes > 1024 * 1024 * 16 * 4, "{c:?}");
}

/// LLaVA 1.5's CLIP ViT-L/14 at 336: 576 patches and the class token,
/// every layer but the last, the two-layer MLP.
#[test]
fn llava_reserves_its_image_size_and_the_class_token() {
    use GgmlType::{F16, F32};
    let mut ts = siglip(1024, 4096, 24, 14, 577);
    ts.push(t("v.class_embd", &[1024], F32));
    ts.push(t("v.pre_ln.weight", &[1024], F32));
    ts.push(t("v.pre_ln.bias", &[1024], F32));
    ts.push(t("mm.0.weight", &[1024, 4096], F16));
    ts.push(t("mm.0.bias", &[4096], F32));
    ts.push(t("mm.2.weight", &[4096, 4096], F16));
    ts.push(t("mm.2.bias", &[4096], F32));
    let v = ClipVision {
        n_embd: 1024,
        n_head: 16,
        n_ff: 4096,
        n_layer: 24,
        image_size: 336,
        patch_size: 14,
        ..ClipVision::default()
    };
    let p = projector("mlp", v, ts);
    let c = compute(&p, false).unwrap();
    assert_eq!((c.warmup_image_size, c.patches), (336, 576));
    // The image, 577 positions (2,308 → 2,336 bytes) and 576 patch rows.
    assert_eq!(c.host_bytes, 336 * 336 * 3 * 4 + 2336 + 2304);
    // Without flash attention K·Q covers the 577 positions.
    assert!(c.gpu_bytes > 577 * 577 * 16 * 4, "{c:?}");
    // A layer less (the last is not run) makes the graph no larger.
    let mut fewer = p.clone();
    fewer.vision.as_mut().unwrap().n_layer = 23;
    assert!(compute(&fewer, false).unwrap().gpu_bytes <= c.gpu_bytes);
}

#[test]
fn other_projector_types_are_refused_by_name() {
    let mut p = gemma3();
    p.projector_type = Some("resampler".into());
    let e = compute(&p, true).unwrap_err();
    assert_eq!(
        e,
        ClipRefusal::ProjectorType {
            name: Some("resampler".into())
        }
    );
    assert!(e.to_string().starts_with("projector type `resampler`"));
    p.projector_type = Some("gemma3".into());
    p.vision = None;
    assert_eq!(compute(&p, true).unwrap_err(), ClipRefusal::NoVisionShape);
    let mut p = gemma3();
    p.tensor_list
        .retain(|t| t.name != "mm.input_projection.weight");
    assert_eq!(
        compute(&p, true).unwrap_err(),
        ClipRefusal::MissingTensor {
            name: "mm.input_projection.weight".into()
        }
    );
}
