/* Many threads query at once: every result must equal the closed form, and each thread keeps its own
 * error message. */
#include "demcontact.h"
#include "check.h"
#include <pthread.h>
#include <string.h>

enum { THREADS = 8, QUERIES = 20000 };

static demcontact_shape *shapes[4];
static const double radii[4] = {0.5, 1.0, 1.5, 0.25};
static int thread_failures[THREADS];

/* A small deterministic generator per thread (no shared state). */
static double next(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

static void *worker(void *arg) {
  int id = (int)(size_t)arg, q, bad = 0;
  unsigned long long seed = 12345u + 977u * (unsigned long long)id;
  demcontact_warm_state warm;
  memset(&warm, 0, sizeof warm);
  for (q = 0; q < QUERIES; q++) {
    int ia = (int)(next(&seed) * 4), ib = (int)(next(&seed) * 4);
    demcontact_pose pa, pb;
    demcontact_contact c;
    double d[3], dist, depth;
    int k;
    for (k = 0; k < 3; k++) {
      pa.position[k] = 10 * next(&seed) - 5;
      d[k] = 2 * next(&seed) - 1;
    }
    dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (dist < 1e-3) continue;
    for (k = 0; k < 3; k++) pb.position[k] = pa.position[k] + 2.5 * d[k];
    pa.orientation[0] = 1; pa.orientation[1] = pa.orientation[2] = pa.orientation[3] = 0;
    pb.orientation[0] = 0; pb.orientation[1] = 1; pb.orientation[2] = pb.orientation[3] = 0;
    if (demcontact_collide(shapes[ia], &pa, shapes[ib], &pb, &warm, &c) != DEMCONTACT_STATUS_OK) { bad++; continue; }
    depth = radii[ia] + radii[ib] - 2.5 * dist;
    if (fabs((depth > 0 ? depth : 0) - c.penetration) > 1e-12) bad++;
    if (fabs((depth < 0 ? -depth : 0) - c.separation) > 1e-12) bad++;
    if (c.touching != (depth > 0)) bad++;
    for (k = 0; k < 3; k++) {
      if (fabs(c.normal[k] - d[k] / dist) > 1e-12) bad++;
      if (fabs(c.point_a[k] - (pa.position[k] + radii[ia] * d[k] / dist)) > 1e-12) bad++;
    }
    /* Every 100th query fails on purpose: this thread's message must name it, whatever others do. */
    if (q % 100 == 0) {
      char expect[32];
      demcontact_pose broken = pb;
      broken.position[id % 3] = NAN;
      if (demcontact_collide(shapes[ia], &pa, shapes[ib], &broken, NULL, &c) != DEMCONTACT_STATUS_NON_FINITE) bad++;
      snprintf(expect, sizeof expect, "pose.position[%d]", id % 3);
      if (strstr(demcontact_last_error_message(), expect) == NULL) bad++;
    }
  }
  thread_failures[id] = bad;
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  int i;
  for (i = 0; i < 4; i++) CHECK_STATUS(demcontact_sphere_create(radii[i], &shapes[i]), DEMCONTACT_STATUS_OK);
  for (i = 0; i < THREADS; i++) CHECK(pthread_create(&t[i], NULL, worker, (void *)(size_t)i) == 0);
  for (i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    if (thread_failures[i]) fprintf(stderr, "thread %d: %d wrong results\n", i, thread_failures[i]);
    CHECK(thread_failures[i] == 0);
  }
  for (i = 0; i < 4; i++) demcontact_shape_release(shapes[i]);
  return finish();
}
