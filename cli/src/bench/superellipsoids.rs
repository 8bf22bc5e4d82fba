//! Superellipsoid-pair benchmarks on the validation protocol's pairs (Wellmann, Lillie & Wriggers
//! 2008): series 1 (separated by up to 0.25, mostly excluded early), series 2 cold (penetrating by up
//! to 1.75e-3) and warm-started DEM-like sequences, and ellipsoids overlapping as deeply as a DEM
//! packing's contacts (1-5 % of the size), cold and warm, each beside parry3d-f64's GJK/EPA on a
//! closed-form superellipsoid support map, with both libraries' depth accuracy on the same pairs.

use super::{median_ns, ns, Options};
use crate::peers::{parry_pose, parry_support_contact, ParrySuperellipsoid};
use crate::sampling::{self, SceneRng};
use crate::superellipsoid_pairs::{
    deep_pair, generate, moving, sequence, Interval, Series, SuperellipsoidPair,
};
use crate::table::Table;
use demcontact::narrow::collide;
use demcontact::{Contact, Pose, Shape, WarmState};
use parry3d_f64::math::{Pose as ParryPose, Vector};
use std::hint::black_box;
use std::time::Instant;

/// Pairs per series.
pub const PAIRS: usize = 4096;
/// Warm-started sequences.
pub const SEQUENCES: usize = 64;
/// Steps per warm-started sequence.
pub const STEPS: usize = 100;
/// Rotation of the contact direction and of B per step (rad).
pub const TURN: f64 = 1e-3;
/// Warm-started sequences of nearly pointed bodies (fewer: each query restarts, see
/// [`Workload::pointed`]).
pub const POINTED_SEQUENCES: usize = 8;
/// Pairs of the deep-overlap workload.
pub const DEEP_PAIRS: usize = 1024;
/// The deep overlaps' common-normal depth, relative to the sum of the bodies' mean radii (as
/// `validate`'s deep overlaps).
pub const DEEP_DEPTH: (f64, f64) = (0.01, 0.05);
/// Passes of the per-query timing (each query's fastest pass is kept).
pub const PER_QUERY_PASSES: usize = 5;

/// One workload: pairs as our shapes and poses, as parry shapes and relative poses, with the exact
/// signed gaps, cut into runs that share a warm state (a run of one: cold queries).
pub struct Workload {
    ours: Vec<(Shape, Shape, Pose)>,
    parry: Vec<(ParrySuperellipsoid, ParrySuperellipsoid, ParryPose)>,
    gaps: Vec<f64>,
    run: usize,
}

impl Workload {
    /// `pairs` cut into warm-start runs of `run` consecutive pairs.
    pub fn new(pairs: &[SuperellipsoidPair], run: usize) -> Self {
        Workload {
            ours: pairs
                .iter()
                .map(|p| {
                    let shape = |s| Shape::Superellipsoid(s);
                    (shape(p.a), shape(p.b), p.pose_b)
                })
                .collect(),
            parry: pairs
                .iter()
                .map(|p| {
                    let (a, b) = (ParrySuperellipsoid(p.a), ParrySuperellipsoid(p.b));
                    (a, b, parry_pose(&p.pose_b))
                })
                .collect(),
            gaps: pairs.iter().map(|p| p.signed_gap).collect(),
            run,
        }
    }

    /// The interval-3 series-1 (separated) pairs of the benchmarks.
    pub fn series1() -> Self {
        Self::new(&generate(Interval::Three, Series::Separated, PAIRS, 21), 1)
    }

    /// The interval-3 series-2 (penetrating) pairs of the benchmarks.
    pub fn series2() -> Self {
        Self::new(
            &generate(Interval::Three, Series::Penetrating, PAIRS, 22),
            1,
        )
    }

    /// The interval-3 DEM-like sequences of the benchmarks, one warm-start run each.
    pub fn dem_like() -> Self {
        Self::runs(23, |rng| sequence(Interval::Three, STEPS, TURN, rng))
    }

    /// The interval-3 near pairs apart moving like the DEM-like sequences (gaps 0.005 to 0.095),
    /// one warm-start run each.
    pub fn near_apart() -> Self {
        Self::runs(24, |rng| {
            moving(Interval::Three, STEPS, TURN, rng, |phase| {
                0.05 * (1.0 + 0.9 * phase.sin())
            })
        })
    }

    /// DEM-like sequences (as [`Self::dem_like`]) of nearly pointed bodies (every `eps` in
    /// [1.8, 1.9]), [`POINTED_SEQUENCES`] runs: a first answer there seldom passes the trust
    /// test, and the restarts run at almost every query, warm or cold (the kernel's costly case).
    pub fn pointed() -> Self {
        Self::runs_of(27, POINTED_SEQUENCES, |rng| {
            sequence(Interval::Pointed, STEPS, TURN, rng)
        })
    }

    /// Ellipsoid pairs (interval 1) overlapping by [`DEEP_DEPTH`] of their size, as in a DEM
    /// packing, cold.
    pub fn deep_ellipsoids() -> Self {
        let mut rng = sampling::rng(25);
        let pairs: Vec<SuperellipsoidPair> = (0..DEEP_PAIRS)
            .map(|_| deep_pair(Interval::One, DEEP_DEPTH, &mut rng))
            .collect();
        Self::new(&pairs, 1)
    }

    /// Ellipsoid pairs (interval 1) in lasting contact like the DEM-like sequences, at a depth of
    /// 0.015 to 0.045 (1 to 6 % of the size), one warm-start run each.
    pub fn deep_ellipsoid_sequences() -> Self {
        Self::runs(26, |rng| {
            moving(Interval::One, STEPS, TURN, rng, |phase| {
                -0.03 * (1.0 + 0.5 * phase.sin())
            })
        })
    }

    /// [`SEQUENCES`] runs of [`STEPS`] pairs from `run`, drawn from `seed`.
    fn runs(seed: u64, run: impl Fn(&mut SceneRng) -> Vec<SuperellipsoidPair>) -> Self {
        Self::runs_of(seed, SEQUENCES, run)
    }

    /// `count` runs of [`STEPS`] pairs from `run`, drawn from `seed`.
    fn runs_of(
        seed: u64,
        count: usize,
        run: impl Fn(&mut SceneRng) -> Vec<SuperellipsoidPair>,
    ) -> Self {
        let mut rng = sampling::rng(seed);
        let pairs: Vec<SuperellipsoidPair> = (0..count).flat_map(|_| run(&mut rng)).collect();
        Self::new(&pairs, STEPS)
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.gaps.len()
    }

    /// Whether there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.gaps.is_empty()
    }

    /// Our answers, warm-started along each run when `warm`.
    pub fn ours(&self, warm: bool) -> Vec<Option<Contact>> {
        let origin = Pose::identity();
        let mut state = WarmState::cold();
        let mut out = Vec::with_capacity(self.ours.len());
        for (i, (a, b, pose_b)) in self.ours.iter().enumerate() {
            if i % self.run == 0 || !warm {
                state = WarmState::cold();
            }
            out.push(collide(a, &origin, b, pose_b, Some(&mut state)).ok());
        }
        out
    }

    /// The median over the pairs of each cold query's own time (ns; each query timed alone in
    /// `passes` passes, its fastest kept), ours and parry's: the typical query, where the
    /// per-pass means of [`median_ns`] are pulled up by the few expensive ones. Each time includes
    /// two clock reads; the third figure is what they take alone (the same median of an empty
    /// timed section per pair), measured in the same passes. The clock of some machines ticks in
    /// steps (10 ns on the reference VM), so the figures are multiples of it.
    pub fn per_query_medians(&self, passes: usize) -> (f64, f64, f64) {
        let origin = Pose::identity();
        let mut ours = vec![f64::INFINITY; self.len()];
        let mut parry = vec![f64::INFINITY; self.len()];
        let mut clock = vec![f64::INFINITY; self.len()];
        for _ in 0..passes {
            for (i, (a, b, pose_b)) in self.ours.iter().enumerate() {
                let start = Instant::now();
                black_box(collide(a, &origin, b, pose_b, None).ok());
                ours[i] = ours[i].min(start.elapsed().as_nanos() as f64);
                let start = Instant::now();
                black_box(i);
                clock[i] = clock[i].min(start.elapsed().as_nanos() as f64);
            }
            for (i, (a, b, pos12)) in self.parry.iter().enumerate() {
                let start = Instant::now();
                black_box(parry_support_contact(a, b, pos12, 0.0, None));
                parry[i] = parry[i].min(start.elapsed().as_nanos() as f64);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        (median(&mut ours), median(&mut parry), median(&mut clock))
    }

    /// parry's answers `(distance, normal)`; when `warm`, GJK starts from the previous step's normal.
    pub fn parry(&self, warm: bool) -> Vec<Option<(f64, Vector)>> {
        let mut previous = None;
        let mut out = Vec::with_capacity(self.parry.len());
        for (i, (a, b, pos12)) in self.parry.iter().enumerate() {
            if i % self.run == 0 || !warm {
                previous = None;
            }
            let r = parry_support_contact(a, b, pos12, 0.0, previous);
            previous = r.map(|(_, n)| n);
            out.push(r);
        }
        out
    }
}

/// Depth accuracy over the touching pairs of a workload: mean and max relative depth error, and
/// the pairs answered wrongly (touching reported separated or the reverse, or no answer).
struct Accuracy {
    mean: f64,
    max: f64,
    wrong: usize,
}

impl Accuracy {
    fn of(gaps: &[f64], answers: impl Iterator<Item = Option<f64>>) -> Self {
        let (mut sum, mut max, mut n, mut wrong) = (0.0, 0.0f64, 0usize, 0usize);
        for (gap, depth) in gaps.iter().zip(answers) {
            match depth {
                Some(depth) if (depth > 0.0) == (*gap < 0.0) => {
                    if *gap < 0.0 {
                        let e = (depth + gap).abs() / -gap;
                        sum += e;
                        max = max.max(e);
                        n += 1;
                    }
                }
                _ => wrong += 1,
            }
        }
        Accuracy {
            mean: if n > 0 { sum / n as f64 } else { 0.0 },
            max,
            wrong,
        }
    }

    fn cell(&self, touching: bool) -> String {
        if touching {
            format!("{:.1e} / {:.1e}; {} wrong", self.mean, self.max, self.wrong)
        } else {
            format!("{} wrong", self.wrong)
        }
    }
}

/// Runs the superellipsoid benchmarks; returns the table.
pub fn bench(options: &Options) -> Table {
    let samples = options.samples();
    let (series1, series2, dem, near) = (
        Workload::series1(),
        Workload::series2(),
        Workload::dem_like(),
        Workload::near_apart(),
    );
    let (deep, deep_sequences, pointed) = (
        Workload::deep_ellipsoids(),
        Workload::deep_ellipsoid_sequences(),
        Workload::pointed(),
    );

    let mut t = Table::new(
        format!(
            "Superellipsoid pairs, interval 3 (eps in [0.3, 1.7], radii in (0.5, 3)) but where a row \
             says ellipsoids (interval 1: eps 1) or nearly pointed bodies, f64 throughout; \
             medians of {samples} passes, ns/query; depth error: mean / max relative, over the \
             touching pairs, against the constructed common normal (for the nearly pointed \
             bodies that is deeper than the minimum: both libraries find shallower ones)"
        ),
        &[
            "pairs",
            "demcontact",
            "parry3d-f64 0.31 GJK/EPA",
            "parry / demcontact",
            "demcontact depth error",
            "parry depth error",
        ],
    );
    let mut row = |name: &str, w: &Workload, warm: bool| {
        let ours = median_ns(samples, w.ours.len(), || {
            black_box(w.ours(warm));
        });
        let parry = median_ns(samples, w.parry.len(), || {
            black_box(w.parry(warm));
        });
        let touching = w.gaps.iter().any(|g| *g < 0.0);
        let our_accuracy = Accuracy::of(
            &w.gaps,
            w.ours(warm)
                .into_iter()
                .map(|c| c.map(|c| if c.touching { c.penetration } else { -1.0 })),
        );
        let parry_accuracy = Accuracy::of(
            &w.gaps,
            w.parry(warm)
                .into_iter()
                .map(|r| Some(r.map_or(-1.0, |(d, _)| -d))),
        );
        t.row(vec![
            name.into(),
            ns(ours),
            ns(parry),
            format!("{:.1}x", parry / ours),
            our_accuracy.cell(touching),
            parry_accuracy.cell(touching),
        ]);
    };
    row(
        &format!("series 1: separated, {PAIRS} pairs, cold"),
        &series1,
        false,
    );
    row(
        &format!("series 2: penetrating, {PAIRS} pairs, cold"),
        &series2,
        false,
    );
    row(
        &format!("DEM-like: {SEQUENCES} contacts x {STEPS} steps, cold"),
        &dem,
        false,
    );
    row(
        &format!("DEM-like: {SEQUENCES} contacts x {STEPS} steps, warm (parry: GJK from the last normal)"),
        &dem,
        true,
    );
    row(
        &format!("near pairs apart, moving: {SEQUENCES} pairs x {STEPS} steps, cold"),
        &near,
        false,
    );
    row(
        &format!("near pairs apart, moving: {SEQUENCES} pairs x {STEPS} steps, warm (ours: motion certificate; parry: GJK from the last normal)"),
        &near,
        true,
    );
    row(
        &format!(
            "ellipsoids, deep overlaps ({} to {} of the size, as in a DEM packing), {DEEP_PAIRS} \
             pairs, cold",
            DEEP_DEPTH.0, DEEP_DEPTH.1
        ),
        &deep,
        false,
    );
    row(
        &format!(
            "ellipsoids, deep overlaps (0.015 to 0.045), {SEQUENCES} contacts x {STEPS} steps, \
             warm (parry: GJK from the last normal)"
        ),
        &deep_sequences,
        true,
    );
    for warm in [false, true] {
        row(
            &format!(
                "nearly pointed bodies (every eps in [1.8, 1.9]): DEM-like, {POINTED_SEQUENCES} \
                 contacts x {STEPS} steps, {}",
                if warm {
                    "warm (parry: GJK from the last normal)"
                } else {
                    "cold"
                }
            ),
            &pointed,
            warm,
        );
    }
    for (name, w) in [("series 1", &series1), ("series 2", &series2)] {
        let (ours, parry, clock) = w.per_query_medians(samples.min(PER_QUERY_PASSES));
        t.row(vec![
            format!(
                "{name}: median of each query timed alone (incl. clock reads, {} ns alone)",
                ns(clock)
            ),
            ns(ours),
            ns(parry),
            format!("{:.1}x", parry / ours),
            String::new(),
            String::new(),
        ]);
    }
    t
}
