//! Tests of the whole construction through the public API.

use super::*;
use crate::error::Error;
use proptest::prelude::*;

/// A small deterministic generator (SplitMix64), so the random cases are reproducible.
struct SplitMix(u64);

impl SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    fn symmetric(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn in_box(&mut self) -> Vector3<f64> {
        Vector3::new(self.symmetric(), self.symmetric(), self.symmetric())
    }

    fn on_sphere(&mut self) -> Vector3<f64> {
        loop {
            let p = self.in_box();
            let r = p.norm();
            if r > 0.1 && r <= 1.0 {
                return p / r;
            }
        }
    }
}

/// `n` unit vectors, uniform on the sphere, from the seed `seed` (for the trees' tests).
pub(super) fn unit_vectors(n: usize, seed: u64) -> Vec<Vector3<f64>> {
    let mut rng = SplitMix(seed);
    (0..n).map(|_| rng.on_sphere()).collect()
}

/// The corners of the axis-aligned box `lo + [0, size]`, corner `i` at the bits of `i`.
fn box_corners(lo: Vector3<f64>, size: Vector3<f64>) -> Vec<Vector3<f64>> {
    (0..8)
        .map(|i| {
            lo + Vector3::new(
                (i & 1) as f64 * size.x,
                ((i >> 1) & 1) as f64 * size.y,
                ((i >> 2) & 1) as f64 * size.z,
            )
        })
        .collect()
}

fn unit_cube() -> Vec<Vector3<f64>> {
    box_corners(Vector3::zeros(), Vector3::repeat(1.0))
}

fn counts(p: &Polyhedron) -> (usize, usize, usize) {
    (p.num_faces(), p.num_edges(), p.num_vertices())
}

/// How far outside the face planes input points may lie, in tolerances.
const OUTSIDE_ALLOWANCE: f64 = Polyhedron::OUTSIDE_ALLOWANCE;

/// How far below its face's plane a vertex of the face may lie, in tolerances.
const PLANARITY_ALLOWANCE: f64 = Polyhedron::PLANARITY_ALLOWANCE;

/// Every structural promise of the boundary representation, checked against the input points.
fn assert_valid(p: &Polyhedron, input: &[Vector3<f64>]) {
    // The compact copies a search reads agree with the edge records.
    for v in 0..p.num_vertices() {
        let far_ends: Vec<u32> = p
            .vertex_edges(v)
            .iter()
            .map(|&e| p.edge(e).other_vertex(v) as u32)
            .collect();
        assert_eq!(p.vertex_neighbours(v), &far_ends[..], "vertex {v}");
    }
    assert_eq!(p.edge_faces().len(), p.num_edges());
    for (e, &[left, right]) in p.edge_faces().iter().enumerate() {
        let edge = p.edge(e);
        assert_eq!(
            (left as usize, right as usize),
            (edge.left_face(), edge.right_face()),
            "edge {e}"
        );
    }
    let tol = p.tolerance();
    let (f, e, v) = counts(p);
    assert_eq!(v + f, e + 2, "Euler: V - E + F = {v} - {e} + {f}");

    // Every vertex is an input point, bit for bit.
    for (i, x) in p.vertices().iter().enumerate() {
        assert_eq!(*x, input[p.vertex_source_index(i)], "vertex {i}");
    }

    for face in 0..f {
        let n = p.face_normal(face);
        assert!((n.norm() - 1.0).abs() < 1e-14);
        let loop_vertices = p.face_vertices(face);
        let loop_edges = p.face_edges(face);
        assert!(loop_vertices.len() >= 3);
        assert_eq!(loop_vertices.len(), loop_edges.len());
        let m = loop_vertices.len();
        for k in 0..m {
            let (a, b, c) = (
                p.vertex(loop_vertices[k]),
                p.vertex(loop_vertices[(k + 1) % m]),
                p.vertex(loop_vertices[(k + 2) % m]),
            );
            // Planar, and convex with counter-clockwise turns seen from outside.
            let depth = p.face_offset(face) - n.dot(&a);
            assert!(
                (0.0..=PLANARITY_ALLOWANCE * tol).contains(&depth),
                "face {face}: vertex {} lies {depth:e} below its plane (tolerance {tol:e})",
                loop_vertices[k]
            );
            let turn = (b - a).cross(&(c - b)).dot(&n);
            assert!(
                turn > -tol * (b - a).norm().max((c - b).norm()),
                "face {face} turns clockwise at {:?}: {turn:e} with edges {:e} {:e}",
                loop_vertices[(k + 1) % m],
                (b - a).norm(),
                (c - b).norm()
            );
            // Edge k joins loop vertices k and k + 1, and the face is on its correct side.
            let edge = p.edge(loop_edges[k]);
            let (tail, head) = (loop_vertices[k], loop_vertices[(k + 1) % m]);
            if edge.tail() == tail {
                assert_eq!((edge.head(), edge.left_face()), (head, face));
            } else {
                assert_eq!((edge.tail(), edge.head()), (head, tail));
                assert_eq!(edge.right_face(), face);
            }
        }
        // Outward: the solid's centroid lies below every face plane.
        assert!(n.dot(&p.centroid()) < p.face_offset(face));
        for (i, x) in input.iter().enumerate() {
            let height = n.dot(x) - p.face_offset(face);
            assert!(
                height <= OUTSIDE_ALLOWANCE * tol,
                "input point {i} lies {height:e} outside face {face} (tolerance {tol:e})"
            );
        }
    }

    for (index, edge) in p.edges().iter().enumerate() {
        assert_ne!(edge.left_face(), edge.right_face());
        assert!(p.face_edges(edge.left_face()).contains(&index));
        assert!(p.face_edges(edge.right_face()).contains(&index));
        // The line where the two face planes meet (the arc's plane normal), from tail to head,
        // to rounding or exactly; the span leaves it only as far as its ends may lie off the two
        // planes.
        let line = p.edge_arc(index).plane;
        let span = p.vertex(edge.head()) - p.vertex(edge.tail());
        let off_line = edge.direction().cross(&(line / line.norm())).norm();
        let farther = p
            .vertex(edge.head())
            .norm()
            .max(p.vertex(edge.tail()).norm());
        let rounding = 1e3 * f64::EPSILON * (1.0 / line.norm() + farther / span.norm());
        assert!(
            off_line <= rounding,
            "edge {index}: {off_line:e} off its faces' line"
        );
        let sine = edge.direction().cross(&span).norm() / span.norm();
        let allowed = 2.0 * PLANARITY_ALLOWANCE * tol / (span.norm() * line.norm()) + 1e-14;
        // (On an edge so short that its ends' allowance reaches across it, even the sense of
        // the span is free; so it is where the sense of the faces' line is that of their normals'
        // round-off: where the two faces lie in each other's planes within the allowance, or
        // where one of them is a sliver no wider than the allowance (twice its area over its
        // longest chord), as a noisy lattice's collinear points can leave along an edge of the
        // body.)
        let allowance = 2.0 * PLANARITY_ALLOWANCE * tol;
        let in_plane_of = |f: usize, g: usize| {
            p.face_vertices(f).iter().all(|&v| {
                let height = p.face_normal(g).dot(&p.vertex(v)) - p.face_offset(g);
                height.abs() <= allowance
            })
        };
        let sliver = |f: usize| {
            let corners: Vec<Vector3<f64>> =
                p.face_vertices(f).iter().map(|&v| p.vertex(v)).collect();
            let area = corners
                .windows(2)
                .map(|w| (w[0] - corners[0]).cross(&(w[1] - corners[0])))
                .sum::<Vector3<f64>>()
                .norm()
                * 0.5;
            let chord = corners
                .iter()
                .flat_map(|x| corners.iter().map(move |y| (x - y).norm()))
                .fold(0.0, f64::max);
            2.0 * area <= allowance * chord
        };
        let (left, right) = (edge.left_face(), edge.right_face());
        let free_sense =
            (in_plane_of(left, right) && in_plane_of(right, left)) || sliver(left) || sliver(right);
        let same_sense = edge.direction().dot(&span) > 0.0 || allowed >= 1.0 || free_sense;
        assert!(
            sine <= allowed && same_sense,
            "edge {index}: {sine:e} off its span"
        );
    }

    for vertex in 0..v {
        let ring_edges = p.vertex_edges(vertex);
        let ring_faces = p.vertex_faces(vertex);
        assert!(ring_edges.len() >= 3);
        assert_eq!(ring_edges.len(), ring_faces.len());
        let faces_with_vertex: Vec<usize> = (0..f)
            .filter(|&face| p.face_vertices(face).contains(&vertex))
            .collect();
        let mut sorted = ring_faces.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, faces_with_vertex, "vertex {vertex}'s faces");
        let edge_count = p
            .edges()
            .iter()
            .filter(|e| e.tail() == vertex || e.head() == vertex)
            .count();
        assert_eq!(ring_edges.len(), edge_count);
        let r = ring_faces.len();
        for k in 0..r {
            // Face k lies between edges k and k + 1, both at this vertex.
            let face = ring_faces[k];
            for e in [ring_edges[k], ring_edges[(k + 1) % r]] {
                let edge = p.edge(e);
                assert!(edge.tail() == vertex || edge.head() == vertex);
                assert!(p.face_edges(face).contains(&e));
            }
            // Counter-clockwise: within face k, edge k + 1 follows edge k counter-clockwise
            // about the face's outward normal (a face angle of pi within the tolerance may
            // exceed pi by round-off or by noise in the input).
            let leaving = |e: usize| {
                let edge = p.edge(e);
                p.vertex(edge.other_vertex(vertex)) - p.vertex(vertex)
            };
            let (first, second) = (leaving(ring_edges[k]), leaving(ring_edges[(k + 1) % r]));
            let turn = first.cross(&second).dot(&p.face_normal(face));
            assert!(
                turn > -tol * first.norm().max(second.norm()),
                "vertex {vertex}: face {face} turns clockwise ({turn:e})"
            );
        }
    }

    // The volume by the divergence theorem: V = (1/3) sum of offset * area over the faces. The
    // offsets of faces planar only within the tolerance may be off by the planarity allowance.
    let mut divergence_volume = 0.0;
    let mut offset_slack = 0.0;
    for face in 0..f {
        let loop_vertices = p.face_vertices(face);
        let m = loop_vertices.len();
        let area_vector: Vector3<f64> = (0..m)
            .map(|k| {
                p.vertex(loop_vertices[k])
                    .cross(&p.vertex(loop_vertices[(k + 1) % m]))
            })
            .sum::<Vector3<f64>>()
            / 2.0;
        divergence_volume += p.face_offset(face) * area_vector.dot(&p.face_normal(face)) / 3.0;
        offset_slack += area_vector.norm() * PLANARITY_ALLOWANCE * tol / 3.0;
    }
    let scale = p.bounding_radius().max(1e-300);
    assert!(
        (divergence_volume - p.volume()).abs() <= 1e-12 * scale.powi(3) + offset_slack,
        "volume {} against {divergence_volume}",
        p.volume()
    );
    let radius = p.vertices().iter().map(|x| x.norm()).fold(0.0, f64::max);
    assert_eq!(p.bounding_radius(), radius);
}

/// The support vertex against a scan of all vertices, for `directions` random directions.
fn assert_support_matches_brute_force(p: &Polyhedron, rng: &mut SplitMix, directions: usize) {
    let mut hint = 0;
    for _ in 0..directions {
        let d = rng.in_box();
        let brute = p
            .vertices()
            .iter()
            .map(|x| d.dot(x))
            .fold(f64::NEG_INFINITY, f64::max);
        let warm = p.support_vertex(&d, hint);
        let cold = p.support_point(&d);
        let slack = 1e-13 * p.bounding_radius();
        assert!(d.dot(&p.vertex(warm)) >= brute - slack);
        assert!(d.dot(&cold) >= brute - slack);
        hint = warm;
    }
}

fn degenerate_message(points: &[Vector3<f64>]) -> String {
    match Polyhedron::new(points) {
        Err(Error::DegenerateGeometry(message)) => message,
        other => panic!("expected DegenerateGeometry, got {other:?}"),
    }
}

#[test]
fn unit_cube_has_six_faces_twelve_edges_eight_vertices() {
    let points = unit_cube();
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &points);
    assert_eq!(p.volume(), 1.0);
    assert_eq!(p.centroid(), Vector3::repeat(0.5));
    assert_eq!(p.bounding_radius(), 3f64.sqrt());
}

#[test]
fn shifted_cube_has_exact_normals_offsets_volume_and_centroid() {
    let lo = Vector3::new(1.0, -2.0, 5.0);
    let points = box_corners(lo, Vector3::repeat(2.0));
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &points);
    let mut planes: Vec<(Vector3<f64>, f64)> = (0..6)
        .map(|f| (p.face_normal(f), p.face_offset(f)))
        .collect();
    for axis in 0..3 {
        for (sign, offset) in [(-1.0, -lo[axis]), (1.0, lo[axis] + 2.0)] {
            let normal = Vector3::ith(axis, sign);
            let found = planes.iter().position(|&(n, _)| n == normal);
            let found = found.unwrap_or_else(|| panic!("no face with normal {normal:?}"));
            assert_eq!(planes.remove(found).1, offset);
        }
    }
    assert_eq!(p.volume(), 8.0);
    assert_eq!(p.centroid(), Vector3::new(2.0, -1.0, 6.0));
    // The body frame is the caller's: the vertices are not re-centred.
    for (v, point) in points.iter().enumerate() {
        assert_eq!(p.vertex(v), *point);
        assert_eq!(p.vertex_source_index(v), v);
    }
}

#[test]
fn cube_ignores_duplicates_interior_face_centre_and_edge_midpoint_points() {
    let corners = unit_cube();
    let mut points = Vec::new();
    for axis in 0..3 {
        for side in [0.0, 1.0] {
            let mut centre = Vector3::repeat(0.5);
            centre[axis] = side;
            points.push(centre);
        }
    }
    for (i, a) in corners.iter().enumerate() {
        for b in &corners[i + 1..] {
            if (a - b).norm() == 1.0 {
                points.push((a + b) / 2.0);
            }
        }
    }
    points.extend(&corners);
    points.push(Vector3::new(0.5, 0.5, 0.5));
    points.push(Vector3::new(0.1, 0.9, 0.3));
    points.extend(&corners);
    points.push(Vector3::new(0.25, 0.0, 0.75));
    points.push(corners[3] + Vector3::new(1e-12, 0.0, 0.0));
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &points);
    // Face centres and edge midpoints come first (18 points); the corners follow.
    let sources: Vec<usize> = (0..8).map(|v| p.vertex_source_index(v)).collect();
    assert_eq!(sources, (18..26).collect::<Vec<_>>());
    assert!((p.volume() - 1.0).abs() < 1e-15);
    for f in 0..6 {
        assert_eq!(p.face_vertices(f).len(), 4);
    }
}

#[test]
fn cube_perturbed_by_1e_13_keeps_its_combinatorics() {
    let mut rng = SplitMix(7);
    for trial in 0..20 {
        let size = [1.0, 1e-3, 250.0][trial % 3];
        let centre = rng.in_box() * 10.0 * size;
        let mut points = box_corners(centre, Vector3::repeat(size));
        // Face centres too, also perturbed: they must still vanish into the faces.
        for axis in 0..3 {
            for side in [0.0, size] {
                let mut face_centre = centre + Vector3::repeat(size / 2.0);
                face_centre[axis] = centre[axis] + side;
                points.push(face_centre);
            }
        }
        for x in &mut points {
            *x += rng.in_box() * 1e-13 * size;
        }
        let p = Polyhedron::new(&points).unwrap();
        assert_eq!(counts(&p), (6, 12, 8), "trial {trial}");
        assert_valid(&p, &points);
        assert!((p.volume() - size.powi(3)).abs() < 1e-11 * size.powi(3));
    }
}

#[test]
fn regular_tetrahedron() {
    let points = vec![
        Vector3::new(1.0, 1.0, 1.0),
        Vector3::new(1.0, -1.0, -1.0),
        Vector3::new(-1.0, 1.0, -1.0),
        Vector3::new(-1.0, -1.0, 1.0),
    ];
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (4, 6, 4));
    assert_valid(&p, &points);
    assert!((p.volume() - 8.0 / 3.0).abs() < 1e-15);
    assert!(p.centroid().norm() < 1e-15);
    for f in 0..4 {
        // Each face's normal points away from the vertex it does not hold.
        let absent = (0..4).find(|v| !p.face_vertices(f).contains(v)).unwrap();
        let expected = -p.vertex(absent) / 3f64.sqrt();
        assert!((p.face_normal(f) - expected).norm() < 1e-15);
        assert!((p.face_offset(f) - 1.0 / 3f64.sqrt()).abs() < 1e-15);
    }
    for v in 0..4 {
        assert_eq!(p.vertex_edges(v).len(), 3);
    }
}

#[test]
fn long_prisms_of_aspect_one_to_eight() {
    let square = box_corners(Vector3::zeros(), Vector3::new(1.0, 1.0, 8.0));
    let p = Polyhedron::new(&square).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &square);
    assert_eq!(p.volume(), 8.0);

    let h = 3f64.sqrt() / 2.0;
    let mut triangular = Vec::new();
    for z in [0.0, 4.0, 8.0] {
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.5, h)] {
            triangular.push(Vector3::new(x, y, z));
        }
    }
    let p = Polyhedron::new(&triangular).unwrap();
    assert_eq!(counts(&p), (5, 9, 6));
    assert_valid(&p, &triangular);
    assert!((p.volume() - 8.0 * h / 2.0).abs() < 1e-14);
    assert!((p.centroid() - Vector3::new(0.5, h / 3.0, 4.0)).norm() < 1e-14);
}

#[test]
fn random_points_on_a_sphere_are_all_vertices() {
    let mut rng = SplitMix(11);
    for n in (4..=200).step_by(7) {
        let points: Vec<_> = (0..n).map(|_| rng.on_sphere() * 3.0).collect();
        let p = Polyhedron::new(&points).unwrap();
        assert_eq!(p.num_vertices(), n);
        assert_valid(&p, &points);
        assert_support_matches_brute_force(&p, &mut rng, 50);
    }
}

#[test]
fn random_points_in_a_box() {
    let mut rng = SplitMix(13);
    for n in (4..=200).step_by(7) {
        let offset = rng.in_box() * 5.0;
        let points: Vec<_> = (0..n)
            .map(|_| offset + rng.in_box().component_mul(&Vector3::new(1.0, 2.0, 0.5)))
            .collect();
        let p = Polyhedron::new(&points).unwrap();
        assert_valid(&p, &points);
        assert_support_matches_brute_force(&p, &mut rng, 50);
    }
}

#[test]
fn below_every_face_plane_scans_few_faces_and_visits_the_tree_on_many_alike() {
    let mut rng = SplitMix(19);
    let mut sizes = (false, false);
    for n in [6, 12, 30, 60, 70, 100, 160] {
        let points: Vec<_> = (0..n)
            .map(|_| rng.on_sphere().component_mul(&Vector3::new(1.0, 0.7, 0.4)))
            .collect();
        let p = Polyhedron::new(&points).unwrap();
        let scanned = p.num_faces() <= Polyhedron::SCANNED_FACES;
        sizes = (sizes.0 || scanned, sizes.1 || !scanned);
        for _ in 0..100 {
            let x = rng.in_box() * 0.5;
            let lowest = (0..p.num_faces())
                .map(|f| p.face_offset(f) - p.face_normal(f).dot(&x))
                .fold(f64::INFINITY, f64::min);
            for (depth, below) in [
                (lowest, true),
                (lowest - 1e-12, true),
                (lowest + 1e-12, false),
            ] {
                assert_eq!(p.below_every_face_plane(&x, depth), below, "{n} points");
                assert_eq!(p.each_face_below(&x, depth, |_, _| false), below, "tree");
            }
        }
    }
    assert_eq!(sizes, (true, true), "both sides of the scan's limit");
}

#[test]
fn support_climbs_from_any_hint_on_a_large_hull() {
    let mut rng = SplitMix(17);
    // More vertices than a search with no hint scans: a hint out of range climbs from vertex 0.
    let points: Vec<_> = (0..1100).map(|_| rng.on_sphere()).collect();
    let p = Polyhedron::new(&points).unwrap();
    assert!(p.num_vertices() > support::COLD_SCAN_LIMIT);
    assert_valid(&p, &points);
    for _ in 0..200 {
        let d = rng.in_box();
        let brute = p
            .vertices()
            .iter()
            .map(|x| d.dot(x))
            .fold(f64::MIN, f64::max);
        let hint = (rng.next_u64() % (p.num_vertices() as u64 + 5)) as usize;
        assert!(d.dot(&p.vertex(p.support_vertex(&d, hint))) >= brute - 1e-14);
    }
}

#[test]
fn non_finite_coordinates_name_the_point() {
    let mut points = unit_cube();
    points[5].y = f64::NAN;
    match Polyhedron::new(&points) {
        Err(Error::NonFinite(message)) => assert!(message.contains("points[5]"), "{message}"),
        other => panic!("expected NonFinite, got {other:?}"),
    }
    points[5].y = 0.0;
    points[2].x = f64::NEG_INFINITY;
    assert!(
        matches!(Polyhedron::new(&points), Err(Error::NonFinite(m)) if m.contains("points[2]"))
    );
}

#[test]
fn coordinates_and_extents_beyond_the_validated_lengths_are_refused() {
    let scaled = |s: f64, offset: f64| -> Vec<Vector3<f64>> {
        unit_cube()
            .iter()
            .map(|p| p * s + Vector3::repeat(offset))
            .collect()
    };
    for (s, offset) in [(1e-29, 0.0), (1e29, 0.0), (1e20, 5e29)] {
        assert!(
            Polyhedron::new(&scaled(s, offset)).is_ok(),
            "{s:e} at {offset:e}"
        );
    }
    for (s, offset) in [(1e-31, 0.0), (1e31, 0.0), (1e20, 2e30)] {
        let refused = Polyhedron::new(&scaled(s, offset));
        assert!(
            matches!(&refused, Err(Error::InvalidArgument(m)) if m.contains("within 1e30") && m.contains("above 1e-30")),
            "{s:e} at {offset:e}: {refused:?}"
        );
    }
}

#[test]
fn too_few_and_coincident_points_are_degenerate() {
    let cube = unit_cube();
    assert!(degenerate_message(&cube[..3]).contains("at least 4"));
    assert!(degenerate_message(&[cube[6]; 9]).contains("coincide"));
    let three = [cube[0], cube[1], cube[2], cube[1], cube[0], cube[2]];
    assert!(degenerate_message(&three).contains("only 3 distinct"));
}

#[test]
fn collinear_and_needle_like_sets_are_degenerate() {
    let direction = Vector3::new(1.0, 2.0, -0.5);
    let line: Vec<_> = (0..10).map(|i| direction * i as f64).collect();
    assert!(degenerate_message(&line).contains("collinear"));
    let side = Vector3::new(2.0, -1.0, 0.0).normalize();
    let up = direction.cross(&side).normalize();
    let needle: Vec<_> = (0..10)
        .map(|i| direction * i as f64 + (side * (i % 2) as f64 + up * (i % 3) as f64) * 2e-6)
        .collect();
    assert!(degenerate_message(&needle).contains("needle"));
}

#[test]
fn coplanar_and_flat_sets_are_degenerate() {
    let mut rng = SplitMix(19);
    let normal = Vector3::new(0.3, -0.2, 0.9).normalize();
    let in_plane = |rng: &mut SplitMix| {
        let p = rng.in_box();
        p - normal * normal.dot(&p)
    };
    let plane: Vec<_> = (0..30).map(|_| in_plane(&mut rng)).collect();
    assert!(degenerate_message(&plane).contains("coplanar"));
    let slab: Vec<_> = (0..30)
        .map(|_| in_plane(&mut rng) + normal * 1e-7 * rng.symmetric())
        .collect();
    assert!(degenerate_message(&slab).contains("flat"));
    // Four coplanar points with duplicates are still not a polyhedron.
    let square = unit_cube()[..4].to_vec();
    let doubled: Vec<_> = square.iter().chain(&square).copied().collect();
    assert!(degenerate_message(&doubled).contains("coplanar"));
}

/// A thin box's faces sampled on a grid, each point moved by up to 0.3 (1e-7 of the size, about
/// 5 tolerances): at the scheme's tolerance the merge left sliver faces whose planes lay up to
/// 5.7e6 from their own vertices (one turned inside out), and contact queries with the body
/// were wrong by its size. The hull is rebuilt at a coarser tolerance: a box.
#[test]
fn a_noisy_grid_box_is_rebuilt_at_a_coarser_tolerance() {
    let points: Vec<Vector3<f64>> = [
        [-2945642.816125687, -635602.9646273775, -569520.396170485],
        [-2715526.92401458, 169986.8024142751, 1414982.0016923775],
        [-2947397.1280800407, -622047.5833724308, -574819.5934473005],
        [-2774810.4586823573, -17855.342880477827, 913557.1144289025],
        [-2950906.250862929, -594936.9632290818, -585417.9778481537],
        [-2952660.625137635, -581381.4939536533, -590717.3395943596],
        [-2895131.629837083, -379984.1246041216, -94591.6979037735],
        [-2837602.6313574812, -178586.5259420221, 401533.8859962939],
        [-2780073.848246291, 22810.739578207755, 897659.4596897697],
        [-2722544.7286252687, 224208.2284326139, 1393785.109670682],
        [-1530350.4515406431, -519198.9856525871, -780885.8411747385],
        [-1303743.3619168797, 313501.5679537046, 1193018.2691754713],
        [61037.94634536955, 174286.61358021057, 506724.0416960938],
        [118566.78730423898, 375684.1529887343, 1002849.7689968928],
        [1298480.1032382592, -272835.4818959436, -1208915.9163274958],
        [2722544.735113859, -224208.22024728084, -1393785.0896103822],
        [2952660.583725768, 581381.5542722002, 590717.315644567],
        [2719035.8959787246, -197097.5573211796, -1404383.570170633],
        [2947397.3590802094, 622047.7006857648, 574819.641682692],
        [2715526.9069056096, -169986.8656137902, -1414981.9770157621],
        [2945642.838929096, 635603.1373861184, 569520.4074548165],
    ]
    .iter()
    .map(|&p| p.into())
    .collect();
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &points);
    let diagonal = {
        let (lo, hi) = points
            .iter()
            .fold((points[0], points[0]), |(l, h), q| (l.inf(q), h.sup(q)));
        (hi - lo).norm()
    };
    assert!(p.tolerance() > 5.0 * Polyhedron::RELATIVE_TOLERANCE * diagonal);
}

#[test]
fn a_thin_but_valid_plate_is_accepted() {
    let points = box_corners(Vector3::zeros(), Vector3::new(1.0, 1.0, 1e-4));
    let p = Polyhedron::new(&points).unwrap();
    assert_eq!(counts(&p), (6, 12, 8));
    assert_valid(&p, &points);
}

/// Points of a coarse grid: many coplanar and collinear subsets, the hard case for a hull.
fn grid_point() -> impl Strategy<Value = Vector3<f64>> {
    (-2i32..=2, -2i32..=2, -2i32..=2)
        .prop_map(|(x, y, z)| Vector3::new(x as f64, y as f64, z as f64) * 0.5)
}

fn free_point() -> impl Strategy<Value = Vector3<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

/// The construction either succeeds with a valid result or refuses a genuinely degenerate set.
fn check_any(points: &[Vector3<f64>]) -> std::result::Result<(), TestCaseError> {
    match Polyhedron::new(points) {
        Ok(p) => {
            assert_valid(&p, points);
            let mut rng = SplitMix(points.len() as u64);
            assert_support_matches_brute_force(&p, &mut rng, 10);
        }
        Err(Error::DegenerateGeometry(message)) => {
            prop_assert!(
                !message.contains("numerically degenerate") || message.contains("bumpy"),
                "internal failure: {message}"
            );
        }
        Err(other) => return Err(TestCaseError::fail(format!("unexpected {other:?}"))),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(96)))]

    #[test]
    fn grid_point_sets_give_valid_hulls(points in prop::collection::vec(grid_point(), 4..60)) {
        check_any(&points)?;
    }

    #[test]
    fn random_point_sets_give_valid_hulls(points in prop::collection::vec(free_point(), 4..80)) {
        check_any(&points)?;
    }

    /// Lattices whose points are moved by 1 to 40 tolerances, the hard case for merging
    /// coplanar triangles: a hull that is not sound at the scheme's tolerance is rebuilt at a
    /// coarser one, or refused as bumpy, never returned broken.
    #[test]
    fn grid_sets_with_noise_of_a_few_tolerances_give_valid_hulls(
        points in prop::collection::vec(grid_point(), 4..60),
        noise in prop::collection::vec(free_point(), 60),
        level in -7.5..-6.0f64,
    ) {
        let amplitude = 10f64.powf(level);
        let noisy: Vec<_> = points.iter().zip(&noise).map(|(p, n)| p + n * amplitude).collect();
        check_any(&noisy)?;
    }

    #[test]
    fn grid_sets_with_round_off_noise_give_valid_hulls(
        points in prop::collection::vec(grid_point(), 4..60),
        noise in prop::collection::vec(free_point(), 60),
    ) {
        let noisy: Vec<_> = points.iter().zip(&noise).map(|(p, n)| p + n * 1e-12).collect();
        check_any(&noisy)?;
    }
}

#[test]
fn a_climb_is_not_stopped_by_near_duplicate_vertices_on_a_merged_face() {
    // Body 484 of `validate --seed 4`'s rough point clouds (a plate: 40 points, some of them
    // near-duplicates). Vertices 37 and 26 are 6e-8 apart, farther than the hull's tolerance
    // (3.5e-8), and share the merged face [15, 37, 26, 25]: along some directions 26 is higher
    // than each of its neighbours while 15, across that face, is higher by up to 6.4e-3. Steepest
    // ascent over the edges alone stopped there in 13 of 80000 climbs.
    let points: Vec<Vector3<f64>> = [
        [
            -0.37490974166452684,
            -0.5340915478296805,
            0.6044204180512447,
        ],
        [
            -0.16292407825167401,
            -0.03934243792477027,
            0.17222318883572174,
        ],
        [0.2760456807566226, 0.26707171961957804, -0.4347736232956853],
        [-0.670795602840761, -0.8417174686151232, 1.0517464148927056],
        [
            -0.06230539499636749,
            0.07961658127246671,
            0.022537743842611757,
        ],
        [
            -0.34038732028792573,
            -0.27145125671925363,
            0.44520688476097053,
        ],
        [0.5671995145394036, 0.557767430522828, -0.8426270723719954],
        [
            -0.12537778047077675,
            -0.2514847751270472,
            0.2722826743709747,
        ],
        [-0.7074151746524433, -0.7263659288096453, 1.0438828368246362],
        [0.37770275930314456, 0.2967792625685037, -0.5104088285499042],
        [-0.591252313140924, -0.659856379802327, 0.8709144577532572],
        [0.1985701982254568, 0.36160249105501546, -0.3550278015693375],
        [0.5533404797858763, 0.5833805640677474, -0.8514130142416194],
        [0.730972621344116, 0.7664406169309878, -1.0948719745301432],
        [0.7255553813482083, 0.8461677536366672, -1.1012384407412168],
        [0.2916983296357003, 0.4713624101525026, -0.5062823183922194],
        [0.7495211342697231, 0.7979741681499386, -1.1110150074635505],
        [-0.6607106598166304, -0.8355834591884863, 1.0399924805114409],
        [0.2562678545196513, 0.3609007335171074, -0.45951811296907785],
        [
            -0.10804959798277548,
            -0.07975664325139394,
            0.10667084349223886,
        ],
        [-0.6794079624582673, -0.8646104607603006, 1.0884297848094224],
        [0.16793910094460388, 0.15436383634934467, -0.276658979918234],
        [0.3092772595492246, 0.48446353290556887, -0.5250064577836866],
        [0.7408913944771238, 0.9135275650367837, -1.1755307038684735],
        [-0.7519623304621386, -0.7913242223314485, 1.1205814590272656],
        [
            0.01530560446452936,
            0.12415660474812203,
            -0.10379491568588439,
        ],
        [0.622376671163185, 0.8119668777764181, -0.9998401725366772],
        [0.5412987882249712, 0.5564360675035485, -0.8251389270514601],
        [0.4147119545780107, 0.5196077160620686, -0.6905742554497014],
        [
            -0.48336667631171504,
            -0.6755647988444324,
            0.8046209782182845,
        ],
        [
            0.06560162368902422,
            -0.06927305602554083,
            -0.018402586668198176,
        ],
        [-0.7934060872622309, -0.9220340991590517, 1.2114321323320212],
        [0.4867471059584857, 0.612652825567791, -0.8026896603365345],
        [0.5369526282010402, 0.49749968730804117, -0.7637410050613354],
        [
            0.017411014053923403,
            -0.05689142507943958,
            -0.023206093076895015,
        ],
        [
            0.13211838056654307,
            0.0067561928229030056,
            -0.12171607552139549,
        ],
        [-0.8345790539407916, -0.9405403506352843, 1.2770515618096039],
        [0.6223767142648038, 0.8119669200272236, -0.9998401713544567],
        [-0.5014295074291542, -0.6252696203799902, 0.7657050414741973],
        [
            0.020618560574920442,
            0.10300103162880199,
            -0.10422414484549385,
        ],
    ]
    .iter()
    .map(|&[x, y, z]| Vector3::new(x, y, z))
    .collect();
    let p = Polyhedron::new(&points).unwrap();
    assert!(p.num_vertices() > super::support::BRUTE_FORCE_SUPPORT_LIMIT);
    let mut rng = SplitMix(11);
    assert_climbs_reach_the_support(&p, (0..2000).map(|_| rng.on_sphere()));
}

/// Asserts that a support search from every vertex of `p` reaches the support (to 1e-13 of the
/// bounding radius) along each of `directions`.
fn assert_climbs_reach_the_support(p: &Polyhedron, directions: impl Iterator<Item = Vector3<f64>>) {
    let slack = 1e-13 * p.bounding_radius();
    for d in directions {
        let brute = p
            .vertices()
            .iter()
            .map(|x| d.dot(x))
            .fold(f64::NEG_INFINITY, f64::max);
        for hint in 0..p.num_vertices() {
            let v = p.support_vertex(&d, hint);
            assert!(
                d.dot(&p.vertex(v)) >= brute - slack,
                "from {hint} along {d:?}"
            );
        }
    }
}

#[test]
fn a_climb_does_not_stop_where_the_direction_leaves_its_vertex_normal_cone() {
    // Body 440 of `validate --seed 23`'s rough point clouds (36 points, 35 vertices). Vertices
    // 27 and 2 are near-duplicates 9.7e-8 apart (the hull's tolerance is 3.9e-8), joined by an
    // edge that takes its faces' line for its direction. Along the axis below, 27 is higher than
    // all its neighbours (2 by 7.8e-8) while the support, a neighbour of 2 and not on a face of
    // 27, is 0.050 higher; the axis lies outside 27's normal cone by a margin of -0.65. A contact
    // search reported a separating plane through 27 for a pair that overlapped along it.
    let points: Vec<Vector3<f64>> = [
        [-0.8094748584992543, 0.5086402633214938, -0.4968486430657248],
        [0.9660050280951056, -0.4068184354606156, 0.5588625938148685],
        [1.3869845308244668, 0.5688484863856402, 0.7045619382846865],
        [0.2380933003206694, 0.26424972264277713, 0.156283453859197],
        [0.7561457855095711, -0.5823676121095849, 0.4682613963348597],
        [0.8100450136499702, 0.6689518073940297, 0.3207270124611225],
        [
            -0.9017961106613241,
            -0.029845007314126037,
            -0.5199507880082923,
        ],
        [1.2844332546124666, 0.21536904131894052, 0.6378672633925804],
        [
            0.21908637514971577,
            -0.9219105454472599,
            0.21537497708235623,
        ],
        [
            -1.4518671990903977,
            -0.3875447587029588,
            -0.7463761028708629,
        ],
        [-0.7982552876196783, 0.5219591972909094, -0.464031743924311],
        [
            -1.3641987146682297,
            -0.8331890630649923,
            -0.6611139452683358,
        ],
        [
            -1.3171196720393634,
            -0.5400359135649635,
            -0.6757181730898565,
        ],
        [
            -1.3571033845704277,
            -0.4309517303299908,
            -0.6561187697602526,
        ],
        [
            -0.6286508633346793,
            0.27689528842556566,
            -0.3196692142491691,
        ],
        [
            -0.1348668843655744,
            0.4179960694170413,
            -0.16442366743700126,
        ],
        [1.4682249461475463, 0.3557992146689229, 0.7438648233212116],
        [
            -0.975027283310167,
            -0.18258421114521411,
            -0.5437252175538424,
        ],
        [
            -1.0166132811635693,
            -1.0526572926756754,
            -0.4574498290774624,
        ],
        [0.8415428567876102, 0.862006907108575, 0.325326097344053],
        [0.054896163453588, 0.9884118983769693, -0.08850526508321048],
        [
            -0.1978868315244432,
            -1.0912161067688828,
            0.006859228898939767,
        ],
        [-0.6036739854278688, 0.7001726387093661, -0.3960402148766406],
        [0.5197220296600049, -0.7579240099096763, 0.350520043778457],
        [
            -0.25616038898468185,
            -1.0016460352216623,
            -0.061691922018744696,
        ],
        [
            -1.0015968375219868,
            -0.6561933898278355,
            -0.5083498490633297,
        ],
        [0.11621671230366913, 0.6062154374478034, 0.04906338219586918],
        [0.8829991735380606, 1.0484025560813615, 0.39028187971649875],
        [1.3869845972412145, 0.5688485543220984, 0.7045619560402712],
        [-0.846502913534264, 0.4246659193312766, -0.515269526023578],
        [
            -0.44440789653713114,
            -0.6566513761298904,
            -0.2188131114179871,
        ],
        [0.8829994186745991, 1.0484023992367164, 0.3902817486237069],
        [
            -0.6857309685666705,
            -0.35533481871098727,
            -0.27914174507370465,
        ],
        [0.4436098926715602, -0.609937476311596, 0.33043053555174173],
        [0.054896137231726, 0.9884119916999307, -0.08850535209315996],
        [
            -1.4518673460448468,
            -0.3875447002160778,
            -0.7463763193216455,
        ],
    ]
    .iter()
    .map(|&p| p.into())
    .collect();
    let p = Polyhedron::new(&points).unwrap();
    assert!(p.num_vertices() > super::support::BRUTE_FORCE_SUPPORT_LIMIT);
    assert!(p.has_leaning_edges());
    let axis = Vector3::new(0.8628167846851198, 0.18169251729708225, 0.471736181804917);
    let mut rng = SplitMix(23);
    assert_climbs_reach_the_support(
        &p,
        std::iter::once(axis).chain((0..2000).map(|_| rng.on_sphere())),
    );
}
