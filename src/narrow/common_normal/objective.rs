//! The distance function of the common-normal search and its analytic derivatives
//! (Wellmann, Lillie & Wriggers 2008, eqs. (7)-(11)).

use super::chart::Chart;
use crate::pose::Pose;
use crate::shapes::{
    point_with_normal_first_pair, point_with_normal_pair, PointDerivatives, SmoothConvex,
};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

/// Two bodies in body A's frame: A at the origin, B at `translation` turned by `rotation` (eq. (7)
/// with `T^1 = E`, `s^1 = 0`: one relative transform instead of two absolute ones).
pub struct Bodies<'a, A, B> {
    /// Body A.
    pub a: &'a A,
    /// Body B.
    pub b: &'a B,
    /// B's rotation in A's frame (B frame -> A frame).
    pub rotation: Matrix3<f64>,
    /// B's centre in A's frame.
    pub translation: Vector3<f64>,
}

/// The surface points of both bodies for one contact direction, and the distance vector.
#[derive(Debug, Clone, Copy)]
pub struct Points {
    /// The unit contact direction `c` (A's frame).
    pub c: Vector3<f64>,
    /// `p1`: A's surface point with outward normal `c` (eqs. (4), (2), (5)_1).
    pub p1: Vector3<f64>,
    /// `p2`: B's surface point with outward normal `-c` (eqs. (4), (2), (7), (5)_2).
    pub p2: Vector3<f64>,
    /// `d = p2 - p1` (eq. (8)).
    pub d: Vector3<f64>,
}

impl Points {
    /// `f = |d|^2` (eq. (9)).
    #[inline]
    pub fn f(&self) -> f64 {
        self.d.norm_squared()
    }

    /// `c . d`: the gap between the support planes of A and B normal to `c`. Positive: the tangent
    /// plane at `p1` separates the bodies, the exclusion test of eq. (12) (`n1 . d > 0` with
    /// `n1 = mu^2 c`), and the gap is a certified lower bound of their distance. Negative: minus
    /// the overlap of the bodies' extents along `c`.
    #[inline]
    pub fn support_gap(&self) -> f64 {
        self.c.dot(&self.d)
    }
}

/// The gradient and Hessian of `f` with respect to the angles of eq. (6), in the chart centred on
/// the current direction (`alpha = 0`, `e1 = c`), with what the search needs besides.
#[derive(Debug, Clone, Copy)]
pub struct Derivatives {
    /// The points at the chart's pole.
    pub points: Points,
    /// The chart whose angles the derivatives are taken in.
    pub chart: Chart,
    /// `(f_1, f_2)` of eq. (10).
    pub gradient: Vector2<f64>,
    /// `f_ij` of eq. (10).
    pub hessian: Matrix2<f64>,
    /// The Gauss-Newton part `2 d_i . d_j` of the Hessian: positive semi-definite, the
    /// Levenberg-Marquardt fallback's model.
    pub gauss_newton: Matrix2<f64>,
    /// `M_t = e_(i+1)^T M e_(j+1)`: the curvature-radius matrix of the Minkowski difference A - B
    /// on the tangent plane (`M = J_A + R J_B R^T`), positive semi-definite. The support gap
    /// `g = c . d` has gradient `(e2 . d, e3 . d)` and Hessian `-(M_t + g I)` in the chart.
    pub tangent_curvature: Matrix2<f64>,
    /// A's point-with-normal map and its derivatives at `c` (A's frame).
    pub jet_a: PointDerivatives,
    /// B's point-with-normal map and its derivatives at `-R^T c` (B's frame).
    pub jet_b: PointDerivatives,
}

/// The first half of [`Derivatives`]: the points at the pole of a chart with the first
/// derivatives of both point-with-normal maps ([`Bodies::first_order`]). They give the support gap
/// `g = c . d` its gradient `(e2 . d, e3 . d)` (the part of `d` across `c`) and Hessian
/// `-(M_t + g I)` in the chart: whether the pole is a common normal already, and how far from one
/// it lies, needs no second derivatives.
#[derive(Debug, Clone, Copy)]
pub struct FirstOrder<RA, RB> {
    /// The points at the chart's pole.
    pub points: Points,
    /// The chart whose angles the derivatives are taken in.
    pub chart: Chart,
    /// `M e2` (A's frame), `M = J_A + R J_B R^T`: minus the derivative of `d` along `e2`.
    pub m2: Vector3<f64>,
    /// `M e3` (A's frame).
    pub m3: Vector3<f64>,
    /// `M_t`, as in [`Derivatives::tangent_curvature`].
    pub tangent_curvature: Matrix2<f64>,
    /// A's `J` at `c` (A's frame).
    pub jacobian_a: Matrix3<f64>,
    /// B's point with normal `-R^T c` (B's frame).
    pub point_b: Vector3<f64>,
    /// B's `J` at `-R^T c` (B's frame).
    pub jacobian_b: Matrix3<f64>,
    /// What A's second derivatives still need.
    pub rest_a: RA,
    /// What B's second derivatives still need.
    pub rest_b: RB,
}

impl<RA, RB> FirstOrder<RA, RB> {
    /// `[m_i . m_j]`: `M_t^2`, half the Gauss-Newton matrix of [`Derivatives`] (bit for bit).
    #[inline]
    pub fn gram(&self) -> Matrix2<f64> {
        let (m2, m3) = (&self.m2, &self.m3);
        Matrix2::new(m2.dot(m2), m2.dot(m3), m2.dot(m3), m3.dot(m3))
    }

    /// The gradient of the support gap `g = c . d` in the chart's angles: `(e2 . d, e3 . d)`.
    #[inline]
    pub fn gap_gradient(&self) -> Vector2<f64> {
        Vector2::new(
            self.chart.e2.dot(&self.points.d),
            self.chart.e3.dot(&self.points.d),
        )
    }
}

/// The curvature about a direction that the trust test's fall checks read
/// (`Bodies::falls_as_curved`): `M_t` of A - B and A's own Jacobian there (B's own part of `M_t`
/// is the rest), as [`Derivatives`] and [`FirstOrder`] hold them (a converged descent's, at its
/// last iterate: within a converged step of its answer).
#[derive(Debug, Clone, Copy)]
pub struct LocalCurvature {
    /// The chart the curvature is taken in (pole: the direction).
    pub chart: Chart,
    /// `M_t`, as in [`Derivatives::tangent_curvature`].
    pub tangent_curvature: Matrix2<f64>,
    /// A's `J` (A's frame).
    pub jacobian_a: Matrix3<f64>,
}

impl From<&Derivatives> for LocalCurvature {
    #[inline]
    fn from(der: &Derivatives) -> Self {
        LocalCurvature {
            chart: der.chart,
            tangent_curvature: der.tangent_curvature,
            jacobian_a: der.jet_a.jacobian,
        }
    }
}

impl<RA, RB> From<&FirstOrder<RA, RB>> for LocalCurvature {
    #[inline]
    fn from(first: &FirstOrder<RA, RB>) -> Self {
        LocalCurvature {
            chart: first.chart,
            tangent_curvature: first.tangent_curvature,
            jacobian_a: first.jacobian_a,
        }
    }
}

/// How far the second-order Taylor expansion of a point-with-normal map is trusted
/// ([`Bodies::points_near`]): while its second-order term `s` and first-order term `f` satisfy
/// `|s|^2 <= TAYLOR_TRUST |f| rho` (`rho` the body's bounding radius), the omitted third-order
/// term, about `|s|^2 / |f|` where the series falls off geometrically, is below `1e-17 rho`:
/// beneath the rounding of an exact evaluation.
const TAYLOR_TRUST: f64 = 1e-17;

/// The change `x(n + delta) - x(n)` of a point-with-normal map from `jet` at `n`: the
/// second-order Taylor terms `J delta + H[delta, delta] / 2`, or `None` when they do not fall off
/// fast enough to trust the expansion to rounding ([`TAYLOR_TRUST`]; `rho` the body's bounding
/// radius).
#[inline]
fn taylor_change(jet: &PointDerivatives, delta: &Vector3<f64>, rho: f64) -> Option<Vector3<f64>> {
    let first = jet.jacobian * delta;
    let second = jet.hessians.contract(delta) * delta * 0.5;
    let (f, s) = (first.norm_squared(), second.norm_squared());
    (s * s <= TAYLOR_TRUST * TAYLOR_TRUST * rho * rho * f).then(|| first + second)
}

impl<'a, A, B> Bodies<'a, A, B> {
    /// `a` at the origin and `b` at `relative`, B's pose in A's body frame.
    pub fn posed(a: &'a A, b: &'a B, relative: &Pose) -> Self {
        Bodies {
            a,
            b,
            rotation: *relative.rotation.to_rotation_matrix().matrix(),
            translation: relative.position,
        }
    }
}

impl<A: SmoothConvex, B: SmoothConvex> Bodies<'_, A, B> {
    /// The points for the unit direction `c` (eqs. (4), (2), (7), (8)): two point-with-normal maps,
    /// side by side ([`point_with_normal_pair`]).
    #[inline]
    pub fn points(&self, c: Vector3<f64>) -> Points {
        let m = -(self.rotation.transpose() * c);
        let (p1, pb) = point_with_normal_pair(self.a, &c, self.b, &m);
        let p2 = self.translation + self.rotation * pb;
        Points {
            c,
            p1,
            p2,
            d: p2 - p1,
        }
    }

    /// The support point of the Minkowski difference `A - B` along `u` (A's frame, any positive
    /// length): A's point with outward normal `u` less B's with `-u`, `-d` of [`Self::points`]
    /// (`h_{A-B}(u)` along a unit `u` is the overlap of the two support planes). What GJK and the
    /// expanding polytope take.
    pub fn difference_support(&self, u: &Vector3<f64>) -> Vector3<f64> {
        -self.points(*u).d
    }

    /// The points for `c` with the gradient and Hessian of `f`, eqs. (10)-(11), analytic.
    ///
    /// Eq. (11) chains `p(phi(c(alpha)))` through the surface parameters `phi`; here the shapes give
    /// `dp/dc` and `d^2p/dc^2` directly (the same chain rule with `phi` eliminated, which stays exact
    /// where eq. (4) is indeterminate). With `J`, `H_k` the derivatives of the point-with-normal
    /// maps and `R` B's rotation:
    ///
    /// * `dd/dc = -M`, `M = J_A(c) + R J_B(-R^T c) R^T` (symmetric, `M c = 0`);
    /// * `d^2 d/dc dc . d = K`, `K = R (sum_k (R^T d)_k H_B,k) R^T - sum_k d_k H_A,k`;
    /// * at the pole of the chart `c_i = e_(i+1)`, `c_ij = -c delta_ij`, so `d_i = -M e_(i+1)` and
    ///   `d . d_ij = e_(i+1)^T K e_(j+1)` (the `M c_ij` term vanishes since `M c = 0`);
    /// * `f_i = 2 d . d_i`, `f_ij = 2 (d_i . d_j + d . d_ij)` (eq. (10)).
    pub fn derivatives(&self, c: Vector3<f64>) -> Derivatives {
        self.second_order(self.first_order(c))
    }

    /// The first half of [`Self::derivatives`]: the points for the unit direction `c` with the
    /// first derivatives of both point-with-normal maps, `M` on the chart's tangent vectors and
    /// the support gap's gradient and Hessian they give (see [`FirstOrder`]).
    pub fn first_order(&self, c: Vector3<f64>) -> FirstOrder<A::JetRest, B::JetRest> {
        let rt = self.rotation.transpose();
        let ((p1, jacobian_a, rest_a), (pb, jacobian_b, rest_b)) =
            point_with_normal_first_pair(self.a, &c, self.b, &-(rt * c));
        let p2 = self.translation + self.rotation * pb;
        let d = p2 - p1;
        let chart = Chart::new(c);
        // M applied to the chart's tangent vectors: -d_i.
        let jb_world = |v: &Vector3<f64>| self.rotation * (jacobian_b * (rt * v));
        let m2 = jacobian_a * chart.e2 + jb_world(&chart.e2);
        let m3 = jacobian_a * chart.e3 + jb_world(&chart.e3);
        let m23 = 0.5 * (chart.e2.dot(&m3) + chart.e3.dot(&m2));
        FirstOrder {
            points: Points { c, p1, p2, d },
            chart,
            m2,
            m3,
            tangent_curvature: Matrix2::new(chart.e2.dot(&m2), m23, m23, chart.e3.dot(&m3)),
            jacobian_a,
            point_b: pb,
            jacobian_b,
            rest_a,
            rest_b,
        }
    }

    /// [`Self::derivatives`] from its first half `first`: the second derivatives of both
    /// point-with-normal maps and the gradient and Hessian of `f`.
    pub fn second_order(&self, first: FirstOrder<A::JetRest, B::JetRest>) -> Derivatives {
        let FirstOrder {
            points,
            chart,
            m2,
            m3,
            tangent_curvature,
            jacobian_a,
            point_b,
            jacobian_b,
            rest_a,
            rest_b,
        } = first;
        let da = PointDerivatives {
            point: points.p1,
            jacobian: jacobian_a,
            hessians: self.a.point_with_normal_second(&rest_a),
        };
        let rt = self.rotation.transpose();
        let db = PointDerivatives {
            point: point_b,
            jacobian: jacobian_b,
            hessians: self.b.point_with_normal_second(&rest_b),
        };
        let d = points.d;
        // K restricted to the tangent plane.
        let db_local = rt * d;
        let kb = db.hessians.contract(&db_local);
        let ka = da.hessians.contract(&d);
        let (b2, b3) = (rt * chart.e2, rt * chart.e3);
        let k = |u: &Vector3<f64>, bu: &Vector3<f64>, v: &Vector3<f64>, bv: &Vector3<f64>| {
            bu.dot(&(kb * bv)) - u.dot(&(ka * v))
        };
        let gradient = Vector2::new(-2.0 * d.dot(&m2), -2.0 * d.dot(&m3));
        let gauss_newton = Matrix2::new(
            2.0 * m2.dot(&m2),
            2.0 * m2.dot(&m3),
            2.0 * m2.dot(&m3),
            2.0 * m3.dot(&m3),
        );
        let k23 = k(&chart.e2, &b2, &chart.e3, &b3);
        let curvature = Matrix2::new(
            2.0 * k(&chart.e2, &b2, &chart.e2, &b2),
            2.0 * k23,
            2.0 * k23,
            2.0 * k(&chart.e3, &b3, &chart.e3, &b3),
        );
        Derivatives {
            points,
            chart,
            gradient,
            hessian: gauss_newton + curvature,
            gauss_newton,
            tangent_curvature,
            jet_a: da,
            jet_b: db,
        }
    }

    /// The points for the unit direction `c` near the pole of `der` (a converged Newton step
    /// away) from the second-order Taylor expansions of both point-with-normal maps about it
    /// (`der`'s derivatives: no powers evaluated); `None` where an expansion is not trusted to
    /// rounding (`taylor_change`), for [`Self::points`] to evaluate exactly.
    #[inline]
    pub fn points_near(&self, der: &Derivatives, c: Vector3<f64>) -> Option<Points> {
        let delta = c - der.points.c;
        let change_a = taylor_change(&der.jet_a, &delta, self.a.bounding_radius())?;
        let delta_b = -(self.rotation.transpose() * delta);
        let change_b =
            self.rotation * taylor_change(&der.jet_b, &delta_b, self.b.bounding_radius())?;
        // The small changes are added to `d` itself, not to the points (of the bodies' size)
        // before a difference: the depth keeps the rounding of the pole's `d`.
        let p1 = der.points.p1 + change_a;
        Some(Points {
            c,
            p1,
            p2: der.points.p2 + change_b,
            d: der.points.d + (change_b - change_a),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Superellipsoid;
    use nalgebra::UnitQuaternion;

    /// f at angles `alpha` of `chart`.
    fn f_at<A: SmoothConvex, B: SmoothConvex>(
        bodies: &Bodies<A, B>,
        chart: &Chart,
        a1: f64,
        a2: f64,
    ) -> f64 {
        bodies.points(chart.direction(a1, a2)).f()
    }

    /// Two superellipsoids of unlike radii and squareness.
    fn test_shapes() -> (Superellipsoid, Superellipsoid) {
        (
            Superellipsoid::new(1.2, 0.7, 2.1, 0.6, 1.4).unwrap(),
            Superellipsoid::new(0.8, 1.9, 1.1, 1.3, 0.4).unwrap(),
        )
    }

    /// `a` and `b` in a general relative placement.
    fn test_bodies<'a>(
        a: &'a Superellipsoid,
        b: &'a Superellipsoid,
    ) -> Bodies<'a, Superellipsoid, Superellipsoid> {
        Bodies {
            a,
            b,
            rotation: *UnitQuaternion::from_scaled_axis(Vector3::new(0.4, -1.1, 0.7))
                .to_rotation_matrix()
                .matrix(),
            translation: Vector3::new(1.5, 0.9, -1.2),
        }
    }

    #[test]
    fn analytic_derivatives_match_differences_of_f() {
        let (a, b) = test_shapes();
        let bodies = test_bodies(&a, &b);
        for c in [
            Vector3::new(0.6, 0.5, -0.3),
            Vector3::new(0.2, 0.9, 0.4),
            Vector3::new(0.7, -0.2, -0.6),
        ] {
            let c = c.normalize();
            let der = bodies.derivatives(c);
            let chart = der.chart;
            assert!((der.points.f() - bodies.points(c).f()).abs() < 1e-14);
            let h = 1e-5;
            for i in 0..2 {
                let e = |s: f64| if i == 0 { (s, 0.0) } else { (0.0, s) };
                let (p, m) = (e(h), e(-h));
                let g =
                    (f_at(&bodies, &chart, p.0, p.1) - f_at(&bodies, &chart, m.0, m.1)) / (2.0 * h);
                assert!(
                    (g - der.gradient[i]).abs() < 1e-6 * (1.0 + g.abs()),
                    "f_{i}: {g} vs {}",
                    der.gradient[i]
                );
                for j in 0..2 {
                    let ej = |s: f64| if j == 0 { (s, 0.0) } else { (0.0, s) };
                    let fd = |s: f64| {
                        let (x, y) = ej(s);
                        let dp = (
                            f_at(&bodies, &chart, p.0 + x, p.1 + y),
                            f_at(&bodies, &chart, m.0 + x, m.1 + y),
                        );
                        (dp.0 - dp.1) / (2.0 * h)
                    };
                    let hij = (fd(h) - fd(-h)) / (2.0 * h);
                    assert!(
                        (hij - der.hessian[(i, j)]).abs() < 1e-4 * (1.0 + hij.abs()),
                        "f_{i}{j}: {hij} vs {}",
                        der.hessian[(i, j)]
                    );
                }
            }
        }
    }

    #[test]
    fn taylor_points_near_the_pole_match_the_exact_ones_and_let_go_far_from_it() {
        let (a, b) = test_shapes();
        let bodies = test_bodies(&a, &b);
        let c = Vector3::new(0.6, 0.5, -0.3).normalize();
        let der = bodies.derivatives(c);
        // (Whether the expansion is trusted at a step depends on the shapes' derivatives there;
        // at 1e-8 rad it is for these, at 1e-2 rad it is not.)
        for (step, trusted) in [
            (1e-8, Some(true)),
            (1e-7, None),
            (1e-6, None),
            (1e-2, Some(false)),
        ] {
            let ahead = der.chart.direction(step, -0.7 * step);
            let exact = bodies.points(ahead);
            match bodies.points_near(&der, ahead) {
                Some(near) => {
                    assert_ne!(trusted, Some(false), "step {step}: trusted");
                    for (x, y) in [(near.p1, exact.p1), (near.p2, exact.p2), (near.d, exact.d)] {
                        assert!((x - y).norm() < 1e-14, "step {step}: {x:?} vs {y:?}");
                    }
                    assert!((near.support_gap() - exact.support_gap()).abs() < 1e-14);
                }
                None => assert_ne!(trusted, Some(true), "step {step}: not trusted"),
            }
        }
    }
}
