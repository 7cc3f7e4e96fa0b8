//! Every input of `fixtures/retro/`: check the certificate, then snapshot the `--all`
//! table beside the input.

use std::fs::File;
use std::io::BufReader;

use gamegraph_graph::format::read_header;
use gamegraph_retro::{par_solve, solve, verify};

#[test]
fn fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../fixtures/retro");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../../fixtures/retro", "*.txt", |path| {
            let file = read_header(BufReader::new(File::open(path).unwrap())).unwrap();
            let g = &file.graph;
            let s = solve(g);
            verify(g, &s).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(par_solve(g), s);
            insta::assert_snapshot!("all", s.table().to_string());
        });
    });
}
