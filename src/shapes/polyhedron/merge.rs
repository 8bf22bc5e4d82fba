//! From a triangulated hull to polygonal faces: coplanar triangles merge, and vertices that are
//! not corners of the polyhedron (inside a face, or inside an edge) are dropped.

use super::fast_hash::{fast_map, FastMap};
use super::hull::TriangleHull;
use super::numerical_failure;
use crate::error::Result;
use nalgebra::Vector3;

/// The polygonal faces of a triangulated hull, each with the triangles merged into it.
#[derive(Debug, Clone)]
pub(super) struct MergedFaces {
    /// The boundary loop of each face: point indices, counter-clockwise seen from outside.
    pub loops: Vec<Vec<usize>>,
    /// The corners of the triangles merged into each face (point indices, in the order of
    /// `loops`), each triangle counter-clockwise seen from outside: a face of one triangle has one.
    pub triangles: Vec<Vec<[usize; 3]>>,
}

/// Groups the triangles into coplanar regions (see [`coplanar_regions`]) and returns the
/// boundary loop of each region (counter-clockwise seen from outside, point indices), with every
/// vertex that lies on fewer than three of the merged faces removed, and the region's triangles.
pub(super) fn merge_coplanar_triangles(
    hull: &TriangleHull,
    points: &[Vector3<f64>],
    tolerance: f64,
) -> Result<MergedFaces> {
    let triangle_count = hull.triangles.len();
    let region_of = coplanar_regions(hull, points, tolerance);

    // The boundary of each group: the triangle edges whose neighbour lies in another group.
    let mut boundary_by_group: FastMap<usize, FastMap<usize, usize>> = fast_map(0);
    let mut triangles_by_group: FastMap<usize, Vec<[usize; 3]>> = fast_map(0);
    let mut group_order = Vec::new();
    for t in 0..triangle_count {
        let group = region_of[t];
        triangles_by_group
            .entry(group)
            .or_default()
            .push(hull.triangles[t]);
        let boundary = boundary_by_group.entry(group).or_insert_with(|| {
            group_order.push(group);
            fast_map(0)
        });
        for side in 0..3 {
            if region_of[hull.neighbours[t][side]] == group {
                continue;
            }
            let tail = hull.triangles[t][side];
            let head = hull.triangles[t][(side + 1) % 3];
            if boundary.insert(tail, head).is_some() {
                return Err(numerical_failure(
                    "a merged face touches itself at a vertex",
                ));
            }
        }
    }
    let mut loops = Vec::with_capacity(group_order.len());
    let mut triangles = Vec::with_capacity(group_order.len());
    for group in group_order {
        loops.push(boundary_loop(&boundary_by_group[&group])?);
        triangles.push(triangles_by_group.remove(&group).unwrap_or_default());
    }

    // A corner of a convex polyhedron lies on at least three faces; a vertex on two lies inside
    // their common edge.
    let mut face_count: FastMap<usize, usize> = fast_map(0);
    for face in &loops {
        for &v in face {
            *face_count.entry(v).or_default() += 1;
        }
    }
    for face in &mut loops {
        face.retain(|v| face_count[v] >= 3);
        if face.len() < 3 {
            return Err(numerical_failure(
                "a merged face has fewer than three corners",
            ));
        }
    }
    Ok(MergedFaces { loops, triangles })
}

/// The region of each triangle. Regions grow from seeds taken in order of decreasing area (a
/// large triangle has a well-conditioned plane); a neighbouring triangle joins a region when all
/// three of its vertices lie within `tolerance` of the region's plane, which is refitted as the
/// region grows (the area-weighted mean normal through the area-weighted centroid).
///
/// Testing vertices against a plane fitted to a large area, rather than triangles against each
/// other, keeps slivers (nearly collinear triangles, whose own planes are ill-conditioned) with
/// the face they lie in, and keeps a region from drifting off its plane. When the input is bumpy
/// at the scale of the tolerance, a plane can meet the surface in a ring rather than a disc, and
/// a region need not be convex (see the limits in the documentation of [`super`]).
fn coplanar_regions(hull: &TriangleHull, points: &[Vector3<f64>], tolerance: f64) -> Vec<usize> {
    let corners = |t: usize| hull.triangles[t].map(|v| points[v]);
    let area_vector = |t: usize| {
        let [a, b, c] = corners(t);
        (b - a).cross(&(c - a)) / 2.0
    };
    let mut seeds: Vec<usize> = (0..hull.triangles.len()).collect();
    let areas: Vec<f64> = seeds.iter().map(|&t| area_vector(t).norm()).collect();
    seeds.sort_by(|&a, &b| areas[b].total_cmp(&areas[a]));

    let mut region_of = vec![usize::MAX; hull.triangles.len()];
    let mut region_count = 0;
    let mut frontier = Vec::new();
    for seed in seeds {
        if region_of[seed] != usize::MAX {
            continue;
        }
        let region = region_count;
        region_count += 1;
        region_of[seed] = region;
        let mut summed_area_vector = area_vector(seed);
        let mut area = areas[seed];
        let mut first_moment = corners(seed).iter().sum::<Vector3<f64>>() / 3.0 * area;
        frontier.clear();
        frontier.push(seed);
        while let Some(t) = frontier.pop() {
            for &u in &hull.neighbours[t] {
                if region_of[u] != usize::MAX {
                    continue;
                }
                let normal = summed_area_vector.normalize();
                let centre = first_moment / area;
                let coplanar = corners(u)
                    .iter()
                    .all(|p| normal.dot(&(p - centre)).abs() <= tolerance);
                if coplanar {
                    region_of[u] = region;
                    summed_area_vector += area_vector(u);
                    area += areas[u];
                    first_moment += corners(u).iter().sum::<Vector3<f64>>() / 3.0 * areas[u];
                    frontier.push(u);
                }
            }
        }
    }
    region_of
}

/// The single closed loop through the boundary edges `tail -> head` of one group.
fn boundary_loop(next_vertex: &FastMap<usize, usize>) -> Result<Vec<usize>> {
    let start = *next_vertex
        .keys()
        .min()
        .ok_or_else(|| numerical_failure("a merged face has no boundary"))?;
    let mut face = vec![start];
    let mut current = next_vertex[&start];
    while current != start {
        if face.len() >= next_vertex.len() {
            return Err(numerical_failure("a merged face's boundary does not close"));
        }
        face.push(current);
        current = *next_vertex
            .get(&current)
            .ok_or_else(|| numerical_failure("a merged face's boundary is open"))?;
    }
    if face.len() != next_vertex.len() {
        return Err(numerical_failure("a merged face has a hole"));
    }
    Ok(face)
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
        let merged = merge_coplanar_triangles(&hull, &points, 1e-9).unwrap();
        let faces = &merged.loops;
        assert_eq!(faces.len(), 6);
        for (face, triangles) in faces.iter().zip(&merged.triangles) {
            assert_eq!(face.len(), 4, "{face:?}");
            assert!(face.iter().all(|&v| v < 8));
            assert!(triangles.len() >= 2, "{triangles:?}");
            assert!(triangles
                .iter()
                .flatten()
                .all(|p| face.contains(p) || *p >= 8));
        }
    }

    #[test]
    fn boundary_loop_rejects_two_loops() {
        let two_loops: FastMap<usize, usize> = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]
            .into_iter()
            .collect();
        assert!(boundary_loop(&two_loops).is_err());
        let one_loop: FastMap<usize, usize> = [(4, 1), (1, 2), (2, 4)].into_iter().collect();
        assert_eq!(boundary_loop(&one_loop).unwrap(), vec![1, 2, 4]);
    }
}
