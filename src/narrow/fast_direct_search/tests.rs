use super::*;
use crate::shapes::{Polyhedron, PolyhedronEdge};
use nalgebra::{UnitQuaternion, Vector3};
use proptest::prelude::*;

/// The turn that stands a box about the origin on its corner `(-1, -1, -1)` (times its
/// half-extents), that corner straight down (-z) and the diagonal through it along z.
pub(super) fn corner_down() -> UnitQuaternion<f64> {
    UnitQuaternion::rotation_between(
        &Vector3::new(-1.0, -1.0, -1.0),
        &Vector3::new(0.0, 0.0, -1.0),
    )
    .expect("the two directions are not opposite")
}

/// A random pair for the seed `k`: [`random_body`]s of `vertices.0` and `vertices.1` points, B
/// turned by a turn of the seed and moved from the centroids together along a direction of the
/// seed until the pair just touches (bisection on the [`sat`] depth), then back in by `inside`
/// (at most to the centroids together). B's pose is relative to A.
pub(super) fn random_touching_pair(
    k: u64,
    vertices: (usize, usize),
    inside: f64,
) -> (Polyhedron, Polyhedron, Pose) {
    let a = random_body(k, vertices.0);
    let b = random_body(k + 1000, vertices.1);
    let turn = UnitQuaternion::from_scaled_axis(Vector3::new(
        0.3 * k as f64,
        1.7 + 0.1 * k as f64,
        -0.7 * k as f64,
    ));
    let direction = turn * Vector3::x();
    let centred = a.centroid() - turn * b.centroid();
    let at = |distance: f64| Pose::new(centred + direction * distance, turn);
    let (mut lo, mut hi) = (0.0, 10.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if sat(&a, &b, &at(mid)).0 > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let rel = at((lo - inside).max(0.0));
    (a, b, rel)
}

/// The box of half-extents `hx, hy, hz` about the origin.
pub(super) fn cuboid(hx: f64, hy: f64, hz: f64) -> Polyhedron {
    let mut pts = Vec::new();
    for &x in &[-hx, hx] {
        for &y in &[-hy, hy] {
            for &z in &[-hz, hz] {
                pts.push(Vector3::new(x, y, z));
            }
        }
    }
    Polyhedron::new(&pts).unwrap()
}

fn pose(p: [f64; 3], axis_angle: [f64; 3]) -> Pose {
    Pose::new(
        Vector3::from(p),
        UnitQuaternion::from_scaled_axis(Vector3::from(axis_angle)),
    )
}

/// The bodies' overlap along the unit `n` (A's frame; negative: their gap) over all their
/// vertices, B's vertices `placed` in A's frame ([`placed_vertices`]).
pub(super) fn overlap_over_vertices(
    a: &Polyhedron,
    placed: &[Vector3<f64>],
    n: &Vector3<f64>,
) -> f64 {
    let high = a.vertices().iter().map(|v| n.dot(v));
    let low = placed.iter().map(|v| n.dot(v));
    high.fold(f64::MIN, f64::max) - low.fold(f64::MAX, f64::min)
}

/// B's vertices in A's frame, B given relative to A.
pub(super) fn placed_vertices(b: &Polyhedron, rel: &Pose) -> Vec<Vector3<f64>> {
    b.vertices()
        .iter()
        .map(|v| rel.transform_point(v))
        .collect()
}

/// Brute-force separating-axis overlap (test-only, independent of the kernel): the smallest
/// overlap over all face normals and all edge-pair cross products (of the edges' directions and of
/// their spans), B given relative to A.
pub(super) fn sat(a: &Polyhedron, b: &Polyhedron, rel: &Pose) -> (f64, Vector3<f64>) {
    let placed = placed_vertices(b, rel);
    let overlap = |n: &Vector3<f64>| overlap_over_vertices(a, &placed, n);
    let mut axes: Vec<Vector3<f64>> = (0..a.num_faces()).map(|f| a.face_normal(f)).collect();
    axes.extend((0..b.num_faces()).map(|g| -rel.transform_vector(&b.face_normal(g))));
    // Each pair of edges by their directions and, where an edge of merged faces takes their line
    // for its direction, by their own spans (tail to head) too.
    let leaning = |p: &Polyhedron, e: &PolyhedronEdge| {
        let span = (p.vertex(e.head()) - p.vertex(e.tail())).normalize();
        ((span - e.direction()).norm() > 1e-12).then_some(span)
    };
    let leaning_b: Vec<_> = b.edges().iter().map(|e| leaning(b, e)).collect();
    for ea in a.edges() {
        let leaning_a = leaning(a, ea);
        for (eb, leaning_b) in b.edges().iter().zip(&leaning_b) {
            let by_direction = ea.direction().cross(&rel.transform_vector(&eb.direction()));
            let by_span = (leaning_a.is_some() || leaning_b.is_some()).then(|| {
                let u = leaning_a.unwrap_or(ea.direction());
                u.cross(&rel.transform_vector(&leaning_b.unwrap_or(eb.direction())))
            });
            for c in std::iter::once(by_direction).chain(by_span) {
                if c.norm() > 1e-9 {
                    axes.push(c.normalize());
                    axes.push(-c.normalize());
                }
            }
        }
    }
    let mut best = (f64::INFINITY, Vector3::zeros());
    for n in axes {
        let o = overlap(&n);
        if o < best.0 {
            best = (o, n);
        }
    }
    best
}

fn detect(a: &Polyhedron, b: &Polyhedron, rel: &Pose, warm: &mut WarmState) -> Detection {
    fast_direct_search(a, b, rel, warm)
}

#[test]
fn stacked_cubes_face_face() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let rel = pose([0.1, 0.2, 0.995], [0.0, 0.0, 0.3]);
    let d = detect(&cube, &cube, &rel, &mut WarmState::cold());
    assert!(d.contact.touching);
    assert!((d.contact.penetration - 0.005).abs() < 1e-14);
    assert!((d.contact.normal - Vector3::z()).norm() < 1e-14);
    assert_eq!(d.contact.kind, ContactKind::FaceFace);
    let mut list = Vec::new();
    contact_list(&cube, &cube, &rel, &d, &mut list);
    // The rotated square over the square: 4 + 4 corners inside the other face? The top square
    // turned by 0.3 rad and shifted: every basic contact has depth 0.005.
    assert!(list.len() >= 4, "{list:?}");
    for c in &list {
        assert!((c.depth - 0.005).abs() < 1e-12, "{c:?}");
    }
}

#[test]
fn separated_cubes_are_excluded_by_the_motion_certificate_then_by_one_cover() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let rel = pose([1.02, 0.1, 0.0], [0.1, 0.0, 0.0]);
    let mut warm = WarmState::cold();
    let d = detect(&cube, &cube, &rel, &mut warm);
    assert!(!d.contact.touching);
    assert!(d.contact.separation > 0.0 && d.contact.separation <= 0.02 + 1e-12);
    // Unmoved: the plane's own certificate, no cover evaluated, the gap kept but for round-off.
    let again = detect(&cube, &cube, &rel, &mut warm);
    assert!(!again.contact.touching);
    assert_eq!(again.contact.iterations, 0);
    assert!((again.contact.separation - d.contact.separation).abs() < 1e-12);
    assert_eq!(again.contact.normal, d.contact.normal);
    // Moved by 0.004 along the normal and turned by 1e-3 rad (up to 0.87e-3 of a vertex): the
    // bound 0.00487 is below the gap, so still certified, by the gap less the bound.
    let moved = pose([1.016, 0.1, 0.0], [0.101, 0.0, 0.0]);
    let certified = detect(&cube, &cube, &moved, &mut warm);
    assert_eq!(certified.contact.iterations, 0);
    let bound = 0.004 + 2.0 * (0.0005f64).sin() * 0.75f64.sqrt();
    assert!((certified.contact.separation - (d.contact.separation - bound)).abs() < 1e-9);
    // Moved by more than the gap could take (0.03 away, but turned by 0.05 rad about z): the
    // bound no longer certifies, and the plane is re-checked with one support search: still
    // separating, by a gap no larger than the largest separating-axis gap.
    let turned = pose([1.05, 0.1, 0.0], [0.1, 0.0, 0.05]);
    let rechecked = detect(&cube, &cube, &turned, &mut warm);
    assert!(!rechecked.contact.touching);
    assert_eq!(rechecked.contact.iterations, 1);
    let (depth, _) = sat(&cube, &cube, &turned);
    assert!(rechecked.contact.separation > 0.0 && rechecked.contact.separation <= -depth + 1e-12);
    // The same warm state handed, by mistake, to another pair of shapes: the certificate is not
    // trusted (the shapes' fingerprint differs) and the pair is evaluated in full: touching here.
    let mut stale = warm;
    let unmoved = detect(&cube, &cube, &turned, &mut stale);
    assert_eq!(unmoved.contact.iterations, 0);
    let slab = cuboid(0.5, 0.5, 0.6);
    let other = detect(&slab, &slab, &turned, &mut warm);
    assert!(other.contact.iterations >= 1);
    let (depth, _) = sat(&slab, &slab, &turned);
    assert_eq!(other.contact.touching, depth > 0.0);
}

#[test]
fn a_scratch_state_gets_the_same_contact_and_no_certificate() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let (pa, pb) = (
        pose([0.2, -0.1, 0.3], [0.0, 0.2, 0.0]),
        pose([1.3, 0.0, 0.3], [0.1, 0.2, 0.0]),
    );
    let (mut kept, mut scratch) = (WarmState::cold(), WarmState::cold());
    let with = world_contact_kept(&cube, &pa, &cube, &pb, &mut kept, true);
    let without = world_contact_kept(&cube, &pa, &cube, &pb, &mut scratch, false);
    assert!(!with.touching);
    assert_eq!(with, without);
    assert!(certified_world(&cube, &pa, &cube, &pb, &kept).is_some());
    assert!(certified_world(&cube, &pa, &cube, &pb, &scratch).is_none());
}

#[test]
fn crossing_edges_give_an_edge_edge_contact() {
    let cube = cuboid(0.5, 0.5, 0.5);
    // B: an edge down along y (turned 45 deg about y... about x), A: an edge up along x.
    let a_pose = pose([0.0, 0.0, 0.0], [std::f64::consts::FRAC_PI_4, 0.0, 0.0]);
    let b_pose = pose(
        [0.0, 0.0, std::f64::consts::SQRT_2 - 0.01],
        [0.0, std::f64::consts::FRAC_PI_4, 0.0],
    );
    let rel = a_pose.relative(&b_pose);
    let d = detect(&cube, &cube, &rel, &mut WarmState::cold());
    assert!(d.contact.touching);
    assert!(
        (d.contact.penetration - 0.01).abs() < 1e-12,
        "{:?}",
        d.contact
    );
    assert_eq!(d.contact.kind, ContactKind::EdgeEdge);
    assert!(matches!(d.cover.cover, Cover::EdgeEdge { .. }));
}

/// The exact hull's minimum translation distance of point sets `a` and `b` (B's placed in A's
/// frame), by brute force independent of the hulls: the smallest overlap over the normals of
/// every plane through three points of either set and the cross products of every direction
/// between two points of `a` with every one between two points of `b` (a superset of the exact
/// hulls' separating axes; the overlap along any direction bounds the minimum from above).
pub(super) fn exact_hull_depth(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    let overlap = |u: &Vector3<f64>| {
        let high = a.iter().map(|x| u.dot(x)).fold(f64::MIN, f64::max);
        let low = b.iter().map(|x| u.dot(x)).fold(f64::MAX, f64::min);
        high - low
    };
    let along = |u: Vector3<f64>| {
        if u.norm() > 1e-300 {
            let u = u.normalize();
            overlap(&u).min(overlap(&-u))
        } else {
            f64::INFINITY
        }
    };
    let differences = |set: &[Vector3<f64>]| -> Vec<Vector3<f64>> {
        let mut out = Vec::new();
        for (i, p) in set.iter().enumerate() {
            for q in set.iter().skip(i + 1) {
                out.push(q - p);
            }
        }
        out
    };
    let mut best = f64::INFINITY;
    for set in [a, b] {
        for (i, p) in set.iter().enumerate() {
            for (j, q) in set.iter().enumerate().skip(i + 1) {
                for r in set.iter().skip(j + 1) {
                    best = best.min(along((q - p).cross(&(r - p))));
                }
            }
        }
    }
    let directions_b = differences(b);
    for u in differences(a) {
        for v in &directions_b {
            best = best.min(along(u.cross(v)));
        }
    }
    best
}

/// `n` pseudo-random points (seeded) in a box of half-sides 1 to 3, 1 and 0.5 to 1.5 (aspect
/// ratio up to 3).
pub(super) fn random_points(seed: u64, n: usize) -> Vec<Vector3<f64>> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
    };
    let scale = Vector3::new(1.0 + next().abs() * 2.0, 1.0, 0.5 + next().abs());
    (0..n)
        .map(|_| {
            let v = Vector3::new(next(), next(), next());
            v.component_mul(&scale)
        })
        .collect()
}

/// The hull of [`random_points`]: a body of up to `n` vertices, aspect ratio up to 3.
pub(super) fn random_body(seed: u64, n: usize) -> Polyhedron {
    Polyhedron::new(&random_points(seed, n)).unwrap()
}

/// The hull of `n` pseudo-random points (seeded) on and inside an ellipsoid of semi-axes 1, 0.7
/// and 0.5, three in four on its surface: a rounded body of many small faces, as a scanned
/// particle's hull.
pub(super) fn rounded_body(seed: u64, n: usize) -> Polyhedron {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
    };
    let pts: Vec<Vector3<f64>> = (0..n)
        .map(|k| {
            let v = Vector3::new(next(), next(), next()).normalize();
            let r = if k % 4 == 0 {
                0.5 + 0.5 * next().abs()
            } else {
                1.0
            };
            Vector3::new(v.x, 0.7 * v.y, 0.5 * v.z) * r
        })
        .collect();
    Polyhedron::new(&pts).unwrap()
}

#[test]
fn a_rounded_body_of_many_faces_matches_the_reference_cold_and_warm() {
    // A rounded hull of 100 points (more than `MANY_FACES` faces, so that the ball certificate of
    // a first cover is checked through the face planes' tree) and a smaller one turning and
    // sliding across it in light contact: every answer, cold and warm, has the SAT depth, and
    // the face planes' tree gives the scan's verdict on the vertex of every v-f cover of A.
    let (a, b) = (rounded_body(3, 100), rounded_body(4, 20));
    assert!(a.num_faces() > 128, "{}", a.num_faces());
    let mut warm = WarmState::cold();
    for step in 0..20 {
        let t = step as f64 * 0.05;
        let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.3 + t, -0.2, 0.1 * t));
        let u = Vector3::new(t.cos(), 0.4, t.sin()).normalize();
        // B's point with normal -u placed 0.4 % of the size below A's point with normal u.
        let pa = a.support_point(&u);
        let pb = rotation * b.support_point(&(rotation.inverse() * -u));
        let rel = Pose::new(pa - u * 0.008 - pb, rotation);
        let (depth, _) = sat(&a, &b, &rel);
        assert!(depth > 0.0, "step {step}");
        for (name, got) in [
            ("cold", detect(&a, &b, &rel, &mut WarmState::cold())),
            ("warm", detect(&a, &b, &rel, &mut warm)),
        ] {
            assert!(got.contact.touching, "step {step} {name}");
            assert!(
                (got.contact.penetration - depth).abs() <= 1e-9 * depth,
                "step {step} {name}: {} against {depth}",
                got.contact.penetration
            );
        }
        let pair = PolyhedronPair::new(&a, &b, &rel);
        for f in 0..a.num_faces() {
            let e = pair.face_a_cover(f, pair.b_lowest(&a.face_normal(f), 0));
            let Cover::FaceVertex { vertex_b, .. } = e.cover else {
                unreachable!()
            };
            let y = pair.b_vertex(vertex_b);
            let scan = (0..a.num_faces())
                .map(|g| a.face_offset(g) - a.face_normal(g).dot(&y))
                .fold(f64::INFINITY, f64::min);
            for depth in [e.overlap, scan, scan + 1e-12, scan - 1e-12] {
                assert_eq!(a.below_every_face_plane(&y, depth), scan >= depth);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

    #[test]
    fn matches_brute_force_sat(sa in 0u64..1000, sb in 0u64..1000, na in 4usize..48, nb in 4usize..48,
                               dir in crate::unit_direction(), rot in prop::array::uniform3(-3.0f64..3.0),
                               dist in 0.0f64..3.0) {
        let (points_a, points_b) = (random_points(sa, na), random_points(sb + 7919, nb));
        let (a, b) = (Polyhedron::new(&points_a).unwrap(), Polyhedron::new(&points_b).unwrap());
        let rel = pose((dir * dist).into(), rot);
        let (mut depth, _) = sat(&a, &b, &rel);
        if depth > 1e-9 && (!a.creased_faces().is_empty() || !b.creased_faces().is_empty()) {
            // A face merged from facets coplanar only within the hull's tolerance: the answer
            // is the exact hull's (`crease.rs`), below the merged face's SAT by up to its
            // flatness (2.6e-9 on a depth of 0.204 in a draw at 1000 times the cases).
            let placed: Vec<_> = points_b.iter().map(|p| rel.transform_point(p)).collect();
            depth = exact_hull_depth(&points_a, &placed);
        }
        let got = detect(&a, &b, &rel, &mut WarmState::cold());
        if depth > 1e-9 {
            prop_assert!(got.contact.touching);
            prop_assert!((got.contact.penetration - depth).abs() <= 1e-9 * (1.0 + depth), "{} vs {}", got.contact.penetration, depth);
        } else if depth < -1e-9 {
            prop_assert!(!got.contact.touching);
            prop_assert!(got.contact.separation <= -depth + 1e-12);
        }
        // The answer is the bodies' own overlap (or gap) along its normal.
        let along = overlap_over_vertices(&a, &placed_vertices(&b, &rel), &got.contact.normal);
        let signed = got.contact.penetration - got.contact.separation;
        prop_assert!((signed - along).abs() <= 1e-12 * (1.0 + along.abs()), "{} vs {}", signed, along);
    }

    #[test]
    fn warm_sequence_equals_cold(sa in 0u64..1000, sb in 0u64..1000, na in 4usize..20, nb in 4usize..20,
                                 rot in prop::array::uniform3(-3.0f64..3.0), spin in prop::array::uniform3(-0.02f64..0.02)) {
        let a = random_body(sa, na);
        let b = random_body(sb + 104729, nb);
        let mut warm = WarmState::cold();
        let mut p = pose([0.0, 0.0, 1.2], rot);
        let step = pose([0.003, -0.002, -0.004], spin);
        for _ in 0..40 {
            p = step.compose(&p);
            let warm_d = detect(&a, &b, &p, &mut warm);
            let cold_d = detect(&a, &b, &p, &mut WarmState::cold());
            prop_assert_eq!(warm_d.contact.touching, cold_d.contact.touching);
            if cold_d.contact.touching {
                prop_assert!((warm_d.contact.penetration - cold_d.contact.penetration).abs() < 1e-12);
            } else {
                // Apart (by the motion certificate or a search): the reported normal is a plane
                // that separates the bodies by at least the reported gap (brute force).
                let n = warm_d.contact.normal;
                let top = a.vertices().iter().map(|v| n.dot(v)).fold(f64::MIN, f64::max);
                let low = b.vertices().iter().map(|v| n.dot(&p.transform_point(v))).fold(f64::MAX, f64::min);
                prop_assert!(low - top >= warm_d.contact.separation - 1e-12,
                             "gap {} along the normal, {} reported", low - top, warm_d.contact.separation);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(300)))]

    /// The world-frame entry point (the certificate on the two world poses, far from the origin)
    /// agrees in kind with a cold evaluation at every step, and a gap it reports is one along its
    /// normal between the world-placed vertices.
    #[test]
    fn world_sequence_equals_cold(sa in 0u64..1000, sb in 0u64..1000, na in 4usize..20, nb in 4usize..20,
                                  rot in prop::array::uniform3(-3.0f64..3.0),
                                  spin_a in prop::array::uniform3(-0.01f64..0.01),
                                  spin_b in prop::array::uniform3(-0.02f64..0.02),
                                  far in prop::array::uniform3(-1e3f64..1e3)) {
        let a = random_body(sa, na);
        let b = random_body(sb + 104729, nb);
        let mut warm = WarmState::cold();
        let mut pa = pose(far, [0.3, -0.2, 0.1]);
        let mut pb = pose([far[0], far[1], far[2] + 1.2], rot);
        let step_a = pose([0.0; 3], spin_a);
        let step_b = pose([0.003, -0.002, -0.004], spin_b);
        for _ in 0..40 {
            pa = Pose::new(pa.position, step_a.rotation * pa.rotation);
            pb = Pose::new(pb.position + step_b.position, step_b.rotation * pb.rotation);
            let got = world_contact(&a, &pa, &b, &pb, &mut warm);
            let cold = fast_direct_search(&a, &b, &pa.relative(&pb), &mut WarmState::cold());
            prop_assert_eq!(got.touching, cold.contact.touching);
            if !got.touching {
                prop_assert!(got.separation > 0.0);
                let n = got.normal;
                let top = a.vertices().iter().map(|v| n.dot(&pa.transform_point(v))).fold(f64::MIN, f64::max);
                let low = b.vertices().iter().map(|v| n.dot(&pb.transform_point(v))).fold(f64::MAX, f64::min);
                // Round-off of the world placement (coordinates up to 1e3) in the brute force.
                prop_assert!(low - top >= got.separation - 1e-11,
                             "gap {} along the normal, {} reported", low - top, got.separation);
                prop_assert!((got.point_b - got.point_a - n * got.separation).norm() < 1e-9);
            }
        }
    }
}

fn arb_pose() -> impl Strategy<Value = Pose> {
    (
        prop::array::uniform3(-2.0f64..2.0),
        prop::array::uniform3(-3.0f64..3.0),
    )
        .prop_map(|(p, r)| pose(p, r))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

    #[test]
    fn swapping_a_and_b_flips_the_normal(sa in 0u64..1000, sb in 0u64..1000, na in 4usize..25, nb in 4usize..25,
                                         pa in arb_pose(), pb in arb_pose()) {
        use crate::narrow::collide;
        use crate::shapes::Shape;
        let a = Shape::Polyhedron(random_body(sa, na));
        let b = Shape::Polyhedron(random_body(sb + 31, nb));
        let ab = collide(&a, &pa, &b, &pb, None).unwrap();
        let ba = collide(&b, &pb, &a, &pa, None).unwrap();
        prop_assert_eq!(ab.touching, ba.touching);
        if ab.touching {
            let scale = 1.0 + ab.penetration;
            prop_assert!((ab.penetration - ba.penetration).abs() <= 1e-12 * scale);
            // The normal is unique unless two covers tie in depth.
            let (depth, _) = sat(
                match &a { Shape::Polyhedron(p) => p, _ => unreachable!() },
                match &b { Shape::Polyhedron(p) => p, _ => unreachable!() },
                &pa.relative(&pb),
            );
            prop_assert!((ab.penetration - depth).abs() <= 1e-9 * scale);
            if (ab.normal + ba.normal).norm() > 1e-9 {
                // A tie: B's answer along A's normal must be as deep.
                let ha = |n: &Vector3<f64>| {
                    let (sa, sb) = match (&a, &b) { (Shape::Polyhedron(x), Shape::Polyhedron(y)) => (x, y), _ => unreachable!() };
                    let top = sa.vertices().iter().map(|v| n.dot(&pa.transform_point(v))).fold(f64::MIN, f64::max);
                    let low = sb.vertices().iter().map(|v| n.dot(&pb.transform_point(v))).fold(f64::MAX, f64::min);
                    top - low
                };
                prop_assert!((ha(&-ba.normal) - ab.penetration).abs() <= 1e-9 * scale);
            }
        }
    }

    #[test]
    fn rigid_motion_of_both_bodies_moves_the_contact(sa in 0u64..1000, sb in 0u64..1000, na in 4usize..25,
                                                     nb in 4usize..25, pa in arb_pose(), pb in arb_pose(), m in arb_pose()) {
        use crate::narrow::collide;
        use crate::shapes::Shape;
        let a = Shape::Polyhedron(random_body(sa, na));
        let b = Shape::Polyhedron(random_body(sb + 31, nb));
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        let moved = collide(&a, &m.compose(&pa), &b, &m.compose(&pb), None).unwrap();
        prop_assert_eq!(c.touching, moved.touching);
        prop_assert!((c.penetration - moved.penetration).abs() < 1e-11);
        prop_assert!((c.separation - moved.separation).abs() < 1e-11);
        if c.touching && c.kind == moved.kind {
            prop_assert!((m.transform_vector(&c.normal) - moved.normal).norm() < 1e-9);
            prop_assert!((m.transform_point(&c.point) - moved.point).norm() < 1e-9);
        }
    }
}

/// A plate with a rim edge a few hull tolerances long (two input points 5.4e-8 apart, tolerance
/// 1.2e-8) and a tetrahedron through it, found by a stress run over extreme inputs. The edge's
/// tail-to-head vector points 60 degrees off the line where its two (merged) face planes meet;
/// an edge-edge axis built on it once declared the pair apart by 0.157 when B was body A. The
/// exact depth (0.0112211589973 along the plates' normal) is that of the brute-force reference
/// of the validation, which builds its own hull.
#[test]
fn a_rim_edge_a_few_tolerances_long_does_not_fake_a_separating_axis() {
    let points =
        |xyz: &[[f64; 3]]| -> Vec<Vector3<f64>> { xyz.iter().map(|&p| p.into()).collect() };
    let needle = Polyhedron::new(&points(&[
        [
            0.013650759773849535,
            0.0024915704787984065,
            0.006171809634919651,
        ],
        [0.41970433264315904, 0.08492240912479732, 0.246365154796562],
        [
            0.0037516738176108073,
            -0.01085075755039853,
            -0.010419158047656188,
        ],
        [
            -0.14248826596533828,
            -0.019782172566707407,
            -0.06700980735029105,
        ],
    ]))
    .unwrap();
    let plate = Polyhedron::new(&points(&[
        [
            -0.1893205165473634,
            -0.2705571373477325,
            0.08412775385702231,
        ],
        [
            0.30483884718785603,
            0.5390278590850741,
            -0.025995364968850052,
        ],
        [
            0.04777441552791135,
            0.08778213617439654,
            0.019505775916682826,
        ],
        [
            -0.07517523184867833,
            -0.11628073114421958,
            0.04063436800132265,
        ],
        [
            0.45438245817656364,
            0.7153577383258336,
            -0.22143695355771253,
        ],
        [
            0.0925805508803426,
            0.1411853085751973,
            -0.006265792595310029,
        ],
        [
            -0.18932049043642948,
            -0.27055713527104597,
            0.08412770661480364,
        ],
    ]))
    .unwrap();
    assert_eq!((plate.num_vertices(), plate.num_faces()), (7, 8));
    let quaternion = |w, x, y, z| Pose::from_wxyz([0.0; 3], [w, x, y, z]).unwrap().rotation;
    let needle_pose = Pose::new(
        Vector3::zeros(),
        quaternion(
            -0.8416537627928943,
            -0.4870079414479611,
            -0.21098352409456214,
            0.09964015808809751,
        ),
    );
    let plate_pose = Pose::new(
        Vector3::new(4.4e-12, -3.5e-12, -6.3e-12),
        quaternion(
            -0.05519484143648796,
            -0.5739371963844109,
            0.7823113126387342,
            -0.23566636205165953,
        ),
    );
    let depth = 0.01122115899727305;
    for (a, pose_a, b, pose_b) in [
        (&needle, &needle_pose, &plate, &plate_pose),
        (&plate, &plate_pose, &needle, &needle_pose),
    ] {
        let rel = pose_a.relative(pose_b);
        let d = detect(a, b, &rel, &mut WarmState::cold());
        assert!(d.contact.touching, "{:?}", d.contact);
        assert!(
            (d.contact.penetration - depth).abs() <= 1e-9,
            "{:?}",
            d.contact
        );
    }
}

#[test]
fn arcs_cross_only_where_the_arcs_themselves_meet() {
    let a = Vector3::new(1.0, 0.0, 0.0);
    let b = Vector3::new(0.0, 1.0, 0.0);
    let up = Vector3::new(0.5, 0.5, 1.0).normalize();
    let down = Vector3::new(0.5, 0.5, -1.0).normalize();
    assert!(arcs_cross(&a, &b, &up, &down));
    assert!(arcs_cross(&a, &b, &down, &up));
    // The antipodal arc meets only the great circle's other half.
    assert!(!arcs_cross(&a, &b, &-down, &-up));
    // An arc beside the other misses it.
    let side_up = Vector3::new(1.0, -0.2, 1.0).normalize();
    let side_down = Vector3::new(1.0, -0.2, -1.0).normalize();
    assert!(!arcs_cross(&a, &b, &side_up, &side_down));
}

#[test]
fn crossing_edges_apart_are_excluded_by_the_reference_plane() {
    let cube = cuboid(0.5, 0.5, 0.5);
    // The crossing edges of the test above, 0.02 apart.
    let a_pose = pose([0.0, 0.0, 0.0], [std::f64::consts::FRAC_PI_4, 0.0, 0.0]);
    let at = |z: f64, turn: f64| {
        a_pose.relative(&pose(
            [0.0, 0.0, std::f64::consts::SQRT_2 + z],
            [0.0, std::f64::consts::FRAC_PI_4, turn],
        ))
    };
    let mut warm = WarmState::cold();
    let first = detect(&cube, &cube, &at(0.02, 0.0), &mut warm);
    assert!(!first.contact.touching);
    assert!(matches!(first.cover.cover, Cover::EdgeEdge { .. }));
    assert!((first.contact.separation - 0.02).abs() < 1e-12);
    // Turned by 2e-3 rad about the vertical and 5e-3 closer: the plane of the first query still
    // separates, by at least 0.02 - 0.005 - 2 sin(1e-3) sqrt(3)/2.
    let moved = at(0.015, 2e-3);
    let certified = detect(&cube, &cube, &moved, &mut warm);
    assert_eq!(certified.contact.iterations, 0);
    assert_eq!(certified.contact.kind, ContactKind::EdgeEdge);
    let bound = 0.005 + 2.0 * 1e-3f64.sin() * 0.75f64.sqrt();
    assert!(certified.contact.separation >= 0.02 - bound - 1e-9);
    let (depth, _) = sat(&cube, &cube, &moved);
    assert!(certified.contact.separation <= -depth + 1e-12);
    // Closer than the bound allows: the first query was cold, so its record took the gap for
    // B's other vertices too, and the pair is evaluated again (apart, by one cover).
    let close = detect(&cube, &cube, &at(0.001, 2e-3), &mut warm);
    assert!(close.contact.iterations >= 1);
    let (depth, _) = sat(&cube, &cube, &at(0.001, 2e-3));
    assert!(!close.contact.touching && depth < 0.0);
    // That evaluation was warm-started, so its record scanned B's other vertices (0.7 higher than
    // the edge): closer still, the edge, evaluated where it is (the turn tilts it a little), is
    // above the plane and the others cannot have come down that far: certified, by the edge's
    // own distance to the plane.
    let closer = detect(&cube, &cube, &at(0.0005, 3e-3), &mut warm);
    assert_eq!(closer.contact.iterations, 0);
    let (depth, _) = sat(&cube, &cube, &at(0.0005, 3e-3));
    assert!(
        closer.contact.separation > 0.5 * -depth,
        "{} {depth}",
        closer.contact.separation
    );
    assert!(closer.contact.separation <= -depth + 1e-12);
    // Turned by 1 rad about the vertical: the edge is as high as before, but the other vertices
    // may have come down by 2 sin(0.5) sqrt(3)/2 = 0.83, more than their 0.72: evaluated again.
    let turned = detect(&cube, &cube, &at(0.015, 1.0), &mut warm);
    assert!(turned.contact.iterations >= 1);
    let (depth, _) = sat(&cube, &cube, &at(0.015, 1.0));
    assert_eq!(turned.contact.touching, depth > 0.0);
    // Touching: the edge's own distance is negative, so never certified.
    let touching = detect(&cube, &cube, &at(-0.001, 1.0), &mut warm);
    assert!(touching.contact.iterations >= 1);
    let (depth, _) = sat(&cube, &cube, &at(-0.001, 1.0));
    assert_eq!(touching.contact.touching, depth > 0.0);
    assert!(touching.contact.touching);
}

#[test]
fn a_warm_face_on_face_contact_settles_its_face_edges_without_walking_them() {
    // B rests on A's top face, rocked 0.01 rad and twisted; a step later it has slid a little.
    // The e-e covers of the top face's four edges lie where B's map is far from the face normal,
    // or their witness bound is above the face's overlap: no crossing is evaluated.
    let cube = cuboid(0.5, 0.5, 0.5);
    let mut warm = WarmState::cold();
    let first = pose([0.1, 0.2, 0.996], [0.01, 0.0, 0.3]);
    let cold = detect(&cube, &cube, &first, &mut warm);
    let moved = pose([0.102, 0.2, 0.996], [0.01, 0.0, 0.301]);
    let d = detect(&cube, &cube, &moved, &mut warm);
    let (depth, normal) = sat(&cube, &cube, &moved);
    assert!(cold.contact.touching && d.contact.touching);
    assert!((d.contact.penetration - depth).abs() < 1e-12 * depth.abs().max(1.0));
    assert!((d.contact.normal - normal).norm() < 1e-12);
    // The seed, B's bottom face and nothing else.
    assert!(d.contact.iterations <= 2, "{}", d.contact.iterations);
    assert!(!matches!(d.cover.cover, Cover::EdgeEdge { .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(300)))]

    /// The contact type counted without collecting the vertices is the patch's.
    #[test]
    fn the_counted_contact_type_is_the_patch_type(sa in 0u64..1000, sb in 0u64..1000,
                                                  na in 4usize..30, nb in 4usize..30,
                                                  n in crate::unit_direction(),
                                                  rot in prop::array::uniform3(-3.0f64..3.0),
                                                  depth in 0.0f64..0.6, cube in 0usize..3) {
        let (a, b) = match cube {
            0 => (random_body(sa, na), random_body(sb, nb)),
            1 => (cuboid(0.5, 0.5, 0.5), random_body(sb, nb)),
            _ => (cuboid(0.5, 0.5, 0.5), cuboid(0.5, 0.3, 0.8)),
        };
        let rel = pose([0.3, -0.2, 1.1], rot);
        let pair = PolyhedronPair::new(&a, &b, &rel);
        // The support vertices along the normal, as a search leaves them; and normals where a
        // cube's face or edge gives ties.
        for normal in [n, Vector3::z(), Vector3::new(1.0, 0.0, 1.0).normalize()] {
            let top_a = a.support_vertex(&normal, 0);
            let bottom_b = b.support_vertex(&-(pair.rotation_t * normal), 0);
            let support = (top_a, bottom_b);
            prop_assert_eq!(
                contact_kind(&pair, &normal, depth, support),
                Patch::<3>::new(&pair, &normal, depth, support).kind()
            );
        }
    }
}

/// A pair of bodies whose crossing edges lean (B's edge 11 joins merged faces, so its direction
/// is their line, 1e-8 off its span): the bodies of two proptest draws, B at `distance` along
/// `direction`, turned by `turn` (axis times angle).
fn leaning_crossing(
    seed_a: u64,
    points_a: usize,
    direction: [f64; 3],
    distance: f64,
    turn: [f64; 3],
) -> (Polyhedron, Polyhedron, Pose) {
    let b = random_body(565 + 7919, 28);
    let edge = b.edge(11);
    let span = (b.vertex(edge.head()) - b.vertex(edge.tail())).normalize();
    assert!((edge.direction() - span).norm() > 1e-9);
    let d = Vector3::from(direction).normalize();
    (
        random_body(seed_a, points_a),
        b,
        pose((d * distance).into(), turn),
    )
}

#[test]
fn an_edge_along_its_faces_line_gives_its_own_support_gap() {
    // The search's axis is square to the edges' directions, so not to B's edge 11 itself: its
    // ends differ by 1.1e-8 in height along it. The answer took the gap from the edges' tails and
    // reported the pair 1.1e-8 further apart than the support planes along its own axis are (a
    // proptest draw CI met); it now takes the support vertices' gap along that axis or the one
    // square to both edges' spans, whichever is larger. The motion certificate recorded from
    // that answer kept the same tail for A's side.
    let (a, b, rel) = leaning_crossing(
        166,
        9,
        [-0.9556626350165808, 0.7822686716065697, 0.0],
        2.8481346724309566,
        [-2.2895488995545, -1.1838537657533104, -2.5127778249858803],
    );
    let (depth, _) = sat(&a, &b, &rel);
    // Both orders, cold, then warm at the same placement: the second answer is the motion
    // certificate's, whose plane keeps A's support value along the axis (it kept the tail's of
    // A's edge, the tilted one in the swapped order).
    let swapped = rel.relative(&pose([0.0; 3], [0.0; 3]));
    for (x, y, placed) in [(&a, &b, &rel), (&b, &a, &swapped)] {
        let mut warm = WarmState::cold();
        for query in 0..2 {
            let got = detect(x, y, placed, &mut warm);
            let gap_along =
                -overlap_over_vertices(x, &placed_vertices(y, placed), &got.contact.normal);
            assert!(!got.contact.touching);
            assert_eq!(got.contact.iterations == 0, query == 1);
            // A certified lower bound of the gap along its normal, and (cold) the SAT's gap.
            assert!(got.contact.separation <= gap_along + 1e-12);
            let off = got.contact.separation + depth;
            assert!(
                off <= 1e-12 && (query == 1 || off >= -1e-12),
                "query {query}: {} against the SAT's {}",
                got.contact.separation,
                -depth
            );
        }
    }
}

#[test]
fn a_crossing_of_leaning_edges_overlaps_by_its_support_vertices() {
    // A proptest draw: the search's best cover is a crossing of B's leaning edge 11, and the
    // edges' tails understated the overlap along its axis by 2.3e-9 (on a depth of 1.16). The
    // answer is now the overlap of the support vertices along that axis or the one square to the
    // edges' spans, whichever is smaller: the bodies' own overlap along the reported normal, and
    // the SAT's minimum over all the edges' directions and spans.
    let (a, b, rel) = leaning_crossing(
        814,
        4,
        [0.618575931783913, 0.6672197934641095, 0.0],
        0.49937740768108274,
        [0.0, -0.901182344276469, 0.0],
    );
    let (depth, _) = sat(&a, &b, &rel);
    let swapped = rel.relative(&pose([0.0; 3], [0.0; 3]));
    for (x, y, placed) in [(&a, &b, &rel), (&b, &a, &swapped)] {
        let got = detect(x, y, placed, &mut WarmState::cold());
        let along = overlap_over_vertices(x, &placed_vertices(y, placed), &got.contact.normal);
        assert!(got.contact.touching);
        assert!((got.contact.penetration - along).abs() <= 1e-12);
        assert!(
            (got.contact.penetration - depth).abs() <= 1e-12,
            "{} against the SAT's {}",
            got.contact.penetration,
            depth
        );
    }
}

#[test]
fn a_walk_starts_only_in_a_cell_that_holds_its_first_end() {
    // Two rough pairs whose B has an edge between near-duplicate vertices that leans off its
    // span: the walk over B's map started at the vertex lowest along the piece's first end, whose
    // cell (on the arcs) did not hold that end, met none of the cell's arcs and ended there,
    // missing the crossing that gave the depth (1.2e-3 and 6.6e-4 of the size too deep).
    use super::rough_cases::{RoughPair, SEED_27, SEED_51};
    let points =
        |xyz: &[[f64; 3]]| -> Vec<Vector3<f64>> { xyz.iter().map(|&p| p.into()).collect() };
    for (case, pair) in [("seed 27", &SEED_27), ("seed 51", &SEED_51)] {
        let RoughPair { a, b, .. } = pair;
        let (a, b) = (
            Polyhedron::new(&points(a)).unwrap(),
            Polyhedron::new(&points(b)).unwrap(),
        );
        let rel = pair.relative();
        let back = rel.relative(&Pose::identity());
        for (x, y, rel) in [(&a, &b, rel), (&b, &a, back)] {
            let d = detect(x, y, &rel, &mut WarmState::cold());
            let (depth, _) = sat(x, y, &rel);
            let slack = 1e-12 * (x.bounding_radius() + y.bounding_radius());
            // Where a body has creased faces the answer is the exact hull's (`crease.rs`), below
            // the merged faces' SAT by up to their flatness (6.1e-10 at seed 51, whose B has two).
            let creased = |p: &Polyhedron| {
                if p.creased_faces().is_empty() {
                    0.0
                } else {
                    p.flatness()
                }
            };
            let below = creased(x) + creased(y);
            assert!(d.contact.touching, "{case}: {:?}", d.contact);
            assert!(
                d.contact.penetration <= depth + slack
                    && d.contact.penetration >= depth - slack - below,
                "{case}: {:e} against {depth:e}",
                d.contact.penetration
            );
        }
    }
}

#[test]
fn a_crossing_of_a_leaning_edge_overlaps_by_its_end_farther_out() {
    // A rough pair whose B has a rim edge between near-duplicate vertices, 5.5e-7 long, whose
    // direction (its faces' line) runs across its span: the crossing of A's edge 4 with it,
    // evaluated from the edges' tails, understated the overlap along its axis by 5.2e-7 (the
    // head lies that much lower), so it barred the true minimum, the crossing with B's rim
    // edge 0, and the answer along its axis came out 2.2e-7 (7.3 hull tolerances) too deep.
    use super::rough_cases::{RoughPair, SEED_100};
    let points =
        |xyz: &[[f64; 3]]| -> Vec<Vector3<f64>> { xyz.iter().map(|&p| p.into()).collect() };
    let RoughPair { a, b, .. } = &SEED_100;
    let (a, b) = (
        Polyhedron::new(&points(a)).unwrap(),
        Polyhedron::new(&points(b)).unwrap(),
    );
    assert!(b.has_leaning_edges());
    let rel = SEED_100.relative();
    let back = rel.relative(&Pose::identity());
    for (x, y, rel) in [(&a, &b, rel), (&b, &a, back)] {
        let (depth, _) = sat(x, y, &rel);
        let slack = 1e-12 * (x.bounding_radius() + y.bounding_radius());
        let mut warm = WarmState::cold();
        for _ in 0..2 {
            let d = detect(x, y, &rel, &mut warm);
            assert!(d.contact.touching, "{:?}", d.contact);
            assert!(
                (d.contact.penetration - depth).abs() <= slack,
                "{:e} against {depth:e} (warm started: {})",
                d.contact.penetration,
                d.contact.warm_started
            );
        }
    }
}
