//! Barr's superellipsoid in the form used by Wellmann, Lillie & Wriggers (2008), "A contact
//! detection algorithm for superellipsoids based on the common-normal concept", Engineering
//! Computations 25(5), eqs. (1)-(4).
//!
//! # The geometry behind the fast paths
//!
//! Write `X_i = x_i / r_i` for the scaled body coordinates, `p = 2/eps1` and `q = 2/eps2`. Eq. (1)
//! then reads `F = g^q + |X_3|^q` with `g = (|X_1|^p + |X_2|^p)^(1/p)`: the body is the unit ball of
//! a *nested norm*, the q-norm of (the p-norm of the horizontal part, the vertical part), stretched
//! by `diag(r1, r2, r3)`. For `eps` in (0, 2) both `p` and `q` lie in (1, inf), so the body is smooth
//! and strictly convex, and two classical facts about p-norm balls give everything in closed form:
//!
//! * the point of the unit p-ball farthest along `m` is `sgn(m_i) (|m_i| / ||m||_p*)^(p*-1)` with
//!   the dual exponent `p* = p/(p-1) = 2/(2-eps) = 2 delta` and `p* - 1 = eps/(2-eps) = beta`;
//! * the largest Euclidean norm over a superellipse is found on a one-dimensional concave (eps < 1)
//!   or convex (eps >= 1) problem (see [`Superellipsoid::bounding_radius`]).

use crate::error::{Error, Result};
use nalgebra::{Matrix3, Vector3};

/// Barr's superellipsoid centred on the body-frame origin with its axes along the body axes
/// (Wellmann, Lillie & Wriggers 2008, eq. (1)):
///
/// `F(x) = (|x1/r1|^(2/eps1) + |x2/r2|^(2/eps1))^(eps1/eps2) + |x3/r3|^(2/eps2) <= 1`.
///
/// `r1, r2, r3` are the semi-axes; `eps1` controls the squareness in the x1-x2 plane and `eps2`
/// along x3. `eps -> 0` tends to a box, `eps = 1` is the ellipsoid, `eps -> 2` tends to an
/// octahedron. The constructor accepts the open range (0, 2), where the body is smooth and strictly
/// convex; the validation suite covers `eps` in [0.1, 1.9] (see the module tests for what is
/// delicate outside it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Superellipsoid {
    r: [f64; 3],
    eps1: f64,
    eps2: f64,
    /// `2 / eps1`: the horizontal exponent `p` of eq. (1).
    p1: f64,
    /// `2 / eps2`: the vertical exponent `q` of eq. (1).
    p2: f64,
    /// `eps1 / eps2`: the outer exponent of eq. (1).
    e1_over_e2: f64,
    /// `delta1 = 1 / (2 - eps1)` of eq. (4).
    delta1: f64,
    /// `delta2 = 1 / (2 - eps2)` of eq. (4).
    delta2: f64,
    /// `2 - eps1`: the exponent of the normal, eq. (3).
    two_minus_e1: f64,
    /// `2 - eps2`: the exponent of the normal, eq. (3).
    two_minus_e2: f64,
    /// `beta1 = eps1 / (2 - eps1)`: the exponent of the inverted normal map (horizontal).
    beta1: f64,
    /// `beta2 = eps2 / (2 - eps2)`: the exponent of the inverted normal map (vertical).
    beta2: f64,
    /// `(2 - eps1) / 2 = 1 / p1*`: the root taken by the horizontal dual norm.
    half_two_minus_e1: f64,
    /// `(2 - eps2) / 2 = 1 / p2*`: the root taken by the vertical dual norm.
    half_two_minus_e2: f64,
    /// The exact bounding radius, precomputed.
    bounding_radius: f64,
    /// `log2 r_i`: the log-domain gauge's semi-axes.
    log2_r: [f64; 3],
    /// The reciprocal semi-axes of an ellipsoid inside the body ([`Self::inner_scales`]).
    inner_scales: [f64; 3],
    /// `log2 beta_i`: the log-domain support point's Jacobian ([`LogSupport::log2_beta`]).
    log2_beta: [f64; 2],
    /// The radius of a ball that rolls freely inside the body ([`Self::rolling_radius`]).
    rolling_radius: f64,
}

/// `NonFinite` naming the parameter when `value` is NaN or infinite.
fn check_finite(name: &str, value: f64) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite(format!(
            "{name} is {value} (must be finite)"
        )))
    }
}

/// `sgn(c) |c|^e` (the signed power of eq. (2) and (3)); 0 for `c = 0`, never NaN for finite `c`
/// and `e > 0`.
#[inline]
fn signed_pow(c: f64, e: f64) -> f64 {
    let a = c.abs().powf(e);
    if c < 0.0 {
        -a
    } else {
        a
    }
}

/// `sgn(c)` with `sgn(0) = 0`, as in eq. (4).
#[inline]
fn sgn(c: f64) -> f64 {
    if c > 0.0 {
        1.0
    } else if c < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The point of the unit superellipse `|u|^(2/eps) + |v|^(2/eps) <= 1` farthest along `(a, b)`,
/// for `a, b >= 0`, together with the dual norm `||(a, b)||_(2 delta)` of the direction.
///
/// Returns `(u, v, dual_norm)`. With `t = min/max <= 1` the dual norm is `max * s^(1/(2 delta))`,
/// `s = 1 + t^(2 delta) = 1 + t * t^beta`, and the point is `(s^(1/(2 delta)) / s) * (1, t^beta)`
/// (larger component first), using `x^(-beta) = x / x^(2 delta)` with `2 delta = beta + 1`.
/// Two powers ([`fast_pow::pow`]; none for the ellipse, `beta = 1`: a square root), two
/// divisions; every intermediate lies in [0, 2], so nothing overflows or underflows harmfully.
/// `(0, 0)` gives `(0, 0, 0)`.
///
/// For `N` lanes side by side (`a[i]`, `b[i]`, `beta[i]`, `inv_dual_exp[i]`), each bit for bit what
/// one lane alone gives: every stage is written for all lanes before the next (the first power of
/// each lane, then the second of each, in program order), so that two bodies' chains of powers
/// overlap in the processor instead of one waiting for the other.
#[inline(always)]
fn superellipse_supports<const N: usize>(
    a: [f64; N],
    b: [f64; N],
    beta: [f64; N],
    inv_dual_exp: [f64; N],
) -> [(f64, f64, f64); N] {
    let lanes: [(f64, f64, bool); N] = std::array::from_fn(|i| {
        if a[i] >= b[i] {
            (a[i], b[i], false)
        } else {
            (b[i], a[i], true)
        }
    });
    // A lane of two zeros takes `t = 0` (its powers of 0 and 1 are exact) and answers
    // `(0, 0, 0)` at the end.
    let t = lanes.map(|(big, small, _)| if big == 0.0 { 0.0 } else { small / big });
    // The ellipse (eps = 1: beta = 1, root 1/2) takes no power.
    let t_beta: [f64; N] = std::array::from_fn(|i| {
        if beta[i] == 1.0 {
            t[i]
        } else {
            fast_pow::pow(t[i], beta[i])
        }
    });
    let s: [f64; N] = std::array::from_fn(|i| 1.0 + t[i] * t_beta[i]);
    let dual_rel: [f64; N] = std::array::from_fn(|i| {
        if beta[i] == 1.0 {
            s[i].sqrt()
        } else {
            fast_pow::pow(s[i], inv_dual_exp[i])
        }
    });
    std::array::from_fn(|i| {
        let (big, _, swapped) = lanes[i];
        if big == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let c = dual_rel[i] / s[i];
        let (u_big, u_small) = (c, t_beta[i] * c);
        let dual = big * dual_rel[i];
        if swapped {
            (u_small, u_big, dual)
        } else {
            (u_big, u_small, dual)
        }
    })
}

/// The largest Euclidean norm over the superellipse `|x/a|^(2/eps) + |y/b|^(2/eps) = 1`
/// (`a, b > 0`). See [`Superellipsoid::bounding_radius`] for the derivation.
fn superellipse_max_norm(a: f64, b: f64, eps: f64) -> f64 {
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if eps >= 1.0 {
        return big;
    }
    // u = |x/a|^(2/eps), v = 1 - u: maximise big^2 u^eps + small^2 v^eps (concave in u); the
    // stationary point is u/v = (big/small)^(2/(1-eps)), written with w = (small/big)^(2/(1-eps))
    // <= 1 so that it cannot overflow (w underflows to 0 as eps -> 1, the correct limit).
    let w = (small / big).powf(2.0 / (1.0 - eps));
    let u = 1.0 / (1.0 + w);
    let v = w / (1.0 + w);
    (big * big * u.powf(eps) + small * small * v.powf(eps)).sqrt()
}

/// [`Superellipsoid::rolling_radius`] of semi-axes `r` and squareness `eps1`, `eps2`.
///
/// The body is the image under `D = diag(r)` of the unit body `K1 = {g <= 1}`, with the nested
/// gauge `g = phi(psi(x1, x2), x3)`, `psi` the `a`-norm of the plane and `phi` the `b`-norm of
/// `(psi, x3)` (`a, b = 2 / eps`, both at least 2 where both `eps <= 1`). If a ball of radius
/// `rho1` rolls freely in `K1`, then `D` maps it to an ellipsoid of semi-axes `rho1 r_i` tangent
/// inside the body at the image point, and that ellipsoid holds a ball of radius
/// `rho1 r_min^2 / r_max` tangent there (Blaschke's rolling theorem for the ellipsoid): the body's
/// rolling radius is at least `rho1 r_min^2 / r_max`. For an ellipsoid `rho1 = 1` (the unit
/// sphere). For a box-like body the theorem bounds `rho1` by the largest principal curvature of
/// `K1`'s surface, at most `lambda_max(grad^2 g) / |grad g|` there:
///
/// * `grad^2 g = phi_u grad^2 psi + J^T grad^2 phi J`, `J = [grad psi^T, 0; 0, 0, 1]`. On the
///   unit `b`-sphere `grad^2 phi <= (b - 1) diag(|s_i|^(b-2)) <= (b - 1) I`, and `|J v| <= |v|`
///   since `|grad psi|_2 <= |grad psi|_(a*) = 1` (`a* = a / (a - 1) <= 2`). With `u = psi` on
///   the surface, `phi_u = u^(b-1)` and `grad^2 psi <= (a - 1) / u I` (degree -1): the first term
///   is at most `(a - 1) u^(b-2) <= a - 1`. So `lambda_max <= a + b - 2`.
/// * `|grad g|^2 = u^(2b-2) |grad psi|^2 + |x3|^(2b-2)` with `|grad psi|_2 >= 2^(1/a - 1/2)` (the
///   norms of the plane) and, by Jensen on `u^b + |x3|^b = 1`, `u^(2b-2) + |x3|^(2b-2) >=
///   2^(2/b - 1)`: `|grad g| >= 2^(1/a + 1/b - 1)`.
///
/// Hence `rho1 >= 2^(1/a + 1/b - 1) / (a + b - 2)` (1/2 for a sphere, where the exact 1 is taken
/// instead; about 0.12 at `eps = 0.5`, falling to 0 as `eps -> 0`). A pointed body (an `eps`
/// above 1) has unbounded curvature at its tips: 0.
fn rolling_radius(r: [f64; 3], eps1: f64, eps2: f64) -> f64 {
    let (shortest, longest) = (r[0].min(r[1]).min(r[2]), r[0].max(r[1]).max(r[2]));
    let ellipsoid = shortest * (shortest / longest);
    if eps1 == 1.0 && eps2 == 1.0 {
        return ellipsoid;
    }
    if eps1 > 1.0 || eps2 > 1.0 {
        return 0.0;
    }
    let (a, b) = (2.0 / eps1, 2.0 / eps2);
    let unit = (1.0 / a + 1.0 / b - 1.0).exp2() / (a + b - 2.0);
    // A rounding's worth below the bound.
    unit * ellipsoid * (1.0 - 1e-12)
}

/// The reciprocal semi-axes of an ellipsoid inside the superellipsoid with semi-axes `r` and
/// squareness `eps1`, `eps2`: `kappa / r_i`, rounded up (a smaller ellipsoid).
///
/// With `X_i = x_i / r_i` the body's gauge is the nested norm `||(||(X1, X2)||_p1, X3)||_p2`,
/// `p_i = 2/eps_i` (eq. (1)). A 2-vector's `p`-norm is at most its Euclidean norm for `p >= 2`
/// and at most `2^(1/p - 1/2)` times it for `1 <= p < 2` (Hoelder), so the gauge is at most
/// `kappa |X|` with `kappa = 2^((max(0, eps1 - 1) + max(0, eps2 - 1)) / 2)`: every `x` with
/// `|X| <= 1/kappa` is inside.
fn inner_scales(r: [f64; 3], eps1: f64, eps2: f64) -> [f64; 3] {
    let kappa = (0.5 * ((eps1 - 1.0).max(0.0) + (eps2 - 1.0).max(0.0))).exp2();
    r.map(|r| kappa / r * (1.0 + 1e-15))
}

impl Superellipsoid {
    /// A superellipsoid with semi-axes `r1, r2, r3` (host length unit; between `1e-30` and `1e30`,
    /// [`VALIDATED_LENGTHS`](crate::shapes::VALIDATED_LENGTHS)) and
    /// squareness `eps1` (x1-x2 plane) and `eps2` (x3 direction), finite and strictly inside (0, 2)
    /// (Wellmann, Lillie & Wriggers 2008, eq. (1); (0, 2) is the convex range stated there).
    ///
    /// The whole open interval is accepted; [0.1, 1.9] is the range the validation covers. Near the
    /// ends the body approaches a box (`eps -> 0`) or an octahedron (`eps -> 2`), its curvature
    /// becomes extreme at the edges or axes, and the exponents `2/eps` or `1/(2-eps)` grow without
    /// bound.
    pub fn new(r1: f64, r2: f64, r3: f64, eps1: f64, eps2: f64) -> Result<Self> {
        for (name, r) in [("r1", r1), ("r2", r2), ("r3", r3)] {
            check_finite(name, r)?;
            if r <= 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "{name} = {r}: a superellipsoid's radii must be > 0"
                )));
            }
            if !super::VALIDATED_LENGTHS.contains(&r) {
                let (shortest, longest) = super::VALIDATED_LENGTHS.into_inner();
                return Err(Error::InvalidArgument(format!(
                    "{name} = {r:e}: a superellipsoid's radii must lie between {shortest:e} and \
                     {longest:e} of the host's length unit (the range its contact kernel is \
                     validated on); express them in another unit"
                )));
            }
        }
        for (name, e) in [("eps1", eps1), ("eps2", eps2)] {
            check_finite(name, e)?;
            if !(e > 0.0 && e < 2.0) {
                return Err(Error::InvalidArgument(format!(
                    "{name} = {e}: a superellipsoid's squareness must lie in (0, 2)"
                )));
            }
        }
        let r12 = superellipse_max_norm(r1, r2, eps1);
        let bounding_radius = superellipse_max_norm(r12, r3, eps2);
        let beta = [eps1 / (2.0 - eps1), eps2 / (2.0 - eps2)];
        Ok(Superellipsoid {
            r: [r1, r2, r3],
            eps1,
            eps2,
            p1: 2.0 / eps1,
            p2: 2.0 / eps2,
            e1_over_e2: eps1 / eps2,
            delta1: 1.0 / (2.0 - eps1),
            delta2: 1.0 / (2.0 - eps2),
            two_minus_e1: 2.0 - eps1,
            two_minus_e2: 2.0 - eps2,
            beta1: beta[0],
            beta2: beta[1],
            half_two_minus_e1: 0.5 * (2.0 - eps1),
            half_two_minus_e2: 0.5 * (2.0 - eps2),
            bounding_radius,
            log2_r: [r1.log2(), r2.log2(), r3.log2()],
            inner_scales: inner_scales([r1, r2, r3], eps1, eps2),
            log2_beta: beta.map(f64::log2),
            rolling_radius: rolling_radius([r1, r2, r3], eps1, eps2),
        })
    }

    /// The semi-axes `(r1, r2, r3)` of eq. (1).
    pub fn radii(&self) -> Vector3<f64> {
        Vector3::new(self.r[0], self.r[1], self.r[2])
    }

    /// The squareness `eps1` of the x1-x2 plane (eq. (1)).
    pub fn eps1(&self) -> f64 {
        self.eps1
    }

    /// The squareness `eps2` along x3 (eq. (1)).
    pub fn eps2(&self) -> f64 {
        self.eps2
    }

    /// The inside-outside function `F(x)` of Wellmann, Lillie & Wriggers 2008, eq. (1):
    /// `< 1` inside, `= 1` on the surface, `> 1` outside (`x` in the body frame).
    ///
    /// Points on or near the axes are safe: every power has a positive exponent and `0^p = 0`, so
    /// `F` is never NaN for finite `x` (4 `powf`). Far outside (`|x_i / r_i|^(2/eps)` beyond
    /// ~1e308) it overflows to `+inf`, which still reads "outside"; use [`Self::gauge`] for a
    /// value that neither overflows nor underflows.
    pub fn inside_outside(&self, x: &Vector3<f64>) -> f64 {
        let a = (x.x / self.r[0]).abs().powf(self.p1);
        let b = (x.y / self.r[1]).abs().powf(self.p1);
        let c = (x.z / self.r[2]).abs().powf(self.p2);
        (a + b).powf(self.e1_over_e2) + c
    }

    /// The gauge (Minkowski functional) of the body: `F(x)^(eps2/2)` from Wellmann, Lillie &
    /// Wriggers 2008, eq. (1), i.e. the nested norm `||(||(X1, X2)||_(2/eps1), X3)||_(2/eps2)` of
    /// `X_i = x_i / r_i`.
    ///
    /// It is `< 1` inside, `1` on the surface, `> 1` outside, and positively homogeneous
    /// (`gauge(l x) = l gauge(x)`), so the surface point on the ray through `x` is `x / gauge(x)`.
    /// Evaluated with the larger component factored out, it neither overflows nor underflows for
    /// any finite `x`, and is exactly 0 only at the origin (4 `powf`).
    pub fn gauge(&self, x: &Vector3<f64>) -> f64 {
        let g = scaled_p_norm((x.x / self.r[0]).abs(), (x.y / self.r[1]).abs(), self.p1);
        scaled_p_norm(g, (x.z / self.r[2]).abs(), self.p2)
    }

    /// Whether [`Self::gauge`]`(x) <= limit`, decided by the log-domain gauge's logarithm (within
    /// `2.4e-9` of `log2` of the gauge, module `coarse_support`; `limit`'s within `3e-10`) unless
    /// `log2` of the gauge lies within [`LOG_DOMAIN_MARGIN`] of `log2 limit` (`x` within about
    /// `7e-8`, relative, of the level set), where the accurate gauge decides: the same answer at
    /// about a third of the latency, with no power taken back out of the log domain.
    #[inline(always)]
    pub fn gauge_at_most(&self, x: &Vector3<f64>, limit: f64) -> bool {
        let log_gauge = self
            .log_domain()
            .map(|(p, inv_p)| coarse_support::log_gauge(&self.log2_r, p, inv_p, x));
        self.gauge_at_most_by(x, limit, log_gauge)
    }

    /// [`Self::gauge_at_most`] of two bodies at once: whether `a`'s gauge at `xa` and `b`'s at
    /// `xb` (each in its own body frame) are at most `limit`, each answer the one
    /// `gauge_at_most` gives, with the two log-domain gauges evaluated side by side
    /// ([`coarse_support::log_gauges`]).
    #[inline(always)]
    pub fn gauges_at_most_pair(
        a: &Self,
        xa: &Vector3<f64>,
        b: &Self,
        xb: &Vector3<f64>,
        limit: f64,
    ) -> [bool; 2] {
        let (Some((pa, inv_pa)), Some((pb, inv_pb))) = (a.log_domain(), b.log_domain()) else {
            return [a.gauge_at_most(xa, limit), b.gauge_at_most(xb, limit)];
        };
        let [la, lb] = coarse_support::log_gauges(
            [&a.log2_r, &b.log2_r],
            [pa, pb],
            [inv_pa, inv_pb],
            [xa, xb],
        );
        [
            a.gauge_at_most_by(xa, limit, Some(la)),
            b.gauge_at_most_by(xb, limit, Some(lb)),
        ]
    }

    /// The exponents `[p1, p2]` of the gauge and their inverses, where the log-domain gauge
    /// applies (both at most [`coarse_support::Q_MAX`]).
    #[inline(always)]
    fn log_domain(&self) -> Option<([f64; 2], [f64; 2])> {
        (self.p1 <= coarse_support::Q_MAX && self.p2 <= coarse_support::Q_MAX)
            .then_some(([self.p1, self.p2], [0.5 * self.eps1, 0.5 * self.eps2]))
    }

    /// [`Self::gauge_at_most`] given the log-domain gauge's logarithm at `x` (`None` where it
    /// does not apply).
    #[inline(always)]
    fn gauge_at_most_by(&self, x: &Vector3<f64>, limit: f64, log_gauge: Option<f64>) -> bool {
        if let Some(log_gauge) = log_gauge {
            // NaN for a negative or NaN limit: no comparison holds, the accurate gauge decides.
            let log_limit = coarse_support::fast_log2(limit);
            if log_gauge <= log_limit - LOG_DOMAIN_MARGIN {
                return true;
            }
            if log_gauge >= log_limit + LOG_DOMAIN_MARGIN {
                return false;
            }
        }
        self.accurate_gauge_at_most(x, limit)
    }

    /// [`Self::gauge_at_most`] by the accurate gauge: near the level set, and for squareness
    /// within 0.031 of 2 (out of line: rarely taken).
    #[inline(never)]
    fn accurate_gauge_at_most(&self, x: &Vector3<f64>, limit: f64) -> bool {
        self.gauge(x) <= limit
    }

    /// The surface point with parameters `(phi1, phi2)` (Wellmann, Lillie & Wriggers 2008, eq. (2)):
    ///
    /// `x = ( sgn(cos phi1) r1 |cos phi1|^eps1 |cos phi2|^eps2,
    ///        sgn(sin phi1) r2 |sin phi1|^eps1 |cos phi2|^eps2,
    ///        sgn(sin phi2) r3 |sin phi2|^eps2 )`,
    /// with `-pi <= phi1 < pi`, `-pi/2 <= phi2 <= pi/2` (any real angles are accepted).
    ///
    /// Two `sin_cos`, 4 `powf`. Note that `cos(pi/2)` is not 0 in floating point (~6e-17), and
    /// `(6e-17)^eps` is ~0.024 for `eps = 0.1`: at parameters on the axes the point can lie a
    /// visible distance from the axis (on the nearly flat face, where the normal is the axis to
    /// machine precision). [`Self::point_with_normal`] does not go through angles and has no such
    /// error.
    pub fn surface_point(&self, phi1: f64, phi2: f64) -> Vector3<f64> {
        let (s1, c1) = phi1.sin_cos();
        let (s2, c2) = phi2.sin_cos();
        let c2e = c2.abs().powf(self.eps2);
        Vector3::new(
            self.r[0] * signed_pow(c1, self.eps1) * c2e,
            self.r[1] * signed_pow(s1, self.eps1) * c2e,
            self.r[2] * signed_pow(s2, self.eps2),
        )
    }

    /// The outward normal at the surface point with parameters `(phi1, phi2)`, not normalised
    /// (Wellmann, Lillie & Wriggers 2008, eq. (3)):
    ///
    /// `n = ( sgn(cos phi1) (1/r1) |cos phi1|^(2-eps1) |cos phi2|^(2-eps2),
    ///        sgn(sin phi1) (1/r2) |sin phi1|^(2-eps1) |cos phi2|^(2-eps2),
    ///        sgn(sin phi2) (1/r3) |sin phi2|^(2-eps2) )`.
    ///
    /// It is `(eps2/2) grad F` at that point. Never zero (max(|cos|, |sin|) >= 1/sqrt(2)); two
    /// `sin_cos`, 4 `powf`.
    pub fn normal_at(&self, phi1: f64, phi2: f64) -> Vector3<f64> {
        let (s1, c1) = phi1.sin_cos();
        let (s2, c2) = phi2.sin_cos();
        let c2e = c2.abs().powf(self.two_minus_e2);
        Vector3::new(
            signed_pow(c1, self.two_minus_e1) * c2e / self.r[0],
            signed_pow(s1, self.two_minus_e1) * c2e / self.r[1],
            signed_pow(s2, self.two_minus_e2) / self.r[2],
        )
    }

    /// The unit outward normal at the surface point with parameters `(phi1, phi2)`: eq. (3) of
    /// Wellmann, Lillie & Wriggers 2008 ([`Self::normal_at`]) normalised.
    pub fn unit_normal_at(&self, phi1: f64, phi2: f64) -> Vector3<f64> {
        self.normal_at(phi1, phi2).normalize()
    }

    /// The surface parameters `(phi1, phi2)` of the point whose outward normal is parallel to `n`
    /// (Wellmann, Lillie & Wriggers 2008, eq. (4)), `n` of any positive finite length:
    ///
    /// `phi1 = atan2(s2 |r2 n2|^delta1, s1 |r1 n1|^delta1)`,
    /// `phi2 = atan2(s3 |r3 n3 |cos phi1|^(2-eps1)|^delta2, |r1 n1|^delta2)` if `|r1 n1| >= |r2 n2|`,
    /// else the same with `sin phi1` and `r2 n2`; `delta_i = 1/(2-eps_i)`, `s_i = sgn(n_i)`.
    ///
    /// Differences from the paper's text, none changing the value where it is defined:
    /// * `r_i n_i` is first divided by its largest magnitude (the map is scale-free), so
    ///   `|r_i n_i|^delta` cannot overflow for large `n` or `delta` (delta = 10 at eps = 1.9), and
    ///   in `phi1` the horizontal pair is divided by its larger member, so that `u_i` below cannot
    ///   both underflow to 0 (`(1e-100)^10`) and turn `phi2` into 0/0;
    /// * `|cos phi1|` and `|sin phi1|` are taken as `u_i / hypot(u1, u2)`, `u_i = |r_i n_i|^delta1`,
    ///   which is `cos(atan2(...))` without trig round-off, exactly 0 or 1 on the axes;
    /// * the tie `|r1 n1| = |r2 n2|` takes the cos branch (the paper's strict `>` sends
    ///   `n1 = n2 = 0` to the sin branch, where both `atan2` arguments are 0 and `phi2` would come
    ///   out 0 instead of `+-pi/2`);
    /// * `phi1 = pi` (from `atan2(+0, -x)`) is mapped to `-pi`, the range of eq. (2).
    ///
    /// Axis-aligned normals therefore give exact parameters (0, `+-pi/2`, `-pi`) without NaN. A zero
    /// `n` has no normal direction; it returns `(0, 0)`. Cost: 5 `powf`, 2 `atan2`, 1 `hypot`.
    /// For points, prefer [`Self::point_with_normal`]: at parameters on the axes eq. (2)/(3)
    /// evaluate trig functions at fl(pi/2) or fl(pi) (see [`Self::surface_point`]).
    pub fn parameters_of_normal(&self, n: &Vector3<f64>) -> (f64, f64) {
        let m = Vector3::new(self.r[0] * n.x, self.r[1] * n.y, self.r[2] * n.z);
        let scale = m.amax();
        if scale == 0.0 {
            return (0.0, 0.0);
        }
        let (a1, a2, a3) = (m.x.abs() / scale, m.y.abs() / scale, m.z.abs() / scale);
        // The horizontal pair divided once more by its larger member, so that the larger u_i is
        // exactly 1 and hypot(u1, u2) >= 1: u_i = a_i^delta1 alone underflows to 0 for both
        // components when they are small and delta1 is large (1e-100^10 at eps1 = 1.9).
        let h_scale = a1.max(a2);
        let (u1, u2) = if h_scale > 0.0 {
            (
                (a1 / h_scale).powf(self.delta1),
                (a2 / h_scale).powf(self.delta1),
            )
        } else {
            (0.0, 0.0)
        };
        let mut phi1 = (sgn(m.y) * u2).atan2(sgn(m.x) * u1);
        if phi1 >= std::f64::consts::PI {
            phi1 -= 2.0 * std::f64::consts::PI;
        }
        let h = u1.hypot(u2);
        let phi2 = if a1 >= a2 {
            let cos1 = if h > 0.0 { u1 / h } else { 1.0 };
            (sgn(m.z) * (a3 * cos1.powf(self.two_minus_e1)).powf(self.delta2))
                .atan2(a1.powf(self.delta2))
        } else {
            let sin1 = u2 / h;
            (sgn(m.z) * (a3 * sin1.powf(self.two_minus_e1)).powf(self.delta2))
                .atan2(a2.powf(self.delta2))
        };
        (phi1, phi2)
    }

    /// The surface point whose outward normal is parallel to `n` (body frame; `n` of any positive
    /// finite length with `|r_i n_i|` below ~1e307).
    ///
    /// Mathematically this is eq. (4) followed by eq. (2) of Wellmann, Lillie & Wriggers 2008. The
    /// code uses a direct closed form instead, eq. (3) inverted component-wise without angles: with
    /// `m_i = r_i n_i`, `beta_i = eps_i/(2-eps_i)` and `2 delta_i = 2/(2-eps_i)`,
    ///
    /// `mu = (|m1|^(2 delta1) + |m2|^(2 delta1))^(1/(2 delta1))`,
    /// `nu = (mu^(2 delta2) + |m3|^(2 delta2))^(1/(2 delta2))`,
    /// `x1 = r1 sgn(m1) (|m1|/mu)^beta1 (mu/nu)^beta2`,
    /// `x2 = r2 sgn(m2) (|m2|/mu)^beta1 (mu/nu)^beta2`,
    /// `x3 = r3 sgn(m3) (|m3|/nu)^beta2`.
    ///
    /// (Eq. (4) gives `|cos phi1| = (|m1|/mu)^delta1`, `|sin phi1| = (|m2|/mu)^delta1`,
    /// `|cos phi2| = (mu/nu)^delta2`, `|sin phi2| = (|m3|/nu)^delta2`; put into eq. (2), with
    /// `eps_i delta_i = beta_i`, they give the formulas above. Equivalently it is the gradient of
    /// the dual nested norm.) Each of the two nested 2D steps factors out the larger component, so
    /// every intermediate lies in [0, 2]; it costs **4 `powf`, no trig**, 4 divisions, against
    /// 9 `powf`, 2 `atan2`, 2 `sin_cos` and a `hypot` for the eq. (4) -> (2) route. The module tests
    /// check the two routes agree to 1e-12 of the bounding radius (measured: ~1.2e-15). Near the axes this form is the more accurate one: an
    /// axis-aligned `n` gives the exact axis point (e.g. `(r1, 0, 0)` for `n = (1, 0, 0)`), where the
    /// angle route suffers `|cos(fl(pi/2))|^eps` (see [`Self::surface_point`]).
    ///
    /// A zero `n` returns the origin; a non-finite `n` gives a non-finite point.
    pub fn point_with_normal(&self, n: &Vector3<f64>) -> Vector3<f64> {
        let m = self.scaled(n);
        self.point_of(&m, &self.nested_support(&m))
    }

    /// [`Self::point_with_normal`] of two bodies at once: `a`'s with normal `na` and `b`'s with
    /// normal `nb` (each in its own body frame), bit for bit the same as two calls, the two chains
    /// of four powers side by side (`nested_supports`), so that the processor overlaps them.
    pub fn point_with_normal_pair(
        a: &Self,
        na: &Vector3<f64>,
        b: &Self,
        nb: &Vector3<f64>,
    ) -> [Vector3<f64>; 2] {
        let (ma, mb) = (a.scaled(na), b.scaled(nb));
        let [pa, pb] = Self::nested_supports([a, b], [&ma, &mb]);
        [a.point_of(&ma, &pa), b.point_of(&mb, &pb)]
    }

    /// An upper bound of the support function `h(n) = max over the body of n . x` (body frame, `n`
    /// of any finite length; host length unit times `|n|`), with the support point along `n` to
    /// about `1e-7` of the body's size: `(point, bound)`, `h(n) <= bound <= h(n) (1 + 2e-7)`.
    ///
    /// `h(n)` is the dual nested norm `nu` of `r_i n_i` in [`Self::point_with_normal`]. Here it is
    /// evaluated in the log domain with short polynomial `log2`/`exp2` (module `coarse_support`: a
    /// proven relative error below `9.1e-9`, raised by [`LOG_DOMAIN_MARGIN`]), at a fraction of
    /// the accurate form's latency: for separating-plane tests (Wellmann, Lillie & Wriggers 2008,
    /// eq. (12)). Squareness within 0.031 of 2 (dual exponents above 64) takes the accurate form.
    pub fn support_bound(&self, n: &Vector3<f64>) -> (Vector3<f64>, f64) {
        let (point, h) = match self.log_support() {
            Some(body) => {
                let [logs] = coarse_support::support_logs([&body], [n]);
                (logs.point(&body), logs.h())
            }
            None => {
                let m = self.scaled(n);
                let parts = self.nested_support(&m);
                (self.point_of(&m, &parts), parts.nu)
            }
        };
        (point, h * (1.0 + LOG_DOMAIN_MARGIN))
    }

    /// The body as the log-domain support function of [`Self::support_bound`] sees it; `None` for
    /// squareness within 0.031 of 2 (dual exponents above [`coarse_support::Q_MAX`]), which the
    /// accurate closed form takes.
    pub fn log_support(&self) -> Option<LogSupport> {
        let q = [2.0 * self.delta1, 2.0 * self.delta2];
        (q[0] <= coarse_support::Q_MAX && q[1] <= coarse_support::Q_MAX).then_some(LogSupport {
            r: self.r,
            q,
            inv_q: [self.half_two_minus_e1, self.half_two_minus_e2],
            log2_beta: self.log2_beta,
        })
    }

    /// `m = (r1 n1, r2 n2, r3 n3)`: the direction in the scaled coordinates of the nested norm.
    #[inline(always)]
    fn scaled(&self, n: &Vector3<f64>) -> Vector3<f64> {
        Vector3::new(self.r[0] * n.x, self.r[1] * n.y, self.r[2] * n.z)
    }

    /// The two nested superellipse supports of `|m|` (see [`Self::point_with_normal`]).
    #[inline(always)]
    fn nested_support(&self, m: &Vector3<f64>) -> NestedSupport {
        let [parts] = Self::nested_supports([self], [m]);
        parts
    }

    /// [`Self::nested_support`] of `N` bodies at once (`m[i]` scaled by `bodies[i]`), each bit
    /// for bit the same: the horizontal steps of all, then the vertical steps of all
    /// ([`superellipse_supports`]).
    #[inline(always)]
    fn nested_supports<const N: usize>(
        bodies: [&Self; N],
        m: [&Vector3<f64>; N],
    ) -> [NestedSupport; N] {
        let horizontal = superellipse_supports(
            m.map(|m| m.x.abs()),
            m.map(|m| m.y.abs()),
            bodies.map(|body| body.beta1),
            bodies.map(|body| body.half_two_minus_e1),
        );
        let vertical = superellipse_supports(
            horizontal.map(|(_, _, mu)| mu),
            m.map(|m| m.z.abs()),
            bodies.map(|body| body.beta2),
            bodies.map(|body| body.half_two_minus_e2),
        );
        std::array::from_fn(|i| {
            let ((u1, u2, mu), (g, z, nu)) = (horizontal[i], vertical[i]);
            NestedSupport {
                u1,
                u2,
                g,
                z,
                mu,
                nu,
            }
        })
    }

    /// The surface point of [`Self::nested_support`]'s `parts` of `m`.
    #[inline(always)]
    fn point_of(&self, m: &Vector3<f64>, parts: &NestedSupport) -> Vector3<f64> {
        Vector3::new(
            self.r[0] * (parts.g * parts.u1).copysign(m.x),
            self.r[1] * (parts.g * parts.u2).copysign(m.y),
            self.r[2] * parts.z.copysign(m.z),
        )
    }

    /// The point of the body farthest along `d` (body frame; any positive finite length).
    ///
    /// The body is smooth and strictly convex for `eps` in (0, 2), so the farthest point along `d`
    /// is unique and is the surface point whose outward normal is parallel to `d`: exactly
    /// [`Self::point_with_normal`] (Wellmann, Lillie & Wriggers 2008, eqs. (3)-(4)); 4 `powf`.
    pub fn support_point(&self, d: &Vector3<f64>) -> Vector3<f64> {
        self.point_with_normal(d)
    }

    /// The radius of the smallest origin-centred sphere holding the body: `max |x|` over the
    /// surface of Wellmann, Lillie & Wriggers 2008, eq. (1), exact (precomputed).
    ///
    /// Eq. (1) nests two superellipses: the horizontal part is `g (X1, X2)` with `(X1, X2)` on the
    /// unit superellipse of exponent `2/eps1`, and `(g, X3)` lies on the unit superellipse of
    /// exponent `2/eps2`. So `max |x|^2 = max (R12^2 g^2 + r3^2 X3^2)` where `R12` is the largest
    /// norm on the horizontal superellipse with semi-axes `(r1, r2)`: the answer is
    /// `rho(rho(r1, r2, eps1), r3, eps2)` with `rho(a, b, eps)` the largest norm on
    /// `|x/a|^(2/eps) + |y/b|^(2/eps) = 1`.
    ///
    /// For `rho`, substitute `u = |x/a|^(2/eps)`, `v = 1 - u`: `|x|^2 = a^2 u^eps + b^2 v^eps`.
    /// * `eps >= 1` (rounded/diamond-like): convex in `u`, so the maximum is at an end: `max(a, b)`
    ///   (the axes dominate).
    /// * `eps < 1` (box-like): strictly concave, the maximum is the stationary point
    ///   `u/v = (a/b)^(2/(1-eps))` (a "corner"); for `a = b` it is `a 2^((1-eps)/2)`, and for
    ///   `r1 = r2 = r3 = R`, `eps1 = eps2 = eps < 1` the whole formula gives `R 3^((1-eps)/2)`,
    ///   `R sqrt(3)` as `eps -> 0`.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// The radius of a ball that rolls freely inside the body (host length unit): for every point
    /// `x` of the surface, with outward unit normal `n` there, the ball of this radius about
    /// `x - rho n` lies in the body. An ellipsoid (`eps1 = eps2 = 1`) has `r_min^2 / r_max`, the
    /// smallest radius of curvature of its surface (at the ends of its longest axis), by
    /// Blaschke's rolling theorem (the largest principal curvature of a smooth convex surface,
    /// here `r_max / r_min^2`, bounds the radius of the ball that rolls inside it). A box-like
    /// body (both `eps <= 1`) has at least `2^(1/a + 1/b - 1) / (a + b - 2) r_min^2 / r_max`
    /// with `a = 2 / eps1`, `b = 2 / eps2`, from a bound of its curvature (proof at the
    /// module's `rolling_radius`; a lower bound, not the exact radius). A pointed body (an `eps`
    /// above 1) has unbounded curvature at its tips: 0.
    pub fn rolling_radius(&self) -> f64 {
        self.rolling_radius
    }

    /// The reciprocals of the semi-axes of an ellipsoid about the body-frame origin, along the
    /// body axes, that lies inside the body (inverse host length unit): `kappa / r_i`,
    /// `kappa = 1` for `eps1, eps2 <= 1`, up to `2` as both approach 2 (see `inner_scales` in
    /// this module for the bound).
    pub fn inner_scales(&self) -> [f64; 3] {
        self.inner_scales
    }

    /// The support function `h(n) = max_x n . x` over the body (body frame; `n` of any finite
    /// length, `h` scaling with it; host length unit times `|n|`): the dual nested norm of
    /// `r_i n_i` of [`Self::point_with_normal`], to rounding, without the point.
    pub fn support_value(&self, n: &Vector3<f64>) -> f64 {
        self.nested_support(&self.scaled(n)).nu
    }

    /// The tight world-frame axis-aligned box `(lo, hi)` of the body at `pose`: the body is
    /// symmetric about its centre (the body-frame origin), so it reaches `h(R^T e_i)` both ways
    /// along world axis `e_i` (`R` the pose's rotation; three support values, no point).
    pub fn aabb(&self, pose: &crate::pose::Pose) -> (Vector3<f64>, Vector3<f64>) {
        let rotation = pose.rotation.to_rotation_matrix().into_inner();
        let half = Vector3::from_fn(|i, _| self.support_value(&rotation.row(i).transpose()));
        (pose.position - half, pose.position + half)
    }

    /// Half the extents of the tight body-frame axis-aligned box: exactly `(r1, r2, r3)`, the
    /// extremes of eq. (2) of Wellmann, Lillie & Wriggers 2008 along each body axis.
    pub fn aabb_half_extents(&self) -> Vector3<f64> {
        self.radii()
    }
}

/// The pieces of the closed form of [`Superellipsoid::point_with_normal`] for `m = r n`: the
/// horizontal superellipse's point `(u1, u2)` and dual norm `mu`, the vertical one's point `(g, z)`
/// and dual norm `nu = h(n)` (the support function).
#[derive(Clone, Copy)]
struct NestedSupport {
    u1: f64,
    u2: f64,
    g: f64,
    z: f64,
    mu: f64,
    nu: f64,
}

/// The relative margin that turns a log-domain value (module `coarse_support`: the support function
/// of [`Superellipsoid::support_bound`] and the common-normal prefilter, the gauge of
/// [`Superellipsoid::gauge_at_most`]) into a certified bound: 2.4 times the proven error bound,
/// 11 times the largest error measured.
pub const LOG_DOMAIN_MARGIN: f64 = 1e-7;

/// `(a^p + b^p)^(1/p)` for `a, b >= 0`, `p > 1`, with the larger value factored out so that it
/// never overflows or underflows (2 powers, [`fast_pow::pow`]).
#[inline]
fn scaled_p_norm(a: f64, b: f64, p: f64) -> f64 {
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if big == 0.0 {
        return 0.0;
    }
    let t = small / big;
    if p == 2.0 {
        big * (1.0 + t * t).sqrt()
    } else {
        big * fast_pow::pow(1.0 + fast_pow::pow(t, p), 1.0 / p)
    }
}

pub mod coarse_support;
mod derivatives;
mod fast_pow;
mod softplus;
mod tangent_ball;

pub use coarse_support::LogSupport;
pub use derivatives::{JetRest, PointDerivatives};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    /// SplitMix64: a seeded generator for reproducible loops without a dependency.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in [lo, hi).
        pub(crate) fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
        }
        /// Uniform on the unit sphere.
        pub(crate) fn direction(&mut self) -> Vector3<f64> {
            loop {
                let v = Vector3::new(
                    self.uniform(-1.0, 1.0),
                    self.uniform(-1.0, 1.0),
                    self.uniform(-1.0, 1.0),
                );
                let n = v.norm();
                if n > 1e-3 && n <= 1.0 {
                    return v / n;
                }
            }
        }
        /// A random superellipsoid with radii in [0.5, 3] and squareness in [lo, hi].
        pub(crate) fn shape(&mut self, lo: f64, hi: f64) -> Superellipsoid {
            Superellipsoid::new(
                self.uniform(0.5, 3.0),
                self.uniform(0.5, 3.0),
                self.uniform(0.5, 3.0),
                self.uniform(lo, hi),
                self.uniform(lo, hi),
            )
            .unwrap()
        }
        /// The `k`-th of a mixed sample: [`Self::shape`] with squareness in `most` for three in
        /// four, in `rest` for the fourth.
        pub(super) fn shape_mix(
            &mut self,
            k: usize,
            most: (f64, f64),
            rest: (f64, f64),
        ) -> Superellipsoid {
            let (lo, hi) = if k % 4 == 3 { rest } else { most };
            self.shape(lo, hi)
        }
        /// Random surface parameters over the whole range of eq. (2).
        pub(super) fn params(&mut self) -> (f64, f64) {
            (self.uniform(-PI, PI), self.uniform(-FRAC_PI_2, FRAC_PI_2))
        }
    }

    #[test]
    fn an_ellipsoid_holds_its_rolling_ball_at_every_surface_point() {
        let mut rng = Rng(57);
        for _ in 0..40 {
            let e = rng.shape(1.0, 1.0);
            let rho = e.rolling_radius();
            let r = e.radii();
            let smallest_curvature_radius = r.min() * r.min() / r.max();
            assert!((rho - smallest_curvature_radius).abs() <= 1e-15 * rho);
            // The ball of radius rho tangent inside at random surface points lies in the body.
            for _ in 0..50 {
                let n = rng.direction();
                let centre = e.point_with_normal(&n) - n * rho;
                for _ in 0..40 {
                    let q = centre + rng.direction() * rho;
                    assert!(e.gauge(&q) <= 1.0 + 1e-12, "{:?} {rho}", e.radii());
                }
            }
            // At an end of the longest axis (curvature radius rho), a ball 2 % larger does not.
            let k = r.imax();
            let axis = Vector3::ith(k, 1.0);
            let (lo, hi) = (r.min(), r.max());
            let sideways = Vector3::ith(r.imin(), 1.0);
            let bigger = 1.02 * rho;
            let centre = axis * (hi - bigger);
            let poking = (0..200).any(|j| {
                let t = 0.002 * j as f64;
                let q = centre + (axis * t.cos() + sideways * t.sin()) * bigger;
                e.gauge(&q) > 1.0 + 1e-12
            });
            assert!(poking || lo == hi, "{:?}", e.radii());
        }
    }

    #[test]
    fn pointed_bodies_claim_no_rolling_radius() {
        let ellipsoid = Superellipsoid::new(0.5, 2.0, 1.0, 1.0, 1.0).unwrap();
        assert_eq!(ellipsoid.rolling_radius(), 0.125);
        let ball = Superellipsoid::new(1.5, 1.5, 1.5, 1.0, 1.0).unwrap();
        assert_eq!(ball.rolling_radius(), 1.5);
        // Box-like: the curvature bound's 2^(1/a + 1/b - 1) / (a + b - 2), here a = b = 4.
        let boxy = Superellipsoid::new(0.5, 2.0, 1.0, 0.5, 0.5).unwrap();
        let expected = 0.125 * 0.5f64.sqrt() / 6.0;
        assert!((boxy.rolling_radius() - expected).abs() <= 1e-11 * expected);
        for (e1, e2) in [(1.0, 1.01), (1.01, 0.5), (0.5, 1.5), (1.9, 1.9)] {
            let s = Superellipsoid::new(0.5, 2.0, 1.0, e1, e2).unwrap();
            assert_eq!(s.rolling_radius(), 0.0, "{e1} {e2}");
        }
    }

    /// The smallest curvature radius of `s`'s surface where its outward normal is `n` (unit):
    /// the smaller eigenvalue of the point-with-normal map's Jacobian on the tangent plane.
    fn smallest_curvature_radius(s: &Superellipsoid, n: &Vector3<f64>) -> f64 {
        let j = s.point_with_normal_derivatives(n).jacobian;
        let t1 = n.cross(&Vector3::new(0.3, -0.5, 0.81)).normalize();
        let t2 = n.cross(&t1);
        let (p, q, r) = (t1.dot(&(j * t1)), t1.dot(&(j * t2)), t2.dot(&(j * t2)));
        0.5 * (p + r) - (0.25 * (p - r) * (p - r) + q * q).sqrt()
    }

    #[test]
    fn box_like_bodies_hold_their_rolling_ball_and_curve_no_tighter() {
        let mut rng = Rng(58);
        let mut tightest: f64 = f64::INFINITY;
        for k in 0..60 {
            // Squareness down to 0.15, and on the edge of the range (eps = 1 with the other below).
            let mut s = rng.shape(0.15, 1.0);
            if k % 5 == 4 {
                let r = s.radii();
                s = Superellipsoid::new(r.x, r.y, r.z, 1.0, s.eps2()).unwrap();
            }
            let rho = s.rolling_radius();
            assert!(rho > 0.0);
            for _ in 0..200 {
                let n = rng.direction();
                // The bound holds against the surface's own curvature radii ...
                let radius = smallest_curvature_radius(&s, &n);
                assert!(radius >= rho, "{radius} < {rho}: {s:?} at {n:?}");
                tightest = tightest.min(radius / rho);
            }
            // ... and the ball tangent inside at random surface points lies in the body.
            for _ in 0..30 {
                let n = rng.direction();
                let centre = s.point_with_normal(&n) - n * rho;
                for _ in 0..30 {
                    let q = centre + rng.direction() * rho;
                    assert!(s.gauge(&q) <= 1.0 + 1e-12, "{s:?}");
                }
            }
        }
        // A bound, not the radius: within a small factor of the sampled smallest radius.
        assert!(tightest < 20.0, "{tightest}");
    }

    #[test]
    fn support_bound_brackets_the_support_function_and_finds_the_point() {
        let mut rng = Rng(41);
        let (mut worst, mut worst_point): (f64, f64) = (0.0, 0.0);
        for k in 0..4000 {
            // Squareness over the whole open range (the log-domain form up to 1.969, the accurate
            // form beyond), radii with aspect ratios up to 6.
            let s = rng.shape_mix(k, (0.02, 1.969), (1.96, 1.999));
            for j in 0..25 {
                let mut n = rng.direction() * rng.uniform(0.1, 10.0);
                // Axis-aligned and nearly axis-aligned directions, and zero components.
                match j {
                    0 => n = Vector3::new(0.0, 0.0, n.z),
                    1 => n.x = 0.0,
                    2 => n.y *= 1e-12,
                    3 => n = Vector3::new(n.x, 1e-200, 0.0),
                    _ => {}
                }
                let exact = s.point_with_normal(&n);
                let h = n.dot(&exact);
                let (point, bound) = s.support_bound(&n);
                assert!(
                    bound >= h && bound <= h * (1.0 + 2.0 * LOG_DOMAIN_MARGIN) + 1e-300,
                    "{s:?} n = {n:?}: bound {bound:e}, h {h:e}"
                );
                let raw = bound / (1.0 + LOG_DOMAIN_MARGIN);
                worst = worst.max((raw - h).abs() / h);
                worst_point = worst_point.max((point - exact).norm() / s.bounding_radius());
            }
        }
        println!("support bound: max relative error before the margin {worst:.2e}, point {worst_point:.2e}");
        assert!(worst <= 9.1e-9, "{worst:e}");
        assert!(worst_point <= 1e-7, "{worst_point:e}");
        let s = Superellipsoid::new(1.0, 2.0, 3.0, 0.5, 1.5).unwrap();
        assert_eq!(s.support_bound(&Vector3::zeros()).1, 0.0);
    }

    #[test]
    fn gauge_at_most_agrees_with_the_accurate_gauge() {
        let mut rng = Rng(43);
        let (mut worst, mut worst_log): (f64, f64) = (0.0, 0.0);
        for k in 0..4000 {
            // Squareness down to 0.01 (exponents 2/eps beyond the log-domain form's 64 below 0.031).
            let s = rng.shape_mix(k, (0.04, 1.999), (0.01, 0.04));
            for j in 0..25 {
                let surface = s.point_with_normal(&rng.direction());
                // Points on the level set up to rounding, just off it, and well inside or outside;
                // some on the axes.
                let scale = [1.0, 1.0 + 1e-9, 1.0 - 1e-9, 1.0 + 2e-7, 0.5, 1.7][j % 6];
                let mut x = surface * scale;
                if j == 7 {
                    x.x = 0.0;
                }
                let g = s.gauge(&x);
                if s.p1 <= coarse_support::Q_MAX && s.p2 <= coarse_support::Q_MAX && g > 0.0 {
                    let (p, inv_p) = ([s.p1, s.p2], [0.5 * s.eps1, 0.5 * s.eps2]);
                    let coarse = coarse_support::gauge(&s.log2_r, p, inv_p, &x);
                    worst = worst.max((coarse - g).abs() / g);
                    let log = coarse_support::log_gauge(&s.log2_r, p, inv_p, &x);
                    worst_log = worst_log.max((log - g.log2()).abs());
                }
                // The pair form: each answer the single one, beside the shape of the last round.
                let other = rng.shape_mix(k + j, (0.04, 1.999), (0.01, 0.04));
                let y = other.point_with_normal(&rng.direction()) * scale;
                for limit in [1.0, 1.0 + 1e-9, 0.9] {
                    assert_eq!(s.gauge_at_most(&x, limit), g <= limit, "{s:?} x = {x:?}");
                    assert_eq!(
                        Superellipsoid::gauges_at_most_pair(&s, &x, &other, &y, limit),
                        [g <= limit, other.gauge(&y) <= limit],
                        "{s:?} x = {x:?}, {other:?} y = {y:?}"
                    );
                }
            }
        }
        println!("log-domain gauge: max relative error {worst:.2e}, of its log2 {worst_log:.2e}");
        assert!(worst <= 9.1e-9, "{worst:e}");
        assert!(worst_log <= 2.4e-9, "{worst_log:e}");
    }

    /// The eq. (4) -> eq. (2) route that the fast path replaces.
    fn point_via_parameters(s: &Superellipsoid, n: &Vector3<f64>) -> Vector3<f64> {
        let (phi1, phi2) = s.parameters_of_normal(n);
        s.surface_point(phi1, phi2)
    }

    /// The analytic gradient of F (eq. (1)), used only to check eq. (3).
    ///
    /// `dF/dX_i = q G^(e1/e2 - 1) |X_i|^(p-1) sgn(X_i)` (i = 1, 2), with `G = g^p`, is written as
    /// `q g^(q-1) (|X_i| / g)^(p-1)` so that nothing underflows near the x3 axis (G itself
    /// underflows to 0 there for small eps1) and it tends to 0 on the axis.
    fn grad_f(s: &Superellipsoid, x: &Vector3<f64>) -> Vector3<f64> {
        let r = s.radii();
        let (p, q) = (2.0 / s.eps1(), 2.0 / s.eps2());
        let (xa, xb, xc) = (x.x / r.x, x.y / r.y, x.z / r.z);
        let g = scaled_p_norm(xa.abs(), xb.abs(), p);
        let horizontal = |xi: f64| {
            if g == 0.0 {
                0.0
            } else {
                q * g.powf(q - 1.0) * signed_pow(xi / g, p - 1.0)
            }
        };
        Vector3::new(
            horizontal(xa) / r.x,
            horizontal(xb) / r.y,
            q * signed_pow(xc, q - 1.0) / r.z,
        )
    }

    /// `|a x b| / (|a| |b|)`: the sine of the angle between two vectors.
    fn sin_angle(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
        a.cross(b).norm() / (a.norm() * b.norm())
    }

    #[test]
    fn rejects_bad_parameters_with_the_right_variant_and_name() {
        assert!(Superellipsoid::new(1.0, 2.0, 3.0, 0.5, 1.5).is_ok());
        assert!(Superellipsoid::new(1.0, 2.0, 3.0, 1e-9, 2.0 - 1e-9).is_ok());
        let bad = |r: [f64; 3], e: [f64; 2]| Superellipsoid::new(r[0], r[1], r[2], e[0], e[1]);
        let e = bad([1.0; 3], [0.0, 1.0]).unwrap_err();
        assert_eq!(
            e,
            Error::InvalidArgument(
                "eps1 = 0: a superellipsoid's squareness must lie in (0, 2)".into()
            )
        );
        let e = bad([1.0; 3], [1.0, 2.0]).unwrap_err();
        assert_eq!(
            e,
            Error::InvalidArgument(
                "eps2 = 2: a superellipsoid's squareness must lie in (0, 2)".into()
            )
        );
        assert!(
            matches!(bad([1.0; 3], [2.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("eps1"))
        );
        assert!(
            matches!(bad([1.0; 3], [-0.5, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("eps1"))
        );
        assert!(
            matches!(bad([1.0; 3], [1.0, 0.0]), Err(Error::InvalidArgument(m)) if m.starts_with("eps2"))
        );
        assert!(
            matches!(bad([1.0; 3], [f64::NAN, 1.0]), Err(Error::NonFinite(m)) if m.starts_with("eps1"))
        );
        assert!(
            matches!(bad([1.0; 3], [1.0, f64::INFINITY]), Err(Error::NonFinite(m)) if m.starts_with("eps2"))
        );
        assert!(
            matches!(bad([0.0, 1.0, 1.0], [1.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("r1 = 0"))
        );
        assert!(
            matches!(bad([1.0, -1.0, 1.0], [1.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("r2"))
        );
        assert!(
            matches!(bad([1.0, 1.0, 0.0], [1.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("r3"))
        );
        assert!(
            matches!(bad([1.0, 1.0, f64::NAN], [1.0, 1.0]), Err(Error::NonFinite(m)) if m == "r3 is NaN (must be finite)")
        );
        assert!(
            matches!(bad([f64::NEG_INFINITY, 1.0, 1.0], [1.0, 1.0]), Err(Error::NonFinite(m)) if m.starts_with("r1"))
        );
        // Radii within the validated lengths only (1e-30 to 1e30).
        assert!(bad([1e-30, 1.0, 1e30], [1.0, 1.0]).is_ok());
        assert!(
            matches!(bad([1.0, 1e-31, 1.0], [1.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("r2 = 1e-31") && m.contains("between 1e-30 and 1e30"))
        );
        assert!(
            matches!(bad([1.0, 1.0, 1e31], [1.0, 1.0]), Err(Error::InvalidArgument(m)) if m.starts_with("r3 = 1e31"))
        );
    }

    #[test]
    fn sphere_case_matches_closed_forms() {
        let r = 1.7;
        let s = Superellipsoid::new(r, r, r, 1.0, 1.0).unwrap();
        let mut rng = Rng(1);
        for _ in 0..500 {
            let (phi1, phi2) = rng.params();
            let dir = Vector3::new(phi1.cos() * phi2.cos(), phi1.sin() * phi2.cos(), phi2.sin());
            assert!((s.surface_point(phi1, phi2) - r * dir).norm() < 1e-14 * r);
            assert!((s.normal_at(phi1, phi2) - dir / r).norm() < 1e-14 / r);
            assert!((s.unit_normal_at(phi1, phi2) - dir).norm() < 1e-14);
            let (q1, q2) = s.parameters_of_normal(&(3.0 * dir));
            assert!((q1 - dir.y.atan2(dir.x)).abs() < 1e-13);
            assert!((q2 - dir.z.atan2(dir.x.hypot(dir.y))).abs() < 1e-13);
            let d = rng.direction() * rng.uniform(1e-3, 1e3);
            assert!((s.support_point(&d) - r * d.normalize()).norm() < 1e-14 * r);
            let x = r * rng.uniform(0.0, 2.0) * rng.direction();
            assert!((s.inside_outside(&x) - (x.norm() / r).powi(2)).abs() < 1e-13);
            assert!((s.gauge(&x) - x.norm() / r).abs() < 1e-14);
        }
        assert_eq!(s.bounding_radius(), r);
        assert_eq!(s.aabb_half_extents(), Vector3::new(r, r, r));
    }

    #[test]
    fn ellipsoid_case_matches_closed_forms() {
        let s = Superellipsoid::new(0.5, 1.25, 3.0, 1.0, 1.0).unwrap();
        let r = s.radii();
        let mut rng = Rng(2);
        for _ in 0..500 {
            let n = rng.direction() * rng.uniform(1e-3, 1e3);
            let rn = r.component_mul(&n);
            let expected = r.component_mul(&rn) / rn.norm();
            assert!((s.point_with_normal(&n) - expected).norm() < 1e-14 * 3.0);
            assert!((point_via_parameters(&s, &n) - expected).norm() < 1e-13 * 3.0);
            // The ellipsoid's normal at x is (x_i / r_i^2).
            let (phi1, phi2) = rng.params();
            let x = s.surface_point(phi1, phi2);
            let nx = x.component_div(&r.component_mul(&r));
            assert!((s.normal_at(phi1, phi2) - nx).norm() < 1e-14 * nx.norm());
        }
        assert_eq!(s.bounding_radius(), 3.0);
        assert_eq!(s.aabb_half_extents(), Vector3::new(0.5, 1.25, 3.0));
    }

    #[test]
    fn surface_points_satisfy_eq1() {
        let mut rng = Rng(3);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let s = rng.shape(0.1, 1.9);
            for _ in 0..50 {
                let (phi1, phi2) = rng.params();
                let x = s.surface_point(phi1, phi2);
                worst = worst.max((s.inside_outside(&x) - 1.0).abs());
                worst = worst.max((s.gauge(&x) - 1.0).abs());
            }
        }
        assert!(worst < 1e-12, "max |F - 1| = {worst:e}");
    }

    #[test]
    fn normal_at_is_parallel_to_grad_f_and_outward() {
        let mut rng = Rng(4);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let s = rng.shape(0.1, 1.9);
            for _ in 0..50 {
                let (phi1, phi2) = rng.params();
                let x = s.surface_point(phi1, phi2);
                let n = s.normal_at(phi1, phi2);
                let g = grad_f(&s, &x);
                worst = worst.max(sin_angle(&n, &g));
                assert!(n.dot(&g) > 0.0);
                // eq. (3) is exactly (eps2 / 2) grad F on the surface.
                assert!((n - g * (s.eps2() / 2.0)).norm() <= 1e-10 * n.norm());
            }
        }
        assert!(worst < 1e-12, "max sin(angle(n, grad F)) = {worst:e}");
    }

    #[test]
    fn normal_at_matches_central_differences_of_f() {
        // Away from the coordinate planes, where F is smooth enough for O(h^2) differences (for
        // eps > 1 its second derivatives blow up on the planes).
        let s = Superellipsoid::new(1.0, 2.0, 0.7, 0.4, 1.6).unwrap();
        let r = s.radii();
        let mut rng = Rng(5);
        let mut checked = 0;
        while checked < 200 {
            let (phi1, phi2) = rng.params();
            let x = s.surface_point(phi1, phi2);
            if x.component_div(&r).amin() < 0.05 {
                continue;
            }
            checked += 1;
            let h = 1e-5;
            let fd = Vector3::from_fn(|i, _| {
                let e = Vector3::ith(i, h);
                (s.inside_outside(&(x + e)) - s.inside_outside(&(x - e))) / (2.0 * h)
            });
            let n = s.normal_at(phi1, phi2);
            assert!(sin_angle(&n, &fd) < 1e-7, "{}", sin_angle(&n, &fd));
        }
    }

    /// The angle route (eq. (4) then (2)/(3)) at an exactly axis-aligned normal: `atan2` returns
    /// fl(pi/2), whose cosine is 6.1e-17, not 0, and eq. (2)/(3) raise it to eps or 2 - eps.
    #[test]
    fn angle_route_is_inexact_at_the_poles_where_the_fast_path_is_exact() {
        let n = Vector3::new(0.0, 0.0, 1.0);
        // eps2 = 0.1: the point lands ~(6.1e-17)^0.1 = 0.024 (times r) off the axis, on the flat
        // top face, where the normal is the axis to ~(0.024)^19 and F = 1 still holds.
        let s = Superellipsoid::new(1.0, 1.0, 1.0, 1.0, 0.1).unwrap();
        let (q1, q2) = s.parameters_of_normal(&n);
        assert_eq!((q1, q2), (0.0, FRAC_PI_2));
        let y = s.surface_point(q1, q2);
        let offset = y.x.hypot(y.y);
        assert!(offset > 0.02 && offset < 0.03, "{offset}");
        assert!((s.inside_outside(&y) - 1.0).abs() < 1e-14);
        assert!(sin_angle(&s.normal_at(q1, q2), &n) < 1e-30);
        assert_eq!(s.point_with_normal(&n), Vector3::new(0.0, 0.0, 1.0));
        // eps2 = 1.5: now the point is fine but eq. (3)'s normal is ~(6.1e-17)^0.5 = 7.8e-9 off.
        let s = Superellipsoid::new(1.0, 1.0, 1.0, 1.0, 1.5).unwrap();
        let (q1, q2) = s.parameters_of_normal(&n);
        let tilt = sin_angle(&s.normal_at(q1, q2), &n);
        assert!(tilt > 5e-9 && tilt < 1e-8, "{tilt}");
        assert!((s.surface_point(q1, q2) - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-20);
    }

    #[test]
    fn parameters_of_normal_recovers_the_point() {
        let mut rng = Rng(6);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let s = rng.shape(0.1, 1.9);
            for _ in 0..50 {
                let (phi1, phi2) = rng.params();
                let x = s.surface_point(phi1, phi2);
                let n = s.normal_at(phi1, phi2) * rng.uniform(1e-3, 1e3);
                let (q1, q2) = s.parameters_of_normal(&n);
                assert!((-PI..PI).contains(&q1) && (-FRAC_PI_2..=FRAC_PI_2).contains(&q2));
                let y = s.surface_point(q1, q2);
                worst = worst.max((y - x).norm() / x.norm());
                // The fast path recovers it too.
                worst = worst.max((s.point_with_normal(&n) - x).norm() / x.norm());
            }
        }
        assert!(worst < 1e-10, "max relative point error {worst:e}");
    }

    #[test]
    fn fast_path_equals_the_eq4_eq2_route() {
        let mut rng = Rng(7);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let s = rng.shape(0.1, 1.9);
            for _ in 0..100 {
                let n = rng.direction() * rng.uniform(1e-3, 1e3);
                let fast = s.point_with_normal(&n);
                let slow = point_via_parameters(&s, &n);
                worst = worst.max((fast - slow).norm() / s.bounding_radius());
                assert!((s.gauge(&fast) - 1.0).abs() < 1e-14);
                assert!(sin_angle(&grad_f(&s, &fast), &n) < 1e-12);
            }
        }
        assert!(worst < 1e-12, "max |fast - eq.(4)->(2)| / R = {worst:e}");
    }

    #[test]
    fn support_point_maximises_d_dot_x_over_surface_samples() {
        let mut rng = Rng(8);
        for _ in 0..10 {
            let s = rng.shape(0.1, 1.9);
            let samples: Vec<_> = (0..2000)
                .map(|_| {
                    let (phi1, phi2) = rng.params();
                    s.surface_point(phi1, phi2)
                })
                .collect();
            for _ in 0..50 {
                let d = rng.direction();
                let p = s.support_point(&d);
                let h = d.dot(&p);
                let best = samples.iter().map(|x| d.dot(x)).fold(f64::MIN, f64::max);
                assert!(best <= h + 1e-13 * s.bounding_radius(), "{best} > {h}");
                // ... and lies on the surface.
                assert!((s.gauge(&p) - 1.0).abs() < 1e-14);
            }
        }
    }

    #[test]
    fn axis_aligned_and_near_axis_normals_give_finite_surface_points() {
        let mut normals = Vec::new();
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                normals.push(Vector3::ith(axis, sign));
                for tiny in [1e-300, 1e-200, 1e-100, 1e-30, 1e-17, 1e-8] {
                    for other in 0..3 {
                        if other != axis {
                            let mut n = Vector3::ith(axis, sign);
                            n[other] = tiny;
                            normals.push(n);
                            n[other] = -tiny;
                            normals.push(n);
                            n[3 - axis - other] = tiny;
                            normals.push(n);
                        }
                    }
                }
            }
        }
        normals.push(Vector3::new(-0.0, 0.0, 1.0));
        normals.push(Vector3::new(1.0, 1.0, 0.0));
        normals.push(Vector3::new(-1.0, 0.0, -1.0));
        for eps1 in [0.1, 0.5, 1.0, 1.5, 1.9] {
            for eps2 in [0.1, 0.5, 1.0, 1.5, 1.9] {
                let s = Superellipsoid::new(0.8, 1.3, 2.1, eps1, eps2).unwrap();
                for n in &normals {
                    let p = s.point_with_normal(n);
                    assert!(p.iter().all(|v| v.is_finite()), "{n:?} -> {p:?}");
                    assert!((s.gauge(&p) - 1.0).abs() < 1e-14, "{n:?} -> {p:?}");
                    assert!((s.inside_outside(&p) - 1.0).abs() < 1e-12, "{n:?} -> {p:?}");
                    let (q1, q2) = s.parameters_of_normal(n);
                    assert!(q1.is_finite() && q2.is_finite());
                    let y = s.surface_point(q1, q2);
                    assert!(y.iter().all(|v| v.is_finite()));
                    assert!((s.inside_outside(&y) - 1.0).abs() < 1e-12);
                    // The fast path's point has normal n (eq. (3) as grad F, evaluated at the point).
                    assert!(sin_angle(&grad_f(&s, &p), n) < 1e-12, "{n:?} -> {p:?}");
                    // Support property against a probe set.
                    for m in &normals {
                        let other = s.point_with_normal(m);
                        assert!(n.dot(&other) <= n.dot(&p) + 1e-14 * n.norm() * 2.1);
                    }
                }
                // Exactly axis-aligned normals give the exact axis points on the fast path.
                assert_eq!(
                    s.point_with_normal(&Vector3::new(1.0, 0.0, 0.0)),
                    Vector3::new(0.8, 0.0, 0.0)
                );
                assert_eq!(
                    s.point_with_normal(&Vector3::new(0.0, -5.0, 0.0)),
                    Vector3::new(0.0, -1.3, 0.0)
                );
                assert_eq!(
                    s.point_with_normal(&Vector3::new(0.0, 0.0, 1e-300)),
                    Vector3::new(0.0, 0.0, 2.1)
                );
                assert_eq!(
                    s.parameters_of_normal(&Vector3::new(0.0, 0.0, 2.0)),
                    (0.0, FRAC_PI_2)
                );
                assert_eq!(
                    s.parameters_of_normal(&Vector3::new(0.0, 0.0, -2.0)),
                    (0.0, -FRAC_PI_2)
                );
                assert_eq!(
                    s.parameters_of_normal(&Vector3::new(-1.0, 0.0, 0.0)),
                    (-PI, 0.0)
                );
                assert_eq!(
                    s.parameters_of_normal(&Vector3::new(0.0, 1.0, 0.0)),
                    (FRAC_PI_2, 0.0)
                );
            }
        }
    }

    #[test]
    fn extreme_squareness_stays_finite_on_the_fast_path() {
        let mut rng = Rng(9);
        for (e1, e2) in [(1e-3, 1e-3), (1.999, 1.999), (1e-3, 1.999), (1.999, 1e-3)] {
            let s = Superellipsoid::new(1.0, 2.0, 0.5, e1, e2).unwrap();
            for _ in 0..500 {
                let n = rng.direction();
                let p = s.point_with_normal(&n);
                assert!(p.iter().all(|v| v.is_finite()));
                assert!((s.gauge(&p) - 1.0).abs() < 1e-13, "{e1} {e2} {n:?} {p:?}");
                assert!(p
                    .abs()
                    .iter()
                    .zip(s.aabb_half_extents().iter())
                    .all(|(a, b)| a <= b));
                assert!(p.norm() <= s.bounding_radius() * (1.0 + 1e-15));
            }
        }
    }

    #[test]
    fn inside_outside_has_no_nan_on_the_axes_and_orders_points() {
        let s = Superellipsoid::new(1.0, 2.0, 3.0, 0.3, 1.7).unwrap();
        assert_eq!(s.inside_outside(&Vector3::zeros()), 0.0);
        assert_eq!(s.gauge(&Vector3::zeros()), 0.0);
        assert_eq!(s.inside_outside(&Vector3::new(0.0, 0.0, 3.0)), 1.0);
        assert_eq!(s.inside_outside(&Vector3::new(-1.0, 0.0, 0.0)), 1.0);
        assert_eq!(s.inside_outside(&Vector3::new(0.0, -2.0, -0.0)), 1.0);
        assert!(s.inside_outside(&Vector3::new(0.0, 0.0, 2.9)) < 1.0);
        assert!(s.inside_outside(&Vector3::new(0.0, 2.1, 0.0)) > 1.0);
        // Far away F overflows to +inf (still "outside"); the gauge stays exact and homogeneous.
        let far = Vector3::new(1e200, 1e-300, -1e150);
        assert_eq!(s.inside_outside(&far), f64::INFINITY);
        let g = s.gauge(&far);
        assert!(g.is_finite() && g > 1.0);
        assert!((s.gauge(&(far * 1e-200)) - g * 1e-200).abs() < 1e-14 * g * 1e-200);
        let mut rng = Rng(10);
        for _ in 0..1000 {
            let x = rng.direction() * rng.uniform(0.0, 4.0);
            let f = s.inside_outside(&x);
            let g = s.gauge(&x);
            assert!((f - g.powf(2.0 / s.eps2())).abs() <= 1e-12 * f.max(1.0));
        }
    }

    /// The largest |x| over the surface, by a dense (phi1, phi2) grid refined by a shrinking
    /// pattern search.
    fn sampled_max_norm(s: &Superellipsoid) -> (f64, f64) {
        let norm = |a: f64, b: f64| s.surface_point(a, b).norm();
        let (n1, n2) = (400, 200);
        let mut grid_max: f64 = 0.0;
        let mut best = (0.0, 0.0);
        for i in 0..n1 {
            for j in 0..=n2 {
                let a = -PI + 2.0 * PI * i as f64 / n1 as f64;
                let b = -FRAC_PI_2 + PI * j as f64 / n2 as f64;
                let v = norm(a, b);
                if v > grid_max {
                    grid_max = v;
                    best = (a, b);
                }
            }
        }
        let mut refined = grid_max;
        let mut step = PI / n2 as f64;
        while step > 1e-12 {
            let mut moved = false;
            for (da, db) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)] {
                let v = norm(best.0 + da, best.1 + db);
                if v > refined {
                    refined = v;
                    best = (best.0 + da, best.1 + db);
                    moved = true;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        (grid_max, refined)
    }

    #[test]
    fn bounding_radius_is_exact() {
        // Closed forms: the box-like cube-ish case reaches R 3^((1 - eps)/2) at the corners.
        for eps in [0.1, 0.5, 0.9] {
            let s = Superellipsoid::new(1.5, 1.5, 1.5, eps, eps).unwrap();
            let expected = 1.5 * 3f64.powf((1.0 - eps) / 2.0);
            assert!((s.bounding_radius() - expected).abs() < 1e-14);
        }
        for eps in [1.0, 1.3, 1.9] {
            let s = Superellipsoid::new(1.0, 2.5, 1.5, eps, eps).unwrap();
            assert_eq!(s.bounding_radius(), 2.5);
        }
        let mut rng = Rng(11);
        let mut shapes: Vec<_> = (0..12).map(|_| rng.shape(0.1, 1.9)).collect();
        shapes.push(Superellipsoid::new(1.0, 1.0, 1.0, 0.1, 0.1).unwrap());
        shapes.push(Superellipsoid::new(3.0, 0.5, 0.5, 0.2, 0.95).unwrap());
        shapes.push(Superellipsoid::new(1.0, 2.0, 3.0, 1.9, 0.1).unwrap());
        for s in &shapes {
            let r = s.bounding_radius();
            let mut rng = Rng(12);
            for _ in 0..20_000 {
                let (phi1, phi2) = rng.params();
                let x = s.surface_point(phi1, phi2);
                assert!(x.norm() <= r * (1.0 + 1e-14), "{} > {r}", x.norm());
            }
            let (grid, refined) = sampled_max_norm(s);
            assert!(grid <= r * (1.0 + 1e-14) && refined <= r * (1.0 + 1e-14));
            assert!(
                (r - refined) <= 1e-9 * r,
                "{s:?}: bound {r} vs sampled max {refined} (grid {grid})"
            );
        }
    }
}
