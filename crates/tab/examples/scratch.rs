#![allow(missing_docs, clippy::print_stdout)]
fn main() {
    let mut args = std::env::args().skip(1);
    let bound: u64 = args.next().unwrap().parse().unwrap();
    let cfg = gamegraph_tab::Config { search_rows: bound, ..Default::default() };
    for m in args.map(|a| a.parse::<u32>().unwrap()) {
        let t = std::time::Instant::now();
        let p = gamegraph_tab::find_period(m, &cfg, &mut |_| {}).unwrap();
        println!("{m}: {:?} {:?}", p, t.elapsed());
    }
}
