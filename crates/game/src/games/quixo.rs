//! Quixo on an n × n board of cubes (n from 3 to 5): take a cube from the edge, push it
//! back in at the end of its row or column.

use crate::tier::Tiered;
use crate::{Board, Game, Grid, ParseError, Terminal};

/// The smallest board side.
pub const MIN_QUIXO: u32 = 3;
/// The largest board side.
pub const MAX_QUIXO: u32 = 5;

/// Bit of the position set when O is to move.
const O_TO_MOVE: u32 = 50;

/// Quixo on an `n × n` board of cubes, each blank or marked X or O; X moves first.
///
/// Rules: a move takes a cube from the edge of the board that is blank or shows the mover's
/// mark (never the opponent's), marks it with the mover's mark, and pushes it back in at an
/// end of its row or of its column other than the place it came from, the cubes between
/// sliding by one. A line of `n` cubes of one mark (a row, a column or a diagonal) ends the
/// game: a player who has such a line when it is their turn wins, even if the opponent has
/// one too (so a move that completes the opponent's line loses); a player with no line who
/// faces an opponent's line has lost. A player without a move has lost. There are no ties;
/// play that goes on for ever is a draw.
///
/// Position: a `u64`, the cells of X in bits 0–24 and of O in bits 25–49 (cell `n·row +
/// column`, rows from the top), bit 50 set when O is to move.
///
/// Notation: the rows from the top separated by `/`, each `n` cells of `X`, `O` and `.`
/// (blank), then a space and `x` or `o` for the player to move:
/// `..../.X../..O./.... x`. Reading also accepts lower-case marks and `-` for a blank.
///
/// Symmetry: [`Quixo::new`] identifies the 8 symmetries of the square;
/// [`Quixo::without_symmetry`] keeps them apart.
///
/// Tiers: the numbers of X and O cubes; taking a blank cube moves play to a child tier,
/// taking one's own cube stays in the tier.
#[derive(Debug, Clone)]
pub struct Quixo {
    n: u32,
    /// Every move of a cube from the edge, in the order moves are generated.
    slides: Vec<Slide>,
    /// Whether positions are identified up to the symmetries of the square.
    symmetric: bool,
    /// The mirror image (columns reversed) and the transpose (rows for columns) of a
    /// position, each as delta swaps `(mask, shift)`: the bits of `mask` trade places with
    /// those `shift` above them, in both sides' cells at once.
    mirror: Vec<(u64, u32)>,
    transpose: Vec<(u64, u32)>,
    /// On boards of at most 16 cells, the images of every set of cells under the eight
    /// symmetries (in the order of [`eight`]): a table of 1 MiB on 4 × 4 that answers
    /// [`canonical`](Game::canonical) with two reads.
    images: Vec<[u16; 8]>,
    lines: Vec<u64>,
    /// `binom[a·(cells + 1) + b]`.
    binom: Vec<u64>,
    /// The combinatorial numbers of sets of cells a byte at a time: the part of byte `b`
    /// of chunk `k` (cells `8k..8k + 8`) in the number of a set with `c` members below
    /// the chunk is `colex_bytes[start(k) + 256·c + b]`, where chunk `k` starts at
    /// `start(k) = 256·Σ_{j<k} (8j + 1)`.
    colex_bytes: Vec<u32>,
    /// Whether the processor gathers bits in one instruction (x86-64 BMI2 `pext`) and
    /// counts them in one (POPCNT).
    pext: bool,
}

/// One move of a cube from the edge, as bit masks: the cube taken (`taken`, which must not
/// be the opponent's), the cells from the end it goes in at to its old place (`span`), those
/// of them that slide one step towards that place (`moved`, by `shift` bits: 1 or the side,
/// negative towards the low end), and the end (`end`).
#[derive(Debug, Clone, Copy)]
struct Slide {
    taken: u64,
    span: u64,
    moved: u64,
    shift: i32,
    end: u64,
}

impl Slide {
    /// The mover's cells and the opponent's after the slide.
    fn apply(&self, mine: u64, theirs: u64) -> (u64, u64) {
        let shift = |b: u64| {
            if self.shift > 0 { b << self.shift } else { b >> -self.shift }
        };
        let mine = (mine & !self.span) | shift(mine & self.moved) | self.end;
        let theirs = (theirs & !self.span) | shift(theirs & self.moved);
        (mine, theirs)
    }
}

/// The slides of an n × n board, edge cube by edge cube in reading order, each to the
/// left end of its row, the right end, the top of its column, the bottom.
fn slides(n: usize) -> Vec<Slide> {
    let bit = |r: usize, c: usize| 1u64 << (r * n + c);
    let cells = |r: std::ops::Range<usize>, c: std::ops::Range<usize>| {
        r.flat_map(|i| c.clone().map(move |j| (i, j))).fold(0u64, |m, (i, j)| m | bit(i, j))
    };
    let last = n - 1;
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if !(r == 0 || c == 0 || r == last || c == last) {
                continue;
            }
            let taken = bit(r, c);
            let mut push = |span: u64, moved: u64, shift: i32, end: u64| {
                out.push(Slide { taken, span, moved, shift, end });
            };
            if c != 0 {
                push(cells(r..r + 1, 0..c + 1), cells(r..r + 1, 0..c), 1, bit(r, 0));
            }
            if c != last {
                push(cells(r..r + 1, c..n), cells(r..r + 1, c + 1..n), -1, bit(r, last));
            }
            if r != 0 {
                push(cells(0..r + 1, c..c + 1), cells(0..r, c..c + 1), n as i32, bit(0, c));
            }
            if r != last {
                let moved = cells(r + 1..n, c..c + 1);
                push(cells(r..n, c..c + 1), moved, -(n as i32), bit(last, c));
            }
        }
    }
    out
}

/// Why a Quixo board side is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuixoSizeError {
    /// The side asked for.
    pub n: u32,
}

impl std::fmt::Display for QuixoSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a Quixo board has a side of {MIN_QUIXO} to {MAX_QUIXO} cubes, not {}", self.n)
    }
}

impl std::error::Error for QuixoSizeError {}

impl Quixo {
    /// Quixo on `n × n` with positions identified up to the symmetries of the square.
    ///
    /// # Errors
    /// [`QuixoSizeError`] unless `3 ≤ n ≤ 5`.
    pub fn new(n: u32) -> Result<Quixo, QuixoSizeError> {
        if !(MIN_QUIXO..=MAX_QUIXO).contains(&n) {
            return Err(QuixoSizeError { n });
        }
        let s = n as usize;
        let cell = |r: usize, c: usize| r * s + c;
        let both = |cells: &mut dyn Iterator<Item = usize>| {
            cells.fold(0u64, |m, c| m | 1 << c | 1 << (c + 25))
        };
        let mirror = (0..s / 2)
            .map(|c| (both(&mut (0..s).map(|r| cell(r, c))), (s - 1 - 2 * c) as u32))
            .collect();
        let transpose = (1..s)
            .map(|d| (both(&mut (0..s - d).map(|r| cell(r, r + d))), (d * (s - 1)) as u32))
            .collect();
        let mut lines = Vec::new();
        for i in 0..s {
            lines.push((0..s).fold(0u64, |m, j| m | 1 << cell(i, j)));
            lines.push((0..s).fold(0u64, |m, j| m | 1 << cell(j, i)));
        }
        lines.push((0..s).fold(0u64, |m, j| m | 1 << cell(j, j)));
        lines.push((0..s).fold(0u64, |m, j| m | 1 << cell(j, s - 1 - j)));
        let cells = s * s;
        let mut binom = vec![0u64; (cells + 1) * (cells + 1)];
        for a in 0..=cells {
            binom[a * (cells + 1)] = 1;
            for b in 1..=a {
                binom[a * (cells + 1) + b] =
                    binom[(a - 1) * (cells + 1) + b - 1] + binom[(a - 1) * (cells + 1) + b];
            }
        }
        let mut q = Quixo {
            n,
            slides: slides(s),
            symmetric: true,
            mirror,
            transpose,
            images: Vec::new(),
            lines,
            binom,
            colex_bytes: Vec::new(),
            pext: has_pext(),
        };
        if cells <= 16 {
            q.images =
                (0..1u64 << cells).map(|bits| q.eight(bits).map(|image| image as u16)).collect();
        }
        q.colex_bytes = (0..cells.div_ceil(8))
            .flat_map(|k| (0..=8 * k).flat_map(move |c| (0..256u64).map(move |b| (k, c, b))))
            .map(|(k, c, b)| {
                let bits = b << (8 * k) & q.full();
                let rank = (0..64)
                    .filter(|&i| bits >> i & 1 == 1)
                    .enumerate()
                    .fold(0, |rank, (j, place)| rank + q.binom(place, c + j + 1));
                u32::try_from(rank).expect("C(25, 12) fits in 32 bits")
            })
            .collect();
        Ok(q)
    }

    /// Quixo on `n × n` where symmetric positions stay apart.
    ///
    /// # Errors
    /// As [`Quixo::new`].
    pub fn without_symmetry(n: u32) -> Result<Quixo, QuixoSizeError> {
        Ok(Quixo { symmetric: false, ..Quixo::new(n)? })
    }

    /// The side of the board.
    pub fn side(&self) -> u32 {
        self.n
    }

    fn cells(&self) -> usize {
        (self.n * self.n) as usize
    }

    fn full(&self) -> u64 {
        (1u64 << self.cells()) - 1
    }

    /// `(X's cells, O's cells, O to move)`.
    fn parts(&self, p: u64) -> (u64, u64, bool) {
        (p & self.full(), (p >> 25) & self.full(), p >> O_TO_MOVE & 1 == 1)
    }

    fn key(x: u64, o: u64, o_to_move: bool) -> u64 {
        x | o << 25 | u64::from(o_to_move) << O_TO_MOVE
    }

    fn has_line(&self, cells: u64) -> bool {
        self.lines.iter().any(|&l| l & !cells == 0)
    }

    fn binom(&self, a: usize, b: usize) -> u64 {
        if b > a { 0 } else { self.binom[a * (self.cells() + 1) + b] }
    }

    /// The combinatorial number of the set bits of `bits` (Σ C(place, i) over the i-th set
    /// bit, from 1), a byte of cells at a time.
    fn colex(&self, bits: u64) -> u64 {
        let (mut rank, mut below, mut start) = (0u64, 0usize, 0usize);
        for k in 0..self.cells().div_ceil(8) {
            let byte = (bits >> (8 * k) & 0xff) as usize;
            rank += u64::from(self.colex_bytes[start + 256 * below + byte]);
            below += byte.count_ones() as usize;
            start += 256 * (8 * k + 1);
        }
        rank
    }

    /// The images of the cells `bits` (either side's, or both at once) under the eight
    /// symmetries of the square, the identity first, from two reflections.
    fn eight(&self, p: u64) -> [u64; 8] {
        let m = |q| swaps(q, &self.mirror);
        let t = |q| swaps(q, &self.transpose);
        let (a, b) = (m(p), t(p));
        let (c, d) = (t(a), m(b));
        let (e, f) = (m(c), t(d));
        [p, a, b, c, d, e, f, m(f)]
    }

    /// The rank of `p` in its tier, [`gather`] packing O's cells.
    #[inline(always)]
    fn rank_with(&self, p: u64, gather: impl Fn(u64, u64) -> u64) -> u64 {
        let (x, o, o_to_move) = self.parts(p);
        let cells = self.cells();
        let others = self.binom(cells - x.count_ones() as usize, o.count_ones() as usize);
        let ro = self.colex(gather(o, self.full() & !x));
        2 * (self.colex(x) * others + ro) + u64::from(o_to_move)
    }

    fn rank(&self, p: u64) -> u64 {
        self.rank_with(p, gather)
    }

    /// [`rank`](Self::rank) with BMI2's `pext` and POPCNT.
    ///
    /// # Safety
    /// The processor must have BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    #[target_feature(enable = "bmi2,popcnt")]
    unsafe fn rank_bmi2(&self, p: u64) -> u64 {
        self.rank_with(p, |bits, mask| std::arch::x86_64::_pext_u64(bits, mask))
    }

    /// The `k`-subset of `0..n` of combinatorial number `rank`.
    fn uncolex(&self, n: usize, k: usize, mut rank: u64) -> u64 {
        let (mut bits, mut below) = (0u64, n);
        for i in (1..=k).rev() {
            below -= 1;
            while self.binom(below, i) > rank {
                below -= 1;
            }
            rank -= self.binom(below, i);
            bits |= 1 << below;
        }
        bits
    }

    fn tier_of(&self, x: u32, o: u32) -> u32 {
        x * (self.cells() as u32 + 1) + o
    }

    fn counts_of(&self, t: u32) -> (usize, usize) {
        let k = self.cells() + 1;
        ((t as usize) / k, (t as usize) % k)
    }
}

/// `bits` with the delta swaps `(mask, shift)` applied in turn: the bits of `mask` trade
/// places with those `shift` above them.
fn swaps(mut bits: u64, swaps: &[(u64, u32)]) -> u64 {
    for &(mask, shift) in swaps {
        let t = (bits >> shift ^ bits) & mask;
        bits ^= t ^ t << shift;
    }
    bits
}

/// Whether this processor has BMI2's `pext` and POPCNT.
fn has_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The bits of `bits` at the set places of `mask`, packed to the low end.
fn gather(bits: u64, mut mask: u64) -> u64 {
    let (mut out, mut i) = (0u64, 0);
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << i;
        }
        i += 1;
        mask ^= low;
    }
    out
}

/// The low bits of `bits` spread to the set places of `mask`.
fn scatter(mut bits: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & 1 != 0 {
            out |= low;
        }
        bits >>= 1;
        mask ^= low;
    }
    out
}

impl Game for Quixo {
    type Position = u64;

    fn start(&self) -> u64 {
        0
    }

    fn moves(&self, p: u64, out: &mut Vec<u64>) {
        let (x, o, o_to_move) = self.parts(p);
        if self.has_line(x) || self.has_line(o) {
            return;
        }
        let (mine, theirs) = if o_to_move { (o, x) } else { (x, o) };
        for slide in self.slides.iter().filter(|m| theirs & m.taken == 0) {
            let (m, t) = slide.apply(mine, theirs);
            let (nx, no) = if o_to_move { (t, m) } else { (m, t) };
            out.push(Self::key(nx, no, !o_to_move));
        }
    }

    fn identity(&self) -> String {
        format!("quixo {}x{} {}", self.n, self.n, super::symmetry(self.symmetric))
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn terminal(&self, p: u64) -> Terminal {
        let (x, o, o_to_move) = self.parts(p);
        let mine = if o_to_move { o } else { x };
        if self.has_line(mine) { Terminal::Win } else { Terminal::Loss }
    }

    /// The cube taken and the cell it is pushed in at, each as its column `a`… from the
    /// left and its row `1`… from the bottom: `a1-e1` takes the bottom-left cube and
    /// pushes it in at the right end of the bottom row. A move is the position it leads
    /// to: when two slides lead to one position, the first in reading order of the cube
    /// taken names it.
    fn move_name(&self, from: u64, to: u64) -> Option<String> {
        let (x, o, o_to_move) = self.parts(from);
        let (mine, theirs) = if o_to_move { (o, x) } else { (x, o) };
        let slide = self.slides.iter().filter(|m| theirs & m.taken == 0).find(|slide| {
            let (m, t) = slide.apply(mine, theirs);
            let (nx, no) = if o_to_move { (t, m) } else { (m, t) };
            Self::key(nx, no, !o_to_move) == to
        })?;
        let n = self.n as usize;
        let name = |bit: u64| {
            let cell = bit.trailing_zeros() as usize;
            format!("{}{}", (b'a' + (cell % n) as u8) as char, n - cell / n)
        };
        Some(format!("{}-{}", name(slide.taken), name(slide.end)))
    }

    fn board(&self, p: u64) -> Option<Board> {
        let text: Vec<char> = self.show(p).chars().filter(|&c| "XO.".contains(c)).collect();
        let n = self.n as usize;
        let grid = Grid::from_fn(
            n,
            n,
            |r, c| text[r * n + c],
            |r| (n - r).to_string(),
            |c| ((b'a' + c as u8) as char).to_string(),
        );
        Some(Board::Grid(grid.with_line_of(n)))
    }

    fn canonical(&self, p: u64) -> u64 {
        if !self.symmetric {
            return p;
        }
        let (x, o, o_to_move) = self.parts(p);
        let least = if let (Some(ix), Some(io)) =
            (self.images.get(x as usize), self.images.get(o as usize))
        {
            ix.iter().zip(io).map(|(&x, &o)| u64::from(x) | u64::from(o) << 25).min()
        } else {
            self.eight(x | o << 25).into_iter().min()
        };
        least.expect("eight images") | u64::from(o_to_move) << O_TO_MOVE
    }

    fn show(&self, p: u64) -> String {
        let (x, o, o_to_move) = self.parts(p);
        let s = self.n as usize;
        let mut text = String::new();
        for c in 0..s * s {
            if c > 0 && c % s == 0 {
                text.push('/');
            }
            text.push(if x >> c & 1 == 1 {
                'X'
            } else if o >> c & 1 == 1 {
                'O'
            } else {
                '.'
            });
        }
        text.push_str(if o_to_move { " o" } else { " x" });
        text
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        let s = self.n as usize;
        let (mut x, mut o) = (0u64, 0u64);
        let (mut cell, mut col) = (0usize, 0usize);
        let mut chars = text.chars().enumerate().map(|(i, ch)| (i + 1, ch));
        for (at, ch) in chars.by_ref() {
            match ch {
                '/' if col == s && cell < s * s => col = 0,
                'X' | 'x' | 'O' | 'o' | '.' | '-' if col < s && cell < s * s => {
                    match ch {
                        'X' | 'x' => x |= 1 << cell,
                        'O' | 'o' => o |= 1 << cell,
                        _ => {}
                    }
                    cell += 1;
                    col += 1;
                }
                ' ' if cell == s * s => break,
                _ => {
                    return Err(ParseError::new(
                        at,
                        format!(
                            "expected {s} rows of {s} cells of X, O and . separated by /, then x or o"
                        ),
                    ));
                }
            }
        }
        let rest: Vec<(usize, char)> = chars.filter(|&(_, ch)| ch != ' ').collect();
        let o_to_move = match rest[..] {
            [(_, 'x' | 'X')] => false,
            [(_, 'o' | 'O')] => true,
            _ => {
                let at = rest.first().map_or(text.chars().count() + 1, |&(at, _)| at);
                return Err(ParseError::new(
                    at,
                    "expected x or o after the board, for the player to move",
                ));
            }
        };
        Ok(Self::key(x, o, o_to_move))
    }
}

/// Tier `x·(n² + 1) + o` holds the boards of `x` X cubes and `o` O cubes; ranks number the
/// X cells, then the O cells among the others, then the player to move.
impl Tiered for Quixo {
    fn tier_count(&self) -> u32 {
        let k = self.cells() as u32 + 1;
        k * k
    }

    fn tier(&self, p: u64) -> u32 {
        let (x, o, _) = self.parts(p);
        self.tier_of(x.count_ones(), o.count_ones())
    }

    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        let (x, o) = self.counts_of(t);
        if x + o < self.cells() {
            out.push(self.tier_of(x as u32 + 1, o as u32));
            out.push(self.tier_of(x as u32, o as u32 + 1));
        }
    }

    fn tier_size(&self, t: u32) -> u64 {
        let (x, o) = self.counts_of(t);
        let cells = self.cells();
        if x + o > cells {
            return 0;
        }
        2 * self.binom(cells, x) * self.binom(cells - x, o)
    }

    fn tier_rank(&self, p: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            #[allow(unsafe_code)]
            // SAFETY: `pext` is set only when the processor has BMI2 and POPCNT.
            return unsafe { self.rank_bmi2(p) };
        }
        self.rank(p)
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u64> {
        if r >= self.tier_size(t) {
            return None;
        }
        let (nx, no) = self.counts_of(t);
        let cells = self.cells();
        let others = self.binom(cells - nx, no);
        let (rest, o_to_move) = (r / 2, r % 2 == 1);
        let x = self.uncolex(cells, nx, rest / others);
        let o = scatter(self.uncolex(cells - nx, no, rest % others), self.full() & !x);
        Some(Self::key(x, o, o_to_move))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of `p` cell by cell on an array board: the cube taken from the edge goes
    /// in at an end of its row or column, the cells between shift one step.
    fn reference_moves(q: &Quixo, p: u64) -> Vec<u64> {
        let (x, o, o_to_move) = q.parts(p);
        if q.has_line(x) || q.has_line(o) {
            return Vec::new();
        }
        let (mine, theirs) = if o_to_move { (o, x) } else { (x, o) };
        let s = q.n as isize;
        let cell = |r: isize, c: isize| (r * s + c) as usize;
        let board: Vec<u8> = (0..(s * s) as usize)
            .map(|i| if mine >> i & 1 == 1 { 1 } else { u8::from(theirs >> i & 1 == 1) * 2 })
            .collect();
        let mut out = Vec::new();
        for r in 0..s {
            for c in 0..s {
                let edge = r == 0 || c == 0 || r == s - 1 || c == s - 1;
                if !edge || board[cell(r, c)] == 2 {
                    continue;
                }
                let last = s - 1;
                for (ok, (r0, c0), (dr, dc), len) in [
                    (c != 0, (r, 0), (0, 1), c),
                    (c != last, (r, last), (0, -1), last - c),
                    (r != 0, (0, c), (1, 0), r),
                    (r != last, (last, c), (-1, 0), last - r),
                ] {
                    if !ok {
                        continue;
                    }
                    let mut b = board.clone();
                    for k in (1..=len).rev() {
                        b[cell(r0 + k * dr, c0 + k * dc)] =
                            b[cell(r0 + (k - 1) * dr, c0 + (k - 1) * dc)];
                    }
                    b[cell(r0, c0)] = 1;
                    let bits = |v: u8| {
                        b.iter().enumerate().fold(0u64, |m, (i, &w)| m | u64::from(w == v) << i)
                    };
                    let (m, t) = (bits(1), bits(2));
                    let (nx, no) = if o_to_move { (t, m) } else { (m, t) };
                    out.push(Quixo::key(nx, no, !o_to_move));
                }
            }
        }
        out
    }

    #[test]
    fn moves_by_masks_equal_moves_cell_by_cell() {
        let mut rng = gamegraph_graph::generate::SplitMix64(7);
        for n in MIN_QUIXO..=MAX_QUIXO {
            let q = Quixo::without_symmetry(n).unwrap();
            let mut out = Vec::new();
            for _ in 0..3000 {
                let cells = q.cells();
                let (mut x, mut o) = (0u64, 0u64);
                for c in 0..cells {
                    match rng.next_u64() % 3 {
                        0 => x |= 1 << c,
                        1 => o |= 1 << c,
                        _ => {}
                    }
                }
                let p = Quixo::key(x, o, rng.next_u64() % 2 == 1);
                out.clear();
                q.moves(p, &mut out);
                assert_eq!(out, reference_moves(&q, p), "{}", q.show(p));
            }
        }
    }

    #[test]
    fn canonical_is_the_least_of_the_eight_images_cell_by_cell() {
        let mut rng = gamegraph_graph::generate::SplitMix64(5);
        for n in MIN_QUIXO..=MAX_QUIXO {
            let q = Quixo::new(n).unwrap();
            let s = n as usize;
            let cell = |r: usize, c: usize| r * s + c;
            let rotate = |p: usize| cell(p % s, s - 1 - p / s);
            let mirror = |p: usize| cell(p / s, s - 1 - p % s);
            let mut perms = Vec::new();
            let mut perm: Vec<usize> = (0..s * s).collect();
            for _ in 0..4 {
                perms.push(perm.clone());
                perms.push(perm.iter().map(|&p| mirror(p)).collect::<Vec<_>>());
                perm = perm.iter().map(|&p| rotate(p)).collect();
            }
            for _ in 0..3000 {
                let x = rng.next_u64() & q.full();
                let o = rng.next_u64() & q.full() & !x;
                let turn = rng.next_u64() % 2 == 1;
                let image = |perm: &[usize], bits: u64| {
                    (0..s * s).filter(|&c| bits >> c & 1 == 1).fold(0u64, |m, c| m | 1 << perm[c])
                };
                let least = perms
                    .iter()
                    .map(|perm| Quixo::key(image(perm, x), image(perm, o), turn))
                    .min()
                    .unwrap();
                assert_eq!(q.canonical(Quixo::key(x, o, turn)), least);
            }
        }
    }

    #[test]
    fn ranks_by_bytes_and_pext_equal_ranks_bit_by_bit() {
        let mut rng = gamegraph_graph::generate::SplitMix64(11);
        for n in MIN_QUIXO..=MAX_QUIXO {
            let q = Quixo::without_symmetry(n).unwrap();
            let slow = Quixo { pext: false, ..q.clone() };
            for _ in 0..3000 {
                let (x, o) = (rng.next_u64() & q.full(), rng.next_u64() & q.full());
                let o = o & !x;
                let by_bits = {
                    let (mut rank, mut i, mut bits) = (0, 0, x);
                    while bits != 0 {
                        i += 1;
                        rank += q.binom(bits.trailing_zeros() as usize, i);
                        bits &= bits - 1;
                    }
                    rank
                };
                assert_eq!(q.colex(x), by_bits);
                let p = Quixo::key(x, o, rng.next_u64() % 2 == 1);
                assert_eq!(q.tier_rank(p), slow.tier_rank(p));
                assert_eq!(q.tier_unrank(q.tier(p), q.tier_rank(p)), Some(p));
            }
        }
    }

    #[test]
    fn notation_round_trips_and_moves_slide_the_line() {
        let q = Quixo::without_symmetry(4).unwrap();
        let p = q.parse("X.../..../..O./.... o").unwrap();
        assert_eq!(q.show(p), "X.../..../..O./.... o");
        let mut out = Vec::new();
        q.moves(q.start(), &mut out);
        // 4 corners × 2 + 8 other edge cubes × 3.
        assert_eq!(out.len(), 32);
        // O may not take X's cube in the corner; O takes the blank cube right of it and
        // pushes it in at the left end of the top row: X slides right.
        let shown: Vec<String> = {
            out.clear();
            q.moves(p, &mut out);
            out.iter().map(|&m| q.show(m)).collect()
        };
        assert!(shown.contains(&"OX../..../..O./.... x".to_string()), "{shown:?}");
        assert!(q.parse("X../..../..O./.... o").is_err());
        assert!(q.parse("X.../..../..O./....").is_err());
    }
}
