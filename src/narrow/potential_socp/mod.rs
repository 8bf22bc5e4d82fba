//! Potential particle pairs: the contact point of Boon, Houlsby & Utili (2013) as the optimum of
//! the second-order cone program of eq. (6) (weights eq. (7), variables eq. (8)), solved by our own
//! Newton method on its KKT system (`solver`), warm-started from the previous step's optimum.
//!
//! The result ([`PotentialSolution`]), in A's frame:
//! * `s_A`, `s_B` (equal at the optimum): the bodies overlap exactly when `s < 1` (text after
//!   eq. (8)).
//! * The contact `point`: the optimal point, mapped to A's frame by eq. (8) and to the world by
//!   eq. (3) (unlike the other kernels, `point` is this optimum, not the midpoint of `point_a` and
//!   `point_b`).
//! * The normal: the average of the two bodies' unit normals (eq. (7) gradients) at the point, B's
//!   reversed so that it points from A to B (section 2.4). At the optimum the two gradients are
//!   exactly opposite (KKT: `(1 - lambda) grad F_A + lambda grad F_B = 0`), so both unit normals
//!   agree and the section's stiffness-weighted average is the same normal for any stiffnesses.
//! * Overlapping (`s < 1`): `point_a = x* + t_a n` on A's surface and `point_b = x* - t_b n` on B's,
//!   found by the bracketed line search along the normal of Figure 3 (`surface_crossing`);
//!   `penetration = t_a + t_b`, the overlap distance of the text.
//! * Apart (`s >= 1`, certified by the optimum: no point is inside both bodies): the plane through
//!   `x*` normal to `n` separates the level sets `f + 1 = s^2` of both bodies, which hold the
//!   bodies, so it separates the bodies. `point_a`, `point_b` are the bodies' support points towards
//!   that plane and `separation = n . (point_b - point_a)` is a lower bound of the gap
//!   (`separation_exact` false; exact up to the support points' round-off).

mod solver;
mod surface_crossing;

#[cfg(test)]
pub(crate) mod tests;

pub use solver::SocpOptimum;

use crate::contact::{Contact, ContactKind};
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::shapes::PotentialParticle;
use crate::warm::WarmState;
use nalgebra::Vector3;
use solver::PlacedB;
use surface_crossing::surface_crossing;

/// Warm-state tag of this kernel. The state holds the optimal point in A's body frame
/// (`data[0..3]`), the multiplier of B's cone (`data[3]`) and the optimal point in B's body frame
/// (`data[4..7]`).
pub const KERNEL: u32 = 4;

/// How far from A's origin, in units of the pair's extent (both bounding radii and the centres'
/// distance), a warm start may lie: the optimum of eq. (6) lies between the bodies, so a record
/// that puts it further was not written for this pair (and is not used).
const WARM_REACH: f64 = 4.0;

/// A pair's answer in A's frame: the contact and the optimum of eq. (6) it comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PotentialSolution {
    /// The contact (A's frame); `iterations` counts the solver's Newton steps.
    pub contact: Contact,
    /// The optimum of eq. (6).
    pub optimum: SocpOptimum,
}

/// The contact of potential particles `a` and `b`, B at `relative` (its pose in A's frame), in A's
/// frame; `state` holds the previous optimum (warm start) and receives this one.
///
/// # Errors
///
/// [`Error::NotConverged`] when the solver meets a non-finite number (inputs too large).
pub fn potential_socp(
    a: &PotentialParticle,
    b: &PotentialParticle,
    relative: &Pose,
    state: &mut WarmState,
) -> Result<PotentialSolution> {
    let warm = state.claim(KERNEL);
    let placed = PlacedB::new(b, relative);
    // The previous optimum kept in both bodies' frames: seen from A's frame now, the two copies
    // differ by B's motion relative to A, and the optimum, between the bodies, moves by about half
    // of it: their midpoint is the start.
    // A start far beyond the pair's reach (or a solve from it that fails) is no record of this
    // pair's: the query starts cold (any finite numbers pass `WarmState::validate`, and a host's
    // record may be memory never zeroed).
    let start = warm
        .then(|| {
            let d = &state.data;
            let in_a = Vector3::new(d[0], d[1], d[2]);
            let in_b = placed.to_a(&Vector3::new(d[4], d[5], d[6]));
            ((in_a + in_b) * 0.5, d[3].clamp(0.0, 1.0))
        })
        .filter(|(x, _)| {
            x.norm()
                <= WARM_REACH
                    * (a.bounding_radius() + b.bounding_radius() + relative.position.norm())
        });
    let optimum = solver::solve(a, &placed, start)
        .or_else(|| start.and_then(|_| solver::solve(a, &placed, None)));
    let optimum = optimum.ok_or_else(|| {
        Error::NotConverged(
            "potential particles: the SOCP solver met a non-finite number (inputs too large)"
                .into(),
        )
    })?;
    let mut contact = contact_at(a, &placed, &optimum);
    contact.iterations = optimum.iterations;
    contact.warm_started = warm;
    state.data[..3].copy_from_slice(optimum.point.as_slice());
    state.data[3] = optimum.lambda;
    state.data[4..7].copy_from_slice(placed.to_body(&optimum.point).as_slice());
    Ok(PotentialSolution { contact, optimum })
}

/// The contact (A's frame) at the optimum of eq. (6): normal of section 2.4, overlap by Figure 3's
/// line search, or the separating plane's bound for a pair apart.
fn contact_at(a: &PotentialParticle, b: &PlacedB, optimum: &SocpOptimum) -> Contact {
    let x = optimum.point;
    let unit = |g: Vector3<f64>| g.try_normalize(0.0).unwrap_or_else(Vector3::zeros);
    let normal = (unit(optimum.gradient_a) - unit(optimum.gradient_b))
        .try_normalize(0.0)
        // Both gradients vanish only when both centres sit at the optimum: any direction will do,
        // the centre line if there is one.
        .or_else(|| b.position.try_normalize(0.0))
        .unwrap_or_else(Vector3::x);
    let mut contact = if optimum.s_a < 1.0 && optimum.s_b < 1.0 {
        let t_a = surface_crossing(&x, &normal, a.exit_bound(&x, &normal), |p| a.model(p));
        let (x_b, n_b) = (b.to_body(&x), b.rotation.tr_mul(&normal));
        let t_b = surface_crossing(&x_b, &-n_b, b.particle.exit_bound(&x_b, &-n_b), |p| {
            b.particle.model(p)
        });
        Contact::from_points(
            x + normal * t_a,
            x - normal * t_b,
            normal,
            t_a + t_b,
            false,
            ContactKind::PotentialParticle,
        )
    } else {
        let point_a = a.support_point(&normal);
        let point_b = b.to_a(&b.particle.support_point(&b.rotation.tr_mul(&-normal)));
        let gap = normal.dot(&(point_b - point_a)).max(0.0);
        Contact::from_points(
            point_a,
            point_b,
            normal,
            -gap,
            false,
            ContactKind::PotentialParticle,
        )
    };
    contact.point = x;
    contact
}
