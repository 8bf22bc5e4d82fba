/* Convex polyhedra through the C ABI: two unit cubes overlapping face to face by 0.005 (B at
 * (0.1, 0.2, 0.995), turned 0.3 rad about z), their contact list at several capacities, a separated
 * pair, the cube's mass properties, counts and vertex sources, and bad inputs. */
#include <string.h>
#include "check.h"
#include "demcontact.h"

static const double CUBE[8 * 3] = {
    -0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5,
    -0.5, -0.5, 0.5,  0.5, -0.5, 0.5,  -0.5, 0.5, 0.5,  0.5, 0.5, 0.5,
};

/* A pose at (x, y, z) turned by `angle` radians about z. */
static demcontact_pose about_z(double x, double y, double z, double angle) {
  demcontact_pose p = {{x, y, z}, {cos(angle / 2.0), 0.0, 0.0, sin(angle / 2.0)}};
  return p;
}

static int all_zero_contact(const demcontact_contact *c) {
  demcontact_contact zero;
  memset(&zero, 0, sizeof zero);
  return memcmp(c, &zero, sizeof zero) == 0;
}

static int is_unused(const demcontact_basic_contact *b) {
  demcontact_basic_contact zero;
  memset(&zero, 0, sizeof zero);
  return memcmp(b, &zero, sizeof zero) == 0;
}

static void test_cube_properties(const demcontact_shape *cube) {
  double volume = -1.0, centroid[3] = {9.0, 9.0, 9.0}, r = 0.0;
  size_t nv = 0, ne = 0, nf = 0, point = 99, v;
  demcontact_shape_family_code family = 0;
  CHECK_STATUS(demcontact_shape_family(cube, &family), DEMCONTACT_STATUS_OK);
  CHECK(family == DEMCONTACT_SHAPE_POLYHEDRON);
  CHECK_STATUS(demcontact_polyhedron_mass_properties(cube, &volume, centroid), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(volume, 1.0, 1e-14);
  CHECK_NEAR(centroid[0], 0.0, 1e-14);
  CHECK_NEAR(centroid[1], 0.0, 1e-14);
  CHECK_NEAR(centroid[2], 0.0, 1e-14);
  CHECK_STATUS(demcontact_polyhedron_counts(cube, &nv, &ne, &nf), DEMCONTACT_STATUS_OK);
  CHECK(nv == 8);
  CHECK(ne == 12);
  CHECK(nf == 6);
  for (v = 0; v < nv; v++) {
    CHECK_STATUS(demcontact_polyhedron_vertex_source(cube, v, &point), DEMCONTACT_STATUS_OK);
    CHECK(point == v);
  }
  point = 99;
  CHECK_STATUS(demcontact_polyhedron_vertex_source(cube, 8, &point), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(point == 99);
  CHECK(strlen(demcontact_last_error_message()) > 0);
  CHECK_STATUS(demcontact_shape_bounding_radius(cube, &r), DEMCONTACT_STATUS_OK);
  CHECK_NEAR(r, sqrt(0.75), 1e-15);
}

static void test_vertex_order_skips_non_corners(void) {
  /* A face centre first, an interior point, then the corners: vertex v is point v + 2. */
  double xyz[10 * 3] = {0.0, 0.0, 0.5, 0.1, 0.0, 0.0};
  demcontact_shape *s = NULL;
  size_t nv = 0, ne = 0, nf = 0, point = 0, v;
  memcpy(xyz + 6, CUBE, sizeof CUBE);
  CHECK_STATUS(demcontact_polyhedron_create(xyz, 10, &s), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_polyhedron_counts(s, &nv, &ne, &nf), DEMCONTACT_STATUS_OK);
  CHECK(nv == 8 && ne == 12 && nf == 6);
  for (v = 0; v < nv; v++) {
    CHECK_STATUS(demcontact_polyhedron_vertex_source(s, v, &point), DEMCONTACT_STATUS_OK);
    CHECK(point == v + 2);
  }
  demcontact_shape_release(s);
}

static void test_face_face_pair(const demcontact_shape *cube) {
  demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0), pb = about_z(0.1, 0.2, 0.995, 0.3);
  demcontact_warm_state warm;
  demcontact_contact c, d;
  demcontact_basic_contact list[32], one[2];
  size_t count = 0, total, k;
  memset(&warm, 0, sizeof warm);
  memset(list, 0, sizeof list);
  memset(one, 0, sizeof one);

  CHECK_STATUS(demcontact_collide(cube, &pa, cube, &pb, NULL, &d), DEMCONTACT_STATUS_OK);
  CHECK(d.touching == 1);
  CHECK_NEAR(d.penetration, 0.005, 1e-12);
  CHECK_NEAR(d.normal[0], 0.0, 1e-12);
  CHECK_NEAR(d.normal[1], 0.0, 1e-12);
  CHECK_NEAR(d.normal[2], 1.0, 1e-12);
  CHECK(d.contact_type == DEMCONTACT_CONTACT_TYPE_FACE_FACE);

  /* The count alone (NULL list, capacity 0). */
  count = 12345;
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, NULL, &c, NULL, 0, &count),
               DEMCONTACT_STATUS_OK);
  CHECK(count >= 4);
  CHECK(count <= 32);
  total = count;

  /* The whole list, with a warm state. */
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, &warm, &c, list, 32, &count),
               DEMCONTACT_STATUS_OK);
  CHECK(count == total);
  CHECK(warm.steps == 1);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.005, 1e-12);
  CHECK_NEAR(c.normal[2], 1.0, 1e-12);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_FACE_FACE);
  CHECK(c.penetration == d.penetration);
  for (k = 0; k < total && k < 32; k++) {
    const demcontact_basic_contact *b = &list[k];
    CHECK(b->kind == DEMCONTACT_BASIC_FACE_VERTEX || b->kind == DEMCONTACT_BASIC_VERTEX_FACE ||
          b->kind == DEMCONTACT_BASIC_EDGE_EDGE);
    CHECK(b->reserved == 0);
    CHECK_NEAR(b->depth, 0.005, 1e-10);
    CHECK_NEAR(b->normal[0], 0.0, 1e-12);
    CHECK_NEAR(b->normal[1], 0.0, 1e-12);
    CHECK_NEAR(b->normal[2], 1.0, 1e-12);
    /* Every point lies in the overlap slab z in [0.495, 0.5]. */
    CHECK(b->point[2] > 0.49 && b->point[2] < 0.51);
    if (b->kind == DEMCONTACT_BASIC_EDGE_EDGE) {
      CHECK(b->feature_a < 12 && b->feature_b < 12);
    } else if (b->kind == DEMCONTACT_BASIC_FACE_VERTEX) {
      CHECK(b->feature_a < 6 && b->feature_b < 8);
    } else {
      CHECK(b->feature_a < 8 && b->feature_b < 6);
    }
  }
  if (total < 32) CHECK(is_unused(&list[total]));

  /* Capacity 1: the full count, one record (the list's first), nothing after it. */
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, NULL, &c, one, 1, &count),
               DEMCONTACT_STATUS_OK);
  CHECK(count == total);
  CHECK(memcmp(&one[0], &list[0], sizeof one[0]) == 0);
  CHECK(is_unused(&one[1]));

  /* NULL list with a capacity: refused, outputs zeroed, warm state untouched. */
  {
    demcontact_warm_state before = warm;
    CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, &warm, &c, NULL, 4, &count),
                 DEMCONTACT_STATUS_NULL_ARGUMENT);
    CHECK(count == 0);
    CHECK(all_zero_contact(&c));
    CHECK(memcmp(&before, &warm, sizeof warm) == 0);
    CHECK(strstr(demcontact_last_error_message(), "list") != NULL);
  }
}

static void test_separated_pair(const demcontact_shape *cube) {
  demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0), pb = about_z(1.02, 0.0, 0.0, 0.0);
  demcontact_contact c;
  demcontact_basic_contact list[4];
  size_t count = 99;
  memset(list, 0, sizeof list);
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, NULL, &c, list, 4, &count),
               DEMCONTACT_STATUS_OK);
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK(c.separation > 0.0 && c.separation <= 0.02 + 1e-12);
  CHECK(count == 0);
  CHECK(is_unused(&list[0]));
}

static void test_bad_inputs(const demcontact_shape *cube) {
  demcontact_shape *s = (demcontact_shape *)&s; /* must be set to NULL on failure */
  demcontact_shape *ball = NULL;
  static const double flat[4 * 3] = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0};
  double nan_point[8 * 3];
  double volume = -1.0, centroid[3];
  size_t nv = 0, ne = 0, nf = 0, count = 7;
  demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0), pb = about_z(0.0, 0.0, 0.9, 0.0);
  demcontact_contact c;
  demcontact_basic_contact list[4];

  CHECK_STATUS(demcontact_polyhedron_create(NULL, 8, &s), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(s == NULL);
  CHECK(strstr(demcontact_last_error_message(), "xyz") != NULL);
  CHECK_STATUS(demcontact_polyhedron_create(CUBE, 8, NULL), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "out") != NULL);
  s = (demcontact_shape *)&s;
  CHECK_STATUS(demcontact_polyhedron_create(CUBE, 3, &s), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK(s == NULL);
  CHECK(strstr(demcontact_last_error_message(), "3 points") != NULL);
  CHECK_STATUS(demcontact_polyhedron_create(NULL, 0, &s), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK(strlen(demcontact_last_error_message()) > 0);
  CHECK_STATUS(demcontact_polyhedron_create(flat, 4, &s), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY);
  CHECK(strlen(demcontact_last_error_message()) > 0);
  memcpy(nan_point, CUBE, sizeof CUBE);
  nan_point[3 * 5 + 1] = NAN;
  CHECK_STATUS(demcontact_polyhedron_create(nan_point, 8, &s), DEMCONTACT_STATUS_NON_FINITE);
  CHECK(strstr(demcontact_last_error_message(), "points[5]") != NULL);
  nan_point[3 * 5 + 1] = INFINITY;
  CHECK_STATUS(demcontact_polyhedron_create(nan_point, 8, &s), DEMCONTACT_STATUS_NON_FINITE);
  /* A count whose 3 * n_points doubles cannot exist: refused before anything is read. */
  CHECK_STATUS(demcontact_polyhedron_create(CUBE, (size_t)-1 / 3 + 1, &s),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "n_points") != NULL);
  CHECK(s == NULL);
  /* Points one byte off a double's alignment (as a packed host struct could give): refused, not
     read (reading them would be undefined behaviour). */
  {
    double storage[8 * 3 + 1];
    const double *odd = (const double *)(const void *)((const char *)storage + 1);
    s = (demcontact_shape *)&s;
    CHECK_STATUS(demcontact_polyhedron_create(odd, 8, &s), DEMCONTACT_STATUS_INVALID_ARGUMENT);
    CHECK(s == NULL);
    CHECK(strstr(demcontact_last_error_message(), "xyz") != NULL);
    CHECK(strstr(demcontact_last_error_message(), "not aligned") != NULL);
  }

  /* A sphere is not a polyhedron. */
  CHECK_STATUS(demcontact_sphere_create(0.5, &ball), DEMCONTACT_STATUS_OK);
  CHECK_STATUS(demcontact_polyhedron_mass_properties(ball, &volume, centroid),
               DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(volume == -1.0);
  CHECK(strstr(demcontact_last_error_message(), "Sphere") != NULL);
  CHECK_STATUS(demcontact_polyhedron_counts(ball, &nv, &ne, &nf), DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(demcontact_polyhedron_counts(cube, NULL, &ne, &nf), DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK_STATUS(demcontact_polyhedron_mass_properties(NULL, &volume, centroid),
               DEMCONTACT_STATUS_NULL_ARGUMENT);

  /* A polyhedron paired with a sphere: the pair query and the list refuse it. */
  CHECK_STATUS(demcontact_collide(cube, &pa, ball, &pb, NULL, &c), DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  CHECK(all_zero_contact(&c));
  CHECK(strlen(demcontact_last_error_message()) > 0);
  CHECK_STATUS(demcontact_collide(ball, &pb, cube, &pa, NULL, &c), DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  CHECK_STATUS(demcontact_contact_list(cube, &pa, ball, &pb, NULL, &c, list, 4, &count),
               DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  CHECK(count == 0);
  CHECK(strstr(demcontact_last_error_message(), "Sphere") != NULL);
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, NULL, &c, list, 4, NULL),
               DEMCONTACT_STATUS_NULL_ARGUMENT);
  CHECK(strstr(demcontact_last_error_message(), "count") != NULL);
  CHECK_STATUS(demcontact_contact_list(cube, &pa, cube, &pb, NULL, NULL, list, 4, &count),
               DEMCONTACT_STATUS_NULL_ARGUMENT);
  /* The paper's contact-direction angles belong to the common-normal kernel, not to polyhedra. */
  {
    demcontact_warm_state w;
    double alpha[2] = {0.0, 0.0};
    memset(&w, 0, sizeof w);
    CHECK_STATUS(demcontact_warm_state_from_angles(cube, &pa, cube, &pb, 0.1, 0.2, &w),
                 DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
    CHECK(w.kernel == 0);
    CHECK(strstr(demcontact_last_error_message(), "Polyhedron") != NULL);
    CHECK_STATUS(demcontact_warm_state_angles(ball, &pb, cube, &pa, &w, alpha),
                 DEMCONTACT_STATUS_UNSUPPORTED_PAIR);
  }
  demcontact_shape_release(ball);
}

int main(void) {
  demcontact_shape *cube = NULL;
  CHECK(sizeof(demcontact_basic_contact) == 72);
  CHECK_STATUS(demcontact_polyhedron_create(CUBE, 8, &cube), DEMCONTACT_STATUS_OK);
  if (cube == NULL) return finish();
  test_cube_properties(cube);
  test_vertex_order_skips_non_corners();
  test_face_face_pair(cube);
  test_separated_pair(cube);
  test_bad_inputs(cube);
  CHECK_STATUS(demcontact_shape_release(cube), DEMCONTACT_STATUS_OK);
  return finish();
}
