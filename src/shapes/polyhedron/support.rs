//! Support mapping: the vertex farthest along a direction.

use super::Polyhedron;
use nalgebra::Vector3;

/// Up to this many vertices, the support search scans all vertices; above it, it climbs the
/// vertex graph from its hint.
pub(super) const BRUTE_FORCE_SUPPORT_LIMIT: usize = 32;

/// Up to this many vertices, a support search with no hint scans all vertices: a climb from an
/// arbitrary vertex crosses much of the body, one dependent and unpredictable step after another,
/// and takes longer than the scan's straight run of dot products (on random hulls of 48 to 256
/// vertices, 2x to 3x longer).
pub(super) const COLD_SCAN_LIMIT: usize = 1024;

impl Polyhedron {
    /// The index of a vertex farthest along `direction` (body frame; any length but 0).
    ///
    /// Up to 32 vertices, a scan of all vertices. Above that, steepest-ascent hill climbing over
    /// the vertex adjacency from `start_hint` (for example the previous step's answer, which
    /// makes the search take a few steps when the direction changes little): on a convex
    /// polyhedron a vertex with no neighbour farther along `direction` is a farthest vertex. Where
    /// round-off bends that rule (on a hull with leaning edges, between near-duplicate vertices),
    /// a climb that stops where `direction` is outside its vertex's normal cone
    /// ([`Self::in_normal_cone`]) scans all vertices instead.
    /// A `start_hint` out of range (no hint, e.g. `usize::MAX`) scans all vertices up to 1024 of
    /// them and climbs from vertex 0 above that. A zero or NaN `direction` gives some vertex,
    /// with no further meaning.
    pub fn support_vertex(&self, direction: &Vector3<f64>, start_hint: usize) -> usize {
        let positions = &self.brep.positions;
        let count = positions.len();
        if count <= BRUTE_FORCE_SUPPORT_LIMIT || (start_hint >= count && count <= COLD_SCAN_LIMIT) {
            return self.scan(direction);
        }
        let mut current = if start_hint < positions.len() {
            start_hint
        } else {
            0
        };
        let mut current_height = direction.dot(&positions[current]);
        loop {
            let mut best = current;
            for &neighbour in self.vertex_neighbours(current) {
                let neighbour = neighbour as usize;
                let height = direction.dot(&positions[neighbour]);
                if height > current_height {
                    current_height = height;
                    best = neighbour;
                }
            }
            if best == current {
                if self.brep.leaning_edges && !self.in_normal_cone(direction, current) {
                    return self.scan(direction);
                }
                return current;
            }
            current = best;
        }
    }

    /// The vertex farthest along `direction` over all vertices (the first of equals).
    fn scan(&self, direction: &Vector3<f64>) -> usize {
        let positions = &self.brep.positions;
        let mut best = 0;
        let mut best_height = direction.dot(&positions[0]);
        for (v, p) in positions.iter().enumerate().skip(1) {
            let height = direction.dot(p);
            if height > best_height {
                best = v;
                best_height = height;
            }
        }
        best
    }

    /// Where `direction` (body frame, any length) lies against the normal cone of vertex `v` as
    /// the Gauss map draws it: the smallest, over `v`'s edges, of `-direction . d` with `d` the
    /// edge's unit [`direction`](super::PolyhedronEdge::direction) pointing away from `v`. The cone
    /// is where this is at least 0 (were the edges' directions their spans: no neighbour of `v`
    /// farther along `direction`); inside it, it is `|direction|` times the sine of the angle to
    /// the nearest of the cone's planes, each the plane of an edge's Gauss arc (square to the
    /// edge's direction).
    ///
    /// The vertex graph's local tests (a support climb's stop, a contact search's walk over the
    /// Gauss map) are checked against it where the hull has leaning edges
    /// ([`Self::has_leaning_edges`]): an edge between two near-duplicate vertices, a few
    /// tolerances long, takes its faces' line for its direction, which may be far from its span,
    /// and the heights of its two ends then say nothing of the cones. A vertex can be higher than
    /// all its neighbours while a vertex across that edge's other end is higher still: in a rough
    /// point cloud of `validate --seed 23` a climb stopped 0.050 of the size below the support,
    /// where this margin was -0.65 (the near-duplicate 9.7e-8 away and 7.8e-8 lower, the support
    /// beyond it), and a separating plane was reported through a vertex that was not A's support.
    pub fn normal_cone_margin(&self, direction: &Vector3<f64>, v: usize) -> f64 {
        self.vertex_edges(v)
            .iter()
            .map(|&e| {
                let edge = self.edge(e);
                let along = direction.dot(&edge.direction());
                if edge.tail() == v {
                    -along
                } else {
                    along
                }
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether `direction` (any length but 0) lies in the normal cone of vertex `v` to
    /// [`Self::CONE_ROUNDING`] ([`Self::normal_cone_margin`]).
    #[inline]
    pub fn in_normal_cone(&self, direction: &Vector3<f64>, v: usize) -> bool {
        self.normal_cone_margin(direction, v) >= -Self::CONE_ROUNDING * direction.norm()
    }

    /// The vertex farthest along `direction` (body frame; any length but 0): the support point of
    /// the polyhedron. See [`Self::support_vertex`], which this calls with no hint.
    pub fn support_point(&self, direction: &Vector3<f64>) -> Vector3<f64> {
        self.brep.positions[self.support_vertex(direction, usize::MAX)]
    }
}
