//! Values files: every value read back, one block per query, typed errors on damage.

use std::io::Cursor;

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TicTacToe};
use gamegraph_game::{ExploreConfig, FileError, Game, Outcome, ParseError, SolvedGame, ValuesFile};

use crate::common::TakeOneOrTwo;

fn saved<G: Game>(solved: &SolvedGame<G>, remoteness: bool) -> Vec<u8>
where
    G::Position: Into<u128>,
{
    let mut bytes = Vec::new();
    solved.save(&mut bytes, remoteness).unwrap();
    bytes
}

fn round_trip<G: Game + Clone>(solved: &SolvedGame<G>, extra: &[G::Position]) -> [usize; 2]
where
    G::Position: Into<u128>,
{
    // Every position, in the order of a file by rank (by position for a game without ranks),
    // so that a block is decoded once and not once a query; the extra ones after them.
    let game = solved.game();
    let mut positions = solved.positions().to_vec();
    positions.sort_by_cached_key(|&p| {
        let c = game.canonical(p);
        (game.rank(c), Into::<u128>::into(c))
    });
    [false, true].map(|remoteness| {
        let bytes = saved(solved, remoteness);
        let mut file = ValuesFile::open(solved.game().clone(), Cursor::new(&bytes)).unwrap();
        assert_eq!(file.has_remoteness(), remoteness);
        for &p in positions.iter().chain(extra) {
            let want = solved.value(p).map(|(o, r)| (o, if remoteness { r } else { None }));
            assert_eq!(file.value(p).unwrap(), want, "{}", solved.game().show(p));
        }
        bytes.len()
    })
}

#[test]
fn values_read_back_for_every_game() {
    let config = ExploreConfig::default();
    let ttt = SolvedGame::new(TicTacToe::without_symmetry(), &config).unwrap();
    let unreachable = ttt.game().parse("XXX/OOO/...").unwrap();
    round_trip(&ttt, &[unreachable]);
    let ttt = SolvedGame::new(TicTacToe::new(), &config).unwrap();
    round_trip(&ttt, &[unreachable, ttt.game().parse("X../.../..O").unwrap()]);
    let c4 = SolvedGame::new(ConnectFour::new(4, 4).unwrap(), &config).unwrap();
    let floating = c4.game().parse("XX.O/XX.O/OO.X/OO.X").unwrap();
    // X to move with four in a line: a number the file skips.
    let over = c4.game().parse("..../..../XXXX/OOOO").unwrap();
    let mirrored = c4.game().parse("..../..../..../X...").unwrap();
    let [plain, with_remoteness] = round_trip(&c4, &[floating, over, mirrored, 0, u64::MAX]);
    // Numbers of unreachable boards are skipped: under 2 bits per position without
    // remoteness.
    assert!(plain * 4 < c4.len(), "{plain} bytes for {} positions", c4.len());
    assert!(with_remoteness < c4.len() * 3, "{with_remoteness} bytes for {} positions", c4.len());
    let kayles = SolvedGame::new(OctalRows::kayles(&[25, 4]).unwrap(), &config).unwrap();
    round_trip(&kayles, &[kayles.game().parse("26").unwrap()]);
    let chase = SolvedGame::new(Chase::without_symmetry(13).unwrap(), &config).unwrap();
    round_trip(&chase, &[]);
    let chase = SolvedGame::new(Chase::new(13).unwrap(), &config).unwrap();
    round_trip(&chase, &[chase.game().position(4, 9, true)]);
}

/// Tic-tac-toe with its numbering changed.
#[derive(Clone)]
enum Renumbered {
    /// Numbered far apart: more than 64 ranks per position, beyond what a file by rank spends.
    Spread(TicTacToe),
    /// Every number but the start's called unreachable, wrongly.
    Liar(TicTacToe),
}

impl Renumbered {
    fn inner(&self) -> &TicTacToe {
        match self {
            Renumbered::Spread(g) | Renumbered::Liar(g) => g,
        }
    }
}

impl Game for Renumbered {
    type Position = u32;
    fn start(&self) -> u32 {
        self.inner().start()
    }
    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        self.inner().moves(p, out);
    }
    fn terminal(&self, p: u32) -> gamegraph_game::Terminal {
        self.inner().terminal(p)
    }
    fn canonical(&self, p: u32) -> u32 {
        self.inner().canonical(p)
    }
    fn show(&self, p: u32) -> String {
        self.inner().show(p)
    }
    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        self.inner().parse(s)
    }
    fn rank(&self, p: u32) -> Option<u64> {
        match self {
            Renumbered::Spread(g) => g.rank(p).map(|r| r * 100_000),
            Renumbered::Liar(g) => g.rank(p),
        }
    }
    fn identity(&self) -> String {
        self.inner().identity()
    }
    fn numbering(&self) -> u32 {
        self.inner().numbering()
    }
    fn rank_may_be_reached(&self, rank: u64) -> bool {
        match self {
            Renumbered::Spread(_) => true,
            Renumbered::Liar(g) => g.rank(g.start()) == Some(rank),
        }
    }
}

#[test]
fn ranks_too_far_apart_store_the_positions() {
    let config = ExploreConfig::default();
    let flags = |b: &[u8]| u32::from_le_bytes(b[12..16].try_into().unwrap());
    let spread = SolvedGame::new(Renumbered::Spread(TicTacToe::new()), &config).unwrap();
    round_trip(&spread, &[]);
    assert_eq!(flags(&saved(&spread, true)) & 2, 0);
    let ttt = SolvedGame::new(TicTacToe::new(), &config).unwrap();
    let by_rank = saved(&ttt, true);
    assert_eq!(flags(&by_rank) & 2, 2);
    // A file of positions opens for a game with ranks, not a file of ranks for a game
    // without them.
    let positions = saved(&spread, true);
    let mut file = ValuesFile::open(TicTacToe::new(), Cursor::new(&positions)).unwrap();
    assert_eq!(file.value(ttt.game().start()).unwrap(), ttt.value(ttt.game().start()));
    let without = SolvedGame::new(TakeOneOrTwo(9), &config).unwrap();
    assert!(ValuesFile::open(TicTacToe::new(), Cursor::new(saved(&without, true))).is_err());
}

#[test]
fn numbers_are_skipped_only_when_no_position_has_them() {
    let config = ExploreConfig::default();
    let flags = |b: &[u8]| u32::from_le_bytes(b[12..16].try_into().unwrap());
    let liar = SolvedGame::new(Renumbered::Liar(TicTacToe::new()), &config).unwrap();
    round_trip(&liar, &[]);
    assert_eq!(flags(&saved(&liar, false)), 2);
    let c4 = SolvedGame::new(ConnectFour::new(4, 4).unwrap(), &config).unwrap();
    assert_eq!(flags(&saved(&c4, false)), 2 | 4);
    // By default no number is unreachable: the flag is set and nothing is skipped.
    let ttt = SolvedGame::new(TicTacToe::new(), &config).unwrap();
    assert_eq!(flags(&saved(&ttt, true)), 1 | 2 | 4);
    assert_eq!(round_trip(&ttt, &[]), round_trip(&liar, &[]));
}

/// Connect Four calling every number reachable, as a game whose rules for unreachable
/// numbers changed would.
#[derive(Clone)]
struct SkipsNothing(ConnectFour);

impl Game for SkipsNothing {
    type Position = u64;
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, p: u64, out: &mut Vec<u64>) {
        self.0.moves(p, out);
    }
    fn terminal(&self, p: u64) -> gamegraph_game::Terminal {
        self.0.terminal(p)
    }
    fn canonical(&self, p: u64) -> u64 {
        self.0.canonical(p)
    }
    fn show(&self, p: u64) -> String {
        self.0.show(p)
    }
    fn parse(&self, s: &str) -> Result<u64, ParseError> {
        self.0.parse(s)
    }
    fn rank(&self, p: u64) -> Option<u64> {
        self.0.rank(p)
    }
    fn identity(&self) -> String {
        self.0.identity()
    }
    fn numbering(&self) -> u32 {
        self.0.numbering()
    }
}

#[test]
fn a_game_skipping_other_numbers_is_refused() {
    let c4 = ConnectFour::new(4, 4).unwrap();
    let solved = SolvedGame::new(c4.clone(), &ExploreConfig::default()).unwrap();
    let bytes = saved(&solved, true);
    let start = c4.start();
    let mut file = ValuesFile::open(c4, Cursor::new(&bytes)).unwrap();
    assert_eq!(file.value(start).unwrap(), solved.value(start));
    // The header and index read alike; the first block read tells the numberings apart.
    let mut other =
        ValuesFile::open(SkipsNothing(solved.game().clone()), Cursor::new(&bytes)).unwrap();
    let skipped = FileError::OtherGame {
        file: "connect-four 4x4 with symmetry (other ranks skipped)".into(),
        game: "connect-four 4x4 with symmetry".into(),
    };
    assert_eq!(other.value(start), Err(skipped.clone()));
    let last = *solved.positions().last().unwrap();
    assert_eq!(other.query(last).map(|_| ()), Err(skipped));
}

#[test]
fn long_remoteness_reads_back() {
    // Remoteness up to 2 · 3000 / 3 = 2000 plies, beyond the byte of the short code.
    let solved = SolvedGame::new(TakeOneOrTwo(3000), &ExploreConfig::default()).unwrap();
    assert_eq!(solved.value(3000), Some((Outcome::Loss, Some(2000))));
    round_trip(&solved, &[3001]);
}

#[test]
fn damage_gives_typed_errors() {
    let solved =
        SolvedGame::new(ConnectFour::new(4, 4).unwrap(), &ExploreConfig::default()).unwrap();
    let bytes = saved(&solved, true);
    let game = || solved.game().clone();
    let open = |b: &[u8]| ValuesFile::open(game(), Cursor::new(b.to_vec())).map(|_| ());
    // Connect Four's values are stored by rank: the last block holds the greatest.
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()) & 2, 2);
    let rank = |p: u64| solved.game().rank(p).unwrap();
    let last = solved.positions().iter().copied().max_by_key(|&p| rank(p)).unwrap();

    assert_eq!(open(b"GGVALUE"), Err(FileError::NotAValuesFile));
    assert_eq!(open(b"PK\x03\x04 not values at all"), Err(FileError::NotAValuesFile));
    assert_eq!(open(&bytes[..30]), Err(FileError::Truncated { part: "header" }));
    assert_eq!(open(&bytes[..70]), Err(FileError::Truncated { part: "index" }));
    let mut b = bytes.clone();
    b[8] = 9;
    assert_eq!(open(&b), Err(FileError::Version { found: 9 }));
    b[8] = 2;
    assert_eq!(
        open(&b).unwrap_err().to_string(),
        "values file version 2, written by an older gamegraph: only version 3 is read (solve \
         the game again to write it)"
    );
    let mut b = bytes.clone();
    b[50] ^= 1;
    assert_eq!(open(&b), Err(FileError::HeaderChecksum));
    let other = ConnectFour::new(5, 4).unwrap();
    let e = ValuesFile::open(other, Cursor::new(bytes.clone())).map(|_| ()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "values file written for connect-four 4x4 with symmetry, not connect-four 5x4 with \
         symmetry"
    );

    // The last block cut short, or followed by a byte.
    assert_eq!(open(&bytes[..bytes.len() - 10]), Err(FileError::Truncated { part: "blocks" }));
    let mut b = bytes.clone();
    b.push(0);
    assert_eq!(open(&b), Err(FileError::Corrupt { reason: "bytes after the last block" }));
    // A flipped bit in the last block.
    let mut b = bytes.clone();
    let n = b.len();
    b[n - 3] ^= 0x10;
    let mut file = ValuesFile::open(game(), Cursor::new(b)).unwrap();
    // 4,096 entries a block, as docs/formats.md gives the format.
    let blocks = (rank(last) as usize + 1).div_ceil(4096);
    assert_eq!(file.value(last), Err(FileError::BlockChecksum { block: blocks - 1 }));
    assert!(FileError::BlockChecksum { block: 3 }.to_string().contains("block 3"));
}
