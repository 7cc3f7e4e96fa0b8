//! Every computation is bounded: work beyond reach and memory beyond any machine are
//! refused before they start, and the work limit stops the rest.

use gamegraph_graph::{Budget, Limit};
use gamegraph_tab::{
    Board, Config, LIFETIME_CELLS, MAX_STORED_ROWS, SolveError, find_period, find_periods, solve,
    solve_cell,
};

const TALL: u64 = 1_000_000_000_000_000_000;

/// The cell budget and the evaluations the refused work needs, when `r` failed on the
/// budget.
fn over(r: Result<impl Sized, SolveError>) -> Option<(u64, Option<u64>)> {
    match r {
        Err(SolveError::Limit {
            limit: Limit::Budget { what: Budget::Cells, limit, needed },
            ..
        }) => Some((limit, needed)),
        _ => None,
    }
}

/// Whether `r` failed on the deadline.
fn late(r: Result<impl Sized, SolveError>) -> bool {
    matches!(r, Err(SolveError::Limit { limit: Limit::Time, .. }))
}

fn cell_of(rows: u64, cols: u32, cfg: &Config) -> Result<u64, SolveError> {
    let board = Board::new(rows, cols).unwrap();
    solve_cell(board, board.cell(1, 1).unwrap(), cfg, &mut |_| {}).map(|v| v.depth())
}

#[test]
fn plain_dp_over_every_row_of_a_tall_board_is_refused_at_once() {
    // The period search gives up after 2M + 2 rows; streaming 10^18 rows is out of reach.
    let cfg = Config { search_rows: 100, ..Config::default() };
    let e = cell_of(TALL, 1000, &cfg).unwrap_err();
    assert_eq!(e, SolveError::Hopeless { rows: TALL - 1, cols: 1000, searched: Some(2002) });
    let cfg = Config { search_rows: 0, ..Config::default() };
    assert!(matches!(cell_of(TALL, 50, &cfg), Err(SolveError::Hopeless { .. })));
    // Without extrapolation no search runs at all.
    let cfg = Config { extrapolate: false, ..Config::default() };
    let e = cell_of(TALL, 50, &cfg).unwrap_err();
    assert_eq!(e, SolveError::Hopeless { rows: TALL - 1, cols: 50, searched: None });
    // A product beyond u64 is refused too, not wrapped.
    assert!(matches!(cell_of(u64::MAX, 100_000, &cfg), Err(SolveError::Hopeless { .. })));
    assert!(e.to_string().contains(&LIFETIME_CELLS.to_string()), "{e}");
}

#[test]
fn work_known_in_advance_is_checked_against_the_limit_before_it_starts() {
    // Row r reads min(r, M) candidates: 10^7 rows of 10 columns cost 1 + 2 + … + 10 for
    // the first ten rows and 10 for each of the others.
    let cfg = Config { extrapolate: false, max_cells: 1_000_000, ..Config::default() };
    let needed = 55 + (10_000_000 - 10) * 10;
    assert_eq!(over(cell_of(10_000_001, 10, &cfg)), Some((1_000_000, Some(needed))));
    // Exactly at the limit: it runs; one row more does not.
    let rows_within = 10 + (1_000_000 - 55) / 10;
    assert!(cell_of(rows_within + 1, 10, &cfg).is_ok());
    assert!(over(cell_of(rows_within + 2, 10, &cfg)).is_some());
    let r = solve(Board::new(200_000, 10).unwrap(), &cfg, &mut |_| {});
    assert_eq!(over(r), Some((1_000_000, Some(1_999_945))));
    // A board shorter than wide costs 1 + 2 + … + r, not r · M.
    let wide = Config { extrapolate: false, max_cells: 50 * 101, ..Config::default() };
    assert!(cell_of(101, 100_000, &wide).is_ok());
    assert!(cell_of(102, 100_000, &wide).is_err());
}

#[test]
fn a_period_search_stops_at_the_limit() {
    let cfg = Config { max_cells: 1_000_000, ..Config::default() };
    assert_eq!(over(find_period(1000, &cfg, &mut |_| {})), Some((1_000_000, None)));
    // The limit holds for a whole range, not for each M: the range needs exactly the sum
    // of what each M needs alone.
    let needs = |m: u32| {
        let (mut lo, mut hi) = (0u64, 10_000_000u64); // fails at lo, succeeds at hi
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let cfg = Config { max_cells: mid, ..Config::default() };
            match find_period(m, &cfg, &mut |_| {}) {
                Ok(p) => {
                    assert!(p.is_some());
                    hi = mid;
                }
                r if over(r.clone()).is_some() => lo = mid,
                Err(e) => panic!("{e}"),
            }
        }
        hi
    };
    let each: Vec<u64> = (1..=12).map(needs).collect();
    let total: u64 = each.iter().sum();
    let at =
        |max_cells| find_periods(1..=12, &Config { max_cells, ..Config::default() }, &mut |_| {});
    assert_eq!(at(total).unwrap().len(), 12);
    assert_eq!(over(at(total - 1)), Some((total - 1, None)));
    assert!(*each.iter().max().unwrap() < total - 1);
}

#[test]
fn more_stored_rows_than_a_machine_holds_are_refused() {
    let cfg = Config { search_rows: MAX_STORED_ROWS + 1, ..Config::default() };
    let e = find_period(1, &cfg, &mut |_| {}).unwrap_err();
    assert_eq!(e, SolveError::TooMuchMemory { rows: MAX_STORED_ROWS + 1, max: MAX_STORED_ROWS });
    assert!(matches!(cell_of(TALL, 5, &cfg), Err(SolveError::TooMuchMemory { .. })));
    let cfg = Config { store_rows: u64::MAX, ..Config::default() };
    let e = solve(Board::new(TALL, 5).unwrap(), &cfg, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SolveError::TooMuchMemory { rows: TALL, .. }), "{e:?}");
}

#[test]
fn an_optimal_line_is_checked_against_the_limit() {
    let board = Board::new(TALL, 7).unwrap();
    let cfg = Config::default();
    let sol = solve(board, &cfg, &mut |_| {}).unwrap();
    let start = board.cell(1, 1).unwrap();
    let depth = sol.value(start).unwrap().depth();
    assert!(depth > 1_000_000);
    assert_eq!(sol.line(start, 1000, &cfg).unwrap().len(), 1001);
    let small = Config { max_cells: 6999, ..cfg };
    assert_eq!(over(sol.line(start, 1000, &small)), Some((6999, Some(7000))));
    let e = sol.line(start, u64::MAX, &cfg).unwrap_err();
    assert!(matches!(e, SolveError::TooMuchMemory { .. }), "{e:?}");
}

#[test]
fn a_deadline_stops_every_kind_of_work() {
    use std::time::{Duration, Instant};
    let past = Config { deadline: Some(Instant::now()), ..Config::default() };
    // Streaming, a period search, plain DP, a range of periods, an optimal line.
    assert!(late(cell_of(1_000_000, 1000, &past)));
    assert!(late(cell_of(TALL, 1000, &past)));
    assert!(late(solve(Board::new(1000, 1000).unwrap(), &past, &mut |_| {})));
    assert!(late(find_periods(1..=2000, &past, &mut |_| {})));
    let board = Board::new(TALL, 7).unwrap();
    let sol = solve(board, &Config::default(), &mut |_| {}).unwrap();
    assert!(late(sol.line(board.cell(1, 1).unwrap(), 1000, &past)));
    // Work that takes far longer than the limit stops within a few milliseconds of it.
    let limit = Duration::from_millis(300);
    let t = Instant::now();
    assert!(late(find_period(100_000, &Config::with_time_limit(limit), &mut |_| {})));
    let took = t.elapsed();
    assert!(took >= limit, "{took:?}");
    // No deadline: the default runs to the end.
    assert!(cell_of(1000, 10, &Config::default()).is_ok());
}

#[test]
fn progress_is_reported_while_streaming() {
    let cfg = Config { extrapolate: false, ..Config::default() };
    let board = Board::new(300_000, 3).unwrap();
    let mut heard = Vec::new();
    solve_cell(board, board.cell(1, 1).unwrap(), &cfg, &mut |r| heard.push(r)).unwrap();
    assert_eq!(heard, [65_536, 131_072, 196_608, 262_144]);
}
