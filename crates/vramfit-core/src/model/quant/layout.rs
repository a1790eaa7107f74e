//! What a quantized checkpoint stores for one `R × C` weight matrix
//! (`R` output features, `C` input features): the packed values, their
//! scales, zero points, group index and small per-layer tensors, each
//! exactly as the library that wrote the checkpoint lays it out.

use crate::model::dtype::Dtype;
use crate::units::saturate;
use serde::Serialize;

/// Storage formats vramfit can size, with the parameters that change the
/// bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuantScheme {
    /// FP8 (E4M3) weights and one fp32 `weight_scale_inv` per `rows × cols`
    /// tile (DeepSeek-V3, Qwen3 FP8; transformers `FP8Linear`).
    Fp8Block { rows: u64, cols: u64 },
    /// FP8 weights and one fp32 scale per matrix (AutoFP8 / vLLM `fp8`,
    /// ModelOpt `FP8`).
    Fp8Tensor,
    /// FP8 weights and one fp32 scale per output row (`fbgemm_fp8`,
    /// ModelOpt `FP8_PER_CHANNEL_PER_TOKEN`).
    Fp8Channel,
    /// MXFP4 (gpt-oss): E2M1 values two per byte in blocks of 32 along the
    /// input dimension, one E8M0 byte of scale per block.
    Mxfp4,
    /// GPTQ (AutoGPTQ / GPTQModel layout): `qweight` packed along the input
    /// dimension in int32, `qzeros` packed along the output dimension,
    /// 16-bit `scales` per group and row, an int32 `g_idx` per input
    /// feature; `zero_bias`: a 16-bit bias per row that AutoGPTQ before
    /// March 2024 stored even for layers without one. `group_size` 0 means
    /// one group per row (`-1` in the config).
    Gptq {
        bits: u64,
        group_size: u64,
        zero_bias: bool,
    },
    /// AutoAWQ GEMM layout: `qweight` packed along the output dimension,
    /// `qzeros` per group (when `zero_point`), fp16 `scales` per group.
    AwqGemm {
        bits: u64,
        group_size: u64,
        zero_points: bool,
    },
    /// AutoAWQ GEMV layout: rows packed along the input dimension, scales
    /// and zeros padded to the kernel's width.
    AwqGemv { bits: u64, group_size: u64 },
    /// AutoAWQ GEMV-fast layout: interleaved int16 values, fp16 scales and
    /// scaled zeros padded like GEMV.
    AwqGemvFast { bits: u64, group_size: u64 },
    /// compressed-tensors (llm-compressor) weights.
    CompressedTensors(CtWeights),
    /// NVIDIA ModelOpt NVFP4: E2M1 values two per byte, one FP8 scale per
    /// `group_size` inputs, an fp32 `weight_scale_2` and `input_scale`.
    Nvfp4 { group_size: u64 },
    /// bitsandbytes 4-bit (NF4 or FP4): values two per storage byte, an
    /// absmax per `blocksize` values (uint8 plus a nested fp32 absmax per
    /// 256 when `double_quant`, else fp32), the 16-entry code and the
    /// packed `quant_state` JSON.
    Bnb4 {
        double_quant: bool,
        blocksize: u64,
        storage_bytes: u64,
    },
    /// bitsandbytes LLM.int8(): int8 weights, an fp32 `SCB` per row and a
    /// one-byte `weight_format`.
    Bnb8,
    /// EETQ: int8 weights and an fp16 scale per row.
    Int8Channel,
}

/// The weights arguments of one compressed-tensors config group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CtWeights {
    pub num_bits: u64,
    /// `type: "float"` (FP8, FP4) rather than `"int"`.
    pub float: bool,
    pub strategy: CtStrategy,
    pub symmetric: bool,
    /// `actorder: "group"`: an int32 `weight_g_idx` per input feature.
    pub group_index: bool,
    pub format: CtFormat,
    /// Bytes of one scale (the checkpoint dtype's; FP8 for FP4 weights).
    pub scale_bytes: u64,
}

/// compressed-tensors `strategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CtStrategy {
    Tensor,
    Channel,
    Group {
        size: u64,
    },
    Block {
        rows: u64,
        cols: u64,
    },
    /// Groups plus one fp32 global scale (NVFP4).
    TensorGroup {
        size: u64,
    },
}

/// compressed-tensors `format` of the stored weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CtFormat {
    /// `pack-quantized`: values packed into int32 along each row, plus
    /// `weight_shape` (int64 × 2).
    PackQuantized,
    /// `int-quantized`, `float-quantized`, `naive-quantized`: one value per
    /// element in the narrowest torch dtype.
    Unpacked,
    /// `nvfp4-pack-quantized` / `mxfp4-pack-quantized`: two values per byte.
    Fp4Packed,
}

/// Bytes of one stored matrix (or of a sum of them), by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct StoredBytes {
    /// The quantized values (packed).
    pub values: u64,
    /// Scales (including nested absmax and per-tensor global scales).
    pub scales: u64,
    /// Zero points.
    pub zero_points: u64,
    /// Activation-order group index (`g_idx`).
    pub group_index: u64,
    /// Everything else stored with the layer: input scales, shapes, codes,
    /// serialized state, zero biases.
    pub other: u64,
}

impl StoredBytes {
    pub fn total(&self) -> u64 {
        crate::units::sum([
            self.values,
            self.scales,
            self.zero_points,
            self.group_index,
            self.other,
        ])
    }

    pub(crate) fn add(&mut self, other: &StoredBytes, times: u64) {
        let mul = |a: u64| a.saturating_mul(times);
        self.values = self.values.saturating_add(mul(other.values));
        self.scales = self.scales.saturating_add(mul(other.scales));
        self.zero_points = self.zero_points.saturating_add(mul(other.zero_points));
        self.group_index = self.group_index.saturating_add(mul(other.group_index));
        self.other = self.other.saturating_add(mul(other.other));
    }
}

/// Bytes of fp32 scalars and of one int32.
const F32: u128 = 4;
const I32: u128 = 4;
/// 16-bit scales of GPTQ and AWQ.
const F16: u128 = 2;
/// MXFP4 and the OCP microscaling block.
const MX_BLOCK: u128 = 32;
/// bitsandbytes nested (double) quantization of the absmax: blocks of 256,
/// a 256-entry fp32 code; the 4-bit code has 16 fp32 entries.
const BNB_NESTED_BLOCK: u128 = 256;
const BNB_NESTED_CODE: u128 = 256 * 4;
const BNB_CODE: u128 = 16 * 4;
/// Characters of the `nested_offset` float in bitsandbytes' packed
/// `quant_state` JSON: Python's `repr` of a float32 mean, whose length
/// varies (typically 17–21); 20 is assumed.
pub(crate) const BNB_OFFSET_CHARS: u64 = 20;

impl QuantScheme {
    /// Bytes stored for one `rows × cols` matrix whose unquantized tensors
    /// are `dtype`.
    ///
    /// # Formula
    ///
    /// ```text
    /// R rows (outputs), C columns (inputs), n = ⌈C/g⌉ groups, b bits
    /// FP8 block (r×c)  R·C + 4·⌈R/r⌉·⌈C/c⌉
    /// FP8 tensor       R·C + 4              FP8 channel  R·C + 4·R
    /// MXFP4            16·R·⌈C/32⌉ + R·⌈C/32⌉
    /// GPTQ             4·R·⌈C·b/32⌉ + 4·n·⌈R·b/32⌉ + 2·n·R + 4·C (+ 2·R zero bias)
    /// AWQ GEMM         4·C·⌈R·b/32⌉ + 4·n·⌈R·b/32⌉ (zero_point) + 2·n·R
    /// AWQ GEMV         4·R·⌈C·b/32⌉ + 4·R·w + 2·R·w·32/b,  w = ⌈⌈n/(32/b)⌉/m⌉·m
    /// AWQ GEMV-fast    R·C·b/8 + 2 · (2·R·w·32/b)
    /// NVFP4 (ModelOpt) R·⌈C/2⌉ + R·⌈C/g⌉ + 4 + 4
    /// bnb 4-bit        s·⌈R·C/2s⌉ + absmax + 64 + JSON
    ///                  absmax = 4·B, or B + 4·⌈B/256⌉ + 1024 nested; B = ⌈R·C/blocksize⌉
    /// bnb 8-bit        R·C + 4·R + 1        EETQ  R·C + 2·R
    /// compressed-tensors: see [`CtWeights::bytes`]
    /// ```
    ///
    /// `m` is 1, 2, 4 for groups ≥128, 64, 32. Sources: transformers
    /// `integrations/finegrained_fp8.py::FP8Linear`; OCP Microscaling spec
    /// v1.0 and the gpt-oss checkpoint (`*_blocks` `[E, R, C/32, 16]`,
    /// `*_scales` `[E, R, C/32]`); AutoGPTQ `qlinear_cuda.py::QuantLinear`
    /// and its `make_quant` (bias always created before PR #602); AutoAWQ
    /// `modules/linear/gemm.py`, `gemv.py` (`calculate_zeros_width`),
    /// `gemv_fast.py`; vLLM `quantization/modelopt.py` (NVFP4 tensors);
    /// bitsandbytes `functional.py::quantize_4bit`, `QuantState.as_dict`,
    /// `nn/modules.py::Linear8bitLt._save_to_state_dict`; transformers
    /// `integrations/eetq.py`.
    pub fn matrix(self, rows: u64, cols: u64, dtype: Dtype) -> StoredBytes {
        let (r, c) = (rows as u128, cols as u128);
        let groups = |g: u64| match g {
            0 => 1,
            g => cols.div_ceil(g) as u128,
        };
        let mut out = Stored::default();
        match self {
            QuantScheme::Fp8Block { rows: br, cols: bc } => {
                out.values = r * c;
                out.scales =
                    F32 * rows.div_ceil(br.max(1)) as u128 * cols.div_ceil(bc.max(1)) as u128;
            }
            QuantScheme::Fp8Tensor => {
                out.values = r * c;
                out.scales = F32;
            }
            QuantScheme::Fp8Channel => {
                out.values = r * c;
                out.scales = F32 * r;
            }
            QuantScheme::Mxfp4 => {
                let blocks = r * c.div_ceil(MX_BLOCK);
                out.values = 16 * blocks;
                out.scales = blocks;
            }
            QuantScheme::Gptq {
                bits,
                group_size,
                zero_bias,
            } => {
                let (b, n) = (bits as u128, groups(group_size));
                out.values = I32 * r * (c * b).div_ceil(32);
                out.zeros = I32 * n * (r * b).div_ceil(32);
                out.scales = F16 * n * r;
                out.index = I32 * c;
                if zero_bias {
                    out.other = F16 * r;
                }
            }
            QuantScheme::AwqGemm {
                bits,
                group_size,
                zero_points,
            } => {
                let (b, n) = (bits as u128, groups(group_size));
                out.values = I32 * c * (r * b).div_ceil(32);
                if zero_points {
                    out.zeros = I32 * n * (r * b).div_ceil(32);
                }
                out.scales = F16 * n * r;
            }
            QuantScheme::AwqGemv { bits, group_size } => {
                let pack = 32 / bits.clamp(1, 32) as u128;
                let width = awq_zeros_width(cols, group_size, pack);
                out.values = I32 * r * (c * bits as u128).div_ceil(32);
                out.zeros = I32 * r * width;
                out.scales = F16 * r * width * pack;
            }
            QuantScheme::AwqGemvFast { bits, group_size } => {
                let pack = 32 / bits.clamp(1, 32) as u128;
                let width = awq_zeros_width(cols, group_size, pack);
                out.values = (r * c * bits as u128).div_ceil(8);
                out.scales = F16 * r * width * pack;
                out.zeros = F16 * r * width * pack;
            }
            QuantScheme::CompressedTensors(w) => return w.bytes(rows, cols),
            QuantScheme::Nvfp4 { group_size } => {
                out.values = r * c.div_ceil(2);
                out.scales = r * groups(group_size) + F32;
                out.other = F32;
            }
            QuantScheme::Bnb4 {
                double_quant,
                blocksize,
                storage_bytes,
            } => {
                let n = r * c;
                let s = storage_bytes.max(1) as u128;
                out.values = s * n.div_ceil(2 * s);
                let blocks = n.div_ceil(blocksize.max(1) as u128);
                out.scales = match double_quant {
                    true => blocks + F32 * blocks.div_ceil(BNB_NESTED_BLOCK) + BNB_NESTED_CODE,
                    false => F32 * blocks,
                };
                out.other =
                    BNB_CODE + bnb_state_json_len(rows, cols, blocksize, double_quant, dtype);
            }
            QuantScheme::Bnb8 => {
                out.values = r * c;
                out.scales = F32 * r;
                out.other = 1;
            }
            QuantScheme::Int8Channel => {
                out.values = r * c;
                out.scales = F16 * r;
            }
        }
        out.finish()
    }

    /// Bits of one stored value (no scales), in thousandths.
    pub fn value_milli_bits(self) -> u64 {
        let bits = match self {
            QuantScheme::Fp8Block { .. }
            | QuantScheme::Fp8Tensor
            | QuantScheme::Fp8Channel
            | QuantScheme::Bnb8
            | QuantScheme::Int8Channel => 8,
            QuantScheme::Mxfp4 | QuantScheme::Nvfp4 { .. } | QuantScheme::Bnb4 { .. } => 4,
            QuantScheme::Gptq { bits, .. }
            | QuantScheme::AwqGemm { bits, .. }
            | QuantScheme::AwqGemv { bits, .. }
            | QuantScheme::AwqGemvFast { bits, .. } => bits,
            QuantScheme::CompressedTensors(w) => w.num_bits,
        };
        bits.saturating_mul(1_000)
    }
}

/// AutoAWQ `calculate_zeros_width`: groups per row rounded up to whole
/// int32 words, then to a multiple of 1, 2 or 4 words for groups of ≥128,
/// 64 or 32.
fn awq_zeros_width(cols: u64, group_size: u64, pack: u128) -> u128 {
    let g = if group_size == 0 { cols } else { group_size };
    let multiplier: u128 = match g {
        g if g >= 128 => 1,
        64 => 2,
        _ => 4,
    };
    let base = ((cols / g.max(1)) as u128).div_ceil(pack.max(1));
    base.div_ceil(multiplier) * multiplier
}

/// Length of bitsandbytes' `quant_state.bitsandbytes__<type>` tensor: the
/// `json.dumps` of `{"quant_type", "blocksize", "dtype", "shape"}` and,
/// with double quantization, `"nested_blocksize"`, `"nested_dtype"`,
/// `"nested_offset"` (whose digits are assumed, see
/// [`BNB_OFFSET_CHARS`]).
fn bnb_state_json_len(rows: u64, cols: u64, blocksize: u64, nested: bool, dtype: Dtype) -> u128 {
    let mut text = format!(
        "{{\"quant_type\": \"nf4\", \"blocksize\": {blocksize}, \"dtype\": \"{}\", \"shape\": [{rows}, {cols}]",
        dtype.name()
    );
    if nested {
        text.push_str(
            ", \"nested_blocksize\": 256, \"nested_dtype\": \"float32\", \"nested_offset\": ",
        );
    }
    let offset = if nested { BNB_OFFSET_CHARS } else { 0 };
    (text.len() as u128) + offset as u128 + 1
}

impl CtWeights {
    /// Bytes compressed-tensors stores for one `R × C` matrix.
    ///
    /// # Formula
    ///
    /// ```text
    /// values  pack-quantized   4·R·⌈C/⌊32/b⌋⌉ + 16 (weight_shape, int64 × 2)
    ///         unpacked         R·C·(1 | 2 | 4)  (int8/fp8, int16, int32 for ≤8, ≤16, more bits)
    ///         fp4 packed       R·⌈C/2⌉
    /// scales  s × (1 | R | R·⌈C/g⌉ | ⌈R/r⌉·⌈C/c⌉)  for tensor, channel, group, block
    ///         (+ 4 for tensor_group's fp32 global scale)
    /// zeros   only when asymmetric: pack-quantized group/channel
    ///         4·⌈R/⌊32/b⌋⌉·n, else one zero-point value per scale
    /// g_idx   4·C when actorder is "group"
    /// ```
    ///
    /// Sources: compressed-tensors `quantization/lifecycle/initialize.py`
    /// (scale shapes and dtypes), `compressors/quantized_compressors/`
    /// `base.py` (zero points dropped when symmetric or packed),
    /// `pack_quantized.py`, `naive_quantized.py`, `fp4_quantized.py`.
    pub fn bytes(self, rows: u64, cols: u64) -> StoredBytes {
        let (r, c) = (rows as u128, cols as u128);
        let b = self.num_bits.clamp(1, 32) as u128;
        let s = self.scale_bytes as u128;
        let mut out = Stored::default();
        match self.format {
            CtFormat::PackQuantized => {
                let pack = (32 / b).max(1);
                out.values = I32 * r * c.div_ceil(pack);
                out.other = 16;
            }
            CtFormat::Unpacked => out.values = r * c * self.element_bytes(),
            CtFormat::Fp4Packed => out.values = r * c.div_ceil(2),
        }
        let (scale_count, groups) = match self.strategy {
            CtStrategy::Tensor => (1, 1),
            CtStrategy::Channel => (r, 1),
            CtStrategy::Group { size } | CtStrategy::TensorGroup { size } => {
                let n = c.div_ceil(size.max(1) as u128);
                (r * n, n)
            }
            CtStrategy::Block { rows: br, cols: bc } => (
                r.div_ceil(br.max(1) as u128) * c.div_ceil(bc.max(1) as u128),
                1,
            ),
        };
        out.scales = s * scale_count;
        if let CtStrategy::TensorGroup { .. } = self.strategy {
            out.scales += F32;
        }
        if !self.symmetric {
            let packed_zeros = self.format == CtFormat::PackQuantized
                && matches!(
                    self.strategy,
                    CtStrategy::Group { .. } | CtStrategy::Channel
                );
            out.zeros = match packed_zeros {
                true => I32 * r.div_ceil((32 / b).max(1)) * groups,
                false => scale_count * self.element_bytes(),
            };
        }
        if self.group_index {
            out.index = I32 * c;
        }
        out.finish()
    }

    /// Bytes of one unpacked value or zero point: `QuantizationArgs.pytorch_dtype`
    /// (fp8, int8, int16, int32).
    fn element_bytes(self) -> u128 {
        match (self.float, self.num_bits) {
            (true, _) => 1,
            (false, 0..=8) => 1,
            (false, 9..=16) => 2,
            (false, _) => 4,
        }
    }
}

/// `u128` accumulator for one matrix, saturated into [`StoredBytes`].
#[derive(Default)]
struct Stored {
    values: u128,
    scales: u128,
    zeros: u128,
    index: u128,
    other: u128,
}

impl Stored {
    fn finish(self) -> StoredBytes {
        StoredBytes {
            values: saturate(self.values),
            scales: saturate(self.scales),
            zero_points: saturate(self.zeros),
            group_index: saturate(self.index),
            other: saturate(self.other),
        }
    }
}
