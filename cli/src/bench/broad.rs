//! Broad-phase and world benchmarks: Munjiza's direct checking against the sorted cell list (the
//! crossover), the cell list alone from 10^3 to 10^6 bodies (ns per body per search, heap bytes per
//! body), and the world step on 10^5 superellipsoids at 1 and 2 threads (contacts per second,
//! outputs compared bit for bit).

use super::{median_ns, ns, Options};
use crate::broad_scenes::{self, Sizes};
use crate::sampling;
use crate::table::Table;
use demcontact::broad::{direct_checking_spheres, BoundingSphere, Bounds, BroadPhase};
use demcontact::shapes::{Shape, Superellipsoid};
use demcontact::world::{BodyContact, World};
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};
use rand::Rng;
use std::hint::black_box;
use std::sync::Arc;

/// One scene family of the scaling table.
pub struct Family {
    /// Its name in the table.
    pub name: &'static str,
    /// Packing fraction.
    pub packing: f64,
    /// Radii.
    pub sizes: Sizes,
}

/// The scaling table's scene families: monodisperse at packing 0.1 and 0.5, polydisperse (size
/// ratio 10) at 0.3.
pub const FAMILIES: [Family; 3] = [
    Family {
        name: "mono, packing 0.1",
        packing: 0.1,
        sizes: Sizes::Mono(0.5),
    },
    Family {
        name: "mono, packing 0.5",
        packing: 0.5,
        sizes: Sizes::Mono(0.5),
    },
    Family {
        name: "poly 1:10, packing 0.3",
        packing: 0.3,
        sizes: Sizes::Poly(0.1, 10.0),
    },
];

/// One full search (skin 0: a rebuild every time) of `spheres` on a warmed-up structure: median ns
/// per body, the structure's heap bytes per body, and pairs per body.
pub fn cell_list_figures(spheres: &[BoundingSphere], samples: usize) -> (f64, f64, f64) {
    let mut broad = BroadPhase::new(0.0).expect("a valid skin");
    let n = spheres.len();
    let t = median_ns(samples, n, || {
        broad
            .update(Bounds::Spheres(spheres))
            .expect("a valid scene");
        black_box(broad.pairs());
    });
    (
        t,
        broad.heap_bytes() as f64 / n as f64,
        broad.pairs().len() as f64 / n as f64,
    )
}

/// Direct checking (identical spheres of the largest diameter, eq. (3.9)) on `spheres`: median ns
/// per body.
pub fn direct_figure(spheres: &[BoundingSphere], samples: usize) -> f64 {
    let centres: Vec<[f64; 3]> = spheres.iter().map(|s| s.centre).collect();
    let d = 2.0 * spheres.iter().map(|s| s.radius).fold(0.0, f64::max);
    median_ns(samples, spheres.len(), || {
        black_box(direct_checking_spheres(&centres, d));
    })
}

/// Runs the broad-phase benchmarks; returns the tables.
pub fn bench(options: &Options) -> Vec<Table> {
    let samples = if options.quick { 3 } else { 7 };
    let mut tables = vec![crossover(samples)];
    tables.push(scaling(samples));
    tables.push(world_step(if options.quick { 3 } else { 5 }));
    tables
}

fn crossover(samples: usize) -> Table {
    let mut t = Table::new(
        format!("Broad phase: direct checking (Munjiza eq. (3.9)) vs the sorted cell list, monodisperse spheres, packing 0.1 (medians of {samples} searches, one core)"),
        &["N", "direct checking, ms", "cell list, ms", "direct / cell list", "pairs"],
    );
    for n in [1_000, 2_000, 5_000, 10_000] {
        let spheres = broad_scenes::uniform(n as u64, n, 0.1, Sizes::Mono(0.5), [1.0; 3]);
        let direct = direct_figure(&spheres, samples) * n as f64 * 1e-6;
        let (linear, _, pairs) = cell_list_figures(&spheres, samples);
        let linear = linear * n as f64 * 1e-6;
        t.row(vec![
            n.to_string(),
            format!("{direct:.3}"),
            format!("{linear:.3}"),
            format!("{:.0}x", direct / linear),
            format!("{:.0}", pairs * n as f64),
        ]);
    }
    t
}

fn scaling(samples: usize) -> Table {
    let mut t = Table::new(
        format!("Broad phase: the sorted cell list alone, full search (skin 0), one core, uniform random centres (medians of {samples} searches)"),
        &["scene", "N", "ns / body", "vs N = 10^4", "heap bytes / body", "pairs / body"],
    );
    for family in &FAMILIES {
        let mut at_10k = f64::NAN;
        for n in [1_000, 10_000, 100_000, 1_000_000] {
            let spheres =
                broad_scenes::uniform(7 + n as u64, n, family.packing, family.sizes, [1.0; 3]);
            let runs = if n >= 1_000_000 {
                samples.min(5)
            } else {
                samples
            };
            let (time, bytes, pairs) = cell_list_figures(&spheres, runs);
            if n == 10_000 {
                at_10k = time;
            }
            t.row(vec![
                family.name.into(),
                format!("10^{}", (n as f64).log10().round()),
                ns(time),
                if n >= 10_000 {
                    format!("{:.2}x", time / at_10k)
                } else {
                    String::new()
                },
                format!("{bytes:.0}"),
                format!("{pairs:.2}"),
            ]);
        }
    }
    t
}

/// `n` superellipsoids (semi-axes 0.42..0.53, squareness 0.5..1.5, random orientations) on a
/// jittered cubic lattice of spacing 1 (DEM-like: neighbours overlap by a few percent of their size
/// or are just apart); and per step the poses turned (0.01 rad) and moved (0.002) a little.
pub fn superellipsoid_scene(
    n: usize,
    steps: usize,
    seed: u64,
) -> (Vec<Arc<Shape>>, Vec<Vec<Pose>>) {
    let mut rng = sampling::rng(seed);
    let side = (n as f64).cbrt().ceil() as usize;
    let shapes: Vec<Arc<Shape>> = (0..n)
        .map(|_| {
            let r: [f64; 3] = std::array::from_fn(|_| rng.random_range(0.42..0.53));
            let (e1, e2) = (rng.random_range(0.5..1.5), rng.random_range(0.5..1.5));
            Arc::new(Shape::Superellipsoid(
                Superellipsoid::new(r[0], r[1], r[2], e1, e2).expect("valid parameters"),
            ))
        })
        .collect();
    let mut poses: Vec<Pose> = (0..n)
        .map(|i| {
            let site = Vector3::new(
                (i % side) as f64,
                (i / side % side) as f64,
                (i / (side * side)) as f64,
            );
            let jitter = Vector3::from_fn(|_, _| rng.random_range(-0.03..0.03));
            Pose::new(site + jitter, sampling::rotation(&mut rng))
        })
        .collect();
    let spin: Vec<UnitQuaternion<f64>> = (0..n)
        .map(|_| UnitQuaternion::from_scaled_axis(sampling::unit_vector(&mut rng) * 0.01))
        .collect();
    let drift: Vec<Vector3<f64>> = (0..n)
        .map(|_| sampling::unit_vector(&mut rng) * 0.002)
        .collect();
    let mut sequence = Vec::with_capacity(steps);
    for _ in 0..steps {
        sequence.push(poses.clone());
        for ((p, s), d) in poses.iter_mut().zip(&spin).zip(&drift) {
            p.rotation = s * p.rotation;
            p.position += d;
        }
    }
    (shapes, sequence)
}

/// Steps a fresh world through `sequence` on `threads` threads: the median ns per step after the
/// first (cold) one, and every step's contacts.
fn run_world(
    shapes: &[Arc<Shape>],
    sequence: &[Vec<Pose>],
    threads: usize,
) -> (f64, Vec<Vec<BodyContact>>) {
    let mut world = World::new(0.05).expect("a valid skin");
    world
        .set_bodies(shapes.to_vec(), sequence[0].clone())
        .expect("one pose per shape");
    let mut outputs = Vec::new();
    let mut times = Vec::new();
    for poses in sequence {
        world.set_poses(poses).expect("one pose per body");
        let start = std::time::Instant::now();
        let contacts = world.step(threads).expect("every pair converges").to_vec();
        times.push(start.elapsed().as_nanos() as f64);
        outputs.push(contacts);
    }
    let mut warm = times[1..].to_vec();
    warm.sort_by(f64::total_cmp);
    (warm[warm.len() / 2], outputs)
}

fn world_step(steps: usize) -> Table {
    let n = 100_000;
    let (shapes, sequence) = superellipsoid_scene(n, steps + 1, 3);
    let (t1, out1) = run_world(&shapes, &sequence, 1);
    let (t2, out2) = run_world(&shapes, &sequence, 2);
    let contacts = out1.last().map_or(0, Vec::len);
    let identical = out1 == out2;
    let mut t = Table::new(
        format!("World step: {n} superellipsoids on a jittered lattice (every body turned and moved a little each step, skin 0.05), median of {steps} warm steps"),
        &["threads", "ms / step", "contacts", "contacts / s", "speed-up", "output identical to 1 thread"],
    );
    for (threads, time) in [(1, t1), (2, t2)] {
        t.row(vec![
            threads.to_string(),
            format!("{:.1}", time * 1e-6),
            contacts.to_string(),
            format!("{:.2e}", contacts as f64 / (time * 1e-9)),
            format!("{:.2}x", t1 / time),
            if threads == 1 {
                "-".into()
            } else if identical {
                "yes, bit for bit".into()
            } else {
                "NO".into()
            },
        ]);
    }
    t
}
