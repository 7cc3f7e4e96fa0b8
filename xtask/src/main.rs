//! `cargo xtask`: workspace automation. Run `cargo xtask help` for the usage text.

#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod fixtures;

use std::io::Write as _;
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

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  fixtures            regenerate the generated fixture inputs (fixtures/**, from seeded
                      generators), then run the fixture tests with INSTA_UPDATE=new: a
                      changed or new snapshot is written beside the old one as a .snap.new
                      file, never over it. Review each one (`cargo insta review`, or
                      `diff -u X.snap X.snap.new`, then `mv X.snap.new X.snap` to accept)
  fixtures --check    fail when a generated fixture is stale or has no generator, when a
                      snapshot's input_file no longer exists, or when a .snap.new is left
  bench <name>... [--quick]
                      run benchmarks against baselines and outside tools (not in CI):
                        graph   loading text and binary graph files (gamegraph info)
                        retro   win/loss/draw against a C++ baseline
                        tab     the tab board against plain DP
                        kernel  kernels and alpha against clingo and python-igraph,
                                alpha and beta on hard instances against igraph and
                                HiGHS (also --tasks alpha,beta,kernel,small: only
                                these rows; kernel: kernel existence by size;
                                --dimacs DIR [--clisat PATH] [--limit SECS]
                                [--only A,B]: alpha of the complements of the
                                DIMACS clique instances in DIR against CliSAT;
                                --pace DIR [--peer PATH] [--limit SECS]
                                [--only A,B]: beta of the PACE 2025 dominating-set
                                instances in DIR against an exact solver)
                        grundy  Grundy values against a C++ baseline; heaps and misere
                        octal   octal games against ogsolve and the plain definition
                                (also --medium: N up to 10^6; --games 0.6,0.106: only these)
                        python  gamegraph.retro from NumPy arrays against the CLI's solve
                        dist    gamegraph dist retro on 1 and 2 processes against retro
                        dist-game
                                gamegraph dist game on 1, 2 and 4 processes against the
                                one-machine tier solver on 2 threads, Connect Four 5 x 5
                                and 6 x 4 (--large: adds 6 x 5; --quixo: adds Quixo
                                4 x 4; --boards, --rounds as for game)
                        game    Connect Four from its rules against a C++ baseline
                                (also --large: adds the 6 x 5 board; --boards 6x4,6x5:
                                only these; --no-symmetry: mirror images apart;
                                --rounds N: N rounds instead of 3)
                        tiers   the tier solver against the explicit one, Boeck's
                                Connect Four BDD solver and GamesmanOne's Quixo
                                (--bock DIR, --gamesman DIR: their source trees;
                                --boards, --large, --rounds as for game; --quixo:
                                adds Quixo 4 x 4; --threads N: gamegraph and
                                GamesmanOne on N threads, 1 by default)
                      --quick: small sizes only
  ci                  run .ci/run: what CI runs
  help                print this text";

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
        "help" | "--help" | "-h" => {
            // A closed pipe (`cargo xtask help | head`) is not an error.
            let _ = writeln!(std::io::stdout(), "{USAGE}");
            Ok(())
        }
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
