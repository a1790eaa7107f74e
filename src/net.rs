//! The one network request the app makes: a model's `config.json` from the
//! Hugging Face Hub, when the person asks for it.
//!
//! The Hub's address is `https://huggingface.co` unless the page's query
//! says otherwise (`?hub=http://127.0.0.1:8000`, for a local mirror or a
//! test fixture); the page's Content-Security-Policy still decides what
//! may be reached.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The public Hub.
pub const DEFAULT_HUB: &str = "https://huggingface.co";

/// How a Hub request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HubOutcome {
    /// The config arrived.
    Loaded { id: String },
    /// The id is not `owner/name` (or a bare legacy `name`).
    InvalidId,
    /// 401/403: a gated or private repository (the Hub also answers 401
    /// for a repository that does not exist, to anonymous requests).
    Gated { status: u16 },
    /// 404, or the Hub's own "not found" error code.
    NotFound,
    /// Any other HTTP status.
    Http { status: u16 },
    /// No answer: offline, refused, or blocked by the page's policy.
    Offline,
}

/// Whether `id` is a Hub repository id: one or two segments of ASCII
/// letters, digits, `-`, `_` and `.`, none empty, none starting with `.`.
pub fn valid_model_id(id: &str) -> bool {
    let segments: Vec<&str> = id.split('/').collect();
    (1..=2).contains(&segments.len())
        && segments.iter().all(|s| {
            !s.is_empty()
                && s.len() <= 96
                && !s.starts_with('.')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
}

/// `{base}/{id}/resolve/main/config.json`, or `None` for a bad id.
pub fn config_url(base: &str, id: &str) -> Option<String> {
    let id = id.trim();
    valid_model_id(id).then(|| {
        format!(
            "{}/{id}/resolve/main/config.json",
            base.trim_end_matches('/')
        )
    })
}

/// What an HTTP answer means; `Ok` for a success. `error_code` is the Hub's
/// `X-Error-Code` header where the browser lets the page read it.
pub fn classify(status: u16, error_code: Option<&str>) -> Result<(), HubOutcome> {
    match (status, error_code) {
        (200..=299, _) => Ok(()),
        (_, Some("RepoNotFound" | "EntryNotFound" | "RevisionNotFound")) | (404, _) => {
            Err(HubOutcome::NotFound)
        }
        (401 | 403, _) => Err(HubOutcome::Gated { status }),
        _ => Err(HubOutcome::Http { status }),
    }
}

/// The Hub address for this page: `?hub=` if present, else the public Hub.
pub fn hub_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|search| web_sys::UrlSearchParams::new_with_str(&search).ok())
        .and_then(|params| params.get("hub"))
        .filter(|base| !base.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_HUB.to_string())
}

/// Fetches the `config.json` of `id` from the Hub at `base`: its text, or
/// why not. No cookies are sent.
pub async fn fetch_config(base: &str, id: &str) -> Result<String, HubOutcome> {
    let url = config_url(base, id).ok_or(HubOutcome::InvalidId)?;
    let window = web_sys::window().ok_or(HubOutcome::Offline)?;
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let answer = JsFuture::from(window.fetch_with_str_and_init(&url, &init))
        .await
        .map_err(|_| HubOutcome::Offline)?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| HubOutcome::Offline)?;
    let code = response.headers().get("x-error-code").ok().flatten();
    classify(response.status(), code.as_deref())?;
    let text = response.text().map_err(|_| HubOutcome::Offline)?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or(HubOutcome::Offline)
}
