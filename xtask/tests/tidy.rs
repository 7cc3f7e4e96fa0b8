//! Tidiness rules of the repository's sources, checked on every test run: every Rust file
//! opens with a `//!` line that says what it holds and has at most 1,000 lines, each crate
//! depends only on the crates below it (ARCHITECTURE.md), and the solver crates neither
//! print, nor read the environment, nor start threads of their own.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `path` relative to the root, with `/` separators.
fn relative(path: &Path) -> String {
    let root = root();
    path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

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

/// Every Rust file of the repository (crates, xtask, fuzz), sorted.
fn all_rust_files() -> Vec<PathBuf> {
    let root = root();
    let mut files = Vec::new();
    for dir in ["crates", "xtask", "fuzz"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "only {} Rust files found under {}", files.len(), root.display());
    files.sort();
    files
}

#[test]
fn every_rust_file_opens_with_a_line_saying_what_it_holds() {
    let bad: Vec<String> = all_rust_files()
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            !text.lines().next().is_some_and(|l| l.starts_with("//!") && l.len() > 4)
        })
        .map(|f| relative(f))
        .collect();
    assert!(bad.is_empty(), "files that do not open with a `//!` line: {bad:?}");
}

/// The most lines a Rust file may have.
const MAX_LINES: usize = 1000;

#[test]
fn no_rust_file_has_more_than_a_thousand_lines() {
    let mut bad = Vec::new();
    for f in all_rust_files() {
        let rel = relative(&f);
        let lines = fs::read_to_string(&f).unwrap_or_default().lines().count();
        if lines > MAX_LINES {
            bad.push(format!("{rel}: {lines} lines"));
        }
    }
    assert!(
        bad.is_empty(),
        "Rust files over {MAX_LINES} lines (split them):\n  {}",
        bad.join("\n  ")
    );
}

/// The solver crates: libraries that compute answers and do nothing else.
const SOLVERS: &[&str] = &["graph", "retro", "tab", "kernel", "grundy", "game"];

/// The crates under `crates/` and the other manifests of the repository, with the crates of
/// the workspace each may name in `[dependencies]` (its folder under `crates/`). The same
/// table is drawn in ARCHITECTURE.md. `[dev-dependencies]` may also name `testkit` and, for a
/// solver crate, the other solver crates (as oracles in its tests).
const LAYERS: &[(&str, &[&str])] = &[
    ("graph", &[]),
    ("retro", &["graph"]),
    ("tab", &["graph"]),
    ("grundy", &["graph"]),
    ("kernel", &["graph", "retro"]),
    ("game", &["graph", "tab", "grundy"]),
    ("testkit", &["graph"]),
    ("cluster", &["graph", "retro", "game"]),
    ("play", &["graph", "retro", "tab", "game", "grundy"]),
    ("web", &["play"]),
    ("cli", &["graph", "retro", "tab", "kernel", "grundy", "game", "play", "cluster", "web"]),
    ("python", &["graph", "retro", "tab", "kernel", "grundy", "game", "play"]),
    ("xtask", &["graph"]),
    ("fuzz", &["graph", "retro", "tab", "kernel", "grundy", "game", "cluster"]),
];

/// The manifest of a row of [`LAYERS`].
fn manifest(name: &str) -> PathBuf {
    match name {
        "xtask" | "fuzz" => root().join(name).join("Cargo.toml"),
        _ => root().join("crates").join(name).join("Cargo.toml"),
    }
}

/// The workspace crates (the `gamegraph-` prefix taken off) named in each dependency
/// section of a manifest: `dependencies`, `dev-dependencies`, `build-dependencies`, the
/// target-specific ones under the same names. A renamed dependency counts by its
/// `package`.
fn workspace_dependencies(manifest: &str) -> BTreeMap<&'static str, Vec<String>> {
    let mut out: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut section = None;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            let name = line.trim_matches(|c| c == '[' || c == ']');
            section = ["dev-dependencies", "build-dependencies", "dependencies"]
                .into_iter()
                .find(|s| name == *s || name.ends_with(&format!(".{s}")));
            continue;
        }
        let Some(section) = section else { continue };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        let package =
            line.split_once("package").and_then(|(_, rest)| rest.split('"').nth(1)).unwrap_or(key);
        if let Some(name) = package.strip_prefix("gamegraph-") {
            out.entry(section).or_default().push(name.to_owned());
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let mut crates: Vec<String> = fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    crates.sort();
    let mut bad = Vec::new();
    for c in &crates {
        if !LAYERS.iter().any(|(name, _)| name == c) {
            bad.push(format!("crates/{c}: not in LAYERS (add its row, and to ARCHITECTURE.md)"));
        }
    }
    for &(name, allowed) in LAYERS {
        let path = manifest(name);
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (section, deps) in workspace_dependencies(&text) {
            for dep in deps {
                let ok = allowed.contains(&dep.as_str())
                    || (section == "dev-dependencies"
                        && (dep == "testkit"
                            || (SOLVERS.contains(&name) && SOLVERS.contains(&dep.as_str()))));
                if !ok {
                    bad.push(format!("{}: [{section}] gamegraph-{dep}", relative(&path)));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "dependencies outside the layers of ARCHITECTURE.md:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn the_dependency_reader_sees_every_kind_of_entry() {
    let manifest = "[package]\nname = \"gamegraph-x\"\n\n[dependencies]\n\
        gamegraph-graph.workspace = true\n# gamegraph-cli.workspace = true\n\
        rayon = \"1\"\nold = { package = \"gamegraph-retro\", path = \"../retro\" }\n\
        gamegraph-tab = { path = \"../tab\" }\n\n[dev-dependencies]\n\
        gamegraph-testkit.workspace = true\n\n[target.'cfg(unix)'.dependencies]\n\
        gamegraph-web.workspace = true\n\n[lints]\nworkspace = true\n";
    let deps = workspace_dependencies(manifest);
    assert_eq!(deps["dependencies"], ["graph", "retro", "tab", "web"]);
    assert_eq!(deps["dev-dependencies"], ["testkit"]);
    assert_eq!(deps.len(), 2);
}

/// What a solver crate's code never does, as the text that would do it: print, read the
/// environment, start a thread or build a thread pool (its parallel parts run on the rayon
/// pool they are called on).
const FORBIDDEN_IN_SOLVERS: &[&str] = &[
    "println!",
    "print!",
    "eprintln!",
    "eprint!",
    "dbg!",
    "io::stdout",
    "io::stderr",
    "env::var",
    "env::args",
    "thread::spawn",
    "thread::Builder",
    "thread::scope",
    "ThreadPoolBuilder",
];

/// The forbidden texts in one line of code, each only where it starts a name (`print!` is
/// not found inside `eprint!`).
fn forbidden_in(line: &str) -> Vec<&'static str> {
    FORBIDDEN_IN_SOLVERS
        .iter()
        .copied()
        .filter(|pattern| {
            line.match_indices(pattern)
                .any(|(at, _)| !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
        .collect()
}

/// The lines of a solver's source file that the rules apply to, with their numbers: not the
/// test code, which may print or build pools to compare thread counts. Test code is taken,
/// simply, to be a whole file named `tests.rs` and everything from a file's first
/// `#[cfg(test)]` line on (by the convention that a test module ends its file); comment
/// lines (documentation included) are not code.
fn code_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return Vec::new();
    }
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

#[test]
fn solver_crates_do_not_print_read_the_environment_or_start_threads() {
    let mut bad = Vec::new();
    let mut files = Vec::new();
    for c in SOLVERS {
        rust_files(&root().join("crates").join(c).join("src"), &mut files);
    }
    assert!(files.len() > 50, "only {} solver source files found", files.len());
    for f in &files {
        let text = fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (n, line) in code_lines(f, &text) {
            for pattern in forbidden_in(&line) {
                bad.push(format!("{}:{n}: {pattern} in `{}`", relative(f), line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "solver code that prints, reads the environment or starts threads:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn the_solver_rule_finds_what_it_forbids_and_skips_tests_and_comments() {
    assert_eq!(forbidden_in("    println!(\"{x}\");"), ["println!"]);
    assert_eq!(
        forbidden_in("eprint!(\"x\"); let _ = std::env::var(\"X\");"),
        ["eprint!", "env::var"]
    );
    assert_eq!(forbidden_in("let pool = rayon::ThreadPoolBuilder::new();"), ["ThreadPoolBuilder"]);
    assert!(forbidden_in("writeln!(out, \"x\")?; my_print!(x); self.eprint_all();").is_empty());
    let text = "//! Never println! here.\nfn f() {}\n    // thread::spawn in a comment\n\
                let t = std::thread::spawn(f);\n#[cfg(test)]\nmod tests {\n    println!();\n}\n";
    let lines = code_lines(Path::new("src/a.rs"), text);
    assert_eq!(lines.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [2, 4]);
    assert!(code_lines(Path::new("src/x/tests.rs"), text).is_empty());
}
