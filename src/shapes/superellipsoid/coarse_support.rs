//! A certified upper bound of a superellipsoid's support function, evaluated in the log domain
//! for short dependency chains: what the separating-plane tests of the common-normal search need
//! (Wellmann, Lillie & Wriggers 2008, eq. (12)), at a fraction of the exact point's latency.
//!
//! # Method
//!
//! The support function is the dual nested norm of `m = (r1 n1, r2 n2, r3 n3)` (see
//! [`super::Superellipsoid::point_with_normal`]): with the dual exponents `q_i = 2/(2 - eps_i)`,
//! `mu = ||(m1, m2)||_(q1)` and `h = ||(mu, m3)||_(q2)`. Each 2D norm is
//! `||(a, b)||_q = big (1 + t^q)^(1/q)`, `t = small/big`, so in base-2 logarithms
//! (`L = log2`):
//!
//! `L mu = L big1 + L(1 + 2^(q1 (L small1 - L big1))) / q1`, and the same for `L h` from `L mu` and
//! `L |m3|`; `h = 2^(L h)`. The three input logarithms run in parallel; the chain is then two
//! steps of `L(1 + 2^-t)` (one table lookup and one polynomial each, module `softplus`: not an
//! `exp2` and then a `log2`) and the final `exp2`, with no division and no return from the log
//! domain between the levels (the accurate form takes four powers, each a `log2` and an `exp2`,
//! and four divisions in series). The support point follows from the same logarithms:
//! `|x1| = r1 2^(beta1 (L|m1| - L mu) + beta2 (L mu - L h))`, `|x2|` likewise,
//! `|x3| = r3 2^(beta2 (L|m3| - L h))`, `beta_i = q_i - 1`.
//!
//! `log2`: `x = 2^k m`, `m` in `[1, 2)`, a 32-entry table of `1/c_i` and `log2 c_i`,
//! `r = m/c_i - 1`, `|r| <= 1/65`, and `log2(1 + r)` cut after `r^4`; absolute error below
//! `E_LOG = 3e-10` (series tail `2.6e-10`, roundings below `1.2e-13` for any normal `x`). `exp2`: `w = n + f`, `|f| <= 1/2`, the
//! degree-7 Taylor polynomial of `2^f` (Estrin's scheme), relative error below `E_EXP = 7.5e-9`.
//!
//! # Error bound
//!
//! An absolute error `e` of a base-2 logarithm is a relative error below `0.7 e (1 + e)` of its
//! power. Through one level whose input logarithms are off by at most `e_in`:
//! `t = q (L big - L small)` is off by `q (2 e_in + 2.5e-13)`; `L(1 + 2^-t)` has a slope of at most
//! `1/2` in `t` and is evaluated within `E_SOFTPLUS = 3.5e-10` (`softplus::SOFTPLUS_ERROR`), so it
//! is off by `q (e_in + 1.3e-13) + E_SOFTPLUS`, and divided by `q >= 1` by at most
//! `e_in + 1.3e-13 + E_SOFTPLUS`; with `L big`'s own error and the last roundings, the level's
//! output logarithm is off by at most `2 e_in + 3.6e-10`. From the inputs' `E_LOG`: `L mu` is off
//! by at most `9.6e-10`, `L h` by `2.3e-9`, and `h` by `0.7 * 2.3e-9 + E_EXP`, below `9.1e-9`
//! relative (the exponents `q` only cancel: the error of `t` is scaled back by `1/q`).
//! [`super::LOG_DOMAIN_MARGIN`] (`1e-7`) covers that with a factor of 11; the tests measure the
//! real error.
//! Exponents `q` above 64 (squareness within 0.031 of 2) are outside the fast path's range and
//! take the accurate closed form instead.

use super::softplus::log2_one_plus_exp2_neg;
use nalgebra::{Matrix2, Vector2, Vector3};

/// The largest dual exponent `q = 2/(2 - eps)` of the log-domain path.
pub const Q_MAX: f64 = 64.0;

/// The number of `log2` intervals of the mantissa in `[1, 2)`.
const LOG_INTERVALS: usize = 32;
/// `1/c_i`, `c_i = 1 + (i + 1/2)/32` the centre of the `i`-th interval of `[1, 2)`, rounded.
const INV_C: [f64; LOG_INTERVALS] = [
    0.9846153846153847,
    0.9552238805970149,
    0.927536231884058,
    0.9014084507042254,
    0.8767123287671232,
    0.8533333333333334,
    0.8311688311688312,
    0.810126582278481,
    0.7901234567901234,
    0.7710843373493976,
    0.7529411764705882,
    0.735632183908046,
    0.7191011235955056,
    0.7032967032967034,
    0.6881720430107527,
    0.6736842105263158,
    0.6597938144329897,
    0.6464646464646465,
    0.6336633663366337,
    0.6213592233009708,
    0.6095238095238096,
    0.5981308411214953,
    0.5871559633027523,
    0.5765765765765766,
    0.5663716814159292,
    0.5565217391304348,
    0.5470085470085471,
    0.5378151260504201,
    0.5289256198347108,
    0.5203252032520326,
    0.512,
    0.5039370078740157,
];
/// `-log2(INV_C[i])` (to within an ulp): `log2 m = log2(m INV_C[i]) + LOG_C[i]`.
const LOG_C: [f64; LOG_INTERVALS] = [
    0.022367813028454427,
    0.06608919045777246,
    0.10852445677816903,
    0.14974711950468203,
    0.1898245588800173,
    0.22881869049588077,
    0.26678654069490126,
    0.30378074817710293,
    0.3398500028846248,
    0.3750394313469247,
    0.4093909361377018,
    0.44294349584872833,
    0.4757334309663978,
    0.5077946401986961,
    0.5391588111080313,
    0.5698556083309478,
    0.5999128421871277,
    0.6293566200796095,
    0.6582114827517948,
    0.6865005271832185,
    0.7142455176661225,
    0.741466986401147,
    0.7681843247769263,
    0.794415866350106,
    0.8201789624151877,
    0.8454900509443752,
    0.8703647195834043,
    0.8948177633079436,
    0.9188632372745945,
    0.9425145053392397,
    0.965784284662087,
    0.9886846867721659,
];
/// `1 / ln 2`, and the coefficients `(-1)^(k+1) / (k ln 2)` of `log2(1 + r)` up to `r^4`.
const A1: f64 = std::f64::consts::LOG2_E;
/// `-1 / (2 ln 2)`.
const A2: f64 = -A1 / 2.0;
/// `1 / (3 ln 2)`.
const A3: f64 = A1 / 3.0;
/// `-1 / (4 ln 2)`.
const A4: f64 = -A1 / 4.0;
/// The bits of 1.0: the exponent field of a mantissa in `[1, 2)`.
const ONE_BITS: u64 = 0x3ff0_0000_0000_0000;
/// The mantissa field of a double.
const MANTISSA_MASK: u64 = (1u64 << 52) - 1;
/// `1.5 * 2^52`: `(v + SHIFT) - SHIFT` is `v` rounded to the nearest integer (ties to even) for
/// `|v| < 2^51`, and the low bits of `v + SHIFT` hold that integer.
pub(super) const SHIFT: f64 = 6_755_399_441_055_744.0;
/// `ln 2`: with [`E2`]..[`E7`], the Taylor coefficients `(ln 2)^k / k!` of `2^f`.
const E1: f64 = std::f64::consts::LN_2;
/// `(ln 2)^2 / 2!`.
const E2: f64 = E1 * E1 / 2.0;
/// `(ln 2)^3 / 3!`.
const E3: f64 = E2 * E1 / 3.0;
/// `(ln 2)^4 / 4!`.
const E4: f64 = E3 * E1 / 4.0;
/// `(ln 2)^5 / 5!`.
const E5: f64 = E4 * E1 / 5.0;
/// `(ln 2)^6 / 6!`.
const E6: f64 = E5 * E1 / 6.0;
/// `(ln 2)^7 / 7!`.
const E7: f64 = E6 * E1 / 7.0;

/// `log2 x` for `x >= 0` to `3e-10` absolute (`-inf` for 0; subnormal and infinite `x` take the
/// standard library's `log2`): `x = 2^k m`, `m` in `[1, 2)`, the top 5 bits of `m`'s mantissa pick `c_i`,
/// and `log2 m = LOG_C[i] + log2(1 + r)`, `r = m/c_i - 1` with `|r| <= 1/65`, whose series is cut
/// after `r^4` (tail below `2.6e-10`).
#[inline(always)]
fn log2(x: f64) -> f64 {
    // Zero, subnormal, infinite and NaN `x` take the cold path.
    if !(f64::MIN_POSITIVE..f64::INFINITY).contains(&x) {
        return log2_cold(x);
    }
    let ix = x.to_bits();
    let k = (ix >> 52) as i64 - 1023;
    let i = ((ix >> 47) & (LOG_INTERVALS as u64 - 1)) as usize;
    let m = f64::from_bits((ix & MANTISSA_MASK) | ONE_BITS);
    let r = m * INV_C[i] - 1.0;
    let r2 = r * r;
    let poly = (A1 + A2 * r) + r2 * (A3 + A4 * r);
    (k as f64 + LOG_C[i]) + r * poly
}

/// `log2` of 0, subnormal or non-finite `x`, off the fast path.
#[cold]
#[inline(never)]
fn log2_cold(x: f64) -> f64 {
    x.log2()
}

/// `2^w` to `7.5e-9` relative for `w` in `[-1022, 1023]`; 0 below (and for NaN), `+inf` above.
#[inline(always)]
fn exp2(w: f64) -> f64 {
    if !(-1022.0..=1023.0).contains(&w) {
        return if w > 0.0 { f64::INFINITY } else { 0.0 };
    }
    let shifted = w + SHIFT;
    let n = shifted.to_bits() as i64 as i32;
    let f = w - (shifted - SHIFT);
    let f2 = f * f;
    let f4 = f2 * f2;
    let low = (1.0 + E1 * f) + f2 * (E2 + E3 * f);
    let high = (E4 + E5 * f) + f2 * (E6 + E7 * f);
    f64::from_bits(((n + 1023) as u64) << 52) * (low + f4 * high)
}

/// `(L ||(a, b)||_q, ...)`: the base-2 logarithm of the 2D dual norm from the logarithms `la`, `lb`
/// of its (non-negative) arguments, `q` in `[1, Q_MAX]`, `inv_q = 1/q`.
#[inline(always)]
fn log_norm(la: f64, lb: f64, q: f64, inv_q: f64) -> f64 {
    let (big, small) = (la.max(lb), la.min(lb));
    // `L(1 + 2^(q (small - big)))` at once. A zero argument has the logarithm -inf: `big - small`
    // is +inf (or NaN for two zeros), and the sum's logarithm is 0 for both.
    big + log2_one_plus_exp2_neg(q * (big - small)) * inv_q
}

/// What the log-domain support function needs of a body: a superellipsoid's semi-axes `r`, its
/// dual exponents `q = [q1, q2]` (each in `[1, Q_MAX]`) and their inverses (a sphere is the case
/// `r1 = r2 = r3`, `q = [2, 2]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogSupport {
    /// The semi-axes (host length unit).
    pub r: [f64; 3],
    /// The dual exponents `q_i = 2/(2 - eps_i)`, in `[1, Q_MAX]`.
    pub q: [f64; 2],
    /// `1/q_i = (2 - eps_i)/2`.
    pub inv_q: [f64; 2],
    /// `log2 beta_i`, `beta_i = q_i - 1` (the exponents of [`SupportLogs::gradient`]): the
    /// factors of the support point's Jacobian ([`SupportLogs::jacobian`]).
    pub log2_beta: [f64; 2],
}

impl LogSupport {
    /// The sphere of radius `r`.
    pub fn sphere(r: f64) -> Self {
        LogSupport {
            r: [r; 3],
            q: [2.0; 2],
            inv_q: [0.5; 2],
            log2_beta: [0.0; 2],
        }
    }

    /// The support point whose gradient `dh/dm` is `y` ([`SupportLogs::gradient`]): each
    /// coordinate is its semi-axis times `y`'s.
    #[inline(always)]
    pub fn point_from_gradient(&self, y: &Vector3<f64>) -> Vector3<f64> {
        let r = &self.r;
        Vector3::new(r[0] * y.x, r[1] * y.y, r[2] * y.z)
    }
}

/// The logarithms one support evaluation of [`support_logs`] leaves, from which the support
/// function ([`Self::h`]) and the support point ([`Self::point`]) follow.
#[derive(Debug, Clone, Copy)]
pub struct SupportLogs {
    /// `m = (r1 n1, r2 n2, r3 n3)` (for the signs of the point).
    m: Vector3<f64>,
    /// `log2 |m_i|`.
    lm: [f64; 3],
    /// `log2 mu`, the horizontal dual norm.
    lmu: f64,
    /// `log2 h`.
    lh: f64,
}

impl SupportLogs {
    /// The support function `h(n)`, within `9.1e-9` relative (see the module documentation).
    #[inline(always)]
    pub fn h(&self) -> f64 {
        exp2(self.lh)
    }

    /// The support point along `n` of `body` (the one these logarithms were evaluated for), to
    /// about `1e-7` of the body's size.
    #[inline(always)]
    pub fn point(&self, body: &LogSupport) -> Vector3<f64> {
        body.point_from_gradient(&self.gradient(body))
    }

    /// `dh/dm`, `m = D n`: the support point with each coordinate divided by its semi-axis
    /// (`x_i = r_i dh/dm_i`), to about `1e-7` relative; what [`Self::jacobian`] takes.
    #[inline(always)]
    pub fn gradient(&self, body: &LogSupport) -> Vector3<f64> {
        let (q, m) = (&body.q, &self.m);
        let (beta1, beta2) = (q[0] - 1.0, q[1] - 1.0);
        let vertical = beta2 * (self.lmu - self.lh);
        Vector3::new(
            exp2(beta1 * (self.lm[0] - self.lmu) + vertical).copysign(m.x),
            exp2(beta1 * (self.lm[1] - self.lmu) + vertical).copysign(m.y),
            exp2(beta2 * (self.lm[2] - self.lh)).copysign(m.z),
        )
    }

    /// The Jacobian of the support point of `body` at the unit direction `n / length`, `n` the
    /// direction these logarithms were evaluated for (`length = |n|`: `J` scales as `1/|n|`),
    /// given the gradient `y = dh/dm` there ([`Self::gradient`], which gives the point too), to
    /// about `1e-7` relative (a capped model where a face is flat, see
    /// [`SupportJacobian::on_plane`]).
    ///
    /// The support function is `h = G2(mu(m1, m2), m3)` with `G(a, b) = ||(a, b)||_q` and
    /// `m = D n`, `D = diag(r)`, so `J = D (d^2 h / dm^2) D`. `G`'s Hessian is rank one:
    /// `(q - 1) |g_a g_b| / (G |a b|) (b, -a)(b, -a)^T`, `g = dG`. Through the two levels:
    ///
    /// * `dh/dmu d^2 mu` gives `a_1 v_1 v_1^T`, `v_1 = (r1 m2, -r2 m1, 0)`,
    ///   `log2 a_1 = log2(q1 - 1) + (q1 - 2)(L m1 + L m2) - (2 q1 - 1) L mu + (q2 - 1)(L mu - L h)`;
    /// * `d(mu, m3)/dm^T d^2 G2 d(mu, m3)/dm` gives `a_2 v_2 v_2^T`, with `dmu/dm_i = x_i / (r_i w)`,
    ///   `w = dh/dmu`, and `w mu = m1 x1 / r1 + m2 x2 / r2` (Euler's identity for `h` and for `mu`;
    ///   the form `h - m3 x3 / r3` cancels near a pointed body's tip): scaled by `w`,
    ///   `v_2 = (m3 x1, m3 x2, -r3 w mu)`,
    ///   `log2 a_2 = log2(q2 - 1) + (q2 - 2) L m3 - q2 L mu - L h`
    ///
    /// (`L = log2 |.|`). A sphere (`q = 2`) gets `r (I - u u^T)`, `u` the unit direction.
    #[inline(always)]
    pub fn jacobian(&self, body: &LogSupport, y: &Vector3<f64>, length: f64) -> SupportJacobian {
        let (r, q, m) = (&body.r, &body.q, &self.m);
        let [l1, l2, l3] = self.lm.map(|l| l.max(LOG_FLOOR));
        let (lmu, lh) = (self.lmu.max(LOG_FLOOR), self.lh);
        let log_a1 = body.log2_beta[0] + (q[0] - 2.0) * (l1 + l2) - (2.0 * q[0] - 1.0) * lmu
            + (q[1] - 1.0) * (lmu - lh);
        let log_a2 = body.log2_beta[1] + (q[1] - 2.0) * l3 - q[1] * lmu - lh;
        SupportJacobian {
            terms: [
                (
                    exp2(log_a1.min(LOG_CEILING)) * length,
                    Vector3::new(r[0] * m.y, -r[1] * m.x, 0.0),
                ),
                (
                    exp2(log_a2.min(LOG_CEILING)) * length,
                    Vector3::new(
                        m.z * r[0] * y.x,
                        m.z * r[1] * y.y,
                        -r[2] * (m.x * y.x + m.y * y.y),
                    ),
                ),
            ],
            size: m.x.abs().max(m.y.abs()).max(m.z.abs()) / length,
        }
    }
}

/// The largest curvature radius (relative to the largest `|r_i n_i|`, at most the support function
/// `h` along the unit direction `n` and at least a third of it) that a term of
/// [`SupportLogs::jacobian`] contributes on a tangent plane: where a box-like body's face is flat
/// (a component of the direction near 0, `eps < 1`) the true radius grows without bound; capped,
/// the model stays finite and its eigenvalues resolvable in `f64`.
const RADIUS_CAP: f64 = (1u64 << 30) as f64;

/// The floor of the logarithms [`SupportLogs::jacobian`] combines: a zero component's `-inf`
/// would meet `+inf` (or a zero factor) in the exponents.
const LOG_FLOOR: f64 = -1000.0;

/// The ceiling of the exponents of [`SupportLogs::jacobian`]'s factors (`2^1000` stays finite;
/// [`RADIUS_CAP`] then bounds the term).
const LOG_CEILING: f64 = 1000.0;

/// The Jacobian `J = dx/dn` of a superellipsoid's support point `x(n)` (body frame), as the sum
/// of two rank-one terms `a_k v_k v_k^T` (from [`SupportLogs::jacobian`]): symmetric, positive
/// semi-definite, `J n = 0`. On a plane normal to `n` it holds the surface's principal radii of
/// curvature at `x`.
#[derive(Debug, Clone, Copy)]
pub struct SupportJacobian {
    /// `(a_k, v_k)`, `a_k >= 0`.
    terms: [(f64, Vector3<f64>); 2],
    /// The largest `|r_i n_i|` of the unit direction `n` the terms are for: the length the cap is
    /// relative to.
    size: f64,
}

impl SupportJacobian {
    /// `[[u.J u, u.J w], [w.J u, w.J w]]`: `J` on the plane spanned by `u`, `w` (body frame;
    /// unit and normal to the direction for the curvature radii), each term's trace there capped
    /// at `RADIUS_CAP` times the largest `|r_i n_i|`.
    #[inline(always)]
    pub fn on_plane(&self, u: &Vector3<f64>, w: &Vector3<f64>) -> Matrix2<f64> {
        let cap = RADIUS_CAP * self.size;
        let mut m = Matrix2::zeros();
        for (a, v) in &self.terms {
            let p = Vector2::new(v.dot(u), v.dot(w));
            let pp = p.dot(&p);
            // `a <= cap / pp` where the term would pass the cap (a zero `p` adds nothing).
            let a = if a * pp <= cap {
                *a
            } else if pp > 0.0 {
                cap / pp
            } else {
                0.0
            };
            m += p * p.transpose() * a;
        }
        m
    }
}

/// The support function of `bodies[i]` along `n_i` (body frame) in the log domain, for `N`
/// bodies at once (see [`SupportLogs`] for `h` and the point).
///
/// The `N` evaluations are written statement by statement side by side, so that their dependency
/// chains overlap in the processor (one body alone is latency-bound; two cost little more).
#[inline(always)]
pub fn support_logs<const N: usize>(
    bodies: [&LogSupport; N],
    n: [&Vector3<f64>; N],
) -> [SupportLogs; N] {
    // Plain loops over the lanes (fully unrolled, `N` being a constant), in stages.
    let mut m = [Vector3::zeros(); N];
    let mut lm = [[0.0; 3]; N];
    for i in 0..N {
        let r = &bodies[i].r;
        m[i] = Vector3::new(r[0] * n[i].x, r[1] * n[i].y, r[2] * n[i].z);
    }
    for i in 0..N {
        lm[i] = [log2(m[i].x.abs()), log2(m[i].y.abs()), log2(m[i].z.abs())];
    }
    let mut lmu = [0.0; N];
    for i in 0..N {
        lmu[i] = log_norm(lm[i][0], lm[i][1], bodies[i].q[0], bodies[i].inv_q[0]);
    }
    let mut logs = [SupportLogs {
        m: Vector3::zeros(),
        lm: [0.0; 3],
        lmu: 0.0,
        lh: 0.0,
    }; N];
    for i in 0..N {
        logs[i] = SupportLogs {
            m: m[i],
            lm: lm[i],
            lmu: lmu[i],
            lh: log_norm(lmu[i], lm[i][2], bodies[i].q[1], bodies[i].inv_q[1]),
        };
    }
    logs
}

/// The base-2 logarithm of the gauge `||(||(X1, X2)||_(p1), X3)||_(p2)`, `X_i = x_i / r_i`, of the
/// superellipsoid with semi-axes of logarithms `log_r` (`log2 r_i`, accurate) and exponents
/// `p = [2/eps1, 2/eps2]` (each in `[1, Q_MAX]`, `inv_p` their inverses): within `2.4e-9` absolute
/// (the same nested 2D norms as the support function's, with `p` for `q`, and `log2 |X_i|` as
/// `log2 |x_i| - log2 r_i`: no division; see the module documentation). `-inf` at the origin.
#[inline(always)]
pub fn log_gauge(log_r: &[f64; 3], p: [f64; 2], inv_p: [f64; 2], x: &Vector3<f64>) -> f64 {
    let [log_gauge] = log_gauges([log_r], [p], [inv_p], [x]);
    log_gauge
}

/// [`log_gauge`] of `N` bodies at once (body `i` at `x[i]`), each bit for bit the same, the
/// stages written side by side as in [`support_logs`].
#[inline(always)]
pub fn log_gauges<const N: usize>(
    log_r: [&[f64; 3]; N],
    p: [[f64; 2]; N],
    inv_p: [[f64; 2]; N],
    x: [&Vector3<f64>; N],
) -> [f64; N] {
    let lx: [[f64; 3]; N] = std::array::from_fn(|i| {
        [
            log2(x[i].x.abs()) - log_r[i][0],
            log2(x[i].y.abs()) - log_r[i][1],
            log2(x[i].z.abs()) - log_r[i][2],
        ]
    });
    let lg: [f64; N] = std::array::from_fn(|i| log_norm(lx[i][0], lx[i][1], p[i][0], inv_p[i][0]));
    std::array::from_fn(|i| log_norm(lg[i], lx[i][2], p[i][1], inv_p[i][1]))
}

/// The gauge of [`log_gauge`] itself: within `9.1e-9` relative.
#[inline(always)]
pub fn gauge(log_r: &[f64; 3], p: [f64; 2], inv_p: [f64; 2], x: &Vector3<f64>) -> f64 {
    exp2(log_gauge(log_r, p, inv_p, x))
}

/// `log2 x` within `3e-10` absolute (the log domain's own `log2`, see the module documentation).
#[inline(always)]
pub fn fast_log2(x: f64) -> f64 {
    log2(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::superellipsoid::tests::Rng;
    use crate::shapes::superellipsoid::Superellipsoid;
    use crate::shapes::Sphere;

    /// Two unit vectors spanning the plane normal to the unit `n`, turned at random about it.
    fn plane(n: &Vector3<f64>, rng: &mut Rng) -> (Vector3<f64>, Vector3<f64>) {
        let v = rng.direction();
        let u = (v - n * n.dot(&v)).normalize();
        (u, n.cross(&u))
    }

    #[test]
    fn the_support_jacobian_matches_the_exact_one_and_stays_finite() {
        let mut rng = Rng(7);
        let mut worst: f64 = 0.0;
        let mut compared = 0;
        for _ in 0..3000 {
            let s = rng.shape(0.05, 1.95);
            let body = s.log_support().unwrap();
            for j in 0..4 {
                let n = rng.direction();
                // Any positive multiple of the direction, told its length (the Jacobian scales as
                // its inverse, and the cap must not).
                let scale = [1.0, 2.5e8, 3e-9, 0.3][j];
                let [logs] = support_logs([&body], [&(n * scale)]);
                let point = logs.point(&body);
                let (u, w) = plane(&n, &mut rng);
                let ours = logs
                    .jacobian(&body, &logs.gradient(&body), scale)
                    .on_plane(&u, &w);
                let (_, exact, _) = s.point_with_normal_first(&n);
                let exact = Matrix2::new(
                    u.dot(&(exact * u)),
                    u.dot(&(exact * w)),
                    w.dot(&(exact * u)),
                    w.dot(&(exact * w)),
                );
                // Directions whose curvature radius reaches the cap (a flat face) are not
                // compared; the others to the log domain's accuracy.
                let h = n.dot(&point);
                if exact.trace() < 1e-3 * RADIUS_CAP * h {
                    let error = (ours - exact).abs().max() / exact.abs().max().max(1e-12 * h);
                    worst = worst.max(error);
                    compared += 1;
                }
                assert!(ours.iter().all(|v| v.is_finite()), "{s:?} {n:?}");
            }
        }
        println!("support Jacobian: {compared} compared, max relative error {worst:.2e}");
        assert!(compared > 11_000, "{compared}");
        assert!(worst <= 1e-7, "{worst:e}");
        // Zero components and axis directions, box-like and pointed: finite, semi-definite, and
        // held to the cap on a flat face.
        for (eps1, eps2) in [(0.1, 0.1), (1.0, 1.0), (1.9, 1.9), (0.3, 1.7)] {
            let s = Superellipsoid::new(1.0, 2.0, 3.0, eps1, eps2).unwrap();
            let body = s.log_support().unwrap();
            for n in [
                Vector3::z(),
                Vector3::x(),
                Vector3::new(0.6, 0.8, 0.0),
                Vector3::new(0.0, 0.6, -0.8),
                Vector3::new(1e-300, 0.0, 1.0),
            ] {
                let [logs] = support_logs([&body], [&n]);
                let point = logs.point(&body);
                let (u, w) = plane(&n.normalize(), &mut rng);
                let m = logs
                    .jacobian(&body, &logs.gradient(&body), 1.0)
                    .on_plane(&u, &w);
                let h = n.dot(&point);
                assert!(m.iter().all(|v| v.is_finite()), "{eps1} {eps2} {n:?}: {m}");
                assert!(
                    m[(0, 0)] >= 0.0
                        && m[(1, 1)] >= 0.0
                        && m.determinant() >= -1e-6 * m.norm_squared(),
                    "{m}"
                );
                // The cap holds to the log domain's `h`.
                assert!(m.trace() <= 2.0 * RADIUS_CAP * h * (1.0 + 1e-7), "{m}");
            }
        }
        // A sphere: `r (I - n n^T)` on the plane, `r` its radius.
        let sphere = LogSupport::sphere(Sphere::new(1.5).unwrap().radius());
        let n = Vector3::new(0.36, 0.48, 0.8);
        let [logs] = support_logs([&sphere], [&n]);
        let (u, w) = plane(&n, &mut rng);
        let m = logs
            .jacobian(&sphere, &logs.gradient(&sphere), 1.0)
            .on_plane(&u, &w);
        assert!((m - Matrix2::identity() * 1.5).abs().max() < 1e-7, "{m}");
    }

    #[test]
    fn log2_and_exp2_meet_their_error_bounds() {
        let mut rng = Rng(3);
        let (mut log_err, mut exp_err): (f64, f64) = (0.0, 0.0);
        for _ in 0..200_000 {
            let x = 2f64.powf(2040.0 * rng.uniform(0.0, 1.0) - 1020.0);
            log_err = log_err.max((log2(x) - x.log2()).abs());
            let w = 2044.0 * rng.uniform(0.0, 1.0) - 1021.0;
            exp_err = exp_err.max((exp2(w) / w.exp2() - 1.0).abs());
        }
        // The ends of every table interval, just inside and outside, at a few scales.
        for i in 0..=LOG_INTERVALS {
            let edge = 1.0 + i as f64 / LOG_INTERVALS as f64;
            for x in [edge, edge * (1.0 - 1e-16), edge * (1.0 + 2.2e-16)] {
                for scale in [1.0, 0.5, 2f64.powi(-1000), 2f64.powi(1000)] {
                    log_err = log_err.max((log2(x * scale) - (x * scale).log2()).abs());
                }
            }
        }
        println!("log2: max absolute error {log_err:.2e}; exp2: max relative error {exp_err:.2e}");
        assert!(log_err <= 3e-10, "{log_err:e}");
        assert!(exp_err <= 7.5e-9, "{exp_err:e}");
        assert_eq!(log2(0.0), f64::NEG_INFINITY);
        assert!((log2(1e-310) - 1e-310f64.log2()).abs() < 1e-12);
        assert_eq!(log2(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp2(f64::NEG_INFINITY), 0.0);
        assert_eq!(exp2(f64::NAN), 0.0);
        assert_eq!(exp2(-2000.0), 0.0);
        assert_eq!(exp2(2000.0), f64::INFINITY);
        assert_eq!(exp2(0.0), 1.0);
    }
}
