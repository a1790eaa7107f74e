//! `-ot` / `--override-tensor PATTERN=BUFFER`: where chosen tensors go,
//! whatever their layer.
//!
//! llama.cpp (`src/llama-model.cpp`, `load_tensors`) checks each tensor
//! name against the patterns in the order given and takes the first that
//! matches, with `std::regex_search`: the pattern may match anywhere in
//! the name (`exps=CPU` takes every `ffn_*_exps` tensor). The buffer is a
//! device name: `CPU`, or a GPU as its backend names it (`CUDA0`,
//! `ROCm1`, `Vulkan0`, `MTL0`): the number is its place in the list of
//! GPUs. `common/arg.cpp` reads a comma-separated list of such pairs.
//! `--cpu-moe` is `exps=CPU`; `--n-cpu-moe N` keeps the experts of the
//! first N blocks on the host.
//!
//! The patterns are matched by the core's own regular-expression engine
//! (`model::quant`'s, the subset that quantization configs use), run as a
//! search; a pattern outside that subset is refused by name.

use crate::model::Regex;
use serde::Serialize;

/// Where an override sends a tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Target {
    /// Host memory.
    Cpu,
    /// The GPU at this place in the list.
    Gpu(usize),
}

/// One `PATTERN=BUFFER` pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub pattern: String,
    pub target: Target,
    regex: Regex,
}

impl Override {
    /// Whether the pattern matches anywhere in `name` (`std::regex_search`).
    pub fn matches(&self, name: &str) -> bool {
        self.regex.matches_start(name)
    }
}

/// A device name (`CPU`, `CUDA1`, `Vulkan0`) as a target.
fn target(name: &str) -> Option<Target> {
    let name = name.trim();
    if name.eq_ignore_ascii_case("cpu") {
        return Some(Target::Cpu);
    }
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '_');
    let backend = &name[..name.len() - digits.len()];
    match backend.is_empty() || digits.is_empty() {
        true => None,
        false => digits.parse().ok().map(Target::Gpu),
    }
}

/// Reads `-ot` values: each a comma-separated list of `PATTERN=BUFFER`.
///
/// ```
/// use vramfit_core::methods::llamacpp::overrides::{parse, Target};
/// let o = parse(&[r"blk\.(1[0-9])\.ffn_.*=CPU,exps=CUDA1"]).unwrap();
/// assert_eq!(o[0].target, Target::Cpu);
/// assert!(o[0].matches("blk.12.ffn_up.weight") && !o[0].matches("blk.2.ffn_up.weight"));
/// assert_eq!(o[1].target, Target::Gpu(1));
/// assert!(o[1].matches("blk.3.ffn_gate_exps.weight"));
/// assert!(parse(&["exps"]).is_err());
/// ```
pub fn parse(values: &[&str]) -> Result<Vec<Override>, String> {
    let mut out = Vec::new();
    for value in values {
        for pair in value.split(',').filter(|p| !p.trim().is_empty()) {
            let (pattern, buffer) = pair
                .rsplit_once('=')
                .ok_or_else(|| format!("`{pair}` is not PATTERN=BUFFER"))?;
            let target = target(buffer)
                .ok_or_else(|| format!("`{buffer}` is not a buffer (CPU, CUDA0, ...)"))?;
            // A search: the pattern may start anywhere in the name.
            let regex = Regex::new(&format!(".*(?:{pattern})"))
                .map_err(|e| format!("pattern `{pattern}`: {e}"))?;
            out.push(Override {
                pattern: pattern.to_string(),
                target,
                regex,
            });
        }
    }
    Ok(out)
}

/// `--cpu-moe`: every expert tensor on the host.
pub fn cpu_moe() -> Override {
    Override {
        pattern: "\\.ffn_(up|down|gate)_(ch|)exps".to_string(),
        target: Target::Cpu,
        regex: Regex::new(".*(?:\\.ffn_(up|down|gate)_(ch|)exps)").expect("a fixed pattern"),
    }
}

/// The first override that matches `name`.
pub fn target_of(overrides: &[Override], name: &str) -> Option<Target> {
    overrides.iter().find(|o| o.matches(name)).map(|o| o.target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_people_paste_match_as_regex_search_does() {
        let o = parse(&[r"blk\.1[4-9]\.ffn.*=CPU", r"blk\.[2-9][0-9]\.ffn.*=CPU"]).unwrap();
        assert_eq!(
            target_of(&o, "blk.14.ffn_gate_exps.weight"),
            Some(Target::Cpu)
        );
        assert_eq!(target_of(&o, "blk.93.ffn_norm.weight"), Some(Target::Cpu));
        assert_eq!(target_of(&o, "blk.13.ffn_gate_exps.weight"), None);
        assert_eq!(target_of(&o, "blk.4.ffn_up_exps.weight"), None);
        assert_eq!(target_of(&o, "blk.20.attn_q.weight"), None);
        // First match wins: the per-GPU ranges before the catch-all.
        let o = parse(&[r"blk\.([0-7])\..*_exps\.=CUDA0", r"blk\..*_exps\.=CPU"]).unwrap();
        assert_eq!(
            target_of(&o, "blk.7.ffn_up_exps.weight"),
            Some(Target::Gpu(0))
        );
        assert_eq!(
            target_of(&o, "blk.17.ffn_up_exps.weight"),
            Some(Target::Cpu)
        );
        assert!(cpu_moe().matches("blk.0.ffn_down_exps.weight"));
        assert!(!cpu_moe().matches("blk.0.ffn_down_shexp.weight"));
    }

    #[test]
    fn a_pattern_outside_the_subset_or_a_bad_buffer_is_refused() {
        assert!(parse(&["(?=x)=CPU"]).is_err());
        assert!(parse(&["exps=GPU"]).is_err());
        assert!(parse(&["exps=CUDA"]).is_err());
    }
}
