//! `demcontact_contact` and the pair queries: one pair, or a batch spread over threads.

use super::boundary::{run, run_quiet, Failure};
use super::pointers::{aligned, arg, arg_mut, optional_mut, optional_slice_mut, slice, slice_mut};
use super::pose::demcontact_pose;
use super::shape::demcontact_shape;
use super::status::*;
use super::warm::demcontact_warm_state;
use crate::contact::Contact;
use std::sync::Mutex;

/// Contact type codes (`demcontact_contact.contact_type`). Append only.
pub type demcontact_contact_type = i32;
/// No contact geometry: the value in a contact written by a failed query.
pub const DEMCONTACT_CONTACT_TYPE_NONE: demcontact_contact_type = 0;
/// Smooth surfaces sharing a common normal at `point_a` and `point_b` (spheres).
pub const DEMCONTACT_CONTACT_TYPE_SMOOTH: demcontact_contact_type = 1;
/// Polyhedra: a vertex of one body against a vertex of the other (Zheng et al. 2017).
pub const DEMCONTACT_CONTACT_TYPE_VERTEX_VERTEX: demcontact_contact_type = 2;
/// Polyhedra: a vertex of one body against an edge of the other.
pub const DEMCONTACT_CONTACT_TYPE_VERTEX_EDGE: demcontact_contact_type = 3;
/// Polyhedra: a vertex of one body against a face of the other.
pub const DEMCONTACT_CONTACT_TYPE_VERTEX_FACE: demcontact_contact_type = 4;
/// Polyhedra: an edge of each body, crossing.
pub const DEMCONTACT_CONTACT_TYPE_EDGE_EDGE: demcontact_contact_type = 5;
/// Polyhedra: an edge of one body against a face of the other (two basic contacts in
/// `demcontact_contact_list`).
pub const DEMCONTACT_CONTACT_TYPE_EDGE_FACE: demcontact_contact_type = 6;
/// Polyhedra: a face of each body (a polygon of basic contacts in `demcontact_contact_list`).
pub const DEMCONTACT_CONTACT_TYPE_FACE_FACE: demcontact_contact_type = 7;
/// Potential particles (Boon, Houlsby & Utili 2013): `point` is the optimum of their second-order
/// cone program (eq. (6)), not the midpoint of `point_a` and `point_b`; when overlapping, `point_a`
/// and `point_b` are the surface points along the normal through it, when apart the support points
/// of the two bodies towards the separating plane through it.
pub const DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE: demcontact_contact_type = 8;

/// `demcontact_contact.flags` bit: `separation` is the exact gap, not only a lower bound.
pub const DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT: u32 = 1;
/// `demcontact_contact.flags` bit: the query started from the pair's warm state.
pub const DEMCONTACT_CONTACT_FLAG_WARM_STARTED: u32 = 2;

/// The contact of a pair (A, B), everything in the world frame and the host's length unit.
///
/// When the bodies overlap (`touching == 1`): `penetration > 0` is the overlap depth along `normal`,
/// `point_a` is the point of A deepest inside B, `point_b` the point of B deepest inside A, and
/// `point` their midpoint, where a force law applies the force (for
/// `DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE`, the optimum of the potential particles' program). When they are apart (`touching == 0`):
/// `penetration == 0`, `separation >= 0` bounds the gap from below (it is the exact distance when
/// `flags & DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT`, and then `point_a`, `point_b` are the closest
/// points). `normal` is a unit vector from A towards B in both cases. A failed query writes all zeros.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct demcontact_contact {
    /// The contact point of A's surface (world frame).
    pub point_a: [f64; 3],
    /// The contact point of B's surface (world frame).
    pub point_b: [f64; 3],
    /// The midpoint of `point_a` and `point_b`: the contact point for force laws (world frame); for
    /// `DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE`, the optimum of eq. (6) of Boon et al. (2013).
    pub point: [f64; 3],
    /// Unit contact normal, pointing from A to B (world frame).
    pub normal: [f64; 3],
    /// Overlap depth along `normal`: > 0 when the bodies overlap, 0 otherwise.
    pub penetration: f64,
    /// Lower bound on the gap when apart (exact with `DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT`), 0 when overlapping.
    pub separation: f64,
    /// 1 when the bodies overlap (`penetration > 0`), 0 otherwise.
    pub touching: i32,
    /// How the geometry was found (`DEMCONTACT_CONTACT_TYPE_*`).
    pub contact_type: demcontact_contact_type,
    /// Iterations the method took (0 for closed forms).
    pub iterations: u32,
    /// `DEMCONTACT_CONTACT_FLAG_*` bits.
    pub flags: u32,
}

impl From<&Contact> for demcontact_contact {
    fn from(c: &Contact) -> Self {
        let mut flags = 0;
        if c.separation_exact {
            flags |= DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT;
        }
        if c.warm_started {
            flags |= DEMCONTACT_CONTACT_FLAG_WARM_STARTED;
        }
        demcontact_contact {
            point_a: c.point_a.into(),
            point_b: c.point_b.into(),
            point: c.point.into(),
            normal: c.normal.into(),
            penetration: c.penetration,
            separation: c.separation,
            touching: c.touching as i32,
            contact_type: c.kind as i32,
            iterations: c.iterations,
            flags,
        }
    }
}

/// One pair of a batch: shape A at `pose_a`, shape B at `pose_b`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct demcontact_pair {
    /// Shape of body A (a live handle).
    pub a: *const demcontact_shape,
    /// Pose of body A.
    pub pose_a: demcontact_pose,
    /// Shape of body B (a live handle).
    pub b: *const demcontact_shape,
    /// Pose of body B.
    pub pose_b: demcontact_pose,
}

/// The contact of one pair, validated; `warm` is updated only on success.
///
/// # Safety
/// `a`, `b` are NULL or live handles.
#[inline(always)]
unsafe fn query(
    a: *const demcontact_shape,
    pose_a: &demcontact_pose,
    b: *const demcontact_shape,
    pose_b: &demcontact_pose,
    warm: Option<&mut demcontact_warm_state>,
) -> Result<demcontact_contact, Failure> {
    let shape_a = unsafe { demcontact_shape::borrow(a, "a") }?;
    let shape_b = unsafe { demcontact_shape::borrow(b, "b") }?;
    let pose_a = pose_a.core_pose("pose_a")?;
    let pose_b = pose_b.core_pose("pose_b")?;
    let state = warm.map(demcontact_warm_state::as_core_mut);
    let contact = crate::narrow::collide(shape_a, &pose_a, shape_b, &pose_b, state)?;
    Ok(demcontact_contact::from(&contact))
}

/// The contact of shape `a` at `pose_a` with shape `b` at `pose_b` (see `demcontact_contact`).
///
/// `warm` is the pair's state from the previous time step (all-zero for a new contact), updated in
/// place on success for the next step; it may be NULL for a cold query that keeps no state. Warm starts
/// make iterative kernels faster; the answer depends on `warm` only where the geometry leaves a choice
/// (a concentric sphere pair keeps the previous step's normal instead of a fixed axis), and for a
/// pair of box-like superellipsoids (every squareness below 0.25) in lasting contact, whose answer
/// follows the last step's contact between full searches at every eighth query of the pair (counted
/// by `warm->steps`): where another contact direction becomes the shallower one, it is taken within
/// eight steps.
///
/// Returns `DEMCONTACT_STATUS_OK` and fills `*out` (whether or not the bodies touch: see
/// `out->touching`); on failure writes an all-zero `*out` (when `out` is not NULL), leaves `*warm` as it
/// was and returns the status. Re-entrant: any number of threads may call it at once, each with its own
/// `warm` and `out`.
///
/// # Safety
/// Pointers are NULL or valid: `a`, `b` live handles; `pose_a`, `pose_b` readable; `warm`, `out`
/// writable and not shared with another thread during the call.
#[no_mangle]
pub unsafe extern "C" fn demcontact_collide(
    a: *const demcontact_shape,
    pose_a: *const demcontact_pose,
    b: *const demcontact_shape,
    pose_b: *const demcontact_pose,
    warm: *mut demcontact_warm_state,
    out: *mut demcontact_contact,
) -> demcontact_status {
    run(|| {
        let out = unsafe { arg_mut(out, "out") }?;
        *out = demcontact_contact::default();
        let pose_a = unsafe { arg(pose_a, "pose_a") }?;
        let pose_b = unsafe { arg(pose_b, "pose_b") }?;
        let warm = unsafe { optional_mut(warm, "warm") }?;
        *out = unsafe { query(a, pose_a, b, pose_b, warm) }?;
        Ok(())
    })
}

/// The contacts of `n` pairs in one call, spread over `threads` threads (0: all cores; 1: only the
/// calling thread; a count above 1024 is taken as 1024). Results are written in input order and are
/// identical whatever the thread count.
///
/// `pairs[i]` gives pair i; `out[i]` receives its contact (all zeros when it fails); `warm[i]` is its
/// warm state, as in `demcontact_collide` (`warm` may be NULL: cold queries keeping no state);
/// `statuses[i]` receives its status (`statuses` may be NULL). Returns `DEMCONTACT_STATUS_OK` when
/// every pair succeeded, otherwise the status of the first failed pair, whose message (prefixed with
/// its index) `demcontact_last_error_message()` gives. `n == 0` is allowed with NULL arrays.
///
/// The worker threads are demcontact's own pool, built once per distinct thread count and kept for
/// the process's life (whatever `n` is: a small batch uses fewer of them; a process forked from
/// the host builds its own, as the parent's threads are not in it); call it from one host thread
/// at a time for the best speed (concurrent calls are safe, they share the pool).
///
/// # Safety
/// `pairs`, `out` (and `warm`, `statuses` when not NULL) point to `n` valid elements each, not shared
/// with another thread during the call; every handle in `pairs` is live.
#[no_mangle]
pub unsafe extern "C" fn demcontact_collide_batch(
    pairs: *const demcontact_pair,
    n: usize,
    warm: *mut demcontact_warm_state,
    threads: u32,
    out: *mut demcontact_contact,
    statuses: *mut demcontact_status,
) -> demcontact_status {
    run(|| {
        let pairs = PairList(unsafe { slice(pairs, n, "pairs") }?);
        let out = unsafe { slice_mut(out, n, "out") }?;
        let warm = unsafe { optional_slice_mut(warm, n, "warm") }?;
        let statuses = StatusOut(aligned(statuses, "statuses")?.cast_mut());
        // Failures are rare: only they are collected, with their index and message.
        let failures: Mutex<Vec<(usize, Failure)>> = Mutex::new(Vec::new());
        crate::narrow::for_each_chunk(threads as usize, out, warm, |start, chunk, mut warm| {
            for (k, slot) in chunk.iter_mut().enumerate() {
                let i = start + k;
                let p = pairs.get(i);
                let w = warm.as_deref_mut().map(|w| &mut w[k]);
                let status = match run_quiet(|| unsafe { query(p.a, &p.pose_a, p.b, &p.pose_b, w) })
                {
                    Ok(contact) => {
                        *slot = contact;
                        DEMCONTACT_STATUS_OK
                    }
                    Err(failure) => {
                        *slot = demcontact_contact::default();
                        let status = failure.status;
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((i, failure));
                        status
                    }
                };
                // SAFETY: `statuses` is NULL or holds `n` elements; index `i` belongs to this chunk only.
                unsafe { statuses.write(i, status) };
            }
        });
        let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
        match failures.into_iter().min_by_key(|(i, _)| *i) {
            None => Ok(()),
            Some((i, failure)) => Err(failure.context(format_args!("pair {i}"))),
        }
    })
}

/// The pairs of a batch, shared read-only by the worker threads.
struct PairList<'a>(&'a [demcontact_pair]);

// SAFETY: the raw pointers in a pair are shape handles, which point to immutable `Send + Sync` data
// (`Arc<demcontact_shape>`); the workers only read them.
unsafe impl Sync for PairList<'_> {}

impl PairList<'_> {
    /// Pair `i` (a method, so that closures capture the whole `Sync` list, not its field).
    fn get(&self, i: usize) -> &demcontact_pair {
        &self.0[i]
    }
}

/// The caller's optional status array, written by the workers at disjoint indices.
struct StatusOut(*mut demcontact_status);

// SAFETY: every worker writes only the indices of its own chunk, so no element is shared.
unsafe impl Sync for StatusOut {}

impl StatusOut {
    /// Writes `status` at index `i` when the array was given.
    ///
    /// # Safety
    /// The array is NULL or holds more than `i` elements, and no other thread writes index `i`.
    unsafe fn write(&self, i: usize, status: demcontact_status) {
        if !self.0.is_null() {
            unsafe { *self.0.add(i) = status };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{
        demcontact_last_error_message, demcontact_shape_release, demcontact_sphere_create,
    };
    use proptest::prelude::*;
    use std::ffi::CStr;

    /// Any double, weighted towards the values that break geometry code.
    fn nasty() -> impl Strategy<Value = f64> {
        prop_oneof![
            -10.0f64..10.0,
            Just(0.0),
            Just(-0.0),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
            Just(1e300),
            Just(-1e300),
            Just(1.0),
        ]
    }

    #[test]
    fn a_query_that_fails_in_the_kernel_leaves_the_hosts_warm_state_as_it_was() {
        // The query works on the host's record in place: a failure after the kernel ran (here
        // an overflow to infinity) must still leave it as it was.
        let mut ball = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the handle is released below.
        assert_eq!(
            unsafe { demcontact_sphere_create(1e150, &mut ball) },
            DEMCONTACT_STATUS_OK
        );
        let at = |x: f64| demcontact_pose {
            position: [x, 0.0, 0.0],
            orientation: [1.0, 0.0, 0.0, 0.0],
        };
        let mut warm = demcontact_warm_state::default();
        let mut out = demcontact_contact::default();
        // SAFETY (both calls): valid pointers, `ball` live.
        let first =
            unsafe { demcontact_collide(ball, &at(0.0), ball, &at(1.5e150), &mut warm, &mut out) };
        assert_eq!(first, DEMCONTACT_STATUS_OK);
        assert_eq!(warm.steps, 1);
        let before = warm;
        let failed =
            unsafe { demcontact_collide(ball, &at(-1e308), ball, &at(1e308), &mut warm, &mut out) };
        assert_eq!(failed, DEMCONTACT_STATUS_NON_FINITE);
        assert_eq!(warm, before);
        assert_eq!(out, demcontact_contact::default());
        // SAFETY: a live handle, released once.
        unsafe { demcontact_shape_release(ball) };
    }

    fn finite(c: &demcontact_contact) -> bool {
        [c.point_a, c.point_b, c.point, c.normal]
            .iter()
            .flatten()
            .chain([&c.penetration, &c.separation])
            .all(|x| x.is_finite())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(4000)))]

        /// Whatever the host passes: OK with finite outputs and a unit normal, or a failure status with
        /// an all-zero contact, an untouched warm state and a message. Never a NaN, never a panic.
        #[test]
        fn garbage_in_gives_a_status_never_a_nan(
            ra in nasty(), rb in nasty(),
            pa in prop::array::uniform3(nasty()), qa in prop::array::uniform4(nasty()),
            pb in prop::array::uniform3(nasty()), qb in prop::array::uniform4(nasty()),
            unit_a in any::<bool>(), unit_b in any::<bool>(),
        ) {
            let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
            // SAFETY: valid out-pointers; handles released below.
            let sa = unsafe { demcontact_sphere_create(ra, &mut a) };
            let sb = unsafe { demcontact_sphere_create(rb, &mut b) };
            prop_assert_eq!(sa == DEMCONTACT_STATUS_OK, !a.is_null());
            prop_assert_eq!(sb == DEMCONTACT_STATUS_OK, !b.is_null());
            // Half the cases get a proper unit quaternion, so that the geometry itself is exercised.
            let unit = |q: [f64; 4], make: bool| if make { [0.5, 0.5, -0.5, 0.5] } else { q };
            let pose_a = demcontact_pose { position: pa, orientation: unit(qa, unit_a) };
            let pose_b = demcontact_pose { position: pb, orientation: unit(qb, unit_b) };
            let mut warm = demcontact_warm_state::default();
            let mut out = demcontact_contact { penetration: f64::NAN, ..Default::default() };
            // SAFETY: valid pointers; `a` and `b` are NULL or live.
            let status = unsafe { demcontact_collide(a, &pose_a, b, &pose_b, &mut warm, &mut out) };
            if status == DEMCONTACT_STATUS_OK {
                prop_assert!(finite(&out), "{:?}", out);
                let n = out.normal;
                prop_assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-12);
                prop_assert!(out.penetration >= 0.0 && out.separation >= 0.0);
                prop_assert_eq!(warm.steps, 1);
            } else {
                prop_assert!(status != DEMCONTACT_STATUS_INTERNAL_ERROR);
                prop_assert_eq!(out, demcontact_contact::default());
                prop_assert_eq!(warm, demcontact_warm_state::default());
                // SAFETY: the library's thread-local message, never NULL.
                let message = unsafe { CStr::from_ptr(demcontact_last_error_message()) };
                prop_assert!(!message.to_bytes().is_empty());
            }
            // SAFETY: each handle is NULL or live, released once.
            unsafe {
                demcontact_shape_release(a);
                demcontact_shape_release(b);
            }
        }
    }
}
