//! The local web page and HTTP API of gamegraph (`gamegraph serve`).
//!
//! [`serve`] answers on a listening socket with one page (a view per game family, its
//! scripts embedded in the binary) and one `POST /api/<command>` endpoint per solver. An
//! endpoint runs the `gamegraph` executable named by [`Config::exe`] as a child process:
//! the request body is the command's standard input, the query parameters become the
//! command's flags through a fixed list per endpoint ([`endpoints`]), and the response is
//! the exact JSON the command prints with `--json`. Running each solve in its own process
//! keeps the async threads free, makes the time limit enforceable and keeps the server up
//! whatever the input.
//!
//! Every error is a JSON body `{"error": "…"}`. The server is bounded whatever its clients
//! do:
//!
//! - a body over [`Config::max_body`] is refused (413), up front when its `Content-Length`
//!   says so; a body that does not arrive within [`Config::io_timeout`] gets 408;
//! - at most [`Config::max_solves`] solves run at once; a request that finds them all busy
//!   waits up to the time limit for one, then gets 503;
//! - an answer over [`Config::max_output`] stops its solve (503), and a solve that passes
//!   [`Config::time_limit`] is killed (503); a command's `error: …` line becomes a 400;
//! - a solve's slot is held until its answer is sent, so answers that clients do not read
//!   take no more than `max_solves × (max_body + max_output)` bytes; a client that stops
//!   reading, or sends its headers slowly, is disconnected after `io_timeout`;
//! - at most [`Config::max_connections`] connections are open at once (more wait to be
//!   accepted);
//! - a request whose `Host` is neither an IP address nor `localhost` (nor in
//!   [`Config::allowed_hosts`]) is refused (403), so that a web page elsewhere cannot reach
//!   the server through a DNS name of its own; an API request whose `Origin` is not the
//!   page's own (nor in [`Config::allowed_origins`]) is refused (403).
//!
//! ```no_run
//! let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
//! let config = gamegraph_web::Config::new("gamegraph".into());
//! gamegraph_web::serve(listener, config)?; // runs until the process ends
//! # Ok::<(), std::io::Error>(())
//! ```

mod api;
mod assets;
mod conn;
mod guard;

pub use api::{Endpoint, Input, Param, ParamKind, endpoints};

use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The `gamegraph` executable that answers the API (usually the running one).
    pub exe: PathBuf,
    /// The largest request body accepted, in bytes (larger: 413).
    pub max_body: usize,
    /// How long one solve may run before it is killed (then: 503).
    pub time_limit: Duration,
    /// How many solves may run at once.
    pub max_solves: usize,
    /// The largest answer of one solve, in bytes (larger: 503).
    pub max_output: usize,
    /// How many connections may be open at once.
    pub max_connections: usize,
    /// How long a client may take to send its headers or its body, or to read more of an
    /// answer.
    pub io_timeout: Duration,
    /// Host names accepted in the `Host` header besides IP addresses and `localhost`.
    pub allowed_hosts: Vec<String>,
    /// Origins (`scheme://host[:port]`) allowed to call the API from another page; `*`
    /// allows every origin.
    pub allowed_origins: Vec<String>,
    /// Where `/api/play-game` keeps the values of the games it solves, a directory of tiers
    /// per game; `None`: a directory of the system's temporary directory named for the
    /// process.
    pub cache: Option<PathBuf>,
    /// Games `/api/play-game` answers from values solved before, never solving them: each
    /// game's registry words (`connect-four --cols 6 --rows 5`) and its directory of tiers
    /// or values file. The page opens on the first.
    pub results: Vec<(String, PathBuf)>,
}

impl Config {
    /// The defaults: bodies of 16 MiB, solves of 10 s, two solves at once (or one per
    /// core, if more), answers of 64 MiB, 256 connections, 30 s for a client's I/O, no
    /// other host or origin.
    pub fn new(exe: PathBuf) -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            exe,
            max_body: 16 << 20,
            time_limit: Duration::from_secs(10),
            max_solves: cores.max(2),
            max_output: 64 << 20,
            max_connections: 256,
            io_timeout: Duration::from_secs(30),
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            cache: None,
            results: Vec::new(),
        }
    }
}

/// The server's routes: the page, its assets and the API, behind the Host and Origin
/// checks, with JSON errors for unknown paths and methods.
pub fn router(config: Config) -> axum::Router {
    let config = Arc::new(config);
    guard::layer(assets::routes().merge(api::routes(config.clone())), config)
}

/// Serves [`router`] on `listener` until the process ends.
///
/// # Errors
/// When the listener cannot be handed to the async runtime or the runtime cannot start.
pub fn serve(listener: std::net::TcpListener, config: Config) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let limits =
            conn::Limits { max_connections: config.max_connections, io_timeout: config.io_timeout };
        conn::accept_loop(listener, router(config), limits).await
    })
}
