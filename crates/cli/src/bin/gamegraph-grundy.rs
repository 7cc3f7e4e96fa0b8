//! `gamegraph-grundy`: the same as `gamegraph grundy`.

fn main() -> std::process::ExitCode {
    gamegraph_cli::main_single(gamegraph_cli::Single::Grundy)
}
