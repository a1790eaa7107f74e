//! Saturating byte arithmetic for the allocator's formulas.

use crate::units::saturate;

/// Saturating byte arithmetic in `u128`: sums and products of in-range
/// inputs are exact, absurd inputs read as `u64::MAX` ("does not fit
/// anywhere"), never a wrap-around or a panic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Sat(pub(super) u128);

impl Sat {
    pub(super) const ZERO: Sat = Sat(0);

    pub(super) fn of(v: u64) -> Sat {
        Sat(v as u128)
    }

    pub(super) fn bytes(self) -> u64 {
        saturate(self.0)
    }
}

impl std::ops::Add for Sat {
    type Output = Sat;
    fn add(self, o: Sat) -> Sat {
        Sat(self.0.saturating_add(o.0))
    }
}

impl std::ops::Add<u128> for Sat {
    type Output = Sat;
    fn add(self, o: u128) -> Sat {
        Sat(self.0.saturating_add(o))
    }
}

impl std::ops::Sub for Sat {
    type Output = Sat;
    fn sub(self, o: Sat) -> Sat {
        Sat(self.0.saturating_sub(o.0))
    }
}

impl std::ops::Mul for Sat {
    type Output = Sat;
    fn mul(self, o: Sat) -> Sat {
        Sat(self.0.saturating_mul(o.0))
    }
}

impl std::ops::Mul<Sat> for u128 {
    type Output = Sat;
    fn mul(self, o: Sat) -> Sat {
        Sat(self.saturating_mul(o.0))
    }
}

impl std::ops::Div<u128> for Sat {
    type Output = Sat;
    fn div(self, o: u128) -> Sat {
        Sat(self.0.checked_div(o).unwrap_or(0))
    }
}

impl std::iter::Sum for Sat {
    fn sum<I: Iterator<Item = Sat>>(iter: I) -> Sat {
        iter.fold(Sat::ZERO, |acc, v| acc + v)
    }
}
