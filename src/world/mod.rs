//! A world: whole time steps for hosts without their own neighbour search.
//!
//! The host gives every body's shape and pose; [`World::step`](crate::world::World::step) runs the broad phase
//! ([`crate::broad::BroadPhase`] on the bodies' boxes, with a Verlet skin) and the narrow phase
//! ([`crate::narrow::collide`]) on every candidate pair, spread over threads, and returns the
//! touching pairs' contacts with their body indices. Each candidate pair's warm state is kept
//! between steps, and dropped when the pair leaves the candidate list (its bodies' boxes more than
//! the skin apart at a rebuild).

use crate::broad::{Aabb, BodyPair, Bounds, BroadPhase};
use crate::contact::Contact;
use crate::error::{Error, Result};
use crate::narrow::{collide, for_each_chunk};
use crate::pose::Pose;
use crate::shapes::Shape;
use crate::warm::WarmState;

/// The contact of bodies `a < b` (indices in the host's order), A and B in that order: the normal
/// points from body `a` to body `b`. World frame, host length unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyContact {
    /// Index of body A.
    pub a: u32,
    /// Index of body B (`b > a`).
    pub b: u32,
    /// The contact (see [`Contact`]); `touching` is always true here.
    pub contact: Contact,
}

/// Bodies, their candidate pairs and each pair's warm state, stepped together.
///
/// `S` is how the world holds a shape: a [`Shape`], or any shared handle to one (`Arc<Shape>`, or
/// the C ABI's reference-counted handles). Results are identical, bit for bit, whatever the thread
/// count: every pair's contact depends on its own bodies and warm state alone, and the contacts are
/// listed in pair order (by `a`, then `b`).
///
/// ```
/// use demcontact::{world::World, shapes::{Shape, Sphere}, Pose};
/// use nalgebra::Vector3;
/// let ball = || Shape::Sphere(Sphere::new(0.5).unwrap());
/// let at = |x: f64| Pose::new(Vector3::new(x, 0.0, 0.0), Default::default());
/// let mut world = World::new(0.1)?;
/// world.set_bodies(vec![ball(), ball(), ball()], vec![at(0.0), at(0.9), at(3.0)])?;
/// let contacts = world.step(0)?;
/// assert_eq!(contacts.len(), 1);
/// assert_eq!((contacts[0].a, contacts[0].b), (0, 1));
/// assert!((contacts[0].contact.penetration - 0.1).abs() < 1e-15);
/// # Ok::<(), demcontact::Error>(())
/// ```
#[derive(Debug)]
pub struct World<S> {
    shapes: Vec<S>,
    poses: Vec<Pose>,
    broad: BroadPhase,
    boxes: Vec<Aabb>,
    /// The pairs whose warm states `warm` holds (the broad phase's list at the last step).
    pairs: Vec<BodyPair>,
    warm: Vec<WarmState>,
    contacts: Vec<BodyContact>,
}

impl<S: AsRef<Shape> + Sync> World<S> {
    /// An empty world whose broad phase keeps its candidate pairs within a Verlet skin `skin` (host
    /// length unit, finite, >= 0; see [`BroadPhase`]). A skin of a fraction of the bodies' size keeps
    /// warm states of pairs about to touch and lets most steps skip the pair search.
    pub fn new(skin: f64) -> Result<Self> {
        Ok(World {
            shapes: Vec::new(),
            poses: Vec::new(),
            broad: BroadPhase::new(skin)?,
            boxes: Vec::new(),
            pairs: Vec::new(),
            warm: Vec::new(),
            contacts: Vec::new(),
        })
    }

    /// Replaces every body: body `i` is `shapes[i]` at `poses[i]`. Every warm state is dropped.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when the lengths differ or exceed `u32::MAX`.
    pub fn set_bodies(&mut self, shapes: Vec<S>, poses: Vec<Pose>) -> Result<()> {
        if shapes.len() != poses.len() {
            return Err(Error::InvalidArgument(format!(
                "{} shapes but {} poses",
                shapes.len(),
                poses.len()
            )));
        }
        crate::broad::ensure_indexable(shapes.len())?;
        self.broad = BroadPhase::new(self.broad.skin())?;
        self.shapes = shapes;
        self.poses = poses;
        self.pairs.clear();
        self.warm.clear();
        self.contacts.clear();
        Ok(())
    }

    /// Moves the bodies: body `i` to `poses[i]`. Warm states are kept.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] unless there is one pose per body.
    pub fn set_poses(&mut self, poses: &[Pose]) -> Result<()> {
        if poses.len() != self.poses.len() {
            return Err(Error::InvalidArgument(format!(
                "{} poses for {} bodies",
                poses.len(),
                self.poses.len()
            )));
        }
        self.poses.copy_from_slice(poses);
        Ok(())
    }

    /// How many bodies.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether the world has no bodies.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// The bodies' poses.
    pub fn poses(&self) -> &[Pose] {
        &self.poses
    }

    /// One step at the current poses, on `threads` threads (0: all cores, 1: the calling thread
    /// only, at most [`MAX_THREADS`](crate::narrow::MAX_THREADS)): the candidate pairs from the
    /// broad phase, the contact of each, and the touching ones returned in pair order. Each pair's
    /// warm state carries over to the next step.
    ///
    /// # Errors
    ///
    /// The first failing pair's error (in pair order), its message naming the two bodies (an
    /// unsupported pair of shape families, a kernel that did not converge, an overflow); the
    /// other pairs' warm states are updated all the same, and no contacts are returned.
    pub fn step(&mut self, threads: usize) -> Result<&[BodyContact]> {
        self.contacts.clear();
        self.update_boxes(threads);
        let rebuilt = self.broad.update(Bounds::Boxes(&self.boxes))?;
        if rebuilt {
            self.carry_warm_states();
        }
        let pairs = &self.pairs;
        let (shapes, poses) = (&self.shapes, &self.poses);
        let mut results: Vec<Option<Result<Contact>>> = vec![None; pairs.len()];
        for_each_chunk(
            threads,
            &mut results,
            Some(&mut self.warm),
            |start, out, warm| {
                let warm = warm.expect("the warm states are given");
                for (k, (slot, w)) in out.iter_mut().zip(warm.iter_mut()).enumerate() {
                    let [a, b] = pairs[start + k];
                    let (a, b) = (a as usize, b as usize);
                    *slot = Some(collide(
                        shapes[a].as_ref(),
                        &poses[a],
                        shapes[b].as_ref(),
                        &poses[b],
                        Some(w),
                    ));
                }
            },
        );
        for (&[a, b], result) in pairs.iter().zip(results) {
            match result.expect("every pair is computed") {
                Ok(contact) if contact.touching => {
                    self.contacts.push(BodyContact { a, b, contact });
                }
                Ok(_) => {}
                Err(e) => {
                    self.contacts.clear();
                    return Err(with_bodies(e, a, b));
                }
            }
        }
        Ok(&self.contacts)
    }

    /// The contacts of the last successful step (empty after a failed one).
    pub fn contacts(&self) -> &[BodyContact] {
        &self.contacts
    }

    /// The candidate pairs of the last step, whose warm states the world keeps.
    pub fn candidate_pairs(&self) -> &[BodyPair] {
        &self.pairs
    }

    /// The bodies' world-frame boxes, computed on `threads` threads.
    fn update_boxes(&mut self, threads: usize) {
        self.boxes.resize(self.shapes.len(), Aabb::default());
        let (shapes, poses) = (&self.shapes, &self.poses);
        for_each_chunk(
            threads,
            &mut self.boxes,
            None::<&mut [()]>,
            |start, out, _| {
                for (k, slot) in out.iter_mut().enumerate() {
                    let (lo, hi) = shapes[start + k].as_ref().aabb(&poses[start + k]);
                    *slot = Aabb {
                        lo: lo.into(),
                        hi: hi.into(),
                    };
                }
            },
        );
    }

    /// Takes the broad phase's new pair list, keeping the warm state of every pair in both the old
    /// and the new list (both sorted: one merge) and starting the new ones cold.
    fn carry_warm_states(&mut self) {
        let new = self.broad.pairs();
        let mut warm = Vec::with_capacity(new.len());
        let mut old = 0;
        for pair in new {
            while old < self.pairs.len() && self.pairs[old] < *pair {
                old += 1;
            }
            if old < self.pairs.len() && self.pairs[old] == *pair {
                warm.push(self.warm[old]);
            } else {
                warm.push(WarmState::cold());
            }
        }
        self.pairs.clear();
        self.pairs.extend_from_slice(new);
        self.warm = warm;
    }
}

/// `error` with the two bodies named in its message.
fn with_bodies(error: Error, a: u32, b: u32) -> Error {
    let name = |m: String| format!("bodies {a} and {b}: {m}");
    match error {
        Error::InvalidArgument(m) => Error::InvalidArgument(name(m)),
        Error::NonFinite(m) => Error::NonFinite(name(m)),
        Error::DegenerateGeometry(m) => Error::DegenerateGeometry(name(m)),
        Error::NotConverged(m) => Error::NotConverged(name(m)),
        Error::UnsupportedPair(m) => Error::UnsupportedPair(name(m)),
    }
}

#[cfg(test)]
mod tests;
