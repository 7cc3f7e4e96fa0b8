//! One row of the board, summarised in O(1), and the O(M) step that computes the next row.

use crate::board::Value;

/// The values of a whole row, in O(1) space.
///
/// All cells of row r share their successor candidates `V(r - k, k)`, `k = 1..=min(M, r)`;
/// cell y only loses candidate `k = y`. So every cell takes the best candidate
/// (`a = 1 + best`) except the column of the best one, which takes the second best
/// (`b = 1 + second`, or 0 when it has no move left). When the best two are equal, `a == b`
/// and `ex` is 0, which makes the summary canonical (equal rows have equal summaries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Row {
    /// The depth of every cell but column `ex`.
    pub(crate) a: u64,
    /// The depth of column `ex`.
    pub(crate) b: u64,
    /// The exceptional column (1-based), or 0 when there is none.
    pub(crate) ex: u32,
}

impl Row {
    /// The top row: no cell has a move.
    pub(crate) const TOP: Row = Row { a: 0, b: 0, ex: 0 };

    /// The depth of column `col`.
    #[inline]
    pub(crate) fn get(self, col: u32) -> u64 {
        if col == self.ex { self.b } else { self.a }
    }

    /// The value of column `col`.
    pub(crate) fn value(self, col: u32) -> Value {
        Value::from_depth(self.get(col))
    }
}

/// The next row from its candidates, given best-first: `cand(k)` is the depth of
/// `V(r - k, k)` for `k = 1..=kmax`.
///
/// # Complexity
/// O(kmax) time, O(1) space.
#[inline]
pub(crate) fn step(kmax: u32, mut cand: impl FnMut(u32) -> u64) -> Row {
    let mut best: Option<(u64, u64, u32)> = None; // (rank, depth, k)
    let mut second: Option<(u64, u64)> = None; // (rank, depth)
    for k in 1..=kmax {
        let d = cand(k);
        let rank = Value::from_depth(d).rank();
        match best {
            Some((br, _, _)) if rank >= br => {
                if second.is_none_or(|(sr, _)| rank < sr) {
                    second = Some((rank, d));
                }
            }
            _ => {
                if let Some((br, bd, _)) = best {
                    second = Some((br, bd));
                }
                best = Some((rank, d, k));
            }
        }
    }
    match best {
        None => Row::TOP,
        Some((_, bd, bk)) => {
            // Depths are at most the distance from the top row, so +1 cannot overflow u64
            // for any board that fits in u64; saturate to stay total anyway.
            let a = bd.saturating_add(1);
            let b = second.map_or(0, |(_, sd)| sd.saturating_add(1));
            if a == b { Row { a, b, ex: 0 } } else { Row { a, b, ex: bk } }
        }
    }
}

/// Streaming DP: the rows `0, 1, 2, …` (distances from the top row) of a board with `cols`
/// columns, keeping only the window of the last `cols` rows.
///
/// # Complexity
/// O(M) time per row, O(M) space.
#[derive(Debug, Clone)]
pub(crate) struct Stream {
    cols: u32,
    /// Row s lives at `ring[s % cols]`.
    ring: Vec<Row>,
    /// The last row computed.
    r: u64,
    /// `r % cols`, kept up to date without a division per row.
    at: usize,
}

impl Stream {
    /// A stream positioned at row 0.
    pub(crate) fn new(cols: u32) -> Stream {
        Stream { cols, ring: vec![Row::TOP; cols as usize], r: 0, at: 0 }
    }

    /// The last row computed (its distance from the top).
    pub(crate) fn last(&self) -> u64 {
        self.r
    }

    /// Computes the next row and returns it.
    #[inline]
    pub(crate) fn advance(&mut self) -> Row {
        let r = self.r + 1;
        let m = self.ring.len();
        let kmax = r.min(u64::from(self.cols)) as u32;
        // Row r - k lives at (r - k) % m: walking k = 1, 2, … goes down from `start`.
        let start = self.at;
        let ring = &self.ring;
        let row = step(kmax, |k| {
            let k0 = k as usize - 1;
            let pos = if k0 <= start { start - k0 } else { start + m - k0 };
            ring[pos].get(k)
        });
        self.at = if start + 1 == m { 0 } else { start + 1 };
        self.ring[self.at] = row;
        self.r = r;
        row
    }
}

/// The part of a row at distance `j` above the next row that later rows can read (its
/// values in columns `j + 1..=M`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Relevant {
    /// The common depth, if some readable column has it.
    pub(crate) a: Option<u64>,
    /// The exceptional depth, if the exceptional column is readable.
    pub(crate) b: Option<u64>,
    /// The exceptional column if readable, else 0.
    pub(crate) ex: u32,
}

/// See [`Relevant`].
pub(crate) fn relevant(row: Row, j: u64, cols: u32) -> Relevant {
    let readable = u64::from(cols) - j; // columns j + 1..=cols
    if row.ex != 0 && u64::from(row.ex) > j {
        Relevant { a: (readable >= 2).then_some(row.a), b: Some(row.b), ex: row.ex }
    } else {
        Relevant { a: Some(row.a), b: None, ex: 0 }
    }
}
