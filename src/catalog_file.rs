//! The model catalog as one file beside the app, fetched after the first
//! result.
//!
//! The release build does not compile the catalog in (the core without its
//! feature `embedded`): the post-build step (scripts/catalog-file.mjs) writes
//! `models.json` and every config it names into `catalog-HASH.txt`, with
//! whitespace outside strings removed (the JSON tokens, numbers included,
//! stay as written), and names the file and its Subresource Integrity hash
//! in `index.html`:
//!
//! ```html
//! <meta name="vramfit-catalog" content="catalog-0123abcd.txt" data-integrity="sha384-…">
//! ```
//!
//! The page fetches it with that hash (the browser refuses other bytes),
//! reads it ([`parse`]) and installs it in the core
//! ([`vramfit_core::catalog::models::install`]), in the `model` chunk.
//!
//! # Format
//!
//! A first line `vramfit-catalog 1`, then one entry per file: a line
//! `NAME<TAB>LENGTH` and the file's text, exactly `LENGTH` bytes of UTF-8,
//! with nothing between entries. `models.json` is the metadata document;
//! every other entry is a config, under its file name in `data/configs/`
//! (a row's `hf_quant_config.json` side file as `hf_quant/FILE`).

/// The first line of a catalog file.
pub const HEADER: &str = "vramfit-catalog 1\n";

/// The `<meta name>` that names the file in `index.html`.
pub const META: &str = "vramfit-catalog";

/// A catalog file, read.
#[derive(Debug, PartialEq, Eq)]
pub struct CatalogFile<'a> {
    /// The text of `models.json`.
    pub models: &'a str,
    /// `(file name, config text)`, in file order.
    pub configs: Vec<(&'a str, &'a str)>,
}

impl<'a> CatalogFile<'a> {
    /// The text of one config, by file name.
    pub fn config(&self, file: &str) -> Option<&'a str> {
        self.configs
            .iter()
            .find(|(name, _)| *name == file)
            .map(|(_, text)| *text)
    }
}

/// Reads a catalog file; `None` if it is not one (a wrong header, a length
/// past the end or inside a character, no `models.json`).
pub fn parse(text: &str) -> Option<CatalogFile<'_>> {
    let mut rest = text.strip_prefix(HEADER)?;
    let mut models = None;
    let mut configs = Vec::new();
    while !rest.is_empty() {
        let (line, after) = rest.split_once('\n')?;
        let (name, length) = line.split_once('\t')?;
        let length: usize = length.parse().ok()?;
        let body = after.get(..length)?;
        rest = after.get(length..)?;
        if name == "models.json" {
            models = Some(body);
        } else {
            configs.push((name, body));
        }
    }
    Some(CatalogFile {
        models: models?,
        configs,
    })
}

/// Fetches the catalog file that `index.html` names, checks it, and has the
/// `model` chunk install it; `true` once the core has a catalog. Without
/// the feature `split` the catalog is compiled in: `true` at once.
pub async fn fetch_and_install() -> bool {
    #[cfg(feature = "split")]
    {
        let Some((href, integrity)) = named_file() else {
            return false;
        };
        let Some(text) = fetch_text(&href, &integrity).await else {
            return false;
        };
        // The catalog lives as long as the page (the core keeps borrowed
        // config texts).
        let text: &'static str = Box::leak(text.into_boxed_str());
        matches!(
            crate::split_call!(crate::model_part::install_catalog(text)),
            Ok(true)
        )
    }
    #[cfg(not(feature = "split"))]
    true
}

/// The catalog file's address and integrity, from `index.html`.
#[cfg(feature = "split")]
fn named_file() -> Option<(String, String)> {
    let meta = web_sys::window()?
        .document()?
        .query_selector(&format!("meta[name=\"{META}\"]"))
        .ok()??;
    Some((
        meta.get_attribute("content")?,
        meta.get_attribute("data-integrity")?,
    ))
}

/// The text at `href` (same origin), if it has the given integrity.
#[cfg(feature = "split")]
async fn fetch_text(href: &str, integrity: &str) -> Option<String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window()?;
    let init = web_sys::RequestInit::new();
    init.set_integrity(integrity);
    let answer = JsFuture::from(window.fetch_with_str_and_init(href, &init))
        .await
        .ok()?;
    let response: web_sys::Response = answer.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.text().ok()?)
        .await
        .ok()?
        .as_string()
}
