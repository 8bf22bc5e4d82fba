//! The paper's form of a contact history: the two contact-direction angles of eq. (6), read out of
//! a pair's warm state or turned into one.

use super::{Chart, CONCENTRIC, DIRECTION, KERNEL, TOUCHED};
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::warm::WarmState;
use nalgebra::Vector3;

/// The frame of eq. (6) for a pair at `pose_a`, `pose_b` (world frame): `e1` along the centre line
/// A -> B, `e2`, `e3` from [`Chart::new`]. Centres closer than `CONCENTRIC * size` give no line;
/// A's x axis is used then, as the kernel does.
fn world_chart(pose_a: &Pose, pose_b: &Pose, size: f64) -> Chart {
    let line = pose_b.position - pose_a.position;
    let distance = line.norm();
    let e1 = if distance > CONCENTRIC * size {
        line / distance
    } else {
        pose_a.transform_vector(&Vector3::x())
    };
    Chart::new(e1)
}

/// The angles `(alpha1, alpha2)` (radians) of eq. (6) of the contact direction kept in `warm`, in
/// the frame the pair has at `pose_a`, `pose_b`; `size` is the sum of the bounding radii (it only
/// decides when the centres count as concentric).
///
/// Fails with [`Error::InvalidArgument`] when `warm` holds no contact direction of the
/// common-normal kernel (cold, or written by another kernel).
pub fn angles_from_warm(
    warm: &WarmState,
    pose_a: &Pose,
    pose_b: &Pose,
    size: f64,
) -> Result<(f64, f64)> {
    warm.validate()?;
    let c = Vector3::from_column_slice(&warm.data[DIRECTION..DIRECTION + 3]);
    if warm.kernel != KERNEL || c.norm_squared() < 0.5 {
        return Err(Error::InvalidArgument(
            "the warm state holds no contact direction: it is cold, or was written for a pair \
             that is not two smooth convex shapes"
                .into(),
        ));
    }
    let c = pose_a.transform_vector(&(c / c.norm()));
    Ok(world_chart(pose_a, pose_b, size).angles_of(&c))
}

/// A warm state whose contact direction has the angles `(alpha1, alpha2)` (radians) of eq. (6) in
/// the frame of the pair at `pose_a`, `pose_b`: what a host that keeps only the paper's two angles
/// in its contact history passes to the next query. `size` as in [`angles_from_warm`]. The state
/// is marked touching (hosts keep angles for lasting contacts), so the next query starts Newton
/// at once.
pub fn warm_from_angles(
    alpha1: f64,
    alpha2: f64,
    pose_a: &Pose,
    pose_b: &Pose,
    size: f64,
) -> Result<WarmState> {
    crate::error::ensure_finite("alpha", &[alpha1, alpha2])?;
    let c = world_chart(pose_a, pose_b, size).direction(alpha1, alpha2);
    let local = pose_a.inverse_transform_vector(&c);
    let mut warm = WarmState::cold();
    warm.claim(KERNEL);
    warm.data[DIRECTION..DIRECTION + 3].copy_from_slice(local.as_slice());
    warm.data[TOUCHED] = 1.0;
    Ok(warm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitQuaternion;

    #[test]
    fn angles_round_trip_through_a_warm_state() {
        let a = Pose::new(
            Vector3::new(0.5, -1.0, 2.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 1.2, -0.4)),
        );
        let b = Pose::new(
            Vector3::new(2.0, 0.5, 1.0),
            UnitQuaternion::from_scaled_axis(Vector3::new(-1.0, 0.2, 0.9)),
        );
        for (a1, a2) in [(0.0, 0.0), (0.2, -0.1), (-1.1, 0.7)] {
            let warm = warm_from_angles(a1, a2, &a, &b, 3.0).unwrap();
            let (b1, b2) = angles_from_warm(&warm, &a, &b, 3.0).unwrap();
            assert!((a1 - b1).abs() < 1e-14 && (a2 - b2).abs() < 1e-14);
        }
        // alpha = 0 is the centre line A -> B.
        let warm = warm_from_angles(0.0, 0.0, &a, &b, 3.0).unwrap();
        let c = a.transform_vector(&Vector3::new(warm.data[0], warm.data[1], warm.data[2]));
        assert!((c - (b.position - a.position).normalize()).norm() < 1e-15);
        assert!(angles_from_warm(&WarmState::cold(), &a, &b, 3.0).is_err());
        assert!(warm_from_angles(f64::NAN, 0.0, &a, &b, 3.0).is_err());
    }
}
