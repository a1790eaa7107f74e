//! Module-name patterns that keep modules out of (or bring them into) a
//! quantized format, read the way the library that wrote the checkpoint
//! reads them.

use super::automaton::{Automaton, Token, Union};
use super::regex::{self, ByteSet, Node};
use crate::model::error::ConfigError;
use serde::Serialize;

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

/// One list, checked and turned into token sequences.
///
/// Every dialect is written as sequences whose match on a *prefix* of a
/// name means the name is covered:
///
/// | dialect | pattern | sequence |
/// |---|---|---|
/// | compressed-tensors | `name` | `name` then end of name |
/// | compressed-tensors | `re:R` | `R` (as `re.match`) |
/// | module glob | `g` (glob or name) | `(.*\.)?` `g` `(\.` or end`)` |
/// | substring | `s` | `.*` `s` |
/// | ModelOpt | `s` (no `*?[`) | `.*` `s` |
/// | ModelOpt | glob `g` | `g` then end of name |
/// | prefix (any) | module `m` | `m` `(\.` or end`)` |
///
/// where `.*` is any run of bytes (newline included) and a glob's `*` is
/// any run of bytes, `?` any byte, `[...]` a class.
#[derive(Debug)]
pub(crate) struct Patterns {
    pub(super) dialect: Dialect,
    /// The list as written, in order; its regular expressions parse.
    pub(super) list: Vec<String>,
    /// Modules that cover themselves and everything under them (a
    /// group's `"prefix:<module>"` targets).
    pub(super) prefixes: Vec<String>,
}

impl Patterns {
    /// Checks `patterns` (their regular expressions parse); `key` names
    /// the config key for errors.
    pub(crate) fn check(
        dialect: Dialect,
        patterns: &[String],
        key: &str,
    ) -> Result<(), ConfigError> {
        if dialect != Dialect::CompressedTensors {
            return Ok(());
        }
        for pattern in patterns {
            if let Some(Err(why)) = pattern.strip_prefix("re:").map(regex::parse) {
                return Err(ConfigError::unsupported(format!(
                    "{key}: pattern `{pattern}` is outside the regular expressions vramfit reads ({why})"
                )));
            }
        }
        Ok(())
    }

    /// A checked list ([`Patterns::check`]).
    pub(crate) fn new(
        dialect: Dialect,
        patterns: &[String],
        key: &str,
    ) -> Result<Self, ConfigError> {
        Patterns::check(dialect, patterns, key)?;
        Ok(Patterns {
            dialect,
            list: patterns.to_vec(),
            prefixes: Vec::new(),
        })
    }

    /// The list with `prefixes`: modules covering themselves and
    /// everything under them (`name` or `name.…`).
    pub(crate) fn with_prefixes(mut self, prefixes: Vec<String>) -> Self {
        self.prefixes = prefixes;
        self
    }

    /// An empty list.
    pub(crate) fn none(dialect: Dialect) -> Self {
        Patterns {
            dialect,
            list: Vec::new(),
            prefixes: Vec::new(),
        }
    }

    /// Whether some pattern could tell one expert from another, so experts
    /// must be named one by one: a pattern mentions experts, or a prefix
    /// lies inside them.
    pub(crate) fn mentions_experts(&self) -> bool {
        self.list
            .iter()
            .any(|p| p.contains("expert") || [".w1", ".w2", ".w3"].iter().any(|w| p.contains(w)))
            || self.prefixes.iter().any(|p| p.contains("experts."))
    }

    /// The automaton of the whole list (see the table above).
    pub(crate) fn automaton(&self) -> Automaton {
        let mut union = Union::new();
        let any = union.token(Node::Class(Box::new(ByteSet::all())));
        let any_run = union.token(any_run_node());
        let end = union.token(Node::End);
        let segment_start = union.token(Node::Alt(vec![
            Node::Empty,
            Node::Concat(vec![any_run_node(), Node::Byte(b'.')]),
        ]));
        let segment_end = union.token(Node::Alt(vec![Node::Byte(b'.'), Node::End]));
        let mut tokens = Vec::new();
        for pattern in &self.list {
            tokens.clear();
            let bytes = pattern.bytes().map(Token::Byte);
            let glob = is_glob(pattern);
            let glob_tokens = |union: &mut Union, tokens: &mut Vec<Token>| {
                tokens.extend(glob_tokens(pattern).map(|t| match t {
                    GlobToken::Byte(b) => Token::Byte(b),
                    GlobToken::Any => any,
                    GlobToken::AnyRun => any_run,
                    GlobToken::Class(set) => union.token(Node::Class(set)),
                }))
            };
            match self.dialect {
                Dialect::CompressedTensors => match pattern.strip_prefix("re:") {
                    // Parses: checked by `new`.
                    Some(re) => match regex::parse(re) {
                        Ok(node) => tokens.extend(flatten(node).map(|n| union.token(n))),
                        Err(_) => continue,
                    },
                    None => tokens.extend(bytes.chain([end])),
                },
                Dialect::ModuleGlob => {
                    tokens.push(segment_start);
                    glob_tokens(&mut union, &mut tokens);
                    tokens.push(segment_end);
                }
                Dialect::ModelOpt if glob => {
                    glob_tokens(&mut union, &mut tokens);
                    tokens.push(end);
                }
                Dialect::ModelOpt | Dialect::Substring => {
                    tokens.extend(std::iter::once(any_run).chain(bytes))
                }
            }
            union.add(&mut tokens);
        }
        for prefix in &self.prefixes {
            tokens.clear();
            tokens.extend(prefix.bytes().map(Token::Byte));
            tokens.push(segment_end);
            union.add(&mut tokens);
        }
        Automaton::new(&union)
    }
}

/// `*` of a glob: any run of bytes.
fn any_run_node() -> Node {
    Node::Repeat {
        node: Box::new(Node::Class(Box::new(ByteSet::all()))),
        min: 0,
        max: None,
    }
}

/// A regular expression as a sequence of tokens (nested concatenations
/// flattened, so that patterns sharing a start share instructions).
fn flatten(node: Node) -> impl Iterator<Item = Node> {
    let mut stack = vec![node];
    std::iter::from_fn(move || loop {
        match stack.pop()? {
            Node::Concat(items) => stack.extend(items.into_iter().rev()),
            Node::Empty => {}
            other => return Some(other),
        }
    })
}

/// A pattern with wildcards (`*`, `?`, `[`), read as `fnmatch` by the
/// dialects that have both.
fn is_glob(pattern: &str) -> bool {
    pattern.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// One token of an `fnmatch` pattern.
enum GlobToken {
    Byte(u8),
    /// `?`
    Any,
    /// `*`
    AnyRun,
    /// `[...]`
    Class(Box<ByteSet>),
}

/// The tokens of an `fnmatch` pattern, as the reference `wildcard` reads
/// it: `*` any run of bytes, `?` any byte, `[...]` one byte of the class
/// (a `[` without `]` is a literal), anything else itself.
fn glob_tokens(pattern: &str) -> impl Iterator<Item = GlobToken> + '_ {
    let p = pattern.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        let byte = *p.get(at)?;
        at += 1;
        Some(match byte {
            b'*' => GlobToken::AnyRun,
            b'?' => GlobToken::Any,
            b'[' => match p[at..].iter().position(|c| *c == b']') {
                Some(close) => {
                    let mut set = ByteSet::empty();
                    for b in 0..=255u8 {
                        set.0[b as usize] = class_at(p, at - 1, b).is_some_and(|len| len > 0);
                    }
                    at += close + 1;
                    GlobToken::Class(Box::new(set))
                }
                None => GlobToken::Byte(b'['),
            },
            other => GlobToken::Byte(other),
        })
    })
}

/// `fnmatch`-style match of the whole `text`: `*` any run of bytes (dots
/// included), `?` any one byte, `[...]` one byte of a set. The reference
/// [`glob_tokens`] is tested against.
#[cfg(test)]
pub(super) fn wildcard(pattern: &str, text: &str) -> bool {
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

    /// The list's automaton on `name`, checked against the reference
    /// matcher.
    fn covers(dialect: Dialect, patterns: &[&str], name: &str) -> bool {
        let list: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        let p = Patterns::new(dialect, &list, "k").unwrap();
        let fast = p.automaton().covers(name);
        assert_eq!(fast, super::super::reference::Matcher::new(&p).covers(name));
        fast
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
