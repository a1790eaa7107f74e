//! The first result, from the main module alone.
//!
//! The page opens on seed 004's worked example: typed numbers and the
//! `quick` method. Its figures (the ring, the total, the breakdown) need
//! neither the config.json reader, nor a catalog, nor any other method, so
//! the first load does not carry them (docs/size.md): [`report`] validates
//! the typed numbers and runs `quick` (the same core functions
//! `methods::run` and `report::build` call) and gives the report's head
//! ([`report::head`]). Anything else waits for the engine
//! ([`crate::parts::Engine`]), which completes the report right after.

use vramfit_core::methods::{quick, MethodId, RunError};
use vramfit_core::report::{self, Report};
use vramfit_core::request::{Request, RequestError};

/// The head of `request`'s report when the main module can compute it (the
/// `quick` method on typed numbers: no model, no catalog GPU), else `None`.
/// Where it is `Some`, the figures are [`report::build`]'s.
pub fn report(request: &Request) -> Option<Result<Report, RequestError>> {
    if request.method != MethodId::Quick {
        return None;
    }
    let scenario = match request.scenario.validate_typed()? {
        Ok(scenario) => scenario,
        Err(errors) => return Some(Err(RequestError::Invalid(errors))),
    };
    Some(match quick::estimate(&scenario) {
        Ok(estimate) => Ok(report::head(request, &scenario, estimate)),
        Err(reason) => Err(RequestError::Refused(RunError {
            method: MethodId::Quick,
            reason,
        })),
    })
}
