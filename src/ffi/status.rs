//! `demcontact_status`: the result code of every exported function.

use crate::error::Error;
use std::ffi::c_char;

/// The result of every demcontact function: `DEMCONTACT_STATUS_OK` (0) on success, another
/// `DEMCONTACT_STATUS_*` code on failure, with a text from `demcontact_last_error_message()`.
///
/// Codes are append-only: a retired number is never reused.
pub type demcontact_status = i32;

// --- success -------------------------------------------------------------------------------------
/// Success.
pub const DEMCONTACT_STATUS_OK: demcontact_status = 0;

// --- the caller's arguments ------------------------------------------------------------------------
/// A required pointer argument was NULL.
pub const DEMCONTACT_STATUS_NULL_ARGUMENT: demcontact_status = 1;
/// An argument is out of its documented range (radius <= 0, quaternion far from unit length, ...),
/// or a pointer argument's address is not a multiple of its type's alignment (never read).
pub const DEMCONTACT_STATUS_INVALID_ARGUMENT: demcontact_status = 2;
/// An argument is NaN or infinite, or a result would overflow to one.
pub const DEMCONTACT_STATUS_NON_FINITE: demcontact_status = 3;
/// The geometry is degenerate (flat or needle-like point sets, planes bounding no finite body).
pub const DEMCONTACT_STATUS_DEGENERATE_GEOMETRY: demcontact_status = 4;

// --- the computation ---------------------------------------------------------------------------------
/// An iterative method did not converge within its budget; outputs are zeroed.
pub const DEMCONTACT_STATUS_NOT_CONVERGED: demcontact_status = 5;
/// No contact kernel exists for this pair of shape families.
pub const DEMCONTACT_STATUS_UNSUPPORTED_PAIR: demcontact_status = 6;

// --- the library -------------------------------------------------------------------------------------
/// A bug inside demcontact (a caught panic); the message says where. Please report it.
pub const DEMCONTACT_STATUS_INTERNAL_ERROR: demcontact_status = 100;

/// The status a core error maps to.
pub(crate) fn status_of(error: &Error) -> demcontact_status {
    match error {
        Error::InvalidArgument(_) => DEMCONTACT_STATUS_INVALID_ARGUMENT,
        Error::NonFinite(_) => DEMCONTACT_STATUS_NON_FINITE,
        Error::DegenerateGeometry(_) => DEMCONTACT_STATUS_DEGENERATE_GEOMETRY,
        Error::NotConverged(_) => DEMCONTACT_STATUS_NOT_CONVERGED,
        Error::UnsupportedPair(_) => DEMCONTACT_STATUS_UNSUPPORTED_PAIR,
    }
}

/// The name of a status code, e.g. `"DEMCONTACT_STATUS_NULL_ARGUMENT"`, or `"unknown status"`.
///
/// Returns a static NUL-terminated string: never NULL, never to be freed. Thread-safe.
#[no_mangle]
pub extern "C" fn demcontact_status_name(status: demcontact_status) -> *const c_char {
    let name: &'static [u8] = match status {
        DEMCONTACT_STATUS_OK => b"DEMCONTACT_STATUS_OK\0",
        DEMCONTACT_STATUS_NULL_ARGUMENT => b"DEMCONTACT_STATUS_NULL_ARGUMENT\0",
        DEMCONTACT_STATUS_INVALID_ARGUMENT => b"DEMCONTACT_STATUS_INVALID_ARGUMENT\0",
        DEMCONTACT_STATUS_NON_FINITE => b"DEMCONTACT_STATUS_NON_FINITE\0",
        DEMCONTACT_STATUS_DEGENERATE_GEOMETRY => b"DEMCONTACT_STATUS_DEGENERATE_GEOMETRY\0",
        DEMCONTACT_STATUS_NOT_CONVERGED => b"DEMCONTACT_STATUS_NOT_CONVERGED\0",
        DEMCONTACT_STATUS_UNSUPPORTED_PAIR => b"DEMCONTACT_STATUS_UNSUPPORTED_PAIR\0",
        DEMCONTACT_STATUS_INTERNAL_ERROR => b"DEMCONTACT_STATUS_INTERNAL_ERROR\0",
        _ => b"unknown status\0",
    };
    name.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn every_status_has_its_name() {
        let name = |s| {
            unsafe { CStr::from_ptr(demcontact_status_name(s)) }
                .to_str()
                .unwrap()
        };
        assert_eq!(name(DEMCONTACT_STATUS_OK), "DEMCONTACT_STATUS_OK");
        assert_eq!(
            name(DEMCONTACT_STATUS_INTERNAL_ERROR),
            "DEMCONTACT_STATUS_INTERNAL_ERROR"
        );
        assert_eq!(name(-7), "unknown status");
        for s in 1..=6 {
            assert!(name(s).starts_with("DEMCONTACT_STATUS_"));
        }
    }
}
