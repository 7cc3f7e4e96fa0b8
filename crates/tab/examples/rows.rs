#![allow(missing_docs, clippy::print_stdout)]
use gamegraph_tab::*;
fn main() {
    let a: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let b = Board::new(a[1], a[0] as u32).unwrap();
    let s = solve(b, &Config::default(), &mut |_| {}).unwrap();
    for x in (1..=b.rows()).rev() {
        let v: Vec<String> =
            s.row_values(x).unwrap().iter().map(|v| v.depth().to_string()).collect();
        println!("{:4} {}", b.rows() - x, v.join(" "));
    }
}
