//! Two convex polyhedra in body A's frame, and the contact covers of Zheng et al. (2017) between
//! them: the basic contacts whose valid entrance makes them facets of the entrance polyhedron.

use crate::shapes::Polyhedron;
use nalgebra::{Matrix3, Vector3};

/// Two polyhedra in A's frame: A as given, B turned by `rotation` and moved by `translation`.
pub struct PolyhedronPair<'a> {
    /// Body A.
    pub a: &'a Polyhedron,
    /// Body B.
    pub b: &'a Polyhedron,
    /// B's rotation in A's frame (B frame -> A frame).
    pub rotation: Matrix3<f64>,
    /// B's body-frame origin in A's frame.
    pub translation: Vector3<f64>,
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
        PolyhedronPair {
            a,
            b,
            rotation: *relative.rotation.to_rotation_matrix().matrix(),
            translation: relative.position,
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
        self.b
            .support_vertex(&-(self.rotation.transpose() * n), hint)
    }

    /// The v-f cover of A's face `f`: B's vertex lowest along the face normal is the one whose
    /// vertex angle the face plane separates from the face's half-space (the valid entrance of
    /// Zheng et al. 2017, section 2.1.1). `hint`: where B's support search starts.
    #[inline]
    pub fn face_a_cover(&self, f: usize, hint: usize) -> Evaluated {
        let n = self.a.face_normal(f);
        let v = self.b_lowest(&n, hint);
        Evaluated {
            cover: Cover::FaceVertex {
                face_a: f,
                vertex_b: v,
            },
            axis: n,
            overlap: self.a.face_offset(f) - n.dot(&self.b_vertex(v)),
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

    /// The e-e cover of A's edge `ea` and B's edge `eb`, if their entrance is valid: a plane
    /// through both edges separates their dihedrals, which holds exactly when the arcs of the two
    /// edges on the Gauss maps of A and of `-B` cross (the edges are then the support features of
    /// A along the plane's normal and of B against it). `b_arc`: B's edge's arc in A's frame
    /// (see [`BArc`]).
    #[inline]
    pub fn edge_cover(&self, ea: usize, eb: usize, b_arc: &BArc) -> Option<Evaluated> {
        let edge_a = self.a.edge(ea);
        let (na, nb) = (
            self.a.face_normal(edge_a.left_face()),
            self.a.face_normal(edge_a.right_face()),
        );
        if !arcs_cross_planes(
            &na,
            &nb,
            &self.a.edge_cap(ea).plane,
            &b_arc.left,
            &b_arc.right,
            &b_arc.plane,
        ) {
            return None;
        }
        let edge_b = self.b.edge(eb);
        let cross = edge_a
            .direction()
            .cross(&(self.rotation * edge_b.direction()));
        let sine = cross.norm();
        if sine <= PARALLEL_SINE {
            return None;
        }
        // The crossing point lies on A's arc, so the axis points out of A's edge: + (na + nb).
        let axis = if cross.dot(&(na + nb)) >= 0.0 {
            cross / sine
        } else {
            -cross / sine
        };
        let overlap =
            axis.dot(&self.a.vertex(edge_a.tail())) - axis.dot(&self.b_vertex(edge_b.tail()));
        Some(Evaluated {
            cover: Cover::EdgeEdge {
                edge_a: ea,
                edge_b: eb,
            },
            axis,
            overlap,
        })
    }
}

/// The arc of one of B's edges on the Gauss map of `-B`, in A's frame: minus its faces' outward
/// normals, and the normal of the arc's plane.
#[derive(Debug, Clone, Copy)]
pub struct BArc {
    /// Minus the outward normal of the edge's left face (A's frame).
    pub left: Vector3<f64>,
    /// Minus the outward normal of the edge's right face (A's frame).
    pub right: Vector3<f64>,
    /// `left x right`.
    pub plane: Vector3<f64>,
}

impl BArc {
    /// The arc of B's edge `e` for the pair.
    #[inline]
    pub fn new(pair: &PolyhedronPair, e: usize) -> Self {
        let edge = pair.b.edge(e);
        BArc {
            left: -pair.b_face_normal(edge.left_face()),
            right: -pair.b_face_normal(edge.right_face()),
            // (-R l) x (-R r) = R (l x r).
            plane: pair.rotation * pair.b.edge_cap(e).plane,
        }
    }
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
