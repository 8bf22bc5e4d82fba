//! The peers demcontact is measured against (parry3d-f64), with conversions from our poses.

use demcontact::shapes::Superellipsoid;
use demcontact::Pose;
use nalgebra::Vector3;
use parry3d_f64::math::{Pose as ParryPose, Rot3, Vector};
use parry3d_f64::query::details::contact_support_map_support_map_with_params;
use parry3d_f64::query::gjk::{GJKResult, VoronoiSimplex};
use parry3d_f64::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d_f64::shape::{ConvexPolyhedron, Cuboid, Shape as ParryShape, SupportMap};

/// Our pose as a parry pose.
pub fn parry_pose(p: &Pose) -> ParryPose {
    let q = p.rotation.quaternion();
    ParryPose::from_parts(
        Vector::new(p.position.x, p.position.y, p.position.z),
        Rot3::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

/// Our superellipsoid as a parry support map: the closed-form support point (4 `powf`), which is
/// all parry's GJK and EPA need. This is the alternative a user of a GJK/EPA library has.
#[derive(Debug, Clone, Copy)]
pub struct ParrySuperellipsoid(pub Superellipsoid);

impl SupportMap for ParrySuperellipsoid {
    fn local_support_point(&self, dir: Vector) -> Vector {
        let p = self.0.support_point(&Vector3::new(dir.x, dir.y, dir.z));
        Vector::new(p.x, p.y, p.z)
    }
}

/// parry3d-f64's contact of two support maps (GJK, then EPA when they overlap), B's pose relative
/// to A, reporting contacts up to `prediction` apart; `init` is the direction GJK starts from
/// (A's frame; `None`: the centre line), e.g. the previous step's normal. Returns the distance
/// (negative: penetration depth) and the unit normal from A to B, in A's frame.
pub fn parry_support_contact(
    a: &ParrySuperellipsoid,
    b: &ParrySuperellipsoid,
    pos12: &ParryPose,
    prediction: f64,
    init: Option<Vector>,
) -> Option<(f64, Vector)> {
    let simplex = &mut VoronoiSimplex::new();
    match contact_support_map_support_map_with_params(pos12, a, b, prediction, simplex, init) {
        GJKResult::ClosestPoints(p1, p2, normal) => Some(((p2 - p1).dot(normal), normal)),
        _ => None,
    }
}

/// A point of ours as a parry vector.
pub fn parry_vector(v: &Vector3<f64>) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// parry's convex polyhedron of `points` (body frame), built by parry's own hull
/// (`ConvexPolyhedron::from_convex_hull`); `None` if parry rejects them.
pub fn parry_convex_hull(points: &[Vector3<f64>]) -> Option<ConvexPolyhedron> {
    let points: Vec<Vector> = points.iter().map(parry_vector).collect();
    ConvexPolyhedron::from_convex_hull(&points)
}

/// parry's box of half extents `(hx, hy, hz)`, centred on the body origin.
pub fn parry_cuboid(hx: f64, hy: f64, hz: f64) -> Cuboid {
    Cuboid::new(Vector::new(hx, hy, hz))
}

/// parry3d-f64's `query::contact` of two shapes at world poses with prediction 0: the penetration
/// depth (`-dist`, > 0 when overlapping) and the unit normal from A to B (world frame), or `None`
/// when parry finds them apart (or does not support the pair).
pub fn parry_contact(
    pose_a: &ParryPose,
    a: &dyn ParryShape,
    pose_b: &ParryPose,
    b: &dyn ParryShape,
) -> Option<(f64, Vector)> {
    match parry3d_f64::query::contact(pose_a, a, pose_b, b, 0.0) {
        Ok(Some(c)) => Some((-c.dist, c.normal1)),
        _ => None,
    }
}

/// parry3d-f64's persistent contact path for one pair, as a physics engine keeps it between steps:
/// the pair's `ContactManifold`s and workspace, updated by
/// `DefaultQueryDispatcher::contact_manifolds` (prediction 0), which reuses the previous
/// manifold's points when the motion is small (`try_update_contacts`: normal within 1 degree,
/// anchors within 1e-3) and only re-projects their separations then.
#[derive(Default)]
pub struct ParryManifolds {
    manifolds: Vec<ContactManifold<(), ()>>,
    workspace: Option<ContactManifoldsWorkspace>,
}

impl ParryManifolds {
    /// A new pair (no cached manifold).
    pub fn new() -> Self {
        Self::default()
    }

    /// Updates the pair's manifolds for the world poses; returns the deepest penetration over the
    /// manifolds' points (`-dist`, > 0 when overlapping), or 0 when there is none.
    pub fn update(
        &mut self,
        pose_a: &ParryPose,
        a: &dyn ParryShape,
        pose_b: &ParryPose,
        b: &dyn ParryShape,
    ) -> f64 {
        let pos12 = pose_a.inv_mul(pose_b);
        let updated = DefaultQueryDispatcher.contact_manifolds(
            &pos12,
            a,
            b,
            0.0,
            &mut self.manifolds,
            &mut self.workspace,
        );
        if updated.is_err() {
            return 0.0;
        }
        self.manifolds
            .iter()
            .flat_map(|m| m.points.iter())
            .map(|p| -p.dist)
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{UnitQuaternion, Vector3};

    #[test]
    fn pose_conversion_maps_points_alike() {
        let p = Pose::new(
            Vector3::new(1.0, -2.0, 0.5),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 1.1, -0.7)),
        );
        let x = Vector3::new(0.2, 0.4, -1.0);
        let ours = p.transform_point(&x);
        let theirs = parry_pose(&p) * Vector::new(x.x, x.y, x.z);
        assert!((ours - Vector3::new(theirs.x, theirs.y, theirs.z)).norm() < 1e-14);
    }

    #[test]
    fn parry_contact_of_stacked_boxes() {
        let cube = parry_cuboid(0.5, 0.5, 0.5);
        let hull = parry_convex_hull(
            &(0..8)
                .map(|i| {
                    let s = |bit: usize| if i & bit == 0 { -0.5 } else { 0.5 };
                    Vector3::new(s(1), s(2), s(4))
                })
                .collect::<Vec<_>>(),
        )
        .expect("a cube");
        let a = parry_pose(&Pose::identity());
        let b = parry_pose(&Pose::new(
            Vector3::new(0.1, 0.2, 0.99),
            UnitQuaternion::identity(),
        ));
        for (sa, sb) in [
            (&cube as &dyn ParryShape, &cube as &dyn ParryShape),
            (&hull, &hull),
        ] {
            let (depth, normal) = parry_contact(&a, sa, &b, sb).expect("touching");
            assert!((depth - 0.01).abs() < 1e-9, "{depth}");
            assert!((normal.z - 1.0).abs() < 1e-9);
        }
        let apart = parry_pose(&Pose::new(
            Vector3::new(0.0, 0.0, 1.01),
            UnitQuaternion::identity(),
        ));
        assert!(parry_contact(&a, &cube, &apart, &cube).is_none());
        let mut persistent = ParryManifolds::new();
        assert!((persistent.update(&a, &cube, &b, &cube) - 0.01).abs() < 1e-9);
        assert_eq!(persistent.update(&a, &cube, &apart, &cube), 0.0);
    }
}
