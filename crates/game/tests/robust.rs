//! No panic from user input: any text given to `parse`, any damage to a values file.

use std::io::Cursor;

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TicTacToe};
use gamegraph_game::{ExploreConfig, Game, SolvedGame, ValuesFile};
use proptest::prelude::*;

/// `parse` returns, never panics; what it accepts prints and reads back alike.
fn parse_is_total<G: Game>(game: &G, text: &str) -> Result<(), TestCaseError> {
    if let Ok(p) = game.parse(text) {
        let shown = game.show(p);
        let again = game.parse(&shown);
        prop_assert!(again.is_ok(), "{text:?} -> {shown:?} -> {again:?}");
        prop_assert_eq!(game.show(again.unwrap()), shown);
    }
    Ok(())
}

proptest! {
    #[test]
    fn parse_never_panics(text in "[XxOo.\\-/ 0-9,CcMm]{0,30}|\\PC{0,30}") {
        parse_is_total(&TicTacToe::new(), &text)?;
        parse_is_total(&ConnectFour::new(4, 3).unwrap(), &text)?;
        parse_is_total(&ConnectFour::new(1, 63).unwrap(), &text)?;
        parse_is_total(&OctalRows::kayles(&[5]).unwrap(), &text)?;
        parse_is_total(&Chase::new(4).unwrap(), &text)?;
    }

    #[test]
    fn parsed_boards_round_trip(cells in proptest::collection::vec(0u8..3, 12)) {
        let g = ConnectFour::new(4, 3).unwrap();
        let text: String = cells
            .chunks(4)
            .map(|row| row.iter().map(|&c| ['.', 'X', 'O'][c as usize]).collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        if let Ok(p) = g.parse(&text) {
            prop_assert_eq!(g.show(p), text);
        }
    }

    #[test]
    fn damaged_values_files_never_give_wrong_values(at in 0usize..10_000, bits in 1u8..=255, cut in 0usize..10_000) {
        let solved = SolvedGame::new(TicTacToe::new(), &ExploreConfig::default()).unwrap();
        let mut bytes = Vec::new();
        solved.save(&mut bytes, true).unwrap();
        let at = at % bytes.len();
        bytes[at] ^= bits;
        bytes.truncate(bytes.len() - cut % 8);
        if let Ok(mut file) = ValuesFile::open(TicTacToe::new(), Cursor::new(bytes)) {
            for &p in solved.positions() {
                if let Ok(v) = file.value(p) {
                    prop_assert_eq!(v, solved.value(p));
                }
            }
        }
    }
}
