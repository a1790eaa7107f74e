//! Where the notebook is kept: a small key-value interface, the browser's
//! `localStorage` behind it, and an in-memory stand-in that can play a full
//! quota or a disabled storage (for tests).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Why storage refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageError {
    /// No storage at all: disabled, private mode, a sandboxed frame
    /// (`SecurityError`). The text says what the browser said.
    Unavailable(String),
    /// The origin's quota is full (`QuotaExceededError`).
    QuotaExceeded,
    /// Any other refusal.
    Failed(String),
}

/// A string key-value store (the shape of `localStorage`).
pub trait Storage {
    /// The value under `key`, `None` when there is none.
    fn get(&self, key: &str) -> Result<Option<String>, StorageError>;
    /// Writes `value` under `key`.
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError>;
}

/// The browser's `localStorage`. Every call asks the window again, so a
/// storage that becomes unavailable is an error, never a panic.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserStorage;

impl BrowserStorage {
    fn storage() -> Result<web_sys::Storage, StorageError> {
        let window =
            web_sys::window().ok_or_else(|| StorageError::Unavailable("no window".into()))?;
        match window.local_storage() {
            Ok(Some(storage)) => Ok(storage),
            Ok(None) => Err(StorageError::Unavailable("no localStorage".into())),
            Err(e) => Err(classify(&e)),
        }
    }
}

impl Storage for BrowserStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Self::storage()?.get_item(key).map_err(|e| classify(&e))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        Self::storage()?
            .set_item(key, value)
            .map_err(|e| classify(&e))
    }
}

/// A browser exception as a [`StorageError`], by its `name`.
fn classify(error: &wasm_bindgen::JsValue) -> StorageError {
    let name = js_sys::Reflect::get(error, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    match name.as_str() {
        "QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED" => StorageError::QuotaExceeded,
        "SecurityError" | "InvalidAccessError" => StorageError::Unavailable(name),
        "" => StorageError::Failed("unknown error".into()),
        _ => StorageError::Failed(name),
    }
}

/// An in-memory storage. Clones share the same items, so a test can hold
/// one clone and give another to the notebook, or give clones to two
/// notebooks to play two tabs.
#[derive(Debug, Clone, Default)]
pub struct MemoryStorage(Rc<RefCell<Fake>>);

#[derive(Debug, Default)]
struct Fake {
    items: BTreeMap<String, String>,
    /// Largest total of key and value lengths (in UTF-16 units, as
    /// browsers count), or unlimited.
    quota: Option<usize>,
    /// Every call fails as a disabled storage does.
    disabled: bool,
}

impl Fake {
    fn size_with(&self, key: &str, value: &str) -> usize {
        let len = |s: &str| s.encode_utf16().count();
        self.items
            .iter()
            .filter(|(k, _)| k.as_str() != key)
            .map(|(k, v)| len(k) + len(v))
            .sum::<usize>()
            + len(key)
            + len(value)
    }
}

impl MemoryStorage {
    /// An empty, unlimited storage.
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    /// Limits the total size; writes beyond it fail with
    /// [`StorageError::QuotaExceeded`]. `None`: unlimited.
    pub fn set_quota(&self, units: Option<usize>) {
        self.0.borrow_mut().quota = units;
    }

    /// Makes every call fail as a disabled storage (`SecurityError`).
    pub fn set_disabled(&self, disabled: bool) {
        self.0.borrow_mut().disabled = disabled;
    }

    /// Reads a value directly, whatever the quota or the disabled flag.
    pub fn item(&self, key: &str) -> Option<String> {
        self.0.borrow().items.get(key).cloned()
    }

    /// Writes a value directly, whatever the quota or the disabled flag
    /// (what another tab or a damaged profile would leave there).
    pub fn put(&self, key: &str, value: &str) {
        self.0
            .borrow_mut()
            .items
            .insert(key.to_string(), value.to_string());
    }

    /// Every key, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.0.borrow().items.keys().cloned().collect()
    }
}

impl Storage for MemoryStorage {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        let fake = self.0.borrow();
        if fake.disabled {
            return Err(StorageError::Unavailable("SecurityError".into()));
        }
        Ok(fake.items.get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let mut fake = self.0.borrow_mut();
        if fake.disabled {
            return Err(StorageError::Unavailable("SecurityError".into()));
        }
        if fake
            .quota
            .is_some_and(|quota| fake.size_with(key, value) > quota)
        {
            return Err(StorageError::QuotaExceeded);
        }
        fake.items.insert(key.to_string(), value.to_string());
        Ok(())
    }
}
