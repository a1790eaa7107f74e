//! Models whose layers are not all attention: linear attention (Gated
//! DeltaNet), Mamba and Mamba-2, short convolutions, and the hybrids that
//! mix them with attention layers.

use super::super::error::ConfigError;
use super::super::family::{Family, Norm, QkNorm, Rules};
use super::super::json::Reader;
use super::super::layers::{self, Block, Mixer, Sizes, Slot};
use super::super::mixer::{self, LinearMixer, Mamba2Keys, MambaKeys};
use super::super::moe::{self, MoeKeys, Select, Shared};
use super::super::shape::{Keys, MtpLayout, MAX_CONTEXT, MAX_DIM, MAX_LAYERS};
use super::llama::{flag, shape};
use super::{finish, Architecture, Blueprint};

pub(super) const ALL: &[&Architecture] = &[
    &QWEN3_NEXT,
    &QWEN3_5_TEXT,
    &QWEN3_5_MOE_TEXT,
    &NEMOTRON_H,
    &JAMBA,
    &MAMBA,
    &MAMBA2,
    &FALCON_H1,
    &LFM2,
    &GRANITE_MOE_HYBRID,
];

/// The names of linear and full attention layers in `layer_types` (with
/// the legacy `mamba` / `attention` spellings `transformers` remaps).
fn hybrid_types(name: &str) -> Option<Mixer> {
    match name {
        "full_attention" | "attention" => Some(Mixer::Full),
        "linear_attention" | "mamba" => Some(Mixer::Linear),
        _ => None,
    }
}

/// Qwen3-Next / Qwen3.5 layers: `layer_types`, else one full attention
/// layer every `full_attention_interval` (default 4).
fn delta_net_layers(r: &Reader, n: u64) -> Result<Vec<Block>, ConfigError> {
    if let Some(blocks) = layers::layer_types(r, &hybrid_types)? {
        return Ok(blocks);
    }
    let every = r
        .dim(&["full_attention_interval"], MAX_LAYERS)?
        .unwrap_or(4);
    Ok(layers::by_index(
        n,
        |i| (i + 1).is_multiple_of(every),
        Mixer::Full,
        Mixer::Linear,
    ))
}

/// Qwen3-Next and Qwen3.5: Gated DeltaNet and gated-query full attention
/// layers with per-head q/k RMSNorms; `moe` selects Qwen-MoE experts with
/// a gated shared expert, else a dense MLP.
fn delta_net(r: &Reader, family: Family, moe_model: bool) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        qk_norm: QkNorm::Shared(Norm::Weight),
        gated_query: true,
        shared_expert_gate: moe_model,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    };
    let mut s = shape(r, family, &Keys::STANDARD, rules)?;
    s.mtp_layers = r
        .count(
            &["mtp_num_hidden_layers", "num_nextn_predict_layers"],
            MAX_LAYERS,
        )?
        .unwrap_or(0);
    s.mtp = Some(MtpLayout {
        vocab_matrices: u64::from(flag(r, "mtp_use_dedicated_embeddings", false)?),
        per_step: false,
        blocks: vec![Block::new(Mixer::Full, Slot::Auto)],
        extra: 0,
    });
    let moe = match moe_model {
        true => {
            let keys = MoeKeys {
                experts: &["num_experts"],
                top_k: &["num_experts_per_tok"],
                width: &["moe_intermediate_size"],
                shared: Shared::Width("shared_expert_intermediate_size"),
                select: Select::SparseStep,
                score_bias_default: false,
                latent: false,
            };
            moe::read(r, &keys, s.layers)?
        }
        false => None,
    };
    let blocks = delta_net_layers(r, s.layers)?;
    let mixer = mixer::gated_delta_net(r)?;
    finish(s, moe, blocks, "layer_types", Sizes::default(), Some(mixer))
}

const DELTA_NET_DEFAULTS: [(&str, u64); 6] = [
    ("head_dim", 256),
    ("linear_conv_kernel_dim", 4),
    ("linear_key_head_dim", 128),
    ("linear_value_head_dim", 128),
    ("linear_num_key_heads", 16),
    ("linear_num_value_heads", 32),
];

pub(super) const QWEN3_NEXT: Architecture = Architecture {
    family: Family::Qwen3Next,
    model_types: &["qwen3_next"],
    classes: &["Qwen3NextForCausalLM"],
    source: "transformers models/qwen3_next (Qwen3NextConfig, Qwen3NextForCausalLM)",
    counts: "Gated DeltaNet layers and gated-query attention layers (layer_types, else one \
             in full_attention_interval), experts with a gated shared expert; MTP layers (a \
             full-attention layer, fc, norms) apart",
    defaults: &[
        ("num_key_value_heads", 2),
        ("head_dim", 256),
        ("linear_conv_kernel_dim", 4),
        ("linear_key_head_dim", 128),
        ("linear_value_head_dim", 128),
        ("linear_num_key_heads", 16),
        ("linear_num_value_heads", 32),
        ("moe_intermediate_size", 512),
        ("shared_expert_intermediate_size", 512),
        ("num_experts_per_tok", 10),
        ("num_experts", 512),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_only_layers"],
    read: |r| delta_net(r, Family::Qwen3Next, true),
};

pub(super) const QWEN3_5_TEXT: Architecture = Architecture {
    family: Family::Qwen35,
    model_types: &["qwen3_5_text"],
    classes: &[],
    source: "transformers models/qwen3_5 (Qwen3_5TextConfig, Qwen3_5TextModel)",
    counts: "Qwen3-Next's layers with a dense gated MLP; vision tower counted apart; MTP \
             layers (mtp_num_hidden_layers) apart",
    defaults: &DELTA_NET_DEFAULTS,
    nested_defaults: &[],
    layer_keys: &["layer_types"],
    read: |r| delta_net(r, Family::Qwen35, false),
};

pub(super) const QWEN3_5_MOE_TEXT: Architecture = Architecture {
    family: Family::Qwen35Moe,
    model_types: &["qwen3_5_moe_text"],
    classes: &[],
    source: "transformers models/qwen3_5_moe (Qwen3_5MoeTextConfig, Qwen3_5MoeTextModel)",
    counts: "Qwen3-Next's layers and experts; vision tower counted apart; MTP layers \
             (mtp_num_hidden_layers) apart",
    defaults: &DELTA_NET_DEFAULTS,
    nested_defaults: &[],
    layer_keys: &["layer_types", "mlp_only_layers"],
    read: |r| delta_net(r, Family::Qwen35Moe, true),
};

/// Nemotron-H: one part per block from `layers_block_type` (or the
/// legacy `hybrid_override_pattern`): Mamba-2, attention, MLP or MoE.
fn nemotron_h(r: &Reader) -> Result<Blueprint, ConfigError> {
    let rules = Rules {
        gated_mlp: false,
        single_norm_blocks: true,
        layer_norms: 1,
        mlp_bias: flag(r, "mlp_bias", false)?,
        ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
    };
    let (blocks, key) = match r.text_list("layers_block_type")? {
        Some(list) => (
            nemotron_blocks("layers_block_type", &list)?,
            "layers_block_type",
        ),
        None => match r.text("hybrid_override_pattern")? {
            Some(p) => (
                layers::nemotron_pattern("hybrid_override_pattern", p)?,
                "hybrid_override_pattern",
            ),
            None => {
                return Err(ConfigError::missing(vec![
                    "hybrid_override_pattern".to_string()
                ]))
            }
        },
    };
    // `transformers` takes the count from the block list.
    let mut s = shape(r, Family::NemotronH, &NEMOTRON_H_KEYS, rules)?;
    s.layers = blocks.len() as u64;
    let mtp_blocks = match r.text_list("mtp_layers_block_type")? {
        Some(list) => nemotron_blocks("mtp_layers_block_type", &list)?,
        None => match r.text("mtp_hybrid_override_pattern")? {
            Some(p) => layers::nemotron_pattern("mtp_hybrid_override_pattern", p)?,
            None => Vec::new(),
        },
    };
    if !mtp_blocks.is_empty() {
        s.mtp_layers = r
            .count(&["num_nextn_predict_layers"], MAX_LAYERS)?
            .unwrap_or(1);
        s.mtp = Some(MtpLayout {
            vocab_matrices: 0,
            per_step: false,
            blocks: mtp_blocks,
            extra: 0,
        });
    }
    let keys = MoeKeys {
        experts: &["n_routed_experts", "num_local_experts"],
        top_k: &["num_experts_per_tok"],
        width: &["moe_intermediate_size"],
        shared: Shared::Width("moe_shared_expert_intermediate_size"),
        select: Select::All,
        score_bias_default: true,
        latent: true,
    };
    let moe = moe::read(r, &keys, s.layers)?;
    let mamba = Mamba2Keys {
        heads: "mamba_num_heads",
        head_dim: "mamba_head_dim",
        state: "ssm_state_size",
        groups: "n_groups",
        conv: "conv_kernel",
        expand: "expand",
        conv_bias: "use_conv_bias",
        proj_bias: "use_bias",
        inner: None,
        default_head_dim: 64,
        default_state: 128,
        default_groups: 8,
    };
    let proj_bias = flag(r, "use_bias", false)?;
    let mixer = mixer::mamba2(r, s.hidden, &mamba, proj_bias, true)?;
    let sizes = Sizes {
        window: None,
        chunk: None,
    };
    finish(s, moe, blocks, key, sizes, Some(mixer))
}

/// Nemotron-H blocks named in a list: Mamba-2, attention, MLP or MoE.
fn nemotron_blocks(key: &str, list: &[&str]) -> Result<Vec<Block>, ConfigError> {
    list.iter()
        .map(|t| match *t {
            "linear_attention" | "mamba" => Ok(Block::new(Mixer::Linear, Slot::None)),
            "full_attention" | "attention" => Ok(Block::new(Mixer::Full, Slot::None)),
            "mlp" => Ok(Block::new(Mixer::None, Slot::Dense)),
            "moe" => Ok(Block::new(Mixer::None, Slot::Moe)),
            other => Err(ConfigError::unsupported(format!(
                "{key} entry \"{other}\" is not a Nemotron-H block"
            ))),
        })
        .collect()
}

const NEMOTRON_H_KEYS: Keys = Keys {
    layers: &[],
    head_dim: &["head_dim", "attention_head_dim"],
    ..Keys::STANDARD
};

pub(super) const NEMOTRON_H: Architecture = Architecture {
    family: Family::NemotronH,
    model_types: &["nemotron_h"],
    classes: &["NemotronHForCausalLM"],
    source: "transformers models/nemotron_h (NemotronHConfig, NemotronHForCausalLM)",
    counts: "one part per block (layers_block_type or hybrid_override_pattern): Mamba-2, \
             attention, relu² MLP or experts with a shared expert (and latent projections), \
             one RMSNorm each; MTP blocks (mtp_hybrid_override_pattern) apart",
    defaults: &[("num_key_value_heads", 8), ("head_dim", 128)],
    nested_defaults: &[],
    layer_keys: &[
        "layers_block_type",
        "hybrid_override_pattern",
        "mtp_layers_block_type",
        "mtp_hybrid_override_pattern",
    ],
    read: nemotron_h,
};

pub(super) const JAMBA: Architecture = Architecture {
    family: Family::Jamba,
    model_types: &["jamba"],
    classes: &["JambaForCausalLM"],
    source: "transformers models/jamba (JambaConfig, JambaForCausalLM)",
    counts: "Mamba layers (with Δ, B, C norms) and an attention layer every attn_layer_period, \
             experts every expert_layer_period, dense gated MLP elsewhere, 2 RMSNorms per layer",
    defaults: &[
        ("num_key_value_heads", 8),
        ("num_experts_per_tok", 2),
        ("num_experts", 16),
    ],
    nested_defaults: &[],
    layer_keys: &["layers_block_type"],
    read: |r| {
        let s = shape(r, Family::Jamba, &Keys::STANDARD, Rules::LLAMA)?;
        let keys = MoeKeys {
            experts: &["num_experts", "num_local_experts"],
            select: Select::Period,
            ..MoeKeys::MIXTRAL
        };
        let moe = moe::read(r, &keys, s.layers)?;
        let period = r.dim(&["attn_layer_period"], MAX_LAYERS)?.unwrap_or(8);
        let offset = r.count(&["attn_layer_offset"], MAX_LAYERS)?.unwrap_or(4);
        let blocks = layers::by_index(
            s.layers,
            |i| i % period == offset,
            Mixer::Full,
            Mixer::Linear,
        );
        let keys = MambaKeys {
            expand: "mamba_expand",
            inner: None,
            state: "mamba_d_state",
            conv: "mamba_d_conv",
            dt_rank: "mamba_dt_rank",
            conv_bias: "mamba_conv_bias",
            proj_bias: "mamba_proj_bias",
            dt_norms: true,
        };
        let mixer = mixer::mamba(r, s.hidden, &keys)?;
        finish(
            s,
            moe,
            blocks,
            "attn_layer_period",
            Sizes::default(),
            Some(mixer),
        )
    },
};

/// Mamba and Falcon-Mamba: attention-free, one mixer and one norm per
/// layer, tied head by default.
fn mamba(r: &Reader, family: Family) -> Result<Blueprint, ConfigError> {
    let keys = Keys {
        heads: &[],
        kv_heads: &[],
        intermediate: &[],
        context: &[],
        head_dim: &[],
        ..Keys::STANDARD
    };
    let rules = Rules {
        single_norm_blocks: true,
        layer_norms: 1,
        tied_default: true,
        ..Rules::LLAMA
    };
    let mut s = shape(r, family, &keys, rules)?;
    if let Some(m) = r.dim(&["pad_vocab_size_multiple"], MAX_DIM)? {
        s.vocab = s.vocab.div_ceil(m).saturating_mul(m);
    }
    let blocks = (0..s.layers)
        .map(|_| Block::new(Mixer::Linear, Slot::None))
        .collect();
    let keys = MambaKeys {
        expand: "expand",
        inner: None,
        state: "state_size",
        conv: "conv_kernel",
        dt_rank: "time_step_rank",
        conv_bias: "use_conv_bias",
        proj_bias: "use_bias",
        dt_norms: false,
    };
    let mixer = mixer::mamba(r, s.hidden, &keys)?;
    finish(
        s,
        None,
        blocks,
        "num_hidden_layers",
        Sizes::default(),
        Some(mixer),
    )
}

pub(super) const MAMBA: Architecture = Architecture {
    family: Family::Mamba,
    model_types: &["mamba", "falcon_mamba"],
    classes: &["MambaForCausalLM", "FalconMambaForCausalLM"],
    source: "transformers models/mamba, falcon_mamba (MambaConfig, MambaForCausalLM)",
    counts: "Mamba mixers (in, conv, x, dt, A, D, out), one RMSNorm per layer, tied head by \
             default; the state is fixed per sequence",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| mamba(r, Family::Mamba),
};

pub(super) const MAMBA2: Architecture = Architecture {
    family: Family::Mamba2,
    model_types: &["mamba2"],
    classes: &["Mamba2ForCausalLM"],
    source: "transformers models/mamba2 (Mamba2Config, Mamba2ForCausalLM)",
    counts: "Mamba-2 mixers (in, conv, dt, A, D, gated norm, out), one RMSNorm per layer, \
             untied head by default",
    defaults: &[],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let keys = Keys {
            heads: &[],
            kv_heads: &[],
            intermediate: &[],
            context: &[],
            head_dim: &[],
            ..Keys::STANDARD
        };
        let rules = Rules {
            single_norm_blocks: true,
            layer_norms: 1,
            ..Rules::LLAMA
        };
        let s = shape(r, Family::Mamba2, &keys, rules)?;
        let blocks = (0..s.layers)
            .map(|_| Block::new(Mixer::Linear, Slot::None))
            .collect();
        let keys = Mamba2Keys {
            heads: "num_heads",
            head_dim: "head_dim",
            state: "state_size",
            groups: "n_groups",
            conv: "conv_kernel",
            expand: "expand",
            conv_bias: "use_conv_bias",
            proj_bias: "use_bias",
            inner: None,
            default_head_dim: 64,
            default_state: 128,
            default_groups: 8,
        };
        let bias = flag(r, "use_bias", false)?;
        let mixer = mixer::mamba2(r, s.hidden, &keys, bias, true)?;
        finish(
            s,
            None,
            blocks,
            "num_hidden_layers",
            Sizes::default(),
            Some(mixer),
        )
    },
};

pub(super) const FALCON_H1: Architecture = Architecture {
    family: Family::FalconH1,
    model_types: &["falcon_h1"],
    classes: &["FalconH1ForCausalLM"],
    source: "transformers models/falcon_h1 (FalconH1Config, FalconH1ForCausalLM)",
    counts: "every layer runs attention and a Mamba-2 mixer side by side, then a gated MLP; \
             2 RMSNorms per layer; mixer norm with mamba_rms_norm, out bias with \
             projectors_bias",
    defaults: &[("num_key_value_heads", 8)],
    nested_defaults: &[],
    layer_keys: &[],
    read: |r| {
        let rules = Rules {
            parallel_mixer: true,
            mlp_bias: flag(r, "mlp_bias", false)?,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        let s = shape(r, Family::FalconH1, &Keys::STANDARD, rules)?;
        let keys = Mamba2Keys {
            heads: "mamba_n_heads",
            head_dim: "mamba_d_head",
            state: "mamba_d_state",
            groups: "mamba_n_groups",
            conv: "mamba_d_conv",
            expand: "mamba_expand",
            conv_bias: "mamba_conv_bias",
            proj_bias: "mamba_proj_bias",
            inner: Some("mamba_d_ssm"),
            default_head_dim: 64,
            default_state: 256,
            default_groups: 1,
        };
        let mixer = mixer::mamba2(
            r,
            s.hidden,
            &keys,
            flag(r, "projectors_bias", false)?,
            flag(r, "mamba_rms_norm", false)?,
        )?;
        let blocks = layers::uniform(s.layers, Mixer::Full);
        finish(
            s,
            None,
            blocks,
            "num_hidden_layers",
            Sizes::default(),
            Some(mixer),
        )
    },
};

/// LFM2's MLP width: `intermediate_size` (or `block_ff_dim`), with
/// `block_auto_adjust_ff_dim`: `⌊2I/3⌋`, then `⌊m·I⌋` rounded up to
/// `block_multiple_of` when `block_ffn_dim_multiplier` is set.
fn lfm2_width(r: &Reader, written: u64) -> Result<u64, ConfigError> {
    if !flag(r, "block_auto_adjust_ff_dim", true)? {
        return Ok(written);
    }
    let mut width = written.saturating_mul(2) / 3;
    let multiplier = match r.written("block_ffn_dim_multiplier") {
        true => r.number("block_ffn_dim_multiplier")?,
        false => Some(1.0),
    };
    if let Some(m) = multiplier {
        let scaled = (m * width as f64).floor();
        if !(0.0..=MAX_DIM as f64).contains(&scaled) {
            return Err(ConfigError::out_of_range("block_ffn_dim_multiplier", m));
        }
        let of = r.dim(&["block_multiple_of"], MAX_DIM)?.unwrap_or(256);
        width = (scaled as u64).div_ceil(of).saturating_mul(of);
    }
    Ok(width)
}

pub(super) const LFM2: Architecture = Architecture {
    family: Family::Lfm2,
    model_types: &["lfm2"],
    classes: &["Lfm2ForCausalLM"],
    source: "transformers models/lfm2 (Lfm2Config, Lfm2ForCausalLM)",
    counts: "gated short-convolution layers (in 3H, depthwise conv of conv_L_cache taps, out) \
             and attention layers with per-head q/k RMSNorms (layer_types or full_attn_idxs), \
             gated MLP with the auto-adjusted width, tied by default",
    defaults: &[("num_key_value_heads", 8)],
    nested_defaults: &[],
    layer_keys: &["layer_types", "full_attn_idxs"],
    read: |r| {
        let keys = Keys {
            intermediate: &["block_ff_dim", "intermediate_size"],
            ..Keys::STANDARD
        };
        let rules = Rules {
            qk_norm: QkNorm::Shared(Norm::Weight),
            tied_default: true,
            ..Rules::LLAMA
        };
        let mut s = shape(r, Family::Lfm2, &keys, rules)?;
        // `tie_embedding`, the original name, wins over the standard one.
        if let Some(tie) = r.flag("tie_embedding")? {
            s.tied = tie;
        }
        let written = s.need_intermediate("intermediate_size")?;
        s.intermediate = Some(lfm2_width(r, written)?);
        let names = |t: &str| match t {
            "full_attention" => Some(Mixer::Full),
            "conv" => Some(Mixer::Linear),
            _ => None,
        };
        let blocks = match layers::layer_types(r, &names)? {
            Some(b) => b,
            None => {
                let full = r.uint_list("full_attn_idxs")?;
                let n = s.layers;
                layers::by_index(
                    n,
                    |i| full.as_ref().is_none_or(|f| f.contains(&i)),
                    Mixer::Full,
                    Mixer::Linear,
                )
            }
        };
        let mixer = LinearMixer::ShortConv {
            channels: s.hidden,
            kernel: r.dim(&["conv_L_cache"], MAX_CONTEXT)?.unwrap_or(3),
            bias: flag(r, "conv_bias", false)?,
        };
        finish(
            s,
            None,
            blocks,
            "layer_types",
            Sizes::default(),
            Some(mixer),
        )
    },
};

pub(super) const GRANITE_MOE_HYBRID: Architecture = Architecture {
    family: Family::GraniteMoeHybrid,
    model_types: &["granitemoehybrid"],
    classes: &["GraniteMoeHybridForCausalLM"],
    source: "transformers models/granitemoehybrid (GraniteMoeHybridConfig)",
    counts: "Mamba-2 or attention per layer (layer_types), experts when num_local_experts > 0 \
             plus a shared gated MLP of shared_intermediate_size in every layer, 2 RMSNorms \
             per layer",
    defaults: &[
        ("num_local_experts", 8),
        ("num_experts_per_tok", 2),
        ("shared_intermediate_size", 1024),
    ],
    nested_defaults: &[],
    layer_keys: &["layer_types", "layers_block_type"],
    read: |r| {
        let rules = Rules {
            fused_gate_up: true,
            ..Rules::LLAMA.with_attention_bias(flag(r, "attention_bias", false)?)
        };
        let keys = Keys {
            intermediate: &["shared_intermediate_size"],
            ..Keys::STANDARD
        };
        let s = shape(r, Family::GraniteMoeHybrid, &keys, rules)?;
        let moe_keys = MoeKeys {
            experts: &["num_local_experts"],
            top_k: &["num_experts_per_tok"],
            width: &["intermediate_size"],
            shared: Shared::Width("shared_intermediate_size"),
            select: Select::All,
            score_bias_default: false,
            latent: false,
        };
        let moe = moe::read(r, &moe_keys, s.layers)?;
        let list = match r.text_list("layer_types")? {
            Some(l) => Some(l),
            None => r.text_list("layers_block_type")?,
        };
        let blocks = match list {
            Some(list) => layers::listed("layer_types", &list, &hybrid_types)?,
            None => layers::uniform(s.layers, Mixer::Linear),
        };
        let keys = Mamba2Keys {
            heads: "mamba_n_heads",
            head_dim: "mamba_d_head",
            state: "mamba_d_state",
            groups: "mamba_n_groups",
            conv: "mamba_d_conv",
            expand: "mamba_expand",
            conv_bias: "mamba_conv_bias",
            proj_bias: "mamba_proj_bias",
            inner: None,
            default_head_dim: 64,
            default_state: 256,
            default_groups: 1,
        };
        let bias = flag(r, "mamba_proj_bias", false)?;
        let mixer = mixer::mamba2(r, s.hidden, &keys, bias, true)?;
        finish(s, moe, blocks, "layer_types", Sizes::default(), Some(mixer))
    },
};
