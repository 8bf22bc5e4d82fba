//! The boundary every exported function body runs inside: failures become a status plus a
//! thread-local message, and a panic becomes `DEMCONTACT_STATUS_INTERNAL_ERROR` instead of unwinding
//! into C (undefined behaviour) or aborting the host (a week-long DEM run lost).

use super::status::*;
use crate::error::Error;
use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A failed call: the status to return and the message to keep for the caller's thread.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: demcontact_status,
    pub message: String,
}

impl Failure {
    /// A failure with `status` and `message`.
    pub fn new(status: demcontact_status, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// The same failure, its message prefixed with `context` (an argument name, a pair index).
    pub fn context(self, context: impl std::fmt::Display) -> Self {
        Failure {
            message: format!("{context}: {}", self.message),
            ..self
        }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure::new(status_of(&error), error.to_string())
    }
}

/// What an exported body returns before it is turned into a status.
pub(crate) type FfiResult = Result<(), Failure>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Keeps `message` as this thread's last error message.
pub(crate) fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = text);
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    format!("internal error in demcontact (please report it): {what}")
}

/// Runs `body`; returns OK, or the failure's status with its message kept for this thread.
pub(crate) fn run(body: impl FnOnce() -> FfiResult) -> demcontact_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => DEMCONTACT_STATUS_OK,
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.status
        }
        Err(payload) => {
            set_last_error(&panic_text(payload.as_ref()));
            DEMCONTACT_STATUS_INTERNAL_ERROR
        }
    }
}

/// Runs `body` catching panics as [`run`] does, but returns the failure instead of keeping its message:
/// for the parallel workers of a batch, whose threads are not the caller's.
pub(crate) fn run_quiet<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => Err(Failure::new(
            DEMCONTACT_STATUS_INTERNAL_ERROR,
            panic_text(payload.as_ref()),
        )),
    }
}

/// The message of the most recent failed demcontact call on the calling thread ("" if none).
///
/// The text belongs to the library and stays valid until the next demcontact call on the same thread;
/// copy it to keep it. Each thread has its own message, so OpenMP threads never see each other's.
/// Never returns NULL.
#[no_mangle]
pub extern "C" fn demcontact_last_error_message() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        unsafe { CStr::from_ptr(demcontact_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn failures_and_panics_become_statuses_with_messages() {
        assert_eq!(run(|| Ok(())), DEMCONTACT_STATUS_OK);
        let s = run(|| Err(Failure::new(DEMCONTACT_STATUS_NULL_ARGUMENT, "out").context("shape")));
        assert_eq!(s, DEMCONTACT_STATUS_NULL_ARGUMENT);
        assert_eq!(last(), "shape: out");
        let s = run(|| panic!("boom {}", 7));
        assert_eq!(s, DEMCONTACT_STATUS_INTERNAL_ERROR);
        assert!(last().contains("boom 7"), "{}", last());
        let quiet = run_quiet(|| -> FfiResult { panic!("quiet") });
        assert_eq!(quiet.unwrap_err().status, DEMCONTACT_STATUS_INTERNAL_ERROR);
    }

    #[test]
    fn messages_are_per_thread() {
        set_last_error("main thread");
        std::thread::spawn(|| {
            assert_eq!(last(), "");
            set_last_error("worker");
        })
        .join()
        .unwrap();
        assert_eq!(last(), "main thread");
        set_last_error("with\0nul");
        assert_eq!(last(), "with nul");
    }
}
