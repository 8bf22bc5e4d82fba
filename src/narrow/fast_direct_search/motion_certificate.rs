//! The exclusion of a near pair apart without any support search: the separating plane of a full
//! evaluation, kept in the warm state with the placement it was computed at, still separates the
//! bodies while they have moved less, relative to each other, than its gap.
//!
//! A v-f cover is a plane attached to one body: A's face `f` (normal `n`, offset `d`, fixed in A's
//! frame) or B's face `g` (fixed in B's frame). Its gap is the smallest signed distance of the
//! other body's vertices to that plane, so when B's placement in A's frame moves from
//! `(R_ref, t_ref)` to `(R, t)` every vertex's distance, and thus the gap, changes by at most
//!
//! * A's face: `|n . (t - t_ref)| + ||R - R_ref|| rho_B` (B's vertices `R p + t`, `|p| <= rho_B`);
//! * B's face: `|t - t_ref| + ||R - R_ref|| (rho_A + |t|)` (the plane `(R m) . (x - t) = e` against
//!   A's vertices `|v| <= rho_A`),
//! * two crossing edges: the e-e plane turns with B, so the certificate keeps the plane of the
//!   reference placement instead, a fixed direction `n` of A's frame rebuilt from the two edges at
//!   the recorded placement by the full evaluation's own code (the gap of a valid e-e cover is the
//!   support gap along its normal): the same bound as for A's face,
//!
//! with `rho` a body's bounding radius about its origin and `||R - R_ref|| = 2 sin(theta / 2)` for
//! the angle `theta` between the two rotations, read without cancellation from the vector part of
//! the quaternion `q q_ref^-1`. While the reference gap exceeds that bound the same plane still
//! separates the bodies, by at least the difference: a certified lower bound of the distance, as
//! the full evaluation's own gap is.
//!
//! Unlike the plane's re-check, which evaluates a real plane whatever the warm state holds, the
//! certificate trusts the recorded gap, so it is recorded with a fingerprint of the two shapes and
//! used only by a query of shapes with the same fingerprint: a warm state reused for another pair
//! by mistake falls back to the full evaluation. (Two identical shapes queried in the other order
//! are congruent configurations, for which the recorded gap holds all the same.)

use super::{index, stored_cover, Cover, Detection, Evaluated, PolyhedronPair};
use crate::contact::{Contact, ContactKind};
use crate::pose::Pose;
use crate::shapes::Polyhedron;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

/// Warm-state slots of the certificate: B's placement in A's frame at the full evaluation that
/// found the pair apart (translation, then the rotation's quaternion `w, i, j, k`), and the gap
/// found then (0: no certificate).
pub const TRANSLATION: usize = 6;
/// See [`TRANSLATION`].
pub const ROTATION: usize = 9;
/// See [`TRANSLATION`].
pub const GAP: usize = 13;
/// The two shapes' fingerprint ([`fingerprint`]) when the reference was recorded.
pub const FINGERPRINT: usize = 14;

/// A number that tells the pair's shapes apart (their bounding radii and vertex counts), computed
/// the same way at the record and at the check, so equal shapes give bitwise equal numbers.
fn fingerprint(a: &Polyhedron, b: &Polyhedron) -> f64 {
    a.bounding_radius()
        + 1.618_033_988_749_895 * b.bounding_radius()
        + 1e-3 * a.num_vertices() as f64
        + 1e-6 * b.num_vertices() as f64
}

/// Relative slack on the motion bound, and absolute slack per unit of the placement's size, for
/// the round-off of the bound and of the reference gap.
const RELATIVE_SLACK: f64 = 1e-12;
const ABSOLUTE_SLACK: f64 = 1e-14;

/// Records `relative`, the gap of `cover` (a pair found apart by a full evaluation) and the shapes'
/// fingerprint as the reference of later certificates; clears it when `gap` is not positive.
pub fn record(data: &mut [f64], a: &Polyhedron, b: &Polyhedron, relative: &Pose, gap: f64) {
    if gap.is_nan() || gap <= 0.0 {
        data[GAP] = 0.0;
        return;
    }
    data[TRANSLATION..TRANSLATION + 3].copy_from_slice(relative.position.as_slice());
    let q = relative.rotation.quaternion();
    data[ROTATION..ROTATION + 4].copy_from_slice(&[q.w, q.i, q.j, q.k]);
    data[GAP] = gap;
    data[FINGERPRINT] = fingerprint(a, b);
}

/// The pair proven apart at `relative` by the plane recorded in `data` (see the module), without
/// a support search; `None` when there is no reference or the motion since it may have closed
/// the gap. The contact is that of the full evaluation's plane with the certified lower bound as
/// its gap: the plane's normal, B's vertex (or A's) of the cover as a witness and its foot at
/// that gap on the other side; no cover evaluated (`iterations` 0).
pub fn certified_apart(
    a: &Polyhedron,
    b: &Polyhedron,
    relative: &Pose,
    data: &[f64],
) -> Option<Detection> {
    let reference_gap = data[GAP];
    if reference_gap.is_nan() || reference_gap <= 0.0 || data[FINGERPRINT] != fingerprint(a, b) {
        return None;
    }
    let cover = stored_cover(data, a, b)?;
    let t = relative.position;
    let t_ref = Vector3::new(
        data[TRANSLATION],
        data[TRANSLATION + 1],
        data[TRANSLATION + 2],
    );
    let q_ref = Quaternion::new(
        data[ROTATION],
        data[ROTATION + 1],
        data[ROTATION + 2],
        data[ROTATION + 3],
    );
    let turn = 2.0
        * (relative.rotation.quaternion() * q_ref.conjugate())
            .imag()
            .norm();
    let moved = t - t_ref;
    let size = 1.0 + t.norm() + a.bounding_radius() + b.bounding_radius();
    let (bound, axis) = match cover {
        Cover::FaceVertex { face_a, .. } => {
            let n = a.face_normal(face_a);
            (n.dot(&moved).abs() + turn * b.bounding_radius(), n)
        }
        Cover::VertexFace { face_b, .. } => (
            moved.norm() + turn * (a.bounding_radius() + t.norm()),
            -(relative.rotation * b.face_normal(face_b)),
        ),
        Cover::EdgeEdge { edge_a, edge_b } => {
            // The plane the two edges made at the reference placement, rebuilt by the full
            // evaluation's own code from the recorded placement (bit for bit the same numbers).
            let reference = Pose::new(t_ref, UnitQuaternion::new_unchecked(q_ref));
            let pair = PolyhedronPair::new(a, b, &reference);
            let n = pair.crossing_edge_cover(&pair.a_edge(edge_a), edge_b)?.axis;
            (n.dot(&moved).abs() + turn * b.bounding_radius(), n)
        }
    };
    let gap = reference_gap - bound * (1.0 + RELATIVE_SLACK) - ABSOLUTE_SLACK * size;
    if gap.is_nan() || gap <= 0.0 {
        return None;
    }
    let (point_a, point_b) = match cover {
        Cover::FaceVertex { vertex_b, .. } => {
            let pb = relative.transform_point(&b.vertex(vertex_b));
            (pb - axis * gap, pb)
        }
        Cover::VertexFace { vertex_a, .. } => {
            let pa = a.vertex(vertex_a);
            (pa, pa + axis * gap)
        }
        Cover::EdgeEdge { edge_b, .. } => {
            let pb = relative.transform_point(&b.vertex(b.edge(edge_b).tail()));
            (pb - axis * gap, pb)
        }
    };
    let kind = match cover {
        Cover::EdgeEdge { .. } => ContactKind::EdgeEdge,
        _ => ContactKind::VertexFace,
    };
    let mut contact = Contact::from_points(point_a, point_b, axis, -gap, false, kind);
    contact.iterations = 0;
    contact.warm_started = true;
    Some(Detection {
        contact,
        cover: Evaluated {
            cover,
            axis,
            overlap: -gap,
        },
        support: (
            index(data[3], a.num_vertices()).unwrap_or(0),
            index(data[4], b.num_vertices()).unwrap_or(0),
        ),
    })
}
