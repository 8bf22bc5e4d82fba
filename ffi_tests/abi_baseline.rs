//! The ABI never breaks under a host: the exported symbols and the header are compared with the
//! baseline committed in `abi/` (the last released ABI).
//!
//! - every exported dynamic symbol is `demcontact_*`, and declared in the header;
//! - every baseline symbol is still exported;
//! - every declaration of the baseline header (function prototype, struct or typedef, `#define`
//!   value, layout assertion) is still in the current header, to the letter (whitespace aside): a
//!   changed signature, field or constant fails, naming it;
//! - additions over the baseline need a higher minor (or major) version in Cargo.toml than
//!   `abi/VERSION`.
//!
//! - libabigail's `abidiff` compares the library's DWARF (function parameter and return types, struct
//!   layouts) with `abi/demcontact.abi` and fails on any removed or changed function or variable.
//!
//! `DEMCONTACT_BLESS_ABI=1 cargo test --test ffi abi_` records the current state as the new baseline,
//! and refuses when that would drop or change anything without a major version bump.

use crate::harness::{lib_dir, repo_root, run_ok};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// A version as (major, minor, patch).
type Version = (u32, u32, u32);

fn parse_version(text: &str) -> Version {
    let parts: Vec<u32> = text
        .trim()
        .split('.')
        .map(|p| p.parse().expect("version number"))
        .collect();
    assert_eq!(parts.len(), 3, "version {text:?} is not MAJOR.MINOR.PATCH");
    (parts[0], parts[1], parts[2])
}

/// The header's declarations, keyed by the name they declare, as normalised text (comments and
/// preprocessor scaffolding dropped, whitespace folded).
pub fn declarations(header: &str) -> BTreeMap<String, String> {
    // Comments out: /* ... */ blocks, then // to the end of the line.
    let mut text = String::new();
    let mut rest = header;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        let end = rest[start..]
            .find("*/")
            .map_or(rest.len(), |e| start + e + 2);
        rest = &rest[end..];
    }
    text.push_str(rest);
    let mut items = BTreeMap::new();
    let mut code = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap().trim();
        if let Some(define) = line.strip_prefix("#define ") {
            let mut parts = define.splitn(2, char::is_whitespace);
            let name = parts.next().unwrap().to_string();
            let value = parts.next().unwrap_or("").trim().to_string();
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
                let decl = current.split_whitespace().collect::<Vec<_>>().join(" ");
                current.clear();
                items.insert(declared_name(&decl), decl);
            }
            _ => {}
        }
    }
    items
}

/// The name a normalised declaration declares: a function's name, a typedef's new name, or, for
/// anything else (layout assertions), the declaration itself.
fn declared_name(decl: &str) -> String {
    let body = decl.trim_end_matches(';');
    if body.starts_with("typedef") {
        return body
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap()
            .to_string();
    }
    if let Some(paren) = body.find('(') {
        let head = &body[..paren];
        if let Some(name) = head
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
        {
            if name.starts_with("demcontact_") {
                return name.to_string();
            }
        }
    }
    body.to_string()
}

/// What the current header drops or changes of the baseline: one message per break.
pub fn header_breaks(baseline: &str, current: &str) -> Vec<String> {
    let (old, new) = (declarations(baseline), declarations(current));
    old.iter()
        .filter_map(|(name, decl)| match new.get(name) {
            None => Some(format!("removed: `{decl}`")),
            Some(now) if now != decl => Some(format!("changed: `{decl}` is now `{now}`")),
            Some(_) => None,
        })
        .collect()
}

/// What the current header adds to the baseline.
pub fn header_additions(baseline: &str, current: &str) -> Vec<String> {
    let old = declarations(baseline);
    declarations(current)
        .into_keys()
        .filter(|name| !old.contains_key(name))
        .collect()
}

/// Additions need a higher minor (or major) version than the baseline's.
pub fn version_allows(additions: usize, baseline: Version, current: Version) -> Result<(), String> {
    if additions == 0 || (current.0, current.1) > (baseline.0, baseline.1) {
        Ok(())
    } else {
        Err(format!(
            "the ABI gained {additions} item(s) over baseline {}.{}.{}: additions bump the minor version \
             (Cargo.toml is {}.{}.{}); then record the baseline with DEMCONTACT_BLESS_ABI=1",
            baseline.0, baseline.1, baseline.2, current.0, current.1, current.2
        ))
    }
}

/// The dynamic symbols the shared library defines.
fn exported_symbols() -> BTreeSet<String> {
    let out = run_ok(
        Command::new("nm")
            .args(["-D", "--defined-only", "--format=posix"])
            .arg(lib_dir().join("libdemcontact.so")),
    );
    out.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

fn baseline_file(name: &str) -> String {
    std::fs::read_to_string(repo_root().join("abi").join(name)).unwrap_or_else(|e| {
        panic!("abi/{name}: {e} (record a baseline with DEMCONTACT_BLESS_ABI=1)")
    })
}

fn current_header() -> String {
    std::fs::read_to_string(repo_root().join("include/demcontact.h")).unwrap()
}

fn current_version() -> Version {
    parse_version(env!("CARGO_PKG_VERSION"))
}

#[test]
fn abi_exports_only_prefixed_symbols_all_declared_in_the_header() {
    let declared = declarations(&current_header());
    for symbol in exported_symbols() {
        assert!(
            symbol.starts_with("demcontact_"),
            "exported symbol `{symbol}` lacks the demcontact_ prefix"
        );
        assert!(
            declared.contains_key(&symbol),
            "exported symbol `{symbol}` is not declared in the header"
        );
    }
}

#[test]
fn abi_keeps_every_baseline_symbol_and_declaration() {
    let exported = exported_symbols();
    let missing: Vec<_> = baseline_file("symbols.txt")
        .lines()
        .filter(|s| !s.is_empty() && !exported.contains(*s))
        .map(String::from)
        .collect();
    assert!(
        missing.is_empty(),
        "symbols of the baseline ABI no longer exported: {missing:?}"
    );
    let breaks = header_breaks(&baseline_file("demcontact.h"), &current_header());
    assert!(
        breaks.is_empty(),
        "the header breaks the baseline ABI:\n{}",
        breaks.join("\n")
    );
}

#[test]
fn abi_additions_bump_the_minor_version() {
    let baseline_symbols: BTreeSet<String> = baseline_file("symbols.txt")
        .lines()
        .map(String::from)
        .collect();
    let new_symbols = exported_symbols().difference(&baseline_symbols).count();
    let additions =
        header_additions(&baseline_file("demcontact.h"), &current_header()).len() + new_symbols;
    let result = version_allows(
        additions,
        parse_version(&baseline_file("VERSION")),
        current_version(),
    );
    assert!(result.is_ok(), "{}", result.unwrap_err());
}

#[test]
fn abi_bless_records_the_baseline_when_asked() {
    if std::env::var_os("DEMCONTACT_BLESS_ABI").is_none() {
        return;
    }
    let dir = repo_root().join("abi");
    let header = current_header();
    if let (Ok(old_header), Ok(old_version)) = (
        std::fs::read_to_string(dir.join("demcontact.h")),
        std::fs::read_to_string(dir.join("VERSION")),
    ) {
        let breaks = header_breaks(&old_header, &header);
        assert!(
            breaks.is_empty() || current_version().0 > parse_version(&old_version).0,
            "refusing to record a baseline that breaks the ABI without a major version bump:\n{}",
            breaks.join("\n")
        );
    }
    std::fs::create_dir_all(&dir).unwrap();
    let symbols: Vec<String> = exported_symbols().into_iter().collect();
    std::fs::write(dir.join("symbols.txt"), symbols.join("\n") + "\n").unwrap();
    std::fs::write(dir.join("demcontact.h"), header).unwrap();
    std::fs::write(
        dir.join("VERSION"),
        format!("{}\n", env!("CARGO_PKG_VERSION")),
    )
    .unwrap();
    let abi = abidw_of_library()
        .expect("bless the ABI from a dev build (cargo test), which has type information");
    std::fs::write(dir.join("demcontact.abi"), abi).unwrap();
}

/// The libabigail description of the library, or `None` when the library carries no type information
/// (a build without full debug info, e.g. `cargo test --release`).
fn abidw_of_library() -> Option<String> {
    let out = Command::new("abidw")
        .arg("--no-corpus-path")
        .arg(lib_dir().join("libdemcontact.so"))
        .output()
        .unwrap_or_else(|e| {
            panic!("abidw (Debian package abigail-tools, installed by .ci/run) is needed: {e}")
        });
    assert!(
        out.status.success(),
        "abidw failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.contains("name='demcontact_collide'")
        .then_some(())
        .filter(|_| text.contains("<parameter type-id"))
        .map(|_| text)
}

/// The removed and changed functions and variables in an `abidiff` report.
pub fn abidiff_breaks(report: &str) -> Vec<String> {
    report
        .lines()
        .filter(|l| {
            l.starts_with("Functions changes summary") || l.starts_with("Variables changes summary")
        })
        .filter(|l| !(l.contains(" 0 Removed") && l.contains(" 0 Changed")))
        .map(String::from)
        .collect()
}

#[test]
fn abi_libabigail_sees_no_removed_or_changed_function() {
    let Some(current) = abidw_of_library() else {
        eprintln!("note: libdemcontact.so has no type information (not a dev build): abidiff check not run");
        return;
    };
    let dir = crate::harness::scratch("abidiff");
    let current_path = dir.join("current.abi");
    std::fs::write(&current_path, &current).unwrap();
    let out = Command::new("abidiff")
        .arg("--suppressions")
        .arg(repo_root().join("abi/abidiff.supp"))
        .arg(repo_root().join("abi/demcontact.abi"))
        .arg(&current_path)
        .output()
        .expect("abidiff (abigail-tools) is needed");
    let report = String::from_utf8_lossy(&out.stdout);
    // abidiff's exit status: bit 0 error, bit 1 usage error; 4 and 8 flag changes (read from the report).
    assert!(
        out.status.code().is_some_and(|c| c & 3 == 0),
        "abidiff failed: {report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let breaks = abidiff_breaks(&report);
    assert!(
        breaks.is_empty(),
        "abidiff finds ABI breaks against abi/demcontact.abi:\n{report}"
    );
}

#[test]
fn abi_abidiff_report_reading_catches_changes() {
    let changed = "Functions changes summary: 0 Removed, 1 Changed, 0 Added function\nVariables changes summary: 0 Removed, 0 Changed, 0 Added variable\n";
    assert_eq!(abidiff_breaks(changed).len(), 1);
    let removed = "Functions changes summary: 2 Removed, 0 Changed, 0 Added functions\n";
    assert_eq!(abidiff_breaks(removed).len(), 1);
    let added = "Functions changes summary: 0 Removed, 0 Changed, 3 Added functions\nVariables changes summary: 0 Removed, 0 Changed, 0 Added variable\n";
    assert!(abidiff_breaks(added).is_empty());
}

// --- the checks themselves, on headers broken on purpose --------------------------------------------

#[test]
fn abi_check_parses_every_declaration_of_the_header() {
    let items = declarations(&current_header());
    for name in [
        "demcontact_collide",
        "demcontact_contact",
        "demcontact_status",
        "DEMCONTACT_STATUS_OK",
        "demcontact_shape",
    ] {
        assert!(
            items.contains_key(name),
            "{name} not found among {:?}",
            items.keys().collect::<Vec<_>>()
        );
    }
    assert!(items["demcontact_contact"].contains("double penetration;"));
    assert!(items
        .keys()
        .any(|k| k.contains("sizeof(demcontact_contact)")));
}

#[test]
fn abi_check_catches_a_changed_signature_field_or_constant() {
    let header = current_header();
    let broken = [
        (
            "const struct demcontact_pose *pose_b,",
            "struct demcontact_pose *pose_b,",
            "demcontact_collide",
        ),
        (
            "double penetration;",
            "float penetration;",
            "demcontact_contact",
        ),
        (
            "#define DEMCONTACT_STATUS_NON_FINITE 3",
            "#define DEMCONTACT_STATUS_NON_FINITE 33",
            "NON_FINITE",
        ),
        (
            "uint32_t demcontact_abi_version(void);",
            "",
            "demcontact_abi_version",
        ),
    ];
    for (from, to, name) in broken {
        assert!(header.contains(from), "test fixture out of date: {from}");
        let breaks = header_breaks(&header, &header.replacen(from, to, 1));
        assert!(
            breaks.iter().any(|b| b.contains(name)),
            "{from} -> {to} not caught: {breaks:?}"
        );
    }
    assert!(header_breaks(&header, &header).is_empty());
    // Comments and whitespace are not the ABI.
    let reflowed = header.replace("/**", "/** edited").replace("  ", "    ");
    assert!(header_breaks(&header, &reflowed).is_empty());
}

#[test]
fn abi_check_demands_a_minor_bump_for_additions() {
    let header = current_header();
    let grown = header.replace(
        "const char *demcontact_version(void);",
        "const char *demcontact_version(void);\ndemcontact_status demcontact_new_thing(double x);",
    );
    assert_eq!(
        header_additions(&header, &grown),
        vec!["demcontact_new_thing".to_string()]
    );
    assert!(header_breaks(&header, &grown).is_empty());
    assert!(version_allows(1, (0, 1, 0), (0, 1, 1)).is_err());
    assert!(version_allows(1, (0, 1, 0), (0, 2, 0)).is_ok());
    assert!(version_allows(1, (0, 1, 0), (1, 0, 0)).is_ok());
    assert!(version_allows(0, (0, 1, 0), (0, 1, 0)).is_ok());
}
