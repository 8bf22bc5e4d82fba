//! The result of a pair query: contact points, normal, penetration, and how they were found.

use crate::error::{Error, Result};
use crate::pose::Pose;
use nalgebra::{Matrix3, Vector3};

/// How the contact geometry of a pair was found.
///
/// The discriminants are part of the C ABI (`DEMCONTACT_CONTACT_TYPE_*`): append only, never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(i32)]
pub enum ContactKind {
    /// No contact geometry: the value written when a query fails.
    #[default]
    None = 0,
    /// Two smooth surfaces with a common normal: `point_a` and `point_b` are the points where the
    /// normals of both surfaces are parallel to `normal` (Johnson's common-normal concept). For spheres
    /// these are the points on the centre line.
    Smooth = 1,
    /// Polyhedra: a vertex of one body against a vertex of the other (Zheng et al. 2017).
    VertexVertex = 2,
    /// Polyhedra: a vertex of one body against an edge of the other.
    VertexEdge = 3,
    /// Polyhedra: a vertex of one body against a face of the other.
    VertexFace = 4,
    /// Polyhedra: an edge of each body, crossing.
    EdgeEdge = 5,
    /// Polyhedra: an edge of one body against a face of the other (composite: two basic contacts).
    EdgeFace = 6,
    /// Polyhedra: a face of each body (composite: a polygon of basic contacts).
    FaceFace = 7,
    /// Potential particles (Boon, Houlsby & Utili 2013): `point` is the optimum of their
    /// second-order cone program (eq. (6)), not the midpoint of `point_a` and `point_b`; `point_a`
    /// and `point_b` are the surface points along the normal through it (overlap), or the support
    /// points towards the separating plane (apart).
    PotentialParticle = 8,
}

/// A pair's contact, A and B as passed to the query.
///
/// Every vector is in one frame: the world frame for [`crate::narrow::collide`], body A's frame inside a
/// kernel. Lengths are in the host's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The point of A's surface that takes part in the contact: when the bodies overlap, the point of A
    /// deepest inside B along `normal`; when they are apart, A's witness point of the gap (for smooth
    /// bodies, the support point along `normal`, to within `1e-7` of the body's size when a cheap
    /// separating-plane test found it; when a warm state's motion certificate answers, the witness
    /// points of the query that found its plane, moved with their bodies).
    pub point_a: Vector3<f64>,
    /// The point of B's surface that takes part in the contact (as `point_a`, for B).
    pub point_b: Vector3<f64>,
    /// The contact point handed to force laws: the midpoint of `point_a` and `point_b`, except for
    /// [`ContactKind::PotentialParticle`] (the optimum of the potential particles' program).
    pub point: Vector3<f64>,
    /// Unit normal, pointing from A to B.
    pub normal: Vector3<f64>,
    /// Overlap depth along `normal`, > 0 when the bodies overlap, 0 otherwise.
    pub penetration: f64,
    /// A certified lower bound on the gap between the bodies when they are apart (exact when
    /// `separation_exact`), 0 when they overlap.
    pub separation: f64,
    /// Whether `separation` is the exact distance rather than a lower bound.
    pub separation_exact: bool,
    /// Whether the bodies overlap (`penetration > 0`).
    pub touching: bool,
    /// How the geometry was found.
    pub kind: ContactKind,
    /// Iterations the method took (0 for closed forms).
    pub iterations: u32,
    /// Whether the query started from a pair's previous state rather than from scratch.
    pub warm_started: bool,
}

impl Contact {
    /// A contact from its two surface points, the unit normal A->B and the signed depth
    /// (`depth > 0`: overlap of that depth; `depth <= 0`: a gap of `-depth`).
    pub fn from_points(
        point_a: Vector3<f64>,
        point_b: Vector3<f64>,
        normal: Vector3<f64>,
        depth: f64,
        separation_exact: bool,
        kind: ContactKind,
    ) -> Self {
        Contact {
            point_a,
            point_b,
            point: (point_a + point_b) * 0.5,
            normal,
            penetration: depth.max(0.0),
            separation: (-depth).max(0.0),
            separation_exact,
            touching: depth > 0.0,
            kind,
            iterations: 0,
            warm_started: false,
        }
    }

    /// The same contact seen with A and B swapped: points exchanged, normal reversed.
    pub fn swapped(&self) -> Self {
        Contact {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            ..*self
        }
    }

    /// The contact mapped from the frame `pose` describes into the frame `pose` is given in.
    pub fn transformed(&self, pose: &Pose) -> Self {
        // One rotation matrix for the four vectors: cheaper than four quaternion rotations.
        self.transformed_by(pose.rotation.to_rotation_matrix().matrix(), &pose.position)
    }

    /// [`Self::transformed`] with the pose given as its rotation matrix `r` (body frame -> outer
    /// frame, [`Pose::relative_and_matrix`]) and its position `t`.
    #[inline]
    pub fn transformed_by(&self, r: &Matrix3<f64>, t: &Vector3<f64>) -> Self {
        Contact {
            point_a: r * self.point_a + t,
            point_b: r * self.point_b + t,
            point: r * self.point + t,
            normal: r * self.normal,
            ..*self
        }
    }

    /// Fails with [`Error::NonFinite`] when any number of the contact is NaN or infinite (an input so
    /// large that the arithmetic overflowed), so that no host ever receives one.
    ///
    /// Always inlined: it runs on every query, on the contact just built, whose numbers are then
    /// still in registers (a call reads them back from memory).
    #[inline(always)]
    pub fn ensure_finite(&self) -> Result<()> {
        // A finite sum proves every term finite (NaN and infinities propagate); an overflowing sum of
        // finite terms falls through to the exact scan.
        // (Summed as a shallow tree, the four vectors componentwise first: independent partial
        // sums, not one long dependent chain.)
        let v = (self.point_a + self.point_b) + (self.point + self.normal);
        let sum = (v.x + v.y) + (v.z + (self.penetration + self.separation));
        if sum.is_finite() {
            Ok(())
        } else {
            self.scan_finite()
        }
    }

    /// The exact scan of [`Self::ensure_finite`], off its fast path.
    #[cold]
    #[inline(never)]
    fn scan_finite(&self) -> Result<()> {
        let vectors = [self.point_a, self.point_b, self.point, self.normal];
        if vectors.iter().all(|v| v.iter().all(|x| x.is_finite()))
            && self.penetration.is_finite()
            && self.separation.is_finite()
        {
            Ok(())
        } else {
            Err(Error::NonFinite(
                "the contact overflowed to a non-finite number: inputs are too large for double precision"
                    .into(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_points_splits_the_signed_depth() {
        let a = Vector3::new(1.0, 0.0, 0.0);
        let b = Vector3::new(0.8, 0.0, 0.0);
        let c = Contact::from_points(a, b, Vector3::x(), 0.2, false, ContactKind::Smooth);
        assert!(c.touching);
        assert_eq!(c.penetration, 0.2);
        assert_eq!(c.separation, 0.0);
        assert_eq!(c.point, Vector3::new(0.9, 0.0, 0.0));
        let c = Contact::from_points(b, a, Vector3::x(), -0.2, true, ContactKind::Smooth);
        assert!(!c.touching);
        assert_eq!((c.penetration, c.separation), (0.0, 0.2));
        let s = c.swapped();
        assert_eq!((s.point_a, s.point_b, s.normal), (a, b, -Vector3::x()));
    }

    #[test]
    fn transformed_moves_points_and_turns_the_normal() {
        // A quarter turn about z, then a shift: x -> y for directions, plus the offset for points.
        let s = 0.5f64.sqrt();
        let pose = Pose::from_wxyz([1.0, 2.0, 3.0], [s, 0.0, 0.0, s]).unwrap();
        let c = Contact::from_points(
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.5, 0.0, 0.0),
            Vector3::x(),
            0.5,
            false,
            ContactKind::Smooth,
        );
        let t = c.transformed(&pose);
        assert!((t.normal - Vector3::y()).norm() < 1e-15);
        assert!((t.point_a - Vector3::new(1.0, 3.0, 3.0)).norm() < 1e-15);
        assert!((t.point_b - Vector3::new(1.0, 2.5, 3.0)).norm() < 1e-15);
        assert!((t.point - Vector3::new(1.0, 2.75, 3.0)).norm() < 1e-15);
        assert_eq!(
            (t.penetration, t.touching, t.kind),
            (0.5, true, ContactKind::Smooth)
        );
    }

    #[test]
    fn non_finite_contacts_are_refused() {
        let mut c = Contact::from_points(
            Vector3::zeros(),
            Vector3::zeros(),
            Vector3::x(),
            1.0,
            false,
            ContactKind::Smooth,
        );
        assert!(c.ensure_finite().is_ok());
        c.point.y = f64::INFINITY;
        assert!(matches!(c.ensure_finite(), Err(Error::NonFinite(_))));
    }
}
