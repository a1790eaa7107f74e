//! The tensors of each vision tower and projector, as transformers'
//! modeling code creates them (vLLM's for Kimi-VL's MoonViT). Names are
//! the checkpoint's module paths (before transformers 4.52; the later
//! `model.`-prefixed spelling is added for matching quantization lists).

use super::config::Keys;
use super::VisionKind;
use crate::model::error::ConfigError;
use crate::model::quant::VisionTensor;
use serde_json::Value;

/// A tower: its tensors, split into encoder and projector.
pub(crate) struct Tower {
    pub kind: VisionKind,
    pub layers: u64,
    pub hidden: u64,
    pub image_tokens: Option<u64>,
    pub tensors: Vec<Part>,
}

pub(crate) struct Part {
    pub tensor: VisionTensor,
    pub projector: bool,
}

impl Tower {
    /// Parameters of the encoder and of the projector.
    pub(crate) fn params(&self) -> (u64, u64) {
        let (mut encoder, mut projector) = (0u64, 0u64);
        for p in &self.tensors {
            let n = p.tensor.rows.saturating_mul(p.tensor.cols);
            match p.projector {
                true => projector = projector.saturating_add(n),
                false => encoder = encoder.saturating_add(n),
            }
        }
        (encoder, projector)
    }
}

fn mul(values: &[u64]) -> u64 {
    values.iter().fold(1u64, |a, b| a.saturating_mul(*b))
}

/// Collects tensors under a name prefix.
struct Builder {
    tensors: Vec<Part>,
    projector: bool,
}

impl Builder {
    fn new() -> Self {
        Builder {
            tensors: Vec::new(),
            projector: false,
        }
    }

    fn push(&mut self, name: String, rows: u64, cols: u64, linear: bool) {
        if rows == 0 || cols == 0 {
            return;
        }
        let names = vec![format!("model.{name}"), name];
        self.tensors.push(Part {
            tensor: VisionTensor {
                names,
                rows,
                cols,
                linear,
            },
            projector: self.projector,
        });
    }

    /// An `nn.Linear(input, out)`: `out × input` weight, `out` bias.
    fn linear(&mut self, name: &str, out: u64, input: u64, bias: bool) {
        self.push(name.to_string(), out, input, true);
        if bias {
            self.push(format!("{name}.bias"), 1, out, false);
        }
    }

    /// A tensor that is not a linear layer (convolution, embedding, scalar
    /// per channel).
    fn param(&mut self, name: &str, rows: u64, cols: u64) {
        self.push(name.to_string(), rows, cols, false);
    }

    /// A LayerNorm (`bias`) or RMSNorm of `width`.
    fn norm(&mut self, name: &str, width: u64, bias: bool) {
        self.param(name, 1, width);
        if bias {
            self.param(&format!("{name}.bias"), 1, width);
        }
    }

    /// A convolution `channels → out` with a `kernel`-sized window.
    fn conv(&mut self, name: &str, out: u64, channels: u64, kernel: u64, bias: bool) {
        self.param(name, out, mul(&[channels, kernel]));
        if bias {
            self.param(&format!("{name}.bias"), 1, out);
        }
    }
}

/// The tower of outer `model_type`, or `None` when vramfit does not count
/// it. Keys absent from `vision_config` are recorded in `cfg`.
pub(crate) fn build(model_type: &str, cfg: &Keys, text: u64) -> Result<Option<Tower>, ConfigError> {
    let tower = match model_type {
        "gemma3" => gemma3(cfg, text)?,
        "llava" | "llava_next" | "llava_onevision" => match llava(cfg, text, model_type)? {
            Some(t) => t,
            None => return Ok(None),
        },
        "mistral3" => mistral3(cfg, text)?,
        "qwen2_vl" => qwen2_vl(cfg)?,
        "qwen2_5_vl" => qwen2_5_vl(cfg)?,
        "qwen3_vl" | "qwen3_vl_moe" => qwen3_vl(cfg)?,
        "kimi_vl" => kimi_vl(cfg, text)?,
        "idefics3" | "smolvlm" => idefics3(cfg, text)?,
        "llama4" => llama4(cfg, text)?,
        "internvl" => internvl(cfg, text)?,
        "internvl_chat" => internvl_chat(cfg, text)?,
        _ => return Ok(None),
    };
    Ok(Some(tower))
}

/// Common sizes of a ViT config.
struct Vit {
    hidden: u64,
    intermediate: u64,
    layers: u64,
    channels: u64,
}

fn vit(cfg: &Keys) -> Result<Vit, ConfigError> {
    Ok(Vit {
        hidden: cfg.need(&["hidden_size"])?,
        intermediate: cfg.need(&["intermediate_size"])?,
        layers: cfg.need(&["num_hidden_layers"])?,
        channels: cfg.or(&["num_channels"], 3)?,
    })
}

/// SigLIP / CLIP / Idefics3 encoder layers: `layer_norm1`, `self_attn.
/// {q,k,v,out}_proj` (biased), `layer_norm2`, `mlp.fc1`, `mlp.fc2`.
/// Source: transformers `modeling_siglip.py::SiglipEncoderLayer`,
/// `modeling_clip.py::CLIPEncoderLayer`.
fn encoder_layers(b: &mut Builder, prefix: &str, v: &Vit) {
    let (h, i) = (v.hidden, v.intermediate);
    for l in 0..v.layers {
        let p = format!("{prefix}encoder.layers.{l}");
        b.norm(&format!("{p}.layer_norm1"), h, true);
        for proj in ["q_proj", "k_proj", "v_proj", "out_proj"] {
            b.linear(&format!("{p}.self_attn.{proj}"), h, h, true);
        }
        b.norm(&format!("{p}.layer_norm2"), h, true);
        b.linear(&format!("{p}.mlp.fc1"), i, h, true);
        b.linear(&format!("{p}.mlp.fc2"), h, i, true);
    }
}

/// SigLIP vision transformer: patch convolution (biased), one position
/// per patch, encoder, `post_layernorm`, and the attention-pooling head
/// unless `vision_use_head` is false (`SiglipVisionTransformer`: the head
/// is built when the config has no such key). Source: transformers
/// `modeling_siglip.py`.
fn siglip(
    b: &mut Builder,
    cfg: &Keys,
    prefix: &str,
    head_default: bool,
) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let h = v.hidden;
    b.conv(
        &format!("{prefix}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        true,
    );
    let patches = (image / patch.max(1)).pow(2);
    b.param(
        &format!("{prefix}embeddings.position_embedding"),
        patches,
        h,
    );
    encoder_layers(b, prefix, &v);
    b.norm(&format!("{prefix}post_layernorm"), h, true);
    if cfg.flag("vision_use_head", head_default)? {
        let p = format!("{prefix}head");
        b.param(&format!("{p}.probe"), 1, h);
        b.param(&format!("{p}.attention.in_proj_weight"), 3 * h, h);
        b.param(&format!("{p}.attention.in_proj_bias"), 1, 3 * h);
        b.linear(&format!("{p}.attention.out_proj"), h, h, true);
        b.norm(&format!("{p}.layernorm"), h, true);
        b.linear(&format!("{p}.mlp.fc1"), v.intermediate, h, true);
        b.linear(&format!("{p}.mlp.fc2"), h, v.intermediate, true);
    }
    Ok(v)
}

/// CLIP vision transformer: class embedding, patch convolution (no bias),
/// positions for patches and class token, `pre_layrnorm`, encoder,
/// `post_layernorm`. Source: transformers `modeling_clip.py`.
fn clip(b: &mut Builder, cfg: &Keys, prefix: &str) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let h = v.hidden;
    b.param(&format!("{prefix}embeddings.class_embedding"), 1, h);
    b.conv(
        &format!("{prefix}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        false,
    );
    let positions = (image / patch.max(1)).pow(2) + 1;
    b.param(
        &format!("{prefix}embeddings.position_embedding"),
        positions,
        h,
    );
    b.norm(&format!("{prefix}pre_layrnorm"), h, true);
    encoder_layers(b, prefix, &v);
    b.norm(&format!("{prefix}post_layernorm"), h, true);
    Ok(v)
}

/// Pixtral vision transformer: patch convolution (no bias), `ln_pre`
/// RMSNorm, layers of RMSNorms, unbiased attention and gated MLP. Source:
/// transformers `modeling_pixtral.py`.
fn pixtral(b: &mut Builder, cfg: &Keys, prefix: &str) -> Result<Vit, ConfigError> {
    let v = vit(cfg)?;
    let patch = cfg.need(&["patch_size"])?;
    let (h, i) = (v.hidden, v.intermediate);
    b.conv(
        &format!("{prefix}patch_conv"),
        h,
        v.channels,
        patch * patch,
        false,
    );
    b.norm(&format!("{prefix}ln_pre"), h, false);
    for l in 0..v.layers {
        let p = format!("{prefix}transformer.layers.{l}");
        b.norm(&format!("{p}.attention_norm"), h, false);
        for proj in ["q_proj", "k_proj", "v_proj", "o_proj"] {
            b.linear(&format!("{p}.attention.{proj}"), h, h, false);
        }
        b.norm(&format!("{p}.ffn_norm"), h, false);
        b.linear(&format!("{p}.feed_forward.gate_proj"), i, h, false);
        b.linear(&format!("{p}.feed_forward.up_proj"), i, h, false);
        b.linear(&format!("{p}.feed_forward.down_proj"), h, i, false);
    }
    Ok(v)
}

fn tower(kind: VisionKind, v: &Vit, b: Builder, image_tokens: Option<u64>) -> Tower {
    Tower {
        kind,
        layers: v.layers,
        hidden: v.hidden,
        image_tokens,
        tensors: b.tensors,
    }
}

/// Gemma 3: SigLIP (`vision_tower.vision_model`) and
/// `Gemma3MultiModalProjector`: `mm_input_projection_weight` (vision ×
/// text, a parameter) and `mm_soft_emb_norm` (RMSNorm of the vision
/// width); `mm_tokens_per_image` (256) tokens per image. Source:
/// transformers `modeling_gemma3.py`.
fn gemma3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = siglip(&mut b, cfg, "vision_tower.vision_model.", true)?;
    b.projector = true;
    b.param(
        "multi_modal_projector.mm_input_projection_weight",
        v.hidden,
        text,
    );
    b.norm("multi_modal_projector.mm_soft_emb_norm", v.hidden, false);
    let tokens = cfg.outer_or("mm_tokens_per_image", 256)?;
    Ok(tower(VisionKind::Siglip, &v, b, Some(tokens)))
}

/// How many feature layers the projector concatenates
/// (`vision_feature_layer`: one index, or a list of them).
fn feature_layers(cfg: &Keys) -> u64 {
    match cfg.outer("vision_feature_layer") {
        Some(Value::Array(items)) => items.len().max(1) as u64,
        _ => 1,
    }
}

/// LLaVA, LLaVA-NeXT, LLaVA-OneVision: a CLIP, SigLIP or Pixtral tower
/// and `LlavaMultiModalProjector` (`linear_1` from the concatenated
/// feature layers, GELU, `linear_2`, biased unless
/// `multimodal_projector_bias` is false); NeXT and OneVision add
/// `image_newline` (text width). LLaVA 1.5 gives `(image/patch)²` tokens
/// per image (`vision_feature_select_strategy` "default" drops the class
/// token). Sources: transformers `modeling_llava.py`,
/// `modeling_llava_next.py`, `modeling_llava_onevision.py`.
fn llava(cfg: &Keys, text: u64, model_type: &str) -> Result<Option<Tower>, ConfigError> {
    let mut b = Builder::new();
    let vision_type = cfg.text("model_type")?.unwrap_or("clip_vision_model");
    let (kind, v) = match vision_type {
        "clip_vision_model" => (
            VisionKind::Clip,
            clip(&mut b, cfg, "vision_tower.vision_model.")?,
        ),
        "siglip_vision_model" => (
            VisionKind::Siglip,
            siglip(&mut b, cfg, "vision_tower.vision_model.", true)?,
        ),
        "pixtral" => (VisionKind::Pixtral, pixtral(&mut b, cfg, "vision_tower.")?),
        _ => return Ok(None),
    };
    b.projector = true;
    let bias = cfg.outer_flag("multimodal_projector_bias", true)?;
    let input = mul(&[v.hidden, feature_layers(cfg)]);
    b.linear("multi_modal_projector.linear_1", text, input, bias);
    b.linear("multi_modal_projector.linear_2", text, text, bias);
    let tokens = match model_type {
        "llava" if kind == VisionKind::Clip => {
            let image = cfg.need(&["image_size"])?;
            let patch = cfg.need(&["patch_size"])?;
            let full = cfg
                .outer("vision_feature_select_strategy")
                .and_then(Value::as_str)
                == Some("full");
            Some((image / patch.max(1)).pow(2) + u64::from(full))
        }
        "llava" => None,
        _ => {
            b.param("image_newline", 1, text);
            None
        }
    };
    Ok(Some(tower(kind, &v, b, tokens)))
}

/// Mistral 3: Pixtral tower and `Mistral3MultiModalProjector`: RMSNorm of
/// the vision width, `patch_merger.merging_layer` (vision·m² → vision, no
/// bias), `linear_1`, `linear_2` (biased when `multimodal_projector_bias`,
/// false by default). Source: transformers `modeling_mistral3.py`.
fn mistral3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = pixtral(&mut b, cfg, "vision_tower.")?;
    b.projector = true;
    let merge = cfg.outer_or("spatial_merge_size", 2)?;
    let bias = cfg.outer_flag("multimodal_projector_bias", false)?;
    b.norm("multi_modal_projector.norm", v.hidden, false);
    b.linear(
        "multi_modal_projector.patch_merger.merging_layer",
        v.hidden,
        mul(&[v.hidden, merge, merge]),
        false,
    );
    let input = mul(&[v.hidden, feature_layers(cfg)]);
    b.linear("multi_modal_projector.linear_1", text, input, bias);
    b.linear("multi_modal_projector.linear_2", text, text, bias);
    Ok(tower(VisionKind::Pixtral, &v, b, None))
}

/// Qwen-VL patch embedding (a 3-D convolution over `temporal × patch ×
/// patch`) and the merger MLP from `width·m²` to the text width.
fn qwen_patch(cfg: &Keys, b: &mut Builder, width: u64, bias: bool) -> Result<(), ConfigError> {
    let patch = cfg.need(&["patch_size"])?;
    let temporal = cfg.or(&["temporal_patch_size"], 2)?;
    let channels = cfg.or(&["in_channels", "in_chans"], 3)?;
    b.conv(
        "visual.patch_embed.proj",
        width,
        channels,
        mul(&[temporal, patch, patch]),
        bias,
    );
    Ok(())
}

/// Qwen2-VL: `depth` blocks of LayerNorms, biased `qkv`/`proj`, `fc1`/`fc2`
/// (`embed_dim · mlp_ratio`), and `PatchMerger` (`ln_q` LayerNorm, two
/// biased linears to `hidden_size`). Source: transformers
/// `modeling_qwen2_vl.py`.
fn qwen2_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["embed_dim"])?;
    let depth = cfg.need(&["depth"])?;
    let out = cfg.need(&["hidden_size"])?;
    let mlp = mul(&[e, cfg.or(&["mlp_ratio"], 4)?]);
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    qwen_patch(cfg, &mut b, e, false)?;
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, true);
        b.norm(&format!("{p}.norm2"), e, true);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.fc1"), mlp, e, true);
        b.linear(&format!("{p}.mlp.fc2"), e, mlp, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    b.norm("visual.merger.ln_q", e, true);
    b.linear("visual.merger.mlp.0", wide, wide, true);
    b.linear("visual.merger.mlp.2", out, wide, true);
    let v = Vit {
        hidden: e,
        intermediate: mlp,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen2Vl, &v, b, None))
}

/// Qwen2.5-VL: RMSNorms, biased `qkv`/`proj`, a biased gated MLP
/// (`intermediate_size`), merger with an RMSNorm `ln_q`. Source:
/// transformers `modeling_qwen2_5_vl.py`.
fn qwen2_5_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["hidden_size"])?;
    let i = cfg.need(&["intermediate_size"])?;
    let depth = cfg.need(&["depth"])?;
    let out = cfg.need(&["out_hidden_size"])?;
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    qwen_patch(cfg, &mut b, e, false)?;
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, false);
        b.norm(&format!("{p}.norm2"), e, false);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.gate_proj"), i, e, true);
        b.linear(&format!("{p}.mlp.up_proj"), i, e, true);
        b.linear(&format!("{p}.mlp.down_proj"), e, i, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    b.norm("visual.merger.ln_q", e, false);
    b.linear("visual.merger.mlp.0", wide, wide, true);
    b.linear("visual.merger.mlp.2", out, wide, true);
    let v = Vit {
        hidden: e,
        intermediate: i,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen25Vl, &v, b, None))
}

/// Qwen3-VL: biased patch convolution, learned positions
/// (`num_position_embeddings`), LayerNorm blocks with `linear_fc1`/`fc2`,
/// a merger (LayerNorm of the width) and one DeepStack merger per
/// `deepstack_visual_indexes` entry (LayerNorm after the shuffle, of
/// width·m²). Source: transformers `modeling_qwen3_vl.py`.
fn qwen3_vl(cfg: &Keys) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let e = cfg.need(&["hidden_size"])?;
    let i = cfg.need(&["intermediate_size"])?;
    let depth = cfg.need(&["depth"])?;
    let out = cfg.need(&["out_hidden_size"])?;
    let positions = cfg.need(&["num_position_embeddings"])?;
    let merge = cfg.or(&["spatial_merge_size"], 2)?;
    let deepstack = match cfg.list("deepstack_visual_indexes")? {
        Some(list) => list.len() as u64,
        None => {
            cfg.need(&["deepstack_visual_indexes"])?;
            0
        }
    };
    qwen_patch(cfg, &mut b, e, true)?;
    b.param("visual.pos_embed", positions, e);
    for l in 0..depth {
        let p = format!("visual.blocks.{l}");
        b.norm(&format!("{p}.norm1"), e, true);
        b.norm(&format!("{p}.norm2"), e, true);
        b.linear(&format!("{p}.attn.qkv"), 3 * e, e, true);
        b.linear(&format!("{p}.attn.proj"), e, e, true);
        b.linear(&format!("{p}.mlp.linear_fc1"), i, e, true);
        b.linear(&format!("{p}.mlp.linear_fc2"), e, i, true);
    }
    b.projector = true;
    let wide = mul(&[e, merge, merge]);
    let merger = |b: &mut Builder, p: &str, norm: u64| {
        b.norm(&format!("{p}.norm"), norm, true);
        b.linear(&format!("{p}.linear_fc1"), wide, wide, true);
        b.linear(&format!("{p}.linear_fc2"), out, wide, true);
    };
    merger(&mut b, "visual.merger", e);
    for k in 0..deepstack {
        merger(&mut b, &format!("visual.deepstack_merger_list.{k}"), wide);
    }
    let v = Vit {
        hidden: e,
        intermediate: i,
        layers: depth,
        channels: 3,
    };
    Ok(tower(VisionKind::Qwen3Vl, &v, b, None))
}

/// Kimi-VL: MoonViT (biased patch convolution, a learned `height × width
/// × hidden` position grid, blocks of LayerNorms, biased `wqkv`/`wo` and
/// `mlp.fc0`/`fc1`, `final_layernorm`) and `KimiVLMultiModalProjector`
/// (`pre_norm` LayerNorm, `linear_1` square and `linear_2` to the text
/// width over the `merge_kernel_size` patches). Sources: vLLM
/// `models/moonvit.py`, `models/kimi_vl.py`.
fn kimi_vl(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let patch = cfg.need(&["patch_size"])?;
    let pos_h = cfg.need(&["init_pos_emb_height"])?;
    let pos_w = cfg.need(&["init_pos_emb_width"])?;
    let kernel = match cfg.list("merge_kernel_size")? {
        Some(k) if k.len() == 2 && k.iter().all(|x| *x > 0) => mul(&k),
        Some(k) => {
            return Err(ConfigError::out_of_range(
                "vision_config.merge_kernel_size",
                format!("{k:?}"),
            ))
        }
        None => cfg.need(&["merge_kernel_size"])?,
    };
    b.conv(
        "vision_tower.patch_embed.proj",
        h,
        v.channels,
        patch * patch,
        true,
    );
    b.param(
        "vision_tower.patch_embed.pos_emb.weight",
        mul(&[pos_h, pos_w]),
        h,
    );
    for l in 0..v.layers {
        let p = format!("vision_tower.encoder.blocks.{l}");
        b.norm(&format!("{p}.norm0"), h, true);
        b.norm(&format!("{p}.norm1"), h, true);
        b.linear(&format!("{p}.wqkv"), 3 * h, h, true);
        b.linear(&format!("{p}.wo"), h, h, true);
        b.linear(&format!("{p}.mlp.fc0"), i, h, true);
        b.linear(&format!("{p}.mlp.fc1"), h, i, true);
    }
    b.norm("vision_tower.encoder.final_layernorm", h, true);
    b.projector = true;
    let wide = mul(&[h, kernel]);
    b.norm("multi_modal_projector.pre_norm", h, true);
    b.linear("multi_modal_projector.linear_1", wide, wide, true);
    b.linear("multi_modal_projector.linear_2", text, wide, true);
    Ok(tower(VisionKind::MoonVit, &v, b, None))
}

/// Idefics3 / SmolVLM: SigLIP-style encoder without pooling head
/// (`model.vision_model`) and the connector's unbiased `modality_projection.
/// proj` from `vision · scale_factor²` (default 2) to the text width.
/// Source: transformers `modeling_idefics3.py`, `modeling_smolvlm.py`.
fn idefics3(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = siglip(&mut b, cfg, "model.vision_model.", false)?;
    b.projector = true;
    let scale = cfg.outer_or("scale_factor", 2)?;
    b.linear(
        "model.connector.modality_projection.proj",
        text,
        mul(&[v.hidden, scale, scale]),
        false,
    );
    Ok(tower(VisionKind::Idefics3, &v, b, None))
}

/// Llama 4: `Llama4VisionModel` (an unbiased linear patch embedding,
/// class embedding, positions for patches and class token, pre/post
/// LayerNorms, layers of biased attention and MLP, the pixel-shuffle
/// adapter's two unbiased linears) and the unbiased
/// `multi_modal_projector.linear_1`. Source: transformers
/// `modeling_llama4.py`.
fn llama4(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let proj_in = cfg.need(&["projector_input_dim"])?;
    let proj_out = cfg.need(&["projector_output_dim"])?;
    let vision_out = cfg.need(&["vision_output_dim"])?;
    let p = "vision_model.";
    b.linear(
        &format!("{p}patch_embedding.linear"),
        h,
        mul(&[v.channels, patch, patch]),
        false,
    );
    b.param(&format!("{p}class_embedding"), 1, h);
    b.param(
        &format!("{p}positional_embedding_vlm"),
        (image / patch.max(1)).pow(2) + 1,
        h,
    );
    b.norm(&format!("{p}layernorm_pre"), h, true);
    b.norm(&format!("{p}layernorm_post"), h, true);
    for l in 0..v.layers {
        let q = format!("{p}model.layers.{l}");
        for proj in ["q_proj", "k_proj", "v_proj", "o_proj"] {
            b.linear(&format!("{q}.self_attn.{proj}"), h, h, true);
        }
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.input_layernorm"), h, true);
        b.norm(&format!("{q}.post_attention_layernorm"), h, true);
    }
    b.linear(&format!("{p}vision_adapter.mlp.fc1"), proj_in, i, false);
    b.linear(
        &format!("{p}vision_adapter.mlp.fc2"),
        proj_out,
        proj_out,
        false,
    );
    b.projector = true;
    b.linear("multi_modal_projector.linear_1", text, vision_out, false);
    Ok(tower(VisionKind::Llama4, &v, b, None))
}

/// The InternVL projector input: vision width × (1 / `downsample_ratio`)².
fn internvl_shuffle(cfg: &Keys) -> u64 {
    match cfg.outer("downsample_ratio").and_then(Value::as_f64) {
        Some(r) if r > 0.0 && r <= 1.0 => (1.0 / r).round() as u64,
        _ => 2,
    }
}

/// InternVL in transformers' layout (`model_type: "internvl"`):
/// `InternVLVisionModel` (class token, optional mask token, biased patch
/// convolution, absolute positions, layers of q/k/v (biased when
/// `attention_bias`), optional q/k RMSNorms, `projection_layer`, CLIP MLP,
/// `layernorm_before`/`after` (LayerNorm or RMSNorm), layer scales
/// `lambda_1`/`lambda_2`; a final LayerNorm unless `use_mean_pooling`) and
/// `InternVLMultiModalProjector`. Defaults as in `InternVLVisionConfig`.
/// Source: transformers `modular_internvl.py`.
fn internvl(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let (ih, iw) = cfg.need_pair("image_size")?;
    let (ph, pw) = cfg.need_pair("patch_size")?;
    let bias = cfg.flag("attention_bias", false)?;
    let qk_norm = cfg.flag("use_qk_norm", false)?;
    let layer_norm = cfg.text("norm_type")?.unwrap_or("layer_norm") == "layer_norm";
    let p = "vision_tower.";
    b.param(&format!("{p}embeddings.cls_token"), 1, h);
    if cfg.flag("use_mask_token", false)? {
        b.param(&format!("{p}embeddings.mask_token"), 1, h);
    }
    b.conv(
        &format!("{p}embeddings.patch_embeddings.projection"),
        h,
        v.channels,
        mul(&[ph, pw]),
        true,
    );
    if cfg.flag("use_absolute_position_embeddings", true)? {
        let patches = (ih / ph.max(1)) * (iw / pw.max(1));
        b.param(
            &format!("{p}embeddings.position_embeddings"),
            patches + 1,
            h,
        );
    }
    for l in 0..v.layers {
        let q = format!("{p}encoder.layer.{l}");
        for proj in ["q_proj", "k_proj", "v_proj"] {
            b.linear(&format!("{q}.attention.{proj}"), h, h, bias);
        }
        if qk_norm {
            b.norm(&format!("{q}.attention.q_norm"), h, false);
            b.norm(&format!("{q}.attention.k_norm"), h, false);
        }
        b.linear(&format!("{q}.attention.projection_layer"), h, h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.layernorm_before"), h, layer_norm);
        b.norm(&format!("{q}.layernorm_after"), h, layer_norm);
        b.param(&format!("{q}.lambda_1"), 1, h);
        b.param(&format!("{q}.lambda_2"), 1, h);
    }
    if !cfg.flag("use_mean_pooling", true)? {
        b.norm(&format!("{p}layernorm"), h, true);
    }
    b.projector = true;
    let s = internvl_shuffle(cfg);
    let wide = mul(&[h, s, s]);
    b.norm("multi_modal_projector.layer_norm", wide, true);
    b.linear("multi_modal_projector.linear_1", text, wide, true);
    b.linear("multi_modal_projector.linear_2", text, text, true);
    Ok(tower(VisionKind::InternVit, &v, b, None))
}

/// InternVL in its original layout (`model_type: "internvl_chat"`,
/// `InternVisionModel`): class embedding, biased patch convolution,
/// positions, layers of a fused `qkv` (biased when `qkv_bias`), optional
/// q/k RMSNorms (`qk_normalization`), biased `proj`, MLP, `norm1`/`norm2`
/// (`norm_type`, RMSNorm by default), layer scales `ls1`/`ls2`; projector
/// `mlp1` (LayerNorm, linear, GELU, linear). Source: OpenGVLab
/// `modeling_intern_vit.py`, `modeling_internvl_chat.py`.
fn internvl_chat(cfg: &Keys, text: u64) -> Result<Tower, ConfigError> {
    let mut b = Builder::new();
    let v = vit(cfg)?;
    let (h, i) = (v.hidden, v.intermediate);
    let image = cfg.need(&["image_size"])?;
    let patch = cfg.need(&["patch_size"])?;
    let qkv_bias = cfg.flag("qkv_bias", false)?;
    let qk_norm = cfg.flag("qk_normalization", false)?;
    let layer_norm = cfg.text("norm_type")?.unwrap_or("rms_norm") == "layer_norm";
    let p = "vision_model.";
    b.param(&format!("{p}embeddings.class_embedding"), 1, h);
    b.conv(
        &format!("{p}embeddings.patch_embedding"),
        h,
        v.channels,
        patch * patch,
        true,
    );
    b.param(
        &format!("{p}embeddings.position_embedding"),
        (image / patch.max(1)).pow(2) + 1,
        h,
    );
    for l in 0..v.layers {
        let q = format!("{p}encoder.layers.{l}");
        b.linear(&format!("{q}.attn.qkv"), 3 * h, h, qkv_bias);
        if qk_norm {
            b.norm(&format!("{q}.attn.q_norm"), h, false);
            b.norm(&format!("{q}.attn.k_norm"), h, false);
        }
        b.linear(&format!("{q}.attn.proj"), h, h, true);
        b.linear(&format!("{q}.mlp.fc1"), i, h, true);
        b.linear(&format!("{q}.mlp.fc2"), h, i, true);
        b.norm(&format!("{q}.norm1"), h, layer_norm);
        b.norm(&format!("{q}.norm2"), h, layer_norm);
        b.param(&format!("{q}.ls1"), 1, h);
        b.param(&format!("{q}.ls2"), 1, h);
    }
    b.projector = true;
    let s = internvl_shuffle(cfg);
    let wide = mul(&[h, s, s]);
    b.norm("mlp1.0", wide, true);
    b.linear("mlp1.1", text, wide, true);
    b.linear("mlp1.3", text, text, true);
    Ok(tower(VisionKind::InternVit, &v, b, None))
}
