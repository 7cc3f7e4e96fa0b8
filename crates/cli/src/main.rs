//! `gamegraph`: every solver behind one command.

fn main() -> std::process::ExitCode {
    gamegraph_cli::main_gamegraph()
}
