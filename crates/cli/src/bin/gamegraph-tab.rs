//! `gamegraph-tab`: the same as `gamegraph tab`.

fn main() -> std::process::ExitCode {
    gamegraph_cli::main_single(gamegraph_cli::Single::Tab)
}
