//! Version numbers of the library and of its ABI.

use std::ffi::c_char;

/// Major version: changes only when the ABI breaks (something exported changed or was removed).
pub const DEMCONTACT_VERSION_MAJOR: u32 = 0;
/// Minor version: bumped by every addition to the ABI.
pub const DEMCONTACT_VERSION_MINOR: u32 = 4;
/// Patch version: fixes that change nothing exported.
pub const DEMCONTACT_VERSION_PATCH: u32 = 0;
/// The version as one number, `MAJOR * 1000000 + MINOR * 1000 + PATCH`, for `#if` tests.
pub const DEMCONTACT_VERSION_NUMBER: u32 = 4000;
/// The ABI this header describes, `MAJOR * 1000 + MINOR`: a library whose `demcontact_abi_version()`
/// has the same major part and a minor part at least as large runs a program built with this header.
pub const DEMCONTACT_ABI_VERSION: u32 = 4;

/// The library's version as a static NUL-terminated string, e.g. `"0.1.0"`. Never NULL; not to be freed.
#[no_mangle]
pub extern "C" fn demcontact_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The ABI the loaded library implements, `MAJOR * 1000 + MINOR` (compare with `DEMCONTACT_ABI_VERSION`).
#[no_mangle]
pub extern "C" fn demcontact_abi_version() -> u32 {
    DEMCONTACT_VERSION_MAJOR * 1000 + DEMCONTACT_VERSION_MINOR
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn every_version_number_comes_from_cargo_toml() {
        let part = |s: &str| s.parse::<u32>().unwrap();
        assert_eq!(
            DEMCONTACT_VERSION_MAJOR,
            part(env!("CARGO_PKG_VERSION_MAJOR"))
        );
        assert_eq!(
            DEMCONTACT_VERSION_MINOR,
            part(env!("CARGO_PKG_VERSION_MINOR"))
        );
        assert_eq!(
            DEMCONTACT_VERSION_PATCH,
            part(env!("CARGO_PKG_VERSION_PATCH"))
        );
        assert_eq!(
            DEMCONTACT_VERSION_NUMBER,
            DEMCONTACT_VERSION_MAJOR * 1_000_000
                + DEMCONTACT_VERSION_MINOR * 1000
                + DEMCONTACT_VERSION_PATCH
        );
        assert_eq!(
            DEMCONTACT_ABI_VERSION,
            DEMCONTACT_VERSION_MAJOR * 1000 + DEMCONTACT_VERSION_MINOR
        );
        assert_eq!(demcontact_abi_version(), DEMCONTACT_ABI_VERSION);
        let text = unsafe { CStr::from_ptr(demcontact_version()) }
            .to_str()
            .unwrap();
        assert_eq!(text, env!("CARGO_PKG_VERSION"));
        assert_eq!(
            text,
            format!(
                "{DEMCONTACT_VERSION_MAJOR}.{DEMCONTACT_VERSION_MINOR}.{DEMCONTACT_VERSION_PATCH}"
            )
        );
    }
}
