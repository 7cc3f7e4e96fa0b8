//! Octal games on rows of pins: Kayles, Dawson's Kayles and every other octal code.

use gamegraph_grundy::octal::OctalCode;

use crate::tier::Tiered;
use crate::{Board, Game, ParseError};

/// Bits per row length in a packed position.
const BITS: u32 = 6;
/// The most rows a position holds: 21 lengths of 6 bits in 128 bits.
pub const MAX_ROWS: usize = 21;
/// The longest row: lengths are stored in 6 bits.
pub const MAX_ROW: u32 = (1 << BITS) - 1;

/// An octal game played on rows of pins (heaps): the rules are an [`OctalCode`]
/// `d₀.d₁d₂…`, and the player who cannot move loses.
///
/// A move picks one row of `n` pins and takes `j` of them, as digit `d_j` allows: bit 1,
/// the whole row when `n = j`; bit 2, leaving one shorter row of `n − j ≥ 1`; bit 4,
/// leaving two rows `a, b ≥ 1` with `a + b = n − j`. Kayles is `0.77` (knock down one pin
/// or two adjacent pins, anywhere in a row) and Dawson's Kayles `0.07` (knock down two
/// adjacent pins).
///
/// Position: a `u128` holding the row lengths, 6 bits each (0 = no row); rows are
/// independent, so the canonical form sorts them (longest first, in the lowest bits).
///
/// Positions of more than [`MAX_ROWS`] rows do not exist, so from a position of
/// [`MAX_ROWS`] rows the moves that split a row are not generated; [`OctalRows::new`]
/// refuses every start from which play could get there.
///
/// Notation: the row lengths, longest first, separated by spaces (`7 3 3 1`); `0` for no
/// row left. Reading accepts any order, commas as separators, and zeros (ignored), and
/// gives the canonical position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalRows {
    code: OctalCode,
    start: u128,
    /// The pins of the start: the tiers are `0..=pins`.
    pins: u32,
    /// `parts[(n·(pins + 1) + m)·(MAX_ROWS + 1) + k]`: the partitions of `n` pins into at
    /// most `k` rows of at most `m` pins, for the numbering inside a tier.
    parts: Vec<u64>,
}

/// Why a start position is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RowsError {
    /// A row is longer than [`MAX_ROW`].
    RowTooLong {
        /// The row's length.
        len: u32,
    },
    /// Play could create more rows than a position holds ([`MAX_ROWS`]).
    TooManyRows {
        /// The number of pins in the start position.
        pins: u64,
        /// The number of rows in the start position.
        rows: usize,
    },
}

impl std::fmt::Display for RowsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowsError::RowTooLong { len } => {
                write!(f, "a row of {len} pins is longer than the {MAX_ROW} supported")
            }
            RowsError::TooManyRows { pins, rows } => write!(
                f,
                "{rows} rows of {pins} pins in all could split into more than the \
                 {MAX_ROWS} rows a position holds"
            ),
        }
    }
}

impl std::error::Error for RowsError {}

impl OctalRows {
    /// The octal game `code` starting from `rows`.
    ///
    /// # Errors
    /// [`RowsError::RowTooLong`] for a row above [`MAX_ROW`]; [`RowsError::TooManyRows`]
    /// when play could leave more than [`MAX_ROWS`] rows: a move adds at most one row, and
    /// when every move takes a pin (`d₀ = 0`) it also removes one, so `rows + pins ≤ 2 ·
    /// MAX_ROWS` suffices; with `d₀ = 4` (splits without taking) `pins ≤ MAX_ROWS`.
    pub fn new(code: OctalCode, rows: &[u32]) -> Result<OctalRows, RowsError> {
        if let Some(&len) = rows.iter().find(|&&n| n > MAX_ROW) {
            return Err(RowsError::RowTooLong { len });
        }
        // In 64 bits: 2^32 / 63 rows of 63 pins would wrap a 32-bit sum.
        let pins: u64 = rows.iter().map(|&n| u64::from(n)).sum();
        let count = rows.iter().filter(|&&n| n > 0).count();
        let fits = if code.digit(0) & 4 != 0 {
            pins <= MAX_ROWS as u64
        } else {
            (count as u64).saturating_add(pins) <= 2 * MAX_ROWS as u64
        };
        if !fits {
            return Err(RowsError::TooManyRows { pins, rows: count });
        }
        let rows: Vec<u32> = rows.iter().copied().filter(|&n| n > 0).collect();
        let pins = pins as u32; // at most 2 · MAX_ROWS
        let start = canonical_rows(pack(&rows));
        Ok(OctalRows { code, start, pins, parts: partitions(pins) })
    }

    /// Kayles (`0.77`) from `rows`.
    ///
    /// # Errors
    /// As [`OctalRows::new`].
    pub fn kayles(rows: &[u32]) -> Result<OctalRows, RowsError> {
        OctalRows::new("0.77".parse().expect("0.77 is an octal code"), rows)
    }

    /// Dawson's Kayles (`0.07`) from `rows`.
    ///
    /// # Errors
    /// As [`OctalRows::new`].
    pub fn dawson(rows: &[u32]) -> Result<OctalRows, RowsError> {
        OctalRows::new("0.07".parse().expect("0.07 is an octal code"), rows)
    }

    /// The rules.
    pub fn code(&self) -> &OctalCode {
        &self.code
    }

    /// The row lengths of a position, longest first.
    pub fn rows(&self, p: u128) -> Vec<u32> {
        let mut rows = unpack(p);
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows
    }
}

/// The non-zero lengths of a packed position, in slot order.
/// The table of [`OctalRows::parts`] for up to `pins` pins.
fn partitions(pins: u32) -> Vec<u64> {
    let (p, k) = (pins as usize + 1, MAX_ROWS + 1);
    let mut parts = vec![0u64; p * p * k];
    for n in 0..p {
        for m in 0..p {
            for rows in 0..k {
                parts[(n * p + m) * k + rows] = if n == 0 {
                    1
                } else if rows == 0 {
                    0
                } else {
                    // The longest row has v pins; the others at most v each.
                    (1..=m.min(n)).map(|v| parts[((n - v) * p + v) * k + rows - 1]).sum()
                };
            }
        }
    }
    parts
}

fn unpack(p: u128) -> Vec<u32> {
    (0..MAX_ROWS as u32)
        .map(|i| ((p >> (i * BITS)) & u128::from(MAX_ROW)) as u32)
        .filter(|&n| n > 0)
        .collect()
}

/// Packs non-zero lengths into consecutive slots.
fn pack(rows: &[u32]) -> u128 {
    rows.iter()
        .filter(|&&n| n > 0)
        .enumerate()
        .fold(0, |p, (i, &n)| p | u128::from(n) << (i as u32 * BITS))
}

/// The lengths sorted, longest first.
fn canonical_rows(p: u128) -> u128 {
    let mut rows = unpack(p);
    rows.sort_unstable_by(|a, b| b.cmp(a));
    pack(&rows)
}

impl OctalRows {
    /// The partitions of `n` pins into at most `rows` rows of at most `m` pins.
    fn parts(&self, n: u32, m: u32, rows: usize) -> u64 {
        let p = self.pins as usize + 1;
        self.parts[(n as usize * p + m.min(n) as usize) * (MAX_ROWS + 1) + rows]
    }
}

impl Game for OctalRows {
    type Position = u128;

    /// `kayles 4,7`, `dawsons-kayles 4,7` or `octal 0.137 4,7`: the rules and the start's
    /// rows, shortest first (positions are always taken up to the order of the rows).
    fn identity(&self) -> String {
        let mut rows = unpack(self.start);
        rows.sort_unstable();
        let rows = rows.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let rows = if rows.is_empty() { "0".to_owned() } else { rows };
        match self.code.to_string().as_str() {
            "0.77" => format!("kayles {rows}"),
            "0.07" => format!("dawsons-kayles {rows}"),
            code => format!("octal {code} {rows}"),
        }
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u128 {
        self.start
    }

    fn moves(&self, p: u128, out: &mut Vec<u128>) {
        let rows = unpack(p);
        let mut others = Vec::with_capacity(rows.len() + 1);
        for (i, &n) in rows.iter().enumerate() {
            if rows[..i].contains(&n) {
                continue; // the same moves as from the equal row before
            }
            others.clear();
            others.extend(rows.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, &m)| m));
            let base = pack(&others);
            let slot = others.len() as u32 * BITS;
            for j in 0..=self.code.largest_removal() as u32 {
                let d = self.code.digit(j as usize);
                if j > 0 && d & 1 != 0 && n == j {
                    out.push(base);
                }
                if j > 0 && d & 2 != 0 && n > j {
                    out.push(base | u128::from(n - j) << slot);
                }
                if d & 4 != 0 && n >= j + 2 && others.len() + 2 <= MAX_ROWS {
                    for a in 1..=(n - j) / 2 {
                        let b = n - j - a;
                        out.push(base | u128::from(a) << slot | u128::from(b) << (slot + BITS));
                    }
                }
            }
        }
    }

    /// The row played and what is left of it: `take 2 from 7 leaving 2 3`, `take 1 from
    /// 4 leaving 3`, `take 2 from 2`, or `split 5 into 2 3` when a code lets a move take
    /// nothing. Rows are named by their lengths: rows of equal length are alike.
    fn move_name(&self, from: u128, to: u128) -> Option<String> {
        let (mut before, mut after) = (self.rows(from), self.rows(to));
        for n in self.rows(to) {
            if let Some(i) = before.iter().position(|&m| m == n) {
                before.remove(i);
                after.remove(after.iter().position(|&m| m == n).expect("a row of to"));
            }
        }
        let [row] = before[..] else { return None };
        let left: u32 = after.iter().sum();
        let leaving = after.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        Some(match (row - left, leaving.is_empty()) {
            (0, _) => format!("split {row} into {leaving}"),
            (k, true) => format!("take {k} from {row}"),
            (k, false) => format!("take {k} from {row} leaving {leaving}"),
        })
    }

    fn board(&self, p: u128) -> Option<Board> {
        Some(Board::Pins(self.rows(p)))
    }

    fn canonical(&self, p: u128) -> u128 {
        canonical_rows(p)
    }

    fn show(&self, p: u128) -> String {
        let rows = self.rows(p);
        if rows.is_empty() {
            return "0".to_string();
        }
        rows.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
    }

    fn parse(&self, s: &str) -> Result<u128, ParseError> {
        let mut rows = Vec::new();
        let mut number: Option<(usize, u32)> = None;
        let end_number = |number: &mut Option<(usize, u32)>, rows: &mut Vec<u32>| {
            if let Some((_, n)) = number.take()
                && n > 0
            {
                rows.push(n);
            }
        };
        for (i, ch) in s.chars().chain(std::iter::once(' ')).enumerate() {
            let at = i + 1;
            match ch {
                '0'..='9' => {
                    let (start, n) = number.unwrap_or((at, 0));
                    let n = n * 10 + ch.to_digit(10).unwrap_or(0);
                    if n > MAX_ROW {
                        return Err(ParseError::new(
                            start,
                            format!("a row is at most {MAX_ROW} pins long"),
                        ));
                    }
                    number = Some((start, n));
                }
                ' ' | '\t' | ',' => end_number(&mut number, &mut rows),
                _ => {
                    return Err(ParseError::new(
                        at,
                        format!("unexpected {ch:?}: expected row lengths separated by spaces"),
                    ));
                }
            }
            if rows.len() > MAX_ROWS {
                return Err(ParseError::new(at, format!("more than {MAX_ROWS} rows")));
            }
        }
        if s.trim().is_empty() {
            return Err(ParseError::new(1, "expected row lengths separated by spaces, or 0"));
        }
        Ok(canonical_rows(pack(&rows)))
    }
}

/// Tier `n` holds the positions of `n` pins; a position's rank is the number of its row
/// lengths, longest first, in the lexicographic order of the partitions of `n` into at
/// most [`MAX_ROWS`] rows. Moves take pins, so they leave the tier, except the moves of a
/// code whose digit 0 splits a row without taking any.
impl Tiered for OctalRows {
    fn tier_count(&self) -> u32 {
        self.pins + 1
    }

    fn tier(&self, p: u128) -> u32 {
        unpack(p).iter().sum()
    }

    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        let most = self.code.largest_removal() as u32;
        out.extend((1..=most.min(t)).map(|k| t - k));
    }

    fn tier_size(&self, t: u32) -> u64 {
        if t > self.pins { 0 } else { self.parts(t, t, MAX_ROWS) }
    }

    fn tier_rank(&self, p: u128) -> u64 {
        let rows = self.rows(p);
        let (mut n, mut m, mut rank) = (rows.iter().sum::<u32>(), u32::MAX, 0u64);
        for (i, &a) in rows.iter().enumerate() {
            let left = MAX_ROWS - i - 1;
            rank += (1..a.min(m.min(n) + 1)).map(|v| self.parts(n - v, v, left)).sum::<u64>();
            n -= a;
            m = a;
        }
        rank
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u128> {
        if r >= self.tier_size(t) {
            return None;
        }
        let (mut n, mut m, mut rank, mut rows) = (t, t, r, Vec::new());
        while n > 0 {
            let left = MAX_ROWS - rows.len() - 1;
            let mut v = 1;
            loop {
                if v > m.min(n) {
                    return None;
                }
                let count = self.parts(n - v, v, left);
                if rank < count {
                    break;
                }
                rank -= count;
                v += 1;
            }
            rows.push(v);
            n -= v;
            m = v;
        }
        Some(pack(&rows))
    }

    fn moves_stay(&self, _: u32) -> bool {
        self.code.digit(0) & 4 != 0
    }

    fn remoteness_bound(&self) -> Option<u32> {
        Some(self.pins + MAX_ROWS as u32)
    }
}
