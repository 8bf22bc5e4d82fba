//! Rough point clouds in motion, beyond the paper's protocol: the bodies of [`super::rough`]
//! (plates and needles with near-duplicate points, whose hulls keep edges a few tolerances long
//! that lean off their span) moved as the blocks of [`super::motion`], resting face on face and
//! sliding, or tumbling, in and out of contact. The updated detection walks the Gauss maps of
//! those hulls from the previous step's cover, which the cold queries of the random pairs never
//! do. At every step the warm answer must equal the cold one (touching flag, depth within
//! [`WARM_COLD_TOLERANCE`] of the size) and both must pass section (d)'s checks against the
//! input points' SAT ([`super::rough::pair_tolerance`]) and against the kernel's own vertices.

use super::judge::judge_within;
use super::motion::{warm_and_cold, WARM_COLD_TOLERANCE};
use super::rough::{gap_above_own_vertices, pair_tolerance, rough_body, HULL_AXES_TOLERANCE};
use super::verdict;
use crate::polyhedron_motion::{motion, GapProfile, Mode, Motion, Steps};
use crate::sampling;
use crate::table::{sci, Table};
use crate::validate::{tallied, MaxError, MustBeZero, Options, Outcome, Tally};

/// Sequences per mode (resting, tumbling).
pub const SEQUENCES_PER_MODE: usize = 32;

/// What the sequences produced.
#[derive(Debug, Clone)]
struct Stats {
    sequences: u64,
    /// Sequences with a body whose hull has leaning edges.
    leaning: u64,
    steps: u64,
    touching: u64,
    /// Warm queries after the first not warm-started, or whose touching flag differs from the
    /// cold query's.
    warm_differs: MustBeZero,
    /// `|warm - cold|` depth over the size.
    warm_cold_depth: MaxError,
    /// Wrong verdicts outside the band and gaps above the exact distance (both answers).
    mismatches: MustBeZero,
    /// Depth error against the input's SAT over the pair's tolerance.
    depth: MaxError,
    /// A gap above the kernel's own vertices' gap along its normal, over the hull tolerance.
    own_gap: MaxError,
    /// Covers visited (steps, sum) by the warm and the cold queries.
    covers_warm: (u64, u64),
    covers_cold: (u64, u64),
    first_failure: Option<String>,
}

impl Tally for Stats {
    fn merge(&mut self, o: &Stats) {
        self.sequences += o.sequences;
        self.leaning += o.leaning;
        self.steps += o.steps;
        self.touching += o.touching;
        self.warm_differs.0 += o.warm_differs.0;
        self.warm_cold_depth.absorb(&o.warm_cold_depth);
        self.mismatches.0 += o.mismatches.0;
        self.depth.absorb(&o.depth);
        self.own_gap.absorb(&o.own_gap);
        self.covers_warm.0 += o.covers_warm.0;
        self.covers_warm.1 += o.covers_warm.1;
        self.covers_cold.0 += o.covers_cold.0;
        self.covers_cold.1 += o.covers_cold.1;
        if self.first_failure.is_none() {
            self.first_failure.clone_from(&o.first_failure);
        }
    }
}

impl Stats {
    fn new() -> Self {
        Stats {
            sequences: 0,
            leaning: 0,
            steps: 0,
            touching: 0,
            warm_differs: MustBeZero::default(),
            warm_cold_depth: MaxError::within(WARM_COLD_TOLERANCE),
            mismatches: MustBeZero::default(),
            depth: MaxError::within(1.0),
            own_gap: MaxError::within(HULL_AXES_TOLERANCE),
            covers_warm: (0, 0),
            covers_cold: (0, 0),
            first_failure: None,
        }
    }

    fn passed(&self) -> bool {
        self.warm_differs.0 == 0
            && self.warm_cold_depth.ok()
            && self.mismatches.0 == 0
            && self.depth.ok()
            && self.own_gap.ok()
    }

    /// Runs one sequence.
    fn run(&mut self, m: &Motion) {
        self.sequences += 1;
        let (a, b) = (&m.a, &m.b);
        self.leaning +=
            (a.polyhedron().has_leaning_edges() || b.polyhedron().has_leaning_edges()) as u64;
        let size = a.size().max(b.size());
        let tolerance = pair_tolerance(a, b);
        warm_and_cold(m, |s| {
            let (w, c) = (&s.warm, &s.cold);
            let failed_before = !self.passed();
            self.steps += 1;
            self.touching += c.touching as u64;
            self.warm_differs
                .count((s.step > 0 && !w.warm_started) || w.touching != c.touching);
            if w.touching && c.touching {
                self.warm_cold_depth
                    .add((w.penetration - c.penetration).abs() / size);
            }
            for (covers, x) in [(&mut self.covers_warm, w), (&mut self.covers_cold, c)] {
                covers.0 += 1;
                covers.1 += x.iterations as u64;
            }
            let j = judge_within(
                &a.reference,
                s.pose_a,
                &b.reference,
                s.pose_b,
                &[w, c],
                tolerance,
                tolerance,
            );
            self.mismatches.0 += j.mismatches + j.uncertified;
            if let Some(sat) = j.penetration {
                for x in [w, c].into_iter().filter(|x| x.touching) {
                    self.depth
                        .add((x.penetration - sat.depth).abs() / tolerance);
                }
            }
            self.own_gap.add(gap_above_own_vertices(
                a.polyhedron(),
                s.pose_a,
                b.polyhedron(),
                s.pose_b,
                &[w, c],
            ));
            if !failed_before && !self.passed() && self.first_failure.is_none() {
                self.first_failure = Some(s.describe(m, j.reference));
            }
        });
    }
}

/// Runs [`SEQUENCES_PER_MODE`] sequences of each mode, `steps` steps each, over all cores; the
/// table and whether every check passed.
pub fn validate(options: &Options, steps: usize) -> Outcome {
    let modes = [Mode::Resting, Mode::Tumbling];
    let stats: Vec<Stats> = modes
        .iter()
        .enumerate()
        .map(|(i, &mode)| {
            tallied(
                options,
                SEQUENCES_PER_MODE,
                "polyhedra rough motion",
                Stats::new,
                |stats, k| {
                    let seed =
                        options.seed ^ (0x726d_6f74 << 24) ^ (i * SEQUENCES_PER_MODE + k) as u64;
                    let mut rng = sampling::rng(seed);
                    let mut refused = 0;
                    let a = rough_body(&mut rng, &mut refused);
                    let b = rough_body(&mut rng, &mut refused);
                    let m = motion(
                        a,
                        b,
                        steps,
                        mode,
                        GapProfile::IN_AND_OUT,
                        Steps::DEM,
                        &mut rng,
                    );
                    stats.run(&m);
                },
            )
        })
        .collect();
    let mean = |(n, sum): (u64, u64)| sum as f64 / n.max(1) as f64;
    let mut t = Table::new(
        format!(
            "Polyhedra (e): rough point clouds (section (d)'s bodies) in motion, {steps} steps per \
             sequence, moved as in (c); updated (warm) vs initial (cold) detection at every step, \
             both vs the SAT reference of the input points within (d)'s pair tolerance"
        ),
        &[
            "motion",
            "sequences x steps",
            "with a leaning hull",
            "touching %",
            "warm != cold touching, or not warm-started",
            "warm-cold depth / size, max",
            "mismatches or gaps above the distance",
            "depth error / pair tolerance, max",
            "gap above own vertices' / hull tolerance, max",
            "mean covers warm / cold",
            "check",
        ],
    );
    let mut passed = true;
    let mut failures = String::new();
    for (mode, s) in modes.iter().zip(&stats) {
        passed &= s.passed();
        t.row(vec![
            mode.name().into(),
            format!("{} x {steps}", s.sequences),
            s.leaning.to_string(),
            format!("{:.1}", 100.0 * s.touching as f64 / s.steps.max(1) as f64),
            s.warm_differs.0.to_string(),
            sci(s.warm_cold_depth.max),
            s.mismatches.0.to_string(),
            format!("{:.2}", s.depth.max),
            sci(s.own_gap.max),
            format!("{:.2} / {:.2}", mean(s.covers_warm), mean(s.covers_cold)),
            verdict(s.passed()),
        ]);
        if let Some(f) = &s.first_failure {
            failures += &format!("\nFIRST FAILURE ({}): {f}\n", mode.name());
        }
    }
    let mut report = t.render();
    report += &format!(
        "\ncheck: warm and cold agree (touching flag; depth within {WARM_COLD_TOLERANCE:.0e} of \
         the size) and every warm query after the first is warm-started; both pass (d)'s checks \
         (no wrong verdict outside the band or gap above the exact distance, depth within the \
         pair's tolerance, gap the kernel's own vertices' along its normal within \
         {HULL_AXES_TOLERANCE} hull tolerance).\n"
    );
    report += &failures;
    report += &format!("rough point clouds in motion: {}\n", verdict(passed));
    Outcome { report, passed }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short run of the section passes.
    #[test]
    fn rough_point_clouds_in_motion_pass_on_a_short_run() {
        let o = Options {
            pairs: 0,
            seed: 3,
            progress: false,
            figures: None,
        };
        let outcome = validate(&o, 200);
        assert!(outcome.passed, "{}", outcome.report);
    }
}
