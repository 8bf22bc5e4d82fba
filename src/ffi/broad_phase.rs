//! `demcontact_broad_phase`: candidate pairs of a whole scene, for hosts that run the pair queries
//! themselves.

use super::boundary::run;
use super::pointers::{
    arg, arg_mut, copy_prefix, new_boxed, optional_mut, records, release_boxed, slice,
};
use super::status::demcontact_status;
use crate::broad::{Aabb, BodyPair, BoundingSphere, Bounds, BroadPhase};

/// A broad phase: the candidate pairs of a scene of bodies, kept behind a Verlet skin from one
/// update to the next. Opaque: create it with `demcontact_broad_phase_create`, free it once with
/// `demcontact_broad_phase_release`.
///
/// It owns its memory (O(number of bodies), whatever the extent of the empty space between them).
/// One thread at a time per object; different objects may be used on different threads at once.
pub struct demcontact_broad_phase {
    broad: BroadPhase,
    /// The bounding volumes of the current update, converted once.
    spheres: Vec<BoundingSphere>,
    boxes: Vec<Aabb>,
}

/// A candidate pair: body indices `a < b`, in the order the host gave the bodies.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct demcontact_body_pair {
    /// Index of the first body.
    pub a: u32,
    /// Index of the second body (`b > a`).
    pub b: u32,
}

impl From<&BodyPair> for demcontact_body_pair {
    fn from(p: &BodyPair) -> Self {
        demcontact_body_pair { a: p[0], b: p[1] }
    }
}

/// Creates a broad phase with Verlet skin `skin` (host length unit, finite, >= 0).
///
/// An update that rebuilds the pair list lists every pair whose bounding volumes, each grown by
/// `skin / 2`, overlap; the next updates keep that list while every body has moved by at most
/// `skin / 2` since (spheres: centre displacement plus radius change; boxes: the box still inside
/// its rebuild box grown by `skin / 2`), so the list always holds every overlapping pair. `skin = 0`
/// rebuilds at every update and lists exactly the overlapping pairs.
///
/// On success `*out` is a new handle the caller frees with `demcontact_broad_phase_release`; on
/// failure `*out` is NULL: `DEMCONTACT_STATUS_NON_FINITE` for a NaN or infinite skin,
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` for a negative one, `DEMCONTACT_STATUS_NULL_ARGUMENT` for a
/// NULL `out`. Thread-safe.
///
/// # Safety
/// `out` is NULL or points to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn demcontact_broad_phase_create(
    skin: f64,
    out: *mut *mut demcontact_broad_phase,
) -> demcontact_status {
    run(|| unsafe {
        new_boxed(out, || {
            Ok(demcontact_broad_phase {
                broad: BroadPhase::new(skin)?,
                spheres: Vec::new(),
                boxes: Vec::new(),
            })
        })
    })
}

/// Releases a broad phase. NULL is accepted and does nothing. Each handle is released exactly once.
///
/// # Safety
/// `broad` is NULL or a live handle from `demcontact_broad_phase_create`, not used by another thread.
#[no_mangle]
pub unsafe extern "C" fn demcontact_broad_phase_release(
    broad: *mut demcontact_broad_phase,
) -> demcontact_status {
    run(|| unsafe { release_boxed(broad, "broad") })
}

/// Writes `*rebuilt` (when not NULL): 1 when the update rebuilt the pair list, 0 when it kept it.
fn report(rebuilt: Option<&mut i32>, value: bool) {
    if let Some(r) = rebuilt {
        *r = value as i32;
    }
}

/// Updates the scene with `n` bounding spheres: body `i` has centre `centres[3i..3i+3]` (world
/// frame) and radius `radii[i]` (host length unit, >= 0). Pairs are tested sphere against sphere:
/// `|c_i - c_j| < r_i + r_j (+ skin)`, as Munjiza's direct checking does (eq. (3.9)). `*rebuilt` (may
/// be NULL) tells whether the pair list was rebuilt (1) or kept (0).
///
/// `n == 0` accepts NULL arrays. On failure the previous pair list is kept:
/// `DEMCONTACT_STATUS_NON_FINITE` for a NaN or infinite number (the message names the body),
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` for a negative radius, a coordinate beyond 1e300 or more than
/// 2^32 - 1 bodies, `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL handle or array.
///
/// # Safety
/// `broad` is NULL or a live handle not used by another thread; `centres` holds `3n` readable
/// doubles, `radii` `n`; `rebuilt` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_broad_phase_update_spheres(
    broad: *mut demcontact_broad_phase,
    centres: *const f64,
    radii: *const f64,
    n: usize,
    rebuilt: *mut i32,
) -> demcontact_status {
    run(|| {
        let this = unsafe { arg_mut(broad, "broad") }?;
        let centres = unsafe { records::<3>(centres, n, "centres", "n") }?;
        let radii = unsafe { slice(radii, n, "radii") }?;
        let rebuilt = unsafe { optional_mut(rebuilt, "rebuilt") }?;
        this.spheres.clear();
        this.spheres.extend(
            centres
                .iter()
                .zip(radii)
                .map(|(&centre, &radius)| BoundingSphere { centre, radius }),
        );
        report(rebuilt, this.broad.update(Bounds::Spheres(&this.spheres))?);
        Ok(())
    })
}

/// Updates the scene with `n` axis-aligned boxes: body `i` spans `lo[3i..3i+3]` to `hi[3i..3i+3]`
/// (world frame, host length unit; `demcontact_shape_aabb` gives a shape's tight box). Pairs are
/// those whose closed boxes (grown by `skin / 2`) share a point. `*rebuilt` as in
/// `demcontact_broad_phase_update_spheres`.
///
/// `n == 0` accepts NULL arrays. On failure the previous pair list is kept:
/// `DEMCONTACT_STATUS_NON_FINITE` for a NaN or infinite coordinate, `DEMCONTACT_STATUS_INVALID_ARGUMENT`
/// for `lo > hi` on some axis, a coordinate beyond 1e300 or more than 2^32 - 1 bodies,
/// `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL handle or array.
///
/// # Safety
/// `broad` is NULL or a live handle not used by another thread; `lo` and `hi` hold `3n` readable
/// doubles each; `rebuilt` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_broad_phase_update_boxes(
    broad: *mut demcontact_broad_phase,
    lo: *const f64,
    hi: *const f64,
    n: usize,
    rebuilt: *mut i32,
) -> demcontact_status {
    run(|| {
        let this = unsafe { arg_mut(broad, "broad") }?;
        let lo = unsafe { records::<3>(lo, n, "lo", "n") }?;
        let hi = unsafe { records::<3>(hi, n, "hi", "n") }?;
        let rebuilt = unsafe { optional_mut(rebuilt, "rebuilt") }?;
        this.boxes.clear();
        this.boxes
            .extend(lo.iter().zip(hi).map(|(&lo, &hi)| Aabb { lo, hi }));
        report(rebuilt, this.broad.update(Bounds::Boxes(&this.boxes))?);
        Ok(())
    })
}

/// Copies the candidate pairs of the last update into `pairs[0..capacity]` and writes their total
/// number to `*count`, which may exceed `capacity`: a caller whose array was too small grows it to
/// `*count` and calls again (the list stays the same until the next update). Pairs are `a < b`,
/// sorted by `a`, then `b`, and each is listed once.
///
/// `pairs` may be NULL when `capacity == 0` (to ask for the count only). Fails with
/// `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL handle or `count`, or a NULL `pairs` with
/// `capacity > 0` (then `*count` is 0).
///
/// # Safety
/// `broad` is NULL or a live handle; `pairs` is NULL or holds `capacity` writable elements; `count`
/// is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_broad_phase_pairs(
    broad: *const demcontact_broad_phase,
    pairs: *mut demcontact_body_pair,
    capacity: usize,
    count: *mut usize,
) -> demcontact_status {
    run(|| {
        let count = unsafe { arg_mut(count, "count") }?;
        *count = 0;
        let this = unsafe { arg(broad, "broad") }?;
        let list = this.broad.pairs();
        unsafe { copy_prefix(pairs, capacity, list) }?;
        *count = list.len();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{demcontact_last_error_message, status::*};
    use std::ffi::CStr;

    fn message() -> String {
        // SAFETY: the library's thread-local message, never NULL.
        unsafe { CStr::from_ptr(demcontact_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn spheres_and_boxes_give_their_pairs_and_bad_input_a_status() {
        let mut broad = std::ptr::null_mut();
        // SAFETY: valid pointers throughout; the handle is released at the end.
        unsafe {
            assert_eq!(
                demcontact_broad_phase_create(0.0, &mut broad),
                DEMCONTACT_STATUS_OK
            );
            let centres = [0.0, 0.0, 0.0, 0.9, 0.0, 0.0, 5.0, 0.0, 0.0, 5.5, 0.0, 0.0];
            let radii = [0.5; 4];
            let mut rebuilt = -1;
            let s = demcontact_broad_phase_update_spheres(
                broad,
                centres.as_ptr(),
                radii.as_ptr(),
                4,
                &mut rebuilt,
            );
            assert_eq!((s, rebuilt), (DEMCONTACT_STATUS_OK, 1));
            let mut count = 0;
            // The count alone, then a buffer too small, then one large enough.
            let s = demcontact_broad_phase_pairs(broad, std::ptr::null_mut(), 0, &mut count);
            assert_eq!((s, count), (DEMCONTACT_STATUS_OK, 2));
            let mut pairs = [demcontact_body_pair::default(); 2];
            let s = demcontact_broad_phase_pairs(broad, pairs.as_mut_ptr(), 1, &mut count);
            assert_eq!((s, count), (DEMCONTACT_STATUS_OK, 2));
            assert_eq!(pairs[0], demcontact_body_pair { a: 0, b: 1 });
            assert_eq!(pairs[1], demcontact_body_pair::default());
            demcontact_broad_phase_pairs(broad, pairs.as_mut_ptr(), 2, &mut count);
            assert_eq!(pairs[1], demcontact_body_pair { a: 2, b: 3 });
            // Boxes: 0 and 1 touch at x = 1.
            let lo = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
            let hi = [1.0, 1.0, 1.0, 2.0, 1.0, 1.0];
            let s = demcontact_broad_phase_update_boxes(
                broad,
                lo.as_ptr(),
                hi.as_ptr(),
                2,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_OK);
            demcontact_broad_phase_pairs(broad, pairs.as_mut_ptr(), 2, &mut count);
            assert_eq!((count, pairs[0]), (1, demcontact_body_pair { a: 0, b: 1 }));

            let mut bad = centres;
            bad[7] = f64::NAN;
            let s = demcontact_broad_phase_update_spheres(
                broad,
                bad.as_ptr(),
                radii.as_ptr(),
                4,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_NON_FINITE);
            assert!(message().contains("body 2"), "{}", message());
            // The previous list is kept.
            demcontact_broad_phase_pairs(broad, pairs.as_mut_ptr(), 2, &mut count);
            assert_eq!(count, 1);
            let s = demcontact_broad_phase_update_boxes(
                broad,
                hi.as_ptr(),
                lo.as_ptr(),
                2,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_INVALID_ARGUMENT);
            let s = demcontact_broad_phase_update_spheres(
                broad,
                std::ptr::null(),
                radii.as_ptr(),
                4,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_NULL_ARGUMENT);
            let s = demcontact_broad_phase_update_spheres(
                broad,
                centres.as_ptr(),
                radii.as_ptr(),
                usize::MAX / 2,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_INVALID_ARGUMENT);
            let s = demcontact_broad_phase_pairs(broad, std::ptr::null_mut(), 3, &mut count);
            assert_eq!((s, count), (DEMCONTACT_STATUS_NULL_ARGUMENT, 0));
            assert_eq!(
                demcontact_broad_phase_pairs(std::ptr::null(), pairs.as_mut_ptr(), 2, &mut count),
                DEMCONTACT_STATUS_NULL_ARGUMENT
            );
            // No bodies at all, with NULL arrays.
            let s = demcontact_broad_phase_update_spheres(
                broad,
                std::ptr::null(),
                std::ptr::null(),
                0,
                std::ptr::null_mut(),
            );
            assert_eq!(s, DEMCONTACT_STATUS_OK);
            demcontact_broad_phase_pairs(broad, std::ptr::null_mut(), 0, &mut count);
            assert_eq!(count, 0);
            assert_eq!(demcontact_broad_phase_release(broad), DEMCONTACT_STATUS_OK);
            assert_eq!(
                demcontact_broad_phase_release(std::ptr::null_mut()),
                DEMCONTACT_STATUS_OK
            );
            let mut none = std::ptr::NonNull::dangling().as_ptr();
            assert_eq!(
                demcontact_broad_phase_create(f64::NAN, &mut none),
                DEMCONTACT_STATUS_NON_FINITE
            );
            assert!(none.is_null());
            assert_eq!(
                demcontact_broad_phase_create(-1.0, &mut none),
                DEMCONTACT_STATUS_INVALID_ARGUMENT
            );
        }
    }
}
