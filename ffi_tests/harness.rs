//! Shared helpers of the FFI tests: where the built library is, which compilers the host has, and
//! compiling and running a program against the library.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding `libdemcontact.so` and `.a`, freshly built from the current source.
///
/// `cargo test` compiles the crate as an rlib for the test binary but does not refresh the cdylib and
/// staticlib that C programs link, so the first call builds them (`cargo build --lib` in this test
/// run's profile); later calls reuse that build.
pub fn lib_dir() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_library).clone()
}

fn build_library() -> PathBuf {
    // The test executable lives in target/<profile>/deps/; the library one level up.
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(repo_root())
        .args(["build", "--lib", "-p", "demcontact"]);
    if dir.file_name().is_some_and(|n| n == "release") {
        build.arg("--release");
    }
    run_ok(&mut build);
    let lib = dir.join("libdemcontact.so");
    assert!(
        lib.exists(),
        "libdemcontact.so not found in {}",
        dir.display()
    );
    // The library's SONAME is libdemcontact.so.<major> (build.rs); programs linked against it look
    // for that name at run time, so it must sit beside the file cargo wrote.
    let soname = dir.join(format!(
        "libdemcontact.so.{}",
        env!("CARGO_PKG_VERSION_MAJOR")
    ));
    if std::fs::read_link(&soname).is_err() {
        let _ = std::os::unix::fs::symlink("libdemcontact.so", &soname);
    }
    dir
}

/// The cargo profile directory of this test run ("debug" for the dev profile, "release", ...).
pub fn profile() -> String {
    lib_dir()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ffi")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Which language a test program is written in.
#[derive(Clone, Copy, Debug)]
pub enum Lang {
    /// C (compiled as C99 unless flags say otherwise).
    C,
    /// C++.
    Cpp,
}

/// The host's compiler for `lang`, as the `cc` crate finds it (honours CC / CXX).
pub fn compiler(lang: Lang) -> Command {
    let target = env!("DEMCONTACT_TEST_TARGET");
    cc::Build::new()
        .cpp(matches!(lang, Lang::Cpp))
        .target(target)
        .host(target)
        .opt_level(1)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler()
        .to_command()
}

/// The Fortran compiler: `$FC`, or gfortran.
pub fn fortran_compiler() -> Command {
    Command::new(std::env::var("FC").unwrap_or_else(|_| "gfortran".into()))
}

/// Runs `cmd`, panicking with its output when it fails; returns its standard output.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("could not start {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    stdout
}

/// Flags that link a program against the shared library in [`lib_dir`], with an rpath to it.
pub fn link_shared_flags() -> Vec<String> {
    let dir = lib_dir();
    vec![
        format!("-L{}", dir.display()),
        format!("-Wl,-rpath,{}", dir.display()),
        "-ldemcontact".into(),
    ]
}

/// Compiles `sources` (plus `extra` flags) into `exe` with `cmd`, linking the shared library, and runs
/// it; returns its standard output.
pub fn build_and_run(mut cmd: Command, sources: &[&Path], exe: &Path, extra: &[&str]) -> String {
    cmd.args(sources)
        .arg("-I")
        .arg(repo_root().join("include"))
        .args(extra)
        .arg("-o")
        .arg(exe)
        .args(link_shared_flags())
        .arg("-lm")
        .arg("-lpthread");
    run_ok(&mut cmd);
    run_ok(&mut Command::new(exe))
}
