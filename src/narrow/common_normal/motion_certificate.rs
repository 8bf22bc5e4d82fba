//! The exclusion of a smooth pair apart without any support evaluation: the separating plane a
//! query found (the prefilter's or the exact test's, eq. (12)), kept in the warm state with the
//! placement it was found at, still separates the bodies while they have moved less, relative to
//! each other, than its gap allows (the smooth counterpart of the polyhedra's motion
//! certificate, `fast_direct_search::motion_certificate`).
//!
//! The plane is fixed in A's frame: unit normal `c`, A's side at A's support value `h_A(c)`. Its
//! gap is `g = c . t - h_B(-R^T c) - h_A(c)`, with B at `t` turned by `R` in A's frame and `h_B`
//! B's support function in its own frame. From the reference placement `(t0, R0)`, where the
//! query certified `g0` as a lower bound of the gap, A's term is unchanged and B's changes by at
//! most `rho_B |R^T c - R0^T c| <= rho_B ||R - R0||` (a support function is Lipschitz with the
//! bounding radius `rho_B` about the body's origin), so
//!
//! `g >= (g0 - c . t0) + c . t - rho_B ||R - R0||`,
//!
//! less a slack for round-off. While that is positive the plane still separates the bodies by at
//! least it: a certified lower bound of their distance, as the reference's gap is. The constant
//! `g0 - c . t0` is one number; `c . t = (R_A c) . (x_B - x_A)` and `||R - R0||`
//! ([`Pose::turn_since`]) come from the two world poses. The witness points are the reference's,
//! moved with their bodies: A's support point along `c` (the same in A's frame, `c` being fixed
//! there) and B's witness of the reference placement.
//!
//! The record lives in the warm-state slots the kernel keeps for the step before the last, which
//! only a pair that touched at its last query reads (for the extrapolation of its direction); a
//! pair apart at its last query holds the certificate there instead. It is trusted only by a
//! query of shapes with the same fingerprint, so a warm state reused for another pair by mistake
//! costs a full query, not a wrong answer.

use super::{BEFORE, DIRECTION, TOUCHED};
use crate::contact::{Contact, ContactKind};
use crate::pose::Pose;
use crate::shapes::SmoothConvex;
use nalgebra::{Matrix3, Vector3};

/// Warm-state slot: the two shapes' fingerprint when the reference was recorded (0: no
/// certificate). The certificate is read only when the kernel's `TOUCHED` flag is 0.
const FINGERPRINT: usize = BEFORE;
/// Warm-state slot: `g0 - c . t0`, the constant part of the gap bound (module documentation).
const CONSTANT: usize = BEFORE + 1;
/// Warm-state slots: the vector part `x, y, z` of the reference relative rotation's quaternion,
/// taken with `w >= 0` (so that `w` follows from them).
const ROTATION: usize = BEFORE + 2;
/// Warm-state slots: A's witness point (A's frame).
const WITNESS_A: usize = BEFORE + 5;
/// Warm-state slots: B's witness point (B's frame).
const WITNESS_B: usize = BEFORE + 8;

/// How far from 1 the squared norm of the recorded relative quaternion may be: each pose's is
/// within `8 eps` of 1 (`Pose::from_wxyz`), and their product adds a few roundings. So the `w`
/// recomputed as `sqrt(1 - x^2 - y^2 - z^2)` is off by at most `W_SQUARED_SLACK / w` and by at
/// most `sqrt(W_SQUARED_SLACK)`, and the turn by at most twice that.
const W_SQUARED_SLACK: f64 = 1e-14;
/// Relative slack on the motion bound, and absolute slack per unit of the placement's size, for
/// the round-off of the bound and of the projections.
const RELATIVE_SLACK: f64 = 1e-12;
const ABSOLUTE_SLACK: f64 = 1e-14;

/// The pair's fingerprint: the shapes' own, combined so that swapping two different shapes
/// changes it.
#[inline]
fn fingerprint<A: SmoothConvex, B: SmoothConvex>(a: &A, b: &B) -> f64 {
    a.fingerprint() + 1.618_033_988_749_895 * b.fingerprint()
}

/// Records (or clears) the certificate in `data` after a query of `a` and `b` (B at `relative`
/// in A's frame) whose answer `contact` (A's frame) is apart: its normal `c` is the plane's, its
/// separation the certified `g0`. `rotation` is `relative`'s as a matrix (B frame -> A frame).
/// Call after the kernel has written the normal and the touching flag.
pub fn record<A: SmoothConvex, B: SmoothConvex>(
    data: &mut [f64],
    a: &A,
    b: &B,
    relative: &Pose,
    rotation: &Matrix3<f64>,
    contact: &Contact,
) {
    let gap = contact.separation;
    if contact.touching || gap.is_nan() || gap <= 0.0 {
        data[FINGERPRINT..].fill(0.0);
        return;
    }
    let q = relative.rotation.quaternion();
    let sign = if q.w < 0.0 { -1.0 } else { 1.0 };
    // B's witness in B's frame, with the relative rotation's matrix the kernel has formed.
    let witness_b = rotation.tr_mul(&(contact.point_b - relative.position));
    data[FINGERPRINT] = fingerprint(a, b);
    data[CONSTANT] = gap - contact.normal.dot(&relative.position);
    data[ROTATION..ROTATION + 3].copy_from_slice(&[sign * q.i, sign * q.j, sign * q.k]);
    data[WITNESS_A..WITNESS_A + 3].copy_from_slice(contact.point_a.as_slice());
    data[WITNESS_B..WITNESS_B + 3].copy_from_slice(witness_b.as_slice());
}

/// The pair proven apart at the world poses `pose_a`, `pose_b` by the plane recorded in `data`
/// (module documentation), or `None` when there is no record for these shapes, the last query
/// touched, or the motion since the record may have closed the gap. The contact is in the world
/// frame: the plane's normal, the certified lower bound as the separation, the reference's
/// witness points moved with their bodies; `iterations` 0.
#[inline]
pub fn certified_apart<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    data: &[f64],
) -> Option<Contact> {
    let recorded = data[FINGERPRINT];
    if data[TOUCHED] != 0.0 || recorded == 0.0 || recorded != fingerprint(a, b) {
        return None;
    }
    let v = [data[ROTATION], data[ROTATION + 1], data[ROTATION + 2]];
    let w = (1.0 - (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]))
        .max(0.0)
        .sqrt();
    let w_error = (W_SQUARED_SLACK / w).min(W_SQUARED_SLACK.sqrt());
    let turn = pose_a.turn_since(pose_b, [w, v[0], v[1], v[2]]) + 2.0 * w_error;
    let normal = pose_a.rotation * Vector3::from_column_slice(&data[DIRECTION..DIRECTION + 3]);
    let d = pose_b.position - pose_a.position;
    let size = 1.0 + d.abs().sum() + a.bounding_radius() + b.bounding_radius();
    let bound = turn * b.bounding_radius() * (1.0 + RELATIVE_SLACK);
    let gap = data[CONSTANT] + normal.dot(&d) - bound - ABSOLUTE_SLACK * size;
    if gap.is_nan() || gap <= 0.0 {
        return None;
    }
    let witness = |k: usize| Vector3::new(data[k], data[k + 1], data[k + 2]);
    let point_a = pose_a.transform_point(&witness(WITNESS_A));
    let point_b = pose_b.transform_point(&witness(WITNESS_B));
    let mut contact =
        Contact::from_points(point_a, point_b, normal, -gap, false, ContactKind::Smooth);
    contact.warm_started = true;
    Some(contact)
}
