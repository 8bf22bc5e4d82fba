//! The contact-direction angles of Wellmann, Lillie & Wriggers (2008), eq. (6), about a pole.

use nalgebra::Vector3;

/// A right-handed orthonormal frame `(e1, e2, e3)` and the contact direction of eq. (6) in it:
/// `c(alpha1, alpha2) = cos a1 cos a2 e1 + sin a1 cos a2 e2 + sin a2 e3`.
///
/// The paper takes `e1` along the centre line A -> B and leaves `e2`, `e3` free; here they follow
/// from `e1` by the branch-free construction of Duff et al. (2017, "Building an orthonormal basis,
/// revisited"), so the same `e1` always gives the same angles: what lets a host that keeps only
/// the two angles in its contact history hand them back (see [`Chart::angles_of`]). The search
/// re-centres the chart on its current direction at every iterate (`e1 := c`, where the angles are
/// 0), which keeps it away from the poles `c = +-e3` of eq. (6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chart {
    /// The pole `e1`: the direction at `alpha = (0, 0)`.
    pub e1: Vector3<f64>,
    /// `e2 = dc/dalpha1` at `alpha = 0`.
    pub e2: Vector3<f64>,
    /// `e3 = dc/dalpha2` at `alpha = 0`; `e1 x e2 = e3`.
    pub e3: Vector3<f64>,
}

impl Chart {
    /// The chart with pole `e1` (a unit vector).
    #[inline]
    pub fn new(e1: Vector3<f64>) -> Self {
        let sign = 1.0f64.copysign(e1.z);
        let a = -1.0 / (sign + e1.z);
        let b = e1.x * e1.y * a;
        let e2 = Vector3::new(1.0 + sign * e1.x * e1.x * a, sign * b, -sign * e1.x);
        let e3 = Vector3::new(b, sign + e1.y * e1.y * a, -e1.y);
        Chart { e1, e2, e3 }
    }

    /// Eq. (6): the unit direction with angles `(alpha1, alpha2)`.
    #[inline]
    pub fn direction(&self, alpha1: f64, alpha2: f64) -> Vector3<f64> {
        let (s1, c1) = sin_cos(alpha1);
        let (s2, c2) = sin_cos(alpha2);
        let c = self.e1 * (c1 * c2) + self.e2 * (s1 * c2) + self.e3 * s2;
        // Exact to rounding already; one normalisation keeps |c| = 1 over many re-centred steps.
        super::unit(c)
    }

    /// The angles `(alpha1, alpha2)` of the unit direction `c`, with `alpha1` in (-pi, pi] and
    /// `alpha2` in [-pi/2, pi/2]: the inverse of [`Self::direction`].
    #[inline]
    pub fn angles_of(&self, c: &Vector3<f64>) -> (f64, f64) {
        let (x, y, z) = (c.dot(&self.e1), c.dot(&self.e2), c.dot(&self.e3));
        (y.atan2(x), z.atan2(x.hypot(y)))
    }
}

/// Below this angle [`sin_cos`] sums the Taylor series.
const SMALL_ANGLE: f64 = 1e-3;

/// `(sin x, cos x)`: for `|x| <` [`SMALL_ANGLE`], the steps of a converging Newton search, the
/// Taylor series to `x^5` and `x^4`, whose first omitted terms are below `2e-22` relative (no
/// library call); otherwise the library's.
#[inline(always)]
fn sin_cos(x: f64) -> (f64, f64) {
    if x.abs() < SMALL_ANGLE {
        let x2 = x * x;
        let sin = x - x * x2 * (1.0 / 6.0) * (1.0 - x2 * (1.0 / 20.0));
        let cos = 1.0 - x2 * 0.5 * (1.0 - x2 * (1.0 / 12.0));
        (sin, cos)
    } else {
        x.sin_cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_angles_match_the_library_to_rounding() {
        for x in [0.0, 1e-12, -3e-9, 2.5e-7, -4e-5, 7e-4, -9.99e-4, 1e-3, 0.3] {
            let (s, c) = sin_cos(x);
            assert!(
                (s - x.sin()).abs() <= 2.0 * f64::EPSILON * x.abs(),
                "sin {x}"
            );
            assert!((c - x.cos()).abs() <= f64::EPSILON, "cos {x}");
        }
    }

    #[test]
    fn frames_are_right_handed_and_angles_invert() {
        for e1 in [
            Vector3::new(0.3, -0.4, 0.866),
            Vector3::new(0.0, 0.0, -1.0),
            Vector3::new(0.0, 0.0, 1.0),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(-0.6, 0.0, -0.8),
        ] {
            let e1 = e1.normalize();
            let f = Chart::new(e1);
            assert!((f.e1.cross(&f.e2) - f.e3).norm() < 1e-15);
            assert!((f.e2.norm() - 1.0).abs() < 1e-15 && (f.e3.norm() - 1.0).abs() < 1e-15);
            assert!(f.e1.dot(&f.e2).abs() < 1e-15 && f.e2.dot(&f.e3).abs() < 1e-15);
            assert_eq!(f.direction(0.0, 0.0), e1);
            for (a1, a2) in [(0.3, -0.2), (-2.5, 1.2), (3.0, -1.5)] {
                let (b1, b2) = f.angles_of(&f.direction(a1, a2));
                assert!((a1 - b1).abs() < 1e-14 && (a2 - b2).abs() < 1e-14);
            }
        }
    }
}
