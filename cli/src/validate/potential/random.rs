//! Random pairs of the paper's particles near contact, against clarabel on the same eq. (6) (in
//! `f64`, and in double-double for the contact point), and warm-started DEM-like sequences against
//! cold queries.

use super::super::polyhedra::verdict;
use super::super::{tallied, MaxError, MustBeZero, Options, Outcome, Tally};
use crate::bench::potential::Workload;
use crate::potential_pairs::{catalogue, place, NamedParticle};
use crate::potential_reference::{
    agreement, clarabel_socp, clarabel_socp_dd, clarabel_socp_dd_fallback, normal,
    overlap_by_bisection, DD_FEASIBILITY, DD_GAP, DD_GAP_FALLBACK,
};
use crate::sampling;
use crate::table::{sci, Table};
use demcontact::narrow::{collide, potential_socp::potential_socp};
use demcontact::shapes::Shape;
use demcontact::WarmState;

/// `s` must agree with clarabel's to this, relative (issue 7).
pub const S_TOLERANCE: f64 = 1e-7;
/// The contact point's target agreement with clarabel's (double-double, [`clarabel_socp_dd`]),
/// relative to the smaller body's size (issue 7).
pub const POINT_TARGET: f64 = 1e-7;
/// Pairs whose clarabel `s` is this close to 1 are not judged for classification (clarabel's
/// own `s` is only this accurate).
pub const BAND: f64 = 1e-7;
/// Our overlap against bisection along our own line, relative to the size.
pub const OVERLAP_TOLERANCE: f64 = 1e-10;
/// Ours may exceed clarabel's objective by this much (relative) before it counts as worse: the
/// round-off of the solve for the 1:8 prisms, whose gradients at the optimum differ a hundredfold.
pub const OBJECTIVE_SLACK: f64 = 1e-10;
/// Warm and cold answers must agree to this, relative to the size.
pub const WARM_TOLERANCE: f64 = 1e-9;

/// Pairs per chunk of work handed to a thread.
const CHUNK: usize = 256;

/// The tallies of a run.
struct Stats {
    pairs: u64,
    touching: u64,
    clarabel_failed: u64,
    s: MaxError,
    s_ours_worse: MustBeZero,
    point: MaxError,
    point_touching: MaxError,
    point_over_target: u64,
    point_over_target_touching: u64,
    dd: DdStats,
    objective_worse: MustBeZero,
    outside_bound: MustBeZero,
    mismatches: MustBeZero,
    in_band: u64,
    overlap: MaxError,
    overlap_reference: f64,
}

impl Tally for Stats {
    fn merge(&mut self, o: &Stats) {
        self.pairs += o.pairs;
        self.touching += o.touching;
        self.clarabel_failed += o.clarabel_failed;
        for (m, n) in [
            (&mut self.s, &o.s),
            (&mut self.point, &o.point),
            (&mut self.point_touching, &o.point_touching),
            (&mut self.overlap, &o.overlap),
        ] {
            m.max = m.max.max(n.max);
            m.over += n.over;
        }
        self.point_over_target += o.point_over_target;
        self.point_over_target_touching += o.point_over_target_touching;
        self.dd.merge(&o.dd);
        self.s_ours_worse.0 += o.s_ours_worse.0;
        self.objective_worse.0 += o.objective_worse.0;
        self.outside_bound.0 += o.outside_bound.0;
        self.mismatches.0 += o.mismatches.0;
        self.in_band += o.in_band;
        self.overlap_reference = self.overlap_reference.max(o.overlap_reference);
    }
}

impl Stats {
    fn new() -> Self {
        Stats {
            pairs: 0,
            touching: 0,
            clarabel_failed: 0,
            s: MaxError::within(S_TOLERANCE),
            s_ours_worse: MustBeZero::default(),
            point: MaxError::within(f64::INFINITY),
            point_touching: MaxError::within(f64::INFINITY),
            point_over_target: 0,
            point_over_target_touching: 0,
            dd: DdStats::default(),
            objective_worse: MustBeZero::default(),
            outside_bound: MustBeZero::default(),
            mismatches: MustBeZero::default(),
            in_band: 0,
            overlap: MaxError::within(OVERLAP_TOLERANCE),
            overlap_reference: 0.0,
        }
    }

    /// Checks one pair of `a` and `b` placed by `rng`.
    fn check(&mut self, rng: &mut sampling::SceneRng, a: &NamedParticle, b: &NamedParticle) {
        let (pa, pb) = place(rng, &a.particle, &b.particle, 0.6..1.02);
        let (sa, sb) = (
            Shape::PotentialParticle(a.particle.clone()),
            Shape::PotentialParticle(b.particle.clone()),
        );
        self.pairs += 1;
        let c = collide(&sa, &pa, &sb, &pb, None).expect("a contact");
        let ours = potential_socp(
            &a.particle,
            &b.particle,
            &pa.relative(&pb),
            &mut WarmState::cold(),
        )
        .expect("an optimum");
        let point = pa.transform_point(&ours.optimum.point);
        let size = a
            .particle
            .bounding_radius()
            .min(b.particle.bounding_radius());
        let best_known =
            self.dd
                .check(&a.particle, &pa, &b.particle, &pb, &point, size, c.touching);
        let Some(reference) = clarabel_socp(&a.particle, &pa, &b.particle, &pb) else {
            self.clarabel_failed += 1;
            return;
        };
        let agreed = agreement(
            &a.particle,
            &pa,
            &b.particle,
            &pb,
            &point,
            &reference,
            best_known.as_ref(),
        );
        self.s.add(agreed.s_relative);
        self.s_ours_worse
            .count(agreed.s_relative > S_TOLERANCE && agreed.objective_excess < 0.0);
        self.point.add(agreed.point_relative);
        self.point_over_target += u64::from(agreed.point_relative > POINT_TARGET);
        if c.touching {
            self.point_touching.add(agreed.point_relative);
            self.point_over_target_touching += u64::from(agreed.point_relative > POINT_TARGET);
        }
        self.objective_worse
            .count(agreed.objective_excess < -OBJECTIVE_SLACK);
        self.outside_bound.count(!agreed.within_convexity_bound);
        let s_reference = reference.s_a.max(reference.s_b);
        if (s_reference - 1.0).abs() <= BAND {
            self.in_band += 1;
        } else {
            self.mismatches.count(c.touching != (s_reference < 1.0));
        }
        if c.touching {
            self.touching += 1;
            let brute =
                overlap_by_bisection(&a.particle, &pa, &b.particle, &pb, &c.point, &c.normal);
            self.overlap.add((c.penetration - brute).abs() / size);
            let n = normal(&a.particle, &pa, &b.particle, &pb, &reference.point);
            let from_reference =
                overlap_by_bisection(&a.particle, &pa, &b.particle, &pb, &reference.point, &n);
            self.overlap_reference = self
                .overlap_reference
                .max((c.penetration - from_reference).abs() / size);
        }
    }
}

/// The contact point against clarabel in double-double arithmetic ([`clarabel_socp_dd`]): the
/// tallies of the issue-7 target.
struct DdStats {
    /// Pairs double-double clarabel solved at [`DD_GAP`] (status `Solved`).
    solved: u64,
    /// Pairs it solved only at the fallback gap tolerance [`DD_GAP_FALLBACK`].
    solved_fallback: u64,
    /// Pairs it did not solve at either, by final status (not judged).
    unsolved: std::collections::BTreeMap<String, u64>,
    /// Interior-point iterations of the solves that counted, summed and largest.
    iterations: u64,
    iterations_max: u32,
    /// Seconds in double-double clarabel (setup and solve), all attempts.
    seconds: f64,
    /// `|x_ours - x_dd| / size` against [`POINT_TARGET`]: all judged pairs, touching pairs.
    point: MaxError,
    point_touching: MaxError,
    /// Judged touching pairs.
    touching: u64,
}

impl Default for DdStats {
    fn default() -> Self {
        DdStats {
            solved: 0,
            solved_fallback: 0,
            unsolved: Default::default(),
            iterations: 0,
            iterations_max: 0,
            seconds: 0.0,
            point: MaxError::within(POINT_TARGET),
            point_touching: MaxError::within(POINT_TARGET),
            touching: 0,
        }
    }
}

impl DdStats {
    fn merge(&mut self, o: &DdStats) {
        self.solved += o.solved;
        self.solved_fallback += o.solved_fallback;
        for (status, n) in &o.unsolved {
            *self.unsolved.entry(status.clone()).or_default() += n;
        }
        self.iterations += o.iterations;
        self.iterations_max = self.iterations_max.max(o.iterations_max);
        self.seconds += o.seconds;
        for (m, n) in [
            (&mut self.point, &o.point),
            (&mut self.point_touching, &o.point_touching),
        ] {
            m.max = m.max.max(n.max);
            m.over += n.over;
        }
        self.touching += o.touching;
    }

    /// Solves the pair in double-double and compares our world optimum `point` with its point,
    /// which it returns (`None` when double-double clarabel did not solve the pair).
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        a: &demcontact::shapes::PotentialParticle,
        pa: &demcontact::Pose,
        b: &demcontact::shapes::PotentialParticle,
        pb: &demcontact::Pose,
        point: &nalgebra::Vector3<f64>,
        size: f64,
        touching: bool,
    ) -> Option<nalgebra::Vector3<f64>> {
        let started = std::time::Instant::now();
        let reference = match clarabel_socp_dd(a, pa, b, pb) {
            Ok(r) => {
                self.solved += 1;
                Ok(r)
            }
            Err(_) => clarabel_socp_dd_fallback(a, pa, b, pb).inspect(|_| {
                self.solved_fallback += 1;
            }),
        };
        self.seconds += started.elapsed().as_secs_f64();
        let reference = match reference {
            Ok(r) => r,
            Err(status) => {
                *self.unsolved.entry(format!("{status:?}")).or_default() += 1;
                return None;
            }
        };
        self.iterations += u64::from(reference.iterations);
        self.iterations_max = self.iterations_max.max(reference.iterations);
        let d = (point - reference.point).norm() / size;
        self.point.add(d);
        if touching {
            self.touching += 1;
            self.point_touching.add(d);
        }
        Some(reference.point)
    }

    /// Pairs not judged (double-double clarabel did not solve them).
    fn unjudged(&self) -> u64 {
        self.unsolved.values().sum()
    }

    /// Whether the target holds on every pair: all judged, none over.
    fn met(&self) -> bool {
        self.unjudged() == 0 && self.point.ok()
    }
}

/// Runs `pairs` random pairs over all cores, cycling through every pair of the paper's particles,
/// and the warm-start sequences; the tables and whether every check passed.
pub fn validate(options: &Options, pairs: usize) -> Outcome {
    let shapes = catalogue();
    let combos: Vec<(usize, usize)> = (0..shapes.len())
        .flat_map(|i| (i..shapes.len()).map(move |j| (i, j)))
        .collect();
    let s = tallied(
        options,
        pairs.div_ceil(CHUNK),
        "potential particle pairs",
        Stats::new,
        |stats, k| {
            let seed =
                options.seed ^ (0x706f_7465 << 32) ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = sampling::rng(seed);
            for i in 0..CHUNK.min(pairs - k * CHUNK) {
                let (a, b) = combos[(k * CHUNK + i) % combos.len()];
                stats.check(&mut rng, &shapes[a], &shapes[b]);
            }
        },
    );
    let mut outcome = report(&s, &shapes);
    let warm = warm_sequences((pairs / 100).clamp(2, 64));
    outcome.report += &warm.report;
    outcome.passed &= warm.passed;
    outcome
}

/// The random pairs' table.
fn report(s: &Stats, shapes: &[NamedParticle]) -> Outcome {
    let names: Vec<&str> = shapes.iter().map(|n| n.name).collect();
    let mut t = Table::new(
        format!(
            "Potential particles (b): {} random pairs (every pair of: {}; uniform orientations, \
             centres at 0.6 to 1.02 times the sum of the extents along the centre line), cold \
             queries against clarabel 0.11 on the same eq. (6): in f64 (tolerances 1e-13) for s, \
             the objective and classification; in double-double (~106-bit mantissa; gap {}, \
             feasibility {}) for the contact point target",
            s.pairs,
            names.join(", "),
            sci(DD_GAP),
            sci(DD_FEASIBILITY)
        ),
        &["measure", "value", "required", "check"],
    );
    let judged = s.pairs - s.clarabel_failed;
    let dd_judged = s.pairs - s.dd.unjudged();
    let percent = |n: u64, of: u64| format!("{n} ({:.3} %)", 100.0 * n as f64 / of.max(1) as f64);
    let rows: Vec<(String, String, String, String)> = vec![
        (
            "pairs clarabel did not solve (not judged)".into(),
            s.clarabel_failed.to_string(),
            String::new(),
            String::new(),
        ),
        (
            "s (= sqrt(f + 1) at the optimum) rel. difference, max".into(),
            sci(s.s.max),
            format!("target {}", sci(S_TOLERANCE)),
            String::new(),
        ),
        (
            format!(
                "pairs with s off by more than {} (clarabel's objective the higher)",
                sci(S_TOLERANCE)
            ),
            (s.s.over - s.s_ours_worse.0).to_string(),
            String::new(),
            String::new(),
        ),
        (
            format!(
                "pairs with s off by more than {} (ours the higher)",
                sci(S_TOLERANCE)
            ),
            s.s_ours_worse.0.to_string(),
            "0".into(),
            verdict(s.s_ours_worse.0 == 0),
        ),
        (
            format!(
                "pairs where ours exceeds clarabel's objective by > {} rel.",
                sci(OBJECTIVE_SLACK)
            ),
            s.objective_worse.0.to_string(),
            "0".into(),
            verdict(s.objective_worse.0 == 0),
        ),
        (
            "pairs where the points lie farther apart than their objectives allow (strong \
             convexity, from the lowest objective of ours, clarabel's and double-double's; \
             round-off 1e-13)"
                .into(),
            s.outside_bound.0.to_string(),
            "0".into(),
            verdict(s.outside_bound.0 == 0),
        ),
        (
            "contact point vs f64 clarabel / size, max: all pairs / touching pairs (f64 \
             clarabel's point is only as good as the square root of its objective error)"
                .into(),
            format!("{} / {}", sci(s.point.max), sci(s.point_touching.max)),
            String::new(),
            String::new(),
        ),
        (
            format!(
                "pairs with the point within {} of f64 clarabel's: all / touching",
                sci(POINT_TARGET)
            ),
            format!(
                "{} / {}",
                percent(judged - s.point_over_target, judged),
                percent(s.touching - s.point_over_target_touching, s.touching)
            ),
            String::new(),
            String::new(),
        ),
        (
            format!(
                "double-double clarabel: solved at gap {} / solved at the retry (gap {}) / not \
                 solved (not judged)",
                sci(DD_GAP),
                sci(DD_GAP_FALLBACK)
            ),
            format!(
                "{} / {} / {}",
                s.dd.solved,
                s.dd.solved_fallback,
                if s.dd.unsolved.is_empty() {
                    "0".to_string()
                } else {
                    s.dd.unsolved
                        .iter()
                        .map(|(status, n)| format!("{n} {status}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            String::new(),
            String::new(),
        ),
        (
            "double-double clarabel: iterations mean / max; time per pair (setup and solve)".into(),
            format!(
                "{:.1} / {}; {:.1} ms",
                s.dd.iterations as f64 / dd_judged.max(1) as f64,
                s.dd.iterations_max,
                1e3 * s.dd.seconds / s.pairs.max(1) as f64
            ),
            String::new(),
            String::new(),
        ),
        (
            "contact point vs double-double clarabel / size, max: all pairs / touching pairs"
                .into(),
            format!("{} / {}", sci(s.dd.point.max), sci(s.dd.point_touching.max)),
            format!("target {}", sci(POINT_TARGET)),
            String::new(),
        ),
        (
            format!(
                "pairs with the point within {} of double-double clarabel's: all / touching \
                 (issue 7: 100 % of the pairs)",
                sci(POINT_TARGET)
            ),
            format!(
                "{} / {}",
                percent(s.pairs - s.dd.unjudged() - s.dd.point.over, s.pairs),
                percent(s.dd.touching - s.dd.point_touching.over, s.dd.touching)
            ),
            "100 %".into(),
            verdict(s.dd.met()),
        ),
        (
            format!(
                "classification mismatches (outside |s - 1| <= {})",
                sci(BAND)
            ),
            s.mismatches.0.to_string(),
            "0".into(),
            verdict(s.mismatches.0 == 0),
        ),
        (
            "pairs inside the band (not judged)".into(),
            s.in_band.to_string(),
            String::new(),
            String::new(),
        ),
        (
            format!(
                "overlap vs bisection along our line / size, max ({} touching)",
                s.touching
            ),
            sci(s.overlap.max),
            format!("<= {}", sci(OVERLAP_TOLERANCE)),
            verdict(s.overlap.ok()),
        ),
        (
            "overlap vs bisection along clarabel's point and normal / size, max".into(),
            sci(s.overlap_reference),
            String::new(),
            String::new(),
        ),
    ];
    for (a, b, c, d) in rows {
        t.row(vec![a, b, c, d]);
    }
    let passed = s.s_ours_worse.0 == 0
        && s.objective_worse.0 == 0
        && s.outside_bound.0 == 0
        && s.mismatches.0 == 0
        && s.overlap.ok()
        && s.dd.met()
        && s.clarabel_failed * 1000 <= s.pairs;
    Outcome {
        report: t.render(),
        passed,
    }
}

/// `sequences` DEM-like sequences of 100 steps per workload (the benchmark's): warm-started
/// answers against cold ones at every step.
fn warm_sequences(sequences: usize) -> Outcome {
    let mut t = Table::new(
        format!(
            "Potential particles (c): warm-started DEM-like sequences ({sequences} x 100 steps per \
             workload, 2e-4 edge and 1e-3 rad per step) against cold queries"
        ),
        &[
            "workload",
            "max |warm - cold| / size (point, overlap)",
            "mean iterations cold / warm",
            "check",
        ],
    );
    let mut passed = true;
    for w in [
        Workload::cubes(sequences, sequences, 100),
        Workload::tetrahedra(sequences, sequences, 100),
    ] {
        let (worst, cold, warm) = w.warm_against_cold(100);
        let ok = worst <= WARM_TOLERANCE && warm < cold;
        passed &= ok;
        t.row(vec![
            w.name.into(),
            sci(worst),
            format!("{cold:.2} / {warm:.2}"),
            verdict(ok),
        ]);
    }
    Outcome {
        report: t.render(),
        passed,
    }
}
