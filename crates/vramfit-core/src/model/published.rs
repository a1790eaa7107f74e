//! The checkpoint as published, in a few words: its storage format and its
//! bytes, text model and vision tower together (what an engine loads).

use super::quant::{CtFormat, CtStrategy, QuantScheme};
use super::{Dtype, ModelSpec};
use serde::Serialize;

/// How a checkpoint stores its weights, named as the format is known
/// (technical names, the same in every language).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PublishedFormat {
    /// `"MXFP4"`, `"FP8"`, `"GPTQ 4-bit"`, `"BF16"`, ...
    pub label: String,
    /// Bytes of everything counted in the checkpoint (text model and,
    /// where counted, the vision tower): [`ModelSpec::checkpoint`].
    pub bytes: u64,
    /// Of which the vision tower and projector.
    pub vision_bytes: u64,
    /// Parameters of the vision tower and projector (0 for a text model).
    pub vision_params: u64,
}

/// The name of a quantized format.
///
/// ```
/// use vramfit_core::model::{published_label, QuantScheme};
/// assert_eq!(published_label(&QuantScheme::Mxfp4), "MXFP4");
/// let gptq = QuantScheme::Gptq { bits: 4, group_size: 128, zero_bias: false };
/// assert_eq!(published_label(&gptq), "GPTQ 4-bit");
/// ```
pub fn published_label(scheme: &QuantScheme) -> String {
    match scheme {
        QuantScheme::Fp8Block { .. } | QuantScheme::Fp8Tensor | QuantScheme::Fp8Channel => {
            "FP8".into()
        }
        QuantScheme::Mxfp4 => "MXFP4".into(),
        QuantScheme::Gptq { bits, .. } => format!("GPTQ {bits}-bit"),
        QuantScheme::AwqGemm { bits, .. }
        | QuantScheme::AwqGemv { bits, .. }
        | QuantScheme::AwqGemvFast { bits, .. } => format!("AWQ {bits}-bit"),
        QuantScheme::CompressedTensors(ct) => {
            let kind = match (ct.float, ct.num_bits, ct.format) {
                (true, 4, CtFormat::Fp4Packed) => match ct.strategy {
                    CtStrategy::TensorGroup { .. } => "NVFP4".to_string(),
                    _ => "MXFP4".to_string(),
                },
                (true, 4, _) => "FP4".to_string(),
                (true, bits, _) => format!("FP{bits}"),
                (false, bits, _) => format!("INT{bits}"),
            };
            format!("compressed-tensors {kind}")
        }
        QuantScheme::Nvfp4 { .. } => "NVFP4".into(),
        QuantScheme::Bnb4 { .. } => "bitsandbytes 4-bit".into(),
        QuantScheme::Bnb8 => "bitsandbytes 8-bit".into(),
        QuantScheme::Int8Channel => "EETQ INT8".into(),
    }
}

/// The name of an unquantized checkpoint's dtype.
fn dtype_label(dtype: Dtype) -> &'static str {
    match dtype {
        Dtype::F64 => "FP64",
        Dtype::F32 => "FP32",
        Dtype::F16 => "FP16",
        Dtype::Bf16 => "BF16",
        Dtype::F8E4m3 | Dtype::F8E5m2 => "FP8",
    }
}

impl ModelSpec {
    /// The checkpoint's format and bytes as published.
    ///
    /// ```
    /// use vramfit_core::catalog::find_model;
    /// let spec = find_model("openai/gpt-oss-20b").unwrap().spec().unwrap();
    /// let p = spec.published_format();
    /// assert_eq!(p.label, "MXFP4");
    /// assert_eq!(p.bytes, 13_761_264_768); // 12.8 GiB
    /// ```
    pub fn published_format(&self) -> PublishedFormat {
        let (vision_bytes, vision_params) =
            self.vision.as_ref().map_or((0, 0), |v| (v.bytes, v.params));
        PublishedFormat {
            label: match &self.quantization {
                Some(q) => published_label(&q.scheme),
                None => dtype_label(self.dtype).to_string(),
            },
            bytes: self.checkpoint.bytes,
            vision_bytes,
            vision_params,
        }
    }
}
