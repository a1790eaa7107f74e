//! The fit table: every catalog model × every catalog GPU × a few weight
//! formats through the selected method, so a person sees at a glance which
//! card holds which model. The app recomputes it on every keystroke, so it
//! must stay within one 16 ms frame (the native benchmark,
//! `examples/bench.rs`, and the browser test report the figures).

use crate::catalog::{gpus, models};
use crate::methods::{self, MethodId};
use crate::request::Request;
use crate::scenario::{ModelRef, Scenario, ScenarioInput, WeightFormat};
use crate::units::Bytes;
use crate::verdict::FitStatus;
use serde::Serialize;

/// The formats of the table's columns by default: what people deploy.
pub const DEFAULT_FORMATS: [WeightFormat; 4] = [
    WeightFormat::Bf16,
    WeightFormat::Fp8,
    WeightFormat::Q5KM,
    WeightFormat::Q4KM,
];

/// One cell: a model in a format on a GPU.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitRow {
    pub model: &'static str,
    pub gpu: &'static str,
    pub format: WeightFormat,
    /// The method's total on the most loaded GPU.
    pub total_bytes: Bytes,
    pub status: FitStatus,
}

/// A catalog model's scenario: the base input with the model swapped in.
/// `None` when the model does not parse (the catalog marks it excluded).
fn with_model(base: &ScenarioInput, id: &str) -> Option<Scenario> {
    let input = ScenarioInput {
        model: Some(ModelRef::Catalog(id.to_string())),
        ..base.clone()
    };
    input.validate().ok()
}

/// Every catalog model × GPU × format for which the base request's method
/// gives an estimate. Cells the method does not estimate are left out.
pub fn fit_table(base: &Request, formats: &[WeightFormat]) -> Vec<FitRow> {
    let mut rows = Vec::new();
    for entry in models::all() {
        let Some(scenario) = with_model(&base.scenario, &entry.id) else {
            continue;
        };
        for &format in formats {
            let mut s = scenario.clone();
            s.set_weight_format(format);
            rows.extend(gpu_cells(base.method, &s, entry.id.as_str(), format));
        }
    }
    rows
}

/// One model in one format on every catalog GPU.
fn gpu_cells(
    method: MethodId,
    s: &Scenario,
    model: &'static str,
    format: WeightFormat,
) -> Vec<FitRow> {
    gpus::all()
        .iter()
        .filter_map(|gpu| {
            let mut on_gpu = s.clone();
            on_gpu.gpu_memory = crate::scenario::GpuMemory::of(gpu);
            on_gpu.gpu = Some(gpu);
            let r = methods::run(method, &on_gpu).ok()?;
            Some(FitRow {
                model,
                gpu: gpu.name.as_str(),
                format,
                total_bytes: r.total_bytes,
                status: r.verdict.status,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_gpu_and_format_has_a_cell_for_quick() {
        let rows = fit_table(&Request::default(), &DEFAULT_FORMATS);
        // Models the config reader excludes have no scenario, so no cells.
        let calculable = models::all().iter().filter(|m| m.is_calculable()).count();
        let expected = calculable * gpus::all().len() * DEFAULT_FORMATS.len();
        assert_eq!(rows.len(), expected);
    }

    #[test]
    fn cells_agree_with_a_single_estimate() {
        let rows = fit_table(&Request::default(), &[WeightFormat::Q4KM]);
        let cell = rows
            .iter()
            .find(|r| r.model == "meta-llama/Llama-3.1-8B" && r.gpu.contains("RTX 4090"))
            .unwrap();
        let mut input = ScenarioInput {
            model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
            ..ScenarioInput::default()
        };
        input.set_weight_format(WeightFormat::Q4KM);
        input.set_gpu("RTX 4090");
        let doc = crate::report::build(&Request::new(MethodId::Quick, input)).unwrap();
        assert_eq!(cell.total_bytes, doc.estimate.total_bytes);
        assert_eq!(cell.status, doc.estimate.verdict.status);
    }

    #[test]
    fn the_allocator_skips_what_it_does_not_estimate() {
        let base = Request::new(MethodId::Allocator, ScenarioInput::default());
        let rows = fit_table(&base, &[WeightFormat::Bf16, WeightFormat::Q4KM]);
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r.format == WeightFormat::Bf16));
        assert!(rows.iter().all(|r| !r.model.contains("Mixtral")));
    }
}
