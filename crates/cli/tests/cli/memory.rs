//! Inputs that ask for more memory than the process may use (`ulimit -v`) end every graph
//! command with a message and exit code 3 (or 2 when the reader refuses the header), never
//! with an abort.

use crate::support;

use std::process::Command;

use support::{GAMEGRAPH, TempDir};

/// Runs `gamegraph ARGS` with at most `kib` KiB of address space.
fn limited(t: &TempDir, kib: u64, args: &str) -> (Option<i32>, String) {
    let o = Command::new("sh")
        .args(["-c", &format!("ulimit -v {kib} && exec {GAMEGRAPH} {args}")])
        .current_dir(&**t)
        .output()
        .unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn solvers_that_run_out_of_memory_say_so_with_exit_3() {
    let t = TempDir::new("oom");
    // 40 million vertices pass the reader's check (8 bytes each) under 700 MB of address
    // space, but not what the solvers need on top.
    t.file("wide.txt", "40000000 1\n1\n1 2\n");
    let max = "--max-vertices 4294967295";
    for command in [
        "retro --all",
        "retro --start 1",
        "grundy --all",
        "kernel",
        "kernel --alpha",
        "kernel --beta",
        "kernel --count",
        "convert --to binary -o w.bin",
        "info",
    ] {
        let (code, err) = limited(&t, 700_000, &format!("{command} {max} wide.txt"));
        match code {
            Some(0) => {}
            Some(3) => assert!(err.starts_with("error: not enough memory"), "{command}: {err}"),
            Some(2) => assert!(err.contains("more than this process may use"), "{command}: {err}"),
            _ => panic!("{command}: exit {code:?}: {err}"),
        }
    }
    // A random graph of more arcs than the limit holds is refused before it starts.
    let (code, err) = limited(&t, 700_000, "gen -n 1000000 -m 200000000 -o g.txt");
    assert_eq!(code, Some(3), "{err}");
    assert!(err.starts_with("error: not enough memory"), "{err}");
    assert!(!t.join("g.txt").exists());
}

#[test]
fn play_game_stops_at_the_positions_the_memory_holds() {
    let t = TempDir::new("oom-play");
    // Connect Four 7 x 6 has trillions of positions: the default limit comes from the
    // memory left under `ulimit -v`, not from a fixed count the address space cannot hold.
    let (code, err) = limited(&t, 450_000, "play --game connect-four --cols 7 --rows 6");
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("positions are reachable"), "{err}");
    let advice = "this machine's memory does not hold the game; solve it by tiers (`gamegraph \
                  game connect-four --cols 7 --rows 6 solve -o DIR`) and play it with --results DIR\n";
    assert!(err.ends_with(advice), "{err}");
}
