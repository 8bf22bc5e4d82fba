// The C++ wrapper bindings/cpp/demcontact.hpp against the shared library: exact sphere numbers,
// warm states, exceptions, move semantics and batches. Prints every mismatch; the last line is "ok"
// and the exit status 0 only when all checks passed.
#include "demcontact.hpp"
#include "demcontact.hpp"  // included twice on purpose: the guard must hold

#include "check.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

bool same_bits(const demcontact_contact& a, const demcontact_contact& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

bool all_zero(const demcontact_contact& c) {
  const demcontact_contact zero = demcontact_contact();
  return same_bits(c, zero);
}

// The wrapper's types behave as documented at compile time.
static_assert(!std::is_copy_constructible<demcontact::Shape>::value, "Shape is not copyable");
static_assert(!std::is_copy_assignable<demcontact::Shape>::value, "Shape is not copy-assignable");
static_assert(std::is_nothrow_move_constructible<demcontact::Shape>::value, "noexcept move");
static_assert(std::is_nothrow_move_assignable<demcontact::Shape>::value, "noexcept move-assign");
static_assert(std::is_nothrow_destructible<demcontact::Shape>::value, "noexcept destructor");
static_assert(!std::is_copy_constructible<demcontact::World>::value, "World is not copyable");
static_assert(std::is_nothrow_move_constructible<demcontact::World>::value, "noexcept move");
static_assert(std::is_nothrow_move_constructible<demcontact::BroadPhase>::value, "noexcept move");
static_assert(std::is_base_of<std::runtime_error, demcontact::Error>::value, "Error is a runtime_error");
static_assert(std::is_same<decltype(demcontact::collide(std::declval<const demcontact::Shape&>(),
                                                        std::declval<const demcontact_pose&>(),
                                                        std::declval<const demcontact::Shape&>(),
                                                        std::declval<const demcontact_pose&>())),
                           demcontact_contact>::value,
              "collide returns the C contact");

void test_versions() {
  const std::string expected = std::to_string(DEMCONTACT_VERSION_MAJOR) + "." +
                               std::to_string(DEMCONTACT_VERSION_MINOR) + "." +
                               std::to_string(DEMCONTACT_VERSION_PATCH);
  CHECK(demcontact::version() == expected);
  CHECK(demcontact::header_abi_version() == static_cast<std::uint32_t>(DEMCONTACT_ABI_VERSION));
  CHECK(demcontact::library_abi_version() == demcontact_abi_version());
  CHECK(demcontact::abi_compatible());
  bool threw = false;
  try {
    demcontact::require_compatible_abi();
  } catch (const std::exception&) {
    threw = true;
  }
  CHECK(!threw);
}

void test_overlapping_spheres() {
  const demcontact::Shape a = demcontact::Shape::sphere(1.0);
  const demcontact::Shape b = demcontact::Shape::sphere(0.5);
  CHECK(a.family() == DEMCONTACT_SHAPE_SPHERE);
  CHECK(b.bounding_radius() == 0.5);

  // A at the origin, B at (1.2, 0, 0) turned 120 degrees about (1, 1, 1): a sphere's contact must not
  // depend on its orientation.
  const demcontact_pose pa = demcontact::identity_pose();
  const demcontact_pose pb = demcontact::make_pose(1.2, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5);
  const demcontact_contact c = demcontact::collide(a, pa, b, pb);
  CHECK(c.touching == 1);
  CHECK_NEAR(c.penetration, 0.3, 1e-12);
  CHECK(c.separation == 0.0);
  CHECK_VEC(c.normal, 1.0, 0.0, 0.0, 1e-12);
  CHECK_VEC(c.point_a, 1.0, 0.0, 0.0, 1e-12);
  CHECK_VEC(c.point_b, 0.7, 0.0, 0.0, 1e-12);
  CHECK_VEC(c.point, 0.85, 0.0, 0.0, 1e-12);
  CHECK(c.contact_type == DEMCONTACT_CONTACT_TYPE_SMOOTH);
  CHECK(c.iterations == 0);
  CHECK((c.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0);

  // Both bodies moved and turned; B's centre 1.2 from A's along (2, 3, 6) / 7.
  const double n[3] = {2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0};
  const double s = std::sqrt(0.5);
  const demcontact_pose qa = demcontact::make_pose({{1.0, -2.0, 3.0}}, {{s, 0.0, s, 0.0}});
  const demcontact_pose qb =
      demcontact::make_pose(1.0 + 1.2 * n[0], -2.0 + 1.2 * n[1], 3.0 + 1.2 * n[2], 0.0, 0.6, 0.0, 0.8);
  const demcontact_contact d = demcontact::collide(a, qa, b, qb);
  CHECK(d.touching == 1);
  CHECK_NEAR(d.penetration, 0.3, 1e-12);
  CHECK_VEC(d.normal, n[0], n[1], n[2], 1e-12);
  CHECK_VEC(d.point_a, 1.0 + n[0], -2.0 + n[1], 3.0 + n[2], 1e-12);
  CHECK_VEC(d.point_b, 1.0 + 0.7 * n[0], -2.0 + 0.7 * n[1], 3.0 + 0.7 * n[2], 1e-12);
  CHECK_VEC(d.point, 1.0 + 0.85 * n[0], -2.0 + 0.85 * n[1], 3.0 + 0.85 * n[2], 1e-12);

  // Swapping A and B flips the normal and exchanges the points.
  const demcontact_contact e = demcontact::collide(b, qb, a, qa);
  CHECK_VEC(e.normal, -n[0], -n[1], -n[2], 1e-12);
  CHECK_VEC(e.point_a, d.point_b[0], d.point_b[1], d.point_b[2], 1e-12);
  CHECK_NEAR(e.penetration, d.penetration, 1e-14);

  // Bounding boxes: both forms.
  double lo[3], hi[3];
  b.aabb(qb, lo, hi);
  CHECK_VEC(lo, qb.position[0] - 0.5, qb.position[1] - 0.5, qb.position[2] - 0.5, 1e-14);
  CHECK_VEC(hi, qb.position[0] + 0.5, qb.position[1] + 0.5, qb.position[2] + 0.5, 1e-14);
  const std::pair<std::array<double, 3>, std::array<double, 3> > box = a.aabb(qa);
  CHECK_VEC(box.first, 0.0, -3.0, 2.0, 1e-14);
  CHECK_VEC(box.second, 2.0, -1.0, 4.0, 1e-14);
}

void test_separated_spheres() {
  const demcontact::Shape a = demcontact::Shape::sphere(1.0);
  const demcontact::Shape b = demcontact::Shape::sphere(0.5);
  const demcontact_contact c =
      demcontact::collide(a, demcontact::identity_pose(), b, demcontact::make_pose(0.0, 0.0, 2.0));
  CHECK(c.touching == 0);
  CHECK(c.penetration == 0.0);
  CHECK_NEAR(c.separation, 0.5, 1e-12);
  CHECK((c.flags & DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT) != 0);
  CHECK_VEC(c.normal, 0.0, 0.0, 1.0, 1e-12);
  CHECK_VEC(c.point_a, 0.0, 0.0, 1.0, 1e-12);
  CHECK_VEC(c.point_b, 0.0, 0.0, 1.5, 1e-12);
  CHECK_VEC(c.point, 0.0, 0.0, 1.25, 1e-12);
}

void test_warm_state_round_trip() {
  const demcontact::Shape a = demcontact::Shape::sphere(1.0);
  const demcontact::Shape b = demcontact::Shape::sphere(0.5);
  const demcontact_pose pa = demcontact::make_pose(0.5, 0.5, 0.5);
  demcontact_warm_state warm = demcontact::cold_warm_state();
  CHECK(warm.kernel == 0 && warm.steps == 0);
  for (int step = 0; step < 8; ++step) {
    // B approaches A along y, from 1.9 to 1.2 apart.
    const demcontact_pose pb = demcontact::make_pose(0.5, 0.5 + 1.9 - 0.1 * step, 0.5);
    const demcontact_contact warm_answer = demcontact::collide(a, pa, b, pb, &warm);
    const demcontact_contact cold_answer = demcontact::collide(a, pa, b, pb);
    CHECK(warm.kernel != 0);
    CHECK(warm.steps == static_cast<std::uint32_t>(step + 1));
    CHECK(((warm_answer.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) != 0) == (step > 0));
    CHECK((cold_answer.flags & DEMCONTACT_CONTACT_FLAG_WARM_STARTED) == 0);
    // Same answer, bit for bit, except the warm-started flag.
    demcontact_contact stripped = warm_answer;
    stripped.flags &= ~static_cast<std::uint32_t>(DEMCONTACT_CONTACT_FLAG_WARM_STARTED);
    CHECK(same_bits(stripped, cold_answer));
    CHECK_NEAR(warm_answer.penetration, 1.5 - (1.9 - 0.1 * step) > 0 ? 1.5 - (1.9 - 0.1 * step) : 0.0,
               1e-12);
  }
  // The record is plain data: a copy carries on exactly as the original.
  demcontact_warm_state copy;
  std::memcpy(&copy, &warm, sizeof copy);
  const demcontact_pose pb = demcontact::make_pose(0.5, 1.6, 0.5);
  const demcontact_contact from_copy = demcontact::collide(a, pa, b, pb, &copy);
  const demcontact_contact from_original = demcontact::collide(a, pa, b, pb, &warm);
  CHECK(same_bits(from_copy, from_original));
  CHECK(copy.steps == 9 && warm.steps == 9);
  CHECK(std::memcmp(&copy, &warm, sizeof copy) == 0);
}

void test_exceptions() {
  EXPECT_ERROR(demcontact::Shape::sphere(-1.0), DEMCONTACT_STATUS_INVALID_ARGUMENT, "");
  EXPECT_ERROR(demcontact::Shape::sphere(0.0), DEMCONTACT_STATUS_INVALID_ARGUMENT, "");
  EXPECT_ERROR(demcontact::Shape::sphere(std::numeric_limits<double>::quiet_NaN()),
               DEMCONTACT_STATUS_NON_FINITE, "");
  EXPECT_ERROR(demcontact::Shape::sphere(std::numeric_limits<double>::infinity()),
               DEMCONTACT_STATUS_NON_FINITE, "");

  // Potential particles: six axis planes at 100 (the sphere limit, radius R / sqrt(k) = 2); five of
  // them bound no finite body.
  double planes[24] = {0.0};
  for (int i = 0; i < 6; ++i) {
    planes[4 * i + i / 2] = (i % 2 == 0) ? 1.0 : -1.0;
    planes[4 * i + 3] = 100.0;
  }
  const demcontact::Shape ball = demcontact::Shape::potential_particle(planes, 6, 0.1, 1.0, 0.25);
  CHECK(ball.family() == DEMCONTACT_SHAPE_POTENTIAL_PARTICLE);
  CHECK_NEAR(demcontact::collide(ball, demcontact::identity_pose(), ball,
                                 demcontact::make_pose(3.5, 0.0, 0.0))
                 .penetration,
             0.5, 1e-12);
  EXPECT_ERROR(demcontact::Shape::potential_particle(planes, 5, 0.1, 1.0, 0.25),
               DEMCONTACT_STATUS_DEGENERATE_GEOMETRY, "");
  EXPECT_ERROR(demcontact::Shape::potential_particle(planes, 6, 0.1, 1.0, 1.0),
               DEMCONTACT_STATUS_INVALID_ARGUMENT, "");

  const demcontact::Shape a = demcontact::Shape::sphere(1.0);
  const demcontact_pose good = demcontact::identity_pose();
  const demcontact_pose far_from_unit = demcontact::make_pose(1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0);
  EXPECT_ERROR(demcontact::collide(a, good, a, far_from_unit), DEMCONTACT_STATUS_INVALID_ARGUMENT,
               "pose_b");
  EXPECT_ERROR(demcontact::collide(a, far_from_unit, a, good), DEMCONTACT_STATUS_INVALID_ARGUMENT,
               "pose_a");
  const demcontact_pose nan_pose =
      demcontact::make_pose(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0);
  EXPECT_ERROR(demcontact::collide(a, good, a, nan_pose), DEMCONTACT_STATUS_NON_FINITE, "pose_b");
  // Within the tolerance a quaternion is normalised, not refused.
  const demcontact_pose nearly_unit =
      demcontact::make_pose(1.5, 0.0, 0.0, 1.0 + 0.1 * DEMCONTACT_QUATERNION_TOLERANCE, 0.0, 0.0, 0.0);
  CHECK_NEAR(demcontact::collide(a, good, a, nearly_unit).penetration, 0.5, 1e-12);

  // A failed query leaves the warm state alone.
  demcontact_warm_state warm = demcontact::cold_warm_state();
  demcontact::collide(a, good, a, nearly_unit, &warm);
  const demcontact_warm_state before = warm;
  EXPECT_ERROR(demcontact::collide(a, good, a, far_from_unit, &warm),
               DEMCONTACT_STATUS_INVALID_ARGUMENT, "pose_b");
  CHECK(std::memcmp(&before, &warm, sizeof warm) == 0);
  // A record naming a kernel the library does not have is refused.
  demcontact_warm_state foreign = demcontact::cold_warm_state();
  foreign.kernel = 0x7fffffffu;
  EXPECT_ERROR(demcontact::collide(a, good, a, nearly_unit, &foreign),
               DEMCONTACT_STATUS_INVALID_ARGUMENT, "kernel");
  CHECK(foreign.kernel == 0x7fffffffu && foreign.steps == 0);

  // An empty Shape is a NULL handle.
  const demcontact::Shape empty;
  EXPECT_ERROR(demcontact::collide(empty, good, a, nearly_unit), DEMCONTACT_STATUS_NULL_ARGUMENT, "");
  EXPECT_ERROR(empty.family(), DEMCONTACT_STATUS_NULL_ARGUMENT, "");
  EXPECT_ERROR(empty.bounding_radius(), DEMCONTACT_STATUS_NULL_ARGUMENT, "");

  // The message survives later successful calls: it was copied into the exception.
  try {
    demcontact::Shape::sphere(-2.0);
    CHECK(false);
  } catch (const demcontact::Error& e) {
    const std::string kept = e.message();
    demcontact::Shape::sphere(3.0);
    CHECK(e.message() == kept && !kept.empty());
  }
}

void test_moves() {
  demcontact::Shape a = demcontact::Shape::sphere(1.0);
  const demcontact_shape* raw = a.get();
  CHECK(raw != nullptr && static_cast<bool>(a));

  demcontact::Shape b(std::move(a));
  CHECK(a.get() == nullptr);  // NOLINT: checking the moved-from state is the point
  CHECK(!a);
  CHECK(b.get() == raw);
  CHECK(b.bounding_radius() == 1.0);

  // Move-assignment releases the target's previous handle (valgrind sees a leak otherwise).
  demcontact::Shape c = demcontact::Shape::sphere(2.0);
  c = std::move(b);
  CHECK(b.get() == nullptr);
  CHECK(c.get() == raw);
  CHECK(c.bounding_radius() == 1.0);

  // Assigning into a moved-from Shape and moving an empty one are fine.
  a = demcontact::Shape::sphere(0.25);
  CHECK(a.bounding_radius() == 0.25);
  demcontact::Shape d(std::move(b));
  CHECK(!d && !b);

  // Self-move-assignment keeps the handle.
  demcontact::Shape& alias = c;
  c = std::move(alias);
  CHECK(c.get() == raw);

  // Shapes in a growing vector are moved on reallocation, never copied or released twice.
  std::vector<demcontact::Shape> shapes;
  for (int i = 1; i <= 40; ++i) {
    shapes.push_back(demcontact::Shape::sphere(0.1 * i));
  }
  for (int i = 1; i <= 40; ++i) {
    CHECK_NEAR(shapes[static_cast<std::size_t>(i - 1)].bounding_radius(), 0.1 * i, 1e-15);
  }
  shapes.erase(shapes.begin() + 3);
  CHECK_NEAR(shapes[3].bounding_radius(), 0.5, 1e-15);

  // release() hands the handle over; reset() adopts one.
  demcontact_shape* owned = c.release();
  CHECK(owned == raw && !c);
  demcontact::Shape adopted(owned);
  CHECK(adopted.bounding_radius() == 1.0);
  adopted.reset();
  CHECK(!adopted);
}

void test_batches() {
  std::vector<demcontact::Shape> shapes;
  shapes.push_back(demcontact::Shape::sphere(1.0));
  shapes.push_back(demcontact::Shape::sphere(0.5));
  shapes.push_back(demcontact::Shape::sphere(0.75));

  // A deterministic spread of touching and separated pairs, with turned bodies.
  std::vector<demcontact_pair> pairs;
  std::uint64_t seed = 12345u;
  const auto next = [&seed]() -> double {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return static_cast<double>(seed >> 11) / 9007199254740992.0;  // [0, 1)
  };
  const int n = 97;
  for (int i = 0; i < n; ++i) {
    const double t = 6.283185307179586 * next();
    const double half = 0.5 * t;
    const demcontact_pose pa =
        demcontact::make_pose(next(), next(), next(), std::cos(half), std::sin(half), 0.0, 0.0);
    const double r = 0.5 + 2.5 * next();
    const demcontact_pose pb = demcontact::make_pose(pa.position[0] + r * std::cos(t),
                                                     pa.position[1] + r * std::sin(t),
                                                     pa.position[2], std::cos(half), 0.0, 0.0,
                                                     std::sin(half));
    pairs.push_back(demcontact::make_contact_pair(shapes[static_cast<std::size_t>(i % 3)], pa,
                                                  shapes[static_cast<std::size_t>((i + 1) % 3)], pb));
  }

  // The single-pair answers, with a warm state each.
  std::vector<demcontact_contact> single(pairs.size());
  std::vector<demcontact_warm_state> single_warm(pairs.size(), demcontact::cold_warm_state());
  int touching = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const demcontact::Shape& a = shapes[i % 3];
    const demcontact::Shape& b = shapes[(i + 1) % 3];
    single[i] = demcontact::collide(a, pairs[i].pose_a, b, pairs[i].pose_b, &single_warm[i]);
    touching += single[i].touching;
  }
  CHECK(touching > 10 && touching < n - 10);

  const std::uint32_t thread_counts[] = {1u, 2u, 0u};
  for (std::uint32_t threads : thread_counts) {
    // Vector form, with warm states.
    std::vector<demcontact_contact> out;
    std::vector<demcontact_warm_state> warm(pairs.size(), demcontact::cold_warm_state());
    const demcontact::BatchResult r = demcontact::collide_batch(pairs, out, &warm, threads);
    CHECK(r.ok() && r.message.empty());
    CHECK(r.statuses.size() == pairs.size() && out.size() == pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      CHECK(r.statuses[i] == DEMCONTACT_STATUS_OK);
      CHECK(same_bits(out[i], single[i]));
      CHECK(std::memcmp(&warm[i], &single_warm[i], sizeof warm[i]) == 0);
    }
    // Pointer form, without warm states.
    std::vector<demcontact_contact> raw(pairs.size());
    const demcontact::BatchResult q =
        demcontact::collide_batch(&pairs[0], pairs.size(), &raw[0], nullptr, threads);
    CHECK(q.ok());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      CHECK(same_bits(raw[i], single[i]));
    }
  }

  // Per-pair failures do not throw: pair 5 has a bad quaternion, pair 9 a NaN position.
  std::vector<demcontact_pair> bad = pairs;
  bad[5].pose_b.orientation[0] = 3.0;
  bad[9].pose_a.position[1] = std::numeric_limits<double>::quiet_NaN();
  std::vector<demcontact_contact> out;
  std::vector<demcontact_warm_state> warm(bad.size(), demcontact::cold_warm_state());
  const demcontact::BatchResult r = demcontact::collide_batch(bad, out, &warm, 2u);
  CHECK(!r.ok());
  CHECK(r.status == DEMCONTACT_STATUS_INVALID_ARGUMENT);
  CHECK(r.message.find("pair 5") == 0);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const demcontact_status want = i == 5   ? DEMCONTACT_STATUS_INVALID_ARGUMENT
                                   : i == 9 ? DEMCONTACT_STATUS_NON_FINITE
                                            : DEMCONTACT_STATUS_OK;
    CHECK(r.statuses[i] == want);
    if (want == DEMCONTACT_STATUS_OK) {
      CHECK(same_bits(out[i], single[i]));
      CHECK(warm[i].steps == 1);
    } else {
      CHECK(all_zero(out[i]));
      CHECK(warm[i].kernel == 0 && warm[i].steps == 0);
    }
  }
  bool threw = false;
  try {
    r.throw_if_failed();
  } catch (const demcontact::Error& e) {
    threw = e.status() == DEMCONTACT_STATUS_INVALID_ARGUMENT &&
            e.message().find("pair 5") == 0;
  }
  CHECK(threw);

  // A failure of the whole call throws; a warm vector of the wrong size is refused before it.
  EXPECT_ERROR(demcontact::collide_batch(nullptr, 3, &out[0]), DEMCONTACT_STATUS_NULL_ARGUMENT,
               "pairs");
  std::vector<demcontact_warm_state> short_warm(2);
  threw = false;
  try {
    demcontact::collide_batch(pairs, out, &short_warm);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);

  // An empty batch is fine.
  std::vector<demcontact_pair> none;
  const demcontact::BatchResult e = demcontact::collide_batch(none, out);
  CHECK(e.ok() && e.statuses.empty() && out.empty());
}

// A 4 x 3 x 2 lattice of unit spheres spaced 0.99 along x and 1.5 along y and z: exactly the 18
// x-neighbour pairs overlap, by 0.01 along +x.
void test_broad_phase_and_world() {
  const int nx = 4, ny = 3, nz = 2, expected = (nx - 1) * ny * nz;
  const demcontact::Shape sphere = demcontact::Shape::sphere(0.5);
  std::vector<std::array<double, 3> > centres;
  std::vector<double> radii;
  std::vector<const demcontact::Shape*> shapes;
  std::vector<demcontact_pose> poses;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const std::array<double, 3> c = {{0.99 * i, 1.5 * j, 1.5 * k}};
        centres.push_back(c);
        radii.push_back(0.5);
        shapes.push_back(&sphere);
        poses.push_back(demcontact::make_pose(c[0], c[1], c[2]));
      }
    }
  }

  demcontact::BroadPhase broad;
  CHECK(broad.update_spheres(centres, radii));
  std::vector<demcontact_body_pair> pairs;
  broad.pairs(pairs);
  CHECK(pairs.size() == static_cast<std::size_t>(expected));
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    CHECK(pairs[p].b == pairs[p].a + 1 && pairs[p].a % nx != nx - 1);
    CHECK(p == 0 || pairs[p].a > pairs[p - 1].a);
  }
  // A vector with a smaller capacity grows to the total.
  std::vector<demcontact_body_pair> few;
  few.reserve(3);
  broad.pairs(few);
  CHECK(few.size() == pairs.size() && few[17].a == pairs[17].a);
  std::vector<double> bad_radii(radii.size(), 0.5);
  bad_radii[3] = -1.0;
  EXPECT_ERROR(broad.update_spheres(centres, bad_radii), DEMCONTACT_STATUS_INVALID_ARGUMENT,
               "radius");
  bool threw = false;
  try {
    broad.update_spheres(centres, std::vector<double>(2, 0.5));
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);

  demcontact::World world(0.05);
  world.set_bodies(shapes, poses);
  std::vector<demcontact_body_contact> one, two;
  CHECK(world.step(1) == static_cast<std::size_t>(expected));
  world.contacts(one);
  CHECK(world.step(2) == static_cast<std::size_t>(expected));
  world.contacts(two);
  CHECK(one.size() == static_cast<std::size_t>(expected) && two.size() == one.size());
  for (std::size_t c = 0; c < one.size(); ++c) {
    CHECK(one[c].b == one[c].a + 1);
    CHECK(one[c].contact.touching == 1);
    CHECK_NEAR(one[c].contact.penetration, 0.01, 1e-12);
    CHECK_VEC(one[c].contact.normal, 1.0, 0.0, 0.0, 1e-12);
    CHECK_NEAR(one[c].contact.point[0], centres[one[c].a][0] + 0.495, 1e-12);
    CHECK(two[c].a == one[c].a && two[c].b == one[c].b);
    CHECK_NEAR(two[c].contact.penetration, one[c].contact.penetration, 1e-15);
  }
  for (std::size_t b = 0; b < poses.size(); ++b) {
    poses[b].position[1] += 0.003;
  }
  world.set_poses(poses);
  CHECK(world.step() == static_cast<std::size_t>(expected));
  const std::vector<demcontact_body_contact> moved = world.contacts();
  CHECK(moved.size() == one.size());
  for (std::size_t c = 0; c < moved.size() && c < one.size(); ++c) {
    CHECK_NEAR(moved[c].contact.point[1], one[c].contact.point[1] + 0.003, 1e-12);
  }
  poses.pop_back();
  EXPECT_ERROR(world.set_poses(poses), DEMCONTACT_STATUS_INVALID_ARGUMENT, "");

  // Moves transfer the handle.
  demcontact::World other(std::move(world));
  CHECK(world.get() == nullptr && other.get() != nullptr);
  EXPECT_ERROR(demcontact::BroadPhase negative(-1.0), DEMCONTACT_STATUS_INVALID_ARGUMENT, "skin");
}

}  // namespace

int main() {
  try {
    test_versions();
    test_overlapping_spheres();
    test_separated_spheres();
    test_warm_state_round_trip();
    test_exceptions();
    test_moves();
    test_batches();
    test_broad_phase_and_world();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return checks::finish_checks();
}
