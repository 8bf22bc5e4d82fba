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
//! The same linear bound narrows the walk along an edge that is not skipped: where it is at least
//! `D` at one end and below at the other, only the part of the arc from the low end to where the
//! chord's bound reaches `D` can hold a cover below the bar, and the witness `y` is then also taken
//! as B's vertex lowest along the low end's face normal (where the bound is that face's own
//! overlap), which cuts the part further. When the part lies within a cap about that face normal
//! that B's map leaves free (the cell of that lowest vertex holds it: its angular distance to each
//! of the cell's great circles has sine `n_f . (u - v) / |u - v|` over the neighbours `u`), no
//! arc of B crosses it and the edge is done without walking. In a face-on-face contact the edges
//! of the contact face end there: their arcs start at the face's normal, where the bound is the
//! depth itself.
//!
//! Where the best cover so far is a crossing of one of A's edges with an edge of B, that edge's
//! arc needs no walk when both ends of B's edge are witnesses whose bounds leave below the bar
//! only an interval about the crossing that lies in those two vertices' cells of B's map
//! (`only_own_crossing`); a walk never evaluates the best cover again.
//!
//! The bounds are exact (a slack far above rounding keeps every cover within it of `D`), so the
//! search still returns the global minimum: in a DEM-like contact only the covers within a few
//! degrees of the contact normal are evaluated.

use super::ball_certificate::{vertex_ball_holds, vertex_ball_settles};
use super::flat_certificate::{is_smallest, verdict, InnerBalls, SidePast, Verdict, ROUNDING};
use super::pair::{arcs_cross_planes, Cover, EdgeOfA, Evaluated, PolyhedronPair};
use crate::narrow::float_order::ordered_key;
use crate::shapes::{GaussArc, Polyhedron};
use nalgebra::Vector3;
use std::cell::RefCell;

thread_local! {
    /// Per-thread scratch lists of the search (no allocation per query once warm).
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            faces: Vec::new(),
            witness_bounds_a: Vec::new(),
            witness_bounds_b: Vec::new(),
            edges_a: Vec::new(),
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
    /// The same for B's faces, with A's witness `x` in B's frame: only their smallest is used (the
    /// ball certificate); kept as A's are, which is faster than a gather that writes one list and
    /// not the other.
    witness_bounds_b: Vec<f64>,
    /// On a body A of many faces, gathered through its face-plane tree: A's edges that have a
    /// face whose witness bound was below the gather's level, in increasing order (the others are
    /// barred, module documentation).
    edges_a: Vec<usize>,
    /// B's edges whose overlap bound is below the bar (gathered on first need).
    reaching_b: Vec<ReachingEdge>,
}

/// Slack on the pruning bounds, relative to the pair's size and distance: covers whose bound is
/// within it of the best overlap are evaluated, so rounding in a bound never drops the minimum.
const PRUNE_SLACK: f64 = 1e-9;

/// Faces beyond which a body's faces are looked at through its face planes' tree instead of a
/// scan: the ball certificate of the best first cover is checked before the face gather
/// ([`Polyhedron::below_every_face_plane`]), which it saves when it holds, and the gather itself
/// visits only the faces whose witness bound is low ([`gather_faces_by_tree`]), and then only
/// their edges. On fewer faces the tree costs more than it saves (the cold random pairs of 4-60
/// vertices took 3 % longer with the first check on every body), and the gather's scan checks the
/// certificate on the way.
const MANY_FACES: usize = 128;

/// Where the support searches of the two bodies start: the previous answers. An index out of
/// range (as in [`Hints::NONE`], the default) is no hint: the first search of that body scans its
/// vertices ([`Polyhedron::support_vertex`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// A vertex of A.
    pub vertex_a: usize,
    /// A vertex of B.
    pub vertex_b: usize,
}

impl Hints {
    /// No hint for either body.
    pub const NONE: Hints = Hints {
        vertex_a: usize::MAX,
        vertex_b: usize::MAX,
    };
}

impl Default for Hints {
    fn default() -> Self {
        Hints::NONE
    }
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
    /// No cover yet: the witnesses are set from the first covers ([`Self::witness_best`])
    /// before any bound uses them.
    fn new(pair: &'p PolyhedronPair<'p>, slack: f64) -> Self {
        Running {
            pair,
            best: None,
            covers: 0,
            slack,
            bar: f64::INFINITY,
            witness_a: Vector3::zeros(),
            witness_a_in_b: Vector3::zeros(),
            witness_b: Vector3::zeros(),
        }
    }

    /// The witnesses from the best cover's own support vertices
    /// ([`PolyhedronPair::support_of`]).
    #[inline]
    fn witness_best(&mut self) {
        let Some(best) = self.best else {
            return;
        };
        let pair = self.pair;
        let (vertex_a, vertex_b) = pair.support_of(&best.cover);
        self.witness_a = pair.a.vertex(vertex_a);
        self.witness_a_in_b = pair.rotation_t * (self.witness_a - pair.translation);
        self.witness_b = pair.b_vertex(vertex_b);
    }

    /// Takes `candidate` into account, without updating the witnesses (the first covers of a
    /// search, which may settle it before any bound is taken: [`Self::witness_best`] follows);
    /// `true` when it separates the bodies (stop).
    #[inline]
    fn consider_unwitnessed(&mut self, candidate: Evaluated) -> bool {
        self.covers += 1;
        if self.best.map_or(true, |b| candidate.overlap < b.overlap) {
            self.best = Some(candidate);
            self.bar = candidate.overlap + self.slack;
        }
        candidate.overlap < 0.0
    }

    /// [`Self::consider`], and `true` also when `candidate` becomes the best and is certified
    /// the smallest ([`is_smallest`]): the search can stop.
    #[inline]
    fn consider_certified(&mut self, candidate: Evaluated, balls: &InnerBalls) -> bool {
        let improves = self.best.map_or(true, |b| candidate.overlap < b.overlap);
        self.consider(candidate) || (improves && is_smallest(self.pair, &candidate, balls))
    }

    /// Takes `candidate` into account; `true` when it separates the bodies (stop).
    #[inline]
    fn consider(&mut self, candidate: Evaluated) -> bool {
        let improves = self.best.map_or(true, |b| candidate.overlap < b.overlap);
        let separates = self.consider_unwitnessed(candidate);
        if improves {
            self.witness_best();
        }
        separates
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

    /// B's edge of the best cover so far, if it is an e-e cover of A's edge `i`.
    #[inline]
    fn best_crossing_of(&self, i: usize) -> Option<usize> {
        match self.best?.cover {
            Cover::EdgeEdge { edge_a, edge_b } if edge_a == i => Some(edge_b),
            _ => None,
        }
    }

    /// A's face of the best cover so far, if it is a v-f cover of A's face.
    #[inline]
    fn best_face_a(&self) -> Option<usize> {
        match self.best?.cover {
            Cover::FaceVertex { face_a, .. } => Some(face_a),
            _ => None,
        }
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

/// B's vertex lowest along the normal of one of A's faces ([`LowestUnderFaces`]).
#[derive(Clone, Copy)]
struct Lowest {
    /// A's face; `usize::MAX` for an empty slot.
    face: usize,
    /// B's vertex.
    vertex: usize,
    /// The vertex in A's frame.
    position: Vector3<f64>,
    /// [`LowestUnderFaces::cap`], NaN until asked for.
    cap: f64,
}

/// The vertices of B lowest along A's face normals found so far in one search, by face: a small
/// direct-mapped cache. The walk along each of A's edges starts under one of the edge's two
/// faces, which the neighbouring edges and the v-f covers share.
struct LowestUnderFaces {
    slots: [Lowest; 8],
}

impl LowestUnderFaces {
    fn new() -> Self {
        LowestUnderFaces {
            slots: [Lowest {
                face: usize::MAX,
                vertex: 0,
                position: Vector3::zeros(),
                cap: f64::NAN,
            }; 8],
        }
    }

    /// The slot of A's face `f`, filled by a support search from `hints.vertex_b` (which it
    /// updates) unless the face was asked for before.
    #[inline]
    fn get(&mut self, pair: &PolyhedronPair, f: usize, hints: &mut Hints) -> &mut Lowest {
        let slot = &mut self.slots[f % 8];
        if slot.face != f {
            let v = pair.b_lowest(&pair.a.face_normal(f), hints.vertex_b);
            *slot = Lowest {
                face: f,
                vertex: v,
                position: pair.b_vertex(v),
                cap: f64::NAN,
            };
            hints.vertex_b = v;
        }
        slot
    }

    /// The sine of the angular radius of a cap about the normal `n_f` of A's face `f` that lies
    /// in the cell of `-B`'s Gauss map of B's vertex `v` lowest along it ([`Self::get`]): the
    /// cell is `{n : n . (u - v) >= 0}` over `v`'s neighbours `u` (B is convex), and the angular
    /// distance of `n_f` from the great circle of neighbour `u` has sine `n_f . (u - v) / |u - v|`.
    /// No arc of B's map passes within it of `n_f`; zero or negative when `n_f` lies on a cell's
    /// boundary (a tie).
    #[inline]
    fn cap(&mut self, pair: &PolyhedronPair, f: usize, hints: &mut Hints) -> f64 {
        let slot = self.get(pair, f, hints);
        if slot.cap.is_nan() {
            let n = pair.rotation_t * pair.a.face_normal(f);
            slot.cap = cell_margin(pair.b, slot.vertex, &n);
        }
        slot.cap
    }

    /// The v-f cover of A's face `f` ([`PolyhedronPair::face_a_cover_placed`], with the lowest
    /// vertex's position kept here).
    #[inline]
    fn face_a_cover(&mut self, pair: &PolyhedronPair, f: usize, hints: &mut Hints) -> Evaluated {
        let lowest = self.get(pair, f, hints);
        pair.face_a_cover_placed(f, lowest.vertex, &lowest.position)
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

/// What a face gather keeps of a body's faces: the other body's inner ball `(c, r)` in this
/// body's frame, the bar, the face already evaluated (`done`) and the index `base` of this
/// body's faces in the shared list.
#[derive(Clone, Copy)]
struct FaceBar {
    ball: (Vector3<f64>, f64),
    bar: f64,
    done: usize,
    base: usize,
}

impl FaceBar {
    /// Appends `(ordered_key(bound), base + f)` to `faces` for face `f` (offset `d`, normal `n`,
    /// witness bound `by_witness`) when its bound, the larger of its witness bound and the ball
    /// bound `d + r - n . c`, is below the bar, unless it is the face `done` (module
    /// documentation): the one rule of both gathers.
    #[inline(always)]
    fn keep(
        &self,
        f: usize,
        d: f64,
        n: &Vector3<f64>,
        by_witness: f64,
        faces: &mut Vec<(i64, usize)>,
    ) {
        let (centre, radius) = self.ball;
        let bound = (d + radius - n.dot(&centre)).max(by_witness);
        if bound < self.bar && f != self.done {
            faces.push((ordered_key(bound), self.base + f));
        }
    }
}

/// The v-f covers of `body`'s faces that may beat the bar, for the best-first face loop: for each
/// face `f` (normal `n_f`, offset `d_f`, in `body`'s frame) its witness bound `d_f - n_f . w` is
/// written to `witnessed[f]`, and the face is kept by `gate` ([`FaceBar::keep`]). Returns whether
/// every witness bound is at least `depth`: the witness lies that far below every face plane (a
/// running `and`, not a running minimum, whose latency would hold the loop back).
#[inline]
fn gather_faces(
    body: &Polyhedron,
    witness: &Vector3<f64>,
    gate: FaceBar,
    depth: f64,
    faces: &mut Vec<(i64, usize)>,
    witnessed: &mut Vec<f64>,
) -> bool {
    let (normals, offsets) = (body.face_normals(), body.face_offsets());
    witnessed.clear();
    witnessed.resize(normals.len(), 0.0);
    let mut below = true;
    for (f, ((n, &d), slot)) in normals
        .iter()
        .zip(offsets)
        .zip(witnessed.iter_mut())
        .enumerate()
    {
        let by_witness = d - n.dot(witness);
        *slot = by_witness;
        below &= by_witness >= depth;
        gate.keep(f, d, n, by_witness, faces);
    }
    below
}

/// [`gather_faces`] through `body`'s face planes' tree, for a body of many faces: the same faces
/// appended to `faces` (in the tree's order: the caller sorts them) and the same answer, from the
/// faces whose witness bound is below `level` only (`level` at least the bar and `depth`: every
/// other face is neither kept nor below `depth`), and no witness bound written. When `edges` is
/// given, the edges of those faces are appended to it (with repeats).
#[inline]
fn gather_faces_by_tree(
    body: &Polyhedron,
    witness: &Vector3<f64>,
    gate: FaceBar,
    depth: f64,
    level: f64,
    faces: &mut Vec<(i64, usize)>,
    mut edges: Option<&mut Vec<usize>>,
) -> bool {
    debug_assert!(level >= gate.bar && (depth.is_nan() || level >= depth));
    let (normals, offsets) = (body.face_normals(), body.face_offsets());
    // As the scan's running `and`: false for a NaN depth.
    let mut below = !depth.is_nan();
    body.each_face_below(witness, level, |f, by_witness| {
        below &= by_witness >= depth;
        gate.keep(f, offsets[f], &normals[f], by_witness, faces);
        if let Some(edges) = edges.as_deref_mut() {
            edges.extend_from_slice(body.face_edges(f));
        }
        true
    });
    below
}

/// Faces beyond which (up to [`MANY_FACES`]) a new pair's first face of a body is found by a
/// climb ([`first_face`]) rather than a scan of every face. On the bench's cold random pairs of
/// 4-60 vertices that took 6 % fewer instructions; on fewer faces the scan costs no more than the
/// climb's support search, and on the sliding pairs of 4-24 vertices (up to 44 faces) the climb
/// from 24 faces on took 0.6 % more.
const CLIMB_FACES: usize = 40;

/// The face of `body` whose v-f cover a new pair evaluates first: a face with a low ball bound
/// `d_f - n_f . c` (the other body's centre `c` in `body`'s frame; the radius is the same for all
/// faces), whose plane comes near to passing below the other body.
///
/// On a body of more than [`CLIMB_FACES`] faces and at most [`MANY_FACES`], it is not the lowest
/// of all but where a climb ends: from the faces at the body's vertex farthest towards `c` (its
/// support vertex along `c` less the centroid, searched from `hint`), through the faces across
/// their edges while the bound falls. That vertex becomes the body's `hint` when it had none, so
/// that the first support search of that body starts near the contact instead of scanning. On
/// other bodies it is the face of the lowest bound ([`lowest_ball_bound`]); beyond `MANY_FACES`
/// (found through the face planes' tree) a vertex of that face becomes the hint, in place of a
/// scan of up to `COLD_SCAN_LIMIT` vertices.
#[inline]
fn first_face(
    body: &Polyhedron,
    centre: &Vector3<f64>,
    many_faces: usize,
    hint: &mut usize,
) -> usize {
    let count = body.num_faces();
    if count <= CLIMB_FACES {
        return lowest_ball_bound(body, centre, many_faces);
    }
    if count > MANY_FACES {
        let face = lowest_ball_bound(body, centre, many_faces);
        if *hint >= body.num_vertices() {
            *hint = body.face_vertices(face)[0];
        }
        return face;
    }
    climb_to_first_face(body, centre, hint)
}

/// The climb of [`first_face`], out of line: the scan's path keeps the code it had.
#[inline(never)]
fn climb_to_first_face(body: &Polyhedron, centre: &Vector3<f64>, hint: &mut usize) -> usize {
    let vertex = body.support_vertex(&(centre - body.centroid()), *hint);
    if *hint >= body.num_vertices() {
        *hint = vertex;
    }
    let (normals, offsets) = (body.face_normals(), body.face_offsets());
    let bound = |f: usize| offsets[f] - normals[f].dot(centre);
    let lowest_of = |faces: &mut dyn Iterator<Item = usize>, start: (usize, f64)| {
        faces.fold(start, |best, f| {
            let b = bound(f);
            if b < best.1 {
                (f, b)
            } else {
                best
            }
        })
    };
    let faces = body.vertex_faces(vertex);
    let mut best = lowest_of(&mut faces.iter().copied(), (faces[0], bound(faces[0])));
    let edge_faces = body.edge_faces();
    loop {
        let across = &mut body.face_edges(best.0).iter().map(|&e| {
            let [left, right] = edge_faces[e];
            (if left as usize == best.0 { right } else { left }) as usize
        });
        let next = lowest_of(across, best);
        if next.0 == best.0 {
            return best.0;
        }
        best = next;
    }
}

/// The face of `body` with the lowest ball bound `d_f - n_f . c` (the other body's centre `c`
/// in `body`'s frame; the radius is the same for all faces): the plane that comes nearest to
/// passing below the other body. Through the face planes' tree on a body of many faces, with the
/// scan's answer.
fn lowest_ball_bound(body: &Polyhedron, centre: &Vector3<f64>, many_faces: usize) -> usize {
    if body.num_faces() > many_faces {
        return body.face_lowest_under(centre);
    }
    let mut best = 0;
    let mut best_bound = f64::INFINITY;
    for (f, (n, &d)) in body
        .face_normals()
        .iter()
        .zip(body.face_offsets())
        .enumerate()
    {
        let bound = d - n.dot(centre);
        if bound < best_bound {
            best_bound = bound;
            best = f;
        }
    }
    best
}

/// How the walk along one of A's edge arcs ended.
enum Walk {
    /// Every crossing of the walked piece of the arc was evaluated.
    Done,
    /// A crossing separates the bodies: the search stops.
    Separated,
    /// The walk met a degenerate corner of B's map (or did not reach its end): the caller tests
    /// the arc against B's edges one by one instead.
    Lost,
}

/// The piece of one of A's edge arcs that a walk covers: from one of its ends (`from_left`: the
/// left face's normal `n_L`, else the right's `n_R`) over the fraction `length` of its chord
/// (1 for the whole arc).
#[derive(Clone, Copy)]
struct Piece {
    from_left: bool,
    length: f64,
}

impl Piece {
    /// The part of an edge's arc where the witness bound may be below `bar`: the bound is linear
    /// along the chord `(1 - l) n_L + l n_R`, and the arc's point over it is no longer than the
    /// chord point (module documentation), so with `bar >= 0` the bound at the arc point is at
    /// least `(1 - l) bound_left + l bound_right`. `None` when that is at least `bar` over the
    /// whole arc; the whole arc when both ends are below it.
    #[inline]
    fn below_bar(bound_left: f64, bound_right: f64, bar: f64) -> Option<Self> {
        let (left_below, right_below) = (bound_left < bar, bound_right < bar);
        if bar < 0.0 || (left_below && right_below) {
            Some(Piece {
                from_left: true,
                length: 1.0,
            })
        } else if left_below {
            Some(Piece {
                from_left: true,
                length: (bar - bound_left) / (bound_right - bound_left),
            })
        } else if right_below {
            Some(Piece {
                from_left: false,
                length: (bar - bound_right) / (bound_left - bound_right),
            })
        } else {
            None
        }
    }

    /// The piece cut down by a second witness bound of the same arc, `bound_first` at the
    /// piece's first end and `bound_other` at the arc's other end: covers lie only where both
    /// bounds are below `bar`. `None` when nowhere on the piece.
    #[inline]
    fn narrowed(self, bound_first: f64, bound_other: f64, bar: f64) -> Option<Self> {
        if bar < 0.0 {
            return Some(self);
        }
        match (bound_first < bar, bound_other < bar) {
            (true, true) => Some(self),
            (true, false) => Some(Piece {
                length: self
                    .length
                    .min((bar - bound_first) / (bound_other - bound_first)),
                ..self
            }),
            (false, false) => None,
            (false, true) => {
                ((bound_first - bar) / (bound_first - bound_other) < self.length).then_some(self)
            }
        }
    }

    /// Whether the piece stays within the angle of sine `cap` (`< 1`) of its first end: the
    /// angle to the chord point `m` has sine `l |n_L x n_R| / |m|` and is below a right angle
    /// when `m . n_first > 0`.
    #[inline]
    fn within(&self, arc: &GaussArc, cap: f64) -> bool {
        if self.length >= 1.0 || cap <= 0.0 {
            return false;
        }
        let l = self.length;
        let (first, last) = if self.from_left {
            (&arc.start, &arc.end)
        } else {
            (&arc.end, &arc.start)
        };
        let m = first * (1.0 - l) + last * l;
        let across = l * l * arc.plane.norm_squared();
        m.dot(first) > 0.0 && across < cap * cap * m.norm_squared()
    }

    /// The piece of `edge`'s arc in B's frame, for the walk.
    #[inline]
    fn in_b(&self, edge: &EdgeOfA) -> ArcPiece {
        let l = self.length;
        if self.from_left {
            ArcPiece {
                from: edge.left,
                to: if l >= 1.0 {
                    edge.right
                } else {
                    edge.left * (1.0 - l) + edge.right * l
                },
                plane: edge.plane,
            }
        } else {
            ArcPiece {
                from: edge.right,
                to: edge.right * (1.0 - l) + edge.left * l,
                plane: -edge.plane,
            }
        }
    }
}

/// A [`Piece`] in B's frame: from `from` to `to`, `plane` a positive multiple of `from x to`.
struct ArcPiece {
    from: Vector3<f64>,
    to: Vector3<f64>,
    plane: Vector3<f64>,
}

impl ArcPiece {
    /// Whether it crosses the arc of B's edge `eb` on `-B`'s map ([`PolyhedronPair::arcs_cross`]).
    #[inline]
    fn crosses(&self, pair: &PolyhedronPair, eb: usize) -> bool {
        let arc = pair.b.edge_arc(eb);
        arcs_cross_planes(
            &self.from,
            &self.to,
            &self.plane,
            &-arc.start,
            &-arc.end,
            &arc.plane,
        )
    }
}

/// Where `n` (B's frame) lies against the cell of B's vertex `v` on `-B`'s Gauss map: the margin
/// of `-n` in the vertex's normal cone ([`Polyhedron::normal_cone_margin`]), at least 0 in the
/// cell (`v` lowest along `n`).
///
/// The walks and the caps decide cells this way, on the arcs they cross, not on the vertices'
/// heights: where an edge joins two near-duplicate vertices, the heights can make `v` lower
/// than all its neighbours along an `n` far outside its cell. A walk of a rough point cloud of
/// `validate --seed 27` started at such a vertex, lowest along the piece's first end by 1.9e-7
/// of the size, whose cell did not hold that end (margin -0.70); it met no arc of the cell, found
/// the vertex still lower than its neighbours at the piece's other end, and missed the crossing
/// that gave the depth (1.2e-3 of the size shallower than the search's answer).
#[inline]
fn cell_margin(b: &Polyhedron, v: usize, n: &Vector3<f64>) -> f64 {
    b.normal_cone_margin(&-n, v)
}

/// Whether `n` (B's frame, any length but 0) lies in the cell of B's vertex `v` on `-B`'s Gauss
/// map, to rounding ([`Polyhedron::in_normal_cone`]).
#[inline]
fn in_cell(b: &Polyhedron, v: usize, n: &Vector3<f64>) -> bool {
    b.in_normal_cone(&-n, v)
}

/// The chord parameters `[lo, hi]` of an arc (`(1 - l) start + l end`) where both linear bounds,
/// `(f_start, f_end)` and `(g_start, g_end)` at its ends, are below `bar`; `None` where nowhere.
#[inline]
fn below_both(f: (f64, f64), g: (f64, f64), bar: f64) -> Option<(f64, f64)> {
    // Where one linear bound is below the bar: all of [0, 1], a part at one end, or nothing.
    let below = |(at_start, at_end): (f64, f64)| match (at_start < bar, at_end < bar) {
        (true, true) => Some((0.0, 1.0)),
        (true, false) => Some((0.0, (bar - at_start) / (at_end - at_start))),
        (false, true) => Some(((at_start - bar) / (at_start - at_end), 1.0)),
        (false, false) => None,
    };
    let ((lo_f, hi_f), (lo_g, hi_g)) = (below(f)?, below(g)?);
    let (lo, hi) = (lo_f.max(lo_g), hi_f.min(hi_g));
    (lo <= hi).then_some((lo, hi))
}

/// Whether the best cover so far, the e-e cover of A's edge `i` and B's edge `j`, is the only
/// cover on `i`'s Gauss arc that may lie below `bar > 0` (beyond the paper's text): then `i` needs
/// no walk. The walk along `i` would mostly meet that crossing again, since its piece below the
/// bar reaches just past it.
///
/// Both ends `y0`, `y1` of `j` are witnesses: the overlap along a unit `n` is at least
/// `n . (x - y)` for A's point `x` (here `i`'s tail) and any point `y` of B, and over the arc this
/// is at least its value at the chord point, `(1 - l) b_start + l b_end`, where that is not
/// negative (module documentation). So covers below the bar lie where both bounds are, over a
/// chord interval `[lo, hi]` about the crossing. If the arc's ends over it lie strictly inside
/// the cells of `y0` and `y1` on `-B`'s Gauss map (one each) and the arc between them crosses `j`'s
/// arc strictly inside it, each half lies in one cell (cells are convex) and the only arc of B it
/// meets is `j`'s.
fn only_own_crossing(pair: &PolyhedronPair, i: usize, j: usize, bar: f64) -> bool {
    let (a, b) = (pair.a, pair.b);
    let arc = a.edge_arc(i);
    let x = a.vertex(a.edge(i).tail());
    let edge_b = b.edge(j);
    let (y0, y1) = (edge_b.tail(), edge_b.head());
    let (w0, w1) = (x - pair.b_vertex(y0), x - pair.b_vertex(y1));
    let Some((lo, hi)) = below_both(
        (arc.start.dot(&w0), arc.end.dot(&w0)),
        (arc.start.dot(&w1), arc.end.dot(&w1)),
        bar,
    ) else {
        return false;
    };
    // The interval's ends on the arc, in B's frame (positive multiples of the unit normals).
    let chord = |l: f64| pair.rotation_t * (arc.start * (1.0 - l) + arc.end * l);
    let (p, q) = (chord(lo), chord(hi));
    let in_cells = |first: usize, second: usize| {
        cell_margin(b, first, &p) > 0.0 && cell_margin(b, second, &q) > 0.0
    };
    let arc_j = b.edge_arc(j);
    (in_cells(y0, y1) || in_cells(y1, y0))
        && arcs_cross_planes(
            &p,
            &q,
            &p.cross(&q),
            &-arc_j.start,
            &-arc_j.end,
            &arc_j.plane,
        )
}

/// The crossings across the `side` of a v-f cover's face that its vertex lies past
/// ([`Verdict::PastSide`]): those of the side's edge with the vertex's edges, the entrance
/// polyhedron's facets across that side, each taken into account. `true` when one separates the
/// bodies or becomes the best and is certified the smallest (the search can stop).
fn step_across(
    pair: &PolyhedronPair,
    run: &mut Running,
    side: SidePast,
    balls: &InnerBalls,
) -> bool {
    match side {
        SidePast::OfA { edge, vertex_b } => {
            let edge_a = pair.a_edge(edge);
            pair.b.vertex_edges(vertex_b).iter().any(|&j| {
                pair.edge_cover(&edge_a, j)
                    .is_some_and(|e| run.consider_certified(e, balls))
            })
        }
        SidePast::OfB { vertex_a, edge } => pair.a.vertex_edges(vertex_a).iter().any(|&i| {
            pair.edge_cover(&pair.a_edge(i), edge)
                .is_some_and(|e| run.consider_certified(e, balls))
        }),
    }
}

/// The e-e covers of A's edge `edge` on the `piece` of its Gauss arc: its crossings with the arcs
/// of `-B`'s map, found by walking that map along the piece (an overlay of the two Gauss maps,
/// beyond the paper's text). The walk starts in the cell of `start`, B's vertex lowest along the
/// piece's first end, and leaves each cell through the one edge whose arc the piece crosses (cells
/// are convex, so a great arc enters and leaves each at most once), evaluating each crossing,
/// until it is in a cell that holds the piece's other end. Cells are decided on the arcs
/// ([`cell_margin`]); on a hull with leaning edges the heights may place `start`'s cell away from
/// the first end, and the walk is then lost at once (on other hulls the edges' directions are
/// their spans to rounding, and the lowest vertex's cell holds the end).
#[inline(never)]
fn walk_crossings(
    pair: &PolyhedronPair,
    edge: &EdgeOfA,
    piece: &ArcPiece,
    start: usize,
    run: &mut Running,
) -> Walk {
    let b = pair.b;
    // The walk crosses the cells' arcs: it must start in a cell that holds the piece's first end.
    if b.has_leaning_edges() && !in_cell(b, start, &piece.from) {
        return Walk::Lost;
    }
    let mut v = start;
    let mut entry = usize::MAX;
    for _ in 0..=b.num_edges() {
        let ring = b.vertex_edges(v);
        let Some(k) = ring
            .iter()
            .position(|&e| e != entry && piece.crosses(pair, e))
        else {
            // The piece ends in this cell, unless the walk lost its way (a tie at a corner).
            return if in_cell(b, v, &piece.to) {
                Walk::Done
            } else {
                Walk::Lost
            };
        };
        let e = ring[k];
        // The best cover so far is this crossing most often (a walk along its own edge, whose
        // piece below the bar reaches just past it): already considered, not evaluated again.
        let known = run.best.is_some_and(|b| {
            b.cover
                == Cover::EdgeEdge {
                    edge_a: edge.index,
                    edge_b: e,
                }
        });
        if !known {
            match pair.crossing_edge_cover(edge, e) {
                Some(cover) => {
                    if run.consider(cover) {
                        return Walk::Separated;
                    }
                }
                // Crossing but (near) parallel edges: no cover, the walk goes on.
                None => run.covers += 1,
            }
        }
        v = b.vertex_neighbours(v)[k] as usize;
        entry = e;
    }
    Walk::Lost
}

/// The smallest-overlap cover of the pair, or the first separating one.
///
/// `seed`: the previous step's cover (the updated detection of Zheng et al. 2017): evaluated
/// first, it makes the pruning bound tight at once; without it (the initial detection) a face of
/// A and a face of B with a low ball bound (module documentation; `first_face`) are evaluated
/// first.
pub fn search(pair: &PolyhedronPair, seed: Option<Cover>, hints: &mut Hints) -> Outcome {
    search_with(pair, seed, hints, MANY_FACES)
}

/// [`search`], with the face count beyond which a body's faces are looked at through its tree
/// (`usize::MAX`: never, as the tests compare).
#[inline(always)]
fn search_with(
    pair: &PolyhedronPair,
    seed: Option<Cover>,
    hints: &mut Hints,
    many_faces: usize,
) -> Outcome {
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
    let balls = InnerBalls::of(pair);
    let rounding = ROUNDING * balls.size;
    let mut run = Running::new(pair, PRUNE_SLACK * balls.size);

    // A's and B's faces already evaluated (as the seed or first), not to be evaluated again.
    let (mut done_a, mut done_b) = match seed {
        Some(Cover::FaceVertex { face_a, .. }) => (face_a, usize::MAX),
        Some(Cover::VertexFace { face_b, .. }) => (usize::MAX, face_b),
        _ => (usize::MAX, usize::MAX),
    };
    // The best cover so far may be certified the smallest by its own features, or the crossings
    // across the side of its face that its vertex lies past may be: the seed, or each of the
    // first two covers as it becomes the best.
    let settled = |run: &mut Running, cover: &Evaluated| match verdict(pair, cover, &balls) {
        Verdict::Smallest => true,
        Verdict::PastSide(side) => step_across(pair, run, side, &balls),
        Verdict::Open => false,
    };
    match seeded {
        Some(e) => {
            run.consider_unwitnessed(e);
            if settled(&mut run, &e) {
                return run.outcome();
            }
        }
        None => {
            // Faces with low ball bounds first: a tight bar early.
            done_a = first_face(a, &centre_b, many_faces, &mut hints.vertex_a);
            let cover_a = lowest.face_a_cover(pair, done_a, hints);
            if run.consider_unwitnessed(cover_a) || settled(&mut run, &cover_a) {
                return run.outcome();
            }
            done_b = first_face(b, &centre_a, many_faces, &mut hints.vertex_b);
            let cover_b = face_b_cover(pair, done_b, hints);
            let improves = run.best.map_or(true, |b| cover_b.overlap < b.overlap);
            if run.consider_unwitnessed(cover_b) || (improves && settled(&mut run, &cover_b)) {
                return run.outcome();
            }
        }
    }
    // The best of the seed or the first covers: already checked by the flat certificate (its side
    // stepped across, not to be again); its vertices are the witnesses.
    let first = run.best.expect("a cover was considered");
    // On a body of many faces, it may be certified the smallest by the ball about its vertex
    // before any pass over every face: from the faces whose planes pass near that vertex only.
    // (On fewer faces the gather below checks it for free.)
    let faces_of_its_face = match first.cover {
        Cover::FaceVertex { .. } => a.num_faces(),
        Cover::VertexFace { .. } => b.num_faces(),
        Cover::EdgeEdge { .. } => 0,
    };
    if faces_of_its_face > many_faces && vertex_ball_holds(pair, &first, rounding) {
        return run.outcome();
    }
    run.witness_best();

    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        // v-f covers, best first: the faces of A and B whose bound is below the bar, in
        // increasing order of their bounds, until a bound reaches the bar (which only falls).
        let faces = &mut scratch.faces;
        let witness_bounds_a = &mut scratch.witness_bounds_a;
        faces.clear();
        let count_a = a.num_faces();
        let (bar, ball_a, ball_b) = (run.bar, (centre_a, r_a), (centre_b, r_b));
        let (witness_a, witness_b) = (run.witness_a_in_b, run.witness_b);
        // That best cover, whose vertex is the witness, may be certified the smallest by the
        // ball about that vertex: the gather of its face's body tells whether the vertex lies at
        // least its overlap below every face plane (NaN for the other body: never).
        let depth = first.overlap - rounding;
        let (depth_a, depth_b) = match first.cover {
            Cover::FaceVertex { .. } => (depth, f64::NAN),
            Cover::VertexFace { .. } => (f64::NAN, depth),
            Cover::EdgeEdge { .. } => (f64::NAN, f64::NAN),
        };
        // How far below its face's plane a vertex of A may lie (a face's plane is the highest
        // over its vertices; merged faces are planar within two tolerances).
        let off_plane_a = 2.0 * a.tolerance();
        // A body of many faces through its tree (a bar that is not a number: the scan, whose
        // edge loop then bars no edge). A's edges that are not barred by their faces' witness
        // bounds at the bar plus `off_plane_a` (module documentation) are gathered with them.
        let tree_a = a.num_faces() > many_faces && bar >= 0.0;
        let gate_a = FaceBar {
            ball: ball_b,
            bar,
            done: done_a,
            base: 0,
        };
        let below_a = if tree_a {
            scratch.edges_a.clear();
            gather_faces_by_tree(
                a,
                &witness_b,
                gate_a,
                depth_a,
                (bar + off_plane_a).max(depth_a),
                faces,
                Some(&mut scratch.edges_a),
            )
        } else {
            gather_faces(a, &witness_b, gate_a, depth_a, faces, witness_bounds_a)
        };
        let gate_b = FaceBar {
            ball: ball_a,
            bar,
            done: done_b,
            base: count_a,
        };
        let below_b = if b.num_faces() > many_faces && bar >= 0.0 {
            gather_faces_by_tree(
                b,
                &witness_a,
                gate_b,
                depth_b,
                bar.max(depth_b),
                faces,
                None,
            )
        } else {
            let witnessed = &mut scratch.witness_bounds_b;
            gather_faces(b, &witness_a, gate_b, depth_b, faces, witnessed)
        };
        if (below_a || below_b) && vertex_ball_settles(pair, &first, rounding) {
            return;
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

        // A new best cover found among the faces may be certified the smallest, or the crossings
        // across the side its vertex lies past may be.
        if let Some(best) = run.best.filter(|b| b.cover != first.cover) {
            if settled(&mut run, &best) || vertex_ball_holds(pair, &best, rounding) {
                return;
            }
        }

        // e-e covers: the edges whose overlap bound is below the bar (module documentation),
        // then their crossing pairs.
        let edges_b = &mut scratch.reaching_b;
        edges_b.clear();
        let mut gathered = false;
        // On a body A of many faces, only the edges its gather kept, in increasing order as
        // the scan takes them: the bar has not risen since (it only falls) and is at least 0
        // (a negative one ends the search), so the scan bars every other one.
        let edges_a = &mut scratch.edges_a;
        if tree_a {
            edges_a.sort_unstable();
            edges_a.dedup();
        }
        let (normals_a, offsets_a) = (a.face_normals(), a.face_offsets());
        // The witness bound of A's face `f` at the gather, as the gather computed it.
        let witness_bound_a = |f: usize| {
            if tree_a {
                offsets_a[f] - normals_a[f].dot(&witness_b)
            } else {
                witness_bounds_a[f]
            }
        };
        let edge_count = if tree_a { edges_a.len() } else { a.num_edges() };
        let edge_faces_a = a.edge_faces();
        for i in (0..edge_count).map(|k| if tree_a { edges_a[k] } else { k }) {
            // With a positive bar, an edge whose two faces are both barred by the same witness
            // is barred too (module documentation).
            let [left, right] = edge_faces_a[i];
            if run.bar >= 0.0
                && witness_bound_a(left as usize) >= run.bar + off_plane_a
                && witness_bound_a(right as usize) >= run.bar + off_plane_a
            {
                continue;
            }
            let edge = a.edge(i);
            // The crossings on the part of this edge's arc where the witness bound is below the
            // bar, by walking B's Gauss map along it from the end where it is lowest; none when
            // the part lies in the cell where the walk starts.
            if run.bar > 0.0
                && run
                    .best_crossing_of(i)
                    .is_some_and(|j| only_own_crossing(pair, i, j, run.bar))
            {
                continue;
            }
            let tail = a.vertex(edge.tail());
            let arc = a.edge_arc(i);
            let to_witness = tail - run.witness_b;
            let Some(piece) = Piece::below_bar(
                arc.start.dot(&to_witness),
                arc.end.dot(&to_witness),
                run.bar,
            ) else {
                continue;
            };
            let (first_face, first, other) = if piece.from_left {
                (edge.left_face(), &arc.start, &arc.end)
            } else {
                (edge.right_face(), &arc.end, &arc.start)
            };
            // The edges of the best cover's face, when it is a face of A (whose arcs start at its
            // normal): the witness is already the vertex lowest under that face, so narrowing
            // cannot shorten the piece and the cap test comes first; it settles most of them.
            if run.best_face_a() == Some(first_face)
                && piece.within(arc, lowest.cap(pair, first_face, hints))
            {
                continue;
            }
            if !arc.max_dot_exceeds(&(centre_b - tail), r_b - run.bar) {
                continue;
            }
            // B's vertex lowest along the first end's normal, where the walk starts, is the
            // tightest witness there: the bound equals that face's own overlap.
            let start = *lowest.get(pair, first_face, hints);
            let to_start = tail - start.position;
            let Some(piece) = piece.narrowed(first.dot(&to_start), other.dot(&to_start), run.bar)
            else {
                continue;
            };
            if piece.within(arc, lowest.cap(pair, first_face, hints))
                || !run.edge_a_may_beat(i, &tail)
            {
                continue;
            }
            let start = start.vertex;
            let edge_in_b = pair.a_edge(i);
            match walk_crossings(pair, &edge_in_b, &piece.in_b(&edge_in_b), start, &mut run) {
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
            for reaching in edges_b.iter() {
                if reaching.reach <= r_a - run.bar {
                    continue;
                }
                run.covers += 1;
                if let Some(e) = pair.edge_cover(&edge_in_b, reaching.edge) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::Pose;
    use nalgebra::UnitQuaternion;

    #[test]
    fn the_face_planes_trees_change_no_outcome() {
        // Rounded hulls and a prism of many faces (either body, or both) in light contact, deeper
        // and just apart, along a turning sequence, cold and seeded with the last best cover:
        // the search through the trees evaluates the same covers and ends on the same best, bit
        // for bit, as the search that scans every face.
        use super::super::tests::rounded_body;
        let (big, other_big, small) = (
            rounded_body(5, 120),
            rounded_body(6, 90),
            rounded_body(7, 12),
        );
        // A prism of 150 sides: two caps of 150 edges among its faces.
        let prism: Vec<Vector3<f64>> = (0..300)
            .map(|k| {
                let angle = (k / 2) as f64 * std::f64::consts::TAU / 150.0;
                Vector3::new(0.6 * angle.cos(), 0.6 * angle.sin(), [-0.4, 0.4][k % 2])
            })
            .collect();
        let prism = Polyhedron::new(&prism).unwrap();
        for body in [&big, &other_big, &prism] {
            assert!(body.num_faces() > MANY_FACES, "{}", body.num_faces());
        }
        assert!(small.num_faces() <= MANY_FACES);
        let mut tree_covers = 0;
        for (a, b) in [
            (&big, &other_big),
            (&big, &small),
            (&small, &big),
            (&prism, &prism),
            (&prism, &big),
        ] {
            let mut seed = None;
            for step in 0..30 {
                let t = step as f64 * 0.07;
                let rotation = UnitQuaternion::from_scaled_axis(Vector3::new(0.3 + t, -0.2, 0.1));
                let u = Vector3::new(t.cos(), 0.3, t.sin()).normalize();
                let pa = a.support_point(&u);
                let pb = rotation * b.support_point(&(rotation.inverse() * -u));
                let overlap = [0.004, 0.03, -0.002][step % 3];
                let rel = Pose::new(pa - u * overlap - pb, rotation);
                let pair = PolyhedronPair::new(a, b, &rel);
                for start in [None, seed] {
                    let (mut hints_tree, mut hints_scan) = (Hints::NONE, Hints::NONE);
                    let tree = search_with(&pair, start, &mut hints_tree, MANY_FACES);
                    let scan = search_with(&pair, start, &mut hints_scan, usize::MAX);
                    assert_eq!(tree.best.cover, scan.best.cover, "step {step}");
                    assert_eq!(tree.best.overlap.to_bits(), scan.best.overlap.to_bits());
                    assert_eq!(tree.covers, scan.covers, "step {step}");
                    assert_eq!(hints_tree, hints_scan, "step {step}");
                    assert_eq!(tree.best.overlap > 0.0, overlap > 0.0, "step {step}");
                    tree_covers += tree.covers;
                }
                seed = Some(search(&pair, seed, &mut Hints::default()).best.cover);
            }
        }
        assert!(tree_covers > 0);
    }

    #[test]
    fn a_first_face_found_by_a_climb_has_no_lower_face_across_its_edges() {
        // Rounded bodies of 41 to 128 faces, the other body's centre all around them: the climb
        // ends on a face whose ball bound no face across its edges beats, never above the bound of
        // every face at the support vertex towards the centre (where it starts), and that vertex
        // becomes the hint when there was none; a hint given is kept. Bodies of other face
        // counts take the face of the lowest bound.
        use super::super::tests::rounded_body;
        let bodies = [
            rounded_body(3, 30),
            rounded_body(4, 40),
            rounded_body(5, 60),
        ];
        let faces: Vec<usize> = bodies.iter().map(|b| b.num_faces()).collect();
        assert!(
            faces.iter().all(|&n| n > CLIMB_FACES && n <= MANY_FACES),
            "{faces:?}"
        );
        for body in &bodies {
            let bound =
                |f: usize, c: &Vector3<f64>| body.face_offset(f) - body.face_normal(f).dot(c);
            for k in 0..200 {
                let t = k as f64 * 0.37;
                let direction = Vector3::new(t.cos() * (0.5 * t).sin(), t.sin(), (0.5 * t).cos());
                let centre = body.centroid() + direction * (1.5 + 0.01 * k as f64);
                let mut hint = usize::MAX;
                let f = first_face(body, &centre, MANY_FACES, &mut hint);
                let vertex = body.support_vertex(&(centre - body.centroid()), usize::MAX);
                assert_eq!(hint, vertex, "{k}");
                let edge_faces = body.edge_faces();
                for &e in body.face_edges(f) {
                    for g in edge_faces[e] {
                        assert!(bound(g as usize, &centre) >= bound(f, &centre), "{k}");
                    }
                }
                let at_start = body
                    .vertex_faces(vertex)
                    .iter()
                    .map(|&g| bound(g, &centre))
                    .fold(f64::INFINITY, f64::min);
                assert!(bound(f, &centre) <= at_start, "{k}");
                let mut given = 7;
                first_face(body, &centre, MANY_FACES, &mut given);
                assert_eq!(given, 7);
            }
        }
        // Beyond MANY_FACES: the face of the lowest bound (through the tree), and one of its
        // vertices as the hint.
        let big = rounded_body(6, 200);
        assert!(big.num_faces() > MANY_FACES);
        let centre = Vector3::new(2.0, 0.5, -0.3);
        let mut hint = usize::MAX;
        let f = first_face(&big, &centre, MANY_FACES, &mut hint);
        assert_eq!(f, lowest_ball_bound(&big, &centre, usize::MAX));
        assert!(big.face_vertices(f).contains(&hint));
        let cube = super::super::tests::cuboid(0.5, 0.5, 0.5);
        let centre = Vector3::new(0.3, -2.0, 0.4);
        let mut hint = usize::MAX;
        let f = first_face(&cube, &centre, MANY_FACES, &mut hint);
        assert_eq!(f, lowest_ball_bound(&cube, &centre, MANY_FACES));
        assert_eq!(hint, usize::MAX);
        assert!(cube.face_normal(f).y < -0.99);
    }

    #[test]
    fn both_bounds_are_below_the_bar_between_where_each_crosses_it() {
        // f rises from 0 to 4 (below 1 up to l = 1/4), g falls from 4 to 0 (below 1 from 3/4).
        assert_eq!(below_both((0.0, 4.0), (4.0, 0.0), 1.0), None);
        // f below 1.5 up to l = 3/4, g from l = 1/4.
        assert_eq!(below_both((0.0, 2.0), (2.0, 0.0), 1.5), Some((0.25, 0.75)));
        // Both below everywhere, or one nowhere.
        assert_eq!(below_both((0.0, 0.5), (0.2, 0.1), 1.0), Some((0.0, 1.0)));
        assert_eq!(below_both((0.0, 0.5), (1.0, 2.0), 1.0), None);
    }

    /// Two unit cubes with crossing edges (A's along x on top, B's along y below), B lowered
    /// into A by `depth` and turned by `twist` about the vertical.
    fn crossing_cubes(depth: f64, twist: f64) -> (Polyhedron, Pose) {
        let mut pts = Vec::new();
        for x in [-0.5, 0.5] {
            for y in [-0.5, 0.5] {
                for z in [-0.5, 0.5] {
                    pts.push(Vector3::new(x, y, z));
                }
            }
        }
        let cube = Polyhedron::new(&pts).unwrap();
        let quarter = std::f64::consts::FRAC_PI_4;
        let a = Pose::new(
            Vector3::zeros(),
            UnitQuaternion::from_scaled_axis(Vector3::new(quarter, 0.0, 0.0)),
        );
        let b = Pose::new(
            Vector3::new(0.0, 0.0, std::f64::consts::SQRT_2 - depth),
            UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, twist))
                * UnitQuaternion::from_scaled_axis(Vector3::new(0.0, quarter, 0.0)),
        );
        (cube, a.relative(&b))
    }

    #[test]
    fn a_crossing_is_alone_on_its_edge_below_the_bar() {
        let (cube, rel) = crossing_cubes(0.01, 0.2);
        let pair = PolyhedronPair::new(&cube, &cube, &rel);
        let best = search(&pair, None, &mut Hints::default()).best;
        let Cover::EdgeEdge { edge_a, edge_b } = best.cover else {
            panic!("{best:?}");
        };
        assert!((best.overlap - 0.01).abs() < 1e-12);
        // The search's own bar, and a loose one: A's edge crosses no other arc of B's map (B's
        // bottom edge's two cells hold A's whole arc).
        assert!(only_own_crossing(
            &pair,
            edge_a,
            edge_b,
            best.overlap + 1e-9
        ));
        assert!(only_own_crossing(&pair, edge_a, edge_b, 0.5));
        // An edge of B whose arc A's arc does not cross settles nothing.
        let other = (0..cube.num_edges())
            .find(|&e| e != edge_b && !pair.arcs_cross(&pair.a_edge(edge_a), e))
            .unwrap();
        assert!(!only_own_crossing(
            &pair,
            edge_a,
            other,
            best.overlap + 1e-9
        ));
    }

    #[test]
    fn a_cold_crossing_is_found_across_the_side_a_vertex_lies_past() {
        // B stands on a vertex just past A's top edge (x = 0.5), turned about the vertical and
        // sunk 0.03: the first face covers' vertex lies past that edge, the crossing of the edge
        // with one of the vertex's edges is the answer, found there and certified without the
        // edge loop (which takes one cover more).
        let cube = crossing_cubes(0.01, 0.2).0;
        let standing = crate::narrow::fast_direct_search::tests::corner_down();
        let turn = UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, 0.5)) * standing;
        let height = 0.5 + 0.75f64.sqrt() - 0.03;
        let rel = Pose::new(Vector3::new(0.51, 0.0, height), turn);
        let pair = PolyhedronPair::new(&cube, &cube, &rel);
        let outcome = search(&pair, None, &mut Hints::default());
        let (depth, _) = crate::narrow::fast_direct_search::tests::sat(&cube, &cube, &rel);
        assert!(matches!(outcome.best.cover, Cover::EdgeEdge { .. }));
        assert!(
            (outcome.best.overlap - depth).abs() < 1e-12,
            "{outcome:?} vs {depth}"
        );
        assert!(outcome.covers <= 3, "{outcome:?}");
    }

    #[test]
    fn a_warm_crossing_is_settled_by_its_seed_and_the_faces_near_it() {
        // The crossing found cold, then a step later (B twisted 1e-3 rad further): the warm search
        // evaluates its seed and the two face covers whose bounds reach the bar, no crossing.
        let (cube, rel) = crossing_cubes(0.01, 0.2);
        let pair = PolyhedronPair::new(&cube, &cube, &rel);
        let seed = search(&pair, None, &mut Hints::default()).best.cover;
        let (_, moved) = crossing_cubes(0.01, 0.201);
        let pair = PolyhedronPair::new(&cube, &cube, &moved);
        let (vertex_a, vertex_b) = pair.support_of(&seed);
        let warm = search(&pair, Some(seed), &mut Hints { vertex_a, vertex_b });
        let cold = search(&pair, None, &mut Hints::default());
        assert_eq!(warm.best.cover, seed);
        assert_eq!(warm.best.overlap, cold.best.overlap);
        assert!(warm.covers <= 3, "{warm:?}");
    }

    #[test]
    fn the_piece_below_the_bar_runs_from_the_low_end_to_where_the_chord_bound_meets_it() {
        // Left end 1 below the bar, right end 3 above: a quarter of the chord from the left.
        let p = Piece::below_bar(0.0, 4.0, 1.0).unwrap();
        assert!(p.from_left && (p.length - 0.25).abs() < 1e-15);
        // Mirrored: from the right.
        let p = Piece::below_bar(4.0, 0.0, 1.0).unwrap();
        assert!(!p.from_left && (p.length - 0.25).abs() < 1e-15);
        // Both ends below: the whole arc; both at or above: nothing.
        assert_eq!(Piece::below_bar(0.5, 0.9, 1.0).unwrap().length, 1.0);
        assert!(Piece::below_bar(1.0, 2.0, 1.0).is_none());
    }

    #[test]
    fn a_second_bound_cuts_the_piece_or_rules_it_out() {
        let whole = Piece {
            from_left: true,
            length: 1.0,
        };
        // Below at the first end, above at the other: cut to a tenth.
        let cut = whole.narrowed(0.0, 10.0, 1.0).unwrap();
        assert!((cut.length - 0.1).abs() < 1e-15);
        // Above at both ends: no cover on the piece.
        assert!(whole.narrowed(1.5, 2.0, 1.0).is_none());
        // Above at the first end, below past 3/4 of the chord: a piece of half the chord from
        // the first end holds no cover, a longer one may.
        let half = Piece {
            from_left: true,
            length: 0.5,
        };
        assert!(half.narrowed(4.0, 0.0, 1.0).is_none());
        assert!(whole.narrowed(4.0, 0.0, 1.0).is_some());
    }

    #[test]
    fn a_piece_is_within_a_cap_exactly_when_its_far_end_is() {
        // A quarter arc from x to y: the chord point at l has angle atan(l / (1 - l)) from x.
        let arc = GaussArc::new(&Vector3::x(), &Vector3::y());
        let piece = Piece {
            from_left: true,
            length: 0.1,
        };
        let angle = (0.1f64 / 0.9).atan();
        assert!(piece.within(&arc, (angle * 1.001).sin()));
        assert!(!piece.within(&arc, (angle * 0.999).sin()));
        // From the other end, the same.
        let back = Piece {
            from_left: false,
            length: 0.1,
        };
        assert!(back.within(&arc, (angle * 1.001).sin()));
        assert!(!back.within(&arc, (angle * 0.999).sin()));
        // The whole arc, or a cap of no size (a tie), is never within.
        let whole = Piece {
            from_left: true,
            length: 1.0,
        };
        assert!(!whole.within(&arc, 1.0));
        assert!(!piece.within(&arc, 0.0));
    }
}
