//! The potential particle's support point: the point of the surface `f = 0` (eq. (2)) farthest along
//! a direction, for bounding boxes and for the separation bound of a pair apart.
//!
//! Beyond the paper (which needs no support function): the support point `y` maximises `u . y`
//! subject to `f(y) <= 0`; its Lagrange condition is `grad f(y) = mu u` for some `mu > 0`. For a
//! fixed `mu`, `y(mu)` minimises the piecewise quadratic `f(y) + 1 - mu u . y` (Newton, exact per
//! piece); `f(y(mu))` increases with `mu`, and a safeguarded Newton iteration on
//! `sqrt(f + 1) - 1` (linear in `mu` for a sphere) finds the `mu` that puts `y(mu)` on the surface.

use super::{minimise_piecewise_quadratic, PotentialParticle, QuadraticModel};
use nalgebra::Vector3;

impl PotentialParticle {
    /// The point of the surface farthest along `direction` (body frame; any non-zero length).
    pub fn support_point(&self, direction: &Vector3<f64>) -> Vector3<f64> {
        let u = direction.normalize();
        let length = self.bounding_radius;
        let (mut lo, mut hi) = (0.0, f64::INFINITY);
        // The multiplier at a surface point `x` where one plane's bracket `delta` is active
        // (`plane_weight delta^2 + sphere_weight |x|^2 = 1`) is about the gradient's length,
        // `2 plane_weight delta + 2 sphere_weight |x|`, with `|x|` at the bounding radius; the
        // shadow sphere alone would need mu = 2 sqrt(k) / R.
        let (pw, sw) = (self.plane_weight, self.sphere_weight);
        let plane_share = 1.0 - sw * length * length;
        let mut mu = if plane_share > 0.0 {
            2.0 * (pw * plane_share).sqrt() + 2.0 * sw * length
        } else {
            2.0 * sw.sqrt()
        };
        let mut y = u * (self.big_r / self.k.sqrt()).min(length);
        for _ in 0..100 {
            let Some(min) = minimise_piecewise_quadratic(y, length, |p| {
                let m = self.model(p);
                let scale = m.gradient.norm() + mu;
                (
                    QuadraticModel {
                        value: m.value - mu * u.dot(p),
                        gradient: m.gradient - u * mu,
                        hessian: m.hessian,
                    },
                    scale,
                )
            }) else {
                break;
            };
            y = min.point;
            let raised = self.raised_potential(&y);
            let root = raised.sqrt();
            let residual = root - 1.0;
            if residual < 0.0 {
                lo = mu;
            } else {
                hi = mu;
            }
            if residual.abs() <= 1e-15 || (hi.is_finite() && hi - lo <= 1e-15 * hi) {
                break;
            }
            // d(f+1)/d mu = grad f . dy/dmu = mu u^T H^-1 u (H dy = u dmu at the minimiser).
            let slope = mu * u.dot(&min.factor.solve(&u)) / (2.0 * root.max(f64::MIN_POSITIVE));
            let mut next = mu - residual / slope;
            let inside = next.is_finite() && next > lo && next < hi;
            if !inside {
                next = if hi.is_finite() {
                    0.5 * (lo + hi)
                } else {
                    2.0 * mu
                };
            }
            let change = next - mu;
            // First-order move of the minimiser with mu: a good start for the next Newton search.
            y += min.factor.solve(&u) * change;
            mu = next;
            if change.abs() <= 1e-15 * mu {
                break;
            }
        }
        y
    }
}
