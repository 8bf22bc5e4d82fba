//! Random pairs of random convex polyhedra near contact (4 to 60 vertices, aspect ratios up to 8,
//! support-plane gap within +-2 % of the size; [`pool_pair`]), each queried cold through
//! [`collide`] and judged against the SAT reference ([`judge`]):
//!
//! * classification: a mismatch outside the reference's tolerance band is wrong; verdicts inside
//!   the band are counted, not judged;
//! * depth: where both report penetration (outside the band), the error against the SAT depth
//!   must stay within [`DEPTH_TOLERANCE`] relative, above the round-off floor [`depth_ok`];
//! * normal: where the SAT minimum is unique, the angle to the SAT normal must stay within
//!   [`NORMAL_TOLERANCE`];
//! * a gap we report must be certified: at most the exact distance;
//! * covers visited (`contact.iterations`), touching and apart.

use super::judge::judge;
use super::{angle, depth_ok, verdict, DEPTH_ROUND_OFF, DEPTH_TOLERANCE, NORMAL_TOLERANCE};
use crate::polyhedron_pairs::{body_pool, pool_pair, KernelBody, PlacedPair};
use crate::polyhedron_reference::BRUTEFORCE_MAX_POINTS;
use crate::sampling;
use crate::table::{sci, Table};
use crate::validate::{tallied, MaxError, MustBeZero, Options, Outcome, Tally};
use demcontact::narrow::collide;
use demcontact::{Contact, WarmState};

/// Pairs per body of the pool (at least 16 bodies, at most 4096).
const PAIRS_PER_BODY: usize = 25;

/// Pairs per chunk of work (each chunk has its own seed, so the run is deterministic).
const CHUNK: usize = 1024;

/// Mismatches kept whole for the report (reproducers).
const KEEP: usize = 3;

/// What a run of pairs produced.
#[derive(Debug, Clone)]
struct Stats {
    pairs: u64,
    other_hull: u64,
    in_band: u64,
    mismatches: MustBeZero,
    examples: Vec<(PlacedPair, Contact, f64)>,
    penetrating: u64,
    depth: MaxError,
    depth_over: MustBeZero,
    depth_sum: f64,
    depth_absolute: f64,
    unique: u64,
    normal: MaxError,
    uncertified: MustBeZero,
    covers_touching: (u64, u64),
    covers_apart: (u64, u64),
    max_covers: u32,
}

impl Tally for Stats {
    fn merge(&mut self, o: &Stats) {
        self.pairs += o.pairs;
        self.other_hull += o.other_hull;
        self.in_band += o.in_band;
        self.mismatches.0 += o.mismatches.0;
        for e in &o.examples {
            if self.examples.len() < KEEP {
                self.examples.push(e.clone());
            }
        }
        self.penetrating += o.penetrating;
        self.depth.absorb(&o.depth);
        self.normal.absorb(&o.normal);
        self.depth_over.0 += o.depth_over.0;
        self.depth_sum += o.depth_sum;
        self.depth_absolute = self.depth_absolute.max(o.depth_absolute);
        self.unique += o.unique;
        self.uncertified.0 += o.uncertified.0;
        for (a, b) in [
            (&mut self.covers_touching, o.covers_touching),
            (&mut self.covers_apart, o.covers_apart),
        ] {
            a.0 += b.0;
            a.1 += b.1;
        }
        self.max_covers = self.max_covers.max(o.max_covers);
    }
}

impl Stats {
    fn new() -> Self {
        Stats {
            pairs: 0,
            other_hull: 0,
            in_band: 0,
            mismatches: MustBeZero::default(),
            examples: Vec::new(),
            penetrating: 0,
            depth: MaxError::within(DEPTH_TOLERANCE),
            depth_over: MustBeZero::default(),
            depth_sum: 0.0,
            depth_absolute: 0.0,
            unique: 0,
            normal: MaxError::within(NORMAL_TOLERANCE),
            uncertified: MustBeZero::default(),
            covers_touching: (0, 0),
            covers_apart: (0, 0),
            max_covers: 0,
        }
    }

    /// Checks one pair.
    fn check(&mut self, pool: &[KernelBody], p: &PlacedPair) {
        let (a, b) = (&pool[p.a], &pool[p.b]);
        self.pairs += 1;
        self.other_hull += (!a.same_vertices || !b.same_vertices) as u64;
        let c = collide(
            &a.shape,
            &p.pose_a,
            &b.shape,
            &p.pose_b,
            Some(&mut WarmState::cold()),
        )
        .expect("a polyhedron pair is supported");
        let covers = if c.touching {
            &mut self.covers_touching
        } else {
            &mut self.covers_apart
        };
        covers.0 += 1;
        covers.1 += c.iterations as u64;
        self.max_covers = self.max_covers.max(c.iterations);

        let j = judge(&a.reference, &p.pose_a, &b.reference, &p.pose_b, &[&c]);
        self.in_band += j.in_band as u64;
        self.uncertified.0 += j.uncertified;
        if j.mismatches > 0 {
            self.mismatches.0 += j.mismatches;
            if self.examples.len() < KEEP {
                self.examples.push((p.clone(), c, j.reference));
            }
        }
        if let (Some(sat), true) = (j.penetration, c.touching) {
            self.penetrating += 1;
            let error = (c.penetration - sat.depth).abs();
            self.depth.add(error / sat.depth);
            self.depth_over
                .count(!depth_ok(c.penetration, sat.depth, a.size().max(b.size())));
            self.depth_sum += error / sat.depth;
            self.depth_absolute = self.depth_absolute.max(error / p.size);
            if sat.unique {
                self.unique += 1;
                self.normal.add(angle(&c.normal, &sat.normal));
            }
        }
    }
}

/// Runs `pairs` pairs over all cores; the table and whether every check passed.
pub fn validate(options: &Options, pairs: usize) -> Outcome {
    let pool = body_pool(
        &mut sampling::rng(options.seed ^ 0x706f_6f6c),
        (pairs / PAIRS_PER_BODY).clamp(16, 4096),
        BRUTEFORCE_MAX_POINTS,
    );
    let s = tallied(
        options,
        pairs.div_ceil(CHUNK),
        "polyhedra random pairs",
        Stats::new,
        |stats, k| {
            let seed =
                options.seed ^ (0x706f_6c79 << 32) ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = sampling::rng(seed);
            for _ in 0..CHUNK.min(pairs - k * CHUNK) {
                let p = pool_pair(&mut rng, &pool, -0.02..0.02);
                stats.check(&pool, &p);
            }
        },
    );
    report(&s, &pool)
}

/// The table of a run.
fn report(s: &Stats, pool: &[KernelBody]) -> Outcome {
    let mean = |(n, sum): (u64, u64)| sum as f64 / n.max(1) as f64;
    let mut t = Table::new(
        format!(
            "Polyhedra (b): {} random pairs of {} random convex polyhedra (4 to \
             {BRUTEFORCE_MAX_POINTS} vertices, aspect ratios up to 8; fresh poses, support-plane \
             gap within +-2 % of the size), cold queries against the SAT reference",
            s.pairs,
            pool.len()
        ),
        &["measure", "value", "required", "check"],
    );
    let classification_ok = s.mismatches.0 == 0;
    t.row(vec![
        "classification mismatches outside the band (1e-9 of the size)".into(),
        s.mismatches.0.to_string(),
        "0".into(),
        verdict(classification_ok),
    ]);
    t.row(vec![
        "pairs inside the band (not judged)".into(),
        s.in_band.to_string(),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        format!(
            "depth rel. error, max ({} penetrating pairs)",
            s.penetrating
        ),
        sci(s.depth.max),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "depths off by more than 1e-9 rel. + 1e-13 size (round-off floor)".into(),
        s.depth_over.0.to_string(),
        "0".into(),
        verdict(s.depth_over.0 == 0),
    ]);
    t.row(vec![
        format!("of which off by more than {DEPTH_TOLERANCE:.0e} relative"),
        s.depth.over.to_string(),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "depth rel. error, mean".into(),
        sci(s.depth_sum / s.penetrating.max(1) as f64),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        format!("depth error / size, max (floor: {DEPTH_ROUND_OFF:.0e})"),
        sci(s.depth_absolute),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        format!(
            "normal error (rad), max ({} pairs with a unique SAT minimum)",
            s.unique
        ),
        sci(s.normal.max),
        format!("<= {NORMAL_TOLERANCE:.0e}"),
        verdict(s.normal.ok()),
    ]);
    t.row(vec![
        "gaps reported above the exact distance".into(),
        s.uncertified.0.to_string(),
        "0".into(),
        verdict(s.uncertified.0 == 0),
    ]);
    t.row(vec![
        format!(
            "mean covers visited: touching ({} pairs) / apart ({}); max",
            s.covers_touching.0, s.covers_apart.0
        ),
        format!(
            "{:.1} / {:.1}; {}",
            mean(s.covers_touching),
            mean(s.covers_apart),
            s.max_covers
        ),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "pairs where the kernel's hull kept other vertices than the reference's".into(),
        s.other_hull.to_string(),
        String::new(),
        String::new(),
    ]);
    let passed = classification_ok && s.depth_over.0 == 0 && s.normal.ok() && s.uncertified.0 == 0;
    let mut report = t.render();
    for (p, c, reference) in &s.examples {
        report += &format!(
            "\nMISMATCH: reference signed distance {reference:e}, ours touching = {}, penetration \
             {:e}, separation {:e}\n  A vertices {:?}\n  pose A {:?}\n  B vertices {:?}\n  pose B {:?}\n",
            c.touching,
            c.penetration,
            c.separation,
            pool[p.a].reference.vertices,
            p.pose_a,
            pool[p.b].reference.vertices,
            p.pose_b
        );
    }
    report += &format!(
        "\nA pair reported apart is settled by its separating plane re-evaluated by the reference \
         (a negative overlap along any direction proves the pair apart), every other pair by the \
         full SAT.\nrandom pairs: {}\n",
        verdict(passed)
    );
    Outcome { report, passed }
}
