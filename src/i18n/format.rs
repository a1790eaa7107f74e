//! Numbers written for a language. Pure functions: the values (bytes,
//! percentages) come from the core; only their spelling is decided here.
//!
//! Digits are written from integers ([`fixed`], [`shortest`]; bytes exactly,
//! [`bytes`]), never with the standard library's float printing, which the
//! first load then does without (docs/size.md).

use vramfit_core::units::{Bytes, DisplayUnit};

/// How a language writes numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberStyle {
    /// Decimal separator.
    pub decimal: char,
    /// Thousands separator.
    pub group: char,
    /// Integer parts with fewer digits are not grouped (Spanish leaves
    /// four-digit numbers whole: 8192, but 32 768).
    pub min_group_digits: usize,
    /// Between a number and `%` (`"78,3 %"` in Spanish, `"78.3%"` in English).
    pub percent_sep: &'static str,
}

/// `value` with `decimals` decimals, grouped, in `style`.
///
/// Non-finite values (which validated input cannot produce) read `—`.
pub fn decimal(style: &NumberStyle, value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".to_string();
    }
    let digits = fixed(value, decimals);
    let negative = value < 0.0 && digits.chars().any(|c| c.is_ascii_digit() && c != '0');
    let sign = if negative { "-" } else { "" };
    format!("{sign}{}", with_decimals(style, &digits))
}

/// A number with as many decimals as it needs, up to three (`"0,25"`,
/// `"100 000"`): limits and values in messages.
pub fn plain(style: &NumberStyle, value: f64) -> String {
    if value.fract() == 0.0 {
        decimal(style, value, 0)
    } else {
        decimal(style, value, 3).trim_end_matches('0').to_string()
    }
}

/// A whole number, grouped.
pub fn integer(style: &NumberStyle, n: u64) -> String {
    group(style, &n.to_string())
}

/// Bytes in `unit` with two decimals and the unit label (`"18,78 GB"`),
/// rounded from the exact integer (half up).
pub fn bytes(style: &NumberStyle, unit: DisplayUnit, bytes: Bytes) -> String {
    let per_unit = Bytes::from_unit(1.0, unit).get().max(1) as u128;
    let hundredths = (u128::from(bytes.get()) * 100 + per_unit / 2) / per_unit;
    format!(
        "{} {}",
        with_decimals(style, &with_point(hundredths, 2)),
        unit.label()
    )
}

/// A signed difference in `unit` (`"+0,78 GB"`, `"−1,20 GiB"`); what
/// rounds to zero at two decimals reads `"±0,00 GB"`, never `"−0,00 GB"`.
pub fn signed_bytes(style: &NumberStyle, unit: DisplayUnit, difference: i64) -> String {
    let magnitude = Bytes(difference.unsigned_abs()).in_unit(unit);
    let sign = match difference.signum() {
        _ if rounds_to_zero(unit, difference) => "±",
        1 => "+",
        _ => "−",
    };
    format!("{sign}{} {}", decimal(style, magnitude, 2), unit.label())
}

/// Whether a difference of `difference` bytes reads 0,00 in `unit` (two
/// decimals): too small to call it above or below.
pub fn rounds_to_zero(unit: DisplayUnit, difference: i64) -> bool {
    let magnitude = Bytes(difference.unsigned_abs()).in_unit(unit);
    format!("{magnitude:.2}")
        .chars()
        .all(|c| c == '0' || c == '.')
}

/// A signed percentage with one decimal (`"+4,2 %"`, `"−4.2%"`); no sign
/// on what rounds to zero.
pub fn signed_percent(style: &NumberStyle, value: f64) -> String {
    let sign = if value.abs() < 0.05 {
        ""
    } else if value > 0.0 {
        "+"
    } else {
        "−"
    };
    format!(
        "{sign}{}{}%",
        decimal(style, value.abs(), 1),
        style.percent_sep
    )
}

/// A non-negative amount a person typed in this language (`18,8`, `18.8`,
/// ` 18 `), or `None`.
pub fn parse_amount(style: &NumberStyle, text: &str) -> Option<f64> {
    let value: f64 = normalize_input(style, text)
        .replace(',', ".")
        .parse()
        .ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// A percentage already rounded by the core (`78.3`, `125`): one decimal
/// when it has one, none otherwise.
pub fn percent(style: &NumberStyle, pct: f64) -> String {
    let decimals = if pct.fract() == 0.0 { 0 } else { 1 };
    format!("{}{}%", decimal(style, pct, decimals), style.percent_sep)
}

/// The largest percentage the ring writes inside itself.
pub const RING_PERCENT_MAX: f64 = 999.0;

/// A percentage for the inside of the ring, which has room for three
/// digits: above [`RING_PERCENT_MAX`], `"> 999 %"` and the exact figure
/// to write beside the ring.
pub fn ring_percent(style: &NumberStyle, pct: f64) -> (String, Option<String>) {
    if pct > RING_PERCENT_MAX {
        let cap = decimal(style, RING_PERCENT_MAX, 0);
        (
            format!("> {cap}{}%", style.percent_sep),
            Some(percent(style, pct)),
        )
    } else {
        (percent(style, pct), None)
    }
}

/// A field's value as a person would type it: no grouping, no trailing
/// zeros, the language's decimal separator (`"0,5"`).
pub fn input_value(style: &NumberStyle, value: f64) -> String {
    let text = if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        shortest(value)
    };
    text.replace('.', &style.decimal.to_string())
}

/// Most decimals a field shows before it rounds: a value typed by hand
/// (`0.95`, `4.85`) shows as typed; one that came from a catalog or a
/// config (`85.520809984` GB, the H100's driver total) rounds.
const FIELD_DECIMALS: usize = 4;

/// A field's value for reading: [`input_value`] when that has at most
/// [`FIELD_DECIMALS`] decimals, else rounded to four significant digits
/// with at least two decimals and no trailing zeros (`85.520809984` →
/// `"85,52"`, `8.030261248` → `"8,03"`, `0.124439808` → `"0,1244"`), with
/// the exact text beside it for a tooltip. The field's value itself stays
/// exact until the person types.
pub fn input_value_brief(style: &NumberStyle, value: f64) -> (String, Option<String>) {
    let exact = input_value(style, value);
    let (int, frac) = exact.split_once(style.decimal).unwrap_or((&exact, ""));
    if frac.len() <= FIELD_DECIMALS {
        return (exact, None);
    }
    // Four significant digits: after the integer's digits, or after the
    // zeros that follow the point.
    let int = int.trim_start_matches('-');
    let keep = match int {
        "0" => frac.len() - frac.trim_start_matches('0').len() + 4,
        _ => 4usize.saturating_sub(int.len()).max(2),
    };
    let sign = if value < 0.0 { "-" } else { "" };
    let short = fixed(value, keep);
    let short = short.trim_end_matches('0').trim_end_matches('.');
    let short = format!("{sign}{short}").replace('.', &style.decimal.to_string());
    (short, Some(exact))
}

/// `|value|` rounded to `decimals` decimals, as ASCII digits with a `.`
/// and no grouping (`fixed(18.781, 2)` is `"18.78"`): `|value| × 10^decimals`
/// rounded half away from zero, written as an integer. Values past 10³⁸
/// (which no validated input reaches) and non-finite ones read `—`.
pub fn fixed(value: f64, decimals: usize) -> String {
    let scaled = (value.abs() * 10f64.powi(decimals as i32)).round();
    if !scaled.is_finite() || scaled >= 1e38 {
        return "—".to_string();
    }
    with_point(scaled as u128, decimals)
}

/// The shortest [`fixed`] text of `value` (with a `-` when negative) that
/// reads back as the same number, up to 17 decimals: what `{}` prints for
/// ordinary numbers (`0.5`, `78.3`, `125`), written from integers.
pub fn shortest(value: f64) -> String {
    let sign = if value < 0.0 { "-" } else { "" };
    let text = (0..=17)
        .map(|decimals| fixed(value, decimals))
        .find(|text| text.parse::<f64>() == Ok(value.abs()))
        .unwrap_or_else(|| fixed(value, 17));
    format!("{sign}{text}")
}

/// `n` with a `.` before its last `decimals` digits (`with_point(1878, 2)`
/// is `"18.78"`, `with_point(5, 2)` is `"0.05"`).
fn with_point(n: u128, decimals: usize) -> String {
    let digits = n.to_string();
    if decimals == 0 {
        return digits;
    }
    let digits = format!("{digits:0>width$}", width = decimals + 1);
    let (int, frac) = digits.split_at(digits.len() - decimals);
    format!("{int}.{frac}")
}

/// ASCII `int.frac` digits written in `style`: grouped, with its decimal
/// separator.
fn with_decimals(style: &NumberStyle, digits: &str) -> String {
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let mut out = group(style, int);
    if !frac.is_empty() {
        out.push(style.decimal);
        out.push_str(frac);
    }
    out
}

/// Typed text made ready for the core's parser (which reads `.` or `,` as
/// the decimal separator): spaces and this language's thousands separators
/// are dropped, so `"32 768"`, `"32,768"` (English) and `"1.000.000"`
/// (Dutch) all read as whole numbers. A single `.` in Spanish or Dutch stays
/// a decimal point, as people type it on an English keyboard.
pub fn normalize_input(style: &NumberStyle, text: &str) -> String {
    let compact: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | '\''))
        .collect();
    let separator = style.group;
    if separator == ' ' || separator == '\u{202f}' {
        return compact;
    }
    let groups: Vec<&str> = compact
        .split(style.decimal)
        .next()
        .unwrap_or("")
        .split(separator)
        .collect();
    let grouped = groups.len() > 1
        && groups[0].len() <= 3
        && !groups[0].is_empty()
        && groups[0].chars().all(|c| c.is_ascii_digit() || c == '-')
        && groups[1..]
            .iter()
            .all(|g| g.len() == 3 && g.chars().all(|c| c.is_ascii_digit()));
    // "1,5" in English or "0.5" in Dutch is a decimal, not a group: only a
    // group separator used as one (2+ groups, or 1 group before a decimal
    // separator) is dropped.
    let unambiguous = groups.len() > 2 || compact.contains(style.decimal) || separator == ',';
    if grouped && unambiguous {
        compact.replace(separator, "")
    } else {
        compact
    }
}

/// `digits` (ASCII, no sign) with `style.group` every three digits.
fn group(style: &NumberStyle, digits: &str) -> String {
    if digits.len() < style.min_group_digits.max(4) {
        return digits.to_string();
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(style.group);
        }
        out.push(c);
    }
    out
}
