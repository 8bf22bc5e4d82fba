//! Blocks in motion ([`crate::polyhedron_motion`]): cubes and random polyhedra resting face on
//! face and sliding, twisting and rocking, or tumbling, in small steps, in and out of contact. At
//! every step the updated detection (the pair's warm state kept from the previous step) must equal
//! a fresh initial detection (cold state): the same touching flag, the depth within [`WARM_COLD_TOLERANCE`] relative, the normal within
//! [`WARM_COLD_TOLERANCE`] rad where the reference's minimum is unique. Both must equal the SAT
//! reference as in the random pairs (classification outside the band, depth, unique normal).

use super::judge::judge;
use super::{angle, depth_ok, verdict, DEPTH_TOLERANCE, NORMAL_TOLERANCE};
use crate::polyhedron_motion::{motion, Blocks, GapProfile, Mode, Motion, Steps};
use crate::sampling;
use crate::table::{sci, Table};
use crate::validate::{over_threads, MaxError, MustBeZero, Options, Outcome};
use demcontact::narrow::collide;
use demcontact::{Contact, Pose, WarmState};

/// The sequences: which blocks move, and how.
pub const SEQUENCES: [(Blocks, Mode); 6] = [
    (Blocks::Cubes, Mode::Resting),
    (Blocks::Cubes, Mode::Tumbling),
    (Blocks::Random(12), Mode::Resting),
    (Blocks::Random(12), Mode::Tumbling),
    (Blocks::Random(24), Mode::Resting),
    (Blocks::Random(24), Mode::Tumbling),
];

/// Relative depth difference (and normal angle, rad) allowed between the warm and the cold
/// answer.
pub const WARM_COLD_TOLERANCE: f64 = 1e-12;

/// What the sequences of one kind of blocks produced.
#[derive(Debug, Clone)]
struct Stats {
    sequences: u64,
    steps: u64,
    touching: u64,
    not_warm: MustBeZero,
    flag_differs: MustBeZero,
    warm_cold_depth: MaxError,
    warm_cold_normal: MaxError,
    mismatches: MustBeZero,
    in_band: u64,
    depth: MaxError,
    depth_over: MustBeZero,
    unique: u64,
    normal: MaxError,
    covers_warm: [(u64, u64); 2],
    covers_cold: [(u64, u64); 2],
    first_failure: Option<String>,
}

impl Stats {
    fn new() -> Self {
        Stats {
            sequences: 0,
            steps: 0,
            touching: 0,
            not_warm: MustBeZero::default(),
            flag_differs: MustBeZero::default(),
            warm_cold_depth: MaxError::within(WARM_COLD_TOLERANCE),
            warm_cold_normal: MaxError::within(WARM_COLD_TOLERANCE),
            mismatches: MustBeZero::default(),
            in_band: 0,
            depth: MaxError::within(DEPTH_TOLERANCE),
            depth_over: MustBeZero::default(),
            unique: 0,
            normal: MaxError::within(NORMAL_TOLERANCE),
            covers_warm: [(0, 0); 2],
            covers_cold: [(0, 0); 2],
            first_failure: None,
        }
    }

    fn merge(&mut self, o: &Stats) {
        self.sequences += o.sequences;
        self.steps += o.steps;
        self.touching += o.touching;
        for (a, b) in [
            (&mut self.not_warm, o.not_warm),
            (&mut self.flag_differs, o.flag_differs),
            (&mut self.mismatches, o.mismatches),
            (&mut self.depth_over, o.depth_over),
        ] {
            a.0 += b.0;
        }
        for (a, b) in [
            (&mut self.warm_cold_depth, o.warm_cold_depth),
            (&mut self.warm_cold_normal, o.warm_cold_normal),
            (&mut self.depth, o.depth),
            (&mut self.normal, o.normal),
        ] {
            a.absorb(&b);
        }
        self.in_band += o.in_band;
        self.unique += o.unique;
        for k in 0..2 {
            for (a, b) in [
                (&mut self.covers_warm[k], o.covers_warm[k]),
                (&mut self.covers_cold[k], o.covers_cold[k]),
            ] {
                a.0 += b.0;
                a.1 += b.1;
            }
        }
        if self.first_failure.is_none() {
            self.first_failure.clone_from(&o.first_failure);
        }
    }

    fn passed(&self) -> bool {
        self.not_warm.0 == 0
            && self.flag_differs.0 == 0
            && self.warm_cold_depth.ok()
            && self.warm_cold_normal.ok()
            && self.mismatches.0 == 0
            && self.depth_over.0 == 0
            && self.normal.ok()
    }

    /// Runs one sequence.
    fn run(&mut self, m: &Motion) {
        self.sequences += 1;
        let (ra, rb) = (&m.a.reference, &m.b.reference);
        warm_and_cold(m, |s| {
            let (w, c) = (&s.warm, &s.cold);
            let failed_before = !self.passed();
            self.steps += 1;
            self.touching += c.touching as u64;
            self.not_warm.count(s.step > 0 && !w.warm_started);
            self.flag_differs.count(w.touching != c.touching);
            for (covers, x) in [(&mut self.covers_warm, w), (&mut self.covers_cold, c)] {
                let slot = &mut covers[x.touching as usize];
                slot.0 += 1;
                slot.1 += x.iterations as u64;
            }
            if w.touching && c.touching {
                self.warm_cold_depth
                    .add((w.penetration - c.penetration).abs() / c.penetration);
            }

            let j = judge(ra, s.pose_a, rb, s.pose_b, &[w, c]);
            self.in_band += j.in_band as u64;
            self.mismatches.0 += j.mismatches + j.uncertified;
            if let Some(sat) = j.penetration {
                let touching: Vec<&Contact> = [w, c].into_iter().filter(|x| x.touching).collect();
                let size = ra.size().max(rb.size());
                for x in &touching {
                    self.depth
                        .add((x.penetration - sat.depth).abs() / sat.depth);
                    self.depth_over
                        .count(!depth_ok(x.penetration, sat.depth, size));
                }
                if sat.unique && !touching.is_empty() {
                    self.unique += 1;
                    for x in &touching {
                        self.normal.add(angle(&x.normal, &sat.normal));
                    }
                    if w.touching && c.touching {
                        self.warm_cold_normal.add(angle(&w.normal, &c.normal));
                    }
                }
            }
            if !failed_before && !self.passed() && self.first_failure.is_none() {
                self.first_failure = Some(s.describe(m, j.reference));
            }
        });
    }
}

/// One step of a sequence, queried twice through [`collide`].
pub struct Step<'a> {
    /// The step's index in the sequence.
    pub step: usize,
    /// A's pose (world frame).
    pub pose_a: &'a Pose,
    /// B's pose (world frame).
    pub pose_b: &'a Pose,
    /// The updated detection: the pair's warm state kept from the previous step.
    pub warm: Contact,
    /// A fresh initial detection (cold state).
    pub cold: Contact,
}

impl Step<'_> {
    /// The step as a failure report: the reference's signed distance `reference` (the solids'
    /// length unit), both answers, and the bodies' vertices and poses, to replay it.
    pub fn describe(&self, m: &Motion, reference: f64) -> String {
        format!(
            "step {}: reference signed distance {reference:e}; warm {:?}; cold {:?}\n  \
             A vertices {:?}\n  pose A {:?}\n  B vertices {:?}\n  pose B {:?}",
            self.step,
            self.warm,
            self.cold,
            m.a.reference.vertices,
            self.pose_a,
            m.b.reference.vertices,
            self.pose_b
        )
    }
}

/// Queries every step of `m` warm (one warm state carried through the sequence) and cold, and
/// hands each [`Step`] to `check`, in order.
pub fn warm_and_cold(m: &Motion, mut check: impl FnMut(&Step)) {
    let mut warm = WarmState::cold();
    for (step, (pose_a, pose_b)) in m.poses.iter().enumerate() {
        let query = |state: &mut WarmState| -> Contact {
            collide(&m.a.shape, pose_a, &m.b.shape, pose_b, Some(state))
                .expect("a polyhedron pair is supported")
        };
        let warm = query(&mut warm);
        let cold = query(&mut WarmState::cold());
        check(&Step {
            step,
            pose_a,
            pose_b,
            warm,
            cold,
        });
    }
}

/// Runs the sequences of `steps` steps over all cores; the table and whether every check passed.
pub fn validate(options: &Options, steps: usize) -> Outcome {
    let parts: Vec<Vec<(usize, Stats)>> = over_threads(
        options,
        SEQUENCES.len(),
        "polyhedra motion",
        Vec::new,
        |done, k| {
            let mut rng = sampling::rng(options.seed ^ (0x6d6f_7469 << 24) ^ k as u64);
            let (blocks, mode) = SEQUENCES[k];
            let (a, b) = blocks.bodies(&mut rng);
            let m = motion(
                a,
                b,
                steps,
                mode,
                GapProfile::IN_AND_OUT,
                Steps::DEM,
                &mut rng,
            );
            let mut stats = Stats::new();
            stats.run(&m);
            done.push((k, stats));
        },
    );
    let mut kinds: Vec<(String, Stats)> = Vec::new();
    let mut all: Vec<(usize, Stats)> = parts.into_iter().flatten().collect();
    all.sort_by_key(|(k, _)| *k);
    for (k, s) in &all {
        let name = format!("{}, {}", SEQUENCES[*k].0.name(), SEQUENCES[*k].1.name());
        match kinds.iter_mut().find(|(n, _)| *n == name) {
            Some((_, total)) => total.merge(s),
            None => kinds.push((name, s.clone())),
        }
    }
    report(&kinds, steps)
}

/// The table of the sequences, one row per kind of blocks.
fn report(kinds: &[(String, Stats)], steps: usize) -> Outcome {
    let mean = |(n, sum): (u64, u64)| sum as f64 / n.max(1) as f64;
    let mut t = Table::new(
        format!(
            "Polyhedra (c): blocks in motion, {steps} steps per sequence (resting: B's largest face \
             on A's, sliding over half the face radius, twisting 1e-3 rad per step and rocking by up to \
             0.02 rad; tumbling: both turning, up to 1e-3 rad per step; support-plane gap swinging \
             from -1.2 % to +0.8 % of the size), updated (warm) vs initial (cold) detection at \
             every step, both vs the SAT reference"
        ),
        &[
            "blocks",
            "sequences x steps",
            "touching %",
            "warm != cold touching",
            "warm-cold depth (rel), max",
            "warm-cold normal (rad), max",
            "mismatches or uncertified gaps vs SAT (in band)",
            "depth rel. error vs SAT, max (over floor)",
            "normal error vs SAT, max (unique steps)",
            "covers warm: touching / apart",
            "covers cold: touching / apart",
            "check",
        ],
    );
    let mut passed = true;
    let mut failures = String::new();
    for (name, s) in kinds {
        passed &= s.passed();
        t.row(vec![
            name.clone(),
            format!("{} x {steps}", s.sequences),
            format!("{:.1}", 100.0 * s.touching as f64 / s.steps.max(1) as f64),
            (s.flag_differs.0 + s.not_warm.0).to_string(),
            sci(s.warm_cold_depth.max),
            sci(s.warm_cold_normal.max),
            format!("{} ({})", s.mismatches.0, s.in_band),
            format!("{} ({})", sci(s.depth.max), s.depth_over.0),
            format!("{} ({})", sci(s.normal.max), s.unique),
            format!(
                "{:.2} / {:.2}",
                mean(s.covers_warm[1]),
                mean(s.covers_warm[0])
            ),
            format!(
                "{:.2} / {:.2}",
                mean(s.covers_cold[1]),
                mean(s.covers_cold[0])
            ),
            verdict(s.passed()),
        ]);
        if let Some(f) = &s.first_failure {
            failures += &format!("\nFIRST FAILURE ({name}): {f}\n");
        }
    }
    let mut report = t.render();
    report += &format!(
        "\ncheck: every warm query after the first is warm-started; warm and cold agree (touching \
         flag; depth and, where the SAT minimum is unique, normal within {WARM_COLD_TOLERANCE:.0e}); \
         both match the SAT reference (no mismatch outside the band, depth within \
         {DEPTH_TOLERANCE:.0e} relative above a round-off floor of 1e-13 of the size, unique normal within {NORMAL_TOLERANCE:.0e} rad). \
         \"warm != cold touching\" also counts warm queries that were not warm-started.\n"
    );
    report += &failures;
    report += &format!("motion sequences: {}\n", verdict(passed));
    Outcome { report, passed }
}
