//! Connect Four on a board of any size that fits a 64-bit bitboard.

use crate::tier::Tiered;
use crate::{Board, Game, Grid, ParseError, Terminal};

/// Connect Four on a board of `width` columns and `height` rows chosen at run time.
///
/// Rules: X moves first; a move drops a stone of the player to move into a column that is
/// not full, where it falls to the lowest empty cell. Four stones of one player in a line
/// (vertical, horizontal or diagonal) win: the position after that move is finished and
/// lost for the player to move. A full board without such a line is a tie.
///
/// Position: a `u64` bitboard key. Column `c` owns bits `c·(h+1) .. (c+1)·(h+1)` (bit 0 of
/// a column is its bottom cell); in each column, the stones of the player to move are set,
/// the other player's are clear, and one more bit is set just above the top stone. So a
/// board needs `width·(height+1) ≤ 64` bits.
///
/// Notation: the rows from the top, separated by `/`, each `width` cells of `X`, `O` and `.`
/// (empty); for example `...../...../..O../.XX..` on 5 × 4. X is to move when both have as
/// many stones. Reading also accepts lower case and `-` for an empty cell.
///
/// Symmetry: [`ConnectFour::new`] identifies a position with its mirror image (columns
/// reversed); [`ConnectFour::without_symmetry`] keeps them apart.
///
/// Rank: positions are numbered by the number of stones `n` first (all boards of fewer
/// stones come before), then by the heights of the columns (in the lexicographic order of
/// the height vectors summing to `n`), then by which of the `n` stones are O's (`⌊n/2⌋` of
/// them; the combinatorial number of their places, the stones counted column by column
/// from the bottom). Every board with X to move when both have as many stones, and O to
/// move when X has one more, gets its own number below the count of such boards: 5 621 939
/// on 5 × 4, 159 643 961 on 6 × 4, about 7.1·10^13 on 7 × 6 and 2.0·10^18 on 8 × 7 (every
/// board that fits a position counts its boards below 2^64).
#[derive(Debug, Clone)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    mirror: bool,
    /// The bottom bit of every column.
    bottom: u64,
    /// Every cell of the board (no marker row).
    board: u64,
    /// The tables of [`Game::rank`].
    ranks: Ranks,
}

/// Counting tables of the rank of a board.
#[derive(Debug, Clone)]
struct Ranks {
    /// `before[n]`: the boards of fewer than `n` stones.
    before: Vec<u64>,
    /// Binomial coefficients up to the number of cells: `binom[n·(cells+1) + k]`.
    binom: Vec<u64>,
    /// `skip[(c·(cells+1) + s)·(height+1) + j]`: the height vectors of the columns
    /// `c..width` summing to `s` whose column `c` is lower than `j`: the numbers a
    /// column `c` of height `j` skips.
    skip: Vec<u64>,
}

impl Ranks {
    /// The tables for `width × height`.
    ///
    /// # Panics
    /// If the boards cannot be counted in 64 bits, which no board of at most 64 bits of
    /// position does (a test builds every such size).
    fn new(width: u32, height: u32) -> Ranks {
        let fits = "every board of a 64-bit position counts its boards below 2^64";
        let (w, h) = (width as usize, height as usize);
        let cells = w * h;
        let mut choose = vec![vec![0u64; cells + 1]; cells + 1];
        for n in 0..=cells {
            choose[n][0] = 1;
            for k in 1..=n {
                choose[n][k] = choose[n - 1][k - 1].checked_add(choose[n - 1][k]).expect(fits);
            }
        }
        let mut fill = vec![vec![0u64; cells + 1]; w + 1];
        fill[w][0] = 1;
        for c in (0..w).rev() {
            for s in 0..=cells {
                let mut sum = 0u64;
                for k in 0..=h.min(s) {
                    sum = sum.checked_add(fill[c + 1][s - k]).expect(fits);
                }
                fill[c][s] = sum;
            }
        }
        let mut before = vec![0u64; cells + 2];
        for n in 0..=cells {
            let tier = fill[0][n].checked_mul(choose[n][n / 2]).expect(fits);
            before[n + 1] = before[n].checked_add(tier).expect(fits);
        }
        let binom = choose.iter().flatten().copied().collect();
        let mut skip = vec![0u64; w * (cells + 1) * (h + 1)];
        for c in 0..w {
            for s in 0..=cells {
                let base = (c * (cells + 1) + s) * (h + 1);
                // `fill[c + 1][s']`: the height vectors of the columns after `c` summing
                // to `s'`.
                for j in 1..=h.min(s) {
                    skip[base + j] = skip[base + j - 1].saturating_add(fill[c + 1][s - j + 1]);
                }
            }
        }
        Ranks { before, binom, skip }
    }
}

impl ConnectFour {
    /// The board numbered `rank` (see the type's documentation) as `(stones of the player
    /// to move, all stones)`; `None` past the last number.
    fn unrank(&self, rank: u64) -> Option<(u64, u64)> {
        let t = &self.ranks;
        let n = t.before.iter().rposition(|&b| b <= rank)?;
        if n + 1 >= t.before.len() {
            return None;
        }
        Some(self.unrank_in_tier(n, rank - t.before[n]))
    }

    /// The board of `n` stones numbered `rest` among them, as `(stones of the player to
    /// move, all stones)`; `rest` is below the tier's count.
    fn unrank_in_tier(&self, n: usize, rest: u64) -> (u64, u64) {
        let ways = self.ranks.binom[n * (self.cells() + 1) + n / 2];
        let heights = self.height_vector(n, rest / ways);
        let chosen = self.combination(n, rest % ways);
        heights.board(chosen, n)
    }

    fn cells(&self) -> usize {
        (self.width * self.height) as usize
    }

    /// The heights of the columns of number `index` among the height vectors summing to `n`.
    fn height_vector(&self, n: usize, mut index: u64) -> Heights {
        let t = &self.ranks;
        let (h, cells) = (self.height as usize, self.cells());
        let mut heights = Heights { mask: 0, columns: [(0, 0); 32], width: self.width as usize };
        let mut left = n;
        for c in 0..self.width as usize {
            let skip = &t.skip[(c * (cells + 1) + left) * (h + 1)..][..=h.min(left)];
            let height = skip.partition_point(|&s| s <= index) - 1;
            index -= skip[height];
            let shift = c as u32 * self.stride();
            heights.mask |= ((1u64 << height) - 1) << shift;
            heights.columns[c] = (shift as u8, height as u8);
            left -= height;
        }
        heights
    }

    /// The `n / 2`-subset of `0..n` (O's stones among the `n`, counted in bit order:
    /// column by column from the bottom) of combinatorial number `places`.
    fn combination(&self, n: usize, mut places: u64) -> u64 {
        let (t, cells) = (&self.ranks, self.cells());
        let (mut chosen, mut below) = (0u64, n);
        for i in (1..=n / 2).rev() {
            below -= 1;
            while t.binom[below * (cells + 1) + i] > places {
                below -= 1;
            }
            places -= t.binom[below * (cells + 1) + i];
            chosen |= 1 << below;
        }
        chosen
    }

    /// `(stones, number among the boards of as many stones)` of a key.
    fn rank_in_tier(&self, key: u64) -> (usize, u64) {
        let t = &self.ranks;
        let (h, cells) = (self.height as usize, (self.width * self.height) as usize);
        let height = |c: usize| {
            let seg = (key >> (c as u32 * self.stride())) & self.column_bits();
            63 - seg.leading_zeros() as usize
        };
        let n: usize = (0..self.width as usize).map(height).sum();
        // The player to move's stones among the `n`, in bit order, and the height vector's
        // number.
        let (mut index, mut left, mut mine, mut seen) = (0u64, n, 0u64, 0usize);
        for c in 0..self.width as usize {
            let height = height(c);
            index += t.skip[(c * (cells + 1) + left) * (h + 1) + height];
            left -= height;
            let seg = key >> (c as u32 * self.stride());
            mine |= (seg & ((1u64 << height) - 1)) << seen;
            seen += height;
        }
        // O's stones: those of the player to move when X has one more.
        let mut rest = if n.is_multiple_of(2) { mine ^ ((1u64 << n) - 1) } else { mine };
        let (mut places, mut i) = (0u64, 0usize);
        while rest != 0 {
            let below = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i += 1;
            places += t.binom[below * (cells + 1) + i];
        }
        (n, index * t.binom[n * (cells + 1) + n / 2] + places)
    }
}

/// The columns' heights of a board: its stones, and each column's first bit and height.
#[derive(Clone, Copy)]
struct Heights {
    mask: u64,
    columns: [(u8, u8); 32],
    width: usize,
}

impl Heights {
    /// `(stones of the player to move, all stones)` of the board of `n` stones whose O's
    /// stones are the set bits of `chosen` among them, in bit order.
    fn board(&self, mut chosen: u64, n: usize) -> (u64, u64) {
        let mut o = 0u64;
        for &(shift, height) in &self.columns[..self.width] {
            o |= (chosen & ((1u64 << height) - 1)) << shift;
            chosen >>= height;
        }
        let current = if n.is_multiple_of(2) { self.mask ^ o } else { o };
        (current, self.mask)
    }
}

/// The next set of as many bits in increasing order of value (Gosper's hack), which is the
/// next combinatorial number; `c` is not 0.
fn next_combination(c: u64) -> u64 {
    let t = c | (c - 1);
    (t + 1) | (((!t & (!t).wrapping_neg()) - 1) >> (c.trailing_zeros() + 1))
}

/// Why a Connect Four board size is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardSizeError {
    /// A side of the board is zero.
    Empty,
    /// `width·(height+1)` is more than the 64 bits of a position.
    TooLarge {
        /// The board's columns.
        width: u32,
        /// The board's rows.
        height: u32,
    },
}

impl std::fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardSizeError::Empty => f.write_str("a board needs at least one row and one column"),
            BoardSizeError::TooLarge { width, height } => write!(
                f,
                "a {width} × {height} board needs {} bits, more than the 64 of a position \
                 (width × (height + 1) ≤ 64)",
                u64::from(*width) * (u64::from(*height) + 1)
            ),
        }
    }
}

impl std::error::Error for BoardSizeError {}

impl ConnectFour {
    /// Connect Four on `width` columns and `height` rows (the classic board is 7 × 6),
    /// positions identified with their mirror images.
    ///
    /// # Errors
    /// [`BoardSizeError`] if a side is 0 or `width·(height+1) > 64`.
    pub fn new(width: u32, height: u32) -> Result<ConnectFour, BoardSizeError> {
        if width == 0 || height == 0 {
            return Err(BoardSizeError::Empty);
        }
        if u64::from(width) * (u64::from(height) + 1) > 64 {
            return Err(BoardSizeError::TooLarge { width, height });
        }
        let stride = height + 1;
        let bottom = (0..width).fold(0u64, |b, c| b | 1 << (c * stride));
        let column = (1u64 << height) - 1;
        let board = (0..width).fold(0u64, |b, c| b | column << (c * stride));
        let ranks = Ranks::new(width, height);
        Ok(ConnectFour { width, height, mirror: true, bottom, board, ranks })
    }

    /// Connect Four where mirror images stay apart.
    ///
    /// # Errors
    /// As [`ConnectFour::new`].
    pub fn without_symmetry(width: u32, height: u32) -> Result<ConnectFour, BoardSizeError> {
        Ok(ConnectFour { mirror: false, ..ConnectFour::new(width, height)? })
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn stride(&self) -> u32 {
        self.height + 1
    }

    fn column_bits(&self) -> u64 {
        u64::MAX >> (64 - self.stride())
    }

    /// `(stones of the player to move, all stones)` of a key.
    fn split(&self, key: u64) -> (u64, u64) {
        let mut mask = 0;
        for c in 0..self.width {
            let shift = c * self.stride();
            let seg = (key >> shift) & self.column_bits();
            let top = 63 - seg.leading_zeros();
            mask |= ((1u64 << top) - 1) << shift;
        }
        (key & mask, mask)
    }

    fn key(&self, current: u64, mask: u64) -> u64 {
        current + mask + self.bottom
    }

    /// Whether `stones` hold four in a line.
    fn four(&self, stones: u64) -> bool {
        let h = u64::from(self.height);
        let shr =
            |x: u64, s: u64| u32::try_from(s).ok().and_then(|s| x.checked_shr(s)).unwrap_or(0);
        [1, h, h + 1, h + 2].into_iter().any(|s| {
            let m = stones & shr(stones, s);
            m & shr(m, 2 * s) != 0
        })
    }

    /// Whether the lines of four of the player who moved last, if any, may all have been
    /// made by their last move: taking away one of their top stones leaves no line.
    fn last_stone_may_win(&self, current: u64, mask: u64) -> bool {
        let last = mask ^ current;
        if !self.four(last) {
            return true;
        }
        (0..self.width).any(|c| {
            let shift = c * self.stride();
            let column = (mask >> shift) & self.column_bits();
            column != 0 && {
                let top = 1u64 << (63 - column.leading_zeros() + shift);
                last & top != 0 && !self.four(last & !top)
            }
        })
    }

    /// Whether a board may be reached (see [`Game::rank_may_be_reached`]).
    fn board_may_be_reached(&self, current: u64, mask: u64) -> bool {
        let key = self.key(current, mask);
        self.canonical(key) == key && !self.four(current) && self.last_stone_may_win(current, mask)
    }

    /// Calls `f` with the board of each rank of `ranks` (increasing) in tier `t`, as
    /// `(stones of the player to move, all stones)`, or `None` past the tier: consecutive
    /// ranks of one height vector step from one combination to the next instead of
    /// unranking each.
    fn boards_sorted(
        &self,
        t: u32,
        ranks: impl Iterator<Item = u64>,
        mut f: impl FnMut(Option<(u64, u64)>),
    ) {
        let n = t as usize;
        if t >= self.tier_count() {
            ranks.for_each(|_| f(None));
            return;
        }
        let (size, ways) = (self.tier_size(t), self.ranks.binom[n * (self.cells() + 1) + n / 2]);
        // The height vector in use, the first rank of its boards, and the last combination.
        let mut at: Option<(Heights, u64, u64, u64)> = None;
        for r in ranks {
            if r >= size {
                f(None);
                continue;
            }
            let (heights, base, places, chosen) = match at {
                Some((heights, base, places, chosen)) if (base..base + ways).contains(&r) => {
                    let next = r - base;
                    let chosen = if next >= places && next - places <= 8 && n >= 2 {
                        (places..next).fold(chosen, |c, _| next_combination(c))
                    } else {
                        self.combination(n, next)
                    };
                    (heights, base, next, chosen)
                }
                _ => {
                    let index = r / ways;
                    let places = r % ways;
                    (
                        self.height_vector(n, index),
                        index * ways,
                        places,
                        self.combination(n, places),
                    )
                }
            };
            at = Some((heights, base, places, chosen));
            f(Some(heights.board(chosen, n)));
        }
    }

    fn mirror_key(&self, key: u64) -> u64 {
        let stride = self.stride();
        (0..self.width).fold(0, |m, c| {
            let seg = (key >> (c * stride)) & self.column_bits();
            m | seg << ((self.width - 1 - c) * stride)
        })
    }
}

impl Game for ConnectFour {
    type Position = u64;

    /// `connect-four 5x4 with symmetry`: columns x rows, and whether mirror images are one.
    fn identity(&self) -> String {
        format!("connect-four {}x{} {}", self.width, self.height, super::symmetry(self.mirror))
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u64 {
        self.bottom
    }

    fn moves(&self, key: u64, out: &mut Vec<u64>) {
        let (current, mask) = self.split(key);
        if self.four(current ^ mask) || mask == self.board {
            return;
        }
        for c in 0..self.width {
            let col = self.column_bits() << (c * self.stride());
            let new_mask = mask | ((mask + self.bottom) & col);
            if new_mask & self.board & col != mask & col {
                out.push(self.key(current ^ mask, new_mask));
            }
        }
    }

    fn terminal(&self, key: u64) -> Terminal {
        let (current, mask) = self.split(key);
        if self.four(current ^ mask) { Terminal::Loss } else { Terminal::Tie }
    }

    /// The column the stone is dropped in, numbered from 1 on the left: `column 4`.
    fn move_name(&self, from: u64, to: u64) -> Option<String> {
        let added = self.split(from).1 ^ self.split(to).1;
        (added != 0).then(|| format!("column {}", added.trailing_zeros() / self.stride() + 1))
    }

    fn board(&self, key: u64) -> Option<Board> {
        let text: Vec<char> = self.show(key).chars().filter(|&c| c != '/').collect();
        let (w, h) = (self.width as usize, self.height as usize);
        let grid = Grid::from_fn(
            h,
            w,
            |r, c| text[r * w + c],
            |r| (h - r).to_string(),
            |c| (c + 1).to_string(),
        );
        Some(Board::Grid(grid.with_line_of(4)))
    }

    fn canonical(&self, key: u64) -> u64 {
        if self.mirror { key.min(self.mirror_key(key)) } else { key }
    }

    /// The number of the board (see the type's documentation).
    fn rank(&self, key: u64) -> Option<u64> {
        let columns = (0..self.width).map(|c| (key >> (c * self.stride())) & self.column_bits());
        if columns.clone().any(|seg| seg == 0)
            || key.checked_shr(self.width * self.stride()).is_some_and(|above| above != 0)
        {
            return None; // not a key: a column without its marker bit, or bits off the board
        }
        let (n, rest) = self.rank_in_tier(key);
        Some(self.ranks.before[n] + rest)
    }

    /// Numbers of boards that are not canonical, or where the game ended before, are never
    /// reached: boards where the player to move has four in a line, and boards where the
    /// other player's lines of four cannot all have been made by their last stone (no top
    /// stone of theirs is in every one of them).
    fn rank_may_be_reached(&self, rank: u64) -> bool {
        self.unrank(rank).is_some_and(|(current, mask)| self.board_may_be_reached(current, mask))
    }

    fn show(&self, key: u64) -> String {
        let (current, mask) = self.split(key);
        let (x, o) = if mask.count_ones().is_multiple_of(2) {
            (current, mask ^ current)
        } else {
            (mask ^ current, current)
        };
        let mut s = String::new();
        for r in (0..self.height).rev() {
            if r + 1 < self.height {
                s.push('/');
            }
            for c in 0..self.width {
                let bit = 1u64 << (c * self.stride() + r);
                s.push(if x & bit != 0 {
                    'X'
                } else if o & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
        }
        s
    }

    fn parse(&self, s: &str) -> Result<u64, ParseError> {
        let (w, h) = (self.width as usize, self.height as usize);
        let (mut x, mut o) = (0u64, 0u64);
        let (mut row, mut col) = (0usize, 0usize);
        let mut last = 0;
        for (i, ch) in s.chars().enumerate() {
            let at = i + 1;
            last = at;
            if ch == '/' {
                if col != w || row + 1 >= h {
                    return Err(ParseError::new(at, format!("a row has {w} cells")));
                }
                row += 1;
                col = 0;
                continue;
            }
            if col == w {
                return Err(ParseError::new(at, format!("a row has {w} cells; expected /")));
            }
            let bit = 1u64 << (col * (h + 1) + (h - 1 - row));
            match ch {
                'X' | 'x' => x |= bit,
                'O' | 'o' => o |= bit,
                '.' | '-' => {}
                _ => {
                    return Err(ParseError::new(
                        at,
                        format!("unexpected {ch:?}: expected X, O, . or /"),
                    ));
                }
            }
            col += 1;
        }
        if row + 1 != h || col != w {
            return Err(ParseError::new(
                last + 1,
                format!("the board is {h} rows of {w} cells, separated by /"),
            ));
        }
        let mask = x | o;
        for c in 0..self.width {
            let seg = (mask >> (c * self.stride())) & self.column_bits();
            if seg & (seg + 1) != 0 {
                let at = c as usize + 1;
                return Err(ParseError::new(
                    at,
                    format!("column {at} has a stone above an empty cell"),
                ));
            }
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(ParseError::new(
                1,
                format!(
                    "{nx} X and {no} O: X moves first, so X has as many stones as O or one more"
                ),
            ));
        }
        let current = if nx == no { x } else { o };
        Ok(self.key(current, mask))
    }
}

/// Tier `n` holds the boards of `n` stones; its ranks are the boards' [`Game::rank`]s
/// less those of the boards of fewer stones. Every move adds a stone.
impl Tiered for ConnectFour {
    fn tier_count(&self) -> u32 {
        self.width * self.height + 1
    }

    fn tier(&self, key: u64) -> u32 {
        (0..self.width)
            .map(|c| 63 - ((key >> (c * self.stride())) & self.column_bits()).leading_zeros())
            .sum()
    }

    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        if t < self.width * self.height {
            out.push(t + 1);
        }
    }

    fn tier_size(&self, t: u32) -> u64 {
        let before = &self.ranks.before;
        before[t as usize + 1] - before[t as usize]
    }

    fn tier_rank(&self, key: u64) -> u64 {
        self.rank_in_tier(key).1
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u64> {
        if t >= self.tier_count() || r >= self.tier_size(t) {
            return None;
        }
        let (current, mask) = self.unrank_in_tier(t as usize, r);
        Some(self.key(current, mask))
    }

    /// Consecutive ranks of one height vector step from one combination to the next
    /// instead of unranking each.
    fn tier_unrank_sorted(&self, t: u32, ranks: &[u64], out: &mut Vec<Option<u64>>) {
        self.boards_sorted(t, ranks.iter().copied(), |board| {
            out.push(board.map(|(current, mask)| self.key(current, mask)));
        });
    }

    fn tier_rank_may_be_reached(&self, t: u32, r: u64) -> bool {
        r < self.tier_size(t) && self.rank_may_be_reached(self.ranks.before[t as usize] + r)
    }

    /// Steps from one board to the next as [`tier_unrank_sorted`](Tiered::tier_unrank_sorted)
    /// does, instead of unranking each.
    fn tier_ranks_may_be_reached(&self, t: u32, first: u64, out: &mut [bool]) {
        let mut out = out.iter_mut();
        self.boards_sorted(t, (first..).take(out.len()), |board| {
            if let Some(o) = out.next() {
                *o = board.is_some_and(|(current, mask)| self.board_may_be_reached(current, mask));
            }
        });
    }

    fn moves_stay(&self, _: u32) -> bool {
        false
    }

    fn remoteness_bound(&self) -> Option<u32> {
        Some(self.width * self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrank_inverts_rank() {
        for (w, h) in [(3, 3), (4, 3), (2, 5), (5, 2), (1, 7), (7, 6), (8, 7), (16, 3)] {
            let game = ConnectFour::without_symmetry(w, h).unwrap();
            let count = *game.ranks.before.last().unwrap();
            // Every number of the small boards; spread numbers and both ends of the large.
            let step = (count / 20_000).max(1);
            let numbers = (0..count).step_by(step as usize).chain([count - 1]);
            for r in numbers {
                let (current, mask) = game.unrank(r).unwrap();
                assert_eq!(game.rank(game.key(current, mask)), Some(r), "{w} × {h}: {r}");
            }
            assert_eq!(game.unrank(count), None);
        }
    }
}
