//! The fit on the shared load logs: the log's own scenario comes back to
//! its printed compute buffers, another context moves as the replay scales.

use super::*;
use crate::calibrate::llamacpp::{inputs, parse, LlamacppLog};
use crate::catalog::models;
use crate::methods::llamacpp::{estimate, run, FileType, LlamaCppInputs};
use crate::scenario::{ModelRef, ScenarioInput};

const LOGS: &str = include_str!("../../data/engines/llamacpp-logs.md");

fn excerpt(id: &str) -> String {
    let start = LOGS.find(&format!("## [{id}]")).unwrap();
    LOGS[start..].split("```").nth(1).unwrap().to_string()
}

/// The log, the fit on it, and the scenario that starts from it.
fn fitted(id: &str, model: &str, file_type: FileType) -> (LlamacppLog, ScenarioInput) {
    let log = parse(&excerpt(id)).unwrap();
    let spec = models::find_model(model).unwrap().spec().unwrap();
    let base = LlamaCppInputs {
        file_type,
        ..LlamaCppInputs::default()
    };
    let e = estimate(&spec, &inputs(&log, base), None).unwrap();
    let mut input = ScenarioInput {
        model: Some(ModelRef::Catalog(model.to_string())),
        ..ScenarioInput::default()
    };
    input.engine.gguf_type = Some(file_type);
    start_from(&log, &mut input);
    input.engine.llamacpp_calibration = Some(fit(&log, &e));
    (log, input)
}

fn gpu_compute(input: &ScenarioInput) -> u64 {
    run(&input.validate().unwrap())
        .unwrap()
        .estimate
        .gpu
        .compute
}

fn check(id: &str, model: &str, file_type: FileType, build: u32) {
    let (log, input) = fitted(id, model, file_type);
    let c = input.engine.llamacpp_calibration.unwrap();
    assert_eq!(c.build, Some(build));
    assert_eq!(
        c.free_bytes,
        Some(log.devices[0].free_mib << 20),
        "the GPU's free memory as printed"
    );
    let printed = LlamacppLog::sum(&log.compute_buffers, false).bytes();
    let half = log.printed_by.half_digit(printed);
    // The replay alone misses the print (else there is nothing to fit) …
    // (Without the calibration, the build it names is given instead.)
    let mut bare = input.clone();
    bare.engine.llamacpp_calibration = None;
    bare.engine.llamacpp_build = c.build;
    let replay = gpu_compute(&bare);
    assert!(
        replay.abs_diff(printed) > half,
        "{id}: {replay} vs {printed}"
    );
    // … the calibrated scenario of the log's own settings is the print.
    let own = gpu_compute(&input);
    assert!(own.abs_diff(printed) <= half, "{id}: {own} vs {printed}");
    // Another context and micro-batch: their replay, scaled as the log
    // measured.
    let mut other = input.clone();
    other.context = log.n_ctx / 2;
    other.engine.ubatch = if log.n_ubatch == Some(256) { 512 } else { 256 };
    let mut other_bare = other.clone();
    other_bare.engine.llamacpp_calibration = None;
    other_bare.engine.llamacpp_build = c.build;
    let replay_other = gpu_compute(&other_bare);
    let calibrated = gpu_compute(&other);
    assert_eq!(calibrated, c.gpu(replay_other));
    assert_ne!(calibrated, replay_other);
    assert_ne!(calibrated, own, "{id}: the figure moves with the scenario");
    // The document carries the terms and reads them back.
    let json = serde_json::to_value(&input).unwrap();
    let carried = &json["engine"]["llamacpp_calibration"];
    assert_eq!(carried["gpu_compute_printed_bytes"], printed);
    let back: ScenarioInput = serde_json::from_value(json).unwrap();
    assert_eq!(back.engine.llamacpp_calibration, Some(c));
}

#[test]
fn a_vulkan_log_calibrates_its_own_and_another_scenario() {
    // [A7]: Llama-3.1-8B Q4_0 on an RTX 4080 (Vulkan), -ub 1024, 16,384 cells.
    check(
        "A7",
        "meta-llama/Llama-3.1-8B-Instruct",
        FileType::Q4_0,
        5781,
    );
}

#[test]
fn a_metal_log_calibrates_its_own_and_another_scenario() {
    // [U3]: gpt-oss-20b MXFP4 on an Apple GPU (Metal).
    let log = parse(&excerpt("U3")).unwrap();
    let build = build_number(&log).unwrap();
    check("U3", "openai/gpt-oss-20b", FileType::MXFP4_MOE, build);
}

#[test]
fn a_side_that_rounds_to_the_print_keeps_the_replay() {
    // [A7]'s host compute buffer (80.01 MiB) is replayed to the print.
    let (_, input) = fitted("A7", "meta-llama/Llama-3.1-8B-Instruct", FileType::Q4_0);
    let c = input.engine.llamacpp_calibration.unwrap();
    assert_eq!(c.host_compute_replayed_bytes, None);
    assert_eq!(c.host(123_456), 123_456);
}
