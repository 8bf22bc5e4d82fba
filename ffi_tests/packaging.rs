//! The installed package: `cmake/install.sh` into a temporary prefix, then a downstream CMake project
//! (`find_package(demcontact 0.1 REQUIRED)`, shared and static targets) and pkg-config builds that
//! link it and check numbers.

use crate::harness::{compiler, lib_dir, repo_root, run_ok, scratch, Lang};
use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Installs the library cargo built for this test run into `<fresh scratch dir>/prefix`; returns the
/// scratch directory and the prefix.
fn install(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let prefix = dir.join("prefix");
    run_ok(
        Command::new("bash")
            .arg(repo_root().join("cmake/install.sh"))
            .arg(&prefix)
            .env("DEMCONTACT_LIB_DIR", lib_dir()),
    );
    (dir, prefix)
}

fn tool(name: &str) -> Command {
    let probe = Command::new(name).arg("--version").output();
    assert!(
        probe.is_ok_and(|o| o.status.success()),
        "`{name}` is needed by the packaging tests (bash .ci/run installs it)"
    );
    Command::new(name)
}

fn downstream() -> PathBuf {
    repo_root().join("ffi_tests/downstream")
}

fn configure(prefix: &Path, build: &Path, wanted: &str) -> std::process::Output {
    tool("cmake")
        .arg("-S")
        .arg(downstream())
        .arg("-B")
        .arg(build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
        .arg(format!("-DDEMCONTACT_WANTED={wanted}"))
        .output()
        .unwrap()
}

#[test]
fn install_script_lays_out_the_package() {
    let (dir, prefix) = install("install_layout");
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    for file in [
        format!("lib/libdemcontact.so.{VERSION}"),
        "lib/libdemcontact.a".into(),
        "include/demcontact.h".into(),
        "include/demcontact.hpp".into(),
        "share/demcontact/fortran/demcontact.f90".into(),
        "lib/cmake/demcontact/demcontactConfig.cmake".into(),
        "lib/cmake/demcontact/demcontactConfigVersion.cmake".into(),
        "lib/pkgconfig/demcontact.pc".into(),
    ] {
        assert!(prefix.join(&file).is_file(), "{file} not installed");
    }
    let link = |name: &str| std::fs::read_link(prefix.join("lib").join(name)).unwrap();
    assert_eq!(
        link(&format!("libdemcontact.so.{major}")),
        PathBuf::from(format!("libdemcontact.so.{VERSION}"))
    );
    assert_eq!(
        link("libdemcontact.so"),
        PathBuf::from(format!("libdemcontact.so.{major}"))
    );
    let installed = std::fs::read_to_string(prefix.join("include/demcontact.h")).unwrap();
    assert_eq!(
        installed,
        std::fs::read_to_string(repo_root().join("include/demcontact.h")).unwrap()
    );
    for generated in [
        "lib/cmake/demcontact/demcontactConfig.cmake",
        "lib/pkgconfig/demcontact.pc",
    ] {
        let text = std::fs::read_to_string(prefix.join(generated)).unwrap();
        assert!(
            !text.contains('@'),
            "{generated} has an unfilled template field:\n{text}"
        );
    }
    // The script refuses a missing library rather than installing half a package.
    let out = Command::new("bash")
        .arg(repo_root().join("cmake/install.sh"))
        .arg(dir.join("prefix-missing"))
        .env("DEMCONTACT_LIB_DIR", dir.join("no-such-dir"))
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn cmake_consumer_finds_links_and_runs_shared_and_static() {
    let (dir, prefix) = install("cmake_consumer");
    let build = dir.join("build");
    let out = configure(&prefix, &build, "0.1");
    assert!(
        out.status.success(),
        "configure failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("found demcontact {VERSION}")));
    run_ok(tool("cmake").arg("--build").arg(&build));
    for exe in ["consumer_shared", "consumer_static"] {
        let stdout = run_ok(&mut Command::new(build.join(exe)));
        assert_eq!(stdout.trim(), format!("ok {VERSION}"), "{exe}");
    }
    // The static consumer carries the library inside: it needs no libdemcontact.so at run time.
    let needed = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(build.join("consumer_static")),
    );
    assert!(!needed.contains("libdemcontact"), "{needed}");
    let needed = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(build.join("consumer_shared")),
    );
    assert!(
        needed.contains(&format!(
            "[libdemcontact.so.{}]",
            env!("CARGO_PKG_VERSION_MAJOR")
        )),
        "{needed}"
    );
}

#[test]
fn cmake_refuses_a_version_the_package_does_not_provide() {
    let (dir, prefix) = install("cmake_version");
    for wanted in ["1.0", "0.999"] {
        let build = dir.join(format!("build-{wanted}"));
        let out = configure(&prefix, &build, wanted);
        assert!(
            !out.status.success(),
            "find_package(demcontact {wanted}) must fail"
        );
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains(VERSION),
            "the message should name the version found:\n{text}"
        );
    }
}

/// `pkg-config ARGS demcontact` against the installed prefix.
fn pkg_config(prefix: &Path, args: &[&str]) -> Vec<String> {
    let out = run_ok(
        tool("pkg-config")
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .args(args)
            .arg("demcontact"),
    );
    out.split_whitespace().map(String::from).collect()
}

#[test]
fn pkg_config_consumer_links_shared_and_static() {
    let (dir, prefix) = install("pkg_config");
    assert_eq!(
        pkg_config(&prefix, &["--modversion"]),
        vec![VERSION.to_string()]
    );
    let libdir = pkg_config(&prefix, &["--variable=libdir"]).concat();
    let main = downstream().join("main.c");

    let shared = dir.join("consumer_shared");
    let mut cmd = compiler(Lang::C);
    cmd.arg(&main)
        .args(pkg_config(&prefix, &["--cflags", "--libs"]))
        .arg(format!("-Wl,-rpath,{libdir}"))
        .arg("-lm")
        .arg("-o")
        .arg(&shared);
    run_ok(&mut cmd);
    assert_eq!(
        run_ok(&mut Command::new(&shared)).trim(),
        format!("ok {VERSION}")
    );

    // Static: the archive plus the private libraries pkg-config lists for a static link.
    let private: Vec<String> = pkg_config(&prefix, &["--static", "--libs"])
        .into_iter()
        .filter(|f| f != "-ldemcontact" && !f.starts_with("-L"))
        .collect();
    assert!(private.contains(&"-lpthread".to_string()), "{private:?}");
    let fixed = dir.join("consumer_static");
    let mut cmd = compiler(Lang::C);
    cmd.arg(&main)
        .args(pkg_config(&prefix, &["--cflags"]))
        .arg(Path::new(&libdir).join("libdemcontact.a"))
        .args(&private)
        .arg("-o")
        .arg(&fixed);
    run_ok(&mut cmd);
    assert_eq!(
        run_ok(&mut Command::new(&fixed)).trim(),
        format!("ok {VERSION}")
    );
}
