//! Superellipsoids, beyond the paper's protocol: warm-started DEM-like sequences, each warm query
//! checked against a cold query of the same configuration.
//!
//! Each sequence is [`crate::superellipsoid_pairs::sequence`]: a contact whose direction and body B
//! turn [`TURN`] rad a step about fixed random axes, at a depth that varies between about 0.9e-4
//! and 1.7e-3, over [`STEPS`] steps. The pair's warm state is kept along it; the same
//! configuration queried cold must give the same answer: both touching (every step touches by
//! construction), the same depth within [`DEPTH_AGREEMENT`] relative and the same normal within
//! [`NORMAL_AGREEMENT`] rad, or, where one of them is not a common normal but a local maximum
//! of the support gap at a nearly flat face's kink, the same depth (counted apart, "at a kink",
//! as series 2 of the protocol counts such answers). Where a nearly pointed body keeps the
//! construction from making the bodies overlap (series 2 counts such pairs "not overlapping"),
//! both answers must be apart, each by a real separating plane, and are counted apart too. The
//! table also shows how many warm queries were answered at their extrapolated start with no
//! Newton iteration, and the iterations warm against cold.

use super::superellipsoids::{
    gap_by_angles, is_common_normal, locally_shallowest, SEPARATION_ROUNDING,
};
use super::{tallied, Options, Tally};
use crate::sampling;
use crate::superellipsoid_pairs::{sequence, Interval, SuperellipsoidPair};
use crate::table::{sci, Table};
use demcontact::narrow::collide;
use demcontact::shapes::Shape;
use demcontact::{Contact, Pose, WarmState};

/// Steps per sequence.
pub const STEPS: usize = 100;

/// The turn of the contact direction and of body B per step (rad): a DEM-like step.
pub const TURN: f64 = 1e-3;

/// The largest relative depth difference between a warm answer and the cold one of the same
/// configuration (the depth is second order in the direction's error).
pub const DEPTH_AGREEMENT: f64 = 1e-9;

/// The largest angle (rad) between the normals of a warm answer and the cold one. The search
/// stops where Newton's quadratic convergence predicts a direction error below 1e-9 rad, but
/// where a body is nearly flat the direction is ill-conditioned (the depth barely changes with
/// it) and the normals carry larger errors: up to about 3e-8 rad against the construction on
/// intervals 1-3 (Table 1's largest angle error), more on interval 4.
pub const NORMAL_AGREEMENT: f64 = 1e-7;

/// What the sequences of one interval produced.
#[derive(Debug, Clone, Default)]
pub struct SequenceStats {
    /// Warm queries (the first query of each sequence, cold by construction, left out).
    queries: u64,
    /// Of them, answered at the extrapolated start (no Newton iteration).
    at_start: u64,
    /// Direction updates over the warm queries, and over the cold ones of the same steps.
    warm_iterations: u64,
    cold_iterations: u64,
    /// The largest relative depth difference and normal angle, warm against cold.
    depth_difference: f64,
    angle: f64,
    /// Warm answers that differ from the cold ones: touching against apart, or a depth or normal
    /// beyond [`DEPTH_AGREEMENT`] or [`NORMAL_AGREEMENT`], but for those counted in `kinked`.
    disagreeing: u64,
    /// Warm answers at the cold one's depth whose normals are further apart than
    /// [`NORMAL_AGREEMENT`], where each answer is a common normal or, at a nearly flat face's
    /// kink, a local maximum of the support gap (and not both common normals): the same answer to
    /// double precision.
    kinked: u64,
    /// Steps whose construction did not make the bodies overlap (a nearly pointed body), answered
    /// apart warm and cold, each by a real separating plane (the exact support gap along its
    /// normal is not negative, as series 2 checks its "not overlapping" pairs): the normals,
    /// separating directions, are not unique and are not compared.
    apart: u64,
}

impl SequenceStats {
    /// Counts the warm answer `w` against the cold answer `c` of the same step `p`.
    fn compare(&mut self, p: &SuperellipsoidPair, w: &Contact, c: &Contact) {
        self.at_start += (w.iterations == 0) as u64;
        self.warm_iterations += w.iterations as u64;
        self.cold_iterations += c.iterations as u64;
        // `validate`, interval 4, seed 150, warm sequence 274 (B of `eps2` 1.88): every step
        // apart, warm and cold, their separating directions up to 0.23 rad apart.
        let apart = [w, c]
            .iter()
            .all(|x| !x.touching && gap_by_angles(p, &x.normal) > -SEPARATION_ROUNDING);
        if apart {
            self.apart += 1;
            return;
        }
        let depth = (w.penetration - c.penetration).abs() / c.penetration.max(f64::MIN_POSITIVE);
        let angle = (w.normal - c.normal).norm();
        self.depth_difference = self.depth_difference.max(depth);
        self.angle = self.angle.max(angle);
        let same_depth = w.touching && c.touching && depth <= DEPTH_AGREEMENT;
        let agree = same_depth && angle <= NORMAL_AGREEMENT;
        // Normals apart at the same depth, where an answer that is not a common normal is a local
        // maximum of the support gap at a nearly flat face's kink (as series 2 counts them): both
        // answers are the answer to double precision.
        let answers = [w, c];
        let kink = same_depth
            && !agree
            && !answers.iter().all(|x| is_common_normal(x))
            && answers
                .iter()
                .all(|x| is_common_normal(x) || locally_shallowest(p, &x.normal));
        self.kinked += kink as u64;
        self.disagreeing += (!agree && !kink) as u64;
    }
}

impl Tally for SequenceStats {
    fn merge(&mut self, other: &SequenceStats) {
        self.queries += other.queries;
        self.at_start += other.at_start;
        self.warm_iterations += other.warm_iterations;
        self.cold_iterations += other.cold_iterations;
        self.depth_difference = self.depth_difference.max(other.depth_difference);
        self.angle = self.angle.max(other.angle);
        self.disagreeing += other.disagreeing;
        self.apart += other.apart;
        self.kinked += other.kinked;
    }
}

impl SequenceStats {
    /// Whether every warm answer agreed with the cold one.
    pub fn passed(&self) -> bool {
        self.disagreeing == 0 && self.queries > 0
    }
}

/// The sequences of `interval`: `options.pairs / 1000` of them (at least 8), in parallel.
pub fn run_sequences(options: &Options, interval: Interval) -> SequenceStats {
    let count = (options.pairs / 1000).max(8);
    let label = format!("superellipsoids {} warm", interval.number());
    tallied(
        options,
        count,
        &label,
        SequenceStats::default,
        |stats, k| {
            let seed = options.seed
                ^ ((interval.number() as u64) << 56)
                ^ (0x5e9u64 << 44)
                ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = sampling::rng(seed);
            let mut warm = WarmState::cold();
            for (step, p) in sequence(interval, STEPS, TURN, &mut rng).iter().enumerate() {
                // Through the host's entry point, which keeps the warm state's step count.
                let (a, b) = (Shape::Superellipsoid(p.a), Shape::Superellipsoid(p.b));
                let origin = Pose::identity();
                let w = collide(&a, &origin, &b, &p.pose_b, Some(&mut warm));
                if step == 0 {
                    continue;
                }
                let c = collide(&a, &origin, &b, &p.pose_b, None);
                stats.queries += 1;
                let (Ok(w), Ok(c)) = (w, c) else {
                    stats.disagreeing += 1;
                    continue;
                };
                stats.compare(p, &w, &c);
            }
        },
    )
}

/// The table of the sequences of every interval.
pub fn table(results: &[(Interval, SequenceStats)]) -> Table {
    let mut t = Table::new(
        format!(
            "Warm-started DEM-like sequences (ours, beyond the paper): {STEPS} steps of {TURN} rad, \
             each warm query against a cold query of the same configuration"
        ),
        &[
            "interval",
            "warm queries",
            "answered at the start %",
            "mean it warm",
            "mean it cold",
            "max depth diff (rel)",
            "max normal diff (rad)",
            "disagreeing",
        ],
    );
    for (interval, s) in results {
        let n = s.queries.max(1) as f64;
        t.row(vec![
            interval.label(),
            s.queries.to_string(),
            format!("{:.2}", 100.0 * s.at_start as f64 / n),
            format!("{:.2}", s.warm_iterations as f64 / n),
            format!("{:.2}", s.cold_iterations as f64 / n),
            sci(s.depth_difference),
            sci(s.angle),
            format!(
                "{} ({} at a kink, {} apart)",
                s.disagreeing, s.kinked, s.apart
            ),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::superellipsoid_pairs::{pair, Series};

    #[test]
    fn answers_apart_by_real_separating_planes_are_counted_apart_and_others_disagree() {
        let mut rng = sampling::rng(150);
        let p = pair(Interval::Three, Series::Separated, &mut rng);
        let (a, b) = (Shape::Superellipsoid(p.a), Shape::Superellipsoid(p.b));
        let query = || collide(&a, &Pose::identity(), &b, &p.pose_b, None).unwrap();
        let (w, c) = (query(), query());
        assert!(!w.touching && !c.touching);
        // Apart warm and cold, along another real separating direction (the constructed one's
        // gap is the construction's distance, at most the kernel's certified bound): apart.
        let mut other = c;
        other.normal = p.direction;
        assert!(gap_by_angles(&p, &p.direction) > 0.0);
        let mut stats = SequenceStats::default();
        stats.compare(&p, &w, &other);
        assert_eq!((stats.apart, stats.disagreeing), (1, 0));
        // Apart along a direction that separates nothing (the reverse of a separating one):
        // disagreeing.
        let mut fake = c;
        fake.normal = -c.normal;
        assert!(gap_by_angles(&p, &fake.normal) < -SEPARATION_ROUNDING);
        stats.compare(&p, &w, &fake);
        assert_eq!((stats.apart, stats.disagreeing), (1, 1));
        // Apart against touching: disagreeing.
        let mut touching = c;
        touching.touching = true;
        touching.penetration = 1e-3;
        stats.compare(&p, &w, &touching);
        assert_eq!((stats.apart, stats.disagreeing), (1, 2));
    }
}
