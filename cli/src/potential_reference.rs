//! The references for potential particle pairs, sharing no code with the library's solver:
//!
//! * [`clarabel_socp`]: Boon, Houlsby & Utili's (2013) second-order cone program, eq. (6), exactly
//!   as written (two sets of scaled local coordinates of eq. (8), the weights of eq. (7), plane
//!   slacks of eq. (5), the equality rows of eq. (3)) handed to clarabel, a general primal-dual
//!   interior-point conic solver (the MOSEK-like choice of the paper);
//! * [`potential`] and [`gradient`]: eq. (2) and eq. (7) written again from the text;
//! * [`overlap_by_bisection`]: the overlap distance of Figure 3 by plain bisection along the
//!   normal, for the brute-force check of our line search.

use crate::double_double::DoubleDouble;
use clarabel::algebra::{CscMatrix, FloatT};
use clarabel::solver::{
    DefaultSettings, DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus,
    SupportedConeT::{NonnegativeConeT, SecondOrderConeT, ZeroConeT},
};
use demcontact::shapes::PotentialParticle;
use demcontact::Pose;
use nalgebra::Vector3;

/// Clarabel's answer to eq. (6) for one pair, in the world frame.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceOptimum {
    /// The optimal point (world frame), from A's scaled coordinates by eq. (8) and (3).
    pub point: Vector3<f64>,
    /// The same point from B's coordinates (equal up to clarabel's feasibility tolerance).
    pub point_from_b: Vector3<f64>,
    /// `s_A`.
    pub s_a: f64,
    /// `s_B`.
    pub s_b: f64,
    /// Interior-point iterations.
    pub iterations: u32,
}

/// Clarabel's settings for the reference: gap and feasibility tolerances of 1e-13 (its defaults
/// are 1e-8; the optimal point of eq. (6) is only as accurate as about the square root of the
/// objective's error in the directions along the contact, so the reference needs the tightest
/// tolerances that double precision lets clarabel reach).
pub fn reference_settings() -> DefaultSettings<f64> {
    DefaultSettingsBuilder::default()
        .verbose(false)
        .tol_gap_abs(1e-13)
        .tol_gap_rel(1e-13)
        .tol_feas(1e-13)
        .tol_ktratio(1e-10)
        .max_iter(100)
        .build()
        .expect("valid settings")
}

/// Clarabel's default settings, quiet: what a user of a general conic solver runs (the timings).
pub fn default_settings() -> DefaultSettings<f64> {
    DefaultSettingsBuilder::default()
        .verbose(false)
        .build()
        .expect("valid settings")
}

/// The data of eq. (6) for one pair, ready for clarabel: `(P, q, A, b, cones)`.
type Program<T> = (
    CscMatrix<T>,
    Vec<T>,
    CscMatrix<T>,
    Vec<T>,
    Vec<clarabel::solver::SupportedConeT<T>>,
);

/// An `f64` of the pair's data as `T` (exact for `f64` and [`DoubleDouble`]).
fn to_t<T: FloatT>(x: f64) -> T {
    T::from_f64(x).expect("an f64 converts")
}

/// Builds eq. (6) in the float type `T`. Variables: `[x_Ak (3), x_Bk (3), p_Ak (N_A), p_Bk (N_B),
/// s_A, s_B]`. The shapes' and poses' numbers are `f64`s taken exactly; the weights of eq. (7)
/// are computed in `T`.
fn program<T: FloatT>(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Program<T> {
    let (na, nb) = (a.normals().len(), b.normals().len());
    let n = 8 + na + nb;
    let (pa0, pb0, sa, sb) = (6, 6 + na, 6 + na + nb, 7 + na + nb);
    let (wap, was) = weights::<T>(a);
    let (wbp, wbs) = weights::<T>(b);
    let qa = pose_a.rotation.to_rotation_matrix().into_inner();
    let qb = pose_b.rotation.to_rotation_matrix().into_inner();
    let (mut rows, mut cols, mut vals) = (Vec::new(), Vec::new(), Vec::new());
    let mut push = |r: usize, c: usize, v: T| {
        rows.push(r);
        cols.push(c);
        vals.push(v);
    };
    let mut rhs = Vec::new();
    // Zero cone: w_As Q_A x_Ak - w_Bs Q_B x_Bk = x_0B - x_0A (eq. (6), rows 1-3), s_A = s_B.
    for i in 0..3 {
        for j in 0..3 {
            push(i, j, was * to_t(qa[(i, j)]));
            push(i, 3 + j, -wbs * to_t(qb[(i, j)]));
        }
        rhs.push(to_t::<T>(pose_b.position[i]) - to_t(pose_a.position[i]));
    }
    push(3, sa, T::one());
    push(3, sb, -T::one());
    rhs.push(T::zero());
    // Nonnegative cone: w_s (a x_k + b y_k + c z_k) - w_p p_k <= d for every plane of each body.
    let mut row = 4;
    for (particle, x0, p0, wp, ws) in [(a, 0, pa0, wap, was), (b, 3, pb0, wbp, wbs)] {
        for (i, (normal, d)) in particle
            .normals()
            .iter()
            .zip(particle.offsets())
            .enumerate()
        {
            for j in 0..3 {
                push(row, x0 + j, ws * to_t(normal[j]));
            }
            push(row, p0 + i, -wp);
            rhs.push(to_t(*d));
            row += 1;
        }
    }
    // Second-order cones: ||(p_k, x_k)|| <= s for each body.
    for (s, p0, np, x0) in [(sa, pa0, na, 0), (sb, pb0, nb, 3)] {
        push(row, s, -T::one());
        rhs.push(T::zero());
        row += 1;
        for i in 0..np {
            push(row, p0 + i, -T::one());
            rhs.push(T::zero());
            row += 1;
        }
        for j in 0..3 {
            push(row, x0 + j, -T::one());
            rhs.push(T::zero());
            row += 1;
        }
    }
    let big_a = CscMatrix::new_from_triplets(row, n, rows, cols, vals);
    let p = CscMatrix::zeros((n, n));
    let mut q = vec![T::zero(); n];
    q[sa] = T::one();
    q[sb] = T::one();
    let cones = vec![
        ZeroConeT(4),
        NonnegativeConeT(na + nb),
        SecondOrderConeT(1 + na + 3),
        SecondOrderConeT(1 + nb + 3),
    ];
    (p, q, big_a, rhs, cones)
}

/// The weights of eq. (7) in `T`: `(w_p, w_s) = (r / sqrt(1-k), R / sqrt(k))`.
fn weights<T: FloatT>(p: &PotentialParticle) -> (T, T) {
    let k: T = to_t(p.k());
    (
        to_t::<T>(p.r()) / (T::one() - k).sqrt(),
        to_t::<T>(p.big_r()) / k.sqrt(),
    )
}

/// A clarabel solver in the float type `T` set up for eq. (6) of the pair (setup only;
/// [`solve_reference`] runs it).
pub fn clarabel_solver<T: FloatT>(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    settings: DefaultSettings<T>,
) -> DefaultSolver<T> {
    let (p, q, big_a, rhs, cones) = program::<T>(a, pose_a, b, pose_b);
    DefaultSolver::new(&p, &q, &big_a, &rhs, &cones, settings).expect("a well-formed program")
}

/// Eq. (6) of the pair solved by clarabel at [`reference_settings`], or at its defaults when the
/// tight tolerances end in a numerical error; `None` unless clarabel reports it solved.
pub fn clarabel_socp(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Option<ReferenceOptimum> {
    [reference_settings(), default_settings()]
        .into_iter()
        .find_map(|settings| {
            let mut solver = clarabel_solver(a, pose_a, b, pose_b, settings);
            solve_reference(&mut solver, a, pose_a, b, pose_b)
        })
}

/// Clarabel's settings for the double-double reference ([`clarabel_socp_dd`]) at the duality gap
/// tolerance `gap` (absolute and relative) and the feasibility tolerance `feasibility`: the reduced
/// ("almost solved") tolerances 1e-20 (not accepted by the reference anyway), the KKT
/// regularisation and iterative refinement scaled down to the double-double unit.
pub fn dd_settings(gap: f64, feasibility: f64) -> DefaultSettings<DoubleDouble> {
    let t = DoubleDouble::from_f64;
    DefaultSettingsBuilder::default()
        .verbose(false)
        .max_iter(DD_MAX_ITER)
        .tol_gap_abs(t(gap))
        .tol_gap_rel(t(gap))
        .tol_feas(t(feasibility))
        .tol_ktratio(t(1e-20))
        .reduced_tol_gap_abs(t(1e-20))
        .reduced_tol_gap_rel(t(1e-20))
        .reduced_tol_feas(t(1e-20))
        .reduced_tol_ktratio(t(1e-16))
        .static_regularization_constant(t(DD_STATIC_REGULARIZATION))
        .dynamic_regularization_eps(t(1e-26))
        .dynamic_regularization_delta(t(2e-14))
        .iterative_refinement_reltol(t(1e-28))
        .iterative_refinement_abstol(t(1e-28))
        .iterative_refinement_max_iter(20)
        .build()
        .expect("valid settings")
}

/// The double-double reference's duality gap tolerance (absolute and relative). Clarabel's gap
/// falls below 1e-24 in double-double, but the primal residual stops falling near 1e-20 and then
/// grows again; at 1e-22 with [`DD_FEASIBILITY`] it reports solved on every pair tried (3000 of
/// 3000 random pairs; at 1e-22 and 1e-18: 73 "insufficient progress"). A gap of 1e-22 bounds the
/// point's error along the contact by about `sqrt(2e-22 / m)`, some 1e-11 of the size.
pub const DD_GAP: f64 = 1e-22;
/// The double-double reference's feasibility tolerance (clarabel's relative primal and dual
/// residuals; the `f64` reference's is 1e-13).
pub const DD_FEASIBILITY: f64 = 1e-16;
/// The gap tolerance of the one retry when clarabel does not report solved at [`DD_GAP`] (the
/// feasibility tolerance stays [`DD_FEASIBILITY`]).
pub const DD_GAP_FALLBACK: f64 = 1e-20;
/// The double-double reference's KKT static regularisation (clarabel's `f64` default is 1e-8;
/// from 1e-12 to 1e-28 the gap falls alike, only the primal residual's noise at the end differs).
pub const DD_STATIC_REGULARIZATION: f64 = 1e-16;
/// The double-double reference's iteration limit.
pub const DD_MAX_ITER: u32 = 200;

/// Eq. (6) of the pair solved by clarabel in double-double arithmetic ([`DoubleDouble`]) at
/// [`DD_GAP`] and [`DD_FEASIBILITY`], the optimum mapped back to `f64`; `Err` with clarabel's
/// status unless it reports [`SolverStatus::Solved`].
pub fn clarabel_socp_dd(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Result<ReferenceOptimum, SolverStatus> {
    clarabel_socp_solved(a, pose_a, b, pose_b, dd_settings(DD_GAP, DD_FEASIBILITY))
}

/// [`clarabel_socp_dd`] at the gap tolerance [`DD_GAP_FALLBACK`] (the retry).
pub fn clarabel_socp_dd_fallback(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Result<ReferenceOptimum, SolverStatus> {
    clarabel_socp_solved(
        a,
        pose_a,
        b,
        pose_b,
        dd_settings(DD_GAP_FALLBACK, DD_FEASIBILITY),
    )
}

/// Eq. (6) of the pair solved by clarabel in `T` at `settings`; `Err` with clarabel's status
/// unless it reports [`SolverStatus::Solved`] (not even "almost solved").
pub fn clarabel_socp_solved<T: FloatT>(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    settings: DefaultSettings<T>,
) -> Result<ReferenceOptimum, SolverStatus> {
    let mut solver = clarabel_solver(a, pose_a, b, pose_b, settings);
    solver.solve();
    match solver.solution.status {
        SolverStatus::Solved => Ok(optimum(&solver, a, pose_a, b, pose_b)),
        status => Err(status),
    }
}

/// The relative round-off of an evaluation of the objective `max(F_A, F_B)` of eq. (6) (sums of a
/// few squares of differences of numbers of the size's order: a few hundred ulps).
pub const OBJECTIVE_ROUND_OFF: f64 = 1e-13;

/// How our optimum of eq. (6) compares with clarabel's, every quantity from the reference's own
/// eq. (2) at both points.
#[derive(Debug, Clone, Copy)]
pub struct Agreement {
    /// `|s_ours - s_clarabel| / s_clarabel`, each `s = sqrt(max(f_A, f_B) + 1)` at its point.
    pub s_relative: f64,
    /// `|x_ours - x_clarabel|` over the smaller bounding radius.
    pub point_relative: f64,
    /// The objective `s^2` at clarabel's point minus at ours, relative (>= 0: ours is no worse).
    pub objective_excess: f64,
    /// Whether the points are as close as their objectives allow: `s^2 = max(F_A, F_B)` is
    /// strongly convex with modulus `m = 2 min(k/R^2)`, so every point `x` lies within
    /// `sqrt(2 (s^2(x) - s^2(x*)) / m)` of the optimum `x*`, and `s^2(x*)` is at least the lowest
    /// objective evaluated (ours, clarabel's and the better-known optimum's, when given) less
    /// [`OBJECTIVE_ROUND_OFF`] of it. The two points must lie within the sum of their two radii.
    /// Ours is not taken as `x*` itself: where the optimum sits on the kink `F_A = F_B` with steep
    /// gradients (the 1:8 prisms, rounded by `r = 0.05`), a point `1e-12` of the size off it has an
    /// objective above the optimum's by more than the round-off.
    pub within_convexity_bound: bool,
}

/// Compares our optimal world point `ours` with clarabel's `reference` for the pair; `best_known`
/// is a better-known optimal world point (double-double clarabel's), if any, used only for the
/// lowest objective in [`Agreement::within_convexity_bound`].
pub fn agreement(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    ours: &Vector3<f64>,
    reference: &ReferenceOptimum,
    best_known: Option<&Vector3<f64>>,
) -> Agreement {
    let objective = |x: &Vector3<f64>| {
        (potential(a, &pose_a.inverse_transform_point(x)) + 1.0)
            .max(potential(b, &pose_b.inverse_transform_point(x)) + 1.0)
    };
    let (ours_value, reference_value) = (objective(ours), objective(&reference.point));
    let size = a.bounding_radius().min(b.bounding_radius());
    let modulus = 2.0 * (a.k() / a.big_r().powi(2)).min(b.k() / b.big_r().powi(2));
    let distance = (ours - reference.point).norm();
    let excess = reference_value - ours_value;
    let lowest = best_known
        .map(objective)
        .into_iter()
        .fold(ours_value.min(reference_value), f64::min)
        * (1.0 - OBJECTIVE_ROUND_OFF);
    let radius = |value: f64| (2.0 * (value - lowest) / modulus).sqrt();
    Agreement {
        s_relative: (ours_value.sqrt() - reference_value.sqrt()).abs() / reference_value.sqrt(),
        point_relative: distance / size,
        objective_excess: excess / reference_value,
        within_convexity_bound: distance <= radius(ours_value) + radius(reference_value),
    }
}

/// Runs a solver from [`clarabel_solver`] and maps its answer back by eq. (8) and (3); `None`
/// unless clarabel reports it solved or almost solved.
pub fn solve_reference<T: FloatT>(
    solver: &mut DefaultSolver<T>,
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Option<ReferenceOptimum> {
    solver.solve();
    matches!(
        solver.solution.status,
        SolverStatus::Solved | SolverStatus::AlmostSolved
    )
    .then(|| optimum(solver, a, pose_a, b, pose_b))
}

/// The optimum of a solved solver mapped back by eq. (8) and (3): the body-frame points in `T`,
/// rounded to `f64` before the (`f64`) rigid motions.
fn optimum<T: FloatT>(
    solver: &DefaultSolver<T>,
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> ReferenceOptimum {
    let sol = &solver.solution;
    let (na, nb) = (a.normals().len(), b.normals().len());
    let x = &sol.x;
    let (_, was) = weights::<T>(a);
    let (_, wbs) = weights::<T>(b);
    let f = |v: T| v.to_f64().expect("a finite optimum");
    // Eq. (8): x_A = w_As x_Ak; eq. (3): the world point.
    let xa = Vector3::new(f(x[0] * was), f(x[1] * was), f(x[2] * was));
    let xb = Vector3::new(f(x[3] * wbs), f(x[4] * wbs), f(x[5] * wbs));
    ReferenceOptimum {
        point: pose_a.transform_point(&xa),
        point_from_b: pose_b.transform_point(&xb),
        s_a: f(x[6 + na + nb]),
        s_b: f(x[7 + na + nb]),
        iterations: sol.iterations,
    }
}

/// Eq. (2) at the body-frame point `x`, written from the text.
pub fn potential(p: &PotentialParticle, x: &Vector3<f64>) -> f64 {
    let (r, big_r, k) = (p.r(), p.big_r(), p.k());
    let mut planes = 0.0;
    for (n, d) in p.normals().iter().zip(p.offsets()) {
        let bracket = (n.x * x.x + n.y * x.y + n.z * x.z - d).max(0.0);
        planes += bracket * bracket / (r * r);
    }
    (1.0 - k) * (planes - 1.0) + k * (x.norm_squared() / (big_r * big_r) - 1.0)
}

/// Eq. (7) (the gradient) at the body-frame point `x`, written from the text.
pub fn gradient(p: &PotentialParticle, x: &Vector3<f64>) -> Vector3<f64> {
    let (r, big_r, k) = (p.r(), p.big_r(), p.k());
    let mut g = x * (2.0 * k / (big_r * big_r));
    for (n, d) in p.normals().iter().zip(p.offsets()) {
        let bracket = (n.x * x.x + n.y * x.y + n.z * x.z - d).max(0.0);
        g += n * (2.0 * (1.0 - k) / (r * r) * bracket);
    }
    g
}

/// The normal of section 2.4 at the world point `x`: the average of A's unit outward normal and
/// B's reversed, A to B.
pub fn normal(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    x: &Vector3<f64>,
) -> Vector3<f64> {
    let na = pose_a.transform_vector(&gradient(a, &pose_a.inverse_transform_point(x)));
    let nb = pose_b.transform_vector(&gradient(b, &pose_b.inverse_transform_point(x)));
    (na.normalize() - nb.normalize()).normalize()
}

/// The overlap distance of Figure 3 by bisection: from the world point `x` inside both bodies,
/// the distance along `n` to A's surface plus the distance along `-n` to B's, each bracketed
/// between `x` and a point beyond the body's bounding sphere and halved to the last bit.
pub fn overlap_by_bisection(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    x: &Vector3<f64>,
    n: &Vector3<f64>,
) -> f64 {
    let crossing = |p: &PotentialParticle, pose: &Pose, dir: Vector3<f64>| {
        let (mut lo, mut hi) = (0.0, 2.0 * p.bounding_radius() + (x - pose.position).norm());
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if potential(p, &pose.inverse_transform_point(&(x + dir * mid))) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    crossing(a, pose_a, *n) + crossing(b, pose_b, -n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::potential_pairs;

    /// Our optimum of eq. (6) for the pair: the world point, and the whole answer.
    fn our_optimum(
        a: &PotentialParticle,
        pa: &Pose,
        b: &PotentialParticle,
        pb: &Pose,
    ) -> (
        Vector3<f64>,
        demcontact::narrow::potential_socp::PotentialSolution,
    ) {
        let ours = demcontact::narrow::potential_socp::potential_socp(
            a,
            b,
            &pa.relative(pb),
            &mut demcontact::WarmState::cold(),
        )
        .unwrap();
        (pa.transform_point(&ours.optimum.point), ours)
    }

    #[test]
    fn clarabel_meets_the_sphere_limit_closed_form() {
        // Planes at 100 never activate: spheres of radius R / sqrt(k) = 2 and 1, centres 2.5 apart.
        let (a, b) = sphere_limit_pair();
        let pa = Pose::identity();
        let pb = Pose::new(Vector3::new(0.0, 2.5, 0.0), Default::default());
        let r = clarabel_socp(&a, &pa, &b, &pb).unwrap();
        assert!((r.point - Vector3::new(0.0, 5.0 / 3.0, 0.0)).norm() < 1e-8);
        assert!((r.s_a - 5.0 / 6.0).abs() < 1e-8);
        let n = normal(&a, &pa, &b, &pb, &r.point);
        assert!((overlap_by_bisection(&a, &pa, &b, &pb, &r.point, &n) - 0.5).abs() < 1e-8);
    }

    /// The sphere-limit pair of the closed-form test, with planes at 100 that never activate.
    fn sphere_limit_pair() -> (PotentialParticle, PotentialParticle) {
        let planes: Vec<[f64; 4]> = (0..3)
            .flat_map(|axis| {
                [1.0, -1.0].map(|s| {
                    let mut p = [0.0, 0.0, 0.0, 100.0];
                    p[axis] = s;
                    p
                })
            })
            .collect();
        (
            PotentialParticle::new(&planes, 0.1, 1.0, 0.25).unwrap(),
            PotentialParticle::new(&planes, 0.1, 0.5, 0.25).unwrap(),
        )
    }

    #[test]
    fn double_double_clarabel_meets_the_sphere_limit_closed_form() {
        // Spheres of radius R / sqrt(k) = 2 and 1, centres d apart along a tilted direction:
        // the optimum 2 d / 3 from A's centre, s = d / 3.
        let (a, b) = sphere_limit_pair();
        let direction = Vector3::new(0.3, -0.5, 0.8).normalize();
        for distance in [2.5, 3.4] {
            let pa = Pose::new(
                Vector3::new(1.0, -2.0, 0.5),
                nalgebra::UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 1.0, -0.2)),
            );
            let pb = Pose::new(
                pa.position + direction * distance,
                nalgebra::UnitQuaternion::from_scaled_axis(Vector3::new(-1.1, 0.2, 0.7)),
            );
            let r = clarabel_socp_dd(&a, &pa, &b, &pb).unwrap();
            // The gap 1e-22 bounds the point's error by sqrt(2e-22 / m), m = 2 k / R^2 = 0.5.
            let exact = pa.position + direction * (2.0 * distance / 3.0);
            assert!(
                (r.point - exact).norm() < 1e-10,
                "{:e}",
                (r.point - exact).norm()
            );
            assert!((r.point_from_b - exact).norm() < 1e-10);
            assert!((r.s_a - distance / 3.0).abs() < 1e-14, "{}", r.s_a);
            assert!((r.s_b - distance / 3.0).abs() < 1e-14, "{}", r.s_b);
        }
    }

    #[test]
    fn double_double_clarabel_equals_our_optimum_to_1e_9() {
        // The f64 reference agrees with ours only to about 1e-5 on such pairs (see the test below).
        let shapes = potential_pairs::catalogue();
        let mut rng = crate::sampling::rng(5);
        for i in 0..6 {
            let (a, b) = (
                &shapes[i % shapes.len()].particle,
                &shapes[(2 * i + 1) % shapes.len()].particle,
            );
            let (pa, pb) = potential_pairs::place(&mut rng, a, b, 0.6..1.02);
            let (point, ours) = our_optimum(a, &pa, b, &pb);
            let reference = clarabel_socp_dd(a, &pa, b, &pb).unwrap();
            let size = a.bounding_radius().min(b.bounding_radius());
            let d = (point - reference.point).norm() / size;
            assert!(d < 1e-9, "pair {i}: {d:e}");
            assert!((ours.optimum.s_a - reference.s_a).abs() < 1e-12 * reference.s_a);
        }
    }

    #[test]
    fn the_convexity_check_allows_for_our_own_distance_from_the_optimum() {
        // Pair 71 of chunk 226 of `validate`'s random potential pairs at seed 9: two 1:8 prisms
        // whose optimum lies on the kink F_A = F_B. Ours is 2.4e-13 of the size from
        // double-double clarabel's point but its objective is 2.4e-13 above the optimum's (a
        // steep kink: r = 0.05), while f64 clarabel's point, 5.3e-7 of the size away, has an
        // objective 1.3e-14 below ours. Taking ours as the optimum allowed clarabel's point only
        // 1.0e-6 of distance, and the check failed on a right answer.
        let shapes = potential_pairs::catalogue();
        let combos: Vec<(usize, usize)> = (0..shapes.len())
            .flat_map(|i| (i..shapes.len()).map(move |j| (i, j)))
            .collect();
        let (chunk, pair) = (226u64, 71usize);
        let mut rng = crate::sampling::rng(
            9 ^ (0x706f_7465 << 32) ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let mut placed = None;
        for i in 0..=pair {
            let (ia, ib) = combos[(chunk as usize * 256 + i) % combos.len()];
            placed = Some((
                ia,
                ib,
                potential_pairs::place(
                    &mut rng,
                    &shapes[ia].particle,
                    &shapes[ib].particle,
                    0.6..1.02,
                ),
            ));
        }
        let (ia, ib, (pa, pb)) = placed.unwrap();
        let (a, b) = (&shapes[ia].particle, &shapes[ib].particle);
        assert_eq!(
            (shapes[ia].name, shapes[ib].name),
            ("prism 1:8 (Test B)", "prism 1:8 (Test B)")
        );
        let (point, _) = our_optimum(a, &pa, b, &pb);
        let reference = clarabel_socp(a, &pa, b, &pb).unwrap();
        let best = clarabel_socp_dd(a, &pa, b, &pb).unwrap().point;
        let size = a.bounding_radius().min(b.bounding_radius());
        assert!((point - best).norm() < 1e-11 * size);
        for best_known in [None, Some(&best)] {
            let agreed = agreement(a, &pa, b, &pb, &point, &reference, best_known);
            assert!(agreed.point_relative > 1e-7, "{agreed:?}");
            assert!(agreed.within_convexity_bound, "{agreed:?}");
        }
    }

    #[test]
    fn our_optimum_equals_clarabels_on_random_pairs() {
        let shapes = potential_pairs::catalogue();
        let mut rng = crate::sampling::rng(11);
        for i in 0..40 {
            let (a, b) = (
                &shapes[i % shapes.len()].particle,
                &shapes[(i / shapes.len() + i) % shapes.len()].particle,
            );
            let (pa, pb) = potential_pairs::place(&mut rng, a, b, 0.8..1.05);
            let (point, _) = our_optimum(a, &pa, b, &pb);
            let reference = clarabel_socp(a, &pa, b, &pb).unwrap();
            let agreed = agreement(a, &pa, b, &pb, &point, &reference, None);
            assert!(agreed.s_relative < 1e-7, "{agreed:?}");
            assert!(agreed.objective_excess >= -1e-14, "{agreed:?}");
            assert!(agreed.within_convexity_bound, "{agreed:?}");
            assert!(agreed.point_relative < 1e-5, "{agreed:?}");
        }
    }
}
