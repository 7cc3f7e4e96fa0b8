//! Every input in `fixtures/graph/`: first a certificate (the graph survives a round trip
//! through every format), then a snapshot of its summary and its DOT rendering.

use gamegraph_graph::ReadError;
use gamegraph_graph::Summary;
use gamegraph_graph::format::{
    self, DotStyle, Format, GameFile, ReadOptions, write_binary, write_dot, write_header,
};

fn read_header(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

fn read_binary(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

fn round_trips(file: &GameFile) {
    let mut bin = Vec::new();
    write_binary(&mut bin, &file.graph, file.start).unwrap();
    assert_eq!(&read_binary(&bin[..]).unwrap(), file);
    let mut text = Vec::new();
    write_header(&mut text, &file.graph, file.start).unwrap();
    assert_eq!(&read_header(&text[..]).unwrap(), file);
}

#[test]
fn fixtures() {
    gamegraph_testkit::fixtures("graph", "*.txt", |_, text| {
        let text = text.as_bytes();
        let (file, format) = format::read(text, &ReadOptions::default()).unwrap();
        round_trips(&file);
        let mut rendering = format!("format: {}\n", format.name());
        match file.start {
            Some(s) => rendering.push_str(&format!("start: {}\n", s.one_based())),
            None => rendering.push_str("start: -\n"),
        }
        rendering.push_str(&Summary::of(&file.graph).to_string());
        let highlight: Vec<_> = file.start.into_iter().collect();
        let mut dot = Vec::new();
        write_dot(
            &mut dot,
            &file.graph,
            &DotStyle { highlight: Some(&highlight), ..DotStyle::default() },
        )
        .unwrap();
        rendering.push('\n');
        rendering.push_str(&String::from_utf8(dot).unwrap());
        [("fixtures", rendering)]
    });
}
