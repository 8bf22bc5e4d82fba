//! Sphere-sphere contact, exact in closed form.

use super::length::{direction, length};
use crate::contact::{Contact, ContactKind};
use crate::shapes::Sphere;
use crate::warm::WarmState;
use nalgebra::Vector3;

/// Warm-state tag of this kernel.
pub const KERNEL: u32 = 1;

/// Centre distances below this fraction of the radii sum count as concentric: the centre line gives
/// no direction, so the normal falls back on the previous step's (or A's body x axis when cold).
const CONCENTRIC: f64 = 1e-12;

/// The contact of spheres `a` and `b` centred at `centre_a` and `centre_b`, in the frame the centres
/// are given in. Spheres are symmetric under rotation, so this kernel needs no body frame: the
/// dispatcher hands it world positions and gets world results, with no rotation at all. The warm state
/// keeps the last normal (world frame; it changes little in one step) for a pair that becomes
/// concentric, whose centre line gives no direction.
pub fn sphere_sphere(
    a: &Sphere,
    b: &Sphere,
    centre_a: &Vector3<f64>,
    centre_b: &Vector3<f64>,
    warm: &mut WarmState,
) -> Contact {
    let warm_started = warm.claim(KERNEL);
    let centre_b = centre_b - centre_a;
    // Accurate for the smallest and largest distances too (`length`, `direction`), so the normal
    // is a unit vector to rounding.
    let distance = length(&centre_b);
    let radii = a.radius() + b.radius();
    let normal = if distance > CONCENTRIC * radii {
        direction(&centre_b, distance)
    } else if warm_started {
        Vector3::new(warm.data[0], warm.data[1], warm.data[2])
    } else {
        Vector3::x()
    };
    warm.data[..3].copy_from_slice(normal.as_slice());
    let point_a = centre_a + normal * a.radius();
    let point_b = centre_a + centre_b - normal * b.radius();
    let mut contact = Contact::from_points(
        point_a,
        point_b,
        normal,
        radii - distance,
        true,
        ContactKind::Smooth,
    );
    contact.warm_started = warm_started;
    contact
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(r: f64) -> Sphere {
        Sphere::new(r).unwrap()
    }

    const ORIGIN: Vector3<f64> = Vector3::new(0.0, 0.0, 0.0);

    #[test]
    fn overlapping_pair_on_the_x_axis() {
        let b = Vector3::new(2.5, 0.0, 0.0);
        let c = sphere_sphere(
            &sphere(1.0),
            &sphere(2.0),
            &ORIGIN,
            &b,
            &mut WarmState::cold(),
        );
        assert!(c.touching);
        assert!((c.penetration - 0.5).abs() < 1e-15);
        assert_eq!(c.normal, Vector3::x());
        assert_eq!(c.point_a, Vector3::new(1.0, 0.0, 0.0));
        assert_eq!(c.point_b, Vector3::new(0.5, 0.0, 0.0));
        assert_eq!(c.point, Vector3::new(0.75, 0.0, 0.0));
    }

    #[test]
    fn the_smallest_and_largest_spheres_keep_a_unit_normal_and_a_finite_answer() {
        // Centres 1e-159 apart: their squared distance is subnormal, and the plain normalisation
        // was off unit length by 1e-6. Centres 1e156 apart: it overflowed.
        let offset = Vector3::new(0.3, -0.4, 1.2);
        for (radius, scale) in [(1e-150, 1e-159), (1e150, 1e156)] {
            let c = sphere_sphere(
                &sphere(radius),
                &sphere(radius),
                &ORIGIN,
                &(offset * scale),
                &mut WarmState::cold(),
            );
            assert!((c.normal.norm() - 1.0).abs() < 4.0 * f64::EPSILON, "{c:?}");
            assert!((c.normal - offset / 1.3).norm() < 1e-12, "{c:?}");
            let expected = 2.0 * radius - 1.3 * scale;
            assert!(
                (c.penetration - expected.max(0.0)).abs() <= 1e-15 * expected.abs(),
                "{c:?}"
            );
            assert!((c.separation - (-expected).max(0.0)).abs() <= 1e-15 * expected.abs());
        }
    }

    #[test]
    fn concentric_pair_keeps_the_previous_normal() {
        let mut warm = WarmState::cold();
        let near = Vector3::new(0.0, 0.0, 0.1);
        let c = sphere_sphere(&sphere(1.0), &sphere(1.0), &ORIGIN, &near, &mut warm);
        assert!(!c.warm_started);
        assert_eq!(c.normal, Vector3::z());
        let c = sphere_sphere(&sphere(1.0), &sphere(1.0), &ORIGIN, &ORIGIN, &mut warm);
        assert!(c.warm_started);
        assert_eq!(c.normal, Vector3::z());
        assert_eq!(c.penetration, 2.0);
        let c = sphere_sphere(
            &sphere(1.0),
            &sphere(1.0),
            &ORIGIN,
            &ORIGIN,
            &mut WarmState::cold(),
        );
        assert_eq!(c.normal, Vector3::x());
    }
}
