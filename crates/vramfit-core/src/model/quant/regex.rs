//! The subset of Python's `re` that quantization configs use to name
//! modules (`"re:.*mlp.gate$"`, `"re:vision_tower.*"`,
//! `"re:model\.layers\.\d+\.self_attn\..*"`), matched as `re.match` does:
//! anchored at the start, not at the end unless the pattern says `$`.
//!
//! Supported: literals, `.`, escapes (`\d \w \s \D \W \S` and escaped
//! punctuation), classes `[...]` / `[^...]` with ranges, groups `(...)`,
//! `(?:...)`, `(?P<name>...)`, alternation `|`, quantifiers `* + ? {m}
//! {m,} {m,n}` (lazy forms match the same strings), anchors `^ $`.
//! Anything else (look-around, back-references) is refused, so a config
//! using it is refused rather than misread.
//!
//! A pattern parses to a [`Node`] tree and compiles to a Thompson automaton
//! ([`Inst`]); [`super::automaton`] runs the automata of a whole list at
//! once, in time linear in the name: no backtracking, no stack growth
//! with the input.
//!
//! Why not the `regex-lite` crate (or `regex`): the selection needs more
//! than a yes or no per name. It runs one automaton for a whole list in
//! four dialects (these regular expressions, `fnmatch` globs, substrings,
//! segment runs), shares the list's common prefixes, and reads the
//! automaton's state after a name's prefix to tell which of hundreds of
//! experts a list singles out without naming each one; the crates expose
//! matches, not states. It is also smaller: in the app's release wasm
//! (`cargo build --release --target wasm32-unknown-unknown -p
//! vramfit-app`, custom sections stripped, before wasm-opt), putting
//! `regex-lite` 0.1.9 in place of this engine under the previous per-name
//! matcher added 41,250 bytes (15,417 gzipped), while this engine with the
//! list automata ([`super::automaton`]) adds 7,098 bytes (3,154 gzipped)
//! to that previous matcher. Correctness: the automata are tested against
//! the per-name reference on every catalog config and on random lists
//! (`equivalence.rs`), and the core keeps to serde and serde_json.

/// One instruction of a Thompson automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Inst {
    Byte(u8),
    /// Any byte but a newline (`.`).
    Any,
    Class(Box<ByteSet>),
    Split(usize, usize),
    Jump(usize),
    Start,
    End,
    Match,
}

/// 256 flags: the bytes a class admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ByteSet(pub(super) [bool; 256]);

impl ByteSet {
    pub(super) fn empty() -> Self {
        ByteSet([false; 256])
    }
    /// Every byte (a glob's `?`, and `*` repeated).
    pub(super) fn all() -> Self {
        ByteSet([true; 256])
    }
    fn add_range(&mut self, low: u8, high: u8) {
        for b in low..=high {
            self.0[b as usize] = true;
        }
    }
    fn add(&mut self, other: &ByteSet) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a |= *b;
        }
    }
    fn negate(&mut self) {
        for a in self.0.iter_mut() {
            *a = !*a;
        }
    }
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Node {
    Empty,
    Byte(u8),
    Any,
    Class(Box<ByteSet>),
    Start,
    End,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// Largest repetition count written out (`{m,n}` copies its operand).
const MAX_REPEAT: u32 = 100;

/// Parses `pattern`, or says why it is not in the supported subset.
pub(super) fn parse(pattern: &str) -> Result<Node, String> {
    let mut parser = Parser {
        bytes: pattern.as_bytes(),
        at: 0,
    };
    let node = parser.alternation()?;
    if parser.at != parser.bytes.len() {
        return Err(format!("unbalanced ')' at byte {}", parser.at));
    }
    Ok(node)
}

/// A pattern compiled on its own and matched thread by thread: the
/// reference the list automata are tested against, and the matcher of
/// llama.cpp's `--override-tensor` patterns (`methods::llamacpp::overrides`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Regex {
    program: Vec<Inst>,
}

impl Regex {
    /// Compiles `pattern`, or says why it is not in the supported subset.
    pub(crate) fn new(pattern: &str) -> Result<Regex, String> {
        let mut program = Vec::new();
        compile(&parse(pattern)?, &mut program);
        program.push(Inst::Match);
        Ok(Regex { program })
    }

    /// Whether the pattern matches a prefix of `text` (Python `re.match`).
    pub(crate) fn matches_start(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut current = vec![false; self.program.len()];
        let mut next = vec![false; self.program.len()];
        if self.add(&mut current, 0, 0, bytes.len()) {
            return true;
        }
        for (i, &b) in bytes.iter().enumerate() {
            next.iter_mut().for_each(|x| *x = false);
            let mut any = false;
            for (pc, live) in current.iter().enumerate() {
                if !live {
                    continue;
                }
                let step = match &self.program[pc] {
                    Inst::Byte(c) => *c == b,
                    Inst::Any => b != b'\n',
                    Inst::Class(set) => set.0[b as usize],
                    _ => false,
                };
                if step {
                    any = true;
                    if self.add(&mut next, pc + 1, i + 1, bytes.len()) {
                        return true;
                    }
                }
            }
            if !any {
                return false;
            }
            std::mem::swap(&mut current, &mut next);
        }
        false
    }

    /// Adds `pc` and its ε-closure at position `at`; true when `Match`
    /// is reached.
    fn add(&self, set: &mut [bool], pc: usize, at: usize, len: usize) -> bool {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if pc >= set.len() || set[pc] {
                continue;
            }
            set[pc] = true;
            match &self.program[pc] {
                Inst::Match => return true,
                Inst::Jump(to) => stack.push(*to),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Start if at == 0 => stack.push(pc + 1),
                Inst::End if at == len => stack.push(pc + 1),
                _ => {}
            }
        }
        false
    }
}

/// Appends the instructions of `node` to `out`.
pub(super) fn compile(node: &Node, out: &mut Vec<Inst>) {
    match node {
        Node::Empty => {}
        Node::Byte(b) => out.push(Inst::Byte(*b)),
        Node::Any => out.push(Inst::Any),
        Node::Class(set) => out.push(Inst::Class(set.clone())),
        Node::Start => out.push(Inst::Start),
        Node::End => out.push(Inst::End),
        Node::Concat(nodes) => nodes.iter().for_each(|n| compile(n, out)),
        Node::Alt(nodes) => {
            let mut jumps = Vec::new();
            for (i, n) in nodes.iter().enumerate() {
                if i + 1 < nodes.len() {
                    let split = out.len();
                    out.push(Inst::Split(split + 1, 0));
                    compile(n, out);
                    jumps.push(out.len());
                    out.push(Inst::Jump(0));
                    let after = out.len();
                    out[split] = Inst::Split(split + 1, after);
                } else {
                    compile(n, out);
                }
            }
            let end = out.len();
            for j in jumps {
                out[j] = Inst::Jump(end);
            }
        }
        Node::Repeat { node, min, max } => {
            for _ in 0..*min {
                compile(node, out);
            }
            match max {
                None => {
                    // L: split body, out; body; jump L
                    let split = out.len();
                    out.push(Inst::Split(split + 1, 0));
                    compile(node, out);
                    out.push(Inst::Jump(split));
                    let end = out.len();
                    out[split] = Inst::Split(split + 1, end);
                }
                Some(max) => {
                    let mut splits = Vec::new();
                    for _ in *min..*max {
                        splits.push(out.len());
                        out.push(Inst::Split(0, 0));
                        compile(node, out);
                    }
                    let end = out.len();
                    for s in splits {
                        out[s] = Inst::Split(s + 1, end);
                    }
                }
            }
        }
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn alternation(&mut self) -> Result<Node, String> {
        let mut branches = vec![self.concatenation()?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            branches.push(self.concatenation()?);
        }
        Ok(match branches.len() {
            1 => branches.pop().unwrap_or(Node::Empty),
            _ => Node::Alt(branches),
        })
    }

    fn concatenation(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(b) = self.peek() {
            if b == b'|' || b == b')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some(b'*') => (0, None),
            Some(b'+') => (1, None),
            Some(b'?') => (0, Some(1)),
            Some(b'{') => match self.counted()? {
                Some(range) => range,
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        self.at += 1; // past `*`, `+`, `?` or the closing `}`
        if self.peek() == Some(b'?') {
            self.at += 1; // lazy: same set of matches
        }
        if matches!(atom, Node::Start | Node::End) {
            return Err("quantified anchor".to_string());
        }
        if max.is_some_and(|m| m < min) || min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
            return Err(format!("repetition {{{min},{max:?}}} out of range"));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        })
    }

    /// `{m}`, `{m,}`, `{m,n}`; leaves `at` on the closing brace. A brace
    /// that does not start a count is a literal, as in Python.
    fn counted(&mut self) -> Result<Option<(u32, Option<u32>)>, String> {
        let rest = &self.bytes[self.at..];
        let Some(close) = rest.iter().position(|b| *b == b'}') else {
            return Ok(None);
        };
        let inner = std::str::from_utf8(&rest[1..close]).map_err(|e| e.to_string())?;
        let number = |s: &str| s.parse::<u32>().ok();
        let range = match inner.split_once(',') {
            None => number(inner).map(|m| (m, Some(m))),
            Some((a, "")) => number(a).map(|m| (m, None)),
            Some((a, b)) => number(a).zip(number(b)).map(|(m, n)| (m, Some(n))),
        };
        if range.is_some() {
            self.at += close;
        }
        Ok(range)
    }

    fn atom(&mut self) -> Result<Node, String> {
        let Some(b) = self.peek() else {
            return Err("pattern ends early".to_string());
        };
        self.at += 1;
        Ok(match b {
            b'.' => Node::Any,
            b'^' => Node::Start,
            b'$' => Node::End,
            b'(' => {
                if self.peek() == Some(b'?') {
                    self.group_prefix()?;
                }
                let inner = self.alternation()?;
                if self.peek() != Some(b')') {
                    return Err("unclosed '('".to_string());
                }
                self.at += 1;
                inner
            }
            b'[' => Node::Class(Box::new(self.class()?)),
            b'\\' => self.escape()?,
            b'*' | b'+' | b'?' => return Err("nothing to repeat".to_string()),
            b'{' => Node::Byte(b'{'),
            other => Node::Byte(other),
        })
    }

    /// `(?:` and `(?P<name>`; everything else after `(?` is refused.
    fn group_prefix(&mut self) -> Result<(), String> {
        let rest = &self.bytes[self.at..];
        if rest.starts_with(b"?:") {
            self.at += 2;
            return Ok(());
        }
        if rest.starts_with(b"?P<") {
            if let Some(end) = rest.iter().position(|b| *b == b'>') {
                self.at += end + 1;
                return Ok(());
            }
        }
        Err("group syntax '(?...' other than (?: or (?P<name> is not supported".to_string())
    }

    fn escape(&mut self) -> Result<Node, String> {
        let Some(b) = self.peek() else {
            return Err("pattern ends after '\\'".to_string());
        };
        self.at += 1;
        if let Some(set) = class_escape(b) {
            return Ok(Node::Class(Box::new(set)));
        }
        match b {
            b'n' => Ok(Node::Byte(b'\n')),
            b't' => Ok(Node::Byte(b'\t')),
            b'A' => Ok(Node::Start),
            b'Z' | b'z' => Ok(Node::End),
            c if c.is_ascii_alphanumeric() => {
                Err(format!("escape '\\{}' is not supported", c as char))
            }
            c => Ok(Node::Byte(c)),
        }
    }

    fn class(&mut self) -> Result<ByteSet, String> {
        let mut set = ByteSet::empty();
        let negated = self.peek() == Some(b'^');
        if negated {
            self.at += 1;
        }
        let mut first = true;
        loop {
            let Some(b) = self.peek() else {
                return Err("unclosed '['".to_string());
            };
            self.at += 1;
            if b == b']' && !first {
                break;
            }
            first = false;
            let low = if b == b'\\' {
                let Some(e) = self.peek() else {
                    return Err("unclosed '['".to_string());
                };
                self.at += 1;
                if let Some(s) = class_escape(e) {
                    set.add(&s);
                    continue;
                }
                e
            } else {
                b
            };
            let is_range = self.peek() == Some(b'-')
                && self.bytes.get(self.at + 1).is_some_and(|c| *c != b']');
            if is_range {
                self.at += 1;
                let mut high = self.bytes[self.at];
                self.at += 1;
                if high == b'\\' {
                    high = *self.bytes.get(self.at).ok_or("unclosed '['")?;
                    self.at += 1;
                }
                if high < low {
                    return Err("bad range in class".to_string());
                }
                set.add_range(low, high);
            } else {
                set.add_range(low, low);
            }
        }
        if negated {
            set.negate();
        }
        Ok(set)
    }
}

/// `\d \w \s` and their negations.
fn class_escape(b: u8) -> Option<ByteSet> {
    let mut set = ByteSet::empty();
    match b.to_ascii_lowercase() {
        b'd' => set.add_range(b'0', b'9'),
        b'w' => {
            set.add_range(b'0', b'9');
            set.add_range(b'a', b'z');
            set.add_range(b'A', b'Z');
            set.add_range(b'_', b'_');
        }
        b's' => {
            for c in [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c] {
                set.add_range(c, c);
            }
        }
        _ => return None,
    }
    if b.is_ascii_uppercase() {
        set.negate();
    }
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::Regex;

    fn m(pattern: &str, text: &str) -> bool {
        Regex::new(pattern).unwrap().matches_start(text)
    }

    #[test]
    fn anchored_at_start_like_re_match() {
        assert!(m("vision_tower.*", "vision_tower.encoder.layers.0"));
        assert!(!m("vision_tower.*", "model.vision_tower.encoder"));
        assert!(m(".*vision_tower.*", "model.vision_tower.encoder"));
        assert!(m("lm_head", "lm_head.extra"));
    }

    #[test]
    fn dollar_anchors_the_end() {
        assert!(m(".*mlp.gate$", "model.layers.3.mlp.gate"));
        assert!(!m(".*mlp.gate$", "model.layers.3.mlp.gate_proj"));
        assert!(m(".*mlp.gate", "model.layers.3.mlp.gate_proj"));
    }

    #[test]
    fn classes_groups_and_counts() {
        assert!(m(
            r"model\.layers\.\d+\.self_attn\..*",
            "model.layers.12.self_attn.q_proj"
        ));
        assert!(!m(
            r"model\.layers\.\d+\.self_attn",
            "model.layersX12.self_attn"
        ));
        assert!(m(r".*\.(q|k|v)_proj$", "a.b.k_proj"));
        assert!(!m(r".*\.(q|k|v)_proj$", "a.b.o_proj"));
        assert!(m(
            r".*mlp\.(gate|up|gate_up|down)_proj.*",
            "x.mlp.gate_up_proj"
        ));
        assert!(m(r"layers\.[0-3]\.", "layers.2.mlp"));
        assert!(!m(r"layers\.[^0-3]\.", "layers.2.mlp"));
        assert!(m(r"a{2,3}b", "aab"));
        assert!(!m(r"a{2,3}b", "ab"));
        assert!(m(r"(?:ab)+c", "ababc"));
        assert!(m(r"(?P<x>a|b)c", "bc"));
        assert!(m("a{x", "a{x"));
    }

    #[test]
    fn unsupported_syntax_is_refused() {
        assert!(Regex::new("(?=x)").is_err());
        assert!(Regex::new(r"(a)\1").is_err());
        assert!(Regex::new("(a").is_err());
        assert!(Regex::new("a)").is_err());
        assert!(Regex::new("*a").is_err());
        assert!(Regex::new("[a").is_err());
    }

    #[test]
    fn no_blow_up_on_nested_stars() {
        let long = "a".repeat(5_000);
        assert!(!m("(a*)*b", &long));
    }
}
