//! The peers demcontact is measured against (parry3d-f64), with conversions from our poses.

use demcontact::shapes::Superellipsoid;
use demcontact::Pose;
use nalgebra::Vector3;
use parry3d_f64::math::{Pose as ParryPose, Rot3, Vector};
use parry3d_f64::query::details::contact_support_map_support_map_with_params;
use parry3d_f64::query::gjk::{GJKResult, VoronoiSimplex};
use parry3d_f64::shape::SupportMap;

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
}
