//! Superellipsoid pairs built the way Wellmann, Lillie & Wriggers (2008) build their validation
//! pairs ("Validation"): A at the origin, a random contact direction `c`, A's point `p1` with normal
//! `c` (eqs. (4), (2)), a random rotation of B, a chosen signed gap `g`, `p2 = p1 + g c`, and B's
//! centre placed so that its point with normal `-c` is `p2` (eq. (7)). The common-normal depth along
//! `c` is then exactly `-g`; for `g > 0` the tangent plane at `p1` separates the bodies, so `g` is
//! their exact distance.

use crate::sampling::{self, SceneRng};
use demcontact::shapes::Superellipsoid;
use demcontact::Pose;
use nalgebra::{UnitQuaternion, Vector3};
use rand::Rng;

/// A squareness interval of the protocol (the paper's three, plus our harder fourth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interval {
    /// eps in [1, 1] (ellipsoids), radii in (0.5, 3).
    One,
    /// eps in [0.7, 1.3], radii in (0.5, 3).
    Two,
    /// eps in [0.3, 1.7], radii in (0.5, 3).
    Three,
    /// eps in [0.1, 1.9], radii in (0.3, 3): not in the paper.
    Four,
    /// eps in [0.1, 0.25), radii in (0.5, 3): box-like bodies only, for the warm-started
    /// sequences (not in the paper, not one of [`Interval::ALL`]).
    BoxLike,
    /// eps in [1.8, 1.9], radii in (0.5, 3): nearly pointed (octahedron-like) bodies only, for
    /// the benchmarks' costly case (not in the paper, not one of [`Interval::ALL`]).
    Pointed,
}

impl Interval {
    /// All four, in order.
    pub const ALL: [Interval; 4] = [
        Interval::One,
        Interval::Two,
        Interval::Three,
        Interval::Four,
    ];

    /// The squareness range `(min, max)` of both eps of both bodies.
    pub fn eps_range(self) -> (f64, f64) {
        match self {
            Interval::One => (1.0, 1.0),
            Interval::Two => (0.7, 1.3),
            Interval::Three => (0.3, 1.7),
            Interval::Four => (0.1, 1.9),
            Interval::BoxLike => (0.1, 0.25),
            Interval::Pointed => (1.8, 1.9),
        }
    }

    /// The range of the radii.
    pub fn radius_range(self) -> (f64, f64) {
        match self {
            Interval::Four => (0.3, 3.0),
            _ => (0.5, 3.0),
        }
    }

    /// The interval's number (1-4; 5 for [`Interval::BoxLike`], 6 for [`Interval::Pointed`]).
    pub fn number(self) -> usize {
        self as usize + 1
    }

    /// The interval's name in tables: its number, or "box-like".
    pub fn label(self) -> String {
        match self {
            Interval::BoxLike => "box-like (eps 0.1-0.25)".into(),
            Interval::Pointed => "nearly pointed (eps 1.8-1.9)".into(),
            _ => self.number().to_string(),
        }
    }
}

/// Which of the paper's two test series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// Series 1: separated, gap uniform in (0, 0.25).
    Separated,
    /// Series 2: penetrating, depth uniform in (0, 1.75e-3).
    Penetrating,
}

/// One constructed pair with its exact answer (world frame = A's frame).
#[derive(Debug, Clone, Copy)]
pub struct SuperellipsoidPair {
    /// Body A (at the origin, unrotated).
    pub a: Superellipsoid,
    /// Body B.
    pub b: Superellipsoid,
    /// B's pose.
    pub pose_b: Pose,
    /// The exact unit contact direction `c`, from A to B.
    pub direction: Vector3<f64>,
    /// `p1`: A's surface point with outward normal `c`.
    pub point_a: Vector3<f64>,
    /// `p2`: B's surface point with outward normal `-c`.
    pub point_b: Vector3<f64>,
    /// `g`: > 0 the exact distance; < 0 minus the common-normal depth along `c`.
    pub signed_gap: f64,
}

fn body(rng: &mut SceneRng, interval: Interval) -> Superellipsoid {
    let (r0, r1) = interval.radius_range();
    let (e0, e1) = interval.eps_range();
    let mut eps = || {
        if e0 == e1 {
            e0
        } else {
            rng.random_range(e0..e1)
        }
    };
    let (eps1, eps2) = (eps(), eps());
    Superellipsoid::new(
        rng.random_range(r0..r1),
        rng.random_range(r0..r1),
        rng.random_range(r0..r1),
        eps1,
        eps2,
    )
    .expect("protocol parameters are valid")
}

/// One pair of `interval` and `series`.
pub fn pair(interval: Interval, series: Series, rng: &mut SceneRng) -> SuperellipsoidPair {
    let a = body(rng, interval);
    let b = body(rng, interval);
    let c = sampling::unit_vector(rng);
    let rotation: UnitQuaternion<f64> = sampling::rotation(rng);
    let signed_gap = match series {
        Series::Separated => rng.random_range(0.0..0.25),
        Series::Penetrating => -rng.random_range(0.0..1.75e-3),
    };
    construct(a, b, c, rotation, signed_gap)
}

/// A pair of `interval` overlapping as deeply as a DEM packing's contacts do: the construction
/// at a common-normal depth of `relative_depth` (a range, drawn uniformly) times the sum of the two
/// bodies' mean radii (beyond the paper, whose series 2 overlaps by at most 1.75e-3).
pub fn deep_pair(
    interval: Interval,
    relative_depth: (f64, f64),
    rng: &mut SceneRng,
) -> SuperellipsoidPair {
    let a = body(rng, interval);
    let b = body(rng, interval);
    let c = sampling::unit_vector(rng);
    let rotation: UnitQuaternion<f64> = sampling::rotation(rng);
    let size = (a.radii().sum() + b.radii().sum()) / 3.0;
    let depth = rng.random_range(relative_depth.0..relative_depth.1) * size;
    construct(a, b, c, rotation, -depth)
}

/// The paper's construction: A at the origin, the unit contact direction `c`, B turned by
/// `rotation` and placed so that the signed gap along `c` between A's point with normal `c` and
/// B's point with normal `-c` is `signed_gap`.
pub fn construct(
    a: Superellipsoid,
    b: Superellipsoid,
    c: Vector3<f64>,
    rotation: UnitQuaternion<f64>,
    signed_gap: f64,
) -> SuperellipsoidPair {
    let point_a = a.point_with_normal(&c);
    let point_b = point_a + c * signed_gap;
    let local = b.point_with_normal(&(rotation.inverse() * -c));
    let pose_b = Pose::new(point_b - rotation * local, rotation);
    SuperellipsoidPair {
        a,
        b,
        pose_b,
        direction: c,
        point_a,
        point_b,
        signed_gap,
    }
}

/// `count` pairs from `seed` (deterministic).
pub fn generate(
    interval: Interval,
    series: Series,
    count: usize,
    seed: u64,
) -> Vec<SuperellipsoidPair> {
    let mut rng = sampling::rng(seed);
    (0..count)
        .map(|_| pair(interval, series, &mut rng))
        .collect()
}

/// A pair in lasting contact over `steps` DEM-like time steps: the contact direction and B's
/// orientation turn by `turn` rad per step about fixed random axes, and the common-normal depth
/// oscillates in (0, 1.75e-3), each step built with [`construct`] so its exact answer is known.
pub fn sequence(
    interval: Interval,
    steps: usize,
    turn: f64,
    rng: &mut SceneRng,
) -> Vec<SuperellipsoidPair> {
    moving(interval, steps, turn, rng, |phase| {
        -0.875e-3 * (1.0 + 0.9 * phase.sin())
    })
}

/// A pair over `steps` steps whose contact direction and B's orientation turn by `turn` rad per
/// step about fixed random axes, at the signed gap `gap(phase)` along the direction (`phase`
/// advances by `20 turn` per step from a random start), each step built with [`construct`].
/// [`sequence`] is the touching case; e.g. `0.05 * (1 + 0.9 sin(phase))` gives a near pair apart
/// (a DEM neighbour within its skin that does not touch).
pub fn moving(
    interval: Interval,
    steps: usize,
    turn: f64,
    rng: &mut SceneRng,
    gap: impl Fn(f64) -> f64,
) -> Vec<SuperellipsoidPair> {
    let a = body(rng, interval);
    let b = body(rng, interval);
    let c0 = sampling::unit_vector(rng);
    let r0: UnitQuaternion<f64> = sampling::rotation(rng);
    let (axis_c, axis_r) = (sampling::unit_vector(rng), sampling::unit_vector(rng));
    let phase: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    (0..steps)
        .map(|k| {
            let t = k as f64 * turn;
            let c = UnitQuaternion::from_scaled_axis(axis_c * t) * c0;
            let rotation = UnitQuaternion::from_scaled_axis(axis_r * t) * r0;
            construct(a, b, c, rotation, gap(phase + 20.0 * t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructed_points_are_on_the_surfaces_with_opposite_normals() {
        for interval in Interval::ALL {
            for series in [Series::Separated, Series::Penetrating] {
                for p in generate(interval, series, 200, 5) {
                    assert!((p.a.inside_outside(&p.point_a) - 1.0).abs() < 1e-9);
                    let local = p.pose_b.inverse_transform_point(&p.point_b);
                    assert!((p.b.inside_outside(&local) - 1.0).abs() < 1e-9);
                    // B's point with normal -c is p2: the construction inverted.
                    let n = p.pose_b.inverse_transform_vector(&-p.direction);
                    let q = p.pose_b.transform_point(&p.b.point_with_normal(&n));
                    assert!((q - p.point_b).norm() < 1e-12);
                    assert!(
                        ((p.point_b - p.point_a).dot(&p.direction) - p.signed_gap).abs() < 1e-12
                    );
                    assert_eq!(p.signed_gap > 0.0, series == Series::Separated);
                }
            }
        }
    }
}
