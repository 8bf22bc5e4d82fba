//! C programs against `include/demcontact.h`: the header's hygiene, the struct layouts, exact sphere
//! numbers, error paths, batches, many threads at once, the broad phase and the world.

use crate::harness::{build_and_run, compiler, repo_root, run_ok, scratch, Lang};
use demcontact::ffi::*;
use std::mem::{offset_of, size_of};
use std::path::Path;
use std::process::Command;

const STRICT: &[&str] = &["-Wall", "-Wextra", "-Wpedantic", "-Werror"];

fn c_source(name: &str) -> std::path::PathBuf {
    repo_root().join("ffi_tests/c").join(name)
}

/// `compile -c unit -o object` against the header, with `flags`; returns the command, not yet run.
fn compile_only(lang: Lang, flags: &[&str], unit: &Path, object: &Path) -> Command {
    let mut cmd = compiler(lang);
    if matches!(lang, Lang::Cpp) {
        cmd.args(["-x", "c++"]);
    }
    cmd.args(flags)
        .arg("-I")
        .arg(repo_root().join("include"))
        .arg("-c")
        .arg(unit)
        .arg("-o")
        .arg(object);
    cmd
}

#[test]
fn header_compiles_cleanly_as_c99_c11_and_cpp() {
    let dir = scratch("header_hygiene");
    let unit = dir.join("twice.c");
    // Included twice, and nothing else: the header must stand alone and guard itself.
    std::fs::write(
        &unit,
        "#include \"demcontact.h\"\n#include \"demcontact.h\"\nint demcontact_test_unit(void) { return DEMCONTACT_STATUS_OK; }\n",
    )
    .unwrap();
    for (lang, std) in [
        (Lang::C, "-std=c99"),
        (Lang::C, "-std=c11"),
        (Lang::Cpp, "-std=c++11"),
        (Lang::Cpp, "-std=c++17"),
    ] {
        let flags: Vec<&str> = std::iter::once(std).chain(STRICT.iter().copied()).collect();
        run_ok(&mut compile_only(lang, &flags, &unit, &dir.join("twice.o")));
    }
}

/// `_Static_assert`s of every struct's size and field offsets, with the numbers Rust lays out.
fn layout_assertions() -> String {
    let mut s = String::from("#include <stddef.h>\n#include \"demcontact.h\"\n");
    let mut check = |expr: String, value: usize| {
        s += &format!("_Static_assert({expr} == {value}, \"{expr}\");\n");
    };
    macro_rules! layout {
        ($t:ident { $($f:ident),* }) => {
            check(format!("sizeof({})", stringify!($t)), size_of::<$t>());
            $( check(format!("offsetof({}, {})", stringify!($t), stringify!($f)), offset_of!($t, $f)); )*
        };
    }
    layout!(demcontact_pose {
        position,
        orientation
    });
    layout!(demcontact_warm_state {
        kernel,
        steps,
        data
    });
    layout!(demcontact_contact {
        point_a,
        point_b,
        point,
        normal,
        penetration,
        separation,
        touching,
        contact_type,
        iterations,
        flags
    });
    layout!(demcontact_pair {
        a,
        pose_a,
        b,
        pose_b
    });
    layout!(demcontact_basic_contact {
        kind,
        feature_a,
        feature_b,
        reserved,
        point,
        normal,
        depth
    });
    layout!(demcontact_body_pair { a, b });
    layout!(demcontact_body_contact { a, b, contact });
    check(
        "sizeof(demcontact_status)".into(),
        size_of::<demcontact_status>(),
    );
    s
}

#[test]
fn struct_layouts_match_rust() {
    let dir = scratch("layout");
    let unit = dir.join("layout.c");
    std::fs::write(&unit, layout_assertions()).unwrap();
    let flags: Vec<&str> = std::iter::once("-std=c11")
        .chain(STRICT.iter().copied())
        .collect();
    run_ok(&mut compile_only(
        Lang::C,
        &flags,
        &unit,
        &dir.join("layout.o"),
    ));
    // The assertions are real: a wrong number fails the compile.
    let broken = layout_assertions().replace(
        &format!(
            "sizeof(demcontact_contact) == {}",
            size_of::<demcontact_contact>()
        ),
        "sizeof(demcontact_contact) == 1",
    );
    std::fs::write(&unit, broken).unwrap();
    let mut cmd = compiler(Lang::C);
    cmd.arg("-std=c11")
        .arg("-I")
        .arg(repo_root().join("include"))
        .arg("-c")
        .arg(&unit)
        .arg("-o")
        .arg(dir.join("layout.o"));
    assert!(
        !cmd.output().unwrap().status.success(),
        "a wrong size must not compile"
    );
}

#[test]
fn c_program_checks_sphere_numbers_errors_and_batches() {
    let dir = scratch("c_spheres");
    let mut flags = vec!["-std=c99"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("spheres.c")],
        &dir.join("spheres"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn c_program_checks_superellipsoid_numbers_bad_parameters_and_angles() {
    let dir = scratch("c_superellipsoids");
    let mut flags = vec!["-std=c99"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("superellipsoids.c")],
        &dir.join("superellipsoids"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn c_program_checks_polyhedron_numbers_lists_and_bad_inputs() {
    let dir = scratch("c_polyhedra");
    let mut flags = vec!["-std=c99"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("polyhedra.c")],
        &dir.join("polyhedra"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn c_program_checks_potential_particle_numbers_and_bad_inputs() {
    let dir = scratch("c_potential");
    let mut flags = vec!["-std=c99"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("potential.c")],
        &dir.join("potential"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn c_program_queries_from_many_threads_at_once() {
    let dir = scratch("c_threads");
    let mut flags = vec!["-std=c99", "-pthread"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("threads.c")],
        &dir.join("threads"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn c_program_checks_the_broad_phase_and_world_on_a_sphere_lattice() {
    let dir = scratch("c_world");
    let mut flags = vec!["-std=c99"];
    flags.extend(STRICT);
    let out = build_and_run(
        compiler(Lang::C),
        &[&c_source("world.c")],
        &dir.join("world"),
        &flags,
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}
