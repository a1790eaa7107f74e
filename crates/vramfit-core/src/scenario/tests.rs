//! The scenario's own checks: defaults, fields, models, layouts.
use super::*;

#[test]
fn default_is_valid_and_exact() {
    let s = ScenarioInput::default().validate().unwrap();
    assert_eq!(s.params, 8_000_000_000);
    assert_eq!(s.weight_milli_bits, 16_000);
    assert_eq!(s.kv_milli_bits, 16_000);
    assert_eq!(s.gpu_bytes(), Bytes(24_000_000_000));
    assert_eq!(s.layout, Layout::SINGLE);
}

#[test]
fn gpus_alone_spread_one_copy_of_the_model() {
    let input = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        gpus: 4,
        ..ScenarioInput::default()
    };
    let s = input.validate().unwrap();
    assert_eq!((s.layout.tp, s.layout.pp, s.layout.replicas), (4, 1, 1));
    // TP set: the rest are copies of the model.
    let s = ScenarioInput {
        tp: Some(2),
        sequences: 5,
        ..input.clone()
    }
    .validate()
    .unwrap();
    assert_eq!((s.layout.tp, s.layout.pp, s.layout.replicas), (2, 1, 2));
    assert_eq!(s.replica_sequences(), 3);
    // 64 heads do not split 3 ways.
    let bad = ScenarioInput {
        tp: Some(3),
        gpus: 3,
        ..input
    };
    assert_eq!(
        bad.validate().unwrap_err(),
        [ScenarioError::Layout(LayoutError::Heads {
            tp: 3,
            attention: Some(64),
            kv: 8
        })]
    );
}

#[test]
fn a_mac_is_one_gpu() {
    let mut two = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        gpus: 2,
        ..ScenarioInput::default()
    };
    two.set_gpu("Apple M4 Max (128GB, 40-core GPU)");
    assert_eq!(
        two.validate().unwrap_err(),
        [ScenarioError::Layout(LayoutError::OneDevice { gpus: 2 })]
    );
    // With a TP typed too, the reason is the same.
    let typed = ScenarioInput {
        tp: Some(2),
        ..two.clone()
    };
    assert_eq!(
        typed.validate().unwrap_err(),
        [ScenarioError::Layout(LayoutError::OneDevice { gpus: 2 })]
    );
    // One Mac, or two cards that gang, validate.
    let one = ScenarioInput {
        gpus: 1,
        ..two.clone()
    };
    assert!(one.validate().is_ok());
    two.set_gpu("RTX 4090");
    assert!(two.validate().is_ok());
}

#[test]
fn every_bad_field_is_named() {
    let input = ScenarioInput {
        layers: 0,
        kv_bytes: f64::NAN,
        gpu_memory_gb: -3.0,
        ..ScenarioInput::default()
    };
    let errors = input.validate().unwrap_err();
    let fields: Vec<Field> = errors
        .iter()
        .filter_map(|e| match e {
            ScenarioError::Field(f) => Some(f.field),
            _ => None,
        })
        .collect();
    assert_eq!(fields, [Field::Layers, Field::KvBytes, Field::GpuMemoryGb]);
    assert_eq!(errors[0].to_string(), "layers must be between 1 and 1024");
}

#[test]
fn unknown_keys_in_json_are_rejected() {
    let err = serde_json::from_str::<ScenarioInput>(r#"{"layerz": 3}"#).unwrap_err();
    assert!(err.to_string().contains("layerz"));
}

#[test]
fn missing_keys_take_defaults() {
    let input: ScenarioInput = serde_json::from_str(r#"{"context": 4096}"#).unwrap();
    assert_eq!(input.context, 4096);
    assert_eq!(input.layers, 32);
}

#[test]
fn a_catalog_model_replaces_the_typed_shape() {
    let input = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/llama-3.1-70b".into())),
        ..ScenarioInput::default()
    };
    let s = input.validate().unwrap();
    assert_eq!(s.params, 70_553_706_496);
    assert_eq!((s.layers, s.kv_heads, s.head_dim), (80, 8, 128));
    assert!(s.model.is_some());
}

#[test]
fn model_problems_are_named() {
    let unknown = ScenarioInput {
        model: Some(ModelRef::Catalog("Lama-3.1-8B".into())),
        ..ScenarioInput::default()
    };
    let text = unknown.validate().unwrap_err()[0].to_string();
    assert!(
        text.contains("did you mean meta-llama/Llama-3.1-8B"),
        "{text}"
    );
    let broken = ScenarioInput {
        model: Some(ModelRef::Config(
            r#"{"model_type": "llama", "hidden_size": 4096"#.into(),
        )),
        ..ScenarioInput::default()
    };
    assert!(matches!(
        broken.validate().unwrap_err()[0],
        ScenarioError::Config(_)
    ));
}

#[test]
fn as_published_needs_a_model_and_reads_the_checkpoint() {
    let mut input = ScenarioInput::default();
    input.set_weight_format(WeightFormat::AsPublished);
    assert_eq!(
        input.validate().unwrap_err(),
        [ScenarioError::NeedsModel(WeightFormat::AsPublished)]
    );
    input.model = Some(ModelRef::Catalog("openai/gpt-oss-20b".into()));
    let s = input.validate().unwrap();
    // MXFP4 experts + BF16 rest: about 5.26 bits per parameter on average.
    assert_eq!(s.weight_milli_bits, 5_264);
}

#[test]
fn typing_bits_drops_the_named_format() {
    let mut input = ScenarioInput::default();
    input.set_weight_format(WeightFormat::Awq);
    assert_eq!(input.weight_bits, 4.16);
    input.set(Field::WeightBits, 5.0);
    assert_eq!(input.weight_format, None);
}

#[test]
fn a_pasted_config_with_its_hf_quant_config_weighs_as_the_catalog_row() {
    // NVIDIA's FP8 export of Llama-3.1-70B-Instruct: config.json has no
    // quantization_config; hf_quant_config.json says FP8.
    let config = include_str!("../../data/configs/nvidia__Llama-3.1-70B-Instruct-FP8.json");
    let side = include_str!("../../data/configs/hf_quant/nvidia__Llama-3.1-70B-Instruct-FP8.json");
    let with = |model: ModelRef| {
        let mut input = ScenarioInput {
            model: Some(model),
            ..ScenarioInput::default()
        };
        input.set_weight_format(WeightFormat::AsPublished);
        input.validate().unwrap()
    };
    let catalog = with(ModelRef::Catalog(
        "nvidia/Llama-3.1-70B-Instruct-FP8".into(),
    ));
    let pasted = with(ModelRef::config_with(config.into(), Some(side.into())));
    let alone = with(ModelRef::config_with(config.into(), Some("  ".into())));
    let note = alone.model.as_ref().unwrap().quantization_source.note();
    assert!(note.is_some());
    assert_eq!(
        pasted.model.as_ref().unwrap().quantization_source,
        crate::model::QuantSource::HfQuantConfig
    );
    assert_eq!(pasted.weight_milli_bits, catalog.weight_milli_bits);
    // FP8 weights, the 16-bit embeddings and head kept: a little over 8 bits.
    assert!(
        (8_000..8_500).contains(&pasted.weight_milli_bits),
        "{}",
        pasted.weight_milli_bits
    );
    assert!(
        alone.weight_milli_bits >= 16_000,
        "{}",
        alone.weight_milli_bits
    );
    // Both texts kept verbatim in the document, under their own names.
    let doc =
        serde_json::to_value(ModelRef::config_with(config.into(), Some(side.into()))).unwrap();
    assert_eq!(doc["config_with_quant"]["config"], config);
    assert_eq!(doc["config_with_quant"]["hf_quant_config"], side);
    let back: ModelRef = serde_json::from_value(doc).unwrap();
    assert_eq!(back.hf_quant_config(), Some(side));
    assert_eq!(back.config_text(), Some(config));
    // A side file that is not one is a clear error, not a silent reading.
    let broken = ScenarioInput {
        model: Some(ModelRef::config_with(
            config.into(),
            Some("{\"producer\": {}}".into()),
        )),
        ..ScenarioInput::default()
    };
    let text = broken.validate().unwrap_err()[0].to_string();
    assert!(text.contains("hf_quant_config.json"), "{text}");
}
