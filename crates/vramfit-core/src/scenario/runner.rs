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

/// LM Studio's model-loading guardrail (App Settings → Model Loading
/// Guardrails; `settings.json`, `modelLoadingGuardrails`): the level a
/// person chose. Only the name lives here; the share of the machine each
/// level lets a load take is the `llamacpp` method's table
/// (`data/engines/lmstudio-guardrails.csv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LmStudioGuardrail {
    /// No check (`mode: off`).
    Off,
    /// "Mild precautions against system overload".
    Relaxed,
    /// Between the two; LM Studio's default (assumed).
    #[default]
    Balanced,
    /// "Strong precautions against system overload".
    Strict,
    /// A custom level: the memory to keep free (`customThresholdBytes`).
    Custom { free_bytes: u64 },
}

impl LmStudioGuardrail {
    /// The levels by name, as the command line takes them.
    pub const NAMES: [&'static str; 5] = ["off", "relaxed", "balanced", "strict", "custom:GIB"];

    /// `off`, `relaxed`, `balanced`, `strict` or `custom:N` (N GiB kept
    /// free); `None` for anything else.
    ///
    /// ```
    /// use vramfit_core::scenario::LmStudioGuardrail;
    /// assert_eq!(LmStudioGuardrail::parse("Strict"), Some(LmStudioGuardrail::Strict));
    /// assert_eq!(
    ///     LmStudioGuardrail::parse("custom:4"),
    ///     Some(LmStudioGuardrail::Custom { free_bytes: 4 << 30 })
    /// );
    /// assert_eq!(LmStudioGuardrail::parse("high"), None);
    /// ```
    pub fn parse(text: &str) -> Option<LmStudioGuardrail> {
        let t = text.trim().to_ascii_lowercase();
        if let Some(gib) = t.strip_prefix("custom:") {
            let gib: u64 = gib.trim().parse().ok().filter(|g| *g <= 1 << 20)?;
            return Some(LmStudioGuardrail::Custom {
                free_bytes: gib << 30,
            });
        }
        Some(match t.as_str() {
            "off" | "none" | "no" => LmStudioGuardrail::Off,
            "relaxed" => LmStudioGuardrail::Relaxed,
            "balanced" => LmStudioGuardrail::Balanced,
            "strict" => LmStudioGuardrail::Strict,
            _ => return None,
        })
    }

    /// Its name on the command line and in the table (`custom` for any
    /// custom level).
    pub const fn id(self) -> &'static str {
        match self {
            LmStudioGuardrail::Off => "off",
            LmStudioGuardrail::Relaxed => "relaxed",
            LmStudioGuardrail::Balanced => "balanced",
            LmStudioGuardrail::Strict => "strict",
            LmStudioGuardrail::Custom { .. } => "custom",
        }
    }

    /// The command line's value (`custom:4`).
    pub fn arg(self) -> String {
        match self {
            LmStudioGuardrail::Custom { free_bytes } => format!("custom:{}", free_bytes >> 30),
            l => l.id().to_string(),
        }
    }
}
