//! `gamegraph-kernel`: the same as `gamegraph kernel`.

fn main() -> std::process::ExitCode {
    gamegraph_cli::main_single(gamegraph_cli::Single::Kernel)
}
