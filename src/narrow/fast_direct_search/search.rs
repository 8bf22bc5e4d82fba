//! The search over contact covers: the smallest overlap over the facets of the entrance
//! polyhedron `E = A + (-B)` is the minimum translation distance of a penetrating pair, and a cover
//! with a negative overlap proves a pair apart.
//!
//! Beyond the paper's text (which stops after the valid-entrance definitions): a cover can only
//! beat the best overlap `D` found so far if its plane is close to the centre line. `E` holds the
//! ball of radius `rho = r_A + r_B` (the bodies' inner balls about their centroids) centred at
//! `c_A - c_B`, so the overlap along any unit `n` is at least `rho - n . (c_B - c_A)`; a cover whose
//! normal has `n . w <= (rho - D) / |c_B - c_A|` (`w` the unit centre line A -> B) cannot beat `D`
//! and is skipped without being evaluated. Faces are filtered by their normal, edges by the
//! cap of their Gauss-map arc (`GaussArcCap`) (an e-e cover's normal lies on both arcs). The bound
//! is exact, so the search still returns the global minimum: in a DEM-like contact only the covers
//! within a few degrees of the contact normal are evaluated.

use super::pair::{BArc, Cover, Evaluated, PolyhedronPair};
use nalgebra::Vector3;
use std::cell::RefCell;

thread_local! {
    /// Per-thread scratch list of B's edges that reach above the pruning threshold.
    static REACHING_B: RefCell<Vec<ReachingEdge>> = const { RefCell::new(Vec::new()) };
}

/// Slack on the pruning threshold (a dot product of unit vectors): covers within it of the
/// threshold are evaluated, so rounding in the bound never drops the minimum.
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

/// The running minimum and the pruning bound.
struct Running {
    best: Option<Evaluated>,
    covers: u32,
    /// `rho` of the module documentation.
    rho: f64,
    /// `|c_B - c_A|`.
    distance: f64,
    /// Covers with `n . w` at or below this cannot beat `best`.
    threshold: f64,
}

impl Running {
    /// Takes `candidate` into account; `true` when it separates the bodies (stop).
    #[inline]
    fn consider(&mut self, candidate: Evaluated) -> bool {
        self.covers += 1;
        if self.best.map_or(true, |b| candidate.overlap < b.overlap) {
            self.best = Some(candidate);
            self.threshold = threshold(self.rho, self.distance, candidate.overlap);
        }
        candidate.overlap < 0.0
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            best: self.best.expect("the search evaluates at least one cover"),
            covers: self.covers,
        }
    }
}

/// One of B's edges whose arc reaches above the pruning threshold.
struct ReachingEdge {
    /// The edge.
    edge: usize,
    /// The largest `n . w` over its arc.
    reach: f64,
    /// Its arc on the Gauss map of `-B`, in A's frame.
    arc: BArc,
}

/// The pruning threshold on `n . w` for the best overlap `d` (module documentation).
#[inline]
fn threshold(rho: f64, distance: f64, d: f64) -> f64 {
    let t = (rho - d) / distance;
    if t.is_nan() {
        // Concentric centroids: every overlap is at least rho.
        if rho > d {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    } else {
        t - PRUNE_SLACK
    }
}

/// The cover `seed` (a previous step's) evaluated for the current placement, if it is still a
/// valid entrance (an e-e pair whose arcs no longer cross is not).
fn evaluate(pair: &PolyhedronPair, seed: Cover, hints: &mut Hints) -> Option<Evaluated> {
    match seed {
        Cover::FaceVertex { face_a, .. } if face_a < pair.a.num_faces() => {
            let e = pair.face_a_cover(face_a, hints.vertex_b);
            if let Cover::FaceVertex { vertex_b, .. } = e.cover {
                hints.vertex_b = vertex_b;
            }
            Some(e)
        }
        Cover::VertexFace { face_b, .. } if face_b < pair.b.num_faces() => {
            let e = pair.face_b_cover(face_b, hints.vertex_a);
            if let Cover::VertexFace { vertex_a, .. } = e.cover {
                hints.vertex_a = vertex_a;
            }
            Some(e)
        }
        Cover::EdgeEdge { edge_a, edge_b }
            if edge_a < pair.a.num_edges() && edge_b < pair.b.num_edges() =>
        {
            pair.edge_cover(edge_a, edge_b, &BArc::new(pair, edge_b))
        }
        _ => None,
    }
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
fn walk_crossings(pair: &PolyhedronPair, i: usize, hints: &mut Hints, run: &mut Running) -> Walk {
    let (a, b) = (pair.a, pair.b);
    let edge = a.edge(i);
    let (n_l, n_r) = (
        a.face_normal(edge.left_face()),
        a.face_normal(edge.right_face()),
    );
    let plane = a.edge_cap(i).plane;
    let mut v = pair.b_lowest(&n_l, hints.vertex_b);
    let target = pair.b_lowest(&n_r, v);
    hints.vertex_b = v;
    let mut entry = usize::MAX;
    for _ in 0..=b.num_edges() {
        if v == target {
            return Walk::Done;
        }
        let mut exit = None;
        for &e in b.vertex_edges(v) {
            if e == entry {
                continue;
            }
            let arc = BArc::new(pair, e);
            if super::pair::arcs_cross_planes(&n_l, &n_r, &plane, &arc.left, &arc.right, &arc.plane)
            {
                exit = Some((e, arc));
                break;
            }
        }
        let Some((e, arc)) = exit else {
            return Walk::Lost;
        };
        match pair.edge_cover(i, e, &arc) {
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
    let seeded = seed.and_then(|s| evaluate(pair, s, hints));
    if let Some(e) = seeded {
        if e.overlap < 0.0 {
            return Outcome { best: e, covers: 1 };
        }
    }
    let centre_b = pair.rotation * b.centroid() + pair.translation;
    let offset = centre_b - a.centroid();
    let distance = offset.norm();
    let w = if distance > 0.0 {
        offset / distance
    } else {
        Vector3::x()
    };
    // B's normals m enter as axes -R m: n . w = m . w_b.
    let w_b = -(pair.rotation.transpose() * w);
    let mut run = Running {
        best: None,
        covers: 0,
        rho: a.inner_radius() + b.inner_radius(),
        distance,
        threshold: f64::NEG_INFINITY,
    };

    match seeded {
        Some(e) => {
            run.consider(e);
        }
        None => {
            let f = most_aligned(a.num_faces(), |f| a.face_normal(f), &w);
            let e = pair.face_a_cover(f, hints.vertex_b);
            if run.consider(e) {
                return run.outcome();
            }
            let g = most_aligned(b.num_faces(), |g| b.face_normal(g), &w_b);
            if run.consider(pair.face_b_cover(g, hints.vertex_a)) {
                return run.outcome();
            }
        }
    }

    // v-f covers: A's faces, then B's.
    for f in 0..a.num_faces() {
        if a.face_normal(f).dot(&w) > run.threshold {
            let e = pair.face_a_cover(f, hints.vertex_b);
            if let Cover::FaceVertex { vertex_b, .. } = e.cover {
                hints.vertex_b = vertex_b;
            }
            if run.consider(e) {
                return run.outcome();
            }
        }
    }
    for g in 0..b.num_faces() {
        if b.face_normal(g).dot(&w_b) > run.threshold {
            let e = pair.face_b_cover(g, hints.vertex_a);
            if let Cover::VertexFace { vertex_a, .. } = e.cover {
                hints.vertex_a = vertex_a;
            }
            if run.consider(e) {
                return run.outcome();
            }
        }
    }

    // e-e covers: the edges whose arcs reach above the threshold (bounded by the caps of their
    // arcs), then their crossing pairs. B's reaching edges are gathered once, on first need, in a
    // per-thread scratch list (no allocation per query once warm).
    REACHING_B.with(|cell| {
        let mut edges_b = cell.borrow_mut();
        edges_b.clear();
        let mut gathered = false;
        for i in 0..a.num_edges() {
            if a.edge_cap(i).reach(&w) <= run.threshold {
                continue;
            }
            // The crossings of this edge's arc, by walking B's Gauss map along it.
            match walk_crossings(pair, i, hints, &mut run) {
                Walk::Separated => return,
                Walk::Done => continue,
                Walk::Lost => {}
            }
            // A degenerate walk (the arc through a corner of B's map): every reaching edge of B.
            if !gathered {
                gathered = true;
                for j in 0..b.num_edges() {
                    let reach = b.edge_cap(j).reach(&w_b);
                    if reach > run.threshold {
                        edges_b.push(ReachingEdge {
                            edge: j,
                            reach,
                            arc: BArc::new(pair, j),
                        });
                    }
                }
            }
            for reaching in edges_b.iter() {
                if reaching.reach <= run.threshold {
                    continue;
                }
                run.covers += 1;
                if let Some(e) = pair.edge_cover(i, reaching.edge, &reaching.arc) {
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
