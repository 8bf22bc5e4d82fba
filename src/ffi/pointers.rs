//! Turning raw pointer arguments into references and slices, NULL into a status, and an address
//! that is not a multiple of its type's alignment (which no reference may hold: reading through it
//! is undefined behaviour) into an invalid-argument status naming the argument.

use super::boundary::Failure;
use super::status::{DEMCONTACT_STATUS_INVALID_ARGUMENT, DEMCONTACT_STATUS_NULL_ARGUMENT};

fn null(name: &str) -> Failure {
    Failure::new(DEMCONTACT_STATUS_NULL_ARGUMENT, format!("{name} is NULL"))
}

/// `ptr` when its address is a multiple of `T`'s alignment (NULL is), otherwise an
/// invalid-argument failure naming `name`.
pub(crate) fn aligned<T>(ptr: *const T, name: &str) -> Result<*const T, Failure> {
    if ptr.is_aligned() {
        Ok(ptr)
    } else {
        Err(Failure::new(
            DEMCONTACT_STATUS_INVALID_ARGUMENT,
            format!(
                "{name} ({ptr:p}) is not aligned: its address must be a multiple of {} bytes",
                std::mem::align_of::<T>()
            ),
        ))
    }
}

/// `&*ptr`, or a NULL-argument failure naming `name` (a misaligned `ptr`: invalid argument).
///
/// # Safety
/// `ptr` is NULL or points to a valid `T` that outlives the returned reference.
pub(crate) unsafe fn arg<'a, T>(ptr: *const T, name: &str) -> Result<&'a T, Failure> {
    aligned(ptr, name)?.as_ref().ok_or_else(|| null(name))
}

/// `&mut *ptr`, or a NULL-argument failure naming `name` (a misaligned `ptr`: invalid argument).
///
/// # Safety
/// `ptr` is NULL or points to a valid `T`, not aliased, that outlives the returned reference.
pub(crate) unsafe fn arg_mut<'a, T>(ptr: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    optional_mut(ptr, name)?.ok_or_else(|| null(name))
}

/// `Some(&mut *ptr)`, `None` for NULL, or an invalid-argument failure naming `name` for a
/// misaligned `ptr`.
///
/// # Safety
/// As [`arg_mut`].
pub(crate) unsafe fn optional_mut<'a, T>(
    ptr: *mut T,
    name: &str,
) -> Result<Option<&'a mut T>, Failure> {
    aligned(ptr, name)?;
    Ok(ptr.as_mut())
}

/// The slice `ptr[0..len]`; `len == 0` accepts NULL; NULL with `len > 0` is a failure naming `name`
/// (and a misaligned `ptr` an invalid argument).
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
        Ok(std::slice::from_raw_parts(aligned(ptr, name)?, len))
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
        aligned(ptr, name)?;
        Ok(std::slice::from_raw_parts_mut(ptr, len))
    }
}

/// An optional mutable slice: NULL is `None` whatever `len` is; a misaligned `ptr` is an
/// invalid-argument failure naming `name`.
///
/// # Safety
/// As [`slice_mut`] when `ptr` is not NULL.
pub(crate) unsafe fn optional_slice_mut<'a, T>(
    ptr: *mut T,
    len: usize,
    name: &str,
) -> Result<Option<&'a mut [T]>, Failure> {
    if ptr.is_null() {
        Ok(None)
    } else {
        aligned(ptr, name)?;
        Ok(Some(std::slice::from_raw_parts_mut(ptr, len)))
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

/// Frees a handle made by [`new_boxed`]; NULL does nothing; a misaligned `ptr`, which no handle
/// is, is an invalid-argument failure naming `name`.
///
/// # Safety
/// `ptr` is NULL or a live handle from [`new_boxed`], not freed before.
pub(crate) unsafe fn release_boxed<T>(ptr: *mut T, name: &str) -> Result<(), Failure> {
    if !aligned(ptr, name)?.is_null() {
        drop(unsafe { Box::from_raw(ptr) });
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{
        demcontact_basic_contact, demcontact_broad_phase_create, demcontact_broad_phase_release,
        demcontact_broad_phase_update_spheres, demcontact_collide, demcontact_collide_batch,
        demcontact_contact, demcontact_contact_list, demcontact_last_error_message,
        demcontact_pair, demcontact_polyhedron_create, demcontact_pose, demcontact_shape_release,
        demcontact_sphere_create, demcontact_status, demcontact_warm_state, DEMCONTACT_STATUS_OK,
    };
    use std::ffi::CStr;

    /// Storage for a few `T`s and a pointer one byte into it: an address no `T` of alignment
    /// above 1 may have.
    fn misaligned<T>(storage: &mut [u64; 64]) -> *mut T {
        storage.as_mut_ptr().cast::<u8>().wrapping_add(1).cast()
    }

    fn last_message() -> String {
        // SAFETY: the library's own NUL-terminated, thread-local text.
        unsafe { CStr::from_ptr(demcontact_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    /// A failure for a misaligned argument `name`: invalid argument, a message that says so.
    fn assert_misaligned(status: demcontact_status, name: &str) {
        assert_eq!(status, DEMCONTACT_STATUS_INVALID_ARGUMENT, "{name}");
        let message = last_message();
        assert!(
            message.starts_with(name) && message.contains("is not aligned"),
            "{message}"
        );
    }

    #[test]
    fn the_helpers_tell_null_misaligned_and_aligned_apart() {
        let mut storage = [0u64; 64];
        let odd = misaligned::<f64>(&mut storage);
        let fine = storage.as_mut_ptr().cast::<f64>();
        // SAFETY: every pointer is NULL, misaligned (refused before any read) or into `storage`.
        unsafe {
            assert_eq!(arg(odd.cast_const(), "x").unwrap_err().status, 2);
            assert_eq!(arg_mut(odd, "x").unwrap_err().status, 2);
            assert_eq!(arg(std::ptr::null::<f64>(), "x").unwrap_err().status, 1);
            assert!(optional_mut(std::ptr::null_mut::<f64>(), "x")
                .unwrap()
                .is_none());
            assert!(optional_mut(odd, "x").is_err());
            assert!(slice(odd.cast_const(), 3, "x").is_err());
            assert!(slice(odd.cast_const(), 0, "x").unwrap().is_empty());
            assert!(slice_mut(odd, 3, "x").is_err());
            assert!(optional_slice_mut(odd, 3, "x").is_err());
            assert!(release_boxed(odd, "x").is_err());
            assert_eq!(*arg(fine.cast_const(), "x").unwrap(), 0.0);
            assert_eq!(slice(fine.cast_const(), 3, "x").unwrap(), &[0.0; 3]);
        }
        let message = aligned(odd.cast_const(), "points").unwrap_err().message;
        assert!(message.contains("multiple of 8 bytes"), "{message}");
    }

    #[test]
    fn misaligned_arguments_fail_with_a_status_instead_of_being_read() {
        let mut storage = [0u64; 64];
        let mut ball = std::ptr::null_mut();
        let mut cube = std::ptr::null_mut();
        let corners: Vec<f64> = (0..24)
            .map(|i| {
                if (i / 3) >> (i % 3) & 1 == 1 {
                    0.5
                } else {
                    -0.5
                }
            })
            .collect();
        let pose = demcontact_pose {
            position: [0.0; 3],
            orientation: [1.0, 0.0, 0.0, 0.0],
        };
        let mut out = demcontact_contact::default();
        let mut warm = demcontact_warm_state::default();
        // SAFETY: every pointer is valid, NULL, or misaligned into `storage` (refused unread).
        unsafe {
            assert_eq!(
                demcontact_sphere_create(1.0, &mut ball),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(
                demcontact_polyhedron_create(corners.as_ptr(), 8, &mut cube),
                DEMCONTACT_STATUS_OK
            );
            let mut refused = std::ptr::null_mut();
            let status = demcontact_polyhedron_create(misaligned(&mut storage), 8, &mut refused);
            assert_misaligned(status, "xyz");
            assert!(refused.is_null());
            let odd_pose = misaligned::<demcontact_pose>(&mut storage);
            let status = demcontact_collide(ball, odd_pose, ball, &pose, &mut warm, &mut out);
            assert_misaligned(status, "pose_a");
            let status =
                demcontact_collide(ball, &pose, ball, &pose, misaligned(&mut storage), &mut out);
            assert_misaligned(status, "warm");
            let status = demcontact_collide(
                ball,
                &pose,
                ball,
                &pose,
                &mut warm,
                misaligned(&mut storage),
            );
            assert_misaligned(status, "out");
            let status = demcontact_collide(
                misaligned(&mut storage),
                &pose,
                ball,
                &pose,
                &mut warm,
                &mut out,
            );
            assert_misaligned(status, "a");
            // A batch: the statuses array (written by index from the workers).
            let pairs = [demcontact_pair {
                a: ball,
                pose_a: pose,
                b: ball,
                pose_b: pose,
            }];
            let mut outs = [demcontact_contact::default()];
            let status = demcontact_collide_batch(
                pairs.as_ptr(),
                1,
                std::ptr::null_mut(),
                1,
                outs.as_mut_ptr(),
                misaligned(&mut storage),
            );
            assert_misaligned(status, "statuses");
            // A contact list into a misaligned array.
            let mut count = 0usize;
            let status = demcontact_contact_list(
                cube,
                &pose,
                cube,
                &pose,
                std::ptr::null_mut(),
                &mut out,
                misaligned::<demcontact_basic_contact>(&mut storage),
                4,
                &mut count,
            );
            assert_misaligned(status, "list");
            // A broad phase's `rebuilt` flag.
            let mut broad = std::ptr::null_mut();
            assert_eq!(
                demcontact_broad_phase_create(0.0, &mut broad),
                DEMCONTACT_STATUS_OK
            );
            let (centre, radius) = ([0.0f64; 3], 1.0f64);
            let status = demcontact_broad_phase_update_spheres(
                broad,
                centre.as_ptr(),
                &radius,
                1,
                misaligned(&mut storage),
            );
            assert_misaligned(status, "rebuilt");
            // Releasing an address no handle has.
            assert_misaligned(demcontact_shape_release(misaligned(&mut storage)), "shape");
            assert_misaligned(
                demcontact_broad_phase_release(misaligned(&mut storage)),
                "broad",
            );
            assert_eq!(demcontact_broad_phase_release(broad), DEMCONTACT_STATUS_OK);
            assert_eq!(demcontact_shape_release(cube), DEMCONTACT_STATUS_OK);
            assert_eq!(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK);
        }
        assert_eq!(out, demcontact_contact::default());
    }
}
