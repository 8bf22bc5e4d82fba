//! [`BroadPhase`]: the sorted cell list behind a Verlet skin.

use super::cell_list::{check_bounds, check_margin, CellList};
use super::{Aabb, BodyPair, BoundingSphere, Bounds};
use crate::error::Result;

/// The bounding volumes of the last rebuild, to tell how far each body has moved since.
#[derive(Debug, Default)]
enum Reference {
    #[default]
    None,
    Boxes(Vec<Aabb>),
    Spheres(Vec<BoundingSphere>),
}

/// A broad phase with a Verlet skin: the candidate pairs of a scene, updated step after step.
///
/// Each [`update`](BroadPhase::update) takes every body's bounding volume (boxes or spheres, world
/// frame, host length unit). A rebuild runs the sorted cell list ([`super::cell_list`]) on the
/// volumes grown by `skin / 2` on every side, so the list holds every pair whose volumes are less
/// than `skin` apart. Later updates keep that list while it is still sure to hold every overlapping
/// pair: for spheres, while every body's centre has moved, plus its radius changed, by at most
/// `skin / 2` since the rebuild; for boxes, while every body's box lies inside its box of the
/// rebuild grown by `skin / 2` (its box has moved at most half the skin). `skin = 0` rebuilds at
/// every update and reports exactly the overlapping pairs.
///
/// Pairs are `[i, j]`, `i < j`, sorted by `i` then `j`. One thread at a time per object.
///
/// ```
/// use demcontact::broad::{BroadPhase, BoundingSphere, Bounds};
/// let mut broad = BroadPhase::new(0.2)?;
/// let mut balls = vec![BoundingSphere::new([0.0; 3], 0.5)?, BoundingSphere::new([1.1, 0.0, 0.0], 0.5)?];
/// assert!(broad.update(Bounds::Spheres(&balls))?); // rebuilt: the gap 0.1 is within the skin
/// assert_eq!(broad.pairs(), &[[0, 1]]);
/// balls[1].centre[0] = 1.05; // moved 0.05 <= skin / 2: the list is kept
/// assert!(!broad.update(Bounds::Spheres(&balls))?);
/// # Ok::<(), demcontact::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct BroadPhase {
    skin: f64,
    cells: CellList,
    pairs: Vec<BodyPair>,
    reference: Reference,
    rebuilds: u64,
}

impl BroadPhase {
    /// A broad phase with Verlet skin `skin` (host length unit, finite, >= 0).
    pub fn new(skin: f64) -> Result<Self> {
        check_margin(skin)?;
        Ok(BroadPhase {
            skin,
            ..BroadPhase::default()
        })
    }

    /// The skin.
    pub fn skin(&self) -> f64 {
        self.skin
    }

    /// Takes the bodies' current volumes; returns whether the pair list was rebuilt (true) or kept.
    ///
    /// # Errors
    ///
    /// As [`super::cell_list_pairs`]; the previous state is kept on error.
    pub fn update(&mut self, bounds: Bounds) -> Result<bool> {
        check_bounds(bounds)?;
        if self.still_valid(bounds) {
            return Ok(false);
        }
        self.cells
            .search_checked(bounds, self.skin, &mut self.pairs);
        // The rebuild's volumes, in the buffer of the last rebuild when it has the same kind (no
        // allocation per rebuild); none without a skin, where every update rebuilds.
        let half = 0.5 * self.skin;
        match (&mut self.reference, bounds) {
            _ if self.skin == 0.0 => self.reference = Reference::None,
            (Reference::Boxes(then), Bounds::Boxes(now)) => {
                then.clear();
                then.extend(now.iter().map(|b| b.inflated(half)));
            }
            (Reference::Spheres(then), Bounds::Spheres(now)) => {
                then.clear();
                then.extend_from_slice(now);
            }
            (_, Bounds::Boxes(now)) => {
                self.reference = Reference::Boxes(now.iter().map(|b| b.inflated(half)).collect())
            }
            (_, Bounds::Spheres(now)) => self.reference = Reference::Spheres(now.to_vec()),
        }
        self.rebuilds += 1;
        Ok(true)
    }

    /// Whether the list of the last rebuild still holds every overlapping pair of `bounds`.
    fn still_valid(&self, bounds: Bounds) -> bool {
        if self.skin == 0.0 {
            return false;
        }
        let half = 0.5 * self.skin;
        match (&self.reference, bounds) {
            (Reference::Boxes(then), Bounds::Boxes(now)) => {
                then.len() == now.len() && then.iter().zip(now).all(|(t, n)| t.contains(n))
            }
            (Reference::Spheres(then), Bounds::Spheres(now)) => {
                then.len() == now.len()
                    && then.iter().zip(now).all(|(t, n)| {
                        let d = [
                            n.centre[0] - t.centre[0],
                            n.centre[1] - t.centre[1],
                            n.centre[2] - t.centre[2],
                        ];
                        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
                            + (n.radius - t.radius).abs()
                            <= half
                    })
            }
            _ => false,
        }
    }

    /// The candidate pairs `[i, j]`, `i < j`, sorted (see the type's documentation).
    pub fn pairs(&self) -> &[BodyPair] {
        &self.pairs
    }

    /// How many times the list has been rebuilt.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// Bytes held on the heap: the cell list's buffers, the pair list and the rebuild's volumes.
    pub fn heap_bytes(&self) -> usize {
        let reference = match &self.reference {
            Reference::None => 0,
            Reference::Boxes(b) => b.capacity() * std::mem::size_of::<Aabb>(),
            Reference::Spheres(s) => s.capacity() * std::mem::size_of::<BoundingSphere>(),
        };
        self.cells.heap_bytes()
            + self.pairs.capacity() * std::mem::size_of::<BodyPair>()
            + reference
    }
}
