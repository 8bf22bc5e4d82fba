//! The boundary representation: vertices, edges and faces with the adjacency a contact search
//! walks (each edge's two faces, each face's vertex and edge loops, each vertex's ring of edges
//! and faces), stored in flat arrays.

use super::fast_hash::{fast_map, FastMap};
use super::highest::BallTree;
use super::numerical_failure;
use crate::error::{Error, Result};
use nalgebra::Vector3;

/// An edge of a [`super::Polyhedron`]: a segment between two vertices, shared by two faces.
///
/// Orientation: walking from [`tail`](Self::tail) to [`head`](Self::head) on the surface, seen
/// from outside, the [`left_face`](Self::left_face) lies on the left. Its loop (counter-clockwise
/// seen from outside) runs `tail -> head`; the [`right_face`](Self::right_face)'s loop runs
/// `head -> tail`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolyhedronEdge {
    // 32-bit indices (a hull has fewer than 2^32 loop entries, checked when it is built): the
    // record is 40 bytes, not 56, and a search reads fewer cache lines.
    tail: u32,
    head: u32,
    left_face: u32,
    right_face: u32,
    direction: Vector3<f64>,
}

impl PolyhedronEdge {
    /// The vertex the edge starts from.
    pub fn tail(&self) -> usize {
        self.tail as usize
    }

    /// The vertex the edge ends at.
    pub fn head(&self) -> usize {
        self.head as usize
    }

    /// The face whose counter-clockwise loop traverses the edge `tail -> head`.
    pub fn left_face(&self) -> usize {
        self.left_face as usize
    }

    /// The face whose counter-clockwise loop traverses the edge `head -> tail`.
    pub fn right_face(&self) -> usize {
        self.right_face as usize
    }

    /// The edge's unit direction, from the tail towards the head: the unit vector from the tail
    /// to the head where that agrees to rounding with the line where the two face planes meet,
    /// otherwise that line (on an edge a few hull tolerances long between merged faces; see the
    /// module's `edge_direction`).
    pub fn direction(&self) -> Vector3<f64> {
        self.direction
    }

    /// The edge's vertex other than `vertex` (which must be one of its two).
    pub fn other_vertex(&self, vertex: usize) -> usize {
        if vertex == self.tail() {
            self.head()
        } else {
            self.tail()
        }
    }

    /// The edge's face other than `face` (which must be one of its two).
    pub fn other_face(&self, face: usize) -> usize {
        if face == self.left_face() {
            self.right_face()
        } else {
            self.left_face()
        }
    }
}

/// The topology and the face planes of a closed convex polyhedron, in compressed-row form: the
/// items of vertex `v` are `ring_*[vertex_ring_offsets[v]..vertex_ring_offsets[v + 1]]`, those of
/// face `f` are `face_loop_*[face_loop_offsets[f]..face_loop_offsets[f + 1]]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BoundaryRepresentation {
    /// The vertex positions.
    pub positions: Vec<Vector3<f64>>,
    /// For each vertex, its index in the caller's point slice.
    pub source_indices: Vec<usize>,
    /// Start of each vertex's ring; one more entry than vertices.
    pub vertex_ring_offsets: Vec<usize>,
    /// The edges around each vertex, counter-clockwise seen from outside.
    pub vertex_ring_edges: Vec<usize>,
    /// The faces around each vertex: face `k` of a ring lies between its edges `k` and `k + 1`.
    pub vertex_ring_faces: Vec<usize>,
    /// The edges.
    pub edges: Vec<PolyhedronEdge>,
    /// The outward unit normal of each face.
    pub face_normals: Vec<Vector3<f64>>,
    /// The plane offset of each face: the largest `normal . x` over the vertices.
    pub face_offsets: Vec<f64>,
    /// Start of each face's loop; one more entry than faces.
    pub face_loop_offsets: Vec<usize>,
    /// The vertices of each face, counter-clockwise seen from outside.
    pub face_loop_vertices: Vec<usize>,
    /// The edges of each face: edge `k` joins loop vertices `k` and `k + 1`.
    pub face_loop_edges: Vec<usize>,
    /// Whether some edge takes its faces' line for its direction rather than its span
    /// (`edge_direction`): an edge of merged faces that leans off that line beyond rounding.
    pub leaning_edges: bool,
}

impl BoundaryRepresentation {
    /// Builds the representation from face loops over `points` (counter-clockwise seen from
    /// outside). Vertices are numbered by increasing `source_indices` of the points the loops use.
    pub fn from_face_loops(
        loops: &[Vec<usize>],
        points: &[Vector3<f64>],
        source_indices: &[usize],
    ) -> Result<Self> {
        // Every index fits 32 bits (vertices, faces and edges are fewer than the loop entries).
        let entries: usize = loops.iter().map(Vec::len).sum();
        if u32::try_from(entries).is_err() {
            return Err(Error::InvalidArgument(format!(
                "the hull's faces have {entries} corners in all; at most {} are supported",
                u32::MAX
            )));
        }
        // Vertices: the points the loops use, in the caller's order.
        let mut used: Vec<usize> = loops.iter().flatten().copied().collect();
        used.sort_unstable_by_key(|&p| source_indices[p]);
        used.dedup();
        let mut vertex_of_point = fast_map(used.len());
        for (v, &p) in used.iter().enumerate() {
            vertex_of_point.insert(p, v);
        }
        let positions: Vec<_> = used.iter().map(|&p| points[p]).collect();

        let mut face_loop_offsets = vec![0];
        let mut face_loop_vertices = Vec::new();
        for face in loops {
            face_loop_vertices.extend(face.iter().map(|p| vertex_of_point[p]));
            face_loop_offsets.push(face_loop_vertices.len());
        }

        // Edges: created by the first face that walks them, completed by the second.
        let mut edges: Vec<PolyhedronEdge> = Vec::new();
        let mut edge_of_pair: FastMap<(usize, usize), usize> = fast_map(0);
        let mut face_loop_edges = Vec::with_capacity(face_loop_vertices.len());
        for face in 0..loops.len() {
            let ring = &face_loop_vertices[face_loop_offsets[face]..face_loop_offsets[face + 1]];
            for k in 0..ring.len() {
                let (tail, head) = (ring[k], ring[(k + 1) % ring.len()]);
                let key = (tail.min(head), tail.max(head));
                let edge = match edge_of_pair.get(&key) {
                    None => {
                        edges.push(PolyhedronEdge {
                            tail: tail as u32,
                            head: head as u32,
                            left_face: face as u32,
                            right_face: u32::MAX,
                            // Set with the face planes below.
                            direction: Vector3::zeros(),
                        });
                        edge_of_pair.insert(key, edges.len() - 1);
                        edges.len() - 1
                    }
                    Some(&e) => {
                        let edge = &mut edges[e];
                        if edge.tail() != head || edge.right_face != u32::MAX {
                            return Err(numerical_failure("an edge is walked twice the same way"));
                        }
                        edge.right_face = face as u32;
                        e
                    }
                };
                face_loop_edges.push(edge);
            }
        }
        if edges.iter().any(|e| e.right_face == u32::MAX) {
            return Err(numerical_failure("an edge has only one face"));
        }

        let (face_normals, face_offsets) =
            face_planes(&positions, &face_loop_offsets, &face_loop_vertices);
        let mut leaning_edges = false;
        for edge in &mut edges {
            let (direction, leaning) = edge_direction(
                &face_normals[edge.left_face()],
                &face_normals[edge.right_face()],
                &positions[edge.tail()],
                &positions[edge.head()],
            );
            edge.direction = direction;
            leaning_edges |= leaning;
        }
        let mut brep = BoundaryRepresentation {
            source_indices: used.iter().map(|&p| source_indices[p]).collect(),
            positions,
            vertex_ring_offsets: Vec::new(),
            vertex_ring_edges: Vec::new(),
            vertex_ring_faces: Vec::new(),
            edges,
            face_normals,
            face_offsets,
            face_loop_offsets,
            face_loop_vertices,
            face_loop_edges,
            leaning_edges,
        };
        brep.build_vertex_rings()?;
        Ok(brep)
    }

    /// Where vertex `v`'s ring lies in the `vertex_ring_*` arrays (and in any array in their
    /// order).
    pub fn vertex_ring(&self, v: usize) -> std::ops::Range<usize> {
        self.vertex_ring_offsets[v]..self.vertex_ring_offsets[v + 1]
    }

    /// The vertices of face `f`'s loop.
    pub fn face_vertices(&self, f: usize) -> &[usize] {
        &self.face_loop_vertices[self.face_loop_offsets[f]..self.face_loop_offsets[f + 1]]
    }

    /// The edges of face `f`'s loop.
    pub fn face_edges(&self, f: usize) -> &[usize] {
        &self.face_loop_edges[self.face_loop_offsets[f]..self.face_loop_offsets[f + 1]]
    }

    /// Walks around each vertex counter-clockwise seen from outside. In a face whose loop passes
    /// `previous -> v -> next`, the face's sector at `v` runs from the edge `v -> next` to the edge
    /// `v -> previous`, and the next face around `v` is the one across the edge `previous -> v`.
    fn build_vertex_rings(&mut self) -> Result<()> {
        let vertex_count = self.positions.len();
        // One (face, position in its loop) per vertex to start each walk from, and the degrees.
        let mut start = vec![(usize::MAX, 0); vertex_count];
        let mut degree = vec![0usize; vertex_count];
        for f in 0..self.face_normals.len() {
            for (k, &v) in self.face_vertices(f).iter().enumerate() {
                start[v] = (f, k);
                degree[v] += 1;
            }
        }
        let mut offsets = Vec::with_capacity(vertex_count + 1);
        offsets.push(0);
        let mut ring_edges = Vec::new();
        let mut ring_faces = Vec::new();
        for v in 0..vertex_count {
            let (first_face, first_position) = start[v];
            let (mut face, mut position) = (first_face, first_position);
            loop {
                let loop_edges = self.face_edges(face);
                let outgoing = loop_edges[position];
                let incoming = loop_edges[(position + loop_edges.len() - 1) % loop_edges.len()];
                ring_edges.push(outgoing);
                ring_faces.push(face);
                face = self.edges[incoming].other_face(face);
                position = self
                    .face_vertices(face)
                    .iter()
                    .position(|&w| w == v)
                    .ok_or_else(|| numerical_failure("a vertex ring leaves the vertex"))?;
                if face == first_face {
                    break;
                }
                if ring_faces.len() - offsets[v] > degree[v] {
                    return Err(numerical_failure("a vertex ring does not close"));
                }
            }
            if ring_faces.len() - offsets[v] != degree[v] {
                return Err(numerical_failure(
                    "a vertex has more than one ring of faces",
                ));
            }
            offsets.push(ring_faces.len());
        }
        self.vertex_ring_offsets = offsets;
        self.vertex_ring_edges = ring_edges;
        self.vertex_ring_faces = ring_faces;
        Ok(())
    }
}

/// Each face's outward unit normal by Newell's method (the area vector of the loop, taken about
/// the loop's mean point), and its offset as the largest `normal . x` over all vertices (found
/// through a [`BallTree`], the same number as a scan): the face plane supports the vertex set, so
/// no vertex lies above any face plane, and the face's own vertices lie on it within the merge
/// tolerance.
fn face_planes(
    positions: &[Vector3<f64>],
    offsets: &[usize],
    loop_vertices: &[usize],
) -> (Vec<Vector3<f64>>, Vec<f64>) {
    let tree = BallTree::new(positions);
    let mut normals = Vec::with_capacity(offsets.len() - 1);
    let mut plane_offsets = Vec::with_capacity(offsets.len() - 1);
    for f in 0..offsets.len() - 1 {
        let ring = &loop_vertices[offsets[f]..offsets[f + 1]];
        let mean = ring.iter().map(|&v| positions[v]).sum::<Vector3<f64>>() / ring.len() as f64;
        let mut area_vector = Vector3::zeros();
        for k in 0..ring.len() {
            let a = positions[ring[k]] - mean;
            let b = positions[ring[(k + 1) % ring.len()]] - mean;
            area_vector += a.cross(&b);
        }
        let normal = area_vector.normalize();
        let offset = tree.highest(&normal, normal.dot(&positions[ring[0]]));
        normals.push(normal);
        plane_offsets.push(offset);
    }
    (normals, plane_offsets)
}

/// An edge's unit direction from the tail at `tail` to the head at `head`, checked against the
/// line where its faces' planes meet (outward unit normals `left` and `right`; `left x right`
/// points from the tail towards the head, since the left face's loop runs that way).
///
/// A search derives an edge-edge axis from the edges' directions and decides whether the axis is
/// valid from the faces (the edges' arcs on the Gauss map, [`super::GaussArc`]); the two must
/// agree. They do to rounding where the hull's faces hold their vertices exactly, and then the
/// tail-to-head vector is kept (the more accurate of the two on long edges between nearly
/// coplanar faces). A merged face holds its vertices only within the hull's tolerance, and on an
/// edge a few tolerances long that leaves the tail-to-head vector almost free: a 5e-8 edge of a
/// plate under a 1.2e-8 tolerance pointed 60 degrees off its faces' line, and an edge-edge axis
/// built on it declared a pair 0.16 apart that overlapped by 0.011. Beyond rounding (a thousand
/// units in the last place of each: the normals' over the sine of the faces' angle, the
/// positions' over the edge's length) the faces' line is taken. Returns the direction and
/// whether it is that line (the edge leans off it).
fn edge_direction(
    left: &Vector3<f64>,
    right: &Vector3<f64>,
    tail: &Vector3<f64>,
    head: &Vector3<f64>,
) -> (Vector3<f64>, bool) {
    let span = head - tail;
    let length = span.norm();
    let along = span / length;
    let line = left.cross(right);
    let sine = line.norm();
    if sine == 0.0 {
        return (along, false);
    }
    let line = line / sine;
    let rounding = 1e3 * f64::EPSILON * (1.0 / sine + tail.norm().max(head.norm()) / length);
    if line.cross(&along).norm() <= rounding && line.dot(&along) > 0.0 {
        (along, false)
    } else {
        (line, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit cube's corners and its faces as loops, counter-clockwise seen from outside.
    fn cube() -> (Vec<Vector3<f64>>, Vec<Vec<usize>>) {
        let corners = (0..8)
            .map(|i| Vector3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let loops = vec![
            vec![0, 2, 3, 1],
            vec![4, 5, 7, 6],
            vec![0, 1, 5, 4],
            vec![2, 6, 7, 3],
            vec![0, 4, 6, 2],
            vec![1, 3, 7, 5],
        ];
        (corners, loops)
    }

    #[test]
    fn cube_loops_give_consistent_adjacency() {
        let (corners, loops) = cube();
        let sources: Vec<usize> = (0..8).collect();
        let brep = BoundaryRepresentation::from_face_loops(&loops, &corners, &sources).unwrap();
        assert_eq!(brep.edges.len(), 12);
        assert_eq!(brep.face_normals[0], Vector3::new(0.0, 0.0, -1.0));
        assert_eq!(brep.face_offsets[1], 1.0);
        for (e, edge) in brep.edges.iter().enumerate() {
            assert!(brep.face_edges(edge.left_face()).contains(&e));
            assert!(brep.face_edges(edge.right_face()).contains(&e));
        }
        // Around corner 7 = (1, 1, 1), counter-clockwise seen from outside.
        let ring =
            &brep.vertex_ring_faces[brep.vertex_ring_offsets[7]..brep.vertex_ring_offsets[8]];
        assert_eq!(ring.len(), 3);
        let normals: Vec<_> = ring.iter().map(|&f| brep.face_normals[f]).collect();
        let turn = normals[0]
            .cross(&normals[1])
            .dot(&Vector3::new(1.0, 1.0, 1.0));
        assert!(turn > 0.0, "ring {ring:?} runs clockwise");
    }

    #[test]
    fn an_open_surface_is_rejected() {
        let (corners, mut loops) = cube();
        loops.pop();
        let sources: Vec<usize> = (0..8).collect();
        let err = BoundaryRepresentation::from_face_loops(&loops, &corners, &sources).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("one face")),
            "{err}"
        );
    }

    #[test]
    fn a_flipped_face_is_rejected() {
        let (corners, mut loops) = cube();
        loops[3].reverse();
        let sources: Vec<usize> = (0..8).collect();
        let err = BoundaryRepresentation::from_face_loops(&loops, &corners, &sources).unwrap_err();
        assert!(matches!(err, Error::DegenerateGeometry(_)));
    }
}
