//! The tensors of each vision tower and projector, as transformers'
//! modeling code creates them (vLLM's for Kimi-VL's MoonViT). Names are
//! the checkpoint's module paths (before transformers 4.52; the later
//! `model.`-prefixed spelling is added for matching quantization lists).

mod encoders;
mod gemma4;
mod kimi;
mod minimax;
mod native;
mod phi3v;
mod phi4;
mod qwen;
mod step;
mod wrappers;

use super::config::Keys;
use super::VisionKind;
use crate::model::error::ConfigError;
use crate::model::quant::VisionTensor;
use encoders::Vit;
pub(crate) use phi3v::phi3_v;
pub(crate) use phi4::phi4_siglip;

/// A tower: its tensors, split into encoder and projector.
pub(crate) struct Tower {
    pub kind: VisionKind,
    pub layers: u64,
    pub hidden: u64,
    pub image_tokens: Option<u64>,
    pub tensors: Vec<Part>,
    /// Parameters of an audio tower and its embedder among `tensors`
    /// (Gemma-4 E2B/E4B).
    pub audio_params: u64,
    /// 0-dim tensors among `tensors` (Gemma-4's clipping bounds).
    pub scalars: u64,
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

pub(crate) fn mul(values: &[u64]) -> u64 {
    values.iter().fold(1u64, |a, b| a.saturating_mul(*b))
}

/// Collects tensors under a name prefix.
pub(crate) struct Builder {
    tensors: Vec<Part>,
    pub(crate) projector: bool,
    /// 0-dim tensors pushed ([`Builder::scalars`]).
    scalars: u64,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Builder {
            tensors: Vec::new(),
            projector: false,
            scalars: 0,
        }
    }

    /// `n` 0-dim tensors stored under `name` (buffers holding one value
    /// each, such as Gemma-4's clipping bounds), counted as one `1 × n`
    /// entry.
    pub(crate) fn scalars(&mut self, name: &str, n: u64) {
        self.param(name, 1, n);
        self.scalars = self.scalars.saturating_add(n);
    }

    /// Parameters pushed so far.
    pub(crate) fn params(&self) -> u64 {
        crate::units::sum(
            self.tensors
                .iter()
                .map(|p| p.tensor.rows.saturating_mul(p.tensor.cols)),
        )
    }

    pub(crate) fn push(&mut self, name: String, rows: u64, cols: u64, linear: bool) {
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
    pub(crate) fn linear(&mut self, name: &str, out: u64, input: u64, bias: bool) {
        self.push(name.to_string(), out, input, true);
        if bias {
            self.push(format!("{name}.bias"), 1, out, false);
        }
    }

    /// A tensor that is not a linear layer (convolution, embedding, scalar
    /// per channel).
    pub(crate) fn param(&mut self, name: &str, rows: u64, cols: u64) {
        self.push(name.to_string(), rows, cols, false);
    }

    /// A LayerNorm (`bias`) or RMSNorm of `width`.
    pub(crate) fn norm(&mut self, name: &str, width: u64, bias: bool) {
        self.param(name, 1, width);
        if bias {
            self.param(&format!("{name}.bias"), 1, width);
        }
    }

    /// A convolution `channels → out` with a `kernel`-sized window.
    pub(crate) fn conv(&mut self, name: &str, out: u64, channels: u64, kernel: u64, bias: bool) {
        self.param(name, out, mul(&[channels, kernel]));
        if bias {
            self.param(&format!("{name}.bias"), 1, out);
        }
    }
}

/// The tower of outer `model_type`, or `None` when vramfit does not count
/// it. Keys absent from `vision_config` are recorded in `cfg`.
pub(crate) fn build(
    model_type: &str,
    cfg: &Keys,
    text: u64,
    audio: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Result<Option<Tower>, ConfigError> {
    let tower = match model_type {
        "gemma3" => wrappers::gemma3(cfg, text)?,
        "gemma4" => gemma4::gemma4(cfg, text, audio)?,
        "llava" | "llava_next" | "llava_onevision" => match wrappers::llava(cfg, text, model_type)?
        {
            Some(t) => t,
            None => return Ok(None),
        },
        "mistral3" => wrappers::mistral3(cfg, text)?,
        "paligemma" => wrappers::paligemma(cfg)?,
        "qwen2_vl" => qwen::qwen2_vl(cfg)?,
        "qwen2_5_vl" => qwen::qwen2_5_vl(cfg)?,
        "qwen3_vl" | "qwen3_vl_moe" => qwen::qwen3_vl(cfg)?,
        "qwen3_5" | "qwen3_5_moe" => qwen::qwen3_5(cfg)?,
        "kimi_vl" => native::kimi_vl(cfg, text)?,
        "kimi_k3" => kimi::kimi_k3(cfg, text)?,
        "idefics3" | "smolvlm" => native::idefics3(cfg, text)?,
        "llama4" => native::llama4(cfg, text)?,
        "internvl" => native::internvl(cfg, text)?,
        "internvl_chat" => native::internvl_chat(cfg, text)?,
        "minimax_m3_vl" => minimax::minimax_m3_vl(cfg, text)?,
        "step3p7" => step::step3p7(cfg, text)?,
        _ => return Ok(None),
    };
    Ok(Some(tower))
}

pub(crate) fn tower(kind: VisionKind, v: &Vit, b: Builder, image_tokens: Option<u64>) -> Tower {
    Tower {
        kind,
        layers: v.layers,
        hidden: v.hidden,
        image_tokens,
        scalars: b.scalars,
        tensors: b.tensors,
        audio_params: 0,
    }
}
