//! Turning raw pointer arguments into references and slices, NULL into a status.

use super::boundary::Failure;
use super::status::{DEMCONTACT_STATUS_INVALID_ARGUMENT, DEMCONTACT_STATUS_NULL_ARGUMENT};

fn null(name: &str) -> Failure {
    Failure::new(DEMCONTACT_STATUS_NULL_ARGUMENT, format!("{name} is NULL"))
}

/// `&*ptr`, or a NULL-argument failure naming `name`.
///
/// # Safety
/// `ptr` is NULL or points to a valid `T` that outlives the returned reference.
pub(crate) unsafe fn arg<'a, T>(ptr: *const T, name: &str) -> Result<&'a T, Failure> {
    ptr.as_ref().ok_or_else(|| null(name))
}

/// `&mut *ptr`, or a NULL-argument failure naming `name`.
///
/// # Safety
/// `ptr` is NULL or points to a valid `T`, not aliased, that outlives the returned reference.
pub(crate) unsafe fn arg_mut<'a, T>(ptr: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    ptr.as_mut().ok_or_else(|| null(name))
}

/// The slice `ptr[0..len]`; `len == 0` accepts NULL; NULL with `len > 0` is a failure naming `name`.
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` valid consecutive `T`s that outlive the slice.
pub(crate) unsafe fn slice<'a, T>(
    ptr: *const T,
    len: usize,
    name: &str,
) -> Result<&'a [T], Failure> {
    if len == 0 {
        Ok(&[])
    } else if ptr.is_null() {
        Err(null(name))
    } else {
        Ok(std::slice::from_raw_parts(ptr, len))
    }
}

/// The `count` records of `N` doubles each at `ptr` (`N * count` doubles) as arrays, as [`slice`];
/// a count whose doubles cannot be addressed (a slice spans at most `isize::MAX` bytes) is an
/// invalid-argument failure naming `count_name`.
///
/// # Safety
/// As [`slice`] for `N * count` doubles.
pub(crate) unsafe fn records<'a, const N: usize>(
    ptr: *const f64,
    count: usize,
    name: &str,
    count_name: &str,
) -> Result<&'a [[f64; N]], Failure> {
    if count > isize::MAX as usize / (N * std::mem::size_of::<f64>()) {
        return Err(Failure::new(
            DEMCONTACT_STATUS_INVALID_ARGUMENT,
            format!("{count_name} is {count}: {N} * {count_name} doubles cannot be addressed"),
        ));
    }
    slice(ptr.cast::<[f64; N]>(), count, name)
}

/// The mutable slice `ptr[0..len]`, as [`slice`].
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` valid consecutive `T`s, not aliased, that outlive the slice.
pub(crate) unsafe fn slice_mut<'a, T>(
    ptr: *mut T,
    len: usize,
    name: &str,
) -> Result<&'a mut [T], Failure> {
    if len == 0 {
        Ok(&mut [])
    } else if ptr.is_null() {
        Err(null(name))
    } else {
        Ok(std::slice::from_raw_parts_mut(ptr, len))
    }
}

/// An optional mutable slice: NULL is `None` whatever `len` is.
///
/// # Safety
/// As [`slice_mut`] when `ptr` is not NULL.
pub(crate) unsafe fn optional_slice_mut<'a, T>(ptr: *mut T, len: usize) -> Option<&'a mut [T]> {
    if ptr.is_null() {
        None
    } else {
        Some(std::slice::from_raw_parts_mut(ptr, len))
    }
}
