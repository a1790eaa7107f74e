//! The families by the names their makers publish them under, for people
//! (the page and the CLI never show the Rust variant's name).

use super::Family;

impl Family {
    /// The model family as its makers name it (`"GPT-OSS"`, `"Qwen3-MoE"`);
    /// the same in every language (proper names). [`Family::Generic`] is
    /// `"generic"`: a front end says in its own words that the type is
    /// unknown.
    ///
    /// ```
    /// use vramfit_core::model::Family;
    /// assert_eq!(Family::GptOss.name(), "GPT-OSS");
    /// assert_eq!(Family::DeepseekV3.name(), "DeepSeek-V3");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Family::Llama => "Llama",
            Family::Llama4 => "Llama 4",
            Family::Mistral => "Mistral",
            Family::Mixtral => "Mixtral",
            Family::Qwen => "Qwen (first generation)",
            Family::Qwen2 => "Qwen2",
            Family::Qwen2Moe => "Qwen2-MoE",
            Family::Qwen3 => "Qwen3",
            Family::Qwen3Moe => "Qwen3-MoE",
            Family::Qwen3Next => "Qwen3-Next",
            Family::Qwen35 => "Qwen3.5",
            Family::Qwen35Moe => "Qwen3.5-MoE",
            Family::Gemma => "Gemma",
            Family::Gemma2 => "Gemma 2",
            Family::Gemma3 => "Gemma 3",
            Family::Gemma3n => "Gemma 3n",
            Family::DeepseekV2 => "DeepSeek-V2",
            Family::DeepseekV3 => "DeepSeek-V3",
            Family::DeepseekV32 => "DeepSeek-V3.2",
            Family::DeepseekMoe => "DeepSeekMoE",
            Family::GlmMoeDsa => "GLM-5 (MoE, sparse attention)",
            Family::GptOss => "GPT-OSS",
            Family::Phi => "Phi",
            Family::Phi3 => "Phi-3",
            Family::PhiMoe => "Phi-MoE",
            Family::Gpt2 => "GPT-2",
            Family::GptBigCode => "GPT-BigCode (StarCoder)",
            Family::GptJ => "GPT-J",
            Family::GptNeo => "GPT-Neo",
            Family::GptNeox => "GPT-NeoX",
            Family::CodeGen => "CodeGen",
            Family::Opt => "OPT",
            Family::Bloom => "BLOOM",
            Family::Falcon => "Falcon",
            Family::FalconH1 => "Falcon-H1",
            Family::ChatGlm => "ChatGLM",
            Family::Glm => "GLM",
            Family::Glm4 => "GLM-4",
            Family::Glm4Moe => "GLM-4-MoE",
            Family::InternLm => "InternLM",
            Family::InternLm2 => "InternLM2",
            Family::StableLm => "StableLM",
            Family::Starcoder2 => "StarCoder2",
            Family::Olmo => "OLMo",
            Family::Olmo2 => "OLMo 2",
            Family::Olmo3 => "OLMo 3",
            Family::Olmoe => "OLMoE",
            Family::Cohere => "Command R (Cohere)",
            Family::Cohere2 => "Command R7B (Cohere 2)",
            Family::Dbrx => "DBRX",
            Family::Orion => "Orion",
            Family::Rwkv5 => "RWKV-5",
            Family::Granite => "Granite",
            Family::GraniteMoe => "Granite MoE",
            Family::GraniteMoeShared => "Granite MoE (shared experts)",
            Family::GraniteMoeHybrid => "Granite 4 (hybrid)",
            Family::SmolLm3 => "SmolLM3",
            Family::Lfm2 => "LFM2",
            Family::MiniMax => "MiniMax-Text",
            Family::MiniMaxM2 => "MiniMax-M2",
            Family::Nemotron => "Nemotron",
            Family::NemotronH => "Nemotron-H",
            Family::DeciLm => "Nemotron-NAS (DeciLM)",
            Family::Jamba => "Jamba",
            Family::Mamba => "Mamba",
            Family::Mamba2 => "Mamba-2",
            Family::Helium => "Helium",
            Family::Ministral => "Ministral",
            Family::SeedOss => "Seed-OSS",
            Family::Ernie45 => "ERNIE 4.5",
            Family::Exaone4 => "EXAONE 4",
            Family::Hunyuan => "Hunyuan",
            Family::Arcee => "Arcee (AFM)",
            Family::Apertus => "Apertus",
            Family::DeepseekV4 => "DeepSeek-V4",
            Family::Gemma4 => "Gemma 4",
            Family::MiMo => "MiMo",
            Family::MiMoV2 => "MiMo-V2",
            Family::Step3p7 => "Step-3",
            Family::MiniMaxM3 => "MiniMax-M3",
            Family::KimiLinear => "Kimi Linear",
            Family::Laguna => "Laguna",
            Family::Generic => "generic",
        }
    }
}
