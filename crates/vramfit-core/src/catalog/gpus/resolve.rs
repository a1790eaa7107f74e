//! Name resolution over a list of GPUs (see the module documentation of
//! [`super`]).

use super::Gpu;
use crate::catalog::fuzzy;
use crate::catalog::NotFound;

/// Words that say who makes or brands a card, not which card it is.
const NOISE_WORDS: [&str; 10] = [
    "nvidia", "geforce", "amd", "instinct", "radeon", "intel", "arc", "apple", "tesla", "gpu",
];

/// Words that qualify a variant and may be left out of a query.
const QUALIFIER_WORDS: [&str; 15] = [
    "rtx",
    "rx",
    "sxm",
    "sxm2",
    "sxm3",
    "sxm4",
    "sxm5",
    "sxm6",
    "pcie",
    "nvl",
    "generation",
    "edition",
    "server",
    "workstation",
    "blackwell",
];

/// Words of `text` without the vendor and brand words.
pub(super) fn meaningful_words(text: &str) -> Vec<String> {
    fuzzy::words(text)
        .into_iter()
        .filter(|w| !NOISE_WORDS.contains(&w.as_str()))
        .collect()
}

/// `text` with every parenthesised part blanked out.
pub(super) fn outside_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .map(|c| match c {
            '(' => {
                depth += 1;
                ' '
            }
            ')' => {
                depth = depth.saturating_sub(1);
                ' '
            }
            _ if depth > 0 => ' ',
            _ => c,
        })
        .collect()
}

/// Runs of letters or of digits: `h100` → `h`, `100`; `80gb` → `80`, `gb`.
pub(super) fn atoms(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut previous_numeric: Option<bool> = None;
    for c in word.chars() {
        let numeric = c.is_numeric();
        match out.last_mut() {
            Some(last) if previous_numeric == Some(numeric) => last.push(c),
            _ => out.push(c.to_string()),
        }
        previous_numeric = Some(numeric);
    }
    out
}

/// A memory size such as `80gb` or `1tb`.
pub(super) fn is_memory_size(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_alphabetic());
    let unit = &word[digits.len()..];
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && matches!(unit, "gb" | "tb")
}

pub(super) fn is_qualifier(word: &str) -> bool {
    QUALIFIER_WORDS.contains(&word) || is_memory_size(word)
}

/// Whether every element of `needles` can be paired with a distinct equal
/// element of `haystack` (multiset inclusion).
pub(super) fn contains_all(haystack: &[String], needles: &[String]) -> bool {
    let mut unused: Vec<&str> = haystack.iter().map(String::as_str).collect();
    needles
        .iter()
        .all(|n| match unused.iter().position(|h| *h == n.as_str()) {
            Some(i) => {
                unused.swap_remove(i);
                true
            }
            None => false,
        })
}

/// What resolution compares of one catalog name.
pub(super) struct NameKeys {
    /// Key of the whole name, vendor words dropped.
    pub(super) full_key: String,
    /// Key of the name outside parentheses, vendor words dropped.
    base_key: String,
    /// Atoms of the whole name.
    atoms: Vec<String>,
    /// Atoms of the name outside parentheses, qualifiers dropped.
    identity: Vec<String>,
    /// Whether the name says SXM anywhere.
    sxm: bool,
}

impl NameKeys {
    pub(super) fn of(name: &str) -> NameKeys {
        let all_words = meaningful_words(name);
        let base_words = meaningful_words(&outside_parentheses(name));
        NameKeys {
            full_key: all_words.concat(),
            base_key: base_words.concat(),
            atoms: all_words.iter().flat_map(|w| atoms(w)).collect(),
            identity: base_words
                .iter()
                .filter(|w| !is_qualifier(w))
                .flat_map(|w| atoms(w))
                .collect(),
            sxm: all_words.iter().any(|w| w.starts_with("sxm")),
        }
    }
}

/// Resolution over any list (the tests use small ones).
pub(super) fn resolve<'a>(gpus: &'a [Gpu], query: &str) -> Result<&'a Gpu, NotFound> {
    let query_words = meaningful_words(query);
    let query_key = query_words.concat();
    let not_found = |suggestions: Vec<String>| NotFound {
        query: query.to_string(),
        suggestions,
    };
    if query_key.is_empty() {
        return Err(not_found(Vec::new()));
    }
    let keys: Vec<NameKeys> = gpus.iter().map(|g| NameKeys::of(&g.name)).collect();

    // 1. Exact key, with or without the parenthesised part.
    let exact: Vec<usize> = (0..gpus.len())
        .filter(|&i| keys[i].full_key == query_key || keys[i].base_key == query_key)
        .collect();
    if let [only] = exact[..] {
        return Ok(&gpus[only]);
    }

    // 2. Tokens: query atoms ⊆ name atoms, name identity ⊆ query atoms.
    let matches: Vec<usize> = if exact.is_empty() {
        let query_atoms: Vec<String> = query_words.iter().flat_map(|w| atoms(w)).collect();
        (0..gpus.len())
            .filter(|&i| {
                contains_all(&keys[i].atoms, &query_atoms)
                    && contains_all(&query_atoms, &keys[i].identity)
            })
            .collect()
    } else {
        exact
    };

    match matches[..] {
        [] => {
            // 4. A miss: close names by edit distance.
            let cleaned = query_words.join(" ");
            Err(not_found(fuzzy::suggest(
                &cleaned,
                gpus.iter().map(|g| g.name.as_str()),
            )))
        }
        [only] => Ok(&gpus[only]),
        _ => {
            // 3. Variants of one chip: SXM first, then the most memory.
            let first_identity = &keys[matches[0]].identity;
            if matches.iter().all(|&i| &keys[i].identity == first_identity) {
                let rank = |i: usize| (keys[i].sxm, gpus[i].memory_bytes);
                let best = matches.iter().map(|&i| rank(i)).max();
                let top: Vec<usize> = matches
                    .iter()
                    .copied()
                    .filter(|&i| Some(rank(i)) == best)
                    .collect();
                if let [only] = top[..] {
                    return Ok(&gpus[only]);
                }
            }
            // 4. Ambiguous: offer the matches, closest first.
            let mut ordered: Vec<(usize, usize)> = matches
                .iter()
                .map(|&i| {
                    let d = fuzzy::window_distance(&query_key, &gpus[i].name, usize::MAX)
                        .unwrap_or(usize::MAX);
                    (d, i)
                })
                .collect();
            ordered.sort_unstable();
            Err(not_found(
                ordered
                    .into_iter()
                    .take(fuzzy::MAX_SUGGESTIONS)
                    .map(|(_, i)| gpus[i].name.clone())
                    .collect(),
            ))
        }
    }
}
