//! A method the page changed without being asked (the person chose a model
//! or a mode): said in words, with a one-click undo that brings back the
//! request as it was before that choice.

use crate::i18n::use_lang;
use leptos::prelude::*;
use vramfit_core::request::{MethodSwitch, Request, SwitchReason};

/// The last switch the page made on its own, with the request before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Announced {
    pub switch: MethodSwitch,
    pub before: Request,
}

/// Where the page keeps the last switch (provided by the app).
#[derive(Debug, Clone, Copy)]
pub struct SwitchNotice(pub RwSignal<Option<Announced>>);

/// The page's notice, taken from the context while a component is built
/// (event handlers run outside it); `None` for a component mounted alone.
pub fn notice() -> Option<SwitchNotice> {
    use_context::<SwitchNotice>()
}

/// Applies an edit that may change the method (a new model or mode) and
/// records the switch, if any, in `notice` ([`notice`]), so that
/// [`SwitchNoticeView`] says it.
pub fn edit_announcing(
    notice: Option<SwitchNotice>,
    input: RwSignal<Request>,
    edit: impl FnOnce(&mut Request) -> Option<MethodSwitch>,
) {
    let before = input.get_untracked();
    let mut after = before.clone();
    let switch = edit(&mut after);
    input.set(after);
    if let Some(SwitchNotice(notice)) = notice {
        notice.set(switch.map(|switch| Announced { switch, before }));
    }
}

/// "The method changed from quick to planner: …", with Undo; shown while
/// the switched-to method is still the one on screen.
#[component]
pub fn SwitchNoticeView(
    /// The request the undo restores into.
    input: RwSignal<Request>,
) -> impl IntoView {
    let lang = use_lang();
    let t = move || lang.get().t();
    let notice = use_context::<SwitchNotice>().map(|n| n.0);
    let current = move || {
        let announced = notice?.get()?;
        (input.with(|i| i.method) == announced.switch.to).then_some(announced)
    };
    move || {
        current().map(|a| {
            let why = match a.switch.why {
                SwitchReason::Preferred => t().switch_preferred,
                SwitchReason::NoLongerApplies => t().switch_no_longer_applies,
            };
            let (from, to) = (a.switch.from, a.switch.to);
            let before = a.before;
            let undo = move |_| {
                if let Some(n) = notice {
                    input.set(before.clone());
                    n.set(None);
                }
            };
            view! {
                <p class="vf-switch" data-testid="method-switch" role="status">
                    {(t().switch_done)((t().method_plain)(from), (t().method_plain)(to))}
                    " "
                    {why}
                    " "
                    <button type="button" class="vf-link" data-testid="method-switch-undo" on:click=undo>
                        {t().switch_undo}
                    </button>
                </p>
            }
        })
    }
}
