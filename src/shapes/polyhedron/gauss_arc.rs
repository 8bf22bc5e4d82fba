//! The arcs of a polyhedron's edges on its Gauss map, bounded by spherical caps: what a contact
//! search needs to skip, with one dot product, the edges whose outward directions all lie far from
//! a direction of interest.

use nalgebra::Vector3;

/// The smallest spherical cap holding an edge's arc on the Gauss map (the short great arc between
/// the outward unit normals of the edge's two faces: every direction along which the edge is the
/// polyhedron's farthest feature).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussArcCap {
    /// The arc's midpoint (unit, body frame).
    pub middle: Vector3<f64>,
    /// Cosine of half the arc's angle.
    pub cos_half: f64,
    /// Sine of half the arc's angle.
    pub sin_half: f64,
    /// `a x b` for the arc `a -> b` (left face's normal to right face's): the normal of the arc's
    /// plane, of length the sine of the arc's angle.
    pub plane: Vector3<f64>,
}

impl GaussArcCap {
    /// The cap of the arc between the unit normals `a` and `b` (less than `pi` apart).
    pub fn new(a: &Vector3<f64>, b: &Vector3<f64>) -> Self {
        let sum = a + b;
        let middle = sum / sum.norm();
        let cos_half = middle.dot(a).clamp(-1.0, 1.0);
        GaussArcCap {
            middle,
            cos_half,
            sin_half: (1.0 - cos_half * cos_half).max(0.0).sqrt(),
            plane: a.cross(b),
        }
    }

    /// An upper bound of `n . w` over the arc, for a unit `w` (body frame): `cos` of the angle
    /// from `w` to the cap's rim, or 1 inside the cap. Larger than the exact maximum by at most a
    /// few units in the last place plus what the arc's curvature leaves (the cap is wider than
    /// the arc), never smaller.
    #[inline]
    pub fn reach(&self, w: &Vector3<f64>) -> f64 {
        let c = self.middle.dot(w);
        if c >= self.cos_half {
            1.0
        } else {
            let s = (1.0 - c * c).max(0.0).sqrt();
            // cos(beta - half), rounded up by a relative 1e-15 so it never falls below the truth.
            (c * self.cos_half + s * self.sin_half) + 1e-15
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_bounds_the_arc_from_above_and_is_tight_at_its_ends() {
        let a = Vector3::new(1.0, 0.0, 0.0);
        let b = Vector3::new(0.0, 1.0, 0.0);
        let cap = GaussArcCap::new(&a, &b);
        let mut s = 7u64;
        for _ in 0..10_000 {
            let mut r = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
            };
            let w = Vector3::new(r(), r(), r()).normalize();
            let exact = (0..=1000)
                .map(|k| {
                    let t = k as f64 / 1000.0 * std::f64::consts::FRAC_PI_2;
                    Vector3::new(t.cos(), t.sin(), 0.0).dot(&w)
                })
                .fold(f64::MIN, f64::max);
            assert!(cap.reach(&w) >= exact - 1e-15);
        }
        // In the arc's plane the bound is the exact maximum: beyond an end, that end.
        let beyond = Vector3::new((-0.3f64).cos(), (-0.3f64).sin(), 0.0);
        assert!((cap.reach(&beyond) - 0.3f64.cos()).abs() < 1e-14);
        assert_eq!(cap.reach(&(a + b).normalize()), 1.0);
        assert_eq!(cap.reach(&a), 1.0);
        // Off the plane the cap is wider than the arc: a bound, not the maximum (0 here).
        let pole = cap.reach(&Vector3::new(0.0, 0.0, 1.0));
        assert!(pole >= 0.0 && (pole - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-14);
    }
}
