#![allow(missing_docs, clippy::print_stdout)]
fn main() {
    let cfg = gamegraph_tab::Config::default();
    let ms: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    for m in ms {
        let t = std::time::Instant::now();
        let p = gamegraph_tab::find_period(m, &cfg, &mut |_| {}).unwrap();
        println!("{m}: {:?} {:?}", p, t.elapsed());
    }
}
