//! From a triangulated hull to polygonal faces: coplanar triangles merge, and vertices that are
//! not corners of the polyhedron (inside a face, or inside an edge) are dropped.

use super::hull::TriangleHull;
use crate::error::{Error, Result};
use nalgebra::Vector3;
use std::collections::HashMap;

/// Merges each pair of adjacent triangles whose vertices off the shared edge both lie within
/// `tolerance` of the other triangle's plane, then returns the boundary loop of each group
/// (counter-clockwise seen from outside, point indices), with every vertex that lies on fewer than
/// three of the merged faces removed.
///
/// Every reflex edge the construction can leave (each side at most the tolerance above the other)
/// meets the merge criterion, so the faces this returns meet at convex edges only.
pub(super) fn merge_coplanar_triangles(
    hull: &TriangleHull,
    points: &[Vector3<f64>],
    tolerance: f64,
) -> Result<Vec<Vec<usize>>> {
    let triangle_count = hull.triangles.len();
    let mut groups = DisjointSets::new(triangle_count);
    for t in 0..triangle_count {
        for side in 0..3 {
            let u = hull.neighbours[t][side];
            if u < t {
                continue;
            }
            let apex_of_u = opposite_vertex(hull.triangles[u], hull.triangles[t], side);
            let apex_of_t = hull.triangles[t][(side + 2) % 3];
            let height = |triangle: usize, point: usize| {
                (hull.normals[triangle].dot(&points[point]) - hull.offsets[triangle]).abs()
            };
            if height(t, apex_of_u) <= tolerance && height(u, apex_of_t) <= tolerance {
                groups.union(t, u);
            }
        }
    }

    // The boundary of each group: the triangle edges whose neighbour lies in another group.
    let mut boundary_by_group: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
    let mut group_order = Vec::new();
    for t in 0..triangle_count {
        let group = groups.find(t);
        let boundary = boundary_by_group.entry(group).or_insert_with(|| {
            group_order.push(group);
            HashMap::new()
        });
        for side in 0..3 {
            if groups.find(hull.neighbours[t][side]) == group {
                continue;
            }
            let tail = hull.triangles[t][side];
            let head = hull.triangles[t][(side + 1) % 3];
            if boundary.insert(tail, head).is_some() {
                return Err(degenerate("a merged face touches itself at a vertex"));
            }
        }
    }
    let mut loops = Vec::with_capacity(group_order.len());
    for group in group_order {
        loops.push(boundary_loop(&boundary_by_group[&group])?);
    }

    // A corner of a convex polyhedron lies on at least three faces; a vertex on two lies inside
    // their common edge.
    let mut face_count: HashMap<usize, usize> = HashMap::new();
    for face in &loops {
        for &v in face {
            *face_count.entry(v).or_default() += 1;
        }
    }
    for face in &mut loops {
        face.retain(|v| face_count[v] >= 3);
        if face.len() < 3 {
            return Err(degenerate("a merged face has fewer than three corners"));
        }
    }
    Ok(loops)
}

/// The vertex of `triangle` not on the edge `side` of `neighbour` (the two share that edge).
fn opposite_vertex(triangle: [usize; 3], neighbour: [usize; 3], side: usize) -> usize {
    let (a, b) = (neighbour[side], neighbour[(side + 1) % 3]);
    triangle
        .into_iter()
        .find(|&v| v != a && v != b)
        .expect("adjacent triangles share exactly one edge")
}

/// The single closed loop through the boundary edges `tail -> head` of one group.
fn boundary_loop(next_vertex: &HashMap<usize, usize>) -> Result<Vec<usize>> {
    let start = *next_vertex
        .keys()
        .min()
        .ok_or_else(|| degenerate("a merged face has no boundary"))?;
    let mut face = vec![start];
    let mut current = next_vertex[&start];
    while current != start {
        if face.len() >= next_vertex.len() {
            return Err(degenerate("a merged face's boundary does not close"));
        }
        face.push(current);
        current = *next_vertex
            .get(&current)
            .ok_or_else(|| degenerate("a merged face's boundary is open"))?;
    }
    if face.len() != next_vertex.len() {
        return Err(degenerate("a merged face has a hole"));
    }
    Ok(face)
}

fn degenerate(what: &str) -> Error {
    Error::DegenerateGeometry(format!(
        "the convex hull is numerically degenerate at the construction tolerance: {what}"
    ))
}

/// Union-find over `0..n` with path halving and union by size.
struct DisjointSets {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        DisjointSets {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }
}

#[cfg(test)]
mod tests {
    use super::super::hull::quickhull;
    use super::*;

    #[test]
    fn cube_with_face_and_edge_points_merges_to_six_quads() {
        let mut points: Vec<Vector3<f64>> = (0..8)
            .map(|i| Vector3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        points.push(Vector3::new(1.0, 0.5, 0.5));
        points.push(Vector3::new(0.5, 0.0, 0.5));
        points.push(Vector3::new(0.5, 1.0, 1.0));
        points.push(Vector3::new(0.0, 0.0, 0.5));
        let hull = quickhull(&points, 1e-9, 3f64.sqrt()).unwrap();
        let faces = merge_coplanar_triangles(&hull, &points, 1e-9).unwrap();
        assert_eq!(faces.len(), 6);
        for face in &faces {
            assert_eq!(face.len(), 4, "{face:?}");
            assert!(face.iter().all(|&v| v < 8));
        }
    }

    #[test]
    fn boundary_loop_rejects_two_loops() {
        let two_loops: HashMap<usize, usize> =
            [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)].into();
        assert!(boundary_loop(&two_loops).is_err());
        let one_loop: HashMap<usize, usize> = [(4, 1), (1, 2), (2, 4)].into();
        assert_eq!(boundary_loop(&one_loop).unwrap(), vec![1, 2, 4]);
    }

    #[test]
    fn disjoint_sets_join_transitively() {
        let mut sets = DisjointSets::new(5);
        sets.union(0, 1);
        sets.union(3, 4);
        sets.union(1, 4);
        assert_eq!(sets.find(0), sets.find(3));
        assert_ne!(sets.find(2), sets.find(0));
    }
}
