//! Style sheets that only a part loaded after the first result uses (the
//! lesson and notebook, the engine panel and knobs): the part adds its
//! sheet when it loads, so the first load does not carry it. The sheets
//! are copied beside the app by Trunk (`index.html`, `style/`) and listed
//! in the offline worker's release like every other file.

/// The lesson's and the notebook's sheet.
pub const NOTEBOOK: &str = "style/notebook.css";
/// The engine methods' sheet.
pub const ENGINE: &str = "style/engine.css";

/// Adds `<link rel="stylesheet" href=HREF>` to the page's head, once.
/// Without a document (a test outside a page) it does nothing.
pub fn load(href: &'static str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("link[rel=stylesheet][href=\"{href}\"]");
    if doc.query_selector(&selector).ok().flatten().is_some() {
        return;
    }
    let (Ok(Some(head)), Ok(link)) = (doc.query_selector("head"), doc.create_element("link"))
    else {
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", href);
    let _ = head.append_child(&link);
}
