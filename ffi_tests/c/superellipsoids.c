/* Superellipsoids through the C ABI: closed-form contacts, bad parameters, angles in warm states,
   a warm-started sequence. */
#include <string.h>
#include "check.h"
#include "demcontact.h"

static demcontact_pose at(double x, double y, double z) {
  demcontact_pose p = {{x, y, z}, {1.0, 0.0, 0.0, 0.0}};
  return p;
}

static void bad_parameters(void) {
  demcontact_shape* s = (demcontact_shape*)&s; /* must be set to NULL on failure */
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, 1.0, 0.0, 1.0, &s),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(s == NULL);
  CHECK(strstr(demcontact_last_error_message(), "eps1") != NULL);
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, 1.0, 1.0, 2.0, &s),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "eps2") != NULL);
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, 1.0, NAN, 1.0, &s),
               DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strstr(demcontact_last_error_message(), "eps1") != NULL);
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 0.0, 1.0, 1.0, 1.0, &s),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "r2") != NULL);
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, -3.0, 1.0, 1.0, &s),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "r3") != NULL);
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, 1.0, 1.0, 1.0, NULL),
               DEMCONTACT_STATUS_NULL_ARGUMENT);
}

/* A unit sphere written as a superellipsoid rolling around another at a slowly varying overlap,
   its warm state kept: every answer is the closed form (normal along the centre line, depth 2 minus
   the distance), and once the warm state holds four contact directions its extrapolated start is
   the answer itself, taken with no Newton iteration. */
static void warm_sequence(void) {
  demcontact_shape* s = NULL;
  demcontact_contact c;
  demcontact_warm_state warm;
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.0, 1.0, 1.0, 1.0, &s), DEMCONTACT_STATUS_OK);
  memset(&warm, 0, sizeof warm);
  demcontact_pose a = at(0.3, -0.2, 0.1);
  int at_start = 0;
  for (int k = 0; k < 60; k++) {
    double t = 1e-3 * k;
    double depth = 1e-3 * (1.0 + 0.5 * sin(20.0 * t));
    double u[3] = {cos(t) * cos(0.3 + 0.5 * t), sin(t) * cos(0.3 + 0.5 * t), sin(0.3 + 0.5 * t)};
    demcontact_pose b = at(a.position[0] + (2.0 - depth) * u[0],
                           a.position[1] + (2.0 - depth) * u[1],
                           a.position[2] + (2.0 - depth) * u[2]);
    b.orientation[0] = cos(t);
    b.orientation[3] = sin(t);
    CHECK_STATUS(demcontact_collide(s, &a, s, &b, &warm, &c), DEMCONTACT_STATUS_OK);
    CHECK(c.touching == 1);
    CHECK_NEAR(c.penetration, depth, 1e-12);
    for (int i = 0; i < 3; i++) CHECK_NEAR(c.normal[i], u[i], 1e-9);
    if (c.iterations == 0) at_start++;
  }
  CHECK(at_start >= 50);
  demcontact_shape_release(s);
}

int main(void) {
  demcontact_shape *ell = NULL, *ball = NULL;
  demcontact_shape_family_code family = 0;
  demcontact_contact c;
  demcontact_warm_state warm;
  double alpha[2] = {0.0, 0.0};
  demcontact_pose a = at(0.0, 0.0, 0.0), b = at(0.0, 0.0, 3.9), side = at(2.6, 0.0, 0.0);

  bad_parameters();
  /* An ellipsoid with semi-axes (1, 1.5, 2) and a unit sphere. */
  CHECK_STATUS(demcontact_superellipsoid_create(1.0, 1.5, 2.0, 1.0, 1.0, &ell), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_sphere_create(1.0, &ball), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_family(ell, &family), DEMCONTACT_STATUS_OK);
  CHECK(family == DEMCONTACT_SHAPE_SUPERELLIPSOID);

  /* Two such ellipsoids stacked along z with centres 3.9 apart: overlap 0.1 at the poles. */
  memset(&warm, 0, sizeof warm);
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.1, 1e-12);
  CHECK_NEAR(c.normal[2], 1.0, 1e-12);
  CHECK_NEAR(c.point_a[2], 2.0, 1e-12);
  CHECK_NEAR(c.point_b[2], 1.9, 1e-12);
  CHECK_NEAR(c.point[2], 1.95, 1e-12);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH);

  /* The same pair with B moved 0.2 up: apart; the separation bound is the exact gap here. */
  b.position[2] = 4.1;
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK_NEAR(c.separation, 0.1, 1e-12);
  CHECK(c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED);

  /* Moved on by 0.05, then also turned by 0.01 rad about x: the plane kept in the warm state
     still separates them (its motion certificate), by the exact 0.15 for the pure translation and
     by at least 0.15 - 0.01 * 2 (B's bounding radius) after the turn; back at 3.9 the certificate
     lets go and the full query finds the overlap again. */
  b.position[2] = 4.15;
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0 && c.iterations == 0);
  CHECK_NEAR(c.separation, 0.15, 1e-12);
  b.orientation[0] = cos(0.005);
  b.orientation[1] = sin(0.005);
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0 && c.iterations == 0);
  CHECK(c.separation >= 0.15 - 0.0201 && c.separation < 0.15);
  b.orientation[0] = 1.0;
  b.orientation[1] = 0.0;
  b.position[2] = 3.9;
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.1, 1e-12);
  b.position[2] = 4.1;
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(c.separation, 0.1, 1e-12);

  /* Ellipsoid (x semi-axis 1) and unit sphere with centres 2.6 apart along x: a gap of 0.6. The
     separation of a pair excluded by the cheap separating-plane test is a certified lower bound,
     within 2e-7 of the bodies' extents (here 2) of the gap. */
  CHECK_STATUS(demcontact_collide(ell, &a, ball, &side, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0);
  CHECK(c.separation <= 0.6 + 1e-12 && c.separation >= 0.6 - 4e-7);
  side.position[0] = 1.9;
  CHECK_STATUS(demcontact_collide(ball, &side, ell, &a, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.1, 1e-12);
  CHECK_NEAR(c.normal[0], -1.0, 1e-12);

  /* The paper's angles: seeded at (0.1, -0.05), read back; after a query they name the answer. */
  b.position[2] = 3.9;
  CHECK_STATUS(demcontact_warm_state_from_angles(ell, &a, ell, &b, 0.1, -0.05, &warm),
               DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_warm_state_angles(ell, &a, ell, &b, &warm, alpha), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(alpha[0], 0.1, 1e-14);
  CHECK_NEAR(alpha[1], -0.05, 1e-14);
  CHECK_STATUS(demcontact_collide(ell, &a, ell, &b, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(c.penetration, 0.1, 1e-12);
  CHECK_STATUS(demcontact_warm_state_angles(ell, &a, ell, &b, &warm, alpha), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(alpha[0], 0.0, 1e-9);
  CHECK_NEAR(alpha[1], 0.0, 1e-9);
  memset(&warm, 0, sizeof warm);
  CHECK_STATUS(demcontact_warm_state_angles(ell, &a, ell, &b, &warm, alpha),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_warm_state_angles(ball, &a, ball, &b, &warm, alpha),
               DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  CHECK_STATUS(demcontact_warm_state_from_angles(ell, &a, ell, &b, NAN, 0.0, &warm),
               DEMCONTACT_STATUS_NON_FINITE);

  demcontact_shape_release(ell);
  demcontact_shape_release(ball);
  warm_sequence();
  return finish();
}
