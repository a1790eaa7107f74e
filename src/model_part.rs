//! The `model` chunk: step 02's model input and what was understood of the
//! model, and the catalog's installation.
//!
//! With the feature `split` each function here is a split point of the
//! chunk `model`, fetched right after the first result ([`crate::parts`]):
//! the catalog picker, the pasted config, the Hub fetch and the model's
//! facts leave the main module, and so does reading the catalog file
//! ([`crate::catalog_file`]). Without the feature they are plain functions.

use crate::catalog_file;
use crate::components::model_search::ModelSearch;
use crate::components::transfer::TransferStatus;
use crate::i18n::use_lang;
use crate::model_list::ModelOptions;
use crate::model_panel::{ModelFactsView, ModelInput};
use crate::parts::{use_parts, ChunkUnavailable, Load};
use leptos::prelude::*;
use std::borrow::Cow;
use vramfit_core::catalog::models::{self, ModelCatalog};
use vramfit_core::report::{Report, ShapeOrigin};
use vramfit_core::request::Request;
use vramfit_core::scenario::ScenarioError;

/// The model input (catalog, pasted config, Hub).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(model, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn model_input(
    input: RwSignal<Request>,
    model_errors: Signal<Vec<ScenarioError>>,
    status: RwSignal<Option<TransferStatus>>,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <ModelInput input model_errors status /> }.into_any())
}

/// The list under the first screen's model field, once the catalog is in
/// ([`crate::model_list`]).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(model, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn model_options(search: ModelSearch) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <ModelOptions search /> }.into_any())
}

/// What was understood of a real model (nothing for typed numbers).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(model, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn model_facts(report: Memo<Option<Report>>) -> Result<AnyView, ChunkUnavailable> {
    let summary = move || {
        report.with(|r| {
            r.as_ref()
                .filter(|r| r.model.source != ShapeOrigin::Manual)
                .map(|r| r.model.clone())
        })
    };
    Ok((move || summary().map(|model| view! { <ModelFactsView model /> })).into_any())
}

/// Reads a catalog file and installs it in the core: `Ok(false)` if the
/// text is not a catalog file or its metadata does not read. A catalog
/// installed before stays (the core keeps the first).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(model, fallible, wasm_split_path = ::leptos::wasm_split)
)]
pub fn install_catalog(text: &'static str) -> Result<bool, ChunkUnavailable> {
    if models::installed() {
        return Ok(true);
    }
    let Some(file) = catalog_file::parse(text) else {
        return Ok(false);
    };
    let catalog =
        ModelCatalog::from_parts(file.models, |name| file.config(name).map(Cow::Borrowed));
    Ok(match catalog {
        Ok(catalog) => models::install(catalog).is_ok() || models::installed(),
        Err(_) => false,
    })
}

/// Under the catalog picker: a line while the catalog is on its way, a
/// message and a retry button if it could not be fetched.
#[component]
pub fn CatalogStatus() -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let parts = use_parts();
    move || {
        match parts.catalog.get() {
        Load::Waiting => Some(
            view! {
                <p class="vf-field__hint" role="status" data-testid="catalog-loading">{move || t().catalog_loading}</p>
            }
            .into_any(),
        ),
        Load::Failed => Some(crate::parts::unavailable("catalog", move || parts.load_catalog())),
        Load::Ready(()) => None,
    }
    }
}
