#!/usr/bin/env bash
# Builds demcontact and installs it into PREFIX:
#   lib/libdemcontact.so.X.Y.Z, lib/libdemcontact.so.X -> .so.X.Y.Z (the SONAME), lib/libdemcontact.so -> .so.X
#   lib/libdemcontact.a
#   include/demcontact.h, include/demcontact.hpp (the C++ wrapper)
#   share/demcontact/fortran/demcontact.f90 (the Fortran module, compiled by the user's build)
#   lib/cmake/demcontact/demcontactConfig.cmake, demcontactConfigVersion.cmake
#   lib/pkgconfig/demcontact.pc
#
# Usage: cmake/install.sh PREFIX
#
# It runs `cargo build --release -p demcontact --lib` first. DEMCONTACT_PROFILE=debug (or any cargo
# profile name) builds and installs that profile instead: the tests install the dev-profile library they
# already built, without a release build. The installed tree is relocatable: the CMake and pkg-config
# files find everything relative to themselves, so PREFIX may be moved or packaged as is.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX   (env DEMCONTACT_PROFILE=release|debug|<cargo profile>, default release)" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

# The version is the root package's, from Cargo.toml's [package] table.
version=$(awk '
  /^\[/ { in_package = ($0 == "[package]") }
  in_package && /^version[ \t]*=/ { gsub(/^version[ \t]*=[ \t]*"|".*$/, ""); print; exit }
' "$root/Cargo.toml")
if ! [[ "$version" =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "install.sh: no MAJOR.MINOR.PATCH version in the [package] table of $root/Cargo.toml (got '$version')" >&2
  exit 1
fi
major=${BASH_REMATCH[1]}

profile=${DEMCONTACT_PROFILE:-release}
case "$profile" in
  release) cargo_args=(--release); profile_dir=release ;;
  debug | dev) cargo_args=(); profile_dir=debug ;;
  *) cargo_args=(--profile "$profile"); profile_dir=$profile ;;
esac
(cd "$root" && cargo build "${cargo_args[@]}" -p demcontact --lib)
# Where cargo put it (honours CARGO_TARGET_DIR and .cargo/config.toml's build.target-dir).
target_dir=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
built=$target_dir/$profile_dir
for f in "$built/libdemcontact.so" "$built/libdemcontact.a" "$root/include/demcontact.h" \
  "$root/bindings/cpp/demcontact.hpp" "$root/bindings/fortran/demcontact.f90"; do
  [ -f "$f" ] || { echo "install.sh: $f not found" >&2; exit 1; }
done

# What a static link of the Rust archive needs besides it on Linux: the list rustc prints with
# `--print native-static-libs` (std needs nothing more; demcontact's dependencies add nothing).
# ffi_tests/packaging.rs checks it against the toolchain's list and links static consumers with it.
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
cmake_native_libs=$(echo "$native_libs" | sed 's/-l//g; s/ /;/g')

install -d "$prefix/lib/cmake/demcontact" "$prefix/lib/pkgconfig" "$prefix/include" \
  "$prefix/share/demcontact/fortran"
install -m 0755 "$built/libdemcontact.so" "$prefix/lib/libdemcontact.so.$version"
ln -sfn "libdemcontact.so.$version" "$prefix/lib/libdemcontact.so.$major"
ln -sfn "libdemcontact.so.$major" "$prefix/lib/libdemcontact.so"
install -m 0644 "$built/libdemcontact.a" "$prefix/lib/libdemcontact.a"
install -m 0644 "$root/include/demcontact.h" "$prefix/include/demcontact.h"
install -m 0644 "$root/bindings/cpp/demcontact.hpp" "$prefix/include/demcontact.hpp"
install -m 0644 "$root/bindings/fortran/demcontact.f90" "$prefix/share/demcontact/fortran/demcontact.f90"

fill() {
  sed -e "s/@VERSION@/$version/g" -e "s/@MAJOR@/$major/g" -e "s/@NATIVE_LIBS@/$native_libs/g" \
    -e "s/@CMAKE_NATIVE_LIBS@/$cmake_native_libs/g" "$1" > "$2"
  if grep -n '@[A-Z_]*@' "$2" >&2; then
    echo "install.sh: unfilled template field in $2" >&2
    exit 1
  fi
}
fill "$root/cmake/demcontactConfig.cmake.in" "$prefix/lib/cmake/demcontact/demcontactConfig.cmake"
fill "$root/cmake/demcontactConfigVersion.cmake.in" "$prefix/lib/cmake/demcontact/demcontactConfigVersion.cmake"
fill "$root/cmake/demcontact.pc.in" "$prefix/lib/pkgconfig/demcontact.pc"
echo "installed demcontact $version ($profile_dir build, from $built) into $prefix"
