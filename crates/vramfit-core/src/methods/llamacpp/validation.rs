//! llama.cpp's own printed sizes (`data/engines/llamacpp.md`) against this
//! method: every row of the Llama-3.1-8B table of `tools/quantize/README.md`
//! and every `llama-bench` line, with the model each was printed for.
//!
//! Models: Llama-3.1-8B and Qwen2.5-7B are the embedded configs
//! (`data/configs/`); the `qwen2 7B` bench line is a Qwen2-7B-class file
//! (7.62 B parameters), whose shapes Qwen2.5-7B shares. LLaMA-1 7B and 13B
//! are written here from the LLaMA paper (Touvron et al. 2023,
//! arXiv:2302.13971, Table 2: dimension 4096 / 5120, 32 / 40 heads, 32 / 40
//! layers; §2.2: SwiGLU width 2/3·4d, which Meta's reference code rounds
//! up to a multiple of 256: 11008 / 13824; §2.1: a 32k-token vocabulary,
//! 32000 entries in the released tokenizer).

use super::{estimate, FileType, LlamaCppInputs};
use crate::model::{parse_config, ModelSpec};
use crate::units::GIB;
use serde::Serialize;

/// The quoted file.
pub const DATA: &str = include_str!("../../../data/engines/llamacpp.md");

const LLAMA_3_1_8B: &str = include_str!("../../../data/configs/meta-llama__Llama-3.1-8B.json");
const QWEN2_5_7B: &str = include_str!("../../../data/configs/Qwen__Qwen2.5-7B.json");

/// LLaMA-1 7B, from the paper (see the module documentation).
pub const LLAMA_1_7B: &str = r#"{
  "_name_or_path": "LLaMA-7B",
  "model_type": "llama",
  "hidden_size": 4096,
  "intermediate_size": 11008,
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "vocab_size": 32000,
  "max_position_embeddings": 2048,
  "torch_dtype": "float16"
}"#;

/// LLaMA-1 13B, from the paper (see the module documentation).
pub const LLAMA_1_13B: &str = r#"{
  "_name_or_path": "LLaMA-13B",
  "model_type": "llama",
  "hidden_size": 5120,
  "intermediate_size": 13824,
  "num_attention_heads": 40,
  "num_hidden_layers": 40,
  "vocab_size": 32000,
  "max_position_embeddings": 2048,
  "torch_dtype": "float16"
}"#;

/// One size llama.cpp printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrintedSize {
    /// Which model (`"Llama-3.1-8B"`, `"LLaMA-1 7B"`, ...).
    pub model: &'static str,
    pub file_type: FileType,
    /// Printed size in hundredths of a GiB (`4.58 GiB` → 458).
    pub centi_gib: u64,
    /// Printed bits per weight in ten-thousandths (`4.8944` → 48944),
    /// where the source gives them.
    pub bpw_e4: Option<u64>,
    /// Printed parameters in hundredths of a billion (`6.74 B` → 674),
    /// where the source gives them.
    pub centi_billion_params: Option<u64>,
    /// Where it was printed.
    pub source: String,
}

/// A printed size next to the prediction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SizeComparison {
    pub printed: PrintedSize,
    pub predicted_bytes: u64,
    pub predicted_elements: u64,
    /// (predicted − printed) / printed, in millionths.
    pub error_ppm: i64,
}

impl SizeComparison {
    /// The prediction in GiB rounded as llama.cpp prints (two decimals),
    /// in hundredths.
    pub fn predicted_centi_gib(&self) -> u64 {
        ((self.predicted_bytes as u128 * 100 + GIB as u128 / 2) / GIB as u128) as u64
    }

    /// Predicted bits per weight in ten-thousandths, rounded.
    pub fn predicted_bpw_e4(&self) -> u64 {
        let bits = self.predicted_bytes as u128 * 8 * 10_000;
        let n = (self.predicted_elements as u128).max(1);
        ((bits + n / 2) / n) as u64
    }
}

/// The model a printed line refers to.
fn model_text(model: &str) -> Option<&'static str> {
    Some(match model {
        "Llama-3.1-8B" => LLAMA_3_1_8B,
        "LLaMA-1 7B" => LLAMA_1_7B,
        "LLaMA-1 13B" => LLAMA_1_13B,
        "Qwen2-7B class" => QWEN2_5_7B,
        _ => return None,
    })
}

/// The parsed model of a printed line.
pub fn model_spec(model: &str) -> Result<ModelSpec, String> {
    let text = model_text(model).ok_or_else(|| format!("no model for {model}"))?;
    parse_config(text).map_err(|e| format!("{model}: {e}"))
}

/// A decimal like `4.58` in units of 10^-`places`.
fn decimal(text: &str, places: u32) -> Option<u64> {
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if frac.len() > places as usize || frac.is_empty() && whole.is_empty() {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let frac_value: u64 = match frac {
        "" => 0,
        f => f.parse().ok()?,
    };
    let scale = 10u64.pow(places - frac.len() as u32);
    Some(whole * 10u64.pow(places) + frac_value * scale)
}

/// Every printed size in [`DATA`].
pub fn printed() -> Result<Vec<PrintedSize>, String> {
    let mut out = Vec::new();
    let mut section = "";
    for line in DATA.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = title;
            continue;
        }
        if section.starts_with("meta-llama/Llama-3.1-8B") && line.starts_with('|') {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let Some(file_type) = cells.first().and_then(|c| FileType::parse(c)) else {
                continue;
            };
            let [_, bpw, gib] = cells[..] else {
                return Err(format!("unexpected row: {line}"));
            };
            out.push(PrintedSize {
                model: "Llama-3.1-8B",
                file_type,
                centi_gib: decimal(gib, 2).ok_or_else(|| format!("size in {line}"))?,
                bpw_e4: Some(decimal(bpw, 4).ok_or_else(|| format!("bpw in {line}"))?),
                centi_billion_params: None,
                source: "tools/quantize/README.md".to_string(),
            });
        }
        if section.starts_with("llama-bench") {
            let quoted = line.split('`').skip(1).step_by(2);
            for row in quoted.filter(|q| q.contains('|')) {
                out.push(bench_line(row, line)?);
            }
        }
    }
    Ok(out)
}

/// One `llama-bench` row: `model | size | params | ...`.
fn bench_line(quoted: &str, line: &str) -> Result<PrintedSize, String> {
    let cells: Vec<&str> = quoted.split('|').map(str::trim).collect();
    let (Some(model), Some(size), Some(params)) = (cells.first(), cells.get(1), cells.get(2))
    else {
        return Err(format!("unexpected bench line: {quoted}"));
    };
    let mut words = model.splitn(3, ' ');
    let (arch, label, ftype) = (words.next(), words.next(), words.next());
    let ftype = ftype
        .map(|f| f.trim_start_matches("mostly ").trim())
        .and_then(|f| {
            FileType::ALL
                .into_iter()
                .find(|t| t.printed_name() == f || t.name() == f)
        })
        .ok_or_else(|| format!("file type of {quoted}"))?;
    let model = match (arch, label) {
        (Some("llama"), Some("7B")) => "LLaMA-1 7B",
        (Some("llama"), Some("13B")) => "LLaMA-1 13B",
        (Some("qwen2"), Some("7B")) => "Qwen2-7B class",
        _ => return Err(format!("no model for {quoted}")),
    };
    let gib = size
        .strip_suffix("GiB")
        .ok_or_else(|| format!("size of {quoted}"))?;
    let billions = params
        .strip_suffix('B')
        .ok_or_else(|| format!("params of {quoted}"))?;
    let source = line
        .trim_start_matches("- ")
        .split(':')
        .next()
        .unwrap_or("")
        .trim_matches('`')
        .to_string();
    Ok(PrintedSize {
        model,
        file_type: ftype,
        centi_gib: decimal(gib, 2).ok_or_else(|| format!("size of {quoted}"))?,
        bpw_e4: None,
        centi_billion_params: Some(
            decimal(billions, 2).ok_or_else(|| format!("params of {quoted}"))?,
        ),
        source,
    })
}

/// Every printed size with the method's prediction.
pub fn compare() -> Result<Vec<SizeComparison>, String> {
    printed()?
        .into_iter()
        .map(|p| {
            let spec = model_spec(p.model)?;
            let inputs = LlamaCppInputs {
                file_type: p.file_type,
                n_ctx: Some(4096),
                ..LlamaCppInputs::default()
            };
            let e = estimate(&spec, &inputs, None).map_err(|e| format!("{}: {e}", p.model))?;
            let printed_bytes = p.centi_gib as i128 * GIB as i128 / 100;
            let diff = e.model_size_bytes as i128 - printed_bytes;
            let error_ppm = (diff * 1_000_000 / printed_bytes.max(1)) as i64;
            Ok(SizeComparison {
                printed: p,
                predicted_bytes: e.model_size_bytes,
                predicted_elements: e.n_elements,
                error_ppm,
            })
        })
        .collect()
}

/// The comparison as a Markdown table (for the README).
pub fn markdown(rows: &[SizeComparison]) -> String {
    let mut out = String::from(
        "| model | type | printed | predicted | error | printed BPW | predicted BPW | params (printed / predicted) | source |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    let centi = |v: u64| format!("{}.{:02}", v / 100, v % 100);
    for r in rows {
        let bpw = |v: Option<u64>| match v {
            Some(v) => format!("{}.{:04}", v / 10_000, v % 10_000),
            None => "–".to_string(),
        };
        let e = r.error_ppm;
        let params = match r.printed.centi_billion_params {
            Some(p) => format!("{} B", centi(p)),
            None => "–".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} GiB | {} GiB ({} B) | {}{}.{:02} % | {} | {} | {} / {:.2} B | {} |\n",
            r.printed.model,
            r.printed.file_type,
            centi(r.printed.centi_gib),
            centi(r.predicted_centi_gib()),
            r.predicted_bytes,
            if e < 0 { "−" } else { "+" },
            e.unsigned_abs() / 10_000,
            (e.unsigned_abs() % 10_000) / 100,
            bpw(r.printed.bpw_e4),
            bpw(Some(r.predicted_bpw_e4())),
            params,
            r.predicted_elements as f64 / 1e9,
            r.printed.source,
        ));
    }
    let worst = rows
        .iter()
        .map(|r| r.error_ppm.unsigned_abs())
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "\nLargest |error|: {}.{:02} % of the printed size (which is itself rounded to 0.01 GiB).\n",
        worst / 10_000,
        (worst % 10_000) / 100
    ));
    out
}
