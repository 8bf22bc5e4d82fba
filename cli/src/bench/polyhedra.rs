//! Convex-polyhedron benchmarks: the Fast Direct Search kernel (Zheng et al. 2017) beside
//! parry3d-f64 (`query::contact`, prediction 0, on `ConvexPolyhedron::from_convex_hull` and, for
//! cubes, on `Cuboid`; and parry's persistent `contact_manifolds` path), and the SAT reference,
//! all on the same pairs, f64 throughout:
//!
//! * initial detection (cold) of touching cube pairs and of touching random polyhedra;
//! * updated detection: cube pairs and random polyhedra resting face on face and sliding,
//!   twisting and rocking in small steps while touching, the warm state kept;
//! * exclusion of near pairs apart (a support-plane gap of 0.5 % to 1.5 % of the size, B shifted
//!   across it by up to 5 %: [`GapProfile::NEAR_APART`]) tumbling in small steps, the warm state
//!   (the cached separating plane) kept.
//!
//! Depth accuracy of every method against the SAT reference on the same pairs comes with it.

use super::{median_ns, ns, Options};
use crate::peers::{parry_contact, parry_convex_hull, parry_cuboid, parry_pose, ParryManifolds};
use crate::polyhedron_motion::{motion, Blocks, GapProfile, Mode, Steps};
use crate::polyhedron_pairs::{body_pool, pool_pair, KernelBody};
use crate::polyhedron_reference::{sat_penetration, RefPolyhedron, SatResult};
use crate::sampling;
use crate::table::{sci, Table};
use demcontact::narrow::collide;
use demcontact::{Contact, Pose, Shape, WarmState};
use parry3d_f64::math::Pose as ParryPose;
use parry3d_f64::shape::{ConvexPolyhedron, Cuboid, Shape as ParryShape};
use std::hint::black_box;

/// Cold pairs per workload.
pub const PAIRS: usize = 1024;
/// Sequences per warm workload.
pub const SEQUENCES: usize = 32;
/// Steps per sequence.
pub const STEPS: usize = 100;
/// Pairs of a workload the (slow) SAT reference is timed on.
pub const SAT_TIMED: usize = 64;

/// A body in every library's form.
pub struct BenchBody {
    /// Ours, with the reference solid.
    pub ours: KernelBody,
    /// parry's convex hull of the same points.
    pub hull: ConvexPolyhedron,
    /// parry's box, for cubes.
    pub cuboid: Option<Cuboid>,
}

impl BenchBody {
    fn new(ours: KernelBody, cube: bool) -> Self {
        let hull = parry_convex_hull(&ours.reference.vertices).expect("parry takes the hull");
        let cuboid = cube.then(|| {
            let h = ours.reference.vertices.iter().fold(
                nalgebra::Vector3::zeros(),
                |m: nalgebra::Vector3<f64>, v| m.sup(&v.abs()),
            );
            parry_cuboid(h.x, h.y, h.z)
        });
        BenchBody { ours, hull, cuboid }
    }
}

/// One workload: bodies, pairs of them at world poses (ours and parry's), the SAT reference's
/// signed gap of each pair, cut into runs that share a warm state (a run of one: cold queries).
pub struct Workload {
    bodies: Vec<BenchBody>,
    pairs: Vec<(usize, Pose, usize, Pose)>,
    parry_poses: Vec<(ParryPose, ParryPose)>,
    gaps: Vec<f64>,
    run: usize,
}

impl Workload {
    fn new(bodies: Vec<BenchBody>, pairs: Vec<(usize, Pose, usize, Pose)>, run: usize) -> Self {
        let gaps = pairs
            .iter()
            .map(|(a, pa, b, pb)| {
                sat_penetration(
                    &bodies[*a].ours.reference,
                    pa,
                    &bodies[*b].ours.reference,
                    pb,
                )
                .signed_gap()
            })
            .collect();
        let parry_poses = pairs
            .iter()
            .map(|(_, pa, _, pb)| (parry_pose(pa), parry_pose(pb)))
            .collect();
        Workload {
            bodies,
            pairs,
            parry_poses,
            gaps,
            run,
        }
    }

    fn cubes() -> Vec<BenchBody> {
        vec![BenchBody::new(
            KernelBody::new(RefPolyhedron::cuboid(0.5, 0.5, 0.5)),
            true,
        )]
    }

    /// `PAIRS` cold pairs of `bodies` placed near contact, kept only when the reference finds
    /// them touching.
    fn touching_pairs(bodies: Vec<BenchBody>, seed: u64) -> Self {
        let mut rng = sampling::rng(seed);
        let pool: Vec<KernelBody> = bodies.iter().map(|b| b.ours.clone()).collect();
        let mut pairs = Vec::with_capacity(PAIRS);
        while pairs.len() < PAIRS {
            let p = pool_pair(&mut rng, &pool, -0.02..0.0);
            let sat = sat_penetration(
                &pool[p.a].reference,
                &p.pose_a,
                &pool[p.b].reference,
                &p.pose_b,
            );
            if matches!(sat, SatResult::Penetrating { depth, .. } if depth > 1e-6 * p.size) {
                pairs.push((p.a, p.pose_a, p.b, p.pose_b));
            }
        }
        Self::new(bodies, pairs, 1)
    }

    /// Touching unit-cube pairs, cold.
    pub fn cold_cubes() -> Self {
        Self::touching_pairs(Self::cubes(), 31)
    }

    /// Touching pairs of random polyhedra (4 to 60 vertices, aspect ratios up to 8), cold.
    pub fn cold_random() -> Self {
        let pool = body_pool(&mut sampling::rng(32), 256, 60);
        Self::touching_pairs(
            pool.into_iter().map(|b| BenchBody::new(b, false)).collect(),
            33,
        )
    }

    /// `SEQUENCES` sequences of `STEPS` steps of `blocks` in `mode` with the gap `gap`.
    fn sequences(blocks: Blocks, mode: Mode, gap: GapProfile, seed: u64) -> Self {
        let mut rng = sampling::rng(seed);
        let mut bodies = Vec::new();
        let mut pairs = Vec::new();
        for _ in 0..SEQUENCES {
            let (a, b) = blocks.bodies(&mut rng);
            let m = motion(a, b, STEPS, mode, gap, Steps::DEM, &mut rng);
            let cube = blocks == Blocks::Cubes;
            let (ia, ib) = (bodies.len(), bodies.len() + 1);
            bodies.push(BenchBody::new(m.a, cube));
            bodies.push(BenchBody::new(m.b, cube));
            pairs.extend(m.poses.into_iter().map(|(pa, pb)| (ia, pa, ib, pb)));
        }
        Self::new(bodies, pairs, STEPS)
    }

    /// Cubes resting face on face, sliding, twisting and rocking while touching.
    pub fn sliding_cubes() -> Self {
        Self::sequences(Blocks::Cubes, Mode::Resting, GapProfile::TOUCHING, 34)
    }

    /// Random polyhedra (4 to 24 vertices) resting face on face and moving while touching.
    pub fn sliding_random() -> Self {
        Self::sequences(Blocks::Random(24), Mode::Resting, GapProfile::TOUCHING, 35)
    }

    /// Cubes tumbling near each other, apart ([`GapProfile::NEAR_APART`]: a support-plane gap of
    /// 0.5 % to 1.5 % of the size, B shifted across it by up to 5 %).
    pub fn near_cubes() -> Self {
        Self::sequences(Blocks::Cubes, Mode::Tumbling, GapProfile::NEAR_APART, 36)
    }

    /// Random polyhedra (4 to 24 vertices) tumbling near each other, apart (as
    /// [`Self::near_cubes`]).
    pub fn near_random() -> Self {
        Self::sequences(
            Blocks::Random(24),
            Mode::Tumbling,
            GapProfile::NEAR_APART,
            37,
        )
    }

    /// The number of queries.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are no queries.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Query `i`: the two shapes with their world poses, and its step within its run (a
    /// warm-started sequence begins cold at step 0).
    pub fn query(&self, i: usize) -> (&Shape, &Pose, &Shape, &Pose, usize) {
        let (a, pa, b, pb) = &self.pairs[i];
        let (sa, sb) = (&self.bodies[*a].ours.shape, &self.bodies[*b].ours.shape);
        (sa, pa, sb, pb, i % self.run)
    }

    /// Whether the bodies are cubes (parry's `Cuboid` applies).
    pub fn has_cuboids(&self) -> bool {
        self.bodies.iter().all(|b| b.cuboid.is_some())
    }

    /// The fraction of queries the reference finds touching.
    pub fn touching_fraction(&self) -> f64 {
        self.gaps.iter().filter(|g| **g <= 0.0).count() as f64 / self.len().max(1) as f64
    }

    /// Our answers, warm-started along each run when `warm`.
    pub fn ours(&self, warm: bool) -> Vec<Contact> {
        let mut state = WarmState::cold();
        let mut out = Vec::with_capacity(self.len());
        for (i, (a, pa, b, pb)) in self.pairs.iter().enumerate() {
            if i % self.run == 0 || !warm {
                state = WarmState::cold();
            }
            let (sa, sb) = (&self.bodies[*a].ours.shape, &self.bodies[*b].ours.shape);
            out.push(collide(sa, pa, sb, pb, Some(&mut state)).expect("polyhedra"));
        }
        out
    }

    fn parry_shapes(&self, i: usize, cuboid: bool) -> (&dyn ParryShape, &dyn ParryShape) {
        let (a, _, b, _) = &self.pairs[i];
        let shape = |k: usize| -> &dyn ParryShape {
            match (&self.bodies[k].cuboid, cuboid) {
                (Some(c), true) => c,
                _ => &self.bodies[k].hull,
            }
        };
        (shape(*a), shape(*b))
    }

    /// parry's `query::contact` (prediction 0) depths (0 when apart), on the hulls or, when
    /// `cuboid`, on the boxes.
    pub fn parry(&self, cuboid: bool) -> Vec<f64> {
        (0..self.len())
            .map(|i| {
                let (a, b) = self.parry_shapes(i, cuboid);
                let (pa, pb) = &self.parry_poses[i];
                parry_contact(pa, a, pb, b).map_or(0.0, |(depth, _)| depth.max(0.0))
            })
            .collect()
    }

    /// parry's persistent `contact_manifolds` path (one cache per run), deepest point's depth per
    /// query; on the boxes when `cuboid`, else on the hulls.
    pub fn parry_manifolds(&self, cuboid: bool) -> Vec<f64> {
        let mut cache = ParryManifolds::new();
        (0..self.len())
            .map(|i| {
                if i % self.run == 0 {
                    cache = ParryManifolds::new();
                }
                let (a, b) = self.parry_shapes(i, cuboid);
                let (pa, pb) = &self.parry_poses[i];
                cache.update(pa, a, pb, b)
            })
            .collect()
    }

    /// The SAT reference's answers on the first `count` pairs.
    pub fn reference(&self, count: usize) -> Vec<SatResult> {
        self.pairs
            .iter()
            .take(count)
            .map(|(a, pa, b, pb)| {
                sat_penetration(
                    &self.bodies[*a].ours.reference,
                    pa,
                    &self.bodies[*b].ours.reference,
                    pb,
                )
            })
            .collect()
    }
}

/// Depth accuracy against the SAT reference: mean and max relative error over the touching
/// queries, and the queries classified the other way (touching reported apart or the reverse).
struct Accuracy {
    mean: f64,
    max: f64,
    wrong: usize,
}

impl Accuracy {
    fn of(gaps: &[f64], depths: impl Iterator<Item = f64>) -> Self {
        let (mut sum, mut max, mut n, mut wrong) = (0.0, 0.0f64, 0usize, 0usize);
        for (gap, depth) in gaps.iter().zip(depths) {
            if (*gap < 0.0) != (depth > 0.0) {
                wrong += 1;
            } else if *gap < 0.0 {
                let e = (depth + gap).abs() / -gap;
                sum += e;
                max = max.max(e);
                n += 1;
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
            format!(
                "{} / {}; {} wrong",
                sci(self.mean),
                sci(self.max),
                self.wrong
            )
        } else {
            format!("{} wrong", self.wrong)
        }
    }
}

/// One workload's row: name, whether warm, the workload.
type Row<'a> = (&'a str, bool, &'a Workload);

/// Runs the polyhedron benchmarks; returns the timing table and the accuracy table.
pub fn bench(options: &Options) -> (Table, Table) {
    let samples = options.samples();
    let (cold_cubes, cold_random) = (Workload::cold_cubes(), Workload::cold_random());
    let (sliding_cubes, sliding_random) = (Workload::sliding_cubes(), Workload::sliding_random());
    let (near_cubes, near_random) = (Workload::near_cubes(), Workload::near_random());
    let sequences = format!("{SEQUENCES} x {STEPS} steps");
    let rows: Vec<(String, bool, &Workload)> = vec![
        (
            format!("(i) cold: touching cube pairs, {PAIRS}"),
            false,
            &cold_cubes,
        ),
        (
            format!("(i) cold: touching random polyhedra (4-60 vertices), {PAIRS}"),
            false,
            &cold_random,
        ),
        (
            format!("(ii) cubes sliding while touching, {sequences}: warm"),
            true,
            &sliding_cubes,
        ),
        ("(ii) same, cold".to_string(), false, &sliding_cubes),
        (
            format!("(ii) random polyhedra (4-24) sliding while touching, {sequences}: warm"),
            true,
            &sliding_random,
        ),
        ("(ii) same, cold".to_string(), false, &sliding_random),
        (
            format!("(iii) cubes tumbling, near apart, {sequences}: warm (cached plane)"),
            true,
            &near_cubes,
        ),
        ("(iii) same, cold".to_string(), false, &near_cubes),
        (
            format!("(iii) random polyhedra (4-24) tumbling, near apart, {sequences}: warm"),
            true,
            &near_random,
        ),
        ("(iii) same, cold".to_string(), false, &near_random),
    ];
    let rows: Vec<Row> = rows.iter().map(|(n, w, l)| (n.as_str(), *w, *l)).collect();

    let mut timing = Table::new(
        format!(
            "Convex polyhedra, f64 throughout; medians of {samples} passes, ns/query (SAT reference: \
             {} passes over the first {SAT_TIMED} pairs); parry3d-f64 0.31: query::contact with \
             prediction 0, and the persistent contact_manifolds path (one manifold cache per pair, \
             kept between steps)",
            samples.min(5)
        ),
        &[
            "workload",
            "demcontact",
            "parry contact, ConvexPolyhedron",
            "parry contact, Cuboid",
            "parry contact_manifolds (persistent)",
            "SAT reference",
            "parry hull / ours",
            "parry cuboid / ours",
            "touching %",
        ],
    );
    let mut accuracy = Table::new(
        "Depth against the SAT reference on the same queries (mean / max relative error over the \
         touching queries; wrong: touching reported apart or the reverse)",
        &[
            "workload",
            "demcontact",
            "parry contact, ConvexPolyhedron",
            "parry contact, Cuboid",
            "parry contact_manifolds (persistent): depth drift",
        ],
    );
    for (name, warm, w) in rows {
        let n = w.len();
        let cuboids = w.has_cuboids();
        let ours = median_ns(samples, n, || {
            black_box(w.ours(warm));
        });
        let hull = median_ns(samples, n, || {
            black_box(w.parry(false));
        });
        let cuboid = cuboids.then(|| {
            median_ns(samples, n, || {
                black_box(w.parry(true));
            })
        });
        let manifolds = (warm || w.run == 1).then(|| {
            median_ns(samples, n, || {
                black_box(w.parry_manifolds(cuboids));
            })
        });
        let timed = SAT_TIMED.min(n);
        let sat = median_ns(samples.min(5), timed, || {
            black_box(w.reference(timed));
        });
        let dash = || "-".to_string();
        let manifold_label = if cuboids {
            "Cuboid"
        } else {
            "ConvexPolyhedron"
        };
        timing.row(vec![
            name.into(),
            ns(ours),
            ns(hull),
            cuboid.map_or_else(dash, ns),
            manifolds.map_or_else(dash, |m| format!("{} ({manifold_label})", ns(m))),
            ns(sat),
            format!("{:.1}x", hull / ours),
            cuboid.map_or_else(dash, |c| format!("{:.1}x", c / ours)),
            format!("{:.0}", 100.0 * w.touching_fraction()),
        ]);
        let touching = w.touching_fraction() > 0.0;
        let ours_depths = w.ours(warm).into_iter().map(|c| c.penetration);
        accuracy.row(vec![
            name.into(),
            Accuracy::of(&w.gaps, ours_depths).cell(touching),
            Accuracy::of(&w.gaps, w.parry(false).into_iter()).cell(touching),
            if cuboids {
                Accuracy::of(&w.gaps, w.parry(true).into_iter()).cell(touching)
            } else {
                dash()
            },
            if manifolds.is_some() {
                format!(
                    "{} ({manifold_label})",
                    Accuracy::of(&w.gaps, w.parry_manifolds(cuboids).into_iter()).cell(touching)
                )
            } else {
                dash()
            },
        ]);
    }
    (timing, accuracy)
}
