//! Published parameter counts as written in the catalog (`8,030,261,248`,
//! `30.5B`, `~7B`) and whether a computed count agrees with one.
//!
//! # Formula
//!
//! A figure is read as a value `v` and a tolerance `t`; a count `n`
//! agrees when `|n − v| ≤ t`:
//!
//! - **exact** (digits, commas allowed: `8,030,261,248`): `t = 0`;
//! - **rounded** (`30.5B`, `1.23B`, `124M`, `671B`): `v` is the number
//!   times its unit (`K` 10³, `M` 10⁶, `B` 10⁹, `T` 10¹²) and `t` is one
//!   unit of the last digit shown (`30.5B` → 0.1 B). One unit rather than
//!   half of one, because model cards both round and truncate (Qwen2.5-14B's
//!   card writes `14.7B` for 14.77 B);
//! - **size class** (`~7B`, a name or a headline figure that is not a
//!   rounding of the count: Llama-2-7B holds 6.74 B): `t = v / 10`.
//!
//! Source: the figures and their kinds are those of `data/models.json`;
//! the rule for each kind is this project's (see `data/configs/README.md`).
//!
//! ```
//! use vramfit_core::catalog::models::Figure;
//! let exact = Figure::parse("8,030,261,248").unwrap();
//! assert!(exact.agrees(8_030_261_248) && !exact.agrees(8_030_261_249));
//! let rounded = Figure::parse("30.5B").unwrap();
//! assert!(rounded.agrees(30_532_122_624) && !rounded.agrees(30_700_000_000));
//! let class = Figure::parse("~7B").unwrap();
//! assert!(class.agrees(6_738_415_616) && !class.agrees(8_537_680_896));
//! ```

use serde::Serialize;

/// How precisely a published figure states a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// To the parameter.
    Exact,
    /// Rounded (or truncated) to the last digit shown.
    Rounded,
    /// A size class, within a tenth.
    SizeClass,
}

/// A published count: its value, its precision and how far a count may
/// be from it and still agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// The count the figure states, in parameters.
    pub value: u64,
    /// How the figure was written.
    pub precision: Precision,
    /// The largest distance from `value` that still agrees.
    pub tolerance: u64,
}

impl Figure {
    /// Reads a figure; `None` for anything that is not one of the three
    /// forms (empty, signs, exponents, unknown units, more than 18 digits).
    pub fn parse(text: &str) -> Option<Figure> {
        let text = text.trim();
        let (size_class, text) = match text.strip_prefix('~') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, text),
        };
        let (number, unit) = match text.char_indices().last()? {
            (i, c) if c.is_ascii_alphabetic() => (&text[..i], unit_of(c)?),
            _ => (text, 1),
        };
        let (int_part, frac_part) = match number.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (number, None),
        };
        let digits: String = int_part.chars().filter(|&c| c != ',').collect();
        let grouped_well = int_part.split(',').skip(1).all(|g| g.len() == 3);
        let frac = frac_part.unwrap_or("");
        let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if digits.is_empty()
            || !all_digits(&digits)
            || !all_digits(frac)
            || !grouped_well
            || (frac_part.is_some() && frac.is_empty())
            || digits.len() + frac.len() > 18
        {
            return None;
        }
        let mantissa: u128 = format!("{digits}{frac}").parse().ok()?;
        let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
        let unit = u128::from(unit);
        let value = u64::try_from(mantissa.checked_mul(unit)? / scale).ok()?;
        let step = u64::try_from(unit / scale).ok()?;
        let (precision, tolerance) = if size_class {
            (Precision::SizeClass, value / 10)
        } else if unit == 1 && frac_part.is_none() {
            (Precision::Exact, 0)
        } else {
            (Precision::Rounded, step)
        };
        Some(Figure {
            value,
            precision,
            tolerance,
        })
    }

    /// Whether `count` is within the figure's tolerance of its value.
    pub fn agrees(&self, count: u64) -> bool {
        count.abs_diff(self.value) <= self.tolerance
    }
}

/// The multiplier of a unit letter (`K`, `M`, `B`, `T`, either case).
fn unit_of(letter: char) -> Option<u64> {
    match letter.to_ascii_uppercase() {
        'K' => Some(1_000),
        'M' => Some(1_000_000),
        'B' => Some(1_000_000_000),
        'T' => Some(1_000_000_000_000),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        let f = Figure::parse("2,614,341,888").unwrap();
        assert_eq!(
            (f.value, f.precision, f.tolerance),
            (2_614_341_888, Precision::Exact, 0)
        );
        let f = Figure::parse("124439808").unwrap();
        assert_eq!(f.precision, Precision::Exact);
        let f = Figure::parse("1.23B").unwrap();
        assert_eq!((f.value, f.tolerance), (1_230_000_000, 10_000_000));
        let f = Figure::parse("671B").unwrap();
        assert_eq!(
            (f.value, f.tolerance, f.precision),
            (671_000_000_000, 1_000_000_000, Precision::Rounded)
        );
        let f = Figure::parse("124M").unwrap();
        assert_eq!((f.value, f.tolerance), (124_000_000, 1_000_000));
        let f = Figure::parse("~1T").unwrap();
        assert_eq!(
            (f.value, f.tolerance, f.precision),
            (1_000_000_000_000, 100_000_000_000, Precision::SizeClass)
        );
        let f = Figure::parse(" ~ 0.6b ").unwrap();
        assert_eq!(f.value, 600_000_000);
    }

    #[test]
    fn agreement_follows_the_tolerance() {
        let card = Figure::parse("14.7B").unwrap();
        assert!(card.agrees(14_770_033_664), "a truncated card figure");
        assert!(!Figure::parse("32.5B").unwrap().agrees(32_763_876_352));
        assert!(Figure::parse("~70B").unwrap().agrees(68_976_648_192));
        assert!(!Figure::parse("~2B").unwrap().agrees(2_614_341_888));
    }

    #[test]
    fn anything_else_is_not_a_figure() {
        for bad in [
            "",
            "~",
            "B",
            "7X",
            "-7B",
            "7.B",
            ".5B",
            "1e9",
            "1,00,000",
            "12,3456",
            "7 B x",
            "1234567890123456789",
            "99999999999T",
            "3.3.3B",
            "NaN",
            "∞",
        ] {
            assert_eq!(Figure::parse(bad), None, "{bad:?}");
        }
    }
}
