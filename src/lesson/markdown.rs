//! A small, safe reader of the project's Markdown (the methodology pages
//! in `docs/`), for the lesson to show them. It understands what those
//! pages use — ATX headings, paragraphs, `-`/`1.` lists, `>` quotes, fenced
//! code, pipe tables, and inline code, `**bold**`, `*italic*` and links —
//! and builds text nodes only: no HTML in the source is ever interpreted
//! (it shows as text), so the page's Content-Security-Policy and the DOM
//! stay as they are.
//!
//! Links are sorted by where they point: another methodology page (shown
//! in the lesson itself), the web (`https://…`), or anything else, such as
//! a file of the repository, which a reader in a browser cannot open and
//! which is therefore shown as plain text.

/// One block of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// `#` to `######`, with its level.
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    /// Items, ordered or not.
    List {
        ordered: bool,
        items: Vec<Vec<Inline>>,
    },
    /// `>` lines, as paragraphs.
    Quote(Vec<Vec<Inline>>),
    /// A fenced block, verbatim.
    Code(String),
    /// A header row and body rows.
    Table {
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
}

/// A run of text inside a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(Vec<Inline>),
    Emphasis(Vec<Inline>),
    Link { text: Vec<Inline>, target: Target },
}

/// Where a link points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Another page of the methodology, by its file name (`"range.md"`).
    Page(String),
    /// An address on the web.
    Web(String),
    /// Anything else (a file of the repository): not followed.
    None,
}

fn target(url: &str) -> Target {
    let url = url.trim();
    if url.starts_with("https://") || url.starts_with("http://") {
        return Target::Web(url.to_string());
    }
    let path = url.split('#').next().unwrap_or("");
    match path.rsplit('/').next() {
        Some(file) if file.ends_with(".md") && !path.contains("..") => {
            Target::Page(file.to_string())
        }
        _ => Target::None,
    }
}

/// The blocks of a Markdown text.
pub fn parse(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            i += 1;
        } else if trimmed.starts_with("```") {
            let mut code = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                code.push(lines[i]);
                i += 1;
            }
            i += 1;
            blocks.push(Block::Code(code.join("\n")));
        } else if let Some((level, rest)) = heading(trimmed) {
            blocks.push(Block::Heading(level, inline(rest)));
            i += 1;
        } else if trimmed.starts_with('|') {
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].trim_start().starts_with('|') {
                rows.push(lines[i].trim());
                i += 1;
            }
            blocks.push(table(&rows));
        } else if trimmed.starts_with('>') {
            let mut paragraphs: Vec<Vec<String>> = vec![Vec::new()];
            while i < lines.len() && lines[i].trim_start().starts_with('>') {
                let content = lines[i].trim_start()[1..].trim();
                if content.is_empty() {
                    paragraphs.push(Vec::new());
                } else if let Some(last) = paragraphs.last_mut() {
                    last.push(content.to_string());
                }
                i += 1;
            }
            blocks.push(Block::Quote(
                paragraphs
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .map(|p| inline(&p.join(" ")))
                    .collect(),
            ));
        } else if let Some((ordered, _)) = item(trimmed) {
            let mut items: Vec<String> = Vec::new();
            while i < lines.len() {
                let l = lines[i];
                let t = l.trim_start();
                if t.is_empty() {
                    // A blank line ends the list unless an item follows.
                    match lines.get(i + 1).map(|n| item(n.trim_start())) {
                        Some(Some((o, _))) if o == ordered => {
                            i += 1;
                            continue;
                        }
                        _ => break,
                    }
                }
                match item(t) {
                    Some((o, rest)) if o == ordered && l.len() - t.len() < 2 => {
                        items.push(rest.to_string())
                    }
                    _ if l.starts_with(' ') && !items.is_empty() => {
                        // A continuation (or a nested item), joined to the item.
                        if let Some(last) = items.last_mut() {
                            last.push(' ');
                            last.push_str(t);
                        }
                    }
                    _ => break,
                }
                i += 1;
            }
            blocks.push(Block::List {
                ordered,
                items: items.iter().map(|t| inline(t)).collect(),
            });
        } else {
            let mut text = Vec::new();
            while i < lines.len() {
                let t = lines[i].trim_start();
                if t.is_empty()
                    || t.starts_with("```")
                    || heading(t).is_some()
                    || t.starts_with('|')
                    || t.starts_with('>')
                    || (item(t).is_some() && !text.is_empty() && is_list_start(t))
                {
                    break;
                }
                text.push(lines[i].trim());
                i += 1;
            }
            blocks.push(Block::Paragraph(inline(&text.join(" "))));
        }
    }
    blocks
}

/// A list marker that starts a list inside a paragraph's lines (`- `
/// only: a number followed by a dot may be part of a sentence).
fn is_list_start(t: &str) -> bool {
    t.starts_with("- ") || t.starts_with("* ")
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&level) && line[level..].starts_with(' ') {
        Some((level as u8, line[level..].trim()))
    } else {
        None
    }
}

/// A list item's marker: `- `, `* ` or `N. `.
fn item(line: &str) -> Option<(bool, &str)> {
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(". ") {
        return Some((true, &line[digits + 2..]));
    }
    None
}

fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut in_code = false;
    for c in inner.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                cell.push(c);
            }
            '|' if !in_code => out.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    out.push(cell.trim().to_string());
    out
}

fn table(rows: &[&str]) -> Block {
    let is_rule = |r: &str| {
        cells(r)
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
    };
    let mut head = Vec::new();
    let mut body = Vec::new();
    for (n, row) in rows.iter().enumerate() {
        if n == 1 && is_rule(row) {
            continue;
        }
        let parsed: Vec<Vec<Inline>> = cells(row).iter().map(|c| inline(c)).collect();
        if n == 0 {
            head = parsed;
        } else {
            body.push(parsed);
        }
    }
    Block::Table { head, rows: body }
}

/// The inline runs of a block's text.
pub fn inline(text: &str) -> Vec<Inline> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut i = 0;
    let flush = |plain: &mut String, out: &mut Vec<Inline>| {
        if !plain.is_empty() {
            out.push(Inline::Text(std::mem::take(plain)));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            if let Some(end) = find(&chars, i + 1, &['`']) {
                flush(&mut plain, &mut out);
                out.push(Inline::Code(chars[i + 1..end].iter().collect()));
                i = end + 1;
                continue;
            }
        } else if c == '*' && chars.get(i + 1) == Some(&'*') {
            if let Some(end) = find(&chars, i + 2, &['*', '*']) {
                flush(&mut plain, &mut out);
                let inner: String = chars[i + 2..end].iter().collect();
                out.push(Inline::Strong(inline(&inner)));
                i = end + 2;
                continue;
            }
        } else if c == '*' && chars.get(i + 1).is_some_and(|n| !n.is_whitespace()) {
            if let Some(end) = find(&chars, i + 1, &['*']) {
                flush(&mut plain, &mut out);
                let inner: String = chars[i + 1..end].iter().collect();
                out.push(Inline::Emphasis(inline(&inner)));
                i = end + 1;
                continue;
            }
        } else if c == '[' {
            if let Some(close) = find(&chars, i + 1, &[']']) {
                if chars.get(close + 1) == Some(&'(') {
                    if let Some(end) = find(&chars, close + 2, &[')']) {
                        flush(&mut plain, &mut out);
                        let label: String = chars[i + 1..close].iter().collect();
                        let url: String = chars[close + 2..end].iter().collect();
                        out.push(Inline::Link {
                            text: inline(&label),
                            target: target(&url),
                        });
                        i = end + 1;
                        continue;
                    }
                }
            }
        }
        plain.push(c);
        i += 1;
    }
    flush(&mut plain, &mut out);
    out
}

/// The index where `pattern` next starts at or after `from`.
fn find(chars: &[char], from: usize, pattern: &[char]) -> Option<usize> {
    (from..chars.len().saturating_sub(pattern.len() - 1))
        .find(|&j| chars[j..j + pattern.len()] == *pattern)
}

/// The plain text of inline runs (for tests and for search).
pub fn plain_text(runs: &[Inline]) -> String {
    runs.iter()
        .map(|r| match r {
            Inline::Text(t) | Inline::Code(t) => t.clone(),
            Inline::Strong(inner) | Inline::Emphasis(inner) => plain_text(inner),
            Inline::Link { text, .. } => plain_text(text),
        })
        .collect()
}
