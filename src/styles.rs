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

/// Adds the sheet's `<link rel="stylesheet">` to the page's head, once,
/// with the hashed name and integrity that index.html gives it. Without a
/// document (a test outside a page) it does nothing.
pub fn load(sheet: Sheet) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let name = sheet.name();
    if doc
        .query_selector(&format!("link[data-vramfit-sheet=\"{name}\"]"))
        .ok()
        .flatten()
        .is_some()
    {
        return;
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
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("data-vramfit-sheet", name);
    if let Some(integrity) = integrity {
        let _ = link.set_attribute("integrity", &integrity);
    }
    let _ = link.set_attribute("href", &href);
    let _ = head.append_child(&link);
}
