//! The reader of the game crate's values files never panics on a damaged or forged file:
//! opening it and looking positions up either works or fails with an error.
#![no_main]

use std::io::Cursor;

use gamegraph_game::games::{Chase, TicTacToe};
use gamegraph_game::{Game, ValuesFile};
use libfuzzer_sys::fuzz_target;

/// Opens `data` as a values file of `game` and looks up the start and its moves.
fn probe<G: Game>(game: G, data: &[u8])
where
    G::Position: Into<u128>,
{
    let start = game.start();
    let mut moves = Vec::new();
    game.moves(start, &mut moves);
    let Ok(mut file) = ValuesFile::open(game, Cursor::new(data)) else { return };
    for p in std::iter::once(start).chain(moves) {
        let _ = file.value(p);
    }
}

fuzz_target!(|data: &[u8]| {
    probe(TicTacToe::new(), data);
    probe(Chase::new(5).expect("a ring of 5"), data);
});
