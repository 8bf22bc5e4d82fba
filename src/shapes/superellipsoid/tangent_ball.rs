//! A ball tangent inside a superellipsoid at one of its surface points: a certified lower bound of
//! its radius from a bound of the inside-outside function's curvature near the point.
//!
//! Beyond the paper. The common-normal search (`narrow::common_normal`) proves an answer the global
//! one when the two bodies hold balls tangent at its contact points whose radii add up to more than
//! the depth: the body's rolling radius (a ball that fits everywhere) is such a radius, but a
//! nearly pointed body has none, while a ball the size of a small depth still fits at most of its
//! surface points. This module bounds the radius of that ball at one point.
//!
//! # The bound
//!
//! With `X_i = x_i / r_i`, `a = 2/eps1`, `b = 2/eps2` and `k = b/a`, the inside-outside function of
//! eq. (1) is `F = s^k + |X3|^b` with `s = |X1|^a + |X2|^a`; the body is `F <= 1`, and `F` is
//! convex and positively homogeneous of degree `b`. Let `p` be a surface point with outward unit
//! normal `n`. Euler's identity `grad F(p) . p = b F(p) = b` gives `|grad F(p)| = b / (n . p)` with
//! no power. If `lambda` bounds the largest eigenvalue of `F`'s Hessian over a convex set `Q`
//! that holds the ball `K` of radius `rho` about `p - rho n`, Taylor's theorem along the segment
//! from `p` to a point `x = p + rho (v - n)` of `K`'s sphere (`v` unit) gives
//!
//! `F(x) <= 1 + grad F(p) . (x - p) + lambda |x - p|^2 / 2 = 1 - rho (1 - v . n) (|grad F(p)| - lambda rho)`,
//!
//! at most 1 when `lambda rho <= |grad F(p)|`: then `K` lies in the body (`F` convex, so its
//! largest value over `K` is on the sphere). Take `Q` the axis-aligned box around the ball of the
//! largest radius asked, `cap`; every smaller tangent ball at `p` lies inside that one, so
//! `rho = min(cap, |grad F(p)| / lambda(Q))` is certified.
//!
//! `F`'s Hessian is block-diagonal (the plane, `X3`). In the plane, in `X`:
//! `k a (a - 1) s^(k-1) diag(|X_i|^(a-2)) + k (k - 1) a^2 s^(k-2) g g^T` with
//! `g_i = sgn(X_i) |X_i|^(a-1)`, whose largest eigenvalue is at most the largest diagonal entry plus
//! `max(0, k (k - 1)) a^2 s^(k-2) |g|^2` (Weyl; the second term is negative semi-definite for
//! `k < 1`); along `X3`, `b (b - 1) |X3|^(b-2)`. Dividing by `r_i r_j` gives the Hessian in `x`
//! (the diagonal entries by `r_i^2`, `g_i` by `r_i`). Every factor is a power of `|X_i|` or `s`,
//! monotone over the box's range of it, so its largest value is at one end. Where a power has a
//! negative exponent and its range reaches 0 (a pointed body's ridges, `eps > 1`, where a
//! coordinate vanishes: the curvature radius is 0 there), no ball is certified.
//!
//! The surface point itself is taken as exact: a point off the surface by a rounding moves the
//! ball by as much, far below any depth the search reports.

use super::fast_pow;
use super::Superellipsoid;
use nalgebra::Vector3;

/// The relative slack taken off a certified radius for the roundings of its bound (the powers are
/// accurate to about `1e-14`).
const RADIUS_SLACK: f64 = 1e-9;

/// The largest value of `x^e` for `x` in `[lo, hi]` (`0 <= lo <= hi`, `e` real): `+inf` for a
/// negative exponent on a range that reaches 0.
fn largest_power(lo: f64, hi: f64, e: f64) -> f64 {
    if e >= 0.0 {
        power(hi, e)
    } else if lo > 0.0 {
        1.0 / power(lo, -e)
    } else {
        f64::INFINITY
    }
}

/// `x^e` for `x >= 0`, `e >= 0` (`0^0 = 1`).
fn power(x: f64, e: f64) -> f64 {
    if e == 0.0 {
        1.0
    } else if e == 1.0 {
        x
    } else if e == 2.0 {
        x * x
    } else {
        fast_pow::pow(x, e)
    }
}

/// The range of `|y|` over `[centre - half, centre + half]`.
fn absolute_range(centre: f64, half: f64) -> (f64, f64) {
    let (lo, hi) = (centre - half, centre + half);
    if lo <= 0.0 && hi >= 0.0 {
        (0.0, (-lo).max(hi))
    } else {
        (lo.abs().min(hi.abs()), lo.abs().max(hi.abs()))
    }
}

impl Superellipsoid {
    /// A certified lower bound, at most `cap`, of the radius of a ball tangent inside the body at
    /// its surface point `p` with outward unit normal `n` (body frame, host length unit): the ball
    /// of that radius about `p - radius n` lies in the body. Beyond the paper; see the module
    /// documentation for the bound (no power for the gradient, about eight for the curvature;
    /// none where the box reaches a ridge). 0 where nothing is certified (`p` within `2 cap` of a
    /// pointed body's ridge, or `n` not outward).
    pub fn tangent_ball_radius(&self, p: &Vector3<f64>, n: &Vector3<f64>, cap: f64) -> f64 {
        let support = n.dot(p);
        if !(support > 0.0 && cap > 0.0) {
            return 0.0;
        }
        let r = self.radii();
        let (a, b) = (self.p1, self.p2);
        let k = b / a;
        // The box around the ball of radius `cap`, in the scaled coordinates `X`.
        let centre = p - n * cap;
        let range = |i: usize| absolute_range(centre[i] / r[i], cap / r[i]);
        let [(lo1, hi1), (lo2, hi2), (lo3, hi3)] = [range(0), range(1), range(2)];
        // A ridge the box reaches (a power of negative exponent on a range from 0; `s` reaches 0
        // only where both plane coordinates do): nothing is certified, and no power is needed to
        // say so (the common answer of a nearly pointed pair).
        let ridge = (a < 2.0 && (lo1 == 0.0 || lo2 == 0.0))
            || ((k < 1.0 || (k > 1.0 && k < 2.0)) && lo1 == 0.0 && lo2 == 0.0)
            || (b < 2.0 && lo3 == 0.0);
        if ridge {
            return 0.0;
        }
        let (s_lo, s_hi) = (power(lo1, a) + power(lo2, a), power(hi1, a) + power(hi2, a));
        let diagonal = (largest_power(lo1, hi1, a - 2.0) / (r[0] * r[0]))
            .max(largest_power(lo2, hi2, a - 2.0) / (r[1] * r[1]));
        let mut plane = k * a * (a - 1.0) * largest_power(s_lo, s_hi, k - 1.0) * diagonal;
        if k > 1.0 {
            let g = power(hi1, 2.0 * a - 2.0) / (r[0] * r[0])
                + power(hi2, 2.0 * a - 2.0) / (r[1] * r[1]);
            plane += k * (k - 1.0) * a * a * largest_power(s_lo, s_hi, k - 2.0) * g;
        }
        let vertical = b * (b - 1.0) * largest_power(lo3, hi3, b - 2.0) / (r[2] * r[2]);
        let lambda = plane.max(vertical);
        let gradient = b / support;
        let radius = gradient / lambda * (1.0 - RADIUS_SLACK);
        // NaN (an infinite bound times 0) certifies nothing.
        if radius >= 0.0 {
            radius.min(cap)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::superellipsoid::tests::Rng;

    /// Points of the sphere of the ball of `radius` tangent at `p` (normal `n`), on a dense set
    /// of directions: every one must lie in the body.
    fn largest_gauge_on_ball(
        body: &Superellipsoid,
        p: &Vector3<f64>,
        n: &Vector3<f64>,
        radius: f64,
    ) -> f64 {
        let centre = p - n * radius;
        let mut largest: f64 = 0.0;
        let (m1, m2) = (40, 80);
        for i in 0..=m1 {
            let theta = std::f64::consts::PI * i as f64 / m1 as f64;
            for j in 0..m2 {
                let phi = 2.0 * std::f64::consts::PI * j as f64 / m2 as f64;
                let v = Vector3::new(
                    theta.sin() * phi.cos(),
                    theta.sin() * phi.sin(),
                    theta.cos(),
                );
                largest = largest.max(body.gauge(&(centre + v * radius)));
            }
        }
        largest
    }

    #[test]
    fn a_sphere_holds_its_own_radius_and_an_ellipsoid_its_bound() {
        let sphere = Superellipsoid::new(2.0, 2.0, 2.0, 1.0, 1.0).unwrap();
        let n = Vector3::new(0.3, -0.5, 0.8).normalize();
        let p = sphere.point_with_normal(&n);
        let radius = sphere.tangent_ball_radius(&p, &n, 10.0);
        assert!((radius - 2.0).abs() < 1e-8, "{radius}");
        // The cap limits the answer.
        assert_eq!(sphere.tangent_ball_radius(&p, &n, 0.5), 0.5);
        // An ellipsoid: at most the smallest curvature radius r_min^2 / r_max anywhere, and on
        // the tip of the long axis exactly that point's radius times the slack.
        let ellipsoid = Superellipsoid::new(3.0, 1.0, 1.5, 1.0, 1.0).unwrap();
        let tip = Vector3::new(3.0, 0.0, 0.0);
        let radius = ellipsoid.tangent_ball_radius(&tip, &Vector3::x(), 1e-3);
        assert!(radius > 0.99e-3 && radius <= 1e-3, "{radius}");
        let radius = ellipsoid.tangent_ball_radius(&tip, &Vector3::x(), 10.0);
        assert!(radius > 0.0 && radius <= 1.0 / 3.0, "{radius}");
    }

    #[test]
    fn certified_balls_lie_in_the_body() {
        let mut rng = Rng(17);
        let mut checked = 0;
        for seed in 0..400 {
            let body = rng.shape(0.1, 1.9);
            let n = rng.direction();
            let p = body.point_with_normal(&n);
            let cap = 10f64.powf(rng.uniform(-4.0, 0.0));
            let radius = body.tangent_ball_radius(&p, &n, cap);
            assert!((0.0..=cap).contains(&radius), "{radius} {cap}");
            if radius > 0.0 {
                checked += 1;
                let largest = largest_gauge_on_ball(&body, &p, &n, radius);
                assert!(largest <= 1.0 + 1e-12, "seed {seed}: gauge {largest}");
            }
        }
        // Most random points hold a ball: the test saw real ones.
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn a_pointed_body_holds_no_ball_on_its_ridge_but_one_on_its_face() {
        let body = Superellipsoid::new(1.0, 1.0, 1.0, 1.85, 1.85).unwrap();
        // The tip on the x1 axis: the curvature radius is 0 there.
        let tip = Vector3::new(1.0, 0.0, 0.0);
        assert_eq!(body.tangent_ball_radius(&tip, &Vector3::x(), 1e-3), 0.0);
        // The middle of a face.
        let n = Vector3::new(1.0, 1.0, 1.0).normalize();
        let p = body.point_with_normal(&n);
        let radius = body.tangent_ball_radius(&p, &n, 1e-3);
        assert_eq!(radius, 1e-3);
        assert!(largest_gauge_on_ball(&body, &p, &n, radius) <= 1.0 + 1e-12);
    }

    #[test]
    fn a_normal_that_is_not_outward_certifies_nothing() {
        let body = Superellipsoid::new(1.0, 2.0, 1.0, 0.5, 1.5).unwrap();
        let n = Vector3::new(0.0, 0.0, 1.0);
        let p = body.point_with_normal(&n);
        assert_eq!(body.tangent_ball_radius(&p, &-n, 1e-3), 0.0);
        assert_eq!(body.tangent_ball_radius(&p, &n, 0.0), 0.0);
        assert_eq!(body.tangent_ball_radius(&p, &n, f64::NAN), 0.0);
    }
}
