//! Knobs of how the step runs (seed 003's): precision, gradient
//! checkpointing, optimizer, attention implementation and whether the
//! forward keeps a KV cache (`use_cache`).

use crate::i18n::{use_lang, Texts};
use leptos::prelude::*;
use vramfit_core::request::Request;
use vramfit_core::scenario::{AttnImpl, Optimizer, Precision, ScenarioInput};

/// One segmented choice among `options`, reading and writing the scenario.
fn segmented<T: Copy + PartialEq + Send + Sync + 'static>(
    label: fn(&Texts) -> &'static str,
    testid: &'static str,
    options: Vec<(T, &'static str)>,
    input: RwSignal<Request>,
    get: fn(&ScenarioInput) -> T,
    set: fn(&mut ScenarioInput, T),
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <div class="vf-seg" role="group" aria-label=move || label(lang.get().t()) on:keydown=crate::components::seg_keys>
            {options.into_iter().map(|(value, name)| view! {
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid=format!("{testid}-{}", name.to_lowercase())
                    aria-pressed=move || (input.with(|i| get(&i.scenario)) == value).to_string()
                    on:click=move |_| input.update(|i| set(&mut i.scenario, value))
                >
                    {name}
                </button>
            }).collect_view()}
        </div>
    }
}

/// Training and runtime knobs of the `allocator` method.
#[component]
pub fn TrainingKnobs(
    /// The scenario these knobs edit.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let trains = move || input.with(|i| i.scenario.mode.trains());
    view! {
        <div class="vf-knobs">
            {segmented(|t| t.attention_label, "attn",
                vec![(AttnImpl::Sdpa, "sdpa"), (AttnImpl::Eager, "eager"), (AttnImpl::Flash, "flash")],
                input, |i| i.attn, |i, v| i.attn = v)}
            <Show when=trains>
                {segmented(|t| t.precision_label, "precision",
                    vec![(Precision::Pure, "pure"), (Precision::Amp, "amp")],
                    input, |i| i.precision, |i, v| i.precision = v)}
                {segmented(|t| t.optimizer_label, "optimizer",
                    vec![(Optimizer::AdamW, "AdamW"), (Optimizer::Sgd, "SGD")],
                    input, |i| i.optimizer, |i, v| i.optimizer = v)}
                <label class="vf-check">
                    <input
                        type="checkbox"
                        data-testid="grad-checkpoint"
                        prop:checked=move || input.with(|i| i.scenario.grad_checkpoint)
                        on:change=move |ev| input.update(|i| i.scenario.grad_checkpoint = event_target_checked(&ev))
                    />
                    " " {move || lang.get().t().grad_checkpoint}
                </label>
                <p class="vf-field__hint" data-testid="grad-checkpoint-default">{move || lang.get().engine().checkpoint_default}</p>
                // A KV cache object in the training forward (transformers'
                // default); checkpointing turns it off.
                <label class="vf-check">
                    <input
                        type="checkbox"
                        data-testid="use-cache"
                        prop:checked=move || input.with(|i| i.scenario.use_cache && !i.scenario.grad_checkpoint)
                        prop:disabled=move || input.with(|i| i.scenario.grad_checkpoint)
                        on:change=move |ev| input.update(|i| i.scenario.use_cache = event_target_checked(&ev))
                    />
                    " " {move || lang.get().t().use_cache}
                </label>
            </Show>
        </div>
    }
}
