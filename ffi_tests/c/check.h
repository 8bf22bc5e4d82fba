/* Tiny assertion helpers shared by the C test programs. */
#ifndef DEMCONTACT_TEST_CHECK_H
#define DEMCONTACT_TEST_CHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
      failures++;                                                                   \
    }                                                                               \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                       \
  do {                                                                              \
    double a_ = (a), b_ = (b);                                                      \
    if (!(fabs(a_ - b_) <= (tol))) {                                                \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g\n",         \
              __FILE__, __LINE__, #a, a_, #b, b_);                                  \
      failures++;                                                                   \
    }                                                                               \
  } while (0)

#define CHECK_STATUS(call, expected)                                                \
  do {                                                                              \
    demcontact_status s_ = (call);                                                  \
    if (s_ != (expected)) {                                                         \
      fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s: %s\n", __FILE__,   \
              __LINE__, #call, demcontact_status_name(s_), (int)s_, #expected,      \
              demcontact_last_error_message());                                     \
      failures++;                                                                   \
    }                                                                               \
  } while (0)

static int finish(void) {
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
#endif
