//! Houlsby's potential particle (Boon, Houlsby & Utili 2013, "A new contact detection algorithm for
//! three-dimensional non-spherical particles", Powder Technology 248): N planes summed quadratically
//! under Macaulay brackets, rounded by `r`, blended with a shadow sphere of radius `R` by the weight
//! `k`, in the normalised form of eq. (2):
//!
//! `f(x) = (1-k) (sum_i <a_i x + b_i y + c_i z - d_i>^2 / r^2 - 1) + k (|x|^2 / R^2 - 1)`,
//!
//! `f = 0` on the surface, `f < 0` inside. The body is strictly convex for `0 < k < 1`.

mod piecewise_newton;
mod support;

pub use piecewise_newton::{minimise_piecewise_quadratic, Minimum, QuadraticModel};

use crate::error::{ensure_finite, Error, Result};
use nalgebra::{Matrix3, Vector3};

/// A potential particle (eq. (2)) in its body frame; lengths in the host's unit.
///
/// The planes are stored with unit outward normals: a plane given as `(a, b, c, d)` is divided by
/// `|(a, b, c)|` (the same plane; `d` becomes its distance from the body-frame origin), so the
/// bracket terms are signed distances to the planes.
#[derive(Debug, Clone, PartialEq)]
pub struct PotentialParticle {
    normals: Vec<Vector3<f64>>,
    offsets: Vec<f64>,
    r: f64,
    big_r: f64,
    k: f64,
    /// `(1-k)/r^2`, the weight of the plane terms in eq. (2).
    plane_weight: f64,
    /// `k/R^2`, the weight of the sphere term in eq. (2).
    sphere_weight: f64,
    bounding_radius: f64,
}

impl PotentialParticle {
    /// Below this `|(a, b, c)|` a plane has no direction: degenerate geometry.
    pub const MIN_NORMAL_LENGTH: f64 = 1e-12;

    /// A potential particle from `planes` (`[a, b, c, d]` each, body frame, outward normals, any
    /// non-zero normal length), the rounding `r > 0`, the shadow sphere's radius `big_r > 0` and its
    /// weight `k` in the open range (0, 1), all finite.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for NaN or infinite numbers; [`Error::InvalidArgument`] for `r <= 0`,
    /// `big_r <= 0`, `k` outside (0, 1), or a plane with `d <= 0` (the origin must lie strictly inside
    /// every plane); [`Error::DegenerateGeometry`] for fewer than 4 planes, a plane without a normal,
    /// or normals that do not positively span 3-D (the planes bound no finite body).
    pub fn new(planes: &[[f64; 4]], r: f64, big_r: f64, k: f64) -> Result<Self> {
        ensure_finite("r, R, k", &[r, big_r, k])?;
        for (i, p) in planes.iter().enumerate() {
            ensure_finite(&format!("plane {i} (a, b, c, d)"), p)?;
        }
        if r <= 0.0 {
            return Err(Error::InvalidArgument(format!(
                "r = {r}: the rounding radius must be > 0"
            )));
        }
        if big_r <= 0.0 {
            return Err(Error::InvalidArgument(format!(
                "R = {big_r}: the shadow sphere's radius must be > 0"
            )));
        }
        if !(k > 0.0 && k < 1.0) {
            return Err(Error::InvalidArgument(format!(
                "k = {k}: the sphere weight must lie in the open range (0, 1)"
            )));
        }
        if planes.len() < 4 {
            return Err(Error::DegenerateGeometry(format!(
                "{} planes bound no finite body: at least 4 are needed",
                planes.len()
            )));
        }
        let mut normals = Vec::with_capacity(planes.len());
        let mut offsets = Vec::with_capacity(planes.len());
        for (i, p) in planes.iter().enumerate() {
            let n = Vector3::new(p[0], p[1], p[2]);
            let length = n.norm();
            let usable = length.is_finite() && length >= Self::MIN_NORMAL_LENGTH;
            if !usable {
                return Err(Error::DegenerateGeometry(format!(
                    "plane {i} has the normal ({}, {}, {}) of length {length}: no direction",
                    p[0], p[1], p[2]
                )));
            }
            if p[3] <= 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "plane {i} has d = {}: d must be > 0 (the body-frame origin inside every plane)",
                    p[3]
                )));
            }
            normals.push(n / length);
            offsets.push(p[3] / length);
        }
        if let Some(u) = unbounded_direction(&normals) {
            return Err(Error::DegenerateGeometry(format!(
                "the planes' normals do not positively span 3-D: no plane bounds the direction \
                 ({:.3}, {:.3}, {:.3}), so they bound no finite body",
                u.x, u.y, u.z
            )));
        }
        let mut particle = PotentialParticle {
            normals,
            offsets,
            r,
            big_r,
            k,
            plane_weight: (1.0 - k) / (r * r),
            sphere_weight: k / (big_r * big_r),
            bounding_radius: 0.0,
        };
        particle.bounding_radius = particle.enclosing_radius();
        Ok(particle)
    }

    /// The planes' unit outward normals (body frame).
    pub fn normals(&self) -> &[Vector3<f64>] {
        &self.normals
    }

    /// The planes' distances from the body-frame origin (host length unit), > 0.
    pub fn offsets(&self) -> &[f64] {
        &self.offsets
    }

    /// The rounding radius `r`.
    pub fn r(&self) -> f64 {
        self.r
    }

    /// The shadow sphere's radius `R`.
    pub fn big_r(&self) -> f64 {
        self.big_r
    }

    /// The sphere weight `k`.
    pub fn k(&self) -> f64 {
        self.k
    }

    /// The weights of eq. (7) (the constants of the SOCP, not the gradient): `(w_p, w_s) =
    /// (r / sqrt(1-k), R / sqrt(k))`, so that eq. (2) reads `f + 1 = sum <.>^2 / w_p^2 + |x|^2 / w_s^2`.
    pub fn socp_weights(&self) -> (f64, f64) {
        (self.r / (1.0 - self.k).sqrt(), self.big_r / self.k.sqrt())
    }

    /// The potential `f` of eq. (2) at the body-frame point `x`: < 0 inside, 0 on the surface.
    pub fn potential(&self, x: &Vector3<f64>) -> f64 {
        self.raised_potential(x) - 1.0
    }

    /// `f + 1` of eq. (2) (= `s^2` at `x` in eq. (6), see eq. (A.6)): >= 0, and 0 only at the origin.
    pub fn raised_potential(&self, x: &Vector3<f64>) -> f64 {
        let planes: f64 = self
            .normals
            .iter()
            .zip(&self.offsets)
            .map(|(n, d)| (n.dot(x) - d).max(0.0).powi(2))
            .sum();
        self.plane_weight * planes + self.sphere_weight * x.norm_squared()
    }

    /// The gradient of `f` (the second eq. (7) of the text) at the body-frame point `x`.
    pub fn gradient(&self, x: &Vector3<f64>) -> Vector3<f64> {
        self.model(x).gradient
    }

    /// `f + 1` of eq. (2), its gradient (eq. (7)) and its Hessian at the body-frame point `x`: the
    /// exact quadratic on the piece of space where the same planes are active (`f` is C^1 and
    /// piecewise quadratic).
    #[inline]
    pub fn model(&self, x: &Vector3<f64>) -> QuadraticModel {
        let mut bracket_sum = 0.0;
        let mut weighted_normals = Vector3::zeros();
        let mut outer = Matrix3::zeros();
        for (n, d) in self.normals.iter().zip(&self.offsets) {
            let h = n.dot(x) - d;
            if h > 0.0 {
                bracket_sum += h * h;
                weighted_normals += n * h;
                outer += n * n.transpose();
            }
        }
        let (p, s) = (self.plane_weight, self.sphere_weight);
        QuadraticModel {
            value: p * bracket_sum + s * x.norm_squared(),
            gradient: (weighted_normals * p + x * s) * 2.0,
            hessian: outer * (2.0 * p) + Matrix3::from_diagonal_element(2.0 * s),
        }
    }

    /// A line parameter `t >= 0` at which the line `origin + t * direction` (body frame, unit
    /// `direction`) has left the particle: where it leaves the shadow sphere `R / sqrt(k)` or the
    /// planes pushed out by `r / sqrt(1-k)`, whichever comes first (the particle lies inside both,
    /// eq. (2)).
    pub fn exit_bound(&self, origin: &Vector3<f64>, direction: &Vector3<f64>) -> f64 {
        let shadow = self.big_r / self.k.sqrt();
        let along = origin.dot(direction);
        let mut t = -along
            + (along * along - origin.norm_squared() + shadow * shadow)
                .max(0.0)
                .sqrt();
        let push = self.r / (1.0 - self.k).sqrt();
        for (n, d) in self.normals.iter().zip(&self.offsets) {
            let rate = n.dot(direction);
            if rate > 0.0 {
                t = t.min((d + push - n.dot(origin)) / rate);
            }
        }
        t.max(0.0)
    }

    /// The radius of a sphere about the body-frame origin that holds the particle (host length
    /// unit): the smaller of the shadow bound `R / sqrt(k)` and the farthest corner of the planes
    /// pushed out by `r / sqrt(1-k)` (the particle lies inside both, eq. (2)). Not always the
    /// smallest such sphere; always one that holds the particle.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// See [`Self::bounding_radius`].
    fn enclosing_radius(&self) -> f64 {
        // f <= 0 needs (1-k) <n x - d>^2 / r^2 <= 1 for every plane and k |x|^2 / R^2 <= 1.
        let shadow = self.big_r / self.k.sqrt();
        let push = self.r / (1.0 - self.k).sqrt();
        let m = self.normals.len();
        let mut farthest: f64 = 0.0;
        for i in 0..m {
            for j in i + 1..m {
                for l in j + 1..m {
                    let rows = Matrix3::from_rows(&[
                        self.normals[i].transpose(),
                        self.normals[j].transpose(),
                        self.normals[l].transpose(),
                    ]);
                    let rhs = Vector3::new(
                        self.offsets[i] + push,
                        self.offsets[j] + push,
                        self.offsets[l] + push,
                    );
                    if rows.determinant().abs() < 1e-12 {
                        continue;
                    }
                    let Some(corner) = rows.lu().solve(&rhs) else {
                        continue;
                    };
                    let inside = self
                        .normals
                        .iter()
                        .zip(&self.offsets)
                        .all(|(n, d)| n.dot(&corner) <= (d + push) * (1.0 + 1e-12) + 1e-12);
                    if inside {
                        farthest = farthest.max(corner.norm());
                    }
                }
            }
        }
        // Round-off in the corners: a relative margin keeps the sphere around the body.
        let planes_bound = farthest * (1.0 + 1e-9);
        if planes_bound > 0.0 {
            shadow.min(planes_bound)
        } else {
            shadow
        }
    }
}

/// A direction no plane bounds (`n_i . u <= 0` for every normal), if there is one: the normals do
/// not positively span 3-D. The cone `{u : n_i . u <= 0}` is not `{0}` exactly when the normals do
/// not span 3-D (a line of directions) or it has an extreme ray, which lies on the intersection of
/// two planes `n_i . u = 0`, `n_j . u = 0`: along `+-(n_i x n_j)`.
fn unbounded_direction(normals: &[Vector3<f64>]) -> Option<Vector3<f64>> {
    const SLACK: f64 = 1e-9;
    let mut spans = false;
    for (i, ni) in normals.iter().enumerate() {
        for nj in &normals[i + 1..] {
            let c = ni.cross(nj);
            let length = c.norm();
            if length < 1e-9 {
                continue;
            }
            let c = c / length;
            spans |= normals.iter().any(|n| n.dot(&c).abs() > 1e-9);
            for u in [c, -c] {
                if normals.iter().all(|n| n.dot(&u) <= SLACK) {
                    return Some(u);
                }
            }
        }
    }
    if spans {
        None
    } else {
        // All normals in one plane (or on one line): the plane's normal (or any perpendicular)
        // is bounded by none of them.
        let n0 = normals[0];
        let other = normals
            .iter()
            .map(|n| n0.cross(n))
            .find(|c| c.norm() >= 1e-9)
            .unwrap_or_else(|| n0.cross(&Vector3::ith(n0.iamin(), 1.0)));
        Some(other.normalize())
    }
}

#[cfg(test)]
mod tests;
