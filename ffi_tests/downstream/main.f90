! A downstream Fortran program built against an installed demcontact through its module: the exact
! numbers of a sphere pair (radius 1 at the origin, radius 1 at (1.5, 0, 0)).
program consumer
  use, intrinsic :: iso_c_binding, only: c_ptr, c_double
  use demcontact
  implicit none
  type(c_ptr) :: a, b
  type(demcontact_pose) :: pa, pb
  type(demcontact_warm_state) :: warm
  type(demcontact_contact) :: c
  logical :: ok

  real(c_double), parameter :: identity(4) = [1.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double]

  pa = demcontact_pose([0.0_c_double, 0.0_c_double, 0.0_c_double], identity)
  pb = demcontact_pose([1.5_c_double, 0.0_c_double, 0.0_c_double], identity)
  if (demcontact_sphere_create(1.0_c_double, a) /= DEMCONTACT_STATUS_OK .or. &
      demcontact_sphere_create(1.0_c_double, b) /= DEMCONTACT_STATUS_OK .or. &
      demcontact_collide(a, pa, b, pb, warm, c) /= DEMCONTACT_STATUS_OK) then
    write (*, '(a)') demcontact_error_text()
    error stop 1
  end if
  ok = c%touching == 1 .and. abs(c%penetration - 0.5_c_double) < 1.0e-15_c_double
  ok = ok .and. abs(c%normal(1) - 1.0_c_double) < 1.0e-15_c_double .and. c%normal(2) == 0 .and. c%normal(3) == 0
  ok = ok .and. abs(c%point(1) - 0.75_c_double) < 1.0e-15_c_double .and. c%point(2) == 0 .and. c%point(3) == 0
  if (demcontact_shape_release(a) /= DEMCONTACT_STATUS_OK) ok = .false.
  if (demcontact_shape_release(b) /= DEMCONTACT_STATUS_OK) ok = .false.
  if (.not. ok) then
    write (*, '(a,es25.17)') "wrong contact: penetration ", c%penetration
    error stop 1
  end if
  write (*, '(2a)') "ok ", demcontact_string(demcontact_version())
end program consumer
