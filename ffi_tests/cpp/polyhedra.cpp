// Convex polyhedra through the C++ wrapper bindings/cpp/demcontact.hpp: two unit cubes overlapping
// face to face by 0.005 (B at (0.1, 0.2, 0.995), turned 0.3 rad about z), their contact list (grown
// from an empty vector, and the raw C call at capacity 1), a separated pair, the cube's mass
// properties, counts and vertex sources, and the exceptions for bad inputs. Prints every mismatch; the
// last line is "ok" and the exit status 0 only when all checks passed.
#include "demcontact.hpp"

#include "check.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

std::vector<std::array<double, 3> > cube_points() {
  std::vector<std::array<double, 3> > points;
  for (int i = 0; i < 8; ++i) {
    std::array<double, 3> p = {{(i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5}};
    points.push_back(p);
  }
  return points;
}

demcontact_pose about_z(double x, double y, double z, double angle) {
  return demcontact::make_pose(x, y, z, std::cos(angle / 2.0), 0.0, 0.0, std::sin(angle / 2.0));
}

void test_cube_properties(const demcontact::Shape& cube) {
  CHECK(cube.family() == DEMCONTACT_SHAPE_POLYHEDRON);
  const demcontact::MassProperties m = cube.mass_properties();
  CHECK_NEAR(m.volume, 1.0, 1e-14);
  CHECK_NEAR(m.centroid[0], 0.0, 1e-14);
  CHECK_NEAR(m.centroid[1], 0.0, 1e-14);
  CHECK_NEAR(m.centroid[2], 0.0, 1e-14);
  const demcontact::PolyhedronCounts c = cube.polyhedron_counts();
  CHECK(c.vertices == 8 && c.edges == 12 && c.faces == 6);
  for (std::size_t v = 0; v < c.vertices; ++v) {
    CHECK(cube.vertex_source(v) == v);
  }
  EXPECT_ERROR(cube.vertex_source(8), DEMCONTACT_STATUS_INVALID_ARGUMENT, "8 vertices");
  CHECK_NEAR(cube.bounding_radius(), std::sqrt(0.75), 1e-15);
}

void test_face_face_pair(const demcontact::Shape& cube) {
  const demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0);
  const demcontact_pose pb = about_z(0.1, 0.2, 0.995, 0.3);
  demcontact_warm_state warm = demcontact::cold_warm_state();
  std::vector<demcontact_basic_contact> list;  // empty: the wrapper grows it
  const demcontact_contact c = demcontact::contact_list(cube, pa, cube, pb, list, &warm);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.005, 1e-12);
  CHECK_NEAR(c.normal[0], 0.0, 1e-12);
  CHECK_NEAR(c.normal[1], 0.0, 1e-12);
  CHECK_NEAR(c.normal[2], 1.0, 1e-12);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_FACE_FACE);
  // The retry after growing the vector repeats the query from the same state: one step recorded.
  CHECK(warm.steps == 1);
  CHECK(list.size() >= 4);
  for (std::size_t k = 0; k < list.size(); ++k) {
    CHECK(list[k].kind != DEMCONTACT_BASIC_NONE);
    CHECK(list[k].reserved == 0);
    CHECK_NEAR(list[k].depth, 0.005, 1e-10);
    CHECK_NEAR(list[k].normal[0], 0.0, 1e-12);
    CHECK_NEAR(list[k].normal[1], 0.0, 1e-12);
    CHECK_NEAR(list[k].normal[2], 1.0, 1e-12);
  }
  // The same contact as collide; the list again, now into a vector that is large enough.
  const demcontact_contact d = demcontact::collide(cube, pa, cube, pb);
  CHECK(d.penetration == c.penetration && d.contact_type == c.contact_type);
  std::vector<demcontact_basic_contact> again;
  again.reserve(64);
  demcontact::contact_list(cube, pa, cube, pb, again);
  CHECK(again.size() == list.size());
  CHECK(!again.empty() && std::memcmp(&again[0], &list[0], sizeof list[0]) == 0);

  // The C call at capacity 1: the full count, one record written.
  demcontact_basic_contact one[2];
  std::memset(one, 0, sizeof one);
  demcontact_contact out;
  std::size_t count = 0;
  CHECK(demcontact_contact_list(cube.get(), &pa, cube.get(), &pb, nullptr, &out, one, 1, &count) ==
        DEMCONTACT_STATUS_OK);
  CHECK(count == list.size());
  CHECK(std::memcmp(&one[0], &list[0], sizeof one[0]) == 0);
  CHECK(one[1].kind == DEMCONTACT_BASIC_NONE && one[1].depth == 0.0);
}

void test_separated_pair(const demcontact::Shape& cube) {
  std::vector<demcontact_basic_contact> list(3);
  const demcontact_contact c = demcontact::contact_list(
      cube, about_z(0.0, 0.0, 0.0, 0.0), cube, about_z(1.02, 0.0, 0.0, 0.0), list);
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK(c.separation > 0.0 && c.separation <= 0.02 + 1e-12);
  CHECK(list.empty());
}

void test_exceptions(const demcontact::Shape& cube) {
  EXPECT_ERROR(demcontact::Shape::polyhedron(nullptr, 8), DEMCONTACT_STATUS_NULL_ARGUMENT, "xyz");
  std::vector<std::array<double, 3> > points = cube_points();
  points.resize(3);
  EXPECT_ERROR(demcontact::Shape::polyhedron(points), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY,
               "3 points");
  const double flat[12] = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0};
  EXPECT_ERROR(demcontact::Shape::polyhedron(flat, 4), DEMCONTACT_STATUS_DEGENERATE_GEOMETRY, "");
  points = cube_points();
  points[6][2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR(demcontact::Shape::polyhedron(points), DEMCONTACT_STATUS_NON_FINITE, "points[6]");

  demcontact::Shape ball = demcontact::Shape::sphere(0.5);
  EXPECT_ERROR(ball.mass_properties(), DEMCONTACT_STATUS_INVALID_ARGUMENT, "Sphere");
  EXPECT_ERROR(ball.polyhedron_counts(), DEMCONTACT_STATUS_INVALID_ARGUMENT, "Sphere");
  const demcontact_pose pa = about_z(0.0, 0.0, 0.0, 0.0);
  const demcontact_pose pb = about_z(0.0, 0.0, 0.9, 0.0);
  EXPECT_ERROR(demcontact::collide(cube, pa, ball, pb), DEMCONTACT_STATUS_UNSUPPORTED_PAIR, "");
  std::vector<demcontact_basic_contact> list(2);
  demcontact_warm_state warm = demcontact::cold_warm_state();
  EXPECT_ERROR(demcontact::contact_list(cube, pa, ball, pb, list, &warm),
               DEMCONTACT_STATUS_UNSUPPORTED_PAIR, "Sphere");
  CHECK(list.empty());
  CHECK(warm.kernel == 0 && warm.steps == 0);
}

}  // namespace

int main() {
  try {
    const demcontact::Shape cube = demcontact::Shape::polyhedron(cube_points());
    test_cube_properties(cube);
    test_face_face_pair(cube);
    test_separated_pair(cube);
    test_exceptions(cube);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return checks::finish_checks();
}
