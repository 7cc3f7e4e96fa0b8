//! `cargo xtask`: workspace automation.
//!
//! - `cargo xtask fixtures` regenerates the generated fixture inputs from seeded
//!   generators and refreshes the insta snapshots;
//! - `cargo xtask fixtures --check` fails when a generated fixture is stale;
//! - `cargo xtask bench <retro|tab|kernel|grundy|octal|all>` runs the benchmarks that
//!   compare against outside tools and baselines (not part of CI);
//! - `cargo xtask ci` runs exactly what `.ci/run` runs.

#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod fixtures;
mod rng;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <fixtures [--check] | bench <name>... [--quick] | ci>";

fn run(args: Vec<String>) -> Result<()> {
    let Some((cmd, rest)) = args.split_first() else { bail!("{USAGE}") };
    match cmd.as_str() {
        "fixtures" => match rest {
            [] => fixtures::write(&workspace_root()),
            [flag] if flag == "--check" => fixtures::check(&workspace_root()),
            _ => bail!("{USAGE}"),
        },
        "bench" => bench::run(&workspace_root(), rest),
        "ci" => ci(),
        _ => bail!("{USAGE}"),
    }
}

/// The workspace root (the parent of this crate's directory).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn ci() -> Result<()> {
    let status = Command::new("bash")
        .arg(".ci/run")
        .current_dir(workspace_root())
        .status()
        .context("cannot run .ci/run")?;
    if !status.success() {
        bail!(".ci/run failed: {status}");
    }
    Ok(())
}
