//! Smooth, strictly convex shapes given by their point-with-normal map: what the common-normal
//! contact search of Wellmann, Lillie & Wriggers (2008) needs of a shape.

use super::superellipsoid::{JetRest, LogSupport, PointDerivatives};
use super::{Sphere, Superellipsoid, SymmetricTensor3};
use nalgebra::{Matrix3, Vector3};

/// A smooth, strictly convex body with an explicit relation between outward normals and surface
/// points (Wellmann, Lillie & Wriggers 2008, "Conclusion": the class of shapes their method
/// covers). Everything is in the body frame, lengths in the host's unit.
pub trait SmoothConvex {
    /// The surface point whose outward normal is parallel to `n` (any positive length): the
    /// support point along `n`.
    fn point_with_normal(&self, n: &Vector3<f64>) -> Vector3<f64>;
    /// The body as the log-domain support function sees it (`coarse_support::support_logs`: a
    /// certified upper bound of the support function and an approximate support point, for
    /// several bodies at once at little more than the cost of one), or `None` where that form does
    /// not apply.
    fn log_support(&self) -> Option<LogSupport>;
    /// What [`Self::point_with_normal_first`] leaves for [`Self::point_with_normal_second`].
    type JetRest: Copy;
    /// [`Self::point_with_normal`] with its Jacobian `J = dx/dn`, and what its second derivatives
    /// still need: the first derivatives alone (the curvature radii of the surface) cost less.
    fn point_with_normal_first(
        &self,
        n: &Vector3<f64>,
    ) -> (Vector3<f64>, Matrix3<f64>, Self::JetRest);
    /// The second derivatives `H_k = d^2 x_k / dn dn` at the direction that left `rest`.
    fn point_with_normal_second(&self, rest: &Self::JetRest) -> SymmetricTensor3;
    /// [`Self::point_with_normal`] with its first and second derivatives with respect to `n`.
    fn point_with_normal_derivatives(&self, n: &Vector3<f64>) -> PointDerivatives {
        let (point, jacobian, rest) = self.point_with_normal_first(n);
        PointDerivatives {
            point,
            jacobian,
            hessians: self.point_with_normal_second(&rest),
        }
    }
    /// The body as a superellipsoid, if it is one, with the identity from a superellipsoid's
    /// `JetRest` to this shape's [`Self::JetRest`]: two superellipsoids evaluate their maps and
    /// gauges side by side ([`point_with_normal_first_pair`], [`gauges_at_most_pair`]).
    #[allow(clippy::type_complexity)]
    fn as_superellipsoid(&self) -> Option<(&Superellipsoid, fn(JetRest) -> Self::JetRest)> {
        None
    }
    /// The gauge (Minkowski functional): `< 1` inside, `1` on the surface, `> 1` outside,
    /// positively homogeneous of degree 1.
    fn gauge(&self, x: &Vector3<f64>) -> f64;
    /// Whether `self.gauge(x) <= limit` (the same answer; implementors may decide it cheaper).
    fn gauge_at_most(&self, x: &Vector3<f64>, limit: f64) -> bool {
        self.gauge(x) <= limit
    }
    /// The radius of the smallest sphere about the body-frame origin holding the body.
    fn bounding_radius(&self) -> f64;
    /// The reciprocals of the semi-axes of an ellipsoid about the body-frame origin, along the
    /// body axes, that lies inside the body (inverse host length unit): with any surface point it
    /// spans a part of the body that proves points inside cheaply
    /// ([`super::apex_hull_contains`]). The default, infinite scales (no ellipsoid known), proves
    /// nothing, and the gauge decides every such test.
    fn inner_scales(&self) -> [f64; 3] {
        [f64::INFINITY; 3]
    }
    /// The radius of a ball that rolls freely inside the body (host length unit): for every point
    /// `x` of the surface, with outward unit normal `n` there, the ball of this radius about
    /// `x - rho n` lies in the body; 0 where no such radius is known. The common-normal search
    /// takes an answer whose depth is at most the two bodies' sum as the global one
    /// (`common_normal`, the tangent-ball certificate).
    fn rolling_radius(&self) -> f64;
    /// A radius, at most `cap`, of a ball tangent inside the body at its surface point `p` with
    /// outward unit normal `n` (body frame, host length unit): the ball of this radius about
    /// `p - radius n` lies in the body. At least [`Self::rolling_radius`] (capped), which is the
    /// default; a shape may certify a larger one at the given point.
    fn tangent_ball_radius(&self, p: &Vector3<f64>, n: &Vector3<f64>, cap: f64) -> f64 {
        let _ = (p, n);
        self.rolling_radius().min(cap)
    }
    /// The smallest and the largest squareness parameter of the body (Barr's `eps1`, `eps2`; 1
    /// for an ellipsoid or a sphere).
    fn squareness_range(&self) -> (f64, f64);
    /// A positive number computed from the shape's parameters, the same bit for bit for equal
    /// shapes: what a warm state records to recognise the shapes it was written for.
    fn fingerprint(&self) -> f64;
}

/// [`SmoothConvex::point_with_normal_first`] of `a` along `na` and of `b` along `nb`, as two calls
/// give them; for two superellipsoids side by side, bit for bit the same
/// ([`Superellipsoid::point_with_normal_first_pair`]).
#[allow(clippy::type_complexity)]
#[inline(always)]
pub fn point_with_normal_first_pair<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    na: &Vector3<f64>,
    b: &B,
    nb: &Vector3<f64>,
) -> (
    (Vector3<f64>, Matrix3<f64>, A::JetRest),
    (Vector3<f64>, Matrix3<f64>, B::JetRest),
) {
    match (a.as_superellipsoid(), b.as_superellipsoid()) {
        (Some((sa, rest_a)), Some((sb, rest_b))) => {
            let [(pa, ja, ra), (pb, jb, rb)] =
                Superellipsoid::point_with_normal_first_pair(sa, na, sb, nb);
            ((pa, ja, rest_a(ra)), (pb, jb, rest_b(rb)))
        }
        _ => (a.point_with_normal_first(na), b.point_with_normal_first(nb)),
    }
}

/// [`SmoothConvex::point_with_normal`] of `a` along `na` and of `b` along `nb` (each in its own
/// body frame), as two calls give them; for two superellipsoids side by side, bit for bit the same
/// ([`Superellipsoid::point_with_normal_pair`]).
#[inline(always)]
pub fn point_with_normal_pair<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    na: &Vector3<f64>,
    b: &B,
    nb: &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    match (a.as_superellipsoid(), b.as_superellipsoid()) {
        (Some((sa, _)), Some((sb, _))) => {
            let [pa, pb] = Superellipsoid::point_with_normal_pair(sa, na, sb, nb);
            (pa, pb)
        }
        _ => (a.point_with_normal(na), b.point_with_normal(nb)),
    }
}

/// Whether `a`'s gauge at `xa` and `b`'s at `xb` (each in its own body frame) are at most `limit`,
/// as two calls of [`SmoothConvex::gauge_at_most`] decide; for two superellipsoids with the
/// log-domain gauges side by side ([`Superellipsoid::gauges_at_most_pair`]).
#[inline(always)]
pub fn gauges_at_most_pair<A: SmoothConvex, B: SmoothConvex>(
    a: &A,
    xa: &Vector3<f64>,
    b: &B,
    xb: &Vector3<f64>,
    limit: f64,
) -> (bool, bool) {
    match (a.as_superellipsoid(), b.as_superellipsoid()) {
        (Some((sa, _)), Some((sb, _))) => {
            let [in_a, in_b] = Superellipsoid::gauges_at_most_pair(sa, xa, sb, xb, limit);
            (in_a, in_b)
        }
        _ => (a.gauge_at_most(xa, limit), b.gauge_at_most(xb, limit)),
    }
}

impl SmoothConvex for Superellipsoid {
    #[inline]
    fn point_with_normal(&self, n: &Vector3<f64>) -> Vector3<f64> {
        Superellipsoid::point_with_normal(self, n)
    }
    #[inline]
    fn log_support(&self) -> Option<LogSupport> {
        Superellipsoid::log_support(self)
    }
    type JetRest = JetRest;
    #[inline]
    fn point_with_normal_first(
        &self,
        n: &Vector3<f64>,
    ) -> (Vector3<f64>, Matrix3<f64>, Self::JetRest) {
        Superellipsoid::point_with_normal_first(self, n)
    }
    #[inline]
    fn point_with_normal_second(&self, rest: &Self::JetRest) -> SymmetricTensor3 {
        Superellipsoid::point_with_normal_second(self, rest)
    }
    #[inline(always)]
    fn as_superellipsoid(&self) -> Option<(&Superellipsoid, fn(JetRest) -> JetRest)> {
        Some((self, |rest| rest))
    }
    #[inline]
    fn gauge(&self, x: &Vector3<f64>) -> f64 {
        Superellipsoid::gauge(self, x)
    }
    #[inline(always)]
    fn gauge_at_most(&self, x: &Vector3<f64>, limit: f64) -> bool {
        Superellipsoid::gauge_at_most(self, x, limit)
    }
    #[inline]
    fn bounding_radius(&self) -> f64 {
        Superellipsoid::bounding_radius(self)
    }
    #[inline]
    fn inner_scales(&self) -> [f64; 3] {
        Superellipsoid::inner_scales(self)
    }
    #[inline]
    fn rolling_radius(&self) -> f64 {
        Superellipsoid::rolling_radius(self)
    }
    /// The larger of the rolling radius and the ball certified at `p`
    /// ([`Superellipsoid::tangent_ball_radius`]), at most `cap`.
    #[inline]
    fn tangent_ball_radius(&self, p: &Vector3<f64>, n: &Vector3<f64>, cap: f64) -> f64 {
        let rolling = Superellipsoid::rolling_radius(self).min(cap);
        if rolling >= cap {
            return rolling;
        }
        Superellipsoid::tangent_ball_radius(self, p, n, cap).max(rolling)
    }
    #[inline]
    fn squareness_range(&self) -> (f64, f64) {
        let (e1, e2) = (self.eps1(), self.eps2());
        (e1.min(e2), e1.max(e2))
    }
    #[inline]
    fn fingerprint(&self) -> f64 {
        // Weights of no simple ratio: different parameters rarely give the same sum.
        let r = self.radii();
        r.x + 0.754_877_666_246_692_7 * r.y
            + 0.569_840_290_998_053_2 * r.z
            + 0.430_159_709_001_946_8 * self.eps1()
            + 0.324_717_957_244_746 * self.eps2()
    }
}

impl SmoothConvex for Sphere {
    #[inline]
    fn point_with_normal(&self, n: &Vector3<f64>) -> Vector3<f64> {
        self.support_point(n)
    }

    #[inline]
    fn log_support(&self) -> Option<LogSupport> {
        Some(LogSupport::sphere(self.radius()))
    }

    /// `u = n / |n|` and `r / |n|^2` (zeros for a zero `n`).
    type JetRest = (Vector3<f64>, f64);

    /// `x = r u` with `u = n / |n|` and `J = r (I - u u^T) / |n|`.
    fn point_with_normal_first(
        &self,
        n: &Vector3<f64>,
    ) -> (Vector3<f64>, Matrix3<f64>, Self::JetRest) {
        let len = n.norm();
        let r = self.radius();
        if len == 0.0 {
            return (Vector3::zeros(), Matrix3::zeros(), (Vector3::zeros(), 0.0));
        }
        let u = n / len;
        let jacobian = (Matrix3::identity() - u * u.transpose()) * (r / len);
        (u * r, jacobian, (u, r / (len * len)))
    }

    /// `H_k[i][j] = r (3 u_i u_j u_k - (d_ki u_j + d_kj u_i + d_ij u_k)) / |n|^2`.
    fn point_with_normal_second(&self, &(u, s): &Self::JetRest) -> SymmetricTensor3 {
        let delta = |a: usize, b: usize| if a == b { 1.0 } else { 0.0 };
        SymmetricTensor3::from_fn(|k, i, j| {
            s * (3.0 * u[i] * u[j] * u[k]
                - (delta(k, i) * u[j] + delta(k, j) * u[i] + delta(i, j) * u[k]))
        })
    }

    #[inline]
    fn gauge(&self, x: &Vector3<f64>) -> f64 {
        x.norm() / self.radius()
    }

    #[inline]
    fn bounding_radius(&self) -> f64 {
        self.radius()
    }
    #[inline]
    fn inner_scales(&self) -> [f64; 3] {
        [1.0 / self.radius() * (1.0 + 1e-15); 3]
    }
    /// The sphere itself rolls inside it: its radius.
    #[inline]
    fn rolling_radius(&self) -> f64 {
        self.radius()
    }
    #[inline]
    fn squareness_range(&self) -> (f64, f64) {
        (1.0, 1.0)
    }
    #[inline]
    fn fingerprint(&self) -> f64 {
        self.radius()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_derivatives_match_the_unit_superellipsoid() {
        let s = Sphere::new(1.7).unwrap();
        let e = Superellipsoid::new(1.7, 1.7, 1.7, 1.0, 1.0).unwrap();
        for n in [
            Vector3::new(0.3, -0.5, 0.8),
            Vector3::new(-2.0, 0.1, 0.7),
            Vector3::new(0.2, 0.9, -0.01),
        ] {
            let (a, b) = (
                SmoothConvex::point_with_normal_derivatives(&s, &n),
                SmoothConvex::point_with_normal_derivatives(&e, &n),
            );
            assert!((a.point - b.point).norm() < 1e-14);
            assert!((a.jacobian - b.jacobian).norm() < 1e-13);
            let (point, jacobian, _) = SmoothConvex::point_with_normal_first(&s, &n);
            assert_eq!((point, jacobian), (a.point, a.jacobian));
            let (ha, hb) = (a.hessians.matrices(), b.hessians.matrices());
            for k in 0..3 {
                assert!((ha[k] - hb[k]).norm() < 1e-12, "k = {k}");
            }
            let x = a.point * 0.5;
            assert!((SmoothConvex::gauge(&s, &x) - SmoothConvex::gauge(&e, &x)).abs() < 1e-15);
        }
    }
}
