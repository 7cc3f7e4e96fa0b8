//! Tic-tac-toe on the 3 × 3 board, with its 8 symmetries.

use crate::tier::Tiered;
use crate::{Board, Game, Grid, ParseError, Terminal};

/// The 8 lines of three cells.
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Cell contents in the packed position.
const EMPTY: u32 = 0;
const X: u32 = 1;
const O: u32 = 2;

/// Tic-tac-toe: X moves first, the players alternately mark an empty cell, three marks in a
/// line win, a full board without a line is a tie.
///
/// Position: a `u32`, two bits per cell (0 empty, 1 X, 2 O), cell `3·row + column` at
/// bits `2·cell`, rows from the top. X is to move when both have as many marks. A position
/// with a line is finished: the player to move has lost.
///
/// Notation: the three rows from the top, separated by `/`, each three of `X`, `O` and `.`
/// (an empty cell); for example `XO./.X./..O`. Reading also accepts lower case, `-` for an
/// empty cell, and no slashes.
///
/// Symmetry: with [`TicTacToe::new`] a position is identified with its images under the 8
/// symmetries of the square (765 positions are reachable); [`TicTacToe::without_symmetry`]
/// keeps them apart (5478 positions).
#[derive(Debug, Clone)]
pub struct TicTacToe {
    /// The cell permutations of the symmetries, or only the identity.
    symmetries: Vec<[usize; 9]>,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// Tic-tac-toe with positions identified up to the 8 symmetries of the board.
    pub fn new() -> TicTacToe {
        let mut symmetries = Vec::with_capacity(8);
        let rotate = |c: usize| {
            let (r, k) = (c / 3, c % 3);
            3 * k + (2 - r)
        };
        let mirror = |c: usize| {
            let (r, k) = (c / 3, c % 3);
            3 * r + (2 - k)
        };
        let mut perm: [usize; 9] = std::array::from_fn(|c| c);
        for _ in 0..4 {
            symmetries.push(perm);
            symmetries.push(perm.map(mirror));
            perm = perm.map(rotate);
        }
        TicTacToe { symmetries }
    }

    /// Tic-tac-toe where symmetric positions stay apart.
    pub fn without_symmetry() -> TicTacToe {
        TicTacToe { symmetries: vec![std::array::from_fn(|c| c)] }
    }

    /// The content of `cell` (0..9) in `p`: 0 empty, 1 X, 2 O.
    fn cell(p: u32, cell: usize) -> u32 {
        (p >> (2 * cell)) & 3
    }

    /// Whether `mark` has a line in `p`.
    fn has_line(p: u32, mark: u32) -> bool {
        LINES.iter().any(|l| l.iter().all(|&c| Self::cell(p, c) == mark))
    }

    /// The number of X and O marks.
    fn counts(p: u32) -> (u32, u32) {
        (0..9).fold((0, 0), |(x, o), c| match Self::cell(p, c) {
            X => (x + 1, o),
            O => (x, o + 1),
            _ => (x, o),
        })
    }
}

impl Game for TicTacToe {
    type Position = u32;

    /// `tic-tac-toe with symmetry` or `tic-tac-toe without symmetry`.
    fn identity(&self) -> String {
        format!("tic-tac-toe {}", super::symmetry(self.symmetries.len() > 1))
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        if Self::has_line(p, X) || Self::has_line(p, O) {
            return;
        }
        let (x, o) = Self::counts(p);
        let mark = if x == o { X } else { O };
        for c in 0..9 {
            if Self::cell(p, c) == EMPTY {
                out.push(p | mark << (2 * c));
            }
        }
    }

    fn terminal(&self, p: u32) -> Terminal {
        if Self::has_line(p, X) || Self::has_line(p, O) { Terminal::Loss } else { Terminal::Tie }
    }

    /// The cell marked: its column `a` to `c` from the left and row `1` to `3` from the
    /// bottom, `b2` the centre.
    fn move_name(&self, from: u32, to: u32) -> Option<String> {
        let c = (0..9).find(|&c| Self::cell(from, c) != Self::cell(to, c))?;
        Some(format!("{}{}", ['a', 'b', 'c'][c % 3], 3 - c / 3))
    }

    fn board(&self, p: u32) -> Option<Board> {
        let grid = Grid::from_fn(
            3,
            3,
            |r, c| ['.', 'X', 'O', '?'][Self::cell(p, 3 * r + c) as usize],
            |r| (3 - r).to_string(),
            |c| ['a', 'b', 'c'][c].to_string(),
        );
        Some(Board::Grid(grid.with_line_of(3)))
    }

    fn canonical(&self, p: u32) -> u32 {
        self.symmetries
            .iter()
            .map(|perm| (0..9).fold(0, |q, c| q | Self::cell(p, c) << (2 * perm[c])))
            .min()
            .unwrap_or(p)
    }

    /// The cells as the digits of a number in base 3 (0 empty, 1 X, 2 O), cell 0 the
    /// least significant: below 3⁹ = 19683.
    fn rank(&self, p: u32) -> Option<u64> {
        Some((0..9).rev().fold(0, |r, c| r * 3 + u64::from(Self::cell(p, c))))
    }

    fn show(&self, p: u32) -> String {
        let mut s = String::with_capacity(11);
        for c in 0..9 {
            if c > 0 && c % 3 == 0 {
                s.push('/');
            }
            s.push(match Self::cell(p, c) {
                X => 'X',
                O => 'O',
                _ => '.',
            });
        }
        s
    }

    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        let mut p = 0;
        let mut cell = 0;
        let mut last = 0;
        for (i, ch) in s.chars().enumerate() {
            let col = i + 1;
            last = col;
            let mark = match ch {
                'X' | 'x' => X,
                'O' | 'o' => O,
                '.' | '-' => EMPTY,
                '/' if cell % 3 == 0 && cell > 0 && cell < 9 => continue,
                ' ' | '\t' if cell == 0 || cell == 9 => continue,
                _ => {
                    return Err(ParseError::new(
                        col,
                        format!("unexpected {ch:?}: expected X, O, . or / between rows"),
                    ));
                }
            };
            if cell == 9 {
                return Err(ParseError::new(col, "more than 9 cells"));
            }
            p |= mark << (2 * cell);
            cell += 1;
        }
        if cell < 9 {
            return Err(ParseError::new(last + 1, format!("{cell} cells, expected 9")));
        }
        let (x, o) = Self::counts(p);
        if x != o && x != o + 1 {
            return Err(ParseError::new(
                1,
                format!("{x} X and {o} O: X moves first, so X has as many marks as O or one more"),
            ));
        }
        Ok(p)
    }
}
/// Tier `t` holds the boards of `t` marks; a board's rank in its tier is its
/// [`Game::rank`] (3⁹ numbers per tier, most of them boards of another tier).
impl Tiered for TicTacToe {
    fn tier_count(&self) -> u32 {
        10
    }

    fn tier(&self, p: u32) -> u32 {
        let (x, o) = Self::counts(p);
        x + o
    }

    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        if t < 9 {
            out.push(t + 1);
        }
    }

    fn tier_size(&self, _: u32) -> u64 {
        19_683
    }

    fn tier_rank(&self, p: u32) -> u64 {
        self.rank(p).unwrap_or(0)
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u32> {
        if r >= 19_683 {
            return None;
        }
        let (mut p, mut rest) = (0u32, r as u32);
        for c in 0..9 {
            p |= (rest % 3) << (2 * c);
            rest /= 3;
        }
        (self.tier(p) == t).then_some(p)
    }

    fn moves_stay(&self, _: u32) -> bool {
        false
    }

    fn remoteness_bound(&self) -> Option<u32> {
        Some(9)
    }
}
