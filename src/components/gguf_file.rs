//! The model input's GGUF file: a `.gguf` dropped or chosen (every shard
//! of a split file), or a URL (a Hub `resolve/main/….gguf` link), read by
//! its header only ([`crate::gguf_read`]); the file's own tensors and
//! metadata become the model ([`ModelRef::Gguf`]), which the `llamacpp`
//! method sizes exactly as the CLI does. In the `model` chunk.

use crate::components::fetch_row::{FetchRow, RowTexts};
use crate::components::switch::{edit_announcing, notice};
use crate::gguf_read::{self, GgufLoadError, Loaded};
use crate::i18n::{gguf, use_lang, Lang};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;
use vramfit_core::request::Request;
use vramfit_core::scenario::ModelRef;

/// The file picker, the drop zone and the URL field, with one status line.
#[component]
pub fn GgufFile(
    /// The scenario whose model a file read sets.
    input: RwSignal<Request>,
) -> impl IntoView {
    let notice = notice();
    let lang = use_lang();
    let t = move || lang.get().t();
    let g = move || gguf::texts(lang.get());
    let url = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let outcome = RwSignal::new(None::<Result<Loaded, GgufLoadError>>);
    let over = RwSignal::new(false);
    // Only the latest read may write its answer.
    let generation = StoredValue::new(0u64);
    let run = move |job: std::pin::Pin<Box<dyn Future<Output = Result<Loaded, GgufLoadError>>>>| {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        busy.set(true);
        outcome.set(None);
        spawn_local(async move {
            let answer = job.await;
            if generation.get_value() != mine {
                return;
            }
            busy.set(false);
            if let Ok(loaded) = &answer {
                let model = ModelRef::Gguf(Box::new(loaded.model.clone()));
                edit_announcing(notice, input, |i| i.set_model(Some(model)));
            }
            outcome.set(Some(answer));
        });
    };
    let read_files = move |list: Option<web_sys::FileList>| {
        let files: Vec<web_sys::File> = list
            .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
            .unwrap_or_default();
        if !files.is_empty() {
            run(Box::pin(gguf_read::load_files(files)));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let el: web_sys::HtmlInputElement = event_target(&ev);
        read_files(el.files());
    };
    let on_dragover = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        over.set(true);
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        // The page's own drop (an exported document) is not this one.
        ev.prevent_default();
        ev.stop_propagation();
        over.set(false);
        read_files(ev.data_transfer().and_then(|d| d.files()));
    };
    let on_send = Callback::new(move |()| {
        let wanted = url.get_untracked().trim().to_string();
        run(Box::pin(async move { gguf_read::load_url(&wanted).await }));
    });
    let message = move || match busy.get() {
        true => Some(g().reading.to_string()),
        false => outcome.with(|o| {
            o.as_ref().map(|r| match r {
                Ok(l) => (g().loaded)(t(), l),
                Err(e) => (g().error)(e),
            })
        }),
    };
    let state = move || match (busy.get(), outcome.with(|o| o.as_ref().map(Result::is_ok))) {
        (true, _) => "loading",
        (false, Some(true)) => "loaded",
        (false, Some(false)) => "error",
        (false, None) => "",
    };
    view! {
        <div
            class="vf-gguf"
            class:vf-gguf--over=move || over.get()
            data-testid="gguf-drop"
            on:dragover=on_dragover
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <label class="vf-field__label" for="vf-gguf-file">{move || g().file_label}</label>
            <input
                id="vf-gguf-file"
                class="vf-gguf__file"
                type="file"
                accept=".gguf"
                multiple
                data-testid="gguf-file"
                aria-describedby="vf-gguf-drop-hint vf-gguf-status"
                on:change=on_change
            />
            <p id="vf-gguf-drop-hint" class="vf-field__hint">{move || g().drop_hint}</p>
        </div>
        <FetchRow
            id="vf-gguf-url"
            kind="url"
            field_test="gguf-url"
            button_test="gguf-read"
            described_by="vf-gguf-url-hint vf-gguf-status"
            texts=url_texts
            value=url
            busy
            on_send
        >
            <p id="vf-gguf-url-hint" class="vf-field__hint">{move || g().url_hint}</p>
        </FetchRow>
        <p
            id="vf-gguf-status"
            class="vf-status"
            class:vf-error=move || state() == "error"
            data-testid="gguf-status"
            data-outcome=state
            role="status"
        >
            {message}
        </p>
    }
}

/// The URL row's words.
fn url_texts(lang: Lang) -> RowTexts {
    let g = gguf::texts(lang);
    RowTexts {
        label: g.url_label,
        placeholder: g.url_placeholder,
        button: g.url_button,
    }
}
