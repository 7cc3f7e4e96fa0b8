//! Connect Four: an independent minimax on small boards, mirror symmetry, notation.

use std::collections::HashMap;

use gamegraph_game::games::{BoardSizeError, ConnectFour};
use gamegraph_game::tier::Tiered;
use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame};

use crate::common;
use crate::common::Column;

/// Independent rules on a grid: `cells[c][r]`, row 0 at the bottom, 0 empty, 1 X, 2 O.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<Vec<u8>>,
}

impl Grid {
    fn from_text(s: &str, w: usize, h: usize) -> Grid {
        let mut cells = vec![vec![0u8; h]; w];
        for (i, row) in s.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                cells[c][h - 1 - i] = match ch {
                    'X' => 1,
                    'O' => 2,
                    _ => 0,
                };
            }
        }
        Grid { w, h, cells }
    }

    fn stones(&self) -> usize {
        self.cells.iter().flatten().filter(|&&c| c != 0).count()
    }

    fn four(&self) -> bool {
        self.four_of(1) || self.four_of(2)
    }

    /// Whether `who` (1 X, 2 O) has four in a line.
    fn four_of(&self, who: u8) -> bool {
        let at =
            |c: i64, r: i64| (0..self.w as i64).contains(&c) && (0..self.h as i64).contains(&r);
        for c in 0..self.w as i64 {
            for r in 0..self.h as i64 {
                let me = self.cells[c as usize][r as usize];
                if me != who {
                    continue;
                }
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (1..4).all(|k| {
                        at(c + k * dc, r + k * dr)
                            && self.cells[(c + k * dc) as usize][(r + k * dr) as usize] == me
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn key(&self) -> u64 {
        self.cells.iter().flatten().fold(0, |k, &c| k * 3 + u64::from(c))
    }
}

fn minimax(g: &Grid, memo: &mut HashMap<u64, (Outcome, u32)>) -> (Outcome, u32) {
    if let Some(&v) = memo.get(&g.key()) {
        return v;
    }
    let v = if g.four() {
        (Outcome::Loss, 0)
    } else if g.stones() == g.w * g.h {
        (Outcome::Tie, 0)
    } else {
        let me = if g.stones().is_multiple_of(2) { 1 } else { 2 };
        let mut children = Vec::new();
        for c in 0..g.w {
            if let Some(r) = g.cells[c].iter().position(|&x| x == 0) {
                let mut n = g.clone();
                n.cells[c][r] = me;
                children.push(minimax(&n, memo));
            }
        }
        common::minimax_step(&children)
    };
    memo.insert(g.key(), v);
    v
}

fn check_board(w: u32, h: u32, every: usize) {
    let solved =
        SolvedGame::new(ConnectFour::new(w, h).unwrap(), &ExploreConfig::default()).unwrap();
    let mut memo = HashMap::new();
    let start = Grid::from_text(&solved.game().show(solved.game().start()), w as usize, h as usize);
    let (o, r) = minimax(&start, &mut memo);
    assert_eq!((solved.start_outcome(), solved.start_remoteness()), (o, Some(r)));
    for (i, &p) in solved.positions().iter().enumerate() {
        if i % every != 0 {
            continue;
        }
        let text = solved.game().show(p);
        let (o, r) = minimax(&Grid::from_text(&text, w as usize, h as usize), &mut memo);
        assert_eq!(solved.value(p), Some((o, Some(r))), "{text}");
    }
}

#[test]
fn board_4x4_matches_minimax_everywhere() {
    check_board(4, 4, 1);
}

#[test]
fn board_5x4_matches_minimax() {
    check_board(5, 4, 97);
}

#[test]
fn small_boards_match_minimax_everywhere() {
    for (w, h) in [(1, 4), (4, 1), (3, 3), (4, 3), (3, 4), (5, 2), (2, 5)] {
        check_board(w, h, 1);
    }
}

#[test]
fn mirror_on_and_off_agree() {
    let sym = SolvedGame::new(ConnectFour::new(4, 4).unwrap(), &ExploreConfig::default()).unwrap();
    let plain =
        SolvedGame::new(ConnectFour::without_symmetry(4, 4).unwrap(), &ExploreConfig::default())
            .unwrap();
    assert!(sym.len() < plain.len());
    for &p in plain.positions() {
        assert_eq!(sym.value(p), plain.value(p));
    }
    assert_eq!(plain.start_outcome(), Outcome::Tie);
}

#[test]
fn notation_round_trips_and_reports_columns() {
    let g = ConnectFour::without_symmetry(5, 4).unwrap();
    let solved =
        SolvedGame::new(ConnectFour::without_symmetry(4, 3).unwrap(), &ExploreConfig::default())
            .unwrap();
    for &p in solved.positions() {
        let s = solved.game().show(p);
        assert_eq!(solved.game().parse(&s), Ok(p), "{s}");
    }
    let p = g.parse("...../...../..o../.xx..").unwrap();
    assert_eq!(g.show(p), "...../...../..O../.XX..");
    let mut moves = Vec::new();
    g.moves(p, &mut moves);
    assert_eq!(moves.len(), 5);
    assert!(moves.iter().all(|&q| g.show(q).matches('O').count() == 2));
    let e = g.parse("...../...../..O../.X?..").unwrap_err();
    assert_eq!(e.column(), 21);
    assert_eq!(g.parse("..../...../...../.....").unwrap_err().column(), 5);
    assert_eq!(g.parse("...../...../..X../.....").unwrap_err().column(), 3);
    assert_eq!(g.parse("...../...../...../OO...").unwrap_err().column(), 1);
    assert_eq!(g.parse("...../.....").unwrap_err().column(), 12);
    assert_eq!(
        ConnectFour::new(8, 8).unwrap_err(),
        BoardSizeError::TooLarge { width: 8, height: 8 }
    );
    assert!(ConnectFour::new(7, 6).is_ok());
    assert!(ConnectFour::new(1, 63).is_ok());
    assert_eq!(ConnectFour::new(0, 3).unwrap_err(), BoardSizeError::Empty);
}

#[test]
fn four_in_a_row_finishes_the_game() {
    let g = ConnectFour::new(5, 4).unwrap();
    // X has just completed a diagonal: O is to move and has lost.
    let p = g.parse("...X./..XO./.XOO./XOXXO").unwrap();
    let mut moves = Vec::new();
    g.moves(p, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(g.terminal(p), gamegraph_game::Terminal::Loss);
    // A full 1 × 4 column without four of a colour is a tie.
    let g = ConnectFour::new(1, 4).unwrap();
    let p = g.parse("O/X/O/X").unwrap();
    g.moves(p, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(g.terminal(p), gamegraph_game::Terminal::Tie);
}

/// Every board of `w × h` with a legal number of stones, from the notation: all `3^(w·h)`
/// fillings of the cells, kept when they parse.
fn every_board(w: u32, h: u32) -> Vec<u64> {
    let game = ConnectFour::without_symmetry(w, h).unwrap();
    let cells = (w * h) as usize;
    let mut boards = Vec::new();
    for mut code in 0..3u64.pow(w * h) {
        let mut text = String::new();
        for i in 0..cells {
            if i > 0 && i % w as usize == 0 {
                text.push('/');
            }
            text.push(['.', 'X', 'O'][(code % 3) as usize]);
            code /= 3;
        }
        if let Ok(p) = game.parse(&text) {
            boards.push(p);
        }
    }
    boards
}

/// Every board of `w × h` with a legal number of stones, column by column: each column a
/// bottom-up string of `X` and `O` of length `0..=h`, kept when the board parses. Faster
/// than [`every_board`] where few cells are empty below a stone.
fn every_stacked_board(w: u32, h: u32) -> Vec<u64> {
    let game = ConnectFour::without_symmetry(w, h).unwrap();
    let (w, h) = (w as usize, h as usize);
    // A column's code `2^len + bits`: `len` stones, bit `r` set for an O at row `r`.
    let per_column = (1usize << (h + 1)) - 1;
    let mut boards = Vec::new();
    for mut code in 0..per_column.pow(w as u32) {
        let mut cells = vec![vec!['.'; h]; w];
        for column in &mut cells {
            let c = code % per_column + 1;
            code /= per_column;
            let len = (usize::BITS - 1 - c.leading_zeros()) as usize;
            for (r, cell) in column.iter_mut().enumerate().take(len) {
                *cell = if c >> r & 1 == 1 { 'O' } else { 'X' };
            }
        }
        let text: Vec<String> =
            (0..h).rev().map(|r| (0..w).map(|c| cells[c][r]).collect()).collect();
        if let Ok(p) = game.parse(&text.join("/")) {
            boards.push(p);
        }
    }
    boards
}

#[test]
fn ranks_number_every_board_once_from_zero() {
    for (w, h, count) in [(3, 3, 984), (4, 3, 12_933), (2, 5, 1_065), (5, 2, 4_788)] {
        let game = ConnectFour::without_symmetry(w, h).unwrap();
        let boards = every_board(w, h);
        let mut ranks: Vec<u64> = boards.iter().map(|&p| game.rank(p).unwrap()).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (0..count).collect::<Vec<u64>>(), "{w} × {h}");
    }
    // Reachable positions are boards: their ranks are below the count of boards.
    let solved =
        SolvedGame::new(ConnectFour::without_symmetry(4, 4).unwrap(), &ExploreConfig::default())
            .unwrap();
    let mut ranks: Vec<u64> =
        solved.positions().iter().map(|&p| solved.game().rank(p).unwrap()).collect();
    ranks.sort_unstable();
    ranks.dedup();
    assert_eq!(ranks.len(), solved.len());
    assert!(ranks.last().is_some_and(|&r| r < 201_755));
    // Every board size that fits a position has its ranks.
    for w in 1..=64u32 {
        for h in 1..=64 / w - 1 {
            let game = ConnectFour::new(w, h).unwrap();
            assert_eq!(game.rank(game.start()), Some(0));
        }
    }
}

#[test]
fn numbers_of_unreachable_boards_are_known_to_be_unreachable() {
    // On every board: reachable unless not canonical, or the player to move has four in a
    // line, or the other player has lines of four and no top stone of theirs is in all of
    // them, checked against the grid's own rules; and nothing past the last number.
    let sizes = [(3, 3, 984), (4, 3, 12_933), (2, 5, 1_065), (5, 2, 4_788), (4, 4, 201_755)];
    for (w, h, count) in sizes {
        let boards = if w * h <= 12 { every_board(w, h) } else { every_stacked_board(w, h) };
        assert_eq!(boards.len() as u64, count, "{w} × {h}");
        for (mirror, game) in [
            (true, ConnectFour::new(w, h).unwrap()),
            (false, ConnectFour::without_symmetry(w, h).unwrap()),
        ] {
            let (mut skipped, mut ended_before) = (0, 0);
            for &p in &boards {
                let g = Grid::from_text(&game.show(p), w as usize, h as usize);
                let to_move = if g.stones().is_multiple_of(2) { 1 } else { 2 };
                let last = 3 - to_move;
                let last_may_win = !g.four_of(last)
                    || (0..w as usize).any(|c| {
                        let Some(top) = g.cells[c].iter().rposition(|&s| s != 0) else {
                            return false;
                        };
                        let mut without = g.clone();
                        without.cells[c][top] = 0;
                        g.cells[c][top] == last && !without.four_of(last)
                    });
                let want = game.canonical(p) == p && !g.four_of(to_move) && last_may_win;
                let r = game.rank(p).unwrap();
                assert_eq!(game.rank_may_be_reached(r), want, "{w} × {h}: {}", game.show(p));
                skipped += usize::from(!want);
                ended_before += usize::from(!last_may_win && !g.four_of(to_move));
            }
            // Mirror images are skipped, and boards where the game ended before, among them
            // boards where the last player's lines of four were not all made last.
            assert_eq!(skipped > 0, mirror || w >= 4 || h >= 4, "{w} × {h}");
            assert_eq!(ended_before > 0, w >= 4 || h >= 4, "{w} × {h}");
            assert!(!game.rank_may_be_reached(count));
            assert!(!game.rank_may_be_reached(u64::MAX));
            // A tier's numbers asked a block at a time (across height vectors, and past the
            // last number) answer as when asked one by one.
            for t in 0..game.tier_count() {
                let mut may = vec![false; 97];
                for first in (0..game.tier_size(t) + 97).step_by(97) {
                    game.tier_ranks_may_be_reached(t, first, &mut may);
                    for (r, &m) in (first..).zip(&may) {
                        let one = game.tier_rank_may_be_reached(t, r);
                        assert_eq!(m, one, "{w} × {h}, tier {t}, rank {r}");
                    }
                }
            }
        }
    }
    // Every reachable position of 4 × 4, with and without symmetry.
    for game in [ConnectFour::new(4, 4).unwrap(), ConnectFour::without_symmetry(4, 4).unwrap()] {
        let solved = SolvedGame::new(game, &ExploreConfig::default()).unwrap();
        let game = solved.game();
        assert!(
            solved.positions().iter().all(|&p| game.rank_may_be_reached(game.rank(p).unwrap()))
        );
    }
    // Numbers of large boards come back as the same boards.
    let game = ConnectFour::without_symmetry(7, 6).unwrap();
    let mut rng = gamegraph_testkit::SplitMix64::new(7);
    for _ in 0..2000 {
        let mut p = game.start();
        let mut next = Vec::new();
        for _ in 0..rng.below(42) {
            next.clear();
            game.moves(p, &mut next);
            if next.is_empty() {
                break;
            }
            p = next[rng.below(next.len() as u64) as usize];
        }
        assert!(game.rank_may_be_reached(game.rank(p).unwrap()), "{}", game.show(p));
    }
}
