//! Octal and subtraction games against a deliberately naive definition, the periods of
//! Kayles and Dawson's Kayles (Berlekamp, Conway & Guy, Winning Ways, ch. 4), and snapshots
//! of the fixtures in `fixtures/octal/`.

use gamegraph_graph::Limit;
use gamegraph_grundy::octal::{
    Algorithm, Analysis, Config, OctalCode, Play, SequenceError, SparseConfig, SubtractionSet,
    analyse_octal, analyse_subtraction,
};
use gamegraph_grundy::{Nimber, render};
use proptest::prelude::*;

/// The definition, written as plainly as possible: list every position one move leaves (as
/// a list of heaps), take the digit sum of each, then the smallest value not among them.
fn naive_octal(digits: &[u8], count: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..count {
        let mut options: Vec<Vec<usize>> = Vec::new();
        for (j, &d) in digits.iter().enumerate() {
            if j > n {
                break;
            }
            let rest = n - j;
            if d & 1 != 0 && rest == 0 && j > 0 {
                options.push(vec![]);
            }
            if d & 2 != 0 && rest > 0 && j > 0 {
                options.push(vec![rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    options.push(vec![a, rest - a]);
                }
            }
        }
        let values: Vec<u64> =
            options.iter().map(|heaps| heaps.iter().fold(0, |x, &h| x ^ g[h])).collect();
        let mut mex = 0;
        while values.contains(&mex) {
            mex += 1;
        }
        g.push(mex);
    }
    g
}

fn naive_subtraction(set: &[u64], misere: bool, count: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..count as u64 {
        let values: Vec<u64> =
            set.iter().filter(|&&s| s <= n).map(|&s| g[(n - s) as usize]).collect();
        let mut mex = 0;
        while values.contains(&mex) {
            mex += 1;
        }
        g.push(if misere && values.is_empty() { 1 } else { mex });
    }
    g
}

fn code_of(digits: &[u8]) -> OctalCode {
    let mut s = format!("{}.", digits[0]);
    for d in &digits[1..] {
        s.push(char::from(b'0' + d));
    }
    s.parse().expect("a valid code")
}

/// Checks an analysis against the naive sequence: its prefix, every value through the
/// period, the certificate, and that the period and pre-period are the least ones the
/// naive sequence allows.
fn check(a: &Analysis, naive: &[u64]) {
    for (n, &v) in a.prefix().iter().enumerate().take(naive.len()) {
        assert_eq!(u64::from(v), naive[n], "{} g({n})", a.game());
    }
    for (n, &v) in naive.iter().enumerate() {
        assert_eq!(a.value(n as u64).unwrap(), Nimber(v), "{} g({n}) by its period", a.game());
    }
    if let Some(p) = a.period() {
        assert!(p.certificate.verify(a.prefix()), "{}", a.game());
        assert_eq!((p.certificate.checked_from, p.certificate.period), (p.preperiod, p.period));
        let (pre, q) = (p.preperiod, p.period);
        if pre > 0 && pre - 1 + q < naive.len() {
            assert_ne!(naive[pre - 1], naive[pre - 1 + q], "{}: pre-period not least", a.game());
        }
        for d in (1..q).filter(|d| q % d == 0) {
            let tail = pre..naive.len().saturating_sub(d);
            if tail.len() >= 2 * q {
                assert!(
                    tail.clone().any(|n| naive[n] != naive[n + d]),
                    "{}: {d} is a smaller period than {q}",
                    a.game()
                );
            }
        }
    }
}

fn quiet() -> impl FnMut(usize) {
    |_| {}
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn octal_sequences_match_the_definition(
        d0 in prop_oneof![Just(0u8), Just(4u8)],
        rest in prop::collection::vec(0u8..8, 1..5),
        first in 2usize..100,
        sparse in any::<bool>(),
    ) {
        let mut digits = vec![d0];
        digits.extend(rest);
        let code = code_of(&digits);
        let naive = naive_octal(&digits, 2000);
        let algorithm = if sparse { Algorithm::Sparse } else { Algorithm::Plain };
        let sparse_config = SparseConfig { first_reclassify: first, ..SparseConfig::default() };
        let full = Config {
            limit: 2000,
            stop_at_period: false,
            algorithm,
            sparse: sparse_config,
            ..Config::default()
        };
        check(&analyse_octal(&code, &full, &mut quiet()).unwrap(), &naive);
        let stop = Config { stop_at_period: true, ..full };
        check(&analyse_octal(&code, &stop, &mut quiet()).unwrap(), &naive);
    }

    /// Long codes of split digits have values past 255 within a few hundred heaps: the
    /// sparse method then leaves its byte lanes for 16-bit lanes (at 256, or earlier with
    /// a smaller `byte_lanes_below`), in the middle of a block of heaps.
    #[test]
    fn sparse_values_crossing_the_byte_lanes_match_the_definition(
        d0 in prop_oneof![Just(0u8), Just(4u8)],
        rest in prop::collection::vec(4u8..8, 24..65),
        below in prop_oneof![Just(256u16), 1u16..300],
        first in 2usize..200,
    ) {
        let mut digits = vec![d0];
        digits.extend(rest);
        let code = code_of(&digits);
        let naive = naive_octal(&digits, 500);
        let sparse = SparseConfig { first_reclassify: first, byte_lanes_below: below, ..SparseConfig::default() };
        let config = Config {
            limit: 500,
            stop_at_period: false,
            algorithm: Algorithm::Sparse,
            sparse,
            ..Config::default()
        };
        check(&analyse_octal(&code, &config, &mut quiet()).unwrap(), &naive);
    }

    #[test]
    fn subtraction_sequences_match_the_definition(
        set in prop::collection::btree_set(1u64..30, 1..6),
        misere in any::<bool>(),
    ) {
        let set: Vec<u64> = set.into_iter().collect();
        let s = SubtractionSet::new(set.iter().copied()).unwrap();
        let play = if misere { Play::Misere } else { Play::Normal };
        let naive = naive_subtraction(&set, misere, 2000);
        let config = Config { limit: 2000, ..Config::default() };
        let a = analyse_subtraction(&s, play, &config, &mut quiet()).unwrap();
        prop_assert!(a.period().is_some(), "subtraction games are periodic");
        check(&a, &naive);
    }
}

#[test]
fn the_sparse_method_is_exact_past_255() {
    let digits = [4u8; 1].into_iter().chain([7u8; 64]).collect::<Vec<_>>();
    let naive = naive_octal(&digits, 600);
    assert!(naive.iter().any(|&v| v > 255), "the values must leave the byte lanes");
    let config = Config { limit: 600, stop_at_period: false, ..Config::default() };
    check(&analyse_octal(&code_of(&digits), &config, &mut quiet()).unwrap(), &naive);
}

#[test]
fn kayles_has_period_12_from_71() {
    let code: OctalCode = "0.77".parse().unwrap();
    let a = analyse_octal(&code, &Config::default(), &mut quiet()).unwrap();
    let p = a.period().unwrap();
    assert_eq!((p.preperiod, p.period), (71, 12));
    // The last exceptional value is g(70) (the period would give g(82) instead).
    let naive = naive_octal(&[0, 7, 7], 400);
    assert_ne!(naive[70], naive[82]);
    assert!(a.computed() < 400, "stops once the period is proven: {}", a.computed());
    assert_eq!(p.certificate.values_needed(), 2 * 71 + 2 * 12 + 2);
    check(&a, &naive);
}

#[test]
fn dawsons_kayles_has_period_34_from_53() {
    let code: OctalCode = "0.07".parse().unwrap();
    let a = analyse_octal(&code, &Config::default(), &mut quiet()).unwrap();
    let p = a.period().unwrap();
    assert_eq!((p.preperiod, p.period), (53, 34));
    let naive = naive_octal(&[0, 0, 7], 500);
    // In heap indexing (g(0) = 0, a move takes 2) the last exception is g(52).
    assert_ne!(naive[52], naive[52 + 34]);
    check(&a, &naive);
}

#[test]
fn the_smallest_period_is_reported_not_a_multiple() {
    // 0.3 (take one): 0 1 0 1 …, period 2; 0.33: 0 1 2 0 1 2 …, period 3.
    for (code, period) in [("0.3", 2), ("0.33", 3), ("0.333", 4), ("0.0", 1)] {
        let a = analyse_octal(&code.parse().unwrap(), &Config::default(), &mut quiet()).unwrap();
        let p = a.period().unwrap();
        assert_eq!((p.preperiod, p.period), (0, period), "{code}");
    }
    // 1,2 has period 3, not 6 or 9.
    let s: SubtractionSet = "1,2".parse().unwrap();
    let a = analyse_subtraction(&s, Play::Normal, &Config::default(), &mut quiet()).unwrap();
    assert_eq!(a.period().map(|p| (p.preperiod, p.period)), Some((0, 3)));
}

#[test]
fn no_period_is_claimed_without_proof() {
    // 0.6 has no known period; within 3000 values none can be proven.
    let code: OctalCode = "0.6".parse().unwrap();
    let config = Config { limit: 3000, ..Config::default() };
    let a = analyse_octal(&code, &config, &mut quiet()).unwrap();
    assert!(a.period().is_none());
    assert_eq!(a.computed(), 3000);
    assert!(a.value(2999).is_ok());
    assert!(a.value(3000).is_err());
    assert!(render::sequence(&a, Some(3000), true, &[]).is_err());
    let text = render::sequence(&a, None, true, &[]).unwrap().to_string();
    assert_eq!(text, "no period proven up to n = 2999\n");
    // Kayles within too few values: no proof yet, although the prefix looks periodic.
    let kayles: OctalCode = "0.77".parse().unwrap();
    let short = Config { limit: 167, ..Config::default() };
    assert!(analyse_octal(&kayles, &short, &mut quiet()).unwrap().period().is_none());
    let enough = Config { limit: 168, ..Config::default() };
    assert!(analyse_octal(&kayles, &enough, &mut quiet()).unwrap().period().is_some());
}

#[test]
fn huge_heaps_are_answered_from_the_period() {
    let a = analyse_octal(&"0.77".parse().unwrap(), &Config::default(), &mut quiet()).unwrap();
    let n: u64 = 1_000_000_000_000_000_000;
    let naive = naive_octal(&[0, 7, 7], 200);
    let i = 71 + ((n - 71) % 12) as usize;
    assert_eq!(a.value(n).unwrap(), Nimber(naive[i]));
    assert_eq!(a.value(u64::MAX).unwrap(), Nimber(naive[71 + ((u64::MAX - 71) % 12) as usize]));
}

/// The naive sequence of the game named by a fixture line.
fn naive_of(game: &[&str], count: usize) -> Vec<u64> {
    match game {
        ["octal", code] => {
            let c: OctalCode = code.parse().unwrap();
            let digits: Vec<u8> = (0..=c.largest_removal()).map(|j| c.digit(j)).collect();
            naive_octal(&digits, count)
        }
        ["subtraction", set, rest @ ..] => {
            let s: SubtractionSet = set.parse().unwrap();
            naive_subtraction(s.elements(), rest == ["misere"], count)
        }
        other => panic!("bad fixture line {other:?}"),
    }
}

/// One fixture: a line `octal CODE` or `subtraction SET [misere]`, then `upto N`.
fn run_fixture(text: &str) -> String {
    let mut game: Vec<&str> = Vec::new();
    let mut upto = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["upto", n] => upto = Some(n.parse::<u64>().unwrap()),
            _ => game = words,
        }
    }
    let upto = upto.expect("an upto line");
    let config = Config { limit: 3000, ..Config::default() };
    let a = match game.as_slice() {
        ["octal", code] => analyse_octal(&code.parse().unwrap(), &config, &mut quiet()).unwrap(),
        ["subtraction", set, rest @ ..] => {
            let play = if rest == ["misere"] { Play::Misere } else { Play::Normal };
            analyse_subtraction(&set.parse().unwrap(), play, &config, &mut quiet()).unwrap()
        }
        other => panic!("bad fixture line {other:?}"),
    };
    // The certificate and every value against the naive definition first.
    let count = (upto as usize + 1).max(a.computed());
    check(&a, &naive_of(&game, count));
    format!("game {}\n{}", a.game(), render::sequence(&a, Some(upto), true, &[]).unwrap())
}

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("octal", "*.txt", |_, text| [("fixtures", run_fixture(text))]);
}

/// A deadline that has passed ends the computation before any value.
#[test]
fn a_passed_deadline_stops_at_once() {
    let kayles: OctalCode = "0.77".parse().unwrap();
    let config = Config { deadline: Some(std::time::Instant::now()), ..Config::default() };
    let err = analyse_octal(&kayles, &config, &mut |_| {}).unwrap_err();
    assert_eq!(err, SequenceError::Limit { limit: Limit::Time, computed: 0 });
}

/// A game whose values come slowly (every split of every heap, 31 removals) is stopped
/// by the deadline, checked by elapsed work, long before its million values.
#[test]
fn a_deadline_stops_a_slow_sequence() {
    let code: OctalCode = "4.7777777777777777777777777777777".parse().unwrap();
    for algorithm in [Algorithm::Sparse, Algorithm::Plain] {
        let start = std::time::Instant::now();
        let deadline = Some(start + std::time::Duration::from_millis(200));
        let config = Config { deadline, algorithm, ..Config::default() };
        let err = analyse_octal(&code, &config, &mut |_| {}).unwrap_err();
        let SequenceError::Limit { limit: Limit::Time, computed } = err else { panic!("{err:?}") };
        assert!(computed < config.limit);
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }
    let set: SubtractionSet = "4294967295".parse().unwrap();
    let config = Config { deadline: Some(std::time::Instant::now()), ..Config::default() };
    let err = analyse_subtraction(&set, Play::Normal, &config, &mut |_| {}).unwrap_err();
    assert_eq!(err, SequenceError::Limit { limit: Limit::Time, computed: 0 });
}
