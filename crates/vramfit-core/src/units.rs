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

    /// The unit's label, the same in every language.
    pub const fn label(self) -> &'static str {
        match self {
            DisplayUnit::Gb => "GB",
            DisplayUnit::Gib => "GiB",
        }
    }

    /// `bytes` expressed in this unit, for display only.
    ///
    /// ```
    /// use vramfit_core::units::DisplayUnit;
    /// assert_eq!(DisplayUnit::Gb.of(16_000_000_000), 16.0);
    /// assert_eq!(DisplayUnit::Gib.of(1 << 29), 0.5);
    /// ```
    pub fn of(self, bytes: u64) -> f64 {
        bytes as f64 / self.bytes() as f64
    }

    /// `bytes` as text with two decimals and the unit label, e.g. `"18.79 GB"`.
    pub fn format(self, bytes: u64) -> String {
        format!("{:.2} {}", self.of(bytes), self.label())
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
        assert_eq!(DisplayUnit::Gb.format(1_073_741_824), "1.07 GB");
        assert_eq!(DisplayUnit::Gib.format(1_073_741_824), "1.00 GiB");
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
