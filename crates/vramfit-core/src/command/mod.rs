//! An engine's own command line read as a scenario: `vllm serve MODEL
//! --max-model-len 16384 -tp 2`, `python -m vllm.entrypoints.openai.api_server
//! --model MODEL ...`, `llama-server -m FILE.gguf -c 8192 -ngl 40` or
//! `llama-server -hf REPO:QUANT`, `llama-cli ...`.
//!
//! [`parse`] reads the words into an [`EngineCommand`] (the engine, the
//! model word, every option with its value checked, the options that change
//! nothing the estimate models); [`EngineCommand::apply`] writes it into a
//! [`ScenarioInput`] and names the method (`vllm` or `llamacpp`). An option
//! the engine does not have, or one whose effect on memory is not modelled,
//! is a [`CommandError`] naming it: nothing is silently ignored. The CLI
//! (`vramfit estimate -- vllm serve ...`) and the page's "paste your
//! command" field read commands with this one reader; the commands the
//! engine methods print read back to the same estimate.
//!
//! What the engines do by default where an option is absent: llama.cpp's
//! `-c` is the model's trained context (`common/common.h`, `n_ctx = 0`),
//! `llama-server` serves 4 slots when `-np` is not given and `llama-cli`
//! one sequence; vLLM's `--max-model-len` is the model's own, so a `vllm
//! serve` line without it estimates the model's full context.

mod error;
mod options;
mod words;

pub use error::{CommandError, Expected, Unmodelled};
pub use options::{
    apply_dtype, lookup, read, vllm_tokens, EngineOption, Knob, Setting, DEFAULT_N_BATCH,
    NOT_MODELLED, NO_MEMORY_EFFECT, OPTIONS,
};
pub use words::words;

use crate::catalog;
use crate::gguf::FileType;
use crate::methods::MethodId;
use crate::scenario::{Mode, ModelRef, ScenarioInput, WeightFormat};
use serde::Serialize;

/// The engine a command starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    Vllm,
    Llamacpp,
}

impl Engine {
    /// The engine's name, as its users write it.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Vllm => "vLLM",
            Engine::Llamacpp => "llama.cpp",
        }
    }

    /// The method that models it.
    pub const fn method(self) -> MethodId {
        match self {
            Engine::Vllm => MethodId::Vllm,
            Engine::Llamacpp => MethodId::Llamacpp,
        }
    }
}

/// Which of an engine's programs the command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Program {
    /// `vllm serve`, or the OpenAI server module.
    VllmServe,
    /// `llama-server`: 4 slots unless `-np` says otherwise.
    LlamaServer,
    /// `llama-cli`: one sequence.
    LlamaCli,
}

/// llama-server's automatic slots (`tools/server/server.cpp`: `n_parallel`
/// auto is 4, with one unified cache).
pub const LLAMA_SERVER_SLOTS: u64 = 4;

/// An engine command, read.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineCommand {
    pub program: Program,
    /// The model word: vLLM's id or path, llama.cpp's `-m` file or `-hf`
    /// repository (`Setting::Model` or `Setting::HfRepo`).
    pub model: Option<Setting>,
    /// Every other option, in the order given.
    pub settings: Vec<Setting>,
    /// Options read that change nothing the estimate models.
    pub no_memory_effect: Vec<String>,
}

/// Reads a pasted command (see [`words`] for the quoting).
///
/// ```
/// use vramfit_core::command::{parse_text, Engine};
/// let c = parse_text("vllm serve Qwen/Qwen3-8B --max-model-len 16384 -tp 2").unwrap();
/// assert_eq!(c.engine(), Engine::Vllm);
/// assert_eq!(c.model_word(), Some("Qwen/Qwen3-8B"));
/// ```
pub fn parse_text(text: &str) -> Result<EngineCommand, CommandError> {
    parse(&words(text)?)
}

/// Reads a command's words.
pub fn parse(words: &[String]) -> Result<EngineCommand, CommandError> {
    // `CUDA_VISIBLE_DEVICES=0,1 vllm serve ...`: the environment first.
    let start = words
        .iter()
        .position(|w| !is_assignment(w))
        .ok_or(CommandError::Empty)?;
    let words = &words[start..];
    let (program, rest) = program(words)?;
    let engine = program.engine();
    let mut command = EngineCommand {
        program,
        model: None,
        settings: Vec::new(),
        no_memory_effect: Vec::new(),
    };
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i].as_str();
        i += 1;
        if !word.starts_with('-') || word == "-" {
            match (engine, &command.model) {
                (Engine::Vllm, None) => command.model = Some(Setting::Model(word.to_string())),
                _ => {
                    return Err(CommandError::UnexpectedWord {
                        word: word.to_string(),
                    })
                }
            }
            continue;
        }
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (word.to_string(), None),
        };
        // vLLM reads `--max_model_len` as `--max-model-len`.
        let name = match (engine, name.strip_prefix("--")) {
            (Engine::Vllm, Some(long)) => format!("--{}", long.replace('_', "-")),
            _ => name,
        };
        if let Some(option) = lookup(engine, &name) {
            let value = match (option.knob, inline) {
                (_, Some(v)) => Some(v),
                (Knob::FlashAttn, None) => rest
                    .get(i)
                    .filter(|next| FLASH_ATTN_VALUES.contains(&next.as_str()))
                    .inspect(|_| i += 1)
                    .cloned(),
                (knob, None) if knob.takes_value() => {
                    let next = rest
                        .get(i)
                        .ok_or_else(|| CommandError::MissingValue {
                            option: name.clone(),
                        })?
                        .clone();
                    i += 1;
                    Some(next)
                }
                (_, None) => None,
            };
            let setting = read(engine, &name, option.knob, value.as_deref())?;
            match setting {
                Setting::Model(_) | Setting::HfRepo(_) if command.model.is_some() => {
                    return Err(CommandError::UnexpectedWord {
                        word: value.unwrap_or_default(),
                    })
                }
                Setting::Model(_) | Setting::HfRepo(_) => command.model = Some(setting),
                _ => command.settings.push(setting),
            }
        } else if let Some((_, _, takes)) = NO_MEMORY_EFFECT
            .iter()
            .find(|(e, n, _)| *e == engine && *n == name)
        {
            if *takes && inline.is_none() {
                i += 1;
            }
            command.no_memory_effect.push(name);
        } else if let Some((_, _, why)) = NOT_MODELLED
            .iter()
            .find(|(e, n, _)| *e == engine && *n == name)
        {
            return Err(CommandError::NotModelled {
                engine,
                option: name,
                why: *why,
            });
        } else {
            return Err(CommandError::UnknownOption {
                engine,
                option: name,
            });
        }
    }
    Ok(command)
}

/// The values `-fa` takes (a bare `-fa` is on, as in earlier releases).
const FLASH_ATTN_VALUES: [&str; 9] = [
    "on", "off", "auto", "1", "0", "true", "false", "enabled", "disabled",
];

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The program and the words after it.
fn program(words: &[String]) -> Result<(Program, &[String]), CommandError> {
    let first = words.first().ok_or(CommandError::Empty)?;
    let name = first.rsplit('/').next().unwrap_or(first);
    let python = name.starts_with("python");
    match name {
        "vllm" => match words.get(1).map(String::as_str) {
            Some("serve") => Ok((Program::VllmServe, &words[2..])),
            _ => Err(CommandError::VllmWithoutServe),
        },
        "llama-server" => Ok((Program::LlamaServer, &words[1..])),
        "llama-cli" => Ok((Program::LlamaCli, &words[1..])),
        _ if python
            && words.get(1).map(String::as_str) == Some("-m")
            && words
                .get(2)
                .is_some_and(|m| m.starts_with("vllm.entrypoints.openai.api_server")) =>
        {
            Ok((Program::VllmServe, &words[3..]))
        }
        _ => Err(CommandError::NotAnEngine {
            program: words[..words.len().min(3)].join(" "),
        }),
    }
}

impl Program {
    pub const fn engine(self) -> Engine {
        match self {
            Program::VllmServe => Engine::Vllm,
            Program::LlamaServer | Program::LlamaCli => Engine::Llamacpp,
        }
    }
}

impl EngineCommand {
    pub const fn engine(&self) -> Engine {
        self.program.engine()
    }

    /// The model as written: vLLM's id or path, llama.cpp's file or
    /// repository (with its `:QUANT`).
    pub fn model_word(&self) -> Option<&str> {
        match &self.model {
            Some(Setting::Model(w) | Setting::HfRepo(w)) => Some(w),
            _ => None,
        }
    }

    /// The catalog model a llama.cpp file or repository names (its name
    /// without the file type and `-GGUF`), and the file type it names.
    /// vLLM's word is a catalog id as it stands.
    pub fn catalog_model(&self) -> Result<(Option<String>, Option<FileType>), CommandError> {
        let Some(word) = self.model_word() else {
            return Ok((None, None));
        };
        match (&self.model, self.engine()) {
            (_, Engine::Vllm) => Ok((Some(word.to_string()), None)),
            (Some(Setting::HfRepo(_)), Engine::Llamacpp) => {
                let (repo, quant) = match word.split_once(':') {
                    Some((r, q)) => (r, FileType::parse(q)),
                    None => (word, None),
                };
                let name = repo.rsplit('/').next().unwrap_or(repo);
                Ok((Some(catalog_id_for(gguf_stem(name).0, word)?), quant))
            }
            _ => {
                let file = word.rsplit('/').next().unwrap_or(word);
                let (stem, quant) = gguf_stem(file);
                Ok((Some(catalog_id_for(stem, word)?), quant))
            }
        }
    }

    /// Writes the command into `input` and names its method. The model is
    /// the command's unless `input` already holds one (a MODEL given
    /// apart, such as a config.json the CLI read).
    pub fn apply(&self, input: &mut ScenarioInput) -> Result<MethodId, CommandError> {
        input.mode = Mode::Inference;
        let (id, file_type) = self.catalog_model()?;
        if input.model.is_none() {
            let id = id.ok_or(CommandError::NoModel {
                engine: self.engine(),
            })?;
            input.set_model_following_checkpoint(Some(ModelRef::Catalog(id)));
        }
        if let Some(t) = file_type {
            input.set_gguf_type(t);
        }
        if self.engine() == Engine::Llamacpp {
            // The engine's own defaults where the command is silent.
            input.sequences = match self.program {
                Program::LlamaServer => LLAMA_SERVER_SLOTS,
                _ => 1,
            };
            input.context = self.trained_context(input).unwrap_or(input.context);
        }
        if self.engine() == Engine::Vllm {
            input.context = self.trained_context(input).unwrap_or(input.context);
        }
        let mut dtype = None;
        let mut quantized = false;
        for s in &self.settings {
            match s {
                Setting::Dtype(d) => dtype = *d,
                Setting::Quantization(_) => quantized = true,
                Setting::Context(None) => {
                    input.context = self.trained_context(input).unwrap_or(input.context)
                }
                _ => {}
            }
            s.apply(input);
        }
        apply_dtype(input, dtype, quantized);
        // `-tp 2` alone is two GPUs.
        input.gpus = input.tp.unwrap_or(1).saturating_mul(input.pp.unwrap_or(1));
        Ok(self.engine().method())
    }

    /// The model's own context (where the engine takes it by default).
    fn trained_context(&self, input: &ScenarioInput) -> Option<u64> {
        let ModelRef::Catalog(id) = input.model.as_ref()? else {
            return None;
        };
        catalog::find_model(id).ok()?.spec().ok()?.max_context
    }
}

/// A GGUF file or repository name without `.gguf`, a shard suffix
/// (`-00001-of-00002`), `-GGUF` and the file type, and the file type.
fn gguf_stem(name: &str) -> (&str, Option<FileType>) {
    let mut stem = name.strip_suffix(".gguf").unwrap_or(name);
    if let Some((head, tail)) = stem.rsplit_once("-of-") {
        if tail.chars().all(|c| c.is_ascii_digit()) {
            stem = head.rsplit_once('-').map_or(head, |(h, _)| h);
        }
    }
    for suffix in ["-GGUF", "-gguf"] {
        stem = stem.strip_suffix(suffix).unwrap_or(stem);
    }
    // The file type is the last part after `-` or `.`, possibly two
    // (`Q4_K_M`, `UD-Q4_K_XL` reads no type).
    for (i, c) in stem.char_indices().rev() {
        if c == '-' || c == '.' {
            if let Some(t) = FileType::parse(&stem[i + 1..]) {
                return (&stem[..i], Some(t));
            }
        }
    }
    (stem, None)
}

/// The catalog id whose name (after the owner) is `name`, the original
/// model before the instruct and quantized exports when several match.
fn catalog_id_for(name: &str, word: &str) -> Result<String, CommandError> {
    let matches: Vec<&str> = catalog::models::all()
        .iter()
        .map(|e| e.id.as_str())
        .filter(|id| {
            id.rsplit('/')
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .collect();
    matches
        .iter()
        .find(|id| {
            id.split('/')
                .next()
                .is_some_and(|o| !o.eq_ignore_ascii_case("unsloth"))
        })
        .or(matches.first())
        .map(|id| id.to_string())
        .ok_or_else(|| CommandError::UnknownModel {
            word: word.to_string(),
        })
}

/// The weight formats vLLM's `--quantization` names, for callers that
/// list them.
pub const VLLM_QUANTIZATIONS: [WeightFormat; 5] = [
    WeightFormat::Fp8,
    WeightFormat::Awq,
    WeightFormat::Gptq,
    WeightFormat::Mxfp4,
    WeightFormat::Nf4,
];

#[cfg(test)]
mod tests;
