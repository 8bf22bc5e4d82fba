//! Convex polyhedra through the C ABI: creation from a point cloud, the queries a host needs to size
//! arrays and set up mass properties, and the pair query that also returns the list of basic contacts
//! (`demcontact_basic_contact`) of the Fast Direct Search kernel (Zheng et al. 2017).

use super::boundary::{run, Failure};
use super::contact::demcontact_contact;
use super::pointers::{aligned, arg, arg_mut, copy_prefix, optional_mut, records};
use super::pose::demcontact_pose;
use super::shape::demcontact_shape;
use super::status::*;
use super::warm::demcontact_warm_state;
use crate::narrow::BasicContact;
use crate::shapes::{Polyhedron, Shape};
use crate::warm::WarmState;
use nalgebra::Vector3;

/// Basic contact kinds (`demcontact_basic_contact.kind`). Append only.
pub type demcontact_basic_kind = i32;
/// No contact: the kind of an unused record.
pub const DEMCONTACT_BASIC_NONE: demcontact_basic_kind = 0;
/// A vertex of B inside a face of A: `feature_a` is A's face index, `feature_b` B's vertex index.
pub const DEMCONTACT_BASIC_FACE_VERTEX: demcontact_basic_kind = 1;
/// A vertex of A inside a face of B: `feature_a` is A's vertex index, `feature_b` B's face index.
pub const DEMCONTACT_BASIC_VERTEX_FACE: demcontact_basic_kind = 2;
/// An edge of A crossing an edge of B: `feature_a`, `feature_b` are edge indices.
pub const DEMCONTACT_BASIC_EDGE_EDGE: demcontact_basic_kind = 3;

/// One basic contact of a polyhedron pair's contact list (`demcontact_contact_list`): plain data of
/// fixed size (72 bytes, no padding), everything in the world frame and the host's length unit.
///
/// A face-face contact gives the corners of the overlap polygon (vertices inside the other body's
/// face, crossing edges), an edge-face contact the ends of the overlapping segment; every touching
/// pair has at least one record (the deepest feature pair for vertex-vertex or vertex-edge). Feature
/// indices number the vertices, edges and faces of each polyhedron as `demcontact_polyhedron_counts`
/// describes (vertices in the order of the caller's points, see `demcontact_polyhedron_vertex_source`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct demcontact_basic_contact {
    /// What the contact joins (`DEMCONTACT_BASIC_*`).
    pub kind: demcontact_basic_kind,
    /// A's feature: a face (`DEMCONTACT_BASIC_FACE_VERTEX`), a vertex (`..._VERTEX_FACE`) or an edge
    /// (`..._EDGE_EDGE`) index of body A.
    pub feature_a: u32,
    /// B's feature: a vertex (`DEMCONTACT_BASIC_FACE_VERTEX`), a face (`..._VERTEX_FACE`) or an edge
    /// (`..._EDGE_EDGE`) index of body B.
    pub feature_b: u32,
    /// Always 0 (keeps `point` 8-byte aligned without implicit padding; may gain a meaning later).
    pub reserved: u32,
    /// The contact point (world frame): midway between the vertex and its foot on the face plane, or
    /// between the two edges' points at their crossing.
    pub point: [f64; 3],
    /// The pair's unit contact normal, from A to B (world frame).
    pub normal: [f64; 3],
    /// How far the vertex lies past the face plane (or the edges past each other) along `normal`
    /// (host length unit); > 0 for an overlap.
    pub depth: f64,
}

impl From<&BasicContact> for demcontact_basic_contact {
    fn from(c: &BasicContact) -> Self {
        demcontact_basic_contact {
            kind: c.kind as i32,
            // Every feature index fits: `demcontact_polyhedron_create` refuses hulls with more than
            // u32::MAX edges, and a polyhedron has fewer vertices and fewer faces than edges.
            feature_a: c.feature_a as u32,
            feature_b: c.feature_b as u32,
            reserved: 0,
            point: c.point.into(),
            normal: c.normal.into(),
            depth: c.depth,
        }
    }
}

/// The polyhedron behind a handle, or an invalid-argument failure naming the family it has.
///
/// # Safety
/// `ptr` is NULL or a live handle.
unsafe fn polyhedron<'a>(
    ptr: *const demcontact_shape,
    name: &str,
) -> Result<&'a Polyhedron, Failure> {
    match unsafe { demcontact_shape::borrow(ptr, name) }? {
        Shape::Polyhedron(p) => Ok(p),
        other => Err(Failure::new(
            DEMCONTACT_STATUS_INVALID_ARGUMENT,
            format!(
                "{name} is a {:?}, not a Polyhedron (DEMCONTACT_SHAPE_POLYHEDRON)",
                other.family()
            ),
        )),
    }
}

/// Creates the convex polyhedron that is the convex hull of `n_points` points.
///
/// `xyz` holds the points' coordinates as `x0, y0, z0, x1, y1, z1, ...` (`3 * n_points` doubles, host
/// length unit) in the body frame. The body frame is exactly the caller's: the vertices are the
/// caller's points, bit for bit, neither re-centred nor rotated, so the body-frame origin need not be
/// the centroid (`demcontact_polyhedron_mass_properties` gives the centroid for the host's dynamics; a
/// pose then places this frame, not the centroid). Duplicate points, interior points and points on a
/// face or an edge that are not corners are dropped; coplanar hull triangles merge into one polygonal
/// face (a cube of 8 corners has 8 vertices, 12 edges and 6 faces), within a tolerance of 1e-8 of the
/// points' bounding-box diagonal.
///
/// On success `*out` is a new handle that the caller frees with `demcontact_shape_release`; on
/// failure `*out` is NULL. Fails with `DEMCONTACT_STATUS_NULL_ARGUMENT` when `out` is NULL, or
/// `xyz` is NULL with `n_points > 0`; `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `3 * n_points`
/// doubles cannot be addressed (a corrupted count) and for coordinates beyond `1e30` or an extent
/// (the bounding-box diagonal) below `1e-30` of the host's length unit (the range the contact
/// kernel is validated on, beyond which its products of lengths leave double precision's range);
/// `DEMCONTACT_STATUS_NON_FINITE` when a coordinate is NaN or infinite (the message names the
/// point); `DEMCONTACT_STATUS_DEGENERATE_GEOMETRY` for fewer than 4 distinct points, or points that
/// are collinear, coplanar, needle-like or flat (thinner than 1e-6 of the diagonal). Thread-safe.
///
/// # Safety
/// `xyz` is NULL or points to `3 * n_points` readable doubles; `out` is NULL or points to writable
/// storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn demcontact_polyhedron_create(
    xyz: *const f64,
    n_points: usize,
    out: *mut *mut demcontact_shape,
) -> demcontact_status {
    run(|| {
        let out = unsafe { arg_mut(out, "out") }?;
        *out = std::ptr::null_mut();
        let points: Vec<Vector3<f64>> = unsafe { records::<3>(xyz, n_points, "xyz", "n_points") }?
            .iter()
            .map(|p| Vector3::from(*p))
            .collect();
        let body = Polyhedron::new(&points).map_err(|e| Failure::from(e).context("xyz"))?;
        if u32::try_from(body.num_edges()).is_err() {
            return Err(Failure::new(
                DEMCONTACT_STATUS_INVALID_ARGUMENT,
                format!(
                    "the hull has {} edges: feature indices of demcontact_basic_contact are uint32_t",
                    body.num_edges()
                ),
            ));
        }
        *out = demcontact_shape::into_raw(Shape::Polyhedron(body));
        Ok(())
    })
}

/// Writes the polyhedron's volume (host length unit cubed) to `*volume` and its centroid (the centre
/// of mass at uniform density, in the body frame: the frame of the points given to
/// `demcontact_polyhedron_create`) to `centroid[0..3]`, for the host's mass properties (mass =
/// density * volume; the host's pose describes the body frame, which is the centroid's frame only
/// when the caller centred the points).
///
/// Leaves the outputs untouched on failure: `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL pointer,
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `shape` is not a polyhedron (the message names its
/// family). Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `volume` is NULL or writable; `centroid` is NULL or points to three
/// writable doubles.
#[no_mangle]
pub unsafe extern "C" fn demcontact_polyhedron_mass_properties(
    shape: *const demcontact_shape,
    volume: *mut f64,
    centroid: *mut f64,
) -> demcontact_status {
    run(|| {
        let body = unsafe { polyhedron(shape, "shape") }?;
        let volume = unsafe { arg_mut(volume, "volume") }?;
        let centroid = unsafe { arg_mut(centroid.cast::<[f64; 3]>(), "centroid") }?;
        *volume = body.volume();
        *centroid = body.centroid().into();
        Ok(())
    })
}

/// Writes the numbers of vertices, edges and faces of the polyhedron's hull, so that a host can size
/// arrays and interpret the feature indices of `demcontact_basic_contact` (vertices are numbered
/// `0..vertices`, edges `0..edges`, faces `0..faces`; `vertices - edges + faces == 2`).
///
/// Vertex indices follow the order of the caller's points with the points that are not corners
/// (duplicates, interior points, points inside a face or an edge) dropped: vertex `v` is the point
/// `demcontact_polyhedron_vertex_source` names. Leaves the outputs untouched on failure:
/// `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL pointer, `DEMCONTACT_STATUS_INVALID_ARGUMENT` when
/// `shape` is not a polyhedron. Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `vertices`, `edges` and `faces` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_polyhedron_counts(
    shape: *const demcontact_shape,
    vertices: *mut usize,
    edges: *mut usize,
    faces: *mut usize,
) -> demcontact_status {
    run(|| {
        let body = unsafe { polyhedron(shape, "shape") }?;
        let vertices = unsafe { arg_mut(vertices, "vertices") }?;
        let edges = unsafe { arg_mut(edges, "edges") }?;
        let faces = unsafe { arg_mut(faces, "faces") }?;
        *vertices = body.num_vertices();
        *edges = body.num_edges();
        *faces = body.num_faces();
        Ok(())
    })
}

/// Writes to `*point_index` the index, among the points given to `demcontact_polyhedron_create`
/// (point `i` is `xyz[3i..3i+3]`), of the point that is vertex `vertex` of the polyhedron (its
/// coordinates are that point's, bit for bit). Vertex indices increase with the point indices.
///
/// Leaves `*point_index` untouched on failure: `DEMCONTACT_STATUS_NULL_ARGUMENT` for a NULL pointer,
/// `DEMCONTACT_STATUS_INVALID_ARGUMENT` when `shape` is not a polyhedron or `vertex` is not below its
/// number of vertices. Thread-safe.
///
/// # Safety
/// `shape` is NULL or a live handle; `point_index` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn demcontact_polyhedron_vertex_source(
    shape: *const demcontact_shape,
    vertex: usize,
    point_index: *mut usize,
) -> demcontact_status {
    run(|| {
        let body = unsafe { polyhedron(shape, "shape") }?;
        let point_index = unsafe { arg_mut(point_index, "point_index") }?;
        if vertex >= body.num_vertices() {
            return Err(Failure::new(
                DEMCONTACT_STATUS_INVALID_ARGUMENT,
                format!(
                    "vertex is {vertex}: the polyhedron has {} vertices (0..{})",
                    body.num_vertices(),
                    body.num_vertices()
                ),
            ));
        }
        *point_index = body.vertex_source_index(vertex);
        Ok(())
    })
}

/// The contact of polyhedron `a` at `pose_a` with polyhedron `b` at `pose_b`, as `demcontact_collide`
/// gives it, and the pair's list of basic contacts (`demcontact_basic_contact`: vertex-face both ways
/// and crossing edge-edge, each with its point, normal and depth, in the world frame), for force laws
/// that spread the force over the contact patch.
///
/// Writes the contact to `*out_contact` exactly as `demcontact_collide` does (same numbers, same use
/// of `warm`, which may be NULL). Writes the first `min(capacity, total)` basic contacts to
/// `list[0..]` and sets `*count` to `total`, the number of basic contacts the pair has, which may
/// exceed `capacity`: a host whose array was too small calls again with `capacity >= *count` (the
/// answer is the same for the same input; pass a copy of the warm state from before the first call,
/// or NULL, to repeat it exactly). A pair apart has `total == 0`; a touching pair has at least one.
/// `list` may be NULL when `capacity == 0` (to ask for the count only); entries past the written ones
/// are left untouched.
///
/// On failure writes an all-zero `*out_contact` and `*count = 0` (when those are not NULL), writes
/// nothing to `list`, leaves `*warm` as it was and returns the status: `DEMCONTACT_STATUS_NULL_ARGUMENT`
/// for a NULL pointer (`list` with `capacity > 0`), `DEMCONTACT_STATUS_UNSUPPORTED_PAIR` unless both
/// shapes are polyhedra, or a status of `demcontact_collide` (bad pose, foreign warm state, overflow).
/// Re-entrant: any number of threads may call it at once, each with its own `warm`, `out_contact`,
/// `list` and `count`.
///
/// # Safety
/// Pointers are NULL or valid: `a`, `b` live handles; `pose_a`, `pose_b` readable; `warm`,
/// `out_contact`, `count` writable, `list` writable for `capacity` elements, none of them shared with
/// another thread during the call.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn demcontact_contact_list(
    a: *const demcontact_shape,
    pose_a: *const demcontact_pose,
    b: *const demcontact_shape,
    pose_b: *const demcontact_pose,
    warm: *mut demcontact_warm_state,
    out_contact: *mut demcontact_contact,
    list: *mut demcontact_basic_contact,
    capacity: usize,
    count: *mut usize,
) -> demcontact_status {
    run(|| {
        let out = unsafe { arg_mut(out_contact, "out_contact") }?;
        *out = demcontact_contact::default();
        let count = unsafe { arg_mut(count, "count") }?;
        *count = 0;
        if list.is_null() && capacity > 0 {
            return Err(Failure::new(
                DEMCONTACT_STATUS_NULL_ARGUMENT,
                format!("list is NULL with capacity {capacity} (NULL is for capacity 0)"),
            ));
        }
        aligned(list, "list")?;
        let shape_a = unsafe { demcontact_shape::borrow(a, "a") }?;
        let shape_b = unsafe { demcontact_shape::borrow(b, "b") }?;
        let pose_a = unsafe { arg(pose_a, "pose_a") }?.core_pose("pose_a")?;
        let pose_b = unsafe { arg(pose_b, "pose_b") }?.core_pose("pose_b")?;
        let warm = unsafe { optional_mut(warm, "warm") }?;
        let mut state = warm.as_deref().map(|w| WarmState::from(*w));
        let mut basics = Vec::new();
        let contact = crate::narrow::contact_list(
            shape_a,
            &pose_a,
            shape_b,
            &pose_b,
            state.as_mut(),
            &mut basics,
        )?;
        for (i, c) in basics.iter().enumerate() {
            let numbers = [
                c.point.x, c.point.y, c.point.z, c.normal.x, c.normal.y, c.normal.z, c.depth,
            ];
            crate::error::ensure_finite(&format!("basic contact {i}"), &numbers)?;
        }
        // SAFETY: `list` is NULL only with capacity 0 (checked above), else it holds `capacity`
        // writable elements (the caller's contract).
        unsafe { copy_prefix(list, capacity, &basics) }?;
        if let (Some(w), Some(state)) = (warm, state) {
            *w = state.into();
        }
        *out = demcontact_contact::from(&contact);
        *count = basics.len();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::ContactKind;
    use crate::ffi::{
        demcontact_collide, demcontact_last_error_message, demcontact_shape_release,
        demcontact_sphere_create, DEMCONTACT_CONTACT_TYPE_EDGE_EDGE,
        DEMCONTACT_CONTACT_TYPE_EDGE_FACE, DEMCONTACT_CONTACT_TYPE_FACE_FACE,
        DEMCONTACT_CONTACT_TYPE_VERTEX_EDGE, DEMCONTACT_CONTACT_TYPE_VERTEX_FACE,
        DEMCONTACT_CONTACT_TYPE_VERTEX_VERTEX, DEMCONTACT_SHAPE_POLYHEDRON,
    };
    use crate::narrow::BasicKind;
    use crate::shapes::ShapeFamily;
    use std::ffi::CStr;

    fn message() -> String {
        // SAFETY: the library's thread-local message, never NULL.
        unsafe { CStr::from_ptr(demcontact_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    const CUBE: [f64; 24] = [
        -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, //
        -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
    ];

    fn cube() -> *mut demcontact_shape {
        let mut s = std::ptr::null_mut();
        // SAFETY: 8 points, a valid out-pointer.
        assert_eq!(
            unsafe { demcontact_polyhedron_create(CUBE.as_ptr(), 8, &mut s) },
            DEMCONTACT_STATUS_OK
        );
        s
    }

    fn about_z(x: f64, y: f64, z: f64, angle: f64) -> demcontact_pose {
        demcontact_pose {
            position: [x, y, z],
            orientation: [(angle / 2.0).cos(), 0.0, 0.0, (angle / 2.0).sin()],
        }
    }

    #[test]
    fn codes_match_the_core_enums_and_the_struct_has_no_padding() {
        assert_eq!(DEMCONTACT_BASIC_NONE, BasicKind::None as i32);
        assert_eq!(DEMCONTACT_BASIC_FACE_VERTEX, BasicKind::FaceVertex as i32);
        assert_eq!(DEMCONTACT_BASIC_VERTEX_FACE, BasicKind::VertexFace as i32);
        assert_eq!(DEMCONTACT_BASIC_EDGE_EDGE, BasicKind::EdgeEdge as i32);
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_VERTEX_VERTEX,
            ContactKind::VertexVertex as i32
        );
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_VERTEX_EDGE,
            ContactKind::VertexEdge as i32
        );
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_VERTEX_FACE,
            ContactKind::VertexFace as i32
        );
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_EDGE_EDGE,
            ContactKind::EdgeEdge as i32
        );
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_EDGE_FACE,
            ContactKind::EdgeFace as i32
        );
        assert_eq!(
            DEMCONTACT_CONTACT_TYPE_FACE_FACE,
            ContactKind::FaceFace as i32
        );
        assert_eq!(DEMCONTACT_SHAPE_POLYHEDRON, ShapeFamily::Polyhedron as i32);
        // 4 four-byte fields then 7 doubles: 72 bytes, nothing implicit.
        assert_eq!(std::mem::size_of::<demcontact_basic_contact>(), 72);
        assert_eq!(std::mem::offset_of!(demcontact_basic_contact, point), 16);
        assert_eq!(std::mem::offset_of!(demcontact_basic_contact, depth), 64);
    }

    #[test]
    fn cube_counts_mass_properties_and_vertex_sources() {
        // The cube's corners after an interior point and a face centre, which the hull drops.
        let mut xyz = vec![0.1, 0.0, 0.0, 0.0, 0.0, 0.5];
        xyz.extend_from_slice(&CUBE);
        let mut s = std::ptr::null_mut();
        // SAFETY: 10 points; valid pointers.
        unsafe {
            assert_eq!(
                demcontact_polyhedron_create(xyz.as_ptr(), 10, &mut s),
                DEMCONTACT_STATUS_OK
            );
            let (mut v, mut e, mut f) = (0, 0, 0);
            assert_eq!(
                demcontact_polyhedron_counts(s, &mut v, &mut e, &mut f),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!((v, e, f), (8, 12, 6));
            let (mut volume, mut centroid) = (0.0, [9.0; 3]);
            assert_eq!(
                demcontact_polyhedron_mass_properties(s, &mut volume, centroid.as_mut_ptr()),
                DEMCONTACT_STATUS_OK
            );
            assert!((volume - 1.0).abs() < 1e-14, "{volume}");
            assert!(centroid.iter().all(|c| c.abs() < 1e-14), "{centroid:?}");
            for vertex in 0..8 {
                let mut point = usize::MAX;
                assert_eq!(
                    demcontact_polyhedron_vertex_source(s, vertex, &mut point),
                    DEMCONTACT_STATUS_OK
                );
                assert_eq!(point, vertex + 2);
            }
            let mut point = 77;
            assert_eq!(
                demcontact_polyhedron_vertex_source(s, 8, &mut point),
                DEMCONTACT_STATUS_INVALID_ARGUMENT
            );
            assert_eq!(point, 77);
            assert!(message().contains("8 vertices"), "{}", message());
            demcontact_shape_release(s);
        }
    }

    #[test]
    fn bad_points_give_statuses_with_messages_and_a_null_handle() {
        let flat = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0];
        let mut nan = CUBE;
        nan[13] = f64::NAN;
        let cases: [(*const f64, usize, demcontact_status, &str); 5] = [
            (std::ptr::null(), 8, DEMCONTACT_STATUS_NULL_ARGUMENT, "xyz"),
            (
                CUBE.as_ptr(),
                3,
                DEMCONTACT_STATUS_DEGENERATE_GEOMETRY,
                "3 points",
            ),
            (
                flat.as_ptr(),
                4,
                DEMCONTACT_STATUS_DEGENERATE_GEOMETRY,
                "xyz",
            ),
            (nan.as_ptr(), 8, DEMCONTACT_STATUS_NON_FINITE, "points[4]"),
            (
                CUBE.as_ptr(),
                usize::MAX / 2,
                DEMCONTACT_STATUS_INVALID_ARGUMENT,
                "n_points",
            ),
        ];
        for (xyz, n, status, text) in cases {
            let mut s: *mut demcontact_shape = std::ptr::NonNull::dangling().as_ptr();
            // SAFETY: `xyz` is NULL or holds at least `3 * n` doubles where the library reads them
            // (the huge count is refused before any read).
            assert_eq!(
                unsafe { demcontact_polyhedron_create(xyz, n, &mut s) },
                status
            );
            assert!(s.is_null());
            assert!(message().contains(text), "{text}: {}", message());
        }
        assert_eq!(
            // SAFETY: a NULL out-pointer is refused.
            unsafe { demcontact_polyhedron_create(CUBE.as_ptr(), 8, std::ptr::null_mut()) },
            DEMCONTACT_STATUS_NULL_ARGUMENT
        );
    }

    #[test]
    fn non_polyhedra_are_refused_naming_their_family() {
        let mut ball = std::ptr::null_mut();
        // SAFETY: valid pointers; the handle is released below.
        unsafe {
            assert_eq!(
                demcontact_sphere_create(0.5, &mut ball),
                DEMCONTACT_STATUS_OK
            );
            let (mut volume, mut centroid) = (-1.0, [0.0; 3]);
            assert_eq!(
                demcontact_polyhedron_mass_properties(ball, &mut volume, centroid.as_mut_ptr()),
                DEMCONTACT_STATUS_INVALID_ARGUMENT
            );
            assert_eq!(volume, -1.0);
            assert!(message().contains("Sphere"), "{}", message());
            let (mut v, mut e, mut f) = (0, 0, 0);
            assert_eq!(
                demcontact_polyhedron_counts(ball, &mut v, &mut e, &mut f),
                DEMCONTACT_STATUS_INVALID_ARGUMENT
            );
            let box_ = cube();
            let p = about_z(0.0, 0.0, 0.0, 0.0);
            let q = about_z(0.0, 0.0, 0.9, 0.0);
            let mut c = demcontact_contact {
                penetration: 3.0,
                ..Default::default()
            };
            let mut count = 5;
            assert_eq!(
                demcontact_contact_list(
                    box_,
                    &p,
                    ball,
                    &q,
                    std::ptr::null_mut(),
                    &mut c,
                    std::ptr::null_mut(),
                    0,
                    &mut count
                ),
                DEMCONTACT_STATUS_UNSUPPORTED_PAIR
            );
            assert_eq!((c, count), (demcontact_contact::default(), 0));
            assert!(message().contains("Sphere"), "{}", message());
            demcontact_shape_release(ball);
            demcontact_shape_release(box_);
        }
    }

    #[test]
    fn stacked_cubes_list_every_corner_and_match_collide() {
        let s = cube();
        let pa = about_z(0.0, 0.0, 0.0, 0.0);
        let pb = about_z(0.1, 0.2, 0.995, 0.3);
        let mut warm = demcontact_warm_state::default();
        let mut c = demcontact_contact::default();
        let mut count = 0;
        // SAFETY: valid pointers throughout; `list` holds `capacity` records.
        unsafe {
            // The count alone first.
            assert_eq!(
                demcontact_contact_list(
                    s,
                    &pa,
                    s,
                    &pb,
                    std::ptr::null_mut(),
                    &mut c,
                    std::ptr::null_mut(),
                    0,
                    &mut count
                ),
                DEMCONTACT_STATUS_OK
            );
            assert!(count >= 4, "{count}");
            let total = count;
            let mut list = vec![demcontact_basic_contact::default(); total + 2];
            let mut one = [demcontact_basic_contact::default(); 2];
            assert_eq!(
                demcontact_contact_list(
                    s,
                    &pa,
                    s,
                    &pb,
                    std::ptr::null_mut(),
                    &mut c,
                    one.as_mut_ptr(),
                    1,
                    &mut count
                ),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(count, total);
            assert_ne!(one[0].kind, DEMCONTACT_BASIC_NONE);
            assert_eq!(one[1], demcontact_basic_contact::default());
            assert_eq!(
                demcontact_contact_list(
                    s,
                    &pa,
                    s,
                    &pb,
                    &mut warm,
                    &mut c,
                    list.as_mut_ptr(),
                    list.len(),
                    &mut count
                ),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(count, total);
            assert_eq!(list[0], one[0]);
            assert_eq!(warm.steps, 1);
            assert_eq!(c.touching, 1);
            assert!((c.penetration - 0.005).abs() < 1e-12);
            assert_eq!(c.contact_type, DEMCONTACT_CONTACT_TYPE_FACE_FACE);
            for item in &list[..total] {
                assert!((item.depth - 0.005).abs() < 1e-10, "{item:?}");
                assert!((item.normal[2] - 1.0).abs() < 1e-12, "{item:?}");
                assert_eq!(item.reserved, 0);
                assert!(item.feature_a < 12 && item.feature_b < 12, "{item:?}");
            }
            assert_eq!(list[total], demcontact_basic_contact::default());
            // The same contact as demcontact_collide.
            let mut d = demcontact_contact::default();
            assert_eq!(
                demcontact_collide(s, &pa, s, &pb, std::ptr::null_mut(), &mut d),
                DEMCONTACT_STATUS_OK
            );
            assert_eq!(
                (d.penetration, d.normal, d.point, d.contact_type),
                (c.penetration, c.normal, c.point, c.contact_type)
            );
            // NULL list with a capacity.
            assert_eq!(
                demcontact_contact_list(
                    s,
                    &pa,
                    s,
                    &pb,
                    &mut warm,
                    &mut c,
                    std::ptr::null_mut(),
                    3,
                    &mut count
                ),
                DEMCONTACT_STATUS_NULL_ARGUMENT
            );
            assert_eq!((count, warm.steps), (0, 1));
            assert!(message().contains("list"), "{}", message());
            demcontact_shape_release(s);
        }
    }
}
