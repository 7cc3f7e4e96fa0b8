//! The tier solver against the explicit solver: every position of small games, random
//! tiered games with moves inside and across tiers, resumes, thread counts, refusals.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, Quixo, TabBoard, TicTacToe};
use gamegraph_game::tier::{TierConfig, TierError, TierValues, Tiered, check_tiered, solve_tiers};
use gamegraph_game::{ExploreConfig, Game, Outcome, ParseError, SolvedGame, Terminal};
use gamegraph_graph::Limit;
use proptest::prelude::*;

/// Every file of a directory with its bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Solves `game` by tiers and explicitly, and checks every reachable position's value,
/// the counts and that positions play does not reach have none.
fn agrees_with_explicit<G>(game: G, no_remoteness: bool)
where
    G: Tiered + Clone,
{
    let dir = tempfile::tempdir().unwrap();
    let config = TierConfig { no_remoteness, ..TierConfig::default() };
    let summary = solve_tiers(&game, dir.path(), &config).unwrap();
    let solved = SolvedGame::new(game.clone(), &ExploreConfig::default()).unwrap();
    assert_eq!(summary.positions(), solved.len() as u64);
    assert_eq!(summary.counts, solved.solution().counts());
    assert_eq!(summary.start_outcome, solved.start_outcome());
    let values = TierValues::open(game.clone(), dir.path()).unwrap();
    // In the files' order, so that each block is decoded once (each key computed once).
    let mut positions = solved.positions().to_vec();
    positions.sort_by_cached_key(|&p| {
        let c = game.canonical(p);
        (game.tier(c), game.tier_rank(c))
    });
    for p in positions {
        let (o, r) = solved.value(p).unwrap();
        let want = (o, if no_remoteness { None } else { r });
        assert_eq!(values.value(p).unwrap(), Some(want), "{}", game.show(p));
    }
    let q = values.query(game.start()).unwrap().unwrap();
    let e = solved.query(game.start()).unwrap();
    if !no_remoteness {
        assert_eq!(q, e);
    }
}

#[test]
fn connect_four_by_tiers_equals_the_explicit_solve() {
    for (w, h) in [(4, 4), (5, 4), (4, 5), (3, 3), (1, 4), (7, 1)] {
        agrees_with_explicit(ConnectFour::new(w, h).unwrap(), false);
        agrees_with_explicit(ConnectFour::without_symmetry(w, h).unwrap(), false);
    }
    agrees_with_explicit(ConnectFour::new(4, 4).unwrap(), true);
}

#[test]
fn tic_tac_toe_and_chase_by_tiers_equal_the_explicit_solve() {
    for game in [TicTacToe::new(), TicTacToe::without_symmetry()] {
        check_tiered(&game, 200).unwrap();
        agrees_with_explicit(game.clone(), false);
        agrees_with_explicit(game, true);
    }
    for n in [3, 4, 5, 8, 12, 13] {
        for game in [Chase::new(n).unwrap(), Chase::without_symmetry(n).unwrap()] {
            check_tiered(&game, 50).unwrap();
            agrees_with_explicit(game.clone(), false);
            agrees_with_explicit(game, true);
        }
    }
}

#[test]
fn tab_boards_by_tiers_equal_the_explicit_solve() {
    for (rows, cols, x, y) in
        [(1, 1, 1, 1), (20, 6, 1, 1), (30, 6, 2, 3), (12, 1, 1, 1), (40, 9, 5, 9)]
    {
        let game = TabBoard::new(rows, cols, x, y).unwrap();
        check_tiered(&game, 50).unwrap();
        agrees_with_explicit(game, false);
    }
}

#[test]
fn octal_rows_by_tiers_equal_the_explicit_solve() {
    let games = [
        OctalRows::kayles(&[4, 7]).unwrap(),
        OctalRows::kayles(&[13]).unwrap(),
        OctalRows::dawson(&[4, 7, 2]).unwrap(),
        OctalRows::dawson(&[20]).unwrap(),
        OctalRows::new("0.137".parse().unwrap(), &[9, 3]).unwrap(),
        OctalRows::new("4.07".parse().unwrap(), &[6, 2]).unwrap(),
        OctalRows::new("0.333".parse().unwrap(), &[5, 5, 1]).unwrap(),
    ];
    for game in games {
        check_tiered(&game, 100).unwrap();
        agrees_with_explicit(game, false);
    }
}

#[test]
fn a_game_of_too_many_tiers_is_refused_before_any_work() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("tab");
    let game = TabBoard::new(1 << 40, 6, 1, 1).unwrap();
    let refused = solve_tiers(&game, &dir, &TierConfig::default());
    assert!(matches!(refused, Err(TierError::TooManyTiers { .. })), "{refused:?}");
    assert!(!dir.exists());
}

#[test]
fn quixo_by_tiers_equals_the_explicit_solve() {
    for game in [Quixo::new(3).unwrap(), Quixo::without_symmetry(3).unwrap()] {
        check_tiered(&game, 200).unwrap();
        agrees_with_explicit(game.clone(), false);
    }
    check_tiered(&Quixo::new(4).unwrap(), 200).unwrap();
    check_tiered(&Quixo::new(5).unwrap(), 50).unwrap();
}

#[test]
fn connect_four_keeps_the_tier_contract() {
    for (w, h) in [(4, 4), (5, 4), (7, 6), (8, 7), (2, 2)] {
        check_tiered(&ConnectFour::new(w, h).unwrap(), 200).unwrap();
        check_tiered(&ConnectFour::without_symmetry(w, h).unwrap(), 200).unwrap();
    }
}

/// Solves in a pool of `threads` threads.
fn solve_on<G: Tiered>(
    threads: usize,
    game: &G,
    dir: &Path,
    config: &TierConfig,
) -> Result<(), TierError> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| solve_tiers(game, dir, config)).map(|_| ())
}

/// Solves `game` on 1, 2 and 3 threads and checks that the files are the same.
fn same_files_on_any_threads<G: Tiered>(game: &G, config: &TierConfig) {
    let dirs: Vec<_> = (1..=3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (k, d) in dirs.iter().enumerate() {
        solve_on(k + 1, game, d.path(), config).unwrap();
    }
    let first = files(dirs[0].path());
    for d in &dirs[1..] {
        assert!(files(d.path()) == first);
    }
}

#[test]
fn files_are_the_same_on_every_number_of_threads() {
    same_files_on_any_threads(&ConnectFour::new(5, 4).unwrap(), &TierConfig::default());
    // Moves inside the tiers: retrograde analysis spreads each remoteness in parallel.
    for no_remoteness in [false, true] {
        let config = TierConfig { no_remoteness, ..TierConfig::default() };
        same_files_on_any_threads(&Quixo::without_symmetry(3).unwrap(), &config);
        same_files_on_any_threads(&Chase::without_symmetry(13).unwrap(), &config);
    }
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_files() {
    let game = ConnectFour::without_symmetry(4, 4).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    solve_tiers(&game, fresh.path(), &TierConfig::default()).unwrap();
    let want = files(fresh.path());
    // Stops after k progress reports, for several k, then resumes each time.
    let dir = tempfile::tempdir().unwrap();
    let mut stops = 0;
    for k in [1u64, 3, 10, 30, 60] {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(0));
        let (s, n) = (stop.clone(), seen.clone());
        let config = TierConfig {
            stop: Some(stop),
            progress: Some(Arc::new(move |_| {
                if n.fetch_add(1, Ordering::Relaxed) + 1 >= k {
                    s.store(true, Ordering::Relaxed);
                }
            })),
            ..TierConfig::default()
        };
        match solve_tiers(&game, dir.path(), &config) {
            Err(TierError::Limit { limit: Limit::Stop, .. }) => stops += 1,
            Ok(summary) => assert!(summary.resumed > 0),
            Err(e) => panic!("{e}"),
        }
    }
    assert!(stops >= 3);
    solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    // A solved directory is all resumed: nothing is done again.
    let summary = solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    assert_eq!(summary.resumed as usize, 2 * summary.tiers.len());
    let mut got = files(dir.path());
    got.retain(|name, _| !name.ends_with(".part"));
    assert!(got == want);
}

#[test]
fn a_directory_of_another_game_or_setting_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    solve_tiers(&ConnectFour::new(4, 4).unwrap(), dir.path(), &TierConfig::default()).unwrap();
    let other = ConnectFour::new(5, 4).unwrap();
    assert!(matches!(
        solve_tiers(&other, dir.path(), &TierConfig::default()),
        Err(TierError::OtherGame { .. })
    ));
    assert!(matches!(
        TierValues::open(other.clone(), dir.path()),
        Err(TierError::OtherGame { .. })
    ));
    let config = TierConfig { no_remoteness: true, ..TierConfig::default() };
    assert!(matches!(
        solve_tiers(&ConnectFour::new(4, 4).unwrap(), dir.path(), &config),
        Err(TierError::OtherGame { .. })
    ));
}

#[test]
fn a_directory_of_the_version_before_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    let game = ConnectFour::new(4, 4).unwrap();
    let summary = solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    // Version 2 named the width of the working codes in bytes.
    let path = dir.path().join("manifest");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("gamegraph-tiers 3\n") && text.contains("\ncode-bits 8\n"));
    let old = text
        .replace("gamegraph-tiers 3\n", "gamegraph-tiers 2\n")
        .replace("\ncode-bits 8\n", "\ncode-bytes 1\n");
    std::fs::write(&path, old).unwrap();
    let values = TierValues::open(game.clone(), dir.path()).unwrap();
    assert_eq!(
        values.value(game.start()).unwrap(),
        Some((summary.start_outcome, summary.start_remoteness))
    );
    let again = solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    assert_eq!((again.counts, again.resumed), (summary.counts, 2 * summary.tiers.len() as u32));
    // A width the version never wrote is refused.
    let text = std::fs::read_to_string(&path).unwrap().replace("code-bits 8", "code-bits 2");
    std::fs::write(&path, text).unwrap();
    assert!(matches!(TierValues::open(game.clone(), dir.path()), Err(TierError::Corrupt { .. })));
}

#[test]
fn a_tier_over_the_memory_limit_is_refused_before_any_work() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("solve");
    let config = TierConfig { max_memory: Some(1 << 20), ..TierConfig::default() };
    let game = ConnectFour::new(6, 5).unwrap();
    match solve_tiers(&game, &dir, &config) {
        Err(TierError::Limit { limit: Limit::Memory { needed, allowed }, tier }) => {
            assert_eq!(allowed, Some(1 << 20));
            assert!(needed > 1 << 20 && tier <= 30);
        }
        other => panic!("{other:?}"),
    }
    assert!(!dir.exists());
}

/// A random game in tiers: positions `0..n`, position 0 the start; `tier[p]` nondecreasing
/// along moves; `stay[t]` says whether tier `t` may have moves inside it.
#[derive(Clone, Debug)]
pub(crate) struct RandomTiers {
    tier: Vec<u32>,
    /// The rank of each position in its tier: spread out, with gaps.
    rank: Vec<u64>,
    size: Vec<u64>,
    stay: Vec<bool>,
    moves: Vec<Vec<u32>>,
    terminal: Vec<Terminal>,
    /// The child tiers of each tier, when they are only those moves reach (otherwise every
    /// later tier).
    children: Option<Vec<Vec<u32>>>,
}

impl RandomTiers {
    /// Positions `spread` ranks apart (and a tier `spread + 1` ranks longer), so that a
    /// large spread puts them in different slices of a solve across workers.
    pub(crate) fn new(
        tiers: u32,
        per_tier: &[u8],
        stay: &[bool],
        arcs: &[(u16, u16)],
        ends: &[u8],
        spread: u64,
    ) -> RandomTiers {
        let mut tier = Vec::new();
        for t in 0..tiers {
            for _ in 0..=per_tier[t as usize] % 6 {
                tier.push(t);
            }
        }
        let n = tier.len();
        let mut size = vec![0u64; tiers as usize];
        let mut rank = vec![0u64; n];
        for p in 0..n {
            let t = tier[p] as usize;
            rank[p] = size[t] * spread + 1;
            size[t] += 1;
        }
        for s in &mut size {
            *s = *s * spread + spread + 1;
        }
        let mut moves = vec![Vec::new(); n];
        for &(a, b) in arcs {
            let (a, b) = (a as usize % n, b as usize % n);
            let (ta, tb) = (tier[a], tier[b]);
            if tb > ta || (tb == ta && stay[ta as usize]) {
                moves[a].push(b as u32);
            }
        }
        let terminal = (0..n)
            .map(|p| {
                [Terminal::Loss, Terminal::Win, Terminal::Tie][ends[p % ends.len()] as usize % 3]
            })
            .collect();
        RandomTiers { tier, rank, size, stay: stay.to_vec(), moves, terminal, children: None }
    }

    /// The same game whose child tiers are only the tiers its moves reach, so that its
    /// tiers form any acyclic graph rather than a chain.
    pub(crate) fn with_exact_children(mut self) -> RandomTiers {
        let mut children = vec![Vec::new(); self.size.len()];
        for (p, moves) in self.moves.iter().enumerate() {
            let t = self.tier[p];
            for &q in moves {
                if self.tier[q as usize] != t {
                    children[t as usize].push(self.tier[q as usize]);
                }
            }
        }
        self.children = Some(children);
        self
    }
}

impl Game for RandomTiers {
    type Position = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        out.extend(&self.moves[p as usize]);
    }
    fn terminal(&self, p: u32) -> Terminal {
        self.terminal[p as usize]
    }
    fn show(&self, p: u32) -> String {
        p.to_string()
    }
    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        s.parse().map_err(|_| ParseError::new(1, "a number"))
    }
}

impl Tiered for RandomTiers {
    fn tier_count(&self) -> u32 {
        self.size.len() as u32
    }
    fn tier(&self, p: u32) -> u32 {
        self.tier[p as usize]
    }
    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        match &self.children {
            Some(children) => out.extend(&children[t as usize]),
            None => out.extend(t + 1..self.tier_count()),
        }
    }
    fn tier_size(&self, t: u32) -> u64 {
        self.size[t as usize]
    }
    fn tier_rank(&self, p: u32) -> u64 {
        self.rank[p as usize]
    }
    fn tier_unrank(&self, t: u32, r: u64) -> Option<u32> {
        (0..self.tier.len()).find(|&p| self.tier[p] == t && self.rank[p] == r).map(|p| p as u32)
    }
    fn moves_stay(&self, t: u32) -> bool {
        self.stay[t as usize]
    }
    fn remoteness_bound(&self) -> Option<u32> {
        None
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_tiered_games_match_the_explicit_solve(
        tiers in 1u32..6,
        per_tier in prop::collection::vec(any::<u8>(), 6),
        stay in prop::collection::vec(any::<bool>(), 6),
        arcs in prop::collection::vec((any::<u16>(), any::<u16>()), 0..80),
        ends in prop::collection::vec(0u8..3, 1..8),
        no_remoteness in any::<bool>(),
    ) {
        let game = RandomTiers::new(tiers, &per_tier, &stay, &arcs, &ends, 2);
        check_tiered(&game, 20).unwrap();
        agrees_with_explicit(game, no_remoteness);
    }
}

#[test]
fn a_loopy_tier_gives_draws_ties_and_late_losses() {
    // 0 <-> 1 in tier 0, 1 -> 2 (tier 1, a tie), 0 -> 3 (tier 1, a loss for the mover there
    // after two plies): the draw is refused for the tie or the win.
    let game = RandomTiers {
        tier: vec![0, 0, 1, 1, 2],
        rank: vec![0, 1, 0, 1, 0],
        size: vec![2, 2, 1],
        stay: vec![true, false, false],
        moves: vec![vec![1, 3], vec![0, 2], vec![], vec![4], vec![]],
        terminal: vec![
            Terminal::Loss,
            Terminal::Loss,
            Terminal::Tie,
            Terminal::Loss,
            Terminal::Win,
        ],
        children: None,
    };
    agrees_with_explicit(game.clone(), false);
    let dir = tempfile::tempdir().unwrap();
    solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    let values = TierValues::open(game.clone(), dir.path()).unwrap();
    assert_eq!(values.value(3).unwrap(), Some((Outcome::Loss, Some(1))));
}

#[test]
fn a_solved_directory_keeps_a_compact_values_file_a_tier() {
    let game = ConnectFour::new(5, 4).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let summary = solve_tiers(&game, dir.path(), &TierConfig::default()).unwrap();
    let kept = files(dir.path());
    let names: Vec<&String> = kept.keys().filter(|n| *n != "manifest").collect();
    assert_eq!(names.len(), summary.tiers.len());
    assert!(names.iter().all(|n| n.starts_with("tier-") && n.ends_with(".values")));
    let bytes: usize = kept.iter().filter(|(n, _)| *n != "manifest").map(|(_, b)| b.len()).sum();
    assert_eq!(bytes as u64, summary.file_bytes);
    // With remoteness, under 4 bits a position; the explicit solve's file by rank is the
    // yardstick (within a tenth).
    let positions = summary.positions();
    assert!(summary.file_bytes * 8 < 4 * positions);
    let solved = SolvedGame::new(game.clone(), &ExploreConfig::default()).unwrap();
    let mut explicit = Vec::new();
    solved.save(&mut explicit, true).unwrap();
    assert!(summary.file_bytes * 10 < explicit.len() as u64 * 11);
    // A damaged block gives an error or the right answer, never a wrong one.
    let tier = summary.tiers[summary.tiers.len() / 2].0;
    let path = dir.path().join(format!("tier-{tier}.values"));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let values = TierValues::open(game.clone(), dir.path()).unwrap();
    let mut errors = 0;
    for &p in solved.positions().iter().filter(|&&p| game.tier(p) == tier) {
        match values.value(p) {
            Ok(v) => assert_eq!(v, solved.value(p)),
            Err(TierError::Corrupt { .. }) => errors += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(errors > 0);
}
