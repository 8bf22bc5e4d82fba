//! The committed header is exactly what cbindgen generates from `src/ffi/`.

use crate::harness::repo_root;

/// Generates the header text from the crate source with the pinned cbindgen.
pub fn generate_header() -> String {
    let root = repo_root();
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&root)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header");
    let mut bytes = Vec::new();
    bindings.write(&mut bytes);
    String::from_utf8(bytes).unwrap()
}

#[test]
fn committed_header_matches_generated() {
    let path = repo_root().join("include/demcontact.h");
    let generated = generate_header();
    if std::env::var_os("DEMCONTACT_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/demcontact.h is stale: regenerate it with `DEMCONTACT_BLESS=1 cargo test --test ffi header` \
         and commit it (or undo the change to src/ffi/)"
    );
}

#[test]
fn every_header_name_carries_the_prefix() {
    let header = generate_header();
    for line in header.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("#define ") {
            let name = rest.split_whitespace().next().unwrap();
            assert!(
                name.starts_with("DEMCONTACT_"),
                "macro {name} lacks the DEMCONTACT_ prefix"
            );
        }
        if let Some(rest) = line.strip_prefix("typedef ") {
            let name = rest
                .trim_end_matches(';')
                .split_whitespace()
                .last()
                .unwrap();
            if !rest.ends_with('{') {
                assert!(
                    name.starts_with("demcontact_"),
                    "type {name} lacks the demcontact_ prefix"
                );
            }
        }
    }
}
