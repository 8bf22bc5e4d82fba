//! Random scenes of bounding spheres for the broad-phase validation and benchmarks: uniform
//! (Poisson) centres at a given packing fraction, mono- or polydisperse, clustered, or in a tall,
//! mostly empty domain.

use crate::sampling::{self, SceneRng};
use demcontact::broad::BoundingSphere;
use rand::Rng;
use std::f64::consts::PI;

/// How the radii are drawn.
#[derive(Debug, Clone, Copy)]
pub enum Sizes {
    /// Every radius `r`.
    Mono(f64),
    /// Radii log-uniform from `r` to `r * ratio`.
    Poly(f64, f64),
}

impl Sizes {
    fn draw(&self, rng: &mut SceneRng) -> f64 {
        match *self {
            Sizes::Mono(r) => r,
            Sizes::Poly(r, ratio) => r * ratio.powf(rng.random::<f64>()),
        }
    }

    /// The largest radius.
    pub fn largest(&self) -> f64 {
        match *self {
            Sizes::Mono(r) => r,
            Sizes::Poly(r, ratio) => r * ratio,
        }
    }
}

/// `n` spheres with centres uniform in a box of edges proportional to `shape` whose volume makes
/// the spheres' total volume `packing` of it (overlaps allowed: a Poisson scene).
pub fn uniform(
    seed: u64,
    n: usize,
    packing: f64,
    sizes: Sizes,
    shape: [f64; 3],
) -> Vec<BoundingSphere> {
    let mut rng = sampling::rng(seed);
    let radii: Vec<f64> = (0..n).map(|_| sizes.draw(&mut rng)).collect();
    let volume: f64 = radii
        .iter()
        .map(|r| 4.0 / 3.0 * PI * r * r * r)
        .sum::<f64>()
        / packing;
    let scale = (volume / (shape[0] * shape[1] * shape[2])).cbrt();
    let edge = shape.map(|s| s * scale);
    radii
        .into_iter()
        .map(|radius| BoundingSphere {
            centre: [
                rng.random::<f64>() * edge[0],
                rng.random::<f64>() * edge[1],
                rng.random::<f64>() * edge[2],
            ],
            radius,
        })
        .collect()
}

/// `n` spheres in `clusters` dense balls (packing about 0.3 inside each) scattered over a domain
/// 100 times a cluster's size.
pub fn clustered(seed: u64, n: usize, clusters: usize, sizes: Sizes) -> Vec<BoundingSphere> {
    let mut rng = sampling::rng(seed);
    let per = n.div_ceil(clusters.max(1));
    let r = sizes.largest();
    let cluster_radius = r * (per as f64 / 0.3).cbrt();
    let centres: Vec<[f64; 3]> = (0..clusters.max(1))
        .map(|_| {
            let c =
                sampling::unit_vector(&mut rng) * (100.0 * cluster_radius * rng.random::<f64>());
            [c.x, c.y, c.z]
        })
        .collect();
    (0..n)
        .map(|i| {
            let c = centres[i / per];
            let d = sampling::unit_vector(&mut rng) * (cluster_radius * rng.random::<f64>().cbrt());
            BoundingSphere {
                centre: [c[0] + d.x, c[1] + d.y, c[2] + d.z],
                radius: sizes.draw(&mut rng),
            }
        })
        .collect()
}

/// A hopper-like tall domain: most spheres packed at 0.4 in a layer at the bottom, a tenth spread
/// over a column `height` times taller than wide.
pub fn tall(seed: u64, n: usize, sizes: Sizes, height: f64) -> Vec<BoundingSphere> {
    let falling = n / 10;
    let mut spheres = uniform(seed, n - falling, 0.4, sizes, [1.0, 1.0, 0.2]);
    let width = spheres
        .iter()
        .map(|s| s.centre[0])
        .fold(0.0, f64::max)
        .max(1.0);
    let mut rng = sampling::rng(seed ^ 0x5eed);
    spheres.extend((0..falling).map(|_| BoundingSphere {
        centre: [
            rng.random::<f64>() * width,
            rng.random::<f64>() * width,
            rng.random::<f64>() * width * height,
        ],
        radius: sizes.draw(&mut rng),
    }));
    spheres
}
