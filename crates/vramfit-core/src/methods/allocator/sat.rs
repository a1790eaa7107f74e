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

/// `impl $Op<$Rhs> for $Lhs` as `Sat(lhs.$saturating(rhs))`, where `$l`
/// and `$r` take the `u128` out of each side.
macro_rules! saturating {
    ($Op:ident, $op:ident, $Lhs:ty, $Rhs:ty, $saturating:ident, |$a:ident, $b:ident| ($l:expr, $r:expr)) => {
        impl std::ops::$Op<$Rhs> for $Lhs {
            type Output = Sat;
            fn $op(self, o: $Rhs) -> Sat {
                let ($a, $b) = (self, o);
                Sat(($l).$saturating($r))
            }
        }
    };
}

saturating!(Add, add, Sat, Sat, saturating_add, |a, b| (a.0, b.0));
saturating!(Add, add, Sat, u128, saturating_add, |a, b| (a.0, b));
saturating!(Sub, sub, Sat, Sat, saturating_sub, |a, b| (a.0, b.0));
saturating!(Mul, mul, Sat, Sat, saturating_mul, |a, b| (a.0, b.0));
saturating!(Mul, mul, u128, Sat, saturating_mul, |a, b| (a, b.0));

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
