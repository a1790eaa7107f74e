//! Small, generic fuzzy matching: edit distance and "did you mean"
//! suggestions for any catalog of names (GPUs today, models later).
//!
//! Matching is done on *keys*: lowercase alphanumeric text with every
//! separator removed, so `"RTX 4090"`, `"rtx-4090"` and `"rtx4090"` are the
//! same key. A candidate is compared not only as a whole but through each
//! contiguous run of its words (its *windows*), so that a short query is
//! not penalised for the vendor prefix or the qualifiers of a long name:
//! `"rtx 4909"` is at distance 2 from the window `"RTX 4090"` of
//! `"NVIDIA GeForce RTX 4090"`.

/// The most suggestions any lookup returns.
pub const MAX_SUGGESTIONS: usize = 3;

/// The words of `text`: maximal runs of alphanumeric characters, lowercased.
///
/// ```
/// use vramfit_core::catalog::fuzzy::words;
/// assert_eq!(words("NVIDIA A100-80GB (SXM4)"), ["nvidia", "a100", "80gb", "sxm4"]);
/// ```
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The key of `text`: its [`words`] joined with nothing in between.
///
/// ```
/// use vramfit_core::catalog::fuzzy::key;
/// assert_eq!(key(" RTX-4090 "), "rtx4090");
/// ```
pub fn key(text: &str) -> String {
    words(text).concat()
}

/// Levenshtein distance between `a` and `b`, counted in characters: the
/// fewest single-character insertions, deletions and substitutions that
/// turn one into the other.
///
/// Two rows of `min(|a|, |b|) + 1` counters; time `|a| × |b|`.
///
/// ```
/// use vramfit_core::catalog::fuzzy::levenshtein;
/// assert_eq!(levenshtein("kitten", "sitting"), 3);
/// assert_eq!(levenshtein("rtx4909", "rtx4090"), 2);
/// assert_eq!(levenshtein("", "abc"), 3);
/// ```
pub fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Iterate over the longer string, keep rows as long as the shorter one.
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut previous: Vec<usize> = (0..=short.len()).collect();
    let mut current = vec![0usize; short.len() + 1];
    for (i, lc) in long.iter().enumerate() {
        current[0] = i + 1;
        for (j, sc) in short.iter().enumerate() {
            let substitution = previous[j] + usize::from(lc != sc);
            let deletion = previous[j + 1] + 1;
            let insertion = current[j] + 1;
            current[j + 1] = substitution.min(deletion).min(insertion);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[short.len()]
}

/// The largest distance a suggestion may be from a query key of
/// `query_chars` characters: one edit per three characters, at least one.
pub const fn max_distance(query_chars: usize) -> usize {
    let d = query_chars / 3;
    if d == 0 {
        1
    } else {
        d
    }
}

/// Distance from a query key to a candidate: the smallest
/// [`levenshtein`] distance between `query_key` and the key of any
/// contiguous run of the candidate's words.
///
/// Windows whose length differs from the query's by more than `limit`
/// characters cannot be within `limit` and are skipped, so a very long
/// query costs no more than a short one. Returns `None` when no window is
/// within `limit`.
///
/// ```
/// use vramfit_core::catalog::fuzzy::window_distance;
/// assert_eq!(window_distance("rtx4909", "NVIDIA GeForce RTX 4090", 2), Some(2));
/// assert_eq!(window_distance("h100", "NVIDIA H100 SXM5", 2), Some(0));
/// assert_eq!(window_distance("gaudi", "NVIDIA H100 SXM5", 2), None);
/// ```
pub fn window_distance(query_key: &str, candidate: &str, limit: usize) -> Option<usize> {
    let query_len = query_key.chars().count();
    let candidate_words = words(candidate);
    let mut best: Option<usize> = None;
    for start in 0..candidate_words.len() {
        let mut window = String::new();
        for word in &candidate_words[start..] {
            window.push_str(word);
            let window_len = window.chars().count();
            if window_len > query_len.saturating_add(limit) {
                break;
            }
            if window_len.saturating_add(limit) < query_len {
                continue;
            }
            let d = levenshtein(query_key, &window);
            if d <= limit && best.is_none_or(|b| d < b) {
                best = Some(d);
            }
        }
    }
    best
}

/// Ranks `candidates` by closeness to `query`, closest first, keeping those
/// within [`max_distance`] of the query's key.
///
/// Order: window distance, then distance to the whole candidate key, then
/// the candidates' own order. Each entry is `(distance, candidate)`.
pub fn rank<'a, I>(query: &str, candidates: I) -> Vec<(usize, &'a str)>
where
    I: IntoIterator<Item = &'a str>,
{
    let query_key = key(query);
    if query_key.is_empty() {
        return Vec::new();
    }
    let limit = max_distance(query_key.chars().count());
    let mut ranked: Vec<(usize, usize, usize, &'a str)> = candidates
        .into_iter()
        .enumerate()
        .filter_map(|(index, candidate)| {
            window_distance(&query_key, candidate, limit).map(|d| {
                let whole = levenshtein(&query_key, &key(candidate));
                (d, whole, index, candidate)
            })
        })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().map(|(d, _, _, c)| (d, c)).collect()
}

/// Up to [`MAX_SUGGESTIONS`] candidates close to `query`, closest first
/// (see [`rank`]); empty when nothing is close.
///
/// ```
/// use vramfit_core::catalog::fuzzy::suggest;
/// let names = ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090", "AMD Instinct MI300X"];
/// assert_eq!(suggest("RTX 4909", names), ["NVIDIA GeForce RTX 4090"]);
/// assert_eq!(suggest("mi300", names), ["AMD Instinct MI300X"]);
/// assert!(suggest("toaster", names).is_empty());
/// ```
pub fn suggest<'a, I>(query: &str, candidates: I) -> Vec<String>
where
    I: IntoIterator<Item = &'a str>,
{
    rank(query, candidates)
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levenshtein_golden() {
        assert_eq!(levenshtein("", ""), 0);
        assert_eq!(levenshtein("abc", "abc"), 0);
        assert_eq!(levenshtein("abc", ""), 3);
        assert_eq!(levenshtein("flaw", "lawn"), 2);
        assert_eq!(levenshtein("saturday", "sunday"), 3);
        // Symmetric.
        assert_eq!(levenshtein("sunday", "saturday"), 3);
        // Counted in characters, not bytes.
        assert_eq!(levenshtein("función", "funcion"), 1);
    }

    #[test]
    fn key_ignores_case_and_separators() {
        assert_eq!(key("H100 SXM5"), key("h100-sxm5"));
        assert_eq!(key("A100_80GB"), "a10080gb");
        assert_eq!(key("  --  "), "");
    }

    #[test]
    fn max_distance_grows_with_length() {
        assert_eq!(max_distance(0), 1);
        assert_eq!(max_distance(2), 1);
        assert_eq!(max_distance(7), 2);
        assert_eq!(max_distance(30), 10);
    }

    #[test]
    fn suggestions_are_capped_and_ordered() {
        let names = [
            "Model A1",
            "Model A2",
            "Model A3",
            "Model A4",
            "Something else",
        ];
        let got = suggest("model a3", names);
        assert_eq!(got.len(), MAX_SUGGESTIONS);
        assert_eq!(got[0], "Model A3");
        // Ties keep the candidates' order.
        assert_eq!(got[1..], ["Model A1", "Model A2"]);
    }

    #[test]
    fn empty_or_huge_queries_are_harmless() {
        assert!(suggest("", ["anything"]).is_empty());
        assert!(suggest("---", ["anything"]).is_empty());
        let huge = "x".repeat(100_000);
        assert!(suggest(&huge, ["NVIDIA GeForce RTX 4090"]).is_empty());
    }
}
