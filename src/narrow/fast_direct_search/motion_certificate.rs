//! The exclusion of a near pair apart without any support search: the separating plane of a full
//! evaluation, kept in the warm state with the placement it was computed at, still separates the
//! bodies while they have moved less, relative to each other, than its gap allows.
//!
//! The plane is attached to one body, its *owner*: A's face `f` (normal `n`, offset `d`, fixed in
//! A's frame), B's face `g` (fixed in B's frame), or, for two crossing edges, the plane the edges
//! made at the reference placement (`n` kept as a fixed direction of A's frame, with A's support
//! `h_A = n . x` at A's edge, which stays A's support along `n`). Its gap is the smallest signed
//! distance of the other body's vertices to the plane. When the relative placement moves from the
//! reference, a vertex `p` of the other body (about that body's origin, `|p| <= rho`) changes its
//! distance by `dp . (R - R_ref) p + (c - c_ref)`, with `c` the owner-frame normal's projection of
//! the other body's origin: at most `|c - c_ref| + ||R - R_ref|| rho`. So the gap is at least
//!
//! * the distance of the *tracked* vertices (the vertex of the v-f cover, or both ends of B's edge
//!   of the e-e cover), evaluated exactly at the query placement; and
//! * the reference distance of all the *other* vertices, `g_other` (the smallest over the body's
//!   vertices, recorded with a scan when the body has at most [`SCANNED_VERTICES`] and the query
//!   was warm-started, otherwise the full evaluation's gap, a lower bound for them too), less
//!   that bound;
//!
//! whichever is smaller, less a slack for round-off. `||R - R_ref|| = 2 sin(theta / 2)` for the
//! angle `theta` between the two relative rotations, read without cancellation from the vector
//! part of the quaternion `q q_ref^-1`. While that is positive the plane still separates the
//! bodies by at least it: a certified lower bound of the distance, as the full evaluation's own
//! gap is.
//!
//! Everything is computed from the two world poses directly (no relative placement formed), and
//! the contact comes out in the world frame: the plane's normal, the tracked vertex as a witness
//! and its foot at the certified gap on the other side.
//!
//! Unlike the plane's re-check, which evaluates a real plane whatever the warm state holds, the
//! certificate trusts the recorded numbers, so they are recorded with a fingerprint of the two
//! shapes and used only by a query of shapes with the same fingerprint: a warm state reused for
//! another pair by mistake falls back to the full evaluation. (Two identical shapes queried in the
//! other order are congruent configurations, for which the record holds all the same.)

use super::{stored_cover, Cover, Evaluated, PolyhedronPair};
use crate::contact::{Contact, ContactKind};
use crate::pose::Pose;
use crate::shapes::Polyhedron;
use nalgebra::Vector3;

/// Warm-state slot of the certificate: `c_ref`, the projection of the other body's origin on the
/// owner-frame normal at the reference placement (module documentation).
pub const PROJECTION: usize = 3;
/// Warm-state slots: the reference relative rotation's quaternion (`w, i, j, k`).
pub const ROTATION: usize = 4;
/// Warm-state slot: `g_other`, the reference distance of the untracked vertices (0: no
/// certificate).
pub const OTHERS: usize = 8;
/// Warm-state slot: the two shapes' fingerprint ([`fingerprint`]) when the reference was recorded.
pub const FINGERPRINT: usize = 9;
/// Warm-state slots of an e-e cover: its plane's unit normal in A's frame.
pub const AXIS: usize = 10;
/// Warm-state slot of an e-e cover: A's support along [`AXIS`], `n . x` at A's edge.
pub const SUPPORT_A: usize = 13;

/// Bodies with at most this many vertices have the distance of their untracked vertices scanned
/// when a warm-started query records the reference; larger ones take the full evaluation's gap
/// for it.
pub const SCANNED_VERTICES: usize = 32;

/// A number that tells the pair's shapes apart (their bounding radii and vertex counts), computed
/// the same way at the record and at the check, so equal shapes give bitwise equal numbers.
#[inline]
fn fingerprint(a: &Polyhedron, b: &Polyhedron) -> f64 {
    // (The counts through u32: one conversion instruction each; a wrapped count is as good.)
    a.bounding_radius()
        + 1.618_033_988_749_895 * b.bounding_radius()
        + 1e-3 * f64::from(a.num_vertices() as u32)
        + 1e-6 * f64::from(b.num_vertices() as u32)
}

/// Relative slack on the motion bound, and absolute slack per unit of the placement's size, for
/// the round-off of the bound, of the tracked distances and of the reference.
const RELATIVE_SLACK: f64 = 1e-12;
const ABSOLUTE_SLACK: f64 = 1e-14;

/// The smallest `m . v` over the vertices `v` of `body` other than `tracked`, plus `base`, when
/// `scan` and the body has at most [`SCANNED_VERTICES`]; otherwise `fallback`.
fn lowest_other(
    body: &Polyhedron,
    m: &Vector3<f64>,
    base: f64,
    tracked: [usize; 2],
    fallback: f64,
    scan: bool,
) -> f64 {
    if !scan || body.num_vertices() > SCANNED_VERTICES {
        return fallback;
    }
    let mut low = f64::INFINITY;
    for (i, v) in body.vertices().iter().enumerate() {
        if i != tracked[0] && i != tracked[1] {
            low = low.min(m.dot(v));
        }
    }
    low + base
}

/// Records the reference of later certificates from a full evaluation of `pair` (B at
/// `relative`) whose answer is `best`; clears it unless `best` separates the bodies. The other
/// vertices are scanned only when `scan` (a warm-started query: the host keeps the pair's state,
/// so the scan pays off in later certificates); otherwise their distance is taken as the gap.
pub fn record(
    data: &mut [f64],
    pair: &PolyhedronPair,
    relative: &Pose,
    best: &Evaluated,
    scan: bool,
) {
    let gap = -best.overlap;
    if gap.is_nan() || gap <= 0.0 {
        data[OTHERS] = 0.0;
        return;
    }
    let (a, b, t) = (pair.a, pair.b, pair.translation);
    let (projection, others) = match best.cover {
        Cover::FaceVertex { face_a, vertex_b } => {
            // B's vertex v at n . (R v + t) - d: (R^T n) . v plus n . t - d.
            let n = a.face_normal(face_a);
            let c = n.dot(&t);
            let base = c - a.face_offset(face_a);
            let m = pair.rotation_t * n;
            (c, lowest_other(b, &m, base, [vertex_b; 2], gap, scan))
        }
        Cover::VertexFace { vertex_a, face_b } => {
            // A's vertex u at m . (u - t) - e, m B's outward normal in A's frame.
            let m = pair.rotation * b.face_normal(face_b);
            let c = -m.dot(&t);
            let base = c - b.face_offset(face_b);
            (c, lowest_other(a, &m, base, [vertex_a; 2], gap, scan))
        }
        Cover::EdgeEdge { edge_a, edge_b } => {
            // A's support value along the plane's normal: where a body has leaning edges, its
            // support vertex's, not the edge's tail's (an edge along its faces' line is not
            // square to the axis, so its ends and the other vertices of its merged faces may lie
            // higher, by up to the tolerance; and the axis may be square to the edges' spans).
            let n = best.axis;
            let tail = a.edge(edge_a).tail();
            let top = if pair.has_leaning_edges() {
                a.support_vertex(&n, tail)
            } else {
                tail
            };
            let support_a = n.dot(&a.vertex(top));
            data[AXIS..AXIS + 3].copy_from_slice(n.as_slice());
            data[SUPPORT_A] = support_a;
            let c = n.dot(&t);
            let m = pair.rotation_t * n;
            let edge = b.edge(edge_b);
            let tracked = [edge.tail(), edge.head()];
            (c, lowest_other(b, &m, c - support_a, tracked, gap, scan))
        }
    };
    data[PROJECTION] = projection;
    let q = relative.rotation.quaternion();
    data[ROTATION..ROTATION + 4].copy_from_slice(&[q.w, q.i, q.j, q.k]);
    data[OTHERS] = if others.is_nan() { 0.0 } else { others };
    data[FINGERPRINT] = fingerprint(a, b);
}

/// The pair proven apart at the world poses `pose_a`, `pose_b` by the plane recorded in `data`
/// (see the module), without a support search; `None` when there is no reference or the motion
/// since it may have closed the gap. The contact (world frame) is that of the plane with the
/// certified lower bound as its gap: the plane's normal, the tracked vertex of the cover (B's, or
/// A's for B's face) as a witness and its foot at that gap on the other side; no cover evaluated
/// (`iterations` 0).
#[inline]
pub fn certified_apart(
    a: &Polyhedron,
    pose_a: &Pose,
    b: &Polyhedron,
    pose_b: &Pose,
    data: &[f64],
) -> Option<Contact> {
    let others = data[OTHERS];
    if others.is_nan() || others <= 0.0 || data[FINGERPRINT] != fingerprint(a, b) {
        return None;
    }
    let cover = stored_cover(data, a, b)?;
    let turn_squared = pose_a.turn_squared_since(
        pose_b,
        [
            data[ROTATION],
            data[ROTATION + 1],
            data[ROTATION + 2],
            data[ROTATION + 3],
        ],
    );
    let d = pose_b.position - pose_a.position;
    let size = 1.0 + d.abs().sum() + a.bounding_radius() + b.bounding_radius();
    // The plane's world normal, the tracked distance and witness, the projection c, the radius.
    let (normal, tracked, witness_b, witness, c, radius) = match cover {
        Cover::FaceVertex { face_a, vertex_b } => {
            let n = pose_a.rotation * a.face_normal(face_a);
            let r = pose_b.rotation * b.vertex(vertex_b);
            let c = n.dot(&d);
            let tracked = c + n.dot(&r) - a.face_offset(face_a);
            (
                n,
                tracked,
                true,
                r + pose_b.position,
                c,
                b.bounding_radius(),
            )
        }
        Cover::VertexFace { vertex_a, face_b } => {
            let m = pose_b.rotation * b.face_normal(face_b);
            let u = pose_a.rotation * a.vertex(vertex_a);
            let c = -m.dot(&d);
            let tracked = m.dot(&u) + c - b.face_offset(face_b);
            (
                -m,
                tracked,
                false,
                u + pose_a.position,
                c,
                a.bounding_radius(),
            )
        }
        Cover::EdgeEdge { edge_b, .. } => {
            let n = pose_a.rotation * Vector3::new(data[AXIS], data[AXIS + 1], data[AXIS + 2]);
            let edge = b.edge(edge_b);
            let tail = pose_b.rotation * b.vertex(edge.tail());
            let head = pose_b.rotation * b.vertex(edge.head());
            let c = n.dot(&d);
            let tracked = c + n.dot(&tail).min(n.dot(&head)) - data[SUPPORT_A];
            (
                n,
                tracked,
                true,
                tail + pose_b.position,
                c,
                b.bounding_radius(),
            )
        }
    };
    // The gap is the smaller of `tracked` and `others - (|c - c_ref| + turn radius)(1 + slack)`.
    // The turn is compared squared: its square root is taken only when it sets the gap.
    let shift = (c - data[PROJECTION]).abs() * (1.0 + RELATIVE_SLACK);
    let reach = radius * (1.0 + RELATIVE_SLACK);
    let room = others - shift - tracked;
    let nearest = if room >= 0.0 && turn_squared * (reach * reach) <= room * room {
        tracked
    } else {
        others - shift - turn_squared.sqrt() * reach
    };
    let gap = nearest - ABSOLUTE_SLACK * size;
    if gap.is_nan() || gap <= 0.0 {
        return None;
    }
    let (point_a, point_b) = if witness_b {
        (witness - normal * gap, witness)
    } else {
        (witness, witness + normal * gap)
    };
    let kind = match cover {
        Cover::EdgeEdge { .. } => ContactKind::EdgeEdge,
        _ => ContactKind::VertexFace,
    };
    let mut contact = Contact::from_points(point_a, point_b, normal, -gap, false, kind);
    contact.warm_started = true;
    Some(contact)
}
