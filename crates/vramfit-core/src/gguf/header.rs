//! A GGUF file's header read from the first bytes of the file: version,
//! metadata, tensor infos. The tensor data after it is never needed.
//!
//! The layout (little-endian; `ggml/include/gguf.h`, `ggml/src/gguf.cpp`,
//! `gguf_init_from_file_impl`):
//!
//! ```text
//! "GGUF"  u32 version  u64 n_tensors  u64 n_kv
//! n_kv ×      { string key, u32 type, value }
//! n_tensors × { string name, u32 n_dims, u64 ne[n_dims], u32 ggml_type, u64 offset }
//! padding to general.alignment (32), then the tensor data
//! string = u64 length + UTF-8 bytes;  array = u32 item type + u64 count + items
//! ```
//!
//! [`parse`] works on any prefix of the file: when the prefix ends inside
//! the header it answers [`GgufError::NeedMore`] with the length of prefix
//! it needs at least, so a caller reads only the header (a browser through
//! `File.slice`, the CLI through HTTP range requests), growing the prefix
//! as asked. Every length is checked against the bytes at hand before
//! anything is allocated, so a truncated or hostile file is an error, never
//! a panic or an allocation of its claimed size.

use super::ggml_type::GgmlType;
use super::value::{Value, ValueType};
use serde::Serialize;
use std::collections::HashSet;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"GGUF";
/// Alignment of the tensor data when `general.alignment` is absent
/// (`GGUF_DEFAULT_ALIGNMENT`).
pub const DEFAULT_ALIGNMENT: u64 = 32;
/// Dimensions a tensor has at most (`GGML_MAX_DIMS`).
pub const MAX_DIMS: u32 = 4;
/// The longest header read. The largest real headers (a 256k-token
/// vocabulary with its merges) are tens of MB; a header claiming more is
/// refused rather than fetched.
pub const MAX_HEADER_BYTES: u64 = 512 << 20;
/// Arrays nest at most this deep (the format allows nesting; real files
/// never nest).
const MAX_NESTING: u32 = 4;

/// A metadata entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetadataKv {
    pub key: String,
    pub value: Value,
}

/// One tensor as the header describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TensorInfo {
    pub name: String,
    /// ggml's `ne`, `ne[0]` the row length; 1 to 4 entries.
    pub shape: Vec<u64>,
    pub ggml_type: GgmlType,
    /// Offset of the data from the start of the data section.
    pub offset: u64,
    /// Bytes of the data (`ggml_nbytes`), checked when read.
    pub bytes: u64,
}

impl TensorInfo {
    /// Values in the tensor.
    pub fn elements(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// A parsed header.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GgufHeader {
    /// 2 or 3.
    pub version: u32,
    pub metadata: Vec<MetadataKv>,
    pub tensors: Vec<TensorInfo>,
    /// `general.alignment`, or 32.
    pub alignment: u64,
    /// Where the data section starts: the header's length padded to the
    /// alignment.
    pub data_offset: u64,
}

impl GgufHeader {
    /// The value of a metadata key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata
            .iter()
            .find(|kv| kv.key == key)
            .map(|kv| &kv.value)
    }

    /// Bytes of all tensors' data.
    pub fn tensor_bytes(&self) -> u64 {
        crate::units::sum(self.tensors.iter().map(|t| t.bytes))
    }

    /// The file's length the header implies: the data section's start plus
    /// the end of its last tensor.
    pub fn implied_file_len(&self) -> u64 {
        let end = self
            .tensors
            .iter()
            .map(|t| t.offset.saturating_add(t.bytes))
            .max()
            .unwrap_or(0);
        self.data_offset.saturating_add(end)
    }
}

/// Why the bytes are not a GGUF header (yet).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum GgufError {
    /// The prefix ends inside the header: read at least `need` bytes from
    /// the start of the file (`have` were given) and parse again.
    NeedMore { have: u64, need: u64 },
    /// The file does not start with `GGUF`.
    NotGguf { magic: [u8; 4] },
    /// A byte-swapped version: a big-endian file, which llama.cpp reads on
    /// big-endian machines only.
    BigEndian,
    /// A version other than 2 or 3 (1 stored lengths in 32 bits; llama.cpp
    /// no longer reads it).
    Version { version: u32 },
    /// The header would be longer than [`MAX_HEADER_BYTES`].
    TooLarge { need: u64 },
    /// A metadata value of a type number outside the format.
    UnknownValueType { key: String, id: u32 },
    /// Arrays nested deeper than any file writes.
    NestedTooDeep { key: String },
    /// A key, tensor name or string value that is not UTF-8.
    NotUtf8 { at: u64 },
    /// A key written twice.
    DuplicateKey { key: String },
    /// A tensor of a type this reader does not know.
    UnknownTensorType { tensor: String, id: u32 },
    /// A tensor name written twice.
    DuplicateTensor { tensor: String },
    /// A tensor of no or more than four dimensions, or of a zero one.
    BadShape { tensor: String },
    /// A row that is not a whole number of the type's blocks, or data past
    /// 2^64 bytes.
    BadSize { tensor: String },
    /// A tensor whose data is not at a multiple of the alignment.
    Misaligned { tensor: String, offset: u64 },
    /// `general.alignment` not a power of two, or not a u32.
    BadAlignment,
}

impl GgufError {
    /// For [`GgufError::NeedMore`], the prefix length to read next.
    pub fn needed(&self) -> Option<u64> {
        if let GgufError::NeedMore { need, .. } = self {
            return Some(*need);
        }
        None
    }
}

impl std::fmt::Display for GgufError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GgufError::NeedMore { have, need } => {
                write!(f, "the header goes on past byte {have}: read {need} bytes")
            }
            GgufError::NotGguf { magic } => write!(
                f,
                "not a GGUF file (it starts with {:?}, not \"GGUF\")",
                String::from_utf8_lossy(magic)
            ),
            GgufError::BigEndian => f.write_str("a big-endian GGUF file, which is not read"),
            GgufError::Version { version } => {
                write!(f, "GGUF version {version} (versions 2 and 3 are read)")
            }
            GgufError::TooLarge { need } => write!(
                f,
                "the header would take {need} bytes, more than the {MAX_HEADER_BYTES} read"
            ),
            GgufError::UnknownValueType { key, id } => {
                write!(
                    f,
                    "metadata `{key}` has value type {id}, outside GGUF's 0–12"
                )
            }
            GgufError::NestedTooDeep { key } => {
                write!(f, "metadata `{key}` nests arrays too deep")
            }
            GgufError::NotUtf8 { at } => write!(f, "the text at byte {at} is not UTF-8"),
            GgufError::DuplicateKey { key } => write!(f, "metadata `{key}` is written twice"),
            GgufError::UnknownTensorType { tensor, id } => write!(
                f,
                "tensor `{tensor}` has ggml type {id}, which is not read (known: {})",
                GgmlType::ALL.map(|t| t.name()).join(", ")
            ),
            GgufError::DuplicateTensor { tensor } => {
                write!(f, "tensor `{tensor}` is written twice")
            }
            GgufError::BadShape { tensor } => {
                write!(
                    f,
                    "tensor `{tensor}` has no valid shape (1 to 4 dimensions, none 0)"
                )
            }
            GgufError::BadSize { tensor } => write!(
                f,
                "tensor `{tensor}`: its rows are not whole blocks of its type, or it is too large"
            ),
            GgufError::Misaligned { tensor, offset } => {
                write!(f, "tensor `{tensor}` starts at {offset}, off the alignment")
            }
            GgufError::BadAlignment => {
                f.write_str("general.alignment is not a power of two written as u32")
            }
        }
    }
}

impl std::error::Error for GgufError {}

/// Reads a header from the first bytes of a file (see the module's
/// documentation): the header, or what more it needs, or why it is not one.
///
/// ```
/// use vramfit_core::gguf::header::{parse, GgufError};
/// let mut file = b"GGUF".to_vec();
/// file.extend(3u32.to_le_bytes()); // version
/// file.extend(0u64.to_le_bytes()); // tensors
/// file.extend(0u64.to_le_bytes()); // metadata
/// assert_eq!(parse(&file[..10]).unwrap_err(), GgufError::NeedMore { have: 10, need: 16 });
/// assert_eq!(parse(&file).unwrap().version, 3);
/// ```
pub fn parse(prefix: &[u8]) -> Result<GgufHeader, GgufError> {
    let mut r = Reader {
        buf: prefix,
        pos: 0,
    };
    let magic: [u8; 4] = r.array()?;
    if magic != MAGIC {
        return Err(GgufError::NotGguf { magic });
    }
    let version = r.u32()?;
    if version.swap_bytes() <= 3 && version > 3 {
        return Err(GgufError::BigEndian);
    }
    if !(2..=3).contains(&version) {
        return Err(GgufError::Version { version });
    }
    let n_tensors = r.u64()?;
    let n_kv = r.u64()?;
    let mut metadata: Vec<MetadataKv> = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..n_kv {
        let key = r.string()?;
        let id = r.u32()?;
        let ty = ValueType::from_id(id).ok_or_else(|| GgufError::UnknownValueType {
            key: key.clone(),
            id,
        })?;
        let value = r.value(ty, &key, 0)?;
        if !seen.insert(key.clone()) {
            return Err(GgufError::DuplicateKey { key });
        }
        metadata.push(MetadataKv { key, value });
    }
    let alignment = alignment(&metadata)?;
    let mut tensors: Vec<TensorInfo> = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..n_tensors {
        let t = r.tensor_info(alignment)?;
        if !seen.insert(t.name.clone()) {
            return Err(GgufError::DuplicateTensor { tensor: t.name });
        }
        tensors.push(t);
    }
    let data_offset = (r.pos as u64).div_ceil(alignment).saturating_mul(alignment);
    Ok(GgufHeader {
        version,
        metadata,
        tensors,
        alignment,
        data_offset,
    })
}

/// `general.alignment`: a u32 power of two, 32 when absent.
fn alignment(metadata: &[MetadataKv]) -> Result<u64, GgufError> {
    match metadata.iter().find(|kv| kv.key == "general.alignment") {
        None => Ok(DEFAULT_ALIGNMENT),
        Some(MetadataKv {
            value: Value::U32(a),
            ..
        }) if a.is_power_of_two() => Ok(u64::from(*a)),
        Some(_) => Err(GgufError::BadAlignment),
    }
}

/// A cursor over the prefix; every read checks the bytes at hand.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, or how long a prefix would hold them.
    fn take(&mut self, n: u64) -> Result<&'a [u8], GgufError> {
        let need = (self.pos as u64).saturating_add(n);
        if need > MAX_HEADER_BYTES {
            return Err(GgufError::TooLarge { need });
        }
        let have = self.buf.len() as u64;
        if need > have {
            return Err(GgufError::NeedMore { have, need });
        }
        let start = self.pos;
        self.pos = need as usize;
        Ok(&self.buf[start..self.pos])
    }

    /// Checks that `count` items of at least `min` bytes each can follow,
    /// before anything is allocated for them.
    fn room_for(&self, count: u64, min: u64) -> Result<(), GgufError> {
        let need = (self.pos as u64).saturating_add(count.saturating_mul(min));
        if need > MAX_HEADER_BYTES {
            return Err(GgufError::TooLarge { need });
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], GgufError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N as u64)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, GgufError> {
        let len = self.u64()?;
        let at = self.pos as u64;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| GgufError::NotUtf8 { at })
    }

    /// A value of type `ty` (of metadata `key`, arrays `depth` deep).
    fn value(&mut self, ty: ValueType, key: &str, depth: u32) -> Result<Value, GgufError> {
        Ok(match ty {
            ValueType::U8 => Value::U8(u8::from_le_bytes(self.array()?)),
            ValueType::I8 => Value::I8(i8::from_le_bytes(self.array()?)),
            ValueType::U16 => Value::U16(u16::from_le_bytes(self.array()?)),
            ValueType::I16 => Value::I16(i16::from_le_bytes(self.array()?)),
            ValueType::U32 => Value::U32(self.u32()?),
            ValueType::I32 => Value::I32(i32::from_le_bytes(self.array()?)),
            ValueType::F32 => Value::F32(f32::from_le_bytes(self.array()?)),
            ValueType::Bool => Value::Bool(self.array::<1>()?[0] != 0),
            ValueType::String => Value::String(self.string()?),
            ValueType::U64 => Value::U64(self.u64()?),
            ValueType::I64 => Value::I64(i64::from_le_bytes(self.array()?)),
            ValueType::F64 => Value::F64(f64::from_le_bytes(self.array()?)),
            ValueType::Array => self.array_value(key, depth)?,
        })
    }

    fn array_value(&mut self, key: &str, depth: u32) -> Result<Value, GgufError> {
        if depth >= MAX_NESTING {
            return Err(GgufError::NestedTooDeep {
                key: key.to_string(),
            });
        }
        let id = self.u32()?;
        let item = ValueType::from_id(id).ok_or_else(|| GgufError::UnknownValueType {
            key: key.to_string(),
            id,
        })?;
        let count = self.u64()?;
        // A string or an array takes at least its 8-byte length.
        self.room_for(count, item.fixed_size().unwrap_or(8))?;
        if let Some(size) = item.fixed_size() {
            // The whole run at once: a prefix too short says so up front.
            let start = self.pos;
            self.take(count.saturating_mul(size))?;
            self.pos = start;
        }
        let mut values = Vec::new();
        for _ in 0..count {
            values.push(self.value(item, key, depth + 1)?);
        }
        Ok(Value::Array { item, values })
    }

    fn tensor_info(&mut self, alignment: u64) -> Result<TensorInfo, GgufError> {
        let name = self.string()?;
        let n_dims = self.u32()?;
        if n_dims == 0 || n_dims > MAX_DIMS {
            return Err(GgufError::BadShape { tensor: name });
        }
        let mut shape = Vec::with_capacity(n_dims as usize);
        for _ in 0..n_dims {
            shape.push(self.u64()?);
        }
        let id = self.u32()?;
        let offset = self.u64()?;
        if shape.contains(&0) {
            return Err(GgufError::BadShape { tensor: name });
        }
        let ggml_type = GgmlType::from_id(id).ok_or_else(|| GgufError::UnknownTensorType {
            tensor: name.clone(),
            id,
        })?;
        let bytes = ggml_type.nbytes(&shape).ok_or_else(|| GgufError::BadSize {
            tensor: name.clone(),
        })?;
        if !offset.is_multiple_of(alignment) {
            return Err(GgufError::Misaligned {
                tensor: name,
                offset,
            });
        }
        Ok(TensorInfo {
            name,
            shape,
            ggml_type,
            offset,
            bytes,
        })
    }
}
