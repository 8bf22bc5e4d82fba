//! The Fortran module `bindings/fortran/demcontact.f90`: it compiles as strict Fortran 2008, a
//! Fortran program checks exact sphere numbers, warm states, errors and batches through it, and the
//! module is compared with `include/demcontact.h` so that the two cannot drift apart: every function
//! has a `bind(C, name=...)` interface, every macro a parameter, and compiled C and Fortran programs
//! print the same constant values, struct sizes and field offsets.

use crate::harness::{
    compiler, fortran_compiler, link_shared_flags, repo_root, run_ok, scratch, Lang,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Flags of every Fortran compile here.
const FORTRAN_STRICT: &[&str] = &["-std=f2008", "-Wall", "-Werror", "-fcheck=all"];

/// Macros of the header that are not part of the interface (the include guard, a helper).
const NOT_CONSTANTS: &[&str] = &["DEMCONTACT_H", "DEMCONTACT_STATIC_ASSERT_"];

/// C functions the module binds besides demcontact's own (it measures C strings with `strlen`).
const MODULE_LIBC_BINDINGS: &[&str] = &["strlen"];

fn module_source() -> PathBuf {
    repo_root().join("bindings/fortran/demcontact.f90")
}

fn header_text() -> String {
    std::fs::read_to_string(repo_root().join("include/demcontact.h")).unwrap()
}

fn module_text() -> String {
    std::fs::read_to_string(module_source()).unwrap()
}

// --- reading the header ----------------------------------------------------------------------------

/// What the C header declares.
#[derive(Debug)]
struct HeaderItems {
    /// `#define DEMCONTACT_*` constants (name, value text), in header order.
    constants: Vec<(String, String)>,
    /// Declared functions, `demcontact_*`, in header order.
    functions: Vec<String>,
    /// `typedef struct NAME { fields } NAME;`: (name, field names), in header order.
    structs: Vec<(String, Vec<String>)>,
}

/// `text` without its C comments (`/* */` and `//`), each replaced by a space.
fn strip_c_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.map_or(true, |l| b < l) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                let end = rest[b + 2..].find("*/").expect("unterminated comment") + b + 4;
                rest = &rest[end..];
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                out.push(' ');
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            (None, None) => {
                out.push_str(rest);
                return out;
            }
            (Some(_), None) => unreachable!(),
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The C identifiers of `text` with their byte offsets.
fn identifiers(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (start, is_ident_char(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn parse_header(text: &str) -> HeaderItems {
    let code = strip_c_comments(text);
    let mut constants = Vec::new();
    for line in code.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#define ") {
            let mut parts = rest.trim().splitn(2, char::is_whitespace);
            let name = parts.next().unwrap().to_string();
            let value = parts.next().unwrap_or("").trim().to_string();
            if name.starts_with("DEMCONTACT_") && !NOT_CONSTANTS.contains(&name.as_str()) {
                constants.push((name, value));
            }
        }
    }
    // A function declaration: a lower-case demcontact_ identifier followed by '('. (Type names are
    // never followed by '(', macros are upper case.)
    let mut functions = Vec::new();
    for (at, ident) in identifiers(&code) {
        let followed_by_paren = code[at + ident.len()..].trim_start().starts_with('(');
        if followed_by_paren
            && ident.starts_with("demcontact_")
            && ident.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && !functions.iter().any(|f| f == ident)
        {
            functions.push(ident.to_string());
        }
    }
    let mut structs = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("typedef struct ") {
        rest = &rest[at + "typedef struct ".len()..];
        let head_end = rest.find(['{', ';']).unwrap();
        if rest.as_bytes()[head_end] == b';' {
            continue; // an opaque type
        }
        let name = rest[..head_end].trim().to_string();
        let body_end = rest.find('}').unwrap();
        let fields = rest[head_end + 1..body_end]
            .split(';')
            .filter(|decl| !decl.trim().is_empty())
            .map(|decl| {
                let decl = decl.split('[').next().unwrap();
                identifiers(decl).last().unwrap().1.to_string()
            })
            .collect();
        structs.push((name, fields));
        rest = &rest[body_end..];
    }
    HeaderItems {
        constants,
        functions,
        structs,
    }
}

// --- reading the module ----------------------------------------------------------------------------

/// The module's lines without `!` comments (it has no `!` inside strings), lower case kept.
fn fortran_code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('!').next().unwrap().to_string())
        .collect()
}

/// The C names in the module's `bind(C, name="...")` clauses.
fn fortran_bind_names(text: &str) -> BTreeSet<String> {
    let code: String = fortran_code_lines(text)
        .join("\n")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let lower = code.to_ascii_lowercase();
    let mut names = BTreeSet::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("bind(c,name=\"") {
        let start = from + at + "bind(c,name=\"".len();
        let end = start + code[start..].find('"').unwrap();
        names.insert(code[start..end].to_string());
        from = end;
    }
    names
}

/// The module's named constants: (name as written, declared type such as `integer(c_int32_t)`).
fn fortran_parameters(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in fortran_code_lines(text) {
        let Some((decl, rest)) = line.split_once("::") else {
            continue;
        };
        let decl = decl.to_ascii_lowercase();
        if !decl.split(',').any(|attr| attr.trim() == "parameter") {
            continue;
        }
        let ty: String = decl
            .split(',')
            .next()
            .unwrap()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let name = rest.split('=').next().unwrap().trim().to_string();
        out.push((name, ty));
    }
    out
}

/// Whether a header macro's value is a floating-point literal (then the parameter is `real(c_double)`).
fn is_real_literal(value: &str) -> bool {
    !value.starts_with("0x") && value.contains(['.', 'e', 'E'])
}

/// Everything in `header` that `module` lacks (or has wrongly), one line per problem.
fn drift_between(header: &str, module: &str) -> Vec<String> {
    let items = parse_header(header);
    let mut problems = Vec::new();
    let binds = fortran_bind_names(module);
    for f in &items.functions {
        if !binds.contains(f) {
            problems.push(format!(
                "function {f} has no bind(C, name=\"{f}\") interface"
            ));
        }
    }
    for b in &binds {
        if !items.functions.contains(b) && !MODULE_LIBC_BINDINGS.contains(&b.as_str()) {
            problems.push(format!(
                "bind(C, name=\"{b}\") names no function of the header"
            ));
        }
    }
    let params = fortran_parameters(module);
    for (name, value) in &items.constants {
        let want = if is_real_literal(value) {
            "real(c_double)"
        } else {
            "integer(c_int32_t)"
        };
        match params.iter().find(|(p, _)| p == name) {
            None => problems.push(format!("macro {name} has no Fortran parameter")),
            Some((_, ty)) if ty != want => {
                problems.push(format!("parameter {name} is {ty}, expected {want}"))
            }
            Some(_) => {}
        }
    }
    for (p, _) in &params {
        if p.starts_with("DEMCONTACT_") && !items.constants.iter().any(|(n, _)| n == p) {
            problems.push(format!("parameter {p} is not a macro of the header"));
        }
    }
    let lower = module.to_ascii_lowercase();
    for (name, _) in &items.structs {
        if !lower.contains(&format!("type, bind(c), public :: {name}\n")) {
            problems.push(format!("struct {name} has no bind(C) derived type"));
        }
    }
    problems
}

// --- compiled comparison ---------------------------------------------------------------------------

/// A C11 program printing every constant (doubles as their bit patterns) and every struct's size and
/// field offsets of `items`, one "key value" line each.
fn c_layout_program(items: &HeaderItems) -> String {
    let mut s = String::from(
        "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n\
         #include \"demcontact.h\"\n\
         static void put_int(const char *k, long long v) { printf(\"%s %lld\\n\", k, v); }\n\
         static void put_real(const char *k, double v) {\n\
         \x20 int64_t bits; memcpy(&bits, &v, sizeof bits); printf(\"%s %lld\\n\", k, (long long)bits);\n}\n\
         #define PUT(x) _Generic((x), double: put_real, float: put_real, default: put_int)(#x, (x))\n\
         int main(void) {\n",
    );
    for (name, _) in &items.constants {
        s += &format!("  PUT({name});\n");
    }
    for (ty, fields) in &items.structs {
        s += &format!("  printf(\"sizeof {ty} %lu\\n\", (unsigned long)sizeof({ty}));\n");
        for f in fields {
            s += &format!(
                "  printf(\"offsetof {ty} {f} %lu\\n\", (unsigned long)offsetof({ty}, {f}));\n"
            );
        }
    }
    s + "  return 0;\n}\n"
}

/// The Fortran program printing the same lines as [`c_layout_program`] from the module.
fn fortran_layout_program(items: &HeaderItems) -> String {
    let mut s = String::from(
        "program layout\n\
         \x20 use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_sizeof, c_size_t, c_intptr_t, &\n\
         \x20   c_int32_t, c_int64_t, c_double\n\
         \x20 use demcontact\n\
         \x20 implicit none\n\
         \x20 interface put\n\
         \x20   procedure :: put_int, put_real\n\
         \x20 end interface put\n",
    );
    for (ty, _) in &items.structs {
        s += &format!("  type({ty}), target :: v_{ty}\n");
    }
    for (name, _) in &items.constants {
        s += &format!("  call put(\"{name}\", &\n    {name})\n");
    }
    for (ty, fields) in &items.structs {
        s += &format!("  call put_size(\"sizeof {ty}\", &\n    c_sizeof(v_{ty}))\n");
        for f in fields {
            s += &format!(
                "  call put_size(\"offsetof {ty} {f}\", &\n    offset(c_loc(v_{ty}%{f}), c_loc(v_{ty})))\n"
            );
        }
    }
    s += "contains\n\
          \x20 subroutine put_int(k, v)\n\
          \x20   character(len=*), intent(in) :: k\n\
          \x20   integer(c_int32_t), intent(in) :: v\n\
          \x20   write (*, '(a,1x,i0)') k, v\n\
          \x20 end subroutine put_int\n\
          \x20 subroutine put_real(k, v)\n\
          \x20   character(len=*), intent(in) :: k\n\
          \x20   real(c_double), intent(in) :: v\n\
          \x20   write (*, '(a,1x,i0)') k, transfer(v, 0_c_int64_t)\n\
          \x20 end subroutine put_real\n\
          \x20 subroutine put_size(k, v)\n\
          \x20   character(len=*), intent(in) :: k\n\
          \x20   integer(c_size_t), intent(in) :: v\n\
          \x20   write (*, '(a,1x,i0)') k, v\n\
          \x20 end subroutine put_size\n\
          \x20 function offset(field, base) result(bytes)\n\
          \x20   type(c_ptr), intent(in) :: field, base\n\
          \x20   integer(c_size_t) :: bytes\n\
          \x20   bytes = int(transfer(field, 0_c_intptr_t) - transfer(base, 0_c_intptr_t), c_size_t)\n\
          \x20 end function offset\n\
          end program layout\n";
    s
}

/// Compiles the module into `dir` (its .mod file too); returns the object file.
fn compile_module(dir: &Path) -> PathBuf {
    let object = dir.join("demcontact_mod.o");
    let mut cmd = fortran_compiler();
    cmd.args(FORTRAN_STRICT)
        .arg(format!("-J{}", dir.display()))
        .arg("-c")
        .arg(module_source())
        .arg("-o")
        .arg(&object);
    run_ok(&mut cmd);
    object
}

/// The command compiling Fortran `source` with the module of `dir` into `exe`, linked to the library.
fn fortran_build(dir: &Path, module_object: &Path, source: &Path, exe: &Path) -> Command {
    let mut cmd = fortran_compiler();
    cmd.args(FORTRAN_STRICT)
        .arg(format!("-I{}", dir.display()))
        .arg(format!("-J{}", dir.display()))
        .arg(source)
        .arg(module_object)
        .arg("-o")
        .arg(exe)
        .args(link_shared_flags());
    cmd
}

/// The output of the C layout program built against the header in `include` (a directory).
fn c_layout_output(dir: &Path, include: &Path, items: &HeaderItems) -> String {
    let source = dir.join("layout.c");
    let exe = dir.join("layout_c");
    std::fs::write(&source, c_layout_program(items)).unwrap();
    let mut cmd = compiler(Lang::C);
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(include)
        .arg(&source)
        .arg("-o")
        .arg(&exe);
    run_ok(&mut cmd);
    run_ok(&mut Command::new(exe))
}

/// Builds the Fortran layout program for `items`; Err(compiler output) when it does not compile.
fn fortran_layout_output(dir: &Path, items: &HeaderItems) -> Result<String, String> {
    let module_object = compile_module(dir);
    let source = dir.join("layout.f90");
    let exe = dir.join("layout_f");
    std::fs::write(&source, fortran_layout_program(items)).unwrap();
    let out = fortran_build(dir, &module_object, &source, &exe)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(run_ok(&mut Command::new(exe)))
}

/// The lines in which `c` and `fortran` differ, or None when they are equal.
fn output_difference(c: &str, fortran: &str) -> Option<String> {
    if c == fortran {
        return None;
    }
    let c_lines: BTreeSet<&str> = c.lines().collect();
    let f_lines: BTreeSet<&str> = fortran.lines().collect();
    let mut diff = String::new();
    for l in c_lines.difference(&f_lines) {
        diff += &format!("C:       {l}\n");
    }
    for l in f_lines.difference(&c_lines) {
        diff += &format!("Fortran: {l}\n");
    }
    Some(diff)
}

/// A copy of the header with `insert` placed right before its closing `#endif`.
fn header_with(extra: &str) -> String {
    let header = header_text();
    let end = header.rfind("#endif /* DEMCONTACT_H */").unwrap();
    format!("{}{extra}\n{}", &header[..end], &header[end..])
}

// --- tests -------------------------------------------------------------------------------------------

#[test]
fn fortran_header_parser_finds_every_item() {
    let items = parse_header(&header_text());
    // Spot checks that the parser reads the real header as intended (the drift checks rely on it).
    for f in [
        "demcontact_last_error_message",
        "demcontact_collide",
        "demcontact_collide_batch",
        "demcontact_sphere_create",
        "demcontact_abi_version",
    ] {
        assert!(items.functions.iter().any(|g| g == f), "{f}: {items:?}");
    }
    assert!(!items.functions.iter().any(|f| f == "demcontact_pose"));
    assert!(items
        .constants
        .iter()
        .any(|(n, v)| n == "DEMCONTACT_QUATERNION_TOLERANCE" && v == "1e-6"));
    assert!(items
        .constants
        .iter()
        .any(|(n, v)| n == "DEMCONTACT_STATUS_INTERNAL_ERROR" && v == "100"));
    assert!(!items.constants.iter().any(|(n, _)| n == "DEMCONTACT_H"));
    let names: Vec<&str> = items.structs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "demcontact_body_pair",
            "demcontact_pose",
            "demcontact_warm_state",
            "demcontact_contact",
            "demcontact_pair",
            "demcontact_basic_contact",
            "demcontact_body_contact"
        ]
    );
    let contact = &items.structs[3].1;
    assert_eq!(contact.first().map(String::as_str), Some("point_a"));
    assert_eq!(contact.last().map(String::as_str), Some("flags"));
    assert_eq!(contact.len(), 10);
    // Every exported function is counted: the header's declarations end with ");".
    let declarations = strip_c_comments(&header_text())
        .matches("demcontact_status demcontact_")
        .count()
        + strip_c_comments(&header_text())
            .matches("const char *demcontact_")
            .count()
        + strip_c_comments(&header_text())
            .matches("uint32_t demcontact_")
            .count();
    assert_eq!(items.functions.len(), declarations, "{:?}", items.functions);
}

#[test]
fn fortran_module_names_every_function_and_constant_of_the_header() {
    let problems = drift_between(&header_text(), &module_text());
    assert!(
        problems.is_empty(),
        "bindings/fortran/demcontact.f90 is out of step with include/demcontact.h:\n{}",
        problems.join("\n")
    );
}

#[test]
fn fortran_name_check_catches_a_header_that_grew() {
    let grown = header_with(
        "#define DEMCONTACT_DRIFT_TEST_FLAG 4\n\
         #define DEMCONTACT_DRIFT_TEST_SCALE 2.5\n\
         demcontact_status demcontact_drift_test_function(double x);\n",
    );
    let problems = drift_between(&grown, &module_text()).join("\n");
    assert!(
        problems.contains("DEMCONTACT_DRIFT_TEST_FLAG"),
        "{problems}"
    );
    assert!(
        problems.contains("DEMCONTACT_DRIFT_TEST_SCALE"),
        "{problems}"
    );
    assert!(
        problems.contains("demcontact_drift_test_function"),
        "{problems}"
    );
    // And the other way: a stale binding, a parameter of the wrong kind, a parameter the header lost.
    let module = module_text()
        .replace(
            "name=\"demcontact_shape_aabb\"",
            "name=\"demcontact_shape_box\"",
        )
        .replace(
            "real(c_double), parameter, public :: DEMCONTACT_QUATERNION_TOLERANCE",
            "real(c_float), parameter, public :: DEMCONTACT_QUATERNION_TOLERANCE",
        );
    let header = header_text().replace("#define DEMCONTACT_SHAPE_SPHERE 1\n", "");
    let problems = drift_between(&header, &module).join("\n");
    assert!(
        problems.contains("function demcontact_shape_aabb has no bind"),
        "{problems}"
    );
    assert!(problems.contains("demcontact_shape_box"), "{problems}");
    assert!(
        problems.contains("DEMCONTACT_QUATERNION_TOLERANCE is real(c_float)"),
        "{problems}"
    );
    assert!(
        problems.contains("parameter DEMCONTACT_SHAPE_SPHERE is not a macro"),
        "{problems}"
    );
}

#[test]
fn fortran_module_values_and_layouts_equal_the_headers() {
    let dir = scratch("fortran_layout");
    let items = parse_header(&header_text());
    let c = c_layout_output(&dir, &repo_root().join("include"), &items);
    let fortran = fortran_layout_output(&dir, &items).unwrap_or_else(|e| {
        panic!("the Fortran layout program does not compile against the module:\n{e}")
    });
    // Everything was printed: one line per constant, per struct and per field.
    let expected_lines = items.constants.len()
        + items
            .structs
            .iter()
            .map(|(_, fields)| 1 + fields.len())
            .sum::<usize>();
    assert_eq!(c.lines().count(), expected_lines, "{c}");
    assert!(c.contains("sizeof demcontact_warm_state 128\n"), "{c}");
    assert!(c.contains("offsetof demcontact_pair pose_b 72\n"), "{c}");
    if let Some(diff) = output_difference(&c, &fortran) {
        panic!("the Fortran module and the C header disagree:\n{diff}");
    }
}

#[test]
fn fortran_layout_check_catches_a_header_that_changed() {
    let dir = scratch("fortran_layout_drift");
    let include = dir.join("include");
    std::fs::create_dir_all(&include).unwrap();

    // A new constant: the Fortran program no longer compiles.
    let grown = header_with("#define DEMCONTACT_DRIFT_TEST_FLAG 4\n");
    std::fs::write(include.join("demcontact.h"), &grown).unwrap();
    let items = parse_header(&grown);
    let c = c_layout_output(&dir, &include, &items);
    assert!(c.contains("DEMCONTACT_DRIFT_TEST_FLAG 4\n"), "{c}");
    let err = fortran_layout_output(&dir, &items).expect_err("a missing parameter compiled");
    assert!(
        err.contains("DEMCONTACT_DRIFT_TEST_FLAG") || err.contains("drift_test_flag"),
        "{err}"
    );

    // A new struct field: neither.
    let grown = header_text().replace(
        "  struct demcontact_pose pose_b;\n} demcontact_pair;",
        "  struct demcontact_pose pose_b;\n  int32_t drift_test_field;\n} demcontact_pair;",
    );
    assert_ne!(
        grown,
        header_text(),
        "the pair struct moved: update this test"
    );
    std::fs::write(include.join("demcontact.h"), &grown).unwrap();
    let items = parse_header(&grown);
    let c = c_layout_output(&dir, &include, &items);
    assert!(
        c.contains("offsetof demcontact_pair drift_test_field 128\n"),
        "{c}"
    );
    let err = fortran_layout_output(&dir, &items).expect_err("a missing component compiled");
    assert!(err.contains("drift_test_field"), "{err}");

    // A changed value: both compile, the outputs differ.
    let changed = header_text().replace(
        "#define DEMCONTACT_STATUS_INTERNAL_ERROR 100",
        "#define DEMCONTACT_STATUS_INTERNAL_ERROR 101",
    );
    assert_ne!(changed, header_text());
    std::fs::write(include.join("demcontact.h"), &changed).unwrap();
    let items = parse_header(&changed);
    let c = c_layout_output(&dir, &include, &items);
    let fortran = fortran_layout_output(&dir, &items).unwrap();
    let diff = output_difference(&c, &fortran).expect("a changed value went unnoticed");
    assert!(
        diff.contains("DEMCONTACT_STATUS_INTERNAL_ERROR 101"),
        "{diff}"
    );

    // A changed field type (a 64-bit step counter grows the warm state): the sizes differ.
    let retyped = header_text().replace("  uint32_t steps;\n", "  uint64_t steps;\n");
    assert_ne!(retyped, header_text());
    // (The header's own static assertion on the warm state's size would stop the C compile, so this
    // one is compared without it.)
    let retyped = retyped.replace(
        "DEMCONTACT_STATIC_ASSERT_(sizeof(demcontact_warm_state) == DEMCONTACT_WARM_STATE_SIZE, \"demcontact_warm_state is 128 bytes\");\n",
        "",
    );
    std::fs::write(include.join("demcontact.h"), &retyped).unwrap();
    let items = parse_header(&retyped);
    let c = c_layout_output(&dir, &include, &items);
    let fortran = fortran_layout_output(&dir, &items).unwrap();
    let diff = output_difference(&c, &fortran).expect("a changed field type went unnoticed");
    assert!(diff.contains("sizeof demcontact_warm_state"), "{diff}");
}

/// Compiles `ffi_tests/fortran/{name}.f90` (strict Fortran 2008) against the module and the
/// library, runs it, and checks that its last line is "ok" (every check passed).
fn run_fortran_program(name: &str) {
    let dir = scratch(&format!("fortran_{name}"));
    let module_object = compile_module(&dir);
    let exe = dir.join(name);
    run_ok(&mut fortran_build(
        &dir,
        &module_object,
        &repo_root().join(format!("ffi_tests/fortran/{name}.f90")),
        &exe,
    ));
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
}

#[test]
fn fortran_program_checks_numbers_warm_states_errors_and_batches() {
    run_fortran_program("spheres");
}

#[test]
fn fortran_program_checks_polyhedron_contacts_lists_and_errors() {
    run_fortran_program("polyhedra");
}

#[test]
fn fortran_program_checks_potential_particle_numbers_and_errors() {
    run_fortran_program("potential");
}

#[test]
fn fortran_program_checks_the_broad_phase_and_world_steps() {
    run_fortran_program("world");
}
