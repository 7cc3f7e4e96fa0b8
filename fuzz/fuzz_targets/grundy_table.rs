//! The readers of `grundy --all` tables and of one value (`gamegraph verify grundy`) never
//! panic, and what they accept prints back to text that reads the same.
#![no_main]

use gamegraph_graph::Vertex;
use gamegraph_grundy::{ValueTable, parse_value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&n, text)) = data.split_first() else { return };
    if let Ok(s) = std::str::from_utf8(text)
        && let Ok(v) = parse_value(s.trim())
    {
        assert_eq!(parse_value(&v.to_string()), Ok(v));
    }
    let n = usize::from(n);
    let Ok(table) = ValueTable::read(text, n) else { return };
    assert_eq!(table.len(), n);
    let printed: String =
        (0..n).map(|i| format!("{} {}\n", i + 1, table.value(Vertex(i as u32)))).collect();
    let again = ValueTable::read(printed.as_bytes(), n).expect("a printed table reads back");
    assert!((0..n).all(|i| again.value(Vertex(i as u32)) == table.value(Vertex(i as u32))));
});
