//! DOM helpers shared by the browser test files: mount points, waiting for
//! reactive effects, finding elements by `data-testid`, acting as a person.
// Each test file uses a subset of these.
#![allow(dead_code)]

use wasm_bindgen::JsCast;

/// A fresh element in the page to mount into.
pub fn host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let el = document
        .create_element("div")
        .unwrap()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap();
    document.body().unwrap().append_child(&el).unwrap();
    el
}

/// Lets scheduled reactive effects and promises run.
pub async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// The element with `data-testid="testid"` (the test fails without one).
pub fn find(root: &web_sys::HtmlElement, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
}

/// How many elements carry `data-testid="testid"`.
pub fn count(root: &web_sys::HtmlElement, testid: &str) -> u32 {
    root.query_selector_all(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
        .length()
}

/// Whether an element with `data-testid="testid"` is on the page.
pub fn exists(root: &web_sys::HtmlElement, testid: &str) -> bool {
    count(root, testid) > 0
}

/// The text of the element with `data-testid="testid"`.
pub fn text(root: &web_sys::HtmlElement, testid: &str) -> String {
    find(root, testid).text_content().unwrap_or_default()
}

/// Clicks the element with `data-testid="testid"`.
pub fn click(root: &web_sys::HtmlElement, testid: &str) {
    find(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
}

/// Types `value` into an input, textarea or select as a person would
/// (the value, then an `input` event).
pub fn type_into(root: &web_sys::HtmlElement, testid: &str, value: &str) {
    let el = find(root, testid);
    js_sys::Reflect::set(&el, &"value".into(), &value.into()).unwrap();
    el.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

/// The elements under `root` that match a CSS `selector`, in order.
pub fn all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}
