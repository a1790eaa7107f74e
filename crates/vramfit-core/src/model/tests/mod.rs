//! Tests of the reader: golden counts over every real config in
//! `data/configs`, per-layer kinds, nesting and hybrids, quantization and
//! the KV cache, errors and refusals, the coverage list.

mod errors;
mod hybrids;
mod layers;
mod layouts;
mod quant_kv;
mod quant_methods;
mod refusals;

use super::*;

/// One real config with its exact counts from `data/param_counts.md`
/// (KerasHub exact where it exists, otherwise the computed column, which
/// agrees with KerasHub wherever both exist).
pub(super) struct Golden {
    pub(super) file: &'static str,
    pub(super) text: &'static str,
    total: u64,
    /// Active parameters (equal to `total` for dense models), as the
    /// family counts them ([`ActiveCount`]): the computed column less the
    /// input embedding for gpt-oss and DeepSeek (the column's own note for
    /// DeepSeek-V2-Lite: 2.45 B without it).
    active: u64,
}

macro_rules! golden {
    ($file:literal, $total:expr) => {
        golden!($file, $total, $total)
    };
    ($file:literal, $total:expr, $active:expr) => {
        Golden {
            file: $file,
            text: include_str!(concat!("../../../data/configs/", $file)),
            total: $total,
            active: $active,
        }
    };
}

pub(super) const GOLDEN: [Golden; 58] = [
    golden!("meta-llama__Llama-2-7b-hf.json", 6_738_415_616),
    golden!("meta-llama__Llama-3.1-8B.json", 8_030_261_248),
    golden!("meta-llama__Llama-3.1-70B.json", 70_553_706_496),
    golden!("meta-llama__Llama-3.1-405B.json", 405_853_388_800),
    golden!("meta-llama__Llama-3.2-1B-Instruct.json", 1_235_814_400),
    golden!("meta-llama__Llama-3.2-3B.json", 3_212_749_824),
    golden!("meta-llama__Llama-3.3-70B-Instruct.json", 70_553_706_496),
    golden!("mistralai__Mistral-7B-v0.3.json", 7_248_023_552),
    golden!(
        "mistralai__Mixtral-8x7B-v0.1.json",
        46_702_792_704,
        12_879_925_248
    ),
    golden!("Qwen__Qwen2.5-0.5B.json", 494_032_768),
    golden!("Qwen__Qwen2.5-3B.json", 3_085_938_688),
    golden!("Qwen__Qwen2.5-7B.json", 7_615_616_512),
    golden!("Qwen__Qwen2.5-14B.json", 14_770_033_664),
    golden!("Qwen__Qwen2.5-32B.json", 32_763_876_352),
    golden!("Qwen__Qwen3-4B.json", 4_022_468_096),
    golden!("Qwen__Qwen3-8B.json", 8_190_735_360),
    golden!("Qwen__Qwen3-14B.json", 14_768_307_200),
    golden!("Qwen__Qwen3-32B.json", 32_762_123_264),
    golden!("Qwen__Qwen3-30B-A3B.json", 30_532_122_624, 3_353_032_704),
    golden!(
        "Qwen__Qwen3-30B-A3B-FP8.json",
        30_532_122_624,
        3_353_032_704
    ),
    golden!(
        "Qwen__Qwen3-30B-A3B-GPTQ-Int4.json",
        30_532_122_624,
        3_353_032_704
    ),
    golden!(
        "Qwen__Qwen3-235B-A22B.json",
        235_093_634_560,
        22_190_763_520
    ),
    golden!("google__gemma-2-2b-it.json", 2_614_341_888),
    golden!("google__gemma-2-9b-it.json", 9_241_705_984),
    golden!("google__gemma-2-27b-it.json", 27_227_128_320),
    golden!("google__gemma-3-1b-it.json", 999_885_952),
    golden!(
        "deepseek-ai__DeepSeek-V2-Lite.json",
        15_706_484_224,
        2_451_435_008
    ),
    golden!(
        "deepseek-ai__DeepSeek-V3.json",
        671_026_419_200,
        36_625_618_432
    ),
    golden!(
        "deepseek-ai__DeepSeek-R1.json",
        671_026_419_200,
        36_625_618_432
    ),
    golden!("openai__gpt-oss-20b.json", 20_914_757_184, 3_608_307_264),
    golden!("openai__gpt-oss-120b.json", 116_829_156_672, 5_132_849_472),
    golden!("microsoft__Phi-3.5-mini-instruct.json", 3_821_079_552),
    golden!("microsoft__Phi-4-mini-instruct.json", 3_836_021_760),
    golden!("openai-community__gpt2.json", 124_439_808),
    golden!("allenai__OLMo-2-1124-7B.json", 7_298_617_344),
    // The models of the vLLM 0.19 start-up logs (data/engines/).
    golden!("codellama__CodeLlama-7b-hf.json", 6_738_546_688),
    golden!(
        "deepseek-ai__DeepSeek-V2-Lite-Chat.json",
        15_706_484_224,
        2_451_435_008
    ),
    golden!(
        "RedHatAI__Qwen2.5-7B-Instruct-FP8-dynamic.json",
        7_615_616_512
    ),
    golden!("google__gemma-3-4b-it.json", 3_880_263_168),
    golden!("google__gemma-3-12b-it.json", 11_766_034_176),
    golden!("google__gemma-3-27b-it.json", 27_009_346_304),
    golden!("google__gemma-7b.json", 8_537_680_896),
    golden!("ibm-granite__granite-3.1-2b-instruct.json", 2_533_531_648),
    golden!("ibm-granite__granite-3.1-8b-instruct.json", 8_170_848_256),
    golden!("ibm-granite__granite-3.3-8b-instruct.json", 8_170_864_640),
    golden!("ibm-granite__granite-vision-3.3-2b.json", 2_533_533_696),
    golden!("meta-llama__Llama-3.1-8B-Instruct.json", 8_030_261_248),
    golden!("microsoft__phi-2.json", 2_779_683_840),
    golden!("microsoft__phi-4.json", 14_659_507_200),
    golden!(
        "mistralai__Mistral-Small-3.1-24B-Instruct-2503.json",
        23_572_403_200
    ),
    golden!(
        "mistralai__Mixtral-8x7B-Instruct-v0.1.json",
        46_702_792_704,
        12_879_925_248
    ),
    golden!("moonshotai__Kimi-Dev-72B.json", 72_706_203_648),
    golden!(
        "moonshotai__Kimi-VL-A3B-Instruct.json",
        15_960_110_208,
        2_579_231_872
    ),
    golden!(
        "Qwen__Qwen1.5-MoE-A2.7B.json",
        14_315_784_192,
        2_689_173_504
    ),
    golden!("Qwen__Qwen2.5-7B-Instruct.json", 7_615_616_512),
    golden!("Qwen__Qwen2.5-72B-Instruct.json", 72_706_203_648),
    golden!(
        "RedHatAI__Meta-Llama-3.1-8B-Instruct-quantized.w4a16.json",
        8_030_261_248
    ),
    golden!(
        "RedHatAI__Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8.json",
        23_572_403_200
    ),
];

/// Published files whose text model relies on its config class's
/// defaults (Gemma-3's multimodal configs give only the sizes that differ
/// from `Gemma3TextConfig`).
const CLASS_DEFAULTS: [&str; 3] = [
    "google__gemma-3-4b-it.json",
    "google__gemma-3-12b-it.json",
    "google__gemma-3-27b-it.json",
];

pub(super) fn spec(file: &str) -> ModelSpec {
    let g = GOLDEN
        .iter()
        .find(|g| g.file == file)
        .expect("file in table");
    parse_config(g.text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

pub(super) fn kinds(spec: &ModelSpec) -> Vec<(AttentionKind, u64)> {
    spec.layers_by_kind()
        .into_iter()
        .map(|c| (c.kind, c.layers))
        .collect()
}

#[test]
fn every_golden_row_names_a_catalog_file() {
    // The catalog's own test (`catalog::models`) covers every file of the
    // folder against its published figure; these golden rows are a subset
    // kept beside the reader, and each must still name a file there.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/configs");
    let files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for g in &GOLDEN {
        assert!(
            files.iter().any(|f| f == g.file),
            "{} is not in data/configs",
            g.file
        );
    }
}

#[test]
fn exact_parameter_counts() {
    let mut wrong = Vec::new();
    for g in &GOLDEN {
        let s = parse_config(g.text).unwrap_or_else(|e| panic!("{}: {e}", g.file));
        assert_eq!(s.params.total(), s.params_total, "{}", g.file);
        assert!(
            s.defaults_used.is_empty() || CLASS_DEFAULTS.contains(&g.file),
            "{}: {:?}",
            g.file,
            s.defaults_used
        );
        if (s.params_total, s.params_active) != (g.total, g.active) {
            wrong.push(format!(
                "{}: total {} (want {}), active {} (want {})",
                g.file, s.params_total, g.total, s.params_active, g.active
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn one_attention_and_ffn_entry_per_layer() {
    for g in &GOLDEN {
        let s = parse_config(g.text).unwrap();
        assert_eq!(s.attention.len() as u64, s.num_layers, "{}", g.file);
        assert_eq!(s.ffn.len() as u64, s.num_layers, "{}", g.file);
    }
}

// ---------------------------------------------------------------------------
// Helpers

pub(super) fn golden_text(file: &str) -> &'static str {
    GOLDEN
        .iter()
        .find(|g| g.file == file)
        .expect("file in table")
        .text
}

/// A golden config with `change` applied, as JSON text.
pub(super) fn edit(file: &str, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut config: serde_json::Value = serde_json::from_str(golden_text(file)).unwrap();
    change(&mut config);
    config.to_string()
}
