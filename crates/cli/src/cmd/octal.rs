//! `gamegraph octal`: Grundy sequences and proven periods of octal games.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use gamegraph_graph::{Limit, quote};
use gamegraph_grundy::octal::{self, Algorithm, Analysis, Config, OctalCode, Theorem};
use serde::Serialize;

use crate::common::{CliError, Output, progress};

/// Arguments of `gamegraph octal`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  gamegraph octal 0.77 --upto 20                 # g(0) ... g(20) of Kayles
  gamegraph octal 0.77 --upto 100 --period       # with its proven pre-period and period
  gamegraph octal 0.07 --at 1000000000000000000  # one value of a huge heap (needs a period)
  gamegraph octal 0.6 --upto 1000000 --period    # no period known: says none was proven
  gamegraph octal 4.07 --period --json

Codes: d0.d1d2...dt with octal digits; d_j (j >= 1) says what may remain after taking j
objects: 1 = nothing, 2 = one heap, 4 = two heaps (added up); d0 is 0 or 4 (4: a heap may
be split in two without taking anything). The leading 0 may be left out: .07 is 0.07.

Periods are reported only when proven by Guy and Smith's theorem: the computation stops
as soon as one is proven, and values past the computed ones follow from it.

Limits: at most --limit values are computed (default 1000000) for --period and --at, and
a run gives up after --time-limit seconds (default 60). Reaching the time limit, or asking
--at for a value past --limit when no period is proven, ends with exit code 3.")]
pub(crate) struct Args {
    /// The octal code, such as 0.77 (Kayles), .07 (Dawson's Kayles) or 4.07.
    #[arg(value_name = "CODE")]
    code: String,
    #[command(flatten)]
    common: SequenceArgs,
    /// How the values are computed: `sparse` (rare/common method) or `plain` (the quadratic
    /// definition, for comparison).
    #[arg(long, value_enum, default_value_t = MethodArg::Sparse)]
    method: MethodArg,
}

/// What `octal` and `subtraction` share.
#[derive(Debug, clap::Args)]
pub(crate) struct SequenceArgs {
    /// Print g(0) ... g(N) on one line, separated by spaces.
    #[arg(long, value_name = "N")]
    upto: Option<u64>,
    /// Print the pre-period and the smallest period with their certificate, or say that no
    /// period was proven within the values computed.
    #[arg(long)]
    period: bool,
    /// Print `g(N) = v` for a heap of N (any N below 2^64 once a period is proven). Repeatable.
    #[arg(long, value_name = "N")]
    at: Vec<u64>,
    /// The most values computed when looking for a period (for --period and --at); never
    /// fewer than --upto needs.
    #[arg(long, value_name = "L", default_value_t = 1_000_000)]
    limit: u64,
    /// Give up after this many seconds with exit code 3 (the clock starts once the
    /// arguments are read).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
    /// Compute every value up to the bound even after a period is proven.
    #[arg(long)]
    full: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum MethodArg {
    Sparse,
    Plain,
}

impl SequenceArgs {
    /// The library configuration these arguments ask for.
    pub(crate) fn config(&self, algorithm: Algorithm) -> Result<Config, CliError> {
        if self.upto.is_none() && !self.period && self.at.is_empty() {
            return Err(CliError::Usage("nothing to do: give --upto N, --period or --at N".into()));
        }
        let needed = self.upto.map_or(0, |u| u.saturating_add(1));
        let wanted =
            if self.period || !self.at.is_empty() { needed.max(self.limit) } else { needed };
        let limit = usize::try_from(wanted).ok().filter(|&l| u32::try_from(l).is_ok()).ok_or_else(
            || {
                CliError::Usage(format!(
                    "cannot compute {wanted} values (at most {}); a proven period gives larger \
                     heaps with --at",
                    u32::MAX
                ))
            },
        )?;
        let deadline = crate::common::deadline_after(self.time_limit)?;
        Ok(Config { limit, stop_at_period: !self.full, algorithm, deadline, ..Config::default() })
    }

    /// The command-line error for a failure of the computation or of a value asked for.
    fn error(&self, e: octal::SequenceError) -> CliError {
        match e {
            octal::SequenceError::Limit { limit: Limit::Time, computed } => CliError::limit(
                Limit::Time,
                format_args!(
                    "time limit of {} s reached after computing {computed} values; raise it \
                     with --time-limit",
                    self.time_limit
                ),
            ),
            e @ octal::SequenceError::Limit { limit, .. } => CliError::limit(limit, e),
            octal::SequenceError::NotComputed { heap, computed } => CliError::bound(format_args!(
                "g({heap}) is unknown: no period was proven within the {computed} values \
                 computed; raise --limit"
            )),
            e => CliError::Usage(e.to_string()),
        }
    }

    /// Runs the analysis with a progress bar on a terminal.
    pub(crate) fn analyse(
        &self,
        config: &Config,
        f: impl FnOnce(&Config, &mut dyn FnMut(usize)) -> Result<Analysis, octal::SequenceError>,
    ) -> Result<Analysis, CliError> {
        let bar = progress(Some(config.limit as u64), "grundy values");
        let mut tick = |k: usize| {
            if let Some(bar) = &bar {
                bar.set_position(k as u64);
            }
        };
        let result = f(config, &mut tick);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        result.map_err(|e| self.error(e))
    }

    /// Prints the analysis as text or JSON.
    ///
    /// Writing counts against the time limit too: `--upto` may ask for billions of values
    /// (a proven period gives them all), which take longer to write than to compute.
    pub(crate) fn print(&self, analysis: &Analysis, config: &Config) -> Result<ExitCode, CliError> {
        let report = gamegraph_grundy::render::sequence(analysis, self.upto, self.period, &self.at)
            .map_err(|e| self.error(e))?;
        let mut out = Output::create(self.output.as_deref())?;
        let mut timed =
            Timed { inner: &mut out, deadline: config.deadline, written: 0, expired: false };
        let result = if self.json {
            crate::common::write_json(&mut timed, &JsonReport::new(analysis, self)?)
        } else {
            write!(timed, "{report}").map_err(CliError::from)
        };
        if timed.expired {
            return Err(CliError::bound(format_args!(
                "time limit of {} s reached while writing the values; raise it with --time-limit",
                self.time_limit
            )));
        }
        result?;
        out.finish()?;
        Ok(ExitCode::SUCCESS)
    }
}

/// A writer that fails once the deadline has passed, reading the clock every 64 KiB.
struct Timed<'a, W: Write> {
    inner: &'a mut W,
    deadline: Option<Instant>,
    written: usize,
    expired: bool,
}

impl<W: Write> Write for Timed<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.written += buf.len();
        if self.written >= 1 << 16 {
            self.written = 0;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.expired = true;
                return Err(std::io::Error::other("time limit reached"));
            }
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// `g(0) … g(upto)` serialised one by one (a billion values need no billion-entry vector).
#[derive(Debug)]
struct JsonValues<'a> {
    analysis: &'a Analysis,
    upto: u64,
}

impl Serialize for JsonValues<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let len = usize::try_from(self.upto).ok().and_then(|u| u.checked_add(1));
        let mut seq = s.serialize_seq(len)?;
        for n in 0..=self.upto {
            let v = self.analysis.value(n).map_err(S::Error::custom)?;
            seq.serialize_element(&v.0)?;
        }
        seq.end()
    }
}

#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    game: String,
    computed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<JsonValues<'a>>,
    period: Option<JsonPeriod>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    at: Vec<JsonValue>,
}

#[derive(Debug, Serialize)]
struct JsonPeriod {
    preperiod: usize,
    period: usize,
    theorem: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    largest_removal: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    window: Option<usize>,
    checked_from: usize,
    checked_to: usize,
    values_needed: usize,
}

#[derive(Debug, Serialize)]
struct JsonValue {
    n: u64,
    value: u64,
}

impl JsonReport<'_> {
    fn new<'a>(a: &'a Analysis, args: &SequenceArgs) -> Result<JsonReport<'a>, CliError> {
        let value = |n: u64| a.value(n).map(|v| v.0).map_err(|e| args.error(e));
        // Every value up to `upto` is known: `render::sequence` checked the largest.
        let values = args.upto.map(|upto| JsonValues { analysis: a, upto });
        let at = args
            .at
            .iter()
            .map(|&n| Ok(JsonValue { n, value: value(n)? }))
            .collect::<Result<Vec<_>, CliError>>()?;
        let period = a.period().map(|p| {
            let c = &p.certificate;
            let (theorem, largest_removal, window) = match c.theorem {
                Theorem::GuySmith { largest_removal } => ("guy-smith", Some(largest_removal), None),
                Theorem::SubtractionWindow { window } => ("subtraction-window", None, Some(window)),
                _ => ("other", None, None),
            };
            JsonPeriod {
                preperiod: p.preperiod,
                period: p.period,
                theorem,
                largest_removal,
                window,
                checked_from: c.checked_from,
                checked_to: c.checked_to,
                values_needed: c.values_needed(),
            }
        });
        Ok(JsonReport { game: a.game().to_owned(), computed: a.computed(), values, period, at })
    }
}

/// Runs `gamegraph octal`.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let code: OctalCode = args
        .code
        .parse()
        .map_err(|e| CliError::Usage(format!("invalid octal code {}: {e}", quote(&args.code))))?;
    let algorithm = match args.method {
        MethodArg::Sparse => Algorithm::Sparse,
        MethodArg::Plain => Algorithm::Plain,
    };
    let config = args.common.config(algorithm)?;
    let analysis = args.common.analyse(&config, |c, p| octal::analyse_octal(&code, c, p))?;
    args.common.print(&analysis, &config)
}
