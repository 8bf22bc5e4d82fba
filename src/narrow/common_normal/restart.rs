//! New start directions for the common-normal search after a local minimum or a start that did
//! not converge (Wellmann, Lillie & Wriggers 2008, "a combination of a random-search method and the
//! Nelder-Mead simplex algorithm is applied to generate a new start point").

use super::objective::Points;
use nalgebra::Vector3;
use std::sync::OnceLock;

/// How many directions the restart search samples.
pub const SAMPLES: usize = 64;

/// `SAMPLES` directions spread evenly over the unit sphere (a Fibonacci lattice: every direction
/// lies within about 0.33 rad of a sample), in the frame of body A. Computed once per process.
pub fn lattice() -> impl Iterator<Item = Vector3<f64>> {
    static LATTICE: OnceLock<[Vector3<f64>; SAMPLES]> = OnceLock::new();
    LATTICE
        .get_or_init(|| {
            let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
            std::array::from_fn(|i| {
                let z = 1.0 - (2.0 * i as f64 + 1.0) / SAMPLES as f64;
                let r = (1.0 - z * z).sqrt();
                let (s, c) = (golden * i as f64).sin_cos();
                Vector3::new(r * c, r * s, z)
            })
        })
        .iter()
        .copied()
}

/// The search in place of the paper's random search: every sample direction of [`lattice`] is
/// scored by the support gap of its points (eq. (12); the largest gap, i.e. the least overlap of
/// the bodies' extents, is nearest the minimum-depth common normal), best first. A positive gap
/// ends the search at once: that direction's tangent plane separates the bodies.
pub fn ranked(mut points: impl FnMut(Vector3<f64>) -> Points) -> Vec<Points> {
    let mut scored: Vec<Points> = lattice().map(&mut points).collect();
    scored.sort_by(|x, y| y.support_gap().total_cmp(&x.support_gap()));
    scored
}

/// [`ranked`] on a score of each direction alone (a certified lower bound of its support gap,
/// say) where the start points are not wanted: the best `keep` directions (at least one; the
/// others are not returned, nor put in order among themselves), `(score, direction)`, highest
/// score first.
pub fn ranked_directions(
    mut score: impl FnMut(&Vector3<f64>) -> f64,
    keep: usize,
) -> Vec<(f64, Vector3<f64>)> {
    let mut scored: Vec<(f64, Vector3<f64>)> = lattice().map(|c| (score(&c), c)).collect();
    let keep = keep.clamp(1, scored.len());
    let higher = |x: &(f64, Vector3<f64>), y: &(f64, Vector3<f64>)| y.0.total_cmp(&x.0);
    scored.select_nth_unstable_by(keep - 1, higher);
    scored.truncate(keep);
    scored.sort_by(higher);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranked_directions_keeps_the_best_in_order() {
        // Scored by the z component: the best four are the first four lattice directions (z
        // falls along the lattice), best first. A full ranking is in order, and asking for none
        // still gives its best.
        let all: Vec<_> = lattice().collect();
        let best = ranked_directions(|c| c.z, 4);
        assert_eq!(best.len(), 4);
        for (k, (score, c)) in best.iter().enumerate() {
            assert_eq!(*c, all[k]);
            assert_eq!(*score, all[k].z);
        }
        let full = ranked_directions(|c| -c.x, SAMPLES);
        assert_eq!(full.len(), SAMPLES);
        assert!(full.windows(2).all(|w| w[0].0 >= w[1].0));
        assert_eq!(ranked_directions(|c| -c.x, 0)[0], full[0]);
    }

    #[test]
    fn lattice_covers_the_sphere() {
        let dirs: Vec<_> = lattice().collect();
        assert_eq!(dirs.len(), SAMPLES);
        // Probe directions: each is within 0.33 rad of some sample.
        for k in 0..500 {
            let t = k as f64 * 0.37;
            let v = Vector3::new(
                t.cos() * (0.3 * t).sin(),
                t.sin() * (0.3 * t).sin(),
                (0.3 * t).cos(),
            );
            let best = dirs.iter().map(|d| d.dot(&v)).fold(-1.0, f64::max);
            assert!(best > 0.33f64.cos(), "probe {k}: {best}");
        }
    }
}
