//! β's branch-and-bound against exhaustive search on small random set covers, with the
//! instance generator and the exhaustive minimum the other tests of the folder share.

use super::CoverInstance;
use super::assignment::{FREE, IN, OUT, Selection};
use super::greedy::{greedy_cover, packing_bound};
use super::lagrange::{Lagrange, ROOT};
use super::local_search::{Run, local_search};
use super::search::branch_and_bound;
use crate::Config;
use crate::config::{Budget, Cap};
use gamegraph_testkit::SplitMix64;

/// The minimum cover of `p`, over every subset of its sets.
pub(crate) fn brute(p: &CoverInstance) -> usize {
    let s = p.sets.len();
    (0u32..1 << s)
        .filter(|m| (0..p.elems.len()).all(|e| p.elems[e].iter().any(|&t| m >> t & 1 == 1)))
        .map(u32::count_ones)
        .min()
        .expect("all sets cover") as usize
}

/// `sets` sets over `elems` elements: each element in one random set, and in each other
/// set with probability `per_mille` / 1000.
pub(crate) fn random_instance(
    rng: &mut SplitMix64,
    sets: usize,
    elems: usize,
    per_mille: u64,
) -> CoverInstance {
    let mut lists = vec![Vec::new(); sets];
    for e in 0..elems as u32 {
        // Every element in one set at least, and a few more at random.
        lists[rng.below(sets as u64) as usize].push(e);
        for l in lists.iter_mut() {
            if rng.chance(per_mille) && l.last() != Some(&e) {
                l.push(e);
            }
        }
    }
    CoverInstance::new(lists, elems)
}

#[test]
fn covers_are_minimum_on_random_set_systems() {
    let mut rng = SplitMix64::new(2024);
    for round in 0..400 {
        let sets = 1 + round % 14;
        let elems = 1 + (round * 7) % 20;
        let p = random_instance(&mut rng, sets, elems, 200);
        let f = branch_and_bound(&p, &mut Budget::new(&Config::default()), &mut Cap::new(None))
            .unwrap();
        assert!(f.exact);
        assert_eq!(f.chosen.len(), brute(&p), "{p:?}");
        assert!(is_cover(&p, &f.chosen), "{p:?}: {:?}", f.chosen);
    }
}

#[test]
fn a_node_cap_gives_a_cover_and_a_sound_bound() {
    let mut rng = SplitMix64::new(7);
    for round in 0..200 {
        let p = random_instance(&mut rng, 6 + round % 9, 10 + round % 11, 200);
        let exact = brute(&p);
        let f = branch_and_bound(&p, &mut Budget::new(&Config::default()), &mut Cap::new(Some(1)))
            .unwrap();
        assert!(f.bound <= exact && exact <= f.chosen.len());
    }
}

#[test]
fn the_last_free_set_of_an_element_is_taken() {
    // Element 0 is only in set 1; elements 1 and 2 in sets 0 and 2.
    let p = CoverInstance::new(vec![vec![1, 2], vec![0], vec![1, 2]], 3);
    let mut s = Selection::new(&p);
    let mut b = Budget::new(&Config::default());
    assert!(s.propagate(&mut b).unwrap());
    assert_eq!(s.st, vec![FREE, IN, FREE]);
    s.set_out(0);
    assert!(s.propagate(&mut b).unwrap());
    assert_eq!(s.st, vec![OUT, IN, IN]);
    assert_eq!(s.uncovered, 0);
}

#[test]
fn the_lagrangian_bound_never_exceeds_the_optimum() {
    let mut rng = SplitMix64::new(99);
    for round in 0..200 {
        let p = random_instance(&mut rng, 4 + round % 10, 5 + round % 15, 200);
        let exact = brute(&p);
        let s = Selection::new(&p);
        let mut lag = Lagrange::new(&p);
        let l = lag
            .optimise(&s, exact as f64 + 1.0, ROOT, &mut None, &mut Budget::new(&Config::default()))
            .unwrap();
        assert!(l <= exact as f64 + 1e-9, "{l} > {exact} on {p:?}");
    }
}

pub(crate) fn is_cover(p: &CoverInstance, chosen: &[u32]) -> bool {
    (0..p.elems.len()).all(|e| p.elems[e].iter().any(|t| chosen.contains(t)))
}

#[test]
fn local_search_covers_are_valid_and_reach_the_optimum() {
    let mut rng = SplitMix64::new(31);
    for round in 0..300 {
        let p = random_instance(&mut rng, 3 + round % 12, 4 + round % 17, 200);
        let exact = brute(&p);
        let start = greedy_cover(&p);
        assert!(is_cover(&p, &start));
        let all = vec![true; p.sets.len()];
        let cost = vec![0.0; p.sets.len()];
        let mut b = Budget::new(&Config::default());
        let run = Run {
            usable: &all,
            cost: &cost,
            start: &start,
            limit: start.len(),
            target: 0,
            steps: 5000,
            seed: 1,
        };
        let found = local_search(&p, &run, None, &mut b).unwrap();
        let best = found.clone().unwrap_or(start.clone());
        assert!(is_cover(&p, &best), "{p:?}: {best:?}");
        assert!(best.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(best.len(), exact, "{p:?}");
        if let Some(f) = &found {
            assert!(f.len() < start.len());
        }
        // Sets left out of reach are never taken.
        let mut usable = vec![true; p.sets.len()];
        usable[0] = false;
        let coverable = (0..p.elems.len()).all(|e| p.elems[e].iter().any(|&t| t != 0));
        let from: Vec<u32> = start.iter().copied().filter(|&t| t != 0).collect();
        let run = Run { usable: &usable, start: &from, limit: p.sets.len() + 1, ..run };
        let limited = local_search(&p, &run, None, &mut b).unwrap();
        match limited {
            Some(f) => assert!(coverable && is_cover(&p, &f) && !f.contains(&0)),
            None => assert!(!coverable),
        }
    }
}

#[test]
fn greedy_covers_and_packing_bounds_bracket_the_optimum() {
    let mut rng = SplitMix64::new(5);
    for round in 0..300 {
        let p = random_instance(&mut rng, 1 + round % 14, 1 + round % 19, 200);
        let exact = brute(&p);
        let g = greedy_cover(&p);
        assert!(is_cover(&p, &g));
        assert!(packing_bound(&p) <= exact && exact <= g.len(), "{p:?}");
    }
}

#[test]
fn a_deadline_during_the_search_gives_a_cover_and_a_sound_bound() {
    let mut rng = SplitMix64::new(11);
    let mut inexact = 0;
    for round in 0..300 {
        let p = random_instance(&mut rng, 6 + round % 9, 10 + round % 11, 200);
        let exact = brute(&p);
        let mut b = Budget::new(&Config::default());
        // The clock "passes" at the k-th reading, at every point of the search.
        b.trip = Some((1 + round as u64 % 40, 0));
        let f = branch_and_bound(&p, &mut b, &mut Cap::new(None)).unwrap();
        assert!(is_cover(&p, &f.chosen), "{p:?}");
        assert!(f.bound <= exact && exact <= f.chosen.len(), "{p:?}");
        assert_eq!(f.exact, f.bound == f.chosen.len());
        inexact += usize::from(!f.exact);
    }
    assert!(inexact > 0, "the deadline never left a search inexact");
}
