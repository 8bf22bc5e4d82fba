//! Our solver for the second-order cone program of Boon, Houlsby & Utili (2013), eq. (6), written
//! for its structure.
//!
//! With the weights of eq. (7) and the variables of eq. (8), eq. (6) minimises `s_A + s_B` subject
//! to `sqrt(f_A + 1) <= s_A`, `sqrt(f_B + 1) <= s_B`, `s_A = s_B`, the plane slacks `p_i` standing
//! for the Macaulay brackets (eq. (5), (A.4)-(A.6)) and the equality rows tying both bodies' local
//! coordinates to one point (eq. (3), (A.3)). At the optimum each slack equals its bracket, so the
//! program is `min_x max(F_A(x), F_B(x))` over one point `x` (here: in A's body frame) with
//! `F = f + 1 = s^2` (eq. (A.6)), and its optimal value is `s_A = s_B = sqrt(F_A(x*))`.
//!
//! Beyond the text (which uses MOSEK or a primal barrier method): the program's Lagrangian is
//! `(1 - lambda) F_A(x) + lambda F_B(x)` with one multiplier `lambda` in [0, 1]. For a fixed
//! `lambda` its minimiser `x(lambda)` is that of a strictly convex piecewise quadratic (Newton,
//! exact per piece, [`minimise_piecewise_quadratic`]); the dual function's derivative
//! `h(lambda) = F_B(x(lambda)) - F_A(x(lambda))` decreases from `h(0) >= 0` to `h(1) <= 0`, and its
//! root gives the optimum (strong duality). The root is found by Newton's method on `h`
//! (`h' = -d^T H^-1 d` with `d = grad F_B - grad F_A`), safeguarded by the bracket, each new
//! `lambda` moving `x` by its first-order sensitivity `-H^-1 d dlambda` before the inner Newton
//! polish: together a Newton method on the 4x4 KKT system of (x, lambda). No slack variable or
//! barrier is needed, so a warm start uses the previous step's point and multiplier as they are
//! (no interior margin), and the optimum is met to round-off rather than to a barrier tolerance.

use crate::pose::Pose;
use crate::shapes::{minimise_piecewise_quadratic, PotentialParticle, QuadraticModel};
use nalgebra::{Matrix3, Vector3};

/// The optimum of eq. (6) for one pair, in A's body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SocpOptimum {
    /// The optimal point (A's body frame): the contact point of the text after eq. (8), mapped back
    /// by eq. (8) (the solver works in unscaled coordinates, so no rescaling is left to do).
    pub point: Vector3<f64>,
    /// `s_A = sqrt(f_A + 1)` at `point`.
    pub s_a: f64,
    /// `s_B = sqrt(f_B + 1)` at `point` (equal to `s_a` to round-off).
    pub s_b: f64,
    /// The multiplier of B's cone (A's is `1 - lambda`).
    pub lambda: f64,
    /// Gradient of `F_A = f_A + 1` at `point` (A's frame).
    pub gradient_a: Vector3<f64>,
    /// Gradient of `F_B = f_B + 1` at `point` (A's frame).
    pub gradient_b: Vector3<f64>,
    /// Newton steps taken (inner steps plus multiplier updates).
    pub iterations: u32,
}

impl SocpOptimum {
    /// The optimum record at `point` and `lambda` from both bodies' models there.
    fn at(
        point: Vector3<f64>,
        lambda: f64,
        ma: &QuadraticModel,
        mb: &QuadraticModel,
        iterations: u32,
    ) -> Self {
        SocpOptimum {
            point,
            s_a: ma.value.max(0.0).sqrt(),
            s_b: mb.value.max(0.0).sqrt(),
            lambda,
            gradient_a: ma.gradient,
            gradient_b: mb.gradient,
            iterations,
        }
    }
}

/// B's potential seen from A's frame: the pose of B relative to A, its rotation as a matrix.
pub(super) struct PlacedB<'a> {
    pub particle: &'a PotentialParticle,
    pub rotation: Matrix3<f64>,
    pub position: Vector3<f64>,
}

impl<'a> PlacedB<'a> {
    /// B placed at `relative` (B's pose in A's frame).
    pub fn new(particle: &'a PotentialParticle, relative: &Pose) -> Self {
        PlacedB {
            particle,
            rotation: relative.rotation.to_rotation_matrix().into_inner(),
            position: relative.position,
        }
    }

    /// A point of A's frame in B's body frame (eq. (3)).
    pub fn to_body(&self, x: &Vector3<f64>) -> Vector3<f64> {
        self.rotation.tr_mul(&(x - self.position))
    }

    /// A point of B's body frame in A's frame (eq. (3)).
    pub fn to_a(&self, y: &Vector3<f64>) -> Vector3<f64> {
        self.rotation * y + self.position
    }

    /// `F_B` and its derivatives at the A-frame point `x`.
    #[inline]
    pub fn model(&self, x: &Vector3<f64>) -> QuadraticModel {
        let m = self.particle.model(&self.to_body(x));
        QuadraticModel {
            value: m.value,
            gradient: self.rotation * m.gradient,
            hessian: self.rotation * m.hessian * self.rotation.transpose(),
        }
    }
}

/// The largest number of multiplier updates.
const MAX_OUTER: u32 = 100;

/// Plain Newton steps on the KKT system per attempt.
const MAX_KKT_STEPS: u32 = 12;

/// The dual-bracket method hands over to Newton's method on the KKT system once its moves are below
/// this fraction of the body size.
const HANDOVER: f64 = 1e-3;

/// Solves eq. (6) for A (at the origin of its frame) and `b`, starting from `start` (a previous
/// optimum's point and multiplier) or, cold, from the point on the centre line that splits it in the
/// ratio of the bounding radii. `None` only for non-finite input.
///
/// Newton's method on the KKT system of (x, lambda) ([`kkt_newton`]: one model evaluation and one
/// 3x3 Cholesky factorisation per step, quadratic convergence near the optimum) finishes the solve:
/// from a warm start directly, from a cold one after the safeguarded dual-bracket method
/// ([`solve_by_dual_bracket`]) has brought the point within [`HANDOVER`] of the body size. Should
/// Newton's steps not settle (the active planes switching back and forth), the dual-bracket method
/// finishes, and Newton's steps from its answer polish `F_A = F_B` to round-off.
pub(super) fn solve(
    a: &PotentialParticle,
    b: &PlacedB,
    start: Option<(Vector3<f64>, f64)>,
) -> Option<SocpOptimum> {
    let length = a.bounding_radius().min(b.particle.bounding_radius());
    let (ra, rb) = (a.bounding_radius(), b.particle.bounding_radius());
    let cold = (b.position * (ra / (ra + rb)), rb / (ra + rb));
    let mut spent = 0;
    let near = match start {
        Some(warm) => warm,
        None => {
            let rough = solve_by_dual_bracket(a, b, cold, length, HANDOVER)?;
            spent = rough.iterations;
            (rough.point, rough.lambda)
        }
    };
    let mut taken = 0;
    let restart = match kkt_newton(a, b, near, length, &mut taken) {
        Ok(mut optimum) => {
            optimum.iterations += spent;
            return Some(optimum);
        }
        Err(last) => last,
    };
    let restart = if restart.0.iter().all(|c| c.is_finite()) && (0.0..=1.0).contains(&restart.1) {
        restart
    } else {
        cold
    };
    let mut safe = solve_by_dual_bracket(a, b, restart, length, 1e-14)?;
    safe.iterations += spent + taken;
    // The bracket ends on the size of its moves; Newton's steps from there (now within their
    // quadratic range) also bring F_A = F_B to round-off, where they settle.
    let mut polish = 0;
    match kkt_newton(a, b, (safe.point, safe.lambda), length, &mut polish) {
        Ok(mut optimum) => {
            optimum.iterations += safe.iterations;
            Some(optimum)
        }
        Err(_) => Some(safe),
    }
}

/// Newton's method on the KKT system of (x, lambda) from `(x, lambda)`: the optimum, or the last
/// point when [`MAX_KKT_STEPS`] steps do not settle; `taken` counts the steps.
fn kkt_newton(
    a: &PotentialParticle,
    b: &PlacedB,
    (mut x, mut lambda): (Vector3<f64>, f64),
    length: f64,
    taken: &mut u32,
) -> Result<SocpOptimum, (Vector3<f64>, f64)> {
    for step in 0..MAX_KKT_STEPS {
        *taken = step + 1;
        let (ma, mb) = (a.model(&x), b.model(&x));
        let (wa, wb) = (1.0 - lambda, lambda);
        let stationarity = ma.gradient * wa + mb.gradient * wb;
        let h = mb.value - ma.value;
        let scale = wa * ma.gradient.norm() + wb * mb.gradient.norm();
        let optimum = SocpOptimum::at(x, lambda, &ma, &mb, step + 1);
        if stationarity.norm() <= 1e-13 * scale && h.abs() <= 1e-14 * (ma.value + mb.value) {
            return Ok(optimum);
        }
        let Some(factor) = nalgebra::Cholesky::new(ma.hessian * wa + mb.hessian * wb) else {
            break;
        };
        // [H d; d^T 0] [dx; dl] = -[r; h], d = grad F_B - grad F_A, by its Schur complement.
        let d = mb.gradient - ma.gradient;
        let (u, v) = (factor.solve(&stationarity), factor.solve(&d));
        let dl = (h - d.dot(&u)) / d.dot(&v);
        let mut dx = -u - v * dl;
        let mut next = lambda + dl;
        if !dx.norm().is_finite() || !next.is_finite() {
            break;
        }
        // Far from the optimum a full step may leave lambda's range or jump across the bodies:
        // it is shortened to go at most halfway to either end of the range and half a body size.
        let room = if dl > 0.0 { 1.0 - lambda } else { lambda };
        let shorten = (0.5 * room / dl.abs())
            .min(0.5 * length / dx.norm())
            .min(1.0);
        if shorten < 1.0 {
            dx *= shorten;
            next = lambda + dl * shorten;
        }
        // (A shortened step is no Newton step: small because lambda is near an end of its range,
        // it says nothing of convergence.)
        if shorten == 1.0 && dx.norm() <= 1e-8 * length {
            // Quadratic convergence: the point after this step is exact to round-off. F_A, F_B are
            // exact quadratics on the piece around x, so their values and gradients there follow
            // from this step's models without another evaluation.
            let moved = |m: &QuadraticModel| QuadraticModel {
                value: m.value + m.gradient.dot(&dx) + 0.5 * dx.dot(&(m.hessian * dx)),
                gradient: m.gradient + m.hessian * dx,
                hessian: m.hessian,
            };
            return Ok(SocpOptimum::at(
                x + dx,
                next,
                &moved(&ma),
                &moved(&mb),
                step + 1,
            ));
        }
        x += dx;
        lambda = next;
    }
    Err((x, lambda))
}

/// The safeguarded method: the dual derivative's root by bracketed Newton steps on `lambda`, each
/// `x(lambda)` by the exact piecewise-quadratic Newton search, until a multiplier update moves the
/// point by at most `tolerance` times the body size `length`.
fn solve_by_dual_bracket(
    a: &PotentialParticle,
    b: &PlacedB,
    (mut x, mut lambda): (Vector3<f64>, f64),
    length: f64,
    tolerance: f64,
) -> Option<SocpOptimum> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut iterations = 0;
    for _ in 0..MAX_OUTER {
        let mut last = None;
        let minimum = minimise_piecewise_quadratic(x, length, |p| {
            let (ma, mb) = (a.model(p), b.model(p));
            last = Some((ma, mb));
            let (wa, wb) = (1.0 - lambda, lambda);
            (
                QuadraticModel {
                    value: wa * ma.value + wb * mb.value,
                    gradient: ma.gradient * wa + mb.gradient * wb,
                    hessian: ma.hessian * wa + mb.hessian * wb,
                },
                wa * ma.gradient.norm() + wb * mb.gradient.norm(),
            )
        })?;
        let (ma, mb) = last?;
        iterations += minimum.steps + 1;
        x = minimum.point;
        let optimum = |lambda| SocpOptimum::at(x, lambda, &ma, &mb, iterations);
        // The dual derivative h(lambda) and its bracket.
        let h = mb.value - ma.value;
        if h.abs() <= 1e-15 * (ma.value + mb.value) {
            return Some(optimum(lambda));
        }
        if h > 0.0 {
            lo = lambda;
        } else {
            hi = lambda;
        }
        let d = mb.gradient - ma.gradient;
        let sensitivity = minimum.factor.solve(&d);
        let slope = -d.dot(&sensitivity);
        let mut next = lambda - h / slope;
        let inside = next.is_finite() && next > lo && next < hi;
        if !inside {
            next = 0.5 * (lo + hi);
        }
        let move_x = sensitivity * (lambda - next);
        if move_x.norm() <= tolerance * length || hi - lo <= 1e-16 {
            return Some(optimum(lambda));
        }
        x += move_x;
        lambda = next;
    }
    None
}
