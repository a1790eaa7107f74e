//! The names a text-model tensor has in real checkpoints, so that the
//! module lists of a quantization config (written against those names)
//! can be applied to vramfit's Llama-style tensor list.
//!
//! A tensor gets every spelling it may have been quantized under: its
//! Llama-style path, the family's own module names (Mixtral's
//! `block_sparse_moe.experts.N.w1`, gpt-oss' `mlp.router`, Llama 4's
//! `feed_forward`), and, in a multimodal checkpoint, the text model's
//! prefixes before and after transformers 4.52 (`language_model.model.…`,
//! `model.language_model.…`). A module counts as excluded when any of its
//! spellings is.

use crate::model::params::{Group, Tensor};

/// Where an expert's index goes in [`Naming::expert_spellings`]: a byte no
/// module name holds.
const INDEX: &str = "\u{0}";

/// One spelling of a routed expert's module, for every expert at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// The same name for every expert (fused experts).
    Fixed(String),
    /// `before + e + after` for expert `e`.
    Indexed(String, String),
}

/// How a checkpoint spells the text model's modules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Naming {
    /// `model_type` of the text model.
    model_type: String,
    /// The text model sits inside a multimodal wrapper.
    multimodal: bool,
}

/// Text model types whose router is an `nn.Parameter` (a custom top-k
/// router), not an `nn.Linear`, so that methods converting linear layers
/// leave it alone: transformers `DeepseekV2MoEGate`,
/// `DeepseekV3TopkRouter`, `GptOssTopKRouter`, `Glm4MoeTopkRouter`,
/// `Dots1TopkRouter`, `DeepseekV32TopkRouter`, `GlmMoeDsaTopkRouter`,
/// `DeepseekV4TopKRouter`.
const PARAMETER_ROUTERS: [&str; 11] = [
    "kimi_linear",
    "deepseek_v2",
    "deepseek_v3",
    "kimi_k2",
    "gpt_oss",
    "glm4_moe",
    "dots1",
    "deepseek_v32",
    "glm_moe_dsa",
    "deepseek_v4",
    "deepseek_ref",
];

/// Text model types whose experts are one fused 3-D parameter per
/// projection (no per-expert index in the name).
const FUSED_EXPERTS: [&str; 4] = ["gpt_oss", "llama4", "llama4_text", "gemma4_text"];

/// Text model types whose own module names are the only ones their
/// checkpoints have (the Llama-style path is not a spelling of theirs).
const OWN_NAMES_ONLY: [&str; 1] = ["gemma4_text"];

impl Naming {
    pub(crate) fn new(model_type: Option<&str>, multimodal: bool) -> Naming {
        Naming {
            model_type: model_type.unwrap_or("").to_string(),
            multimodal,
        }
    }

    /// Whether the model's routers are `nn.Linear` layers.
    pub(crate) fn router_is_linear(&self) -> bool {
        !PARAMETER_ROUTERS.contains(&self.model_type.as_str())
    }

    fn fused_experts(&self) -> bool {
        FUSED_EXPERTS.contains(&self.model_type.as_str())
    }

    /// Whether `t` is a router (or a shared-expert gate): a one-row-per-
    /// expert scoring layer that GPTQ and ModelOpt never convert.
    pub(crate) fn is_router(t: &Tensor) -> bool {
        (t.group == Group::Router && t.projection) || t.module.ends_with("shared_expert_gate")
    }

    /// The spellings of `t` (of its expert `expert`, when named one by one).
    pub(crate) fn text_names(&self, t: &Tensor, expert: Option<u64>) -> Vec<String> {
        self.spellings(t, expert.map(|e| e.to_string()).as_deref())
    }

    /// The spellings of expert `E` of `t`, each split where `E` is written:
    /// spelling `i` of expert `e` is `before + e + after`, or the whole
    /// name when the spelling has no index (fused experts).
    ///
    /// The index is written as a placeholder byte and the spellings cut
    /// there: the family aliases rewrite fixed names (`mlp.`,
    /// `.gate_proj`, `shared_experts.`) that hold neither a digit nor the
    /// placeholder, so they act on `e` and on the placeholder alike.
    pub(crate) fn expert_spellings(&self, t: &Tensor) -> Vec<Spelling> {
        self.spellings(t, Some(INDEX))
            .into_iter()
            .map(|name| match name.split_once(INDEX) {
                Some((before, after)) => Spelling::Indexed(before.to_string(), after.to_string()),
                None => Spelling::Fixed(name),
            })
            .collect()
    }

    /// The spellings of `t` with the expert index written `index`.
    fn spellings(&self, t: &Tensor, index: Option<&str>) -> Vec<String> {
        let module = self.indexed(t.module, index);
        let in_layer = |m: &str| match t.layer {
            Some(i) => format!("model.layers.{i}.{m}"),
            None => m.to_string(),
        };
        let mut fulls = vec![match module == t.module {
            true => t.path(),
            false => in_layer(&module),
        }];
        if let Some(alias) = self.alias(&module) {
            if OWN_NAMES_ONLY.contains(&self.model_type.as_str()) {
                fulls.clear();
            }
            fulls.push(match (self.own_layer_prefix(), t.layer) {
                (Some(prefix), Some(i)) => format!("{prefix}.{i}.{alias}"),
                _ => in_layer(&alias),
            });
        }
        let mut names = Vec::with_capacity(fulls.len() * 3);
        for full in fulls {
            if self.multimodal {
                names.push(format!("language_model.{full}"));
                if let Some(rest) = full.strip_prefix("model.") {
                    names.push(format!("model.language_model.{rest}"));
                }
            }
            names.push(full);
        }
        names
    }

    /// Where the family's checkpoints put their decoder layers when it is
    /// not `model.layers` (Nemotron-H: `backbone.layers`).
    fn own_layer_prefix(&self) -> Option<&'static str> {
        (self.model_type == "nemotron_h").then_some("backbone.layers")
    }

    /// `mlp.experts.gate_proj` → `mlp.experts.7.gate_proj`.
    fn indexed(&self, module: &str, index: Option<&str>) -> String {
        match (index, module.split_once("experts.")) {
            (Some(e), Some((head, tail))) if !self.fused_experts() => {
                format!("{head}experts.{e}.{tail}")
            }
            _ => module.to_string(),
        }
    }

    /// The family's own spelling of a Llama-style module path.
    fn alias(&self, module: &str) -> Option<String> {
        let swap =
            |from: &str, to: &str| module.strip_prefix(from).map(|rest| format!("{to}{rest}"));
        match self.model_type.as_str() {
            "mixtral" | "phimoe" | "kimi_linear" => {
                let m = swap("mlp.", "block_sparse_moe.")?;
                Some(match m.contains(".experts.") {
                    true => m
                        .replace(".gate_proj", ".w1")
                        .replace(".up_proj", ".w3")
                        .replace(".down_proj", ".w2"),
                    false => m,
                })
            }
            "gpt_oss" => (module == "mlp.gate").then(|| "mlp.router".to_string()),
            "llama4" | "llama4_text" | "jamba" => {
                let m = swap("mlp.", "feed_forward.")?;
                Some(match m.as_str() {
                    "feed_forward.gate" => "feed_forward.router".to_string(),
                    _ => m.replace("shared_experts.", "shared_expert."),
                })
            }
            "qwen2_moe" | "qwen3_next" | "qwen3_5_moe_text" | "laguna" => {
                swap("mlp.shared_experts.", "mlp.shared_expert.")
            }
            // Gemma-4: experts and router sit beside the MLP.
            "gemma4_text" => match module {
                "mlp.gate" => Some("router.proj".to_string()),
                _ => swap("mlp.experts.", "experts."),
            },
            // Nemotron-H: every block's one module is its `mixer` (Mamba,
            // attention, MLP or experts), under `backbone.layers.N`
            // (transformers `NemotronHBlock`).
            "nemotron_h" => swap("self_attn.", "mixer.")
                .or_else(|| swap("mlp.", "mixer."))
                .or_else(|| module.starts_with("mixer.").then(|| module.to_string())),
            "granitemoe" | "granitemoeshared" => {
                (module == "mlp.gate").then(|| "block_sparse_moe.router.layer".to_string())
            }
            _ => None,
        }
    }
}
