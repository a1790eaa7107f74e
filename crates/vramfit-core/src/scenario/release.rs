//! A vLLM release as the scenario holds it (`engine.vllm_version`): a
//! version text read once, here, into numbers. Whether vramfit knows the
//! release is the `vllm` method's question (`methods/vllm/release.rs`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A vLLM release as `major.minor.patch` (`0.10.1.1` reads as 0.10.1;
/// `0.26.1rc1.dev156+g0eec856cc` as 0.26.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VllmRelease {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl VllmRelease {
    pub const fn new(major: u32, minor: u32, patch: u32) -> VllmRelease {
        VllmRelease {
            major,
            minor,
            patch,
        }
    }

    /// From a version text (`0.19`, `v0.10.1.1`, `0.26.1rc1.dev156+g…`,
    /// `0.10.2 (jetson build)`); `None` when it does not start with
    /// `major.minor`.
    ///
    /// ```
    /// use vramfit_core::scenario::VllmRelease;
    /// assert_eq!(VllmRelease::parse("0.10.1.1"), Some(VllmRelease::new(0, 10, 1)));
    /// assert_eq!(VllmRelease::parse("v0.26.1rc1.dev156+g0eec856cc"), Some(VllmRelease::new(0, 26, 1)));
    /// assert_eq!(VllmRelease::parse("0.19"), Some(VllmRelease::new(0, 19, 0)));
    /// assert_eq!(VllmRelease::parse("V0 engine"), None);
    /// ```
    pub fn parse(text: &str) -> Option<VllmRelease> {
        let text = text.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts = text.split('.');
        let number = |part: Option<&str>| -> Option<u32> {
            let digits: String = part?.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        };
        let major = number(parts.next())?;
        let minor = number(parts.next())?;
        let patch = number(parts.next()).unwrap_or(0);
        Some(VllmRelease::new(major, minor, patch))
    }

    /// `major.minor.patch`.
    pub fn text(self) -> String {
        format!("{}.{}.{}", self.major, self.minor, self.patch)
    }

    /// The family (`0.10`) this release belongs to.
    pub fn family(self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

impl Serialize for VllmRelease {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de> Deserialize<'de> for VllmRelease {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        VllmRelease::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("'{text}' is not a vLLM version (0.19, 0.10.1)"))
        })
    }
}
