#!/usr/bin/env bash
# Installs demcontact into PREFIX:
#   lib/libdemcontact.so.X.Y.Z (+ links .so.X and .so), lib/libdemcontact.a,
#   include/demcontact.h, include/demcontact.hpp, share/demcontact/fortran/demcontact.f90,
#   lib/cmake/demcontact/{demcontactConfig,demcontactConfigVersion}.cmake, lib/pkgconfig/demcontact.pc
#
# Usage: cmake/install.sh PREFIX
# It builds the library first (cargo build --release). DEMCONTACT_LIB_DIR=DIR installs the
# libdemcontact.so and .a already built in DIR instead, without building (the tests use it for the
# library cargo built for them). The installed tree is relocatable: the CMake and pkg-config files
# find everything relative to themselves.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

version=$(sed -n 's/^version = "\([0-9.]*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
major=${version%%.*}
[ -n "$version" ] || { echo "install.sh: no version in Cargo.toml" >&2; exit 1; }

if [ -n "${DEMCONTACT_LIB_DIR:-}" ]; then
  built=$DEMCONTACT_LIB_DIR
else
  (cd "$root" && cargo build --release -p demcontact --lib)
  built=${CARGO_TARGET_DIR:-$root/target}/release
fi
for f in libdemcontact.so libdemcontact.a; do
  [ -f "$built/$f" ] || { echo "install.sh: $built/$f not found" >&2; exit 1; }
done

# The link flags a static link of the Rust library needs on Linux (rustc --print native-static-libs).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

install -d "$prefix/lib/cmake/demcontact" "$prefix/lib/pkgconfig" "$prefix/include" \
  "$prefix/share/demcontact/fortran"
install -m 0755 "$built/libdemcontact.so" "$prefix/lib/libdemcontact.so.$version"
ln -sf "libdemcontact.so.$version" "$prefix/lib/libdemcontact.so.$major"
ln -sf "libdemcontact.so.$major" "$prefix/lib/libdemcontact.so"
install -m 0644 "$built/libdemcontact.a" "$prefix/lib/libdemcontact.a"
install -m 0644 "$root/include/demcontact.h" "$prefix/include/demcontact.h"
install -m 0644 "$root/bindings/cpp/demcontact.hpp" "$prefix/include/demcontact.hpp"
install -m 0644 "$root/bindings/fortran/demcontact.f90" "$prefix/share/demcontact/fortran/demcontact.f90"

fill() {
  sed -e "s/@VERSION@/$version/g" -e "s/@MAJOR@/$major/g" -e "s/@NATIVE_LIBS@/$native_libs/g" "$1" > "$2"
}
fill "$root/cmake/demcontactConfig.cmake.in" "$prefix/lib/cmake/demcontact/demcontactConfig.cmake"
fill "$root/cmake/demcontactConfigVersion.cmake.in" "$prefix/lib/cmake/demcontact/demcontactConfigVersion.cmake"
fill "$root/cmake/demcontact.pc.in" "$prefix/lib/pkgconfig/demcontact.pc"
echo "installed demcontact $version (from $built) into $prefix"
