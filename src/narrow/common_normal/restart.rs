//! New start directions for the common-normal search after a local minimum or a start that did
//! not converge (Wellmann, Lillie & Wriggers 2008, "a combination of a random-search method and the
//! Nelder-Mead simplex algorithm is applied to generate a new start point").

use super::objective::Points;
use nalgebra::Vector3;

/// How many directions the restart search samples.
pub const SAMPLES: usize = 64;

/// `SAMPLES` directions spread evenly over the unit sphere (a Fibonacci lattice: every direction
/// lies within about 0.33 rad of a sample), in the frame of body A.
pub fn lattice() -> impl Iterator<Item = Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    (0..SAMPLES).map(move |i| {
        let z = 1.0 - (2.0 * i as f64 + 1.0) / SAMPLES as f64;
        let r = (1.0 - z * z).sqrt();
        let (s, c) = (golden * i as f64).sin_cos();
        Vector3::new(r * c, r * s, z)
    })
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
/// say) where the start points are not wanted: `(score, direction)`, highest score first.
pub fn ranked_directions(mut score: impl FnMut(&Vector3<f64>) -> f64) -> Vec<(f64, Vector3<f64>)> {
    let mut scored: Vec<(f64, Vector3<f64>)> = lattice().map(|c| (score(&c), c)).collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

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
