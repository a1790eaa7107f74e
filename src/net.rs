//! The one network request the app makes: a model's `config.json` from the
//! Hugging Face Hub, when the person asks for it (and, for an NVIDIA
//! ModelOpt export, the `hf_quant_config.json` beside it).
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
    /// The config arrived; `side`: with its `hf_quant_config.json`.
    Loaded { id: String, side: bool },
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
    file_url(base, id, "config.json")
}

/// `{base}/{id}/resolve/main/{file}`, or `None` for a bad id.
fn file_url(base: &str, id: &str, file: &str) -> Option<String> {
    let id = id.trim();
    valid_model_id(id).then(|| format!("{}/{id}/resolve/main/{file}", base.trim_end_matches('/')))
}

/// Whether to ask for the repository's `hf_quant_config.json` too: its
/// name says it is quantized (`…-FP8`, `…-NVFP4`) but its config states no
/// quantization, the mark of an NVIDIA ModelOpt export. Other repositories
/// are not asked, so an ordinary model costs one request.
pub fn wants_side_file(id: &str, config: &str) -> bool {
    vramfit_core::model::name_suggests_quantization(id).is_some()
        && !config.contains("\"quantization_config\"")
}

/// Whether `text` is an `hf_quant_config.json`: a JSON object with a
/// `quantization` object (what the reader takes, `parse_config_with`).
pub fn is_side_file(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| {
        v.get("quantization")
            .is_some_and(serde_json::Value::is_object)
    })
}

/// The `hf_quant_config.json` of `id` when the Hub has a usable one;
/// any failure (absent, gated, offline, not a side file) is `None`: the
/// config alone still loads, with its note.
pub async fn fetch_side_file(base: &str, id: &str) -> Option<String> {
    let url = file_url(base, id, "hf_quant_config.json")?;
    fetch_text(&url).await.ok().filter(|t| is_side_file(t))
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
    fetch_text(&url).await
}

/// The text at `url` (no cookies sent), or why not.
async fn fetch_text(url: &str) -> Result<String, HubOutcome> {
    let window = web_sys::window().ok_or(HubOutcome::Offline)?;
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let answer = JsFuture::from(window.fetch_with_str_and_init(url, &init))
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
