//! A loopy game: a cat chases a mouse around a ring.

use crate::tier::Tiered;
use crate::{Board, Game, Grid, ParseError};

/// The smallest ring.
pub const MIN_RING: u32 = 3;
/// The largest ring: cells are stored in 8 bits.
pub const MAX_RING: u32 = 255;

/// Bit of the packed position set when the mouse is to move.
const MOUSE_TO_MOVE: u32 = 1 << 16;

/// A cat chases a mouse around a ring of `n` cells; play can go on for ever, so draws occur.
///
/// Rules: the cat starts on cell 0, the mouse on cell `n / 2`, and the cat moves first.
/// The players alternate. The cat must step to one of the two neighbouring cells; if it
/// steps onto the mouse it catches it, and the mouse, to move, has lost. The mouse steps to
/// a neighbouring cell that the cat is not on, or stays where it is. Nothing else ends the
/// game: if the mouse is never caught, play goes on for ever (a draw). On a ring of 3 the
/// mouse cannot escape; on larger rings the cat wins only from a position where it stands
/// next to the mouse and is to move (or can force one).
///
/// Position: a `u32`, the cat's cell in bits 0–7, the mouse's in bits 8–15, bit 16 set
/// when the mouse is to move.
///
/// Symmetry: the ring may be rotated and reflected, so [`Chase::new`] identifies a
/// position with the one where the cat is on cell 0 and the mouse at most half way round
/// clockwise; [`Chase::without_symmetry`] keeps them apart.
///
/// Notation: the ring as `n` characters from cell 0, `C` the cat, `M` the mouse, `X` both
/// (the mouse is caught), `.` an empty cell; a space; then `c` or `m`, who is to move.
/// For example `C...M... c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chase {
    n: u32,
    symmetry: bool,
}

/// Why a ring size is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingSizeError {
    /// The size asked for.
    pub n: u32,
}

impl std::fmt::Display for RingSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a ring of {} cells: the ring has {MIN_RING} to {MAX_RING} cells", self.n)
    }
}

impl std::error::Error for RingSizeError {}

impl Chase {
    /// The chase on a ring of `n` cells, positions identified up to the ring's symmetries.
    ///
    /// # Errors
    /// [`RingSizeError`] unless `MIN_RING ≤ n ≤ MAX_RING`.
    pub fn new(n: u32) -> Result<Chase, RingSizeError> {
        if !(MIN_RING..=MAX_RING).contains(&n) {
            return Err(RingSizeError { n });
        }
        Ok(Chase { n, symmetry: true })
    }

    /// The chase on a ring of `n` cells where symmetric positions stay apart.
    ///
    /// # Errors
    /// As [`Chase::new`].
    pub fn without_symmetry(n: u32) -> Result<Chase, RingSizeError> {
        Ok(Chase { symmetry: false, ..Chase::new(n)? })
    }

    /// The number of cells of the ring.
    pub fn cells(&self) -> u32 {
        self.n
    }

    /// The position with the cat on `cat`, the mouse on `mouse`, and the mouse to move
    /// if `mouse_to_move`. Cells are taken modulo the ring size.
    pub fn position(&self, cat: u32, mouse: u32, mouse_to_move: bool) -> u32 {
        (cat % self.n) | (mouse % self.n) << 8 | if mouse_to_move { MOUSE_TO_MOVE } else { 0 }
    }

    fn parts(p: u32) -> (u32, u32, bool) {
        (p & 0xff, (p >> 8) & 0xff, p & MOUSE_TO_MOVE != 0)
    }
}

impl Game for Chase {
    type Position = u32;

    /// `chase 13 with symmetry`: the ring's cells, and whether its symmetries are used.
    fn identity(&self) -> String {
        format!("chase {} {}", self.n, super::symmetry(self.symmetry))
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u32 {
        self.position(0, self.n / 2, false)
    }

    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        let (cat, mouse, mouse_to_move) = Self::parts(p);
        if cat == mouse {
            return;
        }
        let neighbours = |c: u32| ((c + self.n - 1) % self.n, (c + 1) % self.n);
        if mouse_to_move {
            let (l, r) = neighbours(mouse);
            for to in [mouse, l, r] {
                if to != cat {
                    out.push(self.position(cat, to, false));
                }
            }
        } else {
            let (l, r) = neighbours(cat);
            out.push(self.position(l, mouse, true));
            out.push(self.position(r, mouse, true));
        }
    }

    /// The cell the mover steps to, numbered round the ring from 0: `to 5`; `stay` when
    /// the mouse stays where it is.
    fn move_name(&self, from: u32, to: u32) -> Option<String> {
        let (cat, mouse, mouse_to_move) = Self::parts(from);
        let (cat2, mouse2, _) = Self::parts(to);
        Some(match (mouse_to_move, mouse2 == mouse) {
            (true, true) => "stay".to_owned(),
            (true, false) => format!("to {mouse2}"),
            (false, _) if cat2 != cat => format!("to {cat2}"),
            (false, _) => return None,
        })
    }

    /// The ring as one row of cells numbered from 0, on rings of at most 40 cells.
    fn board(&self, p: u32) -> Option<Board> {
        if self.n > 40 {
            return None;
        }
        let ring: Vec<char> = self.show(p).chars().take(self.n as usize).collect();
        let grid =
            Grid::from_fn(1, ring.len(), |_, c| ring[c], |_| String::new(), |c| c.to_string());
        Some(Board::Grid(grid))
    }

    fn canonical(&self, p: u32) -> u32 {
        if !self.symmetry {
            return p;
        }
        let (cat, mouse, mouse_to_move) = Self::parts(p);
        let d = (mouse + self.n - cat) % self.n;
        self.position(0, d.min(self.n - d), mouse_to_move)
    }

    /// `2·(n·cat + mouse) + turn`, below `2n²`.
    fn rank(&self, p: u32) -> Option<u64> {
        let (cat, mouse, mouse_to_move) = Self::parts(p);
        Some(2 * (u64::from(self.n) * u64::from(cat) + u64::from(mouse)) + u64::from(mouse_to_move))
    }

    fn show(&self, p: u32) -> String {
        let (cat, mouse, mouse_to_move) = Self::parts(p);
        let mut s: String = (0..self.n)
            .map(|c| match (c == cat, c == mouse) {
                (true, true) => 'X',
                (true, false) => 'C',
                (false, true) => 'M',
                (false, false) => '.',
            })
            .collect();
        s.push_str(if mouse_to_move { " m" } else { " c" });
        s
    }

    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        let chars: Vec<char> = s.chars().collect();
        let n = self.n as usize;
        let (mut cat, mut mouse) = (None, None);
        for (i, &ch) in chars.iter().take(n).enumerate() {
            let at = i + 1;
            let (is_cat, is_mouse) = match ch {
                'C' | 'c' => (true, false),
                'M' | 'm' => (false, true),
                'X' | 'x' => (true, true),
                '.' | '-' => (false, false),
                _ => {
                    return Err(ParseError::new(
                        at,
                        format!("unexpected {ch:?}: expected C, M, X or ."),
                    ));
                }
            };
            for (here, slot, who) in [(is_cat, &mut cat, "cat"), (is_mouse, &mut mouse, "mouse")] {
                if here && slot.replace(i as u32).is_some() {
                    return Err(ParseError::new(at, format!("a second {who}")));
                }
            }
        }
        if chars.len() < n {
            return Err(ParseError::new(chars.len() + 1, format!("the ring has {n} cells")));
        }
        let (Some(cat), Some(mouse)) = (cat, mouse) else {
            return Err(ParseError::new(
                1,
                "the ring needs a cat (C) and a mouse (M), or X for both",
            ));
        };
        let turn = match chars.get(n..) {
            Some([' ', 'c' | 'C']) => false,
            Some([' ', 'm' | 'M']) => true,
            _ => {
                return Err(ParseError::new(
                    n + 1,
                    "expected a space and c or m (the player to move) after the ring",
                ));
            }
        };
        Ok(self.position(cat, mouse, turn))
    }
}
/// One tier, whose moves all stay in it: the chase is solved by retrograde analysis inside
/// it. Ranks are [`Game::rank`]s, below `2n²`.
impl Tiered for Chase {
    fn tier_count(&self) -> u32 {
        1
    }

    fn tier(&self, _: u32) -> u32 {
        0
    }

    fn child_tiers(&self, _: u32, _: &mut Vec<u32>) {}

    fn tier_size(&self, _: u32) -> u64 {
        2 * u64::from(self.n) * u64::from(self.n)
    }

    fn tier_rank(&self, p: u32) -> u64 {
        self.rank(p).unwrap_or(0)
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u32> {
        if t != 0 || r >= self.tier_size(0) {
            return None;
        }
        let n = u64::from(self.n);
        let (cat, mouse) = ((r / 2 / n) as u32, (r / 2 % n) as u32);
        Some(self.position(cat, mouse, r % 2 == 1))
    }
}
