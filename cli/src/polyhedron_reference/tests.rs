//! Cross-checks of the polyhedron reference: hand-made answers, certificates, invariances and
//! brute-force sampling.

use super::*;
use crate::sampling::{self, SceneRng};
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};

/// Agreement required with the hand-derived answers (the solids are of size 1 to 8).
const EXACT: f64 = 1e-12;

fn scale(a: &RefPolyhedron, b: &RefPolyhedron) -> f64 {
    a.size().max(b.size())
}

fn moved(p: &Pose, rotation: UnitQuaternion<f64>, translation: Vector3<f64>) -> Pose {
    Pose::new(translation + rotation * p.position, rotation * p.rotation)
}

/// Whether the world point lies in the posed solid, up to `tol` outside.
fn contains_world(p: &RefPolyhedron, pose: &Pose, x: &Vector3<f64>, tol: f64) -> bool {
    p.contains(&pose.inverse_transform_point(x), tol)
}

fn pairs(seed: u64, count: usize, max_vertices: usize) -> Vec<RandomPair> {
    let mut rng = sampling::rng(seed);
    (0..count)
        .map(|_| random_pair(&mut rng, max_vertices))
        .collect()
}

#[test]
fn polyhedron_hand_made_solids_are_valid() {
    let c = RefPolyhedron::cuboid(0.5, 1.0, 2.0);
    c.check().unwrap();
    assert_eq!((c.vertices.len(), c.edges.len(), c.faces.len()), (8, 12, 6));
    assert!((c.size() - 2.0 * 5.25f64.sqrt()).abs() < 1e-15);

    let t = RefPolyhedron::regular_tetrahedron(2.0);
    t.check().unwrap();
    assert_eq!((t.vertices.len(), t.edges.len(), t.faces.len()), (4, 6, 4));
    for &(i, j) in &t.edges {
        assert!(((t.vertices[i] - t.vertices[j]).norm() - 2.0).abs() < 1e-15);
    }
    for (n, face) in &t.faces {
        assert!((n.dot(&t.vertices[face[0]]) - 2.0 / (2.0 * 6f64.sqrt())).abs() < 1e-15);
    }

    for n in 3..=8 {
        let p = RefPolyhedron::prism(n, 0.7, 2.0);
        p.check().unwrap();
        assert_eq!(
            (p.vertices.len(), p.edges.len(), p.faces.len()),
            (2 * n, 3 * n, n + 2)
        );
    }
    let rod = RefPolyhedron::prism(6, 0.5, 4.0);
    for (n, face) in &rod.faces[..6] {
        let d = n.dot(&rod.vertices[face[0]]);
        assert!((d - 3f64.sqrt() / 4.0).abs() < 1e-15);
    }
    assert!((rod.size() - (1.0f64 + 64.0).sqrt()).abs() < 1e-14);
}

#[test]
fn polyhedron_check_rejects_broken_solids() {
    let good = RefPolyhedron::cuboid(0.5, 0.5, 0.5);
    let mut flipped = good.clone();
    flipped.faces[0].0 = -flipped.faces[0].0;
    assert!(flipped.check().is_err());
    let mut reversed = good.clone();
    reversed.faces[2].1.reverse();
    assert!(reversed.check().is_err());
    let mut missing_edge = good.clone();
    missing_edge.edges.pop();
    assert!(missing_edge.check().is_err());
    let mut bent = good.clone();
    bent.vertices[7].z += 0.1;
    assert!(bent.check().is_err());
    let mut open = good.clone();
    open.faces.pop();
    assert!(open.check().is_err());
}

#[test]
fn polyhedron_bruteforce_hull_merges_coplanar_points() {
    // Cube corners plus face centres, edge midpoints and interior points: only the corners are
    // vertices, the faces are the six squares.
    let mut points = Vec::new();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                points.push(Vector3::new(x, y, z));
            }
        }
    }
    points.push(Vector3::new(0.3, -0.2, 0.9));
    let hull = RefPolyhedron::from_points_bruteforce(&points).unwrap();
    assert_eq!(
        (hull.vertices.len(), hull.edges.len(), hull.faces.len()),
        (8, 12, 6)
    );
    for (n, face) in &hull.faces {
        assert_eq!(face.len(), 4);
        assert!((n.abs().max() - 1.0).abs() < 1e-15 && n.abs().sum() - 1.0 < 1e-15);
        assert!((n.dot(&hull.vertices[face[0]]) - 1.0).abs() < 1e-15);
    }
    // A tetrahedron with extra interior points.
    let t = RefPolyhedron::regular_tetrahedron(1.0);
    let mut points = t.vertices.clone();
    points.push(Vector3::new(0.01, -0.02, 0.03));
    points.push(t.vertices[0] * 0.5);
    let hull = RefPolyhedron::from_points_bruteforce(&points).unwrap();
    assert_eq!((hull.vertices.len(), hull.faces.len()), (4, 4));
    // Errors.
    let flat: Vec<Vector3<f64>> = (0..6)
        .map(|k| Vector3::new(k as f64, (k * k) as f64, 0.0))
        .collect();
    assert!(RefPolyhedron::from_points_bruteforce(&flat).is_err());
    let many = vec![Vector3::zeros(); BRUTEFORCE_MAX_POINTS + 1];
    assert!(RefPolyhedron::from_points_bruteforce(&many).is_err());
    // Random clouds: every point inside the hull, every hull vertex one of the points.
    let mut rng = sampling::rng(3);
    for n in [4, 5, 9, 20, 60] {
        let points: Vec<Vector3<f64>> = (0..n)
            .map(|_| sampling::unit_vector(&mut rng) * 0.5 + sampling::unit_vector(&mut rng) * 0.4)
            .collect();
        let hull = RefPolyhedron::from_points_bruteforce(&points).unwrap();
        for p in &points {
            assert!(hull.contains(p, 1e-12));
        }
        for v in &hull.vertices {
            assert!(points.contains(v));
        }
    }
}

#[test]
fn polyhedron_analytic_cases_match() {
    let cases = analytic_cases();
    assert_eq!(cases.len(), 44);
    for c in &cases {
        c.a.check().unwrap();
        c.b.check().unwrap();
        let cl = classify(&c.a, &c.pose_a, &c.b, &c.pose_b);
        assert!(
            (cl.signed_distance() - c.signed_distance).abs() < EXACT,
            "{}: signed distance {} != {}",
            c.name,
            cl.signed_distance(),
            c.signed_distance
        );
        assert!(
            (cl.normal() - c.normal).norm() < EXACT,
            "{}: normal {:?} != {:?}",
            c.name,
            cl.normal(),
            c.normal
        );
        // The contact normal is a candidate axis in every case, so SAT meets it exactly too.
        let sat = sat_penetration(&c.a, &c.pose_a, &c.b, &c.pose_b);
        assert!(
            (sat.signed_gap() - c.signed_distance).abs() < EXACT,
            "{}",
            c.name
        );
        assert!((sat.axis() - c.normal).norm() < EXACT, "{}", c.name);
        let kind_ok = matches!(
            (c.contact_type, sat.kind()),
            ("f-f", AxisKind::FaceA(_) | AxisKind::FaceB(_))
                | ("v-f" | "e-f", AxisKind::FaceA(_))
                | ("e-e crossing", AxisKind::EdgeEdge(..))
        );
        assert!(kind_ok, "{}: axis kind {:?}", c.name, sat.kind());
        if c.signed_distance > 0.0 {
            let (d, pa, pb) = separation_distance(&c.a, &c.pose_a, &c.b, &c.pose_b);
            assert!((d - c.signed_distance).abs() < EXACT, "{}", c.name);
            assert!((pb - pa - c.normal * d).norm() < EXACT, "{}", c.name);
            assert!(contains_world(&c.a, &c.pose_a, &pa, EXACT));
            assert!(contains_world(&c.b, &c.pose_b, &pb, EXACT));
        }
    }
}

#[test]
fn polyhedron_random_pairs_sat_and_distance_agree() {
    let mut all = pairs(11, 40, 20);
    all.extend(pairs(12, 3, 60));
    let (mut separated, mut penetrating) = (0, 0);
    for p in &all {
        let (a, pa, b, pb) = (&p.a, &p.pose_a, &p.b, &p.pose_b);
        let tol = 1e-12 * scale(a, b);
        let width = band(a, b);
        let sat = sat_penetration(a, pa, b, pb);
        let (d, xa, xb) = separation_distance(a, pa, b, pb);
        assert!(contains_world(a, pa, &xa, tol) && contains_world(b, pb, &xb, tol));
        // Certificate: the plane normal to the closest-point segment separates the bodies by
        // exactly its length iff they are disjoint and the distance is exact.
        let n = (xb - xa) / d;
        let certified = d > width && (-support_overlap(a, pa, b, pb, &n) - d).abs() <= tol;
        if within_band(sat.signed_gap(), width) {
            continue;
        }
        assert_eq!(certified, sat.is_separated(), "SAT {sat:?}, distance {d}");
        match sat {
            SatResult::Separated { gap, .. } => {
                separated += 1;
                assert!(d >= gap - tol);
            }
            SatResult::Penetrating { depth, normal, .. } => {
                penetrating += 1;
                assert!((support_overlap(a, pa, b, pb, &normal) - depth).abs() <= tol);
            }
        }
        // The placement bounds the answer.
        if p.placed_gap > width {
            assert!(sat.is_separated() && d >= p.placed_gap - tol);
        } else if let SatResult::Penetrating { depth, .. } = sat {
            assert!(depth <= -p.placed_gap + tol);
        }
    }
    assert!(
        separated >= 10 && penetrating >= 10,
        "{separated} / {penetrating}"
    );
}

#[test]
fn polyhedron_swap_flips_normal_and_keeps_the_answer() {
    for p in pairs(21, 25, 16) {
        let tol = 1e-12 * scale(&p.a, &p.b);
        let ab = classify(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let ba = classify(&p.b, &p.pose_b, &p.a, &p.pose_a);
        assert!((ab.signed_distance() - ba.signed_distance()).abs() <= tol);
        if !within_band(ab.signed_distance(), band(&p.a, &p.b)) {
            assert!((ab.normal() + ba.normal()).norm() < 1e-9, "{ab:?} {ba:?}");
        }
    }
    for c in analytic_cases() {
        let ba = classify(&c.b, &c.pose_b, &c.a, &c.pose_a);
        assert!(
            (ba.signed_distance() - c.signed_distance).abs() < EXACT,
            "{}",
            c.name
        );
        assert!((ba.normal() + c.normal).norm() < EXACT, "{}", c.name);
    }
}

#[test]
fn polyhedron_rigid_motion_keeps_the_answer_and_turns_the_normal() {
    let mut rng = sampling::rng(31);
    for p in pairs(32, 25, 16) {
        let tol = 1e-12 * scale(&p.a, &p.b);
        let rotation = sampling::rotation(&mut rng);
        let translation = sampling::unit_vector(&mut rng) * 3.0;
        let before = classify(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let (ma, mb) = (
            moved(&p.pose_a, rotation, translation),
            moved(&p.pose_b, rotation, translation),
        );
        let after = classify(&p.a, &ma, &p.b, &mb);
        assert!((before.signed_distance() - after.signed_distance()).abs() <= 4.0 * tol);
        if !within_band(before.signed_distance(), band(&p.a, &p.b)) {
            assert!((rotation * before.normal() - after.normal()).norm() < 1e-9);
        }
    }
}

#[test]
fn polyhedron_distance_bounds_every_separating_axis() {
    let mut face_separated = 0;
    for p in pairs(41, 40, 16) {
        let (a, pa, b, pb) = (&p.a, &p.pose_a, &p.b, &p.pose_b);
        let sat = sat_penetration(a, pa, b, pb);
        if !sat.is_separated() {
            continue;
        }
        let tol = 1e-12 * scale(a, b);
        let (d, xa, xb) = separation_distance(a, pa, b, pb);
        let axes = candidate_axes(a, pa, b, pb);
        for c in &axes {
            assert!(-c.overlap <= d + tol, "{c:?} gap beyond the distance {d}");
        }
        // Closest points along a face normal: the best axis gap is the distance.
        let n = (xb - xa) / d;
        let along_face = axes.iter().any(|c| {
            matches!(c.kind, AxisKind::FaceA(_) | AxisKind::FaceB(_)) && (c.axis - n).norm() < 1e-9
        });
        if along_face {
            face_separated += 1;
            assert!((sat.signed_gap() - d).abs() <= tol, "{sat:?} vs {d}");
        }
    }
    assert!(face_separated >= 5, "{face_separated}");
}

/// Points on the surface of the posed solid: each face fanned into triangles, each triangle
/// sampled on a barycentric grid of `n` intervals; and the covering radius (every surface point is
/// within it of a sample): the longest triangle edge / (n sqrt3).
fn surface_samples(p: &RefPolyhedron, pose: &Pose, n: usize) -> (Vec<[f64; 3]>, f64) {
    let v = p.world_vertices(pose);
    let mut out = Vec::new();
    let mut longest: f64 = 0.0;
    for (_, face) in &p.faces {
        for k in 1..face.len() - 1 {
            let (t0, t1, t2) = (v[face[0]], v[face[k]], v[face[k + 1]]);
            longest = longest
                .max((t1 - t0).norm())
                .max((t2 - t1).norm())
                .max((t0 - t2).norm());
            for i in 0..=n {
                for j in 0..=n - i {
                    let (u, w) = (i as f64 / n as f64, j as f64 / n as f64);
                    let x = t0 + (t1 - t0) * u + (t2 - t0) * w;
                    out.push([x.x, x.y, x.z]);
                }
            }
        }
    }
    (out, longest / (n as f64 * 3f64.sqrt()))
}

#[test]
fn polyhedron_distance_matches_dense_surface_sampling() {
    let cube = RefPolyhedron::cuboid(0.5, 0.5, 0.5);
    let tet = RefPolyhedron::regular_tetrahedron(1.2);
    let mut rng: SceneRng = sampling::rng(51);
    let mut scenes: Vec<(RefPolyhedron, Pose, RefPolyhedron, Pose)> = vec![
        (
            cube.clone(),
            sampling::pose(&mut rng, 0.1),
            tet.clone(),
            Pose::new(Vector3::new(1.8, 0.5, 0.3), sampling::rotation(&mut rng)),
        ),
        (
            tet.clone(),
            sampling::pose(&mut rng, 0.1),
            tet.clone(),
            Pose::new(Vector3::new(-0.3, 1.8, 0.2), sampling::rotation(&mut rng)),
        ),
    ];
    while scenes.len() < 6 {
        let p = random_pair(&mut rng, 8);
        if p.placed_gap > 0.0 {
            scenes.push((p.a, p.pose_a, p.b, p.pose_b));
        }
    }
    for (a, pa, b, pb) in &scenes {
        assert!(sat_penetration(a, pa, b, pb).is_separated());
        let (d, _, _) = separation_distance(a, pa, b, pb);
        let (sa, ra) = surface_samples(a, pa, 16);
        let (sb, rb) = surface_samples(b, pb, 16);
        let mut best = f64::INFINITY;
        for x in &sa {
            for y in &sb {
                let (dx, dy, dz) = (x[0] - y[0], x[1] - y[1], x[2] - y[2]);
                best = best.min(dx * dx + dy * dy + dz * dz);
            }
        }
        let sampled = best.sqrt();
        assert!(
            d <= sampled + 1e-12,
            "distance {d} above the sampled {sampled}"
        );
        assert!(
            sampled <= d + ra + rb,
            "sampled {sampled}, distance {d}, error bound {}",
            ra + rb
        );
    }
}

/// The smallest `h(d)` found by sampling directions (a Fibonacci sphere) and refining the best few
/// by a shrinking compass search on the sphere (at most 400 polls each). Every value is a true
/// `h(d)`, so the result is an upper bound of the MTD; the compass search can stall on the ridges
/// of `h`, so it is not tight.
fn smallest_overlap_by_search(a: &RefPolyhedron, pa: &Pose, b: &RefPolyhedron, pb: &Pose) -> f64 {
    let (va, vb) = (a.world_vertices(pa), b.world_vertices(pb));
    let h = |d: &Vector3<f64>| {
        let d = d.normalize();
        let max_a = va
            .iter()
            .map(|v| d.dot(v))
            .fold(f64::NEG_INFINITY, f64::max);
        let min_b = vb.iter().map(|v| d.dot(v)).fold(f64::INFINITY, f64::min);
        max_a - min_b
    };
    let m = 3000;
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut starts: Vec<(f64, Vector3<f64>)> = (0..m)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / m as f64;
            let r = (1.0 - z * z).sqrt();
            let t = golden * k as f64;
            let d = Vector3::new(r * t.cos(), r * t.sin(), z);
            (h(&d), d)
        })
        .collect();
    starts.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = f64::INFINITY;
    for &(mut value, mut d) in starts.iter().take(4) {
        let mut step = 0.05;
        for _ in 0..400 {
            if step < 1e-7 {
                break;
            }
            let e1 = d.cross(&Vector3::new(0.3, -0.5, 0.8)).normalize();
            let e2 = d.cross(&e1);
            let mut improved = false;
            for e in [e1, -e1, e2, -e2] {
                let trial = (d + e * step).normalize();
                let v = h(&trial);
                if v < value {
                    (value, d, improved) = (v, trial, true);
                }
            }
            if !improved {
                step *= 0.5;
            }
        }
        best = best.min(value);
    }
    best
}

#[test]
fn polyhedron_depth_is_not_beaten_by_any_sampled_direction() {
    let mut checked = 0;
    for p in pairs(61, 60, 8) {
        let (a, pa, b, pb) = (&p.a, &p.pose_a, &p.b, &p.pose_b);
        if let SatResult::Penetrating { depth, .. } = sat_penetration(a, pa, b, pb) {
            let found = smallest_overlap_by_search(a, pa, b, pb);
            let size = scale(a, b);
            assert!(
                depth <= found + 1e-12 * size,
                "SAT depth {depth} > searched {found}"
            );
            // A sanity check of the search (not of SAT): it does get near.
            assert!(
                found <= depth + 1e-3 * size,
                "search {found} far above depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn polyhedron_segment_and_polygon_closest_points() {
    let v = Vector3::new;
    // Crossing at right angles.
    let (x, y) = closest_points_segment_segment(
        &v(0.0, 0.0, 0.0),
        &v(1.0, 0.0, 0.0),
        &v(0.5, 1.0, -1.0),
        &v(0.5, 1.0, 1.0),
    );
    assert!((x - v(0.5, 0.0, 0.0)).norm() < 1e-15 && (y - v(0.5, 1.0, 0.0)).norm() < 1e-15);
    // Parallel, disjoint along their direction: endpoint to endpoint.
    let (x, y) = closest_points_segment_segment(
        &v(0.0, 0.0, 0.0),
        &v(1.0, 0.0, 0.0),
        &v(2.0, 1.0, 0.0),
        &v(3.0, 1.0, 0.0),
    );
    assert!(((x - y).norm() - 2f64.sqrt()).abs() < 1e-15);
    // Parallel and overlapping: the perpendicular distance.
    let (x, y) = closest_points_segment_segment(
        &v(0.0, 0.0, 0.0),
        &v(2.0, 0.0, 0.0),
        &v(3.0, 1.0, 0.0),
        &v(1.0, 1.0, 0.0),
    );
    assert!(((x - y).norm() - 1.0).abs() < 1e-15);
    // A point segment.
    let (x, y) = closest_points_segment_segment(
        &v(0.5, 2.0, 0.0),
        &v(0.5, 2.0, 0.0),
        &v(0.0, 0.0, 0.0),
        &v(1.0, 0.0, 0.0),
    );
    assert!((x - v(0.5, 2.0, 0.0)).norm() < 1e-15 && (y - v(0.5, 0.0, 0.0)).norm() < 1e-15);
    // Random segments against a fine grid of the parameter square.
    let mut rng = sampling::rng(71);
    for _ in 0..20 {
        let mut r = || sampling::unit_vector(&mut rng);
        let (p0, p1, q0, q1) = (r(), r(), r(), r());
        let (x, y) = closest_points_segment_segment(&p0, &p1, &q0, &q1);
        let d = (x - y).norm();
        let mut grid = f64::INFINITY;
        let n = 200;
        for i in 0..=n {
            for j in 0..=n {
                let (s, t) = (i as f64 / n as f64, j as f64 / n as f64);
                grid = grid.min((p0 + (p1 - p0) * s - q0 - (q1 - q0) * t).norm());
            }
        }
        // The grid is no closer, and within its spacing of the exact distance.
        assert!(d <= grid + 1e-15 && grid <= d + 2.0 * 2.0 / n as f64);
    }
    // A unit square in z = 0: inside projects, outside goes to the rim.
    let square = [
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(1.0, 1.0, 0.0),
        v(0.0, 1.0, 0.0),
    ];
    let z = Vector3::z();
    assert_eq!(
        closest_point_on_polygon(&v(0.3, 0.6, 2.0), &z, &square),
        v(0.3, 0.6, 0.0)
    );
    assert_eq!(
        closest_point_on_polygon(&v(1.5, 0.6, -1.0), &z, &square),
        v(1.0, 0.6, 0.0)
    );
    assert_eq!(
        closest_point_on_polygon(&v(-1.0, 2.0, 1.0), &z, &square),
        v(0.0, 1.0, 0.0)
    );
}

#[test]
fn polyhedron_band_helpers() {
    let (cube, rod) = (
        RefPolyhedron::cuboid(0.5, 0.5, 0.5),
        RefPolyhedron::prism(6, 0.5, 4.0),
    );
    assert!((band(&cube, &rod) - BAND_RELATIVE * 65f64.sqrt()).abs() < 1e-24);
    let w = 1e-9;
    assert!(within_band(0.5e-9, w) && within_band(-1e-9, w) && !within_band(2e-9, w));
    assert!(is_mismatch(1e-3, -1e-3, w));
    assert!(is_mismatch(-1e-3, 1e-6, w));
    assert!(!is_mismatch(1e-3, 2e-3, w));
    assert!(!is_mismatch(-1e-3, 0.0, w));
    assert!(!is_mismatch(0.5e-9, -1e-3, w));
}

#[test]
fn polyhedron_random_pairs_are_reproducible_and_in_range() {
    let (first, second) = (pairs(81, 5, 60), pairs(81, 5, 60));
    assert_eq!(first, second);
    for p in pairs(82, 12, 60) {
        for body in [&p.a, &p.b] {
            body.check().unwrap();
            assert!((4..=60).contains(&body.vertices.len()));
        }
        assert!(p.placed_gap.abs() <= 0.02 * p.size);
        // The placement: B's support plane along u is placed_gap beyond A's.
        let gap = -support_overlap(&p.a, &p.pose_a, &p.b, &p.pose_b, &p.direction);
        assert!((gap - p.placed_gap).abs() < 1e-12 * p.size);
    }
}
