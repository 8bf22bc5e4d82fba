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

fn arb_shape() -> impl Strategy<Value = Shape> {
    (
        prop::array::uniform3(0.5f64..3.0),
        prop::array::uniform2(0.3f64..1.7),
    )
        .prop_map(|(r, e)| shape(r, e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in arb_shape(), b in arb_shape(),
                                         r in prop::array::uniform3(-3.0f64..3.0),
                                         dir in prop::array::uniform3(-1.0f64..1.0),
                                         gap in -0.05f64..0.3) {
        let pa = pose([0.0; 3], [0.0; 3]);
        let d = Vector3::from(dir);
        prop_assume!(d.norm() > 0.1);
        // Place B along d at the distance where the support planes along d overlap by -gap.
        let pb = placed(&a, &b, &d.normalize(), r, gap);
        let ab = collide(&a, &pa, &b, &pb, None).unwrap();
        let ba = collide(&b, &pb, &a, &pa, None).unwrap();
        prop_assert_eq!(ab.touching, ba.touching);
        if ab.touching {
            prop_assert!((ab.normal + ba.normal).norm() < 1e-6, "{:?} {:?}", ab.normal, ba.normal);
            prop_assert!((ab.penetration - ba.penetration).abs() < 1e-9 * (1.0 + ab.penetration));
            prop_assert!((ab.point - ba.point).norm() < 1e-6);
        }
    }

    #[test]
    fn rigid_motion_of_both_bodies_moves_the_contact(a in arb_shape(), b in arb_shape(),
                                                     r in prop::array::uniform3(-3.0f64..3.0),
                                                     m in prop::array::uniform3(-3.0f64..3.0),
                                                     t in prop::array::uniform3(-5.0f64..5.0),
                                                     dir in prop::array::uniform3(-1.0f64..1.0),
                                                     gap in -0.05f64..0.3) {
        let pa = pose([0.0; 3], [0.0; 3]);
        let d = Vector3::from(dir);
        prop_assume!(d.norm() > 0.1);
        let pb = placed(&a, &b, &d.normalize(), r, gap);
        let motion = pose(t, m);
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        let moved = collide(&a, &motion.compose(&pa), &b, &motion.compose(&pb), None).unwrap();
        prop_assert_eq!(c.touching, moved.touching);
        if c.touching {
            prop_assert!((motion.transform_point(&c.point) - moved.point).norm() < 1e-7);
            prop_assert!((motion.transform_vector(&c.normal) - moved.normal).norm() < 1e-7);
            prop_assert!((c.penetration - moved.penetration).abs() < 1e-9);
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
        // is not compared. Where such a face meets a pointed body deeply, the gap's maximum lies on
        // a narrow ridge of directions that only the compass search climbs, to about 1e-8 of the
        // depth and 1e-5 rad (the saved proptest case: depth 1.6 of radii 1.1-2.3), so the
        // tolerances are wider than the DEM-like test's.
        let pa = pose([0.0; 3], [0.0; 3]);
        let pb = pose([dist * 0.6, dist * 0.8, 0.1], r);
        let motion = pose(t, m);
        let c = collide(&a, &pa, &b, &pb, None).unwrap();
        let moved = collide(&a, &motion.compose(&pa), &b, &motion.compose(&pb), None).unwrap();
        prop_assert_eq!(c.touching, moved.touching);
        if c.touching {
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
