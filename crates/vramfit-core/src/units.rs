//! Units are types: byte counts are integers (`u64`) until they are shown,
//! and every conversion to a decimal or binary unit is labelled.
//!
//! - 1 GB  = 10⁹ bytes (decimal; seeds 001, 002, 003, 004 and marketed GPU sizes)
//! - 1 GiB = 2³⁰ bytes (binary; seed 000)

use serde::{Deserialize, Serialize};

/// Bytes in one decimal gigabyte (10⁹).
pub const GB: u64 = 1_000_000_000;
/// Bytes in one binary gibibyte (2³⁰).
pub const GIB: u64 = 1 << 30;

/// The unit a figure is displayed in. Computation never uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum DisplayUnit {
    /// Decimal gigabytes, 10⁹ bytes.
    #[default]
    Gb,
    /// Binary gibibytes, 2³⁰ bytes.
    Gib,
}

impl DisplayUnit {
    /// Bytes in one of this unit.
    pub const fn bytes(self) -> u64 {
        match self {
            DisplayUnit::Gb => GB,
            DisplayUnit::Gib => GIB,
        }
    }

    /// `amount` of `from` expressed in `to` (24 GiB in GB: 25.769803776).
    pub fn convert(amount: f64, from: DisplayUnit, to: DisplayUnit) -> f64 {
        amount * from.bytes() as f64 / to.bytes() as f64
    }

    /// The unit's label, the same in every language.
    pub const fn label(self) -> &'static str {
        match self {
            DisplayUnit::Gb => "GB",
            DisplayUnit::Gib => "GiB",
        }
    }
}

/// A number of bytes: an integer, as `bytesize`'s `ByteSize` is, that
/// serializes as the bare integer. It is the one place where bytes become
/// GB (10⁹) or GiB (2³⁰), always with the unit named ([`Bytes::in_unit`],
/// [`Bytes::display`]), and where an amount entered in GB or GiB becomes
/// bytes ([`Bytes::from_unit`]).
///
/// Arithmetic saturates at `u64::MAX` ("does not fit anywhere") and at 0,
/// never wraps or panics.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Bytes(pub u64);

impl Bytes {
    pub const ZERO: Bytes = Bytes(0);
    pub const MAX: Bytes = Bytes(u64::MAX);

    /// The count, as an integer.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// An amount entered in `unit`, rounded to the byte. For checked
    /// values (finite, ≥ 0); anything else saturates (`NaN` and negatives
    /// to 0, huge values to `u64::MAX`).
    ///
    /// ```
    /// use vramfit_core::units::{Bytes, DisplayUnit};
    /// assert_eq!(Bytes::from_unit(24.0, DisplayUnit::Gib), Bytes(25_769_803_776));
    /// assert_eq!(Bytes::from_unit(1.073741824, DisplayUnit::Gb), Bytes(1 << 30));
    /// ```
    pub fn from_unit(amount: f64, unit: DisplayUnit) -> Bytes {
        // `as` saturates, and maps NaN to 0.
        Bytes((amount * unit.bytes() as f64).round() as u64)
    }

    /// The count in `unit`, for display only.
    ///
    /// ```
    /// use vramfit_core::units::{Bytes, DisplayUnit};
    /// assert_eq!(Bytes(16_000_000_000).in_unit(DisplayUnit::Gb), 16.0);
    /// assert_eq!(Bytes(1 << 29).in_unit(DisplayUnit::Gib), 0.5);
    /// ```
    pub fn in_unit(self, unit: DisplayUnit) -> f64 {
        self.0 as f64 / unit.bytes() as f64
    }

    /// Two decimals and the unit label, e.g. `"18.79 GB"` (the CLI's and
    /// the seeds' way; the app writes numbers per language).
    pub fn display(self, unit: DisplayUnit) -> String {
        format!("{:.2} {}", self.in_unit(unit), unit.label())
    }

    /// The count in `unit` rounded to hundredths, written as Python prints
    /// a float (`3.0`, `58.1`, `58.11`): how vLLM writes GiB in its
    /// messages (`format_gib` in `vllm/utils/mem_utils.py`, `round(b /
    /// GiB_bytes, 2)`). Integer arithmetic: the rounding is exact.
    ///
    /// ```
    /// use vramfit_core::units::{Bytes, DisplayUnit, GIB};
    /// assert_eq!(Bytes(3 * GIB).hundredths_text(DisplayUnit::Gib), "3.0");
    /// assert_eq!(Bytes(GIB / 10 * 581).hundredths_text(DisplayUnit::Gib), "58.1");
    /// assert_eq!(Bytes(GIB / 100 * 5811 + 1).hundredths_text(DisplayUnit::Gib), "58.11");
    /// ```
    pub fn hundredths_text(self, unit: DisplayUnit) -> String {
        let per = unit.bytes() as u128;
        let hundredths = (self.0 as u128 * 100 + per / 2) / per;
        let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
        match text.strip_suffix('0') {
            Some(t) => t.to_string(),
            None => text,
        }
    }

    /// `self × percent / 100`, the percentage in hundredths of a percent,
    /// rounded to the nearest byte ([`percent_of`]).
    pub fn percent(self, centi_percent: u64) -> Bytes {
        Bytes(percent_of(self.0, centi_percent))
    }

    /// One of `parts` equal shares, rounded up (the most loaded part).
    pub fn div_ceil(self, parts: u64) -> Bytes {
        Bytes(self.0.div_ceil(parts.max(1)))
    }

    /// `self − other` as a signed count, saturating at `i64`'s ends
    /// (`+` when `self` is larger).
    ///
    /// ```
    /// use vramfit_core::units::Bytes;
    /// assert_eq!(Bytes(5).minus(Bytes(8)), -3);
    /// assert_eq!(Bytes(u64::MAX).minus(Bytes(0)), i64::MAX);
    /// ```
    pub fn minus(self, other: Bytes) -> i64 {
        let d = self.0 as i128 - other.0 as i128;
        i64::try_from(d).unwrap_or(if d < 0 { i64::MIN } else { i64::MAX })
    }

    /// `self × n`, saturating.
    pub fn times(self, n: u64) -> Bytes {
        Bytes(self.0.saturating_mul(n))
    }
}

impl From<u64> for Bytes {
    fn from(n: u64) -> Bytes {
        Bytes(n)
    }
}

/// Golden tests read `assert_eq!(result.total_bytes, 18_781_116_006)`.
impl PartialEq<u64> for Bytes {
    fn eq(&self, other: &u64) -> bool {
        self.0 == *other
    }
}

impl PartialOrd<u64> for Bytes {
    fn partial_cmp(&self, other: &u64) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(other)
    }
}

impl std::ops::Add for Bytes {
    type Output = Bytes;
    /// Saturating.
    fn add(self, other: Bytes) -> Bytes {
        Bytes(self.0.saturating_add(other.0))
    }
}

impl std::ops::Sub for Bytes {
    type Output = Bytes;
    /// Saturating at 0.
    fn sub(self, other: Bytes) -> Bytes {
        Bytes(self.0.saturating_sub(other.0))
    }
}

impl std::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Bytes>>(iter: I) -> Bytes {
        iter.fold(Bytes::ZERO, |a, b| a + b)
    }
}

impl<'a> std::iter::Sum<&'a Bytes> for Bytes {
    fn sum<I: Iterator<Item = &'a Bytes>>(iter: I) -> Bytes {
        iter.copied().sum()
    }
}

/// Saturating conversion of a `u128` intermediate to bytes.
///
/// Products of in-range inputs can exceed `u64` (10 M tokens × 10 k
/// sequences × a wide cache); the estimate then reads `u64::MAX` bytes,
/// which is "does not fit anywhere", never a wrap-around or a panic.
pub fn saturate(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

/// Storage for `count` values of `milli_bits` thousandths of a bit each,
/// rounded to the nearest byte.
///
/// `bytes = count × bits / 8`. Bits are carried as thousandths so that
/// published fractional formats (4.16, 4.89, 4.127 bits) stay exact.
///
/// ```
/// use vramfit_core::units::bytes_for_bits;
/// // 8 × 10⁹ parameters at 16 bits = 16 GB.
/// assert_eq!(bytes_for_bits(8_000_000_000, 16_000), 16_000_000_000);
/// // 8 × 10⁹ parameters at 4 bits = 4 GB.
/// assert_eq!(bytes_for_bits(8_000_000_000, 4_000), 4_000_000_000);
/// ```
pub fn bytes_for_bits(count: u64, milli_bits: u64) -> u64 {
    let numerator = count as u128 * milli_bits as u128;
    saturate((numerator + 4_000) / 8_000)
}

/// `value × percent / 100` for an integer byte count and a percentage given
/// in hundredths of a percent (so 10 % is `1_000`), rounded to the nearest byte.
pub fn percent_of(value: u64, centi_percent: u64) -> u64 {
    saturate((value as u128 * centi_percent as u128 + 5_000) / 10_000)
}

/// Sum of byte counts that saturates instead of overflowing.
pub fn sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values
        .into_iter()
        .fold(0u64, |acc, v| acc.saturating_add(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gb_and_gib_are_not_mixed() {
        assert_eq!(DisplayUnit::Gb.bytes(), 1_000_000_000);
        assert_eq!(DisplayUnit::Gib.bytes(), 1_073_741_824);
        assert_eq!(Bytes(1_073_741_824).display(DisplayUnit::Gb), "1.07 GB");
        assert_eq!(Bytes(1_073_741_824).display(DisplayUnit::Gib), "1.00 GiB");
    }

    #[test]
    fn bytes_serialize_as_the_bare_integer_and_saturate() {
        assert_eq!(serde_json::to_string(&Bytes(42)).unwrap(), "42");
        assert_eq!(serde_json::from_str::<Bytes>("42").unwrap(), Bytes(42));
        assert_eq!(Bytes::MAX + Bytes(1), Bytes::MAX);
        assert_eq!(Bytes(1) - Bytes(2), Bytes::ZERO);
        assert_eq!([Bytes(1), Bytes(2)].iter().sum::<Bytes>(), Bytes(3));
        assert_eq!(Bytes(10).div_ceil(3), Bytes(4));
        assert_eq!(Bytes::from_unit(f64::NAN, DisplayUnit::Gb), Bytes::ZERO);
        assert_eq!(Bytes::from_unit(-1.0, DisplayUnit::Gb), Bytes::ZERO);
    }

    #[test]
    fn huge_products_saturate() {
        assert_eq!(bytes_for_bits(u64::MAX, 32_000), u64::MAX);
        assert_eq!(sum([u64::MAX, 1]), u64::MAX);
        assert_eq!(percent_of(u64::MAX, 10_000), u64::MAX);
    }

    #[test]
    fn percent_rounds_to_nearest_byte() {
        assert_eq!(percent_of(1_000, 1_000), 100);
        assert_eq!(percent_of(5, 1_000), 1); // 0.5 rounds up
    }
}
