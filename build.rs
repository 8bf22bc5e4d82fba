//! Build script: passes the target triple to the FFI tests (which compile C, C++ and Fortran
//! programs for it) and gives the shared library its SONAME.

fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo:rustc-env=DEMCONTACT_TEST_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
