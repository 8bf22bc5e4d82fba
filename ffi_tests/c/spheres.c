/* Exact sphere contacts, warm states and error paths through the C ABI. */
#include "demcontact.h"
#include "demcontact.h" /* included twice on purpose: the guard must hold */
#include "check.h"
#include <string.h>

static demcontact_pose pose_at(double x, double y, double z, double w, double qx, double qy, double qz) {
  demcontact_pose p;
  p.position[0] = x; p.position[1] = y; p.position[2] = z;
  p.orientation[0] = w; p.orientation[1] = qx; p.orientation[2] = qy; p.orientation[3] = qz;
  return p;
}

static int all_finite(const demcontact_contact *c) {
  const double *d = &c->point_a[0];
  int i;
  for (i = 0; i < 14; i++) if (!isfinite(d[i])) return 0;
  return 1;
}

static int all_zero(const demcontact_contact *c) {
  demcontact_contact zero;
  memset(&zero, 0, sizeof zero);
  return memcmp(c, &zero, sizeof zero) == 0;
}

static void test_versions(void) {
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", DEMCONTACT_VERSION_MAJOR, DEMCONTACT_VERSION_MINOR,
           DEMCONTACT_VERSION_PATCH);
  CHECK(strcmp(demcontact_version(), expected) == 0);
  CHECK(demcontact_abi_version() == DEMCONTACT_ABI_VERSION);
  CHECK(DEMCONTACT_VERSION_NUMBER ==
        DEMCONTACT_VERSION_MAJOR * 1000000 + DEMCONTACT_VERSION_MINOR * 1000 + DEMCONTACT_VERSION_PATCH);
  CHECK(strcmp(demcontact_status_name(DEMCONTACT_STATUS_NON_FINITE), "DEMCONTACT_STATUS_NON_FINITE") == 0);
  CHECK(sizeof(demcontact_warm_state) == DEMCONTACT_WARM_STATE_SIZE);
}

static void test_overlapping_pair(void) {
  demcontact_shape *a = NULL, *b = NULL;
  /* B rotated 90 degrees about z: a sphere's contact must not care. */
  const double s = sqrt(0.5);
  demcontact_pose pa = pose_at(1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0);
  demcontact_pose pb = pose_at(1.0, 2.0 + 1.2, 3.0, s, 0.0, 0.0, s);
  demcontact_contact c;
  int family = 0;
  double r = 0.0, lo[3], hi[3];
  CHECK_STATUS(demcontact_sphere_create(1.0, &a), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_sphere_create(0.5, &b), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_collide(a, &pa, b, &pb, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.3, 1e-14);
  CHECK(c.separation == 0.0);
  CHECK_NEAR(c.normal[0], 0.0, 1e-15); CHECK_NEAR(c.normal[1], 1.0, 1e-15); CHECK_NEAR(c.normal[2], 0.0, 1e-15);
  CHECK_NEAR(c.point_a[1], 3.0, 1e-14);
  CHECK_NEAR(c.point_b[1], 2.7, 1e-14);
  CHECK_NEAR(c.point[0], 1.0, 1e-14); CHECK_NEAR(c.point[1], 2.85, 1e-14); CHECK_NEAR(c.point[2], 3.0, 1e-14);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH);
  CHECK(c.iterations == 0);
  CHECK((c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0);
  /* Swapping A and B flips the normal and exchanges the points. */
  {
    demcontact_contact d;
    CHECK_STATUS(demcontact_collide(b, &pb, a, &pa, NULL, &d), DEMCONTACT_STATUS_OK);
    CHECK_NEAR(d.normal[1], -1.0, 1e-15);
    CHECK_NEAR(d.point_a[1], c.point_b[1], 1e-14);
    CHECK_NEAR(d.penetration, c.penetration, 1e-15);
  }
  CHECK_STATUS(demcontact_shape_family(a, &family), DEMCONTACT_STATUS_OK);
  CHECK(family == DEMCONTACT_SHAPE_SPHERE);
  CHECK_STATUS(demcontact_shape_bounding_radius(b, &r), DEMCONTACT_STATUS_OK);
  CHECK(r == 0.5);
  CHECK_STATUS(demcontact_shape_aabb(b, &pb, lo, hi), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(lo[0], 0.5, 1e-15); CHECK_NEAR(hi[1], 3.7, 1e-14); CHECK_NEAR(lo[2], 2.5, 1e-15);
  CHECK_STATUS(demcontact_shape_release(a), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_release(b), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_release(NULL), DEMCONTACT_STATUS_OK);
}

static void test_separated_pair_and_warm_state(void) {
  demcontact_shape *a = NULL;
  demcontact_pose pa = pose_at(0, 0, 0, 1, 0, 0, 0), pb = pose_at(0, 0, 2.25, 1, 0, 0, 0);
  demcontact_warm_state warm;
  demcontact_contact c;
  int step;
  memset(&warm, 0, sizeof warm);
  CHECK_STATUS(demcontact_sphere_create(1.0, &a), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_collide(a, &pa, a, &pb, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK_NEAR(c.separation, 0.25, 1e-15);
  CHECK(c.flags & DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT);
  CHECK((c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0);
  CHECK_NEAR(c.normal[2], 1.0, 1e-15);
  CHECK_NEAR(c.point_a[2], 1.0, 1e-15);
  CHECK_NEAR(c.point_b[2], 1.25, 1e-15);
  CHECK(warm.kernel != 0);
  CHECK(warm.steps == 1);
  /* Approach along z: the state is carried from step to step; the answer is the cold one. */
  for (step = 1; step <= 10; step++) {
    demcontact_contact cold;
    pb.position[2] = 2.25 - 0.05 * step;
    CHECK_STATUS(demcontact_collide(a, &pa, a, &pb, &warm, &c), DEMCONTACT_STATUS_OK);
    CHECK_STATUS(demcontact_collide(a, &pa, a, &pb, NULL, &cold), DEMCONTACT_STATUS_OK);
    CHECK(memcmp(&c.point, &cold.point, sizeof c.point) == 0);
    CHECK(c.penetration == cold.penetration);
    CHECK(c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED);
  }
  CHECK(warm.steps == 11);
  CHECK_NEAR(c.penetration, 0.25, 1e-14);
  /* Concentric: the normal of the previous step is kept. */
  pb.position[2] = 0.0;
  CHECK_STATUS(demcontact_collide(a, &pa, a, &pb, &warm, &c), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(c.normal[2], 1.0, 1e-15);
  CHECK_NEAR(c.penetration, 2.0, 1e-15);
  /* A record with a foreign kernel tag is refused, and left alone. */
  warm.kernel = 0x7fffffffu;
  CHECK_STATUS(demcontact_collide(a, &pa, a, &pb, &warm, &c), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(warm.kernel == 0x7fffffffu);
  CHECK(all_zero(&c));
  demcontact_shape_release(a);
}

static void test_errors(void) {
  demcontact_shape *a = (demcontact_shape *)&failures; /* must be overwritten with NULL */
  demcontact_shape *ok = NULL;
  demcontact_pose p = pose_at(0, 0, 0, 1, 0, 0, 0), bad;
  demcontact_contact c;
  double r = -1.0;
  CHECK_STATUS(demcontact_sphere_create(-1.0, &a), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(a == NULL);
  CHECK(strstr(demcontact_last_error_message(), "radius") != NULL);
  CHECK_STATUS(demcontact_sphere_create(0.0, &a), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_sphere_create(NAN, &a), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strlen(demcontact_last_error_message()) > 0);
  CHECK_STATUS(demcontact_sphere_create(INFINITY, &a), DEMCONTACT_STATUS_NON_FINITE);
  CHECK_STATUS(demcontact_sphere_create(1.0, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "out") != NULL);
  CHECK_STATUS(demcontact_sphere_create(1.0, &ok), DEMCONTACT_STATUS_OK);

  memset(&c, 0x7f, sizeof c);
  CHECK_STATUS(demcontact_collide(NULL, &p, ok, &p, NULL, &c), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(all_zero(&c));
  CHECK(strstr(demcontact_last_error_message(), "a is NULL") != NULL);
  CHECK_STATUS(demcontact_collide(ok, &p, ok, NULL, NULL, &c), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_collide(ok, &p, ok, &p, NULL, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  bad = p; bad.position[1] = NAN;
  CHECK_STATUS(demcontact_collide(ok, &p, ok, &bad, NULL, &c), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strstr(demcontact_last_error_message(), "pose_b") != NULL);
  CHECK(all_zero(&c));
  bad = p; bad.orientation[0] = INFINITY;
  CHECK_STATUS(demcontact_collide(ok, &bad, ok, &p, NULL, &c), DEMCONTACT_STATUS_NON_FINITE);
  bad = p; bad.orientation[0] = 0.9; /* norm 0.9: not a unit quaternion */
  CHECK_STATUS(demcontact_collide(ok, &bad, ok, &p, NULL, &c), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "pose_a") != NULL);
  bad = p; bad.orientation[0] = 1.0 + 1e-9; /* within tolerance: normalised */
  CHECK_STATUS(demcontact_collide(ok, &bad, ok, &p, NULL, &c), DEMCONTACT_STATUS_OK);
  CHECK(all_finite(&c));
  /* Overflow is reported, never written as inf or NaN. */
  {
    demcontact_shape *huge = NULL;
    demcontact_pose far = pose_at(-1e308, 0, 0, 1, 0, 0, 0), far2 = pose_at(1e308, 0, 0, 1, 0, 0, 0);
    CHECK_STATUS(demcontact_sphere_create(1e308, &huge), DEMCONTACT_STATUS_OK);
    CHECK_STATUS(demcontact_collide(huge, &far, huge, &far2, NULL, &c), DEMCONTACT_STATUS_NON_FINITE);
    CHECK(all_zero(&c));
    demcontact_shape_release(huge);
  }
  CHECK_STATUS(demcontact_shape_bounding_radius(NULL, &r), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_shape_aabb(ok, &p, NULL, &r), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "lo") != NULL);
  demcontact_shape_release(ok);
}

static void test_batch(void) {
  enum { N = 500 };
  static demcontact_pair pairs[N];
  static demcontact_contact out[N], single;
  static demcontact_warm_state warm[N];
  static demcontact_status statuses[N];
  demcontact_shape *a = NULL, *b = NULL;
  unsigned threads;
  int i;
  CHECK_STATUS(demcontact_sphere_create(1.0, &a), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_sphere_create(0.25, &b), DEMCONTACT_STATUS_OK);
  for (threads = 0; threads <= 3; threads++) {
    memset(warm, 0, sizeof warm);
    for (i = 0; i < N; i++) {
      double t = 0.01 * i;
      pairs[i].a = a;
      pairs[i].pose_a = pose_at(0, 0, 0, 1, 0, 0, 0);
      pairs[i].b = b;
      pairs[i].pose_b = pose_at(cos(t) * (0.9 + 0.001 * i), sin(t), 0.1 * sin(3 * t), 1, 0, 0, 0);
    }
    CHECK_STATUS(demcontact_collide_batch(pairs, N, warm, threads, out, statuses), DEMCONTACT_STATUS_OK);
    for (i = 0; i < N; i++) {
      CHECK_STATUS(demcontact_collide(pairs[i].a, &pairs[i].pose_a, pairs[i].b, &pairs[i].pose_b, NULL, &single),
                   DEMCONTACT_STATUS_OK);
      CHECK(memcmp(&out[i], &single, sizeof single) == 0);
      CHECK(statuses[i] == DEMCONTACT_STATUS_OK);
      CHECK(warm[i].steps == 1);
    }
    /* Pair 7 and 300 are broken: the others still get their contacts. */
    pairs[7].pose_b.orientation[0] = NAN;
    pairs[300].b = NULL;
    CHECK_STATUS(demcontact_collide_batch(pairs, N, NULL, threads, out, statuses), DEMCONTACT_STATUS_NON_FINITE);
    CHECK(strncmp(demcontact_last_error_message(), "pair 7: pose_b", 14) == 0);
    CHECK(statuses[7] == DEMCONTACT_STATUS_NON_FINITE);
    CHECK(statuses[300] == DEMCONTACT_STATUS_NULL_ARGUMENT);
    CHECK(all_zero(&out[7]) && all_zero(&out[300]));
    CHECK(statuses[8] == DEMCONTACT_STATUS_OK && out[8].contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH);
    CHECK_STATUS(demcontact_collide_batch(pairs, N, NULL, threads, out, NULL), DEMCONTACT_STATUS_NON_FINITE);
  }
  CHECK_STATUS(demcontact_collide_batch(NULL, 0, NULL, 1, NULL, NULL), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_collide_batch(NULL, 3, NULL, 1, out, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  demcontact_shape_release(a);
  demcontact_shape_release(b);
}

int main(void) {
  test_versions();
  test_overlapping_pair();
  test_separated_pair_and_warm_state();
  test_errors();
  test_batch();
  return finish();
}
