//! `demcontact_pose`: where a body is.

use super::boundary::Failure;
use crate::pose::Pose;

/// A rigid-body pose in the host's world frame: `x_world = position + R(orientation) * x_body`.
///
/// `position` is the body-frame origin, in the host's length unit. `orientation` is a unit quaternion
/// in the order (w, x, y, z). A quaternion whose norm differs from 1 by at most
/// `DEMCONTACT_QUATERNION_TOLERANCE` is normalised; one farther off is rejected with
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT`; NaN or infinite components with `DEMCONTACT_STATUS_NON_FINITE`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct demcontact_pose {
    /// Body-frame origin in the world frame (host length unit).
    pub position: [f64; 3],
    /// Unit quaternion (w, x, y, z), body frame -> world frame.
    pub orientation: [f64; 4],
}

/// How far a quaternion's norm may be from 1 and still be accepted (it is then normalised).
pub const DEMCONTACT_QUATERNION_TOLERANCE: f64 = 1e-6;

impl demcontact_pose {
    /// The core pose, or a failure whose message starts with `name` (formatted only on failure,
    /// so that a check of many poses allocates nothing).
    #[inline(always)]
    pub(crate) fn core_pose(&self, name: impl std::fmt::Display) -> Result<Pose, Failure> {
        Pose::from_wxyz_ref(&self.position, &self.orientation)
            .map_err(|e| Failure::from(e).context(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_matches_the_core() {
        assert_eq!(
            DEMCONTACT_QUATERNION_TOLERANCE,
            crate::pose::QUATERNION_TOLERANCE
        );
        let bad = demcontact_pose {
            position: [0.0; 3],
            orientation: [2.0, 0.0, 0.0, 0.0],
        };
        let f = bad.core_pose("pose_b").unwrap_err();
        assert!(
            f.message.starts_with("pose_b: pose.orientation"),
            "{}",
            f.message
        );
    }
}
