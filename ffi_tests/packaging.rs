//! The installed package: `cmake/install.sh` into a temporary prefix (with the profile of this test run,
//! so no release build happens here), then a downstream CMake project (`find_package(demcontact 0.1
//! REQUIRED)`; shared, static and Fortran consumers) and pkg-config builds that link it and check
//! numbers; and CMake's version check refusing what the package does not provide.

use crate::harness::profile;
use crate::harness::{compiler, fortran_compiler, repo_root, run_ok, scratch, Lang};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const VERSION: &str = env!("CARGO_PKG_VERSION");
const MAJOR: &str = env!("CARGO_PKG_VERSION_MAJOR");

/// What a static link of the Rust archive needs; the same list as cmake/install.sh's.
const NATIVE_STATIC_LIBS: &str = "-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc";

/// `bash cmake/install.sh <prefix>` for this run's cargo profile.
fn install_command(prefix: &Path) -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg(repo_root().join("cmake/install.sh"))
        .arg(prefix)
        .env("DEMCONTACT_PROFILE", profile());
    cmd
}

/// The package installed once for all tests of this module (they only read it).
fn installed() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = scratch("package").join("prefix");
        run_ok(&mut install_command(&prefix));
        prefix
    })
}

/// `name`, checked to be runnable: a missing tool fails the test with a clear message.
fn tool(name: &str) -> Command {
    let probe = Command::new(name).arg("--version").output();
    assert!(
        probe.is_ok_and(|o| o.status.success()),
        "`{name}` is needed by the packaging tests but is not installed (CI installs it: bash .ci/run)"
    );
    Command::new(name)
}

fn text(out: &Output) -> String {
    format!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn downstream() -> PathBuf {
    repo_root().join("ffi_tests/downstream")
}

/// Configures the downstream project against `prefix`, asking for demcontact `wanted`.
fn configure(prefix: &Path, build: &Path, wanted: &str, fortran: bool) -> Output {
    let mut cmd = tool("cmake");
    cmd.arg("-S")
        .arg(downstream())
        .arg("-B")
        .arg(build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
        .arg(format!("-DDEMCONTACT_WANTED={wanted}"))
        .arg(format!(
            "-DDOWNSTREAM_FORTRAN={}",
            if fortran { "ON" } else { "OFF" }
        ));
    if fortran {
        let fc = fortran_compiler().get_program().to_owned();
        cmd.env("FC", fc);
    }
    cmd.output().unwrap()
}

/// Every file and link under `dir`, relative, sorted ("name -> target" for links).
fn listing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                out.push(format!(
                    "{rel} -> {}",
                    std::fs::read_link(&path).unwrap().display()
                ));
            } else if meta.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn packaging_install_lays_out_the_package() {
    let prefix = installed();
    let expected = [
        "include/demcontact.h".to_string(),
        "include/demcontact.hpp".into(),
        "lib/cmake/demcontact/demcontactConfig.cmake".into(),
        "lib/cmake/demcontact/demcontactConfigVersion.cmake".into(),
        "lib/libdemcontact.a".into(),
        format!("lib/libdemcontact.so -> libdemcontact.so.{MAJOR}"),
        format!("lib/libdemcontact.so.{MAJOR} -> libdemcontact.so.{VERSION}"),
        format!("lib/libdemcontact.so.{VERSION}"),
        "lib/pkgconfig/demcontact.pc".into(),
        "share/demcontact/fortran/demcontact.f90".into(),
    ];
    assert_eq!(listing(prefix), expected);
    for (installed, source) in [
        ("include/demcontact.h", "include/demcontact.h"),
        ("include/demcontact.hpp", "bindings/cpp/demcontact.hpp"),
        (
            "share/demcontact/fortran/demcontact.f90",
            "bindings/fortran/demcontact.f90",
        ),
    ] {
        assert!(
            std::fs::read(prefix.join(installed)).unwrap()
                == std::fs::read(repo_root().join(source)).unwrap(),
            "{installed} differs from {source}"
        );
    }
    // The installed library is the one cargo built for this run, with its SONAME.
    let dynamic = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(prefix.join(format!("lib/libdemcontact.so.{VERSION}"))),
    );
    assert!(
        dynamic.contains(&format!("Library soname: [libdemcontact.so.{MAJOR}]")),
        "{dynamic}"
    );
    let built = crate::harness::lib_dir().join("libdemcontact.so");
    assert!(
        std::fs::read(&built).unwrap()
            == std::fs::read(prefix.join(format!("lib/libdemcontact.so.{VERSION}"))).unwrap(),
        "the installed library is not {}",
        built.display()
    );
    for generated in [
        "lib/cmake/demcontact/demcontactConfig.cmake",
        "lib/cmake/demcontact/demcontactConfigVersion.cmake",
        "lib/pkgconfig/demcontact.pc",
    ] {
        let text = std::fs::read_to_string(prefix.join(generated)).unwrap();
        assert!(
            !text.contains('@'),
            "{generated} has an unfilled template field:\n{text}"
        );
        assert!(
            !text.contains(&prefix.display().to_string()),
            "{generated} hardcodes the prefix (it must be relocatable)"
        );
    }
    let pc = std::fs::read_to_string(prefix.join("lib/pkgconfig/demcontact.pc")).unwrap();
    assert!(pc.contains(&format!("Version: {VERSION}\n")), "{pc}");
    assert!(
        pc.contains(&format!("Libs.private: {NATIVE_STATIC_LIBS}\n")),
        "{pc}"
    );
}

#[test]
fn packaging_install_script_refuses_bad_invocations() {
    let dir = scratch("install_refusals");
    // No prefix: usage error.
    let out = Command::new("bash")
        .arg(repo_root().join("cmake/install.sh"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // A cargo profile that does not exist: cargo fails, and so does the script, installing nothing.
    let prefix = dir.join("prefix");
    let out = install_command(&prefix)
        .env("DEMCONTACT_PROFILE", "no-such-profile")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(listing(&prefix).is_empty(), "{:?}", listing(&prefix));
}

#[test]
fn packaging_native_static_libs_match_the_toolchain() {
    // What rustc says a staticlib needs, for a trivial crate: the Rust standard library's list.
    let dir = scratch("native_static_libs");
    let src = dir.join("probe.rs");
    std::fs::write(&src, "pub fn probe() -> u32 { 1 }\n").unwrap();
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args([
            "--crate-type",
            "staticlib",
            "--print",
            "native-static-libs",
            "--target",
        ])
        .arg(env!("DEMCONTACT_TEST_TARGET"))
        .arg(&src)
        .arg("-o")
        .arg(dir.join("libprobe.a"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find_map(|l| l.split_once("native-static-libs:"))
        .unwrap_or_else(|| panic!("rustc printed no native-static-libs:\n{stderr}"))
        .1
        .trim()
        .to_string();
    let ours: Vec<&str> = NATIVE_STATIC_LIBS.split_whitespace().collect();
    for lib in line.split_whitespace() {
        assert!(
            ours.contains(&lib),
            "rustc needs {lib} for a static link ({line}); add it to cmake/install.sh and NATIVE_STATIC_LIBS"
        );
    }
    let script = std::fs::read_to_string(repo_root().join("cmake/install.sh")).unwrap();
    assert!(script.contains(&format!("native_libs=\"{NATIVE_STATIC_LIBS}\"")));
}

#[test]
fn packaging_cmake_consumers_link_shared_static_and_fortran() {
    let prefix = installed();
    let build = scratch("cmake_consumer").join("build");
    let out = configure(prefix, &build, "0.1", true);
    assert!(out.status.success(), "configure failed:\n{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("found demcontact {VERSION}")),
        "{}",
        text(&out)
    );
    run_ok(tool("cmake").arg("--build").arg(&build));
    for exe in ["consumer_shared", "consumer_static", "consumer_fortran"] {
        let stdout = run_ok(&mut Command::new(build.join(exe)));
        assert_eq!(stdout.trim(), format!("ok {VERSION}"), "{exe}");
    }
    // The shared consumers load libdemcontact.so.<major> (the SONAME); the static one carries the
    // library inside and needs no libdemcontact.so at run time.
    for (exe, dynamic) in [
        ("consumer_shared", true),
        ("consumer_fortran", true),
        ("consumer_static", false),
    ] {
        let needed = run_ok(Command::new("readelf").arg("-d").arg(build.join(exe)));
        assert_eq!(
            needed.contains(&format!("Shared library: [libdemcontact.so.{MAJOR}]")),
            dynamic,
            "{exe}:\n{needed}"
        );
        if !dynamic {
            assert!(!needed.contains("libdemcontact"), "{exe}:\n{needed}");
        }
    }
}

#[test]
fn packaging_cmake_package_is_relocatable() {
    // A copy of the installed tree elsewhere (as a binary package unpacks it) works as well.
    let dir = scratch("cmake_relocated");
    let moved = dir.join("elsewhere/demcontact");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    run_ok(Command::new("cp").arg("-a").arg(installed()).arg(&moved));
    let build = dir.join("build");
    let out = configure(&moved, &build, "0.1", false);
    assert!(out.status.success(), "configure failed:\n{}", text(&out));
    let cache = std::fs::read_to_string(build.join("CMakeCache.txt")).unwrap();
    assert!(
        cache.contains(&format!(
            "demcontact_DIR:PATH={}/lib/cmake/demcontact",
            moved.display()
        )),
        "{cache}"
    );
    run_ok(tool("cmake").arg("--build").arg(&build));
    let stdout = run_ok(&mut Command::new(build.join("consumer_shared")));
    assert_eq!(stdout.trim(), format!("ok {VERSION}"));
    let rpath = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(build.join("consumer_shared")),
    );
    assert!(
        rpath.contains(&format!("{}/lib", moved.display())),
        "{rpath}"
    );
}

#[test]
fn packaging_cmake_version_check_accepts_same_major_and_refuses_the_rest() {
    let prefix = installed();
    let dir = scratch("cmake_version");
    let (major, minor, _) = crate::abi_baseline::parse_version(VERSION);
    for wanted in [format!("{}.0", major + 1), format!("{major}.{}", minor + 1)] {
        let out = configure(prefix, &dir.join(format!("build-{wanted}")), &wanted, false);
        assert!(
            !out.status.success(),
            "find_package(demcontact {wanted}) must fail:\n{}",
            text(&out)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("demcontactConfig.cmake, version: {VERSION}")),
            "the message should name the version found:\n{stderr}"
        );
    }
    let accepted = [
        format!("{major}.{minor}"),
        VERSION.to_string(),
        format!("{major}"),
        format!("{major}.{minor}...<{}.0", major + 1),
    ];
    for wanted in accepted {
        let out = configure(prefix, &dir.join("build-ok"), &wanted, false);
        assert!(
            out.status.success(),
            "find_package(demcontact {wanted}) must succeed:\n{}",
            text(&out)
        );
    }
    // A range that reaches into the next major version is not ours to satisfy.
    let range = format!("{major}.{minor}...{}.5", major + 1);
    let out = configure(prefix, &dir.join("build-range"), &range, false);
    assert!(
        !out.status.success(),
        "find_package(demcontact {range}) must fail:\n{}",
        text(&out)
    );
}

/// `pkg-config ARGS demcontact` against the installed prefix.
fn pkg_config(prefix: &Path, args: &[&str]) -> Vec<String> {
    let out = run_ok(
        tool("pkg-config")
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .env_remove("PKG_CONFIG_LIBDIR")
            .args(args)
            .arg("demcontact"),
    );
    out.split_whitespace().map(String::from).collect()
}

#[test]
fn packaging_pkg_config_consumers_link_shared_and_static() {
    let prefix = installed();
    let dir = scratch("pkg_config");
    assert_eq!(pkg_config(prefix, &["--modversion"]), [VERSION]);
    let libdir = pkg_config(prefix, &["--variable=libdir"]).concat();
    assert_eq!(
        Path::new(&libdir).canonicalize().unwrap(),
        prefix.join("lib").canonicalize().unwrap()
    );
    let fortran = pkg_config(prefix, &["--variable=fortran_module_source"]).concat();
    assert!(Path::new(&fortran).is_file(), "{fortran}");
    let main = downstream().join("main.c");

    // Shared: cc main.c $(pkg-config --cflags --libs demcontact).
    let shared = dir.join("consumer_shared");
    let mut cmd = compiler(Lang::C);
    cmd.arg(&main)
        .args(pkg_config(prefix, &["--cflags", "--libs"]))
        .arg(format!("-Wl,-rpath,{libdir}"))
        .arg("-lm")
        .arg("-o")
        .arg(&shared);
    run_ok(&mut cmd);
    assert_eq!(
        run_ok(&mut Command::new(&shared)).trim(),
        format!("ok {VERSION}")
    );
    let needed = run_ok(Command::new("readelf").arg("-d").arg(&shared));
    assert!(
        needed.contains(&format!("[libdemcontact.so.{MAJOR}]")),
        "{needed}"
    );

    // Static: cc -static-libdemcontact ... $(pkg-config --static --libs demcontact), with the linker
    // told to prefer the archive for -ldemcontact.
    let libs = pkg_config(prefix, &["--static", "--libs"]);
    for lib in NATIVE_STATIC_LIBS.split_whitespace() {
        assert!(
            libs.iter().any(|l| l == lib),
            "pkg-config --static --libs lacks {lib}: {libs:?}"
        );
    }
    let fixed = dir.join("consumer_static");
    let mut cmd = compiler(Lang::C);
    cmd.arg(&main).args(pkg_config(prefix, &["--cflags"]));
    for flag in &libs {
        if flag == "-ldemcontact" {
            cmd.args(["-Wl,-Bstatic", "-ldemcontact", "-Wl,-Bdynamic"]);
        } else {
            cmd.arg(flag);
        }
    }
    cmd.arg("-o").arg(&fixed);
    run_ok(&mut cmd);
    assert_eq!(
        run_ok(&mut Command::new(&fixed)).trim(),
        format!("ok {VERSION}")
    );
    let needed = run_ok(Command::new("readelf").arg("-d").arg(&fixed));
    assert!(!needed.contains("libdemcontact"), "{needed}");
}
