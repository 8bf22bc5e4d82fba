//! The layout the polyhedron's two branch-and-bound trees share ([`super::highest::BallTree`] over
//! vertices, [`super::plane_tree::PlaneTree`] over face normals): a binary tree of index ranges,
//! each node split at the median of its vectors' widest coordinate down to a few items per leaf,
//! with a summary of its items (a bounding ball, a normal cone) that the tree's query prunes by.

use nalgebra::Vector3;

/// Items per leaf.
const LEAF_ITEMS: usize = 8;

/// A node: its `summary` of the items `order[start..end]`; an inner node's children are the next
/// node and `second`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct MedianNode<T> {
    /// What the tree's owner keeps of the node's items.
    pub summary: T,
    start: usize,
    end: usize,
    /// The second child of an inner node (the first is the node right after it), or `None` for a
    /// leaf.
    pub second: Option<usize>,
}

/// The tree over the items `0..keys.len()`, split by their vectors `keys`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct MedianTree<T> {
    order: Vec<usize>,
    /// The nodes, the root first (none for no items).
    pub nodes: Vec<MedianNode<T>>,
}

impl<T> MedianTree<T> {
    /// The tree over the items of `keys`, each node summarised by `summary` of its items'
    /// indices.
    pub(super) fn new(keys: &[Vector3<f64>], summary: impl Fn(&[usize]) -> T) -> Self {
        let mut tree = MedianTree {
            order: (0..keys.len()).collect(),
            nodes: Vec::with_capacity(2 * keys.len() / LEAF_ITEMS + 1),
        };
        if !keys.is_empty() {
            tree.build(keys, &summary, 0, keys.len());
        }
        tree
    }

    /// Builds the subtree over `order[start..end]` and returns its root's index.
    fn build(
        &mut self,
        keys: &[Vector3<f64>],
        summary: &impl Fn(&[usize]) -> T,
        start: usize,
        end: usize,
    ) -> usize {
        let index = self.nodes.len();
        self.nodes.push(MedianNode {
            summary: summary(&self.order[start..end]),
            start,
            end,
            second: None,
        });
        if end - start > LEAF_ITEMS {
            let slice = &mut self.order[start..end];
            let (mut lo, mut hi) = (keys[slice[0]], keys[slice[0]]);
            for &i in slice.iter() {
                lo = lo.inf(&keys[i]);
                hi = hi.sup(&keys[i]);
            }
            let widest = (hi - lo).imax();
            let middle = (end - start) / 2;
            slice.select_nth_unstable_by(middle, |&a, &b| {
                keys[a][widest].total_cmp(&keys[b][widest])
            });
            self.build(keys, summary, start, start + middle);
            let second = self.build(keys, summary, start + middle, end);
            self.nodes[index].second = Some(second);
        }
        index
    }

    /// The indices of node `k`'s items.
    pub(super) fn items(&self, k: usize) -> &[usize] {
        &self.order[self.nodes[k].start..self.nodes[k].end]
    }
}
