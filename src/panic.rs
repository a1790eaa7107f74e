//! A panic leaves a message and a way back instead of a dead page.
//!
//! The release build aborts on panic, so once the hook has run no Rust code
//! can answer a click. The message is therefore plain DOM built by the
//! hook, and its "reload" button is a form that submits to the page's own
//! address: the browser reloads without any script, and the scenario in
//! the address (`#s=…`) comes back with it.

use crate::i18n;
use wasm_bindgen::JsCast;

/// `data-testid` of the message.
pub const TEST_ID: &str = "panic-message";

/// Query parameter the reload form adds, so that submitting it is always a
/// real navigation; the app drops it from the address again.
pub const RELOAD_PARAM: &str = "reload";

/// Installs the hook: the panic goes to the console as before, and the
/// page shows [`show_panic_message`].
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic_message(&info.to_string());
    }));
}

/// Shows the recoverable message with `detail` folded under it. Called
/// twice, it keeps the first message.
pub fn show_panic_message(detail: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document
        .query_selector(&format!("[data-testid=\"{TEST_ID}\"]"))
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    let _ = build(&document, detail);
}

/// The message's words: the language's, else (no language table has
/// loaded: see [`i18n::tables`]) all three languages at once.
struct Words {
    panic_title: &'static str,
    panic_body: &'static str,
    panic_reload: &'static str,
    panic_start_fresh: &'static str,
    panic_details: &'static str,
}

fn words() -> Words {
    let current = i18n::current();
    match i18n::tables::loaded(current).or_else(|| i18n::Lang::ALL.into_iter().find_map(i18n::tables::loaded)) {
        Some(t) => Words {
            panic_title: t.panic_title,
            panic_body: t.panic_body,
            panic_reload: t.panic_reload,
            panic_start_fresh: t.panic_start_fresh,
            panic_details: t.panic_details,
        },
        None => Words {
            panic_title: "La página no se pudo cargar. · The page could not be loaded. · De pagina kon niet worden geladen.",
            panic_body: "¿Sin conexión? Recarga para intentarlo de nuevo. · Offline? Reload to try again. · Offline? Herlaad om het opnieuw te proberen.",
            panic_reload: "Recargar · Reload · Herladen",
            panic_start_fresh: "Escenario por defecto · Default scenario · Standaardscenario",
            panic_details: "Detalles técnicos · Technical details · Technische details",
        },
    }
}

fn build(document: &web_sys::Document, detail: &str) -> Result<(), wasm_bindgen::JsValue> {
    let t = words();
    let element =
        |tag: &str, class: &str, text: &str| -> Result<web_sys::Element, wasm_bindgen::JsValue> {
            let e = document.create_element(tag)?;
            if !class.is_empty() {
                e.set_class_name(class);
            }
            if !text.is_empty() {
                e.set_text_content(Some(text));
            }
            Ok(e)
        };
    let panel = element("div", "vf-panic", "")?;
    panel.set_attribute("data-testid", TEST_ID)?;
    panel.set_attribute("role", "alert")?;
    panel.set_attribute("tabindex", "-1")?;
    let title = element("h2", "vf-panic__title", t.panic_title)?;
    panel.append_child(&title)?;
    let body = element("p", "", t.panic_body)?;
    panel.append_child(&body)?;

    let location = document.location();
    let path = location
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_else(|| "/".into());
    let hash = location
        .as_ref()
        .and_then(|l| l.hash().ok())
        .unwrap_or_default();
    let search = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let form = element("form", "vf-panic__form", "")?
        .dyn_into::<web_sys::HtmlFormElement>()
        .map_err(wasm_bindgen::JsValue::from)?;
    form.set_method("get");
    form.set_action(&format!("{path}{hash}"));
    // Keep the page's own query (`?hub=…`), and make the address new.
    if let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) {
        params.delete(RELOAD_PARAM);
        params.append(RELOAD_PARAM, &format!("{}", js_sys::Date::now() as u64));
        for entry in js_sys::try_iter(&params.entries())?
            .into_iter()
            .flatten()
            .flatten()
        {
            let pair = js_sys::Array::from(&entry);
            let hidden = element("input", "", "")?;
            hidden.set_attribute("type", "hidden")?;
            hidden.set_attribute("name", &pair.get(0).as_string().unwrap_or_default())?;
            hidden.set_attribute("value", &pair.get(1).as_string().unwrap_or_default())?;
            form.append_child(&hidden)?;
        }
    }
    let button = element("button", "vf-button", t.panic_reload)?;
    button.set_attribute("type", "submit")?;
    button.set_attribute("data-testid", "panic-reload")?;
    form.append_child(&button)?;
    panel.append_child(&form)?;
    // If the scenario in the address is what broke, a way out without it.
    let fresh = element("a", "vf-panic__fresh", t.panic_start_fresh)?;
    fresh.set_attribute("href", &format!("{path}{search}"))?;
    fresh.set_attribute("data-testid", "panic-start-fresh")?;
    panel.append_child(&fresh)?;

    let details = element("details", "vf-panic__details", "")?;
    let summary = element("summary", "", t.panic_details)?;
    details.append_child(&summary)?;
    let pre = element("pre", "", detail)?;
    details.append_child(&pre)?;
    panel.append_child(&details)?;

    document
        .body()
        .ok_or_else(|| wasm_bindgen::JsValue::from_str("no body"))?
        .append_child(&panel)?;
    if let Ok(panel) = panel.dyn_into::<web_sys::HtmlElement>() {
        let _ = panel.focus();
    }
    Ok(())
}
