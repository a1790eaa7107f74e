//! The engines' own words on `vramfit estimate`: their option names mixed
//! with vramfit's (`--max-model-len 16384 -tp 2`, `-c 8192 -ngl 40`), and a
//! whole engine command after `--` (`-- vllm serve MODEL ...`). The words
//! are read by the core's command reader ([`vramfit_core::command`]), the
//! same one the page uses; this module only sorts vramfit's words from the
//! engines' and keeps their order.

use vramfit_cli::line::Opt;
use vramfit_core::command::{self, Engine, Knob, Setting};
use vramfit_core::scenario::{EngineField, Field};

/// The words of `estimate` split at `--`: vramfit's, and the engine
/// command after it.
pub fn split(words: &[String]) -> (Vec<String>, Option<Vec<String>>) {
    match words.iter().position(|w| w == "--") {
        Some(i) => (words[..i].to_vec(), Some(words[i + 1..].to_vec())),
        None => (words.to_vec(), None),
    }
}

/// Whether `name` (without `=value`) is one of vramfit's own options.
fn is_vramfit_flag(name: &str) -> bool {
    Field::ALL.iter().any(|f| f.flag() == name)
        || EngineField::ALL.iter().any(|f| f.flag() == name)
        || Opt::ALL.iter().any(|o| o.flag() == name)
        || matches!(name, "-h" | "--help")
}

/// The engine option `name` is, where it is not one of vramfit's.
fn engine_option(name: &str) -> Option<(Engine, Knob)> {
    [Engine::Vllm, Engine::Llamacpp]
        .into_iter()
        .find_map(|e| command::lookup(e, name).map(|o| (e, o.knob)))
}

/// Engine options, each with the count of vramfit's words before it (its
/// place in the order given).
pub type Placed = Vec<(usize, Setting)>;

/// vramfit's words (for clap) and the engine options taken out of them.
pub fn take_engine_options(words: &[String]) -> Result<(Vec<String>, Placed), String> {
    let mut native = Vec::new();
    let mut taken = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v)),
            _ => (word.as_str(), None),
        };
        let next_is_fa_value = words
            .get(i)
            .is_some_and(|n| ["on", "off", "auto"].contains(&n.as_str()));
        // `--flash-attn on|off|auto` is llama.cpp's; bare, vramfit's switch.
        let engine = match (name, inline, next_is_fa_value) {
            ("--flash-attn", None, false) => None,
            (n, _, _) if n.starts_with('-') && (n == "--flash-attn" || !is_vramfit_flag(n)) => {
                engine_option(n)
            }
            _ => None,
        };
        let Some((engine, knob)) = engine else {
            native.push(word.clone());
            continue;
        };
        let value = match (knob, inline) {
            (_, Some(v)) => Some(v.to_string()),
            (Knob::FlashAttn, None) => next_is_fa_value.then(|| {
                i += 1;
                words[i - 1].clone()
            }),
            (k, None) if k.takes_value() => {
                let v = words
                    .get(i)
                    .ok_or_else(|| format!("{name} needs a value"))?;
                i += 1;
                Some(v.clone())
            }
            (_, None) => None,
        };
        let setting =
            command::read(engine, name, knob, value.as_deref()).map_err(|e| e.to_string())?;
        taken.push((native.len(), setting));
    }
    Ok((native, taken))
}
