//! Every input of `fixtures/retro/`: check the certificate, then snapshot the `--all`
//! table beside the input.

use gamegraph_graph::ReadError;
use gamegraph_graph::format::{self, Format, GameFile, ReadOptions};
use gamegraph_retro::{par_solve, solve, verify};

fn read_header(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("retro", "*.txt", |path, text| {
        let file = read_header(text.as_bytes()).unwrap();
        let g = &file.graph;
        let s = solve(g);
        verify(g, &s).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(par_solve(g), s);
        [("all", s.table().to_string())]
    });
}
