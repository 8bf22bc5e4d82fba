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
    /// round-off bends that rule (near-duplicate vertices on a merged face), a climb that stops
    /// also looks at the other vertices of its vertex's faces of more than three vertices.
    /// A `start_hint` out of range (no hint, e.g. `usize::MAX`) scans all vertices up to 1024 of
    /// them and climbs from vertex 0 above that. A zero or NaN `direction` gives some vertex,
    /// with no further meaning.
    pub fn support_vertex(&self, direction: &Vector3<f64>, start_hint: usize) -> usize {
        let positions = &self.brep.positions;
        let count = positions.len();
        if count <= BRUTE_FORCE_SUPPORT_LIMIT || (start_hint >= count && count <= COLD_SCAN_LIMIT) {
            let mut best = 0;
            let mut best_height = direction.dot(&positions[0]);
            for (v, p) in positions.iter().enumerate().skip(1) {
                let height = direction.dot(p);
                if height > best_height {
                    best = v;
                    best_height = height;
                }
            }
            return best;
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
                if !self.merged_faces {
                    return current;
                }
                match self.higher_face_mate(direction, current, current_height) {
                    Some((mate, height)) => {
                        current = mate;
                        current_height = height;
                        continue;
                    }
                    None => return current,
                }
            }
            current = best;
        }
    }

    /// The vertex farthest along `direction` among those sharing a face of more than three
    /// vertices with `v`, if it lies farther than `height` (`v`'s), with its height. A climb
    /// stopped at `v` looks there before it stops: two near-duplicate input points kept as two
    /// vertices (farther apart than the hull's tolerance) make an edge of about the tolerance's
    /// length whose direction is round-off, and with the faces' own round-off out of plane that
    /// edge can make `v` higher than both its neighbours on a merged face while a far corner of
    /// the same face lies higher still (a rough point cloud of `validate --seed 4`: a climb stopped
    /// 6.4e-3 of the body's size below the support).
    fn higher_face_mate(
        &self,
        direction: &Vector3<f64>,
        v: usize,
        height: f64,
    ) -> Option<(usize, f64)> {
        let positions = &self.brep.positions;
        let mut best = None;
        let mut best_height = height;
        for &f in self.vertex_faces(v) {
            let mates = self.face_vertices(f);
            if mates.len() <= 3 {
                continue;
            }
            for &mate in mates {
                let h = direction.dot(&positions[mate]);
                if h > best_height {
                    best = Some(mate);
                    best_height = h;
                }
            }
        }
        best.map(|mate| (mate, best_height))
    }

    /// The vertex farthest along `direction` (body frame; any length but 0): the support point of
    /// the polyhedron. See [`Self::support_vertex`], which this calls with no hint.
    pub fn support_point(&self, direction: &Vector3<f64>) -> Vector3<f64> {
        self.brep.positions[self.support_vertex(direction, usize::MAX)]
    }
}
