//! The catalog embedded in the binary: `data/models.json` and every config
//! it names, with `include_str!`.
//!
//! The list of files is written out here; a test compares it with the
//! folder and with `models.json`, so a file added or removed there without
//! being listed here fails the tests. To ship the catalog as data instead
//! (fetched after the first paint), build it with
//! [`super::ModelCatalog::from_parts`] from the same two kinds of text.

use super::{CatalogError, ModelCatalog};
use std::borrow::Cow;

/// The metadata document.
pub(super) const MODELS_JSON: &str = include_str!("../../../data/models.json");

/// `(file, text)` of one embedded config.
macro_rules! config {
    ($file:literal) => {
        (
            $file,
            include_str!(concat!("../../../data/configs/", $file)),
        )
    };
}

/// Every embedded config: file name in `data/configs/` and its text.
pub(super) const CONFIGS: &[(&str, &str)] = &[
    config!("meta-llama__Llama-3.1-8B.json"),
    config!("meta-llama__Meta-Llama-3-8B.json"),
    config!("meta-llama__Meta-Llama-3-70B.json"),
    config!("meta-llama__Meta-Llama-3-8B-Instruct.json"),
    config!("meta-llama__Llama-3.2-3B-Instruct.json"),
    config!("Qwen__Qwen3-Coder-30B-A3B-Instruct.json"),
    config!("Qwen__Qwen2.5-Coder-7B.json"),
    config!("meta-llama__Llama-3.1-8B-Instruct.json"),
    config!("RedHatAI__Meta-Llama-3.1-8B-Instruct-quantized.w4a16.json"),
    config!("meta-llama__Llama-3.1-70B.json"),
    config!("nvidia__Llama-3.1-70B-Instruct-FP8.json"),
    config!("meta-llama__Llama-3.1-405B.json"),
    config!("meta-llama__Llama-3.2-1B-Instruct.json"),
    config!("meta-llama__Llama-3.2-3B.json"),
    config!("meta-llama__Llama-3.3-70B-Instruct.json"),
    config!("meta-llama__Llama-4-Scout-17B-16E-Instruct.json"),
    config!("meta-llama__Llama-4-Maverick-17B-128E-Instruct.json"),
    config!("meta-llama__Llama-2-7b-hf.json"),
    config!("codellama__CodeLlama-7b-hf.json"),
    config!("meta-llama__Llama-2-13b-hf.json"),
    config!("meta-llama__Llama-2-70b-hf.json"),
    config!("TheBloke__Genz-70B-GPTQ.json"),
    config!("TinyLlama__TinyLlama-1.1B-Chat-v1.0.json"),
    config!("Qwen__Qwen3-0.6B.json"),
    config!("Qwen__Qwen3-1.7B.json"),
    config!("Qwen__Qwen3-4B.json"),
    config!("Qwen__Qwen3-8B.json"),
    config!("Qwen__Qwen3-14B.json"),
    config!("Qwen__Qwen3-30B-A3B.json"),
    config!("Qwen__Qwen3-30B-A3B-FP8.json"),
    config!("Qwen__Qwen3-30B-A3B-GPTQ-Int4.json"),
    config!("Qwen__Qwen3-32B.json"),
    config!("Qwen__Qwen3-32B-FP8.json"),
    config!("Qwen__Qwen3-235B-A22B.json"),
    config!("nvidia__Qwen3-235B-A22B-NVFP4.json"),
    config!("Qwen__Qwen3-235B-A22B-FP8.json"),
    config!("Qwen__Qwen3.5-27B.json"),
    config!("Qwen__Qwen3.5-35B-A3B.json"),
    config!("nvidia__Qwen3.5-122B-A10B-NVFP4.json"),
    config!("Qwen__Qwen3.5-122B-A10B.json"),
    config!("nvidia__Qwen3.5-397B-A17B-NVFP4.json"),
    config!("Qwen__Qwen3.5-397B-A17B.json"),
    config!("nvidia__Qwen3.6-27B-NVFP4.json"),
    config!("nvidia__Qwen3.6-35B-A3B-NVFP4.json"),
    config!("Qwen__Qwen3.6-35B-A3B.json"),
    config!("Qwen__Qwen3-VL-2B-Instruct.json"),
    config!("Qwen__Qwen3-VL-4B-Instruct.json"),
    config!("Qwen__Qwen3-VL-8B-Instruct.json"),
    config!("Qwen__Qwen3-VL-30B-A3B-Instruct.json"),
    config!("Qwen__Qwen3-VL-32B-Instruct.json"),
    config!("Qwen__Qwen3-VL-32B-Thinking.json"),
    config!("Qwen__Qwen3-VL-235B-A22B-Instruct.json"),
    config!("Qwen__Qwen3-Coder-480B-A35B-Instruct.json"),
    config!("Qwen__Qwen2.5-0.5B.json"),
    config!("Qwen__Qwen2.5-1.5B.json"),
    config!("Qwen__Qwen2.5-3B.json"),
    config!("Qwen__Qwen2.5-7B.json"),
    config!("Qwen__Qwen2.5-7B-Instruct.json"),
    config!("RedHatAI__Qwen2.5-7B-Instruct-FP8-dynamic.json"),
    config!("Qwen__Qwen2.5-14B.json"),
    config!("deepseek-ai__DeepSeek-R1-Distill-Qwen-32B.json"),
    config!("Qwen__Qwen2.5-32B.json"),
    config!("Qwen__Qwen2.5-72B.json"),
    config!("Qwen__Qwen2.5-72B-Instruct.json"),
    config!("Qwen__Qwen2-0.5B-Instruct.json"),
    config!("Qwen__Qwen2-1.5B-Instruct.json"),
    config!("Qwen__Qwen2-7B-Instruct.json"),
    config!("allenai__olmOCR-7B-0225-preview.json"),
    config!("Qwen__Qwen1.5-MoE-A2.7B.json"),
    config!("Qwen__Qwen-1_8B.json"),
    config!("Qwen__Qwen-72B.json"),
    config!("deepseek-ai__DeepSeek-R1.json"),
    config!("deepseek-ai__DeepSeek-V3.json"),
    config!("deepseek-ai__DeepSeek-V3.1.json"),
    config!("nvidia__DeepSeek-V3.1-NVFP4.json"),
    config!("deepseek-ai__DeepSeek-V3.2.json"),
    config!("nvidia__DeepSeek-V3.2-NVFP4.json"),
    config!("deepseek-ai__DeepSeek-V4-Flash.json"),
    config!("nvidia__DeepSeek-V4-Flash-NVFP4.json"),
    config!("deepseek-ai__DeepSeek-V4-Pro.json"),
    config!("nvidia__DeepSeek-V4-Pro-NVFP4.json"),
    config!("deepseek-ai__DeepSeek-V2-Lite.json"),
    config!("deepseek-ai__DeepSeek-V2-Lite-Chat.json"),
    config!("deepseek-ai__deepseek-moe-16b-base.json"),
    config!("openai__gpt-oss-20b.json"),
    config!("openai__gpt-oss-120b.json"),
    config!("google__gemma-4-E2B-it.json"),
    config!("google__gemma-4-26B-A4B.json"),
    config!("nvidia__Gemma-4-26B-A4B-NVFP4.json"),
    config!("nvidia__Gemma-4-31B-IT-NVFP4.json"),
    config!("google__gemma-3-1b-it.json"),
    config!("google__gemma-3-4b-it.json"),
    config!("google__gemma-3-12b-it.json"),
    config!("google__gemma-3-27b-it.json"),
    config!("google__medgemma-27b-it.json"),
    config!("google__gemma-2-2b-it.json"),
    config!("google__gemma-2-2b-jpn-it.json"),
    config!("google__gemma-2-9b-it.json"),
    config!("google__gemma-2-27b-it.json"),
    config!("google__gemma-2b.json"),
    config!("google__gemma-2b-it.json"),
    config!("google__gemma-7b.json"),
    config!("mistralai__Mistral-7B-v0.3.json"),
    config!("mistralai__Devstral-Small-2507.json"),
    config!("mistralai__Mistral-Small-3.1-24B-Instruct-2503.json"),
    config!("mistralai__Mistral-Small-3.2-24B-Instruct-2506.json"),
    config!("RedHatAI__Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8.json"),
    config!("mistralai__Mixtral-8x7B-Instruct-v0.1.json"),
    config!("mistralai__Mixtral-8x7B-v0.1.json"),
    config!("mistralai__Mixtral-8x22B-v0.1.json"),
    config!("microsoft__Phi-4-mini-instruct.json"),
    config!("microsoft__phi-4.json"),
    config!("microsoft__Phi-4-reasoning-vision-15B.json"),
    config!("microsoft__Phi-3.5-mini-instruct.json"),
    config!("microsoft__Phi-3.5-vision-instruct.json"),
    config!("microsoft__phi-2.json"),
    config!("microsoft__phi-1_5.json"),
    config!("nvidia__GLM-5.2-NVFP4.json"),
    config!("zai-org__GLM-5.2.json"),
    config!("zai-org__GLM-5.2-FP8.json"),
    config!("nvidia__GLM-5.1-NVFP4.json"),
    config!("zai-org__GLM-5.json"),
    config!("nvidia__GLM-5-NVFP4.json"),
    config!("zai-org__GLM-5-FP8.json"),
    config!("zai-org__GLM-5.1.json"),
    config!("zai-org__GLM-5.1-FP8.json"),
    config!("THUDM__chatglm2-6b.json"),
    config!("moonshotai__Kimi-VL-A3B-Instruct.json"),
    config!("moonshotai__Kimi-Dev-72B.json"),
    config!("moonshotai__Kimi-K2-Instruct.json"),
    config!("moonshotai__Kimi-K2.5.json"),
    config!("nvidia__Kimi-K2.5-NVFP4.json"),
    config!("nvidia__Kimi-K2.6-NVFP4.json"),
    config!("nvidia__Kimi-K2.7-Code-NVFP4.json"),
    config!("moonshotai__Kimi-Linear-48B-A3B-Instruct.json"),
    config!("moonshotai__Kimi-K3.json"),
    config!("MiniMaxAI__MiniMax-M2.5.json"),
    config!("MiniMaxAI__MiniMax-M2.7.json"),
    config!("nvidia__MiniMax-M2.5-NVFP4.json"),
    config!("nvidia__MiniMax-M2.7-NVFP4.json"),
    config!("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"),
    config!("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4.json"),
    config!("nvidia__Llama-3_3-Nemotron-Super-49B-v1.json"),
    config!("nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.json"),
    config!("nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.json"),
    config!("XiaomiMiMo__MiMo-V2-Flash.json"),
    config!("HuggingFaceTB__SmolLM2-135M.json"),
    config!("HuggingFaceTB__SmolLM2-360M.json"),
    config!("HuggingFaceTB__SmolLM3-3B.json"),
    config!("allenai__OLMo-2-1124-7B.json"),
    config!("allenai__OLMo-2-1124-13B.json"),
    config!("allenai__OLMo-2-0325-32B.json"),
    config!("ibm-granite__granite-3.1-2b-instruct.json"),
    config!("ibm-granite__granite-vision-3.3-2b.json"),
    config!("ibm-granite__granite-3b-code-instruct-128k.json"),
    config!("ibm-granite__granite-3.1-8b-instruct.json"),
    config!("ibm-granite__granite-3.3-8b-instruct.json"),
    config!("tiiuae__falcon-180B-chat.json"),
    config!("CohereLabs__aya-23-8B.json"),
    config!("internlm__internlm-7b.json"),
    config!("internlm__internlm2_5-7b-chat.json"),
    config!("bigcode__starcoder2-7b.json"),
    config!("stabilityai__stablelm-2-zephyr-1_6b.json"),
    config!("LiquidAI__LFM2-1.2B.json"),
    config!("poolside__Laguna-XS.2-FP8.json"),
    config!("poolside__Laguna-S-2.1-FP8.json"),
    config!("openai-community__gpt2.json"),
    config!("openai-community__gpt2-medium.json"),
    config!("EleutherAI__gpt-j-6b.json"),
    config!("RWKV__rwkv-5-world-3b.json"),
    config!("OrionStarAI__Orion-14B-Base.json"),
];

/// `(file, text)` of one embedded `hf_quant_config.json`.
macro_rules! side {
    ($file:literal) => {
        (
            $file,
            include_str!(concat!("../../../data/configs/hf_quant/", $file)),
        )
    };
}

/// Every embedded `hf_quant_config.json`: file name in
/// `data/configs/hf_quant/` and its text.
pub(super) const HF_QUANT_CONFIGS: &[(&str, &str)] = &[
    side!("nvidia__DeepSeek-V3.1-NVFP4.json"),
    side!("nvidia__DeepSeek-V3.2-NVFP4.json"),
    side!("nvidia__GLM-5-NVFP4.json"),
    side!("nvidia__Llama-3.1-70B-Instruct-FP8.json"),
    side!("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4.json"),
    side!("nvidia__Qwen3-235B-A22B-NVFP4.json"),
];

/// The text of an embedded config by file name (a side file as
/// `hf_quant/<file>`).
pub(super) fn config_text(file: &str) -> Option<&'static str> {
    let (list, file) = match file.strip_prefix("hf_quant/") {
        Some(side) => (HF_QUANT_CONFIGS, side),
        None => (CONFIGS, file),
    };
    list.iter().find(|(f, _)| *f == file).map(|(_, text)| *text)
}

/// The embedded catalog.
pub(super) fn catalog() -> Result<ModelCatalog, CatalogError> {
    ModelCatalog::from_parts(MODELS_JSON, |file| config_text(file).map(Cow::Borrowed))
}
