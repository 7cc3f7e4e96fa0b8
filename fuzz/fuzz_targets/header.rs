//! The header reader never panics, and what it accepts round-trips through the writer.
#![no_main]

use gamegraph_graph::format::{self, Format, GameFile, ReadOptions};
use gamegraph_graph::ReadError;
use libfuzzer_sys::fuzz_target;

/// The first number of the input (after white space and `#` comments): a header file's N.
fn leading_number(data: &[u8]) -> Option<u64> {
    let mut i = 0;
    loop {
        match data.get(i)? {
            b'#' => i += data[i..].iter().position(|&b| b == b'\n')?,
            b if b.is_ascii_whitespace() || *b == 0x0b => i += 1,
            _ => break,
        }
    }
    let digits: Vec<u8> = data[i..].iter().take_while(|b| b.is_ascii_digit()).copied().collect();
    // An overflowing N is rejected before anything is allocated.
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

fn read_header(data: &[u8]) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(data, &options).map(|(file, _)| file)
}

fuzz_target!(|data: &[u8]| {
    // A valid file may announce up to 2^32 - 1 vertices, which takes 32 GiB of offsets;
    // keep the fuzzer within its memory limit.
    if leading_number(data).is_some_and(|n| n > 1 << 20) {
        return;
    }
    // Detection must not panic. A valid arc list may name vertex 4294967295 (32 GiB of
    // offsets): the vertex limit keeps it small.
    let auto = ReadOptions { max_vertices: Some(1 << 20), ..ReadOptions::default() };
    let _ = format::read(data, &auto);
    if let Ok(file) = read_header(data) {
        let mut out = Vec::new();
        format::write_game(&mut out, &file, Format::Header).expect("writing to memory");
        let again = read_header(&out[..]).expect("written header text reads back");
        assert_eq!(again, file);
    }
});
