! demcontact.f90: Fortran 2008 bindings (iso_c_binding) to the demcontact C ABI, include/demcontact.h.
!
! Everything here mirrors the header one to one: the same names for the derived types, constants and
! functions (a test compares this module with the header, so they cannot drift apart).
!
! Conventions (the same as the C ABI): lengths are in the host's length unit; poses, points and normals
! are in the world frame; a pose is a position plus a unit quaternion (w, x, y, z) mapping the body frame
! to the world frame; the contact normal points from body A to body B; penetration > 0 when the bodies
! overlap, and then touching == 1. Every function returns a status, DEMCONTACT_STATUS_OK (0) on
! success; demcontact_error_text() explains a failure.
!
! Names: Fortran ignores case, so C's demcontact_abi_version() (which would clash with the parameter
! DEMCONTACT_ABI_VERSION) is called demcontact_library_abi_version() here; every other name is C's.
!
! Mapping of C types: demcontact_shape* handles are type(c_ptr) (passed by value); pointers to structs
! and to arrays are the derived types / arrays passed by reference; size_t is integer(c_size_t);
! int32_t is integer(c_int32_t); uint32_t is also integer(c_int32_t) (Fortran has no unsigned type:
! every uint32_t value this library uses is below 2**31); const char* results are type(c_ptr), turned
! into Fortran strings by demcontact_string().
!
! Warm states: all-zero means cold (a new contact). The type's components default to zero, so a fresh
! type(demcontact_warm_state) variable is cold; to reset one write w = demcontact_warm_state(0, 0, 0.0)
! (kinds: 0_c_int32_t, 0_c_int32_t, 0.0_c_double), i.e. kernel = 0, steps = 0, data = 0.
! The C functions accept NULL for the warm state(s) (a cold query keeping no state); these Fortran
! interfaces pass them by reference, so pass a cold state instead (the answer does not depend on it).
!
! Compile: gfortran -std=f2008 -c demcontact.f90 (the .mod file goes to -J<dir>); link -ldemcontact.
module demcontact
  use, intrinsic :: iso_c_binding, only: c_ptr, c_double, c_int32_t, c_size_t, c_char, &
                                         c_associated, c_f_pointer
  implicit none
  private

  ! ----------------------------------------------------------------------------------------------
  ! Constants (#define DEMCONTACT_* in the header)
  ! ----------------------------------------------------------------------------------------------

  !> demcontact_contact%flags bit: separation is the exact gap, not only a lower bound.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT = 1
  !> demcontact_contact%flags bit: the query started from the pair's warm state.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_FLAG_WARM_STARTED = 2
  !> How far a quaternion's norm may be from 1 and still be accepted (it is then normalised).
  real(c_double), parameter, public :: DEMCONTACT_QUATERNION_TOLERANCE = 1.0e-6_c_double
  !> Major version: changes only when the ABI breaks.
  integer(c_int32_t), parameter, public :: DEMCONTACT_VERSION_MAJOR = 0
  !> Minor version: bumped by every addition to the ABI.
  integer(c_int32_t), parameter, public :: DEMCONTACT_VERSION_MINOR = 4
  !> Patch version: fixes that change nothing exported.
  integer(c_int32_t), parameter, public :: DEMCONTACT_VERSION_PATCH = 0
  !> The version as one number, MAJOR * 1000000 + MINOR * 1000 + PATCH.
  integer(c_int32_t), parameter, public :: DEMCONTACT_VERSION_NUMBER = 4000
  !> The ABI these bindings describe, MAJOR * 1000 + MINOR: a library whose demcontact_abi_version()
  !> has the same major part and a minor part at least as large runs a program built with them.
  integer(c_int32_t), parameter, public :: DEMCONTACT_ABI_VERSION = 4
  !> Doubles of kernel data in a demcontact_warm_state.
  integer(c_int32_t), parameter, public :: DEMCONTACT_WARM_STATE_DATA_LEN = 15
  !> Size in bytes of a demcontact_warm_state (16 doubles): what a host reserves per contact.
  integer(c_int32_t), parameter, public :: DEMCONTACT_WARM_STATE_SIZE = 128

  !> Contact types (demcontact_contact%contact_type): no contact geometry (a failed query).
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_NONE = 0
  !> Smooth surfaces sharing a common normal at point_a and point_b (spheres).
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_SMOOTH = 1
  !> Polyhedra: a vertex of one body against a vertex of the other (Zheng et al. 2017).
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_VERTEX_VERTEX = 2
  !> Polyhedra: a vertex of one body against an edge of the other.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_VERTEX_EDGE = 3
  !> Polyhedra: a vertex of one body against a face of the other.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_VERTEX_FACE = 4
  !> Polyhedra: an edge of each body, crossing.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_EDGE_EDGE = 5
  !> Polyhedra: an edge of one body against a face of the other (two basic contacts).
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_EDGE_FACE = 6
  !> Polyhedra: a face of each body (a polygon of basic contacts).
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_FACE_FACE = 7
  !> Potential particles (Boon et al. 2013): point is the optimum of their SOCP (eq. (6)), not the
  !> midpoint of point_a and point_b.
  integer(c_int32_t), parameter, public :: DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE = 8

  !> Basic contact kinds (demcontact_basic_contact%kind): no contact (an unused record).
  integer(c_int32_t), parameter, public :: DEMCONTACT_BASIC_NONE = 0
  !> A vertex of B inside a face of A: feature_a is A's face index, feature_b B's vertex index.
  integer(c_int32_t), parameter, public :: DEMCONTACT_BASIC_FACE_VERTEX = 1
  !> A vertex of A inside a face of B: feature_a is A's vertex index, feature_b B's face index.
  integer(c_int32_t), parameter, public :: DEMCONTACT_BASIC_VERTEX_FACE = 2
  !> An edge of A crossing an edge of B: feature_a, feature_b are edge indices.
  integer(c_int32_t), parameter, public :: DEMCONTACT_BASIC_EDGE_EDGE = 3

  !> Shape families (demcontact_shape_family): a sphere (demcontact_sphere_create).
  integer(c_int32_t), parameter, public :: DEMCONTACT_SHAPE_SPHERE = 1
  !> A superellipsoid (demcontact_superellipsoid_create).
  integer(c_int32_t), parameter, public :: DEMCONTACT_SHAPE_SUPERELLIPSOID = 2
  !> A convex polyhedron (demcontact_polyhedron_create).
  integer(c_int32_t), parameter, public :: DEMCONTACT_SHAPE_POLYHEDRON = 3
  !> A potential particle (demcontact_potential_particle_create).
  integer(c_int32_t), parameter, public :: DEMCONTACT_SHAPE_POTENTIAL_PARTICLE = 4

  !> Status: success.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_OK = 0
  !> Status: a required pointer argument was NULL.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_NULL_ARGUMENT = 1
  !> Status: an argument is out of its documented range (radius <= 0, quaternion far from unit, ...).
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_INVALID_ARGUMENT = 2
  !> Status: an argument is NaN or infinite, or a result would overflow to one.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_NON_FINITE = 3
  !> Status: the geometry is degenerate (flat or needle-like point sets, unbounded planes).
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_DEGENERATE_GEOMETRY = 4
  !> Status: an iterative method did not converge within its budget; outputs are zeroed.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_NOT_CONVERGED = 5
  !> Status: no contact kernel exists for this pair of shape families.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_UNSUPPORTED_PAIR = 6
  !> Status: a bug inside demcontact (a caught panic); the message says where. Please report it.
  integer(c_int32_t), parameter, public :: DEMCONTACT_STATUS_INTERNAL_ERROR = 100

  ! ----------------------------------------------------------------------------------------------
  ! Types (the structs of the header, field for field)
  ! ----------------------------------------------------------------------------------------------

  !> A rigid-body pose in the world frame: x_world = position + R(orientation) * x_body.
  !> position: body-frame origin (host length unit); orientation: unit quaternion (w, x, y, z).
  type, bind(C), public :: demcontact_pose
    real(c_double) :: position(3)
    real(c_double) :: orientation(4)
  end type demcontact_pose

  !> A pair's warm-start state (128 bytes of plain data) kept by the host between time steps, one per
  !> ordered pair (A, B). All-zero (the default here) means cold. Opaque apart from being copyable.
  type, bind(C), public :: demcontact_warm_state
    integer(c_int32_t) :: kernel = 0           ! uint32_t: which pair kernel wrote data (0: cold)
    integer(c_int32_t) :: steps = 0            ! uint32_t: consecutive queries that updated the record
    real(c_double) :: data(DEMCONTACT_WARM_STATE_DATA_LEN) = 0.0_c_double
  end type demcontact_warm_state

  !> The contact of a pair (A, B), in the world frame and the host's length unit. Overlapping
  !> (touching == 1): penetration > 0 along normal, point_a / point_b the deepest points, point their
  !> midpoint. Apart (touching == 0): penetration == 0, separation >= 0 (the exact gap when
  !> iand(flags, DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT) /= 0). normal: unit vector from A to B.
  type, bind(C), public :: demcontact_contact
    real(c_double) :: point_a(3)
    real(c_double) :: point_b(3)
    real(c_double) :: point(3)
    real(c_double) :: normal(3)
    real(c_double) :: penetration
    real(c_double) :: separation
    integer(c_int32_t) :: touching
    integer(c_int32_t) :: contact_type         ! DEMCONTACT_CONTACT_TYPE_*
    integer(c_int32_t) :: iterations           ! uint32_t
    integer(c_int32_t) :: flags                ! uint32_t, DEMCONTACT_CONTACT_FLAG_* bits
  end type demcontact_contact

  !> One pair of a batch: shape a (a live handle) at pose_a, shape b at pose_b.
  type, bind(C), public :: demcontact_pair
    type(c_ptr) :: a
    type(demcontact_pose) :: pose_a
    type(c_ptr) :: b
    type(demcontact_pose) :: pose_b
  end type demcontact_pair

  !> One basic contact of a polyhedron pair's contact list (demcontact_contact_list), 72 bytes, world
  !> frame, host length unit. Feature indices are 0-based, as in C (vertices in the order of the
  !> caller's points, see demcontact_polyhedron_vertex_source).
  type, bind(C), public :: demcontact_basic_contact
    integer(c_int32_t) :: kind = 0             ! DEMCONTACT_BASIC_*
    integer(c_int32_t) :: feature_a = 0        ! uint32_t: A's face, vertex or edge index (see kind)
    integer(c_int32_t) :: feature_b = 0        ! uint32_t: B's vertex, face or edge index (see kind)
    integer(c_int32_t) :: reserved = 0         ! uint32_t: always 0
    real(c_double) :: point(3) = 0.0_c_double  ! contact point (world frame)
    real(c_double) :: normal(3) = 0.0_c_double ! unit normal from A to B (world frame)
    real(c_double) :: depth = 0.0_c_double     ! overlap along normal, > 0
  end type demcontact_basic_contact

  !> A candidate pair of the broad phase: 0-based body indices a < b (uint32_t), in the order the
  !> bodies were given.
  type, bind(C), public :: demcontact_body_pair
    integer(c_int32_t) :: a = 0                ! uint32_t: first body (0-based)
    integer(c_int32_t) :: b = 0                ! uint32_t: second body (0-based, b > a)
  end type demcontact_body_pair

  !> A contact of a world step: 0-based body indices a < b (uint32_t) and the contact with A = body a,
  !> B = body b (normal from a to b).
  type, bind(C), public :: demcontact_body_contact
    integer(c_int32_t) :: a = 0                ! uint32_t: body A (0-based)
    integer(c_int32_t) :: b = 0                ! uint32_t: body B (0-based, b > a)
    type(demcontact_contact) :: contact
  end type demcontact_body_contact

  ! ----------------------------------------------------------------------------------------------
  ! Functions (every function of the header; see its comments for the full contracts)
  ! ----------------------------------------------------------------------------------------------

  public :: demcontact_last_error_message, demcontact_collide, demcontact_collide_batch
  public :: demcontact_sphere_create, demcontact_shape_release, demcontact_shape_family
  public :: demcontact_superellipsoid_create
  public :: demcontact_polyhedron_create, demcontact_polyhedron_mass_properties
  public :: demcontact_polyhedron_counts, demcontact_polyhedron_vertex_source
  public :: demcontact_contact_list
  public :: demcontact_potential_particle_create
  public :: demcontact_warm_state_angles, demcontact_warm_state_from_angles
  public :: demcontact_shape_bounding_radius, demcontact_shape_aabb, demcontact_status_name
  public :: demcontact_version, demcontact_library_abi_version
  public :: demcontact_string, demcontact_error_text
  public :: demcontact_broad_phase_create, demcontact_broad_phase_release
  public :: demcontact_broad_phase_update_spheres, demcontact_broad_phase_update_boxes
  public :: demcontact_broad_phase_pairs
  public :: demcontact_world_create, demcontact_world_release, demcontact_world_set_bodies
  public :: demcontact_world_set_poses, demcontact_world_step, demcontact_world_contacts

  interface
    !> The C string of the most recent failure's message on the calling thread ("" if none); valid
    !> until the next demcontact call on this thread. Use demcontact_error_text() for a Fortran string.
    function demcontact_last_error_message() bind(C, name="demcontact_last_error_message") result(text)
      import :: c_ptr
      type(c_ptr) :: text
    end function demcontact_last_error_message

    !> The contact of shape a at pose_a with shape b at pose_b into out. warm: the pair's state from
    !> the previous step (cold for a new contact), updated on success, untouched on failure. On
    !> failure out is all zeros.
    function demcontact_collide(a, pose_a, b, pose_b, warm, out) &
        bind(C, name="demcontact_collide") result(status)
      import :: c_ptr, c_int32_t, demcontact_pose, demcontact_warm_state, demcontact_contact
      type(c_ptr), value :: a
      type(demcontact_pose), intent(in) :: pose_a
      type(c_ptr), value :: b
      type(demcontact_pose), intent(in) :: pose_b
      type(demcontact_warm_state), intent(inout) :: warm
      type(demcontact_contact), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_collide

    !> The contacts of n pairs (pairs(1:n)) into out(1:n), warm(1:n) updated per pair, statuses(1:n)
    !> per-pair statuses, spread over threads threads (0: all cores; 1: the calling thread only).
    !> Returns OK or the status of the first failed pair (message prefixed "pair <0-based index>: ").
    function demcontact_collide_batch(pairs, n, warm, threads, out, statuses) &
        bind(C, name="demcontact_collide_batch") result(status)
      import :: c_size_t, c_int32_t, demcontact_pair, demcontact_warm_state, demcontact_contact
      type(demcontact_pair), intent(in) :: pairs(*)
      integer(c_size_t), value :: n
      type(demcontact_warm_state), intent(inout) :: warm(*)
      integer(c_int32_t), value :: threads      ! uint32_t
      type(demcontact_contact), intent(out) :: out(*)
      integer(c_int32_t), intent(out) :: statuses(*)
      integer(c_int32_t) :: status
    end function demcontact_collide_batch

    !> Creates a sphere of radius (host length unit) centred on its body-frame origin into out (a new
    !> handle, released once with demcontact_shape_release; c_null_ptr on failure).
    function demcontact_sphere_create(radius, out) bind(C, name="demcontact_sphere_create") &
        result(status)
      import :: c_double, c_ptr, c_int32_t
      real(c_double), value :: radius
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_sphere_create

    !> Creates Barr's superellipsoid (semi-axes r1, r2, r3 > 0; squareness eps1, eps2 in (0, 2);
    !> Wellmann, Lillie & Wriggers 2008, eq. (1)) into out (c_null_ptr on failure).
    function demcontact_superellipsoid_create(r1, r2, r3, eps1, eps2, out) &
        bind(C, name="demcontact_superellipsoid_create") result(status)
      import :: c_double, c_ptr, c_int32_t
      real(c_double), value :: r1, r2, r3, eps1, eps2
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_superellipsoid_create

    !> Creates the convex hull of n_points points xyz(3, n_points) (x, y, z per column; host length
    !> unit) into out (c_null_ptr on failure). The body frame is the caller's: vertices are the given
    !> points, not re-centred. Fewer than 4 distinct, or collinear/coplanar/flat points:
    !> DEMCONTACT_STATUS_DEGENERATE_GEOMETRY; NaN or infinite coordinates: DEMCONTACT_STATUS_NON_FINITE.
    function demcontact_polyhedron_create(xyz, n_points, out) &
        bind(C, name="demcontact_polyhedron_create") result(status)
      import :: c_double, c_size_t, c_ptr, c_int32_t
      real(c_double), intent(in) :: xyz(*)
      integer(c_size_t), value :: n_points
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_polyhedron_create

    !> Creates a potential particle (Boon, Houlsby & Utili 2013, eq. (2)) from n_planes planes
    !> abcd(4, n_planes) (a, b, c, d per column: outward normal of any non-zero length, d > 0), the
    !> rounding r (rounding > 0), the shadow sphere's radius R (shadow_radius > 0) and its weight k in
    !> (0, 1), into out (c_null_ptr on failure). Planes that bound no finite body:
    !> DEMCONTACT_STATUS_DEGENERATE_GEOMETRY; r, R <= 0 or k outside (0, 1):
    !> DEMCONTACT_STATUS_INVALID_ARGUMENT; NaN or infinite numbers: DEMCONTACT_STATUS_NON_FINITE.
    function demcontact_potential_particle_create(abcd, n_planes, rounding, shadow_radius, k, out) &
        bind(C, name="demcontact_potential_particle_create") result(status)
      import :: c_double, c_size_t, c_ptr, c_int32_t
      real(c_double), intent(in) :: abcd(*)
      integer(c_size_t), value :: n_planes
      real(c_double), value :: rounding, shadow_radius, k
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_potential_particle_create

    !> The polyhedron's volume (length unit cubed) and centroid(3) (uniform density, body frame).
    function demcontact_polyhedron_mass_properties(shape, volume, centroid) &
        bind(C, name="demcontact_polyhedron_mass_properties") result(status)
      import :: c_ptr, c_double, c_int32_t
      type(c_ptr), value :: shape
      real(c_double), intent(out) :: volume
      real(c_double), intent(out) :: centroid(3)
      integer(c_int32_t) :: status
    end function demcontact_polyhedron_mass_properties

    !> The numbers of vertices, edges and faces of the polyhedron (feature indices run 0..count-1).
    function demcontact_polyhedron_counts(shape, vertices, edges, faces) &
        bind(C, name="demcontact_polyhedron_counts") result(status)
      import :: c_ptr, c_size_t, c_int32_t
      type(c_ptr), value :: shape
      integer(c_size_t), intent(out) :: vertices, edges, faces
      integer(c_int32_t) :: status
    end function demcontact_polyhedron_counts

    !> The 0-based index among the points given to demcontact_polyhedron_create of the point that is
    !> (0-based) vertex vertex of the polyhedron.
    function demcontact_polyhedron_vertex_source(shape, vertex, point_index) &
        bind(C, name="demcontact_polyhedron_vertex_source") result(status)
      import :: c_ptr, c_size_t, c_int32_t
      type(c_ptr), value :: shape
      integer(c_size_t), value :: vertex
      integer(c_size_t), intent(out) :: point_index
      integer(c_int32_t) :: status
    end function demcontact_polyhedron_vertex_source

    !> The contact of polyhedron a at pose_a with polyhedron b at pose_b into out_contact (as
    !> demcontact_collide) and the first min(capacity, count) basic contacts into list(1:); count is
    !> the total number the pair has (call again with a larger list when count > capacity). Pairs that
    !> are not two polyhedra: DEMCONTACT_STATUS_UNSUPPORTED_PAIR.
    function demcontact_contact_list(a, pose_a, b, pose_b, warm, out_contact, list, capacity, count) &
        bind(C, name="demcontact_contact_list") result(status)
      import :: c_ptr, c_size_t, c_int32_t, demcontact_pose, demcontact_warm_state, &
                demcontact_contact, demcontact_basic_contact
      type(c_ptr), value :: a
      type(demcontact_pose), intent(in) :: pose_a
      type(c_ptr), value :: b
      type(demcontact_pose), intent(in) :: pose_b
      type(demcontact_warm_state), intent(inout) :: warm
      type(demcontact_contact), intent(out) :: out_contact
      type(demcontact_basic_contact), intent(inout) :: list(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: count
      integer(c_int32_t) :: status
    end function demcontact_contact_list

    !> The contact-direction angles alpha(1:2) (radians, eq. (6) of Wellmann et al. 2008) kept in
    !> warm for the pair a at pose_a, b at pose_b.
    function demcontact_warm_state_angles(a, pose_a, b, pose_b, warm, alpha) &
        bind(C, name="demcontact_warm_state_angles") result(status)
      import :: c_ptr, c_double, c_int32_t, demcontact_pose, demcontact_warm_state
      type(c_ptr), value :: a
      type(demcontact_pose), intent(in) :: pose_a
      type(c_ptr), value :: b
      type(demcontact_pose), intent(in) :: pose_b
      type(demcontact_warm_state), intent(in) :: warm
      real(c_double), intent(out) :: alpha(2)
      integer(c_int32_t) :: status
    end function demcontact_warm_state_angles

    !> A warm state whose contact direction has the angles alpha1, alpha2 (radians, eq. (6)) for the
    !> pair a at pose_a, b at pose_b.
    function demcontact_warm_state_from_angles(a, pose_a, b, pose_b, alpha1, alpha2, warm) &
        bind(C, name="demcontact_warm_state_from_angles") result(status)
      import :: c_ptr, c_double, c_int32_t, demcontact_pose, demcontact_warm_state
      type(c_ptr), value :: a
      type(demcontact_pose), intent(in) :: pose_a
      type(c_ptr), value :: b
      type(demcontact_pose), intent(in) :: pose_b
      real(c_double), value :: alpha1, alpha2
      type(demcontact_warm_state), intent(out) :: warm
      integer(c_int32_t) :: status
    end function demcontact_warm_state_from_angles

    !> Releases a shape handle (c_null_ptr is accepted and does nothing). Release each handle once.
    function demcontact_shape_release(shape) bind(C, name="demcontact_shape_release") result(status)
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: shape
      integer(c_int32_t) :: status
    end function demcontact_shape_release

    !> Writes the shape's family (DEMCONTACT_SHAPE_*) to out.
    function demcontact_shape_family(shape, out) bind(C, name="demcontact_shape_family") &
        result(status)
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: shape
      integer(c_int32_t), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_shape_family

    !> Writes the radius of the smallest sphere about the body-frame origin holding the shape to out.
    function demcontact_shape_bounding_radius(shape, out) &
        bind(C, name="demcontact_shape_bounding_radius") result(status)
      import :: c_ptr, c_double, c_int32_t
      type(c_ptr), value :: shape
      real(c_double), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_shape_bounding_radius

    !> Writes the tight world-frame axis-aligned bounding box of shape at pose to lo(3) and hi(3).
    function demcontact_shape_aabb(shape, pose, lo, hi) bind(C, name="demcontact_shape_aabb") &
        result(status)
      import :: c_ptr, c_double, c_int32_t, demcontact_pose
      type(c_ptr), value :: shape
      type(demcontact_pose), intent(in) :: pose
      real(c_double), intent(out) :: lo(3)
      real(c_double), intent(out) :: hi(3)
      integer(c_int32_t) :: status
    end function demcontact_shape_aabb

    !> The name of a status code as a static C string (demcontact_string() makes it Fortran text).
    function demcontact_status_name(status) bind(C, name="demcontact_status_name") result(name)
      import :: c_ptr, c_int32_t
      integer(c_int32_t), value :: status
      type(c_ptr) :: name
    end function demcontact_status_name

    !> The library's version as a static C string, e.g. "0.1.0".
    function demcontact_version() bind(C, name="demcontact_version") result(text)
      import :: c_ptr
      type(c_ptr) :: text
    end function demcontact_version

    !> The ABI the loaded library implements, MAJOR * 1000 + MINOR (compare DEMCONTACT_ABI_VERSION).
    !> C's demcontact_abi_version(), renamed: Fortran names ignore case, so the C name would clash with
    !> the parameter DEMCONTACT_ABI_VERSION.
    function demcontact_library_abi_version() bind(C, name="demcontact_abi_version") result(abi)
      import :: c_int32_t
      integer(c_int32_t) :: abi                ! uint32_t
    end function demcontact_library_abi_version
    !> Creates a broad phase with Verlet skin skin (host length unit, >= 0) into out (a new handle,
    !> released once with demcontact_broad_phase_release; c_null_ptr on failure).
    function demcontact_broad_phase_create(skin, out) bind(C, name="demcontact_broad_phase_create") &
        result(status)
      import :: c_double, c_ptr, c_int32_t
      real(c_double), value :: skin
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_broad_phase_create

    !> Releases a broad phase (c_null_ptr: nothing).
    function demcontact_broad_phase_release(broad) bind(C, name="demcontact_broad_phase_release") &
        result(status)
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: broad
      integer(c_int32_t) :: status
    end function demcontact_broad_phase_release

    !> Updates the scene with n bounding spheres (centres(3, n), radii(n)); rebuilt = 1 when the pair
    !> list was rebuilt, 0 when kept.
    function demcontact_broad_phase_update_spheres(broad, centres, radii, n, rebuilt) &
        bind(C, name="demcontact_broad_phase_update_spheres") result(status)
      import :: c_ptr, c_double, c_size_t, c_int32_t
      type(c_ptr), value :: broad
      real(c_double), intent(in) :: centres(*)
      real(c_double), intent(in) :: radii(*)
      integer(c_size_t), value :: n
      integer(c_int32_t), intent(out) :: rebuilt
      integer(c_int32_t) :: status
    end function demcontact_broad_phase_update_spheres

    !> Updates the scene with n axis-aligned boxes (lo(3, n), hi(3, n)); rebuilt as above.
    function demcontact_broad_phase_update_boxes(broad, lo, hi, n, rebuilt) &
        bind(C, name="demcontact_broad_phase_update_boxes") result(status)
      import :: c_ptr, c_double, c_size_t, c_int32_t
      type(c_ptr), value :: broad
      real(c_double), intent(in) :: lo(*)
      real(c_double), intent(in) :: hi(*)
      integer(c_size_t), value :: n
      integer(c_int32_t), intent(out) :: rebuilt
      integer(c_int32_t) :: status
    end function demcontact_broad_phase_update_boxes

    !> Copies up to capacity candidate pairs into pairs and sets count to their total number (call
    !> again with a larger array when count > capacity).
    function demcontact_broad_phase_pairs(broad, pairs, capacity, count) &
        bind(C, name="demcontact_broad_phase_pairs") result(status)
      import :: c_ptr, c_size_t, c_int32_t, demcontact_body_pair
      type(c_ptr), value :: broad
      type(demcontact_body_pair), intent(inout) :: pairs(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: count
      integer(c_int32_t) :: status
    end function demcontact_broad_phase_pairs

    !> Creates an empty world with Verlet skin skin (host length unit, >= 0) into out (a new handle,
    !> released once with demcontact_world_release; c_null_ptr on failure).
    function demcontact_world_create(skin, out) bind(C, name="demcontact_world_create") &
        result(status)
      import :: c_double, c_ptr, c_int32_t
      real(c_double), value :: skin
      type(c_ptr), intent(out) :: out
      integer(c_int32_t) :: status
    end function demcontact_world_create

    !> Releases a world and its references to the shapes (c_null_ptr: nothing).
    function demcontact_world_release(world) bind(C, name="demcontact_world_release") &
        result(status)
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: world
      integer(c_int32_t) :: status
    end function demcontact_world_release

    !> Replaces every body: body i is shapes(i) at poses(i); warm states are dropped.
    function demcontact_world_set_bodies(world, shapes, poses, n) &
        bind(C, name="demcontact_world_set_bodies") result(status)
      import :: c_ptr, c_size_t, c_int32_t, demcontact_pose
      type(c_ptr), value :: world
      type(c_ptr), intent(in) :: shapes(*)
      type(demcontact_pose), intent(in) :: poses(*)
      integer(c_size_t), value :: n
      integer(c_int32_t) :: status
    end function demcontact_world_set_bodies

    !> Moves the bodies (n must be the number of bodies); warm states are kept.
    function demcontact_world_set_poses(world, poses, n) bind(C, name="demcontact_world_set_poses") &
        result(status)
      import :: c_ptr, c_size_t, c_int32_t, demcontact_pose
      type(c_ptr), value :: world
      type(demcontact_pose), intent(in) :: poses(*)
      integer(c_size_t), value :: n
      integer(c_int32_t) :: status
    end function demcontact_world_set_poses

    !> One step on threads threads (0: all cores); count = the number of touching pairs.
    function demcontact_world_step(world, threads, count) bind(C, name="demcontact_world_step") &
        result(status)
      import :: c_ptr, c_size_t, c_int32_t
      type(c_ptr), value :: world
      integer(c_int32_t), value :: threads      ! uint32_t
      integer(c_size_t), intent(out) :: count
      integer(c_int32_t) :: status
    end function demcontact_world_step

    !> Copies up to capacity contacts of the last step and sets count to their total number.
    function demcontact_world_contacts(world, contacts, capacity, count) &
        bind(C, name="demcontact_world_contacts") result(status)
      import :: c_ptr, c_size_t, c_int32_t, demcontact_body_contact
      type(c_ptr), value :: world
      type(demcontact_body_contact), intent(inout) :: contacts(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: count
      integer(c_int32_t) :: status
    end function demcontact_world_contacts
  end interface

  ! The C library's strlen, to measure the strings above (not part of demcontact's ABI).
  interface
    function c_strlen(text) bind(C, name="strlen") result(length)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: text
      integer(c_size_t) :: length
    end function c_strlen
  end interface

contains

  !> A copy of the NUL-terminated C string at text as a Fortran string ("" for c_null_ptr).
  function demcontact_string(text) result(string)
    type(c_ptr), intent(in) :: text
    character(len=:), allocatable :: string
    character(kind=c_char), pointer :: chars(:)
    integer :: length, i

    if (.not. c_associated(text)) then
      string = ""
      return
    end if
    length = int(c_strlen(text))
    call c_f_pointer(text, chars, [length])
    allocate(character(len=length) :: string)
    do i = 1, length
      string(i:i) = chars(i)
    end do
  end function demcontact_string

  !> The message of the most recent failed demcontact call on the calling thread, as a Fortran string
  !> ("" if none). Call it right after the failing call: the next call may replace the message.
  function demcontact_error_text() result(text)
    character(len=:), allocatable :: text
    text = demcontact_string(demcontact_last_error_message())
  end function demcontact_error_text

end module demcontact
