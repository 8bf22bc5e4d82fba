/* A downstream program built against an installed demcontact (CMake or pkg-config): exact numbers of a
 * sphere pair (radius 1 at the origin, radius 1 at (1.5, 0, 0)), and the loaded library is the one the
 * header describes. Prints "ok <version>". */
#include <demcontact.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  demcontact_shape *a = NULL, *b = NULL;
  demcontact_pose pa = {{0, 0, 0}, {1, 0, 0, 0}}, pb = {{1.5, 0, 0}, {1, 0, 0, 0}};
  demcontact_contact c;
  char version[32];
  int bad = 0;
  snprintf(version, sizeof version, "%d.%d.%d", DEMCONTACT_VERSION_MAJOR, DEMCONTACT_VERSION_MINOR,
           DEMCONTACT_VERSION_PATCH);
  if (strcmp(demcontact_version(), version) != 0 || demcontact_abi_version() != DEMCONTACT_ABI_VERSION) {
    fprintf(stderr, "library %s does not match header %s\n", demcontact_version(), version);
    return 1;
  }
  if (demcontact_sphere_create(1.0, &a) != DEMCONTACT_STATUS_OK || demcontact_sphere_create(1.0, &b) != DEMCONTACT_STATUS_OK ||
      demcontact_collide(a, &pa, b, &pb, NULL, &c) != DEMCONTACT_STATUS_OK) {
    fprintf(stderr, "%s\n", demcontact_last_error_message());
    return 1;
  }
  bad |= !(c.touching == 1 && fabs(c.penetration - 0.5) < 1e-15);
  bad |= !(fabs(c.normal[0] - 1.0) < 1e-15 && c.normal[1] == 0.0 && c.normal[2] == 0.0);
  bad |= !(fabs(c.point[0] - 0.75) < 1e-15 && c.point[1] == 0.0 && c.point[2] == 0.0);
  bad |= !(fabs(c.point_a[0] - 1.0) < 1e-15 && fabs(c.point_b[0] - 0.5) < 1e-15);
  demcontact_shape_release(a);
  demcontact_shape_release(b);
  if (bad) {
    fprintf(stderr, "wrong contact: penetration %.17g normal (%g %g %g) point %.17g\n", c.penetration, c.normal[0],
            c.normal[1], c.normal[2], c.point[0]);
    return 1;
  }
  printf("ok %s\n", demcontact_version());
  return 0;
}
