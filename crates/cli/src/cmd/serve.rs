//! `gamegraph serve`: the local web page and its HTTP API.

use std::net::TcpListener;
use std::process::ExitCode;
use std::time::Duration;

use crate::common::CliError;

/// Arguments of `gamegraph serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "The page has a view per game family (graph game, tab board, heaps, \
kernels, octal and subtraction games); everything it needs is inside the binary. The API: \
`POST /api/<command>` with the command's input as the body and its flags as query parameters \
answers exactly the JSON of `gamegraph <command> --json`; see docs/web.md.

Examples:
  gamegraph serve                          # http://127.0.0.1:8080
  gamegraph serve --port 0 --open          # a free port, opened in the browser
  curl --data-binary @game.txt 'http://127.0.0.1:8080/api/retro?all=true'")]
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
}

/// Runs `gamegraph serve` until the process is stopped.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let time_limit =
        Duration::try_from_secs_f64(args.time_limit).ok().filter(|d| !d.is_zero()).ok_or_else(
            || CliError::Usage("--time-limit must be a positive number of seconds".into()),
        )?;
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::Error::new(e).context("cannot find the gamegraph executable"))?;
    let listener = TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
        anyhow::Error::new(e).context(format!("cannot listen on {}:{}", args.host, args.port))
    })?;
    let url = format!("http://{}", listener.local_addr()?);
    #[allow(clippy::print_stderr)]
    {
        eprintln!("listening on {url}");
    }
    if args.open {
        open_browser(&url);
    }
    let config = gamegraph_web::Config { exe, max_body: args.max_body, time_limit };
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
        #[allow(clippy::print_stderr)]
        {
            eprintln!("note: cannot start {opener}; open {url} in a browser");
        }
    }
}
