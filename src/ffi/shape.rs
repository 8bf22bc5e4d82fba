//! `demcontact_shape`: opaque, immutable, reference-counted shape handles.

use super::boundary::{run, Failure, FfiResult};
use super::pointers::{aligned, arg, arg_mut};
use super::pose::demcontact_pose;
use super::status::demcontact_status;
use crate::shapes::{Shape, Sphere, Superellipsoid};
use std::sync::Arc;

/// An immutable particle shape in its body frame. Opaque: create it with a `demcontact_*_create`
/// function, free it once with `demcontact_shape_release`.
///
/// A shape is shared freely: any number of bodies, pairs and threads may use one handle at the same
/// time (it is immutable and thread-safe). Releasing it while another thread is inside a call that
/// uses it is the caller's error.
pub struct demcontact_shape {
    pub(crate) shape: Shape,
}

/// Shape family codes returned by `demcontact_shape_family`. Append only.
pub type demcontact_shape_family_code = i32;
/// A sphere (`demcontact_sphere_create`).
pub const DEMCONTACT_SHAPE_SPHERE: demcontact_shape_family_code = 1;
/// A superellipsoid (`demcontact_superellipsoid_create`).
pub const DEMCONTACT_SHAPE_SUPERELLIPSOID: demcontact_shape_family_code = 2;
/// A convex polyhedron (`demcontact_polyhedron_create`).
pub const DEMCONTACT_SHAPE_POLYHEDRON: demcontact_shape_family_code = 3;
/// A potential particle (`demcontact_potential_particle_create`).
pub const DEMCONTACT_SHAPE_POTENTIAL_PARTICLE: demcontact_shape_family_code = 4;

impl demcontact_shape {
    /// Moves `shape` into a new handle owned by the caller.
    pub(crate) fn into_raw(shape: Shape) -> *mut demcontact_shape {
        Arc::into_raw(Arc::new(demcontact_shape { shape })).cast_mut()
    }

    /// The core shape behind a handle, or a NULL-argument failure naming `name`.
    ///
    /// # Safety
    /// `ptr` is NULL or a live handle from a `demcontact_*_create` function.
    pub(crate) unsafe fn borrow<'a>(
        ptr: *const demcontact_shape,
        name: &str,
    ) -> Result<&'a Shape, Failure> {
        Ok(&arg(ptr, name)?.shape)
    }
}

/// Writes a new handle for `shape` to `out` (which must not be NULL).
fn create(shape: crate::Result<Shape>, out: *mut *mut demcontact_shape) -> FfiResult {
    // SAFETY: `out` is NULL or points to writable storage for one pointer (the caller's contract).
    let out = unsafe { arg_mut(out, "out") }?;
    *out = std::ptr::null_mut();
    *out = demcontact_shape::into_raw(shape?);
    Ok(())
}

/// Creates a sphere of `radius` (host length unit) centred on its body-frame origin.
///
/// On success `*out` is a new handle that the caller frees with `demcontact_shape_release`; on failure
/// `*out` is NULL. Fails with `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `radius <= 0`,
/// `DEMCONTACT_STATUS_NON_FINITE` when it is NaN or infinite, `DEMCONTACT_STATUS_NULL_ARGUMENT` when
/// `out` is NULL. Thread-safe.
///
/// # Safety
/// `out` is NULL or points to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn demcontact_sphere_create(
    radius: f64,
    out: *mut *mut demcontact_shape,
) -> demcontact_status {
    run(|| create(Sphere::new(radius).map(Shape::Sphere), out))
}

/// Creates Barr's superellipsoid centred on its body-frame origin with its axes along the body axes
/// (Wellmann, Lillie & Wriggers 2008, eq. (1)):
/// `(|x/r1|^(2/eps1) + |y/r2|^(2/eps1))^(eps1/eps2) + |z/r3|^(2/eps2) <= 1`.
///
/// `r1, r2, r3` are the semi-axes (host length unit, between `1e-30` and `1e30`: the range the
/// contact kernel is validated on, beyond which its products of lengths leave double precision's
/// range); `eps1` (squareness in the x-y plane) and `eps2` (along z) lie in the open range (0, 2):
/// near 0 box-like, 1 the ellipsoid, near 2 octahedron-like. The validation suite covers `eps` in
/// [0.1, 1.9] and aspect ratios up to 10; values closer to 0 or 2, and more elongated bodies, are
/// accepted but their contacts are not validated (measured on plates and needles of ratios 10 to
/// 1000: at most 1 penetrating answer in 2000 is deeper than the minimum). A touching pair of two
/// nearly pointed bodies (every `eps` above 1.75) is costly: its first answer seldom passes the
/// kernel's global-minimum test, and the restarts run at almost every query, warm or cold (about
/// 50 to 80 us a query where every `eps` lies in [1.75, 1.9], 0.1 to 0.15 ms up to 1.97, against
/// 1 to 9 us for moderate squareness; `demcontact bench --only superellipsoids` measures it).
///
/// Pairs of superellipsoids, and of a superellipsoid with a sphere, use the common-normal contact
/// detection of Wellmann, Lillie & Wriggers (2008). On success `*out` is a new handle that the
/// caller frees with `demcontact_shape_release`; on failure `*out` is NULL. Fails with
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` naming the parameter out of range,
/// `DEMCONTACT_STATUS_NON_FINITE` for NaN or infinite parameters, `DEMCONTACT_STATUS_NULL_ARGUMENT`
/// when `out` is NULL. Thread-safe.
///
/// # Safety
/// `out` is NULL or points to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn demcontact_superellipsoid_create(
    r1: f64,
    r2: f64,
    r3: f64,
    eps1: f64,
    eps2: f64,
    out: *mut *mut demcontact_shape,
) -> demcontact_status {
    run(|| {
        create(
            Superellipsoid::new(r1, r2, r3, eps1, eps2).map(Shape::Superellipsoid),
            out,
        )
    })
}

/// Releases a shape handle. NULL is accepted and does nothing. Each handle is released exactly once;
/// bodies and pairs that used it must not use it afterwards. Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle from a `demcontact_*_create` function, not released before.
#[no_mangle]
pub unsafe extern "C" fn demcontact_shape_release(
    shape: *mut demcontact_shape,
) -> demcontact_status {
    run(|| {
        if !aligned(shape, "shape")?.is_null() {
            // SAFETY: a live handle comes from `Arc::into_raw` in `demcontact_shape::into_raw`.
            drop(unsafe { Arc::from_raw(shape.cast_const()) });
        }
        Ok(())
    })
}

/// Writes the shape's family (`DEMCONTACT_SHAPE_*`) to `*out`. Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `out` is NULL or points to writable storage.
#[no_mangle]
pub unsafe extern "C" fn demcontact_shape_family(
    shape: *const demcontact_shape,
    out: *mut demcontact_shape_family_code,
) -> demcontact_status {
    run(|| {
        let shape = unsafe { demcontact_shape::borrow(shape, "shape") }?;
        *unsafe { arg_mut(out, "out") }? = shape.family() as i32;
        Ok(())
    })
}

/// Writes to `*out` the radius of the smallest sphere about the body-frame origin that holds the
/// shape (host length unit): what a host's neighbour search needs. Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `out` is NULL or points to writable storage.
#[no_mangle]
pub unsafe extern "C" fn demcontact_shape_bounding_radius(
    shape: *const demcontact_shape,
    out: *mut f64,
) -> demcontact_status {
    run(|| {
        let shape = unsafe { demcontact_shape::borrow(shape, "shape") }?;
        *unsafe { arg_mut(out, "out") }? = shape.bounding_radius();
        Ok(())
    })
}

/// Writes the tight world-frame axis-aligned bounding box of `shape` at `pose` to `lo[3]` and `hi[3]`
/// (host length unit). Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `pose` is NULL or valid; `lo` and `hi` are NULL or point to three
/// writable doubles each.
#[no_mangle]
pub unsafe extern "C" fn demcontact_shape_aabb(
    shape: *const demcontact_shape,
    pose: *const demcontact_pose,
    lo: *mut f64,
    hi: *mut f64,
) -> demcontact_status {
    run(|| {
        let shape = unsafe { demcontact_shape::borrow(shape, "shape") }?;
        let pose = unsafe { arg(pose, "pose") }?.core_pose("pose")?;
        let lo = unsafe { arg_mut(lo.cast::<[f64; 3]>(), "lo") }?;
        let hi = unsafe { arg_mut(hi.cast::<[f64; 3]>(), "hi") }?;
        let (l, h) = shape.aabb(&pose);
        *lo = l.into();
        *hi = h.into();
        Ok(())
    })
}
