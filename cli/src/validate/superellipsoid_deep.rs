//! Superellipsoids, beyond the paper's protocol: deep overlaps, as a DEM packing has them, against
//! a brute-force minimum translation distance.
//!
//! The paper's series 2 overlaps by at most 1.75e-3 (radii 0.5 to 3); a DEM packing overlaps by a
//! few percent of the size, where the trust test (the curvature of `A - B` on the scale of the
//! depth) often fails and the wide search (restarts from the lattice's best directions, or for a
//! nearly pointed body the expanding polytope of `A - B`) decides
//! alone, unless balls inside the bodies tangent at the first answer's contact points certify it
//! (radii adding up to more than the depth: the balls that roll inside ellipsoids and box-like
//! bodies, `Bodies::ball_certified`, or those a bound of the surface's curvature near each point
//! certifies, `Bodies::tangent_balls_certified`). Each pair here is the paper's construction at a common-normal depth
//! of [`DEPTH_RANGE`] times the sum of the two bodies' mean radii. The reference is independent of
//! the kernel: the overlap of the bodies' extents `h_A(c) + h_B(-c) - c . t` (the exact
//! closed-form support points) over a grid of [`GRID`] x 2 [`GRID`] directions, then a compass
//! search down from the grid's best direction and from the constructed one; the shallower of the
//! two is the reference depth.
//!
//! A pair is *missed* when the kernel's depth exceeds the reference by more than
//! [`DEPTH_AGREEMENT`] relative: a shallower direction exists that it did not find. Where the
//! reference is the deeper one, the compass search stopped in another basin; the kernel's answer
//! is then checked to be a common normal (`|d x c| <= 1e-9 (1 + |d|)`), or it counts as missed too.

use super::superellipsoids::is_common_normal;
use super::{tallied, Options, Tally};
use crate::sampling;
use crate::superellipsoid_pairs::{construct, Interval};
use crate::table::{sci, Table};
use demcontact::narrow::common_normal::common_normal;
use demcontact::shapes::Superellipsoid;
use demcontact::{Pose, WarmState};
use nalgebra::{UnitQuaternion, Vector3};
use rand::Rng;

/// The common-normal depth of the construction, relative to the sum of the bodies' mean radii.
pub const DEPTH_RANGE: (f64, f64) = (0.01, 0.05);

/// The reference grid: `GRID` polar angles by `2 GRID` azimuths.
pub const GRID: usize = 90;

/// The largest relative amount by which the kernel's depth may exceed the reference's.
pub const DEPTH_AGREEMENT: f64 = 1e-9;

/// What the pairs of one interval produced.
#[derive(Debug, Clone, Default)]
pub struct DeepStats {
    pairs: u64,
    /// Of them, answered after the wide search (the first answer neither certified nor trusted).
    restarted: u64,
    iterations: u64,
    /// The largest `(ours - reference) / reference` over the pairs (negative: ours shallower).
    excess: f64,
    /// Pairs whose reference is deeper than ours by more than [`DEPTH_AGREEMENT`] (the compass
    /// search stopped elsewhere), ours a common normal.
    reference_deeper: u64,
    /// Pairs answered deeper than the reference, or shallower without a common normal, or apart.
    missed: u64,
}

impl Tally for DeepStats {
    fn merge(&mut self, other: &DeepStats) {
        self.pairs += other.pairs;
        self.restarted += other.restarted;
        self.iterations += other.iterations;
        self.excess = self.excess.max(other.excess);
        self.reference_deeper += other.reference_deeper;
        self.missed += other.missed;
    }
}

impl DeepStats {
    /// Whether no pair was missed.
    pub fn passed(&self) -> bool {
        self.missed == 0 && self.pairs > 0
    }
}

/// The overlap of the bodies' extents along the unit `c` (A's frame, A at the origin unrotated,
/// B at `pose_b`).
fn overlap(a: &Superellipsoid, b: &Superellipsoid, pose_b: &Pose, c: &Vector3<f64>) -> f64 {
    let local = pose_b.rotation.inverse() * -c;
    c.dot(&a.point_with_normal(c)) + local.dot(&b.point_with_normal(&local))
        - c.dot(&pose_b.position)
}

/// The brute-force minimum of [`overlap`] (module documentation), also searched down from `hint`.
fn reference_depth(
    a: &Superellipsoid,
    b: &Superellipsoid,
    pose_b: &Pose,
    hint: &Vector3<f64>,
) -> f64 {
    let f = |c: &Vector3<f64>| overlap(a, b, pose_b, c);
    let mut grid_best = (f64::INFINITY, Vector3::x());
    for i in 0..GRID {
        let theta = std::f64::consts::PI * (i as f64 + 0.5) / GRID as f64;
        for j in 0..2 * GRID {
            let phi = std::f64::consts::PI * j as f64 / GRID as f64;
            let c = Vector3::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            );
            let o = f(&c);
            if o < grid_best.0 {
                grid_best = (o, c);
            }
        }
    }
    let descend = |(mut value, mut c): (f64, Vector3<f64>)| {
        let mut step = 2e-2;
        while step > 1e-13 {
            let mut moved = false;
            for k in 0..6 {
                let mut d = c;
                d[k / 2] += if k % 2 == 0 { step } else { -step };
                let d = d.normalize();
                let o = f(&d);
                if o < value {
                    (value, c) = (o, d);
                    moved = true;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        value
    };
    descend(grid_best).min(descend((f(hint), *hint)))
}

/// The deep pairs of `interval`: `options.pairs / 4000` of them (at least 16), in parallel.
pub fn run_deep(options: &Options, interval: Interval) -> DeepStats {
    let count = (options.pairs / 4000).max(16);
    let label = format!("superellipsoids {} deep", interval.number());
    tallied(options, count, &label, DeepStats::default, |stats, k| {
        let seed = options.seed
            ^ ((interval.number() as u64) << 56)
            ^ (0xdee9u64 << 40)
            ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = sampling::rng(seed);
        let (r0, r1) = interval.radius_range();
        let (e0, e1) = interval.eps_range();
        let mut body = || {
            let mut draw = |lo: f64, hi: f64| {
                if lo == hi {
                    lo
                } else {
                    rng.random_range(lo..hi)
                }
            };
            let r = [draw(r0, r1), draw(r0, r1), draw(r0, r1)];
            let (eps1, eps2) = (draw(e0, e1), draw(e0, e1));
            Superellipsoid::new(r[0], r[1], r[2], eps1, eps2).expect("protocol parameters")
        };
        let (a, b) = (body(), body());
        let c = sampling::unit_vector(&mut rng);
        let rotation: UnitQuaternion<f64> = sampling::rotation(&mut rng);
        let size = (a.radii().sum() + b.radii().sum()) / 3.0;
        let depth = rng.random_range(DEPTH_RANGE.0..DEPTH_RANGE.1) * size;
        let p = construct(a, b, c, rotation, -depth);
        stats.pairs += 1;
        let Ok(s) = common_normal(&p.a, &p.b, &p.pose_b, &mut WarmState::cold()) else {
            stats.missed += 1;
            return;
        };
        stats.restarted += (s.restarts > 0 || s.polytope_steps > 0) as u64;
        stats.iterations += s.iterations as u64;
        let reference = reference_depth(&p.a, &p.b, &p.pose_b, &p.direction);
        if !s.contact.touching || reference <= 0.0 {
            stats.missed += (s.contact.touching != (reference > 0.0)) as u64;
            return;
        }
        let excess = (s.contact.penetration - reference) / reference;
        stats.excess = stats.excess.max(excess);
        if excess > DEPTH_AGREEMENT {
            stats.missed += 1;
        } else if excess < -DEPTH_AGREEMENT {
            let common = is_common_normal(&s.contact);
            stats.reference_deeper += common as u64;
            stats.missed += (!common) as u64;
        }
    })
}

/// The table of the deep pairs of every interval.
pub fn table(results: &[(Interval, DeepStats)]) -> Table {
    let mut t = Table::new(
        format!(
            "Deep overlaps (ours, beyond the paper): common-normal depth {} to {} of the sum of the \
             mean radii, cold, against a brute-force minimum translation distance",
            DEPTH_RANGE.0, DEPTH_RANGE.1
        ),
        &[
            "interval",
            "pairs",
            "wide search %",
            "mean it",
            "max (ours - ref) / ref",
            "reference deeper",
            "missed",
        ],
    );
    for (interval, s) in results {
        let n = s.pairs.max(1) as f64;
        t.row(vec![
            interval.number().to_string(),
            s.pairs.to_string(),
            format!("{:.1}", 100.0 * s.restarted as f64 / n),
            format!("{:.1}", s.iterations as f64 / n),
            sci(s.excess),
            s.reference_deeper.to_string(),
            s.missed.to_string(),
        ]);
    }
    t
}
