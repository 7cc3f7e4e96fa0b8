//! Connect Four on a board of any size that fits a 64-bit bitboard.

use crate::{Game, ParseError, Terminal};

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
#[derive(Debug, Clone)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    mirror: bool,
    /// The bottom bit of every column.
    bottom: u64,
    /// Every cell of the board (no marker row).
    board: u64,
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
        Ok(ConnectFour { width, height, mirror: true, bottom, board })
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

    fn canonical(&self, key: u64) -> u64 {
        if self.mirror { key.min(self.mirror_key(key)) } else { key }
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
