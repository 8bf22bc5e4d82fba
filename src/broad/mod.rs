//! Broad phase: which pairs of bodies may touch, found from their bounding volumes.
//!
//! Two searches over the same bounding volumes:
//!
//! - [`direct_checking`](crate::broad::direct_checking): Munjiza's direct checking (Munjiza 2004, *The Combined Finite-Discrete
//!   Element Method*, sect. 3.2): every pair's bounding objects are tested, O(N^2). It is the
//!   reference the fast search is validated against, in both of the book's variants (identical
//!   bounding spheres of the largest element's diameter, eq. (3.9), and bounding boxes).
//! - [`BroadPhase`](crate::broad::BroadPhase): a sorted cell list ([`cell_list`](crate::broad::cell_list)), time and memory O(N) whatever the extent of
//!   the empty space around the bodies, with levels for polydisperse sizes and an optional Verlet
//!   skin that keeps the pair list while no body has moved more than half the skin.
//!
//! Every search reports each candidate pair once, as `[i, j]` with `i < j` (body indices in the
//! caller's order), sorted by `i` then `j`: the order is a function of the input alone.
//!
//! Bounding volumes are in the host's world frame and length unit.

pub mod cell_list;
pub mod direct_checking;
mod radix_sort;
mod verlet;

pub use cell_list::cell_list_pairs;
pub use direct_checking::{
    direct_checking_boxes, direct_checking_spheres, identical_bounding_spheres,
};
pub use verlet::BroadPhase;

use crate::error::{ensure_finite, Error, Result};

/// A candidate pair `[i, j]` of body indices, `i < j`.
pub type BodyPair = [u32; 2];

/// An axis-aligned box `[lo, hi]` in the world frame (host length unit), `lo <= hi` on every axis.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb {
    /// The lower corner.
    pub lo: [f64; 3],
    /// The upper corner.
    pub hi: [f64; 3],
}

impl Aabb {
    /// The box `[lo, hi]`, checked: finite corners with `lo <= hi` on every axis.
    pub fn new(lo: [f64; 3], hi: [f64; 3]) -> Result<Self> {
        ensure_finite("box lo", &lo)?;
        ensure_finite("box hi", &hi)?;
        if (0..3).any(|k| lo[k] > hi[k]) {
            return Err(Error::InvalidArgument(format!(
                "box lo = {lo:?} exceeds hi = {hi:?} on some axis"
            )));
        }
        Ok(Aabb { lo, hi })
    }

    /// The tight world-frame box of `shape` at `pose` ([`crate::shapes::Shape::aabb`]).
    pub fn of_shape(shape: &crate::shapes::Shape, pose: &crate::pose::Pose) -> Self {
        let (lo, hi) = shape.aabb(pose);
        Aabb {
            lo: lo.into(),
            hi: hi.into(),
        }
    }

    /// The cube that holds the sphere of `radius` about `centre`.
    pub fn of_sphere(centre: [f64; 3], radius: f64) -> Self {
        Aabb {
            lo: [centre[0] - radius, centre[1] - radius, centre[2] - radius],
            hi: [centre[0] + radius, centre[1] + radius, centre[2] + radius],
        }
    }

    /// The box grown by `margin` on every side.
    pub fn inflated(&self, margin: f64) -> Self {
        Aabb {
            lo: [
                self.lo[0] - margin,
                self.lo[1] - margin,
                self.lo[2] - margin,
            ],
            hi: [
                self.hi[0] + margin,
                self.hi[1] + margin,
                self.hi[2] + margin,
            ],
        }
    }

    /// Whether the closed boxes share a point (touching boxes overlap).
    #[inline(always)]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        // Non-short-circuit `&`: six independent comparisons, no branches.
        (self.lo[0] <= other.hi[0])
            & (other.lo[0] <= self.hi[0])
            & (self.lo[1] <= other.hi[1])
            & (other.lo[1] <= self.hi[1])
            & (self.lo[2] <= other.hi[2])
            & (other.lo[2] <= self.hi[2])
    }

    /// Whether `other` lies inside this box.
    pub fn contains(&self, other: &Aabb) -> bool {
        (0..3).all(|k| self.lo[k] <= other.lo[k] && other.hi[k] <= self.hi[k])
    }

    /// The largest edge length.
    pub fn size(&self) -> f64 {
        (self.hi[0] - self.lo[0])
            .max(self.hi[1] - self.lo[1])
            .max(self.hi[2] - self.lo[2])
    }
}

/// A bounding sphere: centre (world frame) and radius (host length unit).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoundingSphere {
    /// The centre.
    pub centre: [f64; 3],
    /// The radius, >= 0.
    pub radius: f64,
}

impl BoundingSphere {
    /// The sphere, checked: finite centre, finite radius >= 0.
    pub fn new(centre: [f64; 3], radius: f64) -> Result<Self> {
        ensure_finite("centre", &centre)?;
        ensure_finite("radius", &[radius])?;
        if radius < 0.0 {
            return Err(Error::InvalidArgument(format!(
                "radius = {radius}: a bounding radius must be >= 0"
            )));
        }
        Ok(BoundingSphere { centre, radius })
    }

    /// Whether the spheres, each grown by `margin / 2`, overlap: `|c_i - c_j| < r_i + r_j + margin`
    /// (Munjiza 2004, eq. (3.9), with the sum of the radii in place of one common diameter).
    #[inline(always)]
    pub fn overlaps(&self, other: &BoundingSphere, margin: f64) -> bool {
        let d = [
            self.centre[0] - other.centre[0],
            self.centre[1] - other.centre[1],
            self.centre[2] - other.centre[2],
        ];
        let reach = self.radius + other.radius + margin;
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < reach * reach
    }
}

/// The bounding volumes a search runs on: boxes, or spheres (each sphere's cube goes into the
/// cell list, and candidate pairs are then tested sphere against sphere).
#[derive(Debug, Clone, Copy)]
pub enum Bounds<'a> {
    /// One box per body.
    Boxes(&'a [Aabb]),
    /// One sphere per body.
    Spheres(&'a [BoundingSphere]),
}

impl Bounds<'_> {
    /// How many bodies.
    pub fn len(&self) -> usize {
        match self {
            Bounds::Boxes(b) => b.len(),
            Bounds::Spheres(s) => s.len(),
        }
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Checks that `n` bodies can be numbered by `u32` indices.
pub(crate) fn ensure_indexable(n: usize) -> Result<()> {
    if n > u32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "{n} bodies: at most {} are supported",
            u32::MAX
        )));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;
