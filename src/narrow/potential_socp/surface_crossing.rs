//! Where a line from a point inside a potential particle leaves it: the bracketed line search of
//! Boon, Houlsby & Utili (2013), section 2.4 and Figure 3, for the overlap distance.
//!
//! Along the line, `sqrt(f + 1)` is convex (the Euclidean norm of the scaled brackets and position
//! of eq. (A.6), each a convex non-negative function of the line parameter), so Newton's method
//! started beyond the surface moves monotonically down to the crossing without overshooting: the
//! bracket `[0, t]` shrinks from the right at every step, and a sphere is met in one step.

use crate::shapes::QuadraticModel;
use nalgebra::Vector3;

/// The parameter `t > 0` where `origin + t * direction` (unit `direction`) crosses the surface
/// `F = 1` of a potential whose model `model` gives, given `F(origin) < 1` and `F(origin + beyond *
/// direction) >= 1` (`beyond`: any parameter past the surface, see
/// [`PotentialParticle::exit_bound`](crate::shapes::PotentialParticle::exit_bound)).
pub(super) fn surface_crossing(
    origin: &Vector3<f64>,
    direction: &Vector3<f64>,
    beyond: f64,
    model: impl Fn(&Vector3<f64>) -> QuadraticModel,
) -> f64 {
    let mut t = beyond;
    for _ in 0..100 {
        let m = model(&(origin + direction * t));
        let root = m.value.sqrt();
        let residual = root - 1.0;
        if residual <= 0.0 {
            return t;
        }
        let slope = m.gradient.dot(direction) / (2.0 * root);
        let step = residual / slope;
        let usable = step.is_finite() && step > 0.0;
        if !usable {
            return t;
        }
        t -= step;
        if step <= 1e-15 * t {
            return t;
        }
    }
    t
}
