//! `gamegraph serve`: the local web page and its HTTP API.

use std::net::TcpListener;
use std::process::ExitCode;
use std::time::Duration;

use crate::common::CliError;

/// Arguments of `gamegraph serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "The page has a view per game family (graph game, tab board, heaps, \
kernels, octal and subtraction games, and every game of `gamegraph game list` against the \
engine); everything it needs is inside the binary. The API: \
`POST /api/<command>` with the command's input as the body and its flags as query parameters \
answers exactly the JSON of `gamegraph <command> --json`; see docs/web.md.

Examples:
  gamegraph serve                          # http://127.0.0.1:8080
  gamegraph serve --port 0 --open          # a free port, opened in the browser
  gamegraph game connect-four --cols 6 --rows 5 solve -o c4-6x5
  gamegraph serve --results c4-6x5 --open  # play it on the page, a lookup a move
  curl --data-binary @game.txt 'http://127.0.0.1:8080/api/retro?all=true'
  curl -X POST 'http://127.0.0.1:8080/api/play-game?game=connect-four+--cols+5+--rows+4&move=3'")]
pub(crate) struct Args {
    /// The address to listen on (only this machine by default).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port, printed on stderr).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The largest request body accepted, in bytes (larger: 413).
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    max_body: usize,
    /// Stop a solve after SECS seconds (then: 503).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    time_limit: f64,
    /// How many solves may run at once; more wait up to the time limit, then get 503
    /// [default: the number of cores, at least 2].
    #[arg(long, value_name = "N")]
    max_solves: Option<usize>,
    /// The largest answer of one solve, in bytes (larger: 503).
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    max_output: usize,
    /// How many connections may be open at once.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_connections: usize,
    /// Seconds a client may take to send its headers or body, or to read more of an answer.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    io_timeout: f64,
    /// Accept this host name in the Host header, besides IP addresses and localhost (for a
    /// server reached by a DNS name); may be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// Let pages from ORIGIN (scheme://host[:port], or * for any) call the API; may be
    /// repeated. Other pages' requests are refused.
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Keep the values of the games the page plays in DIR: a directory of tiers per game,
    /// named by the game's words with `_` for the spaces (DIR/connect-four_--cols_6_--rows_5),
    /// solved by the first request for the game unless `game … solve -o` put it there
    /// before, and kept between runs [default: a directory of the system's temporary
    /// directory, for this run].
    #[arg(long, value_name = "DIR")]
    cache: Option<std::path::PathBuf>,
    /// Play a game on the page from the values `gamegraph game … solve -o PATH` wrote (a
    /// directory of tiers, or a values file with --explicit), never solving it: the page
    /// opens on its games view with the game. Repeat it for several games.
    #[arg(long, value_name = "PATH")]
    results: Vec<std::path::PathBuf>,
}

/// `secs` as a positive duration, or the usage error for `flag`.
fn seconds(secs: f64, flag: &str) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| CliError::Usage(format!("{flag} must be a positive number of seconds")))
}

/// Runs `gamegraph serve` until the process is stopped.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let time_limit = seconds(args.time_limit, "--time-limit")?;
    let io_timeout = seconds(args.io_timeout, "--io-timeout")?;
    if args.max_solves == Some(0) || args.max_connections == 0 {
        return Err(CliError::Usage("--max-solves and --max-connections are at least 1".into()));
    }
    let mut results = Vec::new();
    for path in &args.results {
        let spec = gamegraph_play::engine::game_at(path).map_err(|e| {
            CliError::input(&path.display().to_string(), None, format!("--results: {e}"))
        })?;
        results.push((spec.to_string(), path.clone()));
    }
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::Error::new(e).context("cannot find the gamegraph executable"))?;
    let listener = TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
        anyhow::Error::new(e).context(format!("cannot listen on {}:{}", args.host, args.port))
    })?;
    let url = format!("http://{}", listener.local_addr()?);
    {
        eprintln!("listening on {url}");
    }
    if args.open {
        open_browser(&if results.is_empty() { url } else { format!("{url}/#games") });
    }
    let defaults = gamegraph_web::Config::new(exe);
    let max_solves = args.max_solves.unwrap_or(defaults.max_solves);
    let config = gamegraph_web::Config {
        max_body: args.max_body,
        time_limit,
        max_solves,
        max_output: args.max_output,
        max_connections: args.max_connections,
        io_timeout,
        allowed_hosts: args.allow_host,
        allowed_origins: args.allow_origin,
        cache: args.cache,
        results,
        ..defaults
    };
    gamegraph_web::serve(listener, config)?;
    Ok(ExitCode::SUCCESS)
}

/// Asks the desktop to open `url`; a machine without one only gets a note.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        {
            eprintln!("note: cannot start {opener}; open {url} in a browser");
        }
    }
}
