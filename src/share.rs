//! The scenario in the page's address (`#s=<base64url of the inputs JSON>`),
//! so that a copied link reopens exactly the same calculation, followed by
//! the view it was seen in: `&u=gb|gib` (the unit) and `&l=es|en|nl` (the
//! language), which the base64url text never contains.

use crate::i18n::Lang;
use crate::import::ImportError;
use vramfit_core::report;
use vramfit_core::request::Request;
use vramfit_core::units::DisplayUnit;
use wasm_bindgen_futures::JsFuture;

/// The fragment's key.
const KEY: &str = "s=";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url (RFC 4648 §5) without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url, with or without padding; `None` on a bad character
/// or length.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let value = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32);
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// The fragment for a scenario, without `#`.
pub fn fragment_of(input: &Request) -> String {
    let json = serde_json::to_string(input).unwrap_or_default();
    format!("{KEY}{}", base64url_encode(json.as_bytes()))
}

/// The fragment for a scenario seen in `unit` and `lang`, without `#`.
pub fn fragment_with(input: &Request, unit: DisplayUnit, lang: Lang) -> String {
    let unit = match unit {
        DisplayUnit::Gb => "gb",
        DisplayUnit::Gib => "gib",
    };
    format!("{}&u={unit}&l={}", fragment_of(input), lang.code())
}

/// The value of `&key=` in a fragment (with or without `#`).
fn view_param<'a>(fragment: &'a str, key: &str) -> Option<&'a str> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .skip(1)
        .find_map(|part| part.strip_prefix(key)?.strip_prefix('='))
}

/// The unit a fragment names (`&u=`), if any.
pub fn unit_of(fragment: &str) -> Option<DisplayUnit> {
    match view_param(fragment, "u")? {
        "gb" => Some(DisplayUnit::Gb),
        "gib" => Some(DisplayUnit::Gib),
        _ => None,
    }
}

/// The language a fragment names (`&l=`), if any.
pub fn lang_of(fragment: &str) -> Option<Lang> {
    Lang::from_tag(view_param(fragment, "l")?)
}

/// This page's fragment (`#…`), or nothing.
pub fn address_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The scenario a fragment (with or without `#`) carries: `None` when it
/// carries none, an error when it carries a broken one.
pub fn scenario_of(fragment: &str) -> Option<Result<Request, ImportError>> {
    let encoded = fragment.trim_start_matches('#').strip_prefix(KEY)?;
    let encoded = encoded.split('&').next().unwrap_or(encoded);
    let parsed = base64url_decode(encoded)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or(ImportError::NotADocument)
        .and_then(|json| {
            serde_json::from_str::<Request>(&json).map_err(|e| ImportError::Inputs(e.to_string()))
        })
        .and_then(|input| match report::build(&input) {
            Ok(_) => Ok(input),
            Err(e) => Err(ImportError::Invalid(e)),
        });
    Some(parsed)
}

/// Whether this page's address carries a scenario (`#s=…`), without
/// reading it (which needs the engine: crate::parts).
pub fn address_has_scenario() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|hash| hash.trim_start_matches('#').starts_with(KEY))
}

/// The scenario in this page's address, if any.
pub fn scenario_in_address() -> Option<Result<Request, ImportError>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    scenario_of(&hash)
}

/// Puts the scenario, seen in `unit` and `lang`, in the address without a
/// new history entry.
pub fn write_address(input: &Request, unit: DisplayUnit, lang: Lang) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else {
        return;
    };
    // The panic message's reload form adds a marker; it has done its job.
    let search = match web_sys::UrlSearchParams::new_with_str(&search) {
        Ok(params) if params.has(crate::panic::RELOAD_PARAM) => {
            params.delete(crate::panic::RELOAD_PARAM);
            let rest = String::from(params.to_string());
            if rest.is_empty() {
                rest
            } else {
                format!("?{rest}")
            }
        }
        _ => search,
    };
    let url = format!("{path}{search}#{}", fragment_with(input, unit, lang));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The page's whole address.
pub fn current_address() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Copies `text` to the clipboard; `false` when the browser refuses.
pub async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    // Outside a secure context there is no clipboard object at all, and
    // calling into it would throw.
    let present = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !present {
        return false;
    }
    JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .is_ok()
}
