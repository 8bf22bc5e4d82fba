//! The arcs of a polyhedron's edges on its Gauss map, with the exact largest `n . w` over an arc:
//! what a contact search needs to skip, with a few dot products, the edges whose outward
//! directions all lie far from a direction of interest.

use nalgebra::Vector3;

/// An edge's arc on the Gauss map: the short great arc from the outward unit normal of the
/// edge's left face to its right face's (every direction along which the edge is the
/// polyhedron's farthest feature), with what [`Self::max_dot`] needs precomputed. Body frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussArc {
    /// The left face's unit normal: where the arc starts.
    pub start: Vector3<f64>,
    /// The right face's unit normal: where the arc ends.
    pub end: Vector3<f64>,
    /// `start x end`: the normal of the arc's plane, of length the sine of the arc's angle.
    pub plane: Vector3<f64>,
    /// `plane`, unit (zero for a degenerate arc).
    unit_plane: Vector3<f64>,
    /// `unit_plane x start`: the arc's direction of travel at its start.
    start_tangent: Vector3<f64>,
    /// `end x unit_plane`: minus the arc's direction of travel at its end.
    end_tangent: Vector3<f64>,
}

impl GaussArc {
    /// The arc from the unit normal `start` to the unit normal `end` (less than `pi` apart).
    pub fn new(start: &Vector3<f64>, end: &Vector3<f64>) -> Self {
        let plane = start.cross(end);
        let length = plane.norm();
        let unit_plane = if length > 1e-300 {
            plane / length
        } else {
            Vector3::zeros()
        };
        GaussArc {
            start: *start,
            end: *end,
            plane,
            unit_plane,
            start_tangent: unit_plane.cross(start),
            end_tangent: end.cross(&unit_plane),
        }
    }

    /// The unit direction in the plane of the left face (`left`) or the right face that is
    /// square to the edge and points out of that face across it (the arc leaves the left face's
    /// normal along it, and reaches the right face's against it); zero for a degenerate arc.
    #[inline]
    pub fn outward_across(&self, left: bool) -> Vector3<f64> {
        if left {
            self.start_tangent
        } else {
            self.end_tangent
        }
    }

    /// The largest `n . w` over the arc's unit vectors `n` (`w` any vector, body frame): when the
    /// projection of `w` on the arc's plane points between the arc's ends, its length; otherwise
    /// the larger of the ends' dot products. Exact up to rounding (a few units in the last place
    /// of `|w|`); a degenerate arc gives `|w|`, an upper bound.
    #[inline]
    pub fn max_dot(&self, w: &Vector3<f64>) -> f64 {
        if self.projection_inside(w) {
            let across = w.dot(&self.unit_plane);
            (w.norm_squared() - across * across).max(0.0).sqrt()
        } else {
            w.dot(&self.start).max(w.dot(&self.end))
        }
    }

    /// Whether [`Self::max_dot`] exceeds `t`, without its square root.
    #[inline]
    pub fn max_dot_exceeds(&self, w: &Vector3<f64>, t: f64) -> bool {
        if self.projection_inside(w) {
            let across = w.dot(&self.unit_plane);
            t < 0.0 || w.norm_squared() - across * across > t * t
        } else {
            w.dot(&self.start) > t || w.dot(&self.end) > t
        }
    }

    /// Whether the projection of `w` on the arc's plane lies between the arc's ends: for a `w`
    /// on the arc's great circle, whether it lies on the arc.
    #[inline]
    pub fn projection_inside(&self, w: &Vector3<f64>) -> bool {
        w.dot(&self.start_tangent) >= 0.0 && w.dot(&self.end_tangent) >= 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest `n . w` over the quarter arc from x to y, sampled finely.
    fn sampled_max(w: &Vector3<f64>) -> f64 {
        (0..=4000)
            .map(|k| {
                let t = k as f64 / 4000.0 * std::f64::consts::FRAC_PI_2;
                Vector3::new(t.cos(), t.sin(), 0.0).dot(w)
            })
            .fold(f64::MIN, f64::max)
    }

    #[test]
    fn max_dot_is_the_arcs_maximum() {
        let a = Vector3::new(1.0, 0.0, 0.0);
        let b = Vector3::new(0.0, 1.0, 0.0);
        let arc = GaussArc::new(&a, &b);
        let mut s = 7u64;
        for _ in 0..10_000 {
            let mut r = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
            };
            let w = Vector3::new(r(), r(), r()).normalize();
            let sampled = sampled_max(&w);
            let exact = arc.max_dot(&w);
            // Never below the sampled maximum, and above it by no more than the sampling step.
            assert!(exact >= sampled - 1e-15, "{exact} < {sampled}");
            assert!(exact <= sampled + 1e-6, "{exact} > {sampled}");
            for t in [sampled - 1e-9, sampled + 1e-9, -0.5, 0.5] {
                assert_eq!(arc.max_dot_exceeds(&w, t), exact > t, "t {t}, w {w:?}");
            }
        }
        // Beyond an end: that end.
        let beyond = Vector3::new((-0.3f64).cos(), (-0.3f64).sin(), 0.0);
        assert!((arc.max_dot(&beyond) - 0.3f64.cos()).abs() < 1e-15);
        // Off the plane above the arc's middle: the tilt's cosine (a cap would give 1).
        let tilted = Vector3::new(0.5f64.sqrt(), 0.5f64.sqrt(), 0.0) * 0.6 + Vector3::z() * 0.8;
        assert!((arc.max_dot(&tilted) - 0.6).abs() < 1e-15);
        // The pole: 0 (a cap around the arc would give 1/sqrt 2).
        assert!(arc.max_dot(&Vector3::z()).abs() < 1e-15);
    }
}
