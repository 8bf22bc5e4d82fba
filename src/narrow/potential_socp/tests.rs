use super::*;
use nalgebra::UnitQuaternion;
use proptest::prelude::*;

/// A cube of half-width `h` (6 planes), rounded by `r`, with the shadow sphere `R`, `k`.
pub(crate) fn cube(h: f64, r: f64, big_r: f64, k: f64) -> PotentialParticle {
    let mut planes = Vec::new();
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let mut p = [0.0, 0.0, 0.0, h];
            p[axis] = sign;
            planes.push(p);
        }
    }
    PotentialParticle::new(&planes, r, big_r, k).unwrap()
}

/// A regular tetrahedron with inradius `h`, rounded by `r`.
fn tetrahedron(h: f64, r: f64, big_r: f64, k: f64) -> PotentialParticle {
    let planes = [
        [1.0, 1.0, 1.0, h * 3f64.sqrt()],
        [1.0, -1.0, -1.0, h * 3f64.sqrt()],
        [-1.0, 1.0, -1.0, h * 3f64.sqrt()],
        [-1.0, -1.0, 1.0, h * 3f64.sqrt()],
    ];
    PotentialParticle::new(&planes, r, big_r, k).unwrap()
}

fn pose(p: [f64; 3], axis_angle: [f64; 3]) -> Pose {
    Pose::new(
        Vector3::from(p),
        UnitQuaternion::from_scaled_axis(Vector3::from(axis_angle)),
    )
}

fn solve(a: &PotentialParticle, b: &PotentialParticle, relative: &Pose) -> PotentialSolution {
    potential_socp(a, b, relative, &mut WarmState::cold()).unwrap()
}

#[test]
fn sphere_limit_is_the_closed_form() {
    // Planes at 100 never activate: spheres of radius R / sqrt(k) = 2 and 1.
    let a = cube(100.0, 0.1, 1.0, 0.25);
    let b = cube(100.0, 0.1, 0.5, 0.25);
    let rel = pose([2.5, 0.0, 0.0], [0.3, 0.2, 0.1]);
    let s = solve(&a, &b, &rel);
    // F_A = |x|^2 / 4, F_B = |x - c|^2: equal where |x| / 2 = 2.5 - |x|, so x = 5/3 and s = 5/6.
    assert!((s.optimum.point - Vector3::new(5.0 / 3.0, 0.0, 0.0)).norm() < 1e-12);
    assert!((s.optimum.s_a - 5.0 / 6.0).abs() < 1e-13);
    let c = s.contact;
    assert!(c.touching);
    assert!((c.normal - Vector3::x()).norm() < 1e-12);
    assert!((c.penetration - 0.5).abs() < 1e-12);
    assert!((c.point_a - Vector3::new(2.0, 0.0, 0.0)).norm() < 1e-12);
    assert!((c.point_b - Vector3::new(1.5, 0.0, 0.0)).norm() < 1e-12);
    // Apart: s = 3.5 / 3 and the gap is exact for spheres.
    let s = solve(&a, &b, &pose([0.0, 3.5, 0.0], [0.0; 3]));
    assert!(!s.contact.touching);
    assert!((s.optimum.s_a - 3.5 / 3.0).abs() < 1e-13);
    assert!((s.contact.separation - 0.5).abs() < 1e-12);
}

#[test]
fn aligned_rounded_cubes_face_to_face_solve_a_quadratic() {
    // Along the axis through two face centres only one plane of each cube is active:
    // F(x) = (1-k)/r^2 (x - h)^2 + k/R^2 x^2. A's surface point: the positive root of F = 1.
    let (h, r, big_r, k) = (0.5, 0.1, 1.0, 0.3);
    let a = cube(h, r, big_r, k);
    let (p, q) = ((1.0 - k) / (r * r), k / (big_r * big_r));
    // (p + q) x^2 - 2 p h x + p h^2 - 1 = 0.
    let reach = (p * h + ((p * h).powi(2) - (p + q) * (p * h * h - 1.0)).sqrt()) / (p + q);
    let gap = 2.0 * reach - 0.03;
    let s = solve(&a, &a, &pose([gap, 0.0, 0.0], [0.0; 3]));
    assert!(s.contact.touching);
    assert!((s.contact.penetration - 0.03).abs() < 1e-12);
    assert!((s.contact.normal - Vector3::x()).norm() < 1e-12);
    assert!((s.optimum.point - Vector3::new(gap / 2.0, 0.0, 0.0)).norm() < 1e-12);
    assert!((s.contact.point_a.x - reach).abs() < 1e-12);
}

#[test]
fn warm_start_gives_the_same_answer_in_fewer_steps() {
    let a = cube(0.5, 0.05, 1.0, 0.2);
    let b = tetrahedron(0.4, 0.05, 1.0, 0.3);
    let mut warm = WarmState::cold();
    let (mut cold_steps, mut warm_steps) = (0, 0);
    for step in 0..50 {
        let t = step as f64 * 0.002;
        let rel = pose([0.95 - t, 0.1 + t, 0.05], [0.2 + t, 0.1, -0.3 + 2.0 * t]);
        let cold = solve(&a, &b, &rel);
        let hot = potential_socp(&a, &b, &rel, &mut warm).unwrap();
        assert_eq!(hot.contact.warm_started, step > 0);
        assert!((cold.optimum.point - hot.optimum.point).norm() < 1e-12);
        assert!((cold.optimum.s_a - hot.optimum.s_a).abs() < 1e-13);
        assert!((cold.contact.penetration - hot.contact.penetration).abs() < 1e-12);
        if step > 0 {
            cold_steps += cold.contact.iterations;
            warm_steps += hot.contact.iterations;
        }
    }
    assert!(warm_steps < cold_steps, "{warm_steps} vs {cold_steps}");
}

/// A warm state holding `point` (A's frame, in both bodies' slots) and the multiplier `lambda`.
fn state_at(b: &PotentialParticle, relative: &Pose, point: Vector3<f64>, lambda: f64) -> WarmState {
    let mut state = WarmState::cold();
    state.claim(KERNEL);
    state.data[..3].copy_from_slice(point.as_slice());
    state.data[3] = lambda;
    let in_b = PlacedB::new(b, relative).to_body(&point);
    state.data[4..7].copy_from_slice(in_b.as_slice());
    state
}

/// A rounded cube and tetrahedron overlapping, and their cold answer.
fn overlapping_cube_and_tetrahedron() -> (
    PotentialParticle,
    PotentialParticle,
    Pose,
    PotentialSolution,
) {
    let a = cube(0.5, 0.05, 1.0, 0.2);
    let b = tetrahedron(0.4, 0.05, 1.0, 0.3);
    let rel = pose([0.7, 0.1, 0.05], [0.2, 0.1, -0.3]);
    let cold = solve(&a, &b, &rel);
    assert!(cold.contact.touching);
    (a, b, rel, cold)
}

#[test]
fn a_start_at_an_end_of_the_multiplier_range_still_reaches_the_optimum() {
    // Newton's steps from a multiplier at 0 or 1 are cut short to stay in range; such a step is
    // tiny without being converged, and was taken as convergence: here the solve stopped where
    // s_A != s_B (no optimum), and in a stress probe overlapping pairs were reported apart.
    let (a, b, rel, cold) = overlapping_cube_and_tetrahedron();
    for lambda in [0.0, 1e-300, 1.0 - 1e-16, 1.0] {
        for point in [
            [2.0, 0.0, 0.0],
            [0.0, -1.5, 0.5],
            [-1.0, 1.0, 1.0],
            [0.3, 0.2, 0.1],
        ] {
            let mut state = state_at(&b, &rel, Vector3::from(point), lambda);
            let hot = potential_socp(&a, &b, &rel, &mut state).unwrap();
            assert_optimal(&hot);
            assert!(
                hot.contact.touching
                    && (hot.contact.penetration - cold.contact.penetration).abs() < 1e-12,
                "start {point:?}, lambda {lambda}: {:?} vs {:?}",
                hot.contact,
                cold.contact
            );
        }
    }
}

#[test]
fn a_warm_start_beyond_the_pair_is_not_used() {
    // Finite numbers that no query of this pair wrote (a host's record never zeroed): the
    // query starts cold instead of overflowing.
    let (a, b, rel, cold) = overlapping_cube_and_tetrahedron();
    let mut state = state_at(&b, &rel, Vector3::new(1e299, -3e298, 0.0), 0.5);
    let hot = potential_socp(&a, &b, &rel, &mut state).unwrap();
    assert_eq!(hot.contact.penetration, cold.contact.penetration);
    assert_eq!(hot.optimum.point, cold.optimum.point);
}

fn arb_pose() -> impl Strategy<Value = Pose> {
    (
        prop::array::uniform3(-0.8f64..0.8),
        prop::array::uniform3(-3.0f64..3.0),
    )
        .prop_map(|(p, r)| pose(p, r))
}

fn arb_particle() -> impl Strategy<Value = PotentialParticle> {
    (
        0.3f64..0.6,
        0.02f64..0.2,
        0.5f64..1.5,
        0.05f64..0.9,
        any::<bool>(),
    )
        .prop_map(|(h, r, big_r, k, is_cube)| {
            if is_cube {
                cube(h, r, big_r, k)
            } else {
                tetrahedron(h, r, big_r, k)
            }
        })
}

/// Checks the optimality conditions (KKT) of eq. (6) at a solution.
fn assert_optimal(s: &PotentialSolution) {
    let o = &s.optimum;
    assert!((o.s_a - o.s_b).abs() <= 1e-12 * o.s_a.max(1.0));
    let stationary = o.gradient_a * (1.0 - o.lambda) + o.gradient_b * o.lambda;
    let scale = o.gradient_a.norm() + o.gradient_b.norm();
    assert!(
        stationary.norm() <= 1e-10 * scale,
        "{stationary} vs {scale}"
    );
    assert!((0.0..=1.0).contains(&o.lambda));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(256)))]

    #[test]
    fn optimum_is_a_kkt_point(a in arb_particle(), b in arb_particle(), pa in arb_pose(), pb in arb_pose()) {
        let s = solve(&a, &b, &pa.relative(&pb));
        assert_optimal(&s);
        prop_assert_eq!(s.contact.touching, s.optimum.s_a < 1.0);
        prop_assert!(s.contact.penetration >= 0.0 && s.contact.separation >= 0.0);
    }

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in arb_particle(), b in arb_particle(), pa in arb_pose(), pb in arb_pose()) {
        let ab = crate::narrow::collide(&Shape::PotentialParticle(a.clone()), &pa, &Shape::PotentialParticle(b.clone()), &pb, None).unwrap();
        let ba = crate::narrow::collide(&Shape::PotentialParticle(b), &pb, &Shape::PotentialParticle(a), &pa, None).unwrap();
        prop_assert!((ab.normal + ba.normal).norm() < 1e-9);
        prop_assert!((ab.point - ba.point).norm() < 1e-9);
        prop_assert!((ab.point_a - ba.point_b).norm() < 1e-9);
        prop_assert!((ab.penetration - ba.penetration).abs() < 1e-9);
        prop_assert!((ab.separation - ba.separation).abs() < 1e-9);
        prop_assert_eq!(ab.touching, ba.touching);
    }

    #[test]
    fn rigid_motion_moves_the_contact(a in arb_particle(), b in arb_particle(), pa in arb_pose(), pb in arb_pose(), m in arb_pose()) {
        let (sa, sb) = (Shape::PotentialParticle(a), Shape::PotentialParticle(b));
        let c = crate::narrow::collide(&sa, &pa, &sb, &pb, None).unwrap();
        let moved = crate::narrow::collide(&sa, &m.compose(&pa), &sb, &m.compose(&pb), None).unwrap();
        prop_assert!((m.transform_point(&c.point) - moved.point).norm() < 1e-9);
        prop_assert!((m.transform_vector(&c.normal) - moved.normal).norm() < 1e-9);
        prop_assert!((c.penetration - moved.penetration).abs() < 1e-9);
        prop_assert!((c.separation - moved.separation).abs() < 1e-9);
    }
}

use crate::shapes::Shape;

#[test]
fn mixed_pairs_are_unsupported() {
    let pp = Shape::PotentialParticle(cube(0.5, 0.1, 1.0, 0.3));
    let ball = Shape::Sphere(crate::shapes::Sphere::new(1.0).unwrap());
    let p = Pose::identity();
    for (x, y) in [(&pp, &ball), (&ball, &pp)] {
        assert!(matches!(
            crate::narrow::collide(x, &p, y, &p, None),
            Err(Error::UnsupportedPair(_))
        ));
    }
}
