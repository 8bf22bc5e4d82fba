//! Random pairs of rough point clouds, beyond the paper's protocol: plates and needles (aspect
//! ratios up to 1000) whose points come with near-duplicates (copies moved by 1e-16 to 1e-6 of
//! the body's size, as a scanned or meshed rock gives them). The kernel's hull merges what lies
//! within its tolerance ([`Polyhedron::RELATIVE_TOLERANCE`] of the bounding box's diagonal), so
//! its faces hold their vertices only to that tolerance and some of its edges are a few
//! tolerances long. Each pair is queried cold in both orders through [`collide`] and judged
//! against the SAT reference of the input points ([`judge_within`]) with a band and a depth
//! tolerance of [`ROUGH_TOLERANCE`] of the size, above the hull's tolerance, or of
//! [`HULL_TOLERANCES`] hull tolerances where `Polyhedron::new` rebuilt a hull at a coarser one,
//! plus how far each hull left input points out ([`pair_tolerance`]). Two checks against the
//! kernel's own hull hold the search to rounding: no depth may exceed, by more than a hull
//! tolerance, the SAT over its faces and edge pairs ([`sat_over_hull_axes`],
//! [`HULL_AXES_TOLERANCE`]), as a search that misses a cover would (a depth may fall below it
//! where the search also evaluates the exact hull's facets at a creased face,
//! [`Polyhedron::creased_faces`]); each gap must be the
//! gap of its vertices along the normal reported, which makes it a certified lower bound of the
//! distance between the hulls.

use super::judge::judge_within;
use super::verdict;
use crate::polyhedron_pairs::{pool_pair, KernelBody};
use crate::polyhedron_reference::{RefPolyhedron, BRUTEFORCE_MAX_POINTS};
use crate::sampling::{self, SceneRng};
use crate::table::{sci, Table};
use crate::validate::{tallied, MaxError, MustBeZero, Options, Outcome, Tally};
use demcontact::narrow::collide;
use demcontact::shapes::Polyhedron;
use demcontact::{Contact, Pose};
use nalgebra::Vector3;
use rand::Rng;

/// The band (verdicts not judged) and the depth tolerance against the input points' SAT,
/// relative to the larger body's size (its diameter): several times the hull's tolerance (`1e-8`
/// of the bounding box's diagonal, at most `1.7e-8` of the diameter).
///
/// The kernel answers exactly for its own hull ([`HULL_AXES_TOLERANCE`]); this is how far that
/// hull's minimum translation distance lies from the input's. Where the hull merges facets
/// within its tolerance (or folds two nearly coplanar triangles along the other diagonal than
/// the input's hull), its face normals and edges lean off the input hull's by up to its
/// tolerance over the feature's width, and a depth's error is that angle times the lever of the
/// contact (how far apart across the normal the two bodies' support features lie, up to the
/// size). The largest met: 8.1e-8 of the size on seeds 1-3 (1.5e-7 with depths up to 25 % of
/// the size), and over seeds 1-70 (probe `roughfail`, not committed) 1.10e-7, at seed 15: a fold
/// of the kernel's hull the other way than the input's, 11 of its tolerances deep in the depth.
pub const ROUGH_TOLERANCE: f64 = 2e-7;

/// How far an answer may lie above the SAT over the kernel's own hull ([`sat_over_hull_axes`]), in
/// the larger of the two hulls' tolerances ([`Polyhedron::tolerance`]). Below it is no fault:
/// at a creased face ([`Polyhedron::creased_faces`]) the search also evaluates the exact hull's
/// facets and hidden edges, whose overlaps the merged face's SAT does not see (up to 0.51 of a
/// tolerance below it at seed 1). The search is exact over
/// the covers of the hull it built: over seeds 1-15 (probe `roughfail`) the difference stayed
/// below 1e-15 of the size at 13 seeds. The SAT also crosses the spans of edges a few tolerances
/// long, whose directions are the hull's only to its tolerance, and some of those axes find the
/// kernel's vertices overlapping a little less: 6.9e-12 and 1.5e-11 of the size at seeds 4 and 3,
/// 4.8e-9 of the size (0.41 of a tolerance) at seed 23, on a body with such an edge (not looked
/// into further). The covers the searches of seeds 27 and 51 missed were 9e3 and 6e4 tolerances
/// deeper, and seed 100's 7.3 (a crossing of an edge between near-duplicate vertices evaluated
/// from the edges' tails alone).
pub const HULL_AXES_TOLERANCE: f64 = 1.0;

/// The smallest overlap of the kernel's polyhedra `a` at `pose_a` and `b` at `pose_b` over the
/// axes of their own hulls (world frame; negative: a gap along every axis was found, so the pair
/// is apart): every face normal and every pair of edges, crossed both by the edges' directions
/// and by their spans (tail to head), each axis measured over all the vertices. Independent of the
/// search; the kernel's hull is the one it searches, so the answer must equal this to rounding.
fn sat_over_hull_axes(a: &Polyhedron, pose_a: &Pose, b: &Polyhedron, pose_b: &Pose) -> f64 {
    let placed_a = placed(a, pose_a);
    let placed_b = placed(b, pose_b);
    let overlap = |n: &Vector3<f64>| vertex_overlap(&placed_a, &placed_b, n);
    let mut best = f64::INFINITY;
    for f in 0..a.num_faces() {
        best = best.min(overlap(&pose_a.transform_vector(&a.face_normal(f))));
    }
    for g in 0..b.num_faces() {
        best = best.min(overlap(&-pose_b.transform_vector(&b.face_normal(g))));
    }
    let directions = |p: &Polyhedron, pose: &Pose| -> Vec<[Vector3<f64>; 2]> {
        p.edges()
            .iter()
            .map(|e| {
                let span = (p.vertex(e.head()) - p.vertex(e.tail())).normalize();
                [
                    pose.transform_vector(&e.direction()),
                    pose.transform_vector(&span),
                ]
            })
            .collect()
    };
    let edges_b = directions(b, pose_b);
    for edge_a in directions(a, pose_a) {
        for edge_b in &edges_b {
            for k in 0..2 {
                let cross = edge_a[k].cross(&edge_b[k]);
                if cross.norm() > 1e-9 {
                    let n = cross.normalize();
                    best = best.min(overlap(&n)).min(overlap(&-n));
                }
            }
        }
    }
    best
}

/// The kernel's vertices of `p` placed at `pose` (world frame).
fn placed(p: &Polyhedron, pose: &Pose) -> Vec<Vector3<f64>> {
    p.vertices()
        .iter()
        .map(|v| pose.transform_point(v))
        .collect()
}

/// The overlap of two placed vertex sets along the unit `n` (A to B; negative: a gap): A's
/// highest vertex along `n` less B's lowest.
fn vertex_overlap(a: &[Vector3<f64>], b: &[Vector3<f64>], n: &Vector3<f64>) -> f64 {
    let high = a.iter().map(|v| n.dot(v)).fold(f64::NEG_INFINITY, f64::max);
    let low = b.iter().map(|v| n.dot(v)).fold(f64::INFINITY, f64::min);
    high - low
}

/// How far the largest gap reported in `answers` (those apart; world frame) lies above the gap of
/// the kernel's own vertices of `a` at `pose_a` and `b` at `pose_b` along its normal, in the
/// larger of the two hulls' tolerances; `0` when none lies above or none is apart. A gap is a
/// lower bound of the distance (the separating-axis theorem) only if the vertices show it.
pub(super) fn gap_above_own_vertices(
    a: &Polyhedron,
    pose_a: &Pose,
    b: &Polyhedron,
    pose_b: &Pose,
    answers: &[&Contact],
) -> f64 {
    let apart: Vec<&&Contact> = answers.iter().filter(|c| !c.touching).collect();
    if apart.is_empty() {
        return 0.0;
    }
    let (placed_a, placed_b) = (placed(a, pose_a), placed(b, pose_b));
    let hull = a.tolerance().max(b.tolerance());
    apart
        .iter()
        .map(|c| (c.separation + vertex_overlap(&placed_a, &placed_b, &c.normal)).max(0.0) / hull)
        .fold(0.0, f64::max)
}

/// The band and the depth tolerance of a pair (the solids' length unit): [`ROUGH_TOLERANCE`]
/// of the larger size, or [`HULL_TOLERANCES`] times the larger of the two hulls' construction
/// tolerances ([`Polyhedron::tolerance`]) where a hull was rebuilt at a coarser one, plus both
/// bodies' [`KernelBody::hull_excess`]: an input point the hull left out lies at most a tolerance
/// above each face plane, but beyond a sharp edge (the rim of a plate) that can put it farther
/// from the hull, and each body's support function, so the pair's depth or distance, then
/// differs from the input's by up to its excess.
pub(super) fn pair_tolerance(a: &KernelBody, b: &KernelBody) -> f64 {
    let hull = a.polyhedron().tolerance().max(b.polyhedron().tolerance());
    (ROUGH_TOLERANCE * a.size().max(b.size())).max(HULL_TOLERANCES * hull)
        + a.hull_excess
        + b.hull_excess
}

/// A hull's faces hold its vertices within two of its tolerances and the input points within
/// one above them ([`Polyhedron::PLANARITY_ALLOWANCE`], [`Polyhedron::OUTSIDE_ALLOWANCE`]); a
/// pair's answers are judged within four of the larger.
pub const HULL_TOLERANCES: f64 = 4.0;

/// Pairs per body of the pool (at least 16 bodies, at most 1024).
const PAIRS_PER_BODY: usize = 10;

/// Pairs per chunk of work (each chunk has its own seed, so the run is deterministic).
const CHUNK: usize = 256;

/// A log-uniform draw in `[lo, hi)`.
fn log_uniform(rng: &mut SceneRng, lo: f64, hi: f64) -> f64 {
    rng.random_range(lo.ln()..hi.ln()).exp()
}

/// A rough body: 4 to 40 points uniform in direction on an ellipsoid of semi-axes `r (1, c2,
/// c3)`, `r` in (0.5, 2), `c2` in (1e-2, 1) and `c3` in (1e-3, 1) log-uniform, turned by a
/// random rotation, then copies of up to 20 of them (at most [`BRUTEFORCE_MAX_POINTS`] points
/// in all), each moved by `r` times 1e-16 to 1e-6 (log-uniform) in a random direction. Draws the
/// reference rejects, or the kernel refuses as degenerate (counted in `refused`), are redrawn.
pub fn rough_body(rng: &mut SceneRng, refused: &mut u64) -> KernelBody {
    loop {
        let n = rng.random_range(4..=40);
        let radius = rng.random_range(0.5..2.0);
        let axes = Vector3::new(
            1.0,
            log_uniform(rng, 1e-2, 1.0),
            log_uniform(rng, 1e-3, 1.0),
        ) * radius;
        let turn = sampling::rotation(rng);
        let mut points: Vec<Vector3<f64>> = (0..n)
            .map(|_| turn * sampling::unit_vector(rng).component_mul(&axes))
            .collect();
        let copies = rng.random_range(1..=20).min(BRUTEFORCE_MAX_POINTS - n);
        for _ in 0..copies {
            let original = points[rng.random_range(0..n)];
            let shift = log_uniform(rng, 1e-16, 1e-6) * radius;
            points.push(original + sampling::unit_vector(rng) * shift);
        }
        let Ok(reference) = RefPolyhedron::from_points_bruteforce(&points) else {
            continue;
        };
        match KernelBody::try_new(reference) {
            Ok(body) => return body,
            Err(_) => *refused += 1,
        }
    }
}

/// What a run of pairs produced.
#[derive(Debug, Clone)]
struct Stats {
    pairs: u64,
    answers: u64,
    in_band: u64,
    mismatches: MustBeZero,
    penetrating: u64,
    depth: MaxError,
    depth_size: f64,
    hull_axes: MaxError,
    own_gap: MaxError,
    uncertified: MustBeZero,
}

impl Tally for Stats {
    fn merge(&mut self, o: &Stats) {
        self.pairs += o.pairs;
        self.answers += o.answers;
        self.in_band += o.in_band;
        self.mismatches.0 += o.mismatches.0;
        self.penetrating += o.penetrating;
        self.depth.absorb(&o.depth);
        self.depth_size = self.depth_size.max(o.depth_size);
        self.hull_axes.absorb(&o.hull_axes);
        self.own_gap.absorb(&o.own_gap);
        self.uncertified.0 += o.uncertified.0;
    }
}

impl Stats {
    fn new() -> Self {
        Stats {
            pairs: 0,
            answers: 0,
            in_band: 0,
            mismatches: MustBeZero::default(),
            penetrating: 0,
            depth: MaxError::within(1.0),
            depth_size: 0.0,
            hull_axes: MaxError::within(HULL_AXES_TOLERANCE),
            own_gap: MaxError::within(HULL_AXES_TOLERANCE),
            uncertified: MustBeZero::default(),
        }
    }

    /// Checks one pair, in both orders.
    fn check(&mut self, pool: &[KernelBody], rng: &mut SceneRng) {
        let p = pool_pair(rng, pool, -0.05..0.02);
        let (a, b) = (&pool[p.a], &pool[p.b]);
        let forward = collide(&a.shape, &p.pose_a, &b.shape, &p.pose_b, None);
        let backward = collide(&b.shape, &p.pose_b, &a.shape, &p.pose_a, None);
        let (Ok(forward), Ok(backward)) = (forward, backward) else {
            // An error on valid input is as wrong as a wrong verdict.
            self.mismatches.0 += 1;
            return;
        };
        let backward = backward.swapped();
        let size = a.size().max(b.size());
        let tolerance = pair_tolerance(a, b);
        let j = judge_within(
            &a.reference,
            &p.pose_a,
            &b.reference,
            &p.pose_b,
            &[&forward, &backward],
            tolerance,
            tolerance,
        );
        self.pairs += 1;
        self.answers += 2;
        self.in_band += j.in_band as u64;
        self.mismatches.0 += j.mismatches;
        self.uncertified.0 += j.uncertified;
        self.own_gap.add(gap_above_own_vertices(
            a.polyhedron(),
            &p.pose_a,
            b.polyhedron(),
            &p.pose_b,
            &[&forward, &backward],
        ));
        if let Some(sat) = j.penetration {
            let own = sat_over_hull_axes(a.polyhedron(), &p.pose_a, b.polyhedron(), &p.pose_b);
            let hull = a.polyhedron().tolerance().max(b.polyhedron().tolerance());
            for c in [&forward, &backward].into_iter().filter(|c| c.touching) {
                self.penetrating += 1;
                let error = (c.penetration - sat.depth).abs();
                self.depth.add(error / tolerance);
                self.depth_size = self.depth_size.max(error / size);
                self.hull_axes.add((c.penetration - own).max(0.0) / hull);
            }
        }
    }
}

/// Runs `pairs` pairs over all cores; the table and whether every check passed.
pub fn validate(options: &Options, pairs: usize) -> Outcome {
    let mut rng = sampling::rng(options.seed ^ 0x0072_6f75_6768);
    let mut refused = 0;
    let pool: Vec<KernelBody> = (0..(pairs / PAIRS_PER_BODY).clamp(16, 1024))
        .map(|_| rough_body(&mut rng, &mut refused))
        .collect();
    let merged = pool.iter().filter(|b| !b.same_vertices).count();
    let coarsened = pool
        .iter()
        .filter(|b| {
            let p = b.polyhedron();
            let (lo, hi) = p
                .vertices()
                .iter()
                .fold((p.vertex(0), p.vertex(0)), |(l, h), q| (l.inf(q), h.sup(q)));
            p.tolerance() > 2.0 * Polyhedron::RELATIVE_TOLERANCE * (hi - lo).norm()
        })
        .count();
    let excess = pool
        .iter()
        .map(|b| b.hull_excess / b.polyhedron().tolerance())
        .fold((0.0f64, 0usize), |(far, beyond), e| {
            (far.max(e), beyond + usize::from(e > 1.0))
        });
    let beyond = excess.1;
    let creased = pool
        .iter()
        .map(|b| b.polyhedron().creased_faces().len())
        .fold((0, 0), |(bodies, faces), n| {
            (bodies + usize::from(n > 0), faces + n)
        });
    let s = tallied(
        options,
        pairs.div_ceil(CHUNK),
        "polyhedra rough point clouds",
        Stats::new,
        |stats, k| {
            let seed =
                options.seed ^ (0x726f_7567 << 32) ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = sampling::rng(seed);
            for _ in 0..CHUNK.min(pairs - k * CHUNK) {
                stats.check(&pool, &mut rng);
            }
        },
    );
    let mut t = Table::new(
        format!(
            "Polyhedra (d): {} random pairs of {} rough point clouds (plates and needles of \
             aspect up to 1000, with near-duplicate points 1e-16 to 1e-6 of the size apart; \
             fresh poses, support-plane gap from -5 % to +2 % of the size), cold queries in both \
             orders against the SAT reference of the input points; band and depth tolerance \
             {ROUGH_TOLERANCE:.0e} of the size, or {HULL_TOLERANCES} hull tolerances for a hull \
             rebuilt at a coarser one (the hull merges within 1e-8 of its diagonal), plus the \
             distance of each body's farthest input point from its hull",
            s.pairs,
            pool.len()
        ),
        &["measure", "value", "required", "check"],
    );
    let passed = s.mismatches.0 == 0
        && s.depth.ok()
        && s.hull_axes.ok()
        && s.own_gap.ok()
        && s.uncertified.0 == 0;
    t.row(vec![
        "bodies whose hull dropped or merged input points (kernel refusals redrawn)".into(),
        format!("{merged} of {} ({refused} refused)", pool.len()),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "of which rebuilt at a coarser tolerance (faces not sound at the scheme's)".into(),
        coarsened.to_string(),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "bodies with creased faces (merged off their plane; the search also takes their exact \
         facets), bodies (faces)"
            .into(),
        format!("{} ({})", creased.0, creased.1),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "input points outside the kernel's hull (beyond a sharp edge): farthest / its hull's \
         tolerance; bodies with one beyond a tolerance"
            .into(),
        format!("{:.2}; {beyond}", excess.0),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        format!(
            "wrong verdicts or errors outside the band ({} answers)",
            s.answers
        ),
        s.mismatches.0.to_string(),
        "0".into(),
        verdict(s.mismatches.0 == 0),
    ]);
    t.row(vec![
        "pairs inside the band (not judged)".into(),
        s.in_band.to_string(),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        format!(
            "depth error / the pair's tolerance, max ({} penetrating answers)",
            s.penetrating
        ),
        format!("{:.2}", s.depth.max),
        "<= 1".into(),
        verdict(s.depth.ok()),
    ]);
    t.row(vec![
        "depth error / size, max".into(),
        sci(s.depth_size),
        String::new(),
        String::new(),
    ]);
    t.row(vec![
        "depth above the SAT over the kernel's own hull (its faces and edge pairs) / hull tolerance, max"
            .into(),
        sci(s.hull_axes.max),
        format!("<= {HULL_AXES_TOLERANCE}"),
        verdict(s.hull_axes.ok()),
    ]);
    t.row(vec![
        "gap above the kernel's own vertices' gap along the reported normal / hull tolerance, max"
            .into(),
        sci(s.own_gap.max),
        format!("<= {HULL_AXES_TOLERANCE}"),
        verdict(s.own_gap.ok()),
    ]);
    t.row(vec![
        "gaps reported above the exact distance (beyond the pair's tolerance)".into(),
        s.uncertified.0.to_string(),
        "0".into(),
        verdict(s.uncertified.0 == 0),
    ]);
    let mut report = t.render();
    report += &format!("\nrough point clouds: {}\n", verdict(passed));
    Outcome { report, passed }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bodies are what the section says: some merged by the kernel's hull, flat ones among
    /// them, and within the reference's point limit.
    #[test]
    fn rough_bodies_have_near_duplicates_and_flat_shapes() {
        let mut rng = sampling::rng(3);
        let mut refused = 0;
        let bodies: Vec<KernelBody> = (0..60)
            .map(|_| rough_body(&mut rng, &mut refused))
            .collect();
        assert!(bodies.iter().any(|b| !b.same_vertices));
        assert!(bodies
            .iter()
            .all(|b| b.reference.vertices.len() <= BRUTEFORCE_MAX_POINTS));
        let thinnest = bodies
            .iter()
            .map(|b| b.polyhedron().inner_radius() / b.polyhedron().bounding_radius())
            .fold(f64::INFINITY, f64::min);
        assert!(thinnest < 1e-2, "{thinnest}");
    }

    /// Two thousand pairs pass (a fast run of the section; before edge directions were checked
    /// against their faces' line, this run gave 8 wrong verdicts and a depth 2.5e-2 of the size
    /// off, and seeds 1, 3 and 4 failed as well).
    #[test]
    fn rough_point_clouds_pass_on_a_small_run() {
        let o = Options {
            pairs: 0,
            seed: 2,
            progress: false,
            figures: None,
        };
        let outcome = validate(&o, 2000);
        assert!(outcome.passed, "{}", outcome.report);
    }
}
