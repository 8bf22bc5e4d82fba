//! The reference's verdict on one configuration against one or more of our answers, as cheaply as
//! exactness allows.
//!
//! When every answer reports the pair apart, each answer's separating plane is re-evaluated by the
//! reference ([`support_overlap`]: a projection of every vertex, no kernel code). A direction with
//! a negative overlap proves the pair apart by at least that gap (the separating-axis theorem), so
//! once one gap exceeds the tolerance band the reference's verdict is settled without listing
//! every candidate axis. Every other configuration gets the full [`candidate_axes`] and the
//! verdict of [`sat_penetration`] ([`select_axis`]), and the exact distance where a gap falls in
//! the band.

use super::{angle, signed, SAME_AXIS_ANGLE, UNIQUE_MARGIN};
use crate::polyhedron_reference::{
    band, candidate_axes, classify, is_mismatch, select_axis, separation_distance, support_overlap,
    within_band, CandidateAxis, RefPolyhedron, SatResult,
};
use demcontact::{Contact, Pose};
use nalgebra::Vector3;

/// The reference's minimum translation distance where it is penetrating outside the band.
#[derive(Debug, Clone, Copy)]
pub struct Penetration {
    /// The SAT depth.
    pub depth: f64,
    /// The SAT normal, A to B.
    pub normal: Vector3<f64>,
    /// Whether the minimum is unique ([`unique_minimum`]).
    pub unique: bool,
}

/// The reference's verdict and how our answers fare against it.
#[derive(Debug, Clone, Copy)]
pub struct Judgement {
    /// The reference signed distance (a certified lower bound of the distance when settled by a
    /// separating plane).
    pub reference: f64,
    /// Whether the configuration is inside the band (verdicts not judged).
    pub in_band: bool,
    /// Answers whose verdict is a mismatch.
    pub mismatches: u64,
    /// Answers reporting a gap larger than the exact distance.
    pub uncertified: u64,
    /// The penetration, when the reference is penetrating outside the band.
    pub penetration: Option<Penetration>,
}

/// Whether the SAT minimum `(depth, normal)` over `axes` is unique: every axis more than
/// [`SAME_AXIS_ANGLE`] from `normal` overlaps by more than `depth` plus [`UNIQUE_MARGIN`] times
/// `size` (the larger body's).
pub fn unique_minimum(
    axes: &[CandidateAxis],
    depth: f64,
    normal: &Vector3<f64>,
    size: f64,
) -> bool {
    let margin = UNIQUE_MARGIN * size;
    axes.iter()
        .all(|c| c.overlap > depth + margin || angle(&c.axis, normal) <= SAME_AXIS_ANGLE)
}

/// Judges `answers` for A and B at their poses, with the tolerance band of the reference
/// ([`band`]) and gaps allowed `1e-12` of the larger size above the exact distance (rounding).
pub fn judge(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
    answers: &[&Contact],
) -> Judgement {
    let slack = 1e-12 * a.size().max(b.size());
    judge_within(a, pose_a, b, pose_b, answers, band(a, b), slack)
}

/// [`judge`] with the band's half-width `half_width` and the allowance `slack` of a reported gap
/// above the exact distance given (lengths in the solids' unit).
pub fn judge_within(
    a: &RefPolyhedron,
    pose_a: &Pose,
    b: &RefPolyhedron,
    pose_b: &Pose,
    answers: &[&Contact],
    half_width: f64,
    slack: f64,
) -> Judgement {
    if answers.iter().all(|c| !c.touching) {
        let gaps: Vec<f64> = answers
            .iter()
            .map(|c| -support_overlap(a, pose_a, b, pose_b, &c.normal))
            .collect();
        let proven = gaps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if proven > half_width {
            let mut distance = None;
            let uncertified = answers
                .iter()
                .zip(&gaps)
                .filter(|(c, gap)| {
                    c.separation > **gap + slack
                        && c.separation
                            > *distance
                                .get_or_insert_with(|| separation_distance(a, pose_a, b, pose_b).0)
                                + slack
                })
                .count() as u64;
            return Judgement {
                reference: proven,
                in_band: false,
                mismatches: 0,
                uncertified,
                penetration: None,
            };
        }
    }
    let axes = candidate_axes(a, pose_a, b, pose_b);
    let size = a.size().max(b.size());
    let sat = select_axis(&axes, size);
    let reference = match sat {
        SatResult::Separated { gap, .. } if gap <= half_width => {
            classify(a, pose_a, b, pose_b).signed_distance()
        }
        _ => sat.signed_gap(),
    };
    let in_band = within_band(reference, half_width);
    let mismatches = answers
        .iter()
        .filter(|c| is_mismatch(reference, signed(c), half_width))
        .count() as u64;
    let mut uncertified = 0;
    if let SatResult::Separated { gap, .. } = sat {
        // Our gaps lie along candidate axes, so they are at most the largest SAT gap; past that
        // (an axis the SAT skips as nearly parallel edges) the exact distance decides.
        let mut distance = None;
        for c in answers.iter().filter(|c| !c.touching) {
            if c.separation > gap + slack
                && c.separation
                    > *distance.get_or_insert_with(|| separation_distance(a, pose_a, b, pose_b).0)
                        + slack
            {
                uncertified += 1;
            }
        }
    }
    let penetration = match sat {
        SatResult::Penetrating { depth, normal, .. } if !in_band => Some(Penetration {
            depth,
            normal,
            unique: unique_minimum(&axes, depth, &normal, size),
        }),
        _ => None,
    };
    Judgement {
        reference,
        in_band,
        mismatches,
        uncertified,
        penetration,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demcontact::ContactKind;
    use nalgebra::UnitQuaternion;

    fn cube() -> RefPolyhedron {
        RefPolyhedron::cuboid(0.5, 0.5, 0.5)
    }

    fn at(z: f64) -> Pose {
        Pose::new(Vector3::new(0.1, 0.0, z), UnitQuaternion::identity())
    }

    fn answer(depth: f64, normal: Vector3<f64>) -> Contact {
        Contact::from_points(
            Vector3::zeros(),
            Vector3::zeros(),
            normal,
            depth,
            false,
            ContactKind::FaceFace,
        )
    }

    #[test]
    fn wrong_verdicts_and_gaps_are_caught() {
        let (a, b) = (cube(), cube());
        // Apart by 0.01 along z.
        let apart = at(1.01);
        let right = answer(-0.01, Vector3::z());
        let j = judge(&a, &Pose::identity(), &b, &apart, &[&right]);
        assert_eq!((j.mismatches, j.uncertified, j.in_band), (0, 0, false));
        // Claiming touching is a mismatch; claiming a gap larger than the distance is uncertified.
        let touching = answer(0.01, Vector3::z());
        let j = judge(&a, &Pose::identity(), &b, &apart, &[&right, &touching]);
        assert_eq!(j.mismatches, 1);
        let too_far = answer(-0.02, Vector3::z());
        let j = judge(&a, &Pose::identity(), &b, &apart, &[&too_far]);
        assert_eq!(j.uncertified, 1);
        // A separating claim whose plane does not separate falls back on the full SAT, which
        // judges the gap itself.
        let wrong_plane = answer(-0.01, Vector3::x());
        let j = judge(&a, &Pose::identity(), &b, &apart, &[&wrong_plane]);
        assert_eq!((j.mismatches, j.uncertified), (0, 0));
        let wrong_plane_too_far = answer(-0.02, Vector3::x());
        let j = judge(&a, &Pose::identity(), &b, &apart, &[&wrong_plane_too_far]);
        assert_eq!((j.mismatches, j.uncertified), (0, 1));
    }

    #[test]
    fn penetration_and_uniqueness_come_from_the_sat() {
        let (a, b) = (cube(), cube());
        let overlapping = at(0.99);
        let claim = answer(0.01, Vector3::z());
        let j = judge(&a, &Pose::identity(), &b, &overlapping, &[&claim]);
        let p = j.penetration.expect("penetrating");
        assert!((p.depth - 0.01).abs() < 1e-14 && p.unique);
        assert_eq!(j.mismatches, 0);
        let apart_claim = answer(-0.01, Vector3::z());
        let j = judge(&a, &Pose::identity(), &b, &overlapping, &[&apart_claim]);
        assert_eq!(j.mismatches, 1);
        // Centred face on face with equal overlap along x and z: not unique.
        let tie = Pose::new(Vector3::new(0.99, 0.0, 0.99), UnitQuaternion::identity());
        let j = judge(&a, &Pose::identity(), &b, &tie, &[&claim]);
        assert!(!j.penetration.expect("penetrating").unique);
    }
}
