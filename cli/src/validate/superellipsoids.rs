//! Superellipsoids: the validation protocol of Wellmann, Lillie & Wriggers (2008), "Validation",
//! run on the common-normal kernel and printed beside the paper's figures.
//!
//! Pairs come from [`crate::superellipsoid_pairs`]. Every pair is queried cold from the centre
//! line (the paper's initial guess) through the Rust API, which also reports restarts and local
//! minima. Checks:
//! * series 1 (separated): a pair reported touching is wrong, and so is a reported separation that
//!   is not positive or exceeds the constructed distance (it must be a certified lower bound);
//! * series 2 (penetrating): the answer must be the constructed common normal (depth within 1e-6
//!   relative) or a shallower true common normal (`d` parallel to `c`; the constructed depth is only
//!   an upper bound of the minimum translation distance), or, where a nearly flat face makes that
//!   condition unreachable in double precision, a shallower local maximum of the support gap
//!   (counted apart, "at a kink"). A deeper answer is wrong. A pair reported
//!   apart is wrong unless its separating plane holds when re-checked through the paper's own route
//!   (eq. (4) then eq. (2), independent of the kernel's closed form): then the construction's
//!   common normal did not make the bodies overlap (sharp tips can pass each other) and the pair is
//!   reported as such.

use super::superellipsoid_deep::{self, run_deep};
use super::superellipsoid_elongated::{self, run_elongated, ASPECTS, EPS_RANGES};
use super::superellipsoid_sequences::{self, run_sequences};
use super::{tallied, MustBeZero, Options, Outcome, Tally};
use crate::figure::iteration_histogram_svg;
use crate::sampling;
use crate::superellipsoid_pairs::{pair, Interval, Series, SuperellipsoidPair};
use crate::table::{sci, Table};
use demcontact::narrow::common_normal::common_normal;
use demcontact::shapes::Superellipsoid;
use demcontact::{Contact, WarmState};
use nalgebra::Vector3;

/// Iteration counts kept apart in the histograms (the last bin holds this many and more).
const BINS: usize = 51;

/// Relative depth error above which a penetrating answer counts as wrong.
const DEPTH_TOLERANCE: f64 = 1e-6;

/// The rounding of the constructed configuration, per unit of B's distance from A (8 units in
/// the last place): a deeper answer within it of the 1e-6 relative bound is counted apart from
/// the wrong ones ([`Stats::within_roundoff`]).
const ROUNDOFF_FLOOR: f64 = 8.0 * f64::EPSILON;

/// What one interval and series produced.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pairs: u64,
    /// Separated pairs whose centre line already separates them (the paper's exclusion after 0
    /// iterations: the initial guess alone rules out a penetration).
    centre_line_separates: u64,
    histogram: Vec<u64>,
    /// The same over the Newton iterations alone (without the prefilter's approximate steps).
    newton_histogram: Vec<u64>,
    restarted: u64,
    max_restarts: u32,
    local_minima: u64,
    wrong: MustBeZero,
    /// Penetrating answers deeper than the construction by more than 1e-6 relative but within
    /// the construction's own rounding ([`ROUNDOFF_FLOOR`]): depths below ~1e-9.
    within_roundoff: u64,
    not_overlapping: u64,
    shallower: u64,
    kinked: u64,
    max_shallower: f64,
    depth_error: (f64, f64),
    point_error: (f64, f64),
    angle_error: (f64, f64),
    accurate: u64,
}

impl Tally for Stats {
    fn merge(&mut self, o: &Stats) {
        self.pairs += o.pairs;
        self.centre_line_separates += o.centre_line_separates;
        for (a, b) in self.histogram.iter_mut().zip(&o.histogram) {
            *a += b;
        }
        for (a, b) in self.newton_histogram.iter_mut().zip(&o.newton_histogram) {
            *a += b;
        }
        self.restarted += o.restarted;
        self.max_restarts = self.max_restarts.max(o.max_restarts);
        self.local_minima += o.local_minima;
        self.wrong.0 += o.wrong.0;
        self.within_roundoff += o.within_roundoff;
        self.not_overlapping += o.not_overlapping;
        self.shallower += o.shallower;
        self.kinked += o.kinked;
        self.max_shallower = self.max_shallower.max(o.max_shallower);
        for (a, b) in [
            (&mut self.depth_error, o.depth_error),
            (&mut self.point_error, o.point_error),
            (&mut self.angle_error, o.angle_error),
        ] {
            a.0 += b.0;
            a.1 = a.1.max(b.1);
        }
        self.accurate += o.accurate;
    }
}

impl Stats {
    fn new() -> Self {
        Stats {
            histogram: vec![0; BINS],
            newton_histogram: vec![0; BINS],
            ..Stats::default()
        }
    }

    /// Probability (fraction) of exactly `k` iterations.
    fn probability(&self, k: usize) -> f64 {
        self.histogram[k] as f64 / self.pairs.max(1) as f64
    }

    /// Probability (fraction) of `k` or more iterations.
    fn at_least(&self, k: usize) -> f64 {
        self.histogram[k..].iter().sum::<u64>() as f64 / self.pairs.max(1) as f64
    }

    fn mean(&self, sum_max: (f64, f64)) -> f64 {
        sum_max.0 / self.accurate.max(1) as f64
    }
}

/// How far below 0 the support gap along a reported separating direction ([`gap_by_angles`]) may
/// be for the plane to count as real: the rounding of that gap.
pub(super) const SEPARATION_ROUNDING: f64 = 1e-12;

/// The support gap along `n` (A's frame) through eq. (4) then eq. (2): the paper's route, which
/// shares no code with the kernel's closed form.
pub(super) fn gap_by_angles(p: &SuperellipsoidPair, n: &Vector3<f64>) -> f64 {
    let point = |s: &Superellipsoid, m: &Vector3<f64>| {
        let (phi1, phi2) = s.parameters_of_normal(m);
        s.surface_point(phi1, phi2)
    };
    let pa = point(&p.a, n);
    let pb = p
        .pose_b
        .transform_point(&point(&p.b, &p.pose_b.inverse_transform_vector(&-n)));
    n.dot(&(pb - pa))
}

/// Whether no direction near `n` (A's frame) has a larger support gap (less overlap) than `n`,
/// probed at angles 1e-7 to 1e-3 in eight tangent directions through the paper's route
/// ([`gap_by_angles`]), up to the rounding of a gap.
///
/// At a smooth common normal this holds when it is the locally shallowest one. It is what still
/// certifies an answer where a box-like body (`eps` near 0.1) makes condition (5)_3 unreachable
/// in double precision: its point-with-normal map goes as `|n_i|^(eps/(2-eps))` near a face
/// normal, so a rounding of `1e-16` in the direction moves the point across a good part of the
/// face, and `d` cannot be made parallel to `c` to better than that; the support gap, a maximum
/// at the face's kink, is as exact as elsewhere.
pub(super) fn locally_shallowest(p: &SuperellipsoidPair, n: &Vector3<f64>) -> bool {
    let n = n.normalize();
    let gap = gap_by_angles(p, &n);
    let tolerance = 1e-12 * (1.0 + p.pose_b.position.norm());
    let helper = if n.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let e2 = n.cross(&helper).normalize();
    let e3 = n.cross(&e2);
    [1e-7, 1e-5, 1e-3].iter().all(|&angle| {
        (0..8).all(|k| {
            let phi = k as f64 * std::f64::consts::FRAC_PI_4;
            let u = e2 * phi.cos() + e3 * phi.sin();
            let probe = (n + u * angle).normalize();
            gap_by_angles(p, &probe) <= gap + tolerance
        })
    })
}

/// Whether `contact`'s points lie on its normal line, to within `1e-9 (1 + |d|)` across it (`d`
/// from A's point to B's): a true common normal, condition (5)_3 of the paper.
pub(super) fn is_common_normal(contact: &Contact) -> bool {
    let d = contact.point_b - contact.point_a;
    let tangential = (d - contact.normal * d.dot(&contact.normal)).norm();
    tangential <= 1e-9 * (1.0 + d.norm())
}

/// Runs one pair and records it.
fn check(p: &SuperellipsoidPair, series: Series, s: &mut Stats) {
    s.pairs += 1;
    let mut warm = WarmState::cold();
    let solution = match common_normal(&p.a, &p.b, &p.pose_b, &mut warm) {
        Ok(solution) => solution,
        Err(_) => {
            s.wrong.count(true);
            s.histogram[BINS - 1] += 1;
            s.newton_histogram[BINS - 1] += 1;
            return;
        }
    };
    s.histogram[(solution.iterations as usize).min(BINS - 1)] += 1;
    let newton = solution.iterations - solution.probes;
    s.newton_histogram[(newton as usize).min(BINS - 1)] += 1;
    // The wider search: the restarts or, for a pair with a nearly pointed body, the expanding
    // polytope of A - B, which takes their place.
    s.restarted += (solution.restarts > 0 || solution.polytope_steps > 0) as u64;
    s.max_restarts = s.max_restarts.max(solution.restarts);
    s.local_minima += solution.local_minima as u64;
    let c = solution.contact;
    match series {
        // The reported separation must be a certified lower bound of the constructed distance.
        Series::Separated => {
            let centre_line = p.pose_b.position.normalize();
            s.centre_line_separates += (gap_by_angles(p, &centre_line) > 0.0) as u64;
            s.wrong.count(
                c.touching
                    || c.separation <= 0.0
                    || c.separation > p.signed_gap + 1e-12 * (1.0 + p.signed_gap),
            )
        }
        Series::Penetrating if !c.touching => {
            // Reported apart: right only if the separating plane is real.
            if gap_by_angles(p, &c.normal) > -SEPARATION_ROUNDING {
                s.not_overlapping += 1;
            } else {
                s.wrong.count(true);
            }
        }
        Series::Penetrating => {
            let depth = -p.signed_gap;
            let relative = (c.penetration - depth) / depth;
            if relative < -DEPTH_TOLERANCE {
                // Shallower: must be a true common normal (d parallel to c), or, where a nearly
                // flat face puts it beyond double precision, a local maximum of the support gap.
                if !is_common_normal(&c) {
                    let kink = locally_shallowest(p, &c.normal);
                    s.kinked += kink as u64;
                    s.wrong.count(!kink);
                }
                s.shallower += 1;
                s.max_shallower = s.max_shallower.max(-relative);
            } else if relative > DEPTH_TOLERANCE {
                // The construction places B to the rounding of its position: below that, a
                // depth off by more than 1e-6 relative (only depths under ~1e-9 can be) is not
                // told from the reference's own error, and is counted apart.
                let floor = ROUNDOFF_FLOOR * (1.0 + p.pose_b.position.norm());
                if c.penetration - depth <= DEPTH_TOLERANCE * depth + floor {
                    s.within_roundoff += 1;
                } else {
                    s.wrong.count(true);
                }
            } else {
                s.accurate += 1;
                let point = (c.point_a - p.point_a)
                    .norm()
                    .max((c.point_b - p.point_b).norm());
                let angle = c
                    .normal
                    .dot(&p.direction)
                    .clamp(-1.0, 1.0)
                    .acos()
                    .to_degrees();
                for (acc, v) in [
                    (&mut s.depth_error, relative.abs()),
                    (&mut s.point_error, point),
                    (&mut s.angle_error, angle),
                ] {
                    acc.0 += v;
                    acc.1 = acc.1.max(v);
                }
            }
        }
    }
}

/// Runs `options.pairs` pairs of one interval and series over all cores (deterministic: each chunk
/// of pairs has its own seed).
pub fn run_series(options: &Options, interval: Interval, series: Series) -> Stats {
    const CHUNK: usize = 8192;
    let chunks = options.pairs.div_ceil(CHUNK);
    let label = format!(
        "superellipsoids {} {}",
        interval.number(),
        if series == Series::Separated {
            "s1"
        } else {
            "s2"
        }
    );
    tallied(options, chunks, &label, Stats::new, |stats, k| {
        let seed = options.seed
            ^ ((interval.number() as u64) << 56)
            ^ ((series as u64) << 48)
            ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = sampling::rng(seed);
        let n = CHUNK.min(options.pairs - k * CHUNK);
        for _ in 0..n {
            check(&pair(interval, series, &mut rng), series, stats);
        }
    })
}

/// The paper's figures per interval (1-3): series 1 P(0 iterations) %, P(>= 5) %, pairs not
/// excluded within 50 iterations per 10^6; series 2 P(>= 20) %, local minima or no convergence in
/// 50 per 10^6; Table 1 depth, point, angle (degrees).
/// One interval's figures from the paper, in the order of [`PAPER`]'s description.
type PaperFigures = (f64, f64, f64, f64, f64, f64, f64, f64);

const PAPER: [PaperFigures; 3] = [
    (88.1, 1.1, 28.0, 0.4, 193.0, 2.34e-6, 4.34e-8, 4.21e-3),
    (85.2, 1.1, 24.0, 0.4, 198.0, 2.40e-6, 4.40e-8, 5.05e-3),
    (78.2, 3.7, 456.0, 4.5, 9219.0, 3.21e-5, 3.72e-7, 1.82e-2),
];

fn paper(interval: Interval) -> Option<PaperFigures> {
    PAPER.get(interval.number() - 1).copied()
}

fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

fn per_million(count: u64, pairs: u64) -> String {
    format!("{:.0}", count as f64 * 1e6 / pairs.max(1) as f64)
}

fn or_dash(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("-".into(), f)
}

/// The whole protocol: 4 intervals x 2 series, tables, figures.
pub fn validate(options: &Options) -> Outcome {
    let mut results = Vec::new();
    let mut sequences = Vec::new();
    let mut deep = Vec::new();
    for interval in Interval::ALL {
        let s1 = run_series(options, interval, Series::Separated);
        let s2 = run_series(options, interval, Series::Penetrating);
        results.push((interval, s1, s2));
        sequences.push((interval, run_sequences(options, interval)));
        deep.push((interval, run_deep(options, interval)));
    }
    sequences.push((Interval::BoxLike, run_sequences(options, Interval::BoxLike)));
    let elongated: Vec<_> = EPS_RANGES
        .iter()
        .flat_map(|&eps| ASPECTS.map(|aspect| (eps, aspect, run_elongated(options, aspect, eps))))
        .collect();
    let mut report = format!(
        "\n## Superellipsoids: Wellmann, Lillie & Wriggers (2008), {} pairs per interval and series\n\
         (intervals 1-3 are the paper's; 4 is ours: eps in [0.1, 1.9], radii in (0.3, 3). Ours: \
         cold queries from the centre line; iterations are direction updates: the closed-form \
         ascent step of the bodies' ellipsoids our cheap separating-plane test starts with, its \
         Newton ascent steps on approximate (log-domain) support points and their Jacobians, \
         and Newton steps with exact derivatives (\"of which Newton\"); all restarts included \
         (not the expanding polytope's steps, which take the restarts' place for a nearly \
         pointed body: each is a pair of support points, not a direction update). \
         \"centre line separates\" is the paper's exclusion after 0 iterations (the initial guess alone rules out a penetration), \
         checked exactly on each pair; the search ends when the direction's error is below 1e-11 rad, or 1e-9 rad as \
         predicted by Newton's quadratic convergence, far tighter than the paper's \
         |grad f| < 1e-6.)\n",
        options.pairs
    );
    let mut t1 = Table::new(
        "Series 1 (separated, gap in (0, 0.25)): penetration exclusion (paper's Fig. 5)",
        &[
            "interval",
            "centre line separates %",
            "paper P(0 it)",
            "P(<=1 it) % ours",
            "P(>=5 it) % ours",
            "paper",
            "restarted /10^6 ours",
            "paper (not excl. in 50)",
            "max restarts",
            "wrong",
        ],
    );
    let mut t2 = Table::new(
        "Series 2 (penetrating, depth in (0, 1.75e-3)): convergence (paper's Fig. 6)",
        &[
            "interval",
            "P(>=20 it) % ours",
            "paper",
            "median it",
            "of which Newton",
            "restarted /10^6",
            "local minima /10^6",
            "paper (local min or >50 it)",
            "max restarts",
            "shallower found",
            "max shallower (rel)",
            "not overlapping",
            "wrong",
        ],
    );
    let mut t3 = Table::new(
        "Table 1: errors of the penetrating answers that match the construction (mean / max; paper: mean)",
        &[
            "interval",
            "|d~-d|/d mean",
            "max",
            "paper",
            "|p~-p| mean",
            "max",
            "paper",
            "angle deg mean",
            "max",
            "paper",
        ],
    );
    let mut passed = true;
    for (interval, s1, s2) in &results {
        let p = paper(*interval);
        let i = interval.number().to_string();
        t1.row(vec![
            i.clone(),
            pct(s1.centre_line_separates as f64 / s1.pairs.max(1) as f64),
            or_dash(p.map(|p| p.0), |v| format!("{v}")),
            pct(1.0 - s1.at_least(2)),
            pct(s1.at_least(5)),
            or_dash(p.map(|p| p.1), |v| format!("{v}")),
            per_million(s1.restarted, s1.pairs),
            or_dash(p.map(|p| p.2), |v| format!("{v:.0}")),
            s1.max_restarts.to_string(),
            s1.wrong.0.to_string(),
        ]);
        let median = |histogram: &[u64]| {
            let half = s2.pairs / 2;
            let mut acc = 0;
            histogram
                .iter()
                .position(|h| {
                    acc += h;
                    acc > half
                })
                .unwrap_or(0)
        };
        t2.row(vec![
            i.clone(),
            pct(s2.at_least(20)),
            or_dash(p.map(|p| p.3), |v| format!("{v}")),
            median(&s2.histogram).to_string(),
            median(&s2.newton_histogram).to_string(),
            per_million(s2.restarted, s2.pairs),
            per_million(s2.local_minima, s2.pairs),
            or_dash(p.map(|p| p.4), |v| format!("{v:.0}")),
            s2.max_restarts.to_string(),
            format!("{} ({} at a kink)", s2.shallower, s2.kinked),
            sci(s2.max_shallower),
            s2.not_overlapping.to_string(),
            if s2.within_roundoff > 0 {
                format!("{} ({} within round-off)", s2.wrong.0, s2.within_roundoff)
            } else {
                s2.wrong.0.to_string()
            },
        ]);
        t3.row(vec![
            i,
            sci(s2.mean(s2.depth_error)),
            sci(s2.depth_error.1),
            or_dash(p.map(|p| p.5), sci),
            sci(s2.mean(s2.point_error)),
            sci(s2.point_error.1),
            or_dash(p.map(|p| p.6), sci),
            sci(s2.mean(s2.angle_error)),
            sci(s2.angle_error.1),
            or_dash(p.map(|p| p.7), sci),
        ]);
        passed &= s1.wrong.0 == 0 && s2.wrong.0 == 0;
    }
    report += &t1.render();
    report += &t2.render();
    report += &t3.render();
    report += &superellipsoid_sequences::table(&sequences).render();
    passed &= sequences.iter().all(|(_, s)| s.passed());
    report += &superellipsoid_deep::table(&deep).render();
    passed &= deep.iter().all(|(_, s)| s.passed());
    report += &superellipsoid_elongated::table(&elongated).render();
    passed &= elongated.iter().all(|(_, _, s)| s.passed());
    report += "\nwrong: series 1 reported touching, or a separation not in (0, the constructed distance]; series 2 reported apart without a real \
               separating plane, deeper than the construction by more than 1e-6 relative (plus \
               the construction's own rounding, 8 ulp of B's distance: the few deeper answers \
               within it, all on depths below ~1e-9, are shown apart as \"within round-off\"), or a \
               shallower answer that is neither a common normal (|d x c| <= 1e-9 (1 + |d|)) nor a \
               local maximum of the support gap (\"at a kink\": a nearly flat face puts the common \
               normal beyond double precision). \"not overlapping\": the constructed common normal \
               did not make the bodies overlap (a separating plane exists). Sequences: \
               \"disagreeing\": a warm answer not touching, or off the cold one by more than \
               1e-9 in relative depth or 1e-7 rad in normal (the normals' own errors reach \
               ~3e-8 rad where a body is nearly flat, Table 1), but for the warm answers at the \
               cold one's depth whose normals differ where one of the two is not a common normal \
               but a local maximum of the support gap at a kink (counted apart, \"at a kink\": \
               the same answer to double precision), and for the steps whose construction did \
               not make the bodies overlap, answered apart warm and cold, each by a real \
               separating plane (counted apart, \"apart\", as series 2's \"not overlapping\"; \
               a separating direction is not unique, so the normals are not compared); \
               \"answered at the start\": no Newton iteration, the start extrapolated from the \
               last contact directions being a common normal to the search's accuracy already. \
               Deep overlaps: \"missed\": deeper than the brute-force reference by more than \
               1e-9 relative, or shallower without \
               being a common normal; \"reference deeper\": the reference's compass search \
               stopped in another basin, ours a common normal; \"wide search\": the first answer \
               was neither certified by balls inside the bodies tangent at its contact points \
               (radii adding up to more than the depth: the bodies' rolling balls, r_min^2 / \
               r_max for an ellipsoid, a bound for a box-like body, none for a pointed one, or \
               the balls a bound of the surface's curvature near each point certifies) nor \
               passed the trust test, and the restarts (for a nearly pointed body the expanding \
               polytope of A - B, which takes their place) decided. \"restarted\": the same \
               wider search, counted the same way. Elongated bodies: \"deeper\": \
               deeper than the construction by more than 1e-6 relative (informative: beyond the \
               validated aspect ratios); \"found apart\": a constructed overlap answered apart, \
               its separating plane confirmed by the exact support points (a pointed body can be \
               thinner than the depth at the constructed point); \"wrong\": a pair constructed \
               apart answered touching, or a separating plane the exact support points \
               contradict.\n";
    if let Some(dir) = &options.figures {
        let curves = |series: usize| -> Vec<(String, Vec<f64>)> {
            results
                .iter()
                .map(|(interval, s1, s2)| {
                    let s = if series == 1 { s1 } else { s2 };
                    let v = (0..BINS).map(|k| s.probability(k)).collect();
                    (format!("interval {}", interval.number()), v)
                })
                .collect()
        };
        let figures = [
            (
                "superellipsoids_fig5_exclusion.svg",
                "Series 1: probability of a penetration exclusion after i iterations (cf. paper Fig. 5)",
                curves(1),
            ),
            (
                "superellipsoids_fig6_convergence.svg",
                "Series 2: probability of convergence after i iterations (cf. paper Fig. 6)",
                curves(2),
            ),
        ];
        let written = std::fs::create_dir_all(dir).and_then(|_| {
            for (name, title, series) in &figures {
                let svg = iteration_histogram_svg(
                    title,
                    "iterations i (last bin: 50 and more)",
                    "probability",
                    series,
                );
                std::fs::write(dir.join(name), svg)?;
            }
            Ok(())
        });
        match written {
            Ok(()) => {
                report += &format!("figures: {}/superellipsoids_fig5_exclusion.svg, superellipsoids_fig6_convergence.svg\n", dir.display())
            }
            Err(e) => report += &format!("figures not written to {}: {e}\n", dir.display()),
        }
    }
    Outcome { report, passed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demcontact::ContactKind;

    #[test]
    fn a_common_normal_has_its_points_on_the_normal_line() {
        let normal = Vector3::new(0.0, 0.6, 0.8);
        let a = Vector3::new(1.0, 2.0, 3.0);
        let on_line = Contact::from_points(
            a,
            a - normal * 1e-3,
            normal,
            1e-3,
            false,
            ContactKind::Smooth,
        );
        assert!(is_common_normal(&on_line));
        // 1e-6 across the normal, at |d| of about 1e-3: beyond 1e-9 (1 + |d|).
        let across = Vector3::new(1e-6, 0.0, 0.0);
        let off_line = Contact::from_points(
            a,
            a - normal * 1e-3 + across,
            normal,
            1e-3,
            false,
            ContactKind::Smooth,
        );
        assert!(!is_common_normal(&off_line));
    }
}
