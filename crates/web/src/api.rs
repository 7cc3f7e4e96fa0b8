//! `POST /api/<command>`: the query parameters allowed for each command, and running it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use gamegraph_play::Spec;

use crate::Config;

/// How a query parameter becomes command-line arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `name=true` adds `--name`; `false` (or absent) adds nothing.
    Flag,
    /// `name=V` adds `--name=V`.
    Value,
    /// `name=A,B,C` adds `--name=A --name=B --name=C` (also `name=A&name=B`).
    List,
    /// `name=A&name=B` adds `--name=A --name=B`, in order; a value may hold commas.
    Repeated,
    /// `name=V` adds the positional argument `V` after `--`.
    Positional,
    /// `name=A,B,C` adds the positional arguments `A B C` after `--`.
    Positionals,
}

/// One query parameter of an endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The parameter's name, the same as the command's flag (without `--`).
    pub name: &'static str,
    /// How it is passed on.
    pub kind: ParamKind,
    /// Whether a request must give it.
    pub required: bool,
    /// The values allowed (`None`: any).
    pub choices: Option<&'static [&'static str]>,
}

/// What the request body is to the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Its input file, given as the positional argument `-` (standard input).
    Stdin,
    /// Its input file, given as `--NAME=-`.
    Flag(&'static str),
    /// Nothing: the query names the whole game.
    None,
}

/// One `POST /api/<name>` endpoint: the command it runs and the parameters it accepts.
#[derive(Debug, Clone, Copy)]
pub struct Endpoint {
    /// The path segment after `/api/`.
    pub name: &'static str,
    /// The `gamegraph` subcommand path it runs (`["retro"]`, `["game", "tic-tac-toe"]`).
    pub command: &'static [&'static str],
    /// The subcommand after the options, which takes `--json` and the positional
    /// arguments (`query` for a game), if any.
    pub action: Option<&'static str>,
    /// The parameters allowed; any other is refused with 400.
    pub params: &'static [Param],
    /// Whether the response is the command's `--json` (otherwise its text, as for `convert`).
    pub json: bool,
    /// What the body is to the command.
    pub input: Input,
    /// Parameters that name the game themselves: when one is given, the body is not read.
    pub input_unless: &'static [&'static str],
}

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind, required: false, choices: None }
}
const fn flag(name: &'static str) -> Param {
    param(name, ParamKind::Flag)
}
const fn value(name: &'static str) -> Param {
    param(name, ParamKind::Value)
}
const fn repeated(name: &'static str) -> Param {
    param(name, ParamKind::Repeated)
}
const fn list(name: &'static str) -> Param {
    param(name, ParamKind::List)
}
const fn positional(name: &'static str) -> Param {
    param(name, ParamKind::Positional)
}
const fn positionals(name: &'static str) -> Param {
    param(name, ParamKind::Positionals)
}
const fn required(p: Param) -> Param {
    Param { required: true, ..p }
}
const fn one_of(p: Param, choices: &'static [&'static str]) -> Param {
    Param { choices: Some(choices), ..p }
}

/// An endpoint that runs `gamegraph NAME --json` with the body as its input file.
const fn command(
    name: &'static str,
    command: &'static [&'static str],
    params: &'static [Param],
) -> Endpoint {
    Endpoint {
        name,
        command,
        action: None,
        params,
        json: true,
        input: Input::Stdin,
        input_unless: &[],
    }
}

const ENDPOINTS: &[Endpoint] = &[
    command("retro", &["retro"], &[flag("all"), value("start"), flag("line"), value("format")]),
    command(
        "kernel",
        &["kernel"],
        &[
            value("format"),
            flag("count"),
            flag("all"),
            value("limit"),
            flag("alpha"),
            flag("beta"),
            value("check"),
            flag("explain"),
        ],
    ),
    command(
        "grundy",
        &["grundy"],
        &[
            value("format"),
            flag("all"),
            value("tokens"),
            value("heaps"),
            value("max"),
            flag("misere"),
        ],
    ),
    Endpoint {
        input_unless: &["rows", "cols", "period"],
        ..command(
            "tab",
            &["tab"],
            &[
                value("rows"),
                value("cols"),
                value("at"),
                flag("board"),
                flag("line"),
                value("max-plies"),
                value("period"),
            ],
        )
    },
    Endpoint {
        input: Input::Flag("file"),
        input_unless: &["heaps"],
        ..command(
            "nim",
            &["nim"],
            &[positionals("heaps"), list("max"), flag("misere"), value("moore"), flag("explain")],
        )
    },
    Endpoint {
        input: Input::None,
        ..command(
            "octal",
            &["octal"],
            &[
                required(positional("code")),
                value("upto"),
                flag("period"),
                list("at"),
                value("limit"),
                flag("full"),
                value("method"),
            ],
        )
    },
    Endpoint {
        input: Input::None,
        ..command(
            "subtraction",
            &["subtraction"],
            &[
                required(positional("set")),
                value("upto"),
                flag("period"),
                list("at"),
                value("limit"),
                flag("full"),
                flag("misere"),
            ],
        )
    },
    command("info", &["info"], &[value("format")]),
    Endpoint {
        json: false,
        ..command(
            "convert",
            &["convert"],
            &[required(one_of(value("to"), &["header", "arcs", "dot"])), value("format")],
        )
    },
    Endpoint {
        input_unless: &["tab", "heaps"],
        ..command(
            "play",
            &["play"],
            &[
                value("tab"),
                value("heaps"),
                value("max"),
                flag("misere"),
                value("moore"),
                value("start"),
                value("format"),
                repeated("move"),
            ],
        )
    },
];

/// Every endpoint of the API, in the order the documentation lists them.
pub fn endpoints() -> &'static [Endpoint] {
    ENDPOINTS
}

/// What the API handlers share: the configuration, the slots for running solves, and the
/// games solved for play.
#[derive(Clone)]
struct Api {
    config: Arc<Config>,
    solves: Arc<Semaphore>,
    played: Arc<Played>,
}

/// The games `/api/play-game` has solved, each once, into a directory of the cache.
struct Played {
    /// The cache: a directory of tiers per game.
    dir: PathBuf,
    /// Per game (its registry name and arguments), whether its values are solved; a game
    /// being solved is locked, so that requests for it wait for the one solve.
    games: tokio::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<bool>>>>,
}

pub(crate) fn routes(config: Arc<Config>) -> Router {
    let solves = Arc::new(Semaphore::new(config.max_solves.max(1)));
    let dir = config.cache.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("gamegraph-serve-{}", std::process::id()))
    });
    let played = Arc::new(Played { dir, games: Default::default() });
    let served: Vec<&str> = config.results.iter().map(|(words, _)| words.as_str()).collect();
    // `only`: whether the server plays nothing else (a server of one game has no other
    // endpoint, and the page then shows its games view alone).
    let served = serde_json::json!({ "games": served, "only": false }).to_string();
    Router::new()
        .route("/assets/served.json", get(([(header::CONTENT_TYPE, "application/json")], served)))
        .route("/api/play-game", post(play_game))
        .route("/api/game-query", post(game_query))
        .route("/api/{name}", post(handle))
        .with_state(Api { config, solves, played })
}

/// How `/api/play-game` and `/api/game-query` run their commands (`game … solve`,
/// `play --json`, `game … query --json`): JSON out, no input.
const GAME: Endpoint = Endpoint { input: Input::None, ..command("play", &["play"], &[]) };

/// `POST /api/play-game?game=NAME+ARGS&move=M&move=M…`: the state of a game of the registry
/// after the moves (`gamegraph play --json`), answered from the game's values, which the
/// first request for the game solves by tiers into the cache and every later one reads.
async fn play_game(State(api): State<Api>, RawQuery(query): RawQuery) -> Response {
    let (spec, pairs) = match game_pairs(query.as_deref(), "play-game", &["move"]) {
        Ok(found) => found,
        Err(why) => return error(StatusCode::BAD_REQUEST, &why),
    };
    let dir = match values_dir(&api, &spec).await {
        Ok(dir) => dir,
        Err(answer) => return answer,
    };
    let Some(permit) = slot(&api).await else { return busy(&api.config) };
    let mut args = vec!["play".to_owned(), "--json".into(), format!("--results={}", dir.display())];
    args.extend(pairs.iter().map(|(_, m)| format!("--move={m}")));
    args.push("--game".into());
    args.extend(spec.words());
    run(&api.config, &GAME, &args, Bytes::new(), permit).await
}

/// `POST /api/game-query?game=NAME+ARGS&position=P`: the value of position `P` of a game of
/// the registry and of every move from it (`gamegraph game NAME ARGS query --json P`),
/// answered from the values `/api/play-game` reads.
async fn game_query(State(api): State<Api>, RawQuery(query): RawQuery) -> Response {
    let (spec, pairs) = match game_pairs(query.as_deref(), "game-query", &["position"]) {
        Ok(found) => found,
        Err(why) => return error(StatusCode::BAD_REQUEST, &why),
    };
    let position = match &pairs[..] {
        [(_, p)] => p.clone(),
        [] => return error(StatusCode::BAD_REQUEST, "parameter `position` is required"),
        _ => return error(StatusCode::BAD_REQUEST, "parameter `position` is given twice"),
    };
    let dir = match values_dir(&api, &spec).await {
        Ok(dir) => dir,
        Err(answer) => return answer,
    };
    let Some(permit) = slot(&api).await else { return busy(&api.config) };
    let mut args = vec!["game".to_owned()];
    args.extend(spec.words());
    args.extend(["query".into(), "--json".into(), format!("--results={}", dir.display())]);
    args.extend(["--".into(), position]);
    run(&api.config, &GAME, &args, Bytes::new(), permit).await
}

/// The game a request names (`game`, required, once) and its other parameters, in order,
/// each one of `allowed`; what is wrong otherwise, for a 400.
fn game_pairs(
    query: Option<&str>,
    endpoint: &str,
    allowed: &[&str],
) -> Result<(Spec, Vec<(String, String)>), String> {
    let (mut game, mut rest) = (None, Vec::new());
    for (name, val) in query_pairs(query)? {
        if val.chars().any(char::is_control) {
            return Err(format!("parameter `{}` holds a control character", short(&name)));
        }
        match name.as_str() {
            "game" if game.is_none() => game = Some(val),
            "game" => return Err("parameter `game` is given twice".to_owned()),
            other if allowed.contains(&other) => rest.push((name, val)),
            _ => {
                return Err(format!(
                    "unknown parameter `{}` for /api/{endpoint} (allowed: game, {})",
                    short(&name),
                    allowed.join(", ")
                ));
            }
        }
    }
    let game = game.ok_or("parameter `game` is required")?;
    let spec = Spec::parse(&game.split_whitespace().collect::<Vec<_>>())
        .map_err(|e| format!("game: {e}"))?;
    Ok((spec, rest))
}

/// The directory (or values file) of `spec`'s values: given with `--results`, or solved by
/// tiers into the cache by the first request for the game, once however many come at once.
async fn values_dir(api: &Api, spec: &Spec) -> Result<PathBuf, Response> {
    let config = &*api.config;
    let key = spec.to_string();
    if let Some((_, path)) = config.results.iter().find(|(words, _)| *words == key) {
        return Ok(path.clone());
    }
    // The game's words with `_` for the spaces: `connect-four_--cols_5_--rows_4`. The
    // registry's words hold no `/` and no word of dots alone, so this is a plain name.
    let dir = api.played.dir.join(key.replace(' ', "_"));
    let lock = api.played.games.lock().await.entry(key).or_default().clone();
    let mut solved = lock.lock().await;
    if !*solved {
        let Some(permit) = slot(api).await else { return Err(busy(config)) };
        let mut args = vec!["game".to_owned()];
        args.extend(spec.words());
        args.extend(["solve".into(), "--json".into(), "-o".into(), dir.display().to_string()]);
        let answer = run(config, &GAME, &args, Bytes::new(), permit).await;
        if answer.status() != StatusCode::OK {
            return Err(answer);
        }
        *solved = true;
    }
    Ok(dir)
}

/// A slot for a solve, waited for up to the time limit.
async fn slot(api: &Api) -> Option<OwnedSemaphorePermit> {
    tokio::time::timeout(api.config.time_limit, api.solves.clone().acquire_owned()).await.ok()?.ok()
}

/// The answer when every slot stays busy.
fn busy(config: &Config) -> Response {
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!(
            "the server is busy: {} solves are running (start the server with a larger --max-solves)",
            config.max_solves
        ),
    )
}

/// A JSON error response.
pub(crate) fn error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body + "\n").into_response()
}

/// The command line for `endpoint` with the query `pairs`.
fn arguments(endpoint: &Endpoint, pairs: &[(String, String)]) -> Result<Vec<String>, String> {
    let mut args: Vec<String> = endpoint.command.iter().map(|&w| w.to_owned()).collect();
    let mut positionals = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (name, val) in pairs {
        let Some(param) = endpoint.params.iter().find(|p| p.name == name) else {
            let allowed: Vec<&str> = endpoint.params.iter().map(|p| p.name).collect();
            return Err(format!(
                "unknown parameter `{}` for /api/{} (allowed: {})",
                short(name),
                endpoint.name,
                allowed.join(", ")
            ));
        };
        if !matches!(param.kind, ParamKind::List | ParamKind::Repeated)
            && seen.contains(&param.name)
        {
            return Err(format!("parameter `{name}` is given twice"));
        }
        seen.push(param.name);
        if val.chars().any(char::is_control) {
            return Err(format!("parameter `{name}` holds a control character"));
        }
        if let Some(choices) = param.choices
            && !choices.contains(&val.as_str())
        {
            return Err(format!("parameter `{name}` is one of {}", choices.join(", ")));
        }
        match param.kind {
            ParamKind::Flag => match val.as_str() {
                "" | "true" | "1" => args.push(format!("--{name}")),
                "false" | "0" => {}
                _ => {
                    return Err(format!(
                        "parameter `{name}` is true or false, not `{}`",
                        short(val)
                    ));
                }
            },
            ParamKind::Value | ParamKind::Repeated => args.push(format!("--{name}={val}")),
            ParamKind::List => {
                args.extend(val.split(',').map(|v| format!("--{name}={}", v.trim())));
            }
            ParamKind::Positional => positionals.push(val.clone()),
            ParamKind::Positionals => {
                positionals.extend(val.split(',').map(|v| v.trim().to_owned()));
            }
        }
    }
    if let Some(missing) = endpoint.params.iter().find(|p| p.required && !seen.contains(&p.name)) {
        let name = missing.name;
        return Err(match missing.choices {
            Some(c) => format!("parameter `{name}` is required (one of {})", c.join(", ")),
            None => format!("parameter `{name}` is required"),
        });
    }
    if let Some(action) = endpoint.action {
        args.push(action.to_owned());
    }
    if endpoint.json {
        // Right after the subcommand path, where every command takes it.
        let at = if endpoint.action.is_some() { args.len() } else { endpoint.command.len() };
        args.insert(at, "--json".into());
    }
    // Where the body goes: the command's input file, unless the query names the game.
    if !endpoint.input_unless.iter().any(|n| seen.contains(n)) {
        match endpoint.input {
            Input::Stdin => args.push("-".into()),
            Input::Flag(name) => args.push(format!("--{name}=-")),
            Input::None => {}
        }
    }
    if !positionals.is_empty() {
        args.push("--".into());
        args.extend(positionals);
    }
    Ok(args)
}

/// At most 40 characters of a bad token.
pub(crate) fn short(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

/// The message of a command's `error: …` line on stderr, with the indented lines that
/// continue it (a usage error lists the missing arguments on the next line), joined by
/// spaces; the usage and tips after a blank line are left out.
fn error_line(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let mut lines = text.lines().skip_while(|l| !l.starts_with("error: "));
    let mut message = lines.next()?["error: ".len()..].trim_end().to_owned();
    for more in lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()) {
        message.push(' ');
        message.push_str(more.trim());
    }
    Some(message)
}

async fn handle(
    State(api): State<Api>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let config = &*api.config;
    let Some(endpoint) = ENDPOINTS.iter().find(|e| e.name == name) else {
        return error(StatusCode::NOT_FOUND, &format!("no endpoint /api/{}", short(&name)));
    };
    let pairs: Vec<(String, String)> = match query_pairs(query.as_deref()) {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let args = match arguments(endpoint, &pairs) {
        Ok(a) => a,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "the request body is larger than {} bytes (start the server with a larger --max-body)",
                config.max_body
            ),
        )
    };
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse().ok());
    if declared.is_some_and(|n: u64| n > config.max_body as u64) {
        return too_large();
    }
    // A slot first, so that requests waiting for one hold no body.
    let Some(permit) = slot(&api).await else { return busy(config) };
    let body =
        match tokio::time::timeout(config.io_timeout, axum::body::to_bytes(body, config.max_body))
            .await
        {
            Ok(Ok(b)) => b,
            Ok(Err(e)) if is_length_limit(&e) => return too_large(),
            Ok(Err(_)) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "the request body was cut short or malformed",
                );
            }
            Err(_) => {
                return error(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the request body did not arrive within {} s",
                        config.io_timeout.as_secs_f64()
                    ),
                );
            }
        };
    run(config, endpoint, &args, body, permit).await
}

/// Whether reading a body failed at the size limit (and not because it was cut short).
fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// Decodes `a=1&b=2` into pairs, in order.
fn query_pairs(query: Option<&str>) -> Result<Vec<(String, String)>, String> {
    let Some(q) = query else { return Ok(Vec::new()) };
    let mut pairs = Vec::new();
    for part in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        pairs.push((decode(k)?, decode(v)?));
    }
    Ok(pairs)
}

/// Percent-decoding of one query component (`+` is a space).
fn decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                // Two hex digits exactly (`u8::from_str_radix` alone would take `+1`).
                let hex = bytes
                    .get(i + 1..i + 3)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok());
                out.push(byte.ok_or_else(|| format!("bad percent escape in `{}`", short(s)))?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("`{}` is not UTF-8", short(s)))
}

/// Reads at most `limit` bytes of `from`; `None` when there are more.
async fn read_capped(
    mut from: impl AsyncRead + Unpin,
    limit: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    let read = (&mut from).take(limit as u64 + 1).read_to_end(&mut out).await?;
    Ok((read <= limit).then_some(out))
}

/// What a solve ended with.
enum Ended {
    Exited(std::process::ExitStatus, Vec<u8>, Vec<u8>),
    OutputTooLarge,
}

/// Runs the command and turns its exit into a response; the answer holds `permit` until
/// it is sent.
async fn run(
    config: &Config,
    endpoint: &Endpoint,
    args: &[String],
    body: Bytes,
    permit: OwnedSemaphorePermit,
) -> Response {
    let mut command = tokio::process::Command::new(&config.exe);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("cannot start the solver: {e}"),
            );
        }
    };
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let feed = async move {
        if let Some(mut stdin) = stdin {
            // A command that does not read its input closes the pipe early: not an error.
            let _ = stdin.write_all(&body).await;
        }
    };
    let max_output = config.max_output;
    let collect = async move {
        let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
            return Err(std::io::Error::other("the solver's output is not a pipe"));
        };
        let (out, err) =
            tokio::join!(read_capped(stdout, max_output), read_capped(stderr, 1 << 16));
        let Some(out) = out? else { return Ok(Ended::OutputTooLarge) };
        let err = err?.unwrap_or_default();
        Ok(Ended::Exited(child.wait().await?, out, err))
    };
    let solve = async move { tokio::join!(feed, collect).1 };
    // On every early return the child is dropped, which kills it.
    let (status, stdout, stderr) = match tokio::time::timeout(config.time_limit, solve).await {
        Ok(Ok(Ended::Exited(status, out, err))) => (status, out, err),
        Ok(Ok(Ended::OutputTooLarge)) => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the answer is larger than {} bytes (start the server with a larger --max-output)",
                    config.max_output
                ),
            );
        }
        Ok(Err(e)) => {
            return error(StatusCode::INTERNAL_SERVER_ERROR, &format!("the solver failed: {e}"));
        }
        Err(_) => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "the solve passed the time limit of {} s (start the server with a larger --time-limit)",
                    config.time_limit.as_secs_f64()
                ),
            );
        }
    };
    let message = error_line(&stderr);
    let code = status.code();
    // `kernel --check` exits 1 for "not a kernel" with its JSON answer on stdout.
    let answered = code == Some(0) || (code == Some(1) && message.is_none());
    if answered {
        let kind = if endpoint.json { "application/json" } else { "text/plain; charset=utf-8" };
        let body = Body::new(Held { data: Bytes::from(stdout), permit: Some(permit) });
        return (StatusCode::OK, [(header::CONTENT_TYPE, kind)], body).into_response();
    }
    let message = message.unwrap_or_else(|| match code {
        Some(c) => format!("the solver failed with exit code {c}"),
        None => "the solver was stopped by a signal".to_owned(),
    });
    let status = match code {
        Some(2) => StatusCode::BAD_REQUEST,
        Some(3) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error(status, &message)
}

/// An answer sent in pieces of 64 KiB, holding its solve's slot until the last piece is
/// taken (and so until at most the connection's write buffer is left to send).
struct Held {
    data: Bytes,
    permit: Option<OwnedSemaphorePermit>,
}

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.data.is_empty() {
            self.permit = None;
            return Poll::Ready(None);
        }
        let n = self.data.len().min(1 << 16);
        let piece = self.data.split_to(n);
        Poll::Ready(Some(Ok(http_body::Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.data.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(name: &str, query: &str) -> Result<Vec<String>, String> {
        let e = ENDPOINTS.iter().find(|e| e.name == name).unwrap();
        // Every endpoint's arguments are data: no endpoint is special-cased by name.
        arguments(e, &query_pairs(Some(query))?)
    }

    #[test]
    fn query_parameters_become_flags_through_the_allow_list() {
        assert_eq!(
            args("retro", "all=true&start=4").unwrap(),
            ["retro", "--json", "--all", "--start=4", "-"]
        );
        assert_eq!(args("retro", "all=false").unwrap(), ["retro", "--json", "-"]);
        assert_eq!(
            args("nim", "heaps=5,7,9&max=2,3,4").unwrap(),
            ["nim", "--json", "--max=2", "--max=3", "--max=4", "--", "5", "7", "9"]
        );
        assert_eq!(args("nim", "misere=true").unwrap(), ["nim", "--json", "--misere", "--file=-"]);
        assert_eq!(
            args("octal", "code=-0.7&at=3&at=5").unwrap(),
            ["octal", "--json", "--at=3", "--at=5", "--", "-0.7"]
        );
        assert_eq!(
            args("tab", "rows=10&cols=4&board=1").unwrap(),
            ["tab", "--json", "--rows=10", "--cols=4", "--board"]
        );
        assert_eq!(
            args("kernel", "check=1+3%205").unwrap(),
            ["kernel", "--json", "--check=1 3 5", "-"]
        );
        let e = ENDPOINTS.iter().find(|e| e.name == "retro").unwrap();
        assert_eq!(arguments(e, &[]).unwrap(), ["retro", "--json", "-"]);
        assert_eq!(query_pairs(Some("start=%+1")).unwrap_err(), "bad percent escape in `%+1`");
        assert_eq!(
            args("play", "heaps=5,7&move=2+1").unwrap(),
            ["play", "--json", "--heaps=5,7", "--move=2 1"]
        );
        assert_eq!(args("convert", "to=dot").unwrap(), ["convert", "--to=dot", "-"]);
    }

    #[test]
    fn flags_outside_the_list_are_refused() {
        for (name, q) in [
            ("retro", "dot=x.dot"),
            ("retro", "output=x"),
            ("kernel", "o=x"),
            ("retro", "all=yes"),
            ("retro", "start=1&start=2"),
            ("convert", "to=binary"),
            ("octal", ""),
            ("convert", ""),
            ("retro", "start=%zz"),
            ("retro", "start=%+1"),
            ("retro", "start=%-1"),
        ] {
            assert!(args(name, q).is_err(), "{name}?{q}");
        }
    }

    #[test]
    fn the_error_line_loses_its_prefix() {
        let stderr = b"error: <stdin>:2:3: bad token\n\nUsage: x\n";
        assert_eq!(error_line(stderr).as_deref(), Some("<stdin>:2:3: bad token"));
        assert_eq!(error_line(b"thread panicked\n"), None);
        let clap = b"error: the following required arguments were not provided:\n  <FILE|--tab \
                     <N,M,X,Y>>\n\nUsage: gamegraph play <FILE>\n\nFor more information\n";
        assert_eq!(
            error_line(clap).as_deref(),
            Some("the following required arguments were not provided: <FILE|--tab <N,M,X,Y>>")
        );
        let tip = b"error: unexpected argument '--x' found\n\n  tip: use '-- --x'\n\nUsage: y\n";
        assert_eq!(error_line(tip).as_deref(), Some("unexpected argument '--x' found"));
    }
}
