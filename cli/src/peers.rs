//! The peers demcontact is measured against (parry3d-f64), with conversions from our poses.

use demcontact::Pose;
use parry3d_f64::math::{Pose as ParryPose, Rot3, Vector};

/// Our pose as a parry pose.
pub fn parry_pose(p: &Pose) -> ParryPose {
    let q = p.rotation.quaternion();
    ParryPose::from_parts(
        Vector::new(p.position.x, p.position.y, p.position.z),
        Rot3::from_xyzw(q.i, q.j, q.k, q.w),
    )
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
