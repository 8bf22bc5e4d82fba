//! The common-normal kernel against closed forms, symmetries and warm-started sequences.

use super::*;
use crate::narrow::collide;
use crate::shapes::{Shape, Superellipsoid};
use nalgebra::UnitQuaternion;
use proptest::prelude::*;

fn pose(p: [f64; 3], axis_angle: [f64; 3]) -> Pose {
    Pose::new(
        Vector3::from(p),
        UnitQuaternion::from_scaled_axis(Vector3::from(axis_angle)),
    )
}

fn shape(r: [f64; 3], e: [f64; 2]) -> Shape {
    Shape::Superellipsoid(Superellipsoid::new(r[0], r[1], r[2], e[0], e[1]).unwrap())
}

/// Two superellipsoids of unlike radii and squareness.
fn unlike_pair() -> (Superellipsoid, Superellipsoid) {
    (
        Superellipsoid::new(1.0, 1.4, 0.8, 0.6, 1.3).unwrap(),
        Superellipsoid::new(0.9, 0.7, 1.5, 1.2, 0.5).unwrap(),
    )
}

/// The paper's construction: B's pose, turned by `rotation`, that places B's point with normal
/// `-u` at `depth` along `-u` from A's point with normal `u` (A at the origin, unrotated): the
/// common normal `u` with that depth (apart by `-depth` when negative).
fn constructed(
    a: &Superellipsoid,
    b: &Superellipsoid,
    u: &Vector3<f64>,
    rotation: UnitQuaternion<f64>,
    depth: f64,
) -> Pose {
    let p2 = a.support_point(u) - u * depth;
    Pose::new(
        p2 - rotation * b.support_point(&(rotation.inverse() * -u)),
        rotation,
    )
}

#[test]
fn ellipsoids_along_an_axis_match_the_closed_form() {
    // Semi-axes (1, 1.5, 2) stacked along each body axis, rotated as a whole.
    let s = shape([1.0, 1.5, 2.0], [1.0, 1.0]);
    let turn = pose([0.3, -0.2, 0.5], [0.4, 1.0, -0.3]);
    for (axis, half) in [(0usize, 1.0), (1, 1.5), (2, 2.0)] {
        for depth in [0.1, 1e-4, -0.05] {
            let mut p = [0.0; 3];
            p[axis] = 2.0 * half - depth;
            let (a, b) = (
                turn.compose(&pose([0.0; 3], [0.0; 3])),
                turn.compose(&pose(p, [0.0; 3])),
            );
            let c = collide(&s, &a, &s, &b, None).unwrap();
            let n = turn.transform_vector(&Vector3::ith(axis, 1.0));
            assert!(
                (c.normal - n).norm() < 1e-9,
                "axis {axis} depth {depth}: {:?}",
                c.normal
            );
            if depth > 0.0 {
                assert!(c.touching && (c.penetration - depth).abs() < 1e-12);
                let mid = turn.transform_point(&Vector3::ith(axis, half - depth / 2.0));
                assert!((c.point - mid).norm() < 1e-9);
            } else {
                assert!(!c.touching && c.separation > 0.0 && c.separation <= -depth + 1e-12);
            }
        }
    }
}

#[test]
fn sphere_pairs_through_the_kernel_match_the_sphere_kernel() {
    let ball = Shape::Sphere(crate::shapes::Sphere::new(0.8).unwrap());
    let round = shape([1.2, 1.2, 1.2], [1.0, 1.0]);
    let a = pose([0.1, 0.2, 0.3], [0.3, 0.2, 0.1]);
    let b = pose([1.1, 1.5, -0.1], [1.0, -0.5, 0.2]);
    let c = collide(&ball, &a, &round, &b, None).unwrap();
    let line = b.position - a.position;
    assert!((c.normal - line.normalize()).norm() < 1e-9);
    assert!((c.penetration - (2.0 - line.norm())).abs() < 1e-12);
}

/// B's pose, turned by the scaled axis `r`, such that the support planes of A (at the origin) and
/// B normal to the unit `u` are `gap` apart (negative: overlapping extents along `u`).
fn placed(a: &Shape, b: &Shape, u: &Vector3<f64>, r: [f64; 3], gap: f64) -> Pose {
    let (Shape::Superellipsoid(sa), Shape::Superellipsoid(sb)) = (a, b) else {
        unreachable!()
    };
    let rot = UnitQuaternion::from_scaled_axis(Vector3::from(r));
    let reach =
        u.dot(&sa.support_point(u)) - u.dot(&(rot * sb.support_point(&(rot.inverse() * -u))));
    Pose::new(u * (reach + gap), rot)
}

/// How far the contact point of superellipsoids `a` at `pa` and `b` at `pb` may move when their
/// contact normal `normal` (world frame) moves by `normal_error`: half the sum of the surfaces'
/// curvature radii there (`|dx/dn|`, the point-with-normal maps' Jacobians, Frobenius norms)
/// times it, to first order. Near a flat point of a box-like body (an `eps` below 1 makes the
/// surface flat where it crosses a body axis) a normal off by 1e-8 moves the point by up to 1e-2
/// (the saved proptest case of `rigid_motion_of_both_bodies_moves_the_contact`: B's `eps1` 0.31,
/// an overlap of 0.05), and any of those points is the contact.
pub(in crate::narrow) fn point_spread(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    normal: &Vector3<f64>,
    normal_error: f64,
) -> f64 {
    let (Shape::Superellipsoid(sa), Shape::Superellipsoid(sb)) = (a, b) else {
        unreachable!()
    };
    let (_, ja, _) = sa.point_with_normal_first(&(pa.rotation.inverse() * normal));
    let (_, jb, _) = sb.point_with_normal_first(&(pb.rotation.inverse() * -normal));
    0.5 * (ja.norm() + jb.norm()) * (normal_error + 1e-9)
}

fn arb_shape() -> impl Strategy<Value = Shape> {
    (
        prop::array::uniform3(0.5f64..3.0),
        prop::array::uniform2(0.3f64..1.7),
    )
        .prop_map(|(r, e)| shape(r, e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in arb_shape(), b in arb_shape(),
                                         r in prop::array::uniform3(-3.0f64..3.0),
                                         d in crate::unit_direction(),
                                         gap in -0.05f64..0.3) {
        let pa = pose([0.0; 3], [0.0; 3]);
        // Place B along d at the distance where the support planes along d overlap by -gap.
        let pb = placed(&a, &b, &d, r, gap);
        let ab = collide(&a, &pa, &b, &pb, None).unwrap();
        let ba = collide(&b, &pb, &a, &pa, None).unwrap();
        prop_assert_eq!(ab.touching, ba.touching);
        if ab.touching {
            let normal_error = (ab.normal + ba.normal).norm();
            prop_assert!(normal_error < 1e-6, "{:?} {:?}", ab.normal, ba.normal);
            prop_assert!((ab.penetration - ba.penetration).abs() < 1e-9 * (1.0 + ab.penetration));
            let spread = point_spread(&a, &pa, &b, &pb, &ab.normal, normal_error);
            prop_assert!((ab.point - ba.point).norm() < 1e-6 + 2.0 * spread);
        }
    }

    #[test]
    fn rigid_motion_of_both_bodies_moves_the_contact(a in arb_shape(), b in arb_shape(),
                                                     r in prop::array::uniform3(-3.0f64..3.0),
                                                     m in prop::array::uniform3(-3.0f64..3.0),
                                                     t in prop::array::uniform3(-5.0f64..5.0),
                                                     d in crate::unit_direction(),
                                                     gap in -0.05f64..0.3) {
        let pa = pose([0.0; 3], [0.0; 3]);
        let pb = placed(&a, &b, &d, r, gap);
        let motion = pose(t, m);
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        let moved = collide(&a, &motion.compose(&pa), &b, &motion.compose(&pb), None).unwrap();
        prop_assert_eq!(c.touching, moved.touching);
        if c.touching {
            let normal_error = (motion.transform_vector(&c.normal) - moved.normal).norm();
            prop_assert!(normal_error < 1e-7);
            prop_assert!((c.penetration - moved.penetration).abs() < 1e-9);
            let spread = point_spread(&a, &pa, &b, &pb, &c.normal, normal_error);
            prop_assert!(
                (motion.transform_point(&c.point) - moved.point).norm() < 1e-7 + 2.0 * spread,
                "{:?} against {:?}, spread {:e}", c.point, moved.point, spread
            );
        }
    }

    #[test]
    fn rigid_motion_keeps_the_depth_and_normal_of_deep_overlaps(a in arb_shape(), b in arb_shape(),
                                                                r in prop::array::uniform3(-3.0f64..3.0),
                                                                m in prop::array::uniform3(-3.0f64..3.0),
                                                                t in prop::array::uniform3(-5.0f64..5.0),
                                                                dist in 1.0f64..5.0) {
        // Centres 1 to 5 apart with radii up to 3: overlaps far deeper than a DEM step makes, where
        // a box-like body's nearly flat face can carry the contact. The contact point is ill
        // conditioned there (any point of the flat overlap serves, and rounding picks one), so it
        // is not compared. Where such a face meets another body deeply, the gap's maximum lies in
        // a crease of directions that only the compass search and its crease search climb, to
        // about 1e-8 of the depth and 1e-5 rad (the saved proptest cases: depths 1.2-1.6 of radii
        // 0.9-2.8), so the tolerances are wider than the DEM-like test's.
        let pa = pose([0.0; 3], [0.0; 3]);
        let pb = pose([dist * 0.6, dist * 0.8, 0.1], r);
        let motion = pose(t, m);
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        let mut warm = WarmState::cold();
        let moved =
            collide(&a, &motion.compose(&pa), &b, &motion.compose(&pb), Some(&mut warm)).unwrap();
        prop_assert_eq!(c.touching, moved.touching);
        if c.touching {
            // So deep an overlap may have several common normals, and the cold search may settle
            // on another one after the motion (rounding differs; a long run of this test met
            // depths 2.036 and 1.496, normals 1.3 apart). The moved answer must then be one at the
            // first placement too: the query there, started from its direction (kept in A's
            // frame, which moves with A), returns it.
            let c = if (motion.transform_vector(&c.normal) - moved.normal).norm() >= 1e-4 {
                collide(&a, &pa, &b, &pb, Some(&mut warm)).unwrap()
            } else {
                c
            };
            prop_assert!((motion.transform_vector(&c.normal) - moved.normal).norm() < 1e-4);
            prop_assert!((c.penetration - moved.penetration).abs() < 1e-7 * (1.0 + c.penetration));
        }
    }
}

#[test]
fn a_pair_sliding_and_rolling_warm_starts_to_the_cold_answers() {
    let a = shape([1.0, 1.4, 0.8], [0.6, 1.3]);
    let b = shape([0.9, 0.7, 1.5], [1.2, 0.5]);
    let mut warm = WarmState::cold();
    let (mut cold_iterations, mut warm_iterations, mut touching) = (0u64, 0u64, 0);
    for step in 0..1000 {
        let t = step as f64 * 1e-3;
        // B rolls about two axes and slides across A's top while staying in light contact.
        let pa = pose([0.0, 0.0, 0.0], [0.1 * t, 0.0, 0.2 * t]);
        let rb = [0.5 + 0.8 * t, -0.3 + 0.4 * t, 0.2];
        let dir = Vector3::new((2.0 * t).sin() * 0.4, (1.3 * t).cos() * 0.3, 1.0).normalize();
        let (Shape::Superellipsoid(sa), Shape::Superellipsoid(sb)) = (&a, &b) else {
            unreachable!()
        };
        let rot = UnitQuaternion::from_scaled_axis(Vector3::from(rb));
        // The paper's construction: A's point with normal u, B's point with normal -u placed a
        // small overlap below it.
        let ua = pa.transform_vector(&dir);
        let p1 = pa.transform_point(&sa.support_point(&dir));
        let p2 = p1 - ua * (2e-3 * (1.0 + (7.0 * t).sin()) + 1e-5);
        let pb = Pose::new(p2 - rot * sb.support_point(&(rot.inverse() * -ua)), rot);
        let w = collide(&a, &pa, &b, &pb, Some(&mut warm)).unwrap();
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        assert_eq!(w.touching, c.touching, "step {step}");
        if c.touching {
            touching += 1;
            assert!(
                (w.penetration - c.penetration).abs() < 1e-9 * (1.0 + c.penetration),
                "step {step}"
            );
            assert!((w.normal - c.normal).norm() < 1e-6, "step {step}");
        }
        assert_eq!(w.warm_started, step > 0);
        cold_iterations += c.iterations as u64;
        warm_iterations += w.iterations as u64;
    }
    assert!(touching > 500, "{touching}");
    assert!(
        warm_iterations * 2 < cold_iterations,
        "warm {warm_iterations} cold {cold_iterations}"
    );
}

/// The minimum translation distance of `a` and `b` (B at `pb`, A at the origin) by brute force,
/// independent of the kernel: the least overlap of the two support planes over a grid of
/// directions (`n` x `2n`), refined by coordinate descent down to steps of 1e-12.
fn brute_force_depth(a: &Shape, b: &Shape, pb: &Pose, n: usize) -> (f64, Vector3<f64>) {
    let overlap = |c: &Vector3<f64>| {
        let cb = pb.rotation.inverse() * -c;
        c.dot(&a.support_point(c)) + cb.dot(&b.support_point(&cb)) - c.dot(&pb.position)
    };
    let mut best = (f64::INFINITY, Vector3::x());
    for i in 0..n {
        for j in 0..2 * n {
            let theta = std::f64::consts::PI * (i as f64 + 0.5) / n as f64;
            let phi = std::f64::consts::PI * j as f64 / n as f64;
            let c = Vector3::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            );
            let o = overlap(&c);
            if o < best.0 {
                best = (o, c);
            }
        }
    }
    let mut step = 1e-2;
    while step > 1e-12 {
        let mut moved = false;
        for k in 0..6 {
            let mut c = best.1;
            c[k / 2] += if k % 2 == 0 { step } else { -step };
            let c = c.normalize();
            let o = overlap(&c);
            if o < best.0 {
                best = (o, c);
                moved = true;
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    best
}

/// Asserts that `s`, the answer for `a` and `b` (B at `pb`), has [`brute_force_depth`]'s depth
/// (1e-9 relative) and normal (1e-6 rad).
fn assert_brute_force_minimum(a: &Superellipsoid, b: &Superellipsoid, pb: &Pose, s: &Solution) {
    let (depth, normal) = brute_force_depth(
        &Shape::Superellipsoid(*a),
        &Shape::Superellipsoid(*b),
        pb,
        120,
    );
    assert!((s.contact.penetration - depth).abs() < 1e-9 * depth);
    assert!((s.contact.normal - normal).norm() < 1e-6);
}

#[test]
fn deep_overlaps_of_box_like_bodies_reach_the_minimum_translation_distance() {
    // Two saved proptest cases: a box-like body (eps2 0.3-0.34) deep in another, where the
    // deepest point's direction lies in the crease of A's support function along its equator
    // (c_z = 0). The compass search alone crept along that crease and stopped 0.1-1 % too deep.
    let cases = [
        (
            shape(
                [1.7777568678428386, 2.7900334432731464, 2.632089313261319],
                [0.42813151968209734, 0.34175308472608973],
            ),
            shape(
                [0.9902270619008402, 1.5849432460147255, 2.828268003052007],
                [1.5847202322773262, 0.8655433865110801],
            ),
            [0.8687516419108848, 1.7216383499894876, 1.928125125817834],
            4.4221862452283744,
        ),
        (
            shape(
                [1.2229229796012728, 1.8923253716364112, 1.4156013617826424],
                [0.8224368201560344, 0.3],
            ),
            shape(
                [0.9422606875558025, 1.6085154044488352, 1.6903732824178812],
                [0.5957267526491655, 0.8853206183222186],
            ),
            [
                -2.4624176067063726,
                0.5237994925049061,
                -0.013418035083885982,
            ],
            1.995890854489932,
        ),
    ];
    for (a, b, r, dist) in cases {
        let pa = pose([0.0; 3], [0.0; 3]);
        let pb = pose([dist * 0.6, dist * 0.8, 0.1], r);
        let (depth, normal) = brute_force_depth(&a, &b, &pb, 120);
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        assert!(c.touching);
        assert!(
            (c.penetration - depth).abs() < 1e-9 * depth,
            "{} vs brute force {depth}",
            c.penetration
        );
        assert!(
            (c.normal - normal).norm() < 1e-6,
            "{:?} vs {normal:?}",
            c.normal
        );
    }
}

/// The exact support gap along the world direction `n` of A at `pa` and B at `pb`: how far B's
/// lowest point along `n` lies beyond A's highest.
fn support_gap_along(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>) -> f64 {
    let top_a = pa.transform_point(&a.support_point(&pa.inverse_transform_vector(n)));
    let low_b = pb.transform_point(&b.support_point(&pb.inverse_transform_vector(&-n)));
    n.dot(&(low_b - top_a))
}

#[test]
fn the_motion_certificate_bounds_the_gap_of_its_plane_and_lets_go_in_time() {
    let a = shape([1.0, 1.4, 0.8], [0.6, 1.3]);
    let b = shape([0.9, 0.7, 1.5], [1.2, 0.5]);
    let (mut certified, mut refused) = (0, 0);
    for k in 0..40 {
        let s = k as f64;
        let pa = pose([0.1 * s, -0.2, 0.3], [0.3 + 0.1 * s, -0.2, 0.7]);
        let dir = Vector3::new((0.7 * s).sin(), (1.3 * s).cos(), 0.4).normalize();
        let rb = pose([0.0; 3], [0.5, -0.3 * s, 0.2]).rotation;
        // B placed along `dir` a gap of 1e-3 .. 0.1 beyond A (the paper's construction).
        let (Shape::Superellipsoid(sa), Shape::Superellipsoid(sb)) = (&a, &b) else {
            unreachable!()
        };
        let u = pa.transform_vector(&dir);
        let p1 = pa.transform_point(&sa.support_point(&dir));
        let p2 = p1 + u * (1e-3 + 2.5e-3 * s);
        let pb = Pose::new(p2 - rb * sb.support_point(&(rb.inverse() * -u)), rb);
        let mut warm = WarmState::cold();
        let c = collide(&a, &pa, &b, &pb, Some(&mut warm)).unwrap();
        assert!(!c.touching, "pair {k}");
        // Both bodies moved on in steps of up to 1e-3 (and 1e-3 rad): certified while the gap
        // allows, always a lower bound of the gap along the certificate's own plane.
        for step in 1..200 {
            let t = step as f64 * 1e-3;
            let drift = pose([t, -0.5 * t, 0.3 * t], [0.4 * t, t, -0.2 * t]);
            let (qa, qb) = (
                drift.compose(&pa),
                pose([0.0; 3], [0.0, 0.0, t]).compose(&pb),
            );
            let qb = Pose::new(qb.position - u * (0.2 * t), qb.rotation);
            match certified_world(&a, &qa, &b, &qb, &warm) {
                Some(cert) => {
                    certified += 1;
                    let exact = support_gap_along(&a, &qa, &b, &qb, &cert.normal);
                    assert!(
                        cert.separation > 0.0 && cert.separation <= exact + 1e-12,
                        "pair {k} step {step}: {} > {exact}",
                        cert.separation
                    );
                    assert!(!cert.touching && cert.warm_started && cert.iterations == 0);
                    // The same answer through the query, which leaves the state as it was.
                    let before = warm.data;
                    let q = collide(&a, &qa, &b, &qb, Some(&mut warm)).unwrap();
                    assert_eq!(q, cert);
                    assert_eq!(warm.data, before);
                }
                None => {
                    refused += 1;
                    // A full query, which records a new plane when the pair is still apart.
                    let cold = collide(&a, &qa, &b, &qb, None).unwrap();
                    let q = collide(&a, &qa, &b, &qb, Some(&mut warm)).unwrap();
                    assert_eq!(q.touching, cold.touching, "pair {k} step {step}");
                    if q.touching {
                        break;
                    }
                }
            }
        }
    }
    assert!(certified > 2000 && refused > 40, "{certified} {refused}");
}

#[test]
fn the_motion_certificate_is_only_for_its_own_shapes_and_an_apart_pair() {
    let a = shape([1.0, 1.4, 0.8], [0.6, 1.3]);
    let b = shape([0.9, 0.7, 1.5], [1.2, 0.5]);
    let other = shape([0.9, 0.7, 1.5], [1.2, 0.6]);
    let pa = pose([0.0; 3], [0.0; 3]);
    let pb = pose([0.0, 0.0, 2.5], [0.0; 3]);
    let mut warm = WarmState::cold();
    assert!(!collide(&a, &pa, &b, &pb, Some(&mut warm)).unwrap().touching);
    assert!(certified_world(&a, &pa, &b, &pb, &warm).is_some());
    assert!(certified_world(&a, &pa, &other, &pb, &warm).is_none());
    assert!(certified_world(&b, &pa, &a, &pb, &warm).is_none());
    // Touching now: the full query runs, and its state holds no certificate.
    let close = pose([0.0, 0.0, 2.0], [0.0; 3]);
    assert!(
        collide(&a, &pa, &b, &close, Some(&mut warm))
            .unwrap()
            .touching
    );
    assert!(certified_world(&a, &pa, &b, &pb, &warm).is_none());
}

#[test]
fn a_scratch_state_gets_the_same_answer_and_no_certificate() {
    let (a, b) = unlike_pair();
    let (pa, pb) = (
        pose([0.3, -0.2, 0.1], [0.2, 0.4, -0.1]),
        pose([0.1, 0.4, 2.6], [0.5, 0.0, 0.3]),
    );
    let relative = pa.relative(&pb);
    let (mut kept, mut scratch) = (WarmState::cold(), WarmState::cold());
    let with = common_normal_kept(&a, &b, &relative, &mut kept, true).unwrap();
    let without = common_normal_kept(&a, &b, &relative, &mut scratch, false).unwrap();
    assert!(!with.contact.touching);
    assert_eq!(with.contact, without.contact);
    let (sa, sb) = (Shape::Superellipsoid(a), Shape::Superellipsoid(b));
    assert!(certified_world(&sa, &pa, &sb, &pb, &kept).is_some());
    assert!(certified_world(&sa, &pa, &sb, &pb, &scratch).is_none());
    // Through `collide`: no warm state, the same contact as with a cold one.
    let mut cold = WarmState::cold();
    assert_eq!(
        collide(&sa, &pa, &sb, &pb, None).unwrap(),
        collide(&sa, &pa, &sb, &pb, Some(&mut cold)).unwrap()
    );
}

/// A constructed pair: radii and eps of A and of B, B's position and quaternion `w, x, y, z` (A
/// at the origin, unrotated), and the common-normal depth of the construction.
type ConstructedPair = ([f64; 5], [f64; 5], [f64; 3], [f64; 4], f64);

#[test]
fn nearly_pointed_or_box_like_pairs_reach_the_constructed_depth() {
    // Pairs of interval 4 of `validate` (eps in [0.1, 1.9]) from seeds 4 and 2 at 3 x 10^6 pairs:
    // radii and eps of A and B, B's position and quaternion (A at the origin), and the
    // constructed common-normal depth. With 6 restart directions and a trust ratio of 20 for all
    // pairs, the first was trusted 1.9 % too deep (a flat face's local minimum) and the others'
    // restarts missed the global minimum (15 % and 5.7 % too deep).
    let cases: [ConstructedPair; 3] = [
        (
            [
                0.6514883646955547,
                2.444331720151054,
                0.8683609131444154,
                0.15650952983864266,
                1.855417175799561,
            ],
            [
                2.3106313145487554,
                0.5775547877463854,
                0.6652597946602956,
                1.7686193635187897,
                0.9816898348611625,
            ],
            [
                0.007720063558970692,
                -1.7769708456690758,
                -2.1404122137460293,
            ],
            [
                0.22346596050819764,
                -0.6642312944998949,
                -0.7003016874248358,
                -0.1357840141219513,
            ],
            0.0007717042801907985,
        ),
        (
            [
                1.9225949298236997,
                0.3548327140358038,
                0.5310052493058793,
                1.8207002391144451,
                0.7188832858534548,
            ],
            [
                1.0706022723945638,
                0.8860599474569975,
                2.5909325157321565,
                0.4008237172004957,
                1.8804116270284155,
            ],
            [-4.0521353456647455, 1.356378804525839, 0.21155445602514078],
            [
                0.16777807509384823,
                -0.5186136550660917,
                0.5554507936687682,
                -0.6279847212389227,
            ],
            0.00047792615111848854,
        ),
        (
            [
                1.6803874871801137,
                2.6806066599713914,
                1.4603021743868978,
                0.8320806445839244,
                1.894695590148643,
            ],
            [
                0.803785326432394,
                1.1624966660783573,
                2.03338937453519,
                0.3482289896605718,
                1.892217524111774,
            ],
            [3.4867224462811155, 1.0511246958051308, -0.6383136458562092],
            [
                -0.5831373311612352,
                -0.001881198597706103,
                -0.8105493793372591,
                0.05437846774204048,
            ],
            0.001250300570365645,
        ),
    ];
    for (a, b, position, wxyz, depth) in cases {
        let (sa, sb) = (
            shape([a[0], a[1], a[2]], [a[3], a[4]]),
            shape([b[0], b[1], b[2]], [b[3], b[4]]),
        );
        let pb = Pose::from_wxyz(position, wxyz).unwrap();
        let c = collide(&sa, &Pose::identity(), &sb, &pb, None).unwrap();
        assert!(c.touching);
        let relative = (c.penetration - depth) / depth;
        assert!(
            relative.abs() <= 1e-6,
            "depth {} against {depth}: {relative:e}",
            c.penetration
        );
    }
}

#[test]
fn the_two_by_two_solve_matches_lu_and_refuses_singular_systems() {
    let values = uniform(11, 6 * 200);
    for v in values.chunks(6) {
        let a = Matrix2::new(v[0] * 4.0 - 2.0, v[1] - 0.5, v[2] - 0.5, v[3] * 4.0 - 2.0);
        let rhs = Vector2::new(v[4] - 0.5, v[5] - 0.5);
        let (ours, lu) = (solve2(&a, &rhs), a.lu().solve(&rhs));
        match (ours, lu) {
            (Some(x), Some(y)) => {
                // Both solve the system to its conditioning.
                let scale = a.norm() * x.norm().max(y.norm()) + rhs.norm();
                assert!((a * x - rhs).norm() <= 1e-13 * scale, "{a:?} {rhs:?}");
                assert!((x - y).norm() <= 1e-9 * (1.0 + y.norm()) / a.determinant().abs().min(1.0));
            }
            (None, None) => {}
            other => panic!("{a:?}: {other:?}"),
        }
    }
    let singular = Matrix2::new(1.0, 2.0, 2.0, 4.0);
    assert_eq!(solve2(&singular, &Vector2::new(1.0, 0.0)), None);
    let tiny = Matrix2::new(1e-300, 0.0, 0.0, 1e-300);
    assert_eq!(solve2(&tiny, &Vector2::new(1.0, 1.0)), None);
}

/// `n` pseudo-random numbers in [0, 1) (xorshift), for reproducible configurations.
fn uniform(seed: u64, n: usize) -> Vec<f64> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// The superellipsoid of five uniforms `r[0..5]` in [0, 1): semi-axes in `radii`, squareness
/// (both eps) in `eps`.
fn drawn_body(r: &[f64], radii: (f64, f64), eps: (f64, f64)) -> Superellipsoid {
    let lerp = |(lo, hi): (f64, f64), x: f64| lo + (hi - lo) * x;
    Superellipsoid::new(
        lerp(radii, r[0]),
        lerp(radii, r[1]),
        lerp(radii, r[2]),
        lerp(eps, r[3]),
        lerp(eps, r[4]),
    )
    .unwrap()
}

#[test]
fn cold_penetrating_pairs_of_moderate_squareness_need_one_newton_iteration() {
    // The protocol's construction (interval 3: radii in (0.5, 3), eps in [0.3, 1.7]): B placed so
    // that its point with normal -u lies `depth` behind A's point with normal u, along u: a
    // common normal with that depth. The prefilter's Newton ascent on the log-domain support
    // points ends within ~1e-8 rad of it, so the exact search's first Newton step converges.
    let (mut one, mut total, mut probes) = (0, 0, 0);
    for seed in 0..200u64 {
        let r = uniform(seed, 15);
        let body = |k: usize| drawn_body(&r[k..k + 5], (0.5, 3.0), (0.3, 1.7));
        let (a, b) = (body(0), body(5));
        let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let rot = UnitQuaternion::from_scaled_axis(Vector3::new(3.0 * r[13], -2.0 * r[14], 1.0));
        let depth = 1e-3 * (0.1 + r[13]);
        let pose_b = constructed(&a, &b, &u, rot, depth);
        let solution = common_normal(&a, &b, &pose_b, &mut WarmState::cold()).unwrap();
        let c = solution.contact;
        assert!(c.touching, "seed {seed}");
        assert!(
            ((c.penetration - depth) / depth).abs() < 1e-6,
            "seed {seed}: {} against {depth}",
            c.penetration
        );
        let newton = solution.iterations - solution.probes;
        one += (newton == 1) as u32;
        probes += solution.probes;
        total += 1;
    }
    // Most take one Newton iteration (four to eight before the prefilter's ascent), after
    // a handful of log-domain steps.
    assert!(one * 10 >= total * 8, "{one} of {total}");
    assert!(probes <= total * (PREFILTER_PROBES + 1), "{probes}");
}

/// The superellipsoid `s` with every radius times `k`.
fn scaled(s: &Superellipsoid, k: f64) -> Superellipsoid {
    let r = s.radii() * k;
    Superellipsoid::new(r.x, r.y, r.z, s.eps1(), s.eps2()).unwrap()
}

#[test]
fn the_search_takes_the_same_steps_in_any_length_unit() {
    // A host's length unit must not change the work: the same configurations at sizes 2^-10,
    // 1 and 2^10 (scaled by powers of two, so exactly) take the same iterations, cold and along
    // a warm-started sequence, and agree in depth. With tolerances against `1 + |d|` instead of
    // the pair's own length, the larger size polished most warm starts and some cold answers.
    let sizes = [2f64.powi(-10), 1.0, 2f64.powi(10)];
    let interval_3 = |r: &[f64]| drawn_body(r, (0.5, 3.0), (0.3, 1.7));
    for seed in 0..150u64 {
        let r = uniform(1000 + seed, 15);
        let (a, b) = (interval_3(&r[0..5]), interval_3(&r[5..10]));
        let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let rot = UnitQuaternion::from_scaled_axis(Vector3::new(3.0 * r[13], -2.0 * r[14], 1.0));
        let depth = 1.75e-3 * r[13];
        let answers = sizes.map(|k| {
            let (a, b) = (scaled(&a, k), scaled(&b, k));
            let pose_b = constructed(&a, &b, &u, rot, depth * k);
            let s = common_normal(&a, &b, &pose_b, &mut WarmState::cold()).unwrap();
            (s.iterations, s.contact.penetration / k)
        });
        for (k, answer) in sizes.iter().zip(&answers) {
            assert_eq!(answer.0, answers[1].0, "seed {seed}, size {k} {answers:?}");
            assert!(
                (answer.1 - answers[1].1).abs() <= 1e-9 * depth,
                "seed {seed}, size {k}"
            );
        }
    }
    let (a, b) = unlike_pair();
    let sequence = |k: f64| {
        let (a, b) = (scaled(&a, k), scaled(&b, k));
        let mut warm = WarmState::cold();
        (0..200)
            .map(|step| {
                let t = step as f64 * 1e-3;
                let u = Vector3::new((2.0 * t).sin() * 0.4, (1.3 * t).cos() * 0.3, 1.0).normalize();
                let rot = UnitQuaternion::from_scaled_axis(Vector3::new(0.5 + 0.8 * t, -0.3, 0.2));
                let depth = 2e-3 * (1.0 + (7.0 * t).sin()) + 1e-5;
                let pose_b = constructed(&a, &b, &u, rot, depth * k);
                common_normal(&a, &b, &pose_b, &mut warm)
                    .unwrap()
                    .iterations
            })
            .collect::<Vec<_>>()
    };
    let at_one = sequence(1.0);
    assert!(
        at_one.iter().filter(|&&i| i == 0).count() > 100,
        "{at_one:?}"
    );
    for k in [sizes[0], sizes[2]] {
        assert_eq!(sequence(k), at_one, "size {k}");
    }
}

#[test]
fn a_restarted_pointed_pair_of_moderate_squareness_reaches_the_constructed_depth() {
    // From the benchmark's DEM-like sequences (interval 3): nearly pointed bodies whose first
    // answer is not trusted (its curvature radius is below 20 times the depth), so all six
    // restart directions are climbed by the prefilter's ascent and descended; the answer is the
    // construction's common normal.
    let a = Superellipsoid::new(
        0.6042311880076968,
        2.6961053219956828,
        0.583755527436925,
        1.5704841474476239,
        1.6934813165218674,
    )
    .unwrap();
    let b = Superellipsoid::new(
        0.8337469789382663,
        2.8379253198909944,
        2.79308010210157,
        1.6886584291059659,
        1.2826679471695064,
    )
    .unwrap();
    let rotation = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        0.1894180023481957,
        -0.45392447158444854,
        -0.8675215960332421,
        0.07402482623508504,
    ));
    let pose_b = Pose::new(
        Vector3::new(-1.0271301653620863, -2.6579993493953804, -2.527712382961329),
        rotation,
    );
    let depth = 0.000504538683178845;
    let solution = common_normal(&a, &b, &pose_b, &mut WarmState::cold()).unwrap();
    assert!(wider_search_ran(&solution));
    assert!(solution.contact.touching);
    assert!(
        ((solution.contact.penetration - depth) / depth).abs() < 1e-9,
        "{} against {depth}",
        solution.contact.penetration
    );
}

/// `n` unit directions turning `step` rad a step about a fixed axis (not normal to them).
fn turning_directions(n: usize, step: f64) -> Vec<Vector3<f64>> {
    let axis = Vector3::new(0.3, -0.8, 0.5).normalize();
    let c0 = Vector3::new(0.6, 0.7, -0.2).normalize();
    (0..n)
        .map(|k| UnitQuaternion::from_scaled_axis(axis * (step * k as f64)) * c0)
        .collect()
}

/// [`extrapolate`] on the directions of `history` (newest first, 1 to `HISTORY` of them).
fn extrapolated(history: &[Vector3<f64>]) -> Vector3<f64> {
    let mut row = [history[0]; HISTORY];
    row[..history.len()].copy_from_slice(history);
    extrapolate(row, history.len())
}

#[test]
fn extrapolation_gains_an_order_of_the_turn_with_each_direction_kept() {
    let step = 1e-3;
    let dirs = turning_directions(5, step);
    let next = dirs[4];
    // Newest first: the last one alone, then two, three and four of them.
    let history: Vec<Vector3<f64>> = dirs[..4].iter().rev().copied().collect();
    let errors: Vec<f64> = (1..=4)
        .map(|k| (extrapolated(&history[..k]) - next).norm())
        .collect();
    // The turn's powers 1 to 4 (times the sine of the angle to the axis, below 1).
    assert!(errors[0] > 0.5 * step && errors[0] < step, "{errors:?}");
    assert!(
        errors[1] < step * step && errors[1] > 0.1 * step * step,
        "{errors:?}"
    );
    assert!(errors[2] < step.powi(3), "{errors:?}");
    assert!(errors[3] < step.powi(4), "{errors:?}");
    // A jerky history (the third difference not below the second) stops at the second order.
    let mut jerky = history.clone();
    jerky[3] = (jerky[3] + Vector3::new(2e-6, -3e-6, 1e-6)).normalize();
    assert_eq!(extrapolated(&jerky), extrapolated(&history[..3]));
    // A turn of EXTRAPOLATE or more a step is not extrapolated.
    let fast = turning_directions(2, 2.0 * EXTRAPOLATE);
    assert_eq!(extrapolated(&[fast[1], fast[0]]), fast[1]);
}

#[test]
fn a_smoothly_turning_contact_is_answered_at_its_extrapolated_start() {
    // The benchmark's DEM-like motion: the contact direction and B turn 1e-3 rad a step about
    // fixed axes, at a depth that varies. After four touching steps the extrapolated start is a
    // common normal to the descent's accuracy: no Newton iteration, and the cold answer.
    let (a, b) = unlike_pair();
    let dirs = turning_directions(200, 1e-3);
    let mut warm = WarmState::cold();
    let mut at_start = 0;
    for (k, u) in dirs.iter().enumerate() {
        let rotation = UnitQuaternion::from_scaled_axis(
            Vector3::new(0.2, 0.5, -0.4) * (1.0 + 1e-3 * k as f64),
        );
        let depth = 1e-3 * (1.2 + (0.02 * k as f64).sin());
        let pose_b = constructed(&a, &b, u, rotation, depth);
        let w = common_normal(&a, &b, &pose_b, &mut warm).unwrap();
        let c = common_normal(&a, &b, &pose_b, &mut WarmState::cold()).unwrap();
        assert!(w.contact.touching && c.contact.touching, "step {k}");
        assert!(
            (w.contact.penetration - depth).abs() < 1e-9 * depth,
            "step {k}: {} against {depth}",
            w.contact.penetration
        );
        assert!((w.contact.penetration - c.contact.penetration).abs() < 1e-9 * depth);
        assert!((w.contact.normal - u).norm() < 1e-8, "step {k}");
        assert!(
            (w.contact.point - c.contact.point).norm() < 1e-8,
            "step {k}"
        );
        if w.iterations == 0 {
            at_start += 1;
            // The warm state keeps the start moved by its Newton step, not the answer's normal.
            assert!((w.estimate - w.contact.normal).norm() < 1e-9);
        }
        let streak = warm.data[STREAK] as usize;
        assert_eq!(streak, (k + 1).min(HISTORY), "step {k}");
    }
    assert!(at_start >= 190, "{at_start} of 200 answered at the start");
}

#[test]
fn the_touching_streak_restarts_after_a_query_apart() {
    let (Shape::Superellipsoid(a), Shape::Superellipsoid(b)) = (
        shape([1.0, 1.0, 1.0], [1.0, 1.0]),
        shape([1.0, 1.0, 1.0], [1.0, 1.0]),
    ) else {
        unreachable!()
    };
    let at = |x: f64| Pose::new(Vector3::new(x, 0.1, 0.0), UnitQuaternion::identity());
    let mut warm = WarmState::cold();
    for (x, touching, streak) in [
        (1.9, true, 1),
        (1.91, true, 2),
        (1.92, true, 3),
        (1.93, true, 4),
        (1.94, true, 4),
        (2.1, false, 0),
        (1.95, true, 1),
    ] {
        let s = common_normal(&a, &b, &at(x), &mut warm).unwrap();
        assert_eq!(s.contact.touching, touching, "x {x}");
        assert_eq!(touching_streak(true, &warm.data), streak, "x {x}");
    }
}

#[test]
fn a_start_is_taken_only_within_the_descents_accuracy_of_the_common_normal() {
    let (a, b) = unlike_pair();
    let u = Vector3::new(0.3, -0.5, 0.8).normalize();
    let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.7, -0.2, 0.4));
    let pose_b = constructed(&a, &b, &u, rotation, 1e-3);
    let bodies = Bodies::posed(&a, &b, &pose_b);
    let start = |c: Vector3<f64>| {
        let first = bodies.first_order(c);
        bodies.start_converged(&first, &first.gram())
    };
    // At the constructed common normal: taken, and the estimate stays on it.
    let estimate = start(u).unwrap();
    assert!((estimate - u).norm() < 1e-12);
    // A start off by the turn's square (a linear extrapolation's error): a Newton step is due.
    let off = UnitQuaternion::from_scaled_axis(Vector3::new(1e-6, 0.0, 0.0)) * u;
    assert!(start(off).is_none());
    // Off by 1e-12 (a cubic one's): taken, and the estimate is nearer the common normal.
    let near = UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 1e-12, 1e-12)) * u;
    let estimate = start(near).unwrap();
    assert!((estimate - u).norm() < 1e-14, "{:e}", (estimate - u).norm());
    // The first half of the derivatives is theirs, bit for bit.
    let (first, der) = (bodies.first_order(off), bodies.derivatives(off));
    assert_eq!(first.gram() * 2.0, der.gauss_newton);
    assert_eq!(first.tangent_curvature, der.tangent_curvature);
    assert_eq!(bodies.second_order(first).hessian, der.hessian);
}

#[test]
fn a_deep_overlap_the_wide_search_confirms_takes_no_second_descent() {
    // Two slightly pointed superellipsoids (no rolling ball certifies their answer) overlapping by
    // about 4 % of their size, as in a DEM packing (`deep_pair` of interval 2): too deep for the
    // trust test, so the wide search restarts from six directions, and every one of them climbs
    // back to the first answer. Those are not descended again: the Newton iterations are the first
    // descent's and its polish only. (The world benchmark's pair this test held before, of a
    // box-like body, is now certified by that body's rolling ball.)
    let a = Superellipsoid::new(
        1.9528721121940213,
        1.0356835552659722,
        2.7780430669263425,
        1.090403183835843,
        1.0489909699183078,
    )
    .unwrap();
    let b = Superellipsoid::new(
        2.3640021111061618,
        0.8304688829635227,
        0.6727978103529387,
        1.0702734150644881,
        1.073483436552062,
    )
    .unwrap();
    let rotation = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        -0.3001299373944462,
        -0.39785138052682184,
        0.1998098776706245,
        -0.8436304359598212,
    ));
    let pb = Pose::new(
        Vector3::new(-1.2652075984247215, 0.7694604134214008, 4.540788777350294),
        rotation,
    );
    let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
    assert_eq!(s.restarts as usize, GLOBAL_STARTS);
    let newton = s.iterations - s.probes;
    assert!(newton <= 4, "{newton} Newton iterations ({s:?})");
    assert_brute_force_minimum(&a, &b, &pb, &s);
}

/// A prefilter answer as plain numbers, for exact comparison.
fn prefilter_numbers(p: &Prefilter) -> Vec<f64> {
    match p {
        Prefilter::Apart { points, gap, steps } => {
            let mut v = vec![0.0, *gap, f64::from(*steps)];
            for x in [points.c, points.p1, points.p2, points.d] {
                v.extend(x.iter());
            }
            v
        }
        Prefilter::Undecided { ahead, steps } => {
            let mut v = vec![1.0, f64::from(*steps)];
            v.extend(ahead.iter());
            v
        }
        Prefilter::NotApplicable => vec![2.0],
    }
}

#[test]
fn two_restart_climbs_side_by_side_answer_as_each_alone() {
    // Overlapping (the climbs run their probes, of unequal counts) and apart (one may stop at
    // its first test while the other climbs on): each answer of the pair, bit for bit, the one
    // climb's alone.
    let (a, b) = unlike_pair();
    let directions = [
        Vector3::new(0.3, -0.8, 0.5),
        Vector3::new(-0.9, 0.1, 0.4),
        Vector3::new(0.2, 0.2, -0.95),
        Vector3::new(0.7, 0.7, 0.1),
    ]
    .map(unit);
    let turn = UnitQuaternion::from_scaled_axis(Vector3::new(0.4, -0.2, 0.7));
    let mut climbs = 0;
    for depth in [0.3, 0.05, -0.02] {
        let pose_b = constructed(
            &a,
            &b,
            &Vector3::new(0.2, 0.9, -0.3).normalize(),
            turn,
            depth,
        );
        let bodies = Bodies::posed(&a, &b, &pose_b);
        for pair in directions.windows(2) {
            let both = bodies.prefilter_pair([pair[0], pair[1]], RESTART_PROBES, CLIMB_MAX_STEP);
            for (alone, side_by_side) in pair.iter().zip(&both) {
                let alone = bodies.prefilter(*alone, None, RESTART_PROBES, CLIMB_MAX_STEP);
                assert_eq!(prefilter_numbers(&alone), prefilter_numbers(side_by_side));
                if let Prefilter::Undecided { steps, .. } = alone {
                    climbs += usize::from(steps > 0);
                }
            }
        }
    }
    // The comparison covered real climbs, not only first tests.
    assert!(climbs >= 4, "{climbs}");
}

/// A plate or needle pair in light contact, from `seed`: each body has one or two semi-axes of
/// `1/aspect` against 1 (on a random axis) and squareness in `[1 - spread, 1 + spread]`; B turned
/// at random and placed by [`constructed`] at a depth of up to `2e-5` (times `50/aspect`) along a
/// random direction. Returns A, B, B's pose and the depth.
fn elongated_pair(
    seed: u64,
    aspect: f64,
    spread: f64,
) -> (Superellipsoid, Superellipsoid, Pose, f64) {
    let r = uniform(seed, 16);
    let body = |k: usize| {
        let mut radii = [1.0; 3];
        let axis = (r[k] * 3.0) as usize % 3;
        radii[axis] = 1.0 / aspect;
        if r[k + 1] < 0.5 {
            radii[(axis + 1) % 3] = 1.0 / aspect;
        }
        let eps = |x: f64| 1.0 + spread * (2.0 * x - 1.0);
        Superellipsoid::new(radii[0], radii[1], radii[2], eps(r[k + 2]), eps(r[k + 3])).unwrap()
    };
    let (a, b) = (body(0), body(4));
    let u = Vector3::new(r[8] - 0.5, r[9] - 0.5, r[10] - 0.5).normalize();
    let rot = UnitQuaternion::from_scaled_axis(Vector3::new(
        6.0 * r[11] - 3.0,
        6.0 * r[12] - 3.0,
        6.0 * r[13] - 3.0,
    ));
    let depth = 2e-5 * (50.0 / aspect) * (0.01 + r[14]);
    (a, b, constructed(&a, &b, &u, rot, depth), depth)
}

/// Whether a cold answer for B at `pose_b` is the construction's common normal of `depth` or a
/// shallower one (a pair found apart passes: pointed bodies can miss each other), and its
/// iterations.
fn no_deeper_than_constructed(
    a: &Superellipsoid,
    b: &Superellipsoid,
    pose_b: &Pose,
    depth: f64,
) -> (bool, u32) {
    let solution = common_normal(a, b, pose_b, &mut WarmState::cold()).unwrap();
    let c = solution.contact;
    (
        !c.touching || c.penetration <= depth * (1.0 + 1e-6),
        solution.iterations,
    )
}

#[test]
fn elongated_pairs_converge_in_few_iterations() {
    // Plates and needles of aspect ratio 50 (one or two radii of 0.02 against 1), eps in
    // [0.5, 1.5], crossing at random in light contact: where the Newton model is not positive
    // definite, Levenberg-Marquardt's damping adapts to the steps taken (tenfold down after a
    // full step, tenfold up after a backtrack), so the soft directions of an ill-conditioned
    // pair are not held to the stiff one's scale. Every answer is the construction's common
    // normal or a shallower one.
    let (mut iterations, mut pairs) = (0, 0);
    for seed in 0..300u64 {
        let (a, b, pose_b, depth) = elongated_pair(seed + 4000, 50.0, 0.5);
        let (ok, its) = no_deeper_than_constructed(&a, &b, &pose_b, depth);
        assert!(ok, "seed {seed}: deeper than {depth}");
        iterations += its;
        pairs += 1;
    }
    let mean = iterations as f64 / pairs as f64;
    // 25.4 (32.3 with the damping fixed at 1e-3 of the model's trace).
    assert!(mean <= 29.0, "mean iterations {mean}");
}

#[test]
fn very_elongated_pairs_reach_the_constructed_depth() {
    // Ellipsoidal plates and needles of aspect ratio 1000: the Gauss-Newton model of `|d|^2` has
    // a condition of about the aspect ratio to the sixth, so descents stall at their budget; the
    // best stalled one goes on with a larger one and reaches the common normal.
    for seed in 0..100u64 {
        let (a, b, pose_b, depth) = elongated_pair(seed + 7000, 1000.0, 0.0);
        let (ok, its) = no_deeper_than_constructed(&a, &b, &pose_b, depth);
        assert!(ok, "seed {seed}: deeper than {depth} ({its} iterations)");
    }
}

#[test]
fn box_like_pairs_in_lasting_contact_continue_their_answers() {
    // Box-like bodies (every eps below 0.25) whose contact direction and B's orientation turn by
    // 1e-3 rad a step at a varying depth: their trust test (curvature radius 1000 times the
    // depth) fails at most edge and corner contacts, so every cold query takes the wide search.
    // A warm answer that continues the last one is taken as it is, with the whole search at
    // every `RECHECK_EVERY`-th query, and must agree with the cold answer at every step.
    let (mut cold_iterations, mut warm_iterations, mut touching) = (0u64, 0u64, 0);
    for seed in 0..3u64 {
        let r = uniform(seed + 9000, 16);
        let body = |k: usize| drawn_body(&r[k..k + 5], (0.5, 2.0), (0.1, 0.24));
        let (a, b) = (body(0), body(5));
        let u0 = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let axis = Vector3::new(r[13] - 0.5, r[14] - 0.5, r[15] - 0.5).normalize();
        let (sa, sb) = (Shape::Superellipsoid(a), Shape::Superellipsoid(b));
        let mut warm = WarmState::cold();
        for step in 0..100 {
            let t = step as f64 * 1e-3;
            let turn = UnitQuaternion::from_scaled_axis(axis * t);
            let u = turn * u0;
            let rot = turn * UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.5));
            let depth = 0.875e-3 * (1.0 + 0.9 * (20.0 * t).sin());
            let pb = constructed(&a, &b, &u, rot, depth);
            let w = collide(&sa, &Pose::identity(), &sb, &pb, Some(&mut warm)).unwrap();
            let c = collide(&sa, &Pose::identity(), &sb, &pb, None).unwrap();
            assert_eq!(w.touching, c.touching, "seed {seed} step {step}");
            if c.touching {
                touching += 1;
                assert!(
                    (w.penetration - c.penetration).abs() < 1e-9 * (1.0 + c.penetration),
                    "seed {seed} step {step}: warm {} cold {}",
                    w.penetration,
                    c.penetration
                );
                assert!(
                    (w.normal - c.normal).norm() < 1e-6,
                    "seed {seed} step {step}"
                );
            }
            cold_iterations += c.iterations as u64;
            warm_iterations += w.iterations as u64;
        }
    }
    assert!(touching > 250, "{touching}");
    assert!(
        warm_iterations * 4 < cold_iterations,
        "warm {warm_iterations} cold {cold_iterations}"
    );
}

/// A penetrating pair of the protocol's construction drawn from `seed` (radii in (0.5, 3), depth
/// up to 1.75e-3): A box-like (both eps in [0.1, 0.25)); B box-like too for an even seed, of
/// moderate squareness ([0.25, 1.75)) for an odd one. Returns A, B, B's pose and the depth.
fn box_like_pair(seed: u64) -> (Superellipsoid, Superellipsoid, Pose, f64) {
    let r = uniform(seed, 14);
    let a = drawn_body(&r[0..5], (0.5, 3.0), (0.1, 0.25));
    let b_eps = if seed % 2 == 0 {
        (0.1, 0.25)
    } else {
        (0.25, 1.75)
    };
    let b = drawn_body(&r[5..10], (0.5, 3.0), b_eps);
    let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
    let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.5) * r[13]);
    let depth = 1.75e-3 * (0.05 + r[13]);
    (a, b, constructed(&a, &b, &u, rotation, depth), depth)
}

#[test]
fn box_like_pairs_restart_from_as_many_directions_as_moderate_ones() {
    // Box-like bodies (every eps below 0.25), alone and with a body of moderate squareness:
    // their first answers fail the trust test at most edges and corners, and the wider search
    // that follows descends from the best `GLOBAL_STARTS` lattice directions, not the
    // `GLOBAL_STARTS_EXTREME` of pointed pairs (then, where the best answer lies on a level
    // ridge of the gap, from along it: at most `2 RIDGE_ANGLES.len()` more). None may end deeper
    // than its construction. (Twice as deep as their rolling balls reach, which would certify
    // the first answer.)
    let mut restarted = 0;
    for seed in 0..120u64 {
        let (a, b, _, _) = box_like_pair(seed + 9500);
        let r = uniform(seed + 9500, 14);
        let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.5) * r[13]);
        let depth = 2.0 * (a.rolling_radius() + b.rolling_radius()) * (1.0 + r[13]);
        let pb = constructed(&a, &b, &u, rotation, depth);
        let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
        assert!(s.contact.touching, "seed {seed}");
        assert!(
            s.contact.penetration <= depth * (1.0 + 1e-6),
            "seed {seed}: {} deeper than {depth}",
            s.contact.penetration
        );
        assert!(
            s.restarts as usize <= GLOBAL_STARTS + 2 * RIDGE_ANGLES.len(),
            "seed {seed}: {s:?}"
        );
        restarted += (s.restarts > 0) as usize;
    }
    // The balls tangent at the contact points certify most of the others' first answers.
    assert!(restarted >= 12, "{restarted} of 120 took the wider search");
}

/// The mean Newton iterations (direction updates but the prefilter's probes) of `solutions`, and
/// how many there are.
fn mean_newton_iterations(solutions: impl Iterator<Item = Solution>) -> (f64, u32) {
    let (newton, count) = solutions.fold((0u32, 0u32), |(newton, count), s| {
        (newton + s.iterations - s.probes, count + 1)
    });
    (newton as f64 / count as f64, count)
}

#[test]
fn box_like_pairs_start_their_descent_where_the_prefilter_climbed() {
    // New box-like pairs (every eps below 0.25, or with a body of moderate squareness) start the
    // Newton descent one step past the prefilter's last ascent direction, as pairs of moderate
    // squareness do: the pairs whose first answer is trusted need 1.8 Newton iterations on
    // average (6.3 from the centre line, as they started before).
    let (mean, first_trusted) = mean_newton_iterations((0..200u64).filter_map(|seed| {
        let (a, b, pb, _) = box_like_pair(seed + 9700);
        let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
        (s.restarts == 0 && s.contact.touching).then_some(s)
    }));
    assert!(first_trusted >= 40, "{first_trusted}");
    assert!(mean < 2.0, "{mean}");
}

/// Whether the search looked beyond its first answer: the restarts, or the expanding polytope of
/// a pair with a nearly pointed body.
fn wider_search_ran(s: &Solution) -> bool {
    s.restarts > 0 || s.polytope_steps > 0
}

#[test]
fn nearly_pointed_pairs_are_proved_by_the_expanding_polytope() {
    // Nearly pointed bodies (every eps in [1.8, 1.9]): a first answer seldom passes the trust
    // test, so a new pair that the prefilter does not exclude goes to the expanding polytope of
    // A - B at once, whose converged normal is the start of the one descent, in place of the
    // first descent and the restarts. None ends deeper than its construction, the polytope
    // decides all but a few (apart, or proved), and the answers it proves are the brute-force
    // minimum translation
    // distance (the first six checked: the brute force is slow). With the restarts in its place
    // the 35 queries that searched wider took 42 Newton iterations on average.
    let mut proved = Vec::new();
    let (mut wider, mut decided) = (0, 0);
    for seed in 0..40u64 {
        let r = uniform(seed + 9900, 14);
        let a = drawn_body(&r[0..5], (0.5, 3.0), (1.8, 1.9));
        let b = drawn_body(&r[5..10], (0.5, 3.0), (1.8, 1.9));
        let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.5) * r[13]);
        let depth = 1.75e-3 * (0.05 + r[13]);
        let pb = constructed(&a, &b, &u, rotation, depth);
        let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
        assert!(
            !s.contact.touching || s.contact.penetration <= depth * (1.0 + 1e-6),
            "seed {seed}: {} deeper than {depth}",
            s.contact.penetration
        );
        if wider_search_ran(&s) {
            wider += 1;
            if s.polytope_steps > 0 && s.restarts == 0 {
                decided += 1;
                if s.contact.touching {
                    proved.push((a, b, pb, s));
                }
            }
        }
    }
    assert!(wider >= 20, "{wider} of 40 took the wider search");
    assert!(
        decided + 2 >= wider,
        "{decided} of {wider} decided by the polytope"
    );
    assert!(proved.len() >= 20, "{} proved touching", proved.len());
    for (a, b, pb, s) in proved.iter().take(6) {
        let (depth, normal) = brute_force_depth(
            &Shape::Superellipsoid(*a),
            &Shape::Superellipsoid(*b),
            pb,
            120,
        );
        // The depth to 1e-9 (ours was up to 9.5e-12 shallower: the brute force's descent stops a
        // little short); the normal to 1e-5 rad, which is as well as the brute force places it
        // at a pointed body's tip, where the overlap changes little with the direction (2.7e-6
        // rad apart at most here).
        assert!(
            (s.contact.penetration - depth).abs() < 1e-9 * depth,
            "{} vs brute force {depth}",
            s.contact.penetration
        );
        assert!(
            (s.contact.normal - normal).norm() < 1e-5,
            "{s:?} vs {normal}"
        );
    }
}

#[test]
fn a_pointed_pair_whose_restart_climbs_merged_basins_reaches_its_shallowest_common_normal() {
    // `validate`, seed 11, interval 4, series 2, chunk 98 pair 5868: with the restart climbs'
    // steps of up to 0.35 rad, every climb of this nearly pointed pair ended at the constructed
    // common normal (depth 9.643e-4) or was skipped there, 1.3 % deeper than the shallowest one,
    // which the Newton descents straight from the lattice directions reached.
    let a = Superellipsoid::new(
        0.732932788003092,
        1.8990647032212966,
        2.6641168799424673,
        1.8697710738818931,
        1.1898944254182544,
    )
    .unwrap();
    let b = Superellipsoid::new(
        1.079199601005648,
        2.9601469927416417,
        0.4330124861294632,
        1.8675065714477368,
        1.7635230495962446,
    )
    .unwrap();
    let pb = Pose::from_wxyz(
        [2.5955994027662874, 0.8562233024668526, 3.253447928161922],
        [
            -0.3296038437984358,
            0.3981913705657128,
            0.5804341812119818,
            0.6292067226604242,
        ],
    )
    .unwrap();
    let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
    assert!(s.contact.touching);
    let shallowest = 9.516487540e-4;
    assert!(
        (s.contact.penetration - shallowest).abs() <= 1e-6 * shallowest,
        "{} (constructed 9.643440271e-4)",
        s.contact.penetration
    );
}

#[test]
fn deep_overlaps_within_the_rolling_balls_are_certified_global_without_restarts() {
    // Ellipsoids (and a sphere with an ellipsoid) overlapping by up to 95 % of their rolling
    // radii's sum, far beyond the trust test's reach at these depths: the first answer is taken,
    // the constructed depth, and the brute-force minimum translation distance agrees with it.
    let mut untrusted = 0;
    for k in 0..24 {
        let r = uniform(900 + k as u64, 16);
        let a = drawn_body(&r[0..5], (0.5, 3.0), (1.0, 1.0));
        let b = if k % 4 == 3 {
            let radius = 0.5 + 2.5 * r[5];
            Superellipsoid::new(radius, radius, radius, 1.0, 1.0).unwrap()
        } else {
            drawn_body(&r[5..10], (0.5, 3.0), (1.0, 1.0))
        };
        let rho = a.rolling_radius() + b.rolling_radius();
        let depth = rho * (0.3 + 0.65 * r[10]);
        let u = Vector3::new(r[11] - 0.5, r[12] - 0.5, r[13] - 0.3).normalize();
        let rotation =
            UnitQuaternion::from_scaled_axis(Vector3::new(r[14] - 0.5, r[15] - 0.5, 0.4) * 4.0);
        let pb = constructed(&a, &b, &u, rotation, depth);
        let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
        assert_eq!(s.restarts, 0, "pair {k}: {s:?}");
        assert!(s.contact.touching);
        assert!(
            (s.contact.penetration - depth).abs() < 1e-9 * depth,
            "pair {k}"
        );
        assert!((s.contact.normal - u).norm() < 1e-6, "pair {k}");
        // The trust test alone would have restarted most of them.
        let bodies = Bodies::posed(&a, &b, &pb);
        let first = bodies.first_order(u);
        let sharpness = smallest_eigenvalue(&first.gram()).max(0.0).sqrt();
        untrusted += (sharpness < SMOOTH_RATIO * depth) as usize;
        if k % 6 == 0 {
            let (reference, normal) = brute_force_depth(
                &Shape::Superellipsoid(a),
                &Shape::Superellipsoid(b),
                &pb,
                60,
            );
            assert!(
                (reference - depth).abs() < 1e-9 * depth,
                "pair {k}: {reference}"
            );
            assert!((normal - u).norm() < 1e-6);
        }
    }
    assert!(
        untrusted >= 12,
        "only {untrusted} of 24 fail the trust test"
    );
}

#[test]
fn overlaps_beyond_the_rolling_balls_take_the_balls_at_their_points_or_the_wide_search() {
    // The same ellipsoids deeper than their rolling radii's sum, where the trust test fails. At
    // 1.5 times that sum the balls tangent at the contact points (the curvature radii there are
    // larger than the rolling radii) still certify the first answer, with no restart. At 12
    // times the constructed normal is far from the shallowest; whatever path the search takes,
    // every answer is the brute-force reference's.
    let a = Superellipsoid::new(0.5, 2.5, 1.0, 1.0, 1.0).unwrap();
    let b = Superellipsoid::new(2.0, 0.6, 0.8, 1.0, 1.0).unwrap();
    let rho = a.rolling_radius() + b.rolling_radius();
    let u = Vector3::new(0.3, -0.8, 0.5).normalize();
    let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.4, 1.1, -0.7));
    for (depth, restarted) in [
        (0.9 * rho, Some(false)),
        (1.5 * rho, Some(false)),
        (12.0 * rho, None),
    ] {
        let pb = constructed(&a, &b, &u, rotation, depth);
        let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
        if let Some(restarted) = restarted {
            assert_eq!(s.restarts > 0, restarted, "{depth}: {s:?}");
        }
        let (reference, _) = brute_force_depth(
            &Shape::Superellipsoid(a),
            &Shape::Superellipsoid(b),
            &pb,
            40,
        );
        assert!(
            (s.contact.penetration - reference).abs() <= 1e-9 * reference,
            "{depth}: {} against {reference}",
            s.contact.penetration
        );
    }
}

#[test]
fn answers_the_tangent_balls_certify_have_no_shallower_direction() {
    // Nearly pointed pairs (every eps in [1.5, 1.9]: no rolling ball) built at a random common
    // normal of the protocol's depths: where the balls tangent at its contact points certify it
    // (`Bodies::tangent_balls_certified`), a brute-force search over directions finds no
    // shallower one. For many of the others it does (the constructed normal of a pointed pair
    // is often not the shallowest), which shows the reference would see a wrong certificate.
    let (mut certified, mut shallower_elsewhere) = (0, 0);
    for seed in 0..48u64 {
        let r = uniform(seed + 7100, 14);
        let a = drawn_body(&r[0..5], (0.5, 3.0), (1.5, 1.9));
        let b = drawn_body(&r[5..10], (0.5, 3.0), (1.5, 1.9));
        let u = Vector3::new(r[10] - 0.5, r[11] - 0.5, r[12] - 0.5).normalize();
        let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(1.3, -0.2, 0.9) * r[13]);
        let depth = 1.75e-3 * (0.05 + r[13]);
        let pb = constructed(&a, &b, &u, rotation, depth);
        let bodies = Bodies::posed(&a, &b, &pb);
        let points = bodies.points(u);
        assert!(!bodies.ball_certified(&points));
        let is_certified = bodies.tangent_balls_certified(&points);
        if !is_certified && shallower_elsewhere >= 3 {
            continue;
        }
        let (reference, _) = brute_force_depth(
            &Shape::Superellipsoid(a),
            &Shape::Superellipsoid(b),
            &pb,
            40,
        );
        let shallower = reference < depth * (1.0 - 1e-9);
        if is_certified {
            certified += 1;
            assert!(!shallower, "seed {seed}: {reference} below {depth}");
        } else {
            shallower_elsewhere += shallower as usize;
        }
    }
    assert!(certified >= 8, "{certified}");
    assert!(shallower_elsewhere >= 3, "{shallower_elsewhere}");
}

#[test]
fn a_box_like_body_s_rolling_ball_certifies_a_deep_packing_overlap() {
    // A pair of the world benchmark's scene overlapping by about 5 % of their size (A box-like,
    // B slightly pointed), which the trust test sent to the wide search: A's rolling ball alone
    // exceeds the depth, so the first answer is taken, and it is the brute-force minimum.
    let a = Superellipsoid::new(
        0.5090676674253394,
        0.44247501775955583,
        0.4440907511011165,
        0.7872275602005236,
        0.7492764589319851,
    )
    .unwrap();
    let b = Superellipsoid::new(
        0.5089096790336624,
        0.5218378236815038,
        0.466120086482461,
        1.2411069535881112,
        1.3055742075580559,
    )
    .unwrap();
    let rotation = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        -0.19682463228868632,
        0.7394291327601721,
        0.1669350492847924,
        0.6218016653807288,
    ));
    let pb = Pose::new(
        Vector3::new(0.6605112436715457, -0.6659402980328887, 0.2263456384564479),
        rotation,
    );
    assert_eq!(b.rolling_radius(), 0.0);
    let s = common_normal(&a, &b, &pb, &mut WarmState::cold()).unwrap();
    assert_eq!(s.restarts, 0, "{s:?}");
    assert!(s.contact.penetration < a.rolling_radius());
    assert_brute_force_minimum(&a, &b, &pb, &s);
}

#[test]
fn a_record_no_query_wrote_starts_cold() {
    // Finite numbers under this kernel's tag that no query wrote (a host's record never zeroed):
    // a contact direction of length 1e299 (its square overflows) made the start a zero vector and
    // the answer a zero normal, the overlapping pair reported apart.
    let a = shape([1.0, 0.8, 0.6], [0.7, 1.2]);
    let b = shape([0.9, 0.7, 1.1], [1.3, 0.5]);
    let (pa, pb) = (
        pose([0.0, 0.0, 0.0], [0.1, 0.2, 0.3]),
        pose([1.2, 0.3, -0.2], [0.4, -0.1, 0.2]),
    );
    let cold = crate::narrow::collide(&a, &pa, &b, &pb, None).unwrap();
    assert!(cold.touching);
    let records: [&[(usize, f64)]; 4] = [
        &[(DIRECTION, 1e299), (TOUCHED, 1.0)],
        &[(DIRECTION, 1e299), (TOUCHED, 0.0)],
        &[(DIRECTION, 0.3), (TOUCHED, 1.0)],
        &[(DIRECTION, 1.0), (TOUCHED, 0.7)],
    ];
    for record in records {
        let mut warm = WarmState::cold();
        warm.kernel = KERNEL;
        for &(slot, value) in record {
            warm.data[slot] = value;
        }
        let answer = crate::narrow::collide(&a, &pa, &b, &pb, Some(&mut warm)).unwrap();
        assert!(!answer.warm_started, "{record:?}");
        assert_eq!(answer.penetration, cold.penetration, "{record:?}");
        assert_eq!(answer.normal, cold.normal, "{record:?}");
    }
}

/// A pair of `validate`'s protocol (series 2): A at the origin, B at `position` turned by the
/// unit quaternion `(w, i, j, k)`, bit for bit as the protocol drew them.
fn protocol_pair(
    a: ([f64; 3], [f64; 2]),
    b: ([f64; 3], [f64; 2]),
    position: [f64; 3],
    wijk: [f64; 4],
) -> (Superellipsoid, Superellipsoid, Pose) {
    let body =
        |(r, e): ([f64; 3], [f64; 2])| Superellipsoid::new(r[0], r[1], r[2], e[0], e[1]).unwrap();
    // A quaternion unit to within a few ulps is taken as it is: the protocol's bits.
    (body(a), body(b), Pose::from_wxyz(position, wijk).unwrap())
}

/// A cold query of `pair` (A at the origin, B at its pose), asserted to touch at `depth`
/// (within 1e-9 of it) along the unit `direction` (within 1e-7 rad); `label` names the case.
fn cold_answer_is(
    (a, b, pose_b): &(Superellipsoid, Superellipsoid, Pose),
    direction: [f64; 3],
    depth: f64,
    label: &str,
) -> Solution {
    let solution = common_normal(a, b, pose_b, &mut WarmState::cold()).unwrap();
    let c = solution.contact;
    assert!(c.touching, "{label}");
    assert!(
        ((c.penetration - depth) / depth).abs() < 1e-9,
        "{label}: depth {} against {depth}",
        c.penetration
    );
    let angle = (c.normal - Vector3::from(direction)).norm();
    assert!(angle < 1e-7, "{label}: normal {angle} rad off");
    solution
}

#[test]
fn a_nearly_pointed_answer_whose_gap_stays_level_across_a_ridge_is_not_trusted() {
    // `validate`, interval 4, series 2, seeds 13, 14 and 20 (chunk 90 pair 1718, chunk 5 pair
    // 1547, chunk 35 pair 1313): the first descent converged to a common normal 0.24, 1.14 and
    // 1.45 rad from the constructed (shallowest) one, 0.23 %, 67.5 % and 7.05 % deeper, where a
    // body's ridge leaves the support gap level across the soft direction although the curvature
    // radius of A - B there is 48, 780 and 23 times the depth: the trust test took it
    // (`Bodies::falls_as_curved`).
    let cases = [
        (
            protocol_pair(
                (
                    [0.38503623654818575, 0.4762626500252175, 2.4261360130845957],
                    [0.3285654799099863, 1.4658987231338378],
                ),
                (
                    [2.1794410749561246, 2.5314864778494757, 1.6006036871212794],
                    [0.704541073530821, 1.808555328193068],
                ),
                [0.12435710627499343, 0.11206601166954698, -4.990299496247177],
                [
                    -0.32895081468693244,
                    0.18746156916529758,
                    0.6695972123673068,
                    0.6389750345614604,
                ],
            ),
            [0.225588262561174, 0.236278535557528, -0.9451361750718362],
            0.001337252531970475,
        ),
        (
            protocol_pair(
                (
                    [0.5732663604594873, 2.0963573347569477, 1.4587653246718526],
                    [1.771826465646818, 1.6417451596439447],
                ),
                (
                    [0.3351410619500195, 1.2275124486311015, 2.1304098694932967],
                    [0.3912161837783439, 1.7466522199810395],
                ),
                [-0.29702593981027914, -0.8531694634042439, 3.190217394679731],
                [
                    0.032248030683478535,
                    -0.96658650361497,
                    0.2461134773164263,
                    -0.06402149505940964,
                ],
            ),
            [0.6946913320702639, -0.37009055955706943, 0.6167956962181056],
            0.0013165148017165525,
        ),
        (
            protocol_pair(
                (
                    [0.3196905273237895, 1.5716377853671057, 1.2611310619896405],
                    [1.6011617125174737, 1.7557061957285656],
                ),
                (
                    [2.032427141503, 0.9234272156242687, 2.216234184476645],
                    [1.8805175675947505, 0.8371236439451033],
                ),
                [
                    0.5455157465650963,
                    -0.36641496500864973,
                    -3.4285002029542264,
                ],
                [
                    -0.6043097322948714,
                    0.3727144020508283,
                    -0.17944178244578804,
                    -0.6809510765615052,
                ],
            ),
            [0.8089531210296459, 0.04223288973984365, -0.5863541856255633],
            0.0013087124069594493,
        ),
    ];
    for (k, (pair, direction, depth)) in cases.iter().enumerate() {
        let solution = cold_answer_is(pair, *direction, *depth, &format!("pair {k}"));
        assert!(wider_search_ran(&solution), "pair {k}");
    }
}

#[test]
fn an_answer_the_polish_leaves_on_a_crease_is_not_trusted() {
    // `validate`, interval 4, series 2, seed 21, chunk 64 pair 7040: the first descent converged
    // on the flat side of B (`eps1` 0.13) to a residual of 2.2e-6 of condition (5)_3, where the
    // curvature radius of A - B is 3000 times the depth; its polish ended on a crease of B's
    // support function, a maximum of the support gap 0.25 rad from the constructed common
    // normal and 5.4e-4 of the depth deeper, and the search took it without a restart.
    let (a, b, pose_b) = protocol_pair(
        (
            [1.2321911987766008, 0.538833697753117, 0.5832833144348963],
            [0.3919560120852933, 1.6756027011108816],
        ),
        (
            [0.7419707505719066, 0.3564285940009368, 2.3262979588669834],
            [0.13211837463240889, 1.5424747371477727],
        ),
        [1.32473421261041, 2.7500585100961343, 0.3162992924446474],
        [
            -0.7444717149874243,
            0.6526753437025875,
            -0.07747430655071211,
            0.11736478658813657,
        ],
    );
    let direction = [
        0.04475380406720424,
        0.9909452861783967,
        -0.12658805955669658,
    ];
    let solution = cold_answer_is(&(a, b, pose_b), direction, 0.0011388940319498845, "seed 21");
    assert!(wider_search_ran(&solution));
}

#[test]
fn a_cold_query_finds_the_shallowest_maximum_along_a_level_ridge() {
    // `validate`, interval 4, seed 11, warm sequence 926, step 20: the support gap has three
    // maxima within 1.7e-7 of each other over 0.15 rad along a nearly pointed body's ridge (`eps1`
    // 1.86), where the smallest curvature radius of A - B is 1.1 to 2.1 times the depth; the
    // cold query's restarts all reached the two deeper ones (4.2e-5 of the depth too deep, 0.053
    // rad off), which the warm query, following the shallowest, did not.
    let (a, b, pose_b) = protocol_pair(
        (
            [1.0836602644411133, 0.3789847717159284, 2.2608203856775786],
            [0.7423801170766612, 1.626615379495624],
        ),
        (
            [0.3348122360487506, 2.0268691525216718, 2.0763905559043225],
            [1.8550056218945519, 0.9599404504654134],
        ),
        [
            0.018315814578930598,
            1.2576991188781972,
            -3.8542959674840125,
        ],
        [
            0.05472409869783886,
            -0.017017289136495622,
            0.864977981337732,
            -0.4985266058025956,
        ],
    );
    // The shallowest maximum, to the accuracy of a brute-force search over 4e5 directions
    // refined by a compass search (gap -1.369601511e-3).
    let direction = [
        0.0012041180947650783,
        0.5972439563807469,
        -0.8020587301851942,
    ];
    cold_answer_is(&(a, b, pose_b), direction, 1.3696015109888999e-3, "seed 11");
}

#[test]
fn an_answer_whose_gap_stays_level_where_a_flat_side_turns_is_not_trusted() {
    // `validate`, interval 4, seed 27. (1) Series 2, chunk 32 pair 1829: A of `eps1` 1.82 has a
    // radius of 4.5e-13 along its ridge at the first answer, where B's flat side (`eps1` 0.16)
    // makes the radius of A - B 13.8; along the soft direction the gap fell as its curvature
    // says, along A's ridge by 0.002 of it, and the answer was 4.4 % too deep, 0.65 rad off.
    // (2) Warm sequence 726, step 56, cold: no body nearly pointed, B nearly box-like (`eps1`
    // 0.249); the first answer, radius 2.9 (3800 times the depth) on B's flat side, was 1.2e-3 of
    // the depth too deep, 0.24 rad from the shallowest common normal, which the warm query kept.
    let cases = [
        (
            protocol_pair(
                (
                    [2.650848467133429, 0.9104282046146599, 2.3798910449262967],
                    [1.8158387101949978, 0.38659553566807536],
                ),
                (
                    [0.938241251276434, 0.5314299107007102, 2.9674989708552677],
                    [0.16035983431712114, 1.5411240627127052],
                ),
                [-4.689143252656197, 0.06617319643193274, 3.851484585504747],
                [
                    0.06397395358721646,
                    -0.8786647470028315,
                    0.150133500727119,
                    -0.44868198938255915,
                ],
            ),
            [-0.5285342734944989, 0.5545789916685567, 0.6427236293629862],
            0.0005907329331472353,
        ),
        (
            protocol_pair(
                (
                    [2.7295058902260454, 2.4979703574523184, 0.5876601098619164],
                    [1.1027696571436074, 1.4863469358063859],
                ),
                (
                    [1.774942382092123, 2.8233598111374136, 2.902635350696604],
                    [0.24916729072925786, 1.693124568349807],
                ),
                [
                    -3.7043202026874673,
                    3.9120748898205218,
                    -0.29159923665116605,
                ],
                [
                    -0.38600114851603,
                    0.7067092590506646,
                    -0.22539313026408928,
                    -0.5484187025860097,
                ],
            ),
            [-0.7031073347682787, 0.704288021854501, 0.09807373790837881],
            0.0007458413285044618,
        ),
    ];
    for (k, (pair, direction, depth)) in cases.iter().enumerate() {
        let solution = cold_answer_is(pair, *direction, *depth, &format!("pair {k}"));
        assert!(wider_search_ran(&solution), "pair {k}");
    }
}

#[test]
fn an_answer_whose_gap_stays_level_along_a_sharp_ridge_of_moderate_squareness_is_not_trusted() {
    // No body nearly pointed or nearly box-like, yet a first answer of radius 94 times the depth
    // that the trust test took was not the shallowest: `validate`, series 2, (1) interval 3 (the
    // paper's), seed 44, chunk 98 pair 1596, 3.4 % too deep, 0.5 rad off, each body's own
    // smallest radius at its point about the depth; (2) interval 4, seed 59, chunk 111 pair 5777
    // (B of `eps1` 1.742), 0.85 % too deep, B's own radius 0.14 of the depth. The constructed
    // common normals are the shallowest (brute force over 4e5 directions, compass-refined).
    let cases = [
        (
            protocol_pair(
                (
                    [0.93858961608362, 0.5069455321920037, 2.153531954883305],
                    [0.5244008876905136, 1.5955342627776012],
                ),
                (
                    [0.6868820609964195, 2.7159664346790935, 2.159897392386932],
                    [1.6534502357620593, 1.5101160265681817],
                ),
                [0.4552784789842461, -0.2674862367556977, 4.205261010906197],
                [
                    -0.4046161882581171,
                    -0.1433546845764783,
                    -0.02783023952902532,
                    -0.9027517113676427,
                ],
            ),
            [0.13610501665061678, -0.3937891030485319, 0.9090685159891788],
            0.0010421562543865264,
        ),
        (
            protocol_pair(
                (
                    [2.094870451189019, 0.7549407010101781, 2.1612155339701267],
                    [0.518376239315008, 1.6431355446737],
                ),
                (
                    [0.6186703247491931, 1.5958759013059767, 1.6076008143117957],
                    [1.7420130665227054, 1.4167327213401681],
                ),
                [-0.17437154149886308, 0.5696952489073955, 3.6376452408175264],
                [
                    0.6505692026923241,
                    0.4922419637587446,
                    -0.5029469067965101,
                    -0.28548549974916604,
                ],
            ),
            [
                0.009978285305906316,
                0.48376028762180473,
                0.8751436556031373,
            ],
            0.0009354876521099569,
        ),
    ];
    for (k, (pair, direction, depth)) in cases.iter().enumerate() {
        let solution = cold_answer_is(pair, *direction, *depth, &format!("pair {k}"));
        assert!(wider_search_ran(&solution), "pair {k}");
    }
}

#[test]
fn a_trusted_answer_the_polish_moves_is_checked_for_curvature_where_it_ends() {
    // `validate`, interval 4, seed 61, series 2, chunk 57 pair 845 (B of `eps2` 1.73): the first
    // descent stopped on B's ridge at a residual of 6.9e-8, radius 33 times the depth (trusted);
    // the polish moved it 9e-6 rad to a common normal of radius 12.8 times the depth, 1.1e-5 of
    // the depth deeper than the constructed one, 0.023 rad away (the shallowest: brute force
    // over 4e5 directions, compass-refined).
    let pair = protocol_pair(
        (
            [1.1543925382526827, 1.2950757174184284, 0.8255178922482223],
            [0.32805599693379434, 1.5605019838378336],
        ),
        (
            [2.298015436990834, 2.6406101433820677, 1.3213920073690548],
            [1.0419043476881982, 1.7307916248893496],
        ),
        [0.45222742386851084, -0.3471308605830713, -3.111789631353773],
        [
            0.12739441374133798,
            -0.602400295417999,
            0.1789813763652293,
            -0.7673657630766547,
        ],
    );
    let direction = [
        -0.02305816376708263,
        -0.018875355143094838,
        -0.9995559224235092,
    ];
    let solution = cold_answer_is(&pair, direction, 0.001487968497052258, "seed 61");
    assert!(wider_search_ran(&solution));
}

#[test]
fn a_warm_answer_keeps_its_common_normal_against_a_restart_level_to_rounding() {
    // `validate`, interval 4, seed 15, warm sequence 558, step 7: the warm answer lay on the
    // constructed common normal but was not trusted (its curvature radius is below 20 times the
    // depth); a restart ended 2.3e-6 rad off along a nearly flat valley of the support gap,
    // higher by rounding alone, and replaced it, and the polish from there stopped 1.2e-6 rad
    // from the cold answer. Of two answers level to rounding, the nearer common normal is kept.
    let (a, b, pose_b) = protocol_pair(
        (
            [0.5357462851379475, 1.6230018499170908, 2.9468614043404155],
            [1.7119791852357267, 0.44531581911012297],
        ),
        (
            [1.9134406928316137, 2.8715662592987314, 2.577325485993072],
            [1.2671761289428314, 1.8019152865623922],
        ),
        [0.8893805045164009, -3.9843310453760146, -2.6325483176290643],
        [
            -0.752891167093938,
            0.1399823284788645,
            -0.6378240568310629,
            -0.08209939557102987,
        ],
    );
    // The warm state before that query, as the sequence left it.
    let mut warm = WarmState {
        kernel: KERNEL,
        steps: 7,
        data: [
            0.298017447775088,
            -0.8424531333427084,
            -0.44884108428560293,
            1.0,
            0.29831257460122274,
            -0.8420661462430735,
            -0.4493709082552285,
            1.0,
            0.29860711628393366,
            -0.841678741072945,
            -0.4499007523115022,
            0.2989010725401467,
            -0.841290918216507,
            -0.45043061592300404,
            4.0,
        ],
    };
    let (sa, sb) = (Shape::Superellipsoid(a), Shape::Superellipsoid(b));
    let origin = Pose::identity();
    let warm_answer = collide(&sa, &origin, &sb, &pose_b, Some(&mut warm)).unwrap();
    let cold_answer = collide(&sa, &origin, &sb, &pose_b, None).unwrap();
    let direction = Vector3::new(0.2977217361131819, -0.8428397019813444, -0.4483112809307293);
    for (name, c) in [("warm", warm_answer), ("cold", cold_answer)] {
        assert!(c.touching, "{name}");
        let angle = (c.normal - direction).norm();
        assert!(
            angle < 1e-7,
            "{name}: normal {angle} rad off the construction"
        );
    }
    assert!((warm_answer.normal - cold_answer.normal).norm() < 1e-7);
    assert!(
        (warm_answer.penetration - cold_answer.penetration).abs() <= 1e-9 * cold_answer.penetration
    );
}

#[test]
fn a_warm_answer_that_follows_its_branch_takes_the_whole_trust_test() {
    // `validate`, interval 4, seed 79, warm sequence 377, steps 56-63 (A of `eps` 0.37 / 1.86,
    // B of 1.90 / 1.04): the depths of two common normals 0.98 rad apart cross between steps 60
    // and 61. Every cold query restarts. A warm answer that followed its branch skipped the fall
    // checks between the `RECHECK_EVERY`-th queries and kept the deeper branch at steps 61-63,
    // 1.9-6.6 % deeper than the cold answers. The warm queries here start cold at step 56, so
    // that steps 57-63 all come between two rechecks.
    let (a, b, _) = protocol_pair(
        (
            [0.8604483256187898, 1.6165804579344802, 2.4465585627756865],
            [0.37401402058186994, 1.8555443881783031],
        ),
        (
            [2.282196478010412, 2.2117920934892927, 1.0175389171828126],
            [1.8974389257532436, 1.0386915831393977],
        ),
        [0.0, 0.0, 5.0],
        [1.0, 0.0, 0.0, 0.0],
    );
    let steps: [([f64; 3], [f64; 4]); 8] = [
        (
            [0.4386615071373031, -0.196299728312925, 4.605298087320753],
            [
                0.6747902428577827,
                0.7263762810626159,
                0.01622351667480741,
                -0.12950839339703404,
            ],
        ),
        (
            [0.4373810373410904, -0.19469980822222166, 4.605696884152351],
            [
                0.6750796939951673,
                0.7261422093732248,
                0.0159303050919725,
                -0.12934884576848565,
            ],
        ),
        (
            [0.43609907652483204, -0.19310841646408297, 4.606092909428419],
            [
                0.6753689763626323,
                0.7259079561482854,
                0.0156370895265614,
                -0.12918926580272652,
            ],
        ),
        (
            [0.4348159380123319, -0.19152368653521767, 4.606486282118954],
            [
                0.6756580898878565,
                0.7256735214463608,
                0.015343870051878003,
                -0.1290296535396516,
            ],
        ),
        (
            [0.43353216931053423, -0.18994237503607336, 4.606877192502299],
            [
                0.6759470344985621,
                0.7254389053260594,
                0.015050646741227176,
                -0.12887000901916393,
            ],
        ),
        (
            [0.4322479602071823, -0.1883633589974864, 4.607265709941216],
            [
                0.6762358101225121,
                0.7252041078460355,
                0.014757419667914738,
                -0.1287103322811747,
            ],
        ),
        (
            [0.43096341085031087, -0.18678604718950464, 4.607651873189953],
            [
                0.6765244166875135,
                0.7249691290649884,
                0.014464188905247456,
                -0.12855062336560308,
            ],
        ),
        (
            [0.42967858378592255, -0.18521007150433866, 4.608035708083824],
            [
                0.676812854121414,
                0.724733969041663,
                0.014170954526533037,
                -0.1283908823123763,
            ],
        ),
    ];
    let (sa, sb) = (Shape::Superellipsoid(a), Shape::Superellipsoid(b));
    let origin = Pose::identity();
    let mut warm = WarmState::cold();
    for (k, (position, wijk)) in steps.iter().enumerate() {
        let step = 56 + k;
        let pose_b = Pose::from_wxyz(*position, *wijk).unwrap();
        let w = collide(&sa, &origin, &sb, &pose_b, Some(&mut warm)).unwrap();
        let c = collide(&sa, &origin, &sb, &pose_b, None).unwrap();
        assert!(w.touching && c.touching, "step {step}");
        assert!(
            (w.penetration - c.penetration).abs() <= 1e-9 * c.penetration,
            "step {step}: warm {} cold {}",
            w.penetration,
            c.penetration
        );
        assert!((w.normal - c.normal).norm() < 1e-7, "step {step}");
    }
}

#[test]
fn a_nearly_pointed_answer_whose_gap_stays_level_inside_the_fall_angle_is_not_trusted() {
    // `validate`, interval 4, seed 61, series 2, chunk 94 pair 5560 (A of `eps` 1.87 / 0.64, B
    // of 0.63 / 1.54): the first answer, radius 33 times the depth, fell as predicted at the fall
    // check's angle (0.25 rad) but by 0.05-0.11 of the prediction at a quarter of it; the
    // constructed common normal, 0.017 rad away along the soft direction, is shallower by
    // 1.26e-6 of the depth (the shallowest: brute force over 4e5 directions, compass-refined).
    let pair = protocol_pair(
        (
            [0.6885390849149722, 2.037569815442554, 0.6358360566293151],
            [1.8737910321581626, 0.635774939511925],
        ),
        (
            [2.7312436469698804, 1.1291205702687834, 2.711390144183675],
            [0.6274876632768495, 1.5360863973973662],
        ),
        [
            -0.07150099766540113,
            -4.610855166665546,
            -0.9928759328471438,
        ],
        [
            -0.7940880259196658,
            0.5910987940279814,
            -0.09481473193874322,
            -0.10505517310945978,
        ],
    );
    let direction = [
        -0.0249633122688525,
        -0.9420442940980766,
        -0.33455848666238364,
    ];
    let solution = cold_answer_is(&pair, direction, 0.0010597380691177167, "seed 61 pair 5560");
    assert!(wider_search_ran(&solution));
}

#[test]
fn a_level_arc_beyond_a_curved_answer_gets_starts_along_it() {
    // `validate`, interval 4, seed 120, series 2, chunk 39 pair 1961 (A of `eps` 1.70 / 1.69, B
    // of 1.74 / 0.57, no body nearly pointed): the first answer's radius of curvature along the
    // soft direction is 5.2 times the depth (no level ridge by the curvature), and the restarts
    // all missed the constructed common normal 0.05 rad away along it, 2.9e-4 of the depth
    // shallower (the shallowest: brute force over 4e5 directions, compass-refined), over which
    // the gap falls by less than 4e-4 of the depth.
    let pair = protocol_pair(
        (
            [0.37164336301826256, 0.6032540334317713, 2.514759821645117],
            [1.7028119440296154, 1.6857732452041982],
        ),
        (
            [1.970178287128366, 0.3160037339521841, 2.6143896866697967],
            [1.7416926704216749, 0.5660094265757233],
        ),
        [
            -0.36530957197585323,
            0.17307065273237043,
            -5.034583448284716,
        ],
        [
            0.6959777625813445,
            0.0966843907937434,
            0.048096402116114545,
            0.709897047939061,
        ],
    );
    let direction = [0.7095108670655643, 0.08468432099986153, -0.6995876609065254];
    let solution = cold_answer_is(
        &pair,
        direction,
        0.0005235177486664425,
        "seed 120 pair 1961",
    );
    assert!(wider_search_ran(&solution));
}

/// A squareness so small that its exponent `eps / (2 - eps)` rounds to zero (a subnormal `eps`):
/// the body is its box. Two such unit boxes face to face, 0.1 into each other along x and shifted
/// across: the depth 0.1 along x, in both orders. (A debug build stopped at `fast_pow::pow`'s
/// assertion of a positive exponent; the release build took `f64::powf`'s `x^0 = 1` there.)
#[test]
fn a_squareness_whose_exponent_rounds_to_zero_is_a_box() {
    for eps in [5e-324, 1e-310] {
        let body = Shape::Superellipsoid(Superellipsoid::new(1.0, 1.0, 1.0, eps, eps).unwrap());
        let (pa, pb) = (pose([0.0; 3], [0.0; 3]), pose([1.9, 0.3, -0.2], [0.0; 3]));
        for (first, second, sign) in [(&pa, &pb, 1.0), (&pb, &pa, -1.0)] {
            let c = collide(&body, first, &body, second, None).unwrap();
            assert!(c.touching, "eps {eps:e}: {c:?}");
            assert!((c.penetration - 0.1).abs() < 1e-9, "eps {eps:e}: {c:?}");
            assert!(
                (c.normal - Vector3::x() * sign).norm() < 1e-9,
                "eps {eps:e}: {c:?}"
            );
        }
    }
}
