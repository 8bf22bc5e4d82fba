//! C++ programs against the header-only wrapper `bindings/cpp/demcontact.hpp`: it compiles cleanly as
//! C++11, 17 and 20 under strict warnings, a copy of a `Shape` does not compile, and a program checks
//! exact sphere numbers, warm states, exceptions, moves and batches (also under valgrind, when the host
//! has it); another checks polyhedron contacts and contact lists.

use crate::harness::{build_and_run, compiler, repo_root, run_ok, scratch, Lang};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Warnings every C++ program here is compiled with.
const STRICT: &[&str] = &["-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// Language standards the wrapper must compile as.
const STANDARDS: &[&str] = &["-std=c++11", "-std=c++17", "-std=c++20"];

fn cpp_source(name: &str) -> PathBuf {
    repo_root().join("ffi_tests/cpp").join(name)
}

fn wrapper_include() -> PathBuf {
    repo_root().join("bindings/cpp")
}

/// A C++ compile-only command with the include paths of the header and the wrapper.
fn compile_only(std: &str, unit: &Path, object: &Path) -> Command {
    let mut cmd = compiler(Lang::Cpp);
    cmd.arg(std)
        .arg("-I")
        .arg(repo_root().join("include"))
        .arg("-I")
        .arg(wrapper_include())
        .arg("-c")
        .arg(unit)
        .arg("-o")
        .arg(object);
    cmd
}

/// Builds `wrapper.cpp` as `std` into `dir` and runs it; returns (executable, its output).
fn build_wrapper_program(dir: &Path, std: &str) -> (PathBuf, String) {
    let exe = dir.join(format!("wrapper_{}", std.trim_start_matches("-std=")));
    let include = format!("-I{}", wrapper_include().display());
    let mut flags = vec![std, include.as_str()];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::Cpp),
        &[&cpp_source("wrapper.cpp")],
        &exe,
        &flags,
    );
    (exe, out)
}

#[test]
fn cpp_wrapper_header_compiles_alone_under_every_standard_and_extra_warnings() {
    let dir = scratch("cpp_header_alone");
    let unit = dir.join("alone.cpp");
    // The wrapper alone (twice): it must include what it uses and guard itself.
    std::fs::write(
        &unit,
        "#include \"demcontact.hpp\"\n#include \"demcontact.hpp\"\n\
         int demcontact_unit() { return demcontact::abi_compatible() ? 0 : 1; }\n",
    )
    .unwrap();
    for std in STANDARDS {
        let mut cmd = compile_only(std, &unit, &dir.join("alone.o"));
        cmd.args(STRICT).args([
            "-Wshadow",
            "-Wconversion",
            "-Wsign-conversion",
            "-Wold-style-cast",
            "-Wnon-virtual-dtor",
            "-Wundef",
        ]);
        run_ok(&mut cmd);
    }
}

#[test]
fn cpp_shape_cannot_be_copied() {
    let dir = scratch("cpp_no_copy");
    let good = dir.join("moved.cpp");
    let bad = dir.join("copied.cpp");
    let program = |body: &str| {
        format!(
            "#include \"demcontact.hpp\"\n\
             void f(demcontact::Shape& s) {{ {body} }}\n"
        )
    };
    // The same unit with a move compiles; with a copy it must not (the deleted copy is real).
    std::fs::write(
        &good,
        program("demcontact::Shape t(std::move(s)); (void)t;"),
    )
    .unwrap();
    std::fs::write(&bad, program("demcontact::Shape t(s); (void)t;")).unwrap();
    run_ok(compile_only("-std=c++11", &good, &dir.join("moved.o")).args(STRICT));
    let out = compile_only("-std=c++11", &bad, &dir.join("copied.o"))
        .args(STRICT)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "copying a demcontact::Shape compiled"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deleted"), "{stderr}");
}

#[test]
fn cpp_wrapper_program_checks_numbers_errors_moves_and_batches() {
    let dir = scratch("cpp_wrapper");
    for std in STANDARDS {
        let (_, out) = build_wrapper_program(&dir, std);
        assert_eq!(out.lines().last(), Some("ok"), "{std}: {out}");
    }
}

#[test]
fn cpp_polyhedron_program_checks_cube_contacts_lists_and_exceptions() {
    let dir = scratch("cpp_polyhedra");
    let include = format!("-I{}", wrapper_include().display());
    for std in STANDARDS {
        let exe = dir.join(format!("polyhedra_{}", std.trim_start_matches("-std=")));
        let mut flags = vec![*std, include.as_str()];
        flags.extend(STRICT);
        let out = build_and_run(
            compiler(Lang::Cpp),
            &[&cpp_source("polyhedra.cpp")],
            &exe,
            &flags,
        );
        assert_eq!(out.lines().last(), Some("ok"), "{std}: {out}");
    }
}

/// Whether `program` is an executable on PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

#[test]
fn cpp_wrapper_program_is_clean_under_valgrind() {
    if !on_path("valgrind") {
        eprintln!("valgrind is not on PATH: skipping the memory check of the C++ wrapper");
        return;
    }
    let dir = scratch("cpp_valgrind");
    let (exe, _) = build_wrapper_program(&dir, "-std=c++17");
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "--error-exitcode=99",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite",
        "--show-leak-kinds=definite",
        "--track-origins=no",
        "--quiet",
    ])
    .arg(&exe);
    // Any invalid read/write, double free or definite leak (e.g. a Shape not releasing its handle on
    // move-assignment, or releasing it twice) makes valgrind exit with 99, which run_ok reports.
    let out = run_ok(&mut cmd);
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}
