//! The derivatives of the point with a given normal, which the Newton steps of the common-normal
//! contact search need (Wellmann, Lillie & Wriggers 2008, eqs. (10)-(11)).

use super::*;
use crate::shapes::{SmoothConvex, SymmetricTensor3};

/// The surface point with a given outward normal and its first and second derivatives with
/// respect to that normal, from [`Superellipsoid::point_with_normal_derivatives`] (body frame).
///
/// These are what the Newton steps of the common-normal iteration need: with `x(n)` the map of
/// [`Superellipsoid::point_with_normal`], the gradient and Hessian of Wellmann, Lillie & Wriggers
/// 2008, eqs. (10)-(11), follow from `J` and `H_k` by the chain rule through the contact direction
/// of eq. (6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointDerivatives {
    /// `x(n)`: bit for bit the result of [`Superellipsoid::point_with_normal`].
    pub point: Vector3<f64>,
    /// `J[k][i] = d x_k / d n_i`. Symmetric and positive semi-definite, with `J n = 0`.
    pub jacobian: Matrix3<f64>,
    /// `hessians.get(k, i, j) = d^2 x_k / (d n_i d n_j)`: symmetric in all three indices (`x` is
    /// the gradient of the support function), with `sum_j hessians.get(k, i, j) n_j = -J[k][i]`.
    pub hessians: SymmetricTensor3,
}

/// The relative size below which a component `r_i n_i` of the direction is replaced by
/// `+-DERIVATIVE_FLOOR * max_j |r_j n_j|` when differentiating (see
/// [`Superellipsoid::point_with_normal_derivatives`]). It bounds the unbounded factors
/// `|m|^(beta - 1)` and `|m|^(beta - 2)` by about `1e50` and `1e100`, so that products of two
/// derivative entries, as formed in eqs. (10)-(11), stay far from overflow.
const DERIVATIVE_FLOOR: f64 = 1e-50;

impl Superellipsoid {
    /// [`Self::point_with_normal`] together with its Jacobian `J = dx/dn` and the second
    /// derivatives `H_k = d^2 x_k / dn dn`, all analytic: the ingredients of the gradient and Hessian
    /// of Wellmann, Lillie & Wriggers 2008, eqs. (10)-(11) (`f_i = 2 d.d_i`,
    /// `f_ij = 2 (d_i.d_j + d.d_ij)`).
    ///
    /// # Formulas
    ///
    /// With `m_i = r_i n_i`, the point is `x_k = r_k d nu / d m_k`, the gradient of the nested dual
    /// norm `nu(m) = N2(mu(m1, m2), m3)` of [`Self::point_with_normal`], where `mu = N1(m1, m2)` and
    /// `N1`, `N2` are the 2D `(2 delta)`-norms. So `x` is the gradient of the support function
    /// `h(n) = nu(R n)`: `J[k][i] = r_k r_i nu_ki` is symmetric and positive semi-definite, and
    /// `H_k[i][j] = r_k r_i r_j nu_kij` is symmetric in all three indices. Everything follows from
    /// the 2D building block: a `p`-norm `N(a, b)` has gradient `(sgn a (|a|/N)^beta,
    /// sgn b (|b|/N)^beta)` and, being homogeneous of degree 1, a rank-one Hessian
    /// `kappa (b, -a) (b, -a)^T` with `kappa = beta (g_a/a) (g_b/b) / N >= 0`, whose logarithmic
    /// derivative is `dlog kappa/da = (beta - 1)/a - (2 beta + 1) g_a / N`. In the code's names
    /// (`A_i = (|m_i|/mu)^beta1`, `B = (mu/nu)^beta2`, `C = (|m3|/nu)^beta2`, `mu_i = sgn(m_i) A_i`,
    /// `w = (m2, -m1)`, `mu_ij = kappa1 w_i w_j`, and `N2_..` the derivatives of `N2` at `(mu, m3)`):
    ///
    /// * `nu_ij = N2_mumu mu_i mu_j + B mu_ij`, `nu_i3 = N2_mu3 mu_i`, `nu_33 = N2_33`
    ///   (`i, j` in {1, 2}; `N2_mumu = kappa2 m3^2`, `N2_mu3 = -kappa2 mu m3`,
    ///   `N2_33 = kappa2 mu^2`);
    /// * `nu_ij3 = N2_mumu3 mu_i mu_j + N2_mu3 mu_ij`, `nu_i33 = N2_mu33 mu_i`, `nu_333 = N2_333`;
    /// * (Faa di Bruno) `nu_ijl = N2_mumumu mu_i mu_j mu_l + B phi_ijl / mu +
    ///   D (mu_il mu_j + mu_jl mu_i + mu_ij mu_l)`, with `phi = mu^2 / 2` and
    ///   `D = N2_mumu - B/mu = (B/mu) ((beta2 - 1) - beta2 (mu/nu)^(beta2 + 1))`.
    ///
    /// The last line is where the plain chain rule cancels catastrophically: near the x3 axis
    /// (`mu -> 0`) its terms are each ~`1/mu` while for `eps2 = 1` the sum is O(1) (the nested form
    /// has a polar-coordinate singularity there). Writing `N2_mumu = D + B/mu` moves the cancellation
    /// into `D`, computed from the Euler identity `nu = mu B + |m3| C` without subtraction at
    /// `beta2 = 1`, and into `phi_ijl = mu mu_ijl + (sum of mu_il mu_j)`, which with the Euler shares
    /// `t_i = A_i |m_i|` (`t_1 + t_2 = mu`) is a product carrying the exact factor `beta1 - 1`:
    /// `phi_iii = (beta1 - 1) beta1 sgn(m_i) A_i t_o (t_o - t_i) / (mu m_i^2)` and
    /// `phi_iio = (beta1 - 1) beta1 sgn(m_o) A_i A_o (t_i - t_o) / (mu |m_i|)` (`o` the other
    /// horizontal index). No other term subtracts large quantities, so the results are accurate
    /// relative to the size of the derivatives themselves, also where they are tiny (near the
    /// vertices of the octahedron-like shapes with `eps -> 2`, `J` is ~`1e-10 |x| / |n|`). The
    /// derivatives are evaluated on `m` divided by `max_i |m_i|` (they are homogeneous of degree -1
    /// and -2) and scaled back.
    ///
    /// # Cost
    ///
    /// The same **4 `powf`** as [`Self::point_with_normal`] (its two nested superellipse steps give
    /// `A_1`, `A_2`, `B`, `C`, `mu` and `nu`, and nothing else needs a power), plus 8 divisions
    /// and a few hundred multiplications and additions (mostly filling the 9 + 27 entries). Only
    /// the clamped case below repeats the 4 `powf` at the clamped direction.
    ///
    /// # Which inputs give exact derivatives
    ///
    /// Exact (to rounding) for every finite `n` with `|r_i n_i| >= 1e-50 max_j |r_j n_j|` for all
    /// `i`: in particular for every direction with all components non-zero and of ordinary size,
    /// which is where the Newton iterates of the contact kernel live. On the coordinate planes
    /// (`n_i = 0`) the map is not twice differentiable in general: `|m|^beta` has an unbounded
    /// first derivative at 0 for `eps < 1` (`beta < 1`) and an unbounded second derivative for
    /// `eps < 4/3` (`beta < 2`, except `eps = 1`). There, and for any component below the relative
    /// floor, the derivatives returned are the exact derivatives at the nearby direction with that
    /// `m_i` replaced by `+-1e-50 max_j |m_j|` (the sign of `m_i`, `+` for a zero): finite, at most
    /// of order `1e50` (J) and `1e100` (H) for a unit `n` and radii of order 1. On a single
    /// coordinate plane, where the one-sided limit at `m_i = 0` is finite (`eps_i >= 1` for J,
    /// `eps_i >= 4/3` or `= 1` for H), they equal it up to a relative ~`1e-50^(beta_i - 1)`; the
    /// module tests check this against differences of points across the plane, and check the exact
    /// closed forms of the sphere on all three axes. On the x3 axis (`m1 = m2 = 0`, so also
    /// `mu = 0`) the behaviour of the nested form depends on both exponents; the contact kernel
    /// treats axis-aligned directions separately. The `point` is always the exact, unclamped one.
    /// A zero `n` returns zeros; a non-finite `n` gives NaN derivatives (and the non-finite point
    /// of [`Self::point_with_normal`]).
    pub fn point_with_normal_derivatives(&self, n: &Vector3<f64>) -> PointDerivatives {
        SmoothConvex::point_with_normal_derivatives(self, n)
    }

    /// The first part of [`Self::point_with_normal_derivatives`]: the point and its Jacobian
    /// `J = dx/dn` (body frame), bit for bit the same, with what the second derivatives still need
    /// ([`Self::point_with_normal_second`]). The 4 `powf` of the point and about a third of the
    /// rest: where the first derivatives decide (the curvature radii of the surface at `x` are
    /// those of `J |n|`), the second are not computed.
    pub fn point_with_normal_first(
        &self,
        n: &Vector3<f64>,
    ) -> (Vector3<f64>, Matrix3<f64>, JetRest) {
        self.first_of(self.derivative_base(n))
    }

    /// [`Self::point_with_normal_first`] of two bodies at once: `a`'s with normal `na` and `b`'s
    /// with normal `nb` (each in its own body frame), bit for bit the same as two calls, the two
    /// chains of powers side by side (`nested_supports`).
    pub fn point_with_normal_first_pair(
        a: &Self,
        na: &Vector3<f64>,
        b: &Self,
        nb: &Vector3<f64>,
    ) -> [(Vector3<f64>, Matrix3<f64>, JetRest); 2] {
        let (ma, mb) = (a.scaled(na), b.scaled(nb));
        let [pa, pb] = Self::nested_supports([a, b], [&ma, &mb]);
        [
            a.first_of(a.derivative_base_of(&ma, pa)),
            b.first_of(b.derivative_base_of(&mb, pb)),
        ]
    }

    /// The Jacobian of [`Self::point_with_normal_first`] from its [`Self::derivative_base`].
    #[inline(always)]
    fn first_of(
        &self,
        (point, rest): (Vector3<f64>, Rest),
    ) -> (Vector3<f64>, Matrix3<f64>, JetRest) {
        let jacobian = match rest {
            Rest::Fill(fill) => Matrix3::from_element(fill),
            Rest::Regular {
                m,
                powers,
                inv_scale,
            } => self.jacobian(&DualNormSecond::new(self, &m, powers).hessian(), inv_scale),
        };
        (point, jacobian, JetRest(rest))
    }

    /// The second derivatives `H_k = d^2 x_k / dn dn` of [`Self::point_with_normal_derivatives`]
    /// from what [`Self::point_with_normal_first`] left (body frame; bit for bit the same).
    pub fn point_with_normal_second(&self, rest: &JetRest) -> SymmetricTensor3 {
        match &rest.0 {
            Rest::Fill(fill) => SymmetricTensor3::from_element(*fill),
            Rest::Regular {
                m,
                powers,
                inv_scale,
            } => {
                // The second-order quantities again (a few divisions): a smaller record to carry.
                let second = DualNormSecond::new(self, m, *powers);
                let third = self.dual_norm_third(m, *powers, &second);
                // H_k = r_k R third_k R / scale^2.
                let radii = Vector3::new(self.r[0], self.r[1], self.r[2]);
                third.scaled_per_axis(&radii, inv_scale * inv_scale)
            }
        }
    }

    /// `J = R hess R / scale` from the Hessian of the nested dual norm at the scaled direction.
    #[inline(always)]
    fn jacobian(&self, hess: &Matrix3<f64>, inv_scale: f64) -> Matrix3<f64> {
        let rs = Vector3::new(self.r[0], self.r[1], self.r[2]) * inv_scale;
        Matrix3::from_fn(|k, i| self.r[k] * rs[i] * hess[(k, i)])
    }

    /// The point for `n` and what its derivatives are evaluated on (see
    /// [`Self::point_with_normal_derivatives`]): the scaled direction divided by its largest
    /// component, with components below [`DERIVATIVE_FLOOR`] clamped, and the powers of the two
    /// nested superellipse steps there.
    #[inline(always)]
    fn derivative_base(&self, n: &Vector3<f64>) -> (Vector3<f64>, Rest) {
        let m = self.scaled(n);
        self.derivative_base_of(&m, self.nested_support(&m))
    }

    /// [`Self::derivative_base`] from the scaled direction `m` and its [`Self::nested_support`]
    /// `parts`.
    #[inline(always)]
    fn derivative_base_of(&self, m: &Vector3<f64>, parts: NestedSupport) -> (Vector3<f64>, Rest) {
        let m = *m;
        let point = self.point_of(&m, &parts);
        if !m.iter().all(|v| v.is_finite()) {
            return (point, Rest::Fill(f64::NAN));
        }
        let scale = m.amax();
        if scale == 0.0 {
            return (point, Rest::Fill(0.0));
        }
        let inv_scale = 1.0 / scale;
        let mut mh = m * inv_scale;
        let powers = if mh.iter().any(|v| v.abs() < DERIVATIVE_FLOOR) {
            mh = mh.map(|v| {
                if v.abs() >= DERIVATIVE_FLOOR {
                    v
                } else if v < 0.0 {
                    -DERIVATIVE_FLOOR
                } else {
                    DERIVATIVE_FLOOR
                }
            });
            let p = self.nested_support(&mh);
            [p.u1, p.u2, p.g, p.z, p.mu, p.nu]
        } else {
            let p = parts;
            [p.u1, p.u2, p.g, p.z, p.mu * inv_scale, p.nu * inv_scale]
        };
        let rest = Rest::Regular {
            m: mh,
            powers,
            inv_scale,
        };
        (point, rest)
    }

    /// The third derivatives `T(k, i, j) = d^3 nu / dm_k dm_i dm_j` of the nested dual norm at `m`
    /// (every component non-zero), given the powers `[A1, A2, B, C, mu, nu]` of the two nested
    /// superellipse steps and the second-order quantities `second` there. See
    /// [`Superellipsoid::point_with_normal_derivatives`] for the formulas.
    fn dual_norm_third(
        &self,
        m: &Vector3<f64>,
        powers: [f64; 6],
        second: &DualNormSecond,
    ) -> SymmetricTensor3 {
        let [a1, a2, b, _, mu, _] = powers;
        let (beta1, beta2) = (self.beta1, self.beta2);
        let DualNormSecond {
            dmu,
            q,
            inv_mu,
            inv_nu,
            kappa2,
            ..
        } = *second;
        let hmu = |i: usize, j: usize| second.hmu(i, j);
        let (m3, g3, inv_m3) = (m.z, second.g3, second.inv_m3);
        let n_m3 = second.n_m3;
        let lk_mu = (beta2 - 1.0) * inv_mu - (2.0 * beta2 + 1.0) * b * inv_nu;
        let lk_3 = (beta2 - 1.0) * inv_m3 - (2.0 * beta2 + 1.0) * g3 * inv_nu;
        let n_mmm = kappa2 * lk_mu * m3 * m3;
        let n_mm3 = kappa2 * (lk_3 * m3 * m3 + 2.0 * m3);
        let n_m33 = -kappa2 * mu * (lk_3 * m3 + 1.0);
        let n_333 = kappa2 * lk_3 * mu * mu;
        // D = N2_mumu - N2_mu / mu, without the cancellation at beta2 = 1 near the x3 axis.
        let d = (b * inv_mu) * ((beta2 - 1.0) - beta2 * b * (mu * inv_nu));
        // phi = mu^2 / 2 is homogeneous of degree 2; with the Euler shares t_i = A_i |m_i|
        // (t_1 + t_2 = mu) its third derivatives are products carrying the exact factor
        // (beta1 - 1) (0 for a circular cross-section):
        // phi_iii = (beta1 - 1) beta1 sgn(m_i) A_i t_o (t_o - t_i) / (mu m_i^2),
        // phi_iio = (beta1 - 1) beta1 sgn(m_o) A_i A_o (t_i - t_o) / (mu |m_i|), o the other index.
        let t = [a1 * m.x.abs(), a2 * m.y.abs()];
        let c1 = (beta1 - 1.0) * beta1 * inv_mu;
        let phi_000 = c1 * dmu[0] * t[1] * (t[1] - t[0]) / (m.x * m.x);
        let phi_111 = c1 * dmu[1] * t[0] * (t[0] - t[1]) / (m.y * m.y);
        let phi_001 = c1 * dmu[1] * q[0] * (t[0] - t[1]);
        let phi_011 = c1 * dmu[0] * q[1] * (t[1] - t[0]);
        let b_mu = b * inv_mu;
        // nu_ijl over the horizontal indices, Faa di Bruno (the formulas above).
        let horizontal = |i: usize, j: usize, l: usize, phi: f64| {
            let s3 = hmu(i, l) * dmu[j] + hmu(j, l) * dmu[i] + hmu(i, j) * dmu[l];
            n_mmm * dmu[i] * dmu[j] * dmu[l] + d * s3 + b_mu * phi
        };
        SymmetricTensor3::from_fn(|i, j, l| match (i, j, l) {
            (0, 0, 0) => horizontal(0, 0, 0, phi_000),
            (0, 0, 1) => horizontal(0, 0, 1, phi_001),
            (0, 1, 1) => horizontal(0, 1, 1, phi_011),
            (1, 1, 1) => horizontal(1, 1, 1, phi_111),
            (_, _, 2) if j < 2 => n_mm3 * dmu[i] * dmu[j] + n_m3 * hmu(i, j),
            (_, 2, 2) if i < 2 => n_m33 * dmu[i],
            _ => n_333,
        })
    }
}

/// The second-order quantities of the nested dual norm `nu(m) = N2(mu(m1, m2), m3)` at a scaled
/// direction `m` with every component non-zero (see
/// [`Superellipsoid::point_with_normal_derivatives`] for the names): its Hessian, and what the
/// third derivatives build on.
#[derive(Clone, Copy)]
struct DualNormSecond {
    /// The gradient `mu_i = sgn(m_i) A_i` of the inner norm.
    dmu: [f64; 2],
    /// `q_i = A_i / |m_i|`.
    q: [f64; 2],
    /// `1 / mu`.
    inv_mu: f64,
    /// `1 / nu`.
    inv_nu: f64,
    /// The inner norm's Hessian is `kappa1 w w^T`.
    kappa1: f64,
    /// `w = (m2, -m1)`.
    w: [f64; 2],
    /// `B = (mu/nu)^beta2`.
    b: f64,
    /// `sgn(m3) C`: the outer norm's derivative in `m3`.
    g3: f64,
    /// `1 / m3`.
    inv_m3: f64,
    /// The outer norm's Hessian is `kappa2 (m3, -mu) (m3, -mu)^T`.
    kappa2: f64,
    /// `N2_mumu = kappa2 m3^2`.
    n_mm: f64,
    /// `N2_mu3 = -kappa2 mu m3`.
    n_m3: f64,
    /// `N2_33 = kappa2 mu^2`.
    n_33: f64,
}

impl DualNormSecond {
    /// The quantities at `m` for `shape`'s exponents, given the powers `[A1, A2, B, C, mu, nu]`.
    #[inline(always)]
    fn new(shape: &Superellipsoid, m: &Vector3<f64>, powers: [f64; 6]) -> Self {
        let [a1, a2, b, c, mu, nu] = powers;
        let (beta1, beta2) = (shape.beta1, shape.beta2);
        // Inner 2D norm mu(m1, m2): gradient, q_i = A_i / |m_i|, rank-one Hessian kappa1 w w^T.
        let q = [a1 / m.x.abs(), a2 / m.y.abs()];
        let (inv_mu, inv_nu) = (1.0 / mu, 1.0 / nu);
        // Outer 2D norm N2(mu, m3) and its second derivatives.
        let m3 = m.z;
        let inv_m3 = 1.0 / m3;
        let kappa2 = beta2 * (b * inv_mu) * (c * inv_m3.abs()) * inv_nu;
        Self {
            dmu: [a1.copysign(m.x), a2.copysign(m.y)],
            q,
            inv_mu,
            inv_nu,
            kappa1: beta1 * q[0] * q[1] * inv_mu,
            w: [m.y, -m.x],
            b,
            g3: c.copysign(m3),
            inv_m3,
            kappa2,
            n_mm: kappa2 * m3 * m3,
            n_m3: -kappa2 * mu * m3,
            n_33: kappa2 * mu * mu,
        }
    }

    /// `mu_ij = kappa1 w_i w_j`: the inner norm's Hessian.
    #[inline(always)]
    fn hmu(&self, i: usize, j: usize) -> f64 {
        self.kappa1 * self.w[i] * self.w[j]
    }

    /// The Hessian `grad^2 nu`: `nu_ij = N2_mumu mu_i mu_j + B mu_ij`, `nu_i3 = N2_mu3 mu_i`,
    /// `nu_33 = N2_33`.
    #[inline(always)]
    fn hessian(&self) -> Matrix3<f64> {
        let (dmu, n_mm, n_m3, b) = (self.dmu, self.n_mm, self.n_m3, self.b);
        let h01 = n_mm * dmu[0] * dmu[1] + b * self.hmu(0, 1);
        Matrix3::new(
            n_mm * dmu[0] * dmu[0] + b * self.hmu(0, 0),
            h01,
            n_m3 * dmu[0],
            h01,
            n_mm * dmu[1] * dmu[1] + b * self.hmu(1, 1),
            n_m3 * dmu[1],
            n_m3 * dmu[0],
            n_m3 * dmu[1],
            self.n_33,
        )
    }
}

/// What [`Superellipsoid::point_with_normal_first`] leaves for
/// [`Superellipsoid::point_with_normal_second`] (opaque).
#[derive(Debug, Clone, Copy)]
pub struct JetRest(Rest);

/// The content of a [`JetRest`].
#[derive(Debug, Clone, Copy)]
enum Rest {
    /// A zero direction (`0`) or a non-finite one (`NaN`): every derivative entry is this.
    Fill(f64),
    /// A finite, non-zero direction: the scaled direction (over its largest component, small
    /// components clamped), the powers `[A1, A2, B, C, mu, nu]` there and
    /// `1 / max_i |r_i n_i|`.
    Regular {
        m: Vector3<f64>,
        powers: [f64; 6],
        inv_scale: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::superellipsoid::tests::Rng;

    /// Two bodies evaluated side by side give bit for bit what two calls give: the points (alone,
    /// `point_with_normal_pair`, and with their derivatives), the first derivatives and what the
    /// second derivatives are computed from, for moderate,
    /// box-like and pointed squareness, ellipses (`eps` exactly 1, the square-root lane) beside
    /// powers, and directions on the axes, in the coordinate planes and at zero.
    #[test]
    fn pairs_side_by_side_are_bit_for_bit_two_calls() {
        let mut rng = Rng(41);
        let mut directions = vec![
            Vector3::zeros(),
            Vector3::x(),
            -Vector3::z(),
            Vector3::new(0.0, 0.6, -0.8),
            Vector3::new(1e-60, 1.0, 0.0),
        ];
        directions.extend((0..200).map(|_| rng.direction()));
        for k in 0..400 {
            let (lo, hi) = [(0.1, 1.9), (1.0, 1.0), (0.3, 1.7), (1.6, 1.99)][k % 4];
            let a = rng.shape(lo, hi);
            let b = if k % 8 == 1 {
                Superellipsoid::new(1.3, 0.7, 2.1, 1.0, 0.4).unwrap()
            } else {
                rng.shape(0.1, 1.9)
            };
            for (j, na) in directions.iter().enumerate() {
                let nb = directions[(j * 7 + k) % directions.len()] * rng.uniform(0.1, 10.0);
                let bits = |v: &Vector3<f64>| v.map(f64::to_bits);
                let [(qa, ja, ra), (qb, jb, rb)] =
                    Superellipsoid::point_with_normal_first_pair(&a, na, &b, &nb);
                let (sa, ka, ta) = a.point_with_normal_first(na);
                let (sb, kb, tb) = b.point_with_normal_first(&nb);
                assert_eq!((bits(&qa), bits(&qb)), (bits(&sa), bits(&sb)));
                let [pa, pb] = Superellipsoid::point_with_normal_pair(&a, na, &b, &nb);
                assert_eq!((bits(&pa), bits(&pb)), (bits(&sa), bits(&sb)));
                assert_eq!(ja.map(f64::to_bits), ka.map(f64::to_bits));
                assert_eq!(jb.map(f64::to_bits), kb.map(f64::to_bits));
                let second = |s: &Superellipsoid, r: &JetRest| {
                    s.point_with_normal_second(r)
                        .matrices()
                        .map(|m| m.map(f64::to_bits))
                };
                assert_eq!(second(&a, &ra), second(&a, &ta));
                assert_eq!(second(&b, &rb), second(&b, &tb));
            }
        }
    }

    /// A random direction with every component of magnitude > 0.05 (where the map is smooth and
    /// the kernel's Newton iterates live), scaled by a random length.
    fn off_plane_direction(rng: &mut Rng) -> Vector3<f64> {
        loop {
            let d = rng.direction();
            if d.amin() > 0.05 {
                return d * rng.uniform(0.2, 5.0);
            }
        }
    }

    /// A random superellipsoid with radii in (0.3, 3) and squareness in [0.1, 1.9].
    fn derivative_shape(rng: &mut Rng) -> Superellipsoid {
        Superellipsoid::new(
            rng.uniform(0.3, 3.0),
            rng.uniform(0.3, 3.0),
            rng.uniform(0.3, 3.0),
            rng.uniform(0.1, 1.9),
            rng.uniform(0.1, 1.9),
        )
        .unwrap()
    }

    /// Central differences of `point_with_normal`: the Jacobian (step `h1`) and the second
    /// derivatives (step `h2`, the four-point mixed stencil, which is the 3-point one for i = j).
    fn fd_derivatives(
        s: &Superellipsoid,
        n: &Vector3<f64>,
        h1: f64,
        h2: f64,
    ) -> (Matrix3<f64>, [Matrix3<f64>; 3]) {
        let x = |v: Vector3<f64>| s.point_with_normal(&v);
        let mut jac = Matrix3::zeros();
        for i in 0..3 {
            let e = Vector3::ith(i, h1);
            jac.set_column(i, &((x(n + e) - x(n - e)) / (2.0 * h1)));
        }
        let mut hess = [Matrix3::zeros(); 3];
        for i in 0..3 {
            for j in 0..3 {
                let (ei, ej) = (Vector3::ith(i, h2), Vector3::ith(j, h2));
                let d2 = (x(n + ei + ej) - x(n + ei - ej) - x(n - ei + ej) + x(n - ei - ej))
                    / (4.0 * h2 * h2);
                for k in 0..3 {
                    hess[k][(i, j)] = d2[k];
                }
            }
        }
        (jac, hess)
    }

    #[test]
    fn derivatives_match_central_differences() {
        // Steps relative to |n| (x is homogeneous of degree 0). The allowed error is relative to
        // the derivative plus the rounding of the differences, eps_mach |x| / h for J and
        // eps_mach |x| / h^2 for H (in units of |x| / |n|): near the vertices of the
        // octahedron-like shapes (eps -> 2) J is ~1e-10 |x| / |n|, below what differences of
        // points can resolve.
        let (h1, h2) = (1e-5, 5e-5);
        let mut rng = Rng(20);
        let (mut worst_j, mut worst_h): (f64, f64) = (0.0, 0.0);
        for _ in 0..200 {
            let s = derivative_shape(&mut rng);
            for _ in 0..10 {
                let n = off_plane_direction(&mut rng);
                let d = s.point_with_normal_derivatives(&n);
                assert_eq!(d.point, s.point_with_normal(&n));
                let (point, jacobian, _) = s.point_with_normal_first(&n);
                assert_eq!((d.point, d.jacobian), (point, jacobian));
                let len = n.norm();
                let (fd_j, fd_h) = fd_derivatives(&s, &n, h1 * len, h2 * len);
                let unit = d.point.amax() / len;
                let ej = (d.jacobian - fd_j).amax() / (d.jacobian.amax() + 1e-3 * unit);
                let scale_h = d.hessians.amax();
                let eh = (0..3)
                    .map(|k| (d.hessians.matrices()[k] - fd_h[k]).amax())
                    .fold(0.0, f64::max)
                    / (scale_h + 1e-2 * unit / len);
                assert!(ej < 1e-6, "{s:?} n = {n:?}: J rel err {ej:e}");
                assert!(eh < 1e-4, "{s:?} n = {n:?}: H rel err {eh:e}");
                worst_j = worst_j.max(ej);
                worst_h = worst_h.max(eh);
            }
        }
        eprintln!("max rel err against differences of points: J {worst_j:e}, H {worst_h:e}");
    }

    #[test]
    fn hessians_match_central_differences_of_the_analytic_jacobian() {
        // A sharper check of H than differences of points: H_k[i][j] = d J[k][i] / d n_j.
        let mut rng = Rng(21);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let s = derivative_shape(&mut rng);
            for _ in 0..10 {
                let n = off_plane_direction(&mut rng);
                let d = s.point_with_normal_derivatives(&n);
                let h = 1e-6 * n.norm();
                let scale_h = d.hessians.amax();
                for j in 0..3 {
                    let e = Vector3::ith(j, h);
                    let dj = (s.point_with_normal_derivatives(&(n + e)).jacobian
                        - s.point_with_normal_derivatives(&(n - e)).jacobian)
                        / (2.0 * h);
                    for k in 0..3 {
                        for i in 0..3 {
                            worst =
                                worst.max((d.hessians.get(k, i, j) - dj[(k, i)]).abs() / scale_h);
                        }
                    }
                }
            }
        }
        eprintln!("max rel err of H against differences of J: {worst:e}");
        assert!(worst < 1e-6, "{worst:e}");
    }

    #[test]
    fn derivatives_obey_homogeneity_and_symmetry() {
        // x is homogeneous of degree 0 in n: J n = 0, and differentiating J(n) n = 0 once more,
        // sum_j H_k[i][j] n_j + J[k][i] = 0. x = grad h for the support function h, so J and the
        // third derivatives of h (r_k r_i r_j d^3 nu) are symmetric in all indices, and J >= 0.
        let mut rng = Rng(22);
        let (mut worst_jn, mut worst_hn, mut worst_sym): (f64, f64, f64) = (0.0, 0.0, 0.0);
        for _ in 0..200 {
            let s = derivative_shape(&mut rng);
            for _ in 0..10 {
                let n = off_plane_direction(&mut rng);
                let d = s.point_with_normal_derivatives(&n);
                let (j, hs) = (d.jacobian, d.hessians.matrices());
                let jn = (j * n).amax() / (j.amax() * n.amax());
                assert!(jn < 1e-12, "{s:?} {n:?}: |J n| rel {jn:e}");
                worst_jn = worst_jn.max(jn);
                let scale_h = hs.iter().map(|m| m.amax()).fold(0.0, f64::max) * n.amax();
                for (k, hk) in hs.iter().enumerate() {
                    let r = (hk * n + j.row(k).transpose()).amax() / scale_h;
                    assert!(r < 1e-12, "{s:?} {n:?}: |H_k n + J_k| rel {r:e}");
                    worst_hn = worst_hn.max(r);
                }
                let mut sym = (j - j.transpose()).amax() / j.amax();
                for k in 0..3 {
                    for a in 0..3 {
                        for b in 0..3 {
                            let v = hs[k][(a, b)];
                            for w in [hs[k][(b, a)], hs[a][(k, b)], hs[b][(a, k)]] {
                                sym = sym.max((v - w).abs() / (scale_h / n.amax()));
                            }
                        }
                    }
                }
                assert!(sym < 1e-12, "{s:?} {n:?}: asymmetry {sym:e}");
                worst_sym = worst_sym.max(sym);
                let eig = j.symmetric_eigenvalues();
                assert!(eig.min() > -1e-12 * j.amax(), "{eig:?}");
            }
        }
        eprintln!("max rel: |J n| {worst_jn:e}, |H n + J| {worst_hn:e}, asymmetry {worst_sym:e}");
    }

    #[test]
    fn derivatives_of_the_sphere_match_closed_forms() {
        // x = R n / |n|: J = R (I - u u^T) / |n| with u = n / |n|, and
        // d^2 x_k / dn_i dn_j = R (3 u_i u_j u_k - delta_ki u_j - delta_kj u_i - delta_ij u_k) / |n|^2.
        // Axis-aligned and planar normals included: for eps = 1 the map is smooth everywhere and the
        // clamping of zero components changes nothing visible.
        let radius = 1.3;
        let s = Superellipsoid::new(radius, radius, radius, 1.0, 1.0).unwrap();
        let mut rng = Rng(23);
        let mut normals: Vec<_> = (0..500)
            .map(|_| rng.direction() * rng.uniform(0.1, 10.0))
            .collect();
        normals.extend([
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, -2.0, 0.0),
            Vector3::new(0.0, 0.0, 0.5),
            Vector3::new(1.0, 1.0, 0.0),
            Vector3::new(0.0, -1.0, 3.0),
        ]);
        let mut worst: f64 = 0.0;
        for n in &normals {
            let len = n.norm();
            let u = n / len;
            let d = s.point_with_normal_derivatives(n);
            let j = radius * (Matrix3::identity() - u * u.transpose()) / len;
            worst = worst.max((d.jacobian - j).amax() * len / radius);
            for k in 0..3 {
                let hk = Matrix3::from_fn(|i, jj| {
                    let dl = |a: usize, b: usize| if a == b { 1.0 } else { 0.0 };
                    radius
                        * (3.0 * u[i] * u[jj] * u[k]
                            - dl(k, i) * u[jj]
                            - dl(k, jj) * u[i]
                            - dl(i, jj) * u[k])
                        / (len * len)
                });
                worst = worst.max((d.hessians.matrices()[k] - hk).amax() * len * len / radius);
            }
        }
        assert!(worst < 1e-14, "sphere derivatives off by {worst:e}");
    }

    #[test]
    fn derivatives_on_and_near_the_coordinate_planes_are_finite() {
        let mut normals = vec![
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, -1.0, 0.0),
            Vector3::new(0.0, 0.0, 1.0),
            Vector3::new(-0.0, 0.0, -1.0),
            Vector3::new(1.0, -1.0, 0.0),
            Vector3::new(0.0, 1.0, 1.0),
            Vector3::new(1.0, 0.0, -1.0),
        ];
        for tiny in [1e-300, 1e-60, 1e-50, 1e-40, 1e-17, 1e-8] {
            normals.push(Vector3::new(1.0, tiny, -tiny));
            normals.push(Vector3::new(tiny, -tiny, 1.0));
            normals.push(Vector3::new(0.6, -0.8, tiny));
            normals.push(Vector3::new(tiny, 0.7, -0.7));
        }
        for eps1 in [0.1, 0.5, 1.0, 1.5, 1.9] {
            for eps2 in [0.1, 0.5, 1.0, 1.5, 1.9] {
                let s = Superellipsoid::new(0.8, 1.3, 2.1, eps1, eps2).unwrap();
                for n in &normals {
                    let d = s.point_with_normal_derivatives(n);
                    assert_eq!(d.point, s.point_with_normal(n));
                    let (point, jacobian, _) = s.point_with_normal_first(n);
                    assert_eq!((d.point, d.jacobian), (point, jacobian));
                    let hessians = d.hessians.matrices();
                    let all = d
                        .jacobian
                        .iter()
                        .chain(hessians.iter().flat_map(|h| h.iter()));
                    for v in all {
                        assert!(v.is_finite() && v.abs() < 1e110, "{s:?} {n:?}: {d:?}");
                    }
                    // Homogeneity holds at the clamped direction, a relative 1e-50 away.
                    assert!((d.jacobian * n).amax() <= 1e-12 * d.jacobian.amax() * n.amax());
                }
            }
        }
        // Where the one-sided limit is finite it is returned: with eps = 1.9 (beta = 19) the map is
        // smooth across the plane of that component (|m|^19), and differences of points across the
        // plane agree with the values at the clamped direction.
        for (eps1, eps2, n) in [
            (1.0, 1.9, Vector3::new(0.6, -0.8, 0.0)),
            (1.9, 1.0, Vector3::new(0.0, 0.6, -0.8)),
            (1.9, 1.0, Vector3::new(0.6, 0.0, 0.8)),
        ] {
            let s = Superellipsoid::new(0.8, 1.3, 2.1, eps1, eps2).unwrap();
            let d = s.point_with_normal_derivatives(&n);
            let (fd_j, fd_h) = fd_derivatives(&s, &n, 1e-5, 5e-5);
            let ej = (d.jacobian - fd_j).amax() / d.jacobian.amax();
            assert!(ej < 1e-6, "{eps1} {eps2} {n:?}: {ej:e}");
            let scale_h = d.hessians.amax();
            for (hk, fk) in d.hessians.matrices().iter().zip(&fd_h) {
                let eh = (hk - fk).amax() / scale_h;
                assert!(eh < 1e-4, "{eps1} {eps2} {n:?}: {eh:e}");
            }
        }
        let s = Superellipsoid::new(0.8, 1.3, 2.1, 1.9, 1.9).unwrap();
        // A zero n has no direction: zeros; a NaN n gives NaN derivatives, not a panic.
        let z = s.point_with_normal_derivatives(&Vector3::zeros());
        assert_eq!(z.jacobian, Matrix3::zeros());
        assert_eq!(z.hessians.matrices(), [Matrix3::zeros(); 3]);
        let bad = s.point_with_normal_derivatives(&Vector3::new(f64::NAN, 1.0, 0.0));
        assert!(bad.jacobian.iter().all(|v| v.is_nan()));
        let (_, jacobian, rest) = s.point_with_normal_first(&Vector3::zeros());
        assert_eq!(jacobian, Matrix3::zeros());
        assert_eq!(
            s.point_with_normal_second(&rest).matrices(),
            [Matrix3::zeros(); 3]
        );
    }
}
