//! The engine methods (`vllm`, `llamacpp`) on the page: the engine's own
//! figures under the breakdown ([`EnginePanel`]), the command line to copy
//! ([`command`]), the engines' knobs ([`knobs`]) and the GGUF type picker
//! ([`gguf`]). The figures come from the report (`estimate.engine`); none
//! is computed here.

pub mod command;
pub mod gguf;
pub mod knobs;
pub mod vllm;

use crate::i18n::{format, use_lang};
use command::CommandLine;
use leptos::prelude::*;
use vramfit_core::methods::engine::{EngineNote, EngineReport, LlamacppReport, VllmReport};
use vramfit_core::units::{Bytes, DisplayUnit};

/// The engine's own figures for the selected method, if it is an engine.
#[component]
pub fn EnginePanel(
    /// `estimate.engine` of the report.
    #[prop(into)]
    engine: Signal<Option<EngineReport>>,
    /// The scenario's context, for the concurrency line.
    #[prop(into)]
    context: Signal<u64>,
) -> impl IntoView {
    move || {
        engine.get().map(|e| match e {
            EngineReport::Vllm(v) => view! { <VllmFigures v context /> }.into_any(),
            EngineReport::Llamacpp(l) => view! { <LlamacppFigures l /> }.into_any(),
        })
    }
}

/// One labelled figure.
fn row(testid: &'static str, label: &'static str, value: String) -> impl IntoView {
    view! {
        <tr data-testid=format!("engine-{testid}")>
            <th scope="row">{label}</th>
            <td class="vf-num" data-testid=format!("engine-{testid}-value")>{value}</td>
        </tr>
    }
}

/// What vLLM reports at start-up.
#[component]
fn VllmFigures(v: VllmReport, #[prop(into)] context: Signal<u64>) -> impl IntoView {
    let lang = use_lang();
    let v = StoredValue::new(v);
    view! {
        <section class="vf-engine" data-testid="engine-panel" data-engine="vllm">
            {move || {
                let l = lang.get();
                let (t, e) = (l.t(), l.engine());
                let n = &t.number;
                let gib = |b: u64| format::bytes(n, DisplayUnit::Gib, Bytes(b));
                let v = v.get_value();
                let concurrency = (e.concurrency)(
                    &format::decimal(n, v.max_concurrency, 2),
                    &format::integer(n, context.get()),
                );
                view! {
                    <h3 class="vf-subhead">{e.vllm_title}</h3>
                    {match &v.start_error {
                        Some(err) => view! {
                            <p class="vf-engine__error" role="alert" data-testid="engine-start-error" data-kind=format!("{:?}", err.kind)>
                                <strong>{e.would_not_start}</strong>" "<code>{err.message.clone()}</code>
                            </p>
                        }.into_any(),
                        None => view! { <p class="vf-engine__ok" data-testid="engine-starts">{e.starts}</p> }.into_any(),
                    }}
                    <div class="vf-engine__scroll">
                    <table class="vf-engine__table">
                        <tbody>
                            {row("kv-pool", e.kv_pool, gib(v.kv_cache_bytes))}
                            {row("kv-tokens", e.kv_tokens, format::integer(n, v.kv_cache_tokens))}
                            {row("concurrency", e.concurrency_label, concurrency)}
                            {row("longest-start", e.longest_start, (t.tokens)(&format::integer(n, v.max_model_len_fits)))}
                            {row("cuda-graphs", e.cuda_graphs, gib(v.cuda_graph_bytes))}
                            {row("gpu-total", e.gpu_total, gib(v.gpu_total_bytes))}
                        </tbody>
                    </table>
                    </div>
                    <Notes notes=v.notes.clone() />
                    // A command that would not start is not one to copy.
                    {v.start_error.is_none().then(|| view! { <CommandLine command=v.command.clone() /> })}
                }
            }}
        </section>
    }
}

/// Where llama.cpp puts each byte.
#[component]
fn LlamacppFigures(l: LlamacppReport) -> impl IntoView {
    let lang = use_lang();
    let r = StoredValue::new(l);
    view! {
        <section class="vf-engine" data-testid="engine-panel" data-engine="llamacpp">
            {move || {
                let lang = lang.get();
                let (t, e) = (lang.t(), lang.engine());
                let n = &t.number;
                let gib = |b: u64| format::bytes(n, DisplayUnit::Gib, Bytes(b));
                let l = r.get_value();
                let longest = match l.max_context {
                    Some(c) => (t.tokens)(&format::integer(n, c)),
                    None => e.none.to_string(),
                };
                let share = |part: u64| format!("{:.3}%", part as f64 / (l.gpu_bytes + l.host_bytes).max(1) as f64 * 100.0);
                view! {
                    <h3 class="vf-subhead">{e.llamacpp_title}" · GGUF "{l.file_type.name()}</h3>
                    <div class="vf-engine__split" aria-hidden="true">
                        <span class="vf-engine__gpu" style:width=share(l.gpu_bytes)></span>
                        <span class="vf-engine__host" style:width=share(l.host_bytes)></span>
                    </div>
                    {
                        let host_layers = l.layers_total.saturating_sub(l.gpu_layers);
                        let text = match host_layers {
                            0 => e.all_on_gpu.to_string(),
                            n => (e.offloaded)(n, l.layers_total, &gib(l.host_bytes)),
                        };
                        view! {
                            <p class="vf-engine__where" data-testid="engine-offload" data-host-layers=host_layers>{text}</p>
                        }
                    }
                    <div class="vf-engine__scroll">
                    <table class="vf-engine__table">
                        <tbody>
                            {row("layers", e.layers_label, (e.layers)(l.gpu_layers, l.layers_total))}
                            {row("gpu", e.on_gpu, gib(l.gpu_bytes))}
                            {row("host", e.in_host, gib(l.host_bytes))}
                            {row("model-size", e.model_size, gib(l.model_size_bytes))}
                            {row("k-cache", e.k_cache, gib(l.k_bytes))}
                            {row("v-cache", e.v_cache, gib(l.v_bytes))}
                            {row("compute", e.compute_buffers, gib(l.compute_buffer_bytes))}
                            {row("output", e.output_buffer, gib(l.output_buffer_bytes))}
                            {row("most-layers", e.most_layers, format::integer(n, l.max_gpu_layers))}
                            {row("longest-fit", e.longest_fit, longest)}
                        </tbody>
                    </table>
                    </div>
                    <Notes notes=l.notes.clone() />
                    <CommandLine command=l.command.clone() />
                }
            }}
        </section>
    }
}

/// What the estimate assumed, in the page's language.
#[component]
fn Notes(notes: Vec<EngineNote>) -> impl IntoView {
    let lang = use_lang();
    (!notes.is_empty()).then(|| {
        view! {
            <ul class="vf-engine__notes" data-testid="engine-notes">
                {notes.into_iter().map(|note| view! {
                    <li>{move || (lang.get().engine().note)(&note)}</li>
                }).collect_view()}
            </ul>
        }
    })
}
