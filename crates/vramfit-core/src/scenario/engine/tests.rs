//! The engine knobs' validation, JSON and defaults.

use super::*;

#[test]
fn defaults_validate_to_the_engines_defaults() {
    let s = EngineKnobs::default().settings().unwrap();
    assert_eq!(s, EngineSettings::default());
    assert_eq!(s.utilization_ten_thousandths, None);
    assert_eq!((s.block_size, s.ubatch, s.flash_attn), (16, 512, true));
}

#[test]
fn every_bad_knob_is_named() {
    let knobs = EngineKnobs {
        gpu_memory_utilization: Some(1.5),
        block_size: 24,
        ubatch: 0,
        cache_type_v: Some(GgmlType::Q4_K),
        ..EngineKnobs::default()
    };
    let errors = knobs.settings().unwrap_err();
    let keys: Vec<&str> = errors.iter().map(|e| e.knob.key()).collect();
    assert_eq!(
        keys,
        [
            "gpu_memory_utilization",
            "block_size",
            "ubatch",
            "cache_type_v"
        ]
    );
    assert_eq!(
        errors[0].to_string(),
        "engine.gpu_memory_utilization must be between 0.0001 and 1"
    );
}

#[test]
fn json_takes_defaults_and_rejects_unknown_keys() {
    let knobs: EngineKnobs =
        serde_json::from_str(r#"{"gguf_type": "Q4_K_S", "cache_type_k": "q8_0"}"#).unwrap();
    assert_eq!(knobs.gguf_type, Some(FileType::Q4_K_S));
    assert_eq!(knobs.cache_type_k, Some(GgmlType::Q8_0));
    assert_eq!(knobs.ubatch, 512);
    assert!(serde_json::from_str::<EngineKnobs>(r#"{"ngl": 3}"#).is_err());
}

#[test]
fn a_gguf_type_with_a_weight_format_is_that_format() {
    let mut input = ScenarioInput::default();
    input.set_gguf_type(FileType::Q4_K_M);
    assert_eq!(input.weight_format, Some(WeightFormat::Q4KM));
    assert_eq!(input.engine.gguf_type, None);
    input.set_gguf_type(FileType::IQ4_XS);
    assert_eq!(input.engine.gguf_type, Some(FileType::IQ4_XS));
    assert_eq!(input.gguf_type(), Some(FileType::IQ4_XS));
    for f in FileType::ALL {
        if let Some(w) = format_of_gguf(f) {
            assert_eq!(gguf_of(w), Some(f));
        }
    }
}

#[test]
fn optional_knobs_go_back_to_auto() {
    let mut knobs = EngineKnobs::default();
    EngineField::NGpuLayers.set(&mut knobs, Some(20.0));
    assert_eq!(knobs.n_gpu_layers, Some(20));
    EngineField::NGpuLayers.set(&mut knobs, None);
    assert!(knobs.is_default());
}
