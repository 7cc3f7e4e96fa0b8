//! Kayles and Dawson's Kayles: an independent minimax, Grundy values against the octal engine.

use std::collections::HashMap;

use crate::common::Column;
use gamegraph_game::games::{OctalRows, RowsError};
use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame, explore};
use gamegraph_grundy::octal::{Config, analyse_octal};

/// Independent rules: a row of pins, a move knocks down `k` adjacent pins (`k` in `sizes`)
/// anywhere in one row, leaving the pins on either side as rows.
fn minimax(
    rows: Vec<u32>,
    sizes: &[u32],
    memo: &mut HashMap<Vec<u32>, (Outcome, u32)>,
) -> (Outcome, u32) {
    let mut rows: Vec<u32> = rows.into_iter().filter(|&n| n > 0).collect();
    rows.sort_unstable();
    if let Some(&v) = memo.get(&rows) {
        return v;
    }
    let mut children = Vec::new();
    for i in 0..rows.len() {
        for &k in sizes {
            for left in 0..=rows[i].saturating_sub(k) {
                if left + k > rows[i] {
                    continue;
                }
                let right = rows[i] - k - left;
                let mut next = rows.clone();
                next[i] = left;
                next.push(right);
                children.push(minimax(next, sizes, memo));
            }
        }
    }
    let v = if children.is_empty() {
        (Outcome::Loss, 0)
    } else if let Some(r) = children.iter().filter(|c| c.0 == Outcome::Loss).map(|c| c.1).min() {
        (Outcome::Win, r + 1)
    } else {
        (Outcome::Loss, children.iter().map(|c| c.1).max().unwrap() + 1)
    };
    memo.insert(rows, v);
    v
}

#[test]
fn kayles_and_dawson_match_minimax() {
    for (name, sizes) in [("kayles", &[1, 2][..]), ("dawson", &[2][..])] {
        let mut memo = HashMap::new();
        let starts: Vec<Vec<u32>> = (0..=12)
            .map(|n| vec![n])
            .chain([vec![3, 4, 5], vec![1, 1, 6, 2], vec![7, 7]])
            .collect();
        for rows in starts {
            let game = match name {
                "kayles" => OctalRows::kayles(&rows),
                _ => OctalRows::dawson(&rows),
            }
            .unwrap();
            let solved = SolvedGame::new(game, &ExploreConfig::default()).unwrap();
            for &p in solved.positions() {
                let (o, r) = minimax(solved.game().rows(p), sizes, &mut memo);
                assert_eq!(solved.value(p), Some((o, Some(r))), "{name} {}", solved.game().show(p));
            }
        }
    }
}

#[test]
fn grundy_values_equal_the_octal_engine() {
    for code in ["0.77", "0.07", "4.07", "0.137"] {
        let analysis =
            analyse_octal(&code.parse().unwrap(), &Config::default(), &mut |_| {}).unwrap();
        let limit = if code == "4.07" { 21 } else { 30 };
        for n in 0..=limit {
            let game = OctalRows::new(code.parse().unwrap(), &[n]).unwrap();
            let explored = explore(&game, &ExploreConfig::default()).unwrap();
            let values = gamegraph_grundy::grundy(explored.graph()).unwrap();
            assert_eq!(
                values[explored.start().index()],
                analysis.value(u64::from(n)).unwrap(),
                "{code} row {n}"
            );
        }
    }
}

#[test]
fn canonical_sorts_rows_and_notation_round_trips() {
    let g = OctalRows::kayles(&[3, 5, 1]).unwrap();
    assert_eq!(g.show(g.start()), "5 3 1");
    let p = g.parse("1, 5  3 0").unwrap();
    assert_eq!(p, g.start());
    assert_eq!(g.show(p), "5 3 1");
    assert_eq!(g.show(g.parse("0").unwrap()), "0");
    let mut moves = Vec::new();
    g.moves(g.parse("3").unwrap(), &mut moves);
    let mut shown: Vec<String> = moves.iter().map(|&q| g.show(q)).collect();
    shown.sort();
    assert_eq!(shown, ["1", "1 1", "2"].map(String::from).to_vec());
    let e = g.parse("3 x").unwrap_err();
    assert_eq!(e.column(), 3);
    assert_eq!(g.parse("3 64").unwrap_err().column(), 3);
    assert_eq!(g.parse("  ").unwrap_err().column(), 1);
    assert_eq!(OctalRows::kayles(&[64]).unwrap_err(), RowsError::RowTooLong { len: 64 });
    assert!(OctalRows::kayles(&[40]).is_ok());
    // 68 million rows of 63 pins: more than 2^32 pins in all, summed without wrapping.
    let many = vec![63u32; 68_174_085];
    assert!(matches!(
        OctalRows::kayles(&many),
        Err(RowsError::TooManyRows { pins: 4_294_967_355, rows: 68_174_085 })
    ));
    // One row holds at most 41 pins: 1 row + 41 pins = 2 · MAX_ROWS.
    assert!(OctalRows::kayles(&[41]).is_ok());
    assert!(matches!(OctalRows::kayles(&[42]), Err(RowsError::TooManyRows { .. })));
    assert!(OctalRows::kayles(&[20, 20]).is_ok());
    assert!(matches!(OctalRows::kayles(&[40, 3]), Err(RowsError::TooManyRows { .. })));
    assert!(matches!(
        OctalRows::new("4.07".parse().unwrap(), &[22]),
        Err(RowsError::TooManyRows { .. })
    ));
}

proptest::proptest! {
    #[test]
    fn prop_kayles_rows_match_minimax(rows in proptest::collection::vec(0u32..9, 1..4)) {
        let solved = SolvedGame::new(OctalRows::kayles(&rows).unwrap(), &ExploreConfig::default()).unwrap();
        let (o, r) = minimax(rows.clone(), &[1, 2], &mut HashMap::new());
        proptest::prop_assert_eq!((solved.start_outcome(), solved.start_remoteness()), (o, Some(r)));
    }
}
