//! Rigid-body poses: a position and a unit quaternion, in the host's world frame.

use crate::error::{ensure_finite, Error, Result};
use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};

/// How far the norm of a given quaternion may be from 1 before it is rejected.
///
/// Quaternions within this tolerance are normalised; farther ones are an invalid argument, because a
/// host that passes them has most likely mixed up the component order or forgotten to initialise them.
pub const QUATERNION_TOLERANCE: f64 = 1e-6;

/// A rigid-body pose: body frame -> world frame, `x_world = position + rotation * x_body`.
///
/// Lengths are in the host's unit; the body frame is the one the shape was defined in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// The body-frame origin in world coordinates.
    pub position: Vector3<f64>,
    /// The body-frame orientation (a unit quaternion).
    pub rotation: UnitQuaternion<f64>,
}

impl Pose {
    /// The identity pose: body frame = world frame.
    pub fn identity() -> Self {
        Pose {
            position: Vector3::zeros(),
            rotation: UnitQuaternion::identity(),
        }
    }

    /// A pose from a position and a unit quaternion.
    pub fn new(position: Vector3<f64>, rotation: UnitQuaternion<f64>) -> Self {
        Pose { position, rotation }
    }

    /// A pose from a position and a quaternion given as (w, x, y, z).
    ///
    /// Non-finite components are [`Error::NonFinite`]; a quaternion whose norm is off 1 by more than
    /// [`QUATERNION_TOLERANCE`] is [`Error::InvalidArgument`]; one within it is normalised.
    #[inline(always)]
    pub fn from_wxyz(position: [f64; 3], wxyz: [f64; 4]) -> Result<Self> {
        Self::from_wxyz_ref(&position, &wxyz)
    }

    /// [`Self::from_wxyz`] on the numbers where they are (a host's pose record, say): checked
    /// in place, not first copied.
    #[inline(always)]
    pub fn from_wxyz_ref(position: &[f64; 3], wxyz: &[f64; 4]) -> Result<Self> {
        ensure_finite("pose.position", position)?;
        ensure_finite("pose.orientation", wxyz)?;
        let q = Quaternion::new(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
        let norm_squared = q.norm_squared();
        // Hosts renormalise every step: a quaternion that is unit to within a few ulps is taken as it
        // is (normalising it would change the rotation by less than its own round-off).
        if (norm_squared - 1.0).abs() <= 8.0 * f64::EPSILON {
            return Ok(Pose {
                position: Vector3::from(*position),
                rotation: UnitQuaternion::new_unchecked(q),
            });
        }
        let norm = norm_squared.sqrt();
        if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
            return Err(Error::InvalidArgument(format!(
                "pose.orientation (w,x,y,z) = ({}, {}, {}, {}) has norm {norm}, not 1 within {QUATERNION_TOLERANCE}",
                wxyz[0], wxyz[1], wxyz[2], wxyz[3]
            )));
        }
        Ok(Pose {
            position: Vector3::from(*position),
            rotation: UnitQuaternion::new_unchecked(q / norm),
        })
    }

    /// The quaternion as (w, x, y, z).
    pub fn wxyz(&self) -> [f64; 4] {
        let q = self.rotation.quaternion();
        [q.w, q.i, q.j, q.k]
    }

    /// Maps a body-frame point to the world frame.
    pub fn transform_point(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.position + self.rotation * p
    }

    /// Maps a body-frame direction to the world frame.
    pub fn transform_vector(&self, v: &Vector3<f64>) -> Vector3<f64> {
        self.rotation * v
    }

    /// Maps a world-frame point into the body frame.
    pub fn inverse_transform_point(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.rotation.inverse_transform_vector(&(p - self.position))
    }

    /// Maps a world-frame direction into the body frame.
    pub fn inverse_transform_vector(&self, v: &Vector3<f64>) -> Vector3<f64> {
        self.rotation.inverse_transform_vector(v)
    }

    /// [`Self::relative`] together with this pose's rotation as a matrix (body frame -> world),
    /// which maps `other`'s position into the body frame here and is then at hand for mapping
    /// results back ([`crate::Contact::transformed_by`]): one conversion instead of two.
    #[inline]
    pub fn relative_and_matrix(&self, other: &Pose) -> (Pose, Matrix3<f64>) {
        let matrix = *self.rotation.to_rotation_matrix().matrix();
        let relative = Pose {
            position: matrix.tr_mul(&(other.position - self.position)),
            rotation: self.rotation.inverse() * other.rotation,
        };
        (relative, matrix)
    }

    /// The pose of `other` expressed in this pose's body frame (`self^-1 * other`): the same, bit
    /// for bit, as the queries of [`crate::narrow::collide`] form ([`Self::relative_and_matrix`]),
    /// so that a kernel called on it answers as `collide` does.
    pub fn relative(&self, other: &Pose) -> Pose {
        self.relative_and_matrix(other).0
    }

    /// How far body B (at `other`) has turned relative to body A (at `self`) since a reference
    /// relative rotation `reference` (a unit quaternion `w, x, y, z`, as `self^-1 other` was
    /// then): `||R - R_ref|| = 2 sin(theta / 2)`, the spectral norm of the change of B's rotation
    /// matrix in A's frame, `theta` the angle of the turn. Read without cancellation from the
    /// vector part of `q q_ref^-1` (`q = self^-1 other`); the sign of either quaternion does not
    /// matter. A body point at distance `rho` from B's origin has moved by at most `rho` times
    /// this in A's frame, besides the translation of B's origin.
    #[inline]
    pub fn turn_since(&self, other: &Pose, reference: [f64; 4]) -> f64 {
        self.turn_squared_since(other, reference).sqrt()
    }

    /// The square of [`Self::turn_since`], without its square root: for a bound that only needs
    /// comparing.
    #[inline]
    pub fn turn_squared_since(&self, other: &Pose, reference: [f64; 4]) -> f64 {
        let q = (self.rotation.inverse() * other.rotation).into_inner();
        let (w_ref, v_ref) = (
            reference[0],
            Vector3::new(-reference[1], -reference[2], -reference[3]),
        );
        let v = q.imag();
        4.0 * (v_ref * q.w + v * w_ref + v.cross(&v_ref)).norm_squared()
    }

    /// The composition `self * other`: `other` is given in this pose's body frame.
    pub fn compose(&self, other: &Pose) -> Pose {
        Pose {
            position: self.transform_point(&other.position),
            rotation: self.rotation * other.rotation,
        }
    }
}

impl Default for Pose {
    fn default() -> Self {
        Pose::identity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_within_tolerance_and_rejects_beyond() {
        let p = Pose::from_wxyz([0.0; 3], [1.0 + 5e-7, 0.0, 0.0, 0.0]).unwrap();
        assert!((p.rotation.quaternion().norm() - 1.0).abs() < 1e-15);
        let e = Pose::from_wxyz([0.0; 3], [1.0, 1.0, 0.0, 0.0]).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
        let e = Pose::from_wxyz([0.0; 3], [0.0; 4]).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
        let e = Pose::from_wxyz([0.0, f64::INFINITY, 0.0], [1.0, 0.0, 0.0, 0.0]).unwrap_err();
        assert!(matches!(e, Error::NonFinite(_)), "{e}");
    }

    #[test]
    fn relative_then_compose_is_identity() {
        let s = 0.5f64.sqrt();
        let a = Pose::from_wxyz([1.0, 2.0, 3.0], [s, 0.0, s, 0.0]).unwrap();
        let b = Pose::from_wxyz([-1.0, 0.5, 2.0], [0.5, 0.5, 0.5, 0.5]).unwrap();
        let back = a.compose(&a.relative(&b));
        assert!((back.position - b.position).norm() < 1e-14);
        assert!(back.rotation.angle_to(&b.rotation) < 1e-7);
        let x = Vector3::new(0.3, -0.2, 0.9);
        assert!((a.inverse_transform_point(&a.transform_point(&x)) - x).norm() < 1e-14);
        assert_eq!(a.wxyz()[0], s);
    }

    #[test]
    fn relative_and_matrix_is_the_relative_pose_with_the_rotation_matrix() {
        let a = Pose::new(
            Vector3::new(1.0, 2.0, 3.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.7, 0.4)),
        );
        let b = Pose::from_wxyz([-1.0, 0.5, 2.0], [0.5, 0.5, 0.5, 0.5]).unwrap();
        let (relative, matrix) = a.relative_and_matrix(&b);
        // The position mapped by the conjugate rotation instead, to rounding.
        let expected = a.inverse_transform_point(&b.position);
        assert!((relative.position - expected).norm() < 1e-14);
        assert_eq!(relative.rotation, a.rotation.inverse() * b.rotation);
        assert_eq!(a.relative(&b), relative);
        let x = Vector3::new(0.3, -0.2, 0.9);
        assert!((matrix * x - a.transform_vector(&x)).norm() < 1e-15);
    }
}
