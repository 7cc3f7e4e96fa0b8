//! `gamegraph-retro`: the same as `gamegraph retro`.

fn main() -> std::process::ExitCode {
    gamegraph_cli::main_single(gamegraph_cli::Single::Retro)
}
