//! How every command treats its files: pipes and FIFOs as input, paths in every I/O error,
//! output files that appear whole or not at all, closed pipes, thread counts.

use crate::support;

use std::fs;
use std::io::Read;
use std::process::{Command, Stdio};

use support::{GAMEGRAPH, SEED, TempDir, gamegraph, text};

fn code(o: &std::process::Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_fifo_and_dev_stdin_are_read_like_a_file() {
    let t = TempDir::new("fifo");
    let file = t.file("g.txt", SEED);
    let expected = gamegraph(&t, &["retro", "--all", "g.txt"], None);
    assert_eq!(code(&expected), 0, "{}", stderr(&expected));

    // /dev/stdin with a pipe behind it: no positional reads, no "Illegal seek".
    let piped = gamegraph(&t, &["retro", "--all", "/dev/stdin"], Some(SEED.as_bytes()));
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    assert_eq!(piped.stdout, expected.stdout);

    let fifo = t.join("g.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let writer = std::thread::spawn({
        let fifo = fifo.clone();
        move || fs::write(fifo, fs::read(file).unwrap()).unwrap()
    });
    let from_fifo = gamegraph(&t, &["retro", "--all", "g.fifo"], None);
    writer.join().unwrap();
    assert_eq!(code(&from_fifo), 0, "{}", stderr(&from_fifo));
    assert_eq!(from_fifo.stdout, expected.stdout);
}

#[test]
fn unreadable_inputs_exit_2_naming_the_path() {
    let t = TempDir::new("paths");
    fs::create_dir(t.join("dir")).unwrap();
    for args in [
        &["retro", "dir"][..],
        &["info", "dir"],
        &["kernel", "dir"],
        &["grundy", "dir"],
        &["convert", "dir", "--to", "arcs"],
        &["retro", "missing.txt"],
        &["info", "missing.txt"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let path = args[1];
        assert!(stderr(&o).starts_with(&format!("error: {path}: ")), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn a_failed_command_leaves_an_existing_output_file_as_it_was() {
    let t = TempDir::new("atomic");
    t.file("bad.txt", "3 1\n1\n1 9\n");
    t.file("out.txt", "precious\n");
    let o = gamegraph(&t, &["convert", "bad.txt", "--to", "arcs", "-o", "out.txt"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(t.join("out.txt")).unwrap(), "precious\n");
    let left: Vec<_> = fs::read_dir(&*t).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "a temporary file was left behind: {left:?}");

    t.file("g.txt", SEED);
    let o = gamegraph(&t, &["convert", "g.txt", "--to", "arcs", "-o", "out.txt"], None);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(t.join("out.txt")).unwrap(), "1 2\n1 4\n2 3\n3 1\n4 5\n");
}

#[test]
fn an_output_that_is_the_input_is_refused() {
    let t = TempDir::new("same");
    t.file("g.txt", SEED);
    let o = gamegraph(&t, &["convert", "g.txt", "--to", "arcs", "-o", "./g.txt"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input file"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(t.join("g.txt")).unwrap(), SEED);
    t.file("tab.inp", "1\n10 4 5 3\n");
    let o = gamegraph(&t, &["tab", "tab.inp", "-o", "tab.inp"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(t.join("tab.inp")).unwrap(), "1\n10 4 5 3\n");
}

#[test]
fn a_closed_stdout_pipe_is_not_an_error() {
    let t = TempDir::new("pipe");
    let out = gamegraph(&t, &["gen", "-n", "2000", "-m", "20000", "--seed", "3"], None);
    assert_eq!(code(&out), 0);
    fs::write(t.join("g.txt"), &out.stdout).unwrap();
    for args in [&["retro", "--all", "--json", "g.txt"][..], &["retro", "--all", "g.txt"]] {
        let mut child = Command::new(GAMEGRAPH)
            .args(args)
            .current_dir(&*t)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 1];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The read end is closed now; the rest of the output meets a broken pipe.
        let o = child.wait_with_output().unwrap();
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn thread_counts_are_checked() {
    let t = TempDir::new("threads");
    t.file("g.txt", SEED);
    for n in ["0", "10000"] {
        let o = gamegraph(&t, &["retro", "--threads", n, "g.txt"], None);
        assert_eq!(code(&o), 2, "{n}: {}", stderr(&o));
        assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
    }
}

#[test]
fn a_graph_larger_than_memory_is_refused_before_it_is_generated() {
    let t = TempDir::new("huge");
    // 40 TB of arcs: more than any machine this runs on.
    for args in [
        &["gen", "-n", "10", "-m", "10000000000000", "--to", "binary", "-o", "g.bin"][..],
        &["gen", "-n", "4294967295", "-m", "10000000000000", "-o", "g.txt"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 3, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("not enough memory"), "{}", stderr(&o));
        assert!(!t.join(args[args.len() - 1]).exists());
    }
}

#[test]
fn a_tiny_file_cannot_ask_for_gigabytes() {
    let t = TempDir::new("tiny");
    t.file("x", "1 4294967295\n");
    t.file("h", "1000000000 3\n1\n1 2\n2 3\n3 1\n");
    t.file("h2", "20000000 3\n1\n1 2\n2 3\n3 1\n");
    for args in [
        &["info", "x"][..],
        &["retro", "x"],
        &["kernel", "x"],
        &["grundy", "x"],
        &["convert", "x", "--to", "binary", "-o", "x.bin"],
        &["info", "h"],
        &["retro", "h"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--max-vertices"), "{args:?}: {}", stderr(&o));
    }
    let o = gamegraph(&t, &["info", "h2"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = gamegraph(&t, &["info", "--max-vertices", "20000000", "h2"], None);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("vertices: 20000000"));
}

#[test]
fn more_vertices_than_memory_is_refused_with_exit_3_not_an_abort() {
    let t = TempDir::new("oom");
    t.file("big.txt", "4294967294 1\n1\n1 2\n");
    for args in [
        &["retro", "--max-vertices", "4294967295", "big.txt"][..],
        &["info", "--max-vertices", "4294967295", "big.txt"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 3, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("big.txt:1:1: 4294967294 vertices need at least 32.0 GiB"),
            "{}",
            stderr(&o)
        );
    }
    // Under `ulimit -v` (1 GB of address space) the limit is what the process may use.
    let limited = |command: &str| {
        Command::new("sh")
            .args(["-c", &format!("ulimit -v 1000000 && exec {GAMEGRAPH} {command}")])
            .current_dir(&*t)
            .output()
            .unwrap()
    };
    t.file("h.txt", "200000000 1\n1\n1 2\n");
    let o = limited("retro --max-vertices 300000000 h.txt");
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("more than this process may use (976.6 MiB)"), "{}", stderr(&o));
    let o = limited("gen -n 1000000 -m 1000000000 --to binary -o g.bin");
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("not enough memory for a graph of this size"), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than this process may use"), "{}", stderr(&o));
    assert!(!t.join("g.bin").exists());
}

#[test]
fn a_header_without_a_start_line_is_not_read_as_arcs() {
    let t = TempDir::new("nm");
    t.file("g.txt", "3 3\n1 2\n2 3\n3 1\n");
    let o = gamegraph(&t, &["info", "g.txt"], None);
    let info = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(info.contains("format: header") && info.contains("arcs: 3"), "{info}");
    assert!(info.contains("self-loops: 0"), "{info}");
    // Without a start vertex, retro needs one to answer.
    let o = gamegraph(&t, &["retro", "--start", "1", "g.txt"], None);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    t.file("zero.txt", "3 0\n");
    let o = gamegraph(&t, &["info", "zero.txt"], None);
    assert!(String::from_utf8_lossy(&o.stdout).contains("vertices: 3"), "{}", stderr(&o));
    t.file("neither.txt", "3 0\n1 2\n2 3\n");
    let o = gamegraph(&t, &["info", "neither.txt"], None);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).starts_with("error: neither.txt:1:1: ") && stderr(&o).contains("--format"));
}

#[test]
fn a_header_with_one_mistake_gets_the_header_error_not_another_graph() {
    let t = TempDir::new("mistake");
    t.file("missing.txt", "5 5\n1 2\n2 3\n3 1\n1 4\n");
    t.file("outside.txt", "3 2\n1 2\n2 5\n");
    for (file, at) in [
        ("missing.txt", "6:1: expected the source of arc 5 of 5, found end of input"),
        ("outside.txt", "3:3: vertex 5 is outside 1..3"),
    ] {
        for command in ["retro", "info", "kernel", "grundy"] {
            let o = gamegraph(&t, &[command, file], None);
            assert_eq!(code(&o), 2, "{command} {file}: {}", stderr(&o));
            assert!(
                stderr(&o).starts_with(&format!("error: {file}:{at}")),
                "{command} {file}: {}",
                stderr(&o)
            );
            assert!(
                stderr(&o).contains("--format arcs reads the file as an arc list"),
                "{}",
                stderr(&o)
            );
            assert!(o.stdout.is_empty());
        }
        // Said explicitly, it is an arc list.
        let o = gamegraph(&t, &["info", "--format", "arcs", file], None);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
}

#[test]
fn a_long_bad_token_is_quoted_briefly() {
    let t = TempDir::new("token");
    let long = format!("3 1\n1\n1 2{}\n", "x".repeat(100_000));
    t.file("g.txt", &long);
    let o = gamegraph(&t, &["retro", "g.txt"], None);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).len() < 200, "{}", stderr(&o));
}

#[test]
fn a_binary_file_is_mapped_read_or_streamed_with_the_same_answers() {
    let t = TempDir::new("mmap");
    let g = gamegraph(
        &t,
        &["gen", "-n", "30000", "-m", "200000", "--seed", "5", "--to", "binary", "-o", "g.bin"],
        None,
    );
    assert_eq!(code(&g), 0, "{}", stderr(&g));
    let bytes = fs::read(t.join("g.bin")).unwrap();
    let mapped = gamegraph(&t, &["retro", "--all", "g.bin"], None);
    assert_eq!(code(&mapped), 0, "{}", stderr(&mapped));
    let read = gamegraph(&t, &["retro", "--all", "--no-mmap", "g.bin"], None);
    let streamed = gamegraph(&t, &["retro", "--all", "-"], Some(&bytes));
    assert_eq!(mapped.stdout, read.stdout);
    assert_eq!(mapped.stdout, streamed.stdout);
    for threads in ["1", "3"] {
        let o = gamegraph(&t, &["retro", "--all", "--threads", threads, "g.bin"], None);
        assert_eq!(o.stdout, mapped.stdout, "{threads} threads");
    }

    // A flipped bit in the arcs: the checksum refuses it, mapped or read.
    let mut flipped = bytes.clone();
    let k = flipped.len() - 100;
    flipped[k] ^= 4;
    fs::write(t.join("flip.bin"), &flipped).unwrap();
    for args in [&["info", "flip.bin"][..], &["info", "--no-mmap", "flip.bin"]] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains("checksum mismatch"), "{}", stderr(&o));
    }
    // Shorter than its header says: refused with the length, never a SIGBUS.
    fs::write(t.join("short.bin"), &bytes[..bytes.len() - 4096]).unwrap();
    let o = gamegraph(&t, &["info", "short.bin"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
}

#[test]
fn a_stored_predecessor_index_gives_the_same_answers_and_is_checked() {
    let t = TempDir::new("pred");
    let g =
        gamegraph(&t, &["gen", "-n", "20000", "-m", "150001", "--seed", "8", "-o", "g.txt"], None);
    assert_eq!(code(&g), 0, "{}", stderr(&g));
    for args in [
        &["convert", "g.txt", "--to", "binary", "-o", "plain.bin"][..],
        &["convert", "g.txt", "--to", "binary", "--with-predecessors", "-o", "pred.bin"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    }
    let want = gamegraph(&t, &["retro", "--all", "g.txt"], None);
    for args in [
        &["retro", "--all", "pred.bin"][..],
        &["retro", "--all", "--no-mmap", "pred.bin"],
        &["retro", "--all", "--threads", "1", "pred.bin"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert_eq!(o.stdout, want.stdout, "{args:?}");
    }
    let plain = fs::metadata(t.join("plain.bin")).unwrap().len();
    let pred = fs::metadata(t.join("pred.bin")).unwrap().len();
    assert_eq!(pred - plain, 4 * 150_001 + 4 + 8 * 20_001, "index, padding and offsets");
    let o = gamegraph(&t, &["convert", "g.txt", "--to", "arcs", "--with-predecessors"], None);
    assert_eq!(code(&o), 2);
    // A flipped bit in the index: the checksum refuses it.
    let mut bytes = fs::read(t.join("pred.bin")).unwrap();
    let k = bytes.len() - 40;
    bytes[k] ^= 1;
    fs::write(t.join("flip.bin"), &bytes).unwrap();
    let o = gamegraph(&t, &["info", "flip.bin"], None);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("checksum mismatch"), "{}", stderr(&o));
}

/// The arc list of SEED, as `convert --to arcs` writes it.
const SEED_ARCS: &str = "1 2\n1 4\n2 3\n3 1\n4 5\n";

/// The names in `dir`, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

fn convert_to(t: &support::TempDir, out: &str) -> std::process::Output {
    gamegraph(t, &["convert", "g.txt", "--to", "arcs", "-o", out], None)
}

#[test]
fn an_output_symlink_is_followed_and_stays_a_link() {
    use std::os::unix::fs::symlink;
    let t = TempDir::new("symlink");
    t.file("g.txt", SEED);
    fs::create_dir(t.join("sub")).unwrap();
    t.file("sub/real.txt", "old\n");
    symlink("sub/real.txt", t.join("link.txt")).unwrap();
    let o = convert_to(&t, "link.txt");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(fs::symlink_metadata(t.join("link.txt")).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(t.join("sub/real.txt")).unwrap(), SEED_ARCS);
    assert_eq!(names(&t.join("sub")), ["real.txt"], "a temporary file was left behind");

    // A link to nothing creates its target, as the shell's `>` does.
    symlink("sub/new.txt", t.join("dangling.txt")).unwrap();
    let o = convert_to(&t, "dangling.txt");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(fs::symlink_metadata(t.join("dangling.txt")).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(t.join("sub/new.txt")).unwrap(), SEED_ARCS);
}

#[test]
fn an_output_file_keeps_its_mode_and_its_other_names() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let t = TempDir::new("mode");
    t.file("g.txt", SEED);
    let out = t.file("out.txt", "old\n");
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
    let o = convert_to(&t, "out.txt");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&out).unwrap(), SEED_ARCS);
    assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o7777, 0o600);

    // A hard link: both names show the new contents, and they stay one file.
    fs::write(&out, "old\n").unwrap();
    fs::hard_link(&out, t.join("other.txt")).unwrap();
    let o = convert_to(&t, "out.txt");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(t.join("other.txt")).unwrap(), SEED_ARCS);
    assert_eq!(fs::metadata(&out).unwrap().nlink(), 2);
    assert_eq!(names(&t), ["g.txt", "other.txt", "out.txt"]);
}

#[test]
fn a_read_only_output_file_is_refused_even_for_root() {
    use std::os::unix::fs::PermissionsExt;
    let t = TempDir::new("readonly");
    t.file("g.txt", SEED);
    let out = t.file("out.txt", "keep\n");
    fs::set_permissions(&out, fs::Permissions::from_mode(0o444)).unwrap();
    let o = convert_to(&t, "out.txt");
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("out.txt: the file is read-only"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&out).unwrap(), "keep\n");
    assert_eq!(names(&t), ["g.txt", "out.txt"]);
}

#[test]
fn fifos_devices_sockets_and_dev_stdout_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let t = TempDir::new("special");
    t.file("g.txt", SEED);

    // A FIFO stays a FIFO, and its reader gets the output.
    let fifo = t.join("out.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || fs::read_to_string(fifo).unwrap()
    });
    let o = convert_to(&t, "out.fifo");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(reader.join().unwrap(), SEED_ARCS);
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());

    // A Unix socket gets the bytes through a connection.
    let sock = t.join("out.sock");
    let listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut s = String::new();
        stream.read_to_string(&mut s).unwrap();
        s
    });
    let o = convert_to(&t, "out.sock");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(server.join().unwrap(), SEED_ARCS);

    // /dev/null stays the device; /dev/stdout reaches standard output.
    let o = convert_to(&t, "/dev/null");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    let o = convert_to(&t, "/dev/stdout");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(o.stdout, SEED_ARCS.as_bytes());
    assert!(fs::symlink_metadata("/dev/stdout").unwrap().file_type().is_symlink());
    assert_eq!(names(&t), ["g.txt", "out.fifo", "out.sock"]);
}

#[test]
fn two_outputs_to_one_path_are_refused_up_front() {
    let t = TempDir::new("two");
    t.file("g.txt", SEED);
    for args in [
        &["kernel", "g.txt", "-o", "x.txt", "--dot", "x.txt"][..],
        &["kernel", "g.txt", "-o", "x.txt", "--dot", "./x.txt"],
        &["tab", "--rows", "4", "--cols", "3", "--svg", "x.txt", "--board", "-o", "x.txt"],
    ] {
        let o = gamegraph(&t, args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("give each output its own file"), "{}", stderr(&o));
        assert_eq!(names(&t), ["g.txt"], "{args:?}");
    }
}

#[test]
fn an_interrupted_output_leaves_no_temporary_file() {
    // 20 disjoint 2-cycles have 2^20 kernels: `--all` writes them for a while.
    let t = TempDir::new("sigint");
    let mut graph = String::from("40 40\n1\n");
    for i in 0..20 {
        graph.push_str(&format!("{} {}\n{} {}\n", 2 * i + 1, 2 * i + 2, 2 * i + 2, 2 * i + 1));
    }
    t.file("g.txt", &graph);
    let mut child = Command::new(GAMEGRAPH)
        .args(["kernel", "--all", "g.txt", "-o", "all.txt"])
        .current_dir(&*t)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !names(&t).iter().any(|n| n.starts_with(".all.txt.")) {
        assert!(start.elapsed().as_secs() < 60, "no temporary file appeared");
        assert!(child.try_wait().unwrap().is_none(), "kernel ended before it was interrupted");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert_eq!(names(&t), ["g.txt"], "the temporary file was left behind");
}

#[test]
fn completion_scripts_name_every_command_and_bash_reads_its_own() {
    let t = TempDir::new("completions");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = gamegraph(&t, &["completions", shell], None);
        assert!(o.status.success(), "{shell}");
        let script = text(&o.stdout);
        for command in ["retro", "kernel", "game", "verify", "completions"] {
            assert!(script.contains(command), "{shell}: {command}");
        }
    }
    let o = gamegraph(&t, &["completions", "bash"], None);
    std::fs::write(t.join("gamegraph.bash"), &o.stdout).unwrap();
    let check = std::process::Command::new("bash")
        .args(["-n", "gamegraph.bash"])
        .current_dir(&*t)
        .status()
        .unwrap();
    assert!(check.success());
    let o = gamegraph(&t, &["completions", "tcsh"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("possible values: bash"), "{}", text(&o.stderr));
}
