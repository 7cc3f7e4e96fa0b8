//! `gamegraph serve`: every API endpoint answers byte for byte what the CLI prints with
//! `--json`; bad requests get 400, large bodies 413, slow solves 503, and the server keeps
//! serving.

use crate::server;
use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use server::Server;
use support::{TempDir, gamegraph, text};

fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(dir);
    let mut files: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", root.display());
    files
}

/// `gamegraph ARGS` on `stdin`: its stdout (exit code 0, or 1 for `kernel --check`).
fn cli(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let dir = TempDir::new("serve-cli");
    let out = gamegraph(&dir, args, Some(stdin));
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", text(&out.stderr));
    out.stdout
}

/// Checks that `POST /api/<cmd>?query` with `body` equals `gamegraph cmd --json cli_args -`.
fn same(server: &Server, cmd: &str, query: &str, body: &[u8], cli_args: &[&str]) {
    let (status, got) = server.post(&format!("/api/{cmd}?{query}"), body);
    assert_eq!(status, 200, "{cmd}?{query}: {}", text(&got));
    let want = cli(&[&[cmd, "--json"], cli_args].concat(), body);
    assert_eq!(text(&got), text(&want), "{cmd}?{query}");
}

fn error_of(body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap();
    v["error"].as_str().unwrap().to_owned()
}

#[test]
fn graph_endpoints_answer_the_cli_json_on_every_fixture() {
    let s = Server::start(&[]);
    for f in fixtures("retro", "txt") {
        let body = fs::read(&f).unwrap();
        same(&s, "retro", "all=true", &body, &["--all", "-"]);
        same(&s, "info", "", &body, &["-"]);
    }
    let cycle =
        fs::read(fixtures("retro", "txt").into_iter().find(|f| f.ends_with("seed.txt")).unwrap())
            .unwrap();
    same(&s, "retro", "", &cycle, &["-"]);
    same(&s, "retro", "line=true&start=4", &cycle, &["--line", "--start", "4", "-"]);
    same(
        &s,
        "retro",
        "format=arcs&start=2&line=1",
        b"1 2\n2 3\n",
        &["--format", "arcs", "--start", "2", "--line", "-"],
    );
    let dir = TempDir::new("serve-binary");
    let binary = gamegraph(&dir, &["convert", "--to", "binary", "-"], Some(&cycle)).stdout;
    same(&s, "retro", "all=true", &binary, &["--all", "-"]);
    same(&s, "retro", "all=true&format=binary", &binary, &["--all", "--format", "binary", "-"]);
    let (status, arcs) = s.post("/api/convert?to=arcs", &cycle);
    assert_eq!(status, 200);
    let dir = TempDir::new("serve-convert");
    assert_eq!(arcs, gamegraph(&dir, &["convert", "--to", "arcs", "-"], Some(&cycle)).stdout);
    for f in fixtures("grundy", "txt") {
        let body = fs::read(&f).unwrap();
        same(&s, "grundy", "all=true", &body, &["--all", "-"]);
        same(
            &s,
            "grundy",
            "tokens=1,2&heaps=3,5&max=2,2",
            &body,
            &["--tokens", "1,2", "--heaps", "3,5", "--max", "2,2", "-"],
        );
    }
}

#[test]
fn kernel_endpoint_answers_the_cli_json_on_every_fixture() {
    let s = Server::start(&[]);
    for f in fixtures("kernel", "txt") {
        let body = fs::read(&f).unwrap();
        same(&s, "kernel", "", &body, &["-"]);
        same(&s, "kernel", "all=true&limit=5", &body, &["--all", "--limit", "5", "-"]);
        same(&s, "kernel", "alpha=true", &body, &["--alpha", "-"]);
        same(&s, "kernel", "beta=true&explain=true", &body, &["--beta", "--explain", "-"]);
    }
    let six = fs::read(
        fixtures("kernel", "txt").into_iter().find(|f| f.ends_with("six-cycle.txt")).unwrap(),
    )
    .unwrap();
    same(&s, "kernel", "count=true", &six, &["--count", "-"]);
    same(&s, "kernel", "check=1+3+5", &six, &["--check", "1 3 5", "-"]);
    same(&s, "kernel", "check=1,3", &six, &["--check", "1,3", "-"]);
}

#[test]
fn board_and_heap_endpoints_answer_the_cli_json() {
    let s = Server::start(&[]);
    for f in fixtures("tab", "inp") {
        let body = fs::read(&f).unwrap();
        same(&s, "tab", "", &body, &["-"]);
    }
    same(&s, "tab", "rows=10&cols=4&board=true", b"", &["--rows", "10", "--cols", "4", "--board"]);
    same(
        &s,
        "tab",
        "rows=10&cols=4&at=4,3&line=true",
        b"",
        &["--rows", "10", "--cols", "4", "--at", "4,3", "--line"],
    );
    same(
        &s,
        "tab",
        "rows=1000000000000000000&cols=50&at=1,1",
        b"",
        &["--rows", "1000000000000000000", "--cols", "50", "--at", "1,1"],
    );
    same(&s, "tab", "period=1..6", b"", &["--period", "1..6"]);
    same(
        &s,
        "nim",
        "heaps=5,7,9&max=2,3,4&explain=true",
        b"",
        &["--max", "2,3,4", "--explain", "5", "7", "9"],
    );
    same(&s, "nim", "heaps=1,1,4&misere=true", b"", &["--misere", "1", "1", "4"]);
    same(&s, "nim", "heaps=3,5,6,9&moore=2", b"", &["--moore", "2", "3", "5", "6", "9"]);
    same(&s, "nim", "", b"5 2\n7 3\n# a comment\n9 4\n", &["--file", "-"]);
    same(
        &s,
        "octal",
        "code=0.77&upto=100&period=true",
        b"",
        &["0.77", "--upto", "100", "--period"],
    );
    same(
        &s,
        "octal",
        "code=.07&at=1000000000000000000&at=5",
        b"",
        &[".07", "--at", "1000000000000000000", "--at", "5"],
    );
    same(
        &s,
        "octal",
        "code=4.07&period=true&method=plain&limit=3000",
        b"",
        &["4.07", "--period", "--method", "plain", "--limit", "3000"],
    );
    same(
        &s,
        "subtraction",
        "set=1,3,4&upto=20&period=true",
        b"",
        &["1,3,4", "--upto", "20", "--period"],
    );
    same(
        &s,
        "subtraction",
        "set=2,5,7&period=true&misere=true&full=true",
        b"",
        &["2,5,7", "--period", "--misere", "--full"],
    );
}

#[test]
fn play_and_game_endpoints_answer_the_cli_json() {
    let s = Server::start(&[]);
    let check = |path: &str, args: &[&str]| {
        let (status, got) = s.post(path, b"");
        assert_eq!(status, 200, "{path}: {}", text(&got));
        assert_eq!(text(&got), text(&cli(args, b"")), "{path}");
    };
    check(
        "/api/play?heaps=1152921504606846977,5",
        &["play", "--json", "--heaps", "1152921504606846977,5"],
    );
    check(
        "/api/play?heaps=5,7,9&max=2,3,4&move=take+2+from+heap+1",
        &["play", "--json", "--heaps", "5,7,9", "--max", "2,3,4", "--move", "take 2 from heap 1"],
    );
    check("/api/play?tab=10,4,4,3&move=4", &["play", "--json", "--tab", "10,4,4,3", "--move", "4"]);
    check(
        "/api/game-query?game=tic-tac-toe&position=X../.O./...",
        &["game", "tic-tac-toe", "query", "--json", "X../.O./..."],
    );
    check(
        "/api/game-query?game=connect-four+--cols+4+--rows+4&position=..../..../..../X...",
        &[
            "game",
            "connect-four",
            "--cols",
            "4",
            "--rows",
            "4",
            "query",
            "--json",
            "..../..../..../X...",
        ],
    );
    // An illegal move is a 400 with the reason; a missing position is refused before any run.
    let (status, body) = s.post("/api/play?heaps=2,2&max=1,2&move=2+1", b"");
    assert_eq!(status, 400);
    assert_eq!(error_of(&body), "illegal move: at most 1 may be taken from heap 1");
    for (query, why) in [
        ("game=tic-tac-toe", "parameter `position` is required"),
        ("game=tic-tac-toe&position=X&position=O", "parameter `position` is given twice"),
        ("position=X", "parameter `game` is required"),
        (
            "game=tic-tac-toe&move=b2",
            "unknown parameter `move` for /api/game-query (allowed: game, position)",
        ),
        ("game=tic-tac-toe&position=XX", "<position>:1:3: 2 cells, expected 9 in \"XX\""),
    ] {
        let (status, body) = s.post(&format!("/api/game-query?{query}"), b"");
        assert_eq!((status, error_of(&body)), (400, why.to_owned()), "{query}");
    }
}

#[test]
fn every_registered_game_is_played_from_values_the_server_solves_once() {
    let cache = TempDir::new("serve-cache");
    let s = Server::start(&["--cache", cache.to_str().unwrap()]);
    for (game, moves) in [
        ("tic-tac-toe", &["b2", "a1"][..]),
        ("connect-four --cols 4 --rows 4", &["column 2", "3"]),
        ("kayles 4,7", &["take 1 from 7 leaving 6"]),
        ("dawsons-kayles 10", &[]),
        ("octal 0.137 9", &[]),
        ("quixo 3", &["c3-c1"]),
        ("chase 8", &["to 1"]),
        ("tab 9 4 1,1", &["column 2"]),
    ] {
        let mut query = format!("game={}", game.replace(' ', "+"));
        for m in moves {
            query.push_str(&format!("&move={}", m.replace(' ', "+")));
        }
        let mut args = vec!["play", "--json"];
        for m in moves {
            args.extend(["--move", m]);
        }
        args.push("--game");
        args.extend(game.split(' '));
        let want = text(&cli(&args, b""));
        // The first request solves the game into the cache, the second reads it.
        for _ in 0..2 {
            let (status, got) = s.post(&format!("/api/play-game?{query}"), b"");
            assert_eq!(status, 200, "{game}: {}", text(&got));
            assert_eq!(text(&got), want, "{game}");
        }
    }
    let solved = std::fs::read_dir(&*cache).unwrap().count();
    assert_eq!(solved, 8, "a directory of tiers per game");
    assert!(cache.join("connect-four_--cols_4_--rows_4").join("manifest").is_file());
    // A game solved into the cache before is played from there, without another solve.
    let dir = cache.join("connect-four_--cols_5_--rows_4");
    let solve = ["game", "connect-four", "--cols", "5", "--rows", "4", "solve", "-o"];
    cli(&[&solve[..], &[dir.to_str().unwrap()]].concat(), b"");
    let values = dir.join("tier-0.values");
    let before = std::fs::metadata(&values).unwrap().modified().unwrap();
    let (status, _) = s.post("/api/play-game?game=connect-four+--rows+4+--cols+5&move=3", b"");
    assert_eq!(status, 200);
    assert_eq!(std::fs::metadata(&values).unwrap().modified().unwrap(), before, "solved again");
    for (query, why) in [
        (
            "game=chess",
            "game: 'chess' is not a game; the games are tic-tac-toe, connect-four, kayles, dawsons-kayles, octal, quixo, chase, tab",
        ),
        ("game=connect-four+--cols+4", "game: --rows is missing"),
        (
            "game=tic-tac-toe&move=d4",
            "illegal move: 'd4' is not a move here; the moves are a3, b3, c3, a2, b2, c2, a1, b1, c1",
        ),
        ("move=b2", "parameter `game` is required"),
        (
            "game=tic-tac-toe&at=1",
            "unknown parameter `at` for /api/play-game (allowed: game, move)",
        ),
    ] {
        let (status, body) = s.post(&format!("/api/play-game?{query}"), b"");
        assert_eq!((status, error_of(&body)), (400, why.to_owned()), "{query}");
    }
}

#[test]
fn games_given_with_results_are_played_from_their_values_and_never_solved() {
    let dir = TempDir::new("serve-results");
    let tiers = dir.join("c4");
    let file = dir.join("ttt.values");
    let cache = dir.join("cache");
    std::fs::create_dir(&cache).unwrap();
    cli(
        &[
            "game",
            "connect-four",
            "--cols",
            "4",
            "--rows",
            "4",
            "solve",
            "-o",
            tiers.to_str().unwrap(),
        ],
        b"",
    );
    cli(&["game", "tic-tac-toe", "solve", "--explicit", "-o", file.to_str().unwrap()], b"");
    let s = Server::start(&[
        "--cache",
        cache.to_str().unwrap(),
        "--results",
        tiers.to_str().unwrap(),
        "--results",
        file.to_str().unwrap(),
    ]);
    let (status, body) = s.request("GET", "/assets/served.json", b"");
    assert_eq!(status, 200);
    let served: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        served,
        serde_json::json!({"games": ["connect-four --cols 4 --rows 4", "tic-tac-toe"], "only": false})
    );
    for (game, path, moves) in [
        ("connect-four --cols 4 --rows 4", &tiers, "&move=2&move=3"),
        ("tic-tac-toe", &file, "&move=b2"),
    ] {
        let query = format!("game={}{moves}", game.replace(' ', "+"));
        let (status, got) = s.post(&format!("/api/play-game?{query}"), b"");
        assert_eq!(status, 200, "{game}: {}", text(&got));
        let mut args = vec!["play", "--json", "--results", path.to_str().unwrap()];
        args.extend(moves.split("&move=").filter(|m| !m.is_empty()).flat_map(|m| ["--move", m]));
        args.push("--game");
        args.extend(game.split(' '));
        assert_eq!(text(&got), text(&cli(&args, b"")), "{game}");
    }
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0, "a game of --results was solved");
    // Values of no shipped game, or no values at all: refused before the server starts.
    let not = dir.file("not.values", "hello");
    let out = gamegraph(&dir, &["serve", "--port", "0", "--results", not.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--results: "), "{}", text(&out.stderr));
}

#[test]
fn bad_requests_get_400_with_the_cli_message_and_the_server_keeps_serving() {
    let s = Server::start(&[]);
    let bad = b"3 2\n1\n1 2\n2 x\n";
    let (status, body) = s.post("/api/retro", bad);
    assert_eq!(status, 400);
    let dir = TempDir::new("serve-bad");
    let cli = gamegraph(&dir, &["retro", "-"], Some(bad));
    assert_eq!(cli.status.code(), Some(2));
    let line = text(&cli.stderr).lines().next().unwrap().to_owned();
    assert_eq!(format!("error: {}", error_of(&body)), line);
    assert!(error_of(&body).starts_with("<stdin>:4:"), "{}", error_of(&body));

    for (path, needle) in [
        ("/api/retro?dot=x.dot", "unknown parameter `dot`"),
        ("/api/retro?output=x", "unknown parameter `output`"),
        ("/api/retro?all=maybe", "true or false"),
        ("/api/retro?start=99", "--start 99 is outside 1..5"),
        ("/api/retro?all=true&line=true", "cannot be used with"),
        ("/api/octal?upto=3", "parameter `code` is required"),
        ("/api/octal?code=0.9", ""),
        ("/api/nim?heaps=3,x", "invalid value"),
        ("/api/convert?to=binary", "one of header, arcs, dot"),
        ("/api/kernel?check=1+9", ""),
    ] {
        let (status, body) = s.post(path, support::SEED.as_bytes());
        assert_eq!(status, 400, "{path}: {}", text(&body));
        assert!(error_of(&body).contains(needle), "{path}: {}", error_of(&body));
    }
    // A move on the body's graph that is not a move: the session's words.
    let (status, body) = s.post("/api/play?move=2&move=9", support::SEED.as_bytes());
    assert_eq!(status, 400);
    assert_eq!(error_of(&body), "illegal move: '9' is not a move here; the moves are 3");
    let (status, body) = s.post("/api/retro?start=%+1", support::SEED.as_bytes());
    assert_eq!(status, 400);
    assert_eq!(error_of(&body), "bad percent escape in `%+1`");
    let (status, body) = s.post("/api/nosuch", b"");
    assert_eq!(status, 404);
    assert!(error_of(&body).contains("no endpoint /api/nosuch"));
    let (status, _) = s.request("GET", "/api/retro", b"");
    assert_eq!(status, 405);
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}

#[test]
fn a_body_over_the_limit_gets_413() {
    let s = Server::start(&["--max-body", "1000"]);
    let big = format!("{}\n", "1 1\n".repeat(400));
    let (status, body) = s.post("/api/retro?format=arcs&start=1", big.as_bytes());
    assert_eq!(status, 413);
    assert!(error_of(&body).contains("larger than 1000 bytes"), "{}", error_of(&body));
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}

/// A solve that takes far longer than a second: no period of 0.6 is known, so it computes
/// every value up to the limit.
const SLOW: &str = "/api/octal?code=0.6&period=true&limit=100000000";

#[test]
fn a_solve_over_the_time_limit_gets_503_and_a_fast_one_is_not_held_up() {
    let s = Server::start(&["--time-limit", "3"]);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let slow_tx = tx.clone();
        let server = &s;
        scope.spawn(move || {
            let answer = server.post(SLOW, b"");
            slow_tx.send(("slow", answer)).unwrap();
        });
        std::thread::sleep(Duration::from_millis(300));
        let answer = s.post("/api/retro", support::SEED.as_bytes());
        tx.send(("fast", answer)).unwrap();
        let (first, (status, _)) = rx.recv().unwrap();
        assert_eq!(first, "fast", "the fast request waited for the slow one");
        assert_eq!(status, 200);
        let (second, (status, body)) = rx.recv().unwrap();
        assert_eq!(second, "slow");
        assert_eq!(status, 503);
        assert!(error_of(&body).contains("time limit of 3 s"), "{}", error_of(&body));
    });
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}

/// The running processes whose parent is `pid` (a killed child stays a zombie until the
/// server reaps it).
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // `pid (name) state ppid ...`: the name may hold spaces, not a `)`-then-space.
        let Some((_, rest)) = stat.rsplit_once(") ") else { continue };
        let mut fields = rest.split_whitespace();
        let state = fields.next();
        let ppid = fields.next().and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) && state != Some("Z") {
            found.extend(e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()));
        }
    }
    found
}

#[cfg(target_os = "linux")]
#[test]
fn a_client_that_goes_away_ends_its_solve() {
    use std::io::Write;
    let s = Server::start(&["--time-limit", "60"]);
    let until = |what: &str, ok: &dyn Fn(usize) -> bool| {
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        while !ok(children_of(s.pid()).len()) {
            assert!(std::time::Instant::now() < deadline, "{what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    for close in [false, true] {
        let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
        write!(c, "POST {SLOW} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\n\r\n", s.addr).unwrap();
        until("the solve did not start", &|n| n == 1);
        // Gone away: the connection closed, or only its sending side.
        if close {
            drop(c);
        } else {
            c.shutdown(std::net::Shutdown::Write).unwrap();
        }
        until("the solve went on after its client left", &|n| n == 0);
    }
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let s = Server::start(&[]);
    let (status, page) = s.request("GET", "/", b"");
    assert_eq!(status, 200);
    let page = text(&page);
    for view in ["view-graph", "view-tab", "view-heaps", "view-kernel", "view-octal"] {
        assert!(page.contains(view), "{view}");
    }
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"), "an external asset");
    for asset in [
        "/assets/app.js",
        "/assets/app.css",
        "/assets/cytoscape.min.js",
        "/assets/LICENSE-cytoscape",
    ] {
        let (status, body) = s.request("GET", asset, b"");
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 100, "{asset}");
    }
    let (status, body) = s.request("GET", "/assets/examples.json", b"");
    assert_eq!(status, 200);
    let ex: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(ex["graphs"].as_array().unwrap().len() >= 3);
    assert!(ex["kernels"].as_array().unwrap().len() >= 3);
}

#[test]
fn serve_refuses_a_bad_time_limit_and_a_busy_port() {
    let dir = TempDir::new("serve-args");
    let out = gamegraph(&dir, &["serve", "--time-limit", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--time-limit must be a positive number"));
    let s = Server::start(&[]);
    let port = s.addr.rsplit(':').next().unwrap().to_owned();
    let out = gamegraph(&dir, &["serve", "--port", &port], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot listen on 127.0.0.1:"), "{}", text(&out.stderr));
}

/// Sends `raw` on a new connection and returns everything the server sends back before it
/// closes (or 20 s pass).
fn exchange(s: &Server, raw: &[u8]) -> String {
    exchange_then(s, raw, false)
}

/// [`exchange`], ending the sending side after `raw` when `end` is true (a body cut short).
fn exchange_then(s: &Server, raw: &[u8], end: bool) -> String {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // The server may answer and close before it has read everything (a request it cannot
    // parse): what it sent back is what counts.
    let _ = c.write_all(raw);
    if end {
        let _ = c.shutdown(std::net::Shutdown::Write);
    }
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn every_error_is_json_and_other_hosts_and_pages_are_refused() {
    let s = Server::start(&["--allow-origin", "https://ok.example"]);
    let seed = support::SEED;
    let post = |host: &str, extra: &str| {
        exchange(
            &s,
            format!(
                "POST /api/retro HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{seed}",
                seed.len()
            )
            .as_bytes(),
        )
    };
    // A DNS name (rebinding) is refused; addresses and localhost are this server.
    let r = post("evil.example", "");
    assert!(
        r.starts_with("HTTP/1.1 403") && r.contains(r#"{"error":"the host name `evil.example`"#),
        "{r}"
    );
    for host in [s.addr.as_str(), "localhost", "[::1]:9"] {
        let r = post(host, "");
        assert!(r.starts_with("HTTP/1.1 200"), "{host}: {r}");
    }
    // Another page's request is refused unless its origin is allowed.
    let r = post(&s.addr, "Origin: http://evil.example\r\n");
    assert!(
        r.starts_with("HTTP/1.1 403") && r.contains("--allow-origin http://evil.example"),
        "{r}"
    );
    let r = post(&s.addr, &format!("Origin: http://{}\r\n", s.addr));
    assert!(r.starts_with("HTTP/1.1 200"), "{r}");
    let r = post(&s.addr, "Origin: https://ok.example\r\n");
    assert!(r.starts_with("HTTP/1.1 200"), "{r}");
    assert!(
        r.to_ascii_lowercase().contains("access-control-allow-origin: https://ok.example"),
        "{r}"
    );
    let preflight = format!(
        "OPTIONS /api/retro HTTP/1.1\r\nHost: {}\r\nOrigin: https://ok.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n",
        s.addr
    );
    let r = exchange(&s, preflight.as_bytes());
    assert!(r.starts_with("HTTP/1.1 204"), "{r}");
    // Unknown paths and methods get JSON.
    for (method, path, status) in
        [("GET", "/nope", 404), ("GET", "/api/retro", 405), ("DELETE", "/", 405)]
    {
        let (got, body) = s.request(method, path, b"");
        assert_eq!(got, status, "{method} {path}");
        assert!(!error_of(&body).is_empty(), "{method} {path}");
    }
    // Requests hyper cannot parse get JSON too, and the server keeps serving.
    // More headers than hyper takes (100), in a few kilobytes that the server reads whole.
    let many: String = (0..150).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let huge = format!("GET / HTTP/1.1\r\nHost: {}\r\n{many}\r\n", s.addr);
    for (raw, status) in [
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), "400"),
        (b"GET / HTTP/1.1\r\nBad Header\r\n\r\n".to_vec(), "400"),
        (huge.into_bytes(), "431"),
    ] {
        let r = exchange(&s, &raw);
        assert!(r.starts_with(&format!("HTTP/1.1 {status} ")), "{r}");
        let (_, body) = r.split_once("\r\n\r\n").unwrap();
        assert!(!error_of(body.as_bytes()).is_empty(), "{r}");
    }
    same(&s, "retro", "", seed.as_bytes(), &["-"]);
}

#[test]
fn bodies_are_refused_up_front_when_too_large_and_as_cut_short_when_truncated() {
    let s = Server::start(&["--max-body", "1000"]);
    // A huge Content-Length is refused without waiting for the body.
    let head = format!(
        "POST /api/retro HTTP/1.1\r\nHost: {}\r\nContent-Length: 99999999999\r\n\r\n",
        s.addr
    );
    let start = std::time::Instant::now();
    let r = exchange(&s, head.as_bytes());
    assert!(r.starts_with("HTTP/1.1 413") && r.contains("larger than 1000 bytes"), "{r}");
    assert!(start.elapsed() < Duration::from_secs(10));
    // A body shorter than its Content-Length is not "too large".
    let head = format!(
        "POST /api/retro HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n5 5\n1\n",
        s.addr
    );
    let r = exchange_then(&s, head.as_bytes(), true);
    assert!(r.starts_with("HTTP/1.1 400") && r.contains("cut short"), "{r}");
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}

#[test]
fn a_large_answer_is_capped_and_an_unread_one_holds_a_slot_until_its_client_is_dropped() {
    use std::io::{Read, Write};
    let s = Server::start(&[
        "--max-output",
        "20000000",
        "--max-solves",
        "1",
        "--time-limit",
        "4",
        "--io-timeout",
        "10",
    ]);
    // 10^6 vertices without arcs: about 48 MB of JSON, over the cap.
    let (status, body) = s.post("/api/grundy?all=true", b"1000000 0\n");
    assert_eq!(status, 503, "{}", text(&body));
    assert!(error_of(&body).contains("larger than 20000000 bytes"), "{}", error_of(&body));

    // A client that asks for 9.6 MB and reads one byte keeps the only slot ...
    let mut idle = std::net::TcpStream::connect(&s.addr).unwrap();
    let body = "200000 0\n";
    write!(
        idle,
        "POST /api/grundy?all=true HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n{body}",
        s.addr,
        body.len()
    )
    .unwrap();
    let mut first = [0u8; 1];
    idle.read_exact(&mut first).unwrap();
    // ... so another request waits up to the time limit, then hears that the server is busy,
    let (status, body) = s.post("/api/retro", support::SEED.as_bytes());
    assert_eq!(status, 503, "{}", text(&body));
    assert!(error_of(&body).contains("the server is busy"), "{}", error_of(&body));
    // until the idle client is disconnected (the I/O timeout), which frees the slot.
    std::thread::sleep(Duration::from_secs(11));
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
    idle.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut rest = Vec::new();
    let _ = idle.read_to_end(&mut rest);
    assert!(rest.len() < 9_000_000, "the idle client got the whole answer");
    assert!(!rest.is_empty(), "the idle client got nothing after its first byte");
}

#[test]
fn a_client_that_sends_its_headers_slowly_is_disconnected() {
    use std::io::{Read, Write};
    let s = Server::start(&["--io-timeout", "2"]);
    let mut c = std::net::TcpStream::connect(&s.addr).unwrap();
    c.write_all(b"POST /api/retro HTTP/1.1\r\nHost: x\r\n").unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let start = std::time::Instant::now();
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    assert!(start.elapsed() < Duration::from_secs(15), "the connection stayed open");
    same(&s, "retro", "", support::SEED.as_bytes(), &["-"]);
}
