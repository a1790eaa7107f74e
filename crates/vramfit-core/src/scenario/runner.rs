//! The runner a person starts llama.cpp through: `llama-server` itself,
//! Ollama or LM Studio. Only the name lives here (the scenario's
//! vocabulary); what each sets is the `llamacpp` method's table
//! (`methods::llamacpp::runner`).

use serde::{Deserialize, Serialize};

/// A runner built on llama.cpp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Runner {
    /// llama.cpp's own server.
    #[default]
    #[serde(rename = "llama-server")]
    LlamaServer,
    /// Ollama (v0.30 and later start `llama-server`).
    #[serde(rename = "ollama")]
    Ollama,
    /// LM Studio's llama.cpp runtime.
    #[serde(rename = "lmstudio")]
    LmStudio,
}

impl Runner {
    pub const ALL: [Runner; 3] = [Runner::LlamaServer, Runner::Ollama, Runner::LmStudio];

    /// The name on the command line and in the table.
    pub const fn id(self) -> &'static str {
        match self {
            Runner::LlamaServer => "llama-server",
            Runner::Ollama => "ollama",
            Runner::LmStudio => "lmstudio",
        }
    }

    /// Its name as written (`LM Studio`).
    pub const fn name(self) -> &'static str {
        match self {
            Runner::LlamaServer => "llama-server",
            Runner::Ollama => "Ollama",
            Runner::LmStudio => "LM Studio",
        }
    }

    /// A runner by name (`lm-studio` and `lms` read as LM Studio).
    ///
    /// ```
    /// use vramfit_core::scenario::Runner;
    /// assert_eq!(Runner::parse("LM-Studio"), Some(Runner::LmStudio));
    /// assert_eq!(Runner::parse("vllm"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Runner> {
        match text.trim().to_ascii_lowercase().as_str() {
            "llama-server" | "llama.cpp" | "llamacpp" => Some(Runner::LlamaServer),
            "ollama" => Some(Runner::Ollama),
            "lmstudio" | "lm-studio" | "lms" => Some(Runner::LmStudio),
            _ => None,
        }
    }

    /// Whether it is the default (left out of documents).
    pub fn is_default(&self) -> bool {
        *self == Runner::LlamaServer
    }
}

impl std::fmt::Display for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
