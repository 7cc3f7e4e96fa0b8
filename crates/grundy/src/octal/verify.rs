//! The check of a claimed period, from values computed here directly (apart from the
//! engines that find periods).

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use gamegraph_graph::Limit;

use super::{CLOCK_WORK, OctalCode, SubtractionSet};
use crate::Play;

/// The most values [`verify_period`] computes: 2²⁴ (64 MiB of values).
pub const MAX_CHECK_VALUES: usize = 1 << 24;

/// The game whose Grundy sequence a claim is about.
#[derive(Debug, Clone, Copy)]
pub enum Rules<'a> {
    /// An octal game.
    Octal(&'a OctalCode),
    /// A subtraction game, in normal or misère play.
    Subtraction(&'a SubtractionSet, Play),
}

/// A claimed period: `g(n + period) = g(n)` for every `n ≥ preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodClaim {
    /// The claimed pre-period `P`.
    pub preperiod: usize,
    /// The claimed period `Q` (at least 1).
    pub period: usize,
    /// Also check that `P` is the least pre-period and `Q` the smallest period (as
    /// `gamegraph octal --period` prints them).
    pub least: bool,
}

/// What a successful check did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodCheck {
    /// The first `n` compared.
    pub checked_from: usize,
    /// The end (exclusive) of the `n` compared with `n + period`; the theorem extends the
    /// period to every `n ≥ checked_from` from these.
    pub checked_to: usize,
    /// The values `g(0) … g(values − 1)` computed.
    pub values: usize,
}

impl Rules<'_> {
    /// The theorem that extends a checked window to every `n`, in words, with its bound:
    /// `Guy-Smith theorem, largest removal t = 2`, `subtraction window of max S = 5 values`.
    pub fn theorem(&self) -> String {
        match self {
            Rules::Octal(code) => {
                format!("Guy-Smith theorem, largest removal t = {}", code.largest_removal())
            }
            Rules::Subtraction(set, _) => {
                format!("subtraction window of max S = {} values", set.max())
            }
        }
    }
}

impl PeriodCheck {
    /// What the check proved, in the words `verify octal` and `verify subtraction` print
    /// after "ok: ".
    pub fn describe(&self, rules: Rules<'_>, claim: PeriodClaim) -> String {
        let (p, q) = (claim.preperiod, claim.period);
        let least = if claim.least {
            format!("; {p} is the least pre-period and {q} the smallest period")
        } else {
            String::new()
        };
        format!(
            "g(n + {q}) = g(n) for every n >= {p}: checked for {} <= n < {} on {} values \
             computed directly ({}){least}",
            self.checked_from,
            self.checked_to,
            self.values,
            rules.theorem()
        )
    }
}

/// Why a claimed period is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClaimError {
    /// A period of 0 claims nothing.
    ZeroPeriod,
    /// The check needs more than [`MAX_CHECK_VALUES`] values (or overflows).
    TooManyValues {
        /// How many it needs (`None` on overflow).
        needed: Option<usize>,
    },
    /// `g(n + period) ≠ g(n)` for an `n ≥ preperiod`: the claim is false.
    NotPeriodic {
        /// The first such `n`.
        n: usize,
        /// `g(n)`.
        value: u32,
        /// `g(n + period)`.
        shifted: u32,
        /// The claimed period.
        period: usize,
    },
    /// The period holds from an earlier `n` already.
    PreperiodNotLeast {
        /// The claimed pre-period.
        claimed: usize,
        /// The least pre-period.
        least: usize,
    },
    /// A proper divisor of the period is a period too.
    PeriodNotSmallest {
        /// The claimed period.
        claimed: usize,
        /// The smallest period.
        smallest: usize,
    },
    /// The deadline of [`verify_period_until`] passed ([`Limit::Time`]), or its stop flag
    /// was set ([`Limit::Stop`]), before the check ended: the claim is neither accepted nor
    /// refused.
    Limit {
        /// The limit reached.
        limit: Limit,
        /// How many values were computed by then.
        computed: usize,
    },
}

impl ClaimError {
    /// A short name of the violated rule: `period`, `least-preperiod`, `smallest-period`
    /// (the claim is false), `input` (the claim cannot be checked), or `time-limit` (the
    /// check was cut short by its deadline or stop flag).
    pub fn rule(&self) -> &'static str {
        match self {
            ClaimError::ZeroPeriod | ClaimError::TooManyValues { .. } => "input",
            ClaimError::Limit { .. } => "time-limit",
            ClaimError::NotPeriodic { .. } => "period",
            ClaimError::PreperiodNotLeast { .. } => "least-preperiod",
            ClaimError::PeriodNotSmallest { .. } => "smallest-period",
        }
    }
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::ZeroPeriod => f.write_str("the period must be at least 1"),
            ClaimError::TooManyValues { needed: Some(k) } => write!(
                f,
                "the check needs {k} values, more than the {MAX_CHECK_VALUES} it may compute"
            ),
            ClaimError::TooManyValues { needed: None } => {
                f.write_str("the check needs more values than a number can hold")
            }
            ClaimError::NotPeriodic { n, value, shifted, period } => write!(
                f,
                "the period fails at n = {n}: g({n}) = {value} but g({}) = {shifted}",
                n + period
            ),
            ClaimError::PreperiodNotLeast { claimed, least } => write!(
                f,
                "the pre-period {claimed} is not the least: the period holds from n = {least}"
            ),
            ClaimError::PeriodNotSmallest { claimed, smallest } => {
                write!(f, "the period {claimed} is not the smallest: {smallest} is a period too")
            }
            ClaimError::Limit { limit, computed } => {
                write!(f, "{limit} after computing {computed} values")
            }
        }
    }
}

impl std::error::Error for ClaimError {}

/// Checks a claimed period of the Grundy sequence of an octal or subtraction game.
///
/// The values are computed here by the plain definition, `g(n)` = mex of the values of
/// the positions one move leaves (a position of two heaps is worth the digit sum of its
/// heaps; the misère sequence of a subtraction game is `g⁻(n) = 1` without a move), and
/// then a periodicity theorem turns a finite comparison into a proof for every `n`:
/// - **octal games** (Guy and Smith, *Winning Ways* ch. 4): with `t` the largest number of
///   objects a move takes, if `g(n + Q) = g(n)` for every `P ≤ n < 2·max(P, 1) + Q + t`,
///   then for every `n ≥ P`. Proof sketch: for larger `n`, a move from `n + Q` takes `j ≤ t`
///   and leaves one heap `n + Q − j` (matched with `n − j ≥ P`) or two heaps `a + b =
///   n + Q − j` with `a ≥ b`, so `a ≥ P + Q` and `a − Q ≥ max(P, 1)` is still a heap:
///   the split `(a − Q) + b` of `n − j` has the same value; and conversely. The `max(P, 1)`
///   keeps `a − Q` non-empty when `P = 0`. Splits without removal (`d₀ = 4`) are `j = 0`.
/// - **subtraction games** (normal and misère): once `n ≥ max S` every move is legal,
///   so `g(n)` depends only on the `max S` values before it; if `g(n + Q) = g(n)` for the
///   `max S` consecutive `P ≤ n < P + max S`, then for every `n ≥ P`.
///
/// With `claim.least`, it also checks that `P` is the least pre-period (`P = 0` or
/// `g(P − 1) ≠ g(P − 1 + Q)`) and `Q` the smallest period (no `Q / q` for a prime `q`
/// dividing `Q` is a period from `P`: the smallest period divides every period, and a
/// divisor of `Q` is a period from `P` when it is one over a single stretch of `Q`).
///
/// # Errors
/// The first `n ≥ P` where `g(n + Q) ≠ g(n)`, or a pre-period or period that is not the
/// least; [`ClaimError::ZeroPeriod`] and [`ClaimError::TooManyValues`] when the claim
/// cannot be checked.
///
/// # Complexity
/// For N = the values needed (about 2P + 2Q + t for octal games, P + Q + max S for
/// subtraction games): O(N²) time for octal games that split heaps (every split of every
/// heap is tried, as the definition says), O(N · t) for the others and O(N · |S|) for
/// subtraction games; O(N) extra space.
///
/// # Example
/// ```
/// use gamegraph_grundy::octal::{verify_period, ClaimError, OctalCode, PeriodClaim, Rules};
///
/// let kayles: OctalCode = "0.77".parse()?;
/// let claim = PeriodClaim { preperiod: 71, period: 12, least: true };
/// let check = verify_period(Rules::Octal(&kayles), claim).unwrap();
/// assert_eq!((check.checked_from, check.checked_to), (71, 156));
/// let wrong = PeriodClaim { preperiod: 70, period: 12, least: true };
/// assert_eq!(
///     verify_period(Rules::Octal(&kayles), wrong).unwrap_err().to_string(),
///     "the period fails at n = 70: g(70) = 6 but g(82) = 2"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_period(rules: Rules<'_>, claim: PeriodClaim) -> Result<PeriodCheck, ClaimError> {
    verify_period_until(rules, claim, None, None)
}

/// [`verify_period`] that gives up with [`ClaimError::Limit`]: [`Limit::Time`] once
/// `deadline` has passed, [`Limit::Stop`] once `stop` is set (a user's Ctrl-C, say). Both
/// are read after every [`CLOCK_WORK`] units of work (options of a heap looked at), so
/// they hold to within about a millisecond however large the heaps.
///
/// # Errors
/// Those of [`verify_period`], and the two above.
///
/// # Complexity
/// That of [`verify_period`].
///
/// # Example
/// ```
/// use gamegraph_graph::Limit;
/// use gamegraph_grundy::octal::{verify_period_until, ClaimError, OctalCode, PeriodClaim, Rules};
/// use std::time::Instant;
///
/// let code: OctalCode = "0.6".parse()?;
/// let claim = PeriodClaim { preperiod: 4_000_000, period: 1, least: false };
/// let e = verify_period_until(Rules::Octal(&code), claim, Some(Instant::now()), None);
/// assert!(matches!(e, Err(ClaimError::Limit { limit: Limit::Time, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_period_until(
    rules: Rules<'_>,
    claim: PeriodClaim,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
) -> Result<PeriodCheck, ClaimError> {
    let (p, q) = (claim.preperiod, claim.period);
    if q == 0 {
        return Err(ClaimError::ZeroPeriod);
    }
    let too_many = || ClaimError::TooManyValues { needed: None };
    let end = match rules {
        Rules::Octal(code) => p
            .max(1)
            .checked_mul(2)
            .and_then(|x| x.checked_add(q))
            .and_then(|x| x.checked_add(code.largest_removal())),
        Rules::Subtraction(set, _) => {
            usize::try_from(set.max()).ok().and_then(|m| p.checked_add(m))
        }
    }
    .ok_or_else(too_many)?;
    let mut needed = end.checked_add(q).ok_or_else(too_many)?;
    if claim.least {
        needed = needed.max(p.checked_add(2 * q).ok_or_else(too_many)?);
    }
    if needed > MAX_CHECK_VALUES {
        return Err(ClaimError::TooManyValues { needed: Some(needed) });
    }
    let mut clock = Clock { deadline, stop, work: 0 };
    let g = match rules {
        Rules::Octal(code) => octal_values(code, needed, &mut clock)?,
        Rules::Subtraction(set, play) => subtraction_values(set, play, needed, &mut clock)?,
    };
    if let Some(n) = (p..end).find(|&n| g[n + q] != g[n]) {
        return Err(ClaimError::NotPeriodic { n, value: g[n], shifted: g[n + q], period: q });
    }
    if claim.least {
        if p > 0 && g[p - 1] == g[p - 1 + q] {
            let least = (0..p).rev().find(|&n| g[n] != g[n + q]).map_or(0, |n| n + 1);
            return Err(ClaimError::PreperiodNotLeast { claimed: p, least });
        }
        let is_period = |d: usize| (p..p + q).all(|n| g[n + d] == g[n]);
        if prime_factors(q).into_iter().any(|f| is_period(q / f)) {
            let smallest = (1..q).find(|&d| q.is_multiple_of(d) && is_period(d)).unwrap_or(q);
            return Err(ClaimError::PeriodNotSmallest { claimed: q, smallest });
        }
    }
    Ok(PeriodCheck { checked_from: p, checked_to: end, values: needed })
}

/// The distinct prime factors of `x ≥ 1`.
fn prime_factors(mut x: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut f = 2;
    while f * f <= x {
        if x.is_multiple_of(f) {
            factors.push(f);
            while x.is_multiple_of(f) {
                x /= f;
            }
        }
        f += 1;
    }
    if x > 1 {
        factors.push(x);
    }
    factors
}

/// The deadline and stop flag of a check, read every [`CLOCK_WORK`] units of work.
struct Clock<'a> {
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// Work since the last reading.
    work: u64,
}

impl Clock<'_> {
    /// Counts `units` of work done with `computed` values known; an error once the stop
    /// flag is set or the deadline has passed.
    fn tick(&mut self, units: u64, computed: usize) -> Result<(), ClaimError> {
        self.work += units;
        if self.work < CLOCK_WORK {
            return Ok(());
        }
        self.work = 0;
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(ClaimError::Limit { limit: Limit::Stop, computed });
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ClaimError::Limit { limit: Limit::Time, computed });
        }
        Ok(())
    }
}

/// The mex of the values marked for one heap.
struct Mex {
    /// `seen[x] == stamp`: the value x is an option's.
    seen: Vec<usize>,
    stamp: usize,
}

impl Mex {
    fn start(&mut self) {
        self.stamp += 1;
    }

    fn mark(&mut self, x: u32) {
        let x = x as usize;
        if x >= self.seen.len() {
            self.seen.resize((x + 1).next_power_of_two(), 0);
        }
        self.seen[x] = self.stamp;
    }

    fn mex(&self) -> u32 {
        (0..).find(|&x| self.seen.get(x as usize) != Some(&self.stamp)).unwrap_or(0)
    }
}

/// `g(0) … g(count − 1)` of an octal game, by the definition.
fn octal_values(
    code: &OctalCode,
    count: usize,
    clock: &mut Clock<'_>,
) -> Result<Vec<u32>, ClaimError> {
    let t = code.largest_removal();
    let mut g: Vec<u32> = Vec::with_capacity(count);
    let mut mex = Mex { seen: Vec::new(), stamp: 0 };
    for n in 0..count {
        mex.start();
        for j in 0..=t.min(n) {
            let d = code.digit(j);
            let r = n - j;
            if j >= 1 && r == 0 && d & 1 != 0 {
                mex.mark(0);
            }
            if j >= 1 && r >= 1 && d & 2 != 0 {
                mex.mark(g[r]);
            }
            if r >= 2 && d & 4 != 0 {
                for a in 1..=r / 2 {
                    mex.mark(g[a] ^ g[r - a]);
                }
                clock.tick((r / 2) as u64, n)?;
            }
        }
        g.push(mex.mex());
        clock.tick(t as u64 + 1, n + 1)?;
    }
    Ok(g)
}

/// `g(0) … g(count − 1)` of a subtraction game (`g⁻` in misère play), by the definition.
fn subtraction_values(
    set: &SubtractionSet,
    play: Play,
    count: usize,
    clock: &mut Clock<'_>,
) -> Result<Vec<u32>, ClaimError> {
    let mut g: Vec<u32> = Vec::with_capacity(count);
    let mut mex = Mex { seen: Vec::new(), stamp: 0 };
    for n in 0..count {
        mex.start();
        let mut moves = 0;
        for &s in set.elements().iter().take_while(|&&s| s <= n as u64) {
            mex.mark(g[n - s as usize]);
            moves += 1;
        }
        g.push(if moves == 0 && play == Play::Misere { 1 } else { mex.mex() });
        clock.tick(moves + 1, n + 1)?;
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::{Config, analyse_octal, analyse_subtraction};

    fn unlimited() -> Clock<'static> {
        Clock { deadline: None, stop: None, work: 0 }
    }

    #[test]
    fn a_check_stops_at_its_deadline_or_stop_flag() {
        let code: OctalCode = "0.6".parse().unwrap();
        let big = PeriodClaim { preperiod: 4_000_000, period: 1, least: false };
        let late = verify_period_until(Rules::Octal(&code), big, Some(Instant::now()), None);
        assert!(matches!(
            late,
            Err(ClaimError::Limit { limit: Limit::Time, computed }) if computed < 4_000_000
        ));
        let stop = AtomicBool::new(true);
        let set: SubtractionSet = "1,2".parse().unwrap();
        let rules = Rules::Subtraction(&set, Play::Normal);
        let claim = PeriodClaim { preperiod: 16_000_000, period: 3, least: false };
        let stopped = verify_period_until(rules, claim, None, Some(&stop));
        assert!(matches!(stopped, Err(ClaimError::Limit { limit: Limit::Stop, .. })));
        assert_eq!(stopped.unwrap_err().rule(), "time-limit");
        // Without either, the same check ends with its verdict.
        let small = PeriodClaim { preperiod: 0, period: 3, least: true };
        assert!(
            verify_period_until(
                rules,
                small,
                Some(Instant::now() + std::time::Duration::from_secs(600)),
                Some(&AtomicBool::new(false))
            )
            .is_ok()
        );
    }

    fn claim(preperiod: usize, period: usize) -> PeriodClaim {
        PeriodClaim { preperiod, period, least: true }
    }

    #[test]
    fn the_direct_values_agree_with_the_engine() {
        for code in ["0.77", "0.07", "4.07", "0.137", "0.6", "0.51", "4.0", "0.4", "0.156"] {
            let c: OctalCode = code.parse().unwrap();
            let config = Config { limit: 300, stop_at_period: false, ..Config::default() };
            let a = analyse_octal(&c, &config, &mut |_| {}).unwrap();
            let direct = octal_values(&c, a.computed(), &mut unlimited()).unwrap();
            let engine: Vec<u32> = a.prefix().iter().map(|&x| u32::from(x)).collect();
            assert_eq!(direct, engine, "{code}");
        }
        for (set, play) in [("1,3,4", Play::Normal), ("2,5,7", Play::Misere), ("3", Play::Misere)] {
            let s: SubtractionSet = set.parse().unwrap();
            let config = Config { limit: 200, stop_at_period: false, ..Config::default() };
            let a = analyse_subtraction(&s, play, &config, &mut |_| {}).unwrap();
            let direct = subtraction_values(&s, play, a.computed(), &mut unlimited()).unwrap();
            let engine: Vec<u32> = a.prefix().iter().map(|&x| u32::from(x)).collect();
            assert_eq!(direct, engine, "{set}");
        }
    }

    /// The range of the theorem is 2·max(P, 1) + Q + t, not 2P + Q + t: for 0.4 and the
    /// false claim P = 0, Q = 1 the values agree for 0 ≤ n < 2 = 2P + Q + t but not at
    /// n = 2, which the check reaches.
    #[test]
    fn the_range_reaches_past_2p_q_t_when_p_is_0() {
        let code: OctalCode = "0.4".parse().unwrap();
        let g = octal_values(&code, 8, &mut unlimited()).unwrap();
        assert_eq!(g[..4], [0, 0, 0, 1]);
        assert!((0..2).all(|n| g[n + 1] == g[n]), "2P + Q + t alone would accept it");
        let claim = PeriodClaim { preperiod: 0, period: 1, least: false };
        assert_eq!(
            verify_period(Rules::Octal(&code), claim),
            Err(ClaimError::NotPeriodic { n: 2, value: 0, shifted: 1, period: 1 })
        );
        // The engine, which proves periods with the same range, finds none of length 1.
        let config = Config { limit: 200, ..Config::default() };
        let a = analyse_octal(&code, &config, &mut |_| {}).unwrap();
        assert_ne!(a.period().map(|p| (p.preperiod, p.period)), Some((0, 1)));
    }

    /// Every claim the check accepts holds on 300 values computed by the definition, for
    /// every code of at most two digits after the point and small P and Q: the range is
    /// never too short.
    #[test]
    fn an_accepted_claim_holds_on_every_value_computed() {
        const COUNT: usize = 300;
        for d0 in ["0", "4"] {
            for digits in 1..64u32 {
                let (a, b) = (digits / 8, digits % 8);
                let text = if b == 0 { format!("{d0}.{a}") } else { format!("{d0}.{a}{b}") };
                let Ok(code) = text.parse::<OctalCode>() else { continue };
                let g = octal_values(&code, COUNT, &mut unlimited()).unwrap();
                for p in 0..6 {
                    for q in 1..12 {
                        let claim = PeriodClaim { preperiod: p, period: q, least: false };
                        if verify_period(Rules::Octal(&code), claim).is_ok() {
                            let bad = (p..COUNT - q).find(|&n| g[n + q] != g[n]);
                            assert_eq!(bad, None, "{text}: P = {p}, Q = {q}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn accepts_the_engines_periods_and_names_each_failure() {
        let dawson: OctalCode = "0.07".parse().unwrap();
        let rules = Rules::Octal(&dawson);
        assert!(verify_period(rules, claim(53, 34)).is_ok());
        assert_eq!(
            verify_period(rules, claim(54, 34)),
            Err(ClaimError::PreperiodNotLeast { claimed: 54, least: 53 })
        );
        assert_eq!(
            verify_period(rules, claim(53, 68)),
            Err(ClaimError::PeriodNotSmallest { claimed: 68, smallest: 34 })
        );
        assert!(verify_period(rules, PeriodClaim { least: false, ..claim(60, 68) }).is_ok());
        let e = verify_period(rules, claim(53, 17)).unwrap_err();
        assert!(matches!(e, ClaimError::NotPeriodic { period: 17, .. }), "{e}");
        assert_eq!(verify_period(rules, claim(0, 0)), Err(ClaimError::ZeroPeriod));
        assert_eq!(
            verify_period(rules, claim(usize::MAX, 1)),
            Err(ClaimError::TooManyValues { needed: None })
        );
        let s: SubtractionSet = "1,2".parse().unwrap();
        let check = verify_period(Rules::Subtraction(&s, Play::Normal), claim(0, 3)).unwrap();
        assert_eq!((check.checked_from, check.checked_to), (0, 2));
        assert_eq!(
            verify_period(Rules::Subtraction(&s, Play::Normal), claim(0, 2))
                .unwrap_err()
                .to_string(),
            "the period fails at n = 0: g(0) = 0 but g(2) = 2"
        );
    }
}
