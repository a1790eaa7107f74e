//! One automaton per pattern list, run over module names without
//! backtracking and without naming every expert.
//!
//! A list is a union of token sequences ([`Union`]); sequences that begin
//! alike share their instructions (a trie), so that a list of hundreds of
//! names such as `model.layers.17.mlp.gate` keeps a handful of live
//! threads, not one per pattern. A name is *covered* when the automaton
//! reaches `Match` on a prefix of it (every dialect is written so that a
//! prefix match means a match, see [`super::pattern`]).
//!
//! The automaton runs as a lazy DFA: a state is the set of live threads,
//! made when first reached and kept with the transitions taken from it.
//!
//! # Experts without naming each one
//!
//! The spellings of expert `e` of a tensor are `before + e + after`
//! (`model.layers.3.mlp.experts.` · `17` · `.gate_proj`). Whether a list
//! covers that name depends on `e` only through the state reached after
//! `before + e`: two experts that reach the same state are covered alike.
//! [`Automaton::covered`] walks the decimal index digit by digit (the
//! state of `e` is one step from the state of `e / 10`), runs `after` once
//! per distinct state, and keeps the answer for that `before` state, so
//! the 60 layers of a model whose list does not single out layers pay for
//! it once. Exact: the answer for each expert is the automaton's answer on
//! its full name.
//!
//! Measured in a release build (median of 21 runs, shared 2-core
//! machine): Kimi-K2.5 (384 experts × 60 layers, four compressed-tensors
//! patterns) 1.9 s → 0.6 ms; Qwen3.5-397B-A17B-NVFP4 (512 experts × 60
//! layers, 184 ModelOpt patterns) 1.4 s → 1.4 ms; all 158 catalog configs
//! about 4.3 s → 28 ms (`docs/quantization.md`, "Matching speed").

use super::regex::{compile, Inst, Node};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One token of a sequence: a byte, or a node of [`Union::nodes`] (a
/// class, a repetition, an anchor, a group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token {
    Byte(u8),
    Node(u32),
}

/// The sequences of one list, merged on common prefixes.
pub(super) struct Union {
    /// The distinct non-byte tokens.
    nodes: Vec<Node>,
    /// Node 0 is the root.
    trie: Vec<TrieNode>,
}

/// No node (the end of a list of children).
const NONE: u32 = u32::MAX;

struct TrieNode {
    /// The token that leads here from the parent.
    token: Token,
    /// The first child and the next sibling.
    first: u32,
    next: u32,
    /// A sequence ends here: whatever follows is covered.
    terminal: bool,
}

impl Union {
    pub(super) fn new() -> Self {
        Union {
            nodes: Vec::new(),
            trie: vec![TrieNode {
                token: Token::Byte(0),
                first: NONE,
                next: NONE,
                terminal: false,
            }],
        }
    }

    /// The token of `node` (a byte stays a byte, equal nodes one token).
    pub(super) fn token(&mut self, node: Node) -> Token {
        if let Node::Byte(b) = node {
            return Token::Byte(b);
        }
        let index = match self.nodes.iter().position(|n| *n == node) {
            Some(i) => i,
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        };
        Token::Node(index as u32)
    }

    /// Adds one sequence (a name is covered when a prefix of it matches
    /// the whole sequence).
    pub(super) fn add(&mut self, tokens: &mut Vec<Token>) {
        self.trim_tail(tokens);
        let mut at = 0;
        for &token in tokens.iter() {
            if self.trie[at].terminal {
                return; // a prefix of this sequence covers already
            }
            let mut child = self.trie[at].first;
            while child != NONE && self.trie[child as usize].token != token {
                child = self.trie[child as usize].next;
            }
            if child == NONE {
                child = self.trie.len() as u32;
                self.trie.push(TrieNode {
                    token,
                    first: NONE,
                    next: self.trie[at].first,
                    terminal: false,
                });
                self.trie[at].first = child;
            }
            at = child as usize;
        }
        self.trie[at].terminal = true;
        self.trie[at].first = NONE;
    }

    /// Drops what cannot change whether a prefix matches: a trailing
    /// repetition that may match nothing (`x*`), and a trailing `.*$` over
    /// every byte (a glob's final `*`).
    fn trim_tail(&self, tokens: &mut Vec<Token>) {
        let node = |t: &Token| match t {
            Token::Node(i) => self.nodes.get(*i as usize),
            Token::Byte(_) => None,
        };
        loop {
            match tokens.as_slice() {
                [.., last] if matches!(node(last), Some(Node::Repeat { min: 0, .. })) => {
                    tokens.pop();
                }
                [.., run, end]
                    if node(end) == Some(&Node::End)
                        && matches!(node(run), Some(Node::Repeat { node, min: 0, max: None })
                            if matches!(node.as_ref(), Node::Class(set) if set.0.iter().all(|b| *b))) =>
                {
                    tokens.truncate(tokens.len() - 2);
                }
                _ => return,
            }
        }
    }

    /// The program: at each trie node a chain of splits, one branch per
    /// child, a leaf `Match`. Written without recursion on the depth of
    /// the trie (a pattern may be long).
    fn program(&self) -> Vec<Inst> {
        enum Task {
            /// The code of a node: `Match`, or its children.
            Node(u32),
            /// The branch to `child` and then its later siblings; `split`
            /// is the split that reaches it, patched to point here.
            Branch { child: u32, split: Option<usize> },
        }
        let mut out = Vec::with_capacity(self.trie.len() * 2);
        let mut tasks = vec![Task::Node(0)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Node(n) => match &self.trie[n as usize] {
                    node if node.terminal => out.push(Inst::Match),
                    // An empty list: no instruction, nothing matches.
                    node if node.first == NONE => {}
                    node => tasks.push(Task::Branch {
                        child: node.first,
                        split: None,
                    }),
                },
                Task::Branch { child, split } => {
                    if let Some(s) = split {
                        out[s] = Inst::Split(s + 1, out.len());
                    }
                    let node = &self.trie[child as usize];
                    if node.next != NONE {
                        let s = out.len();
                        out.push(Inst::Split(s + 1, s + 1));
                        tasks.push(Task::Branch {
                            child: node.next,
                            split: Some(s),
                        });
                    }
                    match node.token {
                        Token::Byte(b) => out.push(Inst::Byte(b)),
                        Token::Node(i) => compile(&self.nodes[i as usize], &mut out),
                    }
                    tasks.push(Task::Node(child));
                }
            }
        }
        out
    }
}

/// Splits the bytes into classes that every instruction of `program`
/// treats alike (a byte it names, a class it tests, the newline `.`
/// leaves out), so that a state keeps one transition per class.
fn byte_classes(program: &[Inst]) -> ([u8; 256], usize) {
    // `cut[b]`: byte `b` starts a new class.
    let mut cut = [false; 257];
    let mark = |cut: &mut [bool; 257], b: u8| {
        cut[usize::from(b)] = true;
        cut[usize::from(b) + 1] = true;
    };
    for inst in program {
        match inst {
            Inst::Byte(b) => mark(&mut cut, *b),
            Inst::Any => mark(&mut cut, b'\n'),
            Inst::Class(set) => {
                for (b, pair) in set.0.windows(2).enumerate() {
                    cut[b + 1] |= pair[0] != pair[1];
                }
            }
            _ => {}
        }
    }
    let mut class = [0u8; 256];
    let mut id = 0usize;
    for b in 1..256 {
        id += usize::from(cut[b]);
        class[b] = id as u8;
    }
    (class, id + 1)
}

/// A fast hash for the automaton's maps (FxHash's mixing step): the keys
/// are short and not chosen by an adversary that could gain anything.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        // The multiplication mixes upwards; bring the mixed bits down to
        // where the table takes its bucket from.
        self.0.rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|b| self.add(u64::from(*b)));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// No thread left: nothing can match.
const DEAD: u32 = 0;
/// `Match` reached: everything that follows is covered.
const MATCHED: u32 = 1;

struct State {
    /// The live threads, `threads[from..to]` of the automaton: instructions
    /// that consume a byte, and `End` assertions waiting for the end of
    /// the name. Sorted.
    from: usize,
    to: usize,
    /// The previous state whose threads hash alike.
    same_hash: u32,
    /// Whether the name may end here (`None`: not asked yet).
    accepts_end: Option<bool>,
}

/// The experts `0..count` covered after state `from`, each named
/// `… + e + after`.
struct Experts {
    from: u32,
    count: u64,
    after: String,
    bits: Vec<u64>,
    /// The previous entry whose key hashes alike.
    same_hash: u32,
}

/// A list's automaton, its states made as names reach them.
pub(super) struct Automaton {
    program: Vec<Inst>,
    /// The class of each byte: bytes of one class step every instruction
    /// alike.
    class: [u8; 256],
    classes: usize,
    states: Vec<State>,
    /// Transitions taken so far: `next[state × classes + class]`, `NONE`
    /// when not yet taken.
    next: Vec<u32>,
    /// The threads of every state, one after the other.
    threads: Vec<u32>,
    /// Hash of a state's threads → the last state made with that hash.
    index: FxMap<u64, u32>,
    start: u32,
    /// Expert sets already computed, and their hash → the last one made
    /// with that hash.
    experts: Vec<Experts>,
    experts_index: FxMap<u64, u32>,
    // Scratch space of the closure.
    seen: Vec<u32>,
    generation: u32,
    stack: Vec<usize>,
    found: Vec<u32>,
}

impl Automaton {
    pub(super) fn new(union: &Union) -> Self {
        let program = union.program();
        let placeholder = || State {
            from: 0,
            to: 0,
            same_hash: NONE,
            accepts_end: None,
        };
        let (class, classes) = byte_classes(&program);
        let mut a = Automaton {
            seen: vec![0; program.len()],
            program,
            class,
            classes,
            states: vec![placeholder(), placeholder()],
            next: vec![NONE; 2 * classes],
            threads: Vec::new(),
            index: FxMap::default(),
            start: DEAD,
            experts: Vec::new(),
            experts_index: FxMap::default(),
            generation: 0,
            stack: Vec::new(),
            found: Vec::new(),
        };
        a.states[DEAD as usize].accepts_end = Some(false);
        a.states[MATCHED as usize].accepts_end = Some(true);
        a.stack.push(0);
        let matched = a.closure(true, false);
        a.start = a.intern(matched);
        a
    }

    /// Whether the list covers `name`.
    pub(super) fn covers(&mut self, name: &str) -> bool {
        let state = self.run(self.start, name.as_bytes());
        self.accepts_end(state, name.is_empty())
    }

    /// Which of experts `0..count` the list covers, each named
    /// `before + e + after`: bit `e % 64` of word `e / 64`.
    pub(super) fn covered(&mut self, before: &str, after: &str, count: u64) -> Vec<u64> {
        let from = self.run(self.start, before.as_bytes());
        let mut hash = Fx::default();
        hash.write_u32(from);
        hash.write_u64(count);
        hash.write(after.as_bytes());
        let hash = hash.finish();
        let mut id = self.experts_index.get(&hash).copied().unwrap_or(NONE);
        while let Some(known) = self.experts.get(id as usize) {
            if (known.from, known.count, known.after.as_str()) == (from, count, after) {
                return known.bits.clone();
            }
            id = known.same_hash;
        }
        let mut reached: Vec<u32> = Vec::with_capacity(count as usize);
        for e in 0..count {
            let base = match e {
                0..=9 => from,
                _ => reached.get((e / 10) as usize).copied().unwrap_or(DEAD),
            };
            reached.push(self.next(base, b'0' + (e % 10) as u8));
        }
        // Per state reached: 0 not yet run, 1 not covered, 2 covered.
        let mut verdicts: Vec<u8> = Vec::new();
        let mut bits = vec![0u64; count.div_ceil(64) as usize];
        for (e, state) in reached.into_iter().enumerate() {
            let slot = state as usize;
            if verdicts.len() <= slot {
                verdicts.resize(slot + 1, 0);
            }
            if verdicts[slot] == 0 {
                let end = self.run(state, after.as_bytes());
                verdicts[slot] = 1 + u8::from(self.accepts_end(end, false));
            }
            if let (2, Some(word)) = (verdicts[slot], bits.get_mut(e / 64)) {
                *word |= 1 << (e % 64);
            }
        }
        let id = self.experts.len() as u32;
        self.experts.push(Experts {
            from,
            count,
            after: after.to_string(),
            bits: bits.clone(),
            same_hash: self.experts_index.insert(hash, id).unwrap_or(NONE),
        });
        bits
    }

    fn run(&mut self, mut state: u32, bytes: &[u8]) -> u32 {
        for &b in bytes {
            if state == DEAD || state == MATCHED {
                break;
            }
            state = self.next(state, b);
        }
        state
    }

    /// The state after `byte`.
    fn next(&mut self, state: u32, byte: u8) -> u32 {
        if state == DEAD || state == MATCHED {
            return state;
        }
        let slot = state as usize * self.classes + usize::from(self.class[usize::from(byte)]);
        match self.next.get(slot) {
            Some(&to) if to != NONE => return to,
            _ => {}
        }
        let s = &self.states[state as usize];
        for &pc in &self.threads[s.from..s.to] {
            let step = match &self.program[pc as usize] {
                Inst::Byte(c) => *c == byte,
                Inst::Any => byte != b'\n',
                Inst::Class(set) => set.0[byte as usize],
                _ => false,
            };
            if step {
                self.stack.push(pc as usize + 1);
            }
        }
        let matched = self.closure(false, false);
        let to = self.intern(matched);
        if let Some(t) = self.next.get_mut(slot) {
            *t = to;
        }
        to
    }

    /// Whether a name may end in `state` (`at_start`: the name is empty).
    fn accepts_end(&mut self, state: u32, at_start: bool) -> bool {
        match state {
            DEAD => return false,
            MATCHED => return true,
            _ => {}
        }
        if let (Some(v), false) = (self.states[state as usize].accepts_end, at_start) {
            return v;
        }
        let s = &self.states[state as usize];
        for &pc in &self.threads[s.from..s.to] {
            if self.program[pc as usize] == Inst::End {
                self.stack.push(pc as usize + 1);
            }
        }
        let v = self.closure(at_start, true);
        if !at_start {
            self.states[state as usize].accepts_end = Some(v);
        }
        v
    }

    /// Follows splits, jumps and assertions from the instructions on the
    /// stack into `found`; true when `Match` is reached.
    fn closure(&mut self, at_start: bool, at_end: bool) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
        self.found.clear();
        while let Some(pc) = self.stack.pop() {
            let Some(inst) = self.program.get(pc) else {
                continue;
            };
            if self.seen[pc] == self.generation {
                continue;
            }
            self.seen[pc] = self.generation;
            match inst {
                Inst::Match => {
                    self.stack.clear();
                    return true;
                }
                Inst::Jump(to) => self.stack.push(*to),
                Inst::Split(a, b) => {
                    self.stack.push(*b);
                    self.stack.push(*a);
                }
                Inst::Start if at_start => self.stack.push(pc + 1),
                Inst::Start => {}
                Inst::End if at_end => self.stack.push(pc + 1),
                Inst::End | Inst::Byte(_) | Inst::Any | Inst::Class(_) => {
                    // Kept sorted as it grows (a few threads; a sort
                    // routine would cost more code than it saves).
                    let pc = pc as u32;
                    let at = self.found.partition_point(|x| *x < pc);
                    self.found.insert(at, pc);
                }
            }
        }
        false
    }

    /// The state of the threads in `found` (or `MATCHED`).
    fn intern(&mut self, matched: bool) -> u32 {
        if matched {
            return MATCHED;
        }
        if self.found.is_empty() {
            return DEAD;
        }
        let mut hash = Fx::default();
        self.found.iter().for_each(|pc| hash.write_u32(*pc));
        let hash = hash.finish();
        let mut id = self.index.get(&hash).copied().unwrap_or(NONE);
        while id != NONE {
            let s = &self.states[id as usize];
            if self.threads[s.from..s.to] == self.found[..] {
                return id;
            }
            id = s.same_hash;
        }
        let id = self.states.len() as u32;
        let from = self.threads.len();
        self.threads.extend_from_slice(&self.found);
        self.states.push(State {
            from,
            to: self.threads.len(),
            same_hash: self.index.insert(hash, id).unwrap_or(NONE),
            accepts_end: None,
        });
        self.next.resize(self.states.len() * self.classes, NONE);
        id
    }
}
