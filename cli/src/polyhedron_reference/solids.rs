//! Solids for the reference: hand-made ones with explicit faces, and a brute-force hull of a few
//! points for random test solids.

use super::RefPolyhedron;
use nalgebra::Vector3;
use std::collections::HashSet;
use std::f64::consts::TAU;

/// The most points [`RefPolyhedron::from_points_bruteforce`] accepts.
pub const BRUTEFORCE_MAX_POINTS: usize = 60;

fn assert_positive(name: &str, x: f64) {
    assert!(
        x.is_finite() && x > 0.0,
        "{name} = {x} must be positive and finite"
    );
}

impl RefPolyhedron {
    /// The box `[-hx, hx] x [-hy, hy] x [-hz, hz]` (half extents in the caller's length unit),
    /// centred on the body origin. Vertex `i` has the sign pattern of its bits: bit 0 x, bit 1 y,
    /// bit 2 z (clear = negative).
    ///
    /// Panics unless the half extents are positive and finite.
    pub fn cuboid(hx: f64, hy: f64, hz: f64) -> Self {
        assert_positive("hx", hx);
        assert_positive("hy", hy);
        assert_positive("hz", hz);
        let pick = |i: usize, bit: usize, h: f64| if i & bit == 0 { -h } else { h };
        let vertices = (0..8)
            .map(|i| Vector3::new(pick(i, 1, hx), pick(i, 2, hy), pick(i, 4, hz)))
            .collect();
        // Each loop turns counter-clockwise about its normal, e.g. +x: +y then +z, y x z = x.
        let faces = vec![
            (Vector3::x(), vec![1, 3, 7, 5]),
            (-Vector3::x(), vec![0, 4, 6, 2]),
            (Vector3::y(), vec![2, 6, 7, 3]),
            (-Vector3::y(), vec![0, 1, 5, 4]),
            (Vector3::z(), vec![4, 5, 7, 6]),
            (-Vector3::z(), vec![0, 2, 3, 1]),
        ];
        Self::from_faces(vertices, faces)
    }

    /// The regular tetrahedron with edge length `edge`, centred on the body origin, vertices at the
    /// even-parity cube corners `s (1,1,1), s (1,-1,-1), s (-1,1,-1), s (-1,-1,1)` with
    /// `s = edge / (2 sqrt 2)`. Face `k` is opposite vertex `k`, with outward normal
    /// `-v_k / |v_k|` at distance `edge / (2 sqrt 6)` (the inradius) from the centre.
    ///
    /// Panics unless `edge` is positive and finite.
    pub fn regular_tetrahedron(edge: f64) -> Self {
        assert_positive("edge", edge);
        let s = edge / (2.0 * 2f64.sqrt());
        let signs = [
            [1.0, 1.0, 1.0],
            [1.0, -1.0, -1.0],
            [-1.0, 1.0, -1.0],
            [-1.0, -1.0, 1.0],
        ];
        let vertices: Vec<Vector3<f64>> = signs
            .iter()
            .map(|c| Vector3::new(c[0], c[1], c[2]) * s)
            .collect();
        // Loops checked by hand: e.g. face 3 = (0, 1, 2): (v1 - v0) x (v2 - v1) = 4 s^2 (1, 1, -1),
        // along -v3.
        let loops = [vec![1, 3, 2], vec![0, 2, 3], vec![0, 3, 1], vec![0, 1, 2]];
        let faces = loops
            .into_iter()
            .enumerate()
            .map(|(k, l)| (-vertices[k].normalize(), l))
            .collect();
        Self::from_faces(vertices, faces)
    }

    /// A right prism along the body z axis over the regular `n_sides`-gon of circumradius `radius`
    /// in the xy plane (vertex `k` at angle `2 pi k / n_sides`), for `z` in
    /// `[-half_length, half_length]`. Vertices `0..n` are the bottom ring, `n..2n` the top ring.
    /// Side face `k` (between angles of vertices `k` and `k+1`) has the normal at angle
    /// `2 pi (k + 1/2) / n_sides`, at distance `radius cos(pi / n_sides)` from the axis.
    /// `prism(6, 0.5, 4.0)` is a hexagonal rod of across-corner width 1 and length 8.
    ///
    /// Panics unless `n_sides >= 3` and the lengths are positive and finite.
    pub fn prism(n_sides: usize, radius: f64, half_length: f64) -> Self {
        assert!(
            n_sides >= 3,
            "a prism needs at least 3 sides, not {n_sides}"
        );
        assert_positive("radius", radius);
        assert_positive("half_length", half_length);
        let n = n_sides;
        let angle = |k: f64| TAU * k / n as f64;
        let mut vertices = Vec::with_capacity(2 * n);
        for z in [-half_length, half_length] {
            for k in 0..n {
                let t = angle(k as f64);
                vertices.push(Vector3::new(radius * t.cos(), radius * t.sin(), z));
            }
        }
        let mut faces = Vec::with_capacity(n + 2);
        for k in 0..n {
            let t = angle(k as f64 + 0.5);
            let k1 = (k + 1) % n;
            // Along the ring (counter-clockwise about z), then up: tangent x z = outward.
            faces.push((
                Vector3::new(t.cos(), t.sin(), 0.0),
                vec![k, k1, k1 + n, k + n],
            ));
        }
        faces.push((Vector3::z(), (n..2 * n).collect()));
        faces.push((-Vector3::z(), (0..n).rev().collect()));
        Self::from_faces(vertices, faces)
    }

    /// The convex hull of at most [`BRUTEFORCE_MAX_POINTS`] points, by brute force: every point
    /// triple spans a candidate plane, kept when all points lie on one side of it (a supporting
    /// plane); the points on each supporting plane are merged into one face whose loop is their
    /// planar convex hull (collinear and interior points dropped). O(n^4): fine for the small `n`
    /// of tests, too slow for anything else.
    ///
    /// Limits: a point closer than `1e-10` of the diameter to a plane counts as on it, and closer
    /// than that to another point as a duplicate; nearly coplanar or nearly collinear inputs at
    /// that scale may be merged or rejected. The result is validated with
    /// [`RefPolyhedron::check`]; errors: too many points, non-finite or (nearly) coplanar input,
    /// or a hull that fails the check. Only the hull's vertices are kept (renumbered in input
    /// order); normals are the normalised Newell normals of the loops.
    pub fn from_points_bruteforce(points: &[Vector3<f64>]) -> Result<Self, String> {
        if points.len() > BRUTEFORCE_MAX_POINTS {
            return Err(format!(
                "{} points: the brute-force hull takes at most {BRUTEFORCE_MAX_POINTS}",
                points.len()
            ));
        }
        if points.iter().any(|p| !p.iter().all(|x| x.is_finite())) {
            return Err("non-finite point".into());
        }
        let mut diameter: f64 = 0.0;
        for (i, p) in points.iter().enumerate() {
            for q in &points[i + 1..] {
                diameter = diameter.max((p - q).norm());
            }
        }
        let tol = 1e-10 * diameter;
        let mut pts: Vec<Vector3<f64>> = Vec::new();
        for p in points {
            if pts.iter().all(|q| (q - p).norm() > tol) {
                pts.push(*p);
            }
        }
        let n = pts.len();
        if n < 4 {
            return Err(format!("{n} distinct points: no solid"));
        }
        let mut face_sets: HashSet<Vec<usize>> = HashSet::new();
        let mut faces: Vec<(Vector3<f64>, Vec<usize>)> = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let c = (pts[j] - pts[i]).cross(&(pts[k] - pts[i]));
                    if c.norm() <= 1e-10 * diameter * diameter {
                        continue; // (nearly) collinear triple
                    }
                    let c = c.normalize();
                    // Early exit: most triples have points on both sides.
                    let (mut above, mut below) = (false, false);
                    for p in &pts {
                        let s = c.dot(&(p - pts[i]));
                        above |= s > tol;
                        below |= s < -tol;
                        if above && below {
                            break;
                        }
                    }
                    if above && below {
                        continue;
                    }
                    if !above && !below {
                        return Err("the points are (nearly) coplanar".into());
                    }
                    let side: Vec<f64> = pts.iter().map(|p| c.dot(&(p - pts[i]))).collect();
                    let normal = if above { -c } else { c };
                    let on: Vec<usize> = (0..n).filter(|&m| side[m].abs() <= tol).collect();
                    if face_sets.insert(on.clone()) {
                        faces.push((normal, planar_hull(&pts, &on, &normal)));
                    }
                }
            }
        }
        // Keep the hull's vertices only, renumbered in input order.
        let mut used = vec![false; n];
        for (_, face) in &faces {
            for &i in face {
                used[i] = true;
            }
        }
        let mut index = vec![usize::MAX; n];
        let mut vertices = Vec::new();
        for i in 0..n {
            if used[i] {
                index[i] = vertices.len();
                vertices.push(pts[i]);
            }
        }
        let faces = faces
            .into_iter()
            .map(|(_, face)| {
                let face: Vec<usize> = face.iter().map(|&i| index[i]).collect();
                (newell_normal(&vertices, &face), face)
            })
            .collect();
        let hull = Self::from_faces(vertices, faces);
        hull.check()?;
        Ok(hull)
    }
}

/// The counter-clockwise (about `normal`) convex hull of the coplanar points `on`, as indices into
/// `pts`, without collinear points (Andrew's monotone chain in a basis of the plane).
fn planar_hull(pts: &[Vector3<f64>], on: &[usize], normal: &Vector3<f64>) -> Vec<usize> {
    let u = if normal.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = (u - normal * normal.dot(&u)).normalize();
    // (u, v, normal) is right-handed: counter-clockwise in (u, v) is so about the normal.
    let v = normal.cross(&u);
    let origin = pts[on[0]];
    let mut p2: Vec<(f64, f64, usize)> = on
        .iter()
        .map(|&i| {
            let d = pts[i] - origin;
            (d.dot(&u), d.dot(&v), i)
        })
        .collect();
    p2.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let scale = p2
        .iter()
        .map(|p| p.0.abs().max(p.1.abs()))
        .fold(0.0, f64::max);
    let eps = 1e-12 * scale * scale;
    let turn = |o: &(f64, f64, usize), a: &(f64, f64, usize), b: &(f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64, usize)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64, usize)>> = if pass == 0 {
            Box::new(p2.iter())
        } else {
            Box::new(p2.iter().rev())
        };
        for p in iter {
            while hull.len() >= start + 2
                && turn(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= eps
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop(); // the last point of each chain starts the other
    }
    hull.into_iter().map(|p| p.2).collect()
}

/// The unit Newell normal of a planar loop.
fn newell_normal(vertices: &[Vector3<f64>], face: &[usize]) -> Vector3<f64> {
    let c = face.iter().map(|&i| vertices[i]).sum::<Vector3<f64>>() / face.len() as f64;
    let m = face.len();
    (0..m)
        .map(|k| (vertices[face[k]] - c).cross(&(vertices[face[(k + 1) % m]] - c)))
        .sum::<Vector3<f64>>()
        .normalize()
}
