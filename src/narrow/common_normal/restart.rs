//! New start directions for the common-normal search after a local minimum or a start that did
//! not converge (Wellmann, Lillie & Wriggers 2008, "a combination of a random-search method and the
//! Nelder-Mead simplex algorithm is applied to generate a new start point").

use super::objective::Points;
use crate::narrow::float_order::{from_ordered_key, ordered_key};
use nalgebra::Vector3;
use std::sync::OnceLock;

/// How many directions the restart search samples.
pub const SAMPLES: usize = 64;

/// `SAMPLES` directions spread evenly over the unit sphere (a Fibonacci lattice: every direction
/// lies within about 0.33 rad of a sample), in the frame of body A. Computed once per process.
pub fn lattice() -> &'static [Vector3<f64>; SAMPLES] {
    static LATTICE: OnceLock<[Vector3<f64>; SAMPLES]> = OnceLock::new();
    LATTICE.get_or_init(|| {
        let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
        std::array::from_fn(|i| {
            let z = 1.0 - (2.0 * i as f64 + 1.0) / SAMPLES as f64;
            let r = (1.0 - z * z).sqrt();
            let (s, c) = (golden * i as f64).sin_cos();
            Vector3::new(r * c, r * s, z)
        })
    })
}

/// The search in place of the paper's random search: every sample direction of [`lattice`]
/// scored by the support gap of its points (eq. (12); the largest gap, i.e. the least overlap of
/// the bodies' extents, is nearest the minimum-depth common normal), and the points of the best
/// `keep` returned, best first: for bodies with no bound of the gap cheaper than the points
/// ([`ranked_directions`] takes one, which spares directions). If the first has a positive gap,
/// its tangent plane separates the bodies (the caller ends the search there).
pub fn ranked(mut points: impl FnMut(Vector3<f64>) -> Points, keep: usize) -> Vec<Points> {
    best_of_lattice(
        |c| {
            let p = points(*c);
            (p.support_gap(), p)
        },
        |_| f64::INFINITY,
        keep,
    )
    .into_iter()
    .map(|(_, p)| p)
    .collect()
}

/// [`ranked`] on a score of each direction alone (a certified lower bound of its support gap,
/// say) where the start points are not wanted: the best `keep` directions (at least one; the
/// others are not returned), `(score, direction)`, highest score first (ties: lattice order).
///
/// `bound` is an upper bound of `score` at every direction (cheaper to evaluate): the `keep`
/// directions of the highest bounds are scored first, and of the others only those whose bound
/// is not below the `keep`-th best score so far (no other can be among the best). The result is
/// the same as scoring every direction.
pub fn ranked_directions(
    mut score: impl FnMut(&Vector3<f64>) -> f64,
    bound: impl FnMut(&Vector3<f64>) -> f64,
    keep: usize,
) -> Vec<(f64, Vector3<f64>)> {
    best_of_lattice(|c| (score(c), *c), bound, keep)
}

/// The best `keep` lattice directions (at least one) by the score `evaluate` gives with its
/// payload, highest first (ties: lattice order), evaluating only where `bound` (an upper bound
/// of the score) leaves a direction a chance ([`ranked_directions`]).
fn best_of_lattice<T>(
    mut evaluate: impl FnMut(&Vector3<f64>) -> (f64, T),
    mut bound: impl FnMut(&Vector3<f64>) -> f64,
    keep: usize,
) -> Vec<(f64, T)> {
    let keep = keep.clamp(1, SAMPLES);
    let directions = lattice();
    // Bounds as integers in `f64::total_cmp`'s order, negated: the `keep` directions of the
    // highest bounds are scored first, then each other one whose bound is not below the `keep`-th
    // best score so far.
    let mut bounded: [(i64, usize); SAMPLES] =
        std::array::from_fn(|i| (-ordered_key(bound(&directions[i])), i));
    bounded.select_nth_unstable(keep - 1);
    // The best so far, in order: higher score first, then the earlier lattice direction.
    let mut best: Vec<(f64, usize, T)> = Vec::with_capacity(keep + 1);
    let mut take = |i: usize, best: &mut Vec<(f64, usize, T)>| {
        let (s, payload) = evaluate(&directions[i]);
        let place = best
            .iter()
            .position(|b| s.total_cmp(&b.0).then(b.1.cmp(&i)).is_gt())
            .unwrap_or(best.len());
        if place < keep {
            best.insert(place, (s, i, payload));
            best.truncate(keep);
        }
    };
    for &(_, i) in &bounded[..keep] {
        take(i, &mut best);
    }
    for &(key, i) in &bounded[keep..] {
        if from_ordered_key(-key).total_cmp(&best[keep - 1].0).is_ge() {
            take(i, &mut best);
        }
    }
    best.into_iter()
        .map(|(s, _, payload)| (s, payload))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranked_directions_keeps_the_best_in_order() {
        // Scored by the z component: the best four are the first four lattice directions (z
        // falls along the lattice), best first. A full ranking is in order, and asking for none
        // still gives its best.
        let all: Vec<_> = lattice().to_vec();
        let best = ranked_directions(|c| c.z, |_| f64::INFINITY, 4);
        assert_eq!(best.len(), 4);
        for (k, (score, c)) in best.iter().enumerate() {
            assert_eq!(*c, all[k]);
            assert_eq!(*score, all[k].z);
        }
        let full = ranked_directions(|c| -c.x, |_| f64::INFINITY, SAMPLES);
        assert_eq!(full.len(), SAMPLES);
        assert!(full.windows(2).all(|w| w[0].0 >= w[1].0));
        assert_eq!(
            ranked_directions(|c| -c.x, |_| f64::INFINITY, 0)[0],
            full[0]
        );
    }

    #[test]
    fn an_upper_bound_spares_scores_and_keeps_the_ranking() {
        // Score: a bumpy function of the direction; bound: the score plus a slack that grows
        // away from +z, so the bound orders the directions much as the score does.
        let score = |c: &Vector3<f64>| c.z + 0.1 * (7.0 * c.x).sin();
        let bound = |c: &Vector3<f64>| score(c) + 0.05 * (1.0 - c.z);
        let mut scored = 0;
        let spared = ranked_directions(
            |c| {
                scored += 1;
                score(c)
            },
            bound,
            6,
        );
        assert_eq!(spared, ranked_directions(score, |_| f64::INFINITY, 6));
        assert!(scored < SAMPLES / 2, "{scored} directions scored");
        // However loose the bound, the ranking is the same.
        let loose = ranked_directions(score, |c| score(c) + 10.0, 6);
        assert_eq!(loose, spared);
    }

    #[test]
    fn lattice_covers_the_sphere() {
        let dirs: Vec<_> = lattice().to_vec();
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
