//! Shapes: immutable geometric data in a body frame. The algorithms that use them live in
//! [`crate::narrow`].

mod inner_ellipsoid;
mod polyhedron;
mod potential_particle;
mod smooth_convex;
mod sphere;
mod superellipsoid;
mod symmetric_tensor;

pub use inner_ellipsoid::apex_hull_contains;
#[cfg(test)]
pub(crate) use polyhedron::raised_corner_box;
pub use polyhedron::{CreasedFace, GaussArc, Polyhedron, PolyhedronEdge, CREASE_POINT_LIMIT};
pub use potential_particle::{
    minimise_piecewise_quadratic, Minimum, PotentialParticle, QuadraticModel,
};
pub use smooth_convex::{
    gauges_at_most_pair, point_with_normal_first_pair, point_with_normal_pair, SmoothConvex,
};
pub use sphere::Sphere;
pub use superellipsoid::{
    coarse_support, LogSupport, PointDerivatives, Superellipsoid, LOG_DOMAIN_MARGIN,
};
pub use symmetric_tensor::SymmetricTensor3;

use crate::pose::Pose;
use nalgebra::Vector3;

/// The lengths (host length unit) for which the superellipsoid and polyhedron kernels are
/// validated: a superellipsoid's radii, and a polyhedron's coordinates (their largest magnitude)
/// and extent (its bounding-box diagonal), must lie here. Beyond, the kernels' products of
/// lengths leave the range of double precision and their answers lose accuracy (their results
/// then no longer scale with the lengths); the constructors refuse such shapes with
/// [`Error::InvalidArgument`](crate::error::Error::InvalidArgument). Spheres and potential
/// particles take any length: their answers scale with the bodies from about `1e-150` to `1e150`
/// (tested at `2^-500` and `2^500`).
pub const VALIDATED_LENGTHS: std::ops::RangeInclusive<f64> = 1e-30..=1e30;

/// Which family a shape belongs to.
///
/// The discriminants are part of the C ABI (`DEMCONTACT_SHAPE_*`): append only, never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum ShapeFamily {
    /// [`Sphere`].
    Sphere = 1,
    /// [`Superellipsoid`].
    Superellipsoid = 2,
    /// [`Polyhedron`].
    Polyhedron = 3,
    /// [`PotentialParticle`].
    PotentialParticle = 4,
}

/// A particle shape of any supported family, in its body frame.
// A polyhedron is far larger than the other variants; shapes are built once and held behind
// handles, and boxing it would add an indirection to every contact query.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A sphere centred on the body-frame origin.
    Sphere(Sphere),
    /// A superellipsoid centred on the body-frame origin, its axes along the body axes.
    Superellipsoid(Superellipsoid),
    /// A convex polyhedron in the caller's frame (its vertices as given).
    Polyhedron(Polyhedron),
    /// A potential particle (Boon, Houlsby & Utili 2013, eq. (2)) in its body frame.
    PotentialParticle(PotentialParticle),
}

impl AsRef<Shape> for Shape {
    fn as_ref(&self) -> &Shape {
        self
    }
}

impl Shape {
    /// The shape's family.
    pub fn family(&self) -> ShapeFamily {
        match self {
            Shape::Sphere(_) => ShapeFamily::Sphere,
            Shape::Superellipsoid(_) => ShapeFamily::Superellipsoid,
            Shape::Polyhedron(_) => ShapeFamily::Polyhedron,
            Shape::PotentialParticle(_) => ShapeFamily::PotentialParticle,
        }
    }

    /// The radius of the smallest sphere about the body-frame origin that holds the shape (for a
    /// potential particle, a sphere that holds it: see [`PotentialParticle::bounding_radius`]).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::Sphere(s) => s.radius(),
            Shape::Superellipsoid(s) => s.bounding_radius(),
            Shape::Polyhedron(p) => p.bounding_radius(),
            Shape::PotentialParticle(p) => p.bounding_radius(),
        }
    }

    /// The point of the shape farthest along `direction`, both in the body frame.
    pub fn support_point(&self, direction: &Vector3<f64>) -> Vector3<f64> {
        match self {
            Shape::Sphere(s) => s.support_point(direction),
            Shape::Superellipsoid(s) => s.support_point(direction),
            Shape::Polyhedron(p) => p.support_point(direction),
            Shape::PotentialParticle(p) => p.support_point(direction),
        }
    }

    /// The tight world-frame axis-aligned bounding box `(lo, hi)` of the shape at `pose` (host
    /// length unit): for spheres, superellipsoids and polyhedra by their own closed forms or
    /// passes, otherwise by the support points along the world axes.
    pub fn aabb(&self, pose: &Pose) -> (Vector3<f64>, Vector3<f64>) {
        match self {
            Shape::Sphere(s) => {
                let r = Vector3::repeat(s.radius());
                (pose.position - r, pose.position + r)
            }
            Shape::Superellipsoid(s) => s.aabb(pose),
            Shape::Polyhedron(p) => p.aabb(pose),
            Shape::PotentialParticle(_) => self.aabb_by_support_points(pose),
        }
    }

    /// [`Self::aabb`] by [`aabb_by_support`] on the shape's support points.
    fn aabb_by_support_points(&self, pose: &Pose) -> (Vector3<f64>, Vector3<f64>) {
        aabb_by_support(pose, |d| self.support_point(d))
    }
}

/// The world-frame axis-aligned box `(lo, hi)` of a body at `pose` from its `support` point
/// function (body frame, as [`Shape::support_point`]): the support point along each world axis
/// both ways, mapped into the body frame and back (six support points).
pub(crate) fn aabb_by_support(
    pose: &Pose,
    support: impl Fn(&Vector3<f64>) -> Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let mut lo = Vector3::zeros();
    let mut hi = Vector3::zeros();
    for axis in 0..3 {
        let e = Vector3::ith(axis, 1.0);
        let up = pose.transform_point(&support(&pose.inverse_transform_vector(&e)));
        let down = pose.transform_point(&support(&pose.inverse_transform_vector(&-e)));
        hi[axis] = up[axis];
        lo[axis] = down[axis];
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_familys_box_is_the_one_of_its_support_points() {
        // Every family's own box against the six support points along the world axes (a
        // polyhedron's against the box of its vertices, moved one by one), at turned and moved
        // poses: the same to rounding. The polyhedron of 2000 vertices takes the support climbs.
        let points = |n: usize| -> Vec<Vector3<f64>> {
            (0..n)
                .map(|k| {
                    let t = k as f64;
                    Vector3::new(
                        (1.7 * t).sin() * 0.6,
                        (2.3 * t + 0.4).cos() * 0.5,
                        (0.9 * t).sin() * (1.1 * t).cos() * 0.4,
                    )
                })
                .collect()
        };
        let shapes = [
            Shape::Sphere(Sphere::new(0.7).unwrap()),
            Shape::Superellipsoid(Superellipsoid::new(1.0, 0.4, 0.7, 0.3, 1.6).unwrap()),
            Shape::Superellipsoid(Superellipsoid::new(0.5, 2.0, 0.2, 1.0, 1.0).unwrap()),
            Shape::Polyhedron(Polyhedron::new(&points(30)).unwrap()),
            // 2000 points of a spiral on an ellipsoid: every one a vertex of the hull.
            Shape::Polyhedron(
                Polyhedron::new(
                    &(0..2000)
                        .map(|k| {
                            let z = 1.0 - (2.0 * k as f64 + 1.0) / 2000.0;
                            let (sin, cos) = (2.4 * k as f64).sin_cos();
                            let r = (1.0 - z * z).sqrt();
                            Vector3::new(r * cos, 0.6 * r * sin, 0.4 * z)
                        })
                        .collect::<Vec<_>>(),
                )
                .unwrap(),
            ),
        ];
        if let Shape::Polyhedron(p) = &shapes[4] {
            assert!(p.num_vertices() > 1024, "{}", p.num_vertices());
        }
        for (k, shape) in shapes.iter().enumerate() {
            for step in 0..20 {
                let t = step as f64;
                let pose = Pose::new(
                    Vector3::new(3.0 * t, -1.0, 0.5 * t),
                    nalgebra::UnitQuaternion::from_scaled_axis(Vector3::new(
                        0.3 * t,
                        1.0 - 0.1 * t,
                        0.7,
                    )),
                );
                let (lo, hi) = shape.aabb(&pose);
                // A polyhedron's reference is the box of all its vertices, moved one by one.
                let (lo_ref, hi_ref) = match shape {
                    Shape::Polyhedron(p) => p.vertices().iter().fold(
                        (
                            Vector3::repeat(f64::INFINITY),
                            Vector3::repeat(f64::NEG_INFINITY),
                        ),
                        |(lo, hi), v| {
                            let x = pose.transform_point(v);
                            (lo.inf(&x), hi.sup(&x))
                        },
                    ),
                    _ => shape.aabb_by_support_points(&pose),
                };
                let size = 1.0 + pose.position.norm();
                assert!(
                    (lo - lo_ref).amax() <= 1e-14 * size && (hi - hi_ref).amax() <= 1e-14 * size,
                    "shape {k}, step {step}: {lo:?} {hi:?} against {lo_ref:?} {hi_ref:?}"
                );
            }
        }
    }

    #[test]
    fn sphere_aabb_is_centre_plus_minus_radius() {
        let s = Shape::Sphere(Sphere::new(0.5).unwrap());
        let pose = Pose::from_wxyz([1.0, 2.0, 3.0], [0.5, 0.5, 0.5, 0.5]).unwrap();
        let (lo, hi) = s.aabb(&pose);
        assert!((lo - Vector3::new(0.5, 1.5, 2.5)).norm() < 1e-15);
        assert!((hi - Vector3::new(1.5, 2.5, 3.5)).norm() < 1e-15);
        assert_eq!(s.family(), ShapeFamily::Sphere);
        assert_eq!(s.bounding_radius(), 0.5);
    }
}
