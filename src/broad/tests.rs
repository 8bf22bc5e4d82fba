//! The cell list against direct checking on random scenes, the Verlet skin, degenerate scenes.

use super::*;
use proptest::prelude::*;

/// A small deterministic generator (xorshift), uniform in [0, 1) (also the world tests').
pub(crate) struct Uniform(pub(crate) u64);

impl Uniform {
    pub(crate) fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` centres uniform in the box `[0, extent]`, and radii from `r` to `r * ratio` (log-uniform).
fn scene(seed: u64, n: usize, extent: [f64; 3], r: f64, ratio: f64) -> Vec<BoundingSphere> {
    let mut u = Uniform(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..n)
        .map(|_| BoundingSphere {
            centre: [
                u.next() * extent[0],
                u.next() * extent[1],
                u.next() * extent[2],
            ],
            radius: r * ratio.powf(u.next()),
        })
        .collect()
}

fn boxes(spheres: &[BoundingSphere]) -> Vec<Aabb> {
    spheres
        .iter()
        .map(|s| Aabb::of_sphere(s.centre, s.radius))
        .collect()
}

/// Checks the cell list against direct checking on one scene, both variants.
fn check(spheres: &[BoundingSphere]) {
    let b = boxes(spheres);
    assert_eq!(
        cell_list_pairs(Bounds::Boxes(&b), 0.0).unwrap(),
        direct_checking_boxes(&b)
    );
    // The book's identical spheres: every radius the largest one.
    let same = identical_bounding_spheres(spheres);
    let centres: Vec<[f64; 3]> = spheres.iter().map(|s| s.centre).collect();
    let diameter = 2.0 * same.first().map_or(0.0, |s| s.radius);
    assert_eq!(
        cell_list_pairs(Bounds::Spheres(&same), 0.0).unwrap(),
        direct_checking_spheres(&centres, diameter)
    );
}

#[test]
fn equals_direct_checking_on_mono_and_polydisperse_scenes() {
    for seed in 1..4 {
        check(&scene(seed, 400, [10.0; 3], 0.5, 1.0)); // dense
        check(&scene(seed, 300, [60.0; 3], 0.5, 1.0)); // sparse
        check(&scene(seed, 400, [12.0; 3], 0.2, 10.0)); // polydisperse, ratio 10
        check(&scene(seed, 300, [8.0, 8.0, 1e6], 0.5, 1.0)); // a tall empty domain
        check(&scene(seed, 300, [20.0; 3], 0.01, 300.0)); // 16 levels and more
    }
}

#[test]
fn clustered_scenes_and_bodies_of_zero_size() {
    let mut spheres = scene(5, 200, [1.0; 3], 0.05, 1.0);
    spheres.extend(scene(6, 200, [1.0; 3], 0.05, 1.0).into_iter().map(|mut s| {
        s.centre[0] += 1e4;
        s
    }));
    check(&spheres);
    let points: Vec<BoundingSphere> = scene(7, 50, [2.0; 3], 0.0, 1.0);
    check(&points);
}

#[test]
fn domains_of_more_than_2_pow_64_cells_coarsen_their_grid() {
    // Bodies of size 1 spread over 10^20 to 10^299 (within MAX_COORDINATE): more cells per axis
    // than a u64 counts. The cell count saturated, and the `+ 2` of the margin wrapped it to a
    // tiny grid (a panic in a debug build, an index past the sentinel in a release build); each
    // touching couple must be found, and nothing else.
    for extent in [1e20, 1e100, 1e299] {
        let mut spheres = scene(21, 150, [extent, extent * 0.5, extent], 0.5, 1.0);
        let partners: Vec<BoundingSphere> = spheres
            .iter()
            .map(|s| BoundingSphere {
                centre: [s.centre[0] + 0.9, s.centre[1], s.centre[2]],
                radius: 0.5,
            })
            .collect();
        spheres.extend(partners);
        let pairs = cell_list_pairs(Bounds::Spheres(&spheres), 0.0).unwrap();
        let couples: Vec<BodyPair> = (0..150).map(|i| [i, i + 150]).collect();
        assert_eq!(pairs, couples, "extent {extent:e}");
        // Polydisperse: a few large bodies among them, on more levels.
        let mut mixed = spheres.clone();
        mixed[7].radius = 1e3;
        mixed[8].radius = 40.0;
        check(&mixed);
    }
}

#[test]
fn a_large_body_among_many_small_ones() {
    // The large body's pairs are many and found in key order, not index order: sorted all the same.
    let mut spheres = scene(11, 500, [4.0; 3], 0.05, 1.0);
    spheres.insert(
        250,
        BoundingSphere {
            centre: [2.0; 3],
            radius: 1.5,
        },
    );
    check(&spheres);
    let pairs = cell_list_pairs(Bounds::Spheres(&spheres), 0.0).unwrap();
    let of_large = pairs.iter().filter(|p| p.contains(&250)).count();
    assert!(of_large > 100, "{of_large} pairs of the large body");
}

#[test]
fn degenerate_scenes() {
    assert!(cell_list_pairs(Bounds::Boxes(&[]), 0.0).unwrap().is_empty());
    let one = [BoundingSphere::new([1.0, 2.0, 3.0], 1.0).unwrap()];
    assert!(cell_list_pairs(Bounds::Spheres(&one), 0.0)
        .unwrap()
        .is_empty());
    // All bodies at one point: every pair, each once, in order.
    let same = vec![BoundingSphere::new([0.5; 3], 0.1).unwrap(); 30];
    let pairs = cell_list_pairs(Bounds::Spheres(&same), 0.0).unwrap();
    assert_eq!(pairs.len(), 30 * 29 / 2);
    assert!(pairs.windows(2).all(|w| w[0] < w[1]));
    assert!(pairs.iter().all(|p| p[0] < p[1]));
    let points = vec![Aabb::default(); 5];
    assert_eq!(
        cell_list_pairs(Bounds::Boxes(&points), 0.0).unwrap().len(),
        10
    );
}

#[test]
fn bad_volumes_are_refused() {
    let mut s = scene(1, 10, [3.0; 3], 0.5, 1.0);
    s[4].centre[1] = f64::NAN;
    let e = cell_list_pairs(Bounds::Spheres(&s), 0.0).unwrap_err();
    assert!(
        matches!(e, crate::Error::NonFinite(ref m) if m.contains("body 4")),
        "{e}"
    );
    s[4].centre[1] = 1.0;
    s[2].radius = -1.0;
    assert!(cell_list_pairs(Bounds::Spheres(&s), 0.0).is_err());
    let mut b = boxes(&scene(1, 10, [3.0; 3], 0.5, 1.0));
    b[3].lo[2] = b[3].hi[2] + 1.0;
    assert!(cell_list_pairs(Bounds::Boxes(&b), 0.0).is_err());
    b[3].lo[2] = -2e300;
    assert!(cell_list_pairs(Bounds::Boxes(&b), 0.0).is_err());
    assert!(cell_list_pairs(Bounds::Boxes(&[]), f64::NAN).is_err());
    assert!(BroadPhase::new(-1.0).is_err());
    assert!(Aabb::new([0.0; 3], [1.0, -1.0, 1.0]).is_err());
    assert!(BoundingSphere::new([0.0; 3], f64::INFINITY).is_err());
}

#[test]
fn the_skin_keeps_the_list_while_no_body_moved_half_of_it() {
    let skin = 0.2;
    let mut broad = BroadPhase::new(skin).unwrap();
    let mut spheres = scene(9, 300, [10.0; 3], 0.5, 2.0);
    assert!(broad.update(Bounds::Spheres(&spheres)).unwrap());
    let grown: Vec<BoundingSphere> = spheres
        .iter()
        .map(|s| BoundingSphere {
            radius: s.radius + 0.5 * skin,
            ..*s
        })
        .collect();
    assert_eq!(
        broad.pairs(),
        cell_list_pairs(Bounds::Spheres(&grown), 0.0).unwrap()
    );
    let mut u = Uniform(3);
    let velocity: Vec<[f64; 3]> = (0..spheres.len())
        .map(|_| {
            let v = [u.next() - 0.5, u.next() - 0.5, u.next() - 0.5];
            let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            [
                0.0095 * v[0] / norm,
                0.0095 * v[1] / norm,
                0.0095 * v[2] / norm,
            ]
        })
        .collect();
    for step in 0..20 {
        // Every body moves 0.0095 a step: the 11th step takes them past half the skin.
        for (s, v) in spheres.iter_mut().zip(&velocity) {
            for (c, v) in s.centre.iter_mut().zip(v) {
                *c += v;
            }
        }
        broad.update(Bounds::Spheres(&spheres)).unwrap();
        let overlapping = cell_list_pairs(Bounds::Spheres(&spheres), 0.0).unwrap();
        let list = broad.pairs();
        assert!(
            overlapping.iter().all(|p| list.binary_search(p).is_ok()),
            "step {step}"
        );
    }
    assert_eq!(broad.rebuilds(), 2);
    // Boxes: kept while inside the rebuild's boxes grown by half the skin.
    let mut b = boxes(&spheres);
    assert!(broad.update(Bounds::Boxes(&b)).unwrap());
    b[0].lo[0] -= 0.09;
    assert!(!broad.update(Bounds::Boxes(&b)).unwrap());
    b[0].lo[0] -= 0.02;
    assert!(broad.update(Bounds::Boxes(&b)).unwrap());
    assert!(broad.heap_bytes() > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(64)))]

    /// The cell list finds exactly direct checking's pairs on random scenes of every density and size
    /// spread, with and without a skin.
    #[test]
    fn cell_list_equals_direct_checking(seed in 0u64..1 << 40, n in 0usize..200,
                                        extent in 1.0f64..40.0, ratio in 1.0f64..12.0,
                                        skin in prop_oneof![Just(0.0), 0.0f64..0.5]) {
        let spheres = scene(seed, n, [extent, extent * 0.5, extent * 2.0], 0.5, ratio);
        let b = boxes(&spheres);
        let grown: Vec<Aabb> = b.iter().map(|b| b.inflated(0.5 * skin)).collect();
        prop_assert_eq!(cell_list_pairs(Bounds::Boxes(&b), skin).unwrap(), direct_checking_boxes(&grown));
        check(&spheres);
    }
}
