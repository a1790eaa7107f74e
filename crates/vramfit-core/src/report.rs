//! The JSON contract (`schema: "vramfit/1"`): one document that the CLI
//! prints with `--json` and the web app exports, byte for byte the same for
//! the same inputs. All sizes are integer bytes.

mod inputs;
use crate::advice::{self, Answers, Suggestion};
use crate::methods::planner::{self, NoSpeed, Speed};
use crate::methods::{self, dense, MethodId, MethodResult, RunError};
use crate::model::{KvGrowth, LayerCount, ModelSpec, PublishedFormat};
use crate::request::{Request, RequestError};
use crate::scenario::{Layout, ModelRef, Scenario, ScenarioInput};
#[cfg(test)]
use crate::term::Term;
use crate::units::Bytes;
use serde::Serialize;
use std::sync::Arc;

/// Version of the document layout; bumped only on a breaking change.
pub const SCHEMA: &str = "vramfit/1";

/// The application version written into every document.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What vramfit understood of the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelFacts {
    /// Where the shape came from.
    pub source: ShapeOrigin,
    /// All parameters.
    pub params_total: u64,
    /// Parameters used per token (equal to the total for a dense model).
    pub params_active: u64,
    pub layers: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// Bytes one more token of context adds, for one sequence, at the
    /// chosen KV dtype and the scenario's context, across the layers that
    /// still grow there (a sliding window already full adds nothing; a
    /// latent layer adds its latent; typed numbers are all full attention).
    pub kv_bytes_per_token: Bytes,
    /// The same growth exactly: a fraction of bytes per token and bytes
    /// per 1,000 tokens, the mean over one period of the compressed layers
    /// (DeepSeek-V4 adds a pooled entry every 4 or 128 tokens, so the next
    /// single token may add nothing); `kv_bytes_per_token` is it rounded.
    pub kv_growth: KvGrowth,
    /// Layers by attention kind (a real model only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers_by_kind: Vec<LayerCount>,
    /// Everything parsed from the config (a real model only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<Arc<ModelSpec>>,
    /// The checkpoint's own format and bytes, text model and vision tower
    /// (a real model only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<PublishedFormat>,
}

/// Where a scenario's model shape came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShapeOrigin {
    /// Typed numbers.
    Manual,
    /// A catalog id.
    Catalog,
    /// A pasted or read `config.json`.
    Config,
    /// A GGUF file's header.
    Gguf,
}

impl ModelFacts {
    /// The summary of a validated scenario's model.
    pub fn of(input: &ScenarioInput, scenario: &Scenario) -> ModelFacts {
        let source = match &input.model {
            None => ShapeOrigin::Manual,
            Some(ModelRef::Catalog(_)) => ShapeOrigin::Catalog,
            Some(ModelRef::Config(_) | ModelRef::ConfigWithQuant { .. }) => ShapeOrigin::Config,
            Some(ModelRef::Gguf(_)) => ShapeOrigin::Gguf,
        };
        let model = scenario.model.as_deref();
        let growth = model.map_or_else(
            || KvGrowth::whole(dense::kv_bytes_per_token(scenario).get()),
            |m| m.kv_growth(scenario.context, scenario.kv_milli_bits),
        );
        ModelFacts {
            source,
            params_total: scenario.params,
            // The vision tower an engine loads is active for every token
            // of an image, and counted with the total.
            params_active: model.map_or(scenario.params, |m| {
                m.params_active
                    .saturating_add(m.checkpoint.params.saturating_sub(m.params_total))
            }),
            layers: scenario.layers,
            kv_heads: scenario.kv_heads,
            head_dim: scenario.head_dim,
            kv_bytes_per_token: Bytes(growth.per_token_rounded()),
            kv_growth: growth,
            layers_by_kind: model.map(|m| m.layers_by_kind()).unwrap_or_default(),
            spec: scenario.model.clone(),
            published: model.map(ModelSpec::published_format),
        }
    }
}

/// The whole document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub schema: &'static str,
    pub app_version: &'static str,
    /// Everything needed to reproduce (and re-import) the calculation;
    /// with a model, without the typed shape its config replaces
    /// ([`inputs`]).
    #[serde(serialize_with = "inputs::serialize")]
    pub inputs: Request,
    pub model: ModelFacts,
    /// How the GPUs are used (`gpus = tp × pp × replicas`), derived from
    /// the GPU count unless TP or PP was set.
    pub layout: Layout,
    /// The selected method's result.
    pub estimate: MethodResult,
    /// Every method that estimates the scenario, in [`MethodId::ALL`] order.
    pub methods: Vec<MethodResult>,
    /// Single adjustments that make it fit (empty when it already fits).
    pub suggestions: Vec<Suggestion>,
    /// Longest context, largest batch, smallest catalog GPU and fewest
    /// GPUs that fit, for the selected method.
    pub answers: Answers,
    /// Decode and prefill speed (seed 002's roofline), where given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Speed>,
    /// Why there is no speed figure, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_unavailable: Option<NoSpeed>,
}

impl Report {
    /// The document as pretty-printed JSON (what the CLI prints and the app
    /// downloads), ending with a newline.
    pub fn to_json(&self) -> String {
        // Serializing plain structs of integers and strings cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Validates the request's scenario and builds the document.
///
/// ```
/// use vramfit_core::{report, request::Request};
/// let doc = report::build(&Request::default()).unwrap();
/// assert_eq!(doc.estimate.total_bytes, 18_781_116_006);
/// assert_eq!(doc.model.kv_bytes_per_token, 131_072);
/// ```
pub fn build(request: &Request) -> Result<Report, RequestError> {
    let scenario = request.scenario.validate().map_err(RequestError::Invalid)?;
    build_valid(request, &scenario).map_err(RequestError::Refused)
}

/// Builds the document for a request whose scenario already validated to
/// `scenario`; fails only when the chosen method does not estimate it.
pub fn build_valid(request: &Request, scenario: &Scenario) -> Result<Report, RunError> {
    let estimate = methods::run(request.method, scenario)?;
    let speed = planner::speed(scenario);
    let methods: Vec<MethodResult> = MethodId::ALL
        .iter()
        .filter_map(|m| methods::run(*m, scenario).ok())
        .collect();
    let suggestions = advice::suggestions(scenario, &estimate);
    Ok(Report {
        suggestions,
        answers: advice::answers(request.method, scenario),
        speed: speed.as_ref().ok().cloned(),
        speed_unavailable: speed.err(),
        methods,
        ..head(request, scenario, estimate)
    })
}

/// The head of the document alone: the request, the model facts and the
/// chosen method's `estimate`, with no other method, no suggestion, no
/// answer and no speed ([`build_valid`] adds those). The web app shows the
/// head's figures first, while the code that computes the rest is still
/// loading; a head is never exported.
///
/// ```
/// use vramfit_core::methods::{quick, MethodId};
/// use vramfit_core::{report, request::Request};
/// let request = Request::default();
/// let scenario = request.scenario.validate().unwrap();
/// let head = report::head(&request, &scenario, quick::estimate(&scenario).unwrap());
/// let full = report::build(&request).unwrap();
/// assert_eq!((head.estimate, head.model), (full.estimate, full.model));
/// assert!(head.methods.is_empty() && head.speed.is_none());
/// assert_eq!(request.method, MethodId::Quick);
/// ```
pub fn head(request: &Request, scenario: &Scenario, estimate: MethodResult) -> Report {
    Report {
        schema: SCHEMA,
        app_version: APP_VERSION,
        inputs: request.clone(),
        model: ModelFacts::of(&request.scenario, scenario),
        layout: scenario.layout,
        estimate,
        methods: Vec::new(),
        suggestions: Vec::new(),
        answers: Answers::default(),
        speed: None,
        speed_unavailable: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_has_the_contract_keys() {
        let doc: serde_json::Value =
            serde_json::from_str(&build(&Request::default()).unwrap().to_json()).unwrap();
        assert_eq!(doc["schema"], "vramfit/1");
        assert_eq!(doc["estimate"]["method"], "quick");
        assert_eq!(doc["estimate"]["verdict"]["status"], "con_margen");
        assert_eq!(doc["estimate"]["components"]["weights"], 16_000_000_000u64);
        // quick and lesson; allocator needs a real model, not typed numbers.
        let names: Vec<&str> = doc["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["quick", "lesson"]);
        // inputs round-trip into the same scenario
        let back: Request = serde_json::from_value(doc["inputs"].clone()).unwrap();
        assert_eq!(back, Request::default());
    }

    #[test]
    fn a_method_that_does_not_estimate_the_scenario_is_a_clear_error() {
        let full = ScenarioInput {
            mode: crate::scenario::Mode::Full,
            ..ScenarioInput::default()
        };
        assert_eq!(
            build(&Request::new(MethodId::Quick, full.clone()))
                .unwrap_err()
                .to_string(),
            "method quick does not estimate full (it applies to: inference)"
        );
        assert!(build(&Request::new(MethodId::Lesson, full.clone())).is_ok());
        let err = build(&Request::new(MethodId::Allocator, full))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "method allocator cannot estimate this: it needs a real model (catalog id or config.json), not typed numbers"
        );
    }

    #[test]
    fn allocator_reproduces_seed_003_cli_example() {
        // vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096
        let input = ScenarioInput {
            mode: crate::scenario::Mode::Lora,
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            context: 4096,
            ..ScenarioInput::default()
        };
        let doc = build(&Request::new(MethodId::Allocator, input)).unwrap();
        let gb2 = |term: Term| {
            let bytes = doc.estimate.components.get(term).unwrap();
            bytes.display(crate::units::DisplayUnit::Gb)
        };
        assert_eq!(gb2(Term::Weights), "16.12 GB");
        assert_eq!(gb2(Term::Gradients), "0.05 GB");
        assert_eq!(gb2(Term::Optimizer), "0.11 GB");
        assert_eq!(gb2(Term::StepWorkspace), "0.05 GB");
        assert_eq!(gb2(Term::Overhead), "0.75 GB");
        // RTX 3090 (24 GB): does not fit.
        assert_eq!(
            doc.estimate.verdict.status,
            crate::verdict::FitStatus::DoesNotFit
        );
    }

    #[test]
    fn kv_per_token_counts_only_layers_still_growing() {
        // Gemma-2-9B: 21 global + 21 sliding (4,096) layers, 8 × 256 KV.
        let at = |context: u64| {
            let input = ScenarioInput {
                model: Some(ModelRef::Catalog("google/gemma-2-9b-it".into())),
                context,
                ..ScenarioInput::default()
            };
            build(&Request::new(MethodId::Quick, input))
                .unwrap()
                .model
                .kv_bytes_per_token
        };
        // 42 layers × 2 × 8 × 256 × 2 bytes below the window; 21 beyond it.
        assert_eq!(at(1_024), 344_064);
        assert_eq!(at(8_192), 172_032);
    }

    #[test]
    fn components_keep_their_order() {
        let text = build(&Request::default()).unwrap().to_json();
        let w = text.find("\"weights\"").unwrap();
        let k = text.find("\"kv_cache\"").unwrap();
        let o = text.find("\"overhead\"").unwrap();
        assert!(w < k && k < o);
    }
}
