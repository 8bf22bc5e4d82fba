//! An exact reference for contact between convex polyhedra, independent of any contact algorithm.
//!
//! Kernels (e.g. the Fast Direct Search of Zheng et al. 2017) are checked against this module, so
//! it is deliberately slow and simple: brute force over all features, no hull library, no warm
//! starts.
//!
//! * [`RefPolyhedron`]: a convex polyhedron as plain data (vertices, faces with outward normals and
//!   counter-clockwise loops, edges), with hand-made solids ([`RefPolyhedron::cuboid`],
//!   [`RefPolyhedron::regular_tetrahedron`], [`RefPolyhedron::prism`]) and a brute-force hull
//!   ([`RefPolyhedron::from_points_bruteforce`]) for random test solids.
//! * [`sat_penetration`]: the separating-axis theorem over every candidate axis, giving the exact
//!   minimum translation distance (MTD) of overlapping pairs.
//! * [`separation_distance`]: the exact Euclidean distance of disjoint pairs by closest features.
//! * [`classify`] and the tolerance band ([`BAND_RELATIVE`], [`within_band`], [`is_mismatch`]).
//! * [`analytic_cases`]: hand-made configurations with answers derived by hand.
//! * [`random_pair`]: seeded random pairs near contact.
//!
//! Units: all lengths are in the caller's length unit. Solids are given in their body frame; every
//! function taking poses works in the world frame (`x_world = position + rotation * x_body`), and
//! every normal points from A to B.

mod cases;
mod classify;
mod distance;
mod random;
mod sat;
mod solids;

#[cfg(test)]
mod tests;

pub use cases::{analytic_cases, AnalyticCase, ANALYTIC_DEPTH, ANALYTIC_GAP};
pub use classify::{band, classify, is_mismatch, within_band, Classification, BAND_RELATIVE};
pub use distance::{
    closest_point_on_polygon, closest_point_on_segment, closest_points_segment_segment,
    separation_distance,
};
pub use random::{place, random_body, random_pair, RandomPair};
pub use sat::{
    candidate_axes, sat_penetration, select_axis, support_overlap, AxisKind, CandidateAxis,
    SatResult, EDGE_PARALLEL_SIN,
};
pub use solids::BRUTEFORCE_MAX_POINTS;

use demcontact::Pose;
use nalgebra::Vector3;
use std::collections::HashSet;

/// A convex polyhedron as plain data, body frame.
///
/// Lengths are in the caller's unit. [`RefPolyhedron::check`] verifies that the three lists
/// describe one closed convex solid.
#[derive(Debug, Clone, PartialEq)]
pub struct RefPolyhedron {
    /// The vertices, body frame.
    pub vertices: Vec<Vector3<f64>>,
    /// Each face: outward unit normal and its vertex loop (indices, counter-clockwise seen from
    /// outside).
    pub faces: Vec<(Vector3<f64>, Vec<usize>)>,
    /// Each edge once: (tail, head) vertex indices.
    pub edges: Vec<(usize, usize)>,
}

impl RefPolyhedron {
    /// A polyhedron from its vertices and faces; the edges are derived from the face loops (each
    /// undirected edge once, as `(min, max)` of its vertex indices, in order of first appearance).
    ///
    /// No validation: call [`RefPolyhedron::check`].
    pub fn from_faces(vertices: Vec<Vector3<f64>>, faces: Vec<(Vector3<f64>, Vec<usize>)>) -> Self {
        let mut seen = HashSet::new();
        let mut edges = Vec::new();
        for (_, face) in &faces {
            for k in 0..face.len() {
                let (i, j) = (face[k], face[(k + 1) % face.len()]);
                let key = (i.min(j), i.max(j));
                if seen.insert(key) {
                    edges.push(key);
                }
            }
        }
        RefPolyhedron {
            vertices,
            faces,
            edges,
        }
    }

    /// The diameter: the largest distance between two vertices (caller's length unit). The
    /// reference's tolerances are relative to it.
    pub fn size(&self) -> f64 {
        let mut d2: f64 = 0.0;
        for (i, p) in self.vertices.iter().enumerate() {
            for q in &self.vertices[i + 1..] {
                d2 = d2.max((p - q).norm_squared());
            }
        }
        d2.sqrt()
    }

    /// The vertices mapped to the world frame by `pose`.
    pub fn world_vertices(&self, pose: &Pose) -> Vec<Vector3<f64>> {
        self.vertices
            .iter()
            .map(|v| pose.transform_point(v))
            .collect()
    }

    /// Whether a body-frame point lies in the solid, up to `tolerance` outside any face plane.
    pub fn contains(&self, point: &Vector3<f64>, tolerance: f64) -> bool {
        self.faces
            .iter()
            .all(|(n, face)| n.dot(&(point - self.vertices[face[0]])) <= tolerance)
    }

    /// Checks that the data describe a closed convex solid, with a relative tolerance of `1e-9`
    /// of [`RefPolyhedron::size`] for planarity and convexity:
    ///
    /// * finite vertices, at least 4 vertices and 4 faces, every vertex on some face;
    /// * unit normals (to 1e-12); each loop has at least 3 distinct valid indices, lies in its
    ///   plane, turns strictly left about its normal at every vertex (convex, counter-clockwise
    ///   seen from outside, no collinear vertices);
    /// * every vertex is on or behind every face plane (convexity, outward normals);
    /// * every directed loop edge occurs exactly once and its reverse occurs too (a closed,
    ///   consistently oriented surface); `edges` lists each undirected loop edge exactly once;
    /// * Euler's formula `V - E + F = 2`.
    pub fn check(&self) -> Result<(), String> {
        let (nv, nf) = (self.vertices.len(), self.faces.len());
        if nv < 4 || nf < 4 {
            return Err(format!("{nv} vertices and {nf} faces: not a solid"));
        }
        if self
            .vertices
            .iter()
            .any(|v| !v.iter().all(|x| x.is_finite()))
        {
            return Err("non-finite vertex".into());
        }
        let tol = 1e-9 * self.size();
        let mut directed = HashSet::new();
        let mut used = vec![false; nv];
        for (f, (n, face)) in self.faces.iter().enumerate() {
            if (n.norm() - 1.0).abs() > 1e-12 {
                return Err(format!("face {f}: normal {n:?} is not unit"));
            }
            let m = face.len();
            if m < 3 || face.iter().any(|&i| i >= nv) {
                return Err(format!("face {f}: loop {face:?} is invalid"));
            }
            let distinct: HashSet<_> = face.iter().collect();
            if distinct.len() != m {
                return Err(format!("face {f}: loop {face:?} repeats a vertex"));
            }
            let offset = n.dot(&self.vertices[face[0]]);
            for &i in face {
                used[i] = true;
                if (n.dot(&self.vertices[i]) - offset).abs() > tol {
                    return Err(format!("face {f}: vertex {i} is off the face plane"));
                }
            }
            for k in 0..m {
                let (p0, p1, p2) = (
                    self.vertices[face[k]],
                    self.vertices[face[(k + 1) % m]],
                    self.vertices[face[(k + 2) % m]],
                );
                if (p1 - p0).cross(&(p2 - p1)).dot(n) <= tol * tol {
                    return Err(format!(
                        "face {f}: loop {face:?} is not strictly convex counter-clockwise at vertex {}",
                        face[(k + 1) % m]
                    ));
                }
                if !directed.insert((face[k], face[(k + 1) % m])) {
                    return Err(format!(
                        "directed edge ({}, {}) occurs twice",
                        face[k],
                        face[(k + 1) % m]
                    ));
                }
            }
            for (i, v) in self.vertices.iter().enumerate() {
                if n.dot(v) - offset > tol {
                    return Err(format!("vertex {i} is in front of face {f}"));
                }
            }
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(format!("vertex {i} is on no face"));
        }
        if let Some((i, j)) = directed.iter().find(|(i, j)| !directed.contains(&(*j, *i))) {
            return Err(format!("edge ({i}, {j}) borders only one face"));
        }
        let undirected: HashSet<_> = directed
            .iter()
            .map(|&(i, j)| (i.min(j), i.max(j)))
            .collect();
        let listed: HashSet<_> = self
            .edges
            .iter()
            .map(|&(i, j)| (i.min(j), i.max(j)))
            .collect();
        if listed.len() != self.edges.len() || listed != undirected {
            return Err("the edge list does not match the face loops".into());
        }
        if nv + nf != self.edges.len() + 2 {
            return Err(format!(
                "Euler: V - E + F = {nv} - {} + {nf} != 2",
                self.edges.len()
            ));
        }
        Ok(())
    }
}
