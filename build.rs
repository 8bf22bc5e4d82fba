//! Build script: passes the target triple to the FFI tests (which compile C, C++ and Fortran
//! programs for it) and gives the shared library its SONAME.

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo:rustc-env=DEMCONTACT_TEST_TARGET={target}");
    // The ABI major version names the shared library (libdemcontact.so.0): a host linked against one
    // major version never loads a library of another. cmake/install.sh installs the matching links.
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    if target.contains("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdemcontact.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
