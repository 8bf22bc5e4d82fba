! The Fortran module bindings/fortran/demcontact.f90 against the shared library: exact sphere numbers,
! a separated pair, a warm-state round trip, error paths and a batch. Prints every mismatch; the last
! line is "ok" and the exit status 0 only when all checks passed.
program spheres
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_associated, c_double, c_int32_t, &
                                         c_size_t
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use demcontact
  implicit none

  integer :: failures = 0
  real(c_double), parameter :: tol = 1.0e-12_c_double

  call test_versions()
  call test_overlapping_spheres()
  call test_separated_spheres()
  call test_warm_state_round_trip()
  call test_errors()
  call test_batch()

  if (failures /= 0) then
    write (*, '(i0,a)') failures, " check(s) failed"
    error stop 1
  end if
  write (*, '(a)') "ok"

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (*, '(2a)') "CHECK failed: ", what
      failures = failures + 1
    end if
  end subroutine check

  subroutine check_near(got, want, what)
    real(c_double), intent(in) :: got, want
    character(len=*), intent(in) :: what
    if (.not. abs(got - want) <= tol) then
      write (*, '(3a,es25.17,a,es25.17)') "CHECK_NEAR failed: ", what, " = ", got, &
        ", expected ", want
      failures = failures + 1
    end if
  end subroutine check_near

  subroutine check_vec(got, want, what)
    real(c_double), intent(in) :: got(3), want(3)
    character(len=*), intent(in) :: what
    integer :: i
    character(len=8) :: index
    do i = 1, 3
      write (index, '(a,i0,a)') "(", i, ")"
      call check_near(got(i), want(i), what // trim(index))
    end do
  end subroutine check_vec

  subroutine check_status(got, want, what)
    integer(c_int32_t), intent(in) :: got, want
    character(len=*), intent(in) :: what
    if (got /= want) then
      write (*, '(6a)') "CHECK_STATUS failed: ", what, " returned ", &
        demcontact_string(demcontact_status_name(got)), ", expected ", &
        demcontact_string(demcontact_status_name(want))
      write (*, '(2a)') "  message: ", demcontact_error_text()
      failures = failures + 1
    end if
  end subroutine check_status

  function pose(x, y, z, w, qx, qy, qz) result(p)
    real(c_double), intent(in) :: x, y, z, w, qx, qy, qz
    type(demcontact_pose) :: p
    p%position = [x, y, z]
    p%orientation = [w, qx, qy, qz]
  end function pose

  function sphere(radius) result(shape)
    real(c_double), intent(in) :: radius
    type(c_ptr) :: shape
    call check_status(demcontact_sphere_create(radius, shape), DEMCONTACT_STATUS_OK, "sphere")
  end function sphere

  subroutine release(shape)
    type(c_ptr), intent(inout) :: shape
    call check_status(demcontact_shape_release(shape), DEMCONTACT_STATUS_OK, "release")
    shape = c_null_ptr
  end subroutine release

  logical function same_contact(a, b)
    type(demcontact_contact), intent(in) :: a, b
    same_contact = all(a%point_a == b%point_a) .and. all(a%point_b == b%point_b) .and. &
      all(a%point == b%point) .and. all(a%normal == b%normal) .and. &
      a%penetration == b%penetration .and. a%separation == b%separation .and. &
      a%touching == b%touching .and. a%contact_type == b%contact_type .and. &
      a%iterations == b%iterations .and. a%flags == b%flags
  end function same_contact

  logical function same_warm(a, b)
    type(demcontact_warm_state), intent(in) :: a, b
    same_warm = a%kernel == b%kernel .and. a%steps == b%steps .and. all(a%data == b%data)
  end function same_warm

  subroutine test_versions()
    character(len=32) :: expected
    write (expected, '(i0,".",i0,".",i0)') DEMCONTACT_VERSION_MAJOR, DEMCONTACT_VERSION_MINOR, &
      DEMCONTACT_VERSION_PATCH
    call check(demcontact_string(demcontact_version()) == trim(expected), "version string")
    call check(demcontact_library_abi_version() == DEMCONTACT_ABI_VERSION, "ABI version")
    call check(DEMCONTACT_VERSION_NUMBER == DEMCONTACT_VERSION_MAJOR * 1000000 + &
      DEMCONTACT_VERSION_MINOR * 1000 + DEMCONTACT_VERSION_PATCH, "version number")
    call check(demcontact_string(demcontact_status_name(DEMCONTACT_STATUS_NON_FINITE)) == &
      "DEMCONTACT_STATUS_NON_FINITE", "status name")
    call check(demcontact_string(demcontact_status_name(-7_c_int32_t)) == "unknown status", &
      "unknown status name")
  end subroutine test_versions

  subroutine test_overlapping_spheres()
    type(c_ptr) :: a, b
    type(demcontact_pose) :: pa, pb, qa, qb
    type(demcontact_contact) :: c, d
    type(demcontact_warm_state) :: warm
    real(c_double) :: n(3), s, lo(3), hi(3), r
    integer(c_int32_t) :: family

    a = sphere(1.0_c_double)
    b = sphere(0.5_c_double)
    call check_status(demcontact_shape_family(a, family), DEMCONTACT_STATUS_OK, "family")
    call check(family == DEMCONTACT_SHAPE_SPHERE, "family is sphere")
    call check_status(demcontact_shape_bounding_radius(b, r), DEMCONTACT_STATUS_OK, "radius")
    call check_near(r, 0.5_c_double, "bounding radius")

    ! A at the origin, B at (1.2, 0, 0) turned 120 degrees about (1, 1, 1).
    pa = pose(0.0_c_double, 0.0_c_double, 0.0_c_double, 1.0_c_double, 0.0_c_double, &
      0.0_c_double, 0.0_c_double)
    pb = pose(1.2_c_double, 0.0_c_double, 0.0_c_double, 0.5_c_double, 0.5_c_double, &
      0.5_c_double, 0.5_c_double)
    call check_status(demcontact_collide(a, pa, b, pb, warm, c), DEMCONTACT_STATUS_OK, "collide")
    call check(c%touching == 1, "touching")
    call check_near(c%penetration, 0.3_c_double, "penetration")
    call check(c%separation == 0.0_c_double, "separation is 0")
    call check_vec(c%normal, [1.0_c_double, 0.0_c_double, 0.0_c_double], "normal")
    call check_vec(c%point_a, [1.0_c_double, 0.0_c_double, 0.0_c_double], "point_a")
    call check_vec(c%point_b, [0.7_c_double, 0.0_c_double, 0.0_c_double], "point_b")
    call check_vec(c%point, [0.85_c_double, 0.0_c_double, 0.0_c_double], "point")
    call check(c%contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH, "contact type")
    call check(c%iterations == 0, "iterations")
    call check(iand(c%flags, DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0, "not warm started")

    ! Both bodies moved and turned; B's centre 1.2 from A's along (2, 3, 6) / 7.
    n = [2.0_c_double, 3.0_c_double, 6.0_c_double] / 7.0_c_double
    s = sqrt(0.5_c_double)
    qa = pose(1.0_c_double, -2.0_c_double, 3.0_c_double, s, 0.0_c_double, s, 0.0_c_double)
    qb = pose(1.0_c_double + 1.2_c_double * n(1), -2.0_c_double + 1.2_c_double * n(2), &
      3.0_c_double + 1.2_c_double * n(3), 0.0_c_double, 0.6_c_double, 0.0_c_double, 0.8_c_double)
    call check_status(demcontact_collide(a, qa, b, qb, warm, d), DEMCONTACT_STATUS_OK, "collide")
    call check(d%touching == 1, "touching (turned)")
    call check_near(d%penetration, 0.3_c_double, "penetration (turned)")
    call check_vec(d%normal, n, "normal (turned)")
    call check_vec(d%point_a, qa%position + n, "point_a (turned)")
    call check_vec(d%point_b, qa%position + 0.7_c_double * n, "point_b (turned)")
    call check_vec(d%point, qa%position + 0.85_c_double * n, "point (turned)")

    call check_status(demcontact_shape_aabb(a, qa, lo, hi), DEMCONTACT_STATUS_OK, "aabb")
    call check_vec(lo, [0.0_c_double, -3.0_c_double, 2.0_c_double], "aabb lo")
    call check_vec(hi, [2.0_c_double, -1.0_c_double, 4.0_c_double], "aabb hi")

    call release(a)
    call release(b)
    call check(.not. c_associated(a), "released handle cleared")
    call check_status(demcontact_shape_release(c_null_ptr), DEMCONTACT_STATUS_OK, "release NULL")
  end subroutine test_overlapping_spheres

  subroutine test_separated_spheres()
    type(c_ptr) :: a, b
    type(demcontact_contact) :: c
    type(demcontact_warm_state) :: warm

    a = sphere(1.0_c_double)
    b = sphere(0.5_c_double)
    call check_status(demcontact_collide(a, pose(0.0_c_double, 0.0_c_double, 0.0_c_double, &
      1.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double), b, pose(0.0_c_double, &
      0.0_c_double, 2.0_c_double, 1.0_c_double, 0.0_c_double, 0.0_c_double, 0.0_c_double), &
      warm, c), DEMCONTACT_STATUS_OK, "collide separated")
    call check(c%touching == 0, "not touching")
    call check(c%penetration == 0.0_c_double, "penetration is 0")
    call check_near(c%separation, 0.5_c_double, "separation")
    call check(iand(c%flags, DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT) /= 0, "exact separation")
    call check_vec(c%normal, [0.0_c_double, 0.0_c_double, 1.0_c_double], "normal (apart)")
    call check_vec(c%point_a, [0.0_c_double, 0.0_c_double, 1.0_c_double], "point_a (apart)")
    call check_vec(c%point_b, [0.0_c_double, 0.0_c_double, 1.5_c_double], "point_b (apart)")
    call check_vec(c%point, [0.0_c_double, 0.0_c_double, 1.25_c_double], "point (apart)")
    call release(a)
    call release(b)
  end subroutine test_separated_spheres

  subroutine test_warm_state_round_trip()
    type(c_ptr) :: a, b
    type(demcontact_pose) :: pa, pb
    type(demcontact_warm_state) :: warm, cold, copy
    type(demcontact_contact) :: c, reference, from_copy
    integer :: step
    real(c_double) :: gap

    a = sphere(1.0_c_double)
    b = sphere(0.5_c_double)
    ! A fresh variable is cold (default initialisation); so is an explicit reset.
    call check(warm%kernel == 0 .and. warm%steps == 0 .and. all(warm%data == 0.0_c_double), &
      "fresh warm state is cold")
    pa = pose(0.5_c_double, 0.5_c_double, 0.5_c_double, 1.0_c_double, 0.0_c_double, &
      0.0_c_double, 0.0_c_double)
    do step = 0, 7
      gap = 1.9_c_double - 0.1_c_double * step
      pb = pose(0.5_c_double, 0.5_c_double + gap, 0.5_c_double, 1.0_c_double, 0.0_c_double, &
        0.0_c_double, 0.0_c_double)
      call check_status(demcontact_collide(a, pa, b, pb, warm, c), DEMCONTACT_STATUS_OK, "warm")
      cold = demcontact_warm_state(0_c_int32_t, 0_c_int32_t, 0.0_c_double)
      call check_status(demcontact_collide(a, pa, b, pb, cold, reference), DEMCONTACT_STATUS_OK, &
        "cold")
      call check(warm%kernel /= 0, "kernel tag set")
      call check(warm%steps == step + 1, "steps counted")
      call check((iand(c%flags, DEMCONTACT_CONTACT_FLAG_WARM_STARTED) /= 0) .eqv. (step > 0), &
        "warm-started flag")
      ! The same answer as a cold query, except the warm-started flag.
      c%flags = iand(c%flags, not(DEMCONTACT_CONTACT_FLAG_WARM_STARTED))
      call check(same_contact(c, reference), "warm answer equals cold answer")
      call check_near(c%penetration, max(0.0_c_double, 1.5_c_double - gap), "penetration")
    end do
    ! The record is plain data: a copy carries on exactly as the original.
    copy = warm
    pb%position(2) = 1.6_c_double
    call check_status(demcontact_collide(a, pa, b, pb, copy, from_copy), DEMCONTACT_STATUS_OK, &
      "copy")
    call check_status(demcontact_collide(a, pa, b, pb, warm, c), DEMCONTACT_STATUS_OK, "original")
    call check(same_contact(c, from_copy), "copied record gives the same answer")
    call check(same_warm(copy, warm) .and. warm%steps == 9, "copied record evolves the same")
    call release(a)
    call release(b)
  end subroutine test_warm_state_round_trip

  subroutine test_errors()
    type(c_ptr) :: a, bad
    type(demcontact_pose) :: good, far
    type(demcontact_warm_state) :: warm, before
    type(demcontact_contact) :: c
    character(len=:), allocatable :: message

    ! Invalid radius: a status, a NULL handle and a message.
    bad = c_null_ptr
    call check_status(demcontact_sphere_create(-1.0_c_double, bad), &
      DEMCONTACT_STATUS_INVALID_ARGUMENT, "negative radius")
    call check(.not. c_associated(bad), "no handle on failure")
    message = demcontact_error_text()
    call check(len(message) > 0, "message for a negative radius")
    call check(index(message, "radius") > 0, "message names the radius: " // message)
    call check_status(demcontact_sphere_create(ieee_value(1.0_c_double, ieee_quiet_nan), bad), &
      DEMCONTACT_STATUS_NON_FINITE, "NaN radius")
    call check(len(demcontact_error_text()) > 0, "message for a NaN radius")

    ! A quaternion far from unit length; the warm state is left alone.
    a = sphere(1.0_c_double)
    good = pose(0.0_c_double, 0.0_c_double, 0.0_c_double, 1.0_c_double, 0.0_c_double, &
      0.0_c_double, 0.0_c_double)
    far = pose(1.0_c_double, 0.0_c_double, 0.0_c_double, 2.0_c_double, 0.0_c_double, &
      0.0_c_double, 0.0_c_double)
    call check_status(demcontact_collide(a, good, a, good, warm, c), DEMCONTACT_STATUS_OK, &
      "concentric")
    before = warm
    call check_status(demcontact_collide(a, good, a, far, warm, c), &
      DEMCONTACT_STATUS_INVALID_ARGUMENT, "non-unit quaternion")
    message = demcontact_error_text()
    call check(index(message, "pose_b") == 1, "message starts with pose_b: " // message)
    call check(same_warm(before, warm), "warm state untouched on failure")
    call check(all(c%normal == 0.0_c_double) .and. c%touching == 0 .and. &
      c%contact_type == DEMCONTACT_CONTACT_TYPE_NONE, "failed query writes zeros")

    ! A record naming a kernel the library does not have.
    warm%kernel = 2147483647_c_int32_t
    call check_status(demcontact_collide(a, good, a, good, warm, c), &
      DEMCONTACT_STATUS_INVALID_ARGUMENT, "foreign warm state")
    call check(warm%kernel == 2147483647_c_int32_t, "foreign record left alone")

    ! A NULL handle.
    call check_status(demcontact_collide(c_null_ptr, good, a, good, before, c), &
      DEMCONTACT_STATUS_NULL_ARGUMENT, "NULL shape")
    call check(len(demcontact_error_text()) > 0, "message for a NULL shape")
    call release(a)
  end subroutine test_errors

  subroutine test_batch()
    integer, parameter :: n = 24
    type(c_ptr) :: shapes(3)
    type(demcontact_pair) :: pairs(n)
    type(demcontact_contact) :: single(n), out(n)
    type(demcontact_warm_state) :: single_warm(n), warm(n)
    integer(c_int32_t) :: statuses(n), want
    integer(c_int32_t) :: threads
    integer :: i, touching
    real(c_double) :: t, r

    shapes = [sphere(1.0_c_double), sphere(0.5_c_double), sphere(0.75_c_double)]
    touching = 0
    do i = 1, n
      t = 0.7_c_double * i
      r = 0.6_c_double + 0.1_c_double * i
      pairs(i)%a = shapes(mod(i, 3) + 1)
      pairs(i)%b = shapes(mod(i + 1, 3) + 1)
      pairs(i)%pose_a = pose(0.1_c_double * i, 0.0_c_double, 0.0_c_double, cos(t / 2), &
        sin(t / 2), 0.0_c_double, 0.0_c_double)
      pairs(i)%pose_b = pose(0.1_c_double * i + r * cos(t), r * sin(t), 0.0_c_double, &
        cos(t / 2), 0.0_c_double, 0.0_c_double, sin(t / 2))
      call check_status(demcontact_collide(pairs(i)%a, pairs(i)%pose_a, pairs(i)%b, &
        pairs(i)%pose_b, single_warm(i), single(i)), DEMCONTACT_STATUS_OK, "single")
      touching = touching + single(i)%touching
    end do
    call check(touching > 3 .and. touching < n - 3, "touching and separated pairs")

    do threads = 0, 2
      warm = demcontact_warm_state(0_c_int32_t, 0_c_int32_t, 0.0_c_double)
      statuses = -1
      call check_status(demcontact_collide_batch(pairs, int(n, c_size_t), warm, threads, out, &
        statuses), DEMCONTACT_STATUS_OK, "batch")
      do i = 1, n
        call check(statuses(i) == DEMCONTACT_STATUS_OK, "pair status")
        call check(same_contact(out(i), single(i)), "batch equals single")
        call check(same_warm(warm(i), single_warm(i)), "batch warm equals single warm")
      end do
    end do

    ! A bad quaternion in pair 6 (index 5): its own status, zeros, others fine.
    pairs(6)%pose_b%orientation(1) = 3.0_c_double
    warm = demcontact_warm_state(0_c_int32_t, 0_c_int32_t, 0.0_c_double)
    call check_status(demcontact_collide_batch(pairs, int(n, c_size_t), warm, 2_c_int32_t, out, &
      statuses), DEMCONTACT_STATUS_INVALID_ARGUMENT, "batch with a bad pair")
    call check(index(demcontact_error_text(), "pair 5") == 1, "message names pair 5")
    do i = 1, n
      want = DEMCONTACT_STATUS_OK
      if (i == 6) want = DEMCONTACT_STATUS_INVALID_ARGUMENT
      call check(statuses(i) == want, "per-pair status")
      if (i == 6) then
        call check(out(i)%touching == 0 .and. all(out(i)%point == 0.0_c_double), "zeros")
        call check(warm(i)%steps == 0, "failed pair's warm state untouched")
      else
        call check(same_contact(out(i), single(i)), "other pairs unaffected")
      end if
    end do

    do i = 1, 3
      call release(shapes(i))
    end do
  end subroutine test_batch

end program spheres
