//! The ABI never breaks under a host: the exported symbols, the header and (with libabigail) the
//! functions' parameter types are compared with the baseline committed in `abi/` (the last released ABI).
//!
//! - every exported dynamic symbol is `demcontact_*` and declared in the header;
//! - every baseline symbol is still exported;
//! - every declaration of the baseline header (function prototype, struct or typedef field by field,
//!   `#define` value, layout assertion) is still in the current header, to the letter (comments and
//!   whitespace aside): a removed or changed signature, field or constant fails, naming it;
//! - additions over the baseline need a higher minor (or major) version in Cargo.toml than
//!   `abi/VERSION`;
//! - `abidiff` finds no removed or changed function between `abi/demcontact.abi` (abidw of the
//!   dev-profile library) and the current library.
//!
//! `DEMCONTACT_BLESS_ABI=1 cargo test --test ffi abi_` records the current state as the new baseline,
//! and refuses when that would drop or change anything without a major version bump, or add anything
//! without a minor one.

use crate::harness::{lib_dir, profile, repo_root, run_ok};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A version as (major, minor, patch).
type Version = (u32, u32, u32);

/// Macros that change with every release by design: they are checked against Cargo.toml instead.
const VERSION_MACROS: [&str; 5] = [
    "DEMCONTACT_VERSION_MAJOR",
    "DEMCONTACT_VERSION_MINOR",
    "DEMCONTACT_VERSION_PATCH",
    "DEMCONTACT_VERSION_NUMBER",
    "DEMCONTACT_ABI_VERSION",
];

pub fn parse_version(text: &str) -> Version {
    let parts: Vec<u32> = text
        .trim()
        .split('.')
        .map(|p| {
            p.parse()
                .unwrap_or_else(|_| panic!("version {text:?}: {p:?} is not a number"))
        })
        .collect();
    assert_eq!(parts.len(), 3, "version {text:?} is not MAJOR.MINOR.PATCH");
    (parts[0], parts[1], parts[2])
}

/// `text` without its C comments (`/* ... */` and `// ...`).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("*/")
            .map_or(rest.len(), |e| start + e + 2);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The last identifier of `text`.
fn last_ident(text: &str) -> &str {
    text.trim_end_matches(|c: char| !is_ident(c))
        .rsplit(|c: char| !is_ident(c))
        .next()
        .unwrap_or("")
}

/// The header's declarations, keyed by the name they declare, as normalised text (comments and
/// preprocessor scaffolding dropped, whitespace folded): `#define`s, function prototypes, typedefs,
/// struct/enum/union definitions and layout assertions.
pub fn declarations(header: &str) -> BTreeMap<String, String> {
    let mut items = BTreeMap::new();
    let mut code = String::new();
    for line in strip_comments(header).lines() {
        let line = line.trim();
        if let Some(define) = line.strip_prefix("#define ") {
            let mut parts = define.trim().splitn(2, char::is_whitespace);
            let name = parts.next().unwrap().to_string();
            let value = parts.next().unwrap_or("").trim();
            // The include guard and the helper macro of the layout assertions are not API.
            if name != "DEMCONTACT_H" && !name.starts_with("DEMCONTACT_STATIC_ASSERT") {
                items.insert(name.clone(), format!("#define {name} {value}"));
            }
        } else if line.starts_with('#') || line.starts_with("extern \"C\"") || line == "}" {
            continue;
        } else {
            code.push(' ');
            code.push_str(line);
        }
    }
    // Top-level declarations end with ';' outside braces.
    let mut depth = 0;
    let mut current = String::new();
    for ch in code.chars() {
        current.push(ch);
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ';' if depth == 0 => {
                let decl = normalise(&current);
                current.clear();
                items.insert(declared_name(&decl), decl);
            }
            _ => {}
        }
    }
    items
}

/// Whitespace folded to single spaces, none inside `( )`, before `,;)[]` or after `*`, and one before
/// a run of `*`: a reflowed declaration is the same declaration.
fn normalise(decl: &str) -> String {
    let folded = decl.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    for ch in folded.chars() {
        if matches!(ch, ',' | ';' | ')' | '[' | ']') && out.ends_with(' ') {
            out.pop();
        }
        if ch == ' ' && (out.ends_with('(') || out.ends_with('*')) {
            continue;
        }
        if ch == '*' && !out.is_empty() && !out.ends_with(['*', ' ', '(']) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

/// The name a normalised declaration declares: a function's name, a typedef's new name, a tagged
/// struct/enum/union's tag; anything else (layout assertions) is its own name.
fn declared_name(decl: &str) -> String {
    let body = decl.trim_end_matches(';').trim();
    if body.starts_with("typedef") {
        // `typedef ret (*name)(args)`: a function pointer type.
        if let Some(start) = body.find("(*") {
            let after = &body[start + 2..];
            return after
                .split(|c: char| !is_ident(c))
                .next()
                .unwrap()
                .to_string();
        }
        return last_ident(body).to_string();
    }
    for tag in ["struct ", "enum ", "union "] {
        if let Some(rest) = body.strip_prefix(tag) {
            if body.contains('{') {
                return format!(
                    "{tag}{}",
                    rest.split(|c: char| !is_ident(c)).next().unwrap()
                );
            }
        }
    }
    if let Some(paren) = body.find('(') {
        let name = last_ident(&body[..paren]);
        if name.starts_with("demcontact_") {
            return name.to_string();
        }
    }
    body.to_string()
}

/// The fields of a struct/union definition (between its braces), or its enumerators.
fn members(decl: &str) -> Option<Vec<String>> {
    let open = decl.find('{')?;
    let close = decl.rfind('}')?;
    let sep = if decl.starts_with("enum ") || decl.starts_with("typedef enum ") {
        ','
    } else {
        ';'
    };
    Some(
        decl[open + 1..close]
            .split(sep)
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect(),
    )
}

/// What the current header drops or changes of the baseline: one message per break, naming it.
pub fn header_breaks(baseline: &str, current: &str) -> Vec<String> {
    let (old, new) = (declarations(baseline), declarations(current));
    let mut breaks = Vec::new();
    for (name, decl) in &old {
        if VERSION_MACROS.contains(&name.as_str()) {
            continue;
        }
        let Some(now) = new.get(name) else {
            breaks.push(format!("`{name}` removed (was `{decl}`)"));
            continue;
        };
        if now == decl {
            continue;
        }
        match (members(decl), members(now)) {
            (Some(was), Some(is)) => {
                let gone: Vec<_> = was.iter().filter(|f| !is.contains(f)).collect();
                for field in &gone {
                    breaks.push(format!("`{name}`: member `{field}` removed or changed"));
                }
                if gone.is_empty() && was != is {
                    breaks.push(format!(
                        "`{name}`: members added or reordered (a layout change): was {{{}}}, now {{{}}}",
                        was.join("; "),
                        is.join("; ")
                    ));
                } else if gone.is_empty() {
                    breaks.push(format!("`{name}` changed: `{decl}` is now `{now}`"));
                }
            }
            _ => breaks.push(format!("`{name}` changed: `{decl}` is now `{now}`")),
        }
    }
    breaks
}

/// What the current header declares that the baseline does not.
pub fn header_additions(baseline: &str, current: &str) -> Vec<String> {
    let old = declarations(baseline);
    declarations(current)
        .into_keys()
        .filter(|name| !old.contains_key(name))
        .collect()
}

/// Exported symbols without the `demcontact_` prefix.
pub fn foreign_symbols(exported: &BTreeSet<String>) -> Vec<String> {
    exported
        .iter()
        .filter(|s| !s.starts_with("demcontact_"))
        .cloned()
        .collect()
}

/// Exported symbols the header does not declare.
pub fn undeclared_symbols(exported: &BTreeSet<String>, header: &str) -> Vec<String> {
    let declared = declarations(header);
    exported
        .iter()
        .filter(|s| !declared.contains_key(*s))
        .cloned()
        .collect()
}

/// Baseline symbols no longer exported.
pub fn missing_symbols(baseline: &BTreeSet<String>, exported: &BTreeSet<String>) -> Vec<String> {
    baseline.difference(exported).cloned().collect()
}

/// Additions need a higher minor (or major) version than the baseline's.
pub fn additions_allowed(
    additions: &[String],
    baseline: Version,
    current: Version,
) -> Result<(), String> {
    if additions.is_empty() || (current.0, current.1) > (baseline.0, baseline.1) {
        Ok(())
    } else {
        Err(format!(
            "the ABI gained {:?} over baseline {}.{}.{}, but Cargo.toml's version is {}.{}.{}: additions \
             bump the minor version",
            additions, baseline.0, baseline.1, baseline.2, current.0, current.1, current.2
        ))
    }
}

/// Whether a new baseline may be recorded: breaks need a major bump, additions a minor (or major) one.
pub fn bless_allowed(
    breaks: &[String],
    additions: &[String],
    baseline: Version,
    current: Version,
) -> Result<(), String> {
    if !breaks.is_empty() && current.0 <= baseline.0 {
        return Err(format!(
            "refusing to record a baseline that breaks the ABI of {}.{}.{} without a major version bump \
             (Cargo.toml is {}.{}.{}):\n{}",
            baseline.0,
            baseline.1,
            baseline.2,
            current.0,
            current.1,
            current.2,
            breaks.join("\n")
        ));
    }
    if current < baseline {
        return Err(format!(
            "Cargo.toml's version {current:?} is older than the baseline's {baseline:?}"
        ));
    }
    additions_allowed(additions, baseline, current)
}

/// The removed and changed functions, variables and symbols an `abidiff` report lists (its summary
/// lines, e.g. `Functions changes summary: 1 Removed, 1 Changed (6 filtered out), 0 Added functions`);
/// additions are not breaks.
pub fn abidiff_breaks(report: &str) -> Vec<String> {
    let mut breaks = Vec::new();
    for line in report.lines().filter(|l| l.contains("changes summary:")) {
        let counts = line.split_once(':').unwrap().1;
        for part in counts.split(',') {
            let mut words = part.split_whitespace();
            let (Some(n), Some(kind)) = (words.next(), words.next()) else {
                continue;
            };
            if matches!(kind, "Removed" | "Changed") && n.parse::<u32>().map_or(true, |n| n > 0) {
                breaks.push(line.trim().to_string());
                break;
            }
        }
    }
    breaks
}

// --- the library and the committed baseline -------------------------------------------------------

/// The dynamic symbols `library` defines.
fn exported_symbols_of(library: &Path) -> BTreeSet<String> {
    let out = run_ok(
        Command::new("nm")
            .args(["-D", "--defined-only", "--format=posix"])
            .arg(library),
    );
    out.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

fn exported_symbols() -> BTreeSet<String> {
    exported_symbols_of(&lib_dir().join("libdemcontact.so"))
}

fn abi_dir() -> PathBuf {
    repo_root().join("abi")
}

fn baseline_file(name: &str) -> String {
    std::fs::read_to_string(abi_dir().join(name)).unwrap_or_else(|e| {
        panic!("abi/{name}: {e} (record a baseline with DEMCONTACT_BLESS_ABI=1 cargo test --test ffi abi_)")
    })
}

fn baseline_symbols() -> BTreeSet<String> {
    baseline_file("symbols.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

fn current_header() -> String {
    std::fs::read_to_string(repo_root().join("include/demcontact.h")).unwrap()
}

fn current_version() -> Version {
    parse_version(env!("CARGO_PKG_VERSION"))
}

fn blessing() -> bool {
    std::env::var_os("DEMCONTACT_BLESS_ABI").is_some_and(|v| v != "0")
}

/// Writes `text` to `abi/<name>` atomically (a parallel reader sees the old or the new file).
fn write_baseline_file(name: &str, text: &str) {
    let dir = abi_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, dir.join(name)).unwrap();
}

/// Whether `tool --version` runs.
fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The shared library of the dev profile, which has full debug info (the release profile keeps line
/// tables only): built here when this test run is not the dev profile's.
fn dev_library() -> PathBuf {
    let dir = lib_dir();
    if profile() != "debug" {
        run_ok(
            Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .current_dir(repo_root())
                .args(["build", "-p", "demcontact", "--lib"]),
        );
        return dir.parent().unwrap().join("debug/libdemcontact.so");
    }
    dir.join("libdemcontact.so")
}

/// The libabigail representation of `library`'s exported functions and the types they use, without
/// paths or source locations, and only of demcontact's own compilation units (the dependencies' carry
/// machine-specific paths and nothing exported).
fn abidw(library: &Path) -> String {
    let out = run_ok(
        Command::new("abidw")
            .args([
                "--no-corpus-path",
                "--no-comp-dir-path",
                "--no-show-locs",
                "--drop-undefined-syms",
                "--no-elf-needed",
                "--type-id-style",
                "hash",
            ])
            .arg(library),
    );
    let mut kept = String::new();
    let mut keep = true;
    for line in out.lines() {
        if line.trim_start().starts_with("<abi-instr ") {
            keep = line.contains(" path='src/");
        }
        if keep {
            kept.push_str(line);
            kept.push('\n');
        }
        if line.trim_start().starts_with("</abi-instr>") {
            keep = true;
        }
    }
    kept
}

/// Runs `abidiff` on two abidw files with abi/abidiff.supp; returns its report.
fn abidiff(baseline: &Path, current: &Path) -> String {
    let out = Command::new("abidiff")
        .arg("--suppressions")
        .arg(abi_dir().join("abidiff.supp"))
        .arg(baseline)
        .arg(current)
        .output()
        .expect("abidiff");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    // Exit status bits: 1 error, 2 usage error, 4 ABI change, 8 incompatible change.
    let code = out.status.code().expect("abidiff killed by a signal");
    assert!(
        code & 3 == 0,
        "abidiff failed ({code}):\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

// --- the checks ---------------------------------------------------------------------------------

#[test]
fn abi_exports_only_prefixed_symbols_all_declared_in_the_header() {
    let exported = exported_symbols();
    assert!(
        exported.contains("demcontact_collide"),
        "nm found no demcontact symbols: {exported:?}"
    );
    let foreign = foreign_symbols(&exported);
    assert!(
        foreign.is_empty(),
        "exported symbols without the demcontact_ prefix: {foreign:?}"
    );
    let undeclared = undeclared_symbols(&exported, &current_header());
    assert!(
        undeclared.is_empty(),
        "exported symbols not declared in include/demcontact.h: {undeclared:?}"
    );
}

#[test]
fn abi_header_version_macros_follow_cargo_toml() {
    let items = declarations(&current_header());
    let (major, minor, patch) = current_version();
    for (name, value) in [
        ("DEMCONTACT_VERSION_MAJOR", major),
        ("DEMCONTACT_VERSION_MINOR", minor),
        ("DEMCONTACT_VERSION_PATCH", patch),
        (
            "DEMCONTACT_VERSION_NUMBER",
            major * 1_000_000 + minor * 1000 + patch,
        ),
        ("DEMCONTACT_ABI_VERSION", major * 1000 + minor),
    ] {
        assert_eq!(
            items.get(name),
            Some(&format!("#define {name} {value}")),
            "{name}"
        );
    }
}

/// (b), (c), (d) against the committed baseline; with DEMCONTACT_BLESS_ABI=1, records the current state
/// as the baseline instead, if the version allows it.
#[test]
fn abi_matches_the_baseline() {
    let exported = exported_symbols();
    let header = current_header();
    let version = current_version();
    // Without a baseline (the first one is being recorded) everything is an addition.
    let recorded = abi_dir().join("VERSION").exists();
    assert!(
        recorded || blessing(),
        "no ABI baseline in abi/: record one with DEMCONTACT_BLESS_ABI=1 cargo test --test ffi abi_"
    );
    let (old_symbols, old_header, old_version) = if recorded {
        (
            baseline_symbols(),
            baseline_file("demcontact.h"),
            parse_version(&baseline_file("VERSION")),
        )
    } else {
        (BTreeSet::new(), String::new(), (0, 0, 0))
    };
    let mut breaks: Vec<String> = missing_symbols(&old_symbols, &exported)
        .into_iter()
        .map(|s| format!("symbol `{s}` no longer exported"))
        .collect();
    breaks.extend(header_breaks(&old_header, &header));
    let mut additions = header_additions(&old_header, &header);
    additions.extend(
        exported
            .difference(&old_symbols)
            .map(|s| format!("symbol {s}")),
    );

    if blessing() {
        if recorded {
            if let Err(why) = bless_allowed(&breaks, &additions, old_version, version) {
                panic!("{why}");
            }
        }
        assert!(
            have("abidw"),
            "blessing needs abidw (apt-get install abigail-tools) to record abi/demcontact.abi"
        );
        let abi = abidw(&dev_library());
        let symbols: Vec<&str> = exported.iter().map(String::as_str).collect();
        write_baseline_file("symbols.txt", &(symbols.join("\n") + "\n"));
        write_baseline_file("demcontact.h", &header);
        write_baseline_file("VERSION", &format!("{}\n", env!("CARGO_PKG_VERSION")));
        write_baseline_file("demcontact.abi", &abi);
        eprintln!(
            "recorded the ABI baseline {} in abi/",
            env!("CARGO_PKG_VERSION")
        );
        return;
    }
    assert!(
        breaks.is_empty(),
        "the library breaks the baseline ABI {}.{}.{} (abi/):\n{}",
        old_version.0,
        old_version.1,
        old_version.2,
        breaks.join("\n")
    );
    if let Err(why) = additions_allowed(&additions, old_version, version) {
        panic!("{why}; then record the baseline with DEMCONTACT_BLESS_ABI=1 cargo test --test ffi abi_");
    }
}

/// The parameter and return types of the exported functions, and the layouts of the structs they take,
/// as libabigail reads them from the DWARF of the dev-profile library, against abi/demcontact.abi.
#[test]
fn abi_signatures_match_the_abidw_baseline() {
    if !have("abidw") || !have("abidiff") {
        eprintln!("NOTE: abidw/abidiff not installed (apt-get install abigail-tools): DWARF signature check not run");
        return;
    }
    if blessing() {
        // abi_matches_the_baseline records abi/demcontact.abi in this run.
        return;
    }
    let current = abidw(&dev_library());
    for symbol in exported_symbols() {
        assert!(
            current.contains(&format!("<function-decl name='{symbol}'")),
            "abidw recorded no declaration of {symbol}: the library lacks debug info"
        );
    }
    let dir = crate::harness::scratch("abi_abidiff");
    let path = dir.join("current.abi");
    std::fs::write(&path, &current).unwrap();
    let report = abidiff(&abi_dir().join("demcontact.abi"), &path);
    let breaks = abidiff_breaks(&report);
    assert!(
        breaks.is_empty(),
        "abidiff abi/demcontact.abi (baseline) against the current library:\n{report}\n\
         A removed or changed function breaks the ABI (only a major version may do that; then bless)."
    );
}

// --- the checks themselves, on inputs broken on purpose -----------------------------------------

#[test]
fn abi_check_parses_every_declaration_of_the_header() {
    let items = declarations(&current_header());
    for name in [
        "demcontact_collide",
        "demcontact_contact",
        "demcontact_status",
        "DEMCONTACT_STATUS_OK",
        "demcontact_shape",
        "demcontact_abi_version",
    ] {
        assert!(
            items.contains_key(name),
            "{name} not found among {:?}",
            items.keys().collect::<Vec<_>>()
        );
    }
    assert!(items["demcontact_contact"].contains("double penetration;"));
    assert_eq!(
        items["demcontact_shape_release"],
        "demcontact_status demcontact_shape_release(struct demcontact_shape *shape);"
    );
    assert!(items
        .keys()
        .any(|k| k.contains("sizeof(demcontact_contact)")));
    assert!(!items.contains_key("DEMCONTACT_H"));
    // Function pointer typedefs, tagged definitions and enums are named by what they declare.
    let extra = declarations(
        "typedef void (*demcontact_log_fn)(const char *text);\n\
         enum demcontact_mode { DEMCONTACT_MODE_A = 0, DEMCONTACT_MODE_B = 1, };\n\
         struct demcontact_tagged { int x; };",
    );
    assert_eq!(
        extra.keys().collect::<Vec<_>>(),
        [
            "demcontact_log_fn",
            "enum demcontact_mode",
            "struct demcontact_tagged"
        ]
    );
}

#[test]
fn abi_check_catches_a_changed_signature_field_or_constant() {
    let header = current_header();
    let broken = [
        // A parameter loses its const.
        (
            "const struct demcontact_pose *pose_b,",
            "struct demcontact_pose *pose_b,",
            "`demcontact_collide` changed",
        ),
        // A parameter's type.
        (
            "demcontact_status demcontact_sphere_create(double radius,",
            "demcontact_status demcontact_sphere_create(float radius,",
            "`demcontact_sphere_create` changed",
        ),
        // A return type.
        (
            "uint32_t demcontact_abi_version(void);",
            "int32_t demcontact_abi_version(void);",
            "`demcontact_abi_version` changed",
        ),
        // A field's type.
        (
            "double penetration;",
            "float penetration;",
            "member `double penetration` removed or changed",
        ),
        // A field renamed.
        (
            "uint32_t iterations;",
            "uint32_t iteration_count;",
            "member `uint32_t iterations` removed or changed",
        ),
        // A field added at the end of a struct (its size changes).
        (
            "  uint32_t flags;\n} demcontact_contact;",
            "  uint32_t flags;\n  uint32_t more;\n} demcontact_contact;",
            "`demcontact_contact`: members added or reordered",
        ),
        // A field removed.
        (
            "  double position[3];\n",
            "",
            "`demcontact_pose`: member `double position[3]` removed",
        ),
        // A constant's value.
        (
            "#define DEMCONTACT_STATUS_NON_FINITE 3",
            "#define DEMCONTACT_STATUS_NON_FINITE 33",
            "`DEMCONTACT_STATUS_NON_FINITE` changed",
        ),
        // A constant renamed.
        (
            "#define DEMCONTACT_STATUS_NOT_CONVERGED 5",
            "#define DEMCONTACT_STATUS_NO_CONVERGENCE 5",
            "`DEMCONTACT_STATUS_NOT_CONVERGED` removed",
        ),
        // A function removed.
        (
            "uint32_t demcontact_abi_version(void);",
            "",
            "`demcontact_abi_version` removed",
        ),
        // A typedef changed.
        (
            "typedef int32_t demcontact_status;",
            "typedef int64_t demcontact_status;",
            "`demcontact_status` changed",
        ),
        // A layout assertion changed.
        (
            "sizeof(demcontact_pose) == 56",
            "sizeof(demcontact_pose) == 64",
            "sizeof(demcontact_pose) == 56",
        ),
    ];
    for (from, to, expected) in broken {
        assert!(
            header.contains(from),
            "test fixture out of date: {from:?} not in the header"
        );
        let breaks = header_breaks(&header, &header.replacen(from, to, 1));
        assert!(
            breaks.iter().any(|b| b.contains(expected)),
            "{from:?} -> {to:?} not reported as {expected:?}: {breaks:?}"
        );
    }
    // Swapping two fields of the same struct is a layout change.
    let swapped = header.replacen("  int32_t touching;\n", "", 1).replacen(
        "  uint32_t iterations;\n",
        "  uint32_t iterations;\n  int32_t touching;\n",
        1,
    );
    let breaks = header_breaks(&header, &swapped);
    assert!(breaks.iter().any(|b| b.contains("reordered")), "{breaks:?}");
}

#[test]
fn abi_check_ignores_comments_whitespace_and_version_bumps() {
    let header = current_header();
    assert!(header_breaks(&header, &header).is_empty());
    let reflowed = header
        .replace("/**", "/** edited")
        .replace("  ", "    ")
        .replace(",\n                                     ", ", ");
    assert_ne!(reflowed, header);
    assert!(
        header_breaks(&header, &reflowed).is_empty(),
        "{:?}",
        header_breaks(&header, &reflowed)
    );
    // The next minor version, whatever the current one is.
    let minor = env!("CARGO_PKG_VERSION_MINOR").parse::<u32>().unwrap();
    let major = env!("CARGO_PKG_VERSION_MAJOR").parse::<u32>().unwrap();
    let abi = |m: u32| format!("#define DEMCONTACT_ABI_VERSION {}", major * 1000 + m);
    let bumped = header
        .replace(
            &format!("#define DEMCONTACT_VERSION_MINOR {minor}"),
            &format!("#define DEMCONTACT_VERSION_MINOR {}", minor + 1),
        )
        .replace(&abi(minor), &abi(minor + 1));
    assert_ne!(bumped, header);
    assert!(header_breaks(&header, &bumped).is_empty());
}

#[test]
fn abi_check_demands_a_minor_bump_for_additions() {
    let header = current_header();
    let grown = header.replace(
        "const char *demcontact_version(void);",
        "const char *demcontact_version(void);\ndemcontact_status demcontact_new_thing(double x);\n#define DEMCONTACT_NEW 7",
    );
    assert_eq!(
        header_additions(&header, &grown),
        ["DEMCONTACT_NEW", "demcontact_new_thing"]
    );
    assert!(header_breaks(&header, &grown).is_empty());
    let added = ["demcontact_new_thing".to_string()];
    let err = additions_allowed(&added, (0, 1, 0), (0, 1, 1)).unwrap_err();
    assert!(
        err.contains("demcontact_new_thing") && err.contains("bump the minor"),
        "{err}"
    );
    assert!(additions_allowed(&added, (0, 1, 0), (0, 1, 0)).is_err());
    assert!(additions_allowed(&added, (0, 1, 0), (0, 2, 0)).is_ok());
    assert!(additions_allowed(&added, (0, 1, 0), (1, 0, 0)).is_ok());
    assert!(additions_allowed(&[], (0, 1, 0), (0, 1, 0)).is_ok());
}

#[test]
fn abi_check_catches_foreign_missing_and_undeclared_symbols() {
    let header = current_header();
    let mut exported: BTreeSet<String> = ["demcontact_collide", "demcontact_version"]
        .map(String::from)
        .into();
    assert!(foreign_symbols(&exported).is_empty());
    assert!(undeclared_symbols(&exported, &header).is_empty());
    exported.insert("rust_eh_personality".into());
    exported.insert("demcontact_secret".into());
    assert_eq!(foreign_symbols(&exported), ["rust_eh_personality"]);
    assert_eq!(
        undeclared_symbols(&exported, &header),
        ["demcontact_secret", "rust_eh_personality"]
    );
    let baseline: BTreeSet<String> = ["demcontact_collide", "demcontact_shape_aabb"]
        .map(String::from)
        .into();
    assert_eq!(
        missing_symbols(&baseline, &exported),
        ["demcontact_shape_aabb"]
    );
    // The real library against a baseline that lists one symbol more.
    let mut grown = baseline_symbols();
    grown.insert("demcontact_removed_since".into());
    assert_eq!(
        missing_symbols(&grown, &exported_symbols()),
        ["demcontact_removed_since"]
    );
}

#[test]
fn abi_check_bless_refuses_breaks_without_a_major_bump() {
    let breaks = ["`demcontact_collide` changed".to_string()];
    let err = bless_allowed(&breaks, &[], (0, 1, 0), (0, 2, 0)).unwrap_err();
    assert!(
        err.contains("major version") && err.contains("demcontact_collide"),
        "{err}"
    );
    assert!(bless_allowed(&breaks, &[], (0, 1, 0), (0, 1, 1)).is_err());
    assert!(bless_allowed(&breaks, &[], (0, 1, 0), (1, 0, 0)).is_ok());
    let added = ["demcontact_new".to_string()];
    assert!(bless_allowed(&[], &added, (0, 1, 0), (0, 1, 0)).is_err());
    assert!(bless_allowed(&[], &added, (0, 1, 0), (0, 2, 0)).is_ok());
    assert!(bless_allowed(&[], &[], (0, 1, 0), (0, 1, 0)).is_ok());
    assert!(bless_allowed(&[], &[], (0, 2, 0), (0, 1, 0)).is_err());
}

/// abidiff itself, on the current library's representation with a function removed, a parameter type
/// changed and a struct field moved (edits of the abidw XML, as a broken build would write it).
#[test]
fn abi_check_abidiff_catches_removed_and_changed_functions() {
    if !have("abidw") || !have("abidiff") {
        eprintln!("NOTE: abidw/abidiff not installed (apt-get install abigail-tools): abidiff negative check not run");
        return;
    }
    let current = abidw(&dev_library());
    let lines: Vec<&str> = current.lines().collect();
    // demcontact_version gone: its ELF symbol and its declaration.
    let mut removed = Vec::new();
    let mut skipping = false;
    for line in &lines {
        if line.contains("<elf-symbol name='demcontact_version'") {
            continue;
        }
        if line.contains("<function-decl name='demcontact_version'") {
            skipping = true;
        }
        if !skipping {
            removed.push(*line);
        }
        if skipping && line.contains("</function-decl>") {
            skipping = false;
        }
    }
    assert_eq!(
        removed.len() + 4,
        lines.len(),
        "test fixture out of date: demcontact_version's declaration"
    );
    // demcontact_sphere_create(double radius, ...) taking an i32 instead.
    let i32_id = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("<type-decl name='i32'"))
        .and_then(|l| l.split("id='").nth(1))
        .map(|l| l.split('\'').next().unwrap().to_string())
        .expect("test fixture out of date: no i32 type");
    let retyped: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.contains("<parameter ") && l.contains("name='radius'") {
                let old = l
                    .split("type-id='")
                    .nth(1)
                    .unwrap()
                    .split('\'')
                    .next()
                    .unwrap();
                l.replace(&format!("type-id='{old}'"), &format!("type-id='{i32_id}'"))
            } else {
                l.to_string()
            }
        })
        .collect();
    assert_ne!(
        retyped.join("\n"),
        current.trim_end(),
        "test fixture out of date: no radius parameter"
    );
    // demcontact_contact.touching 32 bits further on.
    let mut moved: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for i in 1..moved.len() {
        if moved[i].contains("<var-decl name='touching'") {
            let offset: u32 = moved[i - 1]
                .split("layout-offset-in-bits='")
                .nth(1)
                .and_then(|r| r.split('\'').next())
                .and_then(|n| n.parse().ok())
                .expect("test fixture out of date: touching's offset");
            moved[i - 1] =
                moved[i - 1].replace(&format!("'{offset}'"), &format!("'{}'", offset + 32));
        }
    }

    let dir = crate::harness::scratch("abi_abidiff_negative");
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text + "\n").unwrap();
        path
    };
    let base = write("current.abi", current.trim_end().to_string());
    assert!(abidiff_breaks(&abidiff(&base, &base)).is_empty());
    for (name, text, expected) in [
        ("removed.abi", removed.join("\n"), "demcontact_version"),
        (
            "retyped.abi",
            retyped.join("\n"),
            "demcontact_sphere_create",
        ),
        ("moved.abi", moved.join("\n"), "touching"),
    ] {
        let report = abidiff(&base, &write(name, text));
        assert!(
            !abidiff_breaks(&report).is_empty(),
            "{name}: abidiff saw no break:\n{report}"
        );
        assert!(
            report.contains(expected),
            "{name}: the report does not name {expected}:\n{report}"
        );
    }
}

#[test]
fn abi_check_reads_abidiff_summaries() {
    let clean =
        "Functions changes summary: 0 Removed, 0 Changed (7 filtered out), 0 Added functions\n\
                 Variables changes summary: 0 Removed, 0 Changed, 0 Added variable\n";
    assert!(abidiff_breaks(clean).is_empty());
    let added = "Functions changes summary: 0 Removed, 0 Changed, 2 Added functions\n";
    assert!(abidiff_breaks(added).is_empty());
    let changed = "Functions changes summary: 0 Removed, 1 Changed, 0 Added function\n";
    assert_eq!(abidiff_breaks(changed).len(), 1);
    let removed = "Functions changes summary: 1 Removed, 1 Changed (1 filtered out), 0 Added functions\n\
                   Function symbols changes summary: 1 Removed, 0 Added function symbol not referenced by debug info\n";
    assert_eq!(abidiff_breaks(removed).len(), 2);
}
