//! Closed-form cases: the sphere limit and aligned rounded cubes face to face.

use super::super::Outcome;
use crate::potential_reference::clarabel_socp;
use crate::table::{sci, Table};
use demcontact::narrow::collide;
use demcontact::shapes::{PotentialParticle, Shape};
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};

/// Error allowed on closed-form quantities, relative to the size.
const TOLERANCE: f64 = 1e-12;

/// Error allowed on clarabel's answer to the same cases (its tolerances are 1e-13 on the gap).
const CLARABEL_TOLERANCE: f64 = 1e-7;

/// Six axis planes at distance `h`.
fn cube(h: f64, r: f64, big_r: f64, k: f64) -> PotentialParticle {
    let planes: Vec<[f64; 4]> = (0..6)
        .map(|i| {
            let mut p = [0.0, 0.0, 0.0, h];
            p[i / 2] = if i % 2 == 0 { 1.0 } else { -1.0 };
            p
        })
        .collect();
    PotentialParticle::new(&planes, r, big_r, k).expect("a valid cube")
}

/// The cases' table.
pub fn validate() -> Outcome {
    let mut t = Table::new(
        "Potential particles (a): closed forms, ours (collide, world frame) and clarabel",
        &[
            "case",
            "quantity",
            "exact",
            "ours error",
            "clarabel error",
            "check",
        ],
    );
    let mut passed = true;
    let mut row = |t: &mut Table, case: &str, what: &str, exact: f64, ours: f64, reference: f64| {
        let ok = (ours - exact).abs() <= TOLERANCE * exact.abs().max(1.0)
            && (reference - exact).abs() <= CLARABEL_TOLERANCE * exact.abs().max(1.0);
        passed &= ok;
        t.row(vec![
            case.into(),
            what.into(),
            format!("{exact:.12}"),
            sci((ours - exact).abs()),
            sci((reference - exact).abs()),
            super::super::polyhedra::verdict(ok),
        ]);
    };
    // Sphere limit: planes at 100, R = 1 and 0.5, k = 0.25: spheres of radius 2 and 1.
    let a = cube(100.0, 0.1, 1.0, 0.25);
    let b = cube(100.0, 0.1, 0.5, 0.25);
    let (sa, sb) = (
        Shape::PotentialParticle(a.clone()),
        Shape::PotentialParticle(b.clone()),
    );
    for (i, distance) in [2.5, 2.9, 3.4].into_iter().enumerate() {
        let direction = Vector3::new(0.3, -0.5, 0.8).normalize();
        let pa = Pose::new(
            Vector3::new(1.0, -2.0, 0.5),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 1.0, -0.2)),
        );
        let pb = Pose::new(
            pa.position + direction * distance,
            UnitQuaternion::from_scaled_axis(Vector3::new(-1.1, 0.2, 0.7)),
        );
        let c = collide(&sa, &pa, &sb, &pb, None).expect("a contact");
        let reference = clarabel_socp(&a, &pa, &b, &pb).expect("clarabel solves it");
        // |x| / 2 = distance - |x|: the optimum 2 distance / 3 from A's centre, s = distance / 3.
        let along = |p: &Vector3<f64>| (p - pa.position).dot(&direction);
        let case = format!("sphere limit, radii 2 and 1, centres {distance} apart");
        row(
            &mut t,
            &case,
            "optimum along the centre line",
            2.0 * distance / 3.0,
            along(&c.point),
            along(&reference.point),
        );
        row(
            &mut t,
            &case,
            "s",
            distance / 3.0,
            {
                let x = pa.inverse_transform_point(&c.point);
                (a.potential(&x) + 1.0).sqrt()
            },
            reference.s_a,
        );
        let overlap = 3.0 - distance;
        if overlap > 0.0 {
            row(&mut t, &case, "overlap", overlap, c.penetration, overlap);
        } else {
            row(
                &mut t,
                &case,
                "separation (exact for spheres)",
                -overlap,
                c.separation,
                -overlap,
            );
        }
        row(
            &mut t,
            &case,
            "normal . centre line",
            1.0,
            c.normal.dot(&direction),
            1.0,
        );
        if i == 0 {
            row(
                &mut t,
                &case,
                "optimum off the line",
                0.0,
                (c.point - pa.position - direction * along(&c.point)).norm(),
                0.0,
            );
        }
    }
    // Aligned rounded cubes face to face: along the axis one plane of each is active, so A's
    // surface point solves (1-k)/r^2 (x - h)^2 + k/R^2 x^2 = 1.
    let (h, r, big_r, k) = (0.5, 0.05, 0.95, 0.3);
    let cube_a = cube(h, r, big_r, k);
    let shape = Shape::PotentialParticle(cube_a.clone());
    let (p, q) = ((1.0 - k) / (r * r), k / (big_r * big_r));
    let reach = (p * h + ((p * h).powi(2) - (p + q) * (p * h * h - 1.0)).sqrt()) / (p + q);
    for overlap in [1e-4, 0.01, 0.04] {
        let pa = Pose::identity();
        let pb = Pose::new(
            Vector3::new(0.0, 0.0, 2.0 * reach - overlap),
            Default::default(),
        );
        let c = collide(&shape, &pa, &shape, &pb, None).expect("a contact");
        let reference = clarabel_socp(&cube_a, &pa, &cube_a, &pb).expect("clarabel solves it");
        let case =
            format!("aligned rounded cubes (h {h}, r {r}, R {big_r}, k {k}), overlap {overlap}");
        row(&mut t, &case, "overlap", overlap, c.penetration, overlap);
        row(
            &mut t,
            &case,
            "optimum (midway)",
            reach - overlap / 2.0,
            c.point.z,
            reference.point.z,
        );
        row(
            &mut t,
            &case,
            "A's surface point",
            reach,
            c.point_a.z,
            reach,
        );
    }
    Outcome {
        report: t.render(),
        passed,
    }
}
