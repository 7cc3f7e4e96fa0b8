//! Random games given as rules (random transition tables with random terminal values),
//! explored and solved through the trait, against the definition's fixpoint and, when
//! every finished position is a loss, against `gamegraph_retro::solve` on the explored
//! graph.

use gamegraph_game::{ExploreConfig, SolvedGame, Terminal, explore};
use gamegraph_testkit::SplitMix64;
use proptest::prelude::*;

use crate::common::{self, Table, random_table};

fn check(table: Table) -> Result<(), TestCaseError> {
    let want = common::fixpoint(&table.succ, &table.terminal);
    let explored = explore(&table, &ExploreConfig::default()).unwrap();
    let all_losses = table.terminal.iter().all(|&t| t == Terminal::Loss);
    if all_losses {
        let r = gamegraph_retro::solve(explored.graph());
        for v in explored.graph().vertices() {
            let p = explored.position(v) as usize;
            prop_assert_eq!((r.outcome(v), r.depth(v)), want[p], "row {}", p);
        }
    }
    let solved = SolvedGame::new(table, &ExploreConfig::default()).unwrap();
    prop_assert_eq!(solved.len(), explored.len());
    for &p in explored.positions() {
        prop_assert_eq!(solved.value(p), Some(want[p as usize]), "row {}", p);
    }
    Ok(())
}

#[test]
fn random_tables_match_the_definition_and_retro() {
    let mut rng = SplitMix64::new(20);
    for round in 0..400 {
        let n = 1 + rng.below(60) as usize;
        let table = random_table(&mut rng, n, [1, 2, 3, 6][round % 4], round % 2 == 0);
        check(table).unwrap();
    }
}

proptest! {
    #[test]
    fn prop_random_tables_match_the_definition(
        (succ, codes) in (1usize..30).prop_flat_map(|n| (
            proptest::collection::vec(proptest::collection::vec(0..n, 0..4), n),
            proptest::collection::vec(0u8..3, n),
        )),
        losses_only in any::<bool>(),
    ) {
        let terminal = codes
            .iter()
            .map(|&c| if losses_only { 1 } else { c as usize })
            .map(|c| [Terminal::Win, Terminal::Loss, Terminal::Tie][c])
            .collect();
        check(Table { succ, terminal })?;
    }
}
