use super::*;

/// A cube of half-width `h` (6 planes), rounded by `r`, with the shadow sphere `R`, `k`.
fn cube(h: f64, r: f64, big_r: f64, k: f64) -> PotentialParticle {
    let planes = [
        [1.0, 0.0, 0.0, h],
        [-1.0, 0.0, 0.0, h],
        [0.0, 1.0, 0.0, h],
        [0.0, -1.0, 0.0, h],
        [0.0, 0.0, 1.0, h],
        [0.0, 0.0, -1.0, h],
    ];
    PotentialParticle::new(&planes, r, big_r, k).unwrap()
}

#[test]
fn rejects_bad_parameters() {
    let planes = [
        [1.0, 0.0, 0.0, 1.0],
        [-1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, -1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [0.0, 0.0, -1.0, 1.0],
    ];
    assert!(PotentialParticle::new(&planes, 0.1, 2.0, 0.3).is_ok());
    for (r, big_r, k) in [
        (0.0, 2.0, 0.3),
        (-1.0, 2.0, 0.3),
        (0.1, 0.0, 0.3),
        (0.1, 2.0, 0.0),
        (0.1, 2.0, 1.0),
    ] {
        assert!(matches!(
            PotentialParticle::new(&planes, r, big_r, k),
            Err(Error::InvalidArgument(_))
        ));
    }
    assert!(matches!(
        PotentialParticle::new(&planes, f64::NAN, 2.0, 0.3),
        Err(Error::NonFinite(_))
    ));
    let mut bad = planes;
    bad[2][3] = -0.5;
    assert!(matches!(
        PotentialParticle::new(&bad, 0.1, 2.0, 0.3),
        Err(Error::InvalidArgument(_))
    ));
    bad = planes;
    bad[3] = [0.0, 0.0, 0.0, 1.0];
    assert!(matches!(
        PotentialParticle::new(&bad, 0.1, 2.0, 0.3),
        Err(Error::DegenerateGeometry(_))
    ));
    // Without the -z plane nothing bounds the direction -z.
    assert!(matches!(
        PotentialParticle::new(&planes[..5], 0.1, 2.0, 0.3),
        Err(Error::DegenerateGeometry(_))
    ));
    // Four planes whose normals all lie in one half-space: unbounded.
    let half = [
        [1.0, 0.0, 0.1, 1.0],
        [-1.0, 0.0, 0.1, 1.0],
        [0.0, 1.0, 0.1, 1.0],
        [0.0, -1.0, 0.1, 1.0],
    ];
    assert!(matches!(
        PotentialParticle::new(&half, 0.1, 2.0, 0.3),
        Err(Error::DegenerateGeometry(_))
    ));
    // A tetrahedron's four normals do span positively.
    let tet = [
        [1.0, 1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0, 1.0],
        [-1.0, 1.0, -1.0, 1.0],
        [-1.0, -1.0, 1.0, 1.0],
    ];
    assert!(PotentialParticle::new(&tet, 0.1, 2.0, 0.3).is_ok());
}

#[test]
fn normals_are_normalised_with_their_offsets() {
    let planes = [
        [2.0, 0.0, 0.0, 2.0],
        [-1.0, 0.0, 0.0, 1.0],
        [0.0, 3.0, 0.0, 3.0],
        [0.0, -1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [0.0, 0.0, -0.5, 0.5],
    ];
    let p = PotentialParticle::new(&planes, 0.1, 2.0, 0.3).unwrap();
    let q = cube(1.0, 0.1, 2.0, 0.3);
    assert_eq!(p, q);
}

#[test]
fn gradient_matches_finite_differences() {
    let p = cube(1.0, 0.2, 2.0, 0.3);
    let x = Vector3::new(1.05, 0.3, 1.1);
    let g = p.gradient(&x);
    for i in 0..3 {
        let e = Vector3::ith(i, 1e-6);
        let fd = (p.potential(&(x + e)) - p.potential(&(x - e))) / 2e-6;
        assert!((fd - g[i]).abs() < 1e-7, "{fd} vs {}", g[i]);
    }
    // eq. (2) at the origin: -(1-k) - k = -1.
    assert!((p.potential(&Vector3::zeros()) + 1.0).abs() < 1e-15);
}

#[test]
fn support_point_lies_on_the_surface_with_the_normal_along_the_direction() {
    let p = cube(1.0, 0.2, 2.0, 0.3);
    for u in [
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(1.0, 1.0, 1.0),
        Vector3::new(-0.2, 0.7, 0.1),
    ] {
        let y = p.support_point(&u);
        assert!(p.potential(&y).abs() < 1e-12, "f = {}", p.potential(&y));
        let n = p.gradient(&y).normalize();
        assert!((n - u.normalize()).norm() < 1e-9);
        assert!(
            y.norm() <= p.bounding_radius(),
            "{} > {}",
            y.norm(),
            p.bounding_radius()
        );
    }
}

#[test]
fn sphere_limit_has_radius_big_r_over_sqrt_k() {
    // Planes far outside the shadow sphere never activate: the body is the sphere R / sqrt(k).
    let p = cube(100.0, 0.1, 1.0, 0.25);
    let y = p.support_point(&Vector3::new(0.0, 3.0, 4.0));
    assert!((y - Vector3::new(0.0, 1.2, 1.6)).norm() < 1e-13);
    assert!((p.bounding_radius() - 2.0).abs() < 1e-12);
}
