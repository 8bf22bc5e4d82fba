//! The search over contact covers: the smallest overlap over the facets of the entrance
//! polyhedron `E = A + (-B)` is the minimum translation distance of a penetrating pair, and a cover
//! with a negative overlap proves a pair apart.
//!
//! Beyond the paper's text (which stops after the valid-entrance definitions): a cover can only
//! beat the best overlap `D` found so far if a lower bound of its overlap is below `D`; covers
//! whose bound is not are skipped without being evaluated. Each body holds the ball of its inner
//! radius `r` about its centroid `c`, so its extent along a unit `n` is at least `n . c + r`; the
//! other body's extent along a feature's own directions is exact. Hence, in A's frame:
//!
//! * A's face `f` (normal `n_f`, offset `d_f`) against B's lowest vertex: overlap at least
//!   `d_f + r_B - n_f . c_B`; B's faces likewise, in B's frame, with A's ball.
//! * An e-e cover of A's edge `i` (normal `n` on the edge's Gauss arc, where A's extent is
//!   `n . x_i` for the edge's tail `x_i`): overlap at least `r_B - n . (c_B - x_i)`, so the edge
//!   is skipped when the largest `n . (c_B - x_i)` over its arc (`GaussArc::max_dot`) is at most
//!   `r_B - D`; B's edges likewise with A's ball.
//!
//! A second bound of each kind comes from the support vertices of the best cover so far (the
//! witnesses `x` of A and `y` of B): a body's extent along any `n` is at least that of any of its
//! vertices, so A's face `f` has overlap at least `d_f - n_f . y`, and A's edge `i` at least
//! `-n . (y - x_i)` over its arc; B's features likewise with `x`. Near the contact normal, where
//! the inner balls say little, these are nearly the exact overlaps. The faces are evaluated best
//! first, in increasing order of their bounds, so the bar falls early.
//!
//! Most edges are then skipped without touching their vertices: `-n . (y - x_i)` is linear in
//! `n`, and a point `n` of the arc is `(s n_L + t n_R) / |s n_L + t n_R|` with `s, t >= 0` and a
//! denominator at most `s + t`; so where the bound is at least a bar `D >= 0` at both of the
//! edge's face normals (where it is the faces' own witness bound, `x_i` lying on both faces), it
//! is at least `D` over the whole arc.
//!
//! The bounds are exact (a slack far above rounding keeps every cover within it of `D`), so the
//! search still returns the global minimum: in a DEM-like contact only the covers within a few
//! degrees of the contact normal are evaluated.

use super::pair::{Cover, Evaluated, PolyhedronPair};
use nalgebra::Vector3;
use std::cell::RefCell;

thread_local! {
    /// Per-thread scratch lists of the search (no allocation per query once warm).
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            faces: Vec::new(),
            witness_bounds_a: Vec::new(),
            reaching_b: Vec::new(),
        })
    };
}

/// The search's scratch lists.
struct Scratch {
    /// The faces whose overlap bound is below the bar: `(ordered_key(bound), k)`, `k` a face of
    /// A, or `A's face count + g` for B's face `g`.
    faces: Vec<(i64, usize)>,
    /// `d_f - n_f . y` for every face `f` of A, with the witness `y` of B at the time the faces
    /// were gathered.
    witness_bounds_a: Vec<f64>,
    /// B's edges whose overlap bound is below the bar (gathered on first need).
    reaching_b: Vec<ReachingEdge>,
}

/// Slack on the pruning bounds, relative to the pair's size and distance: covers whose bound is
/// within it of the best overlap are evaluated, so rounding in a bound never drops the minimum.
const PRUNE_SLACK: f64 = 1e-9;

/// Where the support searches of the two bodies start: the previous answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    /// A vertex of A.
    pub vertex_a: usize,
    /// A vertex of B.
    pub vertex_b: usize,
}

/// What a search found.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    /// The cover of smallest overlap; when its overlap is negative the search stopped at this
    /// first separating cover (the pair is excluded) and it need not be the smallest.
    pub best: Evaluated,
    /// Covers evaluated, including e-e candidates whose valid-entrance check failed.
    pub covers: u32,
}

/// The running minimum, the pruning bar and the witness vertices of the bounds.
struct Running<'p> {
    pair: &'p PolyhedronPair<'p>,
    best: Option<Evaluated>,
    covers: u32,
    /// [`PRUNE_SLACK`] in lengths of the pair.
    slack: f64,
    /// Covers whose overlap bound (module documentation) is at or above this cannot beat `best`.
    bar: f64,
    /// A vertex of A (A's frame) and the same in B's frame, and a vertex of B (A's frame): the
    /// support vertices of the best cover so far (module documentation).
    witness_a: Vector3<f64>,
    witness_a_in_b: Vector3<f64>,
    witness_b: Vector3<f64>,
}

impl<'p> Running<'p> {
    /// No cover yet; the witnesses are A's vertex `vertex_a` and B's `vertex_b`.
    fn new(pair: &'p PolyhedronPair<'p>, slack: f64, vertex_a: usize, vertex_b: usize) -> Self {
        let mut run = Running {
            pair,
            best: None,
            covers: 0,
            slack,
            bar: f64::INFINITY,
            witness_a: Vector3::zeros(),
            witness_a_in_b: Vector3::zeros(),
            witness_b: Vector3::zeros(),
        };
        run.set_witnesses(vertex_a, vertex_b);
        run
    }

    #[inline]
    fn set_witnesses(&mut self, vertex_a: usize, vertex_b: usize) {
        let pair = self.pair;
        self.witness_a = pair.a.vertex(vertex_a);
        self.witness_a_in_b = pair.rotation_t * (self.witness_a - pair.translation);
        self.witness_b = pair.b_vertex(vertex_b);
    }

    /// Takes `candidate` into account; `true` when it separates the bodies (stop).
    #[inline]
    fn consider(&mut self, candidate: Evaluated) -> bool {
        self.covers += 1;
        if self.best.map_or(true, |b| candidate.overlap < b.overlap) {
            self.best = Some(candidate);
            self.bar = candidate.overlap + self.slack;
            let (va, vb) = self.pair.support_of(&candidate.cover);
            self.set_witnesses(va, vb);
        }
        candidate.overlap < 0.0
    }

    /// Whether the v-f cover of A's face `f` may beat the best: its overlap is at least
    /// `d_f - n_f . y` for B's witness `y`.
    #[inline]
    fn face_a_may_beat(&self, f: usize) -> bool {
        let a = self.pair.a;
        a.face_offset(f) - a.face_normal(f).dot(&self.witness_b) < self.bar
    }

    /// Whether the v-f cover of B's face `g` may beat the best: its overlap is at least
    /// `d_g - m_g . x` for A's witness `x` in B's frame.
    #[inline]
    fn face_b_may_beat(&self, g: usize) -> bool {
        let b = self.pair.b;
        b.face_offset(g) - b.face_normal(g).dot(&self.witness_a_in_b) < self.bar
    }

    /// Whether an e-e cover of A's edge `i` (tail `tail`) may beat the best: its overlap is at
    /// least `-n . (y - tail)` for B's witness `y`, over the edge's arc.
    #[inline]
    fn edge_a_may_beat(&self, i: usize, tail: &Vector3<f64>) -> bool {
        self.pair
            .a
            .edge_arc(i)
            .max_dot_exceeds(&(self.witness_b - tail), -self.bar)
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            best: self.best.expect("the search evaluates at least one cover"),
            covers: self.covers,
        }
    }
}

/// One of B's edges whose overlap bound is below the pruning bar.
struct ReachingEdge {
    /// The edge.
    edge: usize,
    /// The largest `m . (c_A - x_j)` over its arc (B's frame; module documentation).
    reach: f64,
}

/// The vertices of B lowest along A's face normals found so far in one search, by face: a small
/// direct-mapped cache. The walk along each of A's edges starts and ends under the edge's two
/// faces, which the neighbouring edges and the v-f covers share.
struct LowestUnderFaces {
    /// `(face, vertex)`; face `usize::MAX` for an empty slot.
    slots: [(usize, usize); 8],
}

impl LowestUnderFaces {
    fn new() -> Self {
        LowestUnderFaces {
            slots: [(usize::MAX, 0); 8],
        }
    }

    /// A vertex of B lowest along the normal of A's face `f`; a support search from
    /// `hints.vertex_b` (which it updates) unless the face was asked for before.
    #[inline]
    fn get(&mut self, pair: &PolyhedronPair, f: usize, hints: &mut Hints) -> usize {
        let slot = &mut self.slots[f % 8];
        if slot.0 != f {
            let v = pair.b_lowest(&pair.a.face_normal(f), hints.vertex_b);
            *slot = (f, v);
            hints.vertex_b = v;
        }
        slot.1
    }

    /// The v-f cover of A's face `f` ([`PolyhedronPair::face_a_cover`]).
    #[inline]
    fn face_a_cover(&mut self, pair: &PolyhedronPair, f: usize, hints: &mut Hints) -> Evaluated {
        let v = self.get(pair, f, hints);
        pair.face_a_cover(f, v)
    }
}

/// The cover `seed` (a previous step's) evaluated for the current placement, if it is still a
/// valid entrance (an e-e pair whose arcs no longer cross is not).
fn evaluate(
    pair: &PolyhedronPair,
    seed: Cover,
    hints: &mut Hints,
    lowest: &mut LowestUnderFaces,
) -> Option<Evaluated> {
    match seed {
        Cover::FaceVertex { face_a, .. } if face_a < pair.a.num_faces() => {
            Some(lowest.face_a_cover(pair, face_a, hints))
        }
        Cover::VertexFace { face_b, .. } if face_b < pair.b.num_faces() => {
            Some(face_b_cover(pair, face_b, hints))
        }
        Cover::EdgeEdge { edge_a, edge_b }
            if edge_a < pair.a.num_edges() && edge_b < pair.b.num_edges() =>
        {
            pair.edge_cover(&pair.a_edge(edge_a), edge_b)
        }
        _ => None,
    }
}

/// The v-f cover of B's face `g` ([`PolyhedronPair::face_b_cover`]), its support search started
/// from `hints.vertex_a`, which it updates.
#[inline]
fn face_b_cover(pair: &PolyhedronPair, g: usize, hints: &mut Hints) -> Evaluated {
    let e = pair.face_b_cover(g, hints.vertex_a);
    if let Cover::VertexFace { vertex_a, .. } = e.cover {
        hints.vertex_a = vertex_a;
    }
    e
}

/// An integer that orders as `x` does (`f64::total_cmp`'s order), for a cheap sort.
#[inline]
fn ordered_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// The face of `count` faces whose normal (given by `normal`) is most along `w`.
fn most_aligned(count: usize, normal: impl Fn(usize) -> Vector3<f64>, w: &Vector3<f64>) -> usize {
    let mut best = 0;
    let mut best_dot = f64::NEG_INFINITY;
    for f in 0..count {
        let d = normal(f).dot(w);
        if d > best_dot {
            best_dot = d;
            best = f;
        }
    }
    best
}

/// How the walk along one of A's edge arcs ended.
enum Walk {
    /// Every crossing of the arc was evaluated.
    Done,
    /// A crossing separates the bodies: the search stops.
    Separated,
    /// The walk met a degenerate corner of B's map (or did not reach its end): the caller tests
    /// the arc against B's edges one by one instead.
    Lost,
}

/// The e-e covers of A's edge `i`: the crossings of its Gauss arc `n_L -> n_R` with the arcs of
/// `-B`'s map, found by walking that map along the arc (an overlay of the two Gauss maps, beyond
/// the paper's text). The walk starts in the cell of B's vertex lowest along `n_L` and leaves each
/// cell through the one edge whose arc the A arc crosses (cells are convex, so a great arc enters
/// and leaves each at most once), evaluating each crossing, until it reaches the cell of B's
/// vertex lowest along `n_R`.
fn walk_crossings(
    pair: &PolyhedronPair,
    i: usize,
    hints: &mut Hints,
    lowest: &mut LowestUnderFaces,
    run: &mut Running,
) -> Walk {
    let b = pair.b;
    let edge = pair.a_edge(i);
    let mut v = lowest.get(pair, pair.a.edge(i).left_face(), hints);
    let target = lowest.get(pair, pair.a.edge(i).right_face(), hints);
    let mut entry = usize::MAX;
    for _ in 0..=b.num_edges() {
        if v == target {
            return Walk::Done;
        }
        let Some(&e) = b
            .vertex_edges(v)
            .iter()
            .find(|&&e| e != entry && pair.arcs_cross(&edge, e))
        else {
            return Walk::Lost;
        };
        match pair.crossing_edge_cover(&edge, e) {
            Some(cover) => {
                if run.consider(cover) {
                    return Walk::Separated;
                }
            }
            // Crossing but (near) parallel edges: no cover, the walk goes on.
            None => run.covers += 1,
        }
        v = b.edge(e).other_vertex(v);
        entry = e;
    }
    Walk::Lost
}

/// The smallest-overlap cover of the pair, or the first separating one.
///
/// `seed`: the previous step's cover (the updated detection of Zheng et al. 2017): evaluated
/// first, it makes the pruning bound tight at once; without it (the initial detection) the faces
/// of A and B most aligned with the centre line are evaluated first.
pub fn search(pair: &PolyhedronPair, seed: Option<Cover>, hints: &mut Hints) -> Outcome {
    let (a, b) = (pair.a, pair.b);
    // The previous step's cover first: a pair apart most often stays apart along it.
    let mut lowest = LowestUnderFaces::new();
    let seeded = seed.and_then(|s| evaluate(pair, s, hints, &mut lowest));
    if let Some(e) = seeded {
        if e.overlap < 0.0 {
            return Outcome { best: e, covers: 1 };
        }
    }
    // The centroids, each in the other body's frame.
    let centre_b = pair.rotation * b.centroid() + pair.translation;
    let centre_a = pair.rotation_t * (a.centroid() - pair.translation);
    let (r_a, r_b) = (a.inner_radius(), b.inner_radius());
    let size = a.bounding_radius() + b.bounding_radius() + pair.translation.norm();
    let mut run = Running::new(pair, PRUNE_SLACK * size, hints.vertex_a, hints.vertex_b);

    // A's and B's faces already evaluated (as the seed or first), not to be evaluated again.
    let (mut done_a, mut done_b) = match seed {
        Some(Cover::FaceVertex { face_a, .. }) => (face_a, usize::MAX),
        Some(Cover::VertexFace { face_b, .. }) => (usize::MAX, face_b),
        _ => (usize::MAX, usize::MAX),
    };
    match seeded {
        Some(e) => {
            run.consider(e);
        }
        None => {
            // The faces most aligned with the centre line first: a tight bar early.
            let w = centre_b - a.centroid();
            let w_b = centre_a - b.centroid();
            done_a = most_aligned(a.num_faces(), |f| a.face_normal(f), &w);
            if run.consider(lowest.face_a_cover(pair, done_a, hints)) {
                return run.outcome();
            }
            done_b = most_aligned(b.num_faces(), |g| b.face_normal(g), &w_b);
            if run.consider(face_b_cover(pair, done_b, hints)) {
                return run.outcome();
            }
        }
    }

    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        // v-f covers, best first: the faces of A and B whose bound is below the bar, in
        // increasing order of their bounds, until a bound reaches the bar (which only falls).
        let faces = &mut scratch.faces;
        let witness_bounds_a = &mut scratch.witness_bounds_a;
        faces.clear();
        witness_bounds_a.clear();
        let count_a = a.num_faces();
        for f in 0..count_a {
            let (n, d) = (a.face_normal(f), a.face_offset(f));
            let witnessed = d - n.dot(&run.witness_b);
            witness_bounds_a.push(witnessed);
            let bound = (d + r_b - n.dot(&centre_b)).max(witnessed);
            if bound < run.bar && f != done_a {
                faces.push((ordered_key(bound), f));
            }
        }
        for g in 0..b.num_faces() {
            let (m, d) = (b.face_normal(g), b.face_offset(g));
            let bound = (d + r_a - m.dot(&centre_a)).max(d - m.dot(&run.witness_a_in_b));
            if bound < run.bar && g != done_b {
                faces.push((ordered_key(bound), count_a + g));
            }
        }
        faces.sort_unstable();
        for &(bound, k) in faces.iter() {
            if bound >= ordered_key(run.bar) {
                break;
            }
            let e = if k < count_a {
                if !run.face_a_may_beat(k) {
                    continue;
                }
                lowest.face_a_cover(pair, k, hints)
            } else {
                if !run.face_b_may_beat(k - count_a) {
                    continue;
                }
                face_b_cover(pair, k - count_a, hints)
            };
            if run.consider(e) {
                return;
            }
        }

        // e-e covers: the edges whose overlap bound is below the bar (module documentation),
        // then their crossing pairs.
        let edges_b = &mut scratch.reaching_b;
        // How far below its face's plane a vertex of A may lie (a face's plane is the highest
        // over its vertices; merged faces are planar within two tolerances).
        let off_plane_a = 2.0 * a.tolerance();
        edges_b.clear();
        let mut gathered = false;
        for i in 0..a.num_edges() {
            let edge = a.edge(i);
            // With a positive bar, an edge whose two faces are both barred by the same witness
            // is barred too (module documentation).
            if run.bar >= 0.0
                && witness_bounds_a[edge.left_face()] >= run.bar + off_plane_a
                && witness_bounds_a[edge.right_face()] >= run.bar + off_plane_a
            {
                continue;
            }
            let tail = a.vertex(edge.tail());
            if !a
                .edge_arc(i)
                .max_dot_exceeds(&(centre_b - tail), r_b - run.bar)
                || !run.edge_a_may_beat(i, &tail)
            {
                continue;
            }
            // The crossings of this edge's arc, by walking B's Gauss map along it.
            match walk_crossings(pair, i, hints, &mut lowest, &mut run) {
                Walk::Separated => return,
                Walk::Done => continue,
                Walk::Lost => {}
            }
            // A degenerate walk (the arc through a corner of B's map): every reaching edge of B.
            if !gathered {
                gathered = true;
                for j in 0..b.num_edges() {
                    let tail = b.vertex(b.edge(j).tail());
                    let reach = b.edge_arc(j).max_dot(&(centre_a - tail));
                    if reach > r_a - run.bar {
                        edges_b.push(ReachingEdge { edge: j, reach });
                    }
                }
            }
            let edge = pair.a_edge(i);
            for reaching in edges_b.iter() {
                if reaching.reach <= r_a - run.bar {
                    continue;
                }
                run.covers += 1;
                if let Some(e) = pair.edge_cover(&edge, reaching.edge) {
                    run.covers -= 1;
                    if run.consider(e) {
                        return;
                    }
                }
            }
        }
    });
    run.outcome()
}
