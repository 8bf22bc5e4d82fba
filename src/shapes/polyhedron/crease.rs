//! Creased faces: polygonal faces merged from hull triangles that are coplanar only within the
//! construction tolerance, with what the exact hull of their points has in their place.
//!
//! Where the construction merges nearly coplanar triangles (step 3 of the module documentation of
//! [`super`]), the exact convex hull of the input has several facets meeting at edges with tiny
//! dihedral angles (hidden edges), and possibly corners the merged face dropped. Along the
//! merged face's normal the polyhedron's support is exact (the plane's offset is the highest
//! vertex), but the exact hull's facets and hidden edges give directions in which two bodies
//! may overlap less: a contact search over the merged faces alone can overstate a minimum
//! translation distance by up to the face's [`flatness`](super::Polyhedron::face_flatness). A
//! creased face lists those directions so that a search can evaluate them too.

use nalgebra::Vector3;

/// Up to this many points (the corners of the triangles merged into a face), a creased face's
/// exact facets are found by trying every triple of them against every point of the body (at
/// most 560 triples). A face merged from more points is not listed: its depths keep the
/// tolerance bound the documentation of [`Polyhedron`](super::Polyhedron) states.
pub const CREASE_POINT_LIMIT: usize = 16;

/// Facet normals or edge directions closer than this (Euclidean distance of unit vectors) count
/// as one.
const SAME_DIRECTION: f64 = 1e-15;

/// A face merged from triangles that are not coplanar to rounding, or with a corner of its
/// triangles above its plane ([`super::Polyhedron::creased_faces`]). Body frame, host length
/// unit.
#[derive(Debug, Clone, PartialEq)]
pub struct CreasedFace {
    face: usize,
    dropped: Vec<Vector3<f64>>,
    facet_normals: Vec<Vector3<f64>>,
    hidden_edges: Vec<Vector3<f64>>,
    spread: f64,
}

impl CreasedFace {
    /// The polyhedron's face this is.
    pub fn face(&self) -> usize {
        self.face
    }

    /// The corners of the face's triangles that are not vertices of the polyhedron (inside the
    /// face or its edges; they may lie up to the tolerance above its plane). The exact hull's
    /// support in a direction is the larger of the polyhedron's and these points'.
    pub fn dropped_points(&self) -> &[Vector3<f64>] {
        &self.dropped
    }

    /// The outward unit normals of the planes through three of the face's points that support
    /// every vertex of the polyhedron and every point of the face, to rounding: the exact hull's
    /// facets there (the face's own normal left out).
    pub fn facet_normals(&self) -> &[Vector3<f64>] {
        &self.facet_normals
    }

    /// The unit directions of the sides of those facets that are not edges of the polyhedron:
    /// the exact hull's hidden edges (up to sign).
    pub fn hidden_edge_directions(&self) -> &[Vector3<f64>] {
        &self.hidden_edges
    }

    /// The largest distance `|m - n|` of a [facet normal](Self::facet_normals) `m` from the
    /// face's normal `n`. The exact hull's outward normals there (the facets', and those across
    /// the hidden edges between them) all lie within it of `n`: the cap of unit vectors within a
    /// distance below `sqrt(2)` of `n` holds every shortest arc between two of its points.
    pub fn spread(&self) -> f64 {
        self.spread
    }
}

/// A face as the construction leaves it: its loop of corners, the triangles merged into it and
/// its plane (point indices into the construction's points).
pub(super) struct MergedFace<'a> {
    /// The face's index.
    pub face: usize,
    /// Its boundary loop.
    pub corners: &'a [usize],
    /// The triangles merged into it.
    pub triangles: &'a [[usize; 3]],
    /// Its outward unit normal.
    pub normal: Vector3<f64>,
    /// Its plane's offset.
    pub offset: f64,
}

/// The creased face `merged` is, if it is one: its triangles are not coplanar within `round_off`
/// (a corner more than `round_off` below or above its plane), it has at most
/// [`CREASE_POINT_LIMIT`] points, and the exact hull has a facet there other than the face.
/// `points`: the construction's points; `vertices`: the polyhedron's.
pub(super) fn creased_face(
    merged: &MergedFace,
    points: &[Vector3<f64>],
    vertices: &[Vector3<f64>],
    round_off: f64,
) -> Option<CreasedFace> {
    if merged.triangles.len() < 2 {
        return None;
    }
    let mut own: Vec<usize> = merged.triangles.iter().flatten().copied().collect();
    own.sort_unstable();
    own.dedup();
    let n = merged.normal;
    let off_plane = |p: &usize| (n.dot(&points[*p]) - merged.offset).abs() > round_off;
    if own.len() > CREASE_POINT_LIMIT || !own.iter().any(off_plane) {
        return None;
    }
    let corner = |p: usize| merged.corners.contains(&p);
    let on_loop = |p: usize, q: usize| {
        let k = merged.corners.len();
        (0..k).any(|i| {
            let (s, t) = (merged.corners[i], merged.corners[(i + 1) % k]);
            (s, t) == (p, q) || (s, t) == (q, p)
        })
    };
    // The face's own points first: a plane that is not a facet fails there, near its points.
    let supports = |u: &Vector3<f64>, height: f64| {
        let slack = 2.0 * round_off;
        own.iter().all(|&p| u.dot(&points[p]) <= height + slack)
            && vertices.iter().all(|x| u.dot(x) <= height + slack)
    };
    let mut facet_normals: Vec<Vector3<f64>> = Vec::new();
    let mut hidden_edges: Vec<Vector3<f64>> = Vec::new();
    let novel = |list: &[Vector3<f64>], u: &Vector3<f64>, either_sign: bool| {
        !list.iter().any(|m| {
            (m - u).norm() <= SAME_DIRECTION || (either_sign && (m + u).norm() <= SAME_DIRECTION)
        })
    };
    for (i, &p) in own.iter().enumerate() {
        for (j, &q) in own.iter().enumerate().skip(i + 1) {
            for &r in own.iter().skip(j + 1) {
                let (a, b, c) = (points[p], points[q], points[r]);
                let u = (b - a).cross(&(c - a));
                let length = u.norm();
                // Nearly collinear corners have no well-defined plane.
                if length.is_nan() || length <= 1e-12 * (b - a).norm() * (c - a).norm() {
                    continue;
                }
                let u = if u.dot(&n) >= 0.0 { u } else { -u } / length;
                if !supports(&u, u.dot(&a)) {
                    continue;
                }
                if (u - n).norm() > SAME_DIRECTION && novel(&facet_normals, &u, false) {
                    facet_normals.push(u);
                }
                for (s, t) in [(p, q), (q, r), (p, r)] {
                    if on_loop(s, t) {
                        continue;
                    }
                    let d = (points[t] - points[s]).normalize();
                    if novel(&hidden_edges, &d, true) {
                        hidden_edges.push(d);
                    }
                }
            }
        }
    }
    if facet_normals.is_empty() {
        return None;
    }
    let spread = facet_normals
        .iter()
        .map(|m| (m - n).norm())
        .fold(0.0, f64::max);
    Some(CreasedFace {
        spread,
        face: merged.face,
        dropped: own
            .iter()
            .filter(|&&p| !corner(p))
            .map(|&p| points[p])
            .collect(),
        facet_normals,
        hidden_edges,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::Polyhedron;
    use super::*;

    /// The box `[-1, 1] x [-1, 1] x [-1, 0]` with its top corner `(-1, -1, 0)` raised by `rise`:
    /// below the construction's tolerance (3e-8), its top is one face creased along the
    /// diagonal from that corner.
    pub(crate) fn raised_corner_box(rise: f64) -> Vec<Vector3<f64>> {
        let mut points = Vec::new();
        for z in [-1.0, 0.0] {
            for y in [-1.0, 1.0] {
                for x in [-1.0, 1.0] {
                    let lift = if (x, y, z) == (-1.0, -1.0, 0.0) {
                        rise
                    } else {
                        0.0
                    };
                    points.push(Vector3::new(x, y, z + lift));
                }
            }
        }
        points
    }

    #[test]
    fn a_merged_face_off_its_plane_is_listed_with_its_exact_facets() {
        let flat = Polyhedron::new(&raised_corner_box(0.0)).unwrap();
        assert!(flat.creased_faces().is_empty());
        let body = Polyhedron::new(&raised_corner_box(1e-8)).unwrap();
        assert_eq!(
            body.num_faces(),
            6,
            "the raised corner is merged into the top"
        );
        let [crease] = body.creased_faces() else {
            panic!("{:?}", body.creased_faces())
        };
        assert_eq!(body.face_normal(crease.face()).z.signum(), 1.0);
        assert!(crease.dropped_points().is_empty());
        // The merged face's normal is halfway, (2.5e-9, 2.5e-9, 1).
        assert!(
            (crease.spread() - 0.5e-8 / 2f64.sqrt()).abs() < 1e-15,
            "{}",
            crease.spread()
        );
        // The two triangles either side of the diagonal from the raised corner.
        let mut normals = crease.facet_normals().to_vec();
        normals.sort_by(|m, n| m.x.total_cmp(&n.x));
        let tilt = 0.5e-8;
        for (m, expected) in normals
            .iter()
            .zip([Vector3::new(0.0, tilt, 1.0), Vector3::new(tilt, 0.0, 1.0)])
        {
            assert!((m - expected.normalize()).norm() < 1e-15, "{m:?}");
        }
        let [hidden] = crease.hidden_edge_directions() else {
            panic!("{:?}", crease.hidden_edge_directions())
        };
        assert!(
            hidden
                .cross(&Vector3::new(1.0, 1.0, 0.0).normalize())
                .norm()
                < 1e-8
        );
    }
}
