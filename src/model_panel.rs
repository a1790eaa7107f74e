//! Step 02, "Añadir entrada": a pasted `config.json`
//! (or a pasted exported document, which is imported), a config fetched
//! from the Hugging Face Hub, a GGUF file read by its header (dropped,
//! chosen or by URL: [`crate::components::gguf_file`]), and what was
//! understood of it. A catalog model is picked on the first screen
//! ([`crate::components::model_search`]); this step says whether the
//! catalog arrived.

use crate::components::fetch_row::{FetchRow, RowTexts};
use crate::components::gguf_file::GgufFile;
use crate::components::switch::{edit_announcing, notice};
use crate::components::transfer::{import_text, TransferStatus};
use crate::i18n::{format, use_lang, Lang};
use crate::import::looks_like_export;
use crate::model_part::CatalogStatus;
use crate::net::{self, HubOutcome};
use leptos::prelude::*;
use leptos::task::spawn_local;
use vramfit_core::model::QuantSource;
use vramfit_core::report::ModelFacts;
use vramfit_core::request::Request;
use vramfit_core::scenario::{ModelRef, ScenarioError};
use vramfit_core::units::{Bytes, DisplayUnit};

/// The model source: typed numbers, a catalog entry, a pasted or fetched
/// config.
#[component]
pub fn ModelInput(
    /// The scenario whose model this sets.
    input: RwSignal<Request>,
    /// Problems with the current model (unknown id, unusable config).
    #[prop(into)]
    model_errors: Signal<Vec<ScenarioError>>,
    /// Where a pasted exported document reports its import.
    status: RwSignal<Option<TransferStatus>>,
) -> impl IntoView {
    let notice = notice();
    let lang = use_lang();
    let t = move || lang.get().t();
    let config_text = move || {
        input.with(|i| {
            i.scenario
                .model
                .as_ref()
                .and_then(ModelRef::config_text)
                .map(str::to_string)
        })
    };
    let side_text = move || {
        input.with(|i| {
            i.scenario
                .model
                .as_ref()
                .and_then(ModelRef::hf_quant_config)
                .map(str::to_string)
        })
    };
    let on_paste = move |ev| {
        let text = event_target_value(&ev);
        if looks_like_export(&text) {
            import_text(&text, input, status);
            return;
        }
        // The side file stays with a new config text (it is on screen
        // just below, and pasting the two files in either order works).
        let side = side_text();
        edit_announcing(notice, input, |i| {
            i.set_model((!text.trim().is_empty()).then(|| ModelRef::config_with(text, side)))
        });
    };
    let on_side = move |ev| {
        let side = event_target_value(&ev);
        let Some(config) = config_text() else { return };
        edit_announcing(notice, input, |i| {
            i.set_model(Some(ModelRef::config_with(config, Some(side))))
        });
    };
    view! {
        <div class="vf-model">
            <CatalogStatus />
            <HubFetch input />
            <GgufFile input />
            <label class="vf-field__label" for="vf-config">{move || t().config_label}</label>
            <textarea
                id="vf-config"
                class="vf-config"
                rows="5"
                spellcheck="false"
                placeholder="{ \"model_type\": \"llama\", \"hidden_size\": 4096, ... }"
                data-testid="config-input"
                aria-describedby="vf-config-error vf-config-hint"
                prop:value=move || config_text().unwrap_or_default()
                on:input=on_paste
            ></textarea>
            <p id="vf-config-hint" class="vf-field__hint">{move || t().config_hint}</p>
            // An NVIDIA ModelOpt export's quantization, once a config is in.
            {move || config_text().is_some().then(|| view! {
                <label class="vf-field__label" for="vf-side">{move || t().side_label}</label>
                <textarea
                    id="vf-side"
                    class="vf-config vf-config--side"
                    rows="2"
                    spellcheck="false"
                    placeholder="{ \"producer\": { \"name\": \"modelopt\" }, \"quantization\": { \"quant_algo\": \"FP8\" } }"
                    data-testid="side-input"
                    aria-describedby="vf-side-hint"
                    prop:value=move || side_text().unwrap_or_default()
                    on:input=on_side
                ></textarea>
                <p id="vf-side-hint" class="vf-field__hint">{move || t().side_hint}</p>
            })}
            <p id="vf-config-error" class="vf-error" data-testid="config-error" role="alert">
                {move || model_errors.get().iter().map(|e| (t().scenario_error)(e)).collect::<Vec<_>>().join(" ")}
            </p>
        </div>
    }
}

/// A model id and a button that fetches its `config.json` from the Hub
/// (with its `hf_quant_config.json` when [`net::wants_side_file`]).
#[component]
fn HubFetch(
    /// The scenario the fetched config goes into.
    input: RwSignal<Request>,
) -> impl IntoView {
    let notice = notice();
    let lang = use_lang();
    let t = move || lang.get().t();
    let id = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let outcome = RwSignal::new(None::<HubOutcome>);
    // Only the latest request may write its answer.
    let generation = StoredValue::new(0u64);
    let fetch = move || {
        let wanted = id.get_untracked().trim().to_string();
        if !net::valid_model_id(&wanted) {
            outcome.set(Some(HubOutcome::InvalidId));
            return;
        }
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        busy.set(true);
        outcome.set(None);
        spawn_local(async move {
            let answer = net::fetch_config(&net::hub_base(), &wanted).await;
            if generation.get_value() != mine {
                return;
            }
            let text = match answer {
                Ok(text) => text,
                Err(why) => {
                    busy.set(false);
                    return outcome.set(Some(why));
                }
            };
            let side = match net::wants_side_file(&wanted, &text) {
                true => net::fetch_side_file(&net::hub_base(), &wanted).await,
                false => None,
            };
            if generation.get_value() != mine {
                return;
            }
            busy.set(false);
            let loaded = HubOutcome::Loaded {
                id: wanted,
                side: side.is_some(),
            };
            edit_announcing(notice, input, |i| {
                i.set_model(Some(ModelRef::config_with(text, side)))
            });
            outcome.set(Some(loaded));
        });
    };
    let message = move || {
        if busy.get() {
            Some(t().hub_loading.to_string())
        } else {
            outcome.get().map(|o| (t().hub_outcome)(&o))
        }
    };
    let failed = move || {
        outcome.with(|o| {
            o.as_ref()
                .is_some_and(|o| !matches!(o, HubOutcome::Loaded { .. }))
        })
    };
    view! {
        <FetchRow
            id="vf-hub-id"
            kind="text"
            field_test="hub-id"
            button_test="hub-fetch"
            described_by="vf-hub-status"
            texts=hub_texts
            value=id
            busy
            on_send=Callback::new(move |()| fetch())
        >
            <p
                id="vf-hub-status"
                class="vf-status"
                class:vf-error=failed
                data-testid="hub-status"
                data-outcome=move || outcome.with(|o| o.as_ref().map(outcome_id).unwrap_or(if busy.get() { "loading" } else { "" }))
                role="status"
            >
                {message}
            </p>
        </FetchRow>
    }
}

/// The Hub row's words.
fn hub_texts(lang: Lang) -> RowTexts {
    let t = lang.t();
    RowTexts {
        label: t.hub_label,
        placeholder: t.hub_placeholder,
        button: t.hub_button,
    }
}

/// A stable name for each outcome (`data-outcome`, for tests and styles).
fn outcome_id(outcome: &HubOutcome) -> &'static str {
    match outcome {
        HubOutcome::Loaded { .. } => "loaded",
        HubOutcome::InvalidId => "invalid_id",
        HubOutcome::Gated { .. } => "gated",
        HubOutcome::NotFound => "not_found",
        HubOutcome::Http { .. } => "http",
        HubOutcome::Offline => "offline",
    }
}

/// What was understood of the model: parameters, layers by kind, KV bytes
/// per token.
#[component]
pub fn ModelFactsView(
    /// The report's model object.
    #[prop(into)]
    model: Signal<ModelFacts>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let billions = move |n: u64| format!("{} B", format::decimal(&t().number, n as f64 / 1e9, 2));
    let params = move || {
        model.with(|m| {
            if m.params_active == m.params_total {
                billions(m.params_total)
            } else {
                format!(
                    "{} ({})",
                    billions(m.params_total),
                    (t().summary_active)(&billions(m.params_active))
                )
            }
        })
    };
    let layers = move || {
        model.with(|m| {
            let kinds = m
                .layers_by_kind
                .iter()
                .map(|k| format!("{} × {}", k.layers, (t().attention_kind)(&k.kind)))
                .collect::<Vec<_>>()
                .join(", ");
            if kinds.is_empty() {
                m.layers.to_string()
            } else {
                format!("{} ({kinds})", m.layers)
            }
        })
    };
    let published = move || {
        model.with(|m| {
            let p = m.published.as_ref()?;
            let fmt = |b: u64| format::bytes(&t().number, DisplayUnit::Gb, Bytes(b));
            let vision = (p.vision_bytes > 0).then(|| fmt(p.vision_bytes));
            Some((t().model_published)(
                &p.label,
                &fmt(p.bytes),
                vision.as_deref(),
            ))
        })
    };
    // A quantized checkpoint read as unquantized: its name says so.
    let quant_note = move || {
        model.with(|m| match m.spec.as_ref().map(|s| &s.quantization_source) {
            Some(QuantSource::NotInConfig {
                name_suggests: Some(word),
            }) => Some((t().quant_not_in_config)(word)),
            _ => None,
        })
    };
    view! {
        {move || quant_note().map(|text| view! {
            <p class="vf-note" role="note" data-testid="model-quant-note">{text}</p>
        })}
        <dl class="vf-summary" data-testid="model-summary">
            {move || published().map(|text| view! {
                <dt>{move || t().summary_published}</dt>
                <dd data-testid="model-published">{text}</dd>
            })}
            <dt>{move || t().summary_params}</dt><dd>{params}</dd>
            <dt>{move || t().summary_layers}</dt><dd>{layers}</dd>
            <dt>{move || t().summary_kv_per_token}</dt>
            <dd data-testid="model-kv-per-token">{move || kv_per_token(t(), &model.with(|m| m.kv_growth))}</dd>
        </dl>
    }
}

/// The KV growth per token; where it is not a whole number of bytes (a
/// compressed layer adds an entry every few tokens), also per 1,000 tokens.
fn kv_per_token(t: &crate::i18n::Texts, g: &vramfit_core::model::KvGrowth) -> String {
    let n = &t.number;
    let rounded = format!("{} B", format::integer(n, g.per_token_rounded()));
    match g.is_whole() {
        true => rounded,
        false => format!(
            "{rounded} ({} B / {})",
            format::integer(n, g.bytes_per_1000_tokens),
            (t.tokens)(&format::integer(n, 1000))
        ),
    }
}
