//! The `tab.inp` reader never panics, and the tests it accepts read back the same from
//! their own text.
#![no_main]

use gamegraph_tab::parse_tests;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(tests) = parse_tests(data) else { return };
    let mut text = format!("{}\n", tests.len());
    for t in &tests {
        // Every accepted start cell is on its board.
        assert!(t.board.cell(t.start.row, t.start.col).is_ok(), "{t:?}");
        text.push_str(&format!(
            "{} {} {} {}\n",
            t.board.rows(),
            t.board.cols(),
            t.start.row,
            t.start.col
        ));
    }
    assert_eq!(parse_tests(text.as_bytes()).expect("written tests read back"), tests);
});
