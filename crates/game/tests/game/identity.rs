//! Values files carry the identity of their game: a file opens with the game and the
//! parameters it was written for, and with no other.

use std::io::Cursor;

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TabBoard, TicTacToe};
use gamegraph_game::{ExploreConfig, FileError, Game, SolvedGame, ValuesFile};
use proptest::prelude::*;

use crate::common::TakeOneOrTwo as Heap;

/// A shipped game whose files can be written and opened.
trait Shipped {
    fn identity(&self) -> String;
    fn save(&self) -> Vec<u8>;
    fn open(&self, bytes: &[u8]) -> Result<(), FileError>;
}

impl<G: Game + Clone> Shipped for G
where
    G::Position: Into<u128>,
{
    fn identity(&self) -> String {
        Game::identity(self)
    }
    fn save(&self) -> Vec<u8> {
        let solved = SolvedGame::new(self.clone(), &ExploreConfig::default()).unwrap();
        let mut bytes = Vec::new();
        solved.save(&mut bytes, true).unwrap();
        bytes
    }
    fn open(&self, bytes: &[u8]) -> Result<(), FileError> {
        let mut file = ValuesFile::open(self.clone(), Cursor::new(bytes))?;
        file.value(self.start()).map(|_| ())
    }
}

fn shipped() -> Vec<Box<dyn Shipped>> {
    let octal = |code: &str, rows: &[u32]| OctalRows::new(code.parse().unwrap(), rows).unwrap();
    vec![
        Box::new(TicTacToe::new()),
        Box::new(TicTacToe::without_symmetry()),
        Box::new(ConnectFour::new(3, 3).unwrap()),
        Box::new(ConnectFour::without_symmetry(3, 3).unwrap()),
        Box::new(ConnectFour::new(4, 3).unwrap()),
        Box::new(ConnectFour::new(3, 4).unwrap()),
        Box::new(OctalRows::kayles(&[4, 7]).unwrap()),
        Box::new(OctalRows::dawson(&[4, 7]).unwrap()),
        Box::new(octal("0.137", &[4, 7])),
        Box::new(OctalRows::kayles(&[11]).unwrap()),
        Box::new(OctalRows::kayles(&[5, 6]).unwrap()),
        Box::new(Chase::new(12).unwrap()),
        Box::new(Chase::new(13).unwrap()),
        Box::new(Chase::without_symmetry(13).unwrap()),
        Box::new(TabBoard::new(20, 6, 1, 1).unwrap()),
        Box::new(TabBoard::new(30, 6, 1, 1).unwrap()),
        Box::new(TabBoard::new(20, 5, 1, 1).unwrap()),
        Box::new(TabBoard::new(20, 6, 2, 3).unwrap()),
    ]
}

#[test]
fn identities_name_every_parameter() {
    let ids: Vec<String> = shipped().iter().map(|g| g.identity()).collect();
    assert_eq!(
        ids,
        [
            "tic-tac-toe with symmetry",
            "tic-tac-toe without symmetry",
            "connect-four 3x3 with symmetry",
            "connect-four 3x3 without symmetry",
            "connect-four 4x3 with symmetry",
            "connect-four 3x4 with symmetry",
            "kayles 4,7",
            "dawsons-kayles 4,7",
            "octal 0.137 4,7",
            "kayles 11",
            "kayles 5,6",
            "chase 12 with symmetry",
            "chase 13 with symmetry",
            "chase 13 without symmetry",
            "tab 20x6 from 1,1",
            "tab 30x6 from 1,1",
            "tab 20x5 from 1,1",
            "tab 20x6 from 2,3",
        ]
    );
    // The rows in any order are the same game.
    assert_eq!(Game::identity(&OctalRows::kayles(&[7, 0, 4]).unwrap()), "kayles 4,7");
}

#[test]
fn a_file_opens_with_its_own_game_only() {
    let games = shipped();
    let files: Vec<Vec<u8>> = games.iter().map(|g| g.save()).collect();
    for (i, writer) in games.iter().enumerate() {
        for (j, reader) in games.iter().enumerate() {
            let opened = reader.open(&files[i]);
            if i == j {
                assert_eq!(opened, Ok(()), "{}", writer.identity());
            } else {
                assert_eq!(
                    opened,
                    Err(FileError::OtherGame { file: writer.identity(), game: reader.identity() })
                );
            }
        }
    }
    let e = FileError::OtherGame { file: "dawsons-kayles 4,7".into(), game: "kayles 4,7".into() };
    assert_eq!(e.to_string(), "values file written for dawsons-kayles 4,7, not kayles 4,7");
}

#[test]
fn a_game_without_an_identity_reopens_its_files() {
    let heap = Heap(9);
    assert_eq!(Game::identity(&heap), "game::common::TakeOneOrTwo");
    let bytes = Shipped::save(&heap);
    assert_eq!(Shipped::open(&heap, &bytes), Ok(()));
    // Another start is told apart by the start position the file records.
    assert_eq!(
        Shipped::open(&Heap(10), &bytes).unwrap_err().to_string(),
        "values file written for game::common::TakeOneOrTwo (start position 9), not \
         game::common::TakeOneOrTwo (start position 10)"
    );
    assert!(matches!(Shipped::open(&TicTacToe::new(), &bytes), Err(FileError::OtherGame { .. })));
}

/// The parameters of a shipped game, drawn small.
#[derive(Debug, Clone)]
enum Params {
    Octal(&'static str, Vec<u32>),
    Chase(u32, bool),
    Tab(u64, u32, u64, u32),
    ConnectFour(u32, u32, bool),
}

impl Params {
    fn game(&self) -> Box<dyn Shipped> {
        match self {
            Params::Octal(code, rows) => {
                Box::new(OctalRows::new(code.parse().unwrap(), rows).unwrap())
            }
            Params::Chase(n, true) => Box::new(Chase::new(*n).unwrap()),
            Params::Chase(n, false) => Box::new(Chase::without_symmetry(*n).unwrap()),
            Params::Tab(r, c, x, y) => Box::new(TabBoard::new(*r, *c, *x, *y).unwrap()),
            Params::ConnectFour(w, h, true) => Box::new(ConnectFour::new(*w, *h).unwrap()),
            Params::ConnectFour(w, h, false) => {
                Box::new(ConnectFour::without_symmetry(*w, *h).unwrap())
            }
        }
    }
}

fn params() -> impl Strategy<Value = Params> {
    prop_oneof![
        (
            prop::sample::select(vec!["0.77", "0.07", "0.137", "0.33"]),
            prop::collection::vec(1u32..7, 1..3)
        )
            .prop_map(|(c, rows)| Params::Octal(c, rows)),
        (4u32..10, any::<bool>()).prop_map(|(n, s)| Params::Chase(n, s)),
        (1u64..12, 1u32..5)
            .prop_flat_map(|(r, c)| (Just(r), Just(c), 1..=r, 1..=c))
            .prop_map(|(r, c, x, y)| Params::Tab(r, c, x, y)),
        (1u32..4, 1u32..3, any::<bool>()).prop_map(|(w, h, s)| Params::ConnectFour(w, h, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn a_file_is_refused_by_any_other_parameters(writer in params(), reader in params()) {
        let (w, r) = (writer.game(), reader.game());
        let bytes = w.save();
        prop_assert_eq!(w.open(&bytes), Ok(()));
        if w.identity() == r.identity() {
            prop_assert_eq!(r.open(&bytes), Ok(()));
        } else {
            prop_assert_eq!(
                r.open(&bytes),
                Err(FileError::OtherGame { file: w.identity(), game: r.identity() })
            );
        }
    }
}
