//! Two convex polyhedra in body A's frame, and the contact covers of Zheng et al. (2017) between
//! them: the basic contacts whose valid entrance makes them facets of the entrance polyhedron.

use crate::shapes::{Polyhedron, PolyhedronEdge};
use nalgebra::{Matrix3, Vector3};
use std::cell::Cell;

/// Two polyhedra in A's frame: A as given, B turned by `rotation` and moved by `translation`.
pub struct PolyhedronPair<'a> {
    /// Body A.
    pub a: &'a Polyhedron,
    /// Body B.
    pub b: &'a Polyhedron,
    /// B's rotation in A's frame (B frame -> A frame).
    pub rotation: Matrix3<f64>,
    /// Its transpose (A frame -> B frame).
    pub rotation_t: Matrix3<f64>,
    /// B's body-frame origin in A's frame.
    pub translation: Vector3<f64>,
    /// The last two edges' lines asked for ([`Self::edge_lines`]): the certificate and the
    /// witness points of an answer both need them.
    last_lines: Cell<Option<(usize, usize, EdgeLines)>>,
}

/// A contact cover: a basic contact of Zheng et al. (2017), section 2.1.1, that is a facet of the
/// entrance polyhedron `E = A + (-B)` (Shi's reference-point formulation, cited there): a face of
/// one body against the vertex of the other that enters it validly (the face's plane separates
/// the vertex angle from the face's half-space), or two crossing edges whose dihedrals a plane
/// through both separates. Indices are vertices, edges and faces of the named body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    /// Face `face_a` of A against vertex `vertex_b` of B (v-f, B's vertex).
    FaceVertex {
        /// A's face.
        face_a: usize,
        /// B's vertex.
        vertex_b: usize,
    },
    /// Vertex `vertex_a` of A against face `face_b` of B (v-f, A's vertex).
    VertexFace {
        /// A's vertex.
        vertex_a: usize,
        /// B's face.
        face_b: usize,
    },
    /// Crossing edges `edge_a` of A and `edge_b` of B (e-e).
    EdgeEdge {
        /// A's edge.
        edge_a: usize,
        /// B's edge.
        edge_b: usize,
    },
}

/// A cover with its plane: the unit `axis` (A's frame, pointing from A to B: the outward normal of
/// the facet of `E`) and the `overlap` of the bodies' extents along it, `h_A(axis) + h_B(-axis)`
/// with B placed: the distance of the facet's plane from the reference point. Negative: the plane
/// separates the bodies by `-overlap`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluated {
    /// The cover.
    pub cover: Cover,
    /// Unit normal of the cover's plane, A -> B, A's frame.
    pub axis: Vector3<f64>,
    /// Overlap of the bodies along `axis` (negative: a gap).
    pub overlap: f64,
}

/// Edges closer to parallel than this (sine of their angle) make no crossing e-e cover: their
/// facet of `E` has no well-defined normal, and the neighbouring face covers carry its depth.
pub const PARALLEL_SINE: f64 = 1e-12;

impl<'a> PolyhedronPair<'a> {
    /// `a` and `b` with B's pose `relative` to A ([`crate::pose::Pose::relative`]).
    #[inline]
    pub fn new(a: &'a Polyhedron, b: &'a Polyhedron, relative: &crate::pose::Pose) -> Self {
        let rotation = *relative.rotation.to_rotation_matrix().matrix();
        PolyhedronPair {
            a,
            b,
            rotation,
            rotation_t: rotation.transpose(),
            translation: relative.position,
            last_lines: Cell::new(None),
        }
    }

    /// The same two bodies with their roles swapped: B as the first body, in whose frame A is
    /// placed (the inverse placement, from this pair's rotation matrix: no quaternion work).
    #[inline]
    pub fn swapped(&self) -> PolyhedronPair<'a> {
        PolyhedronPair {
            a: self.b,
            b: self.a,
            rotation: self.rotation_t,
            rotation_t: self.rotation,
            translation: -(self.rotation_t * self.translation),
            last_lines: Cell::new(None),
        }
    }

    /// B's vertex `v` in A's frame.
    #[inline]
    pub fn b_vertex(&self, v: usize) -> Vector3<f64> {
        self.rotation * self.b.vertex(v) + self.translation
    }

    /// The outward unit normal of B's face `g`, in A's frame.
    #[inline]
    pub fn b_face_normal(&self, g: usize) -> Vector3<f64> {
        self.rotation * self.b.face_normal(g)
    }

    /// The vertex of B lowest along `n` (A's frame), climbing from `hint`.
    #[inline]
    pub fn b_lowest(&self, n: &Vector3<f64>, hint: usize) -> usize {
        self.b.support_vertex(&-(self.rotation_t * n), hint)
    }

    /// A's vertex farthest along `n` (A's frame), B's vertex lowest along it, the climbs started
    /// at `hints` (A's vertex, B's), and the bodies' overlap along `n` between the two (negative:
    /// their gap; the overlap along `n` when `n` is a unit vector).
    #[inline]
    pub fn supports_along(&self, n: &Vector3<f64>, hints: (usize, usize)) -> (usize, usize, f64) {
        let top = self.a.support_vertex(n, hints.0);
        let bottom = self.b_lowest(n, hints.1);
        let overlap = n.dot(&self.a.vertex(top)) - n.dot(&self.b_vertex(bottom));
        (top, bottom, overlap)
    }

    /// The v-f cover of A's face `f` and B's vertex `v`, which must be a vertex of B lowest along
    /// the face normal ([`Self::b_lowest`]): the one whose vertex angle the face plane separates
    /// from the face's half-space (the valid entrance of Zheng et al. 2017, section 2.1.1).
    #[inline]
    pub fn face_a_cover(&self, f: usize, v: usize) -> Evaluated {
        self.face_a_cover_placed(f, v, &self.b_vertex(v))
    }

    /// [`Self::face_a_cover`] with B's vertex `v` already placed in A's frame: `placed`.
    #[inline]
    pub fn face_a_cover_placed(&self, f: usize, v: usize, placed: &Vector3<f64>) -> Evaluated {
        let n = self.a.face_normal(f);
        Evaluated {
            cover: Cover::FaceVertex {
                face_a: f,
                vertex_b: v,
            },
            axis: n,
            overlap: self.a.face_offset(f) - n.dot(placed),
        }
    }

    /// The v-f cover of B's face `g` against A's vertex farthest along its inward normal (the
    /// axis A -> B is minus B's outward normal). `hint`: where A's support search starts.
    #[inline]
    pub fn face_b_cover(&self, g: usize, hint: usize) -> Evaluated {
        let axis = -self.b_face_normal(g);
        let v = self.a.support_vertex(&axis, hint);
        Evaluated {
            cover: Cover::VertexFace {
                vertex_a: v,
                face_b: g,
            },
            axis,
            overlap: axis.dot(&self.a.vertex(v)) + self.b.face_offset(g)
                - axis.dot(&self.translation),
        }
    }

    /// Whether either body has leaning edges ([`Polyhedron::has_leaning_edges`]): then an
    /// edge-edge cover's tails do not give its exact overlap, and its answer is taken from the
    /// support vertices (`crossing_answer`, and the motion certificate's record).
    #[inline]
    pub fn has_leaning_edges(&self) -> bool {
        self.a.has_leaning_edges() || self.b.has_leaning_edges()
    }

    /// A vertex of A farthest along `cover`'s axis and a vertex of B lowest along it: features of
    /// the cover itself (a face's first vertex, an edge's tail), so no support search is needed.
    #[inline]
    pub fn support_of(&self, cover: &Cover) -> (usize, usize) {
        super::cover_support(self.a, self.b, cover)
    }

    /// The lines of A's edge `ea` and B's edge `eb` in A's frame, `p + s u` and `q + t v` (tail to
    /// head), with the parameters `(s, t)` of their closest points (the lines must not be
    /// parallel).
    pub fn edge_lines(&self, ea: usize, eb: usize) -> EdgeLines {
        if let Some((i, j, lines)) = self.last_lines.get() {
            if (i, j) == (ea, eb) {
                return lines;
            }
        }
        let (edge_a, edge_b) = (self.a.edge(ea), self.b.edge(eb));
        let p = self.a.vertex(edge_a.tail());
        let u = self.a.vertex(edge_a.head()) - p;
        let q = self.b_vertex(edge_b.tail());
        let v = self.b_vertex(edge_b.head()) - q;
        let r = p - q;
        let (uu, uv, vv) = (u.dot(&u), u.dot(&v), v.dot(&v));
        let (ur, vr) = (u.dot(&r), v.dot(&r));
        let denom = uu * vv - uv * uv;
        let lines = EdgeLines {
            p,
            u,
            q,
            v,
            s: (uv * vr - vv * ur) / denom,
            t: (uu * vr - uv * ur) / denom,
        };
        self.last_lines.set(Some((ea, eb, lines)));
        lines
    }

    /// A's edge `i` seen from B's frame ([`EdgeOfA`]).
    #[inline]
    pub fn a_edge(&self, i: usize) -> EdgeOfA {
        let edge = self.a.edge(i);
        let arc = self.a.edge_arc(i);
        EdgeOfA {
            index: i,
            left: self.rotation_t * arc.start,
            right: self.rotation_t * arc.end,
            plane: self.rotation_t * arc.plane,
            direction: self.rotation_t * edge.direction(),
            tail: self.rotation_t * (self.a.vertex(edge.tail()) - self.translation),
        }
    }

    /// Whether the arc of A's edge `ea` on A's Gauss map crosses the arc of B's edge `eb` on the
    /// Gauss map of `-B` (minus the outward normals of its faces; the arc's plane is unchanged by
    /// the sign): the valid entrance of an e-e cover (a plane through both edges separates their
    /// dihedrals exactly then; the edges are the support features of A along its normal and of B
    /// against it).
    #[inline]
    pub fn arcs_cross(&self, ea: &EdgeOfA, eb: usize) -> bool {
        let arc = self.b.edge_arc(eb);
        arcs_cross_planes(
            &ea.left,
            &ea.right,
            &ea.plane,
            &-arc.start,
            &-arc.end,
            &arc.plane,
        )
    }

    /// The e-e cover of A's edge `ea` and B's edge `eb`, if their entrance is valid
    /// ([`Self::arcs_cross`]) and they are not parallel.
    #[inline]
    pub fn edge_cover(&self, ea: &EdgeOfA, eb: usize) -> Option<Evaluated> {
        if self.arcs_cross(ea, eb) {
            self.crossing_edge_cover(ea, eb)
        } else {
            None
        }
    }

    /// The e-e cover of A's edge `ea` and B's edge `eb` whose arcs cross (not checked here), unless
    /// the edges are (near) parallel. Computed in B's frame; the axis is returned in A's. Where a
    /// body has leaning edges ([`Polyhedron::has_leaning_edges`]) the overlap is taken from each
    /// edge's end farther out along the axis, otherwise from the tails.
    #[inline]
    pub fn crossing_edge_cover(&self, ea: &EdgeOfA, eb: usize) -> Option<Evaluated> {
        let edge_b = self.b.edge(eb);
        let cross = ea.direction.cross(&edge_b.direction());
        let sine = cross.norm();
        if sine <= PARALLEL_SINE {
            return None;
        }
        // The crossing point lies on A's arc, so the axis points out of A's edge: + (na + nb).
        let axis_b = if cross.dot(&(ea.left + ea.right)) >= 0.0 {
            cross / sine
        } else {
            -cross / sine
        };
        let tail_b = self.b.vertex(edge_b.tail());
        let mut overlap = axis_b.dot(&ea.tail) - axis_b.dot(&tail_b);
        if self.has_leaning_edges() {
            overlap += self.farther_ends(ea, edge_b, &tail_b, &axis_b);
        }
        Some(Evaluated {
            cover: Cover::EdgeEdge {
                edge_a: ea.index,
                edge_b: eb,
            },
            axis: self.rotation * axis_b,
            overlap,
        })
    }

    /// How much an e-e cover's overlap gains along `axis_b` (B's frame) from the heads of A's
    /// edge `ea` and B's edge `edge_b` (tail `tail_b`, B's frame) where they lie farther out than
    /// the tails (A's above, B's below).
    ///
    /// A leaning edge's direction is its faces' line, not its span, so its two ends can differ
    /// along the axis: by up to its length for an edge between near-duplicate vertices, whose
    /// faces' line runs across it. Each body's end farther out along the axis is the nearer to
    /// its support. From the tails alone the overlap can fall below the exact one along the axis,
    /// then below the minimum, and bar the minimum's cover (the answer was 7.3 hull tolerances too
    /// deep at `validate --only polyhedra --seed 100`, section (d)). With both ends it is still
    /// the overlap of one point of each body, so it stays at or below the exact overlap along the
    /// axis, and the search's bounds, which bound the tails' value from below, bound it too.
    #[cold]
    #[inline(never)]
    fn farther_ends(
        &self,
        ea: &EdgeOfA,
        edge_b: &PolyhedronEdge,
        tail_b: &Vector3<f64>,
        axis_b: &Vector3<f64>,
    ) -> f64 {
        let head_a =
            self.rotation_t * (self.a.vertex(self.a.edge(ea.index).head()) - self.translation);
        let head_b = self.b.vertex(edge_b.head());
        axis_b.dot(&(head_a - ea.tail)).max(0.0) + axis_b.dot(&(tail_b - head_b)).max(0.0)
    }
}

/// Two edges' lines and their closest points ([`PolyhedronPair::edge_lines`]), A's frame.
#[derive(Debug, Clone, Copy)]
pub struct EdgeLines {
    /// A's edge's tail.
    pub p: Vector3<f64>,
    /// A's edge, tail to head.
    pub u: Vector3<f64>,
    /// B's edge's tail.
    pub q: Vector3<f64>,
    /// B's edge, tail to head.
    pub v: Vector3<f64>,
    /// The parameter of the closest point on A's line, `p + s u`.
    pub s: f64,
    /// The parameter of the closest point on B's line, `q + t v`.
    pub t: f64,
}

/// One of A's edges turned into B's body frame, once per edge of A a search considers, so that
/// the tests against B's edges use B's precomputed normals and arc planes as they are.
#[derive(Debug, Clone, Copy)]
pub struct EdgeOfA {
    /// The edge's index in A.
    pub index: usize,
    /// The outward unit normal of its left face (B's frame): its Gauss arc runs `left -> right`.
    pub left: Vector3<f64>,
    /// The outward unit normal of its right face (B's frame).
    pub right: Vector3<f64>,
    /// `left x right`: the normal of the arc's plane (B's frame).
    pub plane: Vector3<f64>,
    /// Its unit direction, tail to head (B's frame).
    pub direction: Vector3<f64>,
    /// Its tail vertex in B's frame.
    pub tail: Vector3<f64>,
}

/// Whether the short great arcs `a -> b` and `c -> d` (unit vectors, each pair less than `pi`
/// apart) cross: `c` and `d` lie on opposite sides of the plane of `a, b`, `a` and `b` on
/// opposite sides of the plane of `c, d`, and the two arcs lie on the same hemisphere (the last
/// sign test rules out the crossing of the arcs' antipodes). The test of the Gauss-map overlay
/// of two convex polyhedra (Gregorius, "The separating axis test between convex polyhedra",
/// GDC 2013), written with the arcs' own plane normals so that no edge orientation enters.
#[inline]
pub fn arcs_cross(a: &Vector3<f64>, b: &Vector3<f64>, c: &Vector3<f64>, d: &Vector3<f64>) -> bool {
    arcs_cross_planes(a, b, &a.cross(b), c, d, &c.cross(d))
}

/// [`arcs_cross`] with the arcs' plane normals given: `p_ab` a positive multiple of `a x b`,
/// `p_cd` of `c x d` (precomputed per edge, so the test is four dot products).
#[inline]
pub fn arcs_cross_planes(
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    p_ab: &Vector3<f64>,
    c: &Vector3<f64>,
    d: &Vector3<f64>,
    p_cd: &Vector3<f64>,
) -> bool {
    let (cp, dp) = (c.dot(p_ab), d.dot(p_ab));
    let (aq, bq) = (a.dot(p_cd), b.dot(p_cd));
    cp * dp < 0.0 && aq * bq < 0.0 && cp * bq > 0.0
}
