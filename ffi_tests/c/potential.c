/* Potential particles (Boon, Houlsby & Utili 2013) through the C ABI: a sphere-limit pair (planes far
 * outside the shadow sphere, so the bodies are spheres of radius R / sqrt(k) = 2 and 1 and the SOCP
 * optimum is closed-form), two aligned rounded cubes face to face (the overlap solves a quadratic), a
 * warm-started repeat, a mixed pair, and bad inputs (k = 0 or 1, r <= 0, unbounded planes, NaN). */
#include <string.h>
#include "check.h"
#include "demcontact.h"

/* Six axis planes at distance h: a cube of half-width h. */
static void cube_planes(double h, double abcd[24]) {
  int i;
  memset(abcd, 0, 24 * sizeof(double));
  for (i = 0; i < 6; i++) {
    abcd[4 * i + i / 2] = (i % 2 == 0) ? 1.0 : -1.0;
    abcd[4 * i + 3] = h;
  }
}

static demcontact_pose about_z(double x, double y, double z, double angle) {
  demcontact_pose p = {{x, y, z}, {cos(angle / 2.0), 0.0, 0.0, sin(angle / 2.0)}};
  return p;
}

static void test_sphere_limit(void) {
  double abcd[24], radius = 0.0, lo[3], hi[3];
  demcontact_shape *a = NULL, *b = NULL;
  demcontact_shape_family_code family = 0;
  demcontact_pose pa = about_z(1.0, 2.0, 3.0, 0.4), pb = about_z(3.5, 2.0, 3.0, -1.1);
  demcontact_warm_state warm;
  demcontact_contact c;
  memset(&warm, 0, sizeof warm);
  cube_planes(100.0, abcd);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.25, &a), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 0.5, 0.25, &b), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_family(a, &family), DEMCONTACT_STATUS_OK);
  CHECK(family == DEMCONTACT_SHAPE_POTENTIAL_PARTICLE);
  CHECK_STATUS(demcontact_shape_bounding_radius(a, &radius), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(radius, 2.0, 1e-12);
  CHECK_STATUS(demcontact_shape_aabb(a, &pa, lo, hi), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(lo[0], -1.0, 1e-12);
  CHECK_NEAR(hi[2], 5.0, 1e-12);
  /* F_A = |x|^2 / 4 and F_B = |x - c|^2 meet where |x| / 2 = 2.5 - |x|: the optimum is 5/3 from A's
   * centre, the overlap 0.5, A's surface point 2 from its centre, B's 1.5. */
  CHECK_STATUS(demcontact_collide(a, &pa, b, &pb, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_POTENTIAL_PARTICLE);
  CHECK_NEAR(c.point[0], 1.0 + 5.0 / 3.0, 1e-12);
  CHECK_NEAR(c.point[1], 2.0, 1e-12);
  CHECK_NEAR(c.penetration, 0.5, 1e-12);
  CHECK_NEAR(c.normal[0], 1.0, 1e-12);
  CHECK_NEAR(c.point_a[0], 3.0, 1e-12);
  CHECK_NEAR(c.point_b[0], 2.5, 1e-12);
  CHECK(!(c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED));
  /* The same pair again from the warm state: the same answer, flagged warm. */
  CHECK_STATUS(demcontact_collide(a, &pa, b, &pb, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED);
  CHECK_NEAR(c.point[0], 1.0 + 5.0 / 3.0, 1e-12);
  CHECK_NEAR(c.penetration, 0.5, 1e-12);
  /* Apart by 0.5 along y: not touching, the spheres' gap bounded below (exact for spheres). */
  pb = about_z(1.0, 5.5, 3.0, 0.0);
  CHECK_STATUS(demcontact_collide(a, &pa, b, &pb, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK_NEAR(c.separation, 0.5, 1e-12);
  CHECK_NEAR(c.normal[1], 1.0, 1e-12);
  demcontact_shape_release(a);
  demcontact_shape_release(b);
}

static void test_rounded_cubes_face_to_face(void) {
  double abcd[24], h = 0.5, r = 0.1, R = 1.0, k = 0.3;
  /* Along the axis through the face centres: (1-k)/r^2 (x - h)^2 + k/R^2 x^2 = 1. */
  double p = (1.0 - k) / (r * r), q = k / (R * R);
  double reach = (p * h + sqrt(p * h * p * h - (p + q) * (p * h * h - 1.0))) / (p + q);
  demcontact_shape *cube = NULL, *ball = NULL;
  demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0), pb = about_z(2.0 * reach - 0.03, 0.0, 0.0, 0.0);
  demcontact_contact c;
  cube_planes(h, abcd);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, r, R, k, &cube), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_collide(cube, &pa, cube, &pb, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.03, 1e-12);
  CHECK_NEAR(c.normal[0], 1.0, 1e-12);
  CHECK_NEAR(c.point[0], reach - 0.015, 1e-12);
  CHECK_NEAR(c.point_a[0], reach, 1e-12);
  /* A potential particle with a sphere: no kernel for the mix. */
  CHECK_STATUS(demcontact_sphere_create(1.0, &ball), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_collide(cube, &pa, ball, &pb, NULL, &c), DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  demcontact_shape_release(ball);
  demcontact_shape_release(cube);
}

static void test_bad_inputs(void) {
  double abcd[24];
  demcontact_shape *out = (demcontact_shape *)&abcd; /* any non-NULL value: failures write NULL */
  cube_planes(0.5, abcd);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.0, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK(strlen(demcontact_last_error_message()) > 0);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 1.0, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.0, 1.0, 0.3, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, -0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 0.0, 0.3, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, NAN, 1.0, 0.3, &out), DEMCONTACT_STATUS_NON_FINITE);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, NAN, &out), DEMCONTACT_STATUS_NON_FINITE);
  /* Five planes: nothing bounds -z. */
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 5, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK(out == NULL);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 3, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK_STATUS(demcontact_potential_particle_create(NULL, 6, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.3, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  abcd[7] = -0.5; /* d <= 0: the origin outside a plane */
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  abcd[7] = 0.5;
  abcd[9] = NAN;
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_NON_FINITE);
  abcd[9] = 0.0;
  abcd[4] = 0.0; /* a zero normal */
  CHECK_STATUS(demcontact_potential_particle_create(abcd, 6, 0.1, 1.0, 0.3, &out), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK(out == NULL);
}

int main(void) {
  test_sphere_limit();
  test_rounded_cubes_face_to_face();
  test_bad_inputs();
  return finish();
}
