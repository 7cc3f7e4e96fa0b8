//! Top-level argument parsing and dispatch.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cmd;
use crate::common::{CliError, finish};

/// Exact solver for two-player games: games given by their rules, game graphs, the tab board; kernels, Grundy values and periods of impartial games.
#[derive(Debug, Parser)]
#[command(name = "gamegraph", version, propagate_version = true)]
#[command(after_help = "Examples:
  gamegraph retro fixtures/retro/seed.txt        # 1, 2 or 0: who wins from the start vertex
  gamegraph retro --all game.txt                 # outcome, depth and best move of every vertex
  gamegraph tab tab.inp -o tab.out               # the tab board game: tab.inp in, tab.out out
  gamegraph kernel graph.txt --count             # how many kernels
  gamegraph nim 5 7 9 --max 2,3,4                # a compound heap game
  gamegraph octal 0.77 --upto 100 --period       # Kayles, with its proven period")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Win / lose / draw, depth and optimal moves of a game graph (retrograde analysis).
    Retro(cmd::retro::Args),
    /// Solvers on a cluster of processes: `gamegraph dist retro`.
    Dist(cmd::dist::Args),
    /// Generate a random game graph.
    Gen(cmd::generate::Args),
    /// Convert a game graph between file formats.
    Convert(cmd::convert::Args),
    /// Describe a game graph file: format, vertices, arcs, start, self-loops, sinks.
    Info(cmd::info::Args),
    /// The tab board game ("Cờ bảng").
    Tab(cmd::tab::Args),
    /// Kernels, stable sets, alpha and beta of a digraph.
    Kernel(cmd::kernel::Args),
    /// Grundy values of a game graph (also with cycles) and sums of tokens and heaps.
    Grundy(cmd::grundy::Args),
    /// Compound heap games: Nim, heaps with move limits, misère play, Moore's Nim_k.
    Nim(cmd::nim::Args),
    /// Grundy sequences and proven periods of octal games.
    Octal(cmd::octal::Args),
    /// Grundy sequences and proven periods of subtraction games.
    Subtraction(cmd::subtraction::Args),
    /// Games given by their rules (tic-tac-toe, Connect Four, Kayles, ...): solve, query.
    Game(cmd::game::Args),
    /// Play any game against perfect play in the terminal: by its rules, a graph, the tab
    /// board or heaps.
    Play(cmd::play::Args),
    /// A local web page to see and play every game, with an HTTP API for scripts.
    Serve(cmd::serve::Args),
    /// Check an answer (retro or grundy table, kernel, period) without trusting the solver.
    Verify(cmd::verify::Args),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:
  gamegraph completions bash > ~/.local/share/bash-completion/completions/gamegraph
  gamegraph completions zsh > ~/.zfunc/_gamegraph     # with fpath+=~/.zfunc in ~/.zshrc
  gamegraph completions fish > ~/.config/fish/completions/gamegraph.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The solvers that also ship as a binary of their own (`gamegraph-<name>`).
#[derive(Debug, Clone, Copy)]
pub enum Single {
    /// `gamegraph-retro`
    Retro,
    /// `gamegraph-tab`
    Tab,
    /// `gamegraph-kernel`
    Kernel,
    /// `gamegraph-grundy`
    Grundy,
}

#[derive(Debug, Parser)]
#[command(
    name = "gamegraph-retro",
    version,
    about = "Win / lose / draw, depth and optimal moves of a game graph (retrograde analysis)."
)]
struct RetroOnly {
    #[command(flatten)]
    args: cmd::retro::Args,
}

#[derive(Debug, Parser)]
#[command(
    name = "gamegraph-tab",
    version,
    about = "The tab board game: exact min-max answers for boards of any height."
)]
struct TabOnly {
    #[command(flatten)]
    args: cmd::tab::Args,
}

#[derive(Debug, Parser)]
#[command(
    name = "gamegraph-kernel",
    version,
    about = "Kernels, stable sets, alpha and beta of a digraph."
)]
struct KernelOnly {
    #[command(flatten)]
    args: cmd::kernel::Args,
}

#[derive(Debug, Parser)]
#[command(
    name = "gamegraph-grundy",
    version,
    about = "Grundy values of a game graph (also with cycles) and sums of tokens and heaps."
)]
struct GrundyOnly {
    #[command(flatten)]
    args: cmd::grundy::Args,
}

/// Runs `gamegraph` with the process arguments and returns its exit code.
pub fn main_gamegraph() -> ExitCode {
    let cli = Cli::parse();
    finish(dispatch(cli.command))
}

/// Runs one solver's own binary (`gamegraph-retro`, …), which behaves exactly as
/// `gamegraph <solver>`.
pub fn main_single(which: Single) -> ExitCode {
    let command = match which {
        Single::Retro => Command::Retro(RetroOnly::parse().args),
        Single::Tab => Command::Tab(TabOnly::parse().args),
        Single::Kernel => Command::Kernel(KernelOnly::parse().args),
        Single::Grundy => Command::Grundy(GrundyOnly::parse().args),
    };
    finish(dispatch(command))
}

fn dispatch(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Retro(a) => cmd::retro::run(a),
        Command::Dist(a) => cmd::dist::run(a),
        Command::Gen(a) => cmd::generate::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Info(a) => cmd::info::run(a),
        Command::Tab(a) => cmd::tab::run(a),
        Command::Kernel(a) => cmd::kernel::run(a),
        Command::Grundy(a) => cmd::grundy::run(a),
        Command::Nim(a) => cmd::nim::run(a),
        Command::Octal(a) => cmd::octal::run(a),
        Command::Subtraction(a) => cmd::subtraction::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Game(a) => cmd::game::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            use std::io::Write;
            // Into memory first: the generator panics on a write error (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "gamegraph", &mut script);
            let mut out = crate::common::Output::create(None)?;
            out.write_all(&script)?;
            out.finish()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definitions_are_consistent() {
        Cli::command().debug_assert();
        RetroOnly::command().debug_assert();
        TabOnly::command().debug_assert();
        KernelOnly::command().debug_assert();
        GrundyOnly::command().debug_assert();
    }

    /// Every parameter of the web API names a flag (or a positional argument) of its
    /// command, so the server can only pass on what the command line accepts.
    #[test]
    fn every_web_api_parameter_is_a_flag_of_its_command() {
        use gamegraph_web::ParamKind;
        let cli = Cli::command();
        for endpoint in gamegraph_web::endpoints() {
            let mut command = &cli;
            for word in endpoint.command {
                command = command.find_subcommand(word).unwrap_or_else(|| {
                    panic!("/api/{}: `gamegraph {}` has no command", endpoint.name, word)
                });
            }
            // `--json` and the positional arguments belong to the action, if there is one.
            let action = endpoint.action.map_or(command, |a| {
                command
                    .find_subcommand(a)
                    .unwrap_or_else(|| panic!("/api/{}: no action `{a}`", endpoint.name))
            });
            let has_long = |c: &clap::Command, name: &str| {
                c.get_arguments().any(|a| a.get_long() == Some(name))
            };
            if endpoint.json {
                assert!(has_long(action, "json"), "{} has no --json", endpoint.name);
            }
            if let gamegraph_web::Input::Flag(name) = endpoint.input {
                assert!(has_long(command, name), "/api/{}: no --{name}", endpoint.name);
            }
            for param in endpoint.params {
                match param.kind {
                    ParamKind::Flag | ParamKind::Value | ParamKind::List | ParamKind::Repeated => {
                        assert!(
                            has_long(command, param.name),
                            "/api/{}?{} is not a flag of `gamegraph {}`",
                            endpoint.name,
                            param.name,
                            endpoint.command.join(" ")
                        );
                    }
                    ParamKind::Positional | ParamKind::Positionals => assert!(
                        action.get_positionals().next().is_some(),
                        "/api/{}?{} but `gamegraph {}` takes no positional argument",
                        endpoint.name,
                        param.name,
                        endpoint.command.join(" ")
                    ),
                }
                let flag = command.get_arguments().find(|a| a.get_long() == Some(param.name));
                if let Some(flag) = flag {
                    let takes_value = flag.get_action().takes_values();
                    assert_eq!(
                        takes_value,
                        param.kind != ParamKind::Flag,
                        "/api/{}?{}: a value in one and not the other",
                        endpoint.name,
                        param.name
                    );
                    if let (Some(choices), Some(values)) =
                        (param.choices, Some(flag.get_possible_values()).filter(|v| !v.is_empty()))
                    {
                        for c in choices {
                            assert!(
                                values.iter().any(|v| v.matches(c, false)),
                                "/api/{}?{}={c} is not a value of the flag",
                                endpoint.name,
                                param.name
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn standalone_binaries_describe_themselves() {
        for mut c in
            [RetroOnly::command(), TabOnly::command(), KernelOnly::command(), GrundyOnly::command()]
        {
            let help = c.render_help().to_string();
            assert!(!help.starts_with("Arguments"), "{help}");
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(help.starts_with(&about) && !about.is_empty(), "{help}");
        }
    }
}
