//! The fit verdict: the four ring states and the headroom or shortfall.
//!
//! Thresholds follow seed 002's ring (also required for every method's ring):
//! utilization `u = total / usable`; `u ≤ 60 %` *holgada*, `60 % < u ≤ 85 %`
//! *con margen*, `85 % < u ≤ 100 %` *ajustada*, `u > 100 %` *no cabe*.
//! The utilization is never clamped: 130 % stays 130 %.

use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// One of the four ring states. Their ids are seed 002's Spanish words
/// (`holgada`, `con_margen`, `ajustada`, `no_cabe`), kept in JSON and in
/// `data-status`; each language names them in its own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FitStatus {
    /// ≤ 60 % of usable memory.
    #[serde(rename = "holgada")]
    Roomy,
    /// More than 60 % and at most 85 %.
    #[serde(rename = "con_margen")]
    WithMargin,
    /// More than 85 % and at most 100 %.
    #[serde(rename = "ajustada")]
    Tight,
    /// More than 100 %: does not fit without changes.
    #[serde(rename = "no_cabe")]
    DoesNotFit,
}

impl FitStatus {
    /// The stable identifier used in `data-status` and the JSON contract.
    pub const fn id(self) -> &'static str {
        match self {
            FitStatus::Roomy => "holgada",
            FitStatus::WithMargin => "con_margen",
            FitStatus::Tight => "ajustada",
            FitStatus::DoesNotFit => "no_cabe",
        }
    }

    /// The state in language-neutral words, as the document's
    /// `verdict.fit` writes it.
    ///
    /// ```
    /// use vramfit_core::verdict::FitStatus;
    /// assert_eq!(FitStatus::DoesNotFit.fit_id(), "does_not_fit");
    /// assert_eq!(FitStatus::WithMargin.fit_id(), "with_margin");
    /// ```
    pub const fn fit_id(self) -> &'static str {
        match self {
            FitStatus::Roomy => "roomy",
            FitStatus::WithMargin => "with_margin",
            FitStatus::Tight => "tight",
            FitStatus::DoesNotFit => "does_not_fit",
        }
    }

    /// Classifies `total` bytes against `usable` bytes with exact integer
    /// comparisons (no floating-point edge at 60/85/100 %).
    ///
    /// ```
    /// use vramfit_core::{units::Bytes, verdict::FitStatus};
    /// assert_eq!(FitStatus::classify(Bytes(60), Bytes(100)), FitStatus::Roomy);
    /// assert_eq!(FitStatus::classify(Bytes(61), Bytes(100)), FitStatus::WithMargin);
    /// assert_eq!(FitStatus::classify(Bytes(85), Bytes(100)), FitStatus::WithMargin);
    /// assert_eq!(FitStatus::classify(Bytes(100), Bytes(100)), FitStatus::Tight);
    /// assert_eq!(FitStatus::classify(Bytes(101), Bytes(100)), FitStatus::DoesNotFit);
    /// ```
    pub fn classify(total: Bytes, usable: Bytes) -> FitStatus {
        let total = total.get() as u128;
        let usable = usable.get() as u128;
        if total * 100 <= usable * 60 {
            FitStatus::Roomy
        } else if total * 100 <= usable * 85 {
            FitStatus::WithMargin
        } else if total <= usable {
            FitStatus::Tight
        } else {
            FitStatus::DoesNotFit
        }
    }
}

/// Whether an estimate fits, and by how much. Written with `status` (seed
/// 002's Spanish ids, kept for the documents already stored) and `fit`,
/// the same state in language-neutral ids ([`FitStatus::fit_id`]); read
/// back from `status` alone.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Verdict {
    /// The ring state.
    pub status: FitStatus,
    /// `total / usable` as a fraction (1.3 means 130 %); not clamped.
    pub utilization: f64,
    /// What is compared with usable memory, in bytes (the total, plus
    /// whatever a method keeps outside it, such as the allocator's overhead).
    pub needed_bytes: Bytes,
    /// Memory the method counts as usable on the most loaded GPU, in bytes.
    pub usable_bytes: Bytes,
    /// Bytes missing for the estimate to fit (0 when it fits).
    pub short_by_bytes: Bytes,
    /// Bytes to spare when it fits (0 when it does not).
    pub headroom_bytes: Bytes,
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// The stored form: the fields, with `fit` after `status`.
        #[derive(Serialize)]
        struct Stored {
            status: FitStatus,
            fit: &'static str,
            utilization: f64,
            needed_bytes: Bytes,
            usable_bytes: Bytes,
            short_by_bytes: Bytes,
            headroom_bytes: Bytes,
        }
        Stored {
            status: self.status,
            fit: self.status.fit_id(),
            utilization: self.utilization,
            needed_bytes: self.needed_bytes,
            usable_bytes: self.usable_bytes,
            short_by_bytes: self.short_by_bytes,
            headroom_bytes: self.headroom_bytes,
        }
        .serialize(serializer)
    }
}

impl Verdict {
    /// The verdict for `total` bytes against `usable` bytes.
    ///
    /// A zero `usable` cannot come out of validated input; it is still
    /// handled (utilization reads as infinitely over, reported as `f64::MAX`)
    /// so that the function is total.
    pub fn new(total: Bytes, usable: Bytes) -> Verdict {
        let utilization = if usable == Bytes::ZERO {
            f64::MAX
        } else {
            total.get() as f64 / usable.get() as f64
        };
        Verdict {
            status: if usable == Bytes::ZERO {
                FitStatus::DoesNotFit
            } else {
                FitStatus::classify(total, usable)
            },
            utilization,
            needed_bytes: total,
            usable_bytes: usable,
            short_by_bytes: total - usable,
            headroom_bytes: usable - total,
        }
    }

    /// Utilization in percent, rounded to one decimal, unclamped.
    ///
    /// A figure that does not fit never reads 100 % or less: 100.04 %
    /// shows as 100.1 %, so the number and the state agree.
    pub fn percent(&self) -> f64 {
        let rounded = (self.utilization * 1000.0).round() / 10.0;
        if self.short_by_bytes > Bytes::ZERO && rounded <= 100.0 {
            100.1
        } else {
            rounded
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_one_hundred_percent_is_not_clamped() {
        let v = Verdict::new(Bytes(130), Bytes(100));
        assert_eq!(v.status, FitStatus::DoesNotFit);
        assert_eq!(v.percent(), 130.0);
        assert_eq!(v.short_by_bytes, Bytes(30));
        assert_eq!(v.headroom_bytes, Bytes::ZERO);
    }

    #[test]
    fn boundaries_at_59_60_85_100_101() {
        let cases = [
            (59, FitStatus::Roomy),
            (60, FitStatus::Roomy),
            (61, FitStatus::WithMargin),
            (85, FitStatus::WithMargin),
            (86, FitStatus::Tight),
            (100, FitStatus::Tight),
            (101, FitStatus::DoesNotFit),
        ];
        for (pct, want) in cases {
            assert_eq!(
                Verdict::new(Bytes(pct * GBU), Bytes(100 * GBU)).status,
                want,
                "{pct} %"
            );
        }
    }
    const GBU: u64 = 1_000_000_000;

    #[test]
    fn just_over_never_reads_one_hundred() {
        let v = Verdict::new(Bytes(100_040), Bytes(100_000));
        assert_eq!(v.status, FitStatus::DoesNotFit);
        assert_eq!(v.percent(), 100.1);
        assert_eq!(
            Verdict::new(Bytes(100_000), Bytes(100_000)).percent(),
            100.0
        );
    }

    #[test]
    fn zero_usable_is_total_not_a_panic() {
        let v = Verdict::new(Bytes(1), Bytes(0));
        assert_eq!(v.status, FitStatus::DoesNotFit);
        assert!(v.utilization.is_finite());
    }
}
