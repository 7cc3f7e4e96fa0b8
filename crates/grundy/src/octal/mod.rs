//! Subtraction and octal games: Grundy sequences, proven periods, values of huge heaps.
//!
//! A heap game is played on one heap of `n` objects (sums of heaps add Grundy values
//! by the digit sum). Its *Grundy sequence* is `g(0), g(1), …` with `g(n)` the mex of the
//! values of the positions one move leaves; a position of several heaps is worth the digit
//! sum of its heaps.
//!
//! - [`OctalCode`]: octal games `d₀.d₁d₂…` (Kayles `0.77`, Dawson's Kayles `0.07`, `4.07`).
//! - [`SubtractionSet`]: subtraction games, a move takes `s ∈ S` objects, in normal or
//!   [`Play::Misere`] play.
//! - [`analyse_octal`] and [`analyse_subtraction`] compute the sequence and look for a
//!   period, stopping as soon as one is *proven* ([`Theorem`]); the [`Analysis`] then answers
//!   `g(n)` for any `n < 2⁶⁴` in constant time.
//!
//! Indexing: `g(n)` is the value of a heap of exactly `n` objects, `g(0) = 0` (normal play);
//! the pre-period `P` is the least `n₀` with `g(n + Q) = g(n)` for all `n ≥ n₀`, so the last
//! exceptional value is `g(P − 1)`. Kayles `0.77` has `P = 71` (last exception `g(70)`) and
//! `Q = 12`; Dawson's Kayles `0.07` has `P = 53` (last exception `g(52)`) and `Q = 34`.
//!
//! Misère subtraction games: the sequence is the *misère Grundy value* `g⁻(n)` of a single
//! heap (Conway's `G⁻`): `g⁻(n) = 1` when no move is possible, otherwise the mex of the
//! `g⁻(n − s)`. A heap of `n` is lost by the player to move in misère play exactly when
//! `g⁻(n) = 0`. (Misère values do not add by the digit sum; they answer single heaps.)
//!
//! ```
//! use gamegraph_grundy::Nimber;
//! use gamegraph_grundy::octal::{analyse_octal, Config, OctalCode};
//!
//! let kayles: OctalCode = "0.77".parse()?;
//! let analysis = analyse_octal(&kayles, &Config::default(), &mut |_| {})?;
//! let period = analysis.period().expect("Kayles is periodic");
//! assert_eq!((period.preperiod, period.period), (71, 12));
//! assert!(period.certificate.verify(analysis.prefix()));
//! assert_eq!(analysis.value(1_000_000_000_000_000_000)?, Nimber(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod code;
mod error;
mod period;
mod sequence;
mod sparse;
mod verify;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use gamegraph_graph::Limit;

pub use self::code::{MAX_CODE_DIGITS, MAX_SUBTRACTION, OctalCode, SubtractionSet};
pub use self::error::{CodeError, SequenceError, SetError};
pub use self::period::{Certificate, Period, Theorem};
pub use self::sparse::SparseConfig;
pub use self::verify::{
    ClaimError, MAX_CHECK_VALUES, PeriodCheck, PeriodClaim, Rules, verify_period,
    verify_period_until,
};

use self::sequence::{Engine, Plain, Subtraction};
use self::sparse::Sparse;
use crate::Nimber;
/// Normal or misère play of a subtraction game (the crate's one [`Play`]).
pub use crate::Play;

/// How an octal sequence is computed. Both give the same values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// The rare/common ("sparse space") method: about O(|sparse|) per heap.
    #[default]
    Sparse,
    /// The plain definition: every option of every heap, O(n) per heap, O(N²) in all.
    Plain,
}

/// What to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The most values `g(0) … g(limit − 1)` to compute. Default 1 000 000.
    pub limit: usize,
    /// Stop as soon as a period is proven (the rest of the sequence follows from it).
    /// When `false`, all `limit` values are computed and the period is still reported.
    /// Default `true`.
    pub stop_at_period: bool,
    /// How octal sequences are computed (subtraction games ignore it). Default sparse.
    pub algorithm: Algorithm,
    /// Tuning of the sparse method.
    pub sparse: SparseConfig,
    /// Give up with [`SequenceError::Limit`] ([`Limit::Time`]) once this instant has
    /// passed. Default `None`: no deadline. The clock is read after every [`CLOCK_WORK`] units of work (a
    /// unit is one option of one heap, or one value of a period check), so the deadline
    /// holds to within that much work however slowly single values come.
    pub deadline: Option<Instant>,
}

/// How many units of work (options looked at) pass between two readings of the clock
/// when [`Config::deadline`] is set: about a millisecond.
pub const CLOCK_WORK: u64 = 1 << 20;

impl Default for Config {
    fn default() -> Self {
        Config {
            limit: 1_000_000,
            stop_at_period: true,
            algorithm: Algorithm::Sparse,
            sparse: SparseConfig::default(),
            deadline: None,
        }
    }
}

/// A computed prefix of a Grundy sequence and, when proven, its period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    game: String,
    values: Vec<u16>,
    period: Option<Period>,
}

impl Analysis {
    /// The game, in normal form (`0.77`, `1,3,4`, `1,3,4 misere`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The computed values `g(0) … g(k − 1)` in compact storage.
    pub fn prefix(&self) -> &[u16] {
        &self.values
    }

    /// How many values were computed (`k`): the bound reached.
    pub fn computed(&self) -> usize {
        self.values.len()
    }

    /// The proven period, if one was proven within the values computed.
    pub fn period(&self) -> Option<&Period> {
        self.period.as_ref()
    }

    /// `g(n)`: from the computed prefix, or from the proven period for larger `n`.
    ///
    /// # Errors
    /// [`SequenceError::NotComputed`] when `n` is past the prefix and no period is proven.
    ///
    /// # Complexity
    /// O(1).
    pub fn value(&self, n: u64) -> Result<Nimber, SequenceError> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Ok(Nimber(u64::from(v)));
        }
        let Some(p) = &self.period else {
            return Err(SequenceError::NotComputed { heap: n, computed: self.values.len() });
        };
        let (pre, q) = (p.preperiod as u64, p.period as u64);
        let i = pre + (n - pre) % q;
        Ok(Nimber(u64::from(self.values[i as usize])))
    }
}

/// Computes the Grundy sequence of an octal game and looks for a proven period.
///
/// Arguments: the game, what to compute ([`Config`]: the most values, whether to stop at a
/// proven period, the algorithm), and `progress`, called now and then with the number of
/// values computed so far (for a progress bar).
///
/// Returns the computed prefix `g(0) … g(k − 1)` (`k ≤ config.limit`) and the least
/// pre-period and smallest period when Guy and Smith's theorem proves one within it
/// ([`Theorem::GuySmith`]). With `stop_at_period`, the computation stops at the first
/// check after the period is proven (checks happen every `max(32, k/8)` values).
///
/// # Errors
/// [`SequenceError::ValueTooLarge`] if a value exceeds 65535 (the compact storage);
/// [`SequenceError::TooManyValues`] if `config.limit` values do not fit in memory;
/// [`SequenceError::Limit`] ([`Limit::Time`]) once `config.deadline` has passed.
///
/// # Complexity
/// Plain method: O(k²·s) time for `s` split digits. Sparse method: O(k·(|R|·s + c)) time
/// where `R` is the sparse set and `c` the cost of confirming the common values below the
/// candidate (small in practice), plus O(n) for each heap that joins the sparse set. Period
/// checks add O(k) amortised. Space: 2 bytes per value; the sparse method adds a mirrored
/// copy of the sequence, forwards and reversed (1 byte per value and copy while every
/// value is below 256, 2 bytes after; the reversed copy grows by doubling), 6 bytes per
/// sparse heap and O(max value) tables.
///
/// Reference: E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*, ch. 4 (octal games,
/// the periodicity theorem, "Sparse Space Spells Speed").
///
/// ```
/// use gamegraph_grundy::octal::{analyse_octal, Config, OctalCode};
///
/// let dawson: OctalCode = "0.07".parse()?;
/// let a = analyse_octal(&dawson, &Config::default(), &mut |_| {})?;
/// let p = a.period().unwrap();
/// assert_eq!((p.preperiod, p.period), (53, 34));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyse_octal(
    code: &OctalCode,
    config: &Config,
    progress: &mut dyn FnMut(usize),
) -> Result<Analysis, SequenceError> {
    octal_with_stop(code, config, progress, None)
}

/// [`analyse_octal`] that also gives up, with [`Limit::Stop`], once `stop` is
/// set (by another thread: a Ctrl-C handler, a cancel button). The flag is read as often
/// as the clock of [`Config::deadline`].
///
/// # Errors
/// As [`analyse_octal`], and [`SequenceError::Limit`] ([`Limit::Stop`]).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use gamegraph_graph::Limit;
/// use gamegraph_grundy::octal::{analyse_octal_until, Config, OctalCode, SequenceError};
///
/// let kayles: OctalCode = "0.77".parse()?;
/// let go_on = AtomicBool::new(false);
/// let a = analyse_octal_until(&kayles, &Config::default(), &mut |_| {}, &go_on)?;
/// assert_eq!(a.period().map(|p| p.period), Some(12));
/// let stop = AtomicBool::new(true);
/// let e = analyse_octal_until(&kayles, &Config::default(), &mut |_| {}, &stop);
/// assert!(matches!(e, Err(SequenceError::Limit { limit: Limit::Stop, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyse_octal_until(
    code: &OctalCode,
    config: &Config,
    progress: &mut dyn FnMut(usize),
    stop: &AtomicBool,
) -> Result<Analysis, SequenceError> {
    octal_with_stop(code, config, progress, Some(stop))
}

fn octal_with_stop(
    code: &OctalCode,
    config: &Config,
    progress: &mut dyn FnMut(usize),
    stop: Option<&AtomicBool>,
) -> Result<Analysis, SequenceError> {
    let theorem = Theorem::GuySmith { largest_removal: code.largest_removal() };
    let (values, period) = match config.algorithm {
        Algorithm::Sparse => {
            drive(Sparse::new(code, config.sparse), theorem, config, progress, stop)?
        }
        Algorithm::Plain => drive(Plain::new(code), theorem, config, progress, stop)?,
    };
    Ok(Analysis { game: code.to_string(), values, period })
}

/// Computes the Grundy sequence of a subtraction game (normal play) or its misère Grundy
/// values (see the module docs), and looks for a proven period.
///
/// Arguments and results as for [`analyse_octal`]; the proof is the window of `max S`
/// values ([`Theorem::SubtractionWindow`]), and every subtraction game has one eventually.
///
/// # Errors
/// [`SequenceError::ValueTooLarge`] if a value exceeds 65535 (needs more than 65535
/// elements in `S`); [`SequenceError::TooManyValues`] and [`SequenceError::Limit`] as
/// for [`analyse_octal`].
///
/// # Complexity
/// O(k·|S|) time for `k` values, 2 bytes per value.
///
/// ```
/// use gamegraph_grundy::octal::{analyse_subtraction, Config, Play, SubtractionSet};
///
/// let s: SubtractionSet = "1,3,4".parse()?;
/// let a = analyse_subtraction(&s, Play::Normal, &Config::default(), &mut |_| {})?;
/// let p = a.period().unwrap();
/// assert_eq!((p.preperiod, p.period), (0, 7));
/// assert_eq!(a.prefix()[..7], [0, 1, 0, 1, 2, 3, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyse_subtraction(
    set: &SubtractionSet,
    play: Play,
    config: &Config,
    progress: &mut dyn FnMut(usize),
) -> Result<Analysis, SequenceError> {
    subtraction_with_stop(set, play, config, progress, None)
}

/// [`analyse_subtraction`] that also gives up, with [`Limit::Stop`], once
/// `stop` is set, as [`analyse_octal_until`] does.
///
/// # Errors
/// As [`analyse_subtraction`], and [`SequenceError::Limit`] ([`Limit::Stop`]).
pub fn analyse_subtraction_until(
    set: &SubtractionSet,
    play: Play,
    config: &Config,
    progress: &mut dyn FnMut(usize),
    stop: &AtomicBool,
) -> Result<Analysis, SequenceError> {
    subtraction_with_stop(set, play, config, progress, Some(stop))
}

fn subtraction_with_stop(
    set: &SubtractionSet,
    play: Play,
    config: &Config,
    progress: &mut dyn FnMut(usize),
    stop: Option<&AtomicBool>,
) -> Result<Analysis, SequenceError> {
    let window = usize::try_from(set.max()).unwrap_or(usize::MAX);
    let theorem = Theorem::SubtractionWindow { window };
    let (values, period) = drive(Subtraction::new(set, play), theorem, config, progress, stop)?;
    let game = match play {
        Play::Normal => set.to_string(),
        Play::Misere => format!("{set} misere"),
    };
    Ok(Analysis { game, values, period })
}

/// Runs an engine up to the limit, checking for a proven period now and then, and the
/// clock and the stop flag after every [`CLOCK_WORK`] units of work.
fn drive(
    mut engine: impl Engine,
    theorem: Theorem,
    config: &Config,
    progress: &mut dyn FnMut(usize),
    stop: Option<&AtomicBool>,
) -> Result<(Vec<u16>, Option<Period>), SequenceError> {
    let limit = config.limit;
    if u32::try_from(limit).is_err() {
        return Err(SequenceError::TooManyValues { requested: limit as u64 });
    }
    let mut values: Vec<u16> = Vec::new();
    values
        .try_reserve_exact(limit)
        .map_err(|_| SequenceError::TooManyValues { requested: limit as u64 })?;
    let out_of_time = |computed: usize| {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(SequenceError::Limit { limit: Limit::Stop, computed });
        }
        match config.deadline {
            Some(d) if Instant::now() >= d => {
                Err(SequenceError::Limit { limit: Limit::Time, computed })
            }
            _ => Ok(()),
        }
    };
    out_of_time(0)?;
    let mut period = None;
    let mut next_check = 32;
    let mut work = 0u64;
    while values.len() < limit {
        work = work.saturating_add(engine.work(values.len()));
        engine.push_next(&mut values)?;
        let k = values.len();
        if period.is_none() && k >= next_check {
            next_check = k + (k / 8).max(32);
            work = work.saturating_add(k as u64);
            period = period::find(&values, theorem);
            if period.is_some() && config.stop_at_period {
                break;
            }
        }
        if work >= CLOCK_WORK || k & 0xFFFF == 0 {
            work = 0;
            progress(k);
            out_of_time(k)?;
        }
    }
    if period.is_none() {
        period = period::find(&values, theorem);
    }
    progress(values.len());
    Ok((values, period))
}
