//! The reference kit (`schema: "vramfit-kit/1"`): every worked example of
//! the seeds, with its inputs and the bytes vramfit computes for it, so that
//! anyone can rerun the examples and see whether a version still reproduces
//! them (`vramfit kit > kit.json`, later `vramfit check kit.json`).
//!
//! Its data are the seeds' examples ([`examples`]); its runner builds the
//! reference kit and checks a kit against this version ([`run`]). The same
//! examples as command lines are the CLI's business (`vramfit_cli::line`).
//!
//! The examples are the seeds' own: seed 004's three inference examples,
//! seed 000's `estimateVRAM` example and its training counterpart, seed
//! 003's command-line example for the allocator; each also under every
//! other method that estimates it, and one example for any method in
//! [`MethodId::ALL`] that no seed example covers. Expected values are the
//! exact integer bytes of the method's result. Where vramfit reads a seed in
//! a way that moves its stated figure, the example says so in `note`.
//!
//! ```
//! use vramfit_core::kit;
//! let reference = kit::reference();
//! assert_eq!(reference.schema, "vramfit-kit/1");
//! assert!(kit::check(&reference).is_empty());
//! ```

mod examples;
mod run;
#[cfg(test)]
mod tests;

pub use run::{check, check_example, check_json, reference};

use crate::methods::{MethodId, MethodResult};
use crate::request::Request;
use crate::units::Bytes;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Version of the kit layout; bumped only on a breaking change.
pub const SCHEMA: &str = "vramfit-kit/1";

/// The whole kit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kit {
    pub schema: String,
    /// The vramfit version that computed `expected`.
    pub app_version: String,
    pub examples: Vec<KitExample>,
}

/// One worked example: where it comes from, what goes in, what comes out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KitExample {
    /// Stable name (`seed004-8b-fp16-8k-24gb`, `...@lesson` for the same
    /// inputs under another method).
    pub name: String,
    pub source: Citation,
    /// The method and the complete scenario, as the app exports them.
    pub inputs: Request,
    pub expected: Expected,
}

/// Where an example comes from: the seed and its words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Seed number (`"004"`), or `"vramfit"` for an example of our own.
    pub seed: String,
    /// The sentence or command of the seed that the example reproduces.
    pub quote: String,
    /// How vramfit reads the seed where the reading matters.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// What the method must give for the inputs, in exact bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub method: MethodId,
    pub total_bytes: Bytes,
    /// Every component, in the method's order.
    pub components: ComponentBytes,
    /// The memory the verdict compares with, where the kit records it
    /// (kits written before it was recorded have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usable_bytes: Option<Bytes>,
}

/// Named byte counts that keep their order in JSON (an object, as in the
/// `vramfit/1` document).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComponentBytes(pub Vec<(String, Bytes)>);

impl Serialize for ComponentBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, bytes) in &self.0 {
            map.serialize_entry(name, bytes)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ComponentBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = ComponentBytes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of component names to byte counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((name, bytes)) = map.next_entry::<String, Bytes>()? {
                    out.push((name, bytes));
                }
                Ok(ComponentBytes(out))
            }
        }
        deserializer.deserialize_map(Ordered)
    }
}

impl ComponentBytes {
    pub(super) fn of(result: &MethodResult) -> ComponentBytes {
        ComponentBytes(
            result
                .components
                .0
                .iter()
                .map(|c| (c.term.id().to_string(), c.bytes))
                .collect(),
        )
    }
}

impl Kit {
    /// The kit as pretty-printed JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        // Plain structs of strings and integers: serializing cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// One example that does not reproduce, with every difference found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KitFailure {
    /// The example's name (`#3` when it has none).
    pub example: String,
    /// What differs, each as `what: expected X, got Y`.
    pub problems: Vec<String>,
}

impl fmt::Display for KitFailure {
    /// One line: `FAIL name: problem; problem`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FAIL {}: {}", self.example, self.problems.join("; "))
    }
}
