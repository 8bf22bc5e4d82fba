//! Quickhull (Barber, Dobkin & Huhdanpaa 1996) with conflict lists, producing a triangulated hull.
//!
//! A point is *outside* a triangle when it lies more than the tolerance above the triangle's
//! plane; points within the tolerance of the current hull are discarded, so coplanar and
//! near-coplanar points never become vertices unless they stick out. The triangulation this
//! produces is convex within the tolerance; [`super::merge`] turns it into polygonal faces.

use super::fast_hash::fast_map;
use super::numerical_failure;
use crate::error::{Error, Result};
use nalgebra::Vector3;

/// Each extent of the initial simplex (the distance of its third point from the line through the
/// first two, of its fourth point from the plane through the first three) must be at least this
/// fraction of the bounding-box diagonal, or the set is rejected as needle-like or flat.
pub(super) const MIN_RELATIVE_THICKNESS: f64 = 1e-6;

/// A closed triangulated convex surface over a point set.
#[derive(Debug, Clone)]
pub(super) struct TriangleHull {
    /// The triangles' point indices, counter-clockwise seen from outside.
    pub triangles: Vec<[usize; 3]>,
    /// `neighbours[t][i]` is the triangle across the edge `triangles[t][i] -> triangles[t][i + 1]`.
    pub neighbours: Vec<[usize; 3]>,
}

/// A triangle of the hull under construction.
#[derive(Debug, Clone)]
struct Facet {
    vertices: [usize; 3],
    neighbours: [usize; 3],
    normal: Vector3<f64>,
    offset: f64,
    /// The points above this facet that no earlier facet claimed (its conflict list).
    outside: Vec<usize>,
    alive: bool,
}

impl Facet {
    fn distance(&self, p: &Vector3<f64>) -> f64 {
        self.normal.dot(p) - self.offset
    }
}

/// An edge of the horizon: seen from the eye point, `tail -> head` bounds the visible region, and
/// `outer` is the facet beyond it that stays.
#[derive(Debug, Clone, Copy)]
struct HorizonEdge {
    tail: usize,
    head: usize,
    outer: usize,
}

/// The convex hull of `points` (all distinct) as a triangulation, or why there is none.
pub(super) fn quickhull(
    points: &[Vector3<f64>],
    tolerance: f64,
    diagonal: f64,
) -> Result<TriangleHull> {
    let simplex = initial_simplex(points, tolerance, diagonal)?;
    let mut facets = simplex_facets(points, simplex)?;

    for (index, p) in points.iter().enumerate() {
        if simplex.contains(&index) {
            continue;
        }
        if let Some(f) = most_distant_facet(&facets, 0..facets.len(), p, tolerance) {
            facets[f].outside.push(index);
        }
    }

    let mut pending: Vec<usize> = (0..facets.len()).collect();
    let mut visit_stamp = vec![0u32; facets.len()];
    let mut stamp = 0u32;
    while let Some(start) = pending.pop() {
        if !facets[start].alive || facets[start].outside.is_empty() {
            continue;
        }
        let eye = farthest_outside_point(&facets[start], points);
        let eye_point = points[eye];

        // The facets the eye sees, as a connected region grown from `start`, and its boundary.
        stamp += 1;
        visit_stamp.resize(facets.len(), 0);
        visit_stamp[start] = stamp;
        let mut visible = vec![start];
        let mut horizon = Vec::new();
        let mut next = 0;
        while next < visible.len() {
            let facet = visible[next];
            next += 1;
            for side in 0..3 {
                let neighbour = facets[facet].neighbours[side];
                if visit_stamp[neighbour] == stamp {
                    continue;
                }
                if facets[neighbour].distance(&eye_point) > tolerance {
                    visit_stamp[neighbour] = stamp;
                    visible.push(neighbour);
                } else {
                    let v = facets[facet].vertices;
                    horizon.push(HorizonEdge {
                        tail: v[side],
                        head: v[(side + 1) % 3],
                        outer: neighbour,
                    });
                }
            }
        }
        let horizon = chain_horizon(horizon)?;

        // A cone of new facets from the horizon to the eye replaces the visible region.
        let first_new = facets.len();
        let count = horizon.len();
        for (k, edge) in horizon.iter().enumerate() {
            let vertices = [edge.tail, edge.head, eye];
            let (normal, offset) = triangle_plane(points, vertices)?;
            let new_id = first_new + k;
            facets.push(Facet {
                vertices,
                neighbours: [
                    edge.outer,
                    first_new + (k + 1) % count,
                    first_new + (k + count - 1) % count,
                ],
                normal,
                offset,
                outside: Vec::new(),
                alive: true,
            });
            let outer = &mut facets[edge.outer];
            let side = (0..3)
                .find(|&s| {
                    outer.vertices[s] == edge.head && outer.vertices[(s + 1) % 3] == edge.tail
                })
                .ok_or_else(|| {
                    numerical_failure("a horizon edge is missing from the facet beyond it")
                })?;
            outer.neighbours[side] = new_id;
        }

        let mut orphans = Vec::new();
        for &facet in &visible {
            facets[facet].alive = false;
            orphans.append(&mut facets[facet].outside);
        }
        for index in orphans {
            if index == eye {
                continue;
            }
            let new_facets = first_new..facets.len();
            if let Some(f) = most_distant_facet(&facets, new_facets, &points[index], tolerance) {
                facets[f].outside.push(index);
            }
        }
        pending.extend((first_new..facets.len()).filter(|&f| !facets[f].outside.is_empty()));
    }

    Ok(compact(&facets))
}

/// Four points spanning the set: the two most distant of the six axis-extreme points, the point
/// farthest from the line through them, the point farthest from the plane through those three.
/// Their extents decide whether the set is collinear, needle-like, coplanar or flat.
fn initial_simplex(points: &[Vector3<f64>], tolerance: f64, diagonal: f64) -> Result<[usize; 4]> {
    let mut extremes = [0usize; 6];
    for (index, p) in points.iter().enumerate() {
        for axis in 0..3 {
            if p[axis] < points[extremes[2 * axis]][axis] {
                extremes[2 * axis] = index;
            }
            if p[axis] > points[extremes[2 * axis + 1]][axis] {
                extremes[2 * axis + 1] = index;
            }
        }
    }
    let (mut a, mut b, mut longest) = (extremes[0], extremes[1], -1.0);
    for (i, &first) in extremes.iter().enumerate() {
        for &second in &extremes[i + 1..] {
            let length = (points[first] - points[second]).norm_squared();
            if length > longest {
                (a, b, longest) = (first, second, length);
            }
        }
    }
    let min_thickness = MIN_RELATIVE_THICKNESS * diagonal;

    let axis = (points[b] - points[a]).normalize();
    let distance_from_line = |p: &Vector3<f64>| {
        let r = p - points[a];
        (r - axis * axis.dot(&r)).norm()
    };
    let (c, line_distance) = arg_max(points, distance_from_line);
    if line_distance <= tolerance {
        return Err(Error::DegenerateGeometry(format!(
            "the points are collinear: all lie within {line_distance:e} of one line (tolerance \
             {tolerance:e}), so they span no volume"
        )));
    }
    if line_distance < min_thickness {
        return Err(Error::DegenerateGeometry(format!(
            "the points are needle-like: all lie within {line_distance:e} of one line, less than \
             the minimum thickness {min_thickness:e} ({MIN_RELATIVE_THICKNESS:e} of the \
             bounding-box diagonal {diagonal:e})"
        )));
    }

    let normal = (points[b] - points[a])
        .cross(&(points[c] - points[a]))
        .normalize();
    let (d, plane_distance) = arg_max(points, |p| normal.dot(&(p - points[a])).abs());
    if plane_distance <= tolerance {
        return Err(Error::DegenerateGeometry(format!(
            "the points are coplanar: all lie within {plane_distance:e} of one plane (tolerance \
             {tolerance:e}), so they span no volume"
        )));
    }
    if plane_distance < min_thickness {
        return Err(Error::DegenerateGeometry(format!(
            "the points are flat: all lie within {plane_distance:e} of one plane, less than the \
             minimum thickness {min_thickness:e} ({MIN_RELATIVE_THICKNESS:e} of the bounding-box \
             diagonal {diagonal:e})"
        )));
    }
    Ok([a, b, c, d])
}

/// The index and value of the largest `measure` over `points`.
fn arg_max(points: &[Vector3<f64>], measure: impl Fn(&Vector3<f64>) -> f64) -> (usize, f64) {
    let mut best = (0, f64::NEG_INFINITY);
    for (index, p) in points.iter().enumerate() {
        let value = measure(p);
        if value > best.1 {
            best = (index, value);
        }
    }
    best
}

/// The four outward-oriented facets of the tetrahedron `simplex`, linked to each other.
fn simplex_facets(points: &[Vector3<f64>], simplex: [usize; 4]) -> Result<Vec<Facet>> {
    let [a, mut b, mut c, d] = simplex;
    let normal = (points[b] - points[a]).cross(&(points[c] - points[a]));
    if normal.dot(&(points[d] - points[a])) > 0.0 {
        std::mem::swap(&mut b, &mut c);
    }
    // With d below the counter-clockwise triangle (a, b, c), these four face outwards.
    let triangles = [[a, b, c], [a, d, b], [b, d, c], [c, d, a]];
    let mut facets = Vec::with_capacity(4);
    for vertices in triangles {
        let (normal, offset) = triangle_plane(points, vertices)?;
        facets.push(Facet {
            vertices,
            neighbours: [0; 3],
            normal,
            offset,
            outside: Vec::new(),
            alive: true,
        });
    }
    let mut by_edge = fast_map(3 * facets.len());
    for (f, facet) in facets.iter().enumerate() {
        for side in 0..3 {
            by_edge.insert((facet.vertices[side], facet.vertices[(side + 1) % 3]), f);
        }
    }
    for facet in &mut facets {
        for side in 0..3 {
            let reversed = (facet.vertices[(side + 1) % 3], facet.vertices[side]);
            facet.neighbours[side] = by_edge[&reversed];
        }
    }
    Ok(facets)
}

/// The outward unit normal and offset of the triangle `vertices` (counter-clockwise seen from
/// outside).
fn triangle_plane(points: &[Vector3<f64>], vertices: [usize; 3]) -> Result<(Vector3<f64>, f64)> {
    let [a, b, c] = vertices.map(|v| points[v]);
    let centre = (a + b + c) / 3.0;
    let normal = (b - a).cross(&(c - a));
    let length = normal.norm();
    if !(length > 0.0 && length.is_finite()) {
        return Err(numerical_failure("a hull triangle has no normal"));
    }
    let normal = normal / length;
    Ok((normal, normal.dot(&centre)))
}

/// Among `candidates`, the facet that `p` lies farthest above, if above any by more than the
/// tolerance.
fn most_distant_facet(
    facets: &[Facet],
    candidates: std::ops::Range<usize>,
    p: &Vector3<f64>,
    tolerance: f64,
) -> Option<usize> {
    let mut best = None;
    let mut best_distance = tolerance;
    for f in candidates {
        let distance = facets[f].distance(p);
        if distance > best_distance {
            best_distance = distance;
            best = Some(f);
        }
    }
    best
}

/// The point of the facet's conflict list farthest above it.
fn farthest_outside_point(facet: &Facet, points: &[Vector3<f64>]) -> usize {
    let mut best = facet.outside[0];
    let mut best_distance = facet.distance(&points[best]);
    for &index in &facet.outside[1..] {
        let distance = facet.distance(&points[index]);
        if distance > best_distance {
            best_distance = distance;
            best = index;
        }
    }
    best
}

/// Orders the horizon edges into one closed loop, each edge's head the next one's tail.
fn chain_horizon(edges: Vec<HorizonEdge>) -> Result<Vec<HorizonEdge>> {
    let mut by_tail = fast_map(edges.len());
    for (k, edge) in edges.iter().enumerate() {
        if by_tail.insert(edge.tail, k).is_some() {
            return Err(numerical_failure(
                "the horizon passes through a vertex twice",
            ));
        }
    }
    let mut ordered = Vec::with_capacity(edges.len());
    let mut current = 0;
    loop {
        ordered.push(edges[current]);
        current = *by_tail
            .get(&edges[current].head)
            .ok_or_else(|| numerical_failure("the horizon is not closed"))?;
        if current == 0 {
            break;
        }
        if ordered.len() > edges.len() {
            return Err(numerical_failure(
                "the horizon does not close on its first edge",
            ));
        }
    }
    if ordered.len() != edges.len() {
        return Err(numerical_failure("the horizon has more than one loop"));
    }
    Ok(ordered)
}

/// The live facets, renumbered from 0.
fn compact(facets: &[Facet]) -> TriangleHull {
    let mut new_index = vec![usize::MAX; facets.len()];
    let mut count = 0;
    for (f, facet) in facets.iter().enumerate() {
        if facet.alive {
            new_index[f] = count;
            count += 1;
        }
    }
    let live = facets.iter().filter(|f| f.alive);
    TriangleHull {
        triangles: live.clone().map(|f| f.vertices).collect(),
        neighbours: live.map(|f| f.neighbours.map(|n| new_index[n])).collect(),
    }
}

/// The error for a topological inconsistency that round-off caused in spite of the tolerance.
#[cfg(test)]
mod tests {
    use super::*;

    fn cube_corners() -> Vec<Vector3<f64>> {
        (0..8)
            .map(|i| Vector3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect()
    }

    fn check_closed_and_convex(hull: &TriangleHull, points: &[Vector3<f64>], tolerance: f64) {
        for (t, triangle) in hull.triangles.iter().enumerate() {
            for side in 0..3 {
                let n = hull.neighbours[t][side];
                let (tail, head) = (triangle[side], triangle[(side + 1) % 3]);
                let back = (0..3).find(|&s| {
                    hull.triangles[n][s] == head && hull.triangles[n][(s + 1) % 3] == tail
                });
                assert!(
                    back.is_some(),
                    "triangle {t} side {side} is not linked back"
                );
                assert_eq!(hull.neighbours[n][back.unwrap()], t);
            }
            let (normal, offset) = triangle_plane(points, *triangle).unwrap();
            for p in points {
                assert!(normal.dot(p) - offset <= tolerance);
            }
        }
    }

    #[test]
    fn cube_triangulates_into_twelve_triangles() {
        let points = cube_corners();
        let hull = quickhull(&points, 1e-9, 3f64.sqrt()).unwrap();
        assert_eq!(hull.triangles.len(), 12);
        check_closed_and_convex(&hull, &points, 1e-9);
    }

    #[test]
    fn interior_and_coplanar_points_are_not_vertices() {
        let mut points = cube_corners();
        points.push(Vector3::new(0.5, 0.5, 0.5));
        points.push(Vector3::new(1.0, 0.5, 0.5));
        points.push(Vector3::new(0.2, 0.7, 0.1));
        let hull = quickhull(&points, 1e-9, 3f64.sqrt()).unwrap();
        check_closed_and_convex(&hull, &points, 1e-9);
        let used: std::collections::BTreeSet<usize> =
            hull.triangles.iter().flatten().copied().collect();
        assert!(!used.contains(&8) && !used.contains(&10));
    }

    #[test]
    fn simplex_classifies_thin_sets() {
        let diagonal = 3f64.sqrt();
        let flat: Vec<_> = cube_corners()
            .iter()
            .map(|p| Vector3::new(p.x, p.y, 1e-9 * p.z))
            .collect();
        let err = initial_simplex(&flat, 1e-12, diagonal).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("flat")),
            "{err}"
        );
        let err = initial_simplex(&flat, 1e-8, diagonal).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("coplanar")),
            "{err}"
        );
        let needle: Vec<_> = cube_corners()
            .iter()
            .map(|p| Vector3::new(p.x, 1e-9 * p.y, 1e-9 * p.z))
            .collect();
        let err = initial_simplex(&needle, 1e-12, diagonal).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("needle")),
            "{err}"
        );
        let err = initial_simplex(&needle, 1e-8, diagonal).unwrap_err();
        assert!(
            matches!(&err, Error::DegenerateGeometry(m) if m.contains("collinear")),
            "{err}"
        );
    }

    #[test]
    fn horizon_must_be_one_simple_loop() {
        let edge = |tail, head| HorizonEdge {
            tail,
            head,
            outer: 0,
        };
        let ordered = chain_horizon(vec![edge(2, 0), edge(0, 1), edge(1, 2)]).unwrap();
        let tails: Vec<_> = ordered.iter().map(|e| e.tail).collect();
        assert_eq!(tails, vec![2, 0, 1]);
        assert!(chain_horizon(vec![edge(0, 1), edge(1, 0), edge(2, 3), edge(3, 2)]).is_err());
        assert!(chain_horizon(vec![edge(0, 1), edge(0, 2), edge(1, 0)]).is_err());
        assert!(chain_horizon(vec![edge(0, 1), edge(1, 2)]).is_err());
    }
}
