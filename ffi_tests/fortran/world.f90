! The broad phase and the world through the Fortran module. The scene: a 4 x 3 x 2 lattice of unit
! spheres (radius 0.5), spaced 0.99 along x and 1.5 along y and z, so exactly the 3 x 3 x 2 = 18
! x-neighbour pairs overlap, each by 0.01 with normal +x. Checked: the broad phase's pairs (0-based
! indices, a < b, sorted, the count when the array is too small), the world's contacts on 1 and 2
! threads (same pairs, depth, normal and points), a second step after a rigid shift of the scene
! (warm states kept: the contacts move with it), and bad inputs (a pose count that is not the number
! of bodies, a NaN centre). The last line is "ok" and the exit status 0 only when all checks passed.
program world
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_associated, c_double, c_int32_t, &
    c_size_t
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use demcontact
  implicit none

  integer, parameter :: nx = 4, ny = 3, nz = 2, n = nx * ny * nz, expected = (nx - 1) * ny * nz
  integer :: failures = 0
  type(c_ptr) :: sphere, broad, w
  type(c_ptr) :: shapes(n)
  type(demcontact_pose) :: poses(n)
  real(c_double) :: centres(3, n), radii(n)
  type(demcontact_body_pair) :: pairs(2 * expected), few(4)
  type(demcontact_body_contact) :: contacts(2 * expected), again(2 * expected)
  integer(c_size_t) :: count
  integer(c_int32_t) :: rebuilt, threads
  integer :: i, j, k, body

  call check_status(demcontact_sphere_create(0.5_c_double, sphere), DEMCONTACT_STATUS_OK, "sphere")
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        body = ((k - 1) * ny + (j - 1)) * nx + i
        centres(:, body) = [0.99_c_double * i, 1.5_c_double * j, 1.5_c_double * k]
        radii(body) = 0.5_c_double
        shapes(body) = sphere
        poses(body)%position = centres(:, body)
        poses(body)%orientation = [1.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double]
      end do
    end do
  end do

  ! Broad phase on the bounding spheres, no skin: the overlapping pairs only.
  call check_status(demcontact_broad_phase_create(0.0_c_double, broad), DEMCONTACT_STATUS_OK, &
                    "broad phase create")
  call check_status(demcontact_broad_phase_update_spheres(broad, centres, radii, &
                    int(n, c_size_t), rebuilt), DEMCONTACT_STATUS_OK, "update spheres")
  call check(rebuilt == 1, "first update rebuilds")
  call check_status(demcontact_broad_phase_pairs(broad, pairs, int(size(pairs), c_size_t), count), &
                    DEMCONTACT_STATUS_OK, "pairs")
  call check(count == expected, "18 candidate pairs")
  do i = 1, min(int(count), size(pairs))
    ! x-neighbours: 0-based indices b = a + 1, a not at the end of a row.
    call check(pairs(i)%b == pairs(i)%a + 1 .and. mod(pairs(i)%a, nx) /= nx - 1, "an x-neighbour pair")
    if (i > 1) call check(pairs(i)%a > pairs(i - 1)%a, "pairs sorted")
  end do
  call check_status(demcontact_broad_phase_pairs(broad, few, int(size(few), c_size_t), count), &
                    DEMCONTACT_STATUS_OK, "pairs into a small array")
  call check(count == expected, "the total count when the array is too small")
  call check(few(4)%a == pairs(4)%a .and. few(4)%b == pairs(4)%b, "the first pairs copied")
  centres(2, 5) = ieee_value(1.0_c_double, ieee_quiet_nan)
  call check_status(demcontact_broad_phase_update_spheres(broad, centres, radii, &
                    int(n, c_size_t), rebuilt), DEMCONTACT_STATUS_NON_FINITE, "NaN centre")
  call check_status(demcontact_broad_phase_release(broad), DEMCONTACT_STATUS_OK, "broad release")

  ! The world: the same scene stepped on 1 and 2 threads.
  call check_status(demcontact_world_create(0.05_c_double, w), DEMCONTACT_STATUS_OK, "world create")
  call check_status(demcontact_world_set_bodies(w, shapes, poses, int(n, c_size_t)), &
                    DEMCONTACT_STATUS_OK, "set bodies")
  ! The world keeps its own reference to the shape.
  call check_status(demcontact_shape_release(sphere), DEMCONTACT_STATUS_OK, "release the sphere")
  do threads = 1, 2
    call check_status(demcontact_world_step(w, threads, count), DEMCONTACT_STATUS_OK, "step")
    call check(count == expected, "18 contacts")
    call check_status(demcontact_world_contacts(w, contacts, int(size(contacts), c_size_t), count), &
                      DEMCONTACT_STATUS_OK, "contacts")
    call check(count == expected, "18 contacts copied")
    do i = 1, expected
      call check(contacts(i)%b == contacts(i)%a + 1, "contact of x-neighbours")
      call check(contacts(i)%contact%touching == 1, "touching")
      call check_near(contacts(i)%contact%penetration, 0.01_c_double, 1.0e-12_c_double, "depth")
      call check_near(contacts(i)%contact%normal(1), 1.0_c_double, 1.0e-12_c_double, "normal x")
      body = contacts(i)%a + 1
      call check_near(contacts(i)%contact%point(1), centres(1, body) + 0.495_c_double, &
                      1.0e-12_c_double, "point x")
      call check_near(contacts(i)%contact%point(3), poses(body)%position(3), 1.0e-12_c_double, &
                      "point z")
    end do
  end do

  ! The whole scene shifted rigidly: the same contacts, moved with it.
  do body = 1, n
    poses(body)%position = poses(body)%position + [0.002_c_double, -0.001_c_double, 0.003_c_double]
  end do
  call check_status(demcontact_world_set_poses(w, poses, int(n, c_size_t)), DEMCONTACT_STATUS_OK, &
                    "set poses")
  call check_status(demcontact_world_step(w, 0_c_int32_t, count), DEMCONTACT_STATUS_OK, &
                    "step on all cores")
  call check_status(demcontact_world_contacts(w, again, int(size(again), c_size_t), count), &
                    DEMCONTACT_STATUS_OK, "contacts after the shift")
  call check(count == expected, "18 contacts after the shift")
  do i = 1, expected
    call check(again(i)%a == contacts(i)%a .and. again(i)%b == contacts(i)%b, "same pairs")
    call check_near(again(i)%contact%point(1), contacts(i)%contact%point(1) + 0.002_c_double, &
                    1.0e-12_c_double, "point moved with the scene")
    call check_near(again(i)%contact%penetration, 0.01_c_double, 1.0e-12_c_double, "same depth")
  end do

  call check_status(demcontact_world_set_poses(w, poses, int(n - 1, c_size_t)), &
                    DEMCONTACT_STATUS_INVALID_ARGUMENT, "pose count is not the body count")
  call check_status(demcontact_world_release(w), DEMCONTACT_STATUS_OK, "world release")
  call check_status(demcontact_world_release(c_null_ptr), DEMCONTACT_STATUS_OK, "release NULL")
  call check(.not. c_associated(c_null_ptr), "NULL stays NULL")

  call report()

contains

  include "checks.inc"
end program world
