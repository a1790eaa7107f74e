//! How the weights and the KV cache are stored, as segmented buttons, each
//! with a "by hand" choice that opens the numeric field.

use crate::components::NumberField;
use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::request::Request;
use vramfit_core::scenario::{Field, KvDtype, WeightFormat};

/// The named weight formats (the core's list) and "bits by hand".
#[component]
pub fn WeightFormatPicker(
    /// The scenario whose format this sets.
    input: RwSignal<Request>,
    /// Whether a real model is loaded ("as published" needs one).
    #[prop(into)]
    has_model: Signal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let manual = move || input.with(|i| i.scenario.weight_format.is_none());
    let option = move |format: WeightFormat| {
        let needs_model = format == WeightFormat::AsPublished;
        view! {
            <button
                type="button"
                class="vf-seg__option"
                data-testid=format!("weight-format-{}", format.id())
                aria-pressed=move || (input.with(|i| i.scenario.weight_format) == Some(format)).to_string()
                disabled=move || needs_model && !has_model.get()
                // The hint goes once a model is in: it no longer applies.
                title=move || (needs_model && !has_model.get()).then(|| t().as_published_needs_model)
                on:click=move |_| input.update(|i| i.scenario.set_weight_format(format))
            >
                {move || if needs_model { t().as_published_label } else { format.label() }}
            </button>
        }
    };
    view! {
        <fieldset class="vf-fieldset">
            <legend class="vf-field__label">{move || t().weight_format_label}</legend>
            <div class="vf-seg vf-seg--wrap" role="group" data-testid="weight-format" on:keydown=crate::components::seg_keys>
                {WeightFormat::ALL.into_iter().map(option).collect_view()}
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid="weight-format-manual"
                    aria-pressed=move || manual().to_string()
                    on:click=move |_| input.update(|i| i.scenario.weight_format = None)
                >
                    {move || t().weight_manual}
                </button>
            </div>
            <Show when=manual>
                <div class="vf-fields">
                    <NumberField field=Field::WeightBits input />
                </div>
            </Show>
        </fieldset>
    }
}

/// The KV cache's element type: FP16/BF16 (2 bytes), FP8 (1), INT4 (0.5),
/// or bytes by hand.
#[component]
pub fn KvDtypePicker(
    /// The scenario whose KV bytes this sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let preset = move || input.with(|i| KvDtype::offered_for(i.scenario.kv_bytes));
    let by_hand = RwSignal::new(preset().is_none());
    let manual = move || by_hand.get() || preset().is_none();
    view! {
        <fieldset class="vf-fieldset">
            <legend class="vf-field__label">{move || t().kv_dtype_label}</legend>
            <div class="vf-seg vf-seg--wrap" role="group" data-testid="kv-dtype" on:keydown=crate::components::seg_keys>
                {KvDtype::OFFERED.into_iter().map(|dtype| view! {
                    <button
                        type="button"
                        class="vf-seg__option"
                        data-testid=format!("kv-dtype-{}", dtype.id())
                        aria-pressed=move || (!manual() && preset() == Some(dtype)).to_string()
                        on:click=move |_| {
                            by_hand.set(false);
                            input.update(|i| i.scenario.set_kv_dtype(dtype));
                        }
                    >
                        {dtype.label()}
                    </button>
                }).collect_view()}
                <button
                    type="button"
                    class="vf-seg__option"
                    data-testid="kv-dtype-manual"
                    aria-pressed=move || manual().to_string()
                    on:click=move |_| by_hand.set(true)
                >
                    {move || t().kv_manual}
                </button>
            </div>
            <Show when=manual>
                <div class="vf-fields">
                    <NumberField field=Field::KvBytes input />
                </div>
            </Show>
        </fieldset>
    }
}
