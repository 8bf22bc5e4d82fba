/* The broad phase and the world through the C ABI: a lattice of spheres whose contacts are known
 * exactly, the buffer-growing protocol, thread-count determinism, warm states, bad inputs. */
#include "demcontact.h"
#include "check.h"
#include <string.h>

#define SIDE 4
#define N (SIDE * SIDE * SIDE)
/* Neighbours along the axes of a SIDE^3 lattice: 3 * SIDE^2 * (SIDE - 1). */
#define AXIS_PAIRS (3 * SIDE * SIDE * (SIDE - 1))
#define SPACING 0.95 /* radius 0.5: axis neighbours overlap by 0.05, diagonal ones (1.34) do not */

static demcontact_pose pose_at(double x, double y, double z) {
  demcontact_pose p;
  memset(&p, 0, sizeof p);
  p.position[0] = x; p.position[1] = y; p.position[2] = z;
  p.orientation[0] = 1.0;
  return p;
}

static void lattice(demcontact_pose poses[N], double centres[3 * N], double radii[N]) {
  int i, j, k, n = 0;
  for (k = 0; k < SIDE; k++)
    for (j = 0; j < SIDE; j++)
      for (i = 0; i < SIDE; i++, n++) {
        poses[n] = pose_at(i * SPACING, j * SPACING, k * SPACING);
        memcpy(&centres[3 * n], poses[n].position, sizeof poses[n].position);
        radii[n] = 0.5;
      }
}

/* Body index of lattice site (i, j, k). */
static unsigned site(int i, int j, int k) { return (unsigned)(i + SIDE * (j + SIDE * k)); }

/* Whether a < b are axis neighbours of the lattice. */
static int neighbours(unsigned a, unsigned b) {
  int ai = (int)a % SIDE, aj = (int)a / SIDE % SIDE, ak = (int)a / (SIDE * SIDE);
  int bi = (int)b % SIDE, bj = (int)b / SIDE % SIDE, bk = (int)b / (SIDE * SIDE);
  int d = abs(ai - bi) + abs(aj - bj) + abs(ak - bk);
  return d == 1;
}

static void test_broad_phase(void) {
  demcontact_pose poses[N];
  double centres[3 * N], radii[N], lo[3 * N], hi[3 * N];
  demcontact_broad_phase *broad = NULL;
  demcontact_body_pair pairs[AXIS_PAIRS];
  demcontact_shape *ball = NULL;
  size_t count = 0, i;
  int rebuilt = -1, sorted = 1, right = 1;
  lattice(poses, centres, radii);
  CHECK_STATUS(demcontact_broad_phase_create(0.0, &broad), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_broad_phase_update_spheres(broad, centres, radii, N, &rebuilt), DEMCONTACT_STATUS_OK);
  CHECK(rebuilt == 1);
  /* The count alone, then the pairs. */
  CHECK_STATUS(demcontact_broad_phase_pairs(broad, NULL, 0, &count), DEMCONTACT_STATUS_OK);
  CHECK(count == AXIS_PAIRS);
  CHECK_STATUS(demcontact_broad_phase_pairs(broad, pairs, AXIS_PAIRS, &count), DEMCONTACT_STATUS_OK);
  for (i = 0; i < count; i++) {
    right &= pairs[i].a < pairs[i].b && neighbours(pairs[i].a, pairs[i].b);
    if (i > 0)
      sorted &= pairs[i - 1].a < pairs[i].a || (pairs[i - 1].a == pairs[i].a && pairs[i - 1].b < pairs[i].b);
  }
  CHECK(right && sorted);
  CHECK(pairs[0].a == site(0, 0, 0) && pairs[0].b == site(1, 0, 0));
  /* Boxes from demcontact_shape_aabb: the sphere's cube also reaches its diagonal neighbours in a
   * plane (0.5 + 0.5 > 0.95 on both axes), and in space. */
  CHECK_STATUS(demcontact_sphere_create(0.5, &ball), DEMCONTACT_STATUS_OK);
  for (i = 0; i < N; i++)
    CHECK_STATUS(demcontact_shape_aabb(ball, &poses[i], &lo[3 * i], &hi[3 * i]), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_broad_phase_update_boxes(broad, lo, hi, N, NULL), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_broad_phase_pairs(broad, NULL, 0, &count), DEMCONTACT_STATUS_OK);
  /* Every pair of sites at most one step apart on each axis: (27 * N - edge effects - N) / 2 =
   * for a 4^3 lattice, 3 * 16 * 3 (axis) + 6 * 4 * 9 (plane diagonals) + 4 * 27 (space diagonals). */
  CHECK(count == 144 + 216 + 108);
  /* Bad input: a NaN centre, a negative radius, lo > hi, NULL arrays; the previous list stays. */
  centres[5] = NAN;
  CHECK_STATUS(demcontact_broad_phase_update_spheres(broad, centres, radii, N, NULL), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strstr(demcontact_last_error_message(), "body 1") != NULL);
  centres[5] = 0.0;
  radii[3] = -1.0;
  CHECK_STATUS(demcontact_broad_phase_update_spheres(broad, centres, radii, N, NULL), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_broad_phase_update_boxes(broad, hi, lo, N, NULL), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_broad_phase_update_boxes(broad, NULL, hi, N, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_broad_phase_pairs(broad, NULL, 0, &count), DEMCONTACT_STATUS_OK);
  CHECK(count == 468);
  CHECK_STATUS(demcontact_broad_phase_pairs(broad, NULL, 5, &count), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(count == 0);
  CHECK_STATUS(demcontact_broad_phase_pairs(NULL, pairs, 5, &count), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_broad_phase_create(-1.0, &broad), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(broad == NULL);
  CHECK_STATUS(demcontact_broad_phase_release(broad), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK);
}

/* One step on `threads` threads; the contacts into `out` (grown through the count protocol). */
static size_t step(demcontact_world *world, unsigned threads, demcontact_body_contact *out, size_t capacity) {
  size_t count = 0, copied = 0;
  CHECK_STATUS(demcontact_world_step(world, threads, &count), DEMCONTACT_STATUS_OK);
  /* A buffer too small gets the first contacts and the total. */
  CHECK_STATUS(demcontact_world_contacts(world, out, 3, &copied), DEMCONTACT_STATUS_OK);
  CHECK(copied == count);
  CHECK(count <= capacity);
  CHECK_STATUS(demcontact_world_contacts(world, out, capacity, &copied), DEMCONTACT_STATUS_OK);
  return count;
}

static void test_world(void) {
  demcontact_pose poses[N];
  double centres[3 * N], radii[N];
  const demcontact_shape *shapes[N];
  demcontact_shape *ball = NULL;
  demcontact_world *world = NULL;
  static demcontact_body_contact one[AXIS_PAIRS], two[AXIS_PAIRS];
  size_t count, i;
  int exact = 1, warm = 1;
  lattice(poses, centres, radii);
  CHECK_STATUS(demcontact_sphere_create(0.5, &ball), DEMCONTACT_STATUS_OK);
  for (i = 0; i < N; i++) shapes[i] = ball;
  CHECK_STATUS(demcontact_world_create(0.05, &world), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_world_set_bodies(world, shapes, poses, N), DEMCONTACT_STATUS_OK);
  /* The world keeps its own references to the shape. */
  CHECK_STATUS(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK);
  count = step(world, 1, one, AXIS_PAIRS);
  CHECK(count == AXIS_PAIRS);
  for (i = 0; i < count; i++) {
    const demcontact_contact *c = &one[i].contact;
    double along = 0.0;
    int k;
    for (k = 0; k < 3; k++) along += fabs(c->normal[k]);
    exact &= one[i].a < one[i].b && neighbours(one[i].a, one[i].b);
    exact &= c->touching == 1 && fabs(c->penetration - 0.05) < 1e-12 && fabs(along - 1.0) < 1e-15;
    exact &= c->contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH;
    exact &= (c->flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0;
  }
  CHECK(exact);
  /* Body 0 and body 1 = site (1, 0, 0): the normal is +x, the contact point midway at x = 0.475. */
  CHECK(one[0].a == 0 && one[0].b == 1);
  CHECK_NEAR(one[0].contact.normal[0], 1.0, 1e-15);
  CHECK_NEAR(one[0].contact.point[0], 0.475, 1e-15);
  /* The same step on 2 threads and on all cores: identical bytes; every pair now warm-started. */
  count = step(world, 2, two, AXIS_PAIRS);
  CHECK(count == AXIS_PAIRS);
  for (i = 0; i < count; i++) warm &= (two[i].contact.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) != 0;
  CHECK(warm);
  for (i = 0; i < count; i++) two[i].contact.flags &= ~(uint32_t)DEMCONTACT_CONTACT_FLAG_WARM_STARTED;
  for (i = 0; i < count; i++) one[i].contact.flags &= ~(uint32_t)DEMCONTACT_CONTACT_FLAG_WARM_STARTED;
  CHECK(memcmp(one, two, count * sizeof one[0]) == 0);
  count = step(world, 0, two, AXIS_PAIRS);
  CHECK(count == AXIS_PAIRS);

  /* Spread the lattice to spacing 1.2: no contacts. */
  for (i = 0; i < N; i++) {
    int k;
    for (k = 0; k < 3; k++) poses[i].position[k] *= 1.2 / SPACING;
  }
  CHECK_STATUS(demcontact_world_set_poses(world, poses, N), DEMCONTACT_STATUS_OK);
  CHECK(step(world, 2, two, AXIS_PAIRS) == 0);

  /* Bad input leaves the world as it was. */
  poses[7].orientation[0] = 2.0;
  CHECK_STATUS(demcontact_world_set_poses(world, poses, N), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  poses[7].orientation[0] = 1.0;
  poses[9].position[2] = NAN;
  CHECK_STATUS(demcontact_world_set_poses(world, poses, N), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strstr(demcontact_last_error_message(), "poses[9]") != NULL);
  poses[9].position[2] = 0.0;
  CHECK_STATUS(demcontact_world_set_poses(world, poses, N - 1), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  shapes[3] = NULL;
  CHECK_STATUS(demcontact_world_set_bodies(world, shapes, poses, N), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "shapes[3]") != NULL);
  CHECK_STATUS(demcontact_world_step(NULL, 1, &count), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_world_step(world, 1, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_world_contacts(world, NULL, 4, &count), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_world_create(NAN, &world), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(world == NULL);
  CHECK_STATUS(demcontact_world_release(NULL), DEMCONTACT_STATUS_OK);
}

static void test_empty_world_and_a_lone_body(void) {
  demcontact_world *world = NULL;
  demcontact_shape *ball = NULL;
  const demcontact_shape *shapes[1];
  demcontact_pose pose = pose_at(0.0, 0.0, 0.0);
  size_t count = 7;
  CHECK_STATUS(demcontact_world_create(0.0, &world), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_world_step(world, 0, &count), DEMCONTACT_STATUS_OK);
  CHECK(count == 0);
  CHECK_STATUS(demcontact_world_set_bodies(world, NULL, NULL, 0), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_sphere_create(1.0, &ball), DEMCONTACT_STATUS_OK);
  shapes[0] = ball;
  CHECK_STATUS(demcontact_world_set_bodies(world, shapes, &pose, 1), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_world_step(world, 2, &count), DEMCONTACT_STATUS_OK);
  CHECK(count == 0);
  CHECK_STATUS(demcontact_world_release(world), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_shape_release(ball), DEMCONTACT_STATUS_OK);
}

int main(void) {
  test_broad_phase();
  test_world();
  test_empty_world_and_a_lone_body();
  return finish();
}
