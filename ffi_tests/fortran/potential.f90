! Potential particles (Boon, Houlsby & Utili 2013) through the Fortran module: a sphere-limit pair
! (planes far outside the shadow spheres: spheres of radius R / sqrt(k) = 2 and 1, centres 2.5 apart,
! so the SOCP optimum is 5/3 from A's centre and the overlap 0.5), and bad inputs (k = 1, r <= 0,
! NaN, unbounded planes). The last line is "ok" and the exit status 0 only when all checks passed.
program potential
  use, intrinsic :: iso_c_binding, only: c_ptr, c_associated, c_double, c_int32_t, c_size_t
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use demcontact
  implicit none

  integer :: failures = 0
  type(c_ptr) :: a, b, bad
  real(c_double) :: abcd(4, 6)
  type(demcontact_pose) :: pa, pb
  type(demcontact_warm_state) :: warm
  type(demcontact_contact) :: c
  integer :: i

  ! Six axis planes at distance 100.
  abcd = 0.0_c_double
  do i = 1, 3
    abcd(i, 2 * i - 1) = 1.0_c_double
    abcd(i, 2 * i) = -1.0_c_double
  end do
  abcd(4, :) = 100.0_c_double
  call check_status(demcontact_potential_particle_create(abcd, 6_c_size_t, 0.1_c_double, &
                    1.0_c_double, 0.25_c_double, a), DEMCONTACT_STATUS_OK, "create A")
  call check_status(demcontact_potential_particle_create(abcd, 6_c_size_t, 0.1_c_double, &
                    0.5_c_double, 0.25_c_double, b), DEMCONTACT_STATUS_OK, "create B")
  pa%position = [0.0_c_double, 0.0_c_double, 1.0_c_double]
  pa%orientation = [1.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double]
  pb%position = [0.0_c_double, 2.5_c_double, 1.0_c_double]
  pb%orientation = [cos(0.2_c_double), sin(0.2_c_double), 0.0_c_double, 0.0_c_double]
  warm = demcontact_warm_state(0_c_int32_t, 0_c_int32_t, 0.0_c_double)
  call check_status(demcontact_collide(a, pa, b, pb, warm, c), DEMCONTACT_STATUS_OK, "collide")
  call check(c%touching == 1, "touching")
  call check(c%contact_type == DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE, "contact type")
  call check_near(c%point(2), 5.0_c_double / 3.0_c_double, 1.0e-12_c_double, "point(2)")
  call check_near(c%point(3), 1.0_c_double, 1.0e-12_c_double, "point(3)")
  call check_near(c%penetration, 0.5_c_double, 1.0e-12_c_double, "penetration")
  call check_near(c%normal(2), 1.0_c_double, 1.0e-12_c_double, "normal(2)")
  call check_near(c%point_a(2), 2.0_c_double, 1.0e-12_c_double, "point_a(2)")
  call check_near(c%point_b(2), 1.5_c_double, 1.0e-12_c_double, "point_b(2)")
  call check(warm%steps == 1, "warm state written")

  call check_status(demcontact_potential_particle_create(abcd, 6_c_size_t, 0.1_c_double, &
                    1.0_c_double, 1.0_c_double, bad), DEMCONTACT_STATUS_INVALID_ARGUMENT, "k = 1")
  call check(.not. c_associated(bad), "no handle on failure")
  call check_status(demcontact_potential_particle_create(abcd, 6_c_size_t, -0.1_c_double, &
                    1.0_c_double, 0.3_c_double, bad), DEMCONTACT_STATUS_INVALID_ARGUMENT, "r < 0")
  call check_status(demcontact_potential_particle_create(abcd, 6_c_size_t, 0.1_c_double, &
                    ieee_value(1.0_c_double, ieee_quiet_nan), 0.3_c_double, bad), &
                    DEMCONTACT_STATUS_NON_FINITE, "R is NaN")
  call check_status(demcontact_potential_particle_create(abcd, 5_c_size_t, 0.1_c_double, &
                    1.0_c_double, 0.3_c_double, bad), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY, &
                    "unbounded planes")
  call check_status(demcontact_shape_release(a), DEMCONTACT_STATUS_OK, "release A")
  call check_status(demcontact_shape_release(b), DEMCONTACT_STATUS_OK, "release B")

  call report()

contains

  include "checks.inc"
end program potential
