//! Quantized checkpoints (`quantization_config`): which tensors a
//! checkpoint stores in a narrow format, and the bytes of each as stored —
//! packed values, scales, zero points, group indices and the small
//! per-layer tensors the writing library adds.
//!
//! Every method is read the way the library that writes it reads its own
//! config ([`config`]); the bytes of one matrix follow that library's
//! layout ([`QuantScheme::matrix`]); which modules are converted follows
//! its selection rules and pattern dialect ([`Scope`], [`Dialect`]), each
//! list run as one automaton over the module names, the routed experts
//! answered for all at once (`automaton.rs`). A method vramfit cannot size
//! exactly is refused, naming it.

mod automaton;
mod config;
mod layout;
mod names;
mod pattern;
mod regex;
mod select;
mod side;

#[cfg(test)]
mod equivalence;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use layout::{CtFormat, CtStrategy, CtWeights, QuantScheme, StoredBytes};
pub(crate) use names::Naming;
pub use pattern::Dialect;
pub(crate) use regex::Regex;
pub(crate) use side::{attach as attach_side_file, Attached};
pub use side::{name_suggests_quantization, QuantSource};

pub(crate) use config::{deepseek_v4_layout, keep_unconverted, read};
pub(crate) use select::{weigh, weigh_vision, VisionTensor, Weighed};

use serde::Serialize;

/// The checkpoint's quantization, as its config states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quantization {
    /// `quant_method` as written, lower case (`"fp8"`, `"gptq"`,
    /// `"compressed-tensors"`, `"bitsandbytes"`, ...).
    pub method: String,
    /// The format of the quantized weights (of the first config group when
    /// there are several).
    pub scheme: QuantScheme,
    /// Module patterns kept at the checkpoint dtype, as written
    /// (`modules_to_not_convert`, `ignore`, `llm_int8_skip_modules`,
    /// `exclude_modules`, GPTQModel's `-:` rules).
    pub not_converted: Vec<String>,
    /// An input-activation scale (or global scale) is stored with each
    /// quantized layer.
    pub static_activation_scales: bool,
    /// The formats and the modules they apply to, in the config's order.
    pub groups: Vec<QuantGroup>,
    /// Which modules the method converts at all.
    pub scope: Scope,
    /// How the pattern lists are read.
    pub dialect: Dialect,
    /// Bytes of the key/value scales stored per attention layer
    /// (`kv_cache_scheme`, `kv_cache_quant_algo`), 0 when none.
    pub kv_scale_bytes: u64,
    /// What vramfit assumed where the config does not say (shown to the
    /// user).
    pub assumptions: Vec<String>,
}

/// One format and the modules it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuantGroup {
    /// Module names, `re:` patterns or class names (`"Linear"`; `"Experts"`
    /// for every routed expert; `"prefix:<module>"` for a module and all
    /// under it) this format applies to; `["Linear"]` for methods without
    /// groups.
    pub targets: Vec<String>,
    pub scheme: QuantScheme,
    /// Bytes of activation scales (and their zero points or global scales)
    /// stored with each layer of this group.
    pub input_scale_bytes: u64,
}

/// The modules a method converts before its exclusion list applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scope {
    /// Every `nn.Linear`, text and vision, except the output head, which
    /// transformers always keeps (`get_keys_to_not_convert`): FP8,
    /// bitsandbytes, FBGEMM FP8, EETQ.
    LinearNoHead,
    /// The modules the config groups target (compressed-tensors), output
    /// head included unless ignored.
    Targets,
    /// The linear layers inside the text decoder layers only (GPTQ, AWQ):
    /// no embedding, head or vision tower. `routers`: routers that are
    /// `nn.Linear` are converted too (AutoAWQ converts every linear of a
    /// block; AutoGPTQ / GPTQModel list the modules and leave routers out).
    /// `head`: GPTQModel's `lm_head: true`.
    DecoderLayers { routers: bool, head: bool },
    /// The routed experts only (MXFP4, gpt-oss).
    Experts,
    /// Every `nn.Linear` of the text model, output head included unless
    /// excluded, vision tower never (NVIDIA ModelOpt).
    TextLinear,
}
