//! A polyhedron's face planes in a tree of normal cones, to answer "does this point lie at least
//! `depth` below every face plane?" (the ball certificate of the contact search) by visiting the
//! faces whose planes pass near the point only, instead of every face: on a body of many small
//! faces that pass is what a touching pair's query otherwise spends most of its time on.
//!
//! A node holds faces whose unit normals lie in the cone of axis `a` and half-angle `theta`, with
//! offsets at least `d_min`. For a point `y`, every face `f` of the node has
//! `d_f - n_f . y >= d_min - max_{|n| = 1, angle(n, a) <= theta} n . y`, and that maximum is
//! `|y|` when `y` lies in the cone, `|y| cos(phi - theta)` otherwise (`phi` the angle from `a` to
//! `y`). A margin covers the rounding of the bound and of the faces' own `d_f - n_f . y`, so that
//! the answer is the one a scan over every face gives.

use super::median_tree::MedianTree;
use nalgebra::Vector3;

/// Relative margin of a node's bound: the computed `d_f - n_f . y` of a face and the bound's own
/// products are within a few `1e-16 (|d_f| + |y|)` of the exact values.
const ROUNDING_MARGIN: f64 = 1e-13;

/// A node's faces: their normals within the cone of unit axis `axis` whose half-angle has cosine
/// `cos` and sine `sin` (widened for rounding), their smallest offset `lowest_offset` and largest
/// `|d_f|` `largest_offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cone {
    axis: Vector3<f64>,
    cos: f64,
    sin: f64,
    lowest_offset: f64,
    largest_offset: f64,
}

/// The tree over a polyhedron's face planes (normals `n_f`, offsets `d_f`: `n_f . x <= d_f`
/// inside), for [`Self::each_below`] and [`Self::lowest`].
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PlaneTree {
    tree: MedianTree<Cone>,
}

impl PlaneTree {
    /// The tree over the planes `normals[f] . x = offsets[f]`, split by their normals.
    pub(super) fn new(normals: &[Vector3<f64>], offsets: &[f64]) -> Self {
        let tree = MedianTree::new(normals, |faces| {
            let sum: Vector3<f64> = faces.iter().map(|&f| normals[f]).sum();
            // A cone about the mean normal; all directions (cos = -1) when the normals cancel.
            let norm = sum.norm();
            let (axis, cos) = if norm > 1e-6 * faces.len() as f64 {
                let axis = sum / norm;
                let cos = faces
                    .iter()
                    .map(|&f| axis.dot(&normals[f]))
                    .fold(1.0f64, f64::min);
                (axis, cos)
            } else {
                (Vector3::x(), -1.0)
            };
            // Widened by about 1e-12 rad for the rounding of the cosines.
            let cos = (cos - 1e-12).max(-1.0);
            Cone {
                axis,
                cos,
                sin: (1.0 - cos * cos).max(0.0).sqrt() + 1e-12,
                lowest_offset: faces
                    .iter()
                    .map(|&f| offsets[f])
                    .fold(f64::INFINITY, f64::min),
                largest_offset: faces
                    .iter()
                    .map(|&f| offsets[f].abs())
                    .fold(0.0f64, f64::max),
            }
        });
        PlaneTree { tree }
    }

    /// Calls `visit(f, value)` for every face `f` whose `value = offsets[f] -
    /// normals[f].dot(point)` (computed as a scan computes it) is below `level` (or NaN), in the
    /// tree's order, until `visit` returns `false`; returns whether it never did. The faces not
    /// visited are exactly those a scan finds at or above `level`.
    pub(super) fn each_below(
        &self,
        normals: &[Vector3<f64>],
        offsets: &[f64],
        point: &Vector3<f64>,
        level: f64,
        visit: &mut impl FnMut(usize, f64) -> bool,
    ) -> bool {
        let query = Query::new(normals, offsets, point);
        self.tree.nodes.is_empty() || self.each_below_in(0, &query, level, visit)
    }

    /// [`Self::each_below`] over the faces of node `k`, depth first, recursing into a node's
    /// children only where its bound does not settle it (no allocation: the recursion is as deep
    /// as the tree, at most about 60 for any number of faces).
    fn each_below_in(
        &self,
        k: usize,
        query: &Query,
        level: f64,
        visit: &mut impl FnMut(usize, f64) -> bool,
    ) -> bool {
        if self.lower_bound(k, query) >= level {
            return true;
        }
        match self.tree.nodes[k].second {
            None => self.tree.items(k).iter().all(|&f| {
                let value = query.value(f);
                // NaN fails the comparison: visited as below.
                value >= level || visit(f, value)
            }),
            Some(second) => {
                self.each_below_in(k + 1, query, level, visit)
                    && self.each_below_in(second, query, level, visit)
            }
        }
    }

    /// A lower bound of `query`'s values over the faces of node `k`: the node's lowest offset
    /// less the largest `n . point` over its cone, less the rounding margin.
    #[inline]
    fn lower_bound(&self, k: usize, query: &Query) -> f64 {
        let cone = &self.tree.nodes[k].summary;
        let (point, length) = (query.point, query.length);
        // The largest n . point over the node's cone.
        let along = cone.axis.dot(point);
        let highest = if along >= cone.cos * length {
            length
        } else {
            let across = (length * length - along * along).max(0.0).sqrt();
            along * cone.cos + across * cone.sin
        };
        let margin = ROUNDING_MARGIN * (cone.largest_offset + length);
        cone.lowest_offset - highest - margin
    }

    /// The face of the smallest `offsets[f] - normals[f].dot(point)` (the lowest index among
    /// equal ones; face 0 when no value is below infinity): the face a scan in index order that
    /// keeps each strictly lower value finds, by branch and bound.
    pub(super) fn lowest(
        &self,
        normals: &[Vector3<f64>],
        offsets: &[f64],
        point: &Vector3<f64>,
    ) -> usize {
        let mut best = (f64::INFINITY, 0);
        if !self.tree.nodes.is_empty() {
            self.lowest_in(0, &Query::new(normals, offsets, point), &mut best);
        }
        best.1
    }

    /// [`Self::lowest`] over node `k`, improving `best` (value, face): the child of the lower
    /// bound first, and no node whose bound is above the best value.
    fn lowest_in(&self, k: usize, query: &Query, best: &mut (f64, usize)) {
        match self.tree.nodes[k].second {
            None => {
                for &f in self.tree.items(k) {
                    let value = query.value(f);
                    if value < best.0 || (value == best.0 && f < best.1) {
                        *best = (value, f);
                    }
                }
            }
            Some(second) => {
                let first = k + 1;
                let (low_first, low_second) = (
                    self.lower_bound(first, query),
                    self.lower_bound(second, query),
                );
                let order = if low_second < low_first {
                    [(second, low_second), (first, low_first)]
                } else {
                    [(first, low_first), (second, low_second)]
                };
                for (child, low) in order {
                    // A bound equal to the best may still hide a face of a lower index.
                    if low <= best.0 || low.is_nan() {
                        self.lowest_in(child, query, best);
                    }
                }
            }
        }
    }
}

/// A query's point against the planes the tree was built over, with `|point|`.
struct Query<'a> {
    normals: &'a [Vector3<f64>],
    offsets: &'a [f64],
    point: &'a Vector3<f64>,
    length: f64,
}

impl<'a> Query<'a> {
    fn new(normals: &'a [Vector3<f64>], offsets: &'a [f64], point: &'a Vector3<f64>) -> Self {
        Query {
            normals,
            offsets,
            point,
            length: point.norm(),
        }
    }

    /// How far `point` lies below face `f`'s plane: `offsets[f] - normals[f] . point`, as a scan
    /// computes it.
    #[inline]
    fn value(&self, f: usize) -> f64 {
        self.offsets[f] - self.normals[f].dot(self.point)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::unit_vectors;
    use super::*;

    #[test]
    fn the_answer_is_the_scans_at_and_around_the_smallest_depth() {
        for (faces, seed) in [(1, 1), (8, 2), (9, 3), (200, 4), (3000, 5)] {
            // Tangent planes of an ellipsoid far from the origin.
            let normals = unit_vectors(faces, seed);
            let centre = Vector3::new(50.0, -20.0, 7.0);
            let offsets: Vec<f64> = normals
                .iter()
                .map(|n| {
                    let support = (n.x * n.x + 0.49 * n.y * n.y + 0.25 * n.z * n.z).sqrt();
                    n.dot(&centre) + support
                })
                .collect();
            let tree = PlaneTree::new(&normals, &offsets);
            for (k, u) in unit_vectors(300, seed + 7).iter().enumerate() {
                // Points inside, near the surface and outside.
                let point = centre + u * (0.3 + 0.7 * (k % 5) as f64 / 4.0);
                let smallest = normals
                    .iter()
                    .zip(&offsets)
                    .map(|(n, &d)| d - n.dot(&point))
                    .fold(f64::INFINITY, f64::min);
                let lowest = normals
                    .iter()
                    .zip(&offsets)
                    .map(|(n, &d)| d - n.dot(&point))
                    .position(|v| v == smallest)
                    .unwrap();
                assert_eq!(
                    tree.lowest(&normals, &offsets, &point),
                    lowest,
                    "faces {faces}, point {k}"
                );
                let mut visited = Vec::new();
                let level = smallest + 0.05;
                assert!(
                    tree.each_below(&normals, &offsets, &point, level, &mut |f, v| {
                        visited.push((f, v));
                        true
                    })
                );
                visited.sort_by_key(|&(f, _)| f);
                let scanned: Vec<(usize, f64)> = normals
                    .iter()
                    .zip(&offsets)
                    .map(|(n, &d)| d - n.dot(&point))
                    .enumerate()
                    .filter(|&(_, v)| v < level)
                    .collect();
                assert_eq!(visited, scanned, "faces {faces}, point {k}");
                for depth in [
                    smallest,
                    smallest - 1e-15,
                    smallest + 1e-15,
                    f64::from_bits(smallest.to_bits() + 1),
                    smallest - 0.01,
                    smallest + 0.01,
                ] {
                    assert_eq!(
                        tree.each_below(&normals, &offsets, &point, depth, &mut |_, _| false),
                        smallest >= depth,
                        "faces {faces}, point {k}, depth {depth} against {smallest}"
                    );
                }
            }
        }
    }
}
