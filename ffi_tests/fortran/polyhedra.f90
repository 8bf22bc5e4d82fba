! Convex polyhedra through the Fortran module bindings/fortran/demcontact.f90: two unit cubes, B lifted
! to z = 0.995 (0.1, 0.2 aside) and turned 0.3 rad about z, overlap face to face by 0.005; their contact,
! contact list (full, capacity 1, count only), a separated pair, the cube's mass properties and counts,
! and bad inputs. Prints every mismatch; the last line is "ok" and the exit status 0 only when all
! checks passed.
program polyhedra
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated, c_double, c_int32_t, c_size_t
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use demcontact
  implicit none

  integer :: failures = 0
  type(c_ptr) :: cube
  real(c_double) :: corners(3, 8)
  integer :: i

  ! The 8 corners of the unit cube centred on the origin, (+-0.5, +-0.5, +-0.5).
  do i = 0, 7
    corners(:, i + 1) = [merge(0.5_c_double, -0.5_c_double, btest(i, 0)), &
                         merge(0.5_c_double, -0.5_c_double, btest(i, 1)), &
                         merge(0.5_c_double, -0.5_c_double, btest(i, 2))]
  end do
  call check_status(demcontact_polyhedron_create(corners, 8_c_size_t, cube), DEMCONTACT_STATUS_OK, &
                    "create the cube")
  call test_cube_properties()
  call test_face_face_pair()
  call test_separated_pair()
  call test_errors()
  call check_status(demcontact_shape_release(cube), DEMCONTACT_STATUS_OK, "release")

  call report()

contains

  include "checks.inc"

  !> A pose at (x, y, z) turned by angle (radians) about z.
  function about_z(x, y, z, angle) result(p)
    real(c_double), intent(in) :: x, y, z, angle
    type(demcontact_pose) :: p
    p%position = [x, y, z]
    p%orientation = [cos(angle / 2), 0.0_c_double, 0.0_c_double, sin(angle / 2)]
  end function about_z

  subroutine test_cube_properties()
    real(c_double) :: volume, centroid(3)
    integer(c_size_t) :: nv, ne, nf, point
    integer(c_int32_t) :: family
    call check_status(demcontact_shape_family(cube, family), DEMCONTACT_STATUS_OK, "family")
    call check(family == DEMCONTACT_SHAPE_POLYHEDRON, "family is DEMCONTACT_SHAPE_POLYHEDRON")
    call check_status(demcontact_polyhedron_mass_properties(cube, volume, centroid), &
                      DEMCONTACT_STATUS_OK, "mass properties")
    call check_near(volume, 1.0_c_double, 1.0e-12_c_double, "volume")
    do i = 1, 3
      call check_near(centroid(i), 0.0_c_double, 1.0e-12_c_double, "centroid")
    end do
    call check_status(demcontact_polyhedron_counts(cube, nv, ne, nf), DEMCONTACT_STATUS_OK, "counts")
    call check(nv == 8 .and. ne == 12 .and. nf == 6, "counts 8/12/6")
    call check_status(demcontact_polyhedron_vertex_source(cube, 7_c_size_t, point), &
                      DEMCONTACT_STATUS_OK, "vertex source")
    call check(point == 7, "vertex 7 is point 7")
  end subroutine test_cube_properties

  subroutine test_face_face_pair()
    type(demcontact_pose) :: pa, pb
    type(demcontact_warm_state) :: warm, cold
    type(demcontact_contact) :: c
    type(demcontact_basic_contact) :: list(32), one(2)
    integer(c_size_t) :: count, total
    integer :: k
    pa = about_z(0.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double)
    pb = about_z(0.1_c_double, 0.2_c_double, 0.995_c_double, 0.3_c_double)

    call check_status(demcontact_contact_list(cube, pa, cube, pb, warm, c, list, &
                                              size(list, kind=c_size_t), count), &
                      DEMCONTACT_STATUS_OK, "contact list")
    call check(c%touching == 1, "touching")
    call check_near(c%penetration, 0.005_c_double, 1.0e-12_c_double, "penetration")
    call check_near(c%normal(1), 0.0_c_double, 1.0e-12_c_double, "normal(1)")
    call check_near(c%normal(2), 0.0_c_double, 1.0e-12_c_double, "normal(2)")
    call check_near(c%normal(3), 1.0_c_double, 1.0e-12_c_double, "normal(3)")
    call check(c%contact_type == DEMCONTACT_CONTACT_TYPE_FACE_FACE, "contact type FACE_FACE")
    call check(warm%steps == 1, "warm state written")
    call check(count >= 4 .and. count <= size(list), "count >= 4")
    total = count
    do k = 1, int(min(count, size(list, kind=c_size_t)))
      call check(list(k)%kind /= DEMCONTACT_BASIC_NONE, "basic contact kind")
      call check_near(list(k)%depth, 0.005_c_double, 1.0e-10_c_double, "basic depth")
      call check_near(list(k)%normal(3), 1.0_c_double, 1.0e-12_c_double, "basic normal(3)")
      call check(list(k)%reserved == 0, "reserved is 0")
    end do

    ! Capacity 1: the same total, one record written, the next one untouched.
    call check_status(demcontact_contact_list(cube, pa, cube, pb, cold, c, one, 1_c_size_t, count), &
                      DEMCONTACT_STATUS_OK, "capacity 1")
    call check(count == total, "capacity 1 reports the full count")
    call check(one(1)%kind /= DEMCONTACT_BASIC_NONE, "one record written")
    call check(one(2)%kind == DEMCONTACT_BASIC_NONE .and. one(2)%depth == 0, "only one record")

    ! The same contact as demcontact_collide.
    cold = demcontact_warm_state(0_c_int32_t, 0_c_int32_t, 0.0_c_double)
    call check_status(demcontact_collide(cube, pa, cube, pb, cold, c), DEMCONTACT_STATUS_OK, &
                      "collide")
    call check_near(c%penetration, 0.005_c_double, 1.0e-12_c_double, "collide penetration")
  end subroutine test_face_face_pair

  subroutine test_separated_pair()
    type(demcontact_pose) :: pa, pb
    type(demcontact_warm_state) :: warm
    type(demcontact_contact) :: c
    type(demcontact_basic_contact) :: list(4)
    integer(c_size_t) :: count
    pa = about_z(0.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double)
    pb = about_z(1.02_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double)
    count = 99
    call check_status(demcontact_contact_list(cube, pa, cube, pb, warm, c, list, &
                                              size(list, kind=c_size_t), count), &
                      DEMCONTACT_STATUS_OK, "separated pair")
    call check(c%touching == 0, "not touching")
    call check(c%penetration == 0, "no penetration")
    call check(count == 0, "count 0")
  end subroutine test_separated_pair

  subroutine test_errors()
    type(c_ptr) :: shape, ball
    real(c_double) :: flat(3, 4), bad(3, 8)
    type(demcontact_pose) :: pa, pb
    type(demcontact_warm_state) :: warm
    type(demcontact_contact) :: c
    type(demcontact_basic_contact) :: list(1)
    integer(c_size_t) :: count
    call check_status(demcontact_polyhedron_create(corners, 3_c_size_t, shape), &
                      DEMCONTACT_STATUS_DEGENERATE_GEOMETRY, "3 points")
    call check(.not. c_associated(shape), "no handle for 3 points")
    call check(len(demcontact_error_text()) > 0, "message for 3 points")
    flat = reshape([0.0_c_double, 0.0_c_double, 0.0_c_double, 1.0_c_double, 0.0_c_double, &
                    0.0_c_double, 0.0_c_double, 1.0_c_double, 0.0_c_double, 1.0_c_double, &
                    1.0_c_double, 0.0_c_double], [3, 4])
    call check_status(demcontact_polyhedron_create(flat, 4_c_size_t, shape), &
                      DEMCONTACT_STATUS_DEGENERATE_GEOMETRY, "coplanar points")
    call check(len(demcontact_error_text()) > 0, "message for coplanar points")
    bad = corners
    bad(2, 5) = ieee_value(0.0_c_double, ieee_quiet_nan)
    call check_status(demcontact_polyhedron_create(bad, 8_c_size_t, shape), &
                      DEMCONTACT_STATUS_NON_FINITE, "NaN coordinate")
    call check(index(demcontact_error_text(), "points[4]") > 0, "message names the point")

    call check_status(demcontact_sphere_create(0.5_c_double, ball), DEMCONTACT_STATUS_OK, "sphere")
    pa = about_z(0.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double)
    pb = about_z(0.0_c_double, 0.0_c_double, 0.9_c_double, 0.0_c_double)
    call check_status(demcontact_contact_list(cube, pa, ball, pb, warm, c, list, 1_c_size_t, count), &
                      DEMCONTACT_STATUS_UNSUPPORTED_PAIR, "list of a cube and a sphere")
    call check(count == 0 .and. c%touching == 0, "outputs zeroed on failure")
    call check(warm%kernel == 0 .and. warm%steps == 0, "warm state untouched on failure")
    call check_status(demcontact_collide(cube, pa, ball, pb, warm, c), &
                      DEMCONTACT_STATUS_UNSUPPORTED_PAIR, "collide a cube and a sphere")
    call check(len(demcontact_error_text()) > 0, "message for the mixed pair")
    call check_status(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK, "release the sphere")
  end subroutine test_errors

end program polyhedra
