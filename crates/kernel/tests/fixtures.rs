//! Fixture graphs: certificates first, then a snapshot of the crate's report.

use std::io::BufReader;

use gamegraph_graph::format::read_header;
use gamegraph_kernel::{
    Config, alpha, beta, count_kernels, externally_stable, find_kernel, internally_stable,
    is_kernel, kernels, maximal_internally_stable, report,
};

#[test]
fn fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../fixtures/kernel");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../../fixtures/kernel", "*.txt", |path| {
            let file = std::fs::File::open(path).unwrap();
            let g = read_header(BufReader::new(file)).unwrap().graph;
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
            insta::assert_snapshot!(report(&g, &cfg, 10).unwrap());
        });
    });
}

#[test]
fn spec_single_game_has_the_thesis_kernel() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/kernel/spec4-single-game.txt"
    ))
    .unwrap();
    let g = read_header(text.as_bytes()).unwrap().graph;
    let cfg = Config::default();
    let k = find_kernel(&g, &cfg).unwrap().kernel.unwrap();
    assert_eq!(gamegraph_kernel::format_set(&k), "1 6 11 16"); // positions 0, 5, 10, 15
    assert_eq!(count_kernels(&g, &cfg).unwrap().count, 1);
    assert_eq!(found_by(&g), gamegraph_kernel::Decided::Acyclic);
}

fn found_by(g: &gamegraph_graph::Graph) -> gamegraph_kernel::Decided {
    find_kernel(g, &Config::default()).unwrap().explanation.decided
}
