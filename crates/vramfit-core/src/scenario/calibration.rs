//! A machine's runtime terms for vLLM as fitted on its own start-up log
//! (`vramfit estimate --calibrate LOG`, `calibrate::vllm::fit`): what the
//! scenario carries to every other estimate on that machine.

use serde::{Deserialize, Serialize};

/// vLLM's runtime terms on one machine, fitted on its log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VllmCalibration {
    /// Added to every worker's non-torch memory: what the log's non-KV
    /// memory holds beyond the prediction (negative where it holds less).
    pub non_torch_offset_bytes: i64,
    /// "Estimated CUDA graph memory" as the log prints it (0.21 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_estimate_bytes: Option<u64>,
    /// The GPU's total as CUDA reports it, where the log prints it: the
    /// machine's own figure, used instead of the catalog's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_total_bytes: Option<u64>,
}
