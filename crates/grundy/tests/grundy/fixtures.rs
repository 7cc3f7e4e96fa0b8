//! Fixture graphs in `fixtures/grundy/`: certificate first, then a snapshot of the values.

use gamegraph_graph::ReadError;
use gamegraph_graph::format::{self, Format, GameFile, ReadOptions};
use gamegraph_grundy::{grundy, loopy_grundy, par_loopy_grundy, play_sum};

use crate::common;

fn read_header(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("grundy", "*.txt", |_, text| {
        let game = read_header(text.as_bytes()).unwrap();
        let g = &game.graph;
        let values = loopy_grundy(g);
        // Certificate: g(v) = mex of the followers (and conditions B, C with cycles).
        common::check_gsg(g, &values);
        assert_eq!(par_loopy_grundy(g), values);
        if let Ok(dag) = grundy(g) {
            assert!(g.vertices().all(|v| values.finite(v) == Some(dag[v.index()])));
        }
        let mut out = String::new();
        if let Some(s) = game.start {
            let play = play_sum(g, &values, &[s]).unwrap();
            out.push_str(&format!(
                "start {}: value {}, outcome {}\n",
                s.one_based(),
                values.value(s),
                play.outcome.code()
            ));
        }
        out.push_str(&gamegraph_grundy::render::values(&values));
        [("values", out)]
    });
}
