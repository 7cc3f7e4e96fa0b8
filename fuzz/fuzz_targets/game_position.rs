//! The position parsers of the built-in games never panic, and a position they accept is
//! shown as text that parses back to it.
#![no_main]

use gamegraph_game::Game;
use gamegraph_game::games::{Chase, ConnectFour, TabBoard, TicTacToe};
use libfuzzer_sys::fuzz_target;

fn round_trip<G: Game>(game: &G, text: &str) {
    if let Ok(p) = game.parse(text) {
        let shown = game.show(p);
        assert_eq!(game.parse(&shown).expect("a shown position parses"), p, "{shown:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    round_trip(&TicTacToe::new(), text);
    round_trip(&ConnectFour::new(7, 6).expect("7 x 6"), text);
    round_trip(&Chase::new(7).expect("a ring of 7"), text);
    round_trip(&TabBoard::new(10, 4, 1, 1).expect("a 10 x 4 board"), text);
});
