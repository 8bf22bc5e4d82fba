//! `demcontact_warm_state`: the per-pair record a host keeps between time steps.

use super::boundary::{run, Failure};
use super::pointers::{arg, arg_mut};
use super::pose::demcontact_pose;
use super::shape::demcontact_shape;
use super::status::demcontact_status;
use crate::narrow::common_normal::{angles_from_warm, warm_from_angles};
use crate::pose::Pose;
use crate::shapes::Shape;
use crate::warm::WarmState;

/// Doubles of kernel data in a `demcontact_warm_state`.
pub const DEMCONTACT_WARM_STATE_DATA_LEN: usize = 15;
/// Size in bytes of a `demcontact_warm_state` (16 doubles): what a host reserves per contact.
pub const DEMCONTACT_WARM_STATE_SIZE: usize = 128;

/// A pair's warm-start state: plain data of fixed size (128 bytes) that the host stores with its
/// per-contact history and passes back at the next time step, so the query starts from the previous
/// answer.
///
/// All-zero means cold (a new contact): `memset` it to 0, or `= {0}`. The library writes it on every
/// successful query and leaves it untouched on failure. Its content is frame-independent (stored in
/// body frames), so it stays valid while both bodies move, but it belongs to one ordered pair (A, B):
/// query the pair always in the same order. A record written for another pair of shape families is
/// treated as cold, and so is one whose numbers no query of its kind writes (memory never zeroed,
/// or overwritten). It may be copied bytewise (e.g. when a host migrates a contact to another MPI rank).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct demcontact_warm_state {
    /// Which pair kernel wrote `data` (0: cold). Opaque to the host.
    pub kernel: u32,
    /// How many consecutive queries have updated this record (saturating).
    pub steps: u32,
    /// Kernel data, in body frames. Opaque to the host.
    pub data: [f64; DEMCONTACT_WARM_STATE_DATA_LEN],
}

// `demcontact_warm_state` and the core's `WarmState` have one layout (both `#[repr(C)]`, the same
// fields in the same order): checked here, at compile time.
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<demcontact_warm_state>() == size_of::<WarmState>());
    assert!(align_of::<demcontact_warm_state>() == align_of::<WarmState>());
    assert!(offset_of!(demcontact_warm_state, kernel) == offset_of!(WarmState, kernel));
    assert!(offset_of!(demcontact_warm_state, steps) == offset_of!(WarmState, steps));
    assert!(offset_of!(demcontact_warm_state, data) == offset_of!(WarmState, data));
};

impl demcontact_warm_state {
    /// The host's record as the core's warm state, in place: a query reads and writes the host's
    /// memory directly, with no copy in and out (whose reads of the copy just written stall the
    /// processor's store forwarding). The core still writes it only when the query succeeds.
    #[inline(always)]
    pub(crate) fn as_core_mut(&mut self) -> &mut WarmState {
        // SAFETY: both types are `#[repr(C)]` with the same fields at the same offsets, size and
        // alignment (asserted above), and every bit pattern of their `u32` and `f64` fields is
        // valid for both; the borrow of `self` covers the returned reference's lifetime.
        unsafe { &mut *(self as *mut demcontact_warm_state).cast::<WarmState>() }
    }
}

impl From<demcontact_warm_state> for WarmState {
    fn from(w: demcontact_warm_state) -> Self {
        WarmState {
            kernel: w.kernel,
            steps: w.steps,
            data: w.data,
        }
    }
}

impl From<WarmState> for demcontact_warm_state {
    fn from(w: WarmState) -> Self {
        demcontact_warm_state {
            kernel: w.kernel,
            steps: w.steps,
            data: w.data,
        }
    }
}

/// The poses of a pair of the common-normal kernel (superellipsoids, or a superellipsoid with a
/// sphere) and the sum of the shapes' bounding radii.
///
/// # Safety
/// Every pointer is NULL or valid (the shapes live handles).
unsafe fn common_normal_pair(
    a: *const demcontact_shape,
    pose_a: *const demcontact_pose,
    b: *const demcontact_shape,
    pose_b: *const demcontact_pose,
) -> Result<(Pose, Pose, f64), Failure> {
    let a = unsafe { demcontact_shape::borrow(a, "a") }?;
    let b = unsafe { demcontact_shape::borrow(b, "b") }?;
    let pose_a = unsafe { arg(pose_a, "pose_a") }?.core_pose("pose_a")?;
    let pose_b = unsafe { arg(pose_b, "pose_b") }?.core_pose("pose_b")?;
    if matches!((a, b), (Shape::Sphere(_), Shape::Sphere(_))) {
        return Err(crate::Error::UnsupportedPair(
            "two spheres have no contact-direction angles (their normal is the centre line)".into(),
        )
        .into());
    }
    let other_kernel = |s: &Shape| matches!(s, Shape::Polyhedron(_) | Shape::PotentialParticle(_));
    if other_kernel(a) || other_kernel(b) {
        return Err(crate::Error::UnsupportedPair(format!(
            "a {:?} with a {:?}: contact-direction angles are for the common-normal kernel \
             (superellipsoids, or a superellipsoid with a sphere)",
            a.family(),
            b.family()
        ))
        .into());
    }
    Ok((pose_a, pose_b, a.bounding_radius() + b.bounding_radius()))
}

/// Writes to `alpha[0]`, `alpha[1]` the contact-direction angles `(alpha1, alpha2)` (radians) of
/// Wellmann, Lillie & Wriggers (2008), eq. (6), of the contact direction kept in `warm`, for the
/// pair `a` at `pose_a`, `b` at `pose_b` (world frame):
/// `c = cos a1 cos a2 e1 + sin a1 cos a2 e2 + sin a2 e3` with `e1` the unit centre line A -> B
/// (A's body x axis when the centres coincide) and, writing `s = copysign(1, e1.z)`,
/// `k = -1/(s + e1.z)`: `e2 = (1 + s k e1.x^2, s k e1.x e1.y, -s e1.x)`,
/// `e3 = (k e1.x e1.y, s + k e1.y^2, -e1.y)` (Duff et al. 2017).
///
/// For hosts whose contact history keeps only the paper's two angles; pass them back with
/// `demcontact_warm_state_from_angles`. Fails with `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `warm`
/// holds no contact direction (cold, or written for another kind of pair),
/// `DEMCONTACT_STATUS_UNSUPPORTED_PAIR` for two spheres or a pair with a polyhedron. Thread-safe.
///
/// # Safety
/// Every pointer is NULL or valid; `alpha` points to two writable doubles.
#[no_mangle]
pub unsafe extern "C" fn demcontact_warm_state_angles(
    a: *const demcontact_shape,
    pose_a: *const demcontact_pose,
    b: *const demcontact_shape,
    pose_b: *const demcontact_pose,
    warm: *const demcontact_warm_state,
    alpha: *mut f64,
) -> demcontact_status {
    run(|| {
        let (pose_a, pose_b, size) = unsafe { common_normal_pair(a, pose_a, b, pose_b) }?;
        let warm = WarmState::from(*unsafe { arg(warm, "warm") }?);
        let alpha = unsafe { arg_mut(alpha.cast::<[f64; 2]>(), "alpha") }?;
        let (a1, a2) = angles_from_warm(&warm, &pose_a, &pose_b, size)?;
        *alpha = [a1, a2];
        Ok(())
    })
}

/// Writes to `*warm` a warm state whose contact direction has the angles `alpha1`, `alpha2`
/// (radians, eq. (6) of Wellmann, Lillie & Wriggers 2008, in the frame described at
/// `demcontact_warm_state_angles`) for the pair `a` at `pose_a`, `b` at `pose_b`: the next
/// `demcontact_collide` of that pair starts its search there. `alpha1 = alpha2 = 0` is the centre
/// line, the paper's start for a new contact. `*warm` is left alone on failure. Fails with
/// `DEMCONTACT_STATUS_NON_FINITE` for NaN or infinite angles, `DEMCONTACT_STATUS_UNSUPPORTED_PAIR`
/// for two spheres or a pair with a polyhedron. Thread-safe.
///
/// # Safety
/// Every pointer is NULL or valid; `warm` points to writable storage.
#[no_mangle]
pub unsafe extern "C" fn demcontact_warm_state_from_angles(
    a: *const demcontact_shape,
    pose_a: *const demcontact_pose,
    b: *const demcontact_shape,
    pose_b: *const demcontact_pose,
    alpha1: f64,
    alpha2: f64,
    warm: *mut demcontact_warm_state,
) -> demcontact_status {
    run(|| {
        let (pose_a, pose_b, size) = unsafe { common_normal_pair(a, pose_a, b, pose_b) }?;
        let out = unsafe { arg_mut(warm, "warm") }?;
        *out = warm_from_angles(alpha1, alpha2, &pose_a, &pose_b, size)?.into();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warm::WARM_STATE_DATA_LEN;

    #[test]
    fn sizes_match_the_core_and_the_header() {
        assert_eq!(DEMCONTACT_WARM_STATE_DATA_LEN, WARM_STATE_DATA_LEN);
        assert_eq!(
            std::mem::size_of::<demcontact_warm_state>(),
            DEMCONTACT_WARM_STATE_SIZE
        );
        let mut w = WarmState::cold();
        w.kernel = 1;
        w.data[14] = 2.5;
        assert_eq!(WarmState::from(demcontact_warm_state::from(w)), w);
    }
}
