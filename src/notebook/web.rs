//! The few browser calls the lesson and the notebook need: the clock,
//! random ids, the clipboard, reading a chosen file, dates in words.
//! Each reports failure instead of panicking.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Milliseconds since 1970 (UTC).
pub fn now_ms() -> u64 {
    let now = js_sys::Date::now();
    if now.is_finite() && now > 0.0 {
        now as u64
    } else {
        0
    }
}

/// A new entry id: the time and 32 random bits, in hex.
pub fn new_id(now: u64) -> String {
    let random = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    format!("{now:x}-{random:08x}")
}

/// A time in the reader's language (`"es"`, `"en"`).
pub fn format_time(ms: u64, lang: &str) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(ms as f64));
    let options = js_sys::Object::new();
    for (key, value) in [
        ("year", "numeric"),
        ("month", "short"),
        ("day", "numeric"),
        ("hour", "2-digit"),
        ("minute", "2-digit"),
    ] {
        let _ = js_sys::Reflect::set(&options, &key.into(), &value.into());
    }
    String::from(date.to_locale_string(lang, &options))
}

/// A time as ISO 8601 (UTC), for `<time datetime>`.
pub fn iso_time(ms: u64) -> String {
    let date = js_sys::Date::new(&JsValue::from_f64(ms as f64));
    // An invalid date throws on toISOString: call it by name.
    call_method(&date, "toISOString", &[])
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Calls a JavaScript method by name; `None` when it is missing or throws.
fn call_method(target: &JsValue, name: &str, args: &[JsValue]) -> Option<JsValue> {
    let function = js_sys::Reflect::get(target, &name.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let array = args.iter().collect::<js_sys::Array>();
    function.apply(target, &array).ok()
}

/// Runs `done(Ok(value))` or `done(Err(reason))` when `promise` settles.
fn on_settled(promise: &JsValue, done: impl FnOnce(Result<JsValue, JsValue>) + 'static) {
    let done = Rc::new(RefCell::new(Some(done)));
    let (ok_done, err_done) = (done.clone(), done.clone());
    let ok = Closure::once_into_js(move |value: JsValue| {
        if let Some(done) = ok_done.borrow_mut().take() {
            done(Ok(value));
        }
    });
    let err = Closure::once_into_js(move |reason: JsValue| {
        if let Some(done) = err_done.borrow_mut().take() {
            done(Err(reason));
        }
    });
    if call_method(promise, "then", &[ok, err]).is_none() {
        if let Some(done) = done.borrow_mut().take() {
            done(Err(JsValue::from_str("not a promise")));
        }
    }
}

/// Copies `text` to the clipboard; `done(true)` when it worked. Uses the
/// asynchronous clipboard, then the older selection-and-copy command.
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    let clipboard = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"navigator".into()).ok())
        .and_then(|n| js_sys::Reflect::get(&n, &"clipboard".into()).ok())
        .filter(|c| !c.is_undefined() && !c.is_null());
    let promise = clipboard.and_then(|c| call_method(&c, "writeText", &[text.into()]));
    match promise {
        Some(promise) => {
            let text = text.to_string();
            on_settled(&promise, move |result| {
                done(result.is_ok() || copy_by_selection(&text));
            });
        }
        None => done(copy_by_selection(text)),
    }
}

/// The older way: select a hidden text area and run the copy command.
fn copy_by_selection(text: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(body) = document.body() else {
        return false;
    };
    let Ok(area) = document.create_element("textarea") else {
        return false;
    };
    let _ = area.set_attribute("readonly", "");
    // A class, not a style attribute: the page's policy refuses inline styles.
    let _ = area.set_attribute("class", "vf-visually-hidden");
    let _ = js_sys::Reflect::set(&area, &"value".into(), &text.into());
    if body.append_child(&area).is_err() {
        return false;
    }
    let _ = call_method(&area, "select", &[]);
    let copied = call_method(&document, "execCommand", &["copy".into()])
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    area.remove();
    copied
}

/// Reads the first file chosen in a file input as text.
pub fn read_chosen_file(
    input: &web_sys::HtmlInputElement,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    let file = js_sys::Reflect::get(input, &"files".into())
        .ok()
        .and_then(|files| call_method(&files, "item", &[0.into()]))
        .filter(|f| !f.is_null() && !f.is_undefined());
    let Some(file) = file else {
        done(Err("no file".into()));
        return;
    };
    let Some(promise) = call_method(&file, "text", &[]) else {
        done(Err("the browser cannot read files".into()));
        return;
    };
    on_settled(&promise, move |result| {
        done(match result {
            Ok(text) => text.as_string().ok_or_else(|| "not text".to_string()),
            Err(reason) => Err(js_sys::Reflect::get(&reason, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "unreadable file".into())),
        });
    });
}
