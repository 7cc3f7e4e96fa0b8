//! Detecting the eventual (affine) period of the rows of a board with M columns.

use crate::error::SolveError;
use crate::row::{Row, Stream, relevant};
use crate::symbolic::{Affine, SymRow, sym_step};
use crate::work::{Work, check_stored, push};

/// The rows of every board with M columns repeat from distance `start` on with period
/// `length`, every depth growing by a fixed amount per period that may differ from one
/// entry to another: `V(r + length, y) − V(r, y) = V(r + 2·length, y) − V(r + length, y)`
/// for every `r >= start` and column y. Outcomes repeat exactly (the growths are even).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// The number of columns M.
    pub cols: u32,
    /// The pre-period: the least distance from the top row from which the rows repeat.
    pub start: u64,
    /// The period in rows.
    pub length: u64,
    /// The least growth of a depth per period, in plies.
    pub min_shift: u64,
    /// The greatest growth of a depth per period, in plies (equal to `min_shift` when every
    /// depth grows alike).
    pub max_shift: u64,
}

/// What [`find`] found, with what it needs to answer any distance.
#[derive(Debug, Clone)]
pub(crate) struct Periodic {
    pub(crate) period: Period,
    /// Rows `0..=r0`.
    rows: Vec<Row>,
    /// Row `r0 + t·p + i` is `sym[i - 1]` at t, for i in `1..=p`.
    sym: Vec<SymRow>,
}

impl Periodic {
    /// Row `r`, for any distance `r` from the top.
    pub(crate) fn row(&self, r: u64) -> Result<Row, SolveError> {
        let r0 = self.rows.len() as u64 - 1;
        if r <= r0 {
            return Ok(self.rows[r as usize]);
        }
        let p = self.sym.len() as u64;
        let t = (r - r0 - 1) / p;
        self.sym[((r - r0 - 1) % p) as usize].at(t)
    }
}

/// The signature of a row: what must repeat when the rows repeat.
fn signature(row: Row) -> u64 {
    (u64::from(row.ex) << 3) | ((row.a & 1) << 2) | ((row.b & 1) << 1) | u64::from(row.a == row.b)
}

/// The least period of `s` (KMP failure function); the clock of `work` is read every
/// 2^20 entries.
fn least_period(s: &[u64], work: &Work<'_>) -> Result<usize, SolveError> {
    let n = s.len();
    let mut fail = Vec::new();
    crate::work::reserve(&mut fail, n)?;
    fail.resize(n, 0usize);
    let mut k = 0;
    for i in 1..n {
        if i % (1 << 20) == 0 {
            work.clock()?;
        }
        while k > 0 && s[i] != s[k] {
            k = fail[k - 1];
        }
        if s[i] == s[k] {
            k += 1;
        }
        fail[i] = k;
    }
    Ok(n - fail.get(n.wrapping_sub(1)).copied().unwrap_or(0))
}

/// Tries to prove that the rows repeat affinely from the window at `r0` with period `p`.
/// Returns the symbolic rows `r0 + 1..=r0 + p` on success. Each symbolic row counts M cell
/// evaluations against `work`.
fn verify(
    rows: &[Row],
    cols: u32,
    r0: u64,
    p: u64,
    work: &mut Work<'_>,
) -> Result<Option<Vec<SymRow>>, SolveError> {
    let m = u64::from(cols);
    // The symbolic window: entry j (row r0 - j) is A + t·δ with A from r0, δ from r0 + p.
    let mut window: Vec<SymRow> = Vec::with_capacity(cols as usize);
    for j in 0..m {
        let x = rows[(r0 - j) as usize];
        let y = rows[(r0 + p - j) as usize];
        let (rx, ry) = (relevant(x, j, cols), relevant(y, j, cols));
        if rx.ex != ry.ex {
            return Ok(None);
        }
        let slope = |u: Option<u64>, v: Option<u64>| -> Option<u64> {
            match (u, v) {
                (Some(u), Some(v)) => {
                    let s = v.checked_sub(u)?;
                    (s % 2 == 0).then_some(s)
                }
                (None, None) => Some(0),
                _ => None,
            }
        };
        let (Some(sa), Some(sb)) = (slope(rx.a, ry.a), slope(rx.b, ry.b)) else {
            return Ok(None);
        };
        window.push(SymRow {
            a: Affine { base: x.a, slope: sa },
            b: Affine { base: x.b, slope: sb },
            ex: x.ex,
        });
    }
    // Ring of the symbolic window, newest last: index of row r0 - j is m - 1 - j.
    window.reverse();
    let mut out = Vec::new();
    crate::work::reserve(&mut out, p as usize)?;
    crate::work::reserve(&mut window, p as usize)?;
    for _ in 0..p {
        work.spend(m)?;
        let len = window.len();
        let Some(row) = sym_step(cols, |k| window[len - k as usize].get(k)) else {
            return Ok(None);
        };
        window.push(row);
        out.push(row);
    }
    // After one period the window must be the first one with t -> t + 1.
    let len = window.len();
    for j in 0..m {
        let first = window[len - p as usize - 1 - j as usize];
        let last = window[len - 1 - j as usize];
        let shifted = |f: Affine| Affine { base: f.base.saturating_add(f.slope), slope: f.slope };
        let read = |r: SymRow| {
            if r.ex != 0 && u64::from(r.ex) > j { (Some(r.b), r.ex) } else { (None, 0) }
        };
        let (fb, fex) = read(first);
        let (lb, lex) = read(last);
        let a_read = m - j >= 2 || fex == 0;
        if fex != lex || (a_read && shifted(first.a) != last.a) || fb.map(shifted) != lb {
            return Ok(None);
        }
    }
    Ok(Some(out))
}

/// The rows a search for boards of `cols` columns computes at most: `search_rows`, but
/// never fewer than the 2M + 2 needed to see one repeat of the window.
pub(crate) fn search_bound(cols: u32, search_rows: u64) -> u64 {
    search_rows.max(2 * u64::from(cols) + 2)
}

/// Finds the period of the rows of boards with `cols` columns, computing at most about
/// `search_rows` rows; `None` when no repeat shows up within that bound.
///
/// The rows are computed and their signatures (exceptional column, outcomes) watched; at
/// checkpoints (doubling) the least period p of the signatures' last half proposes a
/// repeat, and `verify` proves it or rejects it.
///
/// # Complexity
/// O(R · M) time and O(R + M) space, R the rows computed (at most about twice μ + λ,
/// bounded by `search_rows`).
///
/// # Errors
/// [`SolveError::TooMuchMemory`] when `search_rows` is more than
/// [`MAX_STORED_ROWS`](crate::MAX_STORED_ROWS), [`SolveError::Limit`] when `work` runs
/// out or the rows do not fit in memory.
pub(crate) fn find(
    cols: u32,
    search_rows: u64,
    work: &mut Work<'_>,
) -> Result<Option<Periodic>, SolveError> {
    let m = u64::from(cols);
    let bound = search_bound(cols, search_rows);
    check_stored(bound)?;
    let mut rows = Vec::new();
    let mut sigs = Vec::new();
    push(&mut rows, Row::TOP)?;
    push(&mut sigs, signature(Row::TOP))?;
    let mut s = Stream::new(cols);
    let mut checkpoint = (8 * m).max(64);
    loop {
        let target = checkpoint.min(bound);
        while s.last() < target {
            let row = s.advance();
            push(&mut rows, row)?;
            push(&mut sigs, signature(row))?;
            work.row(s.last(), cols)?;
        }
        let r = s.last();
        let half = (r / 2).max(m);
        let p = least_period(&sigs[half as usize..=r as usize], work)? as u64;
        if 2 * p <= r - half && r - p + 1 >= m {
            let r0 = r - p;
            if let Some(sym) = verify(&rows, cols, r0, p, work)? {
                rows.truncate(r0 as usize + 1);
                return Ok(Some(finish(cols, rows, sym)?));
            }
        }
        if target >= bound {
            return Ok(None);
        }
        checkpoint *= 2;
    }
}

/// Moves the start back as far as the stored rows still follow the affine law.
fn finish(cols: u32, mut rows: Vec<Row>, mut sym: Vec<SymRow>) -> Result<Periodic, SolveError> {
    let p = sym.len();
    // Row r0 (the last stored) is sym[p - 1] at t = -1 when the law extends back. Each
    // step back rotates the law right by one: after k steps the law's row i is stored at
    // (i - k) mod p, and one rotation at the end puts it in order (a rotation per step
    // would cost p per row).
    let mut k = 0;
    while rows.len() > 1 {
        let last = *rows.last().expect("non-empty");
        let s = sym[(p - 1 + p - k) % p];
        let back =
            |f: Affine| f.base.checked_sub(f.slope).map(|base| Affine { base, slope: f.slope });
        let (Some(a), Some(b)) = (back(s.a), back(s.b)) else { break };
        let candidate = SymRow { a, b, ex: s.ex };
        if candidate.at(0)? != last {
            break;
        }
        rows.pop();
        k = (k + 1) % p;
        sym[(p - k) % p] = candidate;
    }
    sym.rotate_right(k);
    let start = rows.len() as u64;
    let shifts = sym.iter().flat_map(|r| {
        let mut v = vec![r.a.slope];
        if r.ex != 0 {
            v.push(r.b.slope);
        }
        v
    });
    let (mut lo, mut hi) = (u64::MAX, 0);
    for x in shifts {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    let period = Period { cols, start, length: p as u64, min_shift: lo, max_shift: hi };
    Ok(Periodic { period, rows, sym })
}
