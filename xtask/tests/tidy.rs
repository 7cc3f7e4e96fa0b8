//! Tidiness rules of the repository's sources, checked on every test run: every Rust file
//! opens with a `//!` line that says what it holds.

use std::fs;
use std::path::{Path, PathBuf};

/// The Rust files under `dir`, skipping build output and hidden folders.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_line_saying_what_it_holds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["crates", "xtask", "fuzz"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "only {} Rust files found under {}", files.len(), root.display());
    let bad: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            !text.lines().next().is_some_and(|l| l.starts_with("//!") && l.len() > 4)
        })
        .map(|f| f.strip_prefix(&root).unwrap_or(f).display().to_string())
        .collect();
    assert!(bad.is_empty(), "files that do not open with a `//!` line: {bad:?}");
}
