//! The reference verdict for a pair and the tolerance band inside which a verdict is not judged.
//!
//! Near touching, the sign of the signed distance is decided by round-off (in the reference as in
//! any kernel under test). A configuration whose reference signed distance is within
//! [`BAND_RELATIVE`] times the larger body's size of zero is *in the band*: a kernel that calls it
//! separated or penetrating is right either way. Validation counts a mismatch only outside it
//! ([`is_mismatch`]).

use super::{sat_penetration, separation_distance, AxisKind, RefPolyhedron, SatResult};
use demcontact::Pose;
use nalgebra::Vector3;

/// The half-width of the tolerance band, relative to the larger [`RefPolyhedron::size`].
///
/// `1e-9` leaves ample room above the reference's own round-off (about `1e-15` of the size per
/// operation) and the edge-pair skipping of [`super::EDGE_PARALLEL_SIN`].
pub const BAND_RELATIVE: f64 = 1e-9;

/// The reference verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Classification {
    /// Disjoint: the exact distance and a closest point pair.
    Separated {
        /// Euclidean distance (> 0, caller's length unit).
        distance: f64,
        /// Unit direction from the closest point of A to that of B, world frame.
        normal: Vector3<f64>,
        /// Closest point of A, world frame.
        point_a: Vector3<f64>,
        /// Closest point of B, world frame.
        point_b: Vector3<f64>,
    },
    /// Touching (`depth == 0`) or penetrating: the minimum translation distance.
    Penetrating {
        /// The MTD (>= 0, caller's length unit).
        depth: f64,
        /// Unit MTD direction from A to B, world frame.
        normal: Vector3<f64>,
        /// The SAT axis that gives it.
        kind: AxisKind,
    },
}

impl Classification {
    /// Distance (> 0) or minus the depth (<= 0), caller's length unit.
    pub fn signed_distance(&self) -> f64 {
        match *self {
            Classification::Separated { distance, .. } => distance,
            Classification::Penetrating { depth, .. } => -depth,
        }
    }

    /// The unit normal from A to B, world frame.
    pub fn normal(&self) -> Vector3<f64> {
        match *self {
            Classification::Separated { normal, .. }
            | Classification::Penetrating { normal, .. } => normal,
        }
    }
}

/// The reference verdict for A and B: [`sat_penetration`] decides separated or not and gives the
/// depth; for separated pairs [`separation_distance`] gives the distance and closest points.
pub fn classify(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
) -> Classification {
    match sat_penetration(a, pose_a, b, pose_b) {
        SatResult::Separated { axis, .. } => {
            let (distance, point_a, point_b) = separation_distance(a, pose_a, b, pose_b);
            // The closest points cannot coincide once an axis separates, except by round-off far
            // inside the band; fall back on the separating axis then.
            let normal = if distance > 0.0 {
                (point_b - point_a) / distance
            } else {
                axis
            };
            Classification::Separated {
                distance,
                normal,
                point_a,
                point_b,
            }
        }
        SatResult::Penetrating {
            depth,
            normal,
            kind,
        } => Classification::Penetrating {
            depth,
            normal,
            kind,
        },
    }
}

/// The band's half-width for the pair (caller's length unit): [`BAND_RELATIVE`] times the larger
/// of the two sizes.
pub fn band(a: &RefPolyhedron, b: &RefPolyhedron) -> f64 {
    BAND_RELATIVE * a.size().max(b.size())
}

/// Whether a configuration with this reference signed distance is inside the band of half-width
/// `band` (same length unit), where the separated/penetrating verdict is not judged.
pub fn within_band(signed_distance: f64, band: f64) -> bool {
    signed_distance.abs() <= band
}

/// Whether a kernel's verdict is a mismatch: its signed distance has the other sign than the
/// reference's (separated = positive, touching or penetrating = non-positive) while the reference
/// is outside the band.
pub fn is_mismatch(
    reference_signed_distance: f64,
    candidate_signed_distance: f64,
    band: f64,
) -> bool {
    !within_band(reference_signed_distance, band)
        && (reference_signed_distance > 0.0) != (candidate_signed_distance > 0.0)
}
