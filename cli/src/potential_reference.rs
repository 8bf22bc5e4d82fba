//! The references for potential particle pairs, sharing no code with the library's solver:
//!
//! * [`clarabel_socp`]: Boon, Houlsby & Utili's (2013) second-order cone program, eq. (6), exactly
//!   as written (two sets of scaled local coordinates of eq. (8), the weights of eq. (7), plane
//!   slacks of eq. (5), the equality rows of eq. (3)) handed to clarabel, a general primal-dual
//!   interior-point conic solver (the MOSEK-like choice of the paper);
//! * [`potential`] and [`gradient`]: eq. (2) and eq. (7) written again from the text;
//! * [`overlap_by_bisection`]: the overlap distance of Figure 3 by plain bisection along the
//!   normal, for the brute-force check of our line search.

use clarabel::algebra::CscMatrix;
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
type Program = (
    CscMatrix<f64>,
    Vec<f64>,
    CscMatrix<f64>,
    Vec<f64>,
    Vec<clarabel::solver::SupportedConeT<f64>>,
);

/// Builds eq. (6). Variables: `[x_Ak (3), x_Bk (3), p_Ak (N_A), p_Bk (N_B), s_A, s_B]`.
fn program(a: &PotentialParticle, pose_a: &Pose, b: &PotentialParticle, pose_b: &Pose) -> Program {
    let (na, nb) = (a.normals().len(), b.normals().len());
    let n = 8 + na + nb;
    let (pa0, pb0, sa, sb) = (6, 6 + na, 6 + na + nb, 7 + na + nb);
    let (wap, was) = weights(a);
    let (wbp, wbs) = weights(b);
    let qa = pose_a.rotation.to_rotation_matrix().into_inner();
    let qb = pose_b.rotation.to_rotation_matrix().into_inner();
    let (mut rows, mut cols, mut vals) = (Vec::new(), Vec::new(), Vec::new());
    let mut push = |r: usize, c: usize, v: f64| {
        rows.push(r);
        cols.push(c);
        vals.push(v);
    };
    let mut rhs = Vec::new();
    // Zero cone: w_As Q_A x_Ak - w_Bs Q_B x_Bk = x_0B - x_0A (eq. (6), rows 1-3), s_A = s_B.
    let centre = pose_b.position - pose_a.position;
    for i in 0..3 {
        for j in 0..3 {
            push(i, j, was * qa[(i, j)]);
            push(i, 3 + j, -wbs * qb[(i, j)]);
        }
        rhs.push(centre[i]);
    }
    push(3, sa, 1.0);
    push(3, sb, -1.0);
    rhs.push(0.0);
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
                push(row, x0 + j, ws * normal[j]);
            }
            push(row, p0 + i, -wp);
            rhs.push(*d);
            row += 1;
        }
    }
    // Second-order cones: ||(p_k, x_k)|| <= s for each body.
    for (s, p0, np, x0) in [(sa, pa0, na, 0), (sb, pb0, nb, 3)] {
        push(row, s, -1.0);
        rhs.push(0.0);
        row += 1;
        for i in 0..np {
            push(row, p0 + i, -1.0);
            rhs.push(0.0);
            row += 1;
        }
        for j in 0..3 {
            push(row, x0 + j, -1.0);
            rhs.push(0.0);
            row += 1;
        }
    }
    let big_a = CscMatrix::new_from_triplets(row, n, rows, cols, vals);
    let p = CscMatrix::zeros((n, n));
    let mut q = vec![0.0; n];
    q[sa] = 1.0;
    q[sb] = 1.0;
    let cones = vec![
        ZeroConeT(4),
        NonnegativeConeT(na + nb),
        SecondOrderConeT(1 + na + 3),
        SecondOrderConeT(1 + nb + 3),
    ];
    (p, q, big_a, rhs, cones)
}

/// The weights of eq. (7): `(w_p, w_s) = (r / sqrt(1-k), R / sqrt(k))`.
fn weights(p: &PotentialParticle) -> (f64, f64) {
    (p.r() / (1.0 - p.k()).sqrt(), p.big_r() / p.k().sqrt())
}

/// A clarabel solver set up for eq. (6) of the pair (setup only; [`solve_reference`] runs it).
pub fn clarabel_solver(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    settings: DefaultSettings<f64>,
) -> DefaultSolver<f64> {
    let (p, q, big_a, rhs, cones) = program(a, pose_a, b, pose_b);
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
    /// Whether the points are as close as the objective allows: `s^2 = max(F_A, F_B)` is strongly
    /// convex with modulus `m = 2 min(k/R^2)`, so `|x - x*|^2 <= 2 (s^2(x) - s^2(x*)) / m`; with
    /// ours as `x*`, clarabel's point must lie within that distance, the excess counted with
    /// [`OBJECTIVE_ROUND_OFF`] of the objective added for the round-off of both evaluations.
    pub within_convexity_bound: bool,
}

/// Compares our optimal world point `ours` with clarabel's `reference` for the pair.
pub fn agreement(
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
    ours: &Vector3<f64>,
    reference: &ReferenceOptimum,
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
    Agreement {
        s_relative: (ours_value.sqrt() - reference_value.sqrt()).abs() / reference_value.sqrt(),
        point_relative: distance / size,
        objective_excess: excess / reference_value,
        within_convexity_bound: distance
            <= (2.0 * (excess.max(0.0) + OBJECTIVE_ROUND_OFF * reference_value) / modulus).sqrt(),
    }
}

/// Runs a solver from [`clarabel_solver`] and maps its answer back by eq. (8) and (3).
pub fn solve_reference(
    solver: &mut DefaultSolver<f64>,
    a: &PotentialParticle,
    pose_a: &Pose,
    b: &PotentialParticle,
    pose_b: &Pose,
) -> Option<ReferenceOptimum> {
    solver.solve();
    let sol = &solver.solution;
    if !matches!(
        sol.status,
        SolverStatus::Solved | SolverStatus::AlmostSolved
    ) {
        return None;
    }
    let (na, nb) = (a.normals().len(), b.normals().len());
    let x = &sol.x;
    let (_, was) = weights(a);
    let (_, wbs) = weights(b);
    // Eq. (8): x_A = w_As x_Ak; eq. (3): the world point.
    let xa = Vector3::new(x[0], x[1], x[2]) * was;
    let xb = Vector3::new(x[3], x[4], x[5]) * wbs;
    Some(ReferenceOptimum {
        point: pose_a.transform_point(&xa),
        point_from_b: pose_b.transform_point(&xb),
        s_a: x[6 + na + nb],
        s_b: x[7 + na + nb],
        iterations: sol.iterations,
    })
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

    #[test]
    fn clarabel_meets_the_sphere_limit_closed_form() {
        // Planes at 100 never activate: spheres of radius R / sqrt(k) = 2 and 1, centres 2.5 apart.
        let planes: Vec<[f64; 4]> = (0..3)
            .flat_map(|axis| {
                [1.0, -1.0].map(|s| {
                    let mut p = [0.0, 0.0, 0.0, 100.0];
                    p[axis] = s;
                    p
                })
            })
            .collect();
        let a = PotentialParticle::new(&planes, 0.1, 1.0, 0.25).unwrap();
        let b = PotentialParticle::new(&planes, 0.1, 0.5, 0.25).unwrap();
        let pa = Pose::identity();
        let pb = Pose::new(Vector3::new(0.0, 2.5, 0.0), Default::default());
        let r = clarabel_socp(&a, &pa, &b, &pb).unwrap();
        assert!((r.point - Vector3::new(0.0, 5.0 / 3.0, 0.0)).norm() < 1e-8);
        assert!((r.s_a - 5.0 / 6.0).abs() < 1e-8);
        let n = normal(&a, &pa, &b, &pb, &r.point);
        assert!((overlap_by_bisection(&a, &pa, &b, &pb, &r.point, &n) - 0.5).abs() < 1e-8);
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
            let ours = demcontact::narrow::potential_socp::potential_socp(
                a,
                b,
                &pa.relative(&pb),
                &mut demcontact::WarmState::cold(),
            )
            .unwrap();
            let reference = clarabel_socp(a, &pa, b, &pb).unwrap();
            let point = pa.transform_point(&ours.optimum.point);
            let agreed = agreement(a, &pa, b, &pb, &point, &reference);
            assert!(agreed.s_relative < 1e-7, "{agreed:?}");
            assert!(agreed.objective_excess >= -1e-14, "{agreed:?}");
            assert!(agreed.within_convexity_bound, "{agreed:?}");
            assert!(agreed.point_relative < 1e-5, "{agreed:?}");
        }
    }
}
