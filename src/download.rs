//! Saving a text as a file from the browser (the JSON export).

use wasm_bindgen::JsCast;

/// Offers `text` as a download called `filename`. Returns an error message
/// instead of panicking when the browser refuses (e.g. no document).
pub fn download_text(filename: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "no se pudo crear el archivo".to_string())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "no se pudo crear el enlace".to_string())?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("sin documento")?;
    let anchor = document
        .create_element("a")
        .map_err(|_| "sin enlace".to_string())?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "sin enlace".to_string())?;
    anchor.set_href(&url);
    anchor.set_download(filename);
    anchor.click();
    // Free the object URL once the browser has had time to start the download.
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}
