//! The parts of the page that the first result does not need, loaded after
//! it: what keeps the first load small (docs/size.md).
//!
//! The first load (the main module and one language's table) computes the
//! first result of a scenario of typed numbers with the `quick` method
//! ([`crate::first`]) and draws the inputs, the ring, the total and the
//! breakdown. Everything else comes in chunks split from the same build
//! (feature `split`, see [`split_call`]), asked for once the frame with the
//! first result has been painted, or at once when the first result itself
//! needs them (a scenario in the address):
//!
//! - the **engine** (chunk `details`, [`crate::details`]): the core's whole
//!   report (every method, the advice, the speed, the config.json reader),
//!   the GPU table, switching mode, the link in the address, importing a
//!   dropped file;
//! - the **panels** (chunks `details` and `model`), each a [`Deferred`]
//!   place with a loading line, and a message with a retry button when its
//!   chunk cannot be fetched, while the calculator keeps working;
//! - the **model catalog** ([`crate::catalog_file`]), a file fetched and
//!   checked against the hash that `index.html` gives, then installed in
//!   the core by the `model` chunk.
//!
//! Without the feature (`cargo test`, `cargo clippy`) there is no chunk:
//! every part is there from the start and the catalogs are compiled in.

use crate::components::transfer::TransferStatus;
use crate::i18n::{use_lang, Texts};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use vramfit_core::catalog::{Gpu, NotFound};
use vramfit_core::methods::MethodId;
use vramfit_core::report::Report;
use vramfit_core::request::{MethodSwitch, Request, RequestError};
use vramfit_core::scenario::{Mode, ModelRef, ScenarioInput};

/// Calls a split function: awaits it where the build splits (feature
/// `split`: the call first loads the function's chunk), calls it where it
/// does not. For use in `async` code.
#[macro_export]
macro_rules! split_call {
    ($call:expr) => {{
        #[cfg(feature = "split")]
        let result = $call.await;
        #[cfg(not(feature = "split"))]
        let result = $call;
        result
    }};
}

/// A chunk could not be fetched or instantiated (the loader has written why
/// to the console). Not cached: a later call tries again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkUnavailable;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkUnavailable {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkUnavailable
    }
}

/// What the engine chunk gives the main module: the core's functions that
/// the first result does not need, as plain function pointers.
#[derive(Clone, Copy, Debug)]
pub struct Engine {
    /// The whole report ([`vramfit_core::report::build`]).
    pub report: fn(&Request) -> Result<Report, RequestError>,
    /// [`Request::set_mode`]: the method follows the mode (and says so
    /// when it changes on its own).
    pub set_mode: fn(&mut Request, Mode) -> Option<MethodSwitch>,
    /// The methods other than the chosen one that estimate a scenario
    /// ([`crate::components::stale::working_methods`]): the ways out of a
    /// refusal.
    pub working_methods: fn(&Request) -> Vec<MethodId>,
    /// The scenario in the page's address, if any
    /// ([`crate::share::scenario_in_address`]).
    pub read_link: fn() -> Option<Result<Request, crate::import::ImportError>>,
    /// Puts the scenario in the address ([`crate::share::write_address`]).
    pub write_link: fn(&Request, vramfit_core::units::DisplayUnit, crate::i18n::Lang),
    /// Reads a dropped file and imports it
    /// ([`crate::components::transfer::import_file`]).
    pub import_file: fn(web_sys::File, RwSignal<Request>, RwSignal<Option<TransferStatus>>),
    /// A GPU by the name people write ([`vramfit_core::catalog::find_gpu`]).
    pub find_gpu: fn(&str) -> Result<&'static Gpu, NotFound>,
    /// [`ScenarioInput::set_gpu`]: a catalog GPU and its memory.
    pub set_gpu: fn(&mut ScenarioInput, &str),
    /// What the GPU field's hint says of the catalog GPU chosen, given the
    /// text typed ([`crate::components::gpu::picked_hint`]).
    pub gpu_hint: fn(&str, &str, crate::i18n::Lang) -> Option<String>,
}

/// Where a part stands.
#[derive(Clone, Copy, Debug)]
pub enum Load<T> {
    /// Not asked for yet, or on its way.
    Waiting,
    Ready(T),
    /// Its chunk or file could not be fetched; a retry asks again.
    Failed,
}

impl<T: Copy> Load<T> {
    /// The part, once here.
    pub fn ready(&self) -> Option<T> {
        match self {
            Load::Ready(t) => Some(*t),
            _ => None,
        }
    }

    pub fn failed(&self) -> bool {
        matches!(self, Load::Failed)
    }
}

/// The page's deferred parts, shared through the context.
#[derive(Clone, Copy)]
pub struct Parts {
    /// The engine ([`Engine`]).
    pub engine: RwSignal<Load<Engine>>,
    /// The model catalog, installed in the core.
    pub catalog: RwSignal<Load<()>>,
    /// Whether the first frame with a result has been painted, or the
    /// first result needs the parts (then they are asked for at once).
    pub started: RwSignal<bool>,
}

impl Parts {
    /// The parts, provided as context. Without the feature `split`, the
    /// engine and the (embedded) catalog are there from the start.
    pub fn provide() -> Parts {
        #[cfg(feature = "split")]
        let parts = Parts {
            engine: RwSignal::new(Load::Waiting),
            catalog: RwSignal::new(Load::Waiting),
            started: RwSignal::new(false),
        };
        #[cfg(not(feature = "split"))]
        let parts = Parts {
            engine: RwSignal::new(Load::Ready(crate::details::local_engine())),
            catalog: RwSignal::new(Load::Ready(())),
            started: RwSignal::new(true),
        };
        provide_context(parts);
        parts
    }

    /// Starts fetching the engine and the catalog: at once when `now`,
    /// else once the current frame has been painted. Does nothing twice.
    pub fn start(self, now: bool) {
        if self.started.get_untracked() {
            return;
        }
        let go = move || {
            if self.started.try_get_untracked() == Some(false) {
                self.started.set(true);
                self.load_engine();
                self.load_catalog();
            }
        };
        if now {
            go();
        } else {
            after_paint(go);
        }
    }

    /// (Again) asks for the engine.
    pub fn load_engine(self) {
        self.engine.set(Load::Waiting);
        spawn_local(async move {
            self.fetch_engine().await;
        });
    }

    /// The engine, fetched if need be; records where it stands.
    pub async fn fetch_engine(self) -> Option<Engine> {
        let engine = split_call!(crate::details::engine()).ok();
        let _ = self
            .engine
            .try_set(engine.map_or(Load::Failed, Load::Ready));
        engine
    }

    /// (Again) asks for the model catalog.
    pub fn load_catalog(self) {
        spawn_local(async move {
            self.fetch_catalog().await;
        });
    }

    /// The model catalog, fetched and installed if need be (one attempt at
    /// a time, shared by every caller; a failure is not kept, so the next
    /// call tries again); records where it stands. `true` once installed.
    pub async fn fetch_catalog(self) -> bool {
        static INSTALLED: async_once_cell::OnceCell<()> = async_once_cell::OnceCell::new();
        if INSTALLED.get().is_none() {
            let _ = self.catalog.try_set(Load::Waiting);
        }
        let installed = INSTALLED
            .get_or_try_init(async {
                if crate::catalog_file::fetch_and_install().await {
                    Ok(())
                } else {
                    Err(())
                }
            })
            .await
            .is_ok();
        let _ = self.catalog.try_set(if installed {
            Load::Ready(())
        } else {
            Load::Failed
        });
        installed
    }

    /// Runs `apply` with the engine: now if it is here, else once it has
    /// come (fetching it if need be). Nothing happens if it cannot be
    /// fetched: the results then say so.
    pub fn with_engine(self, apply: impl FnOnce(Engine) + 'static) {
        if let Some(engine) = self.engine.get_untracked().ready() {
            apply(engine);
            return;
        }
        self.start(true);
        spawn_local(async move {
            if let Some(engine) = self.fetch_engine().await {
                apply(engine);
            }
        });
    }

    /// Whether `request` can be answered now: it needs the engine (unless
    /// [`crate::first::report`] answers it) and, when it names a catalog
    /// model, the catalog (loaded or failed).
    pub fn can_answer(self, request: &Request) -> bool {
        let catalog = !self.catalog.with(|c| matches!(c, Load::Waiting));
        let names_catalog = matches!(request.scenario.model, Some(ModelRef::Catalog(_)));
        self.engine.with(|e| e.ready().is_some()) && (catalog || !names_catalog)
    }
}

/// The page's parts (see [`Parts::provide`]).
pub fn use_parts() -> Parts {
    use_context::<Parts>().unwrap_or_else(Parts::provide)
}

/// Runs `f` once the current frame has been painted: the next animation
/// frame, then a task (as boot.js waits before it registers the offline
/// worker).
pub fn after_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
}

/// What builds a deferred part: awaits its chunk, then builds its view.
pub type PartLoader = Arc<
    dyn Fn() -> Pin<Box<dyn Future<Output = Result<AnyView, ChunkUnavailable>> + Send>>
        + Send
        + Sync,
>;

/// A [`PartLoader`] from an `async` closure.
pub fn loader<F, Fut>(load: F) -> PartLoader
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkUnavailable>> + 'static,
{
    // The page has one thread: the browser's futures need not be `Send`.
    Arc::new(move || Box::pin(send_wrapper::SendWrapper::new(load())))
}

/// A part that arrives in a chunk: nothing until the first result has been
/// painted, then a loading line, then the part; if the chunk cannot be
/// fetched, a message (`role="alert"`) and a retry button while the
/// calculator keeps working. `data-testid`s: `{name}-loading`,
/// `{name}-unavailable`, `{name}-retry`.
#[component]
pub fn Deferred(
    /// The part's name, for its `data-testid`s.
    name: &'static str,
    /// Builds the part.
    load: PartLoader,
    /// The loading line.
    #[prop(optional)]
    loading: Option<fn(&Texts) -> &'static str>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let parts = use_parts();
    let attempt = RwSignal::new(0_u32);
    let loading_text = loading.unwrap_or(|t: &Texts| t.part_loading);
    let fallback = move || {
        view! {
            <p class="vf-note" role="status" data-testid=format!("{name}-loading")>{move || loading_text(t())}</p>
        }
    };
    view! {
        <Suspense fallback=fallback>
            {move || {
                attempt.track();
                let load = load.clone();
                parts.started.get().then(|| Suspend::new(async move {
                    match load().await {
                        Ok(part) => part,
                        Err(ChunkUnavailable) => unavailable(name, move || attempt.update(|n| *n += 1)),
                    }
                }))
            }}
        </Suspense>
    }
}

/// The message and retry button of a part that could not be fetched.
pub fn unavailable(name: &'static str, retry: impl Fn() + Send + Sync + 'static) -> AnyView {
    let lang = use_lang();
    let t = move || lang.get().t();
    view! {
        <div class="vf-nb-warning" role="alert" data-testid=format!("{name}-unavailable")>
            <p>{move || t().part_unavailable}</p>
            <button
                type="button"
                class="vf-nb-button"
                data-testid=format!("{name}-retry")
                on:click=move |_| retry()
            >
                {move || t().learn_retry}
            </button>
        </div>
    }
    .into_any()
}
