//! Style sheets that only a part loaded after the first result uses (the
//! lesson and notebook, the engine panel and knobs): the part adds its
//! sheet when it loads, so the first load does not carry it.
//!
//! Trunk copies the sheets beside the app (`index.html`, `style/`); the
//! build then names each with its hash (`scripts/sheets.mjs`), so no cache
//! keeps an old copy across a release, and says the name in index.html:
//!
//! ```html
//! <meta name="vramfit-sheet-notebook" content="style/notebook-0123abcd….css"
//!       data-integrity="sha384-…">
//! ```
//!
//! The offline worker's release lists the hashed names like every other
//! file. A page without the meta (a test outside the built site) asks for
//! the unhashed name.

use send_wrapper::SendWrapper;
use wasm_bindgen_futures::JsFuture;

/// A sheet that a part adds when it loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sheet {
    /// The lesson's and the notebook's sheet.
    Notebook,
    /// The engine methods' sheet.
    Engine,
}

impl Sheet {
    /// The name the build and index.html know it by (`scripts/sheets.mjs`).
    const fn name(self) -> &'static str {
        match self {
            Sheet::Notebook => "notebook",
            Sheet::Engine => "engine",
        }
    }
}

/// How long a part waits for its sheet before it shows anyway (a sheet
/// that fails to load must not keep the part away).
const READY_WAIT_MS: i32 = 3_000;

/// Adds the sheet's `<link rel="stylesheet">` to the page's head, once,
/// with the hashed name and integrity that index.html gives it. Without a
/// document (a test outside a page) it does nothing.
pub fn load(sheet: Sheet) {
    let _ = link(sheet);
}

/// [`load`], and a future that resolves when the sheet has loaded (or
/// failed, or [`READY_WAIT_MS`] passed): a part awaits it before it shows,
/// so that it never appears unstyled. Start it before fetching the part's
/// chunk, so that both download at once.
pub fn ready(sheet: Sheet) -> Option<SendWrapper<JsFuture>> {
    let link = link(sheet)?;
    // A sheet already parsed has its `sheet` object.
    let parsed = js_sys::Reflect::get(&link, &"sheet".into()).is_ok_and(|s| !s.is_null());
    if parsed {
        return None;
    }
    let window = web_sys::window()?;
    let settled = js_sys::Promise::new(&mut |resolve, _| {
        let _ = link.add_event_listener_with_callback("load", &resolve);
        let _ = link.add_event_listener_with_callback("error", &resolve);
        let _ =
            window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, READY_WAIT_MS);
    });
    // The page has one thread; Leptos' Suspend asks for `Send`.
    Some(SendWrapper::new(JsFuture::from(settled)))
}

/// The sheet's link element, added to the head if it is not there yet.
fn link(sheet: Sheet) -> Option<web_sys::Element> {
    let doc = web_sys::window().and_then(|w| w.document())?;
    let name = sheet.name();
    if let Some(link) = doc
        .query_selector(&format!("link[data-vramfit-sheet=\"{name}\"]"))
        .ok()
        .flatten()
    {
        return Some(link);
    }
    let meta = doc
        .query_selector(&format!("meta[name=\"vramfit-sheet-{name}\"]"))
        .ok()
        .flatten();
    let href = meta
        .as_ref()
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_else(|| format!("style/{name}.css"));
    let integrity = meta.and_then(|m| m.get_attribute("data-integrity"));
    let (Ok(Some(head)), Ok(link)) = (doc.query_selector("head"), doc.create_element("link"))
    else {
        return None;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("data-vramfit-sheet", name);
    if let Some(integrity) = integrity {
        let _ = link.set_attribute("integrity", &integrity);
    }
    let _ = link.set_attribute("href", &href);
    head.append_child(&link).ok()?;
    Some(link)
}
