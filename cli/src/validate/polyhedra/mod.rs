//! Convex polyhedra: issue 6's protocol for the Fast Direct Search kernel (Zheng et al. 2017),
//! every answer checked against the exact, independent reference of
//! [`crate::polyhedron_reference`]:
//!
//! * [`analytic`]: hand-made cases with answers derived by hand (cube pairs face-face, twisted,
//!   edge-edge crossing, vertex-face, edge-face; tetrahedra; a 1:8 rod), depth or gap and normal,
//!   and the composite contact type reported;
//! * [`random`]: random pairs of random convex polyhedra near contact: classification against
//!   the separating-axis reference outside its tolerance band, depth against the SAT depth,
//!   normal where the SAT minimum is unique, covers visited;
//! * [`motion`]: blocks sliding and turning in small steps, where the updated (warm-started)
//!   detection must equal a fresh initial (cold) one at every step, and both the reference;
//! * [`rough`] (beyond the paper): plates and needles with near-duplicate points, whose hulls the
//!   kernel merges within its tolerance, in both orders against the reference;
//! * [`rough_motion`] (beyond the paper): those bodies moved as the blocks, warm against cold
//!   and both against the reference.
//!
//! The queries go through the public entry point [`demcontact::narrow::collide`] (world frame).

mod analytic;
mod judge;
mod motion;
mod random;
mod rough;
mod rough_motion;

use super::{Options, Outcome};
use demcontact::Contact;
use nalgebra::Vector3;

/// Relative depth error allowed against the reference (issue 6's target).
pub const DEPTH_TOLERANCE: f64 = 1e-9;

/// The round-off floor of a depth, relative to the pair's size: a depth is the difference of two
/// support values of the order of the size, so its absolute error cannot go below a few ulps of
/// the size however shallow the contact (1e-13 is about 450 ulps). A depth is judged within
/// `DEPTH_TOLERANCE * depth + DEPTH_ROUND_OFF * size` ([`depth_ok`]).
pub const DEPTH_ROUND_OFF: f64 = 1e-13;

/// Whether `ours` is the reference depth `depth` within [`DEPTH_TOLERANCE`] relative, above the
/// round-off floor [`DEPTH_ROUND_OFF`] of `size`.
pub fn depth_ok(ours: f64, depth: f64, size: f64) -> bool {
    (ours - depth).abs() <= DEPTH_TOLERANCE * depth + DEPTH_ROUND_OFF * size
}

/// Angle (rad) allowed between our normal and the reference's where the reference's minimum is
/// unique.
pub const NORMAL_TOLERANCE: f64 = 1e-9;

/// A SAT minimum is unique when every candidate axis more than [`SAME_AXIS_ANGLE`] away from it
/// overlaps by at least this much more (relative to the larger body's size); see
/// [`judge::unique_minimum`].
pub const UNIQUE_MARGIN: f64 = 1e-6;

/// Candidate axes closer than this (rad) to the minimum's are the same axis (e.g. a face normal
/// that is also the cross product of two of its edges).
pub const SAME_AXIS_ANGLE: f64 = 1e-6;

/// Our verdict as a signed distance: minus the depth when we report touching, else the
/// certified gap (at least the smallest positive number, so that the sign is the verdict).
pub fn signed(c: &Contact) -> f64 {
    if c.touching {
        -c.penetration
    } else {
        c.separation.max(f64::MIN_POSITIVE)
    }
}

/// The angle between two unit vectors (rad), accurate for small angles.
pub fn angle(u: &Vector3<f64>, v: &Vector3<f64>) -> f64 {
    u.cross(v).norm().atan2(u.dot(v))
}

/// "PASS" or "FAIL".
pub fn verdict(ok: bool) -> String {
    if ok { "PASS" } else { "FAIL" }.into()
}

/// Random pairs per `--pairs` (the default 10^6 gives 10^5 pairs).
pub const PAIRS_PER_OPTION: usize = 10;

/// Motion steps per sequence per `--pairs` (the default 10^6 gives 10^4 steps).
pub const PAIRS_PER_STEP: usize = 100;

/// The whole protocol at the size `options.pairs` sets: `pairs / 10` random pairs and motion
/// sequences of `pairs / 100` steps.
pub fn validate(options: &Options) -> Outcome {
    validate_sized(
        options,
        (options.pairs / PAIRS_PER_OPTION).max(1),
        (options.pairs / PAIRS_PER_STEP).max(2),
    )
}

/// Steps of the blocks' motion sequences per step of a rough point clouds' sequence.
pub const STEPS_PER_ROUGH_STEP: usize = 10;

/// Random pairs of rough point clouds per random pair of the protocol.
pub const RANDOM_PAIRS_PER_ROUGH: usize = 10;

/// The whole protocol with `pairs` random pairs, motion sequences of `steps` steps,
/// `pairs / 10` pairs of rough point clouds and rough point clouds' sequences of `steps / 10`
/// steps: the five sections, their tables and checks.
pub fn validate_sized(options: &Options, pairs: usize, steps: usize) -> Outcome {
    let started = std::time::Instant::now();
    let sections = [
        analytic::validate(),
        random::validate(options, pairs),
        motion::validate(options, steps),
        rough::validate(options, (pairs / RANDOM_PAIRS_PER_ROUGH).max(16)),
        rough_motion::validate(options, (steps / STEPS_PER_ROUGH_STEP).max(2)),
    ];
    super::joined(
        "\n## Convex polyhedra: Fast Direct Search (Zheng et al. 2017) against the exact \
                      separating-axis reference (issue 6), f64\n",
        "polyhedra",
        started,
        &sections,
    )
}
