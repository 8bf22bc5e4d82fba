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

/// Solves eq. (6) for A (at the origin of its frame) and `b`, starting from `start` (a previous
/// optimum's point and multiplier) or, cold, from the point on the centre line that splits it in the
/// ratio of the bounding radii. `None` only for non-finite input.
pub(super) fn solve(
    a: &PotentialParticle,
    b: &PlacedB,
    start: Option<(Vector3<f64>, f64)>,
) -> Option<SocpOptimum> {
    let length = a.bounding_radius().min(b.particle.bounding_radius());
    let (mut x, mut lambda) = start.unwrap_or_else(|| {
        let (ra, rb) = (a.bounding_radius(), b.particle.bounding_radius());
        (b.position * (ra / (ra + rb)), rb / (ra + rb))
    });
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
        let optimum = |lambda| SocpOptimum {
            point: x,
            s_a: ma.value.sqrt(),
            s_b: mb.value.sqrt(),
            lambda,
            gradient_a: ma.gradient,
            gradient_b: mb.gradient,
            iterations,
        };
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
        if !(next > lo && next < hi) || !next.is_finite() {
            next = 0.5 * (lo + hi);
        }
        let move_x = sensitivity * (lambda - next);
        if move_x.norm() <= 1e-14 * length || hi - lo <= 1e-16 {
            return Some(optimum(lambda));
        }
        x += move_x;
        lambda = next;
    }
    None
}
