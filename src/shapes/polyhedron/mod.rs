//! The convex polyhedron: the convex hull of a point set, held as a boundary representation with
//! the adjacency a vertex-face / edge-edge contact search walks (Fast Direct Search, Zheng et al.
//! 2017: each edge's two faces for dihedral angles, each vertex's ring of edges and faces for
//! vertex angles).
//!
//! # Construction
//!
//! 1. The points are checked (finite, at least 4) and points within the tolerance of an earlier
//!    point are dropped as duplicates.
//! 2. Quickhull with conflict lists builds a triangulated hull; points within the tolerance of the
//!    current hull are discarded as interior or coplanar. The initial simplex measures how thin
//!    the set is and rejects collinear, needle-like, coplanar and flat sets.
//! 3. Adjacent triangles whose off-edge vertices each lie within the tolerance of the other's plane
//!    merge into one polygonal face, and vertices on fewer than three faces (inside a face or
//!    inside an edge, such as a face centre or an edge midpoint) are dropped.
//! 4. The faces' planes are refitted (Newell's normal of the face loop; the offset that makes the
//!    plane support the vertex set) and the adjacency is built.
//!
//! # Tolerance scheme
//!
//! One absolute length tolerance governs the construction:
//!
//! `tolerance = RELATIVE_TOLERANCE * diagonal + ROUND_OFF_FACTOR * f64::EPSILON * max |coordinate|`
//!
//! with `diagonal` the diagonal of the axis-aligned bounding box of the input points,
//! [`Polyhedron::RELATIVE_TOLERANCE`] `= 1e-8` and [`Polyhedron::ROUND_OFF_FACTOR`] `= 64` (the
//! second term only matters for a body far smaller than its distance from the frame's origin).
//! `1e-8` is about the square root of the machine epsilon: a hull triangle whose apex is just the
//! tolerance above its base has a normal accurate to about `f64::EPSILON * diagonal / tolerance`,
//! so its plane is right to about the tolerance across the whole body. The tolerance decides:
//!
//! * duplicates: points closer than it to an earlier point;
//! * hull membership: a point is outside a triangle when more than it above the triangle's plane;
//! * coplanarity: adjacent triangles merge when each one's off-edge vertex is within it of the
//!   other's plane;
//! * degeneracy: a set whose every point lies within it of one line (plane) is collinear
//!   (coplanar); one whose extent across that line (plane) is below
//!   [`Polyhedron::MIN_RELATIVE_THICKNESS`] `= 1e-6` of the diagonal is needle-like (flat).
//!
//! The result honours it: every vertex is one of the input points, bit for bit; each face plane
//! supports the vertex set (its offset is the largest `normal . x` over all vertices, so no vertex
//! lies above any face plane); the tests check that every input point lies at most one tolerance
//! above every face plane and that each face's vertices lie at most two tolerances below it.
//!
//! That bound holds along the face normals, not in every direction. Beyond an edge whose faces
//! meet at a small dihedral angle `alpha` (the rim of a thin plate), a point within the tolerance
//! of both planes can lie up to `tolerance / sin(alpha / 2)` from the hull, and the hull drops it
//! (a vertex on fewer than three faces): a rim of `alpha = 2e-3` loses a point a thousand
//! tolerances out (the validation's unit test
//! `the_excess_is_how_far_a_point_left_out_lies_from_the_hull` builds that case). The hull is then that much inside the input's hull there, and so are its
//! support function, depths and gaps. On `validate`'s rough point clouds (plates and needles of
//! aspect up to 1000 with near-duplicate points; 70000 bodies, seeds 1-70) 874 bodies left a point
//! out beyond a tolerance, the farthest 28 tolerances (3.8e-7 of the size) away.
//!
//! # Limits
//!
//! Coplanar triangles are merged by growing regions against a refitted plane (see
//! `merge.rs`). Inputs that are exact or perturbed well below the tolerance (the tests go to
//! `1e-12` of the size on lattices with many collinear and coplanar points) give planar, convex
//! faces. Lattice-like inputs whose coplanar and collinear points are perturbed by about 1 to 40
//! tolerances are the hard case: 10 to 25 % of them give, at the scheme's tolerance, a face that
//! is not convex within the tolerance, a sliver face whose plane lies far from the face's own
//! vertices (up to the body's size, a face turned inside out), or an input point more than a
//! tolerance above a face. [`Polyhedron::new`] checks every hull it builds for these and rebuilds
//! an unsound one at ten, then a hundred times the tolerance (up to `1e-6` of the diagonal; the
//! body then honours that tolerance, [`Polyhedron::tolerance`]); a hull still unsound there (1 of
//! 300 lattices at noise `1e-5`, probe `hulltime`, not committed) is refused as degenerate
//! geometry. Merging non-convex facets during the construction (qhull's pre-merge) would keep
//! the scheme's tolerance; this implementation does not do it.
//!
//! A point left out beyond a sharp edge (above) would stay a corner only if the faces it would
//! drop from were split at it rather than merged; this implementation does not do that either.
//!
//! Where nearly coplanar triangles merge into one face, the exact hull of the input has several
//! facets there, meeting at hidden edges. Such a creased face of up to
//! [`CREASE_POINT_LIMIT`] points keeps those facets' normals and hidden edges' directions
//! ([`Polyhedron::creased_faces`]), and the contact search evaluates them, so that its depths are
//! the exact hull's rather than the merged face's (which overstate them by up to the face's
//! [`flatness`](Polyhedron::face_flatness)). The faces, edges and vertices stay the merged ones.

mod brep;
mod crease;
mod fast_hash;
mod gauss_arc;
mod highest;
mod hull;
mod mass;
mod median_tree;
mod merge;
mod plane_tree;
mod points;
mod support;
#[cfg(test)]
mod tests;

pub use brep::PolyhedronEdge;
#[cfg(test)]
pub(crate) use crease::tests::raised_corner_box;
pub use crease::{CreasedFace, CREASE_POINT_LIMIT};
pub use gauss_arc::GaussArc;

use crate::error::{Error, Result};
use brep::BoundaryRepresentation;
use nalgebra::Vector3;
use plane_tree::PlaneTree;

/// How the message of a hull that round-off defeated at the construction tolerance begins
/// ([`numerical_failure`]): [`Polyhedron::new`] rebuilds such a hull at a coarser tolerance.
const NUMERICAL_FAILURE: &str =
    "the convex hull is numerically degenerate at the construction tolerance";

/// The error of a hull that round-off defeated at the construction tolerance; `what` says how.
fn numerical_failure(what: &str) -> Error {
    Error::DegenerateGeometry(format!("{NUMERICAL_FAILURE}: {what}"))
}

/// A convex polyhedron given as the convex hull of points, with its boundary representation.
///
/// Immutable after construction. The body frame is exactly the caller's frame: the vertices are
/// the caller's points (no re-centring, no rotation), so the body-frame origin need not be the
/// centroid. The [`volume`](Self::volume) and [`centroid`](Self::centroid) of the solid are
/// offered for the host's mass properties.
///
/// Indices: vertices, edges and faces are numbered `0..num_vertices()`, `0..num_edges()` and
/// `0..num_faces()`. Vertices are ordered as their points were in the caller's slice.
#[derive(Debug, Clone, PartialEq)]
pub struct Polyhedron {
    brep: BoundaryRepresentation,
    volume: f64,
    centroid: Vector3<f64>,
    bounding_radius: f64,
    inner_radius: f64,
    edge_arcs: Vec<GaussArc>,
    /// Each edge's left and right face, indexed by edge: the scans over every edge read only
    /// these, 8 bytes an edge instead of the edge's whole record.
    edge_faces: Vec<[u32; 2]>,
    /// The vertices next to each vertex, in the order of [`Self::vertex_edges`] (the same
    /// offsets): a support climb reads them without the edges' records.
    vertex_neighbours: Vec<u32>,
    face_flatness: Vec<f64>,
    /// The largest of `face_flatness`.
    flatness: f64,
    /// The face planes in a tree of normal cones ([`Self::below_every_face_plane`]).
    plane_tree: PlaneTree,
    creased_faces: Vec<CreasedFace>,
    tolerance: f64,
}

impl Polyhedron {
    /// The face count up to which [`Self::below_every_face_plane`] scans every face plane rather
    /// than visit the tree of their normal cones. A contact search calls it after it has read
    /// every face plane, which are then in the caches, while the tree's nodes are not: on the
    /// benchmark's cold pairs of random polyhedra of 4 to 60 vertices (up to 116 faces) the scan
    /// runs 1.6 % fewer instructions and misses the second-level cache 8 % less often (callgrind's
    /// simulation).
    pub const SCANNED_FACES: usize = 128;

    /// The construction tolerance as a fraction of the bounding-box diagonal (see the module
    /// documentation for the whole scheme).
    pub const RELATIVE_TOLERANCE: f64 = points::RELATIVE_TOLERANCE;

    /// The round-off floor of the tolerance, in units in the last place of the largest coordinate
    /// magnitude.
    pub const ROUND_OFF_FACTOR: f64 = points::ROUND_OFF_FACTOR;

    /// The smallest accepted thickness (and needle width) of the point set, as a fraction of the
    /// bounding-box diagonal.
    pub const MIN_RELATIVE_THICKNESS: f64 = hull::MIN_RELATIVE_THICKNESS;

    /// How far below its face's plane a face's vertex may lie, in tolerances: a hull with a face
    /// beyond it (or with a face loop turning clockwise beyond the tolerance, or an input point
    /// beyond [`Self::OUTSIDE_ALLOWANCE`] above a face) is rebuilt at ten times the tolerance,
    /// up to [`Self::MAX_COARSENING`] times ([`Self::new`]).
    pub const PLANARITY_ALLOWANCE: f64 = 2.0;

    /// How far above a face's plane a point of the input may lie, in tolerances (see
    /// [`Self::PLANARITY_ALLOWANCE`]).
    pub const OUTSIDE_ALLOWANCE: f64 = 1.0;

    /// The largest factor by which [`Self::new`] coarsens the tolerance of a hull that is not
    /// sound at the scheme's (`100`: up to `1e-6` of the bounding box's diagonal).
    pub const MAX_COARSENING: f64 = 100.0;

    /// Sine of the angle by which a direction outside a vertex's normal cone still counts as in
    /// it ([`Self::in_normal_cone`]): rounding in the face normals and edge directions, far below
    /// any angle between two Gauss arcs of a sound hull, so that a direction on a cone's boundary
    /// (a face-on-face contact, a support along a face normal) stays in the cone it was found in.
    pub const CONE_ROUNDING: f64 = 1e-12;

    /// The convex hull of `points` (body frame, host length unit).
    ///
    /// Duplicate points, interior points and points on faces or edges that are not corners are
    /// dropped; coplanar triangles merge into polygonal faces, within the tolerance described in
    /// the module documentation ([`Self::tolerance`] reports it).
    ///
    /// # Errors
    ///
    /// * [`Error::NonFinite`](crate::error::Error::NonFinite) if a coordinate is NaN or infinite
    ///   (the message names the point's index);
    /// * [`Error::InvalidArgument`](crate::error::Error::InvalidArgument) for coordinates beyond
    ///   `1e30` or an extent (bounding-box diagonal) below `1e-30` of the host's length unit
    ///   ([`VALIDATED_LENGTHS`](crate::shapes::VALIDATED_LENGTHS)), and for a hull whose faces
    ///   have `2^32` or more corners in all (indices are stored in 32 bits);
    /// * [`Error::DegenerateGeometry`](crate::error::Error::DegenerateGeometry) for fewer than 4
    ///   points, fewer than 4 distinct points, all points coinciding, or a collinear, needle-like,
    ///   coplanar or flat set (the message says which), and, should round-off defeat the
    ///   tolerance even a hundred times coarsened (see the module's limits), for a hull that does
    ///   not close or is not sound (the message says the points are bumpy at that scale).
    pub fn new(points: &[Vector3<f64>]) -> Result<Polyhedron> {
        let mut coarsening = 1.0;
        loop {
            let fault = match Self::built(points, coarsening) {
                Ok(body) => match body.unsound_face(points) {
                    None => return Ok(body),
                    Some(fault) => fault,
                },
                Err(Error::DegenerateGeometry(message))
                    if message.starts_with(NUMERICAL_FAILURE) =>
                {
                    message[NUMERICAL_FAILURE.len()..]
                        .trim_start_matches(": ")
                        .to_string()
                }
                Err(other) => return Err(other),
            };
            if coarsening >= Self::MAX_COARSENING {
                return Err(numerical_failure(&format!(
                    "{fault}, still at {} times the tolerance: the points are bumpy at that scale",
                    Self::MAX_COARSENING
                )));
            }
            coarsening *= 10.0;
        }
    }

    /// A face of the built hull that breaks what the construction promises, described: a
    /// vertex more than [`Self::PLANARITY_ALLOWANCE`] tolerances below its face's plane (a
    /// sliver merged off its plane, or a face turned inside out), a face loop that turns
    /// clockwise, seen from outside, by more than the tolerance, or a point of `input` more than
    /// [`Self::OUTSIDE_ALLOWANCE`] tolerances above a face's plane. `None` for a sound hull.
    fn unsound_face(&self, input: &[Vector3<f64>]) -> Option<String> {
        // The vertices lie on or below every face plane (each offset is their highest): only
        // the input points the hull left out can lie above one.
        let mut left_out = vec![true; input.len()];
        for v in 0..self.num_vertices() {
            left_out[self.vertex_source_index(v)] = false;
        }
        let left_out: Vec<Vector3<f64>> = (0..input.len())
            .filter(|&i| left_out[i])
            .map(|i| input[i])
            .collect();
        let highest = highest::BallTree::new(&left_out);
        let tolerance = self.tolerance;
        for f in 0..self.num_faces() {
            if self.face_flatness[f] > Self::PLANARITY_ALLOWANCE * tolerance {
                return Some(format!(
                    "a vertex of face {f} lies {:e} below its plane",
                    self.face_flatness[f]
                ));
            }
            let n = self.face_normal(f);
            let ring = self.face_vertices(f);
            for k in 0..ring.len() {
                let [a, b, c] = [0, 1, 2].map(|i| self.vertex(ring[(k + i) % ring.len()]));
                let turn = (b - a).cross(&(c - b)).dot(&n);
                if turn < -tolerance * (b - a).norm().max((c - b).norm()) {
                    return Some(format!(
                        "face {f} turns clockwise at vertex {}",
                        ring[(k + 1) % ring.len()]
                    ));
                }
            }
            let above = highest.highest(&n, f64::NEG_INFINITY) - self.face_offset(f);
            if above > Self::OUTSIDE_ALLOWANCE * tolerance {
                return Some(format!("an input point lies {above:e} above face {f}"));
            }
        }
        None
    }

    /// The hull of `points` at `coarsening` times the scheme's tolerance, not yet checked.
    fn built(points: &[Vector3<f64>], coarsening: f64) -> Result<Polyhedron> {
        let prepared = points::prepare(points, coarsening)?;
        let triangles = hull::quickhull(&prepared.points, prepared.tolerance, prepared.diagonal)?;
        let merged =
            merge::merge_coplanar_triangles(&triangles, &prepared.points, prepared.tolerance)?;
        let loops = &merged.loops;
        let brep = BoundaryRepresentation::from_face_loops(
            loops,
            &prepared.points,
            &prepared.source_indices,
        )?;
        let (volume, centroid) = mass::volume_and_centroid(&brep);
        let bounding_radius = brep.positions.iter().map(|p| p.norm()).fold(0.0, f64::max);
        let inner_radius = (0..brep.face_normals.len())
            .map(|f| brep.face_offsets[f] - brep.face_normals[f].dot(&centroid))
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        let edge_arcs = brep
            .edges
            .iter()
            .map(|e| {
                GaussArc::new(
                    &brep.face_normals[e.left_face()],
                    &brep.face_normals[e.right_face()],
                )
            })
            .collect();
        // Indices fit 32 bits (checked by the boundary representation).
        let edge_faces = brep
            .edges
            .iter()
            .map(|e| [e.left_face() as u32, e.right_face() as u32])
            .collect();
        let vertex_neighbours = (0..brep.positions.len())
            .flat_map(|v| {
                brep.vertex_ring_edges[brep.vertex_ring(v)]
                    .iter()
                    .map(move |&e| (e, v))
            })
            .map(|(e, v)| brep.edges[e].other_vertex(v) as u32)
            .collect();
        let face_flatness: Vec<f64> = (0..brep.face_normals.len())
            .map(|f| {
                let n = brep.face_normals[f];
                let lowest = brep
                    .face_vertices(f)
                    .iter()
                    .map(|&v| n.dot(&brep.positions[v]))
                    .fold(f64::INFINITY, f64::min);
                brep.face_offsets[f] - lowest
            })
            .collect();
        let flatness = face_flatness.iter().copied().fold(0.0, f64::max);
        let plane_tree = PlaneTree::new(&brep.face_normals, &brep.face_offsets);
        let creased_faces = (0..loops.len())
            .filter_map(|face| {
                let merged_face = crease::MergedFace {
                    face,
                    corners: &loops[face],
                    triangles: &merged.triangles[face],
                    normal: brep.face_normals[face],
                    offset: brep.face_offsets[face],
                };
                crease::creased_face(
                    &merged_face,
                    &prepared.points,
                    &brep.positions,
                    prepared.round_off,
                )
            })
            .collect();
        Ok(Polyhedron {
            creased_faces,
            plane_tree,
            edge_arcs,
            edge_faces,
            vertex_neighbours,
            face_flatness,
            flatness,
            brep,
            volume,
            centroid,
            bounding_radius,
            inner_radius,
            tolerance: prepared.tolerance,
        })
    }

    /// The absolute length tolerance the construction used (see the module documentation): the
    /// scheme's, or ten or a hundred times it for a hull that was not sound at the scheme's.
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }

    /// Whether some edge of the hull leans off the line where its two faces' planes meet, beyond
    /// rounding (an edge of merged faces a few tolerances long can, and one between nearly
    /// coplanar faces or sliver faces, whose normals round-off sets, may even run against it):
    /// such an edge takes that line for its [`direction`](PolyhedronEdge::direction), not its
    /// span from tail to head.
    pub fn has_leaning_edges(&self) -> bool {
        self.brep.leaning_edges
    }

    /// The volume of the solid.
    pub fn volume(&self) -> f64 {
        self.volume
    }

    /// The centroid of the solid (uniform density) in the body frame.
    pub fn centroid(&self) -> Vector3<f64> {
        self.centroid
    }

    /// The radius of the smallest sphere about the body-frame origin that holds the polyhedron:
    /// the largest vertex norm.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// The radius of the largest ball about the [`centroid`](Self::centroid) that lies inside the
    /// polyhedron: the smallest distance from the centroid to a face plane. Contact searches use
    /// the ball to bound the overlap of the polyhedron with another body from below in every
    /// direction.
    pub fn inner_radius(&self) -> f64 {
        self.inner_radius
    }

    /// How far below its plane ([`Self::face_offset`]) face `f`'s lowest vertex lies along its
    /// normal: 0 for a face flat to rounding, up to twice [`Self::tolerance`] for one merged from
    /// nearly coplanar triangles.
    pub fn face_flatness(&self, f: usize) -> f64 {
        self.face_flatness[f]
    }

    /// The largest [`Self::face_flatness`] over all faces: of the order of rounding when every face
    /// is planar, and then the polyhedron is the intersection of its faces' half-spaces to
    /// rounding.
    pub fn flatness(&self) -> f64 {
        self.flatness
    }

    /// The faces merged from triangles that are not coplanar to rounding, with the exact hull's
    /// facets and hidden edges there ([`CreasedFace`]): empty for a body whose faces are planar
    /// to rounding, such as one built from exact corners. A contact search evaluates these
    /// directions too, so that its depth is that of the exact hull of the input points, not of
    /// the merged faces (which may overstate it by up to [`Self::face_flatness`]).
    pub fn creased_faces(&self) -> &[CreasedFace] {
        &self.creased_faces
    }

    /// Whether `point` (body frame) lies at least `depth` below every face plane:
    /// `face_offset(f) - face_normal(f) . point >= depth` for every face `f`. Up to
    /// [`Self::SCANNED_FACES`] faces by a scan of every face; on more, the same answer from the
    /// faces whose planes pass near the point only (a tree of the faces' normal cones built with
    /// the polyhedron). When the faces are flat ([`Self::flatness`]), the ball of radius `depth`
    /// about the point then lies inside the body.
    pub fn below_every_face_plane(&self, point: &Vector3<f64>, depth: f64) -> bool {
        if self.num_faces() <= Self::SCANNED_FACES {
            let b = &self.brep;
            return b
                .face_normals
                .iter()
                .zip(&b.face_offsets)
                .all(|(n, &d)| d - n.dot(point) >= depth);
        }
        // No face below `depth`: the visit stops at the first one.
        self.each_face_below(point, depth, |_, _| false)
    }

    /// Calls `visit(f, value)` for every face `f` whose `value = face_offset(f) - face_normal(f) .
    /// point` (`point` in the body frame; the value as a scan of every face computes it) is below
    /// `level` or NaN, until `visit` returns `false`; returns whether it never did. Through the
    /// tree of [`Self::below_every_face_plane`], so that only the faces whose planes pass near
    /// `point` are looked at; the order of the visits is the tree's, not the faces'.
    pub fn each_face_below(
        &self,
        point: &Vector3<f64>,
        level: f64,
        mut visit: impl FnMut(usize, f64) -> bool,
    ) -> bool {
        self.plane_tree.each_below(
            &self.brep.face_normals,
            &self.brep.face_offsets,
            point,
            level,
            &mut visit,
        )
    }

    /// The face whose plane passes lowest under `point` (body frame): the smallest
    /// `face_offset(f) - face_normal(f) . point`, the lowest index among equal ones, as a scan in
    /// index order finds it, through the tree of [`Self::below_every_face_plane`].
    pub fn face_lowest_under(&self, point: &Vector3<f64>) -> usize {
        self.plane_tree
            .lowest(&self.brep.face_normals, &self.brep.face_offsets, point)
    }

    /// The tight world-frame axis-aligned box `(lo, hi)` of the body at `pose` (host length
    /// unit): every vertex turned into the world frame in one pass, their smallest and largest
    /// coordinates, on bodies of up to a thousand vertices; on larger ones, the support vertex
    /// along each world axis both ways (a climb over the body's edges).
    pub fn aabb(&self, pose: &crate::pose::Pose) -> (Vector3<f64>, Vector3<f64>) {
        let positions = &self.brep.positions;
        if positions.len() > support::COLD_SCAN_LIMIT {
            return super::aabb_by_support(pose, |d| self.support_point(d));
        }
        let rotation = pose.rotation.to_rotation_matrix().into_inner();
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        for p in positions {
            let x = rotation * p;
            lo = lo.inf(&x);
            hi = hi.sup(&x);
        }
        (lo + pose.position, hi + pose.position)
    }

    /// Edge `e`'s arc on the Gauss map (the directions along which the edge is the farthest
    /// feature), body frame.
    pub fn edge_arc(&self, e: usize) -> &GaussArc {
        &self.edge_arcs[e]
    }

    /// The number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.brep.positions.len()
    }

    /// The number of edges.
    pub fn num_edges(&self) -> usize {
        self.brep.edges.len()
    }

    /// The number of faces.
    pub fn num_faces(&self) -> usize {
        self.brep.face_normals.len()
    }

    /// All vertex positions, indexed by vertex.
    pub fn vertices(&self) -> &[Vector3<f64>] {
        &self.brep.positions
    }

    /// The position of vertex `v`.
    pub fn vertex(&self, v: usize) -> Vector3<f64> {
        self.brep.positions[v]
    }

    /// The index, in the slice given to [`Self::new`], of the point vertex `v` is.
    pub fn vertex_source_index(&self, v: usize) -> usize {
        self.brep.source_indices[v]
    }

    /// The edges at vertex `v`, counter-clockwise seen from outside. Edge `k` of this ring and
    /// face `k` of [`Self::vertex_faces`] follow each other: face `k` lies between edges `k` and
    /// `k + 1` (cyclically).
    pub fn vertex_edges(&self, v: usize) -> &[usize] {
        let b = &self.brep;
        &b.vertex_ring_edges[b.vertex_ring(v)]
    }

    /// The vertices next to vertex `v`: neighbour `k` is the far end of edge `k` of
    /// [`Self::vertex_edges`].
    pub fn vertex_neighbours(&self, v: usize) -> &[u32] {
        let b = &self.brep;
        &self.vertex_neighbours[b.vertex_ring(v)]
    }

    /// Every edge's [`left_face`](PolyhedronEdge::left_face) and
    /// [`right_face`](PolyhedronEdge::right_face), indexed by edge.
    pub fn edge_faces(&self) -> &[[u32; 2]] {
        &self.edge_faces
    }

    /// The faces at vertex `v`, counter-clockwise seen from outside; see [`Self::vertex_edges`]
    /// for how the two rings interleave.
    pub fn vertex_faces(&self, v: usize) -> &[usize] {
        let b = &self.brep;
        &b.vertex_ring_faces[b.vertex_ring(v)]
    }

    /// All edges, indexed by edge.
    pub fn edges(&self) -> &[PolyhedronEdge] {
        &self.brep.edges
    }

    /// Edge `e`.
    pub fn edge(&self, e: usize) -> &PolyhedronEdge {
        &self.brep.edges[e]
    }

    /// The outward unit normals of all faces, indexed by face ([`Self::face_normal`]).
    pub fn face_normals(&self) -> &[Vector3<f64>] {
        &self.brep.face_normals
    }

    /// The offsets of all faces' planes, indexed by face ([`Self::face_offset`]).
    pub fn face_offsets(&self) -> &[f64] {
        &self.brep.face_offsets
    }

    /// The outward unit normal of face `f`.
    pub fn face_normal(&self, f: usize) -> Vector3<f64> {
        self.brep.face_normals[f]
    }

    /// The offset of face `f`'s plane: `face_normal(f) . x = face_offset(f)` for points `x` on the
    /// face, `<` inside the polyhedron. It is the largest `face_normal(f) . x` over all vertices, so
    /// the plane supports the polyhedron: no vertex lies above it, and the face's own vertices lie
    /// on it within twice [`Self::tolerance`] (exactly, when the input is exactly planar).
    pub fn face_offset(&self, f: usize) -> f64 {
        self.brep.face_offsets[f]
    }

    /// The vertices of face `f`, counter-clockwise seen from outside (from the side the normal
    /// points to).
    pub fn face_vertices(&self, f: usize) -> &[usize] {
        self.brep.face_vertices(f)
    }

    /// The edges of face `f`: edge `k` joins vertices `k` and `k + 1` (cyclically) of
    /// [`Self::face_vertices`]. The face is the edge's [`left_face`](PolyhedronEdge::left_face)
    /// where the edge runs the way of the loop, its [`right_face`](PolyhedronEdge::right_face)
    /// otherwise.
    pub fn face_edges(&self, f: usize) -> &[usize] {
        self.brep.face_edges(f)
    }
}
