//! Module-name patterns that keep modules out of (or bring them into) a
//! quantized format, read the way the library that wrote the checkpoint
//! reads them.

use super::regex::Regex;
use crate::model::error::ConfigError;
use serde::Serialize;
use std::collections::HashSet;

/// How a library reads the names in its lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// transformers `modules_to_not_convert` (FP8, MXFP4, bitsandbytes,
    /// FBGEMM, EETQ): a pattern names a module path or a run of its
    /// dot-separated segments (`lm_head`, `model.layers.*.self_attn`,
    /// `mlp.gate`), `*` and `?` as in `fnmatch`; a module excludes its
    /// children. Sources: transformers `quantizers_utils.should_convert_module`
    /// (prefix / regex / suffix), bitsandbytes integration
    /// (`key + "." in name or key == name`).
    ModuleGlob,
    /// compressed-tensors `ignore` and `targets`: a full module name, or
    /// `re:<regex>` matched with Python's `re.match` (anchored at the
    /// start). Source: compressed-tensors `utils/match.py::_match_name`.
    CompressedTensors,
    /// AutoAWQ `modules_to_not_convert`: a substring of the module name.
    /// Source: AutoAWQ `utils/module.py::exclude_layers_to_not_quantize`.
    Substring,
    /// NVIDIA ModelOpt `exclude_modules` / `ignore`: equal, a substring,
    /// or an `fnmatch` wildcard over the full name. Source: vLLM
    /// `quantization/modelopt.py::is_layer_excluded`.
    ModelOpt,
}

/// Compiled patterns of one list.
#[derive(Debug)]
pub(crate) struct Patterns {
    dialect: Dialect,
    /// Patterns without wildcards (whole names or segment runs).
    exact: HashSet<String>,
    /// Wildcard patterns (`*`, `?`).
    globs: Vec<String>,
    regexes: Vec<Regex>,
    /// Every pattern as written (substring dialects).
    plain: Vec<String>,
    mentions_experts: bool,
}

impl Patterns {
    /// Compiles `patterns`; `key` names the config key for errors.
    pub(crate) fn new(
        dialect: Dialect,
        patterns: &[String],
        key: &str,
    ) -> Result<Self, ConfigError> {
        let mut p = Patterns::none(dialect);
        p.mentions_experts = patterns
            .iter()
            .any(|p| p.contains("expert") || [".w1", ".w2", ".w3"].iter().any(|w| p.contains(w)));
        for pattern in patterns {
            match dialect {
                Dialect::CompressedTensors => match pattern.strip_prefix("re:") {
                    Some(re) => p.regexes.push(Regex::new(re).map_err(|why| {
                        ConfigError::unsupported(format!(
                            "{key}: pattern `{pattern}` is outside the regular expressions vramfit reads ({why})"
                        ))
                    })?),
                    None => {
                        p.exact.insert(pattern.clone());
                    }
                },
                Dialect::ModuleGlob | Dialect::ModelOpt if pattern.contains(['*', '?', '[']) => {
                    p.globs.push(pattern.clone())
                }
                Dialect::ModuleGlob => {
                    p.exact.insert(pattern.clone());
                }
                Dialect::ModelOpt | Dialect::Substring => p.plain.push(pattern.clone()),
            }
        }
        Ok(p)
    }

    /// An empty list.
    pub(crate) fn none(dialect: Dialect) -> Self {
        Patterns {
            dialect,
            exact: HashSet::new(),
            globs: Vec::new(),
            regexes: Vec::new(),
            plain: Vec::new(),
            mentions_experts: false,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.exact.is_empty()
            && self.globs.is_empty()
            && self.regexes.is_empty()
            && self.plain.is_empty()
    }

    /// Whether some pattern could tell one expert from another, so experts
    /// must be named one by one.
    pub(crate) fn mentions_experts(&self) -> bool {
        self.mentions_experts
    }

    /// Whether some pattern covers the module `name`.
    pub(crate) fn covers(&self, name: &str) -> bool {
        if self.is_empty() {
            return false;
        }
        match self.dialect {
            Dialect::ModuleGlob => self.covers_segments(name),
            Dialect::CompressedTensors => {
                self.exact.contains(name) || self.regexes.iter().any(|r| r.matches_start(name))
            }
            Dialect::Substring => self.plain.iter().any(|p| name.contains(p.as_str())),
            Dialect::ModelOpt => {
                self.plain.iter().any(|p| name.contains(p.as_str()))
                    || self.globs.iter().any(|g| wildcard(g, name))
            }
        }
    }

    /// Any run of whole segments of `name` equal to an exact pattern or
    /// matching a wildcard one.
    fn covers_segments(&self, name: &str) -> bool {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(name.match_indices('.').map(|(i, _)| i + 1))
            .collect();
        let end_of = |k: usize| starts.get(k + 1).map_or(name.len(), |next| next - 1);
        (0..starts.len()).any(|a| {
            (a..starts.len()).any(|b| {
                let run = &name[starts[a]..end_of(b)];
                self.exact.contains(run) || self.globs.iter().any(|g| wildcard(g, run))
            })
        })
    }
}

/// `fnmatch`-style match of the whole `text`: `*` any run of bytes (dots
/// included), `?` any one byte, `[...]` one byte of a set.
pub(crate) fn wildcard(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while ti < t.len() {
        let step = match p.get(pi) {
            Some(b'?') => Some(1),
            Some(b'[') => class_at(p, pi, t[ti]).or((t[ti] == b'[').then_some(1)),
            Some(c) if *c == t[ti] && *c != b'*' => Some(1),
            _ => None,
        };
        if let Some(len) = step.filter(|len| *len > 0) {
            pi += len;
            ti += 1;
        } else if p.get(pi) == Some(&b'*') {
            resume = Some((pi, ti));
            pi += 1;
        } else if let Some((star, matched)) = resume {
            pi = star + 1;
            ti = matched + 1;
            resume = Some((star, matched + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == b'*')
}

/// The length of the `[...]` class at `at` when it admits `byte`, `Some(0)`
/// when it does not, `None` when unterminated (then `[` is a literal).
fn class_at(p: &[u8], at: usize, byte: u8) -> Option<usize> {
    let close = p[at + 1..].iter().position(|c| *c == b']')? + at + 1;
    let body = &p[at + 1..close];
    let (negate, body) = match body.first() {
        Some(b'!') => (true, &body[1..]),
        _ => (false, body),
    };
    let mut hit = false;
    let mut i = 0;
    while i < body.len() {
        if i + 2 < body.len() && body[i + 1] == b'-' {
            hit |= (body[i]..=body[i + 2]).contains(&byte);
            i += 3;
        } else {
            hit |= body[i] == byte;
            i += 1;
        }
    }
    Some(if hit != negate { close + 1 - at } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covers(dialect: Dialect, patterns: &[&str], name: &str) -> bool {
        let list: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        Patterns::new(dialect, &list, "k").unwrap().covers(name)
    }

    #[test]
    fn module_globs_match_whole_segments() {
        let g = Dialect::ModuleGlob;
        assert!(covers(g, &["lm_head"], "lm_head"));
        assert!(covers(g, &["lm_head"], "language_model.lm_head"));
        assert!(covers(
            g,
            &["model.layers.*.self_attn"],
            "model.layers.7.self_attn.q_proj"
        ));
        assert!(covers(
            g,
            &["model.layers.1.mlp.gate"],
            "model.layers.1.mlp.gate"
        ));
        assert!(!covers(
            g,
            &["model.layers.1.mlp.gate"],
            "model.layers.1.mlp.gate_proj"
        ));
        assert!(!covers(
            g,
            &["model.layers.1.mlp.gate"],
            "model.layers.10.mlp.gate"
        ));
        assert!(!covers(
            g,
            &["model.layers.*.self_attn"],
            "model.layers.1.mlp.experts.0.down_proj"
        ));
        assert!(covers(g, &["*.mlp.gate"], "model.layers.4.mlp.gate"));
        assert!(covers(
            g,
            &["vision_tower"],
            "vision_tower.vision_model.encoder.layers.0.mlp.fc1"
        ));
        assert!(!covers(g, &[], "lm_head"));
    }

    #[test]
    fn compressed_tensors_names_and_regexes() {
        let c = Dialect::CompressedTensors;
        assert!(covers(c, &["lm_head"], "lm_head"));
        assert!(!covers(c, &["lm_head"], "language_model.lm_head"));
        assert!(covers(c, &["re:.*lm_head"], "language_model.lm_head"));
        assert!(covers(c, &["re:.*mlp.gate$"], "model.layers.0.mlp.gate"));
        assert!(!covers(
            c,
            &["re:.*mlp.gate$"],
            "model.layers.0.mlp.gate_proj"
        ));
        assert!(covers(
            c,
            &["re:vision_tower.*"],
            "vision_tower.transformer.layers.0.attention.q_proj"
        ));
        assert!(!covers(
            c,
            &["re:vision_tower.*"],
            "model.vision_tower.transformer"
        ));
        let bad = Patterns::new(c, &["re:(?=x)".to_string()], "quantization_config.ignore");
        assert!(bad.is_err());
    }

    #[test]
    fn awq_and_modelopt_use_substrings() {
        assert!(covers(
            Dialect::Substring,
            &["gate"],
            "model.layers.0.block_sparse_moe.gate"
        ));
        assert!(covers(
            Dialect::Substring,
            &["visual"],
            "visual.blocks.0.attn.qkv"
        ));
        assert!(covers(
            Dialect::ModelOpt,
            &["lm_head"],
            "language_model.lm_head"
        ));
        assert!(covers(
            Dialect::ModelOpt,
            &["model.layers.0.self_attn*"],
            "model.layers.0.self_attn.q_proj"
        ));
        assert!(covers(
            Dialect::ModelOpt,
            &["*mlp.gate"],
            "model.layers.3.mlp.gate"
        ));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*", "anything.at.all"));
        assert!(wildcard("q_*", "q_proj"));
        assert!(wildcard("?_proj", "q_proj"));
        assert!(!wildcard("k_*", "q_proj"));
        assert!(wildcard("a*b*c", "aXXbYYc"));
        assert!(!wildcard("a*b*c", "aXXbYY"));
        assert!(wildcard("layers.[0-3].mlp", "layers.2.mlp"));
        assert!(!wildcard("layers.[!0-3].mlp", "layers.2.mlp"));
    }
}
