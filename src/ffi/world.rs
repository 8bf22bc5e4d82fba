//! `demcontact_world`: whole time steps (broad and narrow phase, warm states kept) for hosts without
//! a neighbour search of their own.

use super::boundary::run;
use super::contact::demcontact_contact;
use super::pointers::{addressable, arg, arg_mut, copy_prefix, new_boxed, release_boxed, slice};
use super::pose::demcontact_pose;
use super::shape::demcontact_shape;
use super::status::demcontact_status;
use crate::pose::Pose;
use crate::shapes::Shape;
use crate::world::{BodyContact, World};
use std::sync::Arc;

/// A world: bodies (a shape handle and a pose each), their candidate pairs and each pair's warm
/// state, stepped together. Opaque: create it with `demcontact_world_create`, free it once with
/// `demcontact_world_release`.
///
/// The world holds a reference to every shape it is given, so the caller may release its own
/// handles at any time. One thread at a time per world (a step itself runs on as many threads as it
/// is asked for); different worlds may be stepped on different threads at once.
pub struct demcontact_world {
    world: World<Arc<demcontact_shape>>,
}

impl AsRef<Shape> for Arc<demcontact_shape> {
    fn as_ref(&self) -> &Shape {
        &self.shape
    }
}

/// The contact of bodies `a < b` (indices in the order given to `demcontact_world_set_bodies`), with
/// A = body `a`, B = body `b`: the normal points from body `a` to body `b`. See `demcontact_contact`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct demcontact_body_contact {
    /// Index of body A.
    pub a: u32,
    /// Index of body B (`b > a`).
    pub b: u32,
    /// The contact, world frame (always touching: `contact.touching == 1`).
    pub contact: demcontact_contact,
}

impl From<&BodyContact> for demcontact_body_contact {
    fn from(c: &BodyContact) -> Self {
        demcontact_body_contact {
            a: c.a,
            b: c.b,
            contact: demcontact_contact::from(&c.contact),
        }
    }
}

/// Creates an empty world whose broad phase keeps candidate pairs within a Verlet skin `skin` (host
/// length unit, finite, >= 0): a pair is a candidate while the bodies' world boxes are less than
/// `skin` apart at a rebuild, and its warm state is kept as long as it stays one; the pair list is
/// rebuilt only when some body's box has left its rebuild box grown by `skin / 2`. A skin of a small
/// fraction of the bodies' size (say 5 to 10%) keeps the warm states of pairs about to touch.
///
/// On success `*out` is a new handle the caller frees with `demcontact_world_release`; on failure
/// `*out` is NULL: `DEMCONTACT_STATUS_NON_FINITE` or `DEMCONTACT_STATUS_INVALID_ARGUMENT` for a bad
/// skin, `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL `out`. Thread-safe.
///
/// # Safety
/// `out` is NULL or points to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_create(
    skin: f64,
    out: *mut *mut demcontact_world,
) -> demcontact_status {
    run(|| unsafe {
        new_boxed(out, || {
            Ok(demcontact_world {
                world: World::new(skin)?,
            })
        })
    })
}

/// Releases a world and its references to the shapes. NULL is accepted and does nothing. Each
/// handle is released exactly once.
///
/// # Safety
/// `world` is NULL or a live handle from `demcontact_world_create`, not used by another thread.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_release(
    world: *mut demcontact_world,
) -> demcontact_status {
    run(|| unsafe { release_boxed(world, "world") })
}

/// The core poses of `poses[0..n]`, each checked (finite, unit quaternion within
/// `DEMCONTACT_QUATERNION_TOLERANCE`).
///
/// # Safety
/// `poses` is NULL or holds `n` readable poses.
unsafe fn core_poses(
    poses: *const demcontact_pose,
    n: usize,
) -> Result<Vec<Pose>, super::boundary::Failure> {
    addressable::<demcontact_pose>(n, "n")?;
    unsafe { slice(poses, n, "poses") }?
        .iter()
        .enumerate()
        .map(|(i, p)| p.core_pose(format_args!("poses[{i}]")))
        .collect()
}

/// Replaces every body of the world: body `i` is `shapes[i]` at `poses[i]` (world frame). Every warm
/// state is dropped. The world takes its own reference to each shape (a shape may serve many bodies).
///
/// `n == 0` accepts NULL arrays (an empty world). On failure the world is left as it was:
/// `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL handle, array or shape (the message names the
/// index), `DEMCONTACT_STATUS_NON_FINITE` or `DEMCONTACT_STATUS_INVALID_ARGUMENT` for a bad pose or
/// more than 2^32 - 1 bodies.
///
/// # Safety
/// `world` is NULL or a live handle not used by another thread; `shapes` holds `n` pointers, each
/// NULL or a live shape handle; `poses` holds `n` readable poses.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_set_bodies(
    world: *mut demcontact_world,
    shapes: *const *const demcontact_shape,
    poses: *const demcontact_pose,
    n: usize,
) -> demcontact_status {
    run(|| {
        let this = unsafe { arg_mut(world, "world") }?;
        addressable::<*const demcontact_shape>(n, "n")?;
        let handles = unsafe { slice(shapes, n, "shapes") }?;
        let poses = unsafe { core_poses(poses, n) }?;
        let mut shapes = Vec::with_capacity(n);
        for (i, &h) in handles.iter().enumerate() {
            unsafe { arg(h, &format!("shapes[{i}]")) }?;
            // SAFETY: `h` is a live handle made by `Arc::into_raw` (demcontact_shape::into_raw): one
            // more strong count is the world's own reference, released with the world.
            shapes.push(unsafe {
                Arc::increment_strong_count(h);
                Arc::from_raw(h)
            });
        }
        this.world.set_bodies(shapes, poses)?;
        Ok(())
    })
}

/// Moves the world's bodies: body `i` to `poses[i]` (world frame), `n` the number of bodies. Warm
/// states are kept.
///
/// On failure the poses are left as they were: `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `n` is not
/// the number of bodies or a quaternion is far from unit length, `DEMCONTACT_STATUS_NON_FINITE` for
/// a NaN or infinite component (the message names the pose), `DEMCONTACT_STATUS_NULL_ARGUMENT` for
/// a NULL handle or array.
///
/// # Safety
/// `world` is NULL or a live handle not used by another thread; `poses` holds `n` readable poses.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_set_poses(
    world: *mut demcontact_world,
    poses: *const demcontact_pose,
    n: usize,
) -> demcontact_status {
    run(|| {
        let this = unsafe { arg_mut(world, "world") }?;
        let poses = unsafe { core_poses(poses, n) }?;
        this.world.set_poses(&poses)?;
        Ok(())
    })
}

/// Runs one step at the current poses on `threads` threads (0: all cores; 1: the calling thread
/// only; above 1024, 1024; the pool is `demcontact_collide_batch`'s): the broad phase on the
/// bodies' world boxes, then the contact of every candidate pair (each from its warm state of the
/// previous step), and writes to `*count` the number of touching pairs, whose contacts
/// `demcontact_world_contacts` then gives. The result is identical, bit for bit, whatever
/// `threads` is.
///
/// On failure `*count` is 0 and no contacts are kept: `DEMCONTACT_STATUS_UNSUPPORTED_PAIR` when two
/// candidate bodies' shapes have no kernel (a polyhedron near a sphere), `DEMCONTACT_STATUS_NOT_CONVERGED`
/// or `DEMCONTACT_STATUS_NON_FINITE` from a pair's kernel (the message names the first such pair's
/// bodies; the other pairs' warm states are still updated), `DEMCONTACT_STATUS_NULL_ARGUMENT` for
/// a NULL handle or `count`.
///
/// # Safety
/// `world` is NULL or a live handle not used by another thread; `count` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_step(
    world: *mut demcontact_world,
    threads: u32,
    count: *mut usize,
) -> demcontact_status {
    run(|| {
        let count = unsafe { arg_mut(count, "count") }?;
        *count = 0;
        let this = unsafe { arg_mut(world, "world") }?;
        *count = this.world.step(threads as usize)?.len();
        Ok(())
    })
}

/// Copies the contacts of the last step into `contacts[0..capacity]` (in pair order: by `a`, then
/// `b`) and writes their total number to `*count`, which may exceed `capacity`: a caller whose array
/// was too small grows it to `*count` and calls again (the contacts stay until the next step).
///
/// `contacts` may be NULL when `capacity == 0`. Fails with `DEMCONTACT_STATUS_NULL_ARGUMENT` for a
/// NULL handle or `count`, or a NULL `contacts` with `capacity > 0` (then `*count` is 0).
///
/// # Safety
/// `world` is NULL or a live handle; `contacts` is NULL or holds `capacity` writable elements;
/// `count` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_world_contacts(
    world: *const demcontact_world,
    contacts: *mut demcontact_body_contact,
    capacity: usize,
    count: *mut usize,
) -> demcontact_status {
    run(|| {
        let count = unsafe { arg_mut(count, "count") }?;
        *count = 0;
        let this = unsafe { arg(world, "world") }?;
        let list = this.world.contacts();
        unsafe { copy_prefix(contacts, capacity, list) }?;
        *count = list.len();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{demcontact_shape_release, demcontact_sphere_create, status::*};

    fn at(x: f64) -> demcontact_pose {
        demcontact_pose {
            position: [x, 0.0, 0.0],
            orientation: [1.0, 0.0, 0.0, 0.0],
        }
    }

    #[test]
    fn a_world_of_spheres_steps_and_refuses_bad_input() {
        // SAFETY: valid pointers throughout; handles released at the end.
        unsafe {
            let mut ball = std::ptr::null_mut();
            assert_eq!(
                demcontact_sphere_create(0.5, &mut ball),
                DEMCONTACT_STATUS_OK
            );
            let mut world = std::ptr::null_mut();
            assert_eq!(
                demcontact_world_create(0.05, &mut world),
                DEMCONTACT_STATUS_OK
            );
            let shapes = [ball.cast_const(); 3];
            let poses = [at(0.0), at(0.9), at(3.0)];
            let s = demcontact_world_set_bodies(world, shapes.as_ptr(), poses.as_ptr(), 3);
            assert_eq!(s, DEMCONTACT_STATUS_OK);
            // The world keeps its own references: the caller's handle may go now.
            assert_eq!(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK);
            let mut count = 0;
            assert_eq!(
                demcontact_world_step(world, 2, &mut count),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(count, 1);
            let mut out = [demcontact_body_contact::default(); 1];
            let s = demcontact_world_contacts(world, out.as_mut_ptr(), 1, &mut count);
            assert_eq!(
                (s, count, out[0].a, out[0].b),
                (DEMCONTACT_STATUS_OK, 1, 0, 1)
            );
            assert!((out[0].contact.penetration - 0.1).abs() < 1e-15);
            assert_eq!(out[0].contact.normal, [1.0, 0.0, 0.0]);

            let mut bad = poses;
            bad[1].orientation = [2.0, 0.0, 0.0, 0.0];
            let s = demcontact_world_set_poses(world, bad.as_ptr(), 3);
            assert_eq!(s, DEMCONTACT_STATUS_INVALID_ARGUMENT);
            bad[1] = at(f64::NAN);
            let s = demcontact_world_set_poses(world, bad.as_ptr(), 3);
            assert_eq!(s, DEMCONTACT_STATUS_NON_FINITE);
            let s = demcontact_world_set_poses(world, poses.as_ptr(), 2);
            assert_eq!(s, DEMCONTACT_STATUS_INVALID_ARGUMENT);
            let null_shapes = [std::ptr::null(); 3];
            let s = demcontact_world_set_bodies(world, null_shapes.as_ptr(), poses.as_ptr(), 3);
            assert_eq!(s, DEMCONTACT_STATUS_NULL_ARGUMENT);
            let s = demcontact_world_set_bodies(world, shapes.as_ptr(), std::ptr::null(), 3);
            assert_eq!(s, DEMCONTACT_STATUS_NULL_ARGUMENT);
            // Failed calls left the world as it was.
            assert_eq!(
                demcontact_world_step(world, 1, &mut count),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(count, 1);
            let s = demcontact_world_contacts(world, std::ptr::null_mut(), 1, &mut count);
            assert_eq!((s, count), (DEMCONTACT_STATUS_NULL_ARGUMENT, 0));
            assert_eq!(
                demcontact_world_step(std::ptr::null_mut(), 1, &mut count),
                DEMCONTACT_STATUS_NULL_ARGUMENT
            );
            assert_eq!(demcontact_world_release(world), DEMCONTACT_STATUS_OK);
            assert_eq!(
                demcontact_world_release(std::ptr::null_mut()),
                DEMCONTACT_STATUS_OK
            );
        }
    }
}
