//! Writes GGUF headers: the inverse of [`super::header::parse`], for tests
//! and tools that make files (the tensor data is left to the caller; only
//! the header says what a file holds).

use super::ggml_type::GgmlType;
use super::header::{DEFAULT_ALIGNMENT, MAGIC};
use super::value::Value;

/// A header being written: metadata and tensors in the order given, each
/// tensor's data placed after the previous one at the alignment.
#[derive(Debug, Clone, Default)]
pub struct Writer {
    metadata: Vec<(String, Value)>,
    tensors: Vec<(String, Vec<u64>, GgmlType, u64)>,
    data_len: u64,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Adds a metadata entry.
    pub fn kv(&mut self, key: &str, value: Value) -> &mut Writer {
        self.metadata.push((key.to_string(), value));
        self
    }

    /// Adds a tensor of shape `ne` (`ne[0]` the row length); its bytes
    /// are `GgmlType` rows, `None` when its rows are not whole blocks.
    pub fn tensor(&mut self, name: &str, ne: &[u64], t: GgmlType) -> Option<&mut Writer> {
        let bytes = t.nbytes(ne)?;
        let offset = self.data_len;
        self.data_len = offset
            .checked_add(bytes)?
            .div_ceil(DEFAULT_ALIGNMENT)
            .checked_mul(DEFAULT_ALIGNMENT)?;
        self.tensors
            .push((name.to_string(), ne.to_vec(), t, offset));
        Some(self)
    }

    /// Bytes of the data section (each tensor padded to the alignment).
    pub fn data_len(&self) -> u64 {
        self.data_len
    }

    /// The header, version 3, padded to the alignment: the file's first
    /// bytes, to be followed by [`Writer::data_len`] bytes of data.
    pub fn header(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend((self.tensors.len() as u64).to_le_bytes());
        out.extend((self.metadata.len() as u64).to_le_bytes());
        for (key, value) in &self.metadata {
            string(&mut out, key);
            out.extend(value.value_type().id().to_le_bytes());
            write_value(&mut out, value);
        }
        for (name, ne, t, offset) in &self.tensors {
            string(&mut out, name);
            out.extend((ne.len() as u32).to_le_bytes());
            for n in ne {
                out.extend(n.to_le_bytes());
            }
            out.extend(t.id().to_le_bytes());
            out.extend(offset.to_le_bytes());
        }
        let padded = (out.len() as u64).div_ceil(DEFAULT_ALIGNMENT) * DEFAULT_ALIGNMENT;
        out.resize(padded as usize, 0);
        out
    }

    /// The whole file with zeroed data.
    pub fn file(&self) -> Vec<u8> {
        let mut out = self.header();
        out.resize(out.len() + self.data_len as usize, 0);
        out
    }
}

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::U8(x) => out.extend(x.to_le_bytes()),
        Value::I8(x) => out.extend(x.to_le_bytes()),
        Value::U16(x) => out.extend(x.to_le_bytes()),
        Value::I16(x) => out.extend(x.to_le_bytes()),
        Value::U32(x) => out.extend(x.to_le_bytes()),
        Value::I32(x) => out.extend(x.to_le_bytes()),
        Value::F32(x) => out.extend(x.to_le_bytes()),
        Value::Bool(x) => out.push(u8::from(*x)),
        Value::String(s) => string(out, s),
        Value::U64(x) => out.extend(x.to_le_bytes()),
        Value::I64(x) => out.extend(x.to_le_bytes()),
        Value::F64(x) => out.extend(x.to_le_bytes()),
        Value::Array { item, values } => {
            out.extend(item.id().to_le_bytes());
            out.extend((values.len() as u64).to_le_bytes());
            for v in values {
                write_value(out, v);
            }
        }
    }
}
