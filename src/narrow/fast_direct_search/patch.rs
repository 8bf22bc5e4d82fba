//! The contact patch of a penetrating polyhedron pair: the features of each body inside the
//! other's extent along the contact normal, the composite contact type they make (v-v, v-e, v-f,
//! e-e, e-f, f-f of Zheng et al. 2017), and the list of basic contacts (v-f both ways and
//! crossing e-e) on it, for DDA-style and multi-point force laws.

use super::pair::PolyhedronPair;
use crate::contact::ContactKind;
use crate::narrow::common_normal::Chart;
use crate::shapes::Polyhedron;
use nalgebra::{Vector2, Vector3};

/// What a basic contact joins: which body gives the vertex, or two edges.
///
/// The discriminants are part of the C ABI (`DEMCONTACT_BASIC_*`): append only, never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(i32)]
pub enum BasicKind {
    /// No contact (the value of unused records).
    #[default]
    None = 0,
    /// A vertex of B inside a face of A (`feature_a` a face, `feature_b` a vertex).
    FaceVertex = 1,
    /// A vertex of A inside a face of B (`feature_a` a vertex, `feature_b` a face).
    VertexFace = 2,
    /// An edge of A crossing an edge of B (`feature_a`, `feature_b` edges).
    EdgeEdge = 3,
}

/// One basic contact of a pair's contact list. Frame: that of the query (the world frame through
/// [`crate::narrow::contact_list`], A's frame inside the kernel); lengths in the host's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BasicContact {
    /// What the contact joins.
    pub kind: BasicKind,
    /// A's vertex, edge or face index (see [`BasicKind`]).
    pub feature_a: usize,
    /// B's vertex, edge or face index.
    pub feature_b: usize,
    /// The contact point: midway between the vertex and its foot on the face plane, or between
    /// the two edges' points at their crossing.
    pub point: Vector3<f64>,
    /// The pair's contact normal, A -> B.
    pub normal: Vector3<f64>,
    /// How far the vertex lies past the face plane (or the edges past each other), measured
    /// along `normal`; > 0 for an overlap.
    pub depth: f64,
}

/// At most this many vertices of a body are collected into a patch.
pub const PATCH_CAPACITY: usize = 64;

/// A small set of at most `N` vertex indices held inline (no allocation).
#[derive(Debug, Clone, Copy)]
pub struct VertexSet<const N: usize> {
    items: [usize; N],
    len: usize,
}

impl<const N: usize> VertexSet<N> {
    /// The vertices, in the order they were found (the extreme vertex first).
    pub fn as_slice(&self) -> &[usize] {
        &self.items[..self.len]
    }

    /// How many vertices the set holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The vertices of a body within `width` of its extreme along a direction: a breadth-first walk
/// over the vertex graph from the extreme vertex (the set above a plane of a convex polyhedron is
/// connected), stopping once `N` vertices are found.
fn slab_vertices<const N: usize>(
    body: &Polyhedron,
    start: usize,
    height: impl Fn(usize) -> f64,
    width: f64,
) -> VertexSet<N> {
    let limit = N;
    let top = height(start);
    let mut found = VertexSet {
        items: [0; N],
        len: 1,
    };
    found.items[0] = start;
    let mut k = 0;
    while k < found.len && found.len < limit {
        let v = found.items[k];
        k += 1;
        for &u in body.vertex_neighbours(v) {
            let u = u as usize;
            if !found.as_slice().contains(&u) && height(u) >= top - width {
                found.items[found.len] = u;
                found.len += 1;
                if found.len >= limit {
                    break;
                }
            }
        }
    }
    found
}

/// How many vertices of a body lie within `width` of its extreme `start` along a direction
/// (`height`), counted to 3 at most: `slab_vertices::<3>(...).len()` without the set. The
/// walk from `start` finds 3 as soon as `start` has two neighbours in the slab, or its one
/// neighbour there has another.
#[inline]
fn slab_count(body: &Polyhedron, start: usize, height: impl Fn(usize) -> f64, width: f64) -> usize {
    let floor = height(start) - width;
    let mut first = None;
    for &u in body.vertex_neighbours(start) {
        let u = u as usize;
        if height(u) >= floor {
            if first.is_some() {
                return 3;
            }
            first = Some(u);
        }
    }
    let Some(u) = first else {
        return 1;
    };
    let more = body.vertex_neighbours(u).iter().any(|&w| {
        let w = w as usize;
        w != start && height(w) >= floor
    });
    if more {
        3
    } else {
        2
    }
}

/// The composite type of the contact along `normal` (A's frame, A -> B) with overlap `depth`, from
/// the support vertices `(top_a, bottom_b)`: [`Patch::kind`] of the patch of 3 vertices per body,
/// counted without collecting the vertices.
pub fn contact_kind(
    pair: &PolyhedronPair,
    normal: &Vector3<f64>,
    depth: f64,
    (top_a, bottom_b): (usize, usize),
) -> ContactKind {
    let (width, normal_b) = slab(pair, normal, depth);
    composite_kind(
        slab_count(pair.a, top_a, |v| normal.dot(&pair.a.vertex(v)), width),
        slab_count(pair.b, bottom_b, |v| normal_b.dot(&pair.b.vertex(v)), width),
    )
}

/// The composite type of a contact from the numbers of vertices each body has in the overlap
/// (1: a vertex, 2: an edge, 3 or more: a face).
///
/// The type needs a patch of 3 vertices per body at most.
pub fn composite_kind(count_a: usize, count_b: usize) -> ContactKind {
    let (lo, hi) = (count_a.min(count_b).min(3), count_a.max(count_b).min(3));
    match (lo, hi) {
        (1, 1) => ContactKind::VertexVertex,
        (1, 2) => ContactKind::VertexEdge,
        (1, _) => ContactKind::VertexFace,
        (2, 2) => ContactKind::EdgeEdge,
        (2, _) => ContactKind::EdgeFace,
        _ => ContactKind::FaceFace,
    }
}

/// The features of a pair in contact along `normal` (A's frame, A -> B) with overlap `depth`, at
/// most `N` vertices per body.
pub struct Patch<const N: usize> {
    /// A's vertices within `depth + tolerance` of A's extreme along `normal`.
    pub vertices_a: VertexSet<N>,
    /// B's vertices within `depth + tolerance` of B's extreme against `normal`.
    pub vertices_b: VertexSet<N>,
}

/// The slab of a patch along `normal` with overlap `depth`: its width (the depth and the bodies'
/// tolerances) and the normal turned into B's frame against it (B's heights are measured along it).
#[inline]
fn slab(pair: &PolyhedronPair, normal: &Vector3<f64>, depth: f64) -> (f64, Vector3<f64>) {
    (
        depth.max(0.0) + patch_tolerance(pair),
        -(pair.rotation.transpose() * normal),
    )
}

/// The length below which two heights count as equal in a patch: the bodies' construction
/// tolerances.
pub fn patch_tolerance(pair: &PolyhedronPair) -> f64 {
    pair.a.tolerance() + pair.b.tolerance()
}

impl<const N: usize> Patch<N> {
    /// The patch along `normal` with overlap `depth`, from the support vertices `top_a` (of A
    /// along `normal`) and `bottom_b` (of B against it).
    pub fn new(
        pair: &PolyhedronPair,
        normal: &Vector3<f64>,
        depth: f64,
        (top_a, bottom_b): (usize, usize),
    ) -> Self {
        let (width, normal_b) = slab(pair, normal, depth);
        Patch {
            vertices_a: slab_vertices(pair.a, top_a, |v| normal.dot(&pair.a.vertex(v)), width),
            vertices_b: slab_vertices(pair.b, bottom_b, |v| normal_b.dot(&pair.b.vertex(v)), width),
        }
    }

    /// The composite type (see [`composite_kind`]).
    pub fn kind(&self) -> ContactKind {
        composite_kind(self.vertices_a.len(), self.vertices_b.len())
    }
}

/// The face among `faces` whose outward normal (by `normal_of`) is most along `direction`.
fn reference_face(
    faces: &[usize],
    normal_of: impl Fn(usize) -> Vector3<f64>,
    direction: &Vector3<f64>,
) -> usize {
    let mut best = faces[0];
    let mut best_dot = f64::NEG_INFINITY;
    for &f in faces {
        let d = normal_of(f).dot(direction);
        if d > best_dot {
            best_dot = d;
            best = f;
        }
    }
    best
}

/// Whether the 2-D point `p` lies in the convex polygon `poly` (either orientation), within
/// `tolerance` (a length).
fn in_polygon(p: &Vector2<f64>, poly: &[Vector2<f64>], tolerance: f64) -> bool {
    let n = poly.len();
    let mut sign = 0.0f64;
    for k in 0..n {
        let (a, b) = (poly[k], poly[(k + 1) % n]);
        let edge = b - a;
        let len = edge.norm();
        if len == 0.0 {
            continue;
        }
        let side = (edge.x * (p.y - a.y) - edge.y * (p.x - a.x)) / len;
        if side.abs() <= tolerance {
            continue;
        }
        if sign == 0.0 {
            sign = side.signum();
        } else if side.signum() != sign {
            return false;
        }
    }
    true
}

/// The parameters `(s, t)` in `(0, 1)` where the 2-D segments `a0 a1` and `b0 b1` cross, if they
/// cross properly: not parallel, and not at an end (a vertex, which the v-f contacts cover).
fn segments_cross(
    a0: &Vector2<f64>,
    a1: &Vector2<f64>,
    b0: &Vector2<f64>,
    b1: &Vector2<f64>,
) -> Option<(f64, f64)> {
    let (r, q) = (a1 - a0, b1 - b0);
    let denom = r.x * q.y - r.y * q.x;
    if denom.abs() <= 1e-14 * r.norm() * q.norm() {
        return None;
    }
    let w = b0 - a0;
    let s = (w.x * q.y - w.y * q.x) / denom;
    let t = (w.x * r.y - w.y * r.x) / denom;
    (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0).then_some((s, t))
}

/// The basic contacts of a penetrating pair on its contact patch (A's frame), appended to `out`:
/// B's vertices of the patch inside A's reference face (the face of A at the patch most normal to
/// the contact normal) and below its plane, A's vertices inside B's reference face and beyond its
/// plane, and the crossings of the two reference faces' edges where A's edge lies beyond B's, all
/// seen along `normal`. A contact deeper than `-tolerance` is kept.
pub fn basic_contacts<const N: usize>(
    pair: &PolyhedronPair,
    normal: &Vector3<f64>,
    patch: &Patch<N>,
    out: &mut Vec<BasicContact>,
) {
    let (a, b) = (pair.a, pair.b);
    let tolerance = patch_tolerance(pair);
    let chart = Chart::new(*normal);
    let flat = |x: &Vector3<f64>| Vector2::new(chart.e2.dot(x), chart.e3.dot(x));
    let top_a = patch.vertices_a.as_slice()[0];
    let bottom_b = patch.vertices_b.as_slice()[0];
    let face_a = reference_face(a.vertex_faces(top_a), |f| a.face_normal(f), normal);
    let face_b = reference_face(
        b.vertex_faces(bottom_b),
        |g| pair.b_face_normal(g),
        &-normal,
    );
    let (n_a, o_a) = (a.face_normal(face_a), a.face_offset(face_a));
    let n_b = pair.b_face_normal(face_b);
    let o_b = b.face_offset(face_b) + n_b.dot(&pair.translation);
    let loop_a: Vec<Vector3<f64>> = a
        .face_vertices(face_a)
        .iter()
        .map(|&v| a.vertex(v))
        .collect();
    let loop_b: Vec<Vector3<f64>> = b
        .face_vertices(face_b)
        .iter()
        .map(|&v| pair.b_vertex(v))
        .collect();
    let flat_a: Vec<Vector2<f64>> = loop_a.iter().map(flat).collect();
    let flat_b: Vec<Vector2<f64>> = loop_b.iter().map(flat).collect();

    // B's vertices in A's face: depth below its plane, along the normal.
    let along_a = n_a.dot(normal);
    if along_a > 0.0 {
        for &v in patch.vertices_b.as_slice() {
            let x = pair.b_vertex(v);
            let depth = (o_a - n_a.dot(&x)) / along_a;
            if depth >= -tolerance && in_polygon(&flat(&x), &flat_a, tolerance) {
                out.push(BasicContact {
                    kind: BasicKind::FaceVertex,
                    feature_a: face_a,
                    feature_b: v,
                    point: x + normal * (0.5 * depth),
                    normal: *normal,
                    depth,
                });
            }
        }
    }
    // A's vertices in B's face.
    let along_b = -n_b.dot(normal);
    if along_b > 0.0 {
        for &v in patch.vertices_a.as_slice() {
            let x = a.vertex(v);
            let depth = (o_b - n_b.dot(&x)) / along_b;
            if depth >= -tolerance && in_polygon(&flat(&x), &flat_b, tolerance) {
                out.push(BasicContact {
                    kind: BasicKind::VertexFace,
                    feature_a: v,
                    feature_b: face_b,
                    point: x - normal * (0.5 * depth),
                    normal: *normal,
                    depth,
                });
            }
        }
    }
    // Crossing edges of the two reference faces.
    let (edges_a, edges_b) = (a.face_edges(face_a), b.face_edges(face_b));
    for (i, &ea) in edges_a.iter().enumerate() {
        let (a0, a1) = (i, (i + 1) % flat_a.len());
        for (j, &eb) in edges_b.iter().enumerate() {
            let (b0, b1) = (j, (j + 1) % flat_b.len());
            if let Some((s, t)) = segments_cross(&flat_a[a0], &flat_a[a1], &flat_b[b0], &flat_b[b1])
            {
                let pa = loop_a[a0] + (loop_a[a1] - loop_a[a0]) * s;
                let pb = loop_b[b0] + (loop_b[b1] - loop_b[b0]) * t;
                let depth = normal.dot(&(pa - pb));
                if depth >= -tolerance {
                    out.push(BasicContact {
                        kind: BasicKind::EdgeEdge,
                        feature_a: ea,
                        feature_b: eb,
                        point: (pa + pb) * 0.5,
                        normal: *normal,
                        depth,
                    });
                }
            }
        }
    }
}
