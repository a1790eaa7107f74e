//! The header reader against files written by [`super::writer`]: every
//! value type, every prefix, hostile bytes.

use super::header::{parse, GgufError, MAX_HEADER_BYTES};
use super::split::{merge, ShardName, SplitError};
use super::value::{Value, ValueType};
use super::writer::Writer;
use super::GgmlType;

fn every_value_type() -> Writer {
    let mut w = Writer::new();
    w.kv("general.architecture", Value::String("llama".into()))
        .kv("u8", Value::U8(7))
        .kv("i8", Value::I8(-7))
        .kv("u16", Value::U16(65_535))
        .kv("i16", Value::I16(-300))
        .kv("u32", Value::U32(4_000_000_000))
        .kv("i32", Value::I32(-5))
        .kv("f32", Value::F32(0.5))
        .kv("bool", Value::Bool(true))
        .kv("u64", Value::U64(u64::MAX))
        .kv("i64", Value::I64(i64::MIN))
        .kv("f64", Value::F64(-2.25))
        .kv(
            "strings",
            Value::Array {
                item: ValueType::String,
                values: vec![Value::String("a".into()), Value::String("ü".into())],
            },
        )
        .kv(
            "nested",
            Value::Array {
                item: ValueType::Array,
                values: vec![Value::Array {
                    item: ValueType::I32,
                    values: vec![Value::I32(1), Value::I32(-1)],
                }],
            },
        );
    w.tensor("token_embd.weight", &[4096, 1000], GgmlType::Q4_K)
        .unwrap()
        .tensor("blk.0.attn_q.weight", &[4096, 4096], GgmlType::IQ2_XXS)
        .unwrap()
        .tensor("blk.0.ffn_gate_exps.weight", &[256, 64, 8], GgmlType::Q8_0)
        .unwrap()
        .tensor("output_norm.weight", &[4096], GgmlType::F32)
        .unwrap();
    w
}

#[test]
fn every_value_type_and_tensor_reads_back() {
    let w = every_value_type();
    let bytes = w.header();
    let h = parse(&bytes).unwrap();
    assert_eq!(h.version, 3);
    assert_eq!(h.metadata.len(), 14);
    assert_eq!(h.get("u32"), Some(&Value::U32(4_000_000_000)));
    assert_eq!(h.get("i64"), Some(&Value::I64(i64::MIN)));
    assert_eq!(h.get("f64").and_then(Value::as_f64), Some(-2.25));
    assert_eq!(h.get("i8").and_then(Value::as_u64), None, "negative");
    let strings = h.get("strings").and_then(Value::as_array).unwrap();
    assert_eq!(strings[1].as_str(), Some("ü"));
    let nested = h.get("nested").and_then(Value::as_array).unwrap();
    assert_eq!(nested[0].as_array().map(<[Value]>::len), Some(2));
    let t = &h.tensors[1];
    assert_eq!(
        (t.name.as_str(), t.ggml_type),
        ("blk.0.attn_q.weight", GgmlType::IQ2_XXS)
    );
    assert_eq!(t.bytes, 4096 * 16 * 66); // 16 super-blocks of 66 B per row
    assert_eq!(h.tensors[2].shape, vec![256, 64, 8]);
    assert_eq!(h.tensors[2].bytes, 8 * 34 * 64 * 8);
    // 1000 rows × 16 × 144 B = 2,304,000 B of token_embd (a multiple of 32).
    assert_eq!(h.tensors[1].offset, 2_304_000);
    assert_eq!(h.data_offset, bytes.len() as u64);
    assert_eq!(h.implied_file_len(), bytes.len() as u64 + w.data_len());
    assert_eq!(h.tensor_bytes(), 2_304_000 + 4_325_376 + 139_264 + 16_384);
}

#[test]
fn every_prefix_asks_for_more_and_the_asked_length_progresses() {
    let bytes = every_value_type().header();
    let end = parse(&bytes).unwrap();
    // The header proper ends before the padding.
    let last = bytes.len() - 1;
    let mut len = 0usize;
    let mut rounds = 0;
    // Growing the prefix exactly as asked reaches the header.
    loop {
        match parse(&bytes[..len]) {
            Ok(h) => {
                assert_eq!(h, end);
                break;
            }
            Err(GgufError::NeedMore { have, need }) => {
                assert_eq!(have, len as u64);
                assert!(need > have && need as usize <= bytes.len(), "{need}");
                len = need as usize;
            }
            Err(e) => panic!("{e}"),
        }
        rounds += 1;
    }
    assert!(rounds > 20, "{rounds}");
    for cut in 0..last.min(600) {
        let e = parse(&bytes[..cut]).unwrap_err();
        assert!(e.needed().is_some_and(|n| n > cut as u64), "{cut}: {e}");
    }
}

#[test]
fn hostile_lengths_are_refused_before_allocation() {
    let mut b = b"GGUF".to_vec();
    b.extend(3u32.to_le_bytes());
    b.extend(0u64.to_le_bytes());
    b.extend(1u64.to_le_bytes());
    let mut key = b.clone();
    key.extend(u64::MAX.to_le_bytes()); // a key of 2^64 − 1 bytes
    assert!(matches!(parse(&key), Err(GgufError::TooLarge { .. })));
    let mut array = b.clone();
    array.extend(1u64.to_le_bytes());
    array.push(b'k');
    array.extend(9u32.to_le_bytes()); // array
    array.extend(8u32.to_le_bytes()); // of strings
    array.extend((1u64 << 60).to_le_bytes());
    assert!(matches!(parse(&array), Err(GgufError::TooLarge { need }) if need > MAX_HEADER_BYTES));
    let mut tensors = b"GGUF".to_vec();
    tensors.extend(3u32.to_le_bytes());
    tensors.extend(u64::MAX.to_le_bytes()); // 2^64 − 1 tensors
    tensors.extend(0u64.to_le_bytes());
    assert!(matches!(
        parse(&tensors),
        Err(GgufError::NeedMore { need: 32, .. })
    ));
}

#[test]
fn refusals_are_named() {
    let mut w = Writer::new();
    w.tensor("blk.0.attn_q.weight", &[256, 2], GgmlType::Q4_K);
    let mut bytes = w.header();
    // Type number 12 (q4_K) at the end of the tensor info, before the offset.
    let at = bytes.len() - bytes.iter().rev().position(|&b| b == 12).unwrap() - 1;
    bytes[at] = 40;
    let e = parse(&bytes).unwrap_err();
    assert_eq!(
        e,
        GgufError::UnknownTensorType {
            tensor: "blk.0.attn_q.weight".into(),
            id: 40
        }
    );
    assert!(e.to_string().contains("ggml type 40"));
    assert_eq!(
        parse(b"GGML\x03\0\0\0").unwrap_err(),
        GgufError::NotGguf { magic: *b"GGML" }
    );
    assert_eq!(parse(b"GGUF\0\0\0\x03").unwrap_err(), GgufError::BigEndian);
    assert_eq!(
        parse(b"GGUF\x01\0\0\0").unwrap_err(),
        GgufError::Version { version: 1 }
    );
    // 100 values are not whole 32-value blocks.
    assert!(Writer::new().tensor("t", &[100], GgmlType::Q4_0).is_none());
}

/// A tiny deterministic generator (xorshift64*), for the fuzz test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn mutated_headers_never_panic() {
    let good = every_value_type().header();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut errors) = (0, 0);
    for _ in 0..20_000 {
        let mut b = good.clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = (rng.next() as usize) % b.len();
            b[at] = match rng.next() % 3 {
                0 => rng.next() as u8,
                1 => 0xFF,
                _ => 0,
            };
        }
        let cut = match rng.next() % 4 {
            0 => (rng.next() as usize) % b.len(),
            _ => b.len(),
        };
        match parse(&b[..cut]) {
            Ok(h) => {
                ok += 1;
                // Whatever is read holds: sizes agree with shapes.
                for t in &h.tensors {
                    assert_eq!(
                        Some(t.bytes),
                        t.ggml_type
                            .tensor_bytes([t.shape[0], t.shape.iter().skip(1).product(), 1])
                    );
                }
            }
            Err(e) => {
                errors += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(ok > 0 && errors > 0, "{ok} read, {errors} refused");
}

fn shard(no: u16, count: u16, total: i32, names: &[&str]) -> super::GgufHeader {
    let mut w = Writer::new();
    w.kv("split.no", Value::U16(no))
        .kv("split.count", Value::U16(count))
        .kv("split.tensors.count", Value::I32(total));
    for n in names {
        w.tensor(n, &[32, 2], GgmlType::Q8_0);
    }
    parse(&w.header()).unwrap()
}

#[test]
fn split_files_read_shard_by_shard() {
    let a = shard(0, 2, 3, &["token_embd.weight", "blk.0.attn_q.weight"]);
    let b = shard(1, 2, 3, &["output.weight"]);
    let all = merge(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(all.len(), 3);
    assert_eq!(all[2].name, "output.weight");
    assert_eq!(
        merge(std::slice::from_ref(&a)).unwrap_err(),
        SplitError::ShardCount {
            given: 1,
            states: Some(2)
        }
    );
    assert_eq!(
        merge(&[b.clone(), a.clone()]).unwrap_err(),
        SplitError::ShardNumber {
            index: 0,
            states: Some(1)
        }
    );
    let c = shard(1, 2, 4, &["output.weight"]);
    let a4 = shard(0, 2, 4, &["token_embd.weight", "blk.0.attn_q.weight"]);
    assert_eq!(
        merge(&[a4, c]).unwrap_err(),
        SplitError::TensorCount {
            listed: 3,
            states: 4
        }
    );
    let name = ShardName::parse("https://h/x/M-Q2_K-00001-of-00003.gguf").unwrap();
    assert_eq!(name.name(2), "https://h/x/M-Q2_K-00002-of-00003.gguf");
    assert!(ShardName::parse("M-00004-of-00003.gguf").is_none());
}

/// A header written by the PyPI `gguf` package (`gguf-py`, the writer
/// llama.cpp's converter uses; `tests/data/qwen3-mixed-header.py` makes
/// it): a Qwen3 of two layers with eleven tensor types, the data cut off.
#[test]
fn a_header_written_by_gguf_py_reads() {
    let bytes = include_bytes!("../../tests/data/qwen3-mixed-header.gguf");
    let h = parse(bytes).unwrap();
    assert_eq!(
        h.get("general.architecture").and_then(Value::as_str),
        Some("qwen3")
    );
    assert_eq!(
        h.get("general.name").and_then(Value::as_str),
        Some("py-made")
    );
    assert_eq!(h.get("some.u64").and_then(Value::as_u64), Some(1 << 40));
    assert_eq!(h.get("some.f64").and_then(Value::as_f64), Some(3.25));
    let tokens = h.get("tokenizer.ggml.tokens").and_then(Value::as_array);
    assert_eq!(tokens.map(<[Value]>::len), Some(1000));
    assert_eq!(h.tensors.len(), 24);
    let t = h
        .tensors
        .iter()
        .find(|t| t.name == "blk.1.ffn_up.weight")
        .unwrap();
    assert_eq!(
        (t.ggml_type, t.shape.clone()),
        (GgmlType::IQ1_M, vec![3072, 1024])
    );
    // gguf-py's own GGML_QUANT_SIZES give 14,819,840 bytes of data.
    assert_eq!(h.tensor_bytes(), 14_819_840);
    // The data is cut off: the header still says how long the file is
    // (each tensor padded to 32 bytes; the 1-D norms are 512 and 4,096 B).
    assert_eq!(h.data_offset, 17_984);
    // gguf-py's reader puts the last tensor's end at byte 14,837,824.
    assert_eq!(h.implied_file_len(), 14_837_824);
}

#[test]
fn mutated_model_headers_are_read_or_refused_never_a_panic() {
    let good = include_bytes!("../../tests/data/qwen3-mixed-header.gguf").to_vec();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..3_000 {
        let mut b = good.clone();
        // Mutations in the metadata (the first 1,500 bytes), where the
        // shape is.
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() as usize) % 1_500;
            b[at] = rng.next() as u8;
        }
        let Ok(h) = parse(&b) else { continue };
        match super::model::read("m.gguf", &[h]) {
            Ok(m) => {
                read += 1;
                let _ = crate::model::parse_config(&m.config);
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
    // A hostile block count is refused before anything is sized by it.
    let mut w = Writer::new();
    w.kv("general.architecture", Value::String("gemma3".into()))
        .kv("gemma3.block_count", Value::U64(1 << 40))
        .kv("gemma3.embedding_length", Value::U32(8))
        .kv("gemma3.attention.head_count", Value::U32(1))
        .kv("gemma3.context_length", Value::U32(8))
        .kv("gemma3.attention.sliding_window", Value::U32(4))
        .kv("gemma3.vocab_size", Value::U32(8));
    let e = super::model::read("m.gguf", &[parse(&w.header()).unwrap()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the file states 1099511627776 blocks (1 to 16,384 are read)"
    );
}
