// Assertion helpers shared by the C++ test programs (what check.h is to the C ones): a failed
// check prints its file, line and expression and is counted; finish_checks() prints "ok" and
// returns 0 only when none failed.
#ifndef DEMCONTACT_TEST_CHECK_HPP
#define DEMCONTACT_TEST_CHECK_HPP

#include "demcontact.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace checks {

// The number of failed checks so far.
inline int& failures() {
  static int count = 0;
  return count;
}

inline void check(bool ok, const char* what, const char* file, int line) {
  if (!ok) {
    std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
    ++failures();
  }
}

inline void check_near(double got, double want, double tol, const char* what, const char* file,
                       int line) {
  if (!(std::fabs(got - want) <= tol)) {
    std::fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, expected %.17g\n", file, line, what,
                 got, want);
    ++failures();
  }
}

// Runs `body`, which must throw demcontact::Error with `status`, a non-empty message containing
// `fragment`, and what() and status_name() that name the status.
template <class F>
void expect_error(F body, demcontact_status status, const char* fragment, const char* file,
                  int line) {
  try {
    body();
    std::fprintf(stderr, "%s:%d: expected demcontact::Error(%s), nothing thrown\n", file, line,
                 demcontact_status_name(status));
    ++failures();
  } catch (const demcontact::Error& e) {
    check(e.status() == status, "e.status() == expected status", file, line);
    check(!e.message().empty(), "!e.message().empty()", file, line);
    check(e.message().find(fragment) != std::string::npos, "message contains the fragment", file,
          line);
    check(std::string(e.what()).find(demcontact_status_name(status)) == 0,
          "what() starts with the status name", file, line);
    check(std::string(e.status_name()) == demcontact_status_name(status), "status_name()", file,
          line);
    if (e.status() != status || e.message().find(fragment) == std::string::npos) {
      std::fprintf(stderr, "  got: %s\n", e.what());
    }
  }
}

// The program's exit status: 0 after printing "ok" when every check passed, else 1.
inline int finish_checks() {
  if (failures() != 0) {
    std::fprintf(stderr, "%d check(s) failed\n", failures());
    return 1;
  }
  std::printf("ok\n");
  return 0;
}

}  // namespace checks

#define CHECK(cond) checks::check((cond), #cond, __FILE__, __LINE__)
#define CHECK_NEAR(got, want, tol) \
  checks::check_near((got), (want), (tol), #got, __FILE__, __LINE__)
#define CHECK_VEC(v, x, y, z, tol)  \
  do {                              \
    CHECK_NEAR((v)[0], (x), (tol)); \
    CHECK_NEAR((v)[1], (y), (tol)); \
    CHECK_NEAR((v)[2], (z), (tol)); \
  } while (0)
#define EXPECT_ERROR(body, status, fragment) \
  checks::expect_error([&]() { body; }, (status), (fragment), __FILE__, __LINE__)

#endif
