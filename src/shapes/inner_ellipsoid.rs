//! A cheap proof that a point lies in a convex body: the body holds an ellipsoid about its centre
//! and a point of its surface, so it holds their convex hull, and membership of that hull takes a
//! few products, no power and no root.
//!
//! The common-normal search asks, at every answer it considers, whether each contact point lies
//! in the other body (Wellmann, Lillie & Wriggers 2008, section "Contact detection algorithm" and
//! Figure 4: the test against local minima). A contact point `p1` of A sits a depth `delta` along
//! B's inward normal from B's own contact point `p2`, which is on B's surface; for the shallow
//! overlaps of a DEM contact the hull of `p2` and B's inner ellipsoid holds `p1` wherever the
//! inward normal at `p2` points into the cone from `p2` tangent to that ellipsoid. Where it does
//! not, the caller evaluates the body's gauge.

use nalgebra::Vector3;

/// The relative slack by which [`apex_hull_contains`] stays on the safe side of its rounding.
const SLACK: f64 = 1e-9;

/// Whether `q` lies in the convex hull of the point `apex` and the ellipsoid about the origin
/// whose semi-axes along the frame's axes are the reciprocals of `scales` (all in one frame; the
/// points in the host length unit, `scales` in its inverse).
///
/// `true` is a proof, up to the rounding of the inputs: `q` is at most about `1e-15` of the
/// ellipsoid's size outside the hull (the cancellation in `q - apex`), so a body that holds the
/// ellipsoid and `apex` holds `q` to well within the `1e-9` relative tolerance of the search's
/// inside test. `false` proves nothing (`q` is outside the ellipsoid and outside the part of the
/// hull this test recognises, or an input is not finite).
///
/// In coordinates scaled by the semi-axes the ellipsoid is the unit ball and `apex` is at
/// distance `A` from its centre. The hull is the ball together with the cone from `apex` tangent
/// to it (half-angle `asin(1/A)`), up to the plane of the circle where the cone touches the ball
/// (at `A - 1/A` from `apex` along the axis). With `v = q - apex` and `w = v . (-apex)`
/// (`A` times the distance of `q` along the axis): `q` is in that part of the cone when
/// `0 <= w <= A^2 - 1` and `w^2 >= |v|^2 (A^2 - 1)` (the angle between `v` and the axis is at most
/// the half-angle); each comparison is tightened by `1e-9` relative (`SLACK`).
#[inline]
pub fn apex_hull_contains(scales: &[f64; 3], apex: &Vector3<f64>, q: &Vector3<f64>) -> bool {
    let scales = Vector3::from(*scales);
    let (q, apex) = (q.component_mul(&scales), apex.component_mul(&scales));
    if q.norm_squared() <= 1.0 - SLACK {
        return true;
    }
    let v = q - apex;
    let w = -v.dot(&apex);
    let beyond = apex.norm_squared() - 1.0;
    // (An infinite input makes `w` infinite or NaN: no proof.)
    w.is_finite()
        && w >= 0.0
        && w <= beyond * (1.0 - SLACK)
        && w * w * (1.0 - SLACK) >= v.norm_squared() * beyond
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::superellipsoid::tests::Rng;

    /// A vector with components uniform in `[-scale, scale)`.
    fn vector(rng: &mut Rng, scale: f64) -> Vector3<f64> {
        Vector3::new(
            rng.uniform(-scale, scale),
            rng.uniform(-scale, scale),
            rng.uniform(-scale, scale),
        )
    }

    /// Whether `q` lies in the hull of `apex` and the unit ball (with `tolerance`), from the
    /// plane through the axis and `q`: the hull's section is the unit disk together with the
    /// triangle of the apex `(A, 0)` and the tangent points `(1/A, +-sqrt(1 - 1/A^2))`.
    fn in_unit_hull(apex: &Vector3<f64>, q: &Vector3<f64>, tolerance: f64) -> bool {
        let a = apex.norm();
        if q.norm() <= 1.0 + tolerance {
            return true;
        }
        if a <= 1.0 {
            return false;
        }
        let axis = apex / a;
        let x = q.dot(&axis);
        let rho = (q - axis * x).norm();
        let half_width = (1.0 - 1.0 / (a * a)).sqrt();
        x >= 1.0 / a - tolerance
            && x <= a + tolerance
            && rho <= half_width * (a - x) / (a - 1.0 / a) + tolerance
    }

    #[test]
    fn every_point_it_accepts_lies_in_the_hull() {
        let mut rng = Rng(7);
        let (mut accepted, mut in_hull) = (0, 0);
        for _ in 0..20_000 {
            let apex = vector(&mut rng, 2.5);
            let step = rng.uniform(0.0, 2.0);
            let q = apex + vector(&mut rng, step);
            let inside = in_unit_hull(&apex, &q, 1e-12);
            in_hull += inside as usize;
            if apex_hull_contains(&[1.0; 3], &apex, &q) {
                accepted += 1;
                assert!(inside, "{apex} {q}");
            }
        }
        // It recognises most of the hull (all but the points near the cone's boundary and those
        // of the ball's cap beyond the circle of tangency are the ball's).
        assert!(
            accepted as f64 >= 0.99 * in_hull as f64,
            "{accepted} of {in_hull}"
        );
    }

    #[test]
    fn points_on_the_way_from_the_apex_to_the_centre_are_accepted() {
        let scales = [2.0, 0.5, 1.0 / 3.0];
        let apex = Vector3::new(0.9, -2.5, 1.0);
        let centre_ward = -apex.normalize();
        for delta in [1e-12, 1e-6, 1e-3, 0.5] {
            assert!(apex_hull_contains(
                &scales,
                &apex,
                &(apex + centre_ward * delta)
            ));
            // Straight away from the centre is never in the hull.
            assert!(!apex_hull_contains(
                &scales,
                &apex,
                &(apex - centre_ward * delta)
            ));
        }
        // The apex itself, and the ellipsoid's points.
        assert!(apex_hull_contains(&scales, &apex, &apex));
        assert!(apex_hull_contains(
            &scales,
            &apex,
            &Vector3::new(0.0, 1.99, 0.0)
        ));
    }

    #[test]
    fn a_direction_just_outside_the_tangent_cone_is_refused() {
        // Apex at distance 2 on the x axis of the unit ball: half-angle 30 degrees.
        let apex = Vector3::new(2.0, 0.0, 0.0);
        for (angle, inside) in [(29.9f64, true), (30.1, false)] {
            let a = angle.to_radians();
            let q = apex + Vector3::new(-a.cos(), a.sin(), 0.0) * 0.1;
            assert_eq!(apex_hull_contains(&[1.0; 3], &apex, &q), inside, "{angle}");
        }
        // Past the circle of tangency (at 1.5 from the apex along the axis), inside the cone
        // (29.9 degrees) but outside the ball: not in the hull, refused.
        let q = Vector3::new(0.4, 0.92, 0.0);
        assert!(q.norm() > 1.0 && (q - apex).dot(&-apex) / 2.0 > 1.5);
        assert!(((q - apex).y / (apex - q).x).atan().to_degrees() < 30.0);
        assert!(!apex_hull_contains(&[1.0; 3], &apex, &q));
    }

    #[test]
    fn non_finite_inputs_prove_nothing() {
        let apex = Vector3::new(2.0, 0.0, 0.0);
        let nan = Vector3::new(f64::NAN, 0.0, 0.0);
        assert!(!apex_hull_contains(&[1.0; 3], &apex, &nan));
        assert!(!apex_hull_contains(
            &[1.0; 3],
            &nan,
            &Vector3::new(1.9, 0.0, 0.0)
        ));
        let inf = Vector3::new(f64::INFINITY, 0.0, 0.0);
        assert!(!apex_hull_contains(
            &[1.0; 3],
            &inf,
            &Vector3::new(1.9, 0.0, 0.0)
        ));
    }

    /// Through a superellipsoid's inner ellipsoid (`Superellipsoid::inner_scales`), over the whole
    /// squareness range: every point the hull test accepts, with the apex a surface point and the
    /// point a step from it, is inside the body (the gauge at most 1 to rounding); and the inner
    /// ellipsoid itself lies inside.
    #[test]
    fn what_it_accepts_of_a_superellipsoid_lies_inside() {
        let mut rng = Rng(11);
        let (mut accepted, mut tried) = (0, 0);
        for _ in 0..300 {
            let s = rng.shape(0.02, 1.98);
            let scales = s.inner_scales();
            for _ in 0..40 {
                let u = rng.direction();
                let on_ellipsoid = Vector3::new(u.x / scales[0], u.y / scales[1], u.z / scales[2]);
                assert!(
                    s.gauge(&on_ellipsoid) <= 1.0 + 1e-12,
                    "{s:?} {on_ellipsoid}"
                );
                let apex = s.point_with_normal(&rng.direction());
                let step = rng.uniform(1e-9, 1.0) * s.bounding_radius();
                let q = apex + rng.direction() * step;
                tried += 1;
                if apex_hull_contains(&scales, &apex, &q) {
                    accepted += 1;
                    assert!(s.gauge(&q) <= 1.0 + 1e-12, "{s:?} {apex} {q}");
                }
            }
        }
        // The accepted share is large enough for the check to mean something.
        assert!(accepted * 10 > tried, "{accepted} of {tried}");
    }
}
