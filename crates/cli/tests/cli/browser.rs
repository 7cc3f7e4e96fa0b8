//! The page in real headless Chromium (Debian's `chromium` and `chromium-driver`), driven
//! over WebDriver: each view plays a whole game by clicks, and what the page shows is
//! checked against the CLI. A screenshot of each view is saved under
//! `target/tmp/browser/`.
//!
//! Without Chromium and chromedriver the test is skipped with one line on stderr, unless
//! `GAMEGRAPH_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs them) makes it fail.

use crate::server;
use crate::support;

use std::future::Future;
use std::io::Write as _;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use server::Server;
use support::{TempDir, gamegraph, text};

/// The first of `names` found on PATH or in /usr/bin.
fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> =
        std::env::split_paths(&path).chain([PathBuf::from("/usr/bin")]).collect();
    names.iter().flat_map(|name| dirs.iter().map(move |dir| dir.join(name))).find(|p| p.is_file())
}

/// The browser and its driver the test needs, found.
const CHROMIUM: &[&str] = &["chromium", "chromium-browser", "google-chrome"];
const CHROMEDRIVER: &[&str] = &["chromedriver"];

fn program(names: &[&str]) -> PathBuf {
    find_program(names).unwrap_or_else(|| panic!("{names:?} not found"))
}

/// Whether the browser test can run here: when Chromium or chromedriver is missing it says
/// so in one line and is skipped, or fails when `GAMEGRAPH_REQUIRE_BROWSER` is set.
fn browser_present() -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .iter()
        .filter(|n| find_program(n).is_none())
        .map(|n| n[0])
        .collect();
    if missing.is_empty() {
        return true;
    }
    let message = format!(
        "browser test skipped: {} not found (install Debian's chromium and chromium-driver)",
        missing.join(" and ")
    );
    assert!(std::env::var_os("GAMEGRAPH_REQUIRE_BROWSER").is_none(), "{message}");
    // Straight to the standard error stream: the test harness captures `eprintln!` of a
    // passing test, and this line must be seen.
    let _ = writeln!(std::io::stderr(), "{message}");
    false
}

/// A chromedriver child on a free port, stopped on drop.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // In a process group of its own, so that the browsers it starts end with it.
        let child = Command::new(program(CHROMEDRIVER))
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start listening");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    /// Ends chromedriver and every browser process it started (its process group), also
    /// when a test failed before closing its session.
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn browser(driver: &Driver, profile: &Path) -> Client {
    let chromium = program(CHROMIUM);
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--disable-crash-reporter",
        "--disable-breakpad",
        "--window-size=1280,1000",
    ];
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium.display().to_string(), "args": args }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("cannot open a WebDriver session")
}

/// Polls `f` every 50 ms until it gives `Some`, for at most 30 s.
async fn until<T, F, Fut>(what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

async fn click(c: &Client, css: &str) {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.click().await.unwrap(),
        Err(e) => {
            screenshot(c, "not-found").await;
            let main = c.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
            panic!("{css}: {e}; the page says:\n{main}");
        }
    }
}

/// Waits until element `id` holds text satisfying `ok`, and returns it.
async fn wait_text(c: &Client, id: &str, ok: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let t = text_of(c, id).await;
        if ok(&t) {
            return t;
        }
        if Instant::now() > deadline {
            screenshot(c, "timed-out").await;
            let errors = c.execute("return [...document.querySelectorAll('.error')].map(e => e.textContent).join(' | ');", vec![]).await;
            panic!("timed out waiting on #{id}, which says {t:?}; page errors: {errors:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the player is to move (the turn line, returned) or the game is over (`None`).
/// The result and the turn line are read together, in one script: the page writes the
/// result of a finished game just before its last turn line.
async fn my_turn(c: &Client, view: &str) -> Option<String> {
    let script = "const t = (id) => document.getElementById(id).textContent; \
                  return [t(arguments[0]) !== '', t(arguments[1]).includes('(you to move)')];";
    let (result, turn) = (format!("{view}-result"), format!("{view}-turn"));
    let state = until("the player's turn", || async {
        let v = c.execute(script, vec![json!(result), json!(turn)]).await.unwrap();
        match (v[0].as_bool(), v[1].as_bool()) {
            (Some(true), _) => Some(false),
            (_, Some(true)) => Some(true),
            _ => None,
        }
    })
    .await;
    // Nothing changes on the page while it waits for the player.
    if state { Some(text_of(c, &turn).await) } else { None }
}

/// Sets an input's value from script (the fields, not the game, are typed this way).
async fn set_value(c: &Client, id: &str, value: &str) {
    let script = "const e = document.getElementById(arguments[0]); e.value = arguments[1];";
    c.execute(script, vec![json!(id), json!(value)]).await.unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// The last line `gamegraph play ARGS` prints for the moves `moves`.
fn cli_play(args: &[&str], moves: &[String]) -> String {
    let dir = TempDir::new("browser-play");
    let input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    let out = gamegraph(&dir, &[&["play"], args].concat(), Some(input.as_bytes()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).lines().last().unwrap().to_owned()
}

fn cli_json(args: &[&str]) -> Value {
    let dir = TempDir::new("browser-json");
    let out = gamegraph(&dir, args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel).display().to_string()
}

/// The word after `prefix` in `s`.
fn word_after<'a>(s: &'a str, prefix: &str) -> &'a str {
    let rest =
        &s[s.find(prefix).unwrap_or_else(|| panic!("no {prefix:?} in {s:?}")) + prefix.len()..];
    rest.split(|c: char| !c.is_ascii_digit()).next().unwrap()
}

async fn graph_view(c: &Client) {
    c.goto(&format!("{}/#graph", c.current_url().await.unwrap().origin().ascii_serialization()))
        .await
        .unwrap();
    let file = fixture("retro/long-path.txt");
    set_value(c, "graph-input", &std::fs::read_to_string(&file).unwrap()).await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.starts_with("40 vertices")).await;
    let mut moves = Vec::new();
    loop {
        let turn =
            wait_text(c, "graph-turn", |t| t.contains("(you to move)") || t.contains("game over"))
                .await;
        if turn.contains("game over") {
            break;
        }
        // Play what the hint says: the winner's best move.
        click(c, "#graph-hint").await;
        let hint = wait_text(c, "graph-hint-text", |t| t.starts_with("hint: ")).await;
        let v = word_after(&hint, "hint: ").to_owned();
        let before = text_of(c, "graph-turn").await;
        click(c, &format!("#graph-moves button[data-v='{v}']")).await;
        wait_text(c, "graph-turn", |t| t != before).await;
        moves.push(v);
    }
    let shown = text_of(c, "graph-result").await;
    assert_eq!(shown, cli_play(&[&file], &moves));
    assert_eq!(cli_json(&["retro", "--json", &file])["answer"], 1);
    assert_eq!(shown, "you win: the engine cannot move");
    screenshot(c, "graph-long-path").await;

    // A draw, started by a click on the drawing: vertex 3 of the 3-cycle (not a move from
    // the start, 1, where the page opened a game).
    set_value(c, "graph-input", support::SEED).await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.starts_with("5 vertices")).await;
    let pos = c
        .execute(
            "const p = window.gg.graph.cy.$('#n3').renderedPosition(); \
             const r = document.getElementById('graph-cy').getBoundingClientRect(); \
             return [p.x + r.left, p.y + r.top];",
            vec![],
        )
        .await
        .unwrap();
    let (x, y) = (pos[0].as_f64().unwrap(), pos[1].as_f64().unwrap());
    let actions = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Up { button: 0 });
    c.perform_actions(actions).await.unwrap();
    // Not a move from 1: the page says so and offers a new game there instead.
    let hint = wait_text(c, "graph-hint-text", |t| !t.is_empty()).await;
    assert!(hint.starts_with("3 is not a move from 1"), "{hint}");
    click(c, "#graph-here").await;
    wait_text(c, "graph-turn", |t| t.starts_with("at 3 (you to move)")).await;
    let mut moves = Vec::new();
    for _ in 0..10 {
        if !text_of(c, "graph-result").await.is_empty() {
            break;
        }
        let turn =
            wait_text(c, "graph-turn", |t| t.contains("(you to move)") || t.contains("game over"))
                .await;
        if turn.contains("game over") {
            break;
        }
        // The first move offered: around the cycle.
        let first = c.find(Locator::Css("#graph-moves button")).await.unwrap();
        let v = first.attr("data-v").await.unwrap().unwrap();
        let before = turn.clone();
        click(c, &format!("#graph-moves button[data-v='{v}']")).await;
        wait_text(c, "graph-turn", |t| t != before).await;
        moves.push(v);
    }
    let shown = wait_text(c, "graph-result", |t| !t.is_empty()).await;
    assert_eq!(shown, "draw: the position repeats with you to move");
    assert_eq!(shown, cli_play(&[&fixture("retro/seed.txt"), "--start", "3"], &moves));

    // An example picked from the list is solved at once; its start is W or L or D as the
    // CLI says.
    click(c, "#graph-example option[value='4']").await;
    let file = fixture("retro/gen-loops.txt");
    let cli = cli_json(&["retro", "--json", &file]);
    let summary = format!("{} vertices, {} arcs", cli["vertices"], cli["arcs"]);
    wait_text(c, "graph-summary", |t| t.starts_with(&summary)).await;
    let turn = wait_text(c, "graph-turn", |t| t.contains("(you to move)")).await;
    let word = cli["start"]["outcome"].as_str().unwrap();
    assert!(turn.contains(&format!("{word} for the player to move")), "{turn}");
    click(c, "#graph-hint").await;
    wait_text(c, "graph-hint-text", |t| t.starts_with("hint: ")).await;
    screenshot(c, "graph").await;

    // Above 500 vertices: no drawing, the answer and a searchable table; a game still starts
    // from a row of the table.
    let dir = TempDir::new("browser-large");
    let big = gamegraph(&dir, &["gen", "--vertices", "800", "--arcs", "2400", "--seed", "3"], None);
    assert!(big.status.success());
    let big = text(&big.stdout);
    let cli =
        cli_json(&["retro", "--json", "--all", &dir.file("big.txt", &big).display().to_string()]);
    set_value(c, "graph-input", &big).await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.contains("Too large to draw")).await;
    assert!(!c.find(Locator::Id("graph-cy")).await.unwrap().is_displayed().await.unwrap());
    set_value(c, "graph-search", "617").await;
    c.execute("document.getElementById('graph-search').dispatchEvent(new Event('input'));", vec![])
        .await
        .unwrap();
    let row = &cli["all"][616];
    let letter = |o: &str| o[..1].to_uppercase();
    let want = format!(
        "617 {} {} {}",
        letter(row["outcome"].as_str().unwrap()),
        row["depth"].as_u64().map_or("-".into(), |d| d.to_string()),
        row["move"].as_u64().map_or("-".into(), |m| m.to_string())
    );
    let table = wait_text(c, "graph-table", |t| t.lines().count() == 2).await;
    assert_eq!(table.lines().nth(1).unwrap(), want);
    click(c, "#graph-table td.vertex").await;
    wait_text(c, "graph-turn", |t| t.starts_with("at 617 (you to move)")).await;
}

async fn tab_view(c: &Client) {
    c.goto(&format!("{}/#tab", origin(c).await)).await.unwrap();
    set_value(c, "tab-rows", "10").await;
    set_value(c, "tab-cols", "4").await;
    click(c, "#tab-solve").await;
    until("the board", || async { c.find(Locator::Id("cell-4-3")).await.ok() }).await;
    // The board shows the CLI's d for every cell.
    let board = cli_json(&["tab", "--json", "--rows", "10", "--cols", "4", "--board"]);
    for (i, row) in board["board"].as_array().unwrap().iter().enumerate() {
        for (j, d) in row.as_array().unwrap().iter().enumerate() {
            let id = format!("cell-{}-{}", 10 - i, j + 1);
            assert_eq!(text_of(c, &id).await, d.to_string(), "{id}");
        }
    }
    click(c, "#cell-4-3").await;
    let mut moves = Vec::new();
    while let Some(turn) = my_turn(c, "tab").await {
        click(c, "#tab-hint").await;
        let hint = wait_text(c, "tab-hint-text", |t| t.starts_with("hint: ")).await;
        let k: u64 = word_after(&hint, "column ").parse().unwrap();
        let x: u64 = word_after(&turn, "cell (").parse().unwrap();
        click(c, &format!("#cell-{}-{k}", x + k)).await;
        wait_text(c, "tab-turn", |t| t != turn).await;
        moves.push(k.to_string());
    }
    let shown = text_of(c, "tab-result").await;
    assert_eq!(shown, cli_play(&["--tab", "10,4,4,3"], &moves));
    assert_eq!(shown, "you win: the engine cannot move");
    screenshot(c, "tab").await;
}

async fn origin(c: &Client) -> String {
    c.current_url().await.unwrap().origin().ascii_serialization()
}

async fn heaps_view(c: &Client) {
    c.goto(&format!("{}/#heaps", origin(c).await)).await.unwrap();
    set_value(c, "heaps-sizes", "5,7,9").await;
    set_value(c, "heaps-max", "2,3,4").await;
    click(c, "#heaps-start").await;
    let cli = cli_json(&["nim", "--json", "--explain", "5", "7", "9", "--max", "2,3,4"]);
    // The explanation, one step at a time.
    let first = wait_text(c, "heaps-explain", |t| t.starts_with("heap 1:")).await;
    assert_eq!(first.lines().count(), 1);
    click(c, "#heaps-step").await;
    wait_text(c, "heaps-explain", |t| t.lines().count() == 2).await;
    click(c, "#heaps-all").await;
    let all = wait_text(c, "heaps-explain", |t| t.lines().count() > 2).await;
    assert_eq!(all.trim_end(), cli["explain"].as_str().unwrap().trim_end());
    let mut moves = Vec::new();
    while let Some(turn) = my_turn(c, "heaps").await {
        click(c, "#heaps-hint").await;
        let hint = wait_text(c, "heaps-hint-text", |t| t.starts_with("hint: ")).await;
        let take = word_after(&hint, ": take ").to_owned();
        let heap = word_after(&hint, " from heap ").to_owned();
        if moves.len() == 1 {
            screenshot(c, "heaps").await;
        }
        click(c, &format!("#heaps-board .obj[data-heap='{heap}'][data-take='{take}']")).await;
        wait_text(c, "heaps-turn", |t| t != turn).await;
        moves.push(format!("take {take} from heap {heap}"));
    }
    let shown = text_of(c, "heaps-result").await;
    assert_eq!(shown, cli_play(&["--heaps", "5,7,9", "--max", "2,3,4"], &moves));
    assert_eq!(cli["outcome"], "win");
    assert_eq!(shown, "you win: the engine cannot move");

    // Moore's Nim_2: a move picks objects in up to two heaps, then Take.
    set_value(c, "heaps-sizes", "3,5,6,9").await;
    set_value(c, "heaps-max", "").await;
    set_value(c, "heaps-moore", "2").await;
    click(c, "#heaps-start").await;
    let cli = cli_json(&["nim", "--json", "--moore", "2", "3", "5", "6", "9"]);
    assert_eq!(cli["outcome"], "win");
    while let Some(turn) = my_turn(c, "heaps").await {
        click(c, "#heaps-hint").await;
        let hint = wait_text(c, "heaps-hint-text", |t| t.starts_with("hint: ")).await;
        for part in hint.split("take ").skip(1) {
            let take = word_after(part, "");
            let heap = word_after(part, " from heap ");
            click(c, &format!("#heaps-board .obj[data-heap='{heap}'][data-take='{take}']")).await;
        }
        click(c, "#heaps-take").await;
        wait_text(c, "heaps-turn", |t| t != turn).await;
    }
    assert_eq!(text_of(c, "heaps-result").await, "you win: the engine cannot move");
}

async fn kernel_view(c: &Client) {
    c.goto(&format!("{}/#kernel", origin(c).await)).await.unwrap();
    let six = fixture("kernel/six-cycle.txt");
    set_value(c, "kernel-input", &std::fs::read_to_string(&six).unwrap()).await;
    click(c, "#kernel-solve").await;
    let cli = cli_json(&["kernel", "--json", "--all", &six]);
    let kernels = cli["kernels"].as_array().unwrap();
    let braces = |k: &Value| {
        let ids: Vec<String> = k.as_array().unwrap().iter().map(Value::to_string).collect();
        format!("{{{}}}", ids.join(", "))
    };
    // Each click waits for the page to show the kernel it leads to, so that no click lands
    // while the page is still drawing the one before.
    for (i, k) in kernels.iter().enumerate() {
        let which = format!("kernel {} of {}", i + 1, kernels.len());
        wait_text(c, "kernel-which", |t| t == which).await;
        assert_eq!(text_of(c, "kernel-set").await, braces(k));
        click(c, "#kernel-next").await;
    }
    wait_text(c, "kernel-which", |t| t.starts_with("kernel 1 of")).await;
    click(c, "#kernel-next").await;
    wait_text(c, "kernel-which", |t| t.starts_with("kernel 2 of")).await;
    screenshot(c, "kernel").await;
    let alpha = cli_json(&["kernel", "--json", "--alpha", &six]);
    // α is computed when asked for, not with the kernels.
    assert_eq!(text_of(c, "kernel-alpha-text").await, "");
    click(c, "#kernel-alpha").await;
    let shown = wait_text(c, "kernel-alpha-text", |t| t.starts_with("α =")).await;
    assert_eq!(
        shown,
        format!(
            "α = {}: a maximum internally stable set {}",
            alpha["alpha"],
            braces(&alpha["set"])
        )
    );

    let five = fixture("kernel/five-cycle.txt");
    set_value(c, "kernel-input", &std::fs::read_to_string(&five).unwrap()).await;
    click(c, "#kernel-solve").await;
    wait_text(c, "kernel-which", |t| t == "no kernel").await;
    let why = cli_json(&["kernel", "--json", "--explain", &five]);
    let shown = wait_text(c, "kernel-why", |t| !t.is_empty()).await;
    assert_eq!(shown, format!("decided by: {}", why["explanation"]["decided"].as_str().unwrap()));
}

async fn octal_view(c: &Client) {
    c.goto(&format!("{}/#octal", origin(c).await)).await.unwrap();
    set_value(c, "octal-code", "0.77").await;
    set_value(c, "octal-upto", "100").await;
    click(c, "#octal-solve").await;
    let cli = cli_json(&["octal", "0.77", "--upto", "100", "--period", "--json"]);
    let p = &cli["period"];
    let summary = wait_text(c, "octal-summary", |t| t.contains("pre-period")).await;
    assert!(
        summary.contains(&format!("pre-period {}, period {}", p["preperiod"], p["period"])),
        "{summary}"
    );
    let values: Vec<String> = cli["values"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(n, v)| format!("g({n})={v}"))
        .collect();
    assert_eq!(text_of(c, "octal-values").await, values.join(" "));
    let dots = c.find_all(Locator::Css("#octal-svg circle")).await.unwrap().len();
    assert_eq!(dots, values.len());
    let marks = c.find_all(Locator::Css("#octal-svg .period-mark")).await.unwrap().len();
    assert!(marks >= 1, "the period is marked");
    screenshot(c, "octal").await;
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Integers above 2^53 are shown exactly, as the CLI prints them.
async fn exact_integers(c: &Client) {
    c.goto(&format!("{}/#tab", origin(c).await)).await.unwrap();
    let rows = "1000000000000000000";
    let dir = TempDir::new("browser-exact");
    let out =
        gamegraph(&dir, &["tab", "--json", "--rows", rows, "--cols", "50", "--at", "1,1"], None);
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = cli["cell"]["d"].as_u64().unwrap();
    assert_eq!(d, 19_607_843_137_254_902);
    set_value(c, "tab-rows", rows).await;
    set_value(c, "tab-cols", "50").await;
    set_value(c, "tab-at", "1,1").await;
    click(c, "#tab-solve").await;
    let shown = wait_text(c, "tab-summary", |t| t.contains("d = ")).await;
    let depth = cli["cell"]["depth"].as_u64().unwrap();
    assert!(shown.contains(&format!("d = {d} ")), "{shown}");
    assert!(shown.contains(&format!("{depth} plies")), "{shown}");
    set_value(c, "tab-at", "").await;
    set_value(c, "tab-rows", "10").await;
    set_value(c, "tab-cols", "4").await;

    // Heaps 2^60 + 1 and 5, the engine first: it leaves 5 and 5, exactly.
    c.goto(&format!("{}/#heaps", origin(c).await)).await.unwrap();
    set_value(c, "heaps-sizes", "1152921504606846977,5").await;
    set_value(c, "heaps-max", "").await;
    set_value(c, "heaps-moore", "").await;
    js(c, "document.getElementById('heaps-first').value = 'engine';").await;
    click(c, "#heaps-start").await;
    wait_text(c, "heaps-turn", |t| t.starts_with("heaps 5, 5 (you to move)")).await;
    let log = text_of(c, "heaps-log").await;
    assert!(log.contains("engine: take 1152921504606846972 from heap 1"), "{log}");
    js(c, "document.getElementById('heaps-first').value = 'me';").await;
    let big =
        js(c, "return String(window.gg.parseJSON('{\"a\": [18446744073709551615, 2]}').a[0]);")
            .await;
    assert_eq!(big, "18446744073709551615");
}

/// A failed answer leaves no older answer on the screen.
async fn errors_clear_old_answers(c: &Client) {
    c.goto(&format!("{}/#graph", origin(c).await)).await.unwrap();
    set_value(c, "graph-input", support::SEED).await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.starts_with("5 vertices")).await;
    assert!(text_of(c, "graph-detected").await.starts_with("format detected: header"));
    set_value(c, "graph-input", "1 2\n2 x\n").await;
    click(c, "#graph-solve").await;
    let error = wait_text(c, "graph-error", |t| !t.is_empty()).await;
    assert!(error.contains("line 2, column 3 of the input"), "{error}");
    assert!(!error.contains("<stdin>"), "{error}");
    assert_eq!(text_of(c, "graph-summary").await, "");
    assert_eq!(text_of(c, "graph-turn").await, "");
    assert_eq!(js(c, "return document.querySelectorAll('#graph-table tbody tr').length;").await, 0);
    assert!(!c.find(Locator::Id("graph-cy")).await.unwrap().is_displayed().await.unwrap());

    c.goto(&format!("{}/#kernel", origin(c).await)).await.unwrap();
    wait_text(c, "kernel-summary", |t| !t.is_empty()).await;
    set_value(c, "kernel-input", "3 2\n1 2\n2 x\n").await;
    click(c, "#kernel-solve").await;
    wait_text(c, "kernel-error", |t| !t.is_empty()).await;
    for id in ["kernel-summary", "kernel-which", "kernel-set", "kernel-why"] {
        assert_eq!(text_of(c, id).await, "", "#{id}");
    }
}

/// A long answer shows that it is working, disables its button and can be cancelled.
async fn busy_and_cancel(c: &Client) {
    c.goto(&format!("{}/#octal", origin(c).await)).await.unwrap();
    wait_text(c, "octal-summary", |t| !t.is_empty()).await;
    js(c, "document.getElementById('octal-kind').value = 'octal'; document.getElementById('octal-kind').dispatchEvent(new Event('change'));").await;
    // Misère play is for subtraction games: the box is off for octal codes.
    assert_eq!(js(c, "return document.getElementById('octal-misere').disabled;").await, true);
    set_value(c, "octal-code", "0.6").await;
    set_value(c, "octal-upto", "5000").await;
    click(c, "#octal-solve").await;
    assert_eq!(js(c, "return document.getElementById('octal-solve').disabled;").await, true);
    assert!(c.find(Locator::Id("octal-busy")).await.unwrap().is_displayed().await.unwrap());
    click(c, "#octal-cancel").await;
    let error = wait_text(c, "octal-error", |t| !t.is_empty()).await;
    assert!(error.contains("cancelled"), "{error}");
    assert_eq!(js(c, "return document.getElementById('octal-solve').disabled;").await, false);
    assert_eq!(text_of(c, "octal-summary").await, "");
    set_value(c, "octal-upto", "100").await;
}

/// Clicks that are not moves are explained; messages use the page's words; rings go when
/// the game ends; takes beyond a heap's limit do not look like moves.
async fn clicks_and_words(c: &Client) {
    c.goto(&format!("{}/#tab", origin(c).await)).await.unwrap();
    set_value(c, "tab-rows", "abc").await;
    click(c, "#tab-solve").await;
    let error = wait_text(c, "tab-error", |t| !t.is_empty()).await;
    assert!(error.contains("Rows N is a whole number"), "{error}");
    set_value(c, "tab-rows", "10").await;
    click(c, "#tab-solve").await;
    until("the board", || async { c.find(Locator::Id("cell-4-3")).await.ok() }).await;
    click(c, "#cell-4-3").await;
    let turn = wait_text(c, "tab-turn", |t| t.contains("(you to move)")).await;
    click(c, "#cell-9-1").await;
    let hint = wait_text(c, "tab-hint-text", |t| !t.is_empty()).await;
    assert!(hint.starts_with("(9,1) is not a move from (4,3)"), "{hint}");
    assert_eq!(text_of(c, "tab-turn").await, turn, "the game goes on");
    // To the end: no outlined cell remains.
    while let Some(turn) = my_turn(c, "tab").await {
        let target = c.find(Locator::Css("#tab-grid td.target")).await.unwrap();
        target.click().await.unwrap();
        wait_text(c, "tab-turn", |t| t != turn).await;
    }
    assert_eq!(js(c, "return document.querySelectorAll('#tab-grid td.target').length;").await, 0);

    c.goto(&format!("{}/#graph", origin(c).await)).await.unwrap();
    set_value(c, "graph-input", support::SEED).await;
    set_value(c, "graph-start", "x").await;
    click(c, "#graph-solve").await;
    let error = wait_text(c, "graph-error", |t| !t.is_empty()).await;
    assert!(error.contains("Start is a vertex number"), "{error}");
    set_value(c, "graph-start", "").await;
    click(c, "#graph-solve").await;
    let turn = wait_text(c, "graph-turn", |t| t.starts_with("at 1 (you to move)")).await;
    // 5 is not a successor of 1: explained, and the game goes on.
    js(c, "window.gg.graph.cy.$('#n5').emit('tap');").await;
    let hint = wait_text(c, "graph-hint-text", |t| !t.is_empty()).await;
    assert!(hint.starts_with("5 is not a move from 1"), "{hint}");
    assert_eq!(text_of(c, "graph-turn").await, turn);
    // An arc list has no start: "Play from the start" is off, and the page says so.
    set_value(c, "graph-input", "1 2\n2 3\n").await;
    set_value(c, "graph-format", "arcs").await;
    click(c, "#graph-solve").await;
    let summary = wait_text(c, "graph-summary", |t| t.starts_with("3 vertices")).await;
    assert!(summary.contains("no start vertex"), "{summary}");
    assert_eq!(text_of(c, "graph-detected").await, "read as the arcs format");
    set_value(c, "graph-format", "").await;
    assert_eq!(js(c, "return document.getElementById('graph-restart').disabled;").await, true);
    // A game to its end by clicks: no ring remains.
    js(c, "window.gg.graph.cy.$('#n1').emit('tap');").await;
    wait_text(c, "graph-turn", |t| t.starts_with("at 1 (you to move)")).await;
    click(c, "#graph-moves button[data-v='2']").await;
    wait_text(c, "graph-result", |t| !t.is_empty()).await;
    assert_eq!(js(c, "return window.gg.graph.cy.nodes('.target').length;").await, 0);
    // A large graph's table says that it shows only part of the rows.
    let dir = TempDir::new("browser-table");
    let big = gamegraph(&dir, &["gen", "--vertices", "800", "--arcs", "2400", "--seed", "3"], None);
    set_value(c, "graph-input", &text(&big.stdout)).await;
    set_value(c, "graph-search", "").await;
    click(c, "#graph-solve").await;
    let note = wait_text(c, "graph-table-note", |t| !t.is_empty()).await;
    assert_eq!(note, "showing the first 200 of 800 rows: search for a vertex id or W, L, D");
    // Examples show no maintainer's comment.
    let texts = js(c, "return fetch('/assets/examples.json').then(r => r.text());").await;
    assert!(!texts.as_str().unwrap().contains("do not edit"));

    c.goto(&format!("{}/#heaps", origin(c).await)).await.unwrap();
    set_value(c, "heaps-sizes", "").await;
    click(c, "#heaps-start").await;
    let error = wait_text(c, "heaps-error", |t| !t.is_empty()).await;
    assert!(error.contains("Heaps is empty"), "{error}");
    set_value(c, "heaps-sizes", "5,7,9").await;
    set_value(c, "heaps-max", "2,3,4").await;
    set_value(c, "heaps-moore", "").await;
    click(c, "#heaps-start").await;
    wait_text(c, "heaps-turn", |t| t.contains("(you to move)")).await;
    // Taking 3 from heap 1 (limit 2) is not offered as a move; taking 2 is.
    let class = |css: &str| format!("return document.querySelector(\"{css}\").className;");
    let out = js(c, &class("#heaps-board .obj[data-heap='1'][data-take='3']")).await;
    assert!(out.as_str().unwrap().contains("out-of-reach"), "{out}");
    let ok = js(c, &class("#heaps-board .obj[data-heap='1'][data-take='2']")).await;
    assert!(!ok.as_str().unwrap().contains("out-of-reach"), "{ok}");
}

/// Waits until the games view has no answer pending.
async fn games_idle(c: &Client) {
    until("the games view to answer", || async {
        let idle = c.execute("return document.body.dataset.gamesIdle === 'true';", vec![]).await;
        idle.ok().and_then(|v| v.as_bool()).filter(|&b| b)
    })
    .await;
}

/// Every registered game against the engine by clicks: the moves' values are the CLI's,
/// best play ends as the start's value says, and quick clicks are taken one at a time.
async fn games_view(c: &Client) {
    c.goto(&format!("{}/#games", origin(c).await)).await.unwrap();
    games_idle(c).await;
    wait_text(c, "games-summary", |t| {
        t.starts_with("first player to move: tie in 9 plies for the first player")
    })
    .await;
    // The values of the start's moves are those of `game … query`.
    let cli = cli_json(&["game", "tic-tac-toe", "query", "--json", ".../.../..."]);
    let triple = |m: &Value| (m["position"].clone(), m["outcome"].clone(), m["remoteness"].clone());
    let mut want: Vec<_> = cli["moves"].as_array().unwrap().iter().map(triple).collect();
    let page = js(c, "return window.gg.games.view.moves;").await;
    let mut got: Vec<_> = page.as_array().unwrap().iter().map(triple).collect();
    want.sort_by_key(|t| t.0.to_string());
    got.sort_by_key(|t| t.0.to_string());
    assert_eq!(got, want);
    // Two quick clicks: the second finds the input locked; the engine answers the first.
    js(c, "document.getElementById('games-move-1').click(); document.getElementById('games-move-2').click();").await;
    games_idle(c).await;
    let moves = js(c, "return window.gg.games.moves;").await;
    assert_eq!(moves.as_array().unwrap().len(), 2, "{moves}");
    assert_eq!(text_of(c, "games-log").await.lines().count(), 2);
    // Undo goes back to the first player's turn at the start.
    click(c, "#games-undo").await;
    games_idle(c).await;
    assert_eq!(js(c, "return window.gg.games.moves.length;").await, json!(0));
    assert!(text_of(c, "games-log").await.is_empty());
    // Every game, its board drawn, played to its end by clicks on the best moves.
    let names = js(c, "return window.gg.games.entries.map((e) => e.name);").await;
    for name in names.as_array().unwrap() {
        let name = name.as_str().unwrap();
        let pick = format!(
            "const s = document.getElementById('games-name'); s.value = '{name}'; \
             document.getElementById('games-args').value = {{'connect-four': '--cols 4 --rows 4', \
             quixo: '3', chase: '8', tab: '9 4 1,1'}}['{name}'] ?? window.gg.games.entries.find((e) => e.name === '{name}').example; \
             document.body.dataset.gamesIdle = 'false'; document.getElementById('games-solve').click();"
        );
        js(c, &pick).await;
        games_idle(c).await;
        let start = js(c, "return window.gg.games.view;").await;
        assert!(start["board"].is_object(), "{name}: no board");
        let first = start["outcome"].as_str().unwrap().to_owned();
        for _ in 0..60 {
            let best = js(
                c,
                "const v = window.gg.games.view; if (v.over) return null; \
                 return 'games-move-' + (v.moves.findIndex((m) => m.name === v.best) + 1);",
            )
            .await;
            let Some(id) = best.as_str() else { break };
            js(c, "document.body.dataset.gamesIdle = 'false';").await;
            click(c, &format!("#{id}")).await;
            games_idle(c).await;
        }
        let result = wait_text(c, "games-result", |t| !t.is_empty()).await;
        let expected = match first.as_str() {
            "win" => "the first player wins",
            "loss" => "the second player wins",
            "tie" => "a tie: the game is over and nobody wins",
            _ => "draw: the position repeats",
        };
        assert!(result.starts_with(expected), "{name}: {first} at the start, then {result}");
        let view = js(c, "return window.gg.games.view;").await;
        let played = view["history"].as_array().unwrap().len() - 1;
        assert_eq!(
            played,
            js(c, "return window.gg.games.moves.length;").await.as_u64().unwrap() as usize
        );
        if name == "connect-four" || name == "tic-tac-toe" {
            screenshot(c, &format!("games-{name}")).await;
        }
    }
}

/// α and β are computed on request: when one passes the server's time limit, the kernels
/// stay shown and only that part says why it failed. `url` is a server with a 2 s limit.
async fn kernel_parts_fail_alone(c: &Client, url: &str) {
    c.goto(&format!("{url}/#kernel")).await.unwrap();
    until("the page to load", || async {
        let ready = c.execute("return document.body.dataset.ready === 'true';", vec![]).await;
        ready.ok().and_then(|v| v.as_bool()).filter(|&b| b)
    })
    .await;
    let dir = TempDir::new("browser-kernel-parts");
    let big =
        gamegraph(&dir, &["gen", "--vertices", "2000", "--arcs", "5000", "--seed", "7"], None);
    set_value(c, "kernel-input", &text(&big.stdout)).await;
    click(c, "#kernel-solve").await;
    let summary = wait_text(c, "kernel-summary", |t| t.starts_with("2000 vertices")).await;
    click(c, "#kernel-beta").await;
    let beta = wait_text(c, "kernel-beta-text", |t| t.starts_with("β failed")).await;
    assert!(beta.contains("longer than the server allows (2 s)"), "{beta}");
    assert_eq!(text_of(c, "kernel-summary").await, summary, "the kernels stay");
    assert_eq!(text_of(c, "kernel-error").await, "");
}

/// The drawing: an arc that would cross a vertex is bent; a long chain stays readable.
async fn drawing(c: &Client) {
    c.goto(&format!("{}/#graph", origin(c).await)).await.unwrap();
    let game = "8 9\n1\n1 2\n2 3\n3 1\n3 4\n4 5\n5 6\n6 7\n7 8\n5 8\n";
    set_value(c, "graph-input", game).await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.starts_with("8 vertices")).await;
    let bent = js(
        c,
        "return window.gg.graph.cy.edges('[source = \"n3\"][target = \"n1\"]').hasClass('around');",
    )
    .await;
    assert_eq!(bent, true, "3 -> 1 would run behind 2");
    let legend = text_of(c, "view-graph").await;
    assert!(legend.contains("the principal variation"), "{legend}");
    set_value(c, "graph-input", &std::fs::read_to_string(fixture("retro/long-path.txt")).unwrap())
        .await;
    click(c, "#graph-solve").await;
    wait_text(c, "graph-summary", |t| t.starts_with("40 vertices")).await;
    let zoom = js(c, "return window.gg.graph.cy.zoom();").await.as_f64().unwrap();
    assert!(zoom >= 0.7, "labels stay readable: zoom {zoom}");
    click(c, "#graph-fit").await;
    screenshot(c, "graph-drawing").await;
}

#[test]
fn every_view_in_headless_chromium_plays_to_the_end_and_agrees_with_the_cli() {
    if !browser_present() {
        return;
    }
    let server = Server::start(&[]);
    let driver = Driver::start();
    let profile = TempDir::new("chromium-profile");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let c = browser(&driver, &profile).await;
        c.set_window_size(1280, 1000).await.unwrap();
        c.goto(&server.url()).await.unwrap();
        until("the page to load", || async {
            let ready = c.execute("return document.body.dataset.ready === 'true';", vec![]).await;
            ready.ok().and_then(|v| v.as_bool()).filter(|&b| b)
        })
        .await;
        graph_view(&c).await;
        tab_view(&c).await;
        heaps_view(&c).await;
        kernel_view(&c).await;
        octal_view(&c).await;
        exact_integers(&c).await;
        errors_clear_old_answers(&c).await;
        busy_and_cancel(&c).await;
        clicks_and_words(&c).await;
        games_view(&c).await;
        drawing(&c).await;
        let limited = Server::start(&["--time-limit", "2"]);
        kernel_parts_fail_alone(&c, &limited.url()).await;
        let errors = c.execute("return window.ggErrors;", vec![]).await.unwrap();
        assert_eq!(errors, json!([]), "script errors on the page");
        c.close().await.unwrap();
    });
}
