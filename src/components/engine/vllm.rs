//! vLLM's knobs beyond the numbers: the release (`--vllm-version`), the
//! GPUs' link (`--interconnect`) where the GPU comes more than one way, the
//! memory other processes hold on a unified-memory GPU
//! (`--other-memory-gib`), and the user's own start-up log, which the core
//! reads and fits (`calibrate::vllm`, the CLI's `--calibrate LOG`).

use super::knobs::EngineNumber;
use crate::i18n::{format, use_lang};
use leptos::prelude::*;
use vramfit_core::calibrate::vllm::{
    self as log_reader, Calibration, FigureUnit, LogError, VllmLog,
};
use vramfit_core::catalog::gpus::{find_gpu, Gpu, GpuCategory, Interconnect};
use vramfit_core::methods::vllm::{unified_memory, VllmRelease, FAMILIES};
use vramfit_core::request::Request;
use vramfit_core::scenario::EngineField;

/// The scenario's GPU as the catalog has it.
fn catalog_gpu(input: RwSignal<Request>) -> Option<&'static Gpu> {
    input.with(|i| i.scenario.gpu.as_deref().and_then(|g| find_gpu(g).ok()))
}

/// Whether the GPU comes with more than one link: data-center boards
/// (SXM on an NVSwitch, bridged NVLink or PCIe), workstation cards (with
/// or without an NVLink bridge) and the consumer cards the catalog names
/// with a bridge (RTX 3090); the rest are PCIe only.
fn several_links(gpu: &Gpu) -> bool {
    match gpu.category {
        GpuCategory::Datacenter | GpuCategory::Workstation => true,
        GpuCategory::Consumer => gpu.interconnect == Some(Interconnect::Nvlink),
        GpuCategory::DatacenterInference | GpuCategory::AppleUnified | GpuCategory::Laptop => false,
    }
}

fn link_name(link: Interconnect) -> &'static str {
    match link {
        Interconnect::Nvlink => "NVLink",
        Interconnect::Nvswitch => "NVSwitch",
        Interconnect::Pcie => "PCIe",
    }
}

/// The vLLM release, the link, the other memory and the log.
#[component]
pub fn VllmKnobs(
    /// The scenario the knobs edit.
    input: RwSignal<Request>,
) -> impl IntoView {
    let gpu = Memo::new(move |_| catalog_gpu(input));
    let links = move || gpu.get().filter(|g| several_links(g));
    let unified = move || {
        gpu.get()
            .and_then(|g| g.compute_capability)
            .is_some_and(|c| unified_memory(c.major, c.minor))
    };
    view! {
        <div class="vf-fields" data-testid="engine-vllm-release">
            <ReleasePicker input />
            {move || links().map(|g| view! { <LinkPicker input gpu=g /> })}
            {move || unified().then(|| view! { <EngineNumber field=EngineField::OtherMemoryGib input /> })}
        </div>
        <CalibrateLog input />
    }
}

#[component]
fn ReleasePicker(input: RwSignal<Request>) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let chosen = move || input.with(|i| i.scenario.engine.vllm_version);
    let family = move |r: VllmRelease| (r.major, r.minor);
    let on_change = move |ev| {
        let text = event_target_value(&ev);
        let release = VllmRelease::parse(&text);
        // A utilization not typed is the release's own default.
        input.update(|i| i.scenario.engine.vllm_version = release);
    };
    let default = VllmRelease::DEFAULT.family();
    view! {
        <div class="vf-field">
            <label class="vf-field__label" for="vf-engine-vllm_version">{move || e().vllm_version_label}</label>
            <select id="vf-engine-vllm_version" class="vf-field__input" data-testid="engine-vllm_version"
                on:change=on_change>
                <option value="" selected=move || chosen().is_none()>
                    {let d = default.clone(); move || (e().vllm_version_default)(&d)}
                </option>
                {FAMILIES.iter().rev().map(|f| {
                    let first = f.first;
                    // A release from a log (0.26.1) selects its family's row.
                    let selected = move || chosen().is_some_and(|c| family(c) == family(first)) ;
                    view! { <option value=first.family() selected=selected>{first.family()}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

#[component]
fn LinkPicker(input: RwSignal<Request>, gpu: &'static Gpu) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let chosen = move || input.with(|i| i.scenario.engine.interconnect);
    let usual = link_name(gpu.interconnect.unwrap_or(if gpu.name.contains("PCIe") {
        Interconnect::Pcie
    } else {
        match gpu.category {
            GpuCategory::Datacenter => Interconnect::Nvlink,
            _ => Interconnect::Pcie,
        }
    }));
    let on_change = move |ev| {
        let link = Interconnect::from_name(&event_target_value(&ev));
        input.update(|i| i.scenario.engine.interconnect = link);
    };
    view! {
        <div class="vf-field">
            <label class="vf-field__label" for="vf-engine-interconnect">{move || e().interconnect_label}</label>
            <select id="vf-engine-interconnect" class="vf-field__input" data-testid="engine-interconnect"
                on:change=on_change>
                <option value="" selected=move || chosen().is_none()>{move || (e().interconnect_usual)(usual)}</option>
                {Interconnect::ALL.into_iter().map(|l| view! {
                    <option value=l.id() selected=move || chosen() == Some(l)>{link_name(l)}</option>
                }).collect_view()}
            </select>
        </div>
    }
}

/// What the pasted log gave.
#[derive(Clone)]
enum Read {
    Empty,
    /// Read and fitted: the log and the fit.
    Fitted(Box<VllmLog>, Box<Calibration>),
    /// A line it needs is not there.
    Missing(LogError),
    /// Read, but the fit refused it (the core's sentence).
    Refused(String),
}

/// Reads `text` and fits this machine's runtime terms on the scenario as
/// it stands without a calibration, as `vramfit --calibrate LOG` does.
fn read(text: &str, request: &Request) -> Read {
    if text.trim().is_empty() {
        return Read::Empty;
    }
    let log = match log_reader::parse(text) {
        Ok(l) => l,
        Err(e) => return Read::Missing(e),
    };
    let mut scenario = request.scenario.clone();
    scenario.engine.vllm_calibration = None;
    let s = match scenario.validate() {
        Ok(s) => s,
        Err(e) => return Read::Refused(e.first().map_or(String::new(), |e| e.to_string())),
    };
    match log_reader::fit_scenario(&log, &s) {
        Ok(c) => Read::Fitted(Box::new(log), Box::new(c)),
        Err(e) => Read::Refused(e),
    }
}

#[component]
fn CalibrateLog(input: RwSignal<Request>) -> impl IntoView {
    let lang = use_lang();
    let e = move || lang.get().engine();
    let state = RwSignal::new(Read::Empty);
    let draft = RwSignal::new(String::new());
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        draft.set(text.clone());
        let r = input.with_untracked(|i| read(&text, i));
        match &r {
            Read::Fitted(log, c) => {
                let (calibration, release) = (c.calibration, log.release);
                input.update(|i| {
                    i.scenario.engine.vllm_calibration = Some(calibration);
                    // The machine runs the release its log prints, unless
                    // one is chosen.
                    if i.scenario.engine.vllm_version.is_none() {
                        i.scenario.engine.vllm_version = release;
                    }
                });
            }
            Read::Empty | Read::Missing(_) | Read::Refused(_) => {
                if input.with_untracked(|i| i.scenario.engine.vllm_calibration.is_some()) {
                    input.update(|i| i.scenario.engine.vllm_calibration = None);
                }
            }
        }
        state.set(r);
    };
    let applied = move || input.with(|i| i.scenario.engine.vllm_calibration);
    let clear = move |_| {
        state.set(Read::Empty);
        draft.set(String::new());
        input.update(|i| i.scenario.engine.vllm_calibration = None);
    };
    let style = move || lang.get().t().number;
    let shown = move |v: f64, unit: FigureUnit| match unit {
        FigureUnit::Gib => format!("{} GiB", format::decimal(&style(), v, 2)),
        FigureUnit::Tokens => format::integer(&style(), v.round().max(0.0) as u64),
        FigureUnit::Times => format!("{}×", format::decimal(&style(), v, 2)),
    };
    let scenario_release = move || {
        input
            .with(|i| i.scenario.engine.vllm_version)
            .unwrap_or(VllmRelease::DEFAULT)
            .text()
    };
    let table = move || {
        match state.get() {
        Read::Fitted(log, c) => {
            let rows = c
                .compared
                .iter()
                .map(|f| {
                    let logged = f.logged.map_or_else(|| "—".to_string(), |v| shown(v, f.unit));
                    view! {
                        <tr data-testid="calibrate-row" data-figure=f.figure.id()>
                            <th scope="row">{(e().calibrate_figure)(f.figure)}</th>
                            <td data-testid="calibrate-logged">{logged}</td>
                            <td data-testid="calibrate-predicted">{shown(f.predicted, f.unit)}</td>
                        </tr>
                    }
                })
                .collect_view();
            let release = log.release.map_or_else(|| "—".to_string(), |r| r.text());
            let gpu_logged = log.gpu.clone().unwrap_or_else(|| "—".to_string());
            let gpu_here = input.with_untracked(|i| i.scenario.gpu.clone()).unwrap_or_default();
            view! {
                <table class="vf-table" data-testid="calibrate-table">
                    <thead><tr>
                        <th scope="col">{e().calibrate_figure_col}</th>
                        <th scope="col">{e().calibrate_logged}</th>
                        <th scope="col">{e().calibrate_predicted}</th>
                    </tr></thead>
                    <tbody>
                        {rows}
                        <tr data-testid="calibrate-release">
                            <th scope="row">{e().vllm_version_label}</th>
                            <td>{release}</td>
                            <td>{scenario_release()}</td>
                        </tr>
                        <tr data-testid="calibrate-gpu">
                            <th scope="row">"GPU"</th>
                            <td>{gpu_logged}</td>
                            <td>{gpu_here}</td>
                        </tr>
                    </tbody>
                </table>
            }
            .into_any()
        }
        Read::Missing(LogError::MissingLine { line, figure }) => view! {
            <p class="vf-field__hint vf-error" role="alert" data-testid="calibrate-error">{(e().calibrate_missing)(line, figure)}</p>
        }
        .into_any(),
        Read::Refused(why) => view! {
            <p class="vf-field__hint vf-error" role="alert" data-testid="calibrate-error">{(e().calibrate_refused)(&why)}</p>
        }
        .into_any(),
        Read::Empty => ().into_any(),
    }
    };
    let note = move || {
        applied().map(|c| {
            let offset = format::signed_bytes(
                &style(),
                vramfit_core::units::DisplayUnit::Gib,
                c.non_torch_offset_bytes,
            );
            view! {
                <p class="vf-field__hint" data-testid="calibrate-applied" role="status">
                    {(e().calibrate_applied)(&offset)}
                    " "
                    <button type="button" class="vf-button" data-testid="calibrate-clear" on:click=clear>{e().calibrate_clear}</button>
                </p>
            }
        })
    };
    view! {
        <div class="vf-field vf-calibrate" data-testid="engine-calibrate">
            <label class="vf-field__label" for="vf-engine-calibrate">{move || e().calibrate_label}</label>
            <textarea
                id="vf-engine-calibrate"
                class="vf-field__input"
                data-testid="engine-calibrate-log"
                rows="3"
                spellcheck="false"
                autocomplete="off"
                placeholder="Initializing a V1 LLM engine … Graph capturing finished"
                prop:value=move || draft.get()
                on:input=on_input
            ></textarea>
            {table}
            {note}
        </div>
    }
}
