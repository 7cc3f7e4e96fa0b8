//! The local web page and HTTP API of gamegraph (`gamegraph serve`).
//!
//! [`serve`] answers on a listening socket with one page (a view per game family, its
//! scripts embedded in the binary) and one `POST /api/<command>` endpoint per solver. An
//! endpoint runs the `gamegraph` executable named by [`Config::exe`] as a child process:
//! the request body is the command's standard input, the query parameters become the
//! command's flags through a fixed list per endpoint ([`endpoints`]), and the response is
//! the exact JSON the command prints with `--json`. A child that passes
//! [`Config::time_limit`] is killed (503); a body over [`Config::max_body`] is refused
//! (413); a command's `error: …` line becomes a 400 `{"error": "…"}`. Running each solve
//! in its own process keeps the async threads free, makes the time limit enforceable and
//! keeps the server up whatever the input.
//!
//! ```no_run
//! use std::time::Duration;
//! let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
//! let config = gamegraph_web::Config {
//!     exe: "gamegraph".into(),
//!     max_body: 16 << 20,
//!     time_limit: Duration::from_secs(10),
//! };
//! gamegraph_web::serve(listener, config)?; // runs until the process ends
//! # Ok::<(), std::io::Error>(())
//! ```

mod api;
mod assets;

pub use api::{Endpoint, Param, ParamKind, endpoints};

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
}

/// The server's routes: the page, its assets and the API.
pub fn router(config: Config) -> axum::Router {
    let config = Arc::new(config);
    assets::routes().merge(api::routes(config))
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
        axum::serve(listener, router(config)).await
    })
}
