//! Catalogs installed at run time (`catalog::models::install`,
//! `catalog::gpus::install`), as the web app does with the model catalog it
//! fetches and the GPU table its `details` chunk brings. An installed
//! catalog replaces the checked-in one for the rest of the process, so this
//! file is a test binary of its own.

use std::borrow::Cow;
use std::fs;
use std::path::Path;
use vramfit_core::catalog::{self, gpus, models, ModelCatalog};
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::scenario::{GpuMemory, ModelRef, ScenarioError, ScenarioInput};

fn data(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(path);
    fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// A `models.json` document with one row of the checked-in one.
fn one_model_metadata(id: &str) -> String {
    let all: serde_json::Value = serde_json::from_str(&data("models.json")).unwrap();
    let row = all["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .unwrap()
        .clone();
    serde_json::json!({ "models": [row] }).to_string()
}

#[test]
fn installed_catalogs_replace_the_checked_in_ones() {
    // Before: the checked-in catalogs (the feature `embedded`, on by default).
    assert!(!models::installed());
    assert!(models::all().len() > 100);
    assert!(catalog::find_model("Qwen3-8B").is_ok());
    let checked_in = gpus::checked_in();
    assert_eq!(checked_in, gpus::all());

    // A catalog of one model, from its parts as fetched text.
    let metadata = one_model_metadata("meta-llama/Llama-3.1-8B");
    let config = data("configs/meta-llama__Llama-3.1-8B.json");
    let one = ModelCatalog::from_parts(&metadata, |file| {
        (file == "meta-llama__Llama-3.1-8B.json").then(|| Cow::Owned(config.clone()))
    })
    .unwrap();
    assert!(models::install(one).is_ok());
    assert!(models::installed());
    assert_eq!(models::all().len(), 1);
    assert_eq!(
        catalog::find_model("llama 3.1 8b").unwrap().id,
        "meta-llama/Llama-3.1-8B"
    );
    assert!(catalog::find_model("Qwen3-8B").is_err());
    // Only the first install counts.
    assert!(models::install(ModelCatalog::default()).is_err());
    assert_eq!(models::all().len(), 1);

    // A GPU table of one card, renamed so that the lookup can only have
    // found it in the installed table.
    let mut card = checked_in
        .iter()
        .find(|g| g.name == "NVIDIA GeForce RTX 4090")
        .unwrap()
        .clone();
    card.name = "Test Card 4090".into();
    // The memory every method fits against: the card's own figures (its
    // driver's total where known), as for the checked-in card.
    let memory = GpuMemory::of(&card).bytes();
    assert!(memory.get() > 24_000_000_000);
    assert!(gpus::install(vec![card]).is_ok());
    assert_eq!(gpus::all().len(), 1);
    assert_eq!(
        catalog::find_gpu("test card 4090").unwrap().name,
        "Test Card 4090"
    );
    assert!(catalog::find_gpu("H100").is_err());
    assert!(gpus::install(checked_in).is_err());

    // A scenario resolves its model and GPU in the installed catalogs.
    let input = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        gpu: Some("Test Card 4090".into()),
        ..ScenarioInput::default()
    };
    let scenario = input.validate().unwrap();
    assert_eq!(scenario.params, 8_030_261_248);
    assert_eq!(scenario.gpu_bytes(), memory);
    // Typed-numbers validation does not look either up.
    assert_eq!(input.validate_typed(), None);
    let report = report::build(&Request::new(Default::default(), input)).unwrap();
    assert_eq!(
        report.answers.smallest_gpu.as_deref(),
        Some("Test Card 4090")
    );

    let unknown = ScenarioInput {
        model: Some(ModelRef::Catalog("Qwen/Qwen3-8B".into())),
        ..ScenarioInput::default()
    };
    assert!(matches!(
        unknown.validate().unwrap_err()[..],
        [ScenarioError::UnknownModel(_)]
    ));
}
