//! Fixture graphs: certificates first, then a snapshot of a text report of everything the
//! crate computes.

use std::fmt::Write as _;
use std::io::BufReader;

use gamegraph_graph::ReadError;
use gamegraph_graph::format::{self, Format, GameFile, ReadOptions};
use gamegraph_graph::{Graph, Limit, Vertex};
use gamegraph_kernel::{
    Config, Decided, KernelError, VertexSet, alpha, beta, count_kernels, externally_stable,
    find_kernel, internally_stable, is_kernel, kernels, maximal_internally_stable,
};

fn read_header(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

/// The sorted 1-based ids of `set`, separated by spaces.
fn format_set(set: &VertexSet) -> String {
    let ids: Vec<String> =
        set.iter_ones().map(|i| Vertex::from_index(i).one_based().to_string()).collect();
    ids.join(" ")
}

/// A deterministic text report of `g`: the retrograde split, the number of kernels, the
/// first `limit` kernels, α and β with witnesses.
fn report(g: &Graph, cfg: &Config, limit: usize) -> Result<String, KernelError> {
    let mut s = String::new();
    let found = find_kernel(g, cfg)?;
    let count = count_kernels(g, cfg)?;
    let a = alpha(g, cfg)?;
    let b = beta(g, cfg)?;
    let e = found.explanation;
    let _ = writeln!(s, "vertices {}, arcs {}", g.num_vertices(), g.num_arcs());
    let _ =
        writeln!(s, "retrograde: {} L, {} W, {} D in {} part(s)", e.loss, e.win, e.draw, e.parts);
    let how = match e.decided {
        Decided::Acyclic => "acyclic",
        Decided::Retrograde => "retrograde labels",
        Decided::NoOddCycle => "no odd cycle",
        Decided::AlphaBelowBeta { .. } => "alpha < beta",
        Decided::Search => "search",
        _ => "another argument",
    };
    let _ = writeln!(s, "decided by: {how}");
    let _ = writeln!(s, "kernel: {}", found.kernel.as_ref().map_or("none".to_owned(), format_set));
    let _ = writeln!(s, "kernels: {}", count.count);
    for k in kernels(g, cfg).take(limit) {
        let _ = writeln!(s, "  {}", format_set(&k?));
    }
    let _ = writeln!(s, "alpha: {}: {}", a.size, format_set(&a.set));
    let _ = writeln!(s, "beta: {}: {}", b.size, format_set(&b.set));
    Ok(s)
}

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("kernel", "*.txt", |_, text| {
        let g = read_header(text.as_bytes()).unwrap().graph;
        let cfg = Config::default();
        // Certificates.
        let found = find_kernel(&g, &cfg).unwrap();
        let count = count_kernels(&g, &cfg).unwrap().count;
        if let Some(k) = &found.kernel {
            assert_eq!(is_kernel(&g, k), Ok(Ok(())));
        } else {
            assert_eq!(count, 0);
        }
        let mut listed = 0;
        for k in kernels(&g, &cfg) {
            let k = k.unwrap();
            assert_eq!(is_kernel(&g, &k), Ok(Ok(())));
            assert_eq!(maximal_internally_stable(&g, &k), Ok(Ok(())));
            listed += 1;
        }
        assert_eq!(listed, count);
        let a = alpha(&g, &cfg).unwrap();
        assert_eq!(internally_stable(&g, &a.set), Ok(Ok(())));
        assert_eq!(maximal_internally_stable(&g, &a.set), Ok(Ok(())));
        let b = beta(&g, &cfg).unwrap();
        assert_eq!(externally_stable(&g, &b.set), Ok(Ok(())));
        if a.size < b.size {
            assert_eq!(count, 0);
        }
        [("fixtures", report(&g, &cfg, 10).unwrap())]
    });
}

/// The graph of `fixtures/kernel/NAME`.
fn fixture_graph(name: &str) -> Graph {
    let path = gamegraph_testkit::fixture_dir("kernel").join(name);
    read_header(BufReader::new(std::fs::File::open(path).unwrap())).unwrap().graph
}

#[test]
fn taking_one_to_four_has_the_multiples_of_five_as_its_kernel() {
    let g = fixture_graph("take-one-to-four.txt");
    let cfg = Config::default();
    let found = find_kernel(&g, &cfg).unwrap();
    assert_eq!(format_set(&found.kernel.unwrap()), "1 6 11 16"); // positions 0, 5, 10, 15
    assert_eq!(count_kernels(&g, &cfg).unwrap().count, 1);
    assert_eq!(found.explanation.decided, Decided::Acyclic);
}

#[test]
fn a_time_limit_in_the_past_or_a_set_stop_flag_stops_every_mode() {
    let g = fixture_graph("random-40-300.txt");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    for (cfg, want) in [
        (Config::with_deadline(std::time::Instant::now()), Limit::Time),
        (Config { stop: Some(stop), ..Config::default() }, Limit::Stop),
    ] {
        // The deadline and the stop flag are told apart, in every mode.
        let limit = |r: Result<(), KernelError>| match r {
            Err(
                KernelError::Limit { limit, .. }
                | KernelError::AlphaLimit { limit, .. }
                | KernelError::BetaLimit { limit, .. },
            ) => Some(limit),
            _ => None,
        };
        assert_eq!(limit(find_kernel(&g, &cfg).map(drop)), Some(want));
        assert_eq!(limit(count_kernels(&g, &cfg).map(drop)), Some(want));
        assert_eq!(limit(alpha(&g, &cfg).map(drop)), Some(want));
        assert_eq!(limit(beta(&g, &cfg).map(drop)), Some(want));
        assert_eq!(limit(kernels(&g, &cfg).next().unwrap().map(drop)), Some(want));
    }
}

#[test]
fn the_empty_graph_has_the_empty_kernel() {
    let g = Graph::from_arcs(0, &[]).unwrap();
    let cfg = Config::default();
    let found = find_kernel(&g, &cfg).unwrap();
    assert_eq!(found.kernel.map(|k| k.len()), Some(0));
    assert_eq!(count_kernels(&g, &cfg).unwrap().count, 1);
    assert_eq!(kernels(&g, &cfg).count(), 1);
    assert_eq!(alpha(&g, &cfg).unwrap().size, 0);
    assert_eq!(beta(&g, &cfg).unwrap().size, 0);
}

#[test]
fn a_part_too_large_for_the_bitset_search_is_refused_by_alpha_only() {
    // One directed cycle of 40000 vertices: a single part, above the size α supports; β's
    // search works on sparse lists and takes it (every other vertex).
    let n = 40_000u32;
    let arcs: Vec<_> = (0..n).map(|i| (Vertex(i), Vertex((i + 1) % n))).collect();
    let g = Graph::from_arcs(n as usize, &arcs).unwrap();
    let cfg = Config::default();
    let too_large = |r: Result<gamegraph_kernel::StableSet, KernelError>| {
        matches!(r, Err(KernelError::TooLarge { vertices: 40_000, .. }))
    };
    assert!(too_large(alpha(&g, &cfg)));
    let b = beta(&g, &cfg).unwrap();
    assert_eq!(b.size, 20_000);
    assert_eq!(externally_stable(&g, &b.set), Ok(Ok(())));
    // An even cycle has no odd cycle: its kernel is built without search.
    assert_eq!(find_kernel(&g, &cfg).unwrap().explanation.decided, Decided::NoOddCycle);
}

#[test]
fn more_kernels_than_a_u128_holds_is_an_error() {
    // 130 disjoint 2-cycles: 2^130 kernels.
    let arcs: Vec<_> = (0..130u32)
        .flat_map(|i| [(Vertex(2 * i), Vertex(2 * i + 1)), (Vertex(2 * i + 1), Vertex(2 * i))])
        .collect();
    let g = Graph::from_arcs(260, &arcs).unwrap();
    assert_eq!(count_kernels(&g, &Config::default()), Err(KernelError::CountOverflow));
}
