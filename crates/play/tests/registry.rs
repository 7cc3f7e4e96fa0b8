//! Every registered game, played through a session: moves named one to one, found by their
//! names, the same values from memory and from a values file.

use gamegraph_game::{Board, ExploreConfig, Outcome};
use gamegraph_play::engine::{Open, Solve};
use gamegraph_play::{ENTRIES, End, Session, Spec};

/// A small instance of every registered game.
fn small() -> Vec<Spec> {
    let lines = [
        "tic-tac-toe",
        "tic-tac-toe --no-symmetry",
        "connect-four --cols 4 --rows 4",
        "kayles 4,7",
        "dawsons-kayles 10",
        "octal 0.137 9",
        "quixo 3",
        "chase 9",
        "chase 9 --no-symmetry",
        "tab 12 5 1,1",
    ];
    let specs: Vec<Spec> =
        lines.iter().map(|l| Spec::parse(&l.split(' ').collect::<Vec<_>>()).unwrap()).collect();
    for e in ENTRIES {
        assert!(specs.iter().any(|s| s.entry().name == e.name), "{} has no instance", e.name);
    }
    specs
}

fn session(spec: &Spec) -> Session<'static> {
    let engine = spec.visit(Solve(ExploreConfig::default())).unwrap().unwrap();
    Session::new(engine).unwrap()
}

/// A fixed pseudo-random sequence.
fn next(seed: &mut u64) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed >> 33) as usize
}

#[test]
fn every_game_names_its_moves_one_to_one_and_draws_its_board() {
    for spec in small() {
        let mut s = session(&spec);
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for game in 0..20 {
            while s.undo() {}
            for _ in 0..60 {
                let names: Vec<String> = s.moves().iter().map(|m| m.name.clone()).collect();
                let mut sorted = names.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), names.len(), "{spec} at {}: {names:?}", s.show());
                for m in s.moves() {
                    assert_ne!(
                        m.name,
                        s.engine().show(m.position),
                        "{spec}: a move without a name"
                    );
                    assert_eq!(s.find(&m.name).unwrap().position, m.position, "{spec}: {}", m.name);
                    let upper = m.name.to_uppercase();
                    assert_eq!(s.find(&upper).unwrap().position, m.position, "{spec}: {upper}");
                }
                match s.board() {
                    Some(Board::Grid(g)) => assert_eq!(g.cells.len(), g.rows() * g.cols),
                    Some(Board::Pins(_)) => {}
                    None => panic!("{spec}: no board at {}", s.show()),
                }
                if s.over().is_some() {
                    break;
                }
                let pick = if game % 2 == 0 {
                    s.moves()[next(&mut seed) % s.moves().len()].name.clone()
                } else {
                    s.best().unwrap().name.clone()
                };
                let before = s.value();
                let played = s.play(&pick).unwrap().clone();
                assert_eq!(played.name, pick);
                assert_eq!(s.value(), (played.outcome.flip(), played.remoteness), "{spec}");
                if game % 2 == 1 && before.0 != Outcome::Draw {
                    // Best play keeps the value, one ply nearer the end.
                    assert_eq!(s.value().0, before.0.flip(), "{spec}");
                    assert_eq!(s.value().1.map(|r| r + 1), before.1, "{spec}");
                }
            }
        }
    }
}

#[test]
fn best_play_ends_as_the_start_value_says() {
    for spec in small() {
        let mut s = session(&spec);
        let (start, remoteness) = s.value();
        while s.over().is_none() {
            s.play_best().unwrap();
        }
        let plies = s.ply();
        match (start, s.over().unwrap()) {
            (Outcome::Draw, End::Repeated) => {}
            (o, End::Finished(t)) => {
                assert_eq!(Some(plies as u32), remoteness, "{spec}");
                // The value at the end is for the player to move there.
                let end = Outcome::from(t);
                let want = if plies.is_multiple_of(2) { o } else { o.flip() };
                assert_eq!(end, want, "{spec}");
            }
            other => panic!("{spec}: {other:?}"),
        }
        assert_eq!(s.history().len(), plies + 1);
        assert!(s.history()[1..].iter().all(|step| step.played.is_some()));
    }
}

/// Checks that the values stored at `path` name their game and answer as the solve in
/// memory does, along 30 plies of best play.
fn same_as_the_solve(spec: &Spec, path: &std::path::Path) {
    assert_eq!(&gamegraph_play::engine::game_at(path).unwrap(), spec);
    let mut memory = session(spec);
    let mut stored = Session::new(spec.visit(Open(path)).unwrap().unwrap()).unwrap();
    for _ in 0..30 {
        assert_eq!(memory.value(), stored.value(), "{spec}");
        assert_eq!(memory.moves(), stored.moves(), "{spec}");
        if memory.over().is_some() {
            break;
        }
        memory.play_best().unwrap();
        stored.play_best().unwrap();
    }
}

#[test]
fn a_values_file_answers_as_the_solve_does() {
    let dir = tempfile::tempdir().unwrap();
    for (i, spec) in small().into_iter().enumerate() {
        let path = dir.path().join(format!("{i}.values"));
        struct Save<'a>(&'a std::path::Path);
        impl gamegraph_play::Visit for Save<'_> {
            type Output = ();
            fn visit<G>(self, game: G)
            where
                G: gamegraph_game::tier::Tiered + Clone + Send + Sync + 'static,
                G::Position: Into<u128> + TryFrom<u128>,
            {
                let solved = gamegraph_game::SolvedGame::new(game, &ExploreConfig::default());
                let mut f = std::fs::File::create(self.0).unwrap();
                solved.unwrap().save(&mut f, true).unwrap();
            }
        }
        spec.visit(Save(&path)).unwrap();
        same_as_the_solve(&spec, &path);
    }
}

#[test]
fn illegal_moves_name_the_legal_ones() {
    let spec = Spec::parse(&["connect-four", "--cols", "4", "--rows", "4"]).unwrap();
    let mut s = session(&spec);
    let e = s.play("column 9").unwrap_err();
    assert_eq!(
        e.to_string(),
        "'column 9' is not a move here; the moves are column 1, column 2, column 3, column 4"
    );
    assert_eq!(s.play("2").unwrap().name, "column 2");
    assert_eq!(s.play("..../..../..../.XO.").unwrap().name, "column 3");
    assert!(s.undo() && s.undo() && !s.undo());
    assert_eq!(s.ply(), 0);
}

#[test]
fn a_directory_of_tiers_answers_as_the_solve_does() {
    use gamegraph_game::tier::{TierConfig, solve_tiers};
    struct Tiers<'a>(&'a std::path::Path);
    impl gamegraph_play::Visit for Tiers<'_> {
        type Output = ();
        fn visit<G>(self, game: G)
        where
            G: gamegraph_game::tier::Tiered + Clone + Send + Sync + 'static,
            G::Position: Into<u128> + TryFrom<u128>,
        {
            solve_tiers(&game, self.0, &TierConfig::default()).unwrap();
        }
    }
    for spec in small() {
        let dir = tempfile::tempdir().unwrap();
        spec.visit(Tiers(dir.path())).unwrap();
        same_as_the_solve(&spec, dir.path());
    }
}

#[test]
fn a_game_is_known_again_by_its_identity() {
    for spec in small() {
        assert_eq!(Spec::from_identity(&spec.identity()), Some(spec.clone()), "{spec}");
    }
    for other in ["python nim", "connect-four 5x4 sideways", "tab 20x6 to 1,1", "", "quixo 9x9"] {
        assert_eq!(Spec::from_identity(other), None, "{other}");
    }
}
