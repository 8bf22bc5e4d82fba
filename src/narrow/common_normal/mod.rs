//! The common-normal contact of two smooth convex bodies (superellipsoids, and spheres mixed with
//! them): Wellmann, Lillie & Wriggers (2008), "A contact detection algorithm for superellipsoids
//! based on the common-normal concept", Engineering Computations 25(5).
//!
//! The search runs over the contact direction `c` (eq. (6)) instead of the contact points: for each
//! `c`, A's point with outward normal `c` and B's point with outward normal `-c` follow in closed
//! form (eqs. (2), (4), (7)), so conditions (5)_1-(5)_2 hold by construction and only (5)_3, `d`
//! parallel to `c`, is left. It holds at the minimum of `f = |d|^2` (eq. (9)), found by Newton's
//! method with a Levenberg-Marquardt fallback and a backtracking line search on the analytic
//! gradient and Hessian (eqs. (10)-(11), `objective`). At every iterate the exclusion test of
//! eq. (12) (`c . d > 0`) can prove the bodies apart and stop the search; the support gap `c . d`
//! is then a certified lower bound of their distance.
//!
//! Before that search, a new (or previously apart) pair goes through a cheap prefilter: the same
//! separating-plane test on certified upper bounds of the two support functions, evaluated side by
//! side in the log domain (`coarse_support`), at a first direction (for a new pair one ascent step
//! of the bodies' ellipsoids off the centre line, for a pair apart at its last query its last
//! separating direction) and then along a Newton ascent of the support gap on the same
//! approximate support points. Most separated pairs end there; the witness points are then the
//! approximate support points (within `1e-7` of the bodies' size) and the gap a certified lower
//! bound (within `2e-7` of the bodies' extents of the support gap along its direction), like any
//! exclusion's.
//!
//! Beyond the paper: a penetrating pair climbs the same ascent to the common normal of the
//! approximate support points (a stationary point of the support gap is a common normal), which
//! lies within about `1e-8` rad of the exact one; new pairs with no nearly pointed body start the
//! exact Newton search there, and most then need one Newton iteration instead of four to eight
//! (the derivatives of eqs. (10)-(11) cost several times a log-domain evaluation of both bodies).
//! The ascent's Hessian comes from the same logarithms: `d(d)/dc = -M`, with `M = J_A + R J_B R^T`
//! the sum of the support points' Jacobians, each two rank-one terms in the log domain
//! (`coarse_support::SupportLogs::jacobian`, two more `exp2` a body). A test that finds a smaller
//! gap than the best one so far takes a quarter of the step from there instead (`CLIMB_SETBACK`).
//!
//! A pair that touched at its last queries starts from its last contact direction extrapolated
//! from up to four of them (Newton's backward differences, `extrapolate`): while the contact moves
//! smoothly, the start is within about the cube of a step's turn of the new common normal. The
//! first derivatives of the points there (`objective::FirstOrder`, no second derivatives) then
//! often show it to be a common normal to the accuracy a converged descent delivers
//! (`Bodies::start_converged`): the answer is taken there, with no Newton iteration.
//!
//! A pair found apart keeps its separating plane in its warm state (`motion_certificate`): while
//! the bodies have moved, relative to each other, less than the plane's gap allows, the next
//! query answers from the warm state alone, with no support evaluation (a certified lower bound
//! of the gap, as any exclusion's).
//!
//! A converged penetrating answer is accepted when each contact point lies inside the other body
//! (the paper's local-minimum test, with the inside-outside function of eq. (1)); that also
//! certifies the overlap, since `p1` is a point of A inside B. Otherwise, or after
//! [`MAX_ITERATIONS`] without convergence, the search restarts from the best not yet tried of a
//! fixed lattice of directions (`restart`); the best stalled descent then goes on for up to
//! [`EXTENDED_ITERATIONS`] more (elongated bodies make the descent ill-conditioned, slow but sure).
//!
//! A pair with a nearly pointed body (an `eps` above 1.75) has many local minima, and its first
//! answer seldom passes the trust test; there the expanding polytope of `A - B`
//! (`super::expanding_polytope`, beyond the paper) takes the restarts' place: its certified lower
//! bound of the least overlap over all directions closes in on the minimum, one descent from the
//! closest facet's normal reaches it, and the bound proves the answer the shallowest common normal
//! to [`POLYTOPE_TOLERANCE`] of its depth (`Bodies::polytope_search`; a new pair of two nearly
//! pointed bodies goes there at once, any other after its first descent). The restarts remain
//! where the polytope cannot decide.

mod chart;
mod motion_certificate;
mod objective;
mod restart;
mod warm_angles;

#[cfg(test)]
pub(super) mod tests;

pub use chart::Chart;
pub use objective::{Bodies, Derivatives, FirstOrder, LocalCurvature, Points};
pub use warm_angles::{angles_from_warm, warm_from_angles};

use super::expanding_polytope::{ExpandingPolytope, Step};
use super::gjk::{self, Gjk};
use crate::contact::{Contact, ContactKind};
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::shapes::coarse_support::SupportLogs;
use crate::shapes::{
    apex_hull_contains, coarse_support, gauges_at_most_pair, LogSupport, Shape, SmoothConvex,
    LOG_DOMAIN_MARGIN,
};
use crate::warm::WarmState;
use nalgebra::{Matrix2, Vector2, Vector3};
use std::ops::ControlFlow;

/// Warm-state tag of this kernel.
pub const KERNEL: u32 = 2;

/// Warm-state slots of this kernel: the last query's contact direction (A's frame).
const DIRECTION: usize = 0;
/// Warm-state slot: whether the last query found the pair touching (1) or apart (0).
const TOUCHED: usize = 3;
/// Warm-state slots from here on: for a pair that touched at its last query, the direction and
/// the flag of the query before (for the extrapolation of a warm start); for a pair apart, its
/// motion certificate (`motion_certificate`).
const BEFORE: usize = 4;
/// Warm-state slots of a pair that touched at its last query: the contact direction of the query
/// before [`BEFORE`]'s.
const EARLIER: usize = 8;
/// Warm-state slots of a pair that touched at its last query: the contact direction of the query
/// before [`EARLIER`]'s.
const EARLIEST: usize = 11;
/// Warm-state slot of a pair that touched at its last query: how many queries in a row ending
/// with it found the pair touching, at most [`HISTORY`].
const STREAK: usize = 14;
/// The most contact directions a touching pair's warm state keeps for the extrapolation of its
/// warm start.
const HISTORY: usize = 4;

/// Newton iterations allowed from one start point before a restart (the paper's protocol counts
/// pairs "not excluded within 50 iterations").
pub const MAX_ITERATIONS: u32 = 50;
/// A box-like pair in lasting contact gets the whole search (the trust test, and the wider search
/// where it fails) at every `RECHECK_EVERY`-th query at least; in between, an answer that
/// continues the last one is taken as it is ([`History::Touching`]). A new branch that becomes the
/// shallowest (the depths of two common normals crossing) is found within that many queries.
pub const RECHECK_EVERY: u32 = 8;

/// How far (in the unit contact direction) a warm answer may lie from its extrapolated start and
/// still continue the last answer: about ten DEM steps' turn of 1e-3 rad.
const CONTINUATION: f64 = 1e-2;

/// The budget of the descent that continues the best stalled one, once every start has been
/// tried: at aspect ratios of 300 to 1000 a descent can take hundreds of iterations.
pub const EXTENDED_ITERATIONS: u32 = 450;

/// Iterations of the GJK test that arbitrates an overlap no contact point certifies.
const GJK_ITERATIONS: usize = 200;

/// Start directions of the wider search that follows an untrusted first answer, for every pair
/// with no nearly pointed body (no `eps` above 1.75): of moderate squareness, or with nearly
/// box-like bodies (an `eps` below 0.25), whose first answers fail the trust test at most edges
/// and corners (they took [`GLOBAL_STARTS_EXTREME`] before, and a cold query 2.2 to 2.4 times as
/// long). In `validate`'s interval 4, box-like pairs restarted from 2 directions missed the
/// global minimum of one pair at three of the seeds 1-4 (10^6 pairs per series); from 3, 4 or 6
/// they gave the outcomes of 16, wrong answers and disagreeing warm answers alike, at those seeds
/// and at seeds 2, 3 and 5 with 3 x 10^6 pairs (3 and 6).
pub const GLOBAL_STARTS: usize = 6;

/// Start directions of the wider search for a pair with a nearly pointed body (an `eps` above
/// the moderate squareness range, 0.25 to 1.75), whose local minima are more numerous: with 6
/// for every pair outside the range, the search missed the global minimum of 1 to 5 pairs of
/// interval 4 in 3 x 10^6 at seeds 2-5 of `validate`.
pub const GLOBAL_STARTS_EXTREME: usize = 16;

/// How many times the depth the smallest radius of curvature of A - B must be at a converged
/// answer for it to be trusted without a wider search.
const SMOOTH_RATIO: f64 = 20.0;

/// [`SMOOTH_RATIO`] for a pair with a nearly box-like body (an `eps` below the lower end of
/// [`MODERATE_SQUARENESS`]): a flat face makes the curvature radius large at a common normal
/// that is not the shallowest (with 20, 1 to 2 pairs of interval 4 in 3 x 10^6 at seeds 4 and 5
/// of `validate` were trusted at a depth 0.4-6 % too deep; with 300, one).
const SMOOTH_RATIO_BOXY: f64 = 1000.0;

/// How much of the depth the support gap must fall, for the answer of a pair with a nearly pointed
/// or nearly box-like body to be trusted, where the curvature at the answer predicts a fall of one depth
/// (`Bodies::falls_as_curved`).
const FALL_FRACTION: f64 = 0.5;

/// The fraction of its fall angle at which the fall check along the soft direction
/// (`Bodies::falls_as_curved`) probes a second time, where the curvature at the answer predicts
/// a fall of `INNER_FALL_SCALE^2` of the depth, of which [`FALL_FRACTION`] must be there.
const INNER_FALL_SCALE: f64 = 0.25;

/// The angles (rad) from the wider search's best answer along a level ridge of the support gap
/// at which the search starts descents along the ridge (`Bodies::ridge_starts`).
const RIDGE_ANGLES: [f64; 3] = [0.05, 0.1, 0.2];

/// The smallest radius of curvature of A - B, relative to the depth, below which the support gap
/// through an answer counts as a level ridge (`Bodies::ridge_starts`); beyond it, a start along
/// the ridge counts where the gap fell no more than this radius predicts.
const LEVEL_RIDGE_RATIO: f64 = 2.0;

/// The largest angle (rad) one Newton step may turn the contact direction.
const MAX_STEP: f64 = 0.5;

/// A Newton step (rad) this small ends the search: the next error is of its square's order.
const STEP_TOLERANCE: f64 = 1e-11;

/// The largest step (rad) after which a descent may stop without another Newton iteration, when
/// the error predicted after it is below [`STEP_TOLERANCE`] (the depth, stationary in the
/// direction, is then off by the square of that).
const QUADRATIC_STOP: f64 = 1e-5;

/// The direction error (rad, scaled by `1 +` the curvature radius of A - B over the centre
/// distance) a descent may stop at without another Newton step, when Newton's quadratic model
/// predicts it: far below what moves the depth (its square) or the points (their lateral error
/// is this times the centre distance).
const PREDICTED_TOLERANCE: f64 = 1e-9;

/// The largest change of the contact direction between two steps (chord of the unit vectors)
/// that a warm start extrapolates.
pub const EXTRAPOLATE: f64 = 0.05;

/// The residual of condition (5)_3 (`d` parallel to `c`, relative to the pair's length,
/// `Bodies::length_scale`) below which an answer counts as a common normal without polishing
/// (`Bodies::polish`). On the protocol's pairs (centre distances 1 to 6) it is as tight as the
/// `1e-10` relative to `1 + |d|` it replaces, which made the work depend on the length unit.
const COMMON_NORMAL_TOLERANCE: f64 = 2.5e-11;

/// The residual of condition (5)_3 up to which the Newton ascent of `Bodies::polish`, once it can
/// go no further, has reached a common normal (it aims for [`COMMON_NORMAL_TOLERANCE`]; rounding
/// can stop it a little above): beyond, the compass search takes over.
const COMMON_NORMAL_ACCEPTED: f64 = 2.5e-10;

/// Searches along a crease of a box-like body's support function per compass search (see
/// `Bodies::compass_search`).
const MAX_CREASE_SEARCHES: u32 = 8;

/// Consecutive moves of the compass search after which it tries the creases nearby.
const CREEP_MOVES: u32 = 16;

/// Quasi-Newton steps the prefilter's ascent takes at most after its first direction
/// (`Bodies::prefilter`): it converges in 4 to 8 on the protocol's penetrating pairs.
const PREFILTER_PROBES: u32 = 8;

/// [`PREFILTER_PROBES`] for the ascent of a restart's start direction (`Bodies::solve`): from a
/// lattice direction the ascent of a nearly pointed pair often needs more steps, each about a
/// third of a Newton iteration's cost, and every step it stops short leaves more Newton
/// iterations (the restarts of the DEM-like bench's warm sequences: 26.4 -> 23.9 us).
const RESTART_PROBES: u32 = 16;

/// Length (rad) of a Newton step of the prefilter's ascent below which it has converged:
/// the direction one step on lies within about its square of the approximate common normal, close
/// enough for the exact Newton search's first step to meet its quadratic stopping test
/// ([`QUADRATIC_STOP`], [`PREDICTED_TOLERANCE`]). On series 2 of interval 3 (4096 pairs) it
/// takes 4.93 tests and 1.074 Newton iterations a query at `1e-5`, 4.40 and 1.084 at `3e-4`,
/// 4.16 and 1.138 at `1e-3` (a Newton iteration costs about three tests).
const PREFILTER_CONVERGED: f64 = 3e-4;

/// The largest angle (rad) one step of the prefilter's ascent may turn the direction (the exact
/// search's steps take [`MAX_STEP`]): far from the answer a Newton step of the support gap
/// overshoots. Interval 3, 4096 pairs per series, tests and Newton iterations a query: series 2
/// 4.40 and 1.084 at 0.5, 4.26 and 1.071 at 0.35, 4.23 and 1.049 at 0.25, 4.42 and 1.048 at
/// 0.15; series 1 1.371 tests at 0.5, 1.331 at 0.35, 1.333 at 0.25. The deep overlaps of
/// `validate` (intervals 1-4, mean iterations), whose climbs turn farther: 12.2 / 13.8 / 20.8 /
/// 63.9 at 0.5, 12.7 / 14.1 / 20.6 / 63.9 at 0.35, 13.5 / 14.9 / 21.2 / 64.2 at 0.25.
const CLIMB_MAX_STEP: f64 = 0.35;

/// [`CLIMB_MAX_STEP`] for the restart climbs of a nearly pointed pair (`Bodies::solve`): their
/// support gap has many local maxima, and a longer step carries a climb from its lattice
/// direction over into a neighbouring basin, so that the starts' climbs end at fewer distinct
/// answers. `validate`, seed 11, interval 4, series 2, chunk 98 pair 5868 (A of `eps` 1.87 /
/// 1.19, B of 1.76 / 1.87): at 0.35 each of the 16 climbs ended at the constructed common normal
/// or was skipped there (`SAME_NORMAL`), and the answer was 1.3 % deeper than the shallowest one,
/// which 5 of the 16 Newton descents straight from the lattice directions reached (as the search
/// ran before its restarts were climbed); at 0.2, 0.1 and 0.05 the climbs reach it too.
const POINTED_RESTART_CLIMB_STEP: f64 = 0.2;

/// A test of the prefilter's ascent whose gap falls more than this (relative to the centre
/// distance) below the best gap of the climb so far is a setback: the step that led there
/// overshot, and a quarter of it is taken from the best direction instead.
const CLIMB_SETBACK: f64 = 1e-7;

/// How close (rad) a restart's start, climbed by the prefilter's ascent, must be to the best
/// answer so far (a converged one, or a stalled descent's last iterate) for its descent to be
/// skipped: it would only come back there.
const SAME_NORMAL: f64 = 1e-6;

/// The relative depth to which the expanding polytope closes in on the least overlap and within
/// which its lower bound must reach an answer to prove it the shallowest common normal
/// (`Bodies::polytope_search`): another common normal could be shallower by at most this fraction
/// of the depth (issue 5 asks `1e-9` for the mean depth error). Nearly pointed pairs of `1e-3`
/// depths take about 55 steps (43 to `1e-6`; probes `epaproto` and `pointstats`); at `1e-7`, warm and
/// cold answers of `validate`'s interval-4 sequences disagreed where two common normals were
/// level to `2e-9` of the depth.
pub const POLYTOPE_TOLERANCE: f64 = 1e-9;

/// The polytope's rounding floor in units of its offsets' rounding
/// (`ExpandingPolytope::resolution`, `1e-13` of the polytope's size): where [`POLYTOPE_TOLERANCE`]
/// of a depth lies below it (depths below about `1e-3` of the size), an answer within this floor
/// of the lower bound is proved (another common normal could be shallower by at most that,
/// `8e-13` of the size of `A - B`).
const POLYTOPE_FLOOR: f64 = 8.0;

/// The largest ratio of a body's largest to smallest semi-axis for which the expanding polytope
/// decides (`Bodies::polytope_applies`): the validated range (radii in (0.3, 3)).
const POLYTOPE_ASPECT: f64 = 10.0;

/// The most steps of the expanding polytope (`Bodies::polytope_search`) before the restarts take
/// over (the probe's largest count to `1e-8` was 93).
const POLYTOPE_STEPS: usize = 200;

/// The squareness range (`eps1`, `eps2` of both bodies) of a pair of moderate squareness: above
/// it a body is nearly pointed (`Bodies::nearly_pointed`), its pair's descent after the prefilter
/// starts from its start and its restart takes [`GLOBAL_STARTS_EXTREME`] directions; below it a
/// body is nearly box-like ([`SMOOTH_RATIO_BOXY`]).
const MODERATE_SQUARENESS: (f64, f64) = (0.25, 1.75);

/// Relative rounding of a support gap (a difference of coordinates of the size of the centre
/// distance).
const ROUNDING: f64 = 1e-15;

/// Slack of the inside test of a converged contact point: the gauge of the other body may exceed 1
/// by this much (rounding of a point that lies on both surfaces at a vanishing depth).
const INSIDE_TOLERANCE: f64 = 1e-9;

/// Centre distances below this fraction of the bounding radii count as concentric: the centre line
/// gives no start direction, so the previous step's (or A's x axis) is used.
const CONCENTRIC: f64 = 1e-12;

/// How much shallower than an answer's depth, relative, the minimum translation distance may be
/// for [`Bodies::ball_certified`] to take the answer as the global one (the effect of the answer's
/// residual across its direction; far below the search's accuracy).
const BALL_SLACK: f64 = 1e-12;

/// The radius, relative to the depth, that [`Bodies::tangent_balls_certified`] asks of each
/// body's ball beyond the residual's share: one ball of it alone proves the answer global. (Asked
/// for the depth plus half the residual's share instead, a ball reached its cap with the other
/// body's point on a ridge, and the proof, then an equality, failed by rounding at 49 of the
/// 1383 checks of 4000 cold queries of every `eps` in [0.1, 1.9), probe `pointstats`; with this
/// cap 344 of them certify, against 295.)
const CAP_OVER_DEPTH: f64 = 1.01;

/// What one search found, in body A's frame, with the diagnostics the validation reports.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    /// The contact in A's frame (`normal` = the contact direction `c`).
    pub contact: Contact,
    /// Whether the exclusion test of eq. (12) proved the bodies apart.
    pub excluded: bool,
    /// Direction updates over all starts: the prefilter's approximate ones ([`Self::probes`])
    /// and the Newton iterations.
    pub iterations: u32,
    /// Of `iterations`, the prefilter's: the closed-form ascent step of the bodies' ellipsoids
    /// and the Newton steps on the log-domain support points and their Jacobians (no exact
    /// derivatives evaluated).
    pub probes: u32,
    /// New start points needed (0 when the first start succeeded).
    pub restarts: u32,
    /// Steps of the expanding polytope of A - B that proved the answer the shallowest common
    /// normal or found a shallower one (`Bodies::polytope_search`, for a pair with a nearly
    /// pointed body; 0 where it did not run). Not counted in `iterations`.
    pub polytope_steps: u32,
    /// Converged starts rejected by the local-minimum test.
    pub local_minima: u32,
    /// The best estimate of the common normal (unit, A's frame): the contact direction, except
    /// for an answer taken at a warm start with no iteration (`Bodies::start_converged`), where it
    /// is that start moved by the Newton step that measured its distance from the common normal
    /// (an error of the order of that distance squared). The warm state keeps it for the next
    /// query's extrapolation.
    pub estimate: Vector3<f64>,
}

/// Where a descent starts: at a direction whose points are known (a cold start, where the
/// exclusion test on the points alone often ends the search), or at a direction where the
/// derivatives are wanted at once (a warm start of a touching pair).
enum Start {
    /// The points at the start direction.
    Points(Points),
    /// The unit start direction.
    Derivatives(Vector3<f64>),
}

/// What a pair's warm state says of its last query: it picks the first move of a search
/// ([`Bodies::solve`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum History {
    /// A new pair (or a cold warm state): the start is the centre line, and `along` a positive
    /// multiple of it known before its normalisation (B's centre in A's frame), from which the
    /// first step is taken without waiting for that.
    None {
        /// The start direction, not normalised.
        along: Vector3<f64>,
    },
    /// The pair was apart: the start is its last separating direction.
    Apart,
    /// The pair touched: the start is its last contact direction (extrapolated). `continued`:
    /// this query is not one of every [`RECHECK_EVERY`] that a pair in lasting contact takes
    /// with the whole search (counted by the warm state's `steps`), so a box-like pair's answer
    /// that continues the last one may be taken without the wider search.
    Touching {
        /// Whether an answer that continues the last one may skip the wider search.
        continued: bool,
    },
}

/// What the expanding polytope of A - B decided about a converged answer
/// (`Bodies::polytope_search`).
enum PolytopeVerdict {
    /// The best answer is the shallowest common normal (to [`POLYTOPE_TOLERANCE`] of its depth).
    Global,
    /// The bodies are apart: the points along a separating direction.
    Apart(Points),
    /// Not decided: the restarts take over.
    Undecided,
}

/// What the separating-plane prefilter found (`Bodies::prefilter`).
enum Prefilter {
    /// A direction whose support planes are `gap` apart (a certified lower bound of the distance),
    /// `steps` direction updates from the start.
    Apart {
        points: Points,
        gap: f64,
        steps: u32,
    },
    /// No tested direction separates the bodies: `ahead`, the direction one Newton step
    /// past the last one tested, `steps` direction updates from the start.
    Undecided { ahead: Vector3<f64>, steps: u32 },
    /// A body has no log-domain support function: nothing was tested.
    NotApplicable,
}

/// Where a restart's descent starts: a lattice direction to climb first (by the prefilter's
/// ascent), or the exact points at one.
enum RestartFrom {
    /// The direction alone.
    Direction(Vector3<f64>),
    /// The points at the direction.
    Points(Points),
}

/// One Newton ascent of the support gap in progress (`Bodies::prefilter`): the direction to test
/// next, the direction updates so far, the probe about to be taken and the last allowed, the
/// longest step (rad), the length of the direction the next test's logarithms were evaluated
/// along (the Jacobians they give scale as its inverse), the best direction tested so far with
/// its gap and the step taken from it, and how far below that gap a test is a setback
/// ([`CLIMB_SETBACK`] times the centre distance).
struct Climb {
    c: Vector3<f64>,
    steps: u32,
    probe: u32,
    probes: u32,
    max_step: f64,
    tested_length: f64,
    best: Option<(Vector3<f64>, f64, Vector3<f64>)>,
    setback: f64,
}

impl Climb {
    /// A climb from the unit `c`, `steps` direction updates already taken, `probes` more allowed
    /// of at most `max_step` (rad) each, for bodies whose centres lie `distance` apart.
    fn new(c: Vector3<f64>, steps: u32, probes: u32, max_step: f64, distance: f64) -> Self {
        Climb {
            c,
            steps,
            probe: 0,
            probes,
            max_step,
            tested_length: 1.0,
            best: None,
            setback: CLIMB_SETBACK * distance,
        }
    }
}

/// How one start ended.
// A return value, moved once or twice: boxing the large variant would allocate on the hot path.
#[allow(clippy::large_enum_variant)]
enum Descent {
    /// The exclusion test held at these points.
    Excluded(Points),
    /// Converged to a penetrating common normal; `sharpness` is the smallest radius of curvature
    /// of the Minkowski difference A - B there (the smaller eigenvalue of `M` on the tangent
    /// plane); `soft` the unit tangent direction (A's frame) of that smallest radius (its
    /// eigenvector) for a pair with a nearly pointed or nearly box-like body
    /// (`Bodies::curvature_may_not_hold`), zero for the others; `estimate` the best estimate of
    /// the common normal ([`Solution::estimate`]); `curvature` the curvature about the answer
    /// that the trust test's fall checks read (`Bodies::falls_as_curved`); `common_normal`
    /// whether `points` is known to be a common normal to `Bodies::polish`'s tolerance already
    /// (a warm start taken as it is, `Bodies::start_converged`), which the polish then skips.
    Converged {
        points: Points,
        sharpness: f64,
        soft: Vector3<f64>,
        estimate: Vector3<f64>,
        curvature: LocalCurvature,
        common_normal: bool,
    },
    /// No convergence within the descent's budget ([`MAX_ITERATIONS`], or
    /// [`EXTENDED_ITERATIONS`] for the continued one); the last iterate (penetrating).
    Stalled(Points),
}

impl<A: SmoothConvex, B: SmoothConvex> Bodies<'_, A, B> {
    /// Whether `x` (A's frame) lies in A.
    #[inline(always)]
    fn in_a(&self, x: &Vector3<f64>) -> bool {
        self.a.gauge_at_most(x, 1.0 + INSIDE_TOLERANCE)
    }

    /// Whether `x` (A's frame) lies in B.
    #[inline(always)]
    fn in_b(&self, x: &Vector3<f64>) -> bool {
        self.b
            .gauge_at_most(&self.in_b_frame(x), 1.0 + INSIDE_TOLERANCE)
    }

    /// `x` (A's frame) in B's frame.
    #[inline(always)]
    fn in_b_frame(&self, x: &Vector3<f64>) -> Vector3<f64> {
        self.rotation.transpose() * (x - self.translation)
    }

    /// The paper's test against local minima: `p1` lies in B and `p2` in A (to
    /// [`INSIDE_TOLERANCE`]). Each contact point of `points` (accurate: on its body's surface to
    /// rounding) is first tried against the hull of the other body's contact point and its inner
    /// ellipsoid ([`apex_hull_contains`]: a few products, which settle a shallow overlap whose
    /// normal points into the body); the gauges decide the rest, both evaluated side by side
    /// ([`gauges_at_most_pair`], so that their dependency chains overlap). The hull proves only
    /// what the gauges would find, so the answer is theirs.
    fn both_inside(&self, points: &Points) -> bool {
        let p1_in_b_frame = self.in_b_frame(&points.p1);
        let gauges = || {
            let (p1_in_b, p2_in_a) = gauges_at_most_pair(
                self.b,
                &p1_in_b_frame,
                self.a,
                &points.p2,
                1.0 + INSIDE_TOLERANCE,
            );
            p1_in_b & p2_in_a
        };
        if apex_hull_contains(
            &self.b.inner_scales(),
            &self.in_b_frame(&points.p2),
            &p1_in_b_frame,
        ) && apex_hull_contains(&self.a.inner_scales(), &points.p1, &points.p2)
        {
            debug_assert!(
                gauges(),
                "the hulls prove a point inside that the gauges put out"
            );
            return true;
        }
        gauges()
    }

    /// Whether the points prove that the bodies overlap: a point of one body lies in the other
    /// (`p1` in B, `p2` in A, or their midpoint in both).
    fn overlap_certified(&self, points: &Points) -> bool {
        let mid = (points.p1 + points.p2) * 0.5;
        self.in_b(&points.p1) || self.in_a(&points.p2) || (self.in_a(&mid) && self.in_b(&mid))
    }

    /// The Newton (or Levenberg-Marquardt) step in the angles of `der`'s chart, at most
    /// [`MAX_STEP`] long, and whether it is the plain Newton step (Hessian positive definite, not
    /// shortened). Levenberg-Marquardt's shift is `damping` times the trace of the Gauss-Newton
    /// matrix.
    fn step(der: &Derivatives, damping: f64) -> (Vector2<f64>, bool) {
        let g = der.gradient;
        let h = der.hessian;
        let newton = if h[(0, 0)] > 0.0 && h.determinant() > 0.0 {
            solve2(&h, &-g)
        } else {
            None
        };
        let is_newton = newton.is_some();
        let step = newton.unwrap_or_else(|| {
            // Levenberg-Marquardt on the positive semi-definite Gauss-Newton model.
            let gn = der.gauss_newton;
            let lambda = damping * gn.trace() + f64::MIN_POSITIVE;
            solve2(&(gn + Matrix2::identity() * lambda), &-g).unwrap_or(-g)
        });
        let len = step.norm();
        if len > MAX_STEP {
            (step * (MAX_STEP / len), false)
        } else if len.is_finite() {
            (step, is_newton)
        } else {
            (Vector2::zeros(), false)
        }
    }

    /// Newton + Levenberg-Marquardt with a backtracking line search from `start`, checking the
    /// exclusion test of eq. (12) at every direction it evaluates. Adds the iterations it takes to
    /// `iterations`.
    fn descend(&self, start: Start, iterations: &mut u32) -> Descent {
        let der = match start {
            Start::Points(points) => {
                if points.support_gap() > 0.0 {
                    return Descent::Excluded(points);
                }
                if let Some(ahead) = self.exclusion_probe(&points) {
                    *iterations += 1;
                    return Descent::Excluded(ahead);
                }
                self.derivatives(points.c)
            }
            Start::Derivatives(c) => {
                let der = self.derivatives(c);
                if der.points.support_gap() > 0.0 {
                    return Descent::Excluded(der.points);
                }
                der
            }
        };
        self.newton(der, iterations, MAX_ITERATIONS)
    }

    /// The Newton + Levenberg-Marquardt iterations of [`Self::descend`] from the derivatives
    /// `der` at its start (penetrating). Adds the iterations it takes to `iterations`.
    fn newton(&self, mut der: Derivatives, iterations: &mut u32, budget: u32) -> Descent {
        // The length of the last step if it was a plain Newton step taken in full.
        let mut previous_newton = f64::INFINITY;
        // The pair's length scale, for the point error of a direction error.
        let size = self.translation.norm();
        // Levenberg-Marquardt's damping (relative to the model's trace), adapted to the steps
        // (Marquardt 1963): a tenth after a full step is taken, tenfold (up to where it starts)
        // after a step had to be shortened. A fixed 1e-3 held the soft directions of an elongated
        // pair (curvature radii far apart, an ill-conditioned model) to the stiff one's scale.
        let mut damping = 1e-3;
        for _ in 0..budget {
            let (step, is_newton) = Self::step(&der, damping);
            let len = step.norm();
            *iterations += 1;
            // Converged: the step is below the tolerance, or this and the last are plain Newton
            // steps, this one small, and the error left after it, predicted from Newton's
            // quadratic convergence (`e_next ~ C len^2`, with `C` read off this step and the
            // last, `len ~ C previous^2`, and taken at least 1, or 10 on the first step), is
            // below the tolerance.
            // The error is wanted small in the points too: a direction error moves them by up
            // to the largest radius of curvature of A - B (`sqrt` of half the Gauss-Newton
            // matrix's trace bounds it), which is huge on the flat faces of box-like bodies.
            let c_floor = if previous_newton.is_finite() {
                1.0
            } else {
                10.0
            };
            let predicted = len * len * (len / (previous_newton * previous_newton)).max(c_floor);
            let curvature_radius = (0.5 * der.gauss_newton.trace()).sqrt();
            let quadratic = is_newton
                && len <= QUADRATIC_STOP
                && predicted * (1.0 + curvature_radius / size) <= PREDICTED_TOLERANCE;
            if len <= STEP_TOLERANCE || quadratic {
                let end = if len > 0.0 {
                    let c = der.chart.direction(step.x, step.y);
                    self.points_near(&der, c).unwrap_or_else(|| self.points(c))
                } else {
                    der.points
                };
                return self.converged(end, &(der.gauss_newton * 0.5), (&der).into(), None);
            }
            previous_newton = f64::INFINITY;
            // Full step: evaluated with derivatives, which the next iteration reuses.
            let full = self.derivatives(der.chart.direction(step.x, step.y));
            if full.points.support_gap() > 0.0 {
                return Descent::Excluded(full.points);
            }
            let f0 = der.points.f();
            let slope = der.gradient.dot(&step);
            if full.points.f() <= f0 + 1e-4 * slope {
                der = full;
                if is_newton {
                    previous_newton = len;
                } else {
                    damping = (damping * 0.1).max(1e-15);
                }
                continue;
            }
            if !is_newton {
                damping = (damping * 10.0).min(1e-3);
            }
            // Backtracking on the halved step (points only), then derivatives at the accepted one.
            let armijo = |trial: &Points, scale: f64| trial.f() <= f0 + 1e-4 * scale * slope;
            match self.backtrack(&der.chart, step, 0.5, armijo) {
                Err(excluded) => return Descent::Excluded(excluded),
                Ok(Some(trial)) => der = self.derivatives(trial.c),
                // No decrease along a descent direction: f is at its rounding floor.
                Ok(None) => {
                    return self.converged(
                        der.points,
                        &(der.gauss_newton * 0.5),
                        (&der).into(),
                        None,
                    );
                }
            }
        }
        Descent::Stalled(der.points)
    }

    /// The search's first descent for a pair that touched at its last query, from `start` (its
    /// last contact direction, extrapolated): the first derivatives there decide whether `start`
    /// is a common normal already ([`Self::start_converged`]), which ends the descent with no
    /// iteration; otherwise the second derivatives complete them and [`Self::descend`] goes on
    /// from there. Adds the iterations it takes to `iterations`.
    fn warm_descent(&self, start: Vector3<f64>, iterations: &mut u32) -> Descent {
        let first = self.first_order(start);
        if first.points.support_gap() > 0.0 {
            return Descent::Excluded(first.points);
        }
        let gram = first.gram();
        if let Some(estimate) = self.start_converged(&first, &gram) {
            return self.converged(first.points, &gram, (&first).into(), Some(estimate));
        }
        self.newton(self.second_order(first), iterations, MAX_ITERATIONS)
    }

    /// Whether the direction of `first` (its points penetrating) is a common normal to the
    /// accuracy a converged descent delivers, so that no Newton iteration is needed (beyond the
    /// paper, whose warm start iterates at least once): the residual `|d_t| / (1 + |d|)` is
    /// within [`Self::polish`]'s tolerance, and the distance to the common normal, the Newton
    /// step of the support gap `(M_t + g I)^-1 d_t` (its Hessian negative definite there), is
    /// within the error [`Self::descend`] accepts after its last step, in the direction and in
    /// the points ([`PREDICTED_TOLERANCE`], with the same curvature-radius factor). A warm start
    /// extrapolated from the pair's last steps (`common_normal`) lands there while the contact
    /// moves smoothly; the first derivatives alone decide it (`gram`: `first.gram()`). Returns the
    /// start moved by that Newton step (the estimate of the common normal the warm state keeps),
    /// if it is.
    fn start_converged<RA, RB>(
        &self,
        first: &FirstOrder<RA, RB>,
        gram: &Matrix2<f64>,
    ) -> Option<Vector3<f64>> {
        let points = &first.points;
        if self.common_normal_residual(points) > COMMON_NORMAL_TOLERANCE {
            return None;
        }
        let a = first.tangent_curvature + Matrix2::identity() * points.support_gap();
        if !(a[(0, 0)] > 0.0 && a.determinant() > 0.0) {
            return None;
        }
        let step = solve2(&a, &first.gap_gradient())?;
        let curvature_radius = gram.trace().sqrt();
        let size = self.translation.norm();
        (step.norm() * (1.0 + curvature_radius / size) <= PREDICTED_TOLERANCE)
            .then(|| first.chart.direction(step.x, step.y))
    }

    /// Backtracking along `step` in `chart`'s angles from `scale`, halving it down to
    /// [`STEP_TOLERANCE`], until `accept(points, scale)` holds (`Ok(None)`: it never did). The
    /// exclusion test of eq. (12) runs on every trial (`Err`: the points that prove the bodies
    /// apart).
    fn backtrack(
        &self,
        chart: &Chart,
        step: Vector2<f64>,
        mut scale: f64,
        accept: impl Fn(&Points, f64) -> bool,
    ) -> std::result::Result<Option<Points>, Points> {
        let len = step.norm();
        while scale * len > STEP_TOLERANCE {
            let s = step * scale;
            let trial = self.points(chart.direction(s.x, s.y));
            if trial.support_gap() > 0.0 {
                return Err(trial);
            }
            if accept(&trial, scale) {
                return Ok(Some(trial));
            }
            scale *= 0.5;
        }
        Ok(None)
    }

    /// One cheap ascent step of the support gap from `points`, tried for exclusion only: the
    /// gap's gradient in the angles is `d_t` (the part of `d` across `c`) and its Hessian about
    /// minus the sum of the curvature radii, estimated by the support points' distances from the
    /// centres (exact for spheres). Two point evaluations instead of the derivatives of a Newton
    /// step; it excludes about 60 % of the separated pairs the start direction does not (series 1,
    /// interval 3). Returns the points that prove the bodies apart, if it does; the descent is
    /// otherwise unchanged.
    fn exclusion_probe(&self, points: &Points) -> Option<Points> {
        let radii = points.p1.norm() + (points.p2 - self.translation).norm();
        let ahead = self.points(unit(Self::ascent(&points.c, &points.d, radii)));
        (ahead.support_gap() > 0.0 && ahead.c.iter().all(|v| v.is_finite())).then_some(ahead)
    }

    /// Separating-plane tests (eq. (12)) on certified upper bounds of the support functions at the
    /// start direction (or, with `surrogate_from` a positive multiple of it, one ascent step of the
    /// bodies' ellipsoids from there) and then along up to `probes` Newton steps of the support
    /// gap's ascent on the approximate support points (`curvature_step`, with the log-domain
    /// Jacobians of the support points, `SupportLogs::jacobian`; a setback, a test below the best
    /// gap so far by more than [`CLIMB_SETBACK`], retries a quarter of the step from the best
    /// direction), before the exact search. Each test evaluates both support functions at
    /// once in the log domain (`coarse_support::support_logs`, `SmoothConvex::log_support`), at
    /// about a third of the latency of the exact points. The bounds' margin (`1e-7` relative) only
    /// sends pairs whose gap is within it to the exact search. Undecided, it returns the direction
    /// one step past the last it tested: where the ascent has converged ([`PREFILTER_CONVERGED`]),
    /// within about `1e-8` rad of the common normal. Each step turns the direction by at most
    /// `max_step` (rad).
    fn prefilter(
        &self,
        start: Vector3<f64>,
        surrogate_from: Option<Vector3<f64>>,
        probes: u32,
        max_step: f64,
    ) -> Prefilter {
        let Some((log_a, log_b)) = self.a.log_support().zip(self.b.log_support()) else {
            return Prefilter::NotApplicable;
        };
        let t = self.translation;
        let c = start;
        let mut steps = 0;
        // The first direction to test, if it is not `c`: any positive multiple of it (the
        // support functions are homogeneous, so the test needs no normalisation first).
        let mut unnormalised = None;
        if let Some(u) = surrogate_from {
            // The ascent step of the bodies' ellipsoids (same semi-axes): exact for ellipsoids and
            // spheres, closed form with no power, and from the centre line a far better first
            // direction for the others (interval 3 of the protocol: 73 % of the separated pairs
            // excluded there, against 49 % at the centre line). The ellipsoids' points need no
            // unit direction.
            let (e1, _, radius_a) = ellipsoid_point(&log_a.r, &u);
            let (f2, _, radius_b) = ellipsoid_point(&log_b.r, &-(self.rotation.transpose() * u));
            let d = t + self.rotation * f2 - e1;
            let ahead = Self::ascent(&u, &d, radius_a + radius_b);
            if ahead.iter().all(|v| v.is_finite()) && ahead != Vector3::zeros() {
                unnormalised = Some(ahead);
                steps = 1;
            }
        }
        let mut climb = Climb::new(c, steps, probes, max_step, self.translation.norm());
        let (gap, logs) = match unnormalised {
            Some(v) => {
                // The gap along `v` is `|v|` times the unit direction's; the division's rounding
                // is taken off (a positive gap only shrinks).
                let (gap, logs) = self.coarse_gap(&log_a, &log_b, &v);
                climb.tested_length = v.norm();
                let inverse = 1.0 / climb.tested_length;
                climb.c = v * inverse;
                (gap * inverse * (1.0 - 4.0 * f64::EPSILON), logs)
            }
            None => self.coarse_gap(&log_a, &log_b, &c),
        };
        let mut tested = self.climb_step(&log_a, &log_b, &mut climb, gap, &logs);
        loop {
            if let Some(answer) = tested {
                return answer;
            }
            let (gap, logs) = self.coarse_gap(&log_a, &log_b, &climb.c);
            tested = self.climb_step(&log_a, &log_b, &mut climb, gap, &logs);
        }
    }

    /// Two restart climbs of [`Self::prefilter`] (from the unit `starts`, no surrogate step, up
    /// to `probes` probes of at most `max_step` each) side by side, each answer bit for bit the
    /// one `prefilter` gives: while both climb, each test evaluates the four support functions at
    /// once ([`Self::coarse_gap_pair`]), so that the two latency-bound chains overlap in the
    /// processor.
    fn prefilter_pair(
        &self,
        starts: [Vector3<f64>; 2],
        probes: u32,
        max_step: f64,
    ) -> [Prefilter; 2] {
        let Some((log_a, log_b)) = self.a.log_support().zip(self.b.log_support()) else {
            return [Prefilter::NotApplicable, Prefilter::NotApplicable];
        };
        let distance = self.translation.norm();
        let mut climbs = starts.map(|c| Climb::new(c, 0, probes, max_step, distance));
        let mut answers = [None, None];
        while answers[0].is_none() && answers[1].is_none() {
            let [(gap0, logs0), (gap1, logs1)] =
                self.coarse_gap_pair(&log_a, &log_b, [&climbs[0].c, &climbs[1].c]);
            answers[0] = self.climb_step(&log_a, &log_b, &mut climbs[0], gap0, &logs0);
            answers[1] = self.climb_step(&log_a, &log_b, &mut climbs[1], gap1, &logs1);
        }
        // The one still climbing goes on alone.
        for (climb, answer) in climbs.iter_mut().zip(answers.iter_mut()) {
            while answer.is_none() {
                let (gap, logs) = self.coarse_gap(&log_a, &log_b, &climb.c);
                *answer = self.climb_step(&log_a, &log_b, climb, gap, &logs);
            }
        }
        answers.map(|answer| answer.expect("each climb ends with an answer"))
    }

    /// Takes the prefilter's test at `climb`'s direction (`gap` and `logs` there, from
    /// [`Self::coarse_gap`]): the climb's answer when it ends there (the bodies apart, or the
    /// ascent converged, out of probes or not finite), otherwise `None` with the climb moved one
    /// Newton step on.
    #[inline(always)]
    fn climb_step(
        &self,
        log_a: &LogSupport,
        log_b: &LogSupport,
        climb: &mut Climb,
        gap: f64,
        logs: &[SupportLogs; 2],
    ) -> Option<Prefilter> {
        let c = climb.c;
        let gradients = [logs[0].gradient(log_a), logs[1].gradient(log_b)];
        let points = self.points_from_gradients(log_a, log_b, &gradients, c);
        if gap > 0.0 {
            return Some(Prefilter::Apart {
                points,
                gap,
                steps: climb.steps,
            });
        }
        let (from, step) = match climb.best {
            // A setback: the step from the best direction overshot. A quarter of it from there.
            Some((best, best_gap, step)) if gap < best_gap - climb.setback => (best, step * 0.25),
            _ => {
                let chart = Chart::new(c);
                let (e2, e3) = (chart.e2, chart.e3);
                let rt = self.rotation.transpose();
                let length = climb.tested_length;
                let curvature = logs[0]
                    .jacobian(log_a, &gradients[0], length)
                    .on_plane(&e2, &e3)
                    + logs[1]
                        .jacobian(log_b, &gradients[1], length)
                        .on_plane(&(rt * e2), &(rt * e3));
                let step = Self::curvature_step(&points, &chart, &curvature, climb.max_step);
                (c, step)
            }
        };
        climb.best = Some((from, climb.best.map_or(gap, |b| b.1.max(gap)), step));
        let ahead = unit(from + step);
        let finite = ahead.iter().all(|v| v.is_finite());
        if climb.probe == climb.probes || step.norm() <= PREFILTER_CONVERGED || !finite {
            let ahead = if finite { ahead } else { from };
            return Some(Prefilter::Undecided {
                ahead,
                steps: climb.steps,
            });
        }
        climb.tested_length = 1.0;
        climb.c = ahead;
        climb.steps += 1;
        climb.probe += 1;
        None
    }

    /// The prefilter's certified lower bound of the support gap along `c` (A's frame) times `|c|`
    /// (the gap itself for a unit `c`), from the log-domain support functions `la`, `lb` of A and
    /// B (within their margin and the roundings of `c . t`), with the logarithms they leave for the
    /// points ([`Self::coarse_points`]). Both support functions and `c . t` are homogeneous in
    /// `c`, and the rounding term is `|c|_1` times the unit direction's.
    #[inline(always)]
    fn coarse_gap(
        &self,
        la: &LogSupport,
        lb: &LogSupport,
        c: &Vector3<f64>,
    ) -> (f64, [SupportLogs; 2]) {
        let cb = -(self.rotation.transpose() * c);
        let [a, b] = coarse_support::support_logs([la, lb], [c, &cb]);
        (self.gap_of(c, &a, &b), [a, b])
    }

    /// [`Self::coarse_gap`] along two directions at once (the four support functions side by
    /// side in [`coarse_support::support_logs`]): each bit for bit the same.
    #[inline(always)]
    fn coarse_gap_pair(
        &self,
        la: &LogSupport,
        lb: &LogSupport,
        c: [&Vector3<f64>; 2],
    ) -> [(f64, [SupportLogs; 2]); 2] {
        let (cb0, cb1) = (
            -(self.rotation.transpose() * c[0]),
            -(self.rotation.transpose() * c[1]),
        );
        let [a0, b0, a1, b1] =
            coarse_support::support_logs([la, lb, la, lb], [c[0], &cb0, c[1], &cb1]);
        [
            (self.gap_of(c[0], &a0, &b0), [a0, b0]),
            (self.gap_of(c[1], &a1, &b1), [a1, b1]),
        ]
    }

    /// The certified lower bound of [`Self::coarse_gap`] from the support logarithms `a`, `b` of
    /// A along `c` and of B along `-c`.
    #[inline(always)]
    fn gap_of(&self, c: &Vector3<f64>, a: &SupportLogs, b: &SupportLogs) -> f64 {
        c.dot(&self.translation)
            - (a.h() + b.h()) * (1.0 + LOG_DOMAIN_MARGIN) * (1.0 + ROUNDING)
            - self.offset_rounding(c)
    }

    /// The certified upper bound of the support gap along the unit `c` (A's frame) from the
    /// support logarithms `a`, `b` of A along `c` and of B along `-c` (the counterpart of
    /// [`Self::gap_of`]'s lower bound: each support function is at least `1 - LOG_DOMAIN_MARGIN`
    /// times its log-domain value).
    #[inline(always)]
    fn gap_upper_of(&self, c: &Vector3<f64>, a: &SupportLogs, b: &SupportLogs) -> f64 {
        c.dot(&self.translation) - (a.h() + b.h()) * (1.0 - LOG_DOMAIN_MARGIN) * (1.0 - ROUNDING)
            + self.offset_rounding(c)
    }

    /// A bound of the rounding of `c . t` (`t` the translation A -> B), for the gap bounds
    /// [`Self::gap_of`] and [`Self::gap_upper_of`]: `ROUNDING |t|_1 |c|_1`.
    #[inline(always)]
    fn offset_rounding(&self, c: &Vector3<f64>) -> f64 {
        let t = self.translation;
        ROUNDING * (t.x.abs() + t.y.abs() + t.z.abs()) * (c.x.abs() + c.y.abs() + c.z.abs())
    }

    /// An upper bound of the support gap along the unit `c` (A's frame), and so of
    /// [`Self::coarse_gap`]'s lower bound, from points on the bodies' surfaces: each body's
    /// support function is at least that of its six axis points `+-r_i e_i` (on every
    /// superellipsoid), `max_i r_i |n_i|` for the body-frame direction `n`. A relative slack
    /// covers its rounding.
    #[inline]
    fn gap_bound(&self, la: &LogSupport, lb: &LogSupport, c: &Vector3<f64>) -> f64 {
        let axes = |r: &[f64; 3], n: &Vector3<f64>| {
            (r[0] * n.x.abs())
                .max(r[1] * n.y.abs())
                .max(r[2] * n.z.abs())
        };
        let cb = self.rotation.transpose() * c;
        let t = self.translation;
        let gap = c.dot(&t) - axes(&la.r, c) - axes(&lb.r, &cb);
        let scale = t.x.abs() + t.y.abs() + t.z.abs() + la.r.iter().chain(&lb.r).sum::<f64>();
        gap + 1e-12 * scale
    }

    /// The approximate support points along `c` (A's frame) from the logarithms of
    /// [`Self::coarse_gap`] (to about `1e-7` of the bodies' size).
    #[inline(always)]
    fn coarse_points(
        &self,
        la: &LogSupport,
        lb: &LogSupport,
        logs: &[SupportLogs; 2],
        c: Vector3<f64>,
    ) -> Points {
        let gradients = [logs[0].gradient(la), logs[1].gradient(lb)];
        self.points_from_gradients(la, lb, &gradients, c)
    }

    /// [`Self::coarse_points`] from the support functions' gradients `dh/dm` of A and B
    /// (`SupportLogs::gradient`, `LogSupport::point_from_gradient`).
    #[inline(always)]
    fn points_from_gradients(
        &self,
        la: &LogSupport,
        lb: &LogSupport,
        gradients: &[Vector3<f64>; 2],
        c: Vector3<f64>,
    ) -> Points {
        let p1 = la.point_from_gradient(&gradients[0]);
        let p2 = self.translation + self.rotation * lb.point_from_gradient(&gradients[1]);
        Points {
            c,
            p1,
            p2,
            d: p2 - p1,
        }
    }

    /// The Newton ascent step of the support gap at `points` (`chart` centred on its direction)
    /// with `curvature` the curvature-radius matrix `M_t` of A - B on the tangent plane (in the
    /// chart's `e2`, `e3`): the gap's gradient there is `d_t` and its Hessian `-(M_t + g I)`; the
    /// step solves `(M_t + g I) s = d_t`, shifted where that is not positive definite
    /// (`shifted_solve`, as in `polish`) and at most `max_step` long ([`CLIMB_MAX_STEP`], or
    /// [`POINTED_RESTART_CLIMB_STEP`]).
    fn curvature_step(
        points: &Points,
        chart: &Chart,
        curvature: &Matrix2<f64>,
        max_step: f64,
    ) -> Vector3<f64> {
        let g = points.support_gap();
        let (e2, e3) = (chart.e2, chart.e3);
        let a = curvature + Matrix2::identity() * g;
        let grad = Vector2::new(e2.dot(&points.d), e3.dot(&points.d));
        let s = shifted_solve(&a, &grad);
        let len = s.norm();
        let s = if len > max_step {
            s * (max_step / len)
        } else {
            s
        };
        e2 * s.x + e3 * s.y
    }

    /// One ascent step of the support gap at the direction of `u` (any positive multiple of the
    /// unit `c`) with `d` the difference of the support points: the gap's gradient in the angles
    /// is `d_t` (the part of `d` across `c`) and its Hessian about minus the sum of the curvature
    /// radii, estimated by `radii` (the support points' distances from the centres: exact for
    /// spheres). The step's direction `c + d_t / radii`, times `radii |u|^2`: a positive multiple,
    /// not normalised, formed from `u` without dividing by its length.
    fn ascent(u: &Vector3<f64>, d: &Vector3<f64>, radii: f64) -> Vector3<f64> {
        let uu = u.dot(u);
        u * (radii * uu.sqrt()) + (d * uu - u * u.dot(d))
    }

    /// The end of a converged descent at `points`; `gram` is `M_t^2` at the last iterate (half
    /// the Gauss-Newton matrix, `[m_i . m_j]` with `m_i = M e_i`: `M` maps the tangent plane into
    /// itself), whose smaller eigenvalue is the sharpness squared, and `curvature` the rest of
    /// what is known there, in its chart. The soft direction is computed where it is wanted (a
    /// pair with a nearly pointed or nearly box-like body, [`Self::curvature_may_not_hold`],
    /// [`Self::soft_direction`]); otherwise it is left zero (a converged descent of every other
    /// pair, 2.7 % of the warm DEM-like queries' instructions when it was computed for all).
    /// `taken_at_start`: for a warm start taken as it is ([`Self::start_converged`]), the estimate
    /// of the common normal it measured (the answer's `estimate`, and the answer is then known to
    /// be a common normal to [`Self::polish`]'s tolerance); `None` for a descent's end.
    #[inline(always)]
    fn converged(
        &self,
        points: Points,
        gram: &Matrix2<f64>,
        curvature: LocalCurvature,
        taken_at_start: Option<Vector3<f64>>,
    ) -> Descent {
        if points.support_gap() > 0.0 {
            return Descent::Excluded(points);
        }
        let smallest = smallest_eigenvalue(gram);
        Descent::Converged {
            points,
            sharpness: smallest.max(0.0).sqrt(),
            soft: if self.curvature_may_not_hold() {
                Self::soft_direction(gram, smallest, &curvature.chart)
            } else {
                Vector3::zeros()
            },
            estimate: taken_at_start.unwrap_or(points.c),
            curvature,
            common_normal: taken_at_start.is_some(),
        }
    }

    /// The unit direction (A's frame) of the smallest radius of curvature of A - B: the
    /// eigenvector of `gram` (see [`Self::converged`]) for its smaller eigenvalue `smallest`
    /// (the same as `M_t`'s), mapped from the angles of `chart`. The same for any symmetric 2x2
    /// matrix in those angles (a body's own Jacobian, [`Self::falls_as_curved`]).
    fn soft_direction(gram: &Matrix2<f64>, smallest: f64, chart: &Chart) -> Vector3<f64> {
        // Of the two rows of `gram - smallest I`, the normal to the longer (both vanish where
        // the eigenvalues coincide: any direction will do).
        let (a, b, d) = (
            gram[(0, 0)] - smallest,
            gram[(0, 1)],
            gram[(1, 1)] - smallest,
        );
        let v = if a * a + b * b >= b * b + d * d {
            Vector2::new(-b, a)
        } else {
            Vector2::new(d, -b)
        };
        let soft = chart.e2 * v.x + chart.e3 * v.y;
        let length = soft.norm();
        if length > 0.0 && length.is_finite() {
            soft / length
        } else {
            chart.e2
        }
    }

    /// The smaller eigenvalue of the symmetric 2x2 matrix `m`, given in `chart`'s angles, and
    /// its unit eigenvector as a direction (A's frame, [`Self::soft_direction`]).
    fn smallest_eigen(m: &Matrix2<f64>, chart: &Chart) -> (f64, Vector3<f64>) {
        let smallest = smallest_eigenvalue(m);
        (smallest, Self::soft_direction(m, smallest, chart))
    }

    /// Whether a converged answer's curvature may fail to hold out to the depth's scale along
    /// any direction, so that the trust test also checks the fall along the soft direction
    /// ([`Self::falls_as_curved`], which checks the bodies' ridges for every pair): a nearly
    /// pointed body (an `eps` above
    /// [`MODERATE_SQUARENESS`]'s upper end), whose ridges swing its normals across a wide cone,
    /// or a nearly box-like one (an `eps` below its lower end), whose flat sides' large radii
    /// hold over a narrow cone only.
    fn curvature_may_not_hold(&self) -> bool {
        let (least, most) = self.squareness();
        least < MODERATE_SQUARENESS.0 || most > MODERATE_SQUARENESS.1
    }

    /// The smallest and the largest squareness parameter of the two bodies.
    fn squareness(&self) -> (f64, f64) {
        let (a, b) = (self.a.squareness_range(), self.b.squareness_range());
        (a.0.min(b.0), a.1.max(b.1))
    }

    /// Whether a body is nearly pointed: a squareness parameter above [`MODERATE_SQUARENESS`].
    /// Every other pair (of moderate squareness, or with nearly box-like bodies) starts the
    /// Newton descent of a pair that did not touch at its last query (or is new) from the
    /// prefilter's last ascent direction instead of its start (the centre line, or the last
    /// separating direction), and its restart takes [`GLOBAL_STARTS`] directions (a nearly
    /// pointed pair [`GLOBAL_STARTS_EXTREME`]), ranked on the prefilter's log-domain gap.
    ///
    /// Beyond the paper, which starts at the centre line (`alpha = 0`): the prefilter's
    /// Newton ascent climbs the support gap to the common normal of the approximate support
    /// points, and from there most cold penetrating pairs need a single Newton iteration
    /// (`validate`, interval 3: median Newton iterations 4 -> 1; 6 -> 4 with the three plain
    /// ascent probes the prefilter took before). Where a body is nearly pointed (`eps` near 2),
    /// the descent from there meets more local minima that the trust test and the restarts do not
    /// tell from the global one than the descent from the centre line does (interval 4 of the
    /// protocol, `eps` in [0.1, 1.9], over 3 x 10^6 pairs at each of five seeds): those pairs keep
    /// the centre line. Pairs with a nearly box-like body took the centre line too until they were
    /// tried alone: from the ascent direction they gave the outcomes of `validate` they gave
    /// before, at seeds 1-4 and at seeds 2, 3 and 5 with 3 x 10^6 pairs (interval 4: median
    /// Newton iterations 5 -> 1).
    fn nearly_pointed(&self) -> bool {
        self.squareness().1 > MODERATE_SQUARENESS.1
    }

    /// Whether the expanding polytope may decide for this pair (`Self::polytope_search`): a
    /// nearly pointed body, and both bodies within the validated aspect ratio
    /// ([`POLYTOPE_ASPECT`]: the protocol's radii span a factor of 10). Beyond it the polytope's
    /// facets grow thin and its bound less sure: at `validate`'s seed 3 a pair of aspect up to
    /// 1000 ended 1.1e-6 of its depth deeper than its construction with the offsets' rounding
    /// taken as `1e-14` of the size; such pairs restart as before.
    fn polytope_applies(&self) -> bool {
        let within = |s: Option<LogSupport>| {
            s.is_some_and(|s| {
                let (lo, hi) = s.r.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| {
                    (lo.min(r), hi.max(r))
                });
                hi <= POLYTOPE_ASPECT * lo
            })
        };
        self.nearly_pointed() && within(self.a.log_support()) && within(self.b.log_support())
    }

    /// The expanding polytope of `K = A - B` (`expanding_polytope`, beyond the paper): `h_K(u)`
    /// is the overlap of the support planes along the unit `u` (minus the support gap), so the
    /// polytope's certified lower bound of its minimum over all directions bounds every common
    /// normal's depth from below. The polytope is refined until that bound and `h_K` at the
    /// closest facet's normal agree to [`POLYTOPE_TOLERANCE`] of the depth (or to its rounding
    /// floor, [`POLYTOPE_FLOOR`]); one descent from that normal then reaches the minimum, and
    /// where the bound reaches the descent's depth within the same tolerance the answer is the
    /// shallowest common normal: `best` becomes it ([`PolytopeVerdict::Global`]). The answer does
    /// not depend on `best` or on how the query started (a warm and a cold query of one
    /// configuration build the same polytope), so the two agree where two common normals are
    /// level to the tolerance or the minimum is flat, at a pointed body's tip. A support value
    /// below 0 separates the bodies ([`PolytopeVerdict::Apart`]). A degenerate polytope,
    /// [`POLYTOPE_STEPS`] spent, or a descent the bound does not prove (then kept in `best` by
    /// `keep`) leave the search to the restarts ([`PolytopeVerdict::Undecided`]). `iterations`
    /// counts the descent's Newton iterations, `steps` the polytope's.
    ///
    /// Each step is two exact support points (the point-with-normal maps of eq. (4)). Nearly
    /// pointed pairs took 16 climbed restarts instead, about twice as long a cold query (probe
    /// `pointstats`, every `eps` in [1.8, 1.9]: 71.6 against 41.7 us), and those missed the
    /// shallowest common normal of about 1 % of such pairs by up to `1e-4` of the depth (probe
    /// `epaproto`: 5 of 400 queries).
    fn polytope_search(
        &self,
        best: &mut Option<Points>,
        keep: &impl Fn(Points, &mut Option<Points>),
        iterations: &mut u32,
        steps: &mut u32,
    ) -> PolytopeVerdict {
        let support = |u: &Vector3<f64>| self.difference_support(u);
        let Some(mut polytope) = ExpandingPolytope::new(support) else {
            return PolytopeVerdict::Undecided;
        };
        let rounding = ROUNDING
            * (self.translation.norm() + self.a.bounding_radius() + self.b.bounding_radius());
        for _ in 0..POLYTOPE_STEPS {
            *steps += 1;
            let (lower, upper, normal, converged) = match polytope.step(support) {
                Step::Growing { .. } => continue,
                Step::Separated { normal, .. } => {
                    return PolytopeVerdict::Apart(self.points(normal));
                }
                Step::Failed => return PolytopeVerdict::Undecided,
                Step::Expanded {
                    lower,
                    upper,
                    normal,
                } => (lower, upper, normal, false),
                Step::Converged {
                    lower,
                    upper,
                    normal,
                } => (lower, upper, normal, true),
            };
            // The polytope's own rounding floor, where a small depth is below its tolerance.
            let floor = POLYTOPE_FLOOR * polytope.resolution() + rounding;
            if !(converged || upper - lower <= POLYTOPE_TOLERANCE * upper + floor) {
                continue;
            }
            if !lower.is_finite() {
                return PolytopeVerdict::Undecided;
            }
            // The polytope has closed in on the minimum about `normal`: the answer is the descent
            // from there, whatever the first answer was (so that a warm and a cold query of one
            // configuration, whose polytopes are the same, answer alike where two common normals
            // are level to the tolerance or the minimum is flat, at a pointed body's tip).
            return match self.descend(Start::Derivatives(normal), iterations) {
                Descent::Excluded(p) => PolytopeVerdict::Apart(p),
                Descent::Converged { points, .. } => {
                    let depth = -points.support_gap();
                    if lower >= depth - POLYTOPE_TOLERANCE * depth - floor {
                        *best = Some(points);
                        PolytopeVerdict::Global
                    } else {
                        keep(points, best);
                        PolytopeVerdict::Undecided
                    }
                }
                Descent::Stalled(_) => PolytopeVerdict::Undecided,
            };
        }
        PolytopeVerdict::Undecided
    }

    /// Whether a converged penetrating answer can be trusted as the global minimum without a
    /// wider search: the paper's local-minimum test holds (each point inside the other body) and
    /// the Minkowski difference is smooth on the scale of the depth there (its smallest radius of
    /// curvature at least [`SMOOTH_RATIO`] times the depth, [`SMOOTH_RATIO_BOXY`] for a nearly
    /// box-like body), so no other common normal of comparable depth can lie near. `inside` is
    /// the local-minimum test's verdict on `points` (`Self::both_inside`), which the caller needs
    /// anyway: evaluated once.
    ///
    /// The curvature at the answer must also hold on the scale of the depth
    /// ([`Self::falls_as_curved`], from the soft direction `soft` and the [`LocalCurvature`]
    /// of the converged descent): along a sharp body's ridge for every pair, and along the soft
    /// direction, that of the smallest radius, for a pair with a nearly pointed or a nearly
    /// box-like body ([`Self::curvature_may_not_hold`]). Warm or cold alike: only a box-like
    /// pair's answer that continues the last one skips this test (`Self::solve`).
    fn trusted(
        &self,
        points: &Points,
        sharpness: f64,
        soft: &Vector3<f64>,
        curvature: &LocalCurvature,
        inside: bool,
    ) -> bool {
        inside
            && self.smooth_on_depth_scale(points, sharpness)
            && self.falls_as_curved(points, sharpness, soft, curvature)
    }

    /// The curvature half of [`Self::trusted`]: whether `sharpness`, the smallest radius of
    /// curvature of A - B at the penetrating `points`, is at least [`SMOOTH_RATIO`] times the
    /// depth ([`SMOOTH_RATIO_BOXY`] for a pair with a nearly box-like body).
    fn smooth_on_depth_scale(&self, points: &Points, sharpness: f64) -> bool {
        let boxy = self.squareness().0 < MODERATE_SQUARENESS.0;
        let ratio = if boxy {
            SMOOTH_RATIO_BOXY
        } else {
            SMOOTH_RATIO
        };
        sharpness >= ratio * -points.support_gap()
    }

    /// Whether a trusted answer that [`Self::polish`] moved to `polished` is still smooth on the
    /// depth's scale there ([`Self::smooth_on_depth_scale`], from the first derivatives at
    /// `polished`). The polish moves an answer where the descent on `f` stopped short of a
    /// common normal, on a nearly pointed body's ridge, where `f` is flat and the curvature
    /// radii change fast: `validate`, interval 4, seed 61, series 2, chunk 57 pair 845 (A of
    /// `eps` 0.33 / 1.56, B of 1.04 / 1.73): the descent stopped at a residual of 6.9e-8 with the
    /// radius 33 times the depth; the polish moved it 9e-6 rad to a common normal of radius 12.8
    /// times the depth, 1.1e-5 of the depth deeper than the shallowest one, 0.023 rad away.
    fn smooth_after_polish(&self, polished: &Points) -> bool {
        let gram = self.first_order(polished.c).gram();
        self.smooth_on_depth_scale(polished, smallest_eigenvalue(&gram).max(0.0).sqrt())
    }

    /// Whether the support gap falls away from the converged answer `points` as its curvature
    /// there says, on the scale of the depth `D`: for a pair with a nearly pointed or nearly
    /// box-like body ([`Self::curvature_may_not_hold`]), along the soft direction `soft` (the
    /// smallest radius of curvature of A - B, `sharpness`, so that the gap's Hessian along it is
    /// `-(sharpness - D)`), at the angle `theta = sqrt(2 D / (sharpness - D))` where that
    /// quadratic model falls by one depth, the gap must have fallen by at least
    /// [`FALL_FRACTION`] of a depth, to either side. Two point evaluations.
    ///
    /// The trust test ([`Self::trusted`]) reads the curvature at the answer as that of its
    /// neighbourhood, out to where a competing common normal of comparable depth could lie. A
    /// nearly pointed body (an `eps` near 2) breaks that: its ridges have curvature radii near 0,
    /// over which its normals swing across a wide cone while its point barely moves, and the
    /// other body's radius across the ridge, which keeps the sum large at the answer, can fall
    /// to the ridge's own within a fraction of a radian. The support gap then stays level along
    /// the swing (or rises again) where the model has it fall, and a shallower common normal can
    /// lie there, its contact points near the answer's but its direction far off. In `validate`'s
    /// interval 4 at seeds 13, 14 and 20 (10^6 pairs), three answers 0.2-68 % too deep, 0.24-1.45
    /// rad from the shallowest common normal, passed the trust test (radius 23-780 times the
    /// depth) with falls of -0.001, 0.06 and 0.16 of the predicted one. Of the first answers of
    /// nearly pointed pairs the trust test takes otherwise (a quarter of interval 4's pairs),
    /// 1.3 % fall by less than half of it, and restart (seed 1: 88499 -> 91663 restarted pairs
    /// per 10^6).
    ///
    /// Along the soft direction the gap must fall so at [`INNER_FALL_SCALE`] of that angle too
    /// (a quarter: a fall of at least half of 1/16 of the depth, two more evaluations), since the
    /// curvature can fail to hold well inside the depth's scale and hold again beyond it:
    /// `validate`, interval 4, seed 61, series 2, chunk 94 pair 5560 (A of `eps` 1.87 / 0.64, B
    /// of 0.63 / 1.54): a first answer of radius 33 times the depth fell by 1.3-1.9 depths at
    /// 0.25 rad (one predicted), but by 0.05-0.11 of the predicted fall at 0.06 rad, and a
    /// common normal 0.017 rad away along the soft direction was shallower by 1.26e-6 of the
    /// depth. At seed 1 the second probe restarts 92944 instead of 92719 pairs per 10^6 of
    /// series 2, interval 4 (intervals 1-3 have no nearly pointed or box-like body).
    ///
    /// Then, for every pair, along each body's own ridge: where a body's own smallest radius of
    /// curvature at its contact point (the smaller eigenvalue of its Jacobian on the tangent
    /// plane, from `curvature`: no evaluation) is below [`SMOOTH_RATIO`] times the depth, the gap
    /// must fall as the radius of A - B along that body's direction says, the same way (two point
    /// evaluations per such body). `validate`, interval 4, seed 27 (series 2, chunk 32 pair
    /// 1829): A of `eps1` 1.82 had the radius 4.5e-13 along its ridge, where B's flat side (`eps1`
    /// 0.16, radius 15) made that of A - B 13.8; along the soft direction the gap fell as
    /// predicted, but along A's ridge by 0.002 of it, and the answer was 4.4 % too deep, 0.65 rad
    /// from the shallowest common normal: a box-like body's large radius holds over a narrow
    /// cone only.
    ///
    /// The same holds with no nearly pointed body, which is why a pair with a nearly box-like
    /// body is checked too (`Self::curvature_may_not_hold`): seed 27, warm sequence 726, steps
    /// 56-58, cold (B of `eps1` 0.249, the rest below 1.7): a first answer on B's flat side,
    /// radius 2.9 (3800 times the depth), 1.2e-3 of the depth deeper than the shallowest common
    /// normal 0.24 rad away, which the warm queries kept. At seed 1 this and the ridges' check
    /// restart 92125 instead of 91667 pairs per 10^6 of series 2, interval 4.
    ///
    /// The ridges' check runs for every pair, since a sharp ridge needs no extreme squareness:
    /// `validate`, series 2, interval 3 (the paper's), seed 44, chunk 98 pair 1596 (A of `eps`
    /// 0.52 / 1.60, B of 1.65 / 1.51): a first answer of radius 94 times the depth, each body's
    /// own radius at its point about the depth, 3.4 % too deep, 0.5 rad from the shallowest common
    /// normal; interval 4, seed 59, chunk 111 pair 5777 (B of `eps1` 1.742, own radius 0.14 of
    /// the depth): 0.85 % too deep. In interval 3 a body's own radius is below [`SMOOTH_RATIO`]
    /// times the depth at 17 % of the pairs; the log-domain bounds keep their two evaluations at
    /// a third of the exact points' cost, and the check adds 2.8 % to the instructions of a cold
    /// query of series 2 (callgrind, 2048 pairs). At seed 1 it restarts, per 10^6 of series 2,
    /// 2478 instead of 1857 pairs of interval 3, 2 instead of 1 of interval 2, and 92719 instead
    /// of 92125 of interval 4 (which also reads the Jacobians at the descent's last iterate
    /// now, where it evaluated them at the answer).
    fn falls_as_curved(
        &self,
        points: &Points,
        sharpness: f64,
        soft: &Vector3<f64>,
        curvature: &LocalCurvature,
    ) -> bool {
        let gap = points.support_gap();
        let depth = -gap;
        if depth <= 0.0 {
            return true;
        }
        let rounding = ROUNDING * self.length_scale(points);
        // Along `along`, where the radius of curvature of A - B is `radius`; `radius >= sharpness
        // >= SMOOTH_RATIO D` here: the angle is at most `sqrt(2 / 19)`, 0.32 rad.
        // The gap is read off the log-domain support functions first, both sides at once (a
        // third of the exact points' cost each). Their certified bounds decide the comparison
        // with `bar` unless the gap lies within a few 1e-7 of the bodies' size of it; only then
        // are the exact points evaluated.
        let falls = |along: &Vector3<f64>, radius: f64, scale: f64| {
            let bar = gap - FALL_FRACTION * scale * scale * depth + rounding;
            let theta = scale * (2.0 * depth / (radius - depth)).sqrt();
            let (sin, cos) = theta.sin_cos();
            let sides = [
                unit(points.c * cos + along * sin),
                unit(points.c * cos - along * sin),
            ];
            let exact = |c: &Vector3<f64>| self.points(*c).support_gap() <= bar;
            match &self.a.log_support().zip(self.b.log_support()) {
                Some((la, lb)) => self
                    .coarse_gap_pair(la, lb, [&sides[0], &sides[1]])
                    .iter()
                    .zip(&sides)
                    .all(|((lower, [a, b]), c)| {
                        *lower <= bar && (self.gap_upper_of(c, a, b) <= bar || exact(c))
                    }),
                None => sides.iter().all(exact),
            }
        };
        if self.curvature_may_not_hold()
            && !(falls(soft, sharpness, 1.0) && falls(soft, sharpness, INNER_FALL_SCALE))
        {
            return false;
        }
        let chart = &curvature.chart;
        let (e2, e3) = (chart.e2, chart.e3);
        // Each body's own curvature radii on the tangent plane: A's Jacobian there, and B's the
        // rest of `M_t = J_A,t + (R J_B R^T)_t`.
        let (j2, j3) = (curvature.jacobian_a * e2, curvature.jacobian_a * e3);
        let off = 0.5 * (e2.dot(&j3) + e3.dot(&j2));
        let own_a = Matrix2::new(e2.dot(&j2), off, off, e3.dot(&j3));
        [own_a, curvature.tangent_curvature - own_a]
            .iter()
            .all(|own| {
                let smallest = smallest_eigenvalue(own);
                if smallest >= SMOOTH_RATIO * depth {
                    return true;
                }
                let ridge = Self::soft_direction(own, smallest, chart);
                let w = Vector2::new(ridge.dot(&e2), ridge.dot(&e3));
                let radius = w.dot(&(curvature.tangent_curvature * w));
                falls(&ridge, radius.max(sharpness), 1.0)
            })
    }

    /// Starts along a level ridge of the support gap through the answer `points`: of the
    /// directions at [`RIDGE_ANGLES`] to either side along the soft direction (that of the
    /// smallest radius of curvature of A - B, `rho`), all where the gap's Hessian along it,
    /// `-(rho - D)`, is weaker than the depth `D` (`rho < 2 D`, a fall of at most 2 % of the depth
    /// over 0.2 rad, where the trust test asks `rho >= 20 D`); elsewhere, those where the gap
    /// itself has fallen no more than that curvature predicts (`(rho - D) phi^2 / 2` with
    /// `rho = 2 D`, [`LEVEL_RIDGE_RATIO`]). `None` stands for a direction left out.
    ///
    /// Along a nearly pointed body's ridge the gap can stay that level over a wide arc, with
    /// several maxima close to each other in gap, each basin narrower than the restart lattice's
    /// spacing. `validate`, interval 4, seed 11 (warm sequence 926, step 20): three maxima
    /// within 1.7e-7 of each other (4.2e-5 of the depth 1.37e-3) over 0.15 rad, `rho` 1.1 to 2.1
    /// times the depth; the cold query's restarts all reached the two deeper ones. The
    /// curvature at the answer can hide a level arc beyond it: seed 120 (series 2, chunk 39,
    /// pair 1961), `rho` 5.2 times the depth, but the gap fell only 3.9e-4 of the depth over
    /// 0.06 rad to one side, where a maximum 2.9e-4 of the depth shallower lay 0.05 rad away.
    fn ridge_starts(&self, points: &Points) -> [Option<Vector3<f64>>; 2 * RIDGE_ANGLES.len()] {
        let gap = points.support_gap();
        let depth = -gap;
        if depth <= 0.0 {
            return [None; 2 * RIDGE_ANGLES.len()];
        }
        // First derivatives suffice: `gram` is half the Gauss-Newton matrix, bit for bit.
        let first = self.first_order(points.c);
        let (smallest, soft) = Self::smallest_eigen(&first.gram(), &first.chart);
        let level = smallest.max(0.0).sqrt() < LEVEL_RIDGE_RATIO * depth;
        std::array::from_fn(|k| {
            let angle = RIDGE_ANGLES[k / 2];
            let (sin, cos) = angle.sin_cos();
            let side = if k % 2 == 0 { sin } else { -sin };
            let c = unit(points.c * cos + soft * side);
            let fall = 0.5 * (LEVEL_RIDGE_RATIO - 1.0) * depth * angle * angle;
            (level || gap - self.points(c).support_gap() <= fall).then_some(c)
        })
    }

    /// Whether the penetrating answer `points` (converged) is certified to be the global one by
    /// the bodies' rolling balls ([`SmoothConvex::rolling_radius`]), to within [`BALL_SLACK`] of
    /// its depth. Beyond the paper, which restarts to find the global minimum.
    ///
    /// A holds the ball of radius `rho_A` tangent to it at `p1`, B the ball of radius `rho_B`
    /// tangent at `p2`, so the Minkowski difference `A - B` holds the ball of radius
    /// `rho = rho_A + rho_B` tangent at `p1 - p2 = D c + t`, with `D = -c . d` the depth along `c`
    /// and `t` the residual across `c` (`|t| = tau`); the ball's centre is `(D - rho) c + t`.
    /// Along any unit `u` at angle `phi` from `c`, the bodies' extents overlap by at least that
    /// ball's support, `D + m (1 - cos(phi)) - tau sin(phi)` with `m = rho - D`, whose least value
    /// over `phi` is `D - tau^2 / (m + sqrt(m^2 + tau^2)) >= D - tau^2 / (2 m)`. When
    /// `m > 0` and `tau^2 / (2 m) <= BALL_SLACK D`, no direction separates the bodies (they
    /// overlap), and the minimum translation distance lies between `D (1 - BALL_SLACK)` and `D`
    /// (the overlap along `c` itself): no restart can find a shallower answer than that, and a
    /// polish of `points` (which raises the support gap) stays within it. Pointed superellipsoids
    /// (an `eps` above 1) have no rolling radius, so a pair of two is never certified this way:
    /// [`Self::tangent_balls_certified`] asks for balls at the contact points alone.
    fn ball_certified(&self, points: &Points) -> bool {
        let depth = -points.support_gap();
        depth > 0.0
            && Self::balls_certify(
                depth,
                self.a.rolling_radius() + self.b.rolling_radius(),
                Self::across_squared(points),
            )
    }

    /// [`Self::ball_certified`] with balls tangent at the answer's own contact points
    /// ([`SmoothConvex::tangent_ball_radius`]), where the rolling balls do not suffice: the same
    /// proof needs balls in A at `p1` and in B at `p2` only, and radii that add up to more than
    /// the depth `D` (by `tau^2 / (2 BALL_SLACK D)`, the residual's share). Such a ball fits at
    /// most surface points of a nearly pointed body, which has no rolling radius, unless the
    /// point lies within a few depths of a ridge. Beyond the paper: a proof of the global
    /// minimum where the paper restarts. Each ball is asked for
    /// `CAP_OVER_DEPTH D + tau^2 / (BALL_SLACK D)`, so that one ball alone proves the answer,
    /// with room for the roundings, where the other point lies on a ridge (a ball of radius 0);
    /// about eight powers a body, none at a ridge.
    fn tangent_balls_certified(&self, points: &Points) -> bool {
        let depth = -points.support_gap();
        if depth.is_nan() || depth <= 0.0 {
            return false;
        }
        let across = Self::across_squared(points);
        let cap = CAP_OVER_DEPTH * depth + across / (BALL_SLACK * depth);
        let rt = self.rotation.transpose();
        let radius_a = self.a.tangent_ball_radius(&points.p1, &points.c, cap);
        let radius_b = self.b.tangent_ball_radius(
            &(rt * (points.p2 - self.translation)),
            &-(rt * points.c),
            cap,
        );
        Self::balls_certify(depth, radius_a + radius_b, across)
    }

    /// Whether balls of radii adding up to `radii`, tangent inside the bodies at the contact
    /// points of an answer of depth `depth > 0` whose `d` leaves `across_squared` (`tau^2`) across
    /// its direction, prove it global to within [`BALL_SLACK`] ([`Self::ball_certified`]).
    fn balls_certify(depth: f64, radii: f64, across_squared: f64) -> bool {
        let spare = radii - depth;
        spare > 0.0 && across_squared <= 2.0 * spare * BALL_SLACK * depth
    }

    /// `tau^2`: the squared part of `points.d` across the contact direction.
    fn across_squared(points: &Points) -> f64 {
        (points.d - points.c * points.c.dot(&points.d)).norm_squared()
    }

    /// The whole search from the unit direction `start` (A's frame). The first descent's answer
    /// is kept when `Self::trusted`; otherwise (and after a stalled descent) the search restarts
    /// from the best [`GLOBAL_STARTS`] ([`GLOBAL_STARTS_EXTREME`] for a nearly pointed body)
    /// directions of `restart::ranked_directions` on the prefilter's certified log-domain gap,
    /// each start first climbed by the prefilter's Newton ascent (of `restart::ranked` on the
    /// exact points where a body has no log-domain support) and keeps the shallowest converged
    /// answer whose overlap is certified, or stops at the first exclusion, or at the first answer
    /// the bodies' rolling balls certify global (`Self::ball_certified`, which also takes the
    /// first descent's answer without the trust test) or the balls tangent at its own contact
    /// points do (`Self::tangent_balls_certified`, which also takes a first answer the trust test
    /// leaves, in place of the restarts). The best of the descents that stalled goes
    /// on for up to [`EXTENDED_ITERATIONS`] more first, and its end competes too.
    ///
    /// `history` picks the first move: a pair that touched at the last query starts with the
    /// derivatives at `start` (`Self::warm_descent`: the first ones may show `start` to be a
    /// common normal already); any other first goes through `Self::prefilter` (a new pair
    /// from the ellipsoids' ascent step off `start`, the centre line; a pair apart at the last
    /// query from `start` itself, its last separating direction).
    pub fn solve(&self, start: Vector3<f64>, history: History) -> Result<Solution> {
        let mut solution = Solution {
            contact: Contact::from_points(
                Vector3::zeros(),
                Vector3::zeros(),
                start,
                0.0,
                false,
                ContactKind::Smooth,
            ),
            excluded: false,
            iterations: 0,
            probes: 0,
            restarts: 0,
            polytope_steps: 0,
            local_minima: 0,
            estimate: start,
        };
        let mut best: Option<Points> = None;
        // The best of the stalled descents' ends, by the same rule.
        let mut stalled: Option<Points> = None;
        // The shallower answer, beyond the rounding of a support gap; of two within it (a flat
        // valley of the gap, along which descents end apart with gaps that differ by rounding
        // alone), the nearer common normal (the smaller residual of condition (5)_3), which the
        // polish leaves as it is. `validate`, interval 4, seed 15: a warm answer on the
        // shallowest common normal, untrusted, lost to a restart's end 2.3e-6 rad off along such
        // a valley, higher by 2e-16, whose polish stopped 1.2e-6 rad from the cold answer.
        let keep = |points: Points, best: &mut Option<Points>| {
            let better = best.as_ref().map_or(true, |b| {
                let (gap, bar) = (points.support_gap(), b.support_gap());
                let rounding = ROUNDING * self.length_scale(b);
                gap > bar + rounding
                    || (gap >= bar - rounding
                        && self.common_normal_residual(&points) < self.common_normal_residual(b))
            });
            if better {
                *best = Some(points);
            }
        };
        let continued = matches!(history, History::Touching { continued: true });
        let first = if matches!(history, History::Touching { .. }) {
            None
        } else {
            let surrogate_from = match history {
                History::None { along } => Some(along),
                _ => None,
            };
            Some(
                match self.prefilter(start, surrogate_from, PREFILTER_PROBES, CLIMB_MAX_STEP) {
                    Prefilter::Apart { points, gap, steps } => {
                        solution.iterations = steps;
                        solution.probes = steps;
                        return Ok(self.finish_with_gap(solution, points, gap, true));
                    }
                    // The prefilter has tried the directions ahead of the start (to within its
                    // margin): the descent starts with the derivatives at the start, whose points
                    // give the exact test there; for a pair with no nearly pointed body, one
                    // Newton step past the last direction it tried (`Self::nearly_pointed`).
                    Prefilter::Undecided { ahead, steps } => {
                        solution.iterations = steps;
                        solution.probes = steps;
                        let probe_start =
                            !self.nearly_pointed() && ahead.iter().all(|v| v.is_finite());
                        Start::Derivatives(if probe_start { ahead } else { start })
                    }
                    Prefilter::NotApplicable => Start::Points(self.points(start)),
                },
            )
        };
        // A new (or lately apart) pair of two nearly pointed bodies (every `eps` above the
        // moderate range) that the prefilter did not exclude: its first answer seldom passes the
        // trust test, and the expanding polytope decides wherever it does not (see below), so the
        // polytope runs at once (probe `pointstats`, every `eps` in [1.8, 1.9]: 41.7 us a cold
        // query, 71.6 us with the first descent and the restarts). Not where only one body is
        // nearly pointed: most of those first answers are taken (one body of `eps` in [1.8, 1.9]
        // and one in [0.3, 1.7]: 12.3 us a cold query, 32.7 us with the polytope at once).
        let polytope_first = first.is_some()
            && self.squareness().0 > MODERATE_SQUARENESS.1
            && self.polytope_applies();
        if polytope_first {
            // An answer the polytope's descent leaves unproved is dropped here: the first
            // descent follows.
            let mut proved = None;
            match self.polytope_decides(&mut solution, &mut proved, &keep) {
                ControlFlow::Break(solution) => return Ok(solution),
                ControlFlow::Continue(true) => {
                    let best = proved.expect("a proved answer");
                    return Ok(self.finish_best(solution, best, true));
                }
                ControlFlow::Continue(false) => {}
            }
        }
        let descent = match first {
            Some(first) => self.descend(first, &mut solution.iterations),
            None => self.warm_descent(start, &mut solution.iterations),
        };
        match descent {
            Descent::Excluded(p) => return Ok(self.finish(solution, p, true)),
            Descent::Converged {
                points,
                sharpness,
                soft,
                estimate,
                curvature,
                common_normal,
            } => {
                // A box-like pair's warm answer (every eps below 0.25: its trust test, a
                // curvature radius of 1000 times the depth, fails at most edges and corners) that
                // continues the last one (converged near the start extrapolated from the last
                // answers, and past the paper's local-minimum test) is taken without the wider
                // search, but for every `RECHECK_EVERY`-th query: the contact follows its branch
                // from a checked answer, as the paper's warm start does. (Pointed pairs are left
                // out: continued answers of `eps` 1.5-1.8 ended deeper than the cold ones.)
                // The paper's local-minimum test, once: the continuation and the trust test ask
                // it, and an answer taken by neither counts as a local minimum where it fails.
                // An answer that the bodies' rolling balls certify (`Self::ball_certified`) is
                // the global one, and overlapping: neither test is needed.
                let certified = self.ball_certified(&points);
                let inside = !certified && self.both_inside(&points);
                let continues = continued
                    && self.squareness().1 < MODERATE_SQUARENESS.0
                    && (points.c - start).norm() <= CONTINUATION
                    && inside;
                let taken = certified
                    || continues
                    || self.trusted(&points, sharpness, &soft, &curvature, inside);
                // An answer neither test takes may still be proved global by the balls that fit
                // at its own contact points, in place of the restarts. (Tried only here: the
                // balls cost about 1500 instructions a body, where the trust test holds for most
                // answers at a fraction of that; where its fall checks along a ridge run, about
                // 2300 instructions, the balls fit at half of the answers: 459 of 895 in the
                // bench's warm sequences.)
                let certified = certified || !taken && self.tangent_balls_certified(&points);
                // Every other answer takes the whole trust test, warm or cold: a warm answer that
                // follows its branch took it without the fall checks (`Self::falls_as_curved`)
                // between the `RECHECK_EVERY`-th queries, and kept a branch whose depth another
                // one's had crossed for up to that many queries. `validate`, interval 4, seed 79,
                // warm sequence 377 (A of `eps` 0.37 / 1.86, B of 1.90 / 1.04, whose cold
                // queries all restart): the warm answers of steps 61-63 stayed on the branch the
                // whole search took at step 56, 1.9-6.6 % deeper than the shallowest common
                // normal, 0.98 rad away, until the recheck at step 64. With the check at every
                // warm query, the warm sequences of `validate` at seed 1 take 0.23 iterations a
                // query instead of 0.20 in interval 3 (+3.4 % of the instructions of 64 warm
                // sequences, callgrind) and 11.78 instead of 10.51 in interval 4.
                if taken || certified {
                    // A warm start taken as it is passed the polish's own test already.
                    let polished = if common_normal {
                        Ok((points, true))
                    } else {
                        self.polish(points, &mut solution.iterations)
                    };
                    match polished {
                        Err(excluded) => return Ok(self.finish(solution, excluded, true)),
                        // The trust test read the curvature of a smooth maximum of the gap;
                        // an answer that the polish could not make a common normal (it ended
                        // in the compass search, on a crease of a box-like body's support
                        // function, where the gap has a kink) is not one, and the curvature
                        // there says nothing of its neighbourhood: the restarts run, with it
                        // as the best so far. `validate`, interval 4, seed 21: a descent
                        // converged to a residual of 2.2e-6 on the flat side of a body of
                        // `eps1` 0.13, whose polish ended on a crease 0.25 rad from the
                        // shallowest common normal, 5.4e-4 of the depth deeper. 15 of the
                        // 8 x 10^6 cold and warm answers of the protocol at seed 1 restart
                        // for it.
                        Ok((polished, common_normal))
                            if certified
                                || (common_normal
                                    && (continues
                                        || polished.c == points.c
                                        || self.smooth_after_polish(&polished))) =>
                        {
                            let mut solution = self.finish(solution, polished, false);
                            if polished.c == points.c {
                                solution.estimate = estimate;
                            }
                            return Ok(solution);
                        }
                        Ok((polished, _)) => keep(polished, &mut best),
                    }
                } else {
                    if !inside {
                        solution.local_minima += 1;
                    }
                    keep(points, &mut best);
                }
            }
            Descent::Stalled(points) => keep(points, &mut stalled),
        }
        // Whether `best` is certified global (`Self::ball_certified`, or the expanding polytope of
        // A - B), which ends the search.
        let mut certified = false;
        // A pair with a nearly pointed body: the expanding polytope of A - B proves the answer
        // global or finds the shallower one (`Self::polytope_search`); the restarts run only
        // where it cannot decide (a new pair's polytope ran before its first descent).
        if !polytope_first && self.polytope_applies() {
            match self.polytope_decides(&mut solution, &mut best, &keep) {
                ControlFlow::Break(solution) => return Ok(solution),
                ControlFlow::Continue(proved) => certified = proved,
            }
        }
        if !certified {
            match self.restart_search(&mut solution, &mut best, &mut stalled, &keep) {
                ControlFlow::Break(solution) => return Ok(solution),
                ControlFlow::Continue(proved) => certified = proved,
            }
        }
        // The best stalled descent goes on with a larger budget: an ill-conditioned pair (an
        // elongated body's curvature radii range over the cube of its aspect ratio, the
        // Gauss-Newton model's condition over its square) descends slowly but surely. Its end
        // joins the converged descents' answers (the other stalled ends do not: each is a point
        // on the way, not a common normal).
        if let Some(s) = stalled.filter(|_| !certified) {
            match self.newton(
                self.derivatives(s.c),
                &mut solution.iterations,
                EXTENDED_ITERATIONS,
            ) {
                Descent::Excluded(p) => return Ok(self.finish(solution, p, true)),
                Descent::Converged { points, .. } | Descent::Stalled(points) => {
                    keep(points, &mut best)
                }
            }
        }
        // The best answer on a level ridge of the support gap: the descents from along it
        // (`Self::ridge_starts`) reach the ridge's other maxima. Every pair's, since a pair of
        // no nearly pointed body can have one too (seed 120, in `Self::ridge_starts`): with it,
        // the 1024 cold queries of interval 3, series 2 (callgrind) take 0.16 % more
        // instructions, interval 4's 1.1 %, the warm sequences of interval 3 0.15 % fewer.
        if let Some(starts) = best.filter(|_| !certified).map(|b| self.ridge_starts(&b)) {
            for c in starts.into_iter().flatten() {
                solution.restarts += 1;
                match self.descend(Start::Derivatives(c), &mut solution.iterations) {
                    Descent::Excluded(p) => return Ok(self.finish(solution, p, true)),
                    Descent::Converged { points, .. } => keep(points, &mut best),
                    Descent::Stalled(_) => {}
                }
            }
        }
        let Some(best) = best else {
            return Err(Error::NotConverged(format!(
                "the common-normal search found no contact direction ({} restarts, {} \
                 iterations)",
                solution.restarts, solution.iterations
            )));
        };
        Ok(self.finish_best(solution, best, certified))
    }

    /// The restarts of a search whose first answer is neither trusted nor proved (the paper's
    /// random search, here from ranked directions, each climbed by the prefilter's ascent, then
    /// descended): each converged end joins `best` and each stalled one `stalled` by `keep`'s
    /// rule. `Break` with the query's solution where a restart proves the bodies apart;
    /// otherwise whether `best` is certified the shallowest common normal (its balls,
    /// `Self::ball_certified` or `Self::tangent_balls_certified`, which end the restarts).
    fn restart_search(
        &self,
        solution: &mut Solution,
        best: &mut Option<Points>,
        stalled: &mut Option<Points>,
        keep: &impl Fn(Points, &mut Option<Points>),
    ) -> ControlFlow<Solution, bool> {
        // The restart directions, best first, ranked on the prefilter's certified log-domain gap
        // (a third of the exact points' cost; no start points are needed, since each start is
        // climbed by the prefilter's Newton ascent, `Self::prefilter`, which leaves one or two
        // Newton iterations); on the exact points, each a start of the descent as it is, only
        // where a body has no log-domain support (an `eps` within 0.031 of 2). (Box-like pairs
        // ranked on the exact points before: 1.4-1.7 times as long, with the outcomes of
        // `validate` the same at seeds 1-4, and at seeds 2, 3 and 5 with 3 x 10^6 pairs. Nearly
        // pointed pairs did until 2026-11-30: their 16 descents from the exact points took 19
        // Newton iterations each, 2.4 times as long a query for every `eps` in [1.8, 1.9], with
        // the same answers once their climbs' steps were shortened, `POINTED_RESTART_CLIMB_STEP`.)
        let (starts, climb_step) = if self.nearly_pointed() {
            (GLOBAL_STARTS_EXTREME, POINTED_RESTART_CLIMB_STEP)
        } else {
            (GLOBAL_STARTS, CLIMB_MAX_STEP)
        };
        let logs = self.a.log_support().zip(self.b.log_support());
        let candidates: Vec<RestartFrom> = match &logs {
            Some((la, lb)) => {
                let ranked = restart::ranked_directions(
                    |c| self.coarse_gap(la, lb, c).0,
                    |c| self.gap_bound(la, lb, c),
                    starts,
                );
                if ranked[0].0 > 0.0 {
                    let c = ranked[0].1;
                    let (gap, logs) = self.coarse_gap(la, lb, &c);
                    solution.restarts = 1;
                    let points = self.coarse_points(la, lb, &logs, c);
                    return ControlFlow::Break(self.finish_with_gap(*solution, points, gap, true));
                }
                ranked
                    .into_iter()
                    .take(starts)
                    .map(|(_, c)| RestartFrom::Direction(c))
                    .collect()
            }
            None => {
                let ranked = restart::ranked(|c| self.points(c), starts);
                if ranked[0].support_gap() > 0.0 {
                    solution.restarts = 1;
                    return ControlFlow::Break(self.finish(*solution, ranked[0], true));
                }
                ranked.into_iter().map(RestartFrom::Points).collect()
            }
        };
        // The climb of the next candidate, when it ran beside this one's (`prefilter_pair`).
        let mut climbed_next = None;
        for (k, candidate) in candidates.iter().enumerate() {
            solution.restarts += 1;
            let start = match *candidate {
                RestartFrom::Points(points) => Start::Points(points),
                RestartFrom::Direction(c) => {
                    match climbed_next
                        .take()
                        .unwrap_or_else(|| match candidates.get(k + 1) {
                            Some(&RestartFrom::Direction(next)) => {
                                let [climbed, next] =
                                    self.prefilter_pair([c, next], RESTART_PROBES, climb_step);
                                climbed_next = Some(next);
                                climbed
                            }
                            _ => self.prefilter(c, None, RESTART_PROBES, climb_step),
                        }) {
                        Prefilter::Apart { points, gap, steps } => {
                            solution.iterations += steps;
                            solution.probes += steps;
                            return ControlFlow::Break(
                                self.finish_with_gap(*solution, points, gap, true),
                            );
                        }
                        Prefilter::Undecided { ahead, steps }
                            if ahead.iter().all(|v| v.is_finite()) =>
                        {
                            solution.iterations += steps;
                            solution.probes += steps;
                            Start::Derivatives(ahead)
                        }
                        _ => Start::Points(self.points(c)),
                    }
                }
            };
            // A start already at the best answer so far: its descent would only come back to it.
            if let (Start::Derivatives(c), Some(b)) = (&start, &*best) {
                if (c - b.c).norm() <= SAME_NORMAL {
                    continue;
                }
            }
            match self.descend(start, &mut solution.iterations) {
                Descent::Excluded(p) => return ControlFlow::Break(self.finish(*solution, p, true)),
                Descent::Converged { points, .. } => {
                    // The global answer: no other start can find a shallower one.
                    if self.ball_certified(&points) || self.tangent_balls_certified(&points) {
                        *best = Some(points);
                        return ControlFlow::Continue(true);
                    }
                    if !self.both_inside(&points) {
                        solution.local_minima += 1;
                    }
                    keep(points, best);
                }
                Descent::Stalled(points) => keep(points, stalled),
            }
        }
        ControlFlow::Continue(false)
    }

    /// The expanding polytope's verdict on the search (`Self::polytope_search`, which may set
    /// `best`): `Break` with the query's solution where it proves the bodies apart; otherwise
    /// whether `best` is proved the shallowest common normal.
    fn polytope_decides(
        &self,
        solution: &mut Solution,
        best: &mut Option<Points>,
        keep: &impl Fn(Points, &mut Option<Points>),
    ) -> ControlFlow<Solution, bool> {
        match self.polytope_search(
            best,
            keep,
            &mut solution.iterations,
            &mut solution.polytope_steps,
        ) {
            PolytopeVerdict::Global => ControlFlow::Continue(true),
            PolytopeVerdict::Apart(p) => ControlFlow::Break(self.finish(*solution, p, true)),
            PolytopeVerdict::Undecided => ControlFlow::Continue(false),
        }
    }

    /// The solution for the search's best answer `best` (`certified`: proved the shallowest
    /// common normal): polished into a true common normal, and, unless certified or one body's
    /// point is known to lie in the other, its overlap decided by GJK on A - B.
    fn finish_best(&self, mut solution: Solution, best: Points, certified: bool) -> Solution {
        let best = match self.polish(best, &mut solution.iterations) {
            Ok((points, _)) => points,
            Err(excluded) => return self.finish(solution, excluded, true),
        };
        if certified || self.overlap_certified(&best) {
            return self.finish(solution, best, false);
        }
        // No point of one body is known to lie in the other (thin, pointed bodies can overlap
        // with every such point outside): GJK on the Minkowski difference A - B decides.
        let support = |v: &Vector3<f64>| self.difference_support(v);
        match gjk::intersect(support, best.c, GJK_ITERATIONS) {
            Gjk::Separated(v) => {
                let p = self.points(v / v.norm());
                self.finish(solution, p, true)
            }
            Gjk::Intersecting | Gjk::Undecided => self.finish(solution, best, false),
        }
    }

    /// Makes `start` a true common normal where the descent on `f` could not: Newton ascent of
    /// the support gap `g = c . d` (`Err`: a direction that proves the bodies apart).
    ///
    /// Where a body is nearly pointed or edged (`eps` near 2), its point-with-normal map is almost
    /// constant over a cone of normals (`J ~ 0`): `f` is flat there, its gradient
    /// `-2 M_t d_t` vanishes although `d` is not parallel to `c`, and the descent stops on a
    /// point that is no common normal. The gap `g` still has the gradient `d_t` (the tangential
    /// part of `d`) and the Hessian `-(M_t + g I)`, so it climbs to where `d_t = 0`: a common
    /// normal, with less overlap than where it started. Levenberg-Marquardt keeps each step
    /// uphill where that Hessian is not negative definite; Armijo backtracking on `g`.
    ///
    /// `Ok` holds the answer and whether it is a common normal (to [`COMMON_NORMAL_ACCEPTED`]):
    /// `false` where the last resort, [`Self::compass_search`], ended on a crease's maximum.
    fn polish(
        &self,
        start: Points,
        iterations: &mut u32,
    ) -> std::result::Result<(Points, bool), Points> {
        if self.common_normal_residual(&start) <= COMMON_NORMAL_TOLERANCE {
            return Ok((start, true));
        }
        let mut der = self.derivatives(start.c);
        for _ in 0..MAX_ITERATIONS {
            let p = der.points;
            if self.common_normal_residual(&p) <= COMMON_NORMAL_TOLERANCE {
                break;
            }
            let g = p.support_gap();
            let grad = Vector2::new(der.chart.e2.dot(&p.d), der.chart.e3.dot(&p.d));
            // -Hessian of g, shifted until positive definite.
            let a = der.tangent_curvature + Matrix2::identity() * g;
            let mut step = shifted_solve(&a, &grad);
            let len = step.norm();
            if len.is_nan() || len <= STEP_TOLERANCE {
                break;
            }
            if len > MAX_STEP {
                step *= MAX_STEP / len;
            }
            *iterations += 1;
            let slope = grad.dot(&step);
            let rounding = ROUNDING * self.length_scale(&p);
            // Uphill by Armijo's rule, or, where the step is too short to move `g` above its
            // rounding, level within rounding and closer to a common normal.
            let uphill = |trial: &Points, scale: f64| {
                trial.support_gap() >= g + 1e-4 * scale * slope
                    || (trial.support_gap() >= g - rounding
                        && self.common_normal_residual(trial) < self.common_normal_residual(&p))
            };
            match self.backtrack(&der.chart, step, 1.0, uphill)? {
                Some(trial) => der = self.derivatives(trial.c),
                None => break,
            }
        }
        // Newton's ascent stops at the rounding floor of the residual, which can lie a little
        // above the tolerance it aims for: that is still a common normal.
        if self.common_normal_residual(&der.points) <= COMMON_NORMAL_ACCEPTED {
            return Ok((der.points, true));
        }
        let end = self.compass_search(der.points, iterations)?;
        Ok((
            end,
            self.common_normal_residual(&end) <= COMMON_NORMAL_ACCEPTED,
        ))
    }

    /// A derivative-free local maximum of the support gap from `start` (`Err`: a direction that
    /// proves the bodies apart): a pattern search (Hooke & Jeeves 1961) over the sphere of
    /// directions. Each round first tries the pattern move, which continues the last successful
    /// move along its great circle twice as far, and otherwise polls eight tangent directions
    /// (the first along the last move) and moves to the best probe that raises the gap beyond
    /// rounding, doubling the angle after a move and halving it when no probe climbs, from 1e-2
    /// rad down to 1e-9 rad.
    ///
    /// The last resort of [`Self::polish`], for the rare answers Newton cannot make a common
    /// normal: where a body is box-like (`eps` well below 1), its support function has a sharp
    /// crease along the great circles normal to its body axes (the directions where the support
    /// point jumps from one flat side to the next), and the gap's maximum often lies in such a
    /// crease, the bottom of a V-shaped valley that no probe direction follows, so that the poll
    /// alone creeps along it. When the poll's angle is small and the direction lies within 1e-3
    /// of a crease of either body, a search along that great circle ([`Self::crease_search`])
    /// moves along the valley instead.
    fn compass_search(
        &self,
        start: Points,
        iterations: &mut u32,
    ) -> std::result::Result<Points, Points> {
        let rounding = ROUNDING * self.length_scale(&start);
        let mut best = start;
        // The direction before the last successful move, while the pattern still climbs.
        let mut previous: Option<Vector3<f64>> = None;
        let mut angle = 1e-2;
        let mut moves = 0;
        let (mut creases_searched, mut creeping) = (0, 0);
        // Where the creases were last searched from (no second search from the same direction).
        let mut searched_at: Option<Vector3<f64>> = None;
        while angle >= 1e-9 && moves < 4 * MAX_ITERATIONS {
            let chart = Chart::new(best.c);
            let mut heading = 0.0;
            if let Some(before) = previous.take() {
                let (back1, back2) = chart.angles_of(&before);
                heading = (-back2).atan2(-back1);
                let trial = self.points(chart.direction(-2.0 * back1, -2.0 * back2));
                if trial.support_gap() > 0.0 {
                    return Err(trial);
                }
                if trial.support_gap() > best.support_gap() + rounding {
                    previous = Some(best.c);
                    best = trial;
                    moves += 1;
                    *iterations += 1;
                    continue;
                }
            }
            let mut improved: Option<Points> = None;
            for k in 0..8 {
                let phi = heading + k as f64 * std::f64::consts::FRAC_PI_4;
                let trial = self.points(chart.direction(angle * phi.cos(), angle * phi.sin()));
                if trial.support_gap() > 0.0 {
                    return Err(trial);
                }
                let bar = improved.map_or(best.support_gap() + rounding, |p| p.support_gap());
                if trial.support_gap() > bar {
                    improved = Some(trial);
                }
            }
            if let Some(p) = improved {
                previous = Some(best.c);
                best = p;
                moves += 1;
                creeping += 1;
                *iterations += 1;
                angle = (2.0 * angle).min(1e-2);
            }
            // Stalled, or creeping along a valley: try the creases nearby.
            if (improved.is_none() && angle < 1e-3 || creeping >= CREEP_MOVES)
                && creases_searched < MAX_CREASE_SEARCHES
                && searched_at != Some(best.c)
            {
                creases_searched += 1;
                searched_at = Some(best.c);
                creeping = 0;
                if let Some(p) = self.crease_search(&best, rounding, iterations)? {
                    previous = None;
                    best = p;
                    angle = 1e-3;
                    continue;
                }
            }
            if improved.is_none() {
                angle *= 0.5;
            }
        }
        Ok(best)
    }

    /// A climb of the support gap along the creases near `best` (see [`Self::compass_search`]):
    /// for each body axis (A's, and B's turned into A's frame) whose normal great circle passes
    /// within 1e-3 of `best.c`, a one-dimensional pattern search along that circle from the
    /// point of it nearest `best.c` (step from 1e-2 rad, doubled after a climb, halved after a
    /// miss, down to 1e-12 rad). `Ok(Some)`: a direction that beats `best` beyond rounding;
    /// `Err`: a direction that proves the bodies apart.
    fn crease_search(
        &self,
        best: &Points,
        rounding: f64,
        iterations: &mut u32,
    ) -> std::result::Result<Option<Points>, Points> {
        let mut found: Option<Points> = None;
        for k in 0..6 {
            let axis = if k < 3 {
                Vector3::ith(k, 1.0)
            } else {
                self.rotation.column(k - 3).into_owned()
            };
            let along = best.c - axis * axis.dot(&best.c);
            if axis.dot(&best.c).abs() > 1e-3 || along.norm() < 0.5 {
                continue;
            }
            let u = along.normalize();
            let v = axis.cross(&u);
            let on_circle = |theta: f64| {
                let (sin, cos) = theta.sin_cos();
                self.points(u * cos + v * sin)
            };
            let mut here = on_circle(0.0);
            let (mut theta, mut step) = (0.0, 1e-2);
            while step >= 1e-12 {
                let mut climbed = false;
                for signed in [step, -step] {
                    let trial = on_circle(theta + signed);
                    if trial.support_gap() > 0.0 {
                        return Err(trial);
                    }
                    if trial.support_gap() > here.support_gap() + rounding {
                        here = trial;
                        theta += signed;
                        climbed = true;
                        *iterations += 1;
                        break;
                    }
                }
                step = if climbed { 2.0 * step } else { 0.5 * step };
            }
            let bar = found.as_ref().unwrap_or(best).support_gap() + rounding;
            if here.support_gap() > bar {
                found = Some(here);
            }
        }
        Ok(found)
    }

    /// How far `points` are from a common normal: the part of `d` across `c`, relative to the
    /// pair's [`Self::length_scale`] (0 at an exact common normal, condition (5)_3), so that the
    /// same configuration in any length unit gets the same verdict.
    fn common_normal_residual(&self, points: &Points) -> f64 {
        let d = points.d;
        (d - points.c * points.c.dot(&d)).norm() / self.length_scale(points)
    }

    /// The pair's length at `points`, for tolerances relative to it: the centre distance plus
    /// `|d|` (at least the size of the overlap, and about the bodies' size when their centres
    /// nearly coincide; never 0 for bodies of positive size).
    fn length_scale(&self, points: &Points) -> f64 {
        (self.translation.norm() + points.d.norm()).max(f64::MIN_POSITIVE)
    }

    /// The solution for the final points.
    fn finish(&self, solution: Solution, p: Points, excluded: bool) -> Solution {
        self.finish_with_gap(solution, p, p.support_gap(), excluded)
    }

    /// The solution for the final points with the support gap `gap` along `p.c` (exact, or a
    /// certified lower bound).
    fn finish_with_gap(
        &self,
        mut solution: Solution,
        p: Points,
        gap: f64,
        excluded: bool,
    ) -> Solution {
        // Penetration along c is the overlap of the support planes (-c.d): second order in the
        // direction's error, unlike |d|.
        let mut contact = Contact::from_points(p.p1, p.p2, p.c, -gap, false, ContactKind::Smooth);
        contact.iterations = solution.iterations;
        solution.contact = contact;
        solution.estimate = p.c;
        solution.excluded = excluded;
        solution
    }
}

/// The support point of the ellipsoid with semi-axes `r` along the (body-frame) direction `n`,
/// `D^2 n / |D n|` with `D = diag(r)`, then `1 / |D n|` and the point's distance from the centre,
/// `|D^2 n| / |D n|` (its two square roots run side by side instead of one after the other; a
/// caller that does not use it does not compute it). `n` need not be a unit vector.
#[inline]
fn ellipsoid_point(r: &[f64; 3], n: &Vector3<f64>) -> (Vector3<f64>, f64, f64) {
    let m = Vector3::new(r[0] * n.x, r[1] * n.y, r[2] * n.z);
    let k = Vector3::new(r[0] * m.x, r[1] * m.y, r[2] * m.z);
    let inv = 1.0 / m.norm();
    (k * inv, inv, k.norm() * inv)
}

/// How far from 1 the squared length of a contact direction this kernel wrote may be: each is a
/// unit vector to a few roundings (a chart's direction, or a vector over its length).
const UNIT_SLACK: f64 = 1e-9;

/// Whether the warm-state `data` tagged with this kernel reads as a record a query of it wrote:
/// the last contact direction a unit vector and the touching flag 0 or 1. Any finite numbers pass
/// [`WarmState::validate`]; a record that fails this (a host's memory never zeroed, or
/// overwritten) gives no start direction (a direction of length 1e299 has an infinite square,
/// which made the start zero and the answer a zero normal), and the query starts cold. A record
/// another pair's query wrote passes: its start is only a start, and the search's tests decide.
fn written_by_a_query(data: &[f64]) -> bool {
    let direction = Vector3::from_column_slice(&data[DIRECTION..DIRECTION + 3]);
    (direction.norm_squared() - 1.0).abs() <= UNIT_SLACK
        && (data[TOUCHED] == 0.0 || data[TOUCHED] == 1.0)
}

/// How many queries in a row, ending with the last one, found the pair of warm state `data`
/// touching (`warm_started`: the state is this kernel's), at most [`HISTORY`]: the contact
/// directions its slots hold for [`extrapolate`].
fn touching_streak(warm_started: bool, data: &[f64]) -> usize {
    if !warm_started || data[TOUCHED] <= 0.5 {
        0
    } else if data[BEFORE + TOUCHED] <= 0.5 {
        1
    } else {
        // Saturating: a state written before the streak was kept (0) counts two.
        (data[STREAK] as usize).clamp(2, HISTORY)
    }
}

/// The next contact direction predicted from the `count` last ones, `row[..count]` (unit,
/// newest first; `count` from 1 to [`HISTORY`], the rest unread): Newton's backward-difference
/// extrapolation `c + D1 + D2 + D3`, each difference taken while the differences fall off
/// (`|D2| < |D1|`, `|D3| < |D2|`: the motion is smooth on the scale of the steps; a noisy one
/// stops at a lower order) and none when the last change is [`EXTRAPOLATE`] or more. With `k`
/// terms the prediction's error is of the order of the direction's change between steps to the
/// power `k + 1`: a contact turning `1e-3` rad a step moves `1e-6` rad from a linear prediction
/// and `1e-12` rad from a cubic one, which is a common normal already
/// (`Bodies::start_converged`). The history is taken by value, a fixed copy (a slice's copy of
/// a varying length was a call to `memcpy` on every warm query).
#[inline]
fn extrapolate(mut row: [Vector3<f64>; HISTORY], count: usize) -> Vector3<f64> {
    let c = row[0];
    // Backward differences, row by row: `row[i]` is the current order's difference at step i.
    let mut prediction = c;
    let mut last = f64::INFINITY;
    for order in 1..count {
        for i in 0..count - order {
            let next = row[i + 1];
            row[i] -= next;
        }
        let size = row[0].norm();
        let limit = if order == 1 { EXTRAPOLATE } else { last };
        if size.is_nan() || size >= limit {
            break;
        }
        prediction += row[0];
        last = size;
    }
    if prediction == c {
        c
    } else {
        unit(prediction)
    }
}

/// `v` over its length, with one division (where `normalize` divides each component).
#[inline]
fn unit(v: Vector3<f64>) -> Vector3<f64> {
    v * (1.0 / v.norm())
}

/// The solution of `(a + shift I) s = rhs` for the symmetric 2x2 `a`, shifted (Levenberg-Marquardt)
/// so that its smallest eigenvalue is at least `1e-3` of its scale: an uphill step of a support
/// gap whose Hessian is `-a` (`rhs` itself where the solve fails).
#[inline]
fn shifted_solve(a: &Matrix2<f64>, rhs: &Vector2<f64>) -> Vector2<f64> {
    let (half_trace, disc) = symmetric_eigen_split(a);
    let smallest = half_trace - disc;
    let floor = 1e-3 * (half_trace.abs() + disc) + f64::MIN_POSITIVE;
    let shift = if smallest < floor {
        floor - smallest
    } else {
        0.0
    };
    solve2(&(a + Matrix2::identity() * shift), rhs).unwrap_or(*rhs)
}

/// The solution of the 2x2 system `a x = rhs` by Cramer's rule (a few products and one
/// division, where a general LU factorisation with pivoting costs several times that), or `None`
/// where `a` is singular or the solution is not finite.
#[inline]
fn solve2(a: &Matrix2<f64>, rhs: &Vector2<f64>) -> Option<Vector2<f64>> {
    let det = a[(0, 0)] * a[(1, 1)] - a[(0, 1)] * a[(1, 0)];
    let inverse = 1.0 / det;
    let x = Vector2::new(
        (a[(1, 1)] * rhs.x - a[(0, 1)] * rhs.y) * inverse,
        (a[(0, 0)] * rhs.y - a[(1, 0)] * rhs.x) * inverse,
    );
    (det != 0.0 && x.x.is_finite() && x.y.is_finite()).then_some(x)
}

/// The smaller eigenvalue of the symmetric 2x2 `m` ([`symmetric_eigen_split`]).
#[inline(always)]
fn smallest_eigenvalue(m: &Matrix2<f64>) -> f64 {
    let (half_trace, disc) = symmetric_eigen_split(m);
    half_trace - disc
}

/// The eigenvalues of the symmetric 2x2 `m` as `half_trace -+ disc`: `(half_trace, disc)`.
fn symmetric_eigen_split(m: &Matrix2<f64>) -> (f64, f64) {
    let half_trace = 0.5 * m.trace();
    let disc = (0.25 * (m[(0, 0)] - m[(1, 1)]).powi(2) + m[(0, 1)].powi(2)).sqrt();
    (half_trace, disc)
}

/// The common-normal contact of smooth convex `a` and `b`, B's pose given relative to A
/// ([`Pose::relative`]), with the pair's warm state; the result is in A's frame.
///
/// The first start direction is the previous step's contact direction kept in `warm` (A's body
/// frame), or, for a new pair, the centre line A -> B (the paper's initial guess, `alpha = 0` in
/// eq. (6)); concentric centres with no history start along A's x axis.
///
/// The kernel's warm data: `data[0..3]` the last contact direction (unit, A's body frame; for an
/// answer taken at its start with no iteration, that start moved by the Newton step that measured
/// its distance from the common normal: [`Solution::estimate`]), `data[3]` 1 if the pair touched
/// at the last query, else 0; `data[4..8]` the same of the query before. For a pair that touched
/// at the last query, `data[8..11]` and `data[11..14]` the directions of the two queries before
/// those, and `data[14]` how many queries in a row found it touching (at most 4; a pair apart
/// keeps its motion certificate in `data[4..15]` instead). After two touching queries in a row the
/// start is the last direction extrapolated from up to four of them (`extrapolate`; none when the
/// last change is [`EXTRAPOLATE`] or more).
pub fn common_normal<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    b: &B,
    relative: &Pose,
    warm: &mut WarmState,
) -> Result<Solution> {
    common_normal_kept(a, b, relative, warm, true)
}

/// [`common_normal`], told whether `warm` is `kept` for the pair's next query: when it is not (a
/// scratch state for a host that keeps none), nothing is written to it after the query (the
/// contact directions for the next start, the separating plane of a pair apart for the motion
/// certificate), since only a next query would read it.
#[inline(always)]
pub fn common_normal_kept<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    b: &B,
    relative: &Pose,
    warm: &mut WarmState,
    kept: bool,
) -> Result<Solution> {
    let mut warm_started = warm.claim(KERNEL);
    if warm_started && !written_by_a_query(&warm.data) {
        // Not a record this kernel wrote (a host's memory never zeroed, or overwritten): cold.
        *warm = WarmState::cold();
        warm_started = warm.claim(KERNEL);
    }
    let bodies = Bodies::posed(a, b, relative);
    let previous = Vector3::from_column_slice(&warm.data[DIRECTION..DIRECTION + 3]);
    let distance = relative.position.norm();
    // The touching queries in a row that ended with the last one (0 if it found the pair apart).
    let streak = touching_streak(warm_started, &warm.data);
    let centre_line = distance > CONCENTRIC * (a.bounding_radius() + b.bounding_radius());
    let start = if warm_started {
        let slot = |k: usize| Vector3::from_column_slice(&warm.data[k..k + 3]);
        let history = [unit(previous), slot(BEFORE), slot(EARLIER), slot(EARLIEST)];
        extrapolate(history, streak.clamp(1, HISTORY))
    } else if centre_line {
        relative.position * (1.0 / distance)
    } else {
        Vector3::x()
    };
    // A pair that touched at the last step most likely still does: the Newton derivatives at the
    // start direction are wanted anyway, so the points alone are not evaluated first.
    let history = match (warm_started, warm.data[TOUCHED] > 0.5) {
        (false, _) => History::None {
            along: if centre_line {
                relative.position
            } else {
                start
            },
        },
        (true, false) => History::Apart,
        (true, true) => History::Touching {
            continued: warm.steps % RECHECK_EVERY != 0 && warm.steps != u32::MAX,
        },
    };
    let mut solution = bodies.solve(start, history)?;
    solution.contact.warm_started = warm_started;
    if !kept {
        // A scratch state: nothing of it is read again.
        return Ok(solution);
    }
    let touching = solution.contact.touching;
    if touching {
        warm.data.copy_within(EARLIER..EARLIER + 3, EARLIEST);
        warm.data.copy_within(BEFORE..BEFORE + 3, EARLIER);
    }
    warm.data.copy_within(DIRECTION..BEFORE, BEFORE);
    warm.data[DIRECTION..DIRECTION + 3].copy_from_slice(solution.estimate.as_slice());
    warm.data[TOUCHED] = if touching { 1.0 } else { 0.0 };
    if touching {
        warm.data[STREAK] = (streak + 1).min(HISTORY) as f64;
    }
    if !touching {
        motion_certificate::record(
            &mut warm.data,
            a,
            b,
            relative,
            &bodies.rotation,
            &solution.contact,
        );
    }
    Ok(solution)
}

/// The world-frame contact of smooth shapes `a` at `pose_a` and `b` at `pose_b` when the motion
/// certificate of the pair's warm state (written by this kernel at a query that found the pair
/// apart) still proves them apart (`motion_certificate`); `None` otherwise, and for shapes this
/// kernel does not take. `warm` is not changed.
#[inline]
pub fn certified_world(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    warm: &WarmState,
) -> Option<Contact> {
    if warm.kernel != KERNEL {
        return None;
    }
    let data = &warm.data;
    match (a, b) {
        (Shape::Superellipsoid(x), Shape::Superellipsoid(y)) => {
            motion_certificate::certified_apart(x, pose_a, y, pose_b, data)
        }
        (Shape::Sphere(x), Shape::Superellipsoid(y)) => {
            motion_certificate::certified_apart(x, pose_a, y, pose_b, data)
        }
        (Shape::Superellipsoid(x), Shape::Sphere(y)) => {
            motion_certificate::certified_apart(x, pose_a, y, pose_b, data)
        }
        _ => None,
    }
}
