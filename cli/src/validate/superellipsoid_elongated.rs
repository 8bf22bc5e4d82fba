//! Superellipsoids, beyond the paper's aspect ratios: plates and needles.
//!
//! The protocol's radii (0.5 to 3, interval 4: 0.3 to 3) give aspect ratios up to 10. DEM codes
//! also model fibres and flakes, so each row here takes bodies with one or two semi-axes of
//! `1/aspect` against 1 (on a random axis), squareness in one of [`EPS_RANGES`], and the paper's
//! construction along a random direction: half of the pairs apart by up to [`APART`] of the
//! thickness `1/aspect`, half penetrating by up to [`PENETRATING`] of it.
//!
//! Counted:
//! * *deeper*: a penetrating answer deeper than the construction's common normal by more than
//!   1e-6 relative (a shallower common normal exists that the search did not find);
//! * *found apart*: a constructed overlap answered apart. The construction does not guarantee
//!   overlap where a body is thinner than the depth at the constructed point (pointed bodies);
//!   the answer's separating plane is checked with the exact support points instead;
//! * *wrong*: a pair constructed apart answered touching, or a separating plane that the exact
//!   support points contradict (the bodies' extents along its normal overlap).
//!
//! Only *wrong* fails the validation: the kernel is validated up to aspect ratio 10, and these
//! rows measure how far beyond that its answers hold.

use super::{tallied, Options, Tally};
use crate::sampling::{self, SceneRng};
use crate::superellipsoid_pairs::construct;
use crate::table::{sci, Table};
use demcontact::narrow::collide;
use demcontact::shapes::{Shape, Superellipsoid};
use demcontact::Pose;
use nalgebra::UnitQuaternion;
use rand::Rng;

/// The aspect ratios of the rows.
pub const ASPECTS: [f64; 5] = [10.0, 50.0, 100.0, 300.0, 1000.0];

/// The squareness ranges of the rows (both `eps1` and `eps2` drawn in each).
pub const EPS_RANGES: [(f64, f64); 3] = [(1.0, 1.0), (0.3, 1.7), (0.1, 1.9)];

/// The largest gap of the pairs apart, relative to the thickness.
pub const APART: f64 = 0.1;

/// The largest depth of the penetrating pairs, relative to the thickness.
pub const PENETRATING: f64 = 1e-3;

/// The relative depth beyond the construction's that counts as deeper.
pub const DEEPER: f64 = 1e-6;

/// What the pairs of one row produced.
#[derive(Debug, Clone, Default)]
pub struct ElongatedStats {
    pairs: u64,
    iterations: u64,
    penetrating: u64,
    deeper: u64,
    /// The largest relative excess of a deeper answer.
    worst: f64,
    found_apart: u64,
    wrong: u64,
}

impl Tally for ElongatedStats {
    fn merge(&mut self, o: &ElongatedStats) {
        self.pairs += o.pairs;
        self.iterations += o.iterations;
        self.penetrating += o.penetrating;
        self.deeper += o.deeper;
        self.worst = self.worst.max(o.worst);
        self.found_apart += o.found_apart;
        self.wrong += o.wrong;
    }
}

impl ElongatedStats {
    /// Whether no answer was wrong.
    pub fn passed(&self) -> bool {
        self.wrong == 0 && self.pairs > 0
    }
}

/// One row: `options.pairs / 250` pairs (at least 16) of `aspect` with squareness in `eps`.
pub fn run_elongated(options: &Options, aspect: f64, eps: (f64, f64)) -> ElongatedStats {
    let count = (options.pairs / 250).max(16);
    let label = format!("superellipsoids aspect {aspect} eps {}-{}", eps.0, eps.1);
    tallied(
        options,
        count,
        &label,
        ElongatedStats::default,
        |stats, k| {
            let seed = options.seed
                ^ (0xe1e9u64 << 40)
                ^ ((aspect as u64) << 20)
                ^ (((eps.0 * 10.0) as u64) << 16)
                ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            check_pair(&mut sampling::rng(seed), aspect, eps, k % 2 == 1, stats)
        },
    )
}

/// A plate or needle of `aspect` with squareness in `eps` (both drawn from `rng`).
fn body(rng: &mut SceneRng, aspect: f64, eps: (f64, f64)) -> Superellipsoid {
    let mut r = [1.0; 3];
    let axis = rng.random_range(0..3);
    r[axis] = 1.0 / aspect;
    if rng.random_bool(0.5) {
        r[(axis + 1) % 3] = 1.0 / aspect;
    }
    let mut draw = || {
        if eps.0 == eps.1 {
            eps.0
        } else {
            rng.random_range(eps.0..eps.1)
        }
    };
    let (eps1, eps2) = (draw(), draw());
    Superellipsoid::new(r[0], r[1], r[2], eps1, eps2).expect("row parameters")
}

/// One pair of the row, `penetrating` or apart, drawn from `rng`, answered and counted.
fn check_pair(
    rng: &mut SceneRng,
    aspect: f64,
    eps: (f64, f64),
    penetrating: bool,
    stats: &mut ElongatedStats,
) {
    let (a, b) = (body(rng, aspect, eps), body(rng, aspect, eps));
    let c = sampling::unit_vector(rng);
    let rotation: UnitQuaternion<f64> = sampling::rotation(rng);
    let gap = if penetrating {
        -rng.random_range(0.0..PENETRATING) * (1.0 / aspect)
    } else {
        rng.random_range(0.0..APART) * (1.0 / aspect)
    };
    let p = construct(a, b, c, rotation, gap);
    stats.pairs += 1;
    stats.penetrating += penetrating as u64;
    let answer = collide(
        &Shape::Superellipsoid(a),
        &Pose::identity(),
        &Shape::Superellipsoid(b),
        &p.pose_b,
        None,
    );
    let Ok(contact) = answer else {
        stats.wrong += 1;
        return;
    };
    stats.iterations += contact.iterations as u64;
    if contact.touching {
        if !penetrating {
            stats.wrong += 1;
        } else if contact.penetration > -gap * (1.0 + DEEPER) {
            stats.deeper += 1;
            stats.worst = stats.worst.max(contact.penetration / -gap - 1.0);
        }
        return;
    }
    // The separating plane against the exact support points: the extents of A and B along its
    // normal must not overlap (beyond rounding, relative to the bodies' size 1).
    let n = contact.normal;
    let local = p.pose_b.rotation.inverse() * -n;
    let extent_a = n.dot(&a.point_with_normal(&n));
    let extent_b = local.dot(&b.point_with_normal(&local)) - n.dot(&p.pose_b.position);
    if extent_a + extent_b > 1e-12 {
        stats.wrong += 1;
    } else if penetrating {
        stats.found_apart += 1;
    }
}

/// The table of every row.
pub fn table(results: &[((f64, f64), f64, ElongatedStats)]) -> Table {
    let mut t = Table::new(
        format!(
            "Elongated bodies (ours, beyond the paper's aspect ratios; validated up to 10): plates \
             and needles, one or two semi-axes of 1/aspect against 1, half of the pairs apart by \
             up to {APART} of the thickness, half penetrating by up to {PENETRATING} of it, cold"
        ),
        &[
            "eps",
            "aspect",
            "pairs",
            "mean it",
            "deeper / penetrating",
            "worst deeper (rel)",
            "constructed overlap found apart",
            "wrong",
        ],
    );
    for ((lo, hi), aspect, s) in results {
        let eps = if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo}-{hi}")
        };
        t.row(vec![
            eps,
            format!("{aspect}"),
            s.pairs.to_string(),
            format!("{:.1}", s.iterations as f64 / s.pairs.max(1) as f64),
            format!("{} / {}", s.deeper, s.penetrating),
            sci(s.worst),
            s.found_apart.to_string(),
            s.wrong.to_string(),
        ]);
    }
    t
}
