//! The broad phase and the world (issue 8): the sorted cell list returns exactly Munjiza's direct
//! checking pair set (both of the book's variants: identical bounding spheres of the largest
//! diameter, eq. (3.9), and bounding boxes) on random mono- and polydisperse scenes (dense, sparse,
//! clustered, a tall mostly empty domain, every body at one point), with and without a Verlet skin;
//! a skinned list kept over moving steps always holds every overlapping pair; and the world's
//! contacts equal the pair query's on every candidate pair, bit for bit, on 1 and 2 threads.

use super::{MustBeZero, Options, Outcome};
use crate::bench::broad::superellipsoid_scene;
use crate::broad_scenes::{self, Sizes};
use crate::table::Table;
use demcontact::broad::{
    cell_list_pairs, direct_checking_boxes, direct_checking_spheres, identical_bounding_spheres,
    Aabb, BodyPair, BoundingSphere, Bounds, BroadPhase,
};
use demcontact::narrow::collide;
use demcontact::world::{BodyContact, World};
use demcontact::WarmState;
use std::collections::HashMap;
use std::time::Instant;

/// Pairs in one sorted list and not in the other (both sorted by `i`, then `j`).
fn mismatches(a: &[BodyPair], b: &[BodyPair]) -> u64 {
    let (mut i, mut j, mut differ) = (0, 0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            differ += 1;
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            differ += 1;
            j += 1;
        } else {
            i += 1;
            j += 1;
        }
    }
    differ
}

/// Pairs of `needed` missing from `list` (both sorted).
fn missing(needed: &[BodyPair], list: &[BodyPair]) -> u64 {
    needed
        .iter()
        .filter(|p| list.binary_search(p).is_err())
        .count() as u64
}

/// `f()` and the milliseconds it took.
fn timed<T>(f: &dyn Fn() -> T) -> (T, f64) {
    let clock = Instant::now();
    let value = f();
    (value, clock.elapsed().as_secs_f64() * 1e3)
}

/// The scenes of the pair-set comparison, `n` bodies each.
fn scenes(n: usize, seed: u64) -> Vec<(&'static str, Vec<BoundingSphere>)> {
    let cube = [1.0; 3];
    vec![
        (
            "mono, dense (packing 0.5)",
            broad_scenes::uniform(seed, n, 0.5, Sizes::Mono(0.5), cube),
        ),
        (
            "mono, sparse (packing 0.01)",
            broad_scenes::uniform(seed + 1, n, 0.01, Sizes::Mono(0.5), cube),
        ),
        (
            "poly 1:10, packing 0.3",
            broad_scenes::uniform(seed + 2, n, 0.3, Sizes::Poly(0.1, 10.0), cube),
        ),
        (
            "poly 1:10, clustered (10 clusters)",
            broad_scenes::clustered(seed + 3, n, 10, Sizes::Poly(0.1, 10.0)),
        ),
        (
            "mono, tall domain (1000x taller)",
            broad_scenes::tall(seed + 4, n, Sizes::Mono(0.5), 1000.0),
        ),
        (
            "poly 1:4, flat slab (100 x 100 x 1)",
            broad_scenes::uniform(
                seed + 5,
                n,
                0.2,
                Sizes::Poly(0.25, 4.0),
                [100.0, 100.0, 1.0],
            ),
        ),
        (
            "every body at one point",
            vec![
                BoundingSphere {
                    centre: [1.0, 2.0, 3.0],
                    radius: 0.5
                };
                n.min(400)
            ],
        ),
    ]
}

fn boxes_of(spheres: &[BoundingSphere], margin: f64) -> Vec<Aabb> {
    spheres
        .iter()
        .map(|s| Aabb::of_sphere(s.centre, s.radius + margin))
        .collect()
}

/// The pair-set table; returns it and whether every count of mismatches is 0.
fn pair_sets(options: &Options) -> (Table, bool) {
    let n = 4000;
    let mut t = Table::new(
        format!("Broad phase: sorted cell list vs Munjiza's direct checking, {n} bodies per scene, seed {}", options.seed),
        &["scene", "variant", "skin", "direct pairs", "cell-list pairs", "mismatched pairs", "direct, ms", "cell list, ms"],
    );
    let mut passed = true;
    for (name, spheres) in scenes(n, options.seed) {
        let largest = spheres.iter().map(|s| s.radius).fold(0.0, f64::max);
        for skin in [0.0, 0.1] {
            let mut compare = |variant: &str,
                               direct: &dyn Fn() -> Vec<BodyPair>,
                               linear: &dyn Fn() -> Vec<BodyPair>| {
                let (direct, direct_ms) = timed(direct);
                let (linear, linear_ms) = timed(linear);
                let bad = mismatches(&direct, &linear);
                passed &= bad == 0;
                t.row(vec![
                    name.into(),
                    variant.into(),
                    skin.to_string(),
                    direct.len().to_string(),
                    linear.len().to_string(),
                    bad.to_string(),
                    format!("{direct_ms:.1}"),
                    format!("{linear_ms:.2}"),
                ]);
            };
            // The book's identical spheres: every radius the largest one, diameter grown by the skin.
            let centres: Vec<[f64; 3]> = spheres.iter().map(|s| s.centre).collect();
            let same = identical_bounding_spheres(&spheres);
            compare(
                "identical spheres (eq. 3.9)",
                &|| direct_checking_spheres(&centres, 2.0 * largest + skin),
                &|| cell_list_pairs(Bounds::Spheres(&same), skin).expect("a valid scene"),
            );
            // Bounding boxes of each body's own size (grown by half the skin on every side).
            let boxes = boxes_of(&spheres, 0.0);
            compare(
                "bounding boxes",
                &|| direct_checking_boxes(&boxes_of(&spheres, 0.5 * skin)),
                &|| cell_list_pairs(Bounds::Boxes(&boxes), skin).expect("a valid scene"),
            );
        }
    }
    (t, passed)
}

/// A polydisperse scene moved for 60 steps behind a skin: the kept list must always hold every
/// overlapping pair (direct checking on the current boxes).
fn verlet(options: &Options) -> (Table, bool) {
    let n = 3000;
    let skin = 0.1;
    let mut spheres =
        broad_scenes::uniform(options.seed + 9, n, 0.3, Sizes::Poly(0.2, 5.0), [1.0; 3]);
    let velocity: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let a = i as f64 * 2.399_963; // golden-angle directions
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            [0.004 * r * a.cos(), 0.004 * r * a.sin(), 0.004 * z]
        })
        .collect();
    let mut broad = BroadPhase::new(skin).expect("a valid skin");
    let mut lost = MustBeZero::default();
    let (mut kept, mut steps) = (0, 0);
    for _ in 0..60 {
        let boxes = boxes_of(&spheres, 0.0);
        let rebuilt = broad.update(Bounds::Boxes(&boxes)).expect("a valid scene");
        kept += (!rebuilt) as u64;
        steps += 1;
        lost.count(missing(&direct_checking_boxes(&boxes), broad.pairs()) > 0);
        for (s, v) in spheres.iter_mut().zip(&velocity) {
            for (c, v) in s.centre.iter_mut().zip(v) {
                *c += v;
            }
        }
    }
    let mut t = Table::new(
        format!("Broad phase: Verlet skin {skin}, {n} bodies (poly 1:5) moving 0.004 per step"),
        &[
            "steps",
            "list kept (no rebuild)",
            "steps whose list missed an overlapping pair",
            "required",
        ],
    );
    t.row(vec![
        steps.to_string(),
        kept.to_string(),
        lost.0.to_string(),
        "0".into(),
    ]);
    (t, lost.0 == 0 && kept > 0)
}

/// The world against the pair query on every candidate pair, and 1 thread against 2.
fn world(options: &Options) -> (Table, bool) {
    let n = 1500;
    let steps = 8;
    let (shapes, sequence) = superellipsoid_scene(n, steps, options.seed + 11);
    let mut one = World::new(0.05).expect("a valid skin");
    let mut two = World::new(0.05).expect("a valid skin");
    one.set_bodies(shapes.clone(), sequence[0].clone())
        .expect("one pose per shape");
    two.set_bodies(shapes.clone(), sequence[0].clone())
        .expect("one pose per shape");
    let mut reference: HashMap<BodyPair, WarmState> = HashMap::new();
    let (mut differ, mut threads_differ, mut not_candidate) = (
        MustBeZero::default(),
        MustBeZero::default(),
        MustBeZero::default(),
    );
    let (mut contacts, mut candidates) = (0, 0);
    for poses in &sequence {
        one.set_poses(poses).expect("one pose per body");
        two.set_poses(poses).expect("one pose per body");
        let a = one.step(1).expect("every pair converges").to_vec();
        let b = two.step(2).expect("every pair converges").to_vec();
        threads_differ.count(a != b);
        let pairs = one.candidate_pairs().to_vec();
        reference.retain(|p, _| pairs.binary_search(p).is_ok());
        let mut expected = Vec::new();
        for &[i, j] in &pairs {
            let w = reference.entry([i, j]).or_default();
            let (x, y) = (i as usize, j as usize);
            let c =
                collide(&shapes[x], &poses[x], &shapes[y], &poses[y], Some(w)).expect("converges");
            if c.touching {
                expected.push(BodyContact {
                    a: i,
                    b: j,
                    contact: c,
                });
            }
        }
        differ.count(expected != a);
        // Every pair whose tight boxes overlap is a candidate.
        let boxes: Vec<Aabb> = shapes
            .iter()
            .zip(poses)
            .map(|(s, p)| Aabb::of_shape(s, p))
            .collect();
        not_candidate.count(missing(&direct_checking_boxes(&boxes), &pairs) > 0);
        contacts += a.len();
        candidates += pairs.len();
    }
    let mut t = Table::new(
        format!("World: {n} superellipsoids on a jittered lattice, {steps} steps, skin 0.05 ({candidates} candidate pairs, {contacts} contacts in all)"),
        &["check", "steps failing", "required"],
    );
    t.row(vec!["contacts != pair query (collide, warm state kept per pair) on every candidate pair, bit for bit".into(), differ.0.to_string(), "0".into()]);
    t.row(vec![
        "contacts on 2 threads != on 1 thread, bit for bit".into(),
        threads_differ.0.to_string(),
        "0".into(),
    ]);
    t.row(vec![
        "a pair of overlapping tight boxes (direct checking) is not a candidate".into(),
        not_candidate.0.to_string(),
        "0".into(),
    ]);
    (
        t,
        differ.0 == 0 && threads_differ.0 == 0 && not_candidate.0 == 0 && contacts > 0,
    )
}

/// Runs the broad-phase protocol.
pub fn validate(options: &Options) -> Outcome {
    let mut report = String::new();
    let mut passed = true;
    for (table, ok) in [pair_sets(options), verlet(options), world(options)] {
        report += &table.render();
        passed &= ok;
    }
    Outcome { report, passed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatches_count_both_ways() {
        assert_eq!(mismatches(&[[0, 1], [0, 2]], &[[0, 1], [1, 2]]), 2);
        assert_eq!(mismatches(&[], &[[0, 1]]), 1);
        assert_eq!(missing(&[[0, 1], [3, 4]], &[[0, 1]]), 1);
    }

    #[test]
    fn small_scenes_pass() {
        let options = Options {
            pairs: 0,
            seed: 2,
            progress: false,
            figures: None,
        };
        for (name, spheres) in scenes(300, 5) {
            let boxes = boxes_of(&spheres, 0.0);
            let linear = cell_list_pairs(Bounds::Boxes(&boxes), 0.0).unwrap();
            assert_eq!(
                mismatches(&direct_checking_boxes(&boxes), &linear),
                0,
                "{name}"
            );
        }
        let (_, ok) = verlet(&options);
        assert!(ok);
    }
}
