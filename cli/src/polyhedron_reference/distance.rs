//! The exact distance of two disjoint convex polyhedra by closest features.
//!
//! Between disjoint convex polytopes, a closest point pair can always be taken with a vertex of one
//! against a face polygon of the other (this covers vertex-edge and vertex-vertex, the polygon
//! being closed), or on an edge of each. So the distance is the minimum of vertex(A)-face(B),
//! face(A)-vertex(B) and edge(A)-edge(B) distances, each computed exactly. Every candidate is a
//! true point pair, so round-off can only make a candidate slightly long, never below the truth.

use super::RefPolyhedron;
use demcontact::Pose;
use nalgebra::Vector3;

/// The point of the segment `[a, b]` closest to `p` (any common length unit, any one frame).
pub fn closest_point_on_segment(
    p: &Vector3<f64>,
    a: &Vector3<f64>,
    b: &Vector3<f64>,
) -> Vector3<f64> {
    let d = b - a;
    let dd = d.norm_squared();
    if dd == 0.0 {
        return *a;
    }
    a + d * ((p - a).dot(&d) / dd).clamp(0.0, 1.0)
}

/// The point of the closed convex polygon `polygon` (vertices counter-clockwise about the unit
/// `normal`, all in one plane) closest to `p`: the projection of `p` on the plane when it falls
/// inside, else the closest point of the boundary.
pub fn closest_point_on_polygon(
    p: &Vector3<f64>,
    normal: &Vector3<f64>,
    polygon: &[Vector3<f64>],
) -> Vector3<f64> {
    let m = polygon.len();
    let projection = p - normal * normal.dot(&(p - polygon[0]));
    let inside = (0..m).all(|k| {
        let (q0, q1) = (polygon[k], polygon[(k + 1) % m]);
        (q1 - q0).cross(&(projection - q0)).dot(normal) >= 0.0
    });
    if inside {
        return projection;
    }
    let mut best = polygon[0];
    let mut best_d2 = f64::INFINITY;
    for k in 0..m {
        let q = closest_point_on_segment(p, &polygon[k], &polygon[(k + 1) % m]);
        let d2 = (q - p).norm_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = q;
        }
    }
    best
}

/// Closest points `(on [p0, p1], on [q0, q1])` of two segments, robust for parallel, nearly
/// parallel and degenerate (point) segments.
///
/// The squared distance is a convex quadratic over the parameter square `[0, 1]^2`. Its minimum is
/// either the unconstrained stationary point, when that lies in the square, or on the square's
/// boundary, i.e. an endpoint of one segment against the other segment. All (up to five)
/// candidates are evaluated as true point pairs and the closest kept, so an ill-conditioned
/// stationary point (nearly parallel segments) cannot produce a too-small distance, and parallel
/// segments are exact through the endpoint candidates.
pub fn closest_points_segment_segment(
    p0: &Vector3<f64>,
    p1: &Vector3<f64>,
    q0: &Vector3<f64>,
    q1: &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let mut best = (*p0, closest_point_on_segment(p0, q0, q1));
    let mut best_d2 = (best.0 - best.1).norm_squared();
    let mut consider = |x: Vector3<f64>, y: Vector3<f64>| {
        let d2 = (x - y).norm_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = (x, y);
        }
    };
    consider(*p1, closest_point_on_segment(p1, q0, q1));
    consider(closest_point_on_segment(q0, p0, p1), *q0);
    consider(closest_point_on_segment(q1, p0, p1), *q1);
    // Stationary point of |r + s d1 - t d2|^2: a s - b t = -c, b s - e t = -f.
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, e) = (d1.dot(&d1), d1.dot(&d2), d2.dot(&d2));
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let denom = a * e - b * b;
    if denom > 0.0 {
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            consider(p0 + d1 * s, q0 + d2 * t);
        }
    }
    best
}

/// The exact Euclidean distance of two disjoint convex polyhedra and a closest point pair
/// `(distance, point on A, point on B)`, world frame, caller's length unit.
///
/// Only meaningful for disjoint pairs (see [`super::sat_penetration`] or [`super::classify`]): for
/// overlapping ones it returns the smallest of the feature distances above, which is neither zero
/// nor a depth in general.
pub fn separation_distance(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
) -> (f64, Vector3<f64>, Vector3<f64>) {
    let va = a.world_vertices(pose_a);
    let vb = b.world_vertices(pose_b);
    let mut best = (f64::INFINITY, va[0], vb[0]);
    let mut consider = |x: Vector3<f64>, y: Vector3<f64>| {
        let d = (y - x).norm();
        if d < best.0 {
            best = (d, x, y);
        }
    };
    // Vertices of A against faces of B.
    for (n, face) in &b.faces {
        let n = pose_b.rotation * n;
        let polygon: Vec<Vector3<f64>> = face.iter().map(|&i| vb[i]).collect();
        for p in &va {
            consider(*p, closest_point_on_polygon(p, &n, &polygon));
        }
    }
    // Faces of A against vertices of B.
    for (n, face) in &a.faces {
        let n = pose_a.rotation * n;
        let polygon: Vec<Vector3<f64>> = face.iter().map(|&i| va[i]).collect();
        for q in &vb {
            consider(closest_point_on_polygon(q, &n, &polygon), *q);
        }
    }
    // Edges of A against edges of B.
    for &(i0, i1) in &a.edges {
        for &(j0, j1) in &b.edges {
            let (x, y) = closest_points_segment_segment(&va[i0], &va[i1], &vb[j0], &vb[j1]);
            consider(x, y);
        }
    }
    best
}
