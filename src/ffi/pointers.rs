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

/// The `count` records of `N` doubles each at `ptr` (`N * count` doubles: the x, y, z of each point
/// in turn for `N = 3`) as arrays, as [`slice`]; a count whose doubles cannot be addressed is an
/// invalid-argument failure naming `count_name` (see [`addressable`]).
///
/// # Safety
/// As [`slice`] for `N * count` doubles.
pub(crate) unsafe fn records<'a, const N: usize>(
    ptr: *const f64,
    count: usize,
    name: &str,
    count_name: &str,
) -> Result<&'a [[f64; N]], Failure> {
    addressable::<[f64; N]>(count, count_name)?;
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

/// Checks that `n` elements of `T` can be addressed (a slice spans at most `isize::MAX` bytes): a
/// larger count is a corrupted argument, an invalid-argument failure naming `count`.
pub(crate) fn addressable<T>(n: usize, count: &str) -> Result<(), Failure> {
    if n > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Failure::new(
            DEMCONTACT_STATUS_INVALID_ARGUMENT,
            format!("{count} is {n}: that many elements cannot be addressed"),
        ));
    }
    Ok(())
}

/// Moves `value` into a new `Box` handle written to `*out` (NULL first, so that `*out` is NULL on
/// any failure); a NULL `out` is a failure.
///
/// # Safety
/// `out` is NULL or points to writable storage for one pointer.
pub(crate) unsafe fn new_boxed<T>(
    out: *mut *mut T,
    value: impl FnOnce() -> Result<T, Failure>,
) -> Result<(), Failure> {
    let out = unsafe { arg_mut(out, "out") }?;
    *out = std::ptr::null_mut();
    *out = Box::into_raw(Box::new(value()?));
    Ok(())
}

/// Frees a handle made by [`new_boxed`]; NULL does nothing.
///
/// # Safety
/// `ptr` is NULL or a live handle from [`new_boxed`], not freed before.
pub(crate) unsafe fn release_boxed<T>(ptr: *mut T) {
    if !ptr.is_null() {
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// Copies the first `min(capacity, items.len())` of `items`, converted, to `out[0..]`; `out` may be
/// NULL only when `capacity == 0`.
///
/// # Safety
/// `out` is NULL or holds `capacity` writable elements, not shared with another thread.
pub(crate) unsafe fn copy_prefix<T, U>(
    out: *mut T,
    capacity: usize,
    items: &[U],
) -> Result<(), Failure>
where
    T: for<'a> From<&'a U>,
{
    addressable::<T>(capacity, "capacity")?;
    let out = unsafe { slice_mut(out, capacity, "the output array") }?;
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = T::from(item);
    }
    Ok(())
}
