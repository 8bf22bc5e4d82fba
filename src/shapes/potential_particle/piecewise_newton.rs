//! Damped Newton minimisation of a strictly convex, C^1, piecewise quadratic function of a point in
//! 3-D: the building block of the potential particle's support point and of the SOCP solver
//! (`crate::narrow::potential_socp`). A potential (eq. (2)) is exactly quadratic wherever the same
//! planes are active, so a full Newton step from a point of the minimiser's piece lands on the
//! minimiser (up to round-off): the method ends in a finite number of steps once the active planes
//! settle.

use nalgebra::{Cholesky, Matrix3, Vector3};

/// A function's value, gradient and Hessian at one point: the exact quadratic of the piece the point
/// lies in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuadraticModel {
    /// The value.
    pub value: f64,
    /// The gradient.
    pub gradient: Vector3<f64>,
    /// The Hessian (symmetric positive definite for the functions minimised here).
    pub hessian: Matrix3<f64>,
}

/// The outcome of [`minimise_piecewise_quadratic`].
#[derive(Debug, Clone, Copy)]
pub struct Minimum {
    /// The minimiser.
    pub point: Vector3<f64>,
    /// The model at `point`.
    pub model: QuadraticModel,
    /// The Cholesky factor of `model.hessian` (for the caller's sensitivity solves).
    pub factor: Cholesky<f64, nalgebra::U3>,
    /// Newton steps taken.
    pub steps: u32,
}

/// The largest number of Newton steps (each halving of a damped step is not counted).
const MAX_STEPS: u32 = 60;

/// Minimises `eval` (strictly convex, C^1, piecewise quadratic; it returns the model at a point)
/// from `start`. `length` is the problem's length scale: steps shorter than `1e-15 * length` end the
/// search. Returns `None` only when a Hessian is not positive definite (non-finite input).
///
/// Each step is the Newton step of the current piece, halved until the value decreases (Armijo);
/// the search ends when the gradient vanishes to round-off (relative to `gradient_scale` of the
/// caller's terms, see below) or the step is below the length tolerance.
/// `gradient_scale(model)` returns the size of the gradient's separate terms at a point, so that
/// cancellation between them is measured relative to their own size.
#[inline]
pub fn minimise_piecewise_quadratic(
    start: Vector3<f64>,
    length: f64,
    mut eval: impl FnMut(&Vector3<f64>) -> (QuadraticModel, f64),
) -> Option<Minimum> {
    let mut x = start;
    let (mut model, mut scale) = eval(&x);
    let mut steps = 0;
    loop {
        let factor = Cholesky::new(model.hessian)?;
        if model.gradient.norm() <= 1e-14 * scale || steps >= MAX_STEPS {
            return Some(Minimum {
                point: x,
                model,
                factor,
                steps,
            });
        }
        steps += 1;
        let step = -factor.solve(&model.gradient);
        let slope = model.gradient.dot(&step);
        let mut t = 1.0;
        loop {
            let trial = x + step * t;
            let (trial_model, trial_scale) = eval(&trial);
            // Armijo's sufficient decrease; the last halvings accept a round-off-level rise.
            if trial_model.value <= model.value + 1e-4 * t * slope || t < 1e-6 {
                x = trial;
                model = trial_model;
                scale = trial_scale;
                break;
            }
            t *= 0.5;
        }
        if (step * t).norm() <= 1e-15 * length {
            let factor = Cholesky::new(model.hessian)?;
            return Some(Minimum {
                point: x,
                model,
                factor,
                steps,
            });
        }
    }
}
