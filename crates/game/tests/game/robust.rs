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

/// CRC-32 (IEEE), to forge a header whose checksum holds.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// A small values file: Kayles from rows of 3 and 5 pins, one block.
fn small_file() -> (SolvedGame<OctalRows>, Vec<u8>) {
    let solved =
        SolvedGame::new(OctalRows::kayles(&[3, 5]).unwrap(), &ExploreConfig::default()).unwrap();
    let mut bytes = Vec::new();
    solved.save(&mut bytes, true).unwrap();
    (solved, bytes)
}

#[test]
fn a_forged_block_size_is_refused_before_anything_is_allocated() {
    let (solved, mut bytes) = small_file();
    // The header: 56 bytes, the identity, one index entry of 32, then the checksum.
    let at = 56 + Game::identity(solved.game()).len() + 32;
    bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    let crc = crc32(&bytes[..at]);
    bytes[at..at + 4].copy_from_slice(&crc.to_le_bytes());
    let started = std::time::Instant::now();
    let e = ValuesFile::open(solved.game().clone(), Cursor::new(&bytes)).unwrap_err();
    assert_eq!(
        e,
        gamegraph_game::FileError::Corrupt {
            reason: "the block size is not the one files are written with"
        }
    );
    assert!(started.elapsed() < std::time::Duration::from_millis(100));
}

#[test]
fn every_truncation_and_every_bit_flip_is_an_error_or_the_right_answer() {
    let (solved, bytes) = small_file();
    let game = || solved.game().clone();
    for len in 0..bytes.len() {
        assert!(ValuesFile::open(game(), Cursor::new(&bytes[..len])).is_err(), "cut at {len}");
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(ValuesFile::open(game(), Cursor::new(&extra)).is_err());
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        if let Ok(mut file) = ValuesFile::open(game(), Cursor::new(&b)) {
            for &p in solved.positions() {
                if let Ok(v) = file.value(p) {
                    assert_eq!(v, solved.value(p), "bit {bit} flipped");
                }
            }
        }
    }
}
