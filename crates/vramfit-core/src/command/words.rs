//! A command line as a shell splits it into words: spaces separate,
//! single quotes keep everything, double quotes keep everything but `\`
//! escapes, a backslash before a newline joins two lines (the way engine
//! commands are pasted from a README).

use super::CommandError;

/// The words of `text`, or why it cannot be split (an unclosed quote).
///
/// ```
/// use vramfit_core::command::words;
/// assert_eq!(
///     words("vllm serve 'my model' \\\n  --max-model-len \"8192\"").unwrap(),
///     ["vllm", "serve", "my model", "--max-model-len", "8192"]
/// );
/// ```
pub fn words(text: &str) -> Result<Vec<String>, CommandError> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => out.extend(word.take()),
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => word.get_or_insert_with(String::new).push(next),
            },
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => w.push(ch),
                        None => return Err(CommandError::UnclosedQuote),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch) => w.push(ch),
                            None => return Err(CommandError::UnclosedQuote),
                        },
                        Some(ch) => w.push(ch),
                        None => return Err(CommandError::UnclosedQuote),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    Ok(out)
}
