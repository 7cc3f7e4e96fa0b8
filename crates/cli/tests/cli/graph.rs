//! `gamegraph gen`, `convert` and `info`, run as processes in a temporary directory.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::Output;

use support::TempDir;

fn gamegraph(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, args, None)
}

fn with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    support::gamegraph(dir, args, Some(input))
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn fails(out: &Output, code: i32) -> String {
    assert_eq!(out.status.code(), Some(code), "{out:?}");
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn gen_is_deterministic_and_info_describes_it() {
    let t = TempDir::new("gen");
    let args = ["gen", "--vertices", "50", "--arcs", "200", "--seed", "7"];
    let a = ok(&gamegraph(&t, &args));
    assert_eq!(a, ok(&gamegraph(&t, &args)));
    assert!(a.starts_with("50 200\n1\n"));
    assert_eq!(a.lines().count(), 202);
    fs::write(t.join("g.txt"), &a).unwrap();
    let info = ok(&gamegraph(&t, &["info", "g.txt"]));
    let lines: Vec<&str> = info.lines().collect();
    assert_eq!(
        &lines[..5],
        ["format: header", "start: 1", "vertices: 50", "arcs: 200", "self-loops: 0"]
    );
    let one =
        ok(&gamegraph(&t, &["gen", "-n", "50", "-m", "200", "--seed", "7", "--threads", "1"]));
    assert_eq!(a, one);
    let two =
        ok(&gamegraph(&t, &["gen", "-n", "50", "-m", "200", "--seed", "7", "--threads", "2"]));
    assert_eq!(a, two);
    let other = ok(&gamegraph(&t, &["gen", "-n", "50", "-m", "200", "--seed", "8"]));
    assert_ne!(a, other);
}

#[test]
fn convert_round_trips_through_every_format() {
    let t = TempDir::new("convert");
    let header =
        ok(&gamegraph(&t, &["gen", "-n", "30", "-m", "90", "--seed", "3", "--self-loops"]));
    fs::write(t.join("g.txt"), &header).unwrap();
    ok(&gamegraph(&t, &["convert", "g.txt", "--to", "binary", "-o", "g.bin"]));
    ok(&gamegraph(&t, &["convert", "g.bin", "--to", "arcs", "-o", "g.arcs"]));
    assert_eq!(ok(&gamegraph(&t, &["convert", "g.bin", "--to", "header"])), header);
    // The arc list has no start vertex (so the header gets no start line) and may lose
    // isolated vertices, but the arcs come back in the same order.
    let from_arcs = ok(&gamegraph(&t, &["convert", "g.arcs", "--to", "header"]));
    assert_eq!(
        from_arcs.lines().skip(1).collect::<Vec<_>>(),
        header.lines().skip(2).collect::<Vec<_>>()
    );
    let json = ok(&gamegraph(&t, &["info", "--json", "g.bin"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["format"], "binary");
    assert_eq!(v["vertices"], 30);
    assert_eq!(v["arcs"], 90);
    assert_eq!(v["start"], 1);
    let loops = header.lines().skip(2).filter(|l| {
        let mut it = l.split(' ');
        it.next() == it.next()
    });
    assert_eq!(v["self_loops"], loops.count());
    let dot = ok(&gamegraph(&t, &["convert", "g.bin", "--to", "dot"]));
    assert!(dot.starts_with("digraph \"gamegraph\" {\n"));
    assert_eq!(dot.lines().filter(|l| l.contains(" -> ")).count(), 90);
}

#[test]
fn reads_standard_input_and_honours_format() {
    let t = TempDir::new("stdin");
    let info = ok(&with_stdin(&t, &["info", "-"], b"1 2\n2 3\n"));
    assert!(info.starts_with("format: arcs\nstart: -\nvertices: 3\narcs: 2\n"), "{info}");
    // Forced to the header format, the same text means N = 1, M = 2, start 2: out of range.
    let err = fails(&with_stdin(&t, &["info", "--format", "header"], b"1 2\n2 3\n"), 2);
    assert_eq!(err, "error: <stdin>:2:1: vertex 2 is outside 1..1\n");
    let bin = with_stdin(&t, &["convert", "--to", "binary"], b"3 1\n2\n1 3\n").stdout;
    assert!(bin.starts_with(b"\x89GGRAPH\n"));
    let info = ok(&with_stdin(&t, &["info"], &bin));
    assert!(info.starts_with("format: binary\nstart: 2\n"), "{info}");
}

#[test]
fn bad_input_exits_2_with_file_line_and_column() {
    let t = TempDir::new("bad");
    fs::write(t.join("bad.txt"), "2 1\n1\n1 3\n").unwrap();
    let err = fails(&gamegraph(&t, &["info", "bad.txt"]), 2);
    assert_eq!(err, "error: bad.txt:3:3: vertex 3 is outside 1..2\n");
    fs::write(t.join("short.txt"), "3 3\n1\n1 2\n").unwrap();
    let err = fails(&gamegraph(&t, &["convert", "short.txt", "--to", "arcs"]), 2);
    assert_eq!(
        err,
        "error: short.txt:4:1: expected the source of arc 2 of 3, found end of input\n"
    );
    fs::write(t.join("empty.txt"), "").unwrap();
    let err = fails(&gamegraph(&t, &["info", "empty.txt"]), 2);
    assert_eq!(err, "error: empty.txt:1:1: the input is empty\n");
    ok(&gamegraph(&t, &["gen", "-n", "4", "-m", "4", "--to", "binary", "-o", "g.bin"]));
    let bytes = fs::read(t.join("g.bin")).unwrap();
    let cut = bytes.len() - 3;
    fs::write(t.join("cut.bin"), &bytes[..cut]).unwrap();
    let err = fails(&gamegraph(&t, &["info", "cut.bin"]), 2);
    assert_eq!(
        err,
        format!(
            "error: cut.bin: the file is truncated: it ends after {cut} bytes, inside the checksum\n"
        )
    );
    let mut flipped = bytes.clone();
    flipped[50] ^= 4;
    fs::write(t.join("flip.bin"), &flipped).unwrap();
    let err = fails(&gamegraph(&t, &["info", "flip.bin"]), 2);
    assert!(err.starts_with("error: flip.bin: the file is corrupt: checksum mismatch"), "{err}");
    let err = fails(&gamegraph(&t, &["info", "missing.txt"]), 2);
    assert!(err.starts_with("error: missing.txt: no such file or directory"), "{err}");
}

#[test]
fn gen_rejects_impossible_options() {
    let t = TempDir::new("opts");
    let err = fails(&gamegraph(&t, &["gen", "-n", "1", "-m", "3"]), 2);
    assert_eq!(
        err,
        "error: no arc is possible on 1 vertices with these options, but 3 were asked for\n"
    );
    fails(&gamegraph(&t, &["gen", "-n", "5", "-m", "3", "--acyclic", "--self-loops"]), 2);
    assert_eq!(ok(&gamegraph(&t, &["gen", "-n", "0", "-m", "0"])), "0 0\n");
    let dag = ok(&gamegraph(&t, &["gen", "-n", "9", "-m", "40", "--acyclic", "--to", "arcs"]));
    assert!(dag.lines().all(|l| {
        let (u, v) = l.split_once(' ').unwrap();
        u.parse::<u32>().unwrap() < v.parse::<u32>().unwrap()
    }));
}
